package prm

import (
	"context"
	"errors"
	"fmt"

	"github.com/credo-rl/credo/credit"
)

// Attribution is one response's influence on the PRM's own tokens, before
// it is carried to the policy's.
type Attribution struct {
	Offsets [][2]int  // byte range of each PRM response token
	Token   []float64 // influence of each PRM response token
	Steps   [][2]int  // step byte ranges (empty steps dropped)
	Logits  []float64 // each step's score logit
}

// Influence implements credit.Influencer: for each request it renders the
// prompt and response, splits the response into steps, and computes in
// one forward and one backward pass over the whole batch
//
//	S = Σ_steps S_s,  I[t] = ⟨∂S/∂e_t, e_t − e_null⟩
//
// on every PRM response token, with S_s the request's target of the
// step's logit (credit.InfluenceTarget: the logit itself by default, one
// forward pass more for the others), then carries I to the policy tokens
// of req.Offsets (Carry, or CarryMean when req.Carry asks) and maps each
// step's byte range onto them. A response with no step (empty, or nothing
// but an answer line) gets zero influence and no steps: it has no step
// reward to spread. Bad offsets, a response longer than the PRM's
// context, an unknown null, target or carry are errors.
func (p *PRM) Influence(ctx context.Context, reqs []credit.InfluenceRequest, null credit.NullEmbedding) ([]credit.Influence, error) {
	atts, err := p.Attribute(ctx, reqs, null)
	if err != nil {
		return nil, err
	}
	return p.carryAll(reqs, atts), nil
}

// Attribute is Influence on the PRM's own tokens.
func (p *PRM) Attribute(ctx context.Context, reqs []credit.InfluenceRequest, null credit.NullEmbedding) ([]Attribution, error) {
	b, err := p.prepare(reqs, null)
	if err != nil || len(b.seqs) == 0 {
		return b.atts, err
	}
	encs, atts, seqs, which := b.encs, b.atts, b.seqs, b.which
	sel, err := p.targetSelection(ctx, reqs, b)
	if err != nil {
		return nil, err
	}
	scores, emb, grad, err := p.Model.EmbeddingGradient(ctx, seqs, sel)
	if err != nil {
		return nil, fmt.Errorf("influence of %d responses: %w", len(seqs), err)
	}
	e0, err := p.NullVector(null, len(emb[0][0]))
	if err != nil {
		return nil, err
	}
	for b, i := range which {
		e := encs[i]
		for t := range atts[i].Token {
			atts[i].Token[t] = dotDiff(grad[b][e.start+t], emb[b][e.start+t], e0)
		}
		atts[i].Logits = stepLogits(scores[b], e.ends)
	}
	return atts, nil
}

// rendered is a batch of requests ready to score: every request's empty
// Attribution, and the rendered sequences and step selections of those
// with at least one step (which[b] is sequence b's request).
type rendered struct {
	encs  []encoded
	atts  []Attribution
	seqs  [][]int32
	sel   [][]float32
	which []int
}

// prepare validates the null and the requests and renders them. A request
// with no step keeps zero attribution and is not scored.
func (p *PRM) prepare(reqs []credit.InfluenceRequest, null credit.NullEmbedding) (rendered, error) {
	if err := checkNull(null); err != nil {
		return rendered{}, err
	}
	encs, err := p.encodeRequests(reqs)
	if err != nil {
		return rendered{}, err
	}
	b := rendered{encs: encs, atts: make([]Attribution, len(encs))}
	for i, e := range encs {
		b.atts[i] = Attribution{Offsets: e.offsets, Token: make([]float64, e.respLen()), Steps: e.steps}
		if len(e.ends) > 0 {
			b.seqs, b.sel, b.which = append(b.seqs, e.ids), append(b.sel, selection(e)), append(b.which, i)
		}
	}
	return b, nil
}

// encodeRequests validates and renders a batch.
func (p *PRM) encodeRequests(reqs []credit.InfluenceRequest) ([]encoded, error) {
	encs := make([]encoded, len(reqs))
	for i, r := range reqs {
		if err := errors.Join(checkOffsets(r.Offsets, len(r.Response)), checkTarget(r.Target), checkCarry(r.Carry)); err != nil {
			return nil, fmt.Errorf("influence: response %d: %w", i, err)
		}
		e, err := p.encode(r.Prompt, r.Response, p.Split(r.Prompt, r.Response))
		if err != nil {
			return nil, fmt.Errorf("influence: response %d: %w", i, err)
		}
		encs[i] = e
	}
	return encs, nil
}

// selection is 1 at the tokens where steps are read, 0 elsewhere, so the
// gradient of Σ sel·score is that of S. Two steps read at one token (a
// token holding the end of both) count twice, as S has both logits.
func selection(e encoded) []float32 {
	sel := make([]float32, len(e.ids))
	for _, t := range e.ends {
		sel[t]++
	}
	return sel
}

func stepLogits(scores []float32, ends []int) []float64 {
	out := make([]float64, len(ends))
	for s, t := range ends {
		out[s] = float64(scores[t])
	}
	return out
}

// dotDiff is ⟨g, e − e0⟩ in float64.
func dotDiff(g, e, e0 []float32) float64 {
	var s float64
	for d := range g {
		s += float64(g[d]) * (float64(e[d]) - float64(e0[d]))
	}
	return s
}

// NullVector is e_null of width d: the PRM tokenizer's PAD embedding
// ("pad", also the empty name), the mean of the embedding table ("mean"),
// zeros ("zero") or the EOS embedding ("eos").
func (p *PRM) NullVector(null credit.NullEmbedding, d int) ([]float32, error) {
	var v []float32
	var err error
	switch null {
	case credit.NullPad, "":
		v, err = p.Model.EmbeddingRow(p.Tok.PAD())
	case credit.NullEOS:
		v, err = p.Model.EmbeddingRow(p.Tok.EOS())
	case credit.NullMean:
		v = p.Model.MeanEmbedding()
	case credit.NullZero:
		v = make([]float32, d)
	default:
		return nil, checkNull(null)
	}
	if err != nil {
		return nil, fmt.Errorf("null embedding %q: %w", null, err)
	}
	if len(v) != d {
		return nil, fmt.Errorf("null embedding %q has width %d, the embeddings %d", null, len(v), d)
	}
	return v, nil
}

// checkNull accepts the four null names and the empty one (pad).
func checkNull(null credit.NullEmbedding) error {
	switch null {
	case credit.NullPad, credit.NullMean, credit.NullZero, credit.NullEOS, "":
		return nil
	}
	return fmt.Errorf("null embedding %q is not one of %q, %q, %q, %q", null, credit.NullPad, credit.NullMean, credit.NullZero, credit.NullEOS)
}

// carryAll moves each attribution onto its request's policy tokens.
func (p *PRM) carryAll(reqs []credit.InfluenceRequest, atts []Attribution) []credit.Influence {
	out := make([]credit.Influence, len(atts))
	for i, a := range atts {
		pol := reqs[i].Offsets
		in := credit.Influence{Token: Carry(a.Offsets, a.Token, pol)}
		if reqs[i].Carry == credit.CarryMean {
			in.Token = CarryMean(a.Offsets, a.Token, a.Steps, pol)
		}
		prev := 0
		for s, st := range a.Steps {
			start, end := tokenRange(pol, st[0], st[1], prev)
			prev = end
			in.Steps = append(in.Steps, credit.StepScore{Start: start, End: end, Logit: a.Logits[s]})
		}
		out[i] = in
	}
	return out
}
