package credit

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/credo-rl/credo/internal/reftest"
)

// fakeReplayer answers each request with dist(prompt, response), counting
// calls and requests.
type fakeReplayer struct {
	dist     func(prompt string, response []int32) [][]float32
	calls    int
	requests []ReplayRequest
	err      error
}

func (f *fakeReplayer) Replay(ctx context.Context, reqs []ReplayRequest) ([][][]float32, error) {
	f.calls++
	f.requests = append(f.requests, reqs...)
	if f.err != nil {
		return nil, f.err
	}
	out := make([][][]float32, len(reqs))
	for r, q := range reqs {
		out[r] = f.dist(q.Prompt, q.Response)
	}
	return out, ctx.Err()
}

// tableReplayer serves fixed distributions keyed by prompt and response.
func tableReplayer(t *testing.T, table map[string][][]float32) *fakeReplayer {
	return &fakeReplayer{dist: func(prompt string, response []int32) [][]float32 {
		key := fmt.Sprint(prompt, "|", response)
		d, ok := table[key]
		if !ok {
			t.Errorf("unexpected replay request %q", key)
			return make([][]float32, len(response))
		}
		return d
	}}
}

// hashReplayer gives every (prompt, response, position) its own seeded
// distribution over v tokens, so different prompts give different answers.
func hashReplayer(v int) *fakeReplayer {
	return &fakeReplayer{dist: func(prompt string, response []int32) [][]float32 {
		h := uint64(14695981039346656037)
		for _, c := range []byte(prompt) {
			h = (h ^ uint64(c)) * 1099511628211
		}
		out := make([][]float32, len(response))
		for t, tok := range response {
			x := h ^ uint64(tok)*0x9e3779b97f4a7c15 ^ uint64(t)<<32
			p := make([]float32, v)
			var sum float32
			for j := range p {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				p[j] = float32(x%1000) / 1000
				if j%5 == 0 {
					p[j] = 0 // zeros exercise the log-space care
				}
				sum += p[j]
			}
			for j := range p {
				p[j] /= sum
			}
			out[t] = p
		}
		return out
	}}
}

// fakeInfluencer returns fixed influences and records what it was asked.
type fakeInfluencer struct {
	answers []Influence
	calls   int
	null    NullEmbedding
	reqs    []InfluenceRequest
}

func (f *fakeInfluencer) Influence(_ context.Context, reqs []InfluenceRequest, null NullEmbedding) ([]Influence, error) {
	f.calls++
	f.null = null
	f.reqs = reqs
	return f.answers, nil
}

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol || (math.IsNaN(a) && math.IsNaN(b))
}

func assertRow(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	reftest.Row(t, what, got, want, tol)
}

func mustNew(t testing.TB, name string, c Config) Method {
	t.Helper()
	m, err := New(name, c)
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	return m
}

func run(t testing.TB, name string, c Config, b *Batch) (Advantages, Metrics) {
	t.Helper()
	adv, met, err := mustNew(t, name, c).Advantages(context.Background(), b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return adv, met
}

// toks makes n distinct response tokens with one-byte offsets.
func toks(n int) ([]int32, [][2]int) {
	ids, offs := make([]int32, n), make([][2]int, n)
	for t := range n {
		ids[t], offs[t] = int32(t+1), [2]int{t, t + 1}
	}
	return ids, offs
}

// flat builds token rows of the given lengths.
func tokenRows(lens ...int) [][]int32 {
	rows := make([][]int32, len(lens))
	for i, n := range lens {
		rows[i], _ = toks(n)
	}
	return rows
}
