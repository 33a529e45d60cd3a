package report_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/report"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rl"
)

// TestSampleMirrorsRL keeps report.Sample in step with rl.SampleRecord:
// a record rl writes reads back field for field.
func TestSampleMirrorsRL(t *testing.T) {
	rec := rl.SampleRecord{
		Step: 4, Index: 9, Prompt: "p", Response: "ab c", Tokens: []string{"ab", " c", ""},
		Offsets: [][2]int{{0, 2}, {2, 4}, {4, 4}}, Advantages: []float64{0.5, -1, 0}, Advantage: 0.25,
		Relevance: map[string][]float64{"call": {0, 1, 0.5}},
		Verdicts:  []rl.VerdictRecord{{Reward: "call", Score: 0.5, Info: "ref", Spans: []reward.Span{{Start: 1, End: 3, Strength: 2}}, Reason: "why", Skip: true}},
	}
	line, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := report.ParseSamples(strings.NewReader(string(line)))
	if err != nil || len(got) != 1 {
		t.Fatalf("ParseSamples: %v, %d samples", err, len(got))
	}
	back, err := json.Marshal(got[0])
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	if json.Unmarshal(line, &a) != nil || json.Unmarshal(back, &b) != nil {
		t.Fatal("unmarshal")
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("rl wrote %s\nreport reads it as %s", line, back)
	}
	rt, st := reflect.TypeFor[rl.SampleRecord](), reflect.TypeFor[report.Sample]()
	if rt.NumField() != st.NumField() {
		t.Errorf("rl.SampleRecord has %d fields, report.Sample %d", rt.NumField(), st.NumField())
	}
	for i := range rt.NumField() {
		if f, ok := st.FieldByName(rt.Field(i).Name); !ok || f.Tag != rt.Field(i).Tag {
			t.Errorf("field %s: rl tag %q, report %q (present %v)", rt.Field(i).Name, rt.Field(i).Tag, f.Tag, ok)
		}
	}
}
