package credit

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

// A variant is its base method with one option set: the same advantages.
func TestVariantsAreOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*Config)
	}{
		{"span+shuffle", func(c *Config) { c.Shuffle = true }},
		{"mrtpo+shuffle", func(c *Config) { c.Shuffle = true }},
		{"mrtpo+joint", func(c *Config) { c.Joint = true }},
		{"mrtpo+shuffle+joint", func(c *Config) { c.Shuffle, c.Joint = true, true }},
		{"span+wrong", func(c *Config) { c.WrongSpans = true }},
		{"saw+span+wrong", func(c *Config) { c.WrongSpans = true }},
	} {
		base, _, _ := strings.Cut(strings.TrimPrefix(c.name, "saw+"), "+")
		if strings.HasPrefix(c.name, "saw+") {
			base = "saw+" + base
		}
		opt := DefaultConfig()
		c.set(&opt)
		for seed := range uint64(5) {
			rng := rand.New(rand.NewPCG(seed, 11))
			b := randomBatch(rng, 3)
			got, _ := run(t, c.name, DefaultConfig(), b)
			b2 := *b
			b2.Replay = hashReplayer(13)
			want, _ := run(t, base, opt, &b2)
			if !reflect.DeepEqual(got.Tokens, want.Tokens) {
				t.Fatalf("%s differs from %s with its option set (seed %d)", c.name, base, seed)
			}
		}
	}
	for name, want := range map[string]string{
		"gdpo+shuffle": "does not apply to gdpo",
		"span+joint":   "does not apply to span",
		"span+bogus":   "known: joint, neutral, shuffle, wrong",
		"ppo+shuffle":  "unknown credit method",
		// A typo gets the name meant (issue 49).
		"spam+shuffle":    `unknown credit method "spam+shuffle": did you mean "span+shuffle"?`,
		"saw+mrtp":        `did you mean "saw+mrtpo"?`,
		"quantum+shuffle": `unknown credit method "quantum+shuffle" (known:`,
	} {
		if _, err := New(name, DefaultConfig()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q) = %v, want an error mentioning %q", name, err, want)
		}
	}
	if r := RequirementsOf(mustNew(t, "mrtpo+joint", DefaultConfig())); !r.Replay {
		t.Error("mrtpo+joint must need replay")
	}
}

// span+wrong places reward 0 where reward 1's spans are, and reward 1
// where reward 0's are.
func TestWrongSpans(t *testing.T) {
	ids, offs := toks(6)
	b := &Batch{
		Groups: []int{0, 0}, Rewards: []string{"a", "b"},
		Scores:   [][]float64{{1, 0}, {0, 1}},
		Tokens:   [][]int32{ids, ids},
		Offsets:  [][][2]int{offs, offs},
		Verdicts: make([][]reward.Verdict, 2),
	}
	for k := range 2 {
		b.Verdicts[k] = make([]reward.Verdict, 2)
		for i := range 2 {
			b.Verdicts[k][i].Spans = []reward.Span{{Start: 5 * k, End: 5*k + 1}} // a: token 0, b: token 5
		}
	}
	c := DefaultConfig()
	c.Gamma = 0
	right, _ := run(t, "span", c, b)
	wrong, _ := run(t, "span+wrong", c, b)
	for i := range 2 {
		assertRow(t, "wrong a", wrong.Relevance[0][i], right.Relevance[1][i], 0)
		assertRow(t, "wrong b", wrong.Relevance[1][i], right.Relevance[0][i], 0)
	}
	// One reward alone has no other: uniform relevance.
	one := &Batch{Groups: b.Groups, Rewards: b.Rewards[:1], Scores: b.Scores[:1], Tokens: b.Tokens, Offsets: b.Offsets, Verdicts: b.Verdicts[:1]}
	alone, _ := run(t, "span+wrong", c, one)
	assertRow(t, "alone", alone.Relevance[0][0], []float64{1, 1, 1, 1, 1, 1}, 0)
}

// With ScaleTo grpo, every method's mean |A| over the batch's tokens is
// GRPO's; GRPO itself is unchanged, and a method's tokens still average
// to its (scaled) response advantage.
func TestScaleToGRPO(t *testing.T) {
	absMean := func(rows [][]float64) float64 {
		s, n := 0.0, 0
		for _, r := range rows {
			for _, a := range r {
				s += math.Abs(a)
				n++
			}
		}
		return s / float64(n)
	}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		b := randomBatch(rng, 3)
		c := DefaultConfig()
		c.ScaleTo = ScaleToGRPO
		raw, _ := run(t, "grpo", DefaultConfig(), b)
		ref := absMean(raw.Tokens)
		if got, _ := run(t, "grpo", c, b); !reflect.DeepEqual(got.Tokens, raw.Tokens) && ref > 0 {
			// f = 1 up to rounding for GRPO against itself
			for i := range got.Tokens {
				assertRow(t, "grpo scaled", got.Tokens[i], raw.Tokens[i], 1e-12)
			}
		}
		for _, name := range []string{"gdpo", "span", "mrtpo", "p2t", "saw+gdpo", "span+shuffle"} {
			b.Replay = hashReplayer(13)
			before, _ := run(t, name, DefaultConfig(), b)
			if absMean(before.Tokens) == 0 || ref == 0 {
				continue
			}
			b.Replay = hashReplayer(13)
			after, met := run(t, name, c, b)
			if got := absMean(after.Tokens); math.Abs(got-ref) > 1e-9*ref {
				t.Errorf("seed %d %s: mean |A| %v, want GRPO's %v", seed, name, got, ref)
			}
			f := met["credit/scale"]
			for i := range after.Tokens {
				for j := range after.Tokens[i] {
					if !near(after.Tokens[i][j], f*before.Tokens[i][j], 1e-9) {
						t.Fatalf("seed %d %s: token (%d,%d) %v, want %v × %v", seed, name, i, j, after.Tokens[i][j], f, before.Tokens[i][j])
					}
				}
			}
		}
	}
	bad := DefaultConfig()
	bad.ScaleTo = "gdpo"
	if bad.Validate() == nil {
		t.Error("scale_to gdpo must be invalid")
	}
}
