package lab

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/tokenizer"
)

// The focus diagnostic asks how much token credit can change an update.
// A token's advantage A_t moves its logits by A_t · (e_y − p_t), so a
// token the policy samples at p ≈ 1 barely moves whatever its credit:
// under a uniform advantage (GRPO, GDPO) the update already falls on the
// uncertain tokens. Where those are the tokens a verifier checked, span's
// placement has little left to add; where the checked tokens are few
// among many uncertain ones (long free text), it has much.

// FocusReward is the focus diagnostic for one reward: shares on the tokens
// its verdict checked, Share(w) = Σ_{t checked} w_t / Σ_t w_t, averaged
// over the (sample, reward) pairs whose verdict checked some but not all
// tokens. A share is bounded by 1, unlike a localization, whose mean over
// pairs a few one-token spans dominate.
type FocusReward struct {
	Reward  string  `json:"reward"` // a reward's name, or "<name> failed": its verdicts below full marks
	Pairs   int     `json:"pairs"`
	Checked float64 `json:"checked"` // Share(1): the checked tokens' share of the response
	// Uniform is Share(g), g_t = ‖e_y − p_t‖₂: the part of a uniform
	// advantage's logit update (GRPO, GDPO) that lands on checked tokens.
	Uniform float64 `json:"uniform"`
	// Logged is Share(|q|) of the logged relevance q (span, mrtpo), and
	// Weighted Share(|q| · g): the part of its update on checked tokens.
	// Zero where no relevance was logged.
	Logged   float64 `json:"logged"`
	Weighted float64 `json:"weighted"`
	// Gradient is the mean g on the checked tokens and on the others.
	GradientChecked float64 `json:"gradient_checked"`
	GradientOther   float64 `json:"gradient_other"`
}

// FocusReport is the focus diagnostic of a set of logged samples.
type FocusReport struct {
	Samples int           `json:"samples"`
	Skipped int           `json:"skipped"` // samples whose text does not re-encode to their logged tokens
	Rewards []FocusReward `json:"rewards"`
}

// GradientNorm is ‖e_y − p‖₂ = √(1 − 2·p_y + Σ_j p_j²): the size of the
// logit gradient of log p_y, which an advantage scales.
func GradientNorm(p []float32, y int32) float64 {
	var sq float64
	for _, x := range p {
		sq += float64(x) * float64(x)
	}
	return math.Sqrt(max(0, 1-2*float64(p[y])+sq))
}

// Focus replays each sample's response after its prompt on rp (the
// policy that sampled it, for samples of the first step) and measures, per
// reward, how much of a uniform advantage's logit update lands on the
// tokens the verdict checked, and how much of the logged relevance's does;
// then the same over the verdicts that failed ("<reward> failed"). Samples
// whose response does not re-encode to the logged tokens are skipped and
// counted.
func Focus(ctx context.Context, rp credit.Replayer, tok tokenizer.Tokenizer, samples []run.Sample) (FocusReport, error) {
	var rep FocusReport
	var kept []run.Sample
	var reqs []credit.ReplayRequest
	for _, s := range samples {
		ids, ok := loggedIDs(tok, s)
		if !ok {
			rep.Skipped++
			continue
		}
		kept = append(kept, s)
		reqs = append(reqs, credit.ReplayRequest{Prompt: s.Prompt, Response: ids})
	}
	rep.Samples = len(kept)
	if len(reqs) == 0 {
		return rep, fmt.Errorf("focus: none of %d samples re-encodes to its logged tokens", len(samples))
	}
	g, err := gradientNorms(ctx, rp, reqs)
	if err != nil {
		return rep, err
	}
	acc := map[string]*focusSum{}
	var order []string
	for i, s := range kept {
		ranges := reward.NewTokenRanges(s.Offsets)
		for _, v := range s.Verdicts {
			if v.Skip || len(v.Spans) == 0 {
				continue
			}
			strength := make([]float64, len(g[i]))
			ranges.Fill(strength, nil, v.Spans)
			keys := []string{v.Reward}
			if v.Score < 1 {
				keys = append(keys, v.Reward+" failed")
			}
			for _, key := range keys {
				if acc[key] == nil {
					acc[key] = &focusSum{}
					order = append(order, key)
				}
				acc[key].add(g[i], strength, s.Relevance[v.Reward])
			}
		}
	}
	slices.Sort(order) // each reward, then its failed verdicts
	for _, name := range order {
		rep.Rewards = append(rep.Rewards, acc[name].report(name))
	}
	return rep, nil
}

// focusChunk is how many responses one Replay call re-reads: their
// distributions are [T][V] floats each, 0.6 GB per 1,000 tokens at
// Qwen3's 151,936-token vocabulary, so they are reduced to g as they come.
const focusChunk = 8

// gradientNorms replays reqs focusChunk at a time and returns each
// response token's GradientNorm.
func gradientNorms(ctx context.Context, rp credit.Replayer, reqs []credit.ReplayRequest) ([][]float64, error) {
	g := make([][]float64, len(reqs))
	for lo := 0; lo < len(reqs); lo += focusChunk {
		chunk := reqs[lo:min(lo+focusChunk, len(reqs))]
		dists, err := rp.Replay(ctx, chunk) // [R][T_r][V]
		if err != nil {
			return nil, fmt.Errorf("focus: %w", err)
		}
		if len(dists) != len(chunk) {
			return nil, fmt.Errorf("focus: %d answers for %d requests", len(dists), len(chunk))
		}
		for i, r := range chunk {
			if len(dists[i]) != len(r.Response) {
				return nil, fmt.Errorf("focus: %d distributions for %d response tokens", len(dists[i]), len(r.Response))
			}
			g[lo+i] = make([]float64, len(r.Response))
			for t, y := range r.Response {
				g[lo+i][t] = GradientNorm(dists[i][t], y)
			}
		}
	}
	return g, nil
}

// loggedIDs re-encodes a sample's response, with the end token when the
// logged tokens end with it, and reports whether that gives the logged
// tokens (a sampled token sequence need not be the canonical encoding).
func loggedIDs(tok tokenizer.Tokenizer, s run.Sample) ([]int32, bool) {
	ids, offsets := tok.Encode(s.Response)
	n := len(s.Tokens)
	if n > 0 && s.Tokens[n-1] == "" && len(s.Offsets) == n && s.Offsets[n-1][0] == s.Offsets[n-1][1] {
		ids = append(ids, tok.EOS())
		offsets = append(offsets, s.Offsets[n-1])
	}
	if len(ids) != n || !slices.Equal(offsets, s.Offsets) {
		return nil, false
	}
	return ids, true
}

// focusSum accumulates one reward's pairs.
type focusSum struct {
	pairs, logged                           int
	checked, uniform, loggedShare, weighted float64
	gChecked, gOther                        float64
	nChecked, nOther                        int
}

func (f *focusSum) add(g, strength, q []float64) {
	checked, ok := checkedShare(strength)
	if !ok {
		return
	}
	f.pairs++
	f.checked += checked
	f.uniform += share(g, nil, strength)
	for t, w := range strength {
		if w > 0 {
			f.gChecked += g[t]
			f.nChecked++
		} else {
			f.gOther += g[t]
			f.nOther++
		}
	}
	if len(q) == len(g) {
		f.logged++
		f.loggedShare += share(q, nil, strength)
		f.weighted += share(q, g, strength)
	}
}

// checkedShare is the share of tokens with strength > 0, and whether they
// are some but not all (else no share on them says anything).
func checkedShare(strength []float64) (float64, bool) {
	checked := 0
	for _, w := range strength {
		if w > 0 {
			checked++
		}
	}
	return float64(checked) / float64(max(len(strength), 1)), checked > 0 && checked < len(strength)
}

// share is Σ_{t checked} |a_t|·b_t / Σ_t |a_t|·b_t (b = 1 when nil); 0
// when the total is 0.
func share(a, b, strength []float64) float64 {
	var on, all float64
	for t, x := range a {
		x = math.Abs(x)
		if b != nil {
			x *= b[t]
		}
		all += x
		if strength[t] > 0 {
			on += x
		}
	}
	if !(all > 0) {
		return 0
	}
	return on / all
}

func (f *focusSum) report(name string) FocusReward {
	r := FocusReward{Reward: name, Pairs: f.pairs}
	if f.pairs > 0 {
		n := float64(f.pairs)
		r.Checked, r.Uniform = f.checked/n, f.uniform/n
	}
	if f.logged > 0 {
		r.Logged, r.Weighted = f.loggedShare/float64(f.logged), f.weighted/float64(f.logged)
	}
	if f.nChecked > 0 {
		r.GradientChecked = f.gChecked / float64(f.nChecked)
	}
	if f.nOther > 0 {
		r.GradientOther = f.gOther / float64(f.nOther)
	}
	return r
}

// String is the report as a table: one line per reward.
func (r FocusReport) String() string {
	s := fmt.Sprintf("focus (%d samples, %d skipped): share on the checked tokens of the tokens, of a uniform advantage's logit update (g = ‖e_y − p‖), of the logged relevance and of its update\n", r.Samples, r.Skipped)
	s += fmt.Sprintf("  %-12s %6s %8s %8s %8s %8s %10s %10s\n", "reward", "pairs", "checked", "uniform", "logged", "weighted", "g checked", "g other")
	for _, w := range r.Rewards {
		s += fmt.Sprintf("  %-12s %6d %8.3f %8.3f %8.3f %8.3f %10.3f %10.3f\n", w.Reward, w.Pairs, w.Checked, w.Uniform, w.Logged, w.Weighted, w.GradientChecked, w.GradientOther)
	}
	return s
}
