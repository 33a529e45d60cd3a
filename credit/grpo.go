package credit

import (
	"context"
	"errors"
	"fmt"
)

// grpo is GRPO (ALGORITHMS.md §1): sum the weighted rewards, then normalize
// within the group. Every token of a response gets the response's advantage.
type grpo struct{ c Config }

func init() { Register("grpo", newGRPO) }

func newGRPO(c Config) (Method, error) {
	if err := errors.Join(c.validateEps(), c.validateScale()); err != nil {
		return nil, err
	}
	return &grpo{c}, nil
}

// Advantages returns A[i,t] = A[i] with
//
//	R[i] = Σ_k c[k]·r[k,i],  A[i] = (R[i] − mean_group R) / (std_group R + ε)
//
// (std_batch R with scale "batch"; no division with scale "none").
func (m *grpo) Advantages(_ context.Context, b *Batch) (Advantages, Metrics, error) {
	v, err := newView(b)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("grpo: %w", err)
	}
	a := grpoResponse(v, m.c.Scale, m.c.Eps)
	tokens := newTokens(b.Tokens)
	for i, row := range tokens {
		for t := range row {
			row[t] = a[i]
		}
	}
	met := Metrics{}
	diagnose(v, uniformRelevance(v), met)
	return Advantages{Tokens: tokens, Response: a}, met, nil
}

// grpoResponse is GRPO's response advantage A[i]. A group whose summed
// reward has one value gets exactly 0.
func grpoResponse(v *view, mode ScaleMode, eps float64) []float64 {
	sum := make([]float64, v.n)
	for i := range sum {
		var s float64
		for k := range v.k {
			s += float64(v.c[k] * v.r[k][i])
		}
		sum[i] = s
	}
	var batchStd float64
	if mode == ScaleBatch {
		_, batchStd = normMeanStd(sum, nil)
	}
	a := make([]float64, v.n)
	for _, g := range v.groups {
		if allEqual(sum, g) {
			continue
		}
		mean, std := normMeanStd(sum, g)
		d := 1.0 // ScaleNone
		switch mode {
		case ScaleGroup:
			d = std + eps
		case ScaleBatch:
			d = batchStd + eps
		}
		for _, i := range g {
			a[i] = (sum[i] - mean) / d
		}
	}
	return a
}

// newTokens allocates the [N][T_i] advantage rows in one block.
func newTokens(tokens [][]int32) [][]float64 {
	total := 0
	for _, row := range tokens {
		total += len(row)
	}
	flat := make([]float64, total)
	out := make([][]float64, len(tokens))
	for i, row := range tokens {
		out[i], flat = flat[:len(row):len(row)], flat[len(row):]
	}
	return out
}
