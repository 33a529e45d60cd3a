package prm

import (
	"context"
	"fmt"
	"math"

	"github.com/credo-rl/credo/credit"
)

// AgreementReport compares the one-pass gradient influence with the exact
// (re-scoring) attribution on the PRM's tokens.
type AgreementReport struct {
	// Steps counts the steps compared: those with at least
	// minAgreementTokens tokens on which both attributions vary.
	Steps int `json:"steps"`
	// Spearman is the mean over those steps of the within-step Spearman
	// correlation of I[t] with ΔS_t.
	Spearman float64 `json:"spearman"`
	// SpearmanAbs is the same for |I| and |ΔS|, the ranking P2T's
	// magnitude normalisation uses.
	SpearmanAbs float64 `json:"spearman_abs"`
	// RelError is Σ|I − ΔS| / Σ|ΔS| over every response token.
	RelError float64 `json:"rel_error"`
}

// minAgreementTokens: with two tokens a rank correlation is ±1 by
// construction, so a step needs three to say anything.
const minAgreementTokens = 3

// Agreement runs Attribute and ExactAttribute on the same requests and
// compares them step by step.
func (p *PRM) Agreement(ctx context.Context, reqs []credit.InfluenceRequest, null credit.NullEmbedding) (AgreementReport, error) {
	var rep AgreementReport
	grad, err := p.Attribute(ctx, reqs, null)
	if err != nil {
		return rep, fmt.Errorf("agreement: %w", err)
	}
	exact, err := p.ExactAttribute(ctx, reqs, null)
	if err != nil {
		return rep, fmt.Errorf("agreement: %w", err)
	}
	var sum, sumAbs, diff, norm float64
	var nAbs int
	for i, g := range grad {
		x := exact[i]
		for t := range g.Token {
			diff += math.Abs(g.Token[t] - x.Token[t])
			norm += math.Abs(x.Token[t])
		}
		prev := 0
		for _, st := range g.Steps {
			lo, hi := tokenRange(g.Offsets, st[0], st[1], prev)
			prev = hi
			if hi-lo < minAgreementTokens {
				continue
			}
			a, b := g.Token[lo:hi], x.Token[lo:hi]
			if r, ok := Spearman(a, b); ok {
				sum += r
				rep.Steps++
			}
			if r, ok := Spearman(absAll(a), absAll(b)); ok {
				sumAbs += r
				nAbs++
			}
		}
	}
	if rep.Steps > 0 {
		rep.Spearman = sum / float64(rep.Steps)
	}
	if nAbs > 0 {
		rep.SpearmanAbs = sumAbs / float64(nAbs)
	}
	if norm > 0 {
		rep.RelError = diff / norm
	}
	return rep, nil
}

func absAll(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Abs(v)
	}
	return out
}
