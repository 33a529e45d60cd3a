package prm

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/credit"
)

// ExactInfluence is the slow reference for Influence: for every response
// token t it replaces e_t by e_null, re-scores, and takes
//
//	ΔS_t = S − S(e_t ← e_null),  S = Σ_steps S_s
//
// with S_s the request's target of the step's logit (the logit itself by
// default), then carries ΔS to the policy tokens as Influence does. It
// costs one forward pass per response token (batched by PRM.Batch). For a
// model linear in its embeddings and the logit target,
// ΔS_t = ⟨∂S/∂e_t, e_t − e_null⟩ exactly.
func (p *PRM) ExactInfluence(ctx context.Context, reqs []credit.InfluenceRequest, null credit.NullEmbedding) ([]credit.Influence, error) {
	atts, err := p.ExactAttribute(ctx, reqs, null)
	if err != nil {
		return nil, err
	}
	return p.carryAll(reqs, atts), nil
}

// ExactAttribute is ExactInfluence on the PRM's own tokens. Its Logits
// are the unmodified scores from ScoreEmbeddings.
func (p *PRM) ExactAttribute(ctx context.Context, reqs []credit.InfluenceRequest, null credit.NullEmbedding) ([]Attribution, error) {
	b, err := p.prepare(reqs, null)
	if err != nil || len(b.seqs) == 0 {
		return b.atts, err
	}
	encs, atts, seqs, sel, which := b.encs, b.atts, b.seqs, b.sel, b.which
	// The embeddings come from the gradient call (its gradient is unused):
	// the model gives no cheaper way to look a batch of them up.
	var emb [][][]float32
	for lo := 0; lo < len(seqs); lo += p.batch() {
		hi := min(lo+p.batch(), len(seqs))
		_, e, _, err := p.Model.EmbeddingGradient(ctx, seqs[lo:hi], sel[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("exact influence: embeddings: %w", err)
		}
		emb = append(emb, e...)
	}
	e0, err := p.NullVector(null, len(emb[0][0]))
	if err != nil {
		return nil, err
	}
	// Job −1 scores a response unmodified; job t ≥ 0 with token t nulled.
	type job struct{ b, t int }
	var jobs []job
	for b, i := range which {
		jobs = append(jobs, job{b, -1})
		for t := range encs[i].respLen() {
			jobs = append(jobs, job{b, t})
		}
	}
	base := make([]float64, len(which))
	for lo := 0; lo < len(jobs); lo += p.batch() {
		hi := min(lo+p.batch(), len(jobs))
		batch := make([][][]float32, hi-lo)
		for j, jb := range jobs[lo:hi] {
			rows := emb[jb.b]
			if jb.t >= 0 {
				rows = append([][]float32(nil), rows...) // rows are shared, never written
				rows[encs[which[jb.b]].start+jb.t] = e0
			}
			batch[j] = rows
		}
		scores, err := p.Model.ScoreEmbeddings(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("exact influence: %w", err)
		}
		for j, jb := range jobs[lo:hi] {
			i := which[jb.b]
			logits := stepLogits(scores[j], encs[i].ends)
			var s float64
			for _, l := range logits {
				v, _ := stepScalar(reqs[i].Target, l)
				s += v
			}
			if jb.t < 0 {
				base[jb.b], atts[i].Logits = s, logits
			} else {
				atts[i].Token[jb.t] = base[jb.b] - s // job −1 of b precedes b's others
			}
		}
	}
	return atts, nil
}
