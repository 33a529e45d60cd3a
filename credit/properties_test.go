package credit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/credo-rl/credo/reward"
)

// randomBatch draws a seeded batch: groups of 1 to 6 responses in shuffled
// order, K rewards with tied scores (so groups without variance occur),
// Skip verdicts, spans, blocks (some empty), weights, and fake models.
func randomBatch(rng *rand.Rand, k int) *Batch {
	nGroups := 1 + rng.IntN(5)
	var groups []int
	for g := range nGroups {
		for range 1 + rng.IntN(6) {
			groups = append(groups, 100+7*g)
		}
	}
	rng.Shuffle(len(groups), func(a, b int) { groups[a], groups[b] = groups[b], groups[a] })
	n := len(groups)
	b := &Batch{Groups: groups, Scores: make([][]float64, k), Verdicts: make([][]reward.Verdict, k),
		Rewards: make([]string, k), Prompts: make([]string, n), Responses: make([]string, n),
		Tokens: make([][]int32, n), Offsets: make([][][2]int, n), Step: rng.IntN(20), Seed: rng.Uint64()}
	if rng.IntN(2) == 0 {
		b.Weights = make([]float64, k)
		for j := range b.Weights {
			b.Weights[j] = 0.1 + 3*rng.Float64()
		}
	}
	infl := make([]Influence, n)
	for i := range n {
		b.Prompts[i] = fmt.Sprintf("prompt %d", groups[i])
		tn := rng.IntN(12)
		if rng.IntN(8) > 0 {
			tn++ // mostly non-empty responses
		}
		text := make([]byte, 0, 2*tn)
		b.Tokens[i] = make([]int32, tn)
		b.Offsets[i] = make([][2]int, tn)
		for t := range tn {
			b.Tokens[i][t] = int32(rng.IntN(4)) // few ids: duplicate responses happen
			start := len(text)
			text = append(text, "ab"[:1+rng.IntN(2)]...)
			b.Offsets[i][t] = [2]int{start, len(text)}
		}
		b.Responses[i] = string(text)
		infl[i].Token = make([]float64, tn)
		for t := range tn {
			infl[i].Token[t] = rng.NormFloat64()
		}
		for s := 0; s < tn; {
			e := s + 1 + rng.IntN(4)
			infl[i].Steps = append(infl[i].Steps, StepScore{Start: s, End: min(e, tn), Logit: rng.NormFloat64()})
			s = e
		}
	}
	for kk := range k {
		b.Rewards[kk] = fmt.Sprintf("r%d", kk)
		b.Scores[kk] = make([]float64, n)
		b.Verdicts[kk] = make([]reward.Verdict, n)
		skipGroup := rng.IntN(4) == 0
		for i := range n {
			v := &b.Verdicts[kk][i]
			b.Scores[kk][i] = []float64{0, 0.5, 1, rng.Float64()}[rng.IntN(4)]
			v.Skip = skipGroup && groups[i] == groups[0]
			if rng.IntN(4) > 0 {
				v.Info = fmt.Sprintf("block %d", kk)
			}
			for range rng.IntN(3) {
				L := len(b.Responses[i]) + 1
				s := rng.IntN(L)
				v.Spans = append(v.Spans, reward.Span{Start: s, End: s + rng.IntN(L-s), Strength: []float64{0, 0.5, 2}[rng.IntN(3)],
					Effect: reward.Effect(rng.IntN(3) - 1)})
			}
		}
	}
	b.Replay = hashReplayer(13)
	b.PRM = &fakeInfluencer{answers: infl}
	return b
}

func groupsOf(b *Batch) map[int][]int {
	m := map[int][]int{}
	for i, g := range b.Groups {
		m[g] = append(m[g], i)
	}
	return m
}

func TestPropertyGRPOSumsToZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		b := randomBatch(rng, 1+rng.IntN(3))
		for _, scale := range []ScaleMode{ScaleGroup, ScaleBatch, ScaleNone} {
			c := DefaultConfig()
			c.Scale = scale
			adv, _ := run(t, "grpo", c, b)
			for g, idx := range groupsOf(b) {
				var s float64
				for _, i := range idx {
					s += adv.Response[i]
				}
				if math.Abs(s) > 1e-9 {
					t.Fatalf("trial %d, scale %s: group %d sums to %v", trial, scale, g, s)
				}
			}
		}
	}
}

// For GDPO-based methods the tokens of a response average to GDPO's Â, and
// β = 0 gives GDPO's tokens exactly.
func TestPropertyMeanIsGDPO(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		b := randomBatch(rng, 1+rng.IntN(3))
		gd, _ := run(t, "gdpo", DefaultConfig(), b)
		sgd, _ := run(t, "saw+gdpo", DefaultConfig(), b)
		for _, name := range []string{"gdpo", "span", "mrtpo", "saw+span", "saw+mrtpo"} {
			for _, variant := range []string{"", "shuffle", "joint", "beta1 kappa", "beta0", "step0"} {
				c := DefaultConfig()
				bb := *b
				switch variant {
				case "shuffle":
					c.Shuffle = true
				case "joint":
					c.Joint = true
				case "beta1 kappa":
					c.Beta, c.Kappa, c.SpanWarmup, c.ReplayWarmup = 1, 1+3*rng.Float64(), 0, 0
				case "beta0":
					c.Beta = 0
				case "step0": // with a warm-up, step 0 is GDPO
					bb.Step = 0
					c.SpanWarmup = 1 + rng.IntN(10)
				}
				adv, _ := run(t, name, c, &bb)
				ref := gd
				if name[:3] == "saw" {
					ref = sgd
				}
				if !slices.Equal(adv.Response, ref.Response) {
					t.Fatalf("trial %d %s %s: Response %v, GDPO %v", trial, name, variant, adv.Response, ref.Response)
				}
				for i, row := range adv.Tokens {
					if len(row) != len(b.Tokens[i]) {
						t.Fatalf("trial %d %s: %d advantages for %d tokens", trial, name, len(row), len(b.Tokens[i]))
					}
					if len(row) == 0 {
						continue
					}
					var s float64
					for _, x := range row {
						s += x
					}
					if m := s / float64(len(row)); math.Abs(m-ref.Response[i]) > 1e-6 {
						t.Fatalf("trial %d %s %s: response %d averages %v, GDPO %v", trial, name, variant, i, m, ref.Response[i])
					}
					if variant == "beta0" || variant == "step0" {
						if !slices.Equal(row, ref.Tokens[i]) {
							t.Fatalf("trial %d %s %s: tokens %v, GDPO %v", trial, name, variant, row, ref.Tokens[i])
						}
					}
				}
			}
		}
	}
}

// GDPO with one reward is GRPO followed by GDPO's batch normalization, which
// for one reward only rescales by a positive factor (the GRPO advantages
// already have batch mean 0).
func TestPropertyGDPOOneRewardIsGRPO(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 500 {
		b := randomBatch(rng, 1)
		b.Weights = nil
		gr, _ := run(t, "grpo", DefaultConfig(), b)
		gd, _ := run(t, "gdpo", DefaultConfig(), b)
		mean, std := normMeanStd(gr.Response, nil)
		if allEqual(gr.Response, allIndices(len(gr.Response))) {
			std = 1
		}
		lambda := 0.0
		for i, a := range gr.Response {
			if want := (a - mean) / (std + 1e-4); math.Abs(gd.Response[i]-want) > 1e-12 {
				t.Fatalf("trial %d: GDPO %v, normalized GRPO %v", trial, gd.Response[i], want)
			}
			if math.Abs(a) > 1e-6 {
				l := gd.Response[i] / a
				if l <= 0 || (lambda != 0 && math.Abs(l-lambda) > 1e-9*lambda) {
					t.Fatalf("trial %d: GDPO/GRPO ratio %v, earlier %v", trial, l, lambda)
				}
				lambda = l
			}
		}
	}
}

// shuffle moves the same weights to other places: with one reward, each
// response's token advantages and relevance are a permutation of the
// unshuffled ones, bit for bit; and the same seed gives the same result.
func TestPropertyShuffleMultiset(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	moved := 0
	for trial := range 200 {
		b := randomBatch(rng, 1)
		b.Step = 15
		for _, name := range []string{"span", "mrtpo"} {
			plain, _ := run(t, name, DefaultConfig(), b)
			c := DefaultConfig()
			c.Shuffle = true
			sh, _ := run(t, name, c, b)
			again, _ := run(t, name, c, b)
			if !reflect.DeepEqual(sh, again) {
				t.Fatalf("trial %d %s: shuffle is not deterministic", trial, name)
			}
			for i := range b.Tokens {
				a, s := slices.Clone(plain.Tokens[i]), slices.Clone(sh.Tokens[i])
				if !slices.Equal(a, s) {
					moved++
				}
				slices.Sort(a)
				slices.Sort(s)
				if !slices.Equal(a, s) {
					t.Fatalf("trial %d %s: response %d tokens %v are not a permutation of %v", trial, name, i, sh.Tokens[i], plain.Tokens[i])
				}
				if plain.Relevance[0][i] != nil {
					a, s = slices.Clone(plain.Relevance[0][i]), slices.Clone(sh.Relevance[0][i])
					slices.Sort(a)
					slices.Sort(s)
					if !slices.Equal(a, s) {
						t.Fatalf("trial %d %s: relevance is not permuted", trial, name)
					}
				}
			}
		}
	}
	if moved == 0 {
		t.Errorf("shuffle never moved a weight")
	}
}

// Replay is asked only about responses with a varying reward, each
// request once, in at most one call per run of responses with one prompt.
func TestPropertyReplayOnlyWhereNeeded(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 300 {
		b := randomBatch(rng, 1+rng.IntN(3))
		rp := hashReplayer(13)
		b.Replay = rp
		adv, _ := run(t, "mrtpo", DefaultConfig(), b)
		runs := 0
		for i := range b.Prompts {
			if i == 0 || b.Prompts[i] != b.Prompts[i-1] {
				runs++
			}
		}
		if rp.calls > runs {
			t.Fatalf("trial %d: %d replay calls for %d runs of one prompt", trial, rp.calls, runs)
		}
		asked := map[string]bool{}
		for _, r := range rp.requests {
			if key := r.Key(); asked[key] {
				t.Fatalf("trial %d: request %q %v asked twice", trial, r.Prompt, r.Response)
			} else {
				asked[key] = true
			}
		}
		needed := map[string]bool{}
		for i := range b.Groups {
			for k := range b.Scores {
				if adv.Relevance[k][i] != nil {
					needed[fmt.Sprint(b.Tokens[i])] = true
				}
			}
		}
		for _, r := range rp.requests {
			if !needed[fmt.Sprint(r.Response)] {
				t.Fatalf("trial %d: replayed %v, which has no varying reward", trial, r.Response)
			}
		}
		for k := range b.Scores {
			for i := range b.Groups {
				varies := false
				for _, j := range groupsOf(b)[b.Groups[i]] {
					varies = varies || score(b, k, j) != score(b, k, i)
				}
				if varies != (adv.Relevance[k][i] != nil) {
					t.Fatalf("trial %d: pair (%d, %d) varies %v but relevance %v", trial, k, i, varies, adv.Relevance[k][i])
				}
			}
		}
	}
}

func score(b *Batch, k, i int) float64 {
	if b.Verdicts[k][i].Skip {
		return 0
	}
	return b.Scores[k][i]
}

// P2T never fails on well-formed random input and gives finite advantages.
func TestPropertyP2TFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 200 {
		b := randomBatch(rng, 1+rng.IntN(3))
		for _, norm := range []NormMode{NormMagnitude, NormSoftmax} {
			c := DefaultConfig()
			c.Norm = norm
			adv, _ := run(t, "p2t", c, b)
			for _, row := range adv.Tokens {
				for _, x := range row {
					if !finite(x) {
						t.Fatalf("p2t %s: advantage %v", norm, x)
					}
				}
			}
		}
	}
}

// Replayed part by part (one prompt's responses at a time, each request's
// distributions dropped after the last part that reads them), the rows
// equal those scored from one call over every request, and no call asks
// for more than one run of a prompt needs.
func TestPropertyReplayByPartsEqualsOneCall(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	parted := 0
	for trial := range 200 {
		b := randomBatch(rng, 1+rng.IntN(3))
		c := DefaultConfig()
		c.Placebo = trial%2 == 1
		m, err := New("mrtpo", c)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := replaySourceOf(m)
		v, err := newView(b)
		if err != nil {
			t.Fatal(err)
		}
		p, err := src.plan(v)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		all, err := runReplay(ctx, hashReplayer(11), p.reqs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := src.score(ctx, p, all)
		if err != nil {
			t.Fatal(err)
		}
		rp := hashReplayer(11)
		got, err := src.replayScore(ctx, rp, p, b.Prompts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.jobs, want.jobs) || !slices.Equal(got.sums, want.sums) || !slices.EqualFunc(got.rows, want.rows, slices.Equal) {
			t.Fatalf("trial %d: part by part %v %v, one call %v %v", trial, got.jobs, got.rows, want.jobs, want.rows)
		}
		if len(rp.requests) != len(p.reqs) {
			t.Fatalf("trial %d: %d requests asked for a plan of %d", trial, len(rp.requests), len(p.reqs))
		}
		if rp.calls > 1 {
			parted++
		}
	}
	if parted == 0 {
		t.Error("no batch was replayed in more than one part")
	}
}
