package records_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/records"
)

// A file of GSM8K lines becomes a task: a fixed split, the format's
// rewards, and the worked answers as demonstrations.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "records")
	defer os.RemoveAll(dir)
	var lines []string
	for i := range 10 {
		lines = append(lines, fmt.Sprintf(`{"question": "What is %d + %d?", "answer": "%d + %d = <<%d+%d=%d>>%d\n#### %d"}`, i, i, i, i, i, i, 2*i, 2*i, 2*i))
	}
	path := filepath.Join(dir, "mine.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)

	tk, err := records.Open(context.Background(), path, records.Options{Format: "gsm8k", TestFraction: 0.3})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tk.Close()
	fmt.Println(tk.Name(), tk.Len(task.Train), "train", tk.Len(task.Test), "test")
	fmt.Println(strings.Join(reward.NamesOf(tk.Rewards()), ", "))
	d := tk.Demos(1, 1, task.DemoConfig{})[0]
	fmt.Printf("%q\n", d.Response)
	// Output:
	// records-gsm8k 6 train 4 test
	// answer, format
	// "6 + 6 = 12\nanswer: 12"
}
