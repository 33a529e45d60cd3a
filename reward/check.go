package reward

import (
	"context"
	"sort"
)

// Checker is a verifier that can be asked once, before any work, whether
// it can work at all (a judge: is its server up, does it know the model).
type Checker interface {
	Verifier
	Check(ctx context.Context) error
}

// Check asks every verifier that can say so (a Checker) whether it can
// work at all: a judge whose server is down or does not know its model
// would otherwise score every response 0, and a run would look like it
// learns nothing. The first failure is returned as the checker gave it.
func Check(ctx context.Context, vs []Verifier) error {
	for _, v := range vs {
		if c, ok := v.(Checker); ok {
			if err := c.Check(ctx); err != nil {
				return err // a checker's error names it (judge q: …)
			}
		}
	}
	return nil
}

// WeightOf is v's weight c[k] in the combined reward by default: a
// Weighted verifier's own (a judge's configured weight), else 1.
func WeightOf(v Verifier) float64 {
	if w, ok := v.(Weighted); ok {
		return w.Weight()
	}
	return 1
}

// Weights is each verifier's c[k]: override's value for its name, else
// WeightOf. unknown lists, sorted, the names in override that are no
// verifier's (a typo would otherwise weigh nothing, silently).
func Weights(vs []Verifier, override map[string]float64) (w []float64, unknown []string) {
	w = make([]float64, len(vs))
	known := map[string]bool{}
	for k, v := range vs {
		w[k], known[v.Name()] = WeightOf(v), true
		if x, ok := override[v.Name()]; ok {
			w[k] = x
		}
	}
	for name := range override {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	return w, unknown
}
