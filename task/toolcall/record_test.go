package toolcall

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/recordtest"
)

// record merges a BFCL question line with its possible answer's ground truth.
func record(t testing.TB, question, answer string) string {
	a, err := ParseJSON(answer)
	if err != nil {
		t.Fatal(err)
	}
	gt, _ := a.Get("ground_truth")
	return strings.TrimSuffix(strings.TrimSpace(question), "}") + `, "ground_truth": ` + gt.String() + "}"
}

// Every BFCL case read as one record gives the prompt ParseBFCL gives of
// its two lines, and the same verdicts on its reference call.
func TestTaskFromRecord(t *testing.T) {
	tk, _ := New(task.Config{})
	rr := tk.(task.RecordReader)
	if got := len(rr.RecordRewards()); got != 2 {
		t.Fatalf("%d record rewards", got)
	}
	n := 0
	for _, name := range []string{"BFCL_v4_simple_python.json", "BFCL_v4_multiple.json"} {
		qs := readLines(t, "bfcl/"+name)
		as := readLines(t, "bfcl/possible_answer/"+name)
		for i := range qs {
			want, err := ParseBFCL(qs[i], as[i])
			if err != nil {
				t.Fatal(err)
			}
			got, err := rr.FromRecord([]byte(record(t, qs[i], as[i])))
			if err != nil {
				t.Fatalf("%s line %d: %v", name, i+1, err)
			}
			if got.ID != want.ID || got.Text != want.Text {
				t.Fatalf("%s line %d: prompt %q %q, want %q %q", name, i+1, got.ID, got.Text, want.ID, want.Text)
			}
			resp := renderResponse("plan", want.Ref.(*Ref).ReferenceCall())
			for _, v := range recordtest.SameVerdicts(t, rr.RecordRewards(), got, want, resp) {
				if v.Score != 1 {
					t.Fatalf("%s: the reference call scores %+v", want.ID, v)
				}
			}
			n++
		}
	}
	if n != 600 {
		t.Errorf("%d cases, want 600", n)
	}
}

func TestTaskFromRecordErrors(t *testing.T) {
	rr := recordReader()
	recordtest.Refuses(t, rr,
		`{}`, `[1]`, `{"function": []}`, `{"ground_truth": []}`,
		`{"id": 3, "function": [], "ground_truth": [{"f": {}}]}`,
		`{"function": [{"name": "f"}], "ground_truth": [{"g": {}}]}`,
		`{"function": [{"name": "f"}], "ground_truth": [{"f": {"x": 1}}]}`,
		`{"function": [{"name": "f"}], "ground_truth": [{"f": {}}]`)
	p, err := rr.FromRecord([]byte(`{"function": [{"name": "f", "parameters": {"type": "dict", "properties": {"x": {"type": "integer"}}, "required": ["x"]}}], "ground_truth": [{"f": {"x": [1]}}], "other": true}`))
	if err != nil || p.ID != "" {
		t.Fatalf("prompt %+v, %v", p, err)
	}
}

func FuzzTaskFromRecord(f *testing.F) {
	f.Add([]byte(`{"id": "simple_python_0", "question": [[{"role": "user", "content": "Find the area."}]], "function": [{"name": "calculate_triangle_area", "description": "d", "parameters": {"type": "dict", "properties": {"base": {"type": "integer"}, "unit": {"type": "string"}}, "required": ["base"]}}], "ground_truth": [{"calculate_triangle_area": {"base": [10], "unit": ["units", ""]}}]}`))
	f.Add([]byte(`{"function": [{"name": "f", "parameters": {"properties": {"xs": {"type": "array", "items": {"type": "float"}}}}}], "ground_truth": [{"f": {"xs": [[1.5, 2]]}}]}`))
	tk, _ := New(task.Config{})
	recordtest.Fuzz(f, tk.(task.RecordReader), func(p task.Prompt) string { return renderResponse("x", p.Ref.(*Ref).ReferenceCall()) }, nil)
}

// recordReader is the task with its defaults, as a record reader.
func recordReader() task.RecordReader {
	tk, _ := New(task.Config{})
	return tk.(task.RecordReader)
}
