package arith

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/task"
)

// Every GSM8K test line read as a record gives GSM8KRecord.Prompt's prompt,
// and its worked solution scores 1 on answer with format skipped.
func TestTaskFromRecord(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "gsm8k/test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadGSM8K(f)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := New(task.Config{})
	rr := tk.(task.RecordReader)
	vs := rr.RecordRewards()
	if len(vs) != 2 || vs[0].Name() != "answer" {
		t.Fatalf("record rewards %v", vs)
	}
	for i, rec := range recs {
		want, err := rec.Prompt("")
		if err != nil {
			t.Fatal(err)
		}
		line := []byte(`{"question": ` + quote(rec.Question) + `, "answer": ` + quote(rec.Answer) + `}`)
		got, err := rr.FromRecord(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("line %d: %+v, want %+v", i+1, got, want)
		}
		a, _ := vs[0].Verify(context.Background(), got, rec.Answer)
		b, _ := vs[1].Verify(context.Background(), got, rec.Answer)
		if a.Score != 1 || !b.Skip {
			t.Fatalf("line %d: answer %+v, format %+v", i+1, a, b)
		}
	}
	if len(recs) != 1319 {
		t.Errorf("%d records", len(recs))
	}
}

func TestTaskFromRecordErrors(t *testing.T) {
	tk, _ := New(task.Config{})
	rr := tk.(task.RecordReader)
	for _, rec := range []string{`{}`, `{"question": "q"}`, `{"question": "q", "answer": "no marker"}`, `{"question": "q", "answer": "#### x"}`, `[`, `{"question": 1, "answer": "#### 1"}`} {
		if _, err := rr.FromRecord([]byte(rec)); err == nil {
			t.Errorf("%s: no error", rec)
		}
	}
	p, err := rr.FromRecord([]byte(`{"id": "g1", "question": "q", "answer": "so\n#### 1,000", "x": 2}`))
	if err != nil || p.ID != "g1" {
		t.Errorf("%+v %v", p, err)
	}
}

func FuzzTaskFromRecord(f *testing.F) {
	f.Add([]byte(`{"question": "Janet has 3 eggs.", "answer": "3 - 1 = <<3-1=2>>2\n#### 2"}`))
	f.Add([]byte(`{"question": "q", "answer": "#### -1.5"}`))
	tk, _ := New(task.Config{})
	rr := tk.(task.RecordReader)
	f.Fuzz(func(t *testing.T, rec []byte) {
		p, err := rr.FromRecord(rec)
		if err != nil {
			return
		}
		for _, v := range rr.RecordRewards() {
			if _, err := v.Verify(context.Background(), p, "1 + 2 = 3\nanswer: 3"); err != nil {
				t.Fatalf("%s: %v", v.Name(), err)
			}
		}
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
