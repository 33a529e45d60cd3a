package credit

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/credo-rl/credo/internal/reftest"
	"github.com/credo-rl/credo/reward"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden.txt from the current code")

const goldenFile = "testdata/golden.txt"

// goldenMethods is every registered method, each with every variant that
// applies to it, and SAW over each.
func goldenMethods() []string {
	var out []string
	for _, name := range Names() {
		out = append(out, name, sawPrefix+name)
		e, _ := methods.Lookup(name)
		for _, v := range e.variants {
			out = append(out, name+"+"+v.Name, sawPrefix+name+"+"+v.Name)
		}
	}
	return out
}

// goldenConfigs are the default and one that sets every option the
// methods read to something else (the reward cap, GRPO's step size, JS
// distance, placebo, …).
func goldenConfigs() []Config {
	other := DefaultConfig()
	other.Beta, other.Cap, other.ScaleTo, other.JS, other.Placebo = 0.3, CapReward, ScaleToGRPO, JSFormDistance, true
	other.Gamma, other.Eta, other.StepReward, other.SpanWarmup, other.ReplayWarmup = 0.7, 0.25, StepCentred, 40, 0
	return []Config{DefaultConfig(), other}
}

// goldenBatch is a larger batch than randomBatch's, so that the cap, the
// diagnostics' sorts and every branch of span mapping see realistic rows:
// groups of 8 (some with one reward constant, some skipped), up to T
// tokens of one to three bytes (some empty), verdicts with blocks and
// zero to four spans of every strength and effect (some empty, some
// reversed, some past the text).
func goldenBatch(seed uint64, groups, T, K int) *Batch {
	rng := rand.New(rand.NewPCG(seed, 99))
	n := 8 * groups
	b := &Batch{Groups: make([]int, n), Scores: make([][]float64, K), Verdicts: make([][]reward.Verdict, K),
		Rewards: make([]string, K), Prompts: make([]string, n), Responses: make([]string, n),
		Tokens: make([][]int32, n), Offsets: make([][][2]int, n), Step: 5 + rng.IntN(20), Seed: rng.Uint64()}
	if seed%2 == 1 {
		b.Weights = make([]float64, K)
		for k := range K {
			b.Weights[k] = 0.2 + 2*rng.Float64()
		}
	}
	infl := make([]Influence, n)
	for i := range n {
		b.Groups[i] = 10 * (i / 8)
		b.Prompts[i] = fmt.Sprintf("prompt %d", i/8)
		tn := T/2 + rng.IntN(T/2+1)
		var text []byte
		for t := range tn {
			b.Tokens[i] = append(b.Tokens[i], int32(rng.IntN(50)))
			start := len(text)
			if rng.IntN(40) > 0 {
				text = append(text, "xyz"[:1+rng.IntN(3)]...)
			}
			b.Offsets[i] = append(b.Offsets[i], [2]int{start, len(text)})
			infl[i].Token = append(infl[i].Token, rng.NormFloat64())
			if t%16 == 0 {
				infl[i].Steps = append(infl[i].Steps, StepScore{Start: t, End: min(t+16, tn), Logit: rng.NormFloat64()})
			}
		}
		b.Responses[i] = string(text)
	}
	for k := range K {
		b.Rewards[k] = fmt.Sprintf("r%d", k)
		b.Scores[k] = make([]float64, n)
		b.Verdicts[k] = make([]reward.Verdict, n)
		for g := 0; g < n; g += 8 {
			constant, skipped := rng.IntN(4) == 0, rng.IntN(6) == 0
			for i := g; i < g+8; i++ {
				s := []float64{0, 0.5, 1, rng.Float64()}[rng.IntN(4)]
				if constant {
					s = 1
				}
				b.Scores[k][i] = s
				v := &b.Verdicts[k][i]
				v.Score, v.Skip = s, skipped && i%3 == 0
				if rng.IntN(5) > 0 {
					v.Info = fmt.Sprintf("block of reward %d for group %d", k, g)
				}
				L := len(b.Responses[i]) + 2
				for range rng.IntN(5) {
					a := rng.IntN(L)
					v.Spans = append(v.Spans, reward.Span{Start: a, End: a + rng.IntN(12) - 1,
						Strength: []float64{0, 0.5, 1, 2}[rng.IntN(4)], Effect: reward.Effect(rng.IntN(3) - 1)})
				}
			}
		}
	}
	b.Replay = hashReplayer(17)
	b.PRM = &fakeInfluencer{answers: infl}
	return b
}

// goldenBatches are the pinned batches: two of goldenBatch's and three of
// randomBatch's small ones (groups of one, empty responses).
func goldenBatches() []*Batch {
	out := []*Batch{goldenBatch(1, 6, 96, 3), goldenBatch(2, 4, 160, 4)}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 3 {
		out = append(out, randomBatch(rng, 1+rng.IntN(3)))
	}
	return out
}

// digest is SHA-256 over the float64 bits of an answer: every token row
// and its length, the response advantages, every relevance row (nil
// marked) and the metrics in key order; or over the error's text.
func digest(adv Advantages, met Metrics, err error) string {
	h := sha256.New()
	if err != nil {
		fmt.Fprintf(h, "error %v", err)
		return hex.EncodeToString(h.Sum(nil))
	}
	var buf [8]byte
	put := func(x float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
		h.Write(buf[:])
	}
	rows := func(tag string, rs [][]float64) {
		fmt.Fprintf(h, "%s %d\n", tag, len(rs))
		for _, r := range rs {
			fmt.Fprintf(h, "%d %v\n", len(r), r == nil)
			for _, x := range r {
				put(x)
			}
		}
	}
	rows("tokens", adv.Tokens)
	rows("response", [][]float64{adv.Response})
	fmt.Fprintf(h, "relevance %d\n", len(adv.Relevance))
	for k, q := range adv.Relevance {
		rows(fmt.Sprint(k), q)
	}
	for _, key := range slices.Sorted(maps.Keys(met)) {
		fmt.Fprintf(h, "%s ", key)
		put(met[key])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// goldenDigests runs every method under every config on every batch.
func goldenDigests(t *testing.T) map[string]string {
	out := map[string]string{}
	for bi, b := range goldenBatches() {
		for ci, c := range goldenConfigs() {
			for _, name := range goldenMethods() {
				key := fmt.Sprintf("batch%d/config%d/%s", bi, ci, name)
				m, err := New(name, c)
				if err != nil {
					out[key] = digest(Advantages{}, nil, err)
					continue
				}
				adv, met, err := m.Advantages(context.Background(), b)
				out[key] = digest(adv, met, err)
			}
		}
	}
	return out
}

// TestGolden pins every method's output bit for bit (advantages,
// relevance, metrics) on seeded batches: a change meant to be only faster
// must leave testdata/golden.txt as it is. go test ./credit -run
// TestGolden -update rewrites it, for a change of behaviour.
func TestGolden(t *testing.T) {
	reftest.Golden(t, goldenFile, goldenDigests(t), *updateGolden)
}

// The golden batches exercise what the fast paths must keep: the sum cap
// changes rows, spans give signed relevance, and some pairs are skipped.
func TestGoldenCoverage(t *testing.T) {
	b := goldenBatches()[0]
	_, met := run(t, "span", DefaultConfig(), b)
	if !(met["credit/capped"] > 0) || !(met["credit/skipped"] > 0) {
		t.Errorf("golden batch 0: capped %v, skipped %v: want both > 0", met["credit/capped"], met["credit/skipped"])
	}
	adv, _ := run(t, "span", DefaultConfig(), b)
	signed := false
	for _, q := range adv.Relevance {
		for _, row := range q {
			signed = signed || slices.ContainsFunc(row, func(x float64) bool { return x < 0 })
		}
	}
	if !signed {
		t.Error("golden batch 0: no negative span relevance")
	}
}
