package prm

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// linearTargetWant is, for the linear scorer, what a target's gradient
// influence and exact attribution must be on each response token. Its
// step logits are l_s = bias + Σ_{v ≤ end_s} ⟨w_v, e_v⟩, so nulling the
// token at sequence position v moves every step read at or after v by
// c_v = ⟨w_v, e_v − e_null⟩:
//
//	gradient: I[t] = Σ_{s: end_s ≥ v} S′(l_s)·c_v
//	exact:    ΔS_t = Σ_{s: end_s ≥ v} S(l_s) − S(l_s − c_v)
func linearTargetWant(t *testing.T, p *PRM, s *linearScorer, r credit.InfluenceRequest, null credit.NullEmbedding) (grad, exact []float64) {
	t.Helper()
	e, err := p.encode(r.Prompt, r.Response, p.Split(r.Prompt, r.Response))
	if err != nil {
		t.Fatal(err)
	}
	emb, err := s.embed([][]int32{e.ids})
	if err != nil {
		t.Fatal(err)
	}
	scores, _ := s.ScoreEmbeddings(context.Background(), emb)
	e0, err := p.NullVector(null, len(emb[0][0]))
	if err != nil {
		t.Fatal(err)
	}
	grad, exact = make([]float64, e.respLen()), make([]float64, e.respLen())
	for k := range grad {
		v := e.start + k
		w := s.w[v%len(s.w)]
		var c float64
		for d := range w {
			c += float64(w[d]) * (float64(emb[0][v][d]) - float64(e0[d]))
		}
		for _, end := range e.ends {
			if end < v {
				continue
			}
			l := float64(scores[0][end])
			S, dS := stepScalar(r.Target, l)
			S0, _ := stepScalar(r.Target, l-c)
			grad[k] += dS * c
			exact[k] += S - S0
		}
	}
	return grad, exact
}

// TestInfluenceTargets: each target's one-pass influence (one forward pass
// more than the logit's) and its exact re-scoring agree with the closed
// forms of a model linear in its embeddings; the logit target is the
// default, and prob weighs each step by R(1 − R) where logit does not.
func TestInfluenceTargets(t *testing.T) {
	ctx := context.Background()
	p, s := linearPRM(mustBytes(), 21)
	for _, w := range s.w { // logits of a few units: prob and logprob would saturate at the scorer's usual tens
		for d := range w {
			w[d] *= 0.05
		}
	}
	reqs := Requests(arithExamples(t, 4, 3))
	for _, target := range []credit.InfluenceTarget{"", credit.TargetLogit, credit.TargetProb, credit.TargetLogProb} {
		for i := range reqs {
			reqs[i].Target = target
		}
		grad, err := p.Attribute(ctx, reqs, credit.NullMean)
		if err != nil {
			t.Fatal(err)
		}
		exact, err := p.ExactAttribute(ctx, reqs, credit.NullMean)
		if err != nil {
			t.Fatal(err)
		}
		sizeable := 0
		for i, r := range reqs {
			wg, wx := linearTargetWant(t, p, s, r, credit.NullMean)
			for k := range wg {
				if g := grad[i].Token[k]; math.Abs(g-wg[k]) > 1e-4*(1+math.Abs(wg[k])) {
					t.Errorf("target %q response %d token %d: gradient %.7g, closed form %.7g", target, i, k, g, wg[k])
				}
				if x := exact[i].Token[k]; math.Abs(x-wx[k]) > 1e-4*(1+math.Abs(wx[k])) {
					t.Errorf("target %q response %d token %d: exact %.7g, closed form %.7g", target, i, k, x, wx[k])
				}
				if math.Abs(wg[k]) > 1e-3 {
					sizeable++
				}
			}
		}
		if sizeable < 50 {
			t.Errorf("target %q: only %d tokens have a sizeable influence", target, sizeable)
		}
	}
}

// stepScalar's values and slopes: σ, log σ and their derivatives, finite
// far out.
func TestStepScalar(t *testing.T) {
	for _, l := range []float64{-800, -40, -3, 0, 0.5, 4, 800} {
		p := 1 / (1 + math.Exp(-l))
		for _, c := range []struct {
			target credit.InfluenceTarget
			s, ds  float64
		}{
			{credit.TargetLogit, l, 1},
			{"", l, 1},
			{credit.TargetProb, p, p * (1 - p)},
			{credit.TargetLogProb, math.Log(p), 1 - p},
		} {
			s, ds := stepScalar(c.target, l)
			if c.target == credit.TargetLogProb && l < -30 {
				c.s = l - math.Log1p(math.Exp(l)) // log σ(l) without log(0)
			}
			if math.IsInf(s, 0) || math.IsNaN(s) || math.Abs(s-c.s) > 1e-12*(1+math.Abs(c.s)) || math.Abs(ds-c.ds) > 1e-15 {
				t.Errorf("%q at %v: %v, %v; want %v, %v", c.target, l, s, ds, c.s, c.ds)
			}
		}
	}
}

// TestCarryMeanHand: PRM tokens of two bytes, steps [0, 3) and [5, 8).
func TestCarryMeanHand(t *testing.T) {
	from := [][2]int{{0, 2}, {2, 4}, {4, 6}, {6, 8}}
	vals := []float64{1, 2, 3, 4}
	steps := [][2]int{{0, 3}, {5, 8}}
	for _, c := range []struct {
		name string
		to   [][2]int
		want []float64
	}{
		// A byte takes its PRM token's whole value inside a step (token
		// [2, 4) is clipped to [2, 3), the first step it touches); bytes 3
		// and 4 are in no step; the end token has no bytes.
		{"bytes", byteOffsets(8), []float64{1, 1, 2, 0, 0, 3, 4, 4, 0}},
		// [0, 3): (1·2 + 2·1)/3; [3, 6) shares 1 byte with step 2, none
		// with step 1: the clipped [5, 6) of value 3; [6, 8): 4.
		{"coarser", [][2]int{{0, 3}, {3, 6}, {6, 8}}, []float64{4.0 / 3, 3, 4}},
	} {
		assertValues(t, c.name, CarryMean(from, vals, steps, c.to), c.want)
	}
	// Carry splits where CarryMean averages.
	assertValues(t, "Carry bytes", Carry(from, vals, byteOffsets(8)), []float64{0.5, 0.5, 1, 1, 1.5, 1.5, 2, 2, 0})
}

func assertValues(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for k := range got {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
	}
}

// alignReference is align_prm_influence_to_policy's influence transfer
// (P2T's p2t_align.py, agg "mean") worked out byte by byte: each byte
// knows its step and the value of the PRM token mapped onto it (a PRM
// token is mapped to the first step it overlaps, on that step's bytes);
// a policy token takes the step holding most of its bytes (the earlier on
// a tie) and the mean value over its bytes mapped within that step.
func alignReference(from [][2]int, vals []float64, steps, to [][2]int) []float64 {
	n := 0
	for _, r := range append(append([][2]int(nil), from...), to...) {
		n = max(n, r[1])
	}
	step, mapped := make([]int, n), make([]bool, n)
	val := make([]float64, n)
	for b := range step {
		step[b] = -1
	}
	for k, s := range steps {
		for b := s[0]; b < s[1]; b++ {
			step[b] = k
		}
	}
	for j, f := range from {
		first := -1
		for b := f[0]; b < f[1] && first < 0; b++ {
			first = step[b]
		}
		for b := f[0]; b < f[1]; b++ {
			if first >= 0 && step[b] == first {
				val[b], mapped[b] = vals[j], true
			}
		}
	}
	out := make([]float64, len(to))
	for i, o := range to {
		count := make([]int, len(steps))
		for b := o[0]; b < o[1]; b++ {
			if step[b] >= 0 {
				count[step[b]]++
			}
		}
		best := -1
		for k, c := range count {
			if c > 0 && (best < 0 || c > count[best]) {
				best = k
			}
		}
		var sum float64
		m := 0
		for b := o[0]; b < o[1]; b++ {
			if best >= 0 && mapped[b] && step[b] == best {
				sum += val[b]
				m++
			}
		}
		if m > 0 {
			out[i] = sum / float64(m)
		}
	}
	return out
}

// TestCarryMeanMatchesAlign: on random tilings, steps and values,
// CarryMean equals the direct transcription of P2T's loops.
func TestCarryMeanMatchesAlign(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tiling := func(n, most int) [][2]int {
		var out [][2]int
		for b := 0; b < n; {
			e := min(n, b+1+rng.IntN(most))
			out = append(out, [2]int{b, e})
			b = e
		}
		return out
	}
	for trial := range 500 {
		n := 1 + rng.IntN(40)
		from, to := tiling(n, 4), tiling(n, 3)
		if rng.IntN(2) == 0 {
			to = append(to, [2]int{n, n}) // an end token
		}
		vals := make([]float64, len(from))
		for j := range vals {
			vals[j] = rng.NormFloat64()
		}
		var steps [][2]int
		for b := rng.IntN(3); b < n; {
			e := min(n, b+1+rng.IntN(8))
			steps = append(steps, [2]int{b, e})
			b = e + rng.IntN(3) // gaps: separators
		}
		got, want := CarryMean(from, vals, steps, to), alignReference(from, vals, steps, to)
		for k := range want {
			if math.Abs(got[k]-want[k]) > 1e-12 {
				t.Fatalf("trial %d: from %v vals %v steps %v to %v:\n got %v\nwant %v", trial, from, vals, steps, to, got, want)
			}
		}
	}
}

func TestInfluenceOptionErrors(t *testing.T) {
	p, _ := linearPRM(mustBytes(), 1)
	r := Requests(arithExamples(t, 1, 1))[0]
	for _, c := range []struct {
		edit func(*credit.InfluenceRequest)
		want string
	}{
		{func(r *credit.InfluenceRequest) { r.Target = "logit_diff" }, `influence target "logit_diff"`},
		{func(r *credit.InfluenceRequest) { r.Carry = "max" }, `influence carry "max"`},
	} {
		rr := r
		c.edit(&rr)
		for name, f := range map[string]func() error{
			"Influence": func() error {
				_, err := p.Influence(t.Context(), []credit.InfluenceRequest{rr}, credit.NullPad)
				return err
			},
			"Exact": func() error {
				_, err := p.ExactInfluence(t.Context(), []credit.InfluenceRequest{rr}, credit.NullPad)
				return err
			},
		} {
			if err := f(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: err %v, want one naming %s", name, err, c.want)
			}
		}
	}
}
