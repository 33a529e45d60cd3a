package credit

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	want := []string{"gdpo", "grpo", "mrtpo", "p2t", "p2t-code", "p2t-step", "span"}
	for _, n := range want {
		if !slices.Contains(Names(), n) {
			t.Errorf("Names() = %v lacks %q", Names(), n)
		}
		for _, name := range []string{n, "saw+" + n} {
			if _, err := New(name, DefaultConfig()); err != nil {
				t.Errorf("New(%q): %v", name, err)
			}
		}
	}
	if !slices.IsSorted(Names()) {
		t.Errorf("Names() = %v is not sorted", Names())
	}
	for _, bad := range []string{"nope", "saw+nope", "saw+saw+gdpo", "saw+", ""} {
		_, err := New(bad, DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), "gdpo, grpo, mrtpo, p2t, p2t-code, p2t-step, span") {
			t.Errorf("New(%q): err = %v, want it to list the known methods", bad, err)
		}
	}
	// An invalid option the method reads is an error naming it; one it does
	// not read is not.
	c := DefaultConfig()
	c.Gamma = 2
	if _, err := New("span", c); err == nil || !strings.Contains(err.Error(), "gamma") {
		t.Errorf("span with γ = 2: err = %v", err)
	}
	if _, err := New("gdpo", c); err != nil {
		t.Errorf("gdpo does not read gamma: %v", err)
	}
	c = DefaultConfig()
	c.SAWOffsets = map[string]float64{"x": math.NaN()}
	if _, err := New("saw+gdpo", c); err == nil || !strings.Contains(err.Error(), "saw_offsets") {
		t.Errorf("saw+gdpo with a NaN offset: err = %v", err)
	}
	if _, err := New("gdpo", c); err != nil {
		t.Errorf("gdpo does not read saw_offsets: %v", err)
	}
}

type nopMethod struct{}

func (nopMethod) Advantages(context.Context, *Batch) (Advantages, Metrics, error) {
	return Advantages{}, Metrics{}, nil
}

func TestRegisterPanics(t *testing.T) {
	f := func(Config) (Method, error) { return nopMethod{}, nil }
	for _, name := range []string{"gdpo", "saw+x", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
				}
			}()
			Register(name, f)
		}()
	}
}
