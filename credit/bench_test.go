package credit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/credo-rl/credo/internal/reftest"
	"github.com/credo-rl/credo/reward"
)

// The benchmark batch: 64 responses (8 groups of 8) × 256 tokens × 5
// rewards; model calls are stubbed with precomputed answers over a
// vocabulary of 300, so only each method's own arithmetic (JS included) is
// timed.
const benchN, benchG, benchT, benchK, benchV = 64, 8, 256, 5, 300

// stubReplayer returns precomputed distributions; request r, position t
// gets pool[(31r + 7t) mod len(pool)], so full and without-k differ.
type stubReplayer struct {
	out      [][][]float32
	requests int
}

func newStubReplayer(rng *rand.Rand) *stubReplayer {
	pool := make([][]float32, 64)
	for j := range pool {
		pool[j] = reftest.Distribution(rng, benchV)
	}
	s := &stubReplayer{out: make([][][]float32, benchN*(benchK+1))}
	for r := range s.out {
		s.out[r] = make([][]float32, benchT)
		for t := range s.out[r] {
			s.out[r][t] = pool[(31*r+7*t)%len(pool)]
		}
	}
	return s
}

func (s *stubReplayer) Replay(_ context.Context, reqs []ReplayRequest) ([][][]float32, error) {
	s.requests = len(reqs)
	return s.out[:len(reqs)], nil
}

type stubInfluencer []Influence

func (s stubInfluencer) Influence(context.Context, []InfluenceRequest, NullEmbedding) ([]Influence, error) {
	return s, nil
}

func benchBatch() *Batch {
	rng := rand.New(rand.NewPCG(42, 1))
	b := &Batch{Groups: make([]int, benchN), Scores: make([][]float64, benchK), Verdicts: make([][]reward.Verdict, benchK),
		Rewards: make([]string, benchK), Prompts: make([]string, benchN), Responses: make([]string, benchN),
		Tokens: make([][]int32, benchN), Offsets: make([][][2]int, benchN), Step: 20, Seed: 7}
	infl := make(stubInfluencer, benchN)
	for i := range benchN {
		b.Groups[i] = i / benchG
		b.Prompts[i] = fmt.Sprintf("question %d", i/benchG)
		b.Tokens[i] = make([]int32, benchT)
		b.Offsets[i] = make([][2]int, benchT)
		infl[i].Token = make([]float64, benchT)
		for t := range benchT {
			b.Tokens[i][t] = int32(rng.IntN(benchV))
			b.Offsets[i][t] = [2]int{2 * t, 2*t + 2}
			infl[i].Token[t] = rng.NormFloat64()
		}
		b.Responses[i] = string(make([]byte, 2*benchT))
		for s := 0; s < benchT; s += 32 {
			infl[i].Steps = append(infl[i].Steps, StepScore{Start: s, End: s + 32, Logit: rng.NormFloat64()})
		}
	}
	for k := range benchK {
		b.Rewards[k] = fmt.Sprintf("r%d", k)
		b.Scores[k] = make([]float64, benchN)
		b.Verdicts[k] = make([]reward.Verdict, benchN)
		for i := range benchN {
			b.Scores[k][i] = float64(rng.IntN(3)) / 2
			s := rng.IntN(2 * benchT)
			b.Verdicts[k][i] = reward.Verdict{Score: b.Scores[k][i], Info: fmt.Sprintf("block of reward %d", k),
				Spans: []reward.Span{{Start: s, End: min(s+20, 2*benchT)}}}
		}
	}
	b.Replay = newStubReplayer(rng)
	b.PRM = infl
	return b
}

// BenchmarkMethods times one Advantages call per method on the benchmark batch.
func BenchmarkMethods(b *testing.B) {
	batch := benchBatch()
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"grpo", nil}, {"gdpo", nil}, {"span", nil}, {"mrtpo", nil},
		{"mrtpo", func(c *Config) { c.Joint = true }}, {"mrtpo", func(c *Config) { c.Shuffle = true }},
		{"p2t", nil}, {"saw+gdpo", nil}, {"saw+mrtpo", nil},
	} {
		c := DefaultConfig()
		label := tc.name
		if tc.edit != nil {
			tc.edit(&c)
			if c.Joint {
				label += "-joint"
			} else {
				label += "-shuffle"
			}
		}
		b.Run(label, func(b *testing.B) {
			m := mustNew(b, tc.name, c)
			cpu0 := processCPU()
			for b.Loop() {
				if _, _, err := m.Advantages(context.Background(), batch); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0)
			if rp, ok := batch.Replay.(*stubReplayer); ok && (tc.name == "mrtpo" || tc.name == "saw+mrtpo") {
				b.ReportMetric(float64(rp.requests), "replays/op")
			}
		})
	}
}

// reportCPU adds the CPU time per operation (all goroutines), which on a
// busy machine is a steadier measure of the work than ns/op.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if cpu0 >= 0 {
		b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
