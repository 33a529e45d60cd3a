package ifeval

import (
	"bufio"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/recordtest"
)

// Every line of IFEval's input_data.jsonl, read as a record by the task,
// gives the prompt ReadRecords and FromRecord give, and the same verdicts.
func TestTaskFromRecord(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "ifeval/input_data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tk, err := New(task.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rr := tk.(task.RecordReader)
	vs := rr.RecordRewards()
	if len(vs) != 25 || vs[0].Name() != IDs()[0] {
		t.Fatalf("record rewards %d, first %s", len(vs), vs[0].Name())
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		recs, err := ReadRecords(strings.NewReader(sc.Text()))
		if err != nil || len(recs) != 1 {
			t.Fatal(err)
		}
		want, _, err := FromRecord(recs[0])
		if err != nil {
			t.Fatal(err)
		}
		got, err := rr.FromRecord(sc.Bytes())
		if err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		if got.ID != want.ID || got.Text != want.Text || !reflect.DeepEqual(got.Ref.(*Ref).Items[0].Kind, want.Ref.(*Ref).Items[0].Kind) {
			t.Fatalf("line %d: prompt %q, want %q", n+1, got.ID, want.ID)
		}
		recordtest.SameVerdicts(t, vs, got, want, want.Text)
		n++
	}
	if n != 541 {
		t.Errorf("%d records, want 541", n)
	}
}

func TestTaskFromRecordErrors(t *testing.T) {
	rr := recordReader()
	recordtest.Refuses(t, rr,
		`{}`, `[]`, `{"prompt": "x", "instruction_id_list": []}`,
		`{"prompt": "x", "instruction_id_list": ["punctuation:no_comma"], "kwargs": []}`,
		`{"prompt": "x", "instruction_id_list": ["no:such"], "kwargs": [{}]}`,
		`{"prompt": 3, "instruction_id_list": [], "kwargs": []}`,
		`{"prompt": "x", "instruction_id_list": ["length_constraints:number_words"], "kwargs": [{"num_words": -1, "relation": "at least"}]}`)
	// The Hugging Face copy writes every argument, null where unused, and
	// other columns: accepted.
	p, err := rr.FromRecord([]byte(`{"key": 7, "prompt": "x", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{"num_words": null}], "extra": 1}`))
	if err != nil || p.ID != "ifeval-7" {
		t.Errorf("prompt %+v, %v", p, err)
	}
	p, err = rr.FromRecord([]byte(`{"prompt": "x", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [null]}`))
	if err != nil || p.ID != "" {
		t.Errorf("without a key: prompt %+v, %v", p, err)
	}
}

func FuzzTaskFromRecord(f *testing.F) {
	f.Add([]byte(`{"key": 1000, "prompt": "Write.", "instruction_id_list": ["punctuation:no_comma", "length_constraints:number_words"], "kwargs": [{}, {"relation": "at least", "num_words": 3}]}`))
	f.Add([]byte(`{"prompt": "x", "instruction_id_list": ["keywords:existence"], "kwargs": [{"keywords": ["a", null]}]}`))
	f.Add([]byte(`{"prompt": "x", "instruction_id_list": ["detectable_format:number_bullet_lists"], "kwargs": [{"num_bullets": 1e300}]}`))
	tk, _ := New(task.Config{})
	recordtest.Fuzz(f, tk.(task.RecordReader), func(task.Prompt) string { return "A response, with * one bullet.\n\n* two" }, nil)
}

// recordReader is the task with its defaults, as a record reader.
func recordReader() task.RecordReader {
	tk, _ := New(task.Config{})
	return tk.(task.RecordReader)
}
