package credit

import (
	"context"
	"fmt"
	"math"
)

// Config.ScaleTo's values: every method at GRPO's step size, or each at
// its own (raw, as empty).
const (
	ScaleToGRPO = "grpo"
	ScaleToRaw  = "raw"
)

// scaled gives any method GRPO's step size (Config.ScaleTo = "grpo").
type scaled struct {
	inner Method
	c     Config
}

// Advantages runs the inner method, then multiplies its token and response
// advantages by
//
//	f = mean_{i,t} |A_grpo[i]| / mean_{i,t} |A[i,t]|
//
// with both means over every response token of the batch and A_grpo GRPO's
// response advantage on the same batch (Config.Scale, Config.Eps). A
// method's placement and its response-level normalization change where
// and how large its advantages are; with f the batch's mean |A| is GRPO's,
// so methods are compared at one step size. f = 1 when either mean is 0
// (no group varies). Metrics: credit/scale (f) and credit/abs_adv_raw (the
// inner method's mean |A|).
func (m *scaled) Advantages(ctx context.Context, b *Batch) (Advantages, Metrics, error) {
	adv, met, err := m.inner.Advantages(ctx, b)
	if err != nil {
		return adv, met, err
	}
	v, err := newView(b)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("scale: %w", err)
	}
	ref := grpoResponse(v, m.c.Scale, m.c.Eps)
	var target, raw float64
	tokens := 0
	for i, row := range adv.Tokens {
		target += math.Abs(ref[i]) * float64(len(row))
		for _, a := range row {
			raw += math.Abs(a)
		}
		tokens += len(row)
	}
	f := 1.0
	if target > 0 && raw > 0 {
		f = target / raw
	}
	if met == nil {
		met = Metrics{}
	}
	met["credit/scale"] = f
	if tokens > 0 {
		met["credit/abs_adv_raw"] = raw / float64(tokens)
	}
	if f != 1 {
		for _, row := range adv.Tokens {
			for t := range row {
				row[t] *= f
			}
		}
		for i := range adv.Response {
			adv.Response[i] *= f
		}
	}
	return adv, met, nil
}

// Requires: the scaled method needs what the inner one needs.
func (m *scaled) Requires() Requirements { return RequirementsOf(m.inner) }
