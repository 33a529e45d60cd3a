package arith

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/recordtest"
)

// Every GSM8K test line, read as a record as a client sends it, gives the
// prompt GSM8KRecord.Prompt gives, and its worked solution scores 1 on
// answer with format skipped.
func TestTaskFromRecord(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "gsm8k/test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := New(task.Config{})
	rr := tk.(task.RecordReader)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i, line := range lines {
		var rec GSM8KRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		want, _ := rec.Prompt("")
		got, err := rr.FromRecord([]byte(line))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("line %d: %+v (%v), want %+v", i+1, got, err, want)
		}
		if vs := recordtest.SameVerdicts(t, rr.RecordRewards(), got, want, rec.Answer); vs[0].Score != 1 || !vs[1].Skip {
			t.Fatalf("line %d: answer %+v, format %+v", i+1, vs[0], vs[1])
		}
	}
	if len(lines) != 1319 {
		t.Errorf("%d records", len(lines))
	}
}

func TestTaskFromRecordErrors(t *testing.T) {
	rr := recordReader()
	recordtest.Refuses(t, rr, `{}`, `{"question": "q"}`, `{"question": "q", "answer": "no marker"}`, `{"question": "q", "answer": "#### x"}`, `[`, `{"question": 1, "answer": "#### 1"}`,
		`{"question": "q", "answer": null}`, `{"question": "q", "answer": [18]}`, `{"question": "q", "answer": true}`)
	p, err := rr.FromRecord([]byte(`{"id": "g1", "question": "q", "answer": "so\n#### 1,000", "x": 2}`))
	if err != nil || p.ID != "g1" {
		t.Errorf("%+v %v", p, err)
	}
}

// verl's GSM8K preprocessing writes the bare number as ground_truth: as a
// string or a JSON number it is the answer, and "answer: 18" scores 1.
func TestTaskFromRecordBareAnswer(t *testing.T) {
	rr := recordReader()
	for _, rec := range []string{
		`{"question": "q", "answer": "18"}`,
		`{"question": "q", "answer": 18}`,
		`{"question": "q", "answer": "so\n#### 18"}`,
		`{"question": "q", "answer": 18.0}`,
	} {
		p, err := rr.FromRecord([]byte(rec))
		if err != nil {
			t.Errorf("%s: %v", rec, err)
			continue
		}
		v, err := rr.RecordRewards()[0].Verify(t.Context(), p, "9 * 2 = 18\nanswer: 18")
		if err != nil || v.Score != 1 {
			t.Errorf("%s: %+v %v", rec, v, err)
		}
		if v, _ := rr.RecordRewards()[0].Verify(t.Context(), p, "answer: 17"); v.Score != 0 {
			t.Errorf("%s: a wrong answer scores %v", rec, v.Score)
		}
	}
}

func FuzzTaskFromRecord(f *testing.F) {
	f.Add([]byte(`{"question": "Janet has 3 eggs.", "answer": "3 - 1 = <<3-1=2>>2\n#### 2"}`))
	f.Add([]byte(`{"question": "q", "answer": "#### -1.5"}`))
	tk, _ := New(task.Config{})
	recordtest.Fuzz(f, tk.(task.RecordReader), func(task.Prompt) string { return "1 + 2 = 3\nanswer: 3" }, nil)
}

// recordReader is the task with its defaults, as a record reader.
func recordReader() task.RecordReader {
	tk, _ := New(task.Config{})
	return tk.(task.RecordReader)
}
