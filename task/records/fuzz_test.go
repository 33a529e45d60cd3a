package records

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/task"
)

// No file of records makes Open or a verdict panic: every prompt it
// accepts is judged by each reward, on an empty response and on its
// reference.
func FuzzOpen(f *testing.F) {
	f.Add(uint8(0), []byte(`{"key": 1, "prompt": "Write. No commas.", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
{"key": 2, "prompt": "Say hi in 3 words.", "instruction_id_list": ["length_constraints:number_words"], "kwargs": [{"relation": "less than", "num_words": 3}]}`))
	f.Add(uint8(1), []byte("{\"question\": \"a?\", \"answer\": \"x <<1+1=2>>\\n#### 2\"}\n{\"question\": \"b?\", \"answer\": \"#### 3\"}\nnot json\n"))
	f.Add(uint8(2), []byte(`{"id": "s0", "question": [[{"role": "user", "content": "add"}]], "function": [{"name": "add", "description": "adds", "parameters": {"type": "dict", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}], "ground_truth": [{"add": {"a": [1]}}]}
{"id": "s1", "function": [], "ground_truth": []}`))
	formats := []string{"ifeval", "gsm8k", "bfcl"}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tk, err := Open(context.Background(), path, Options{Format: formats[int(which)%len(formats)], TestFraction: 0.5})
		if err != nil {
			return
		}
		defer tk.Close()
		for s := range 2 {
			for i := range tk.Len(task.Split(s)) {
				p := tk.Prompt(task.Split(s), i)
				ref, _ := tk.Reference(p)
				for _, v := range tk.Rewards() {
					v.Verify(context.Background(), p, "")
					v.Verify(context.Background(), p, ref)
				}
			}
		}
		tk.Demos(3, 1, task.DemoConfig{BlockRate: 0.5})
	})
}
