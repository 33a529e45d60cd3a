package credit

import (
	"context"
	"fmt"
	"math"
)

// saw is SAW (ALGORITHMS.md §1), a reweighting of the rewards that composes
// with any method: it sets the batch's weights, then runs the inner method.
type saw struct {
	name    string
	offsets map[string]float64
	inner   Method
}

// Advantages replaces the weights by
//
//	CV[k] = std_batch(r[k] + o[k]) / |mean_batch(r[k] + o[k])|
//	c[k]  = K·CV[k] / Σ_j CV[j]
//
// (constants: no gradient flows through them) and calls the inner method
// with them. The statistics leave out verdicts marked Skip, where the reward
// does not apply. A reward that does not vary over the batch has CV = 0; when
// none varies, the batch's own weights are kept. A reward that varies around
// a mean of 0 has no finite CV: that is an error asking for an offset. The
// weights are reported as credit/saw/weight/<reward>.
func (m *saw) Advantages(ctx context.Context, b *Batch) (Advantages, Metrics, error) {
	v, err := newView(b)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("%s: %w", m.name, err)
	}
	cv := make([]float64, v.k)
	var total float64
	for k := range v.k {
		x := make([]float64, 0, v.n)
		for i := range v.n {
			if !v.skip[k][i] {
				x = append(x, v.r[k][i]+m.offsets[v.names[k]])
			}
		}
		if len(x) < 2 || allEqual(x, allIndices(len(x))) {
			continue // no spread: CV = 0
		}
		mean, std := normMeanStd(x, nil)
		if math.Abs(mean) < 1e-12*std {
			return Advantages{}, nil, fmt.Errorf("%s: reward %q varies around a batch mean of %v, so its coefficient of variation is unbounded; set saw_offsets[%q]",
				m.name, v.names[k], mean, v.names[k])
		}
		cv[k] = std / math.Abs(mean)
		total += cv[k]
	}
	nb := *b
	if total > 0 {
		nb.Weights = make([]float64, v.k)
		for k := range cv {
			nb.Weights[k] = float64(v.k) * cv[k] / total
		}
	}
	adv, met, err := m.inner.Advantages(ctx, &nb)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("%s: %w", m.name, err)
	}
	if met == nil {
		met = Metrics{}
	}
	for k := range v.k {
		met["credit/saw/weight/"+v.names[k]] = v.c[k]
		if nb.Weights != nil {
			met["credit/saw/weight/"+v.names[k]] = nb.Weights[k]
		}
	}
	return adv, met, nil
}
