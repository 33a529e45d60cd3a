package reward

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// named is a verifier with only a name.
type named string

func (n named) Name() string { return string(n) }
func (named) Verify(context.Context, Prompt, string) (Verdict, error) {
	return Verdict{}, nil
}

// checked is a verifier that can say whether it works.
type checked struct {
	named
	err error
}

func (c checked) Check(context.Context) error { return c.err }

// TestCheck: the first Checker that cannot work stops the check with its
// error; verifiers that cannot say are passed.
func TestCheck(t *testing.T) {
	down := errors.New("judge q: server down")
	if err := Check(context.Background(), []Verifier{named("a"), checked{"b", nil}}); err != nil {
		t.Errorf("working verifiers: %v", err)
	}
	if err := Check(context.Background(), []Verifier{named("a"), checked{"b", down}, checked{"c", errors.New("other")}}); !errors.Is(err, down) {
		t.Errorf("a judge down: %v", err)
	}
}

// weighted is a verifier with a weight of its own.
type weighted struct {
	named
	w float64
}

func (v weighted) Weight() float64 { return v.w }

// TestWeights: a verifier weighs 1, or its own weight, or what the
// override says; override names of no verifier are listed, sorted.
func TestWeights(t *testing.T) {
	vs := []Verifier{named("a"), weighted{"b", 0.5}, weighted{"c", 2}}
	for _, tc := range []struct {
		override map[string]float64
		want     []float64
		unknown  []string
	}{
		{nil, []float64{1, 0.5, 2}, nil},
		{map[string]float64{"a": 3, "c": 0}, []float64{3, 0.5, 0}, nil},
		{map[string]float64{"z": 1, "b": 4, "y": 2}, []float64{1, 4, 2}, []string{"y", "z"}},
	} {
		w, unknown := Weights(vs, tc.override)
		if fmt.Sprint(w) != fmt.Sprint(tc.want) || fmt.Sprint(unknown) != fmt.Sprint(tc.unknown) {
			t.Errorf("Weights(%v) = %v, %v; want %v, %v", tc.override, w, unknown, tc.want, tc.unknown)
		}
	}
}
