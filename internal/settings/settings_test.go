package settings

import (
	"errors"
	"math"
	"testing"
)

func TestNonFinite(t *testing.T) {
	type inner struct {
		B float64 `json:"b"`
	}
	type embedded struct {
		E float64 `json:"e"`
	}
	type cfg struct {
		A     float64            `json:"a"`
		In    inner              `json:"in"`
		M     map[string]float64 `json:"m"`
		Skip  float64            `json:"-"`
		NoTag float64
		embedded
	}
	v := cfg{A: math.NaN(), In: inner{B: math.Inf(1)}, M: map[string]float64{"x": math.Inf(-1)}, Skip: math.NaN(), NoTag: math.NaN(), embedded: embedded{E: 1}}
	got := map[string]bool{}
	for _, p := range NonFinite(v, "") {
		got[p.Key] = true
	}
	for _, k := range []string{"a", "in.b", "m.x", "NoTag"} {
		if !got[k] {
			t.Errorf("NonFinite missed %s (got %v)", k, got)
		}
	}
	if len(got) != 4 {
		t.Errorf("NonFinite reported %v, want exactly a, in.b, m.x, NoTag", got)
	}
}

func TestProblems(t *testing.T) {
	var ps Problems
	if ps.Err() != nil {
		t.Fatal("no problems is not an error")
	}
	ps.Add("lr", "must be positive, got %v", -1)
	ps = append(ps, Problem{"steps", "must be at least 1"})
	if got := ps.Prefixed("warmup.").Error(); got != "warmup.lr: must be positive, got -1\nwarmup.steps: must be at least 1" {
		t.Errorf("Prefixed.Error() = %q", got)
	}
	var se *Error
	if err := error(&Error{ps}); !errors.As(err, &se) || !errors.As(err, new(Problems)) {
		t.Error("Error does not unwrap to its Problems")
	}
}
