package credit

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestReplayTable(t *testing.T) {
	// Two rewards, format (block "F") and answer (block "A"), prompt "P":
	// full = "P\n\nF\n\nA", without format = "P\n\nA", without answer = "P\n\nF".
	// Response 0 has tokens [1 2], response 1 has [3]. V = 3.
	table := map[string][][]float32{
		"P\n\nF\n\nA|[1 2]": {{1, 0, 0}, {0.5, 0.5, 0}},
		"P\n\nA|[1 2]":      {{0, 1, 0}, {0.5, 0, 0.5}},     // JS: disjoint 1; half 0.5
		"P\n\nF|[1 2]":      {{0.5, 0.5, 0}, {0.5, 0.5, 0}}, // JS: ¾·log2(4/3) = 0.3112781; equal 0
		"P\n\nF\n\nA|[3]":   {{1, 0, 0}},
		"P\n\nA|[3]":        {{1, 0, 0}}, // 0
		"P\n\nF|[3]":        {{0, 0, 1}}, // 1
	}
	rp := tableReplayer(t, table)
	b := &Batch{
		Groups:  []int{0, 0},
		Scores:  [][]float64{{1, 0}, {0, 1}},
		Weights: []float64{2, 1},
		Rewards: []string{"format", "answer"},
		Verdicts: [][]reward.Verdict{
			{{Score: 1, Info: "F"}, {Score: 0, Info: "F"}},
			{{Score: 0, Info: "A"}, {Score: 1, Info: "A"}},
		},
		Prompts: []string{"P", "P"},
		Tokens:  [][]int32{{1, 2}, {3}},
		Step:    10,
		Replay:  rp,
	}
	adv, met := run(t, "mrtpo", DefaultConfig(), b)
	js := 0.31127812445913283
	assertRow(t, "q format 0", adv.Relevance[0][0], []float64{1, 0.5}, 1e-7)
	assertRow(t, "q format 1", adv.Relevance[0][1], []float64{0}, 1e-7)
	assertRow(t, "q answer 0", adv.Relevance[1][0], []float64{js, 0}, 1e-7)
	assertRow(t, "q answer 1", adv.Relevance[1][1], []float64{1}, 1e-7)
	if rp.calls != 1 || len(rp.requests) != 6 {
		t.Errorf("%d calls with %d requests, want 1 call with 6 (a full and two without-k per response)", rp.calls, len(rp.requests))
	}
	// A_format = [d, −d], A_answer = [−d, d], d = 0.70700680; c = [2, 1]:
	// S = [d, −d], mean 0, denominator d√2 + ε = 0.99995860.
	// Response 0: w_format = 0.5 + 0.5·[1, 0.5]/0.75 = [7/6, 5/6];
	//   w_answer = 0.5 + 0.5·[js, 0]/(js/2) = [1.5, 0.5];
	//   tokens = d·(2·[7/6, 5/6] − [1.5, 0.5])/0.99995860 = d·[5/6, 7/6]/0.99995860.
	// Response 1 has one token: every weight is 1, the token is Â = −d/0.99995860.
	assertRow(t, "tokens 0", adv.Tokens[0], []float64{0.5891967229839911, 0.8248754121775878}, 1e-7)
	assertRow(t, "tokens 1", adv.Tokens[1], []float64{-0.7070360675807895}, 1e-12)
	if met["credit/replay/requests"] != 6 || met["credit/replay/pairs"] != 1 {
		t.Errorf("replay metrics %v", met)
	}
}

// A reward with no variance in its group causes no replay.
func TestReplayOnlyVaryingRewards(t *testing.T) {
	verdicts := func(info string, n int) []reward.Verdict {
		v := make([]reward.Verdict, n)
		for i := range v {
			v[i].Info = info
		}
		return v
	}
	b := &Batch{
		Groups: []int{0, 0, 1, 1},
		// Group 0: format varies, answer does not. Group 1: nothing varies.
		Scores:   [][]float64{{1, 0, 1, 1}, {0.5, 0.5, 0, 0}},
		Rewards:  []string{"format", "answer"},
		Verdicts: [][]reward.Verdict{verdicts("F", 4), verdicts("A", 4)},
		Prompts:  []string{"P", "P", "Q", "Q"},
		Tokens:   [][]int32{{1, 2}, {3}, {4}, {5, 6}},
		Step:     10,
	}
	rp := hashReplayer(7)
	b.Replay = rp
	adv, met := run(t, "mrtpo", DefaultConfig(), b)
	if rp.calls != 1 {
		t.Fatalf("%d replay calls, want 1", rp.calls)
	}
	var got []string
	for _, r := range rp.requests {
		got = append(got, r.Prompt)
	}
	want := []string{"P\n\nF\n\nA", "P\n\nA", "P\n\nF\n\nA", "P\n\nA"}
	if !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q (full and without format, responses 0 and 1 only)", got, want)
	}
	for i := range 4 {
		if adv.Relevance[1][i] != nil {
			t.Errorf("answer (no variance) has relevance for response %d", i)
		}
		if (adv.Relevance[0][i] != nil) != (i < 2) {
			t.Errorf("format relevance of response %d: %v", i, adv.Relevance[0][i])
		}
	}
	if met["credit/replay/pairs"] != 2.0/8 || met["credit/skipped"] != 6.0/8 {
		t.Errorf("metrics %v", met)
	}

	// Nothing varies: no call at all.
	b.Scores = [][]float64{{1, 1, 0, 0}, {0, 0, 1, 1}}
	rp2 := hashReplayer(7)
	b.Replay = rp2
	adv, _ = run(t, "mrtpo", DefaultConfig(), b)
	if rp2.calls != 0 {
		t.Errorf("%d replay calls for a batch without variance", rp2.calls)
	}
	for i, a := range adv.Response {
		if a != 0 {
			t.Errorf("Â[%d] = %v without variance", i, a)
		}
	}
}

// An empty block renders like full: q = 0 with no replay; identical
// responses are replayed once; joint uses one shared replay per response.
func TestReplayPlanning(t *testing.T) {
	base := func() *Batch {
		return &Batch{
			Groups: []int{0, 0, 0},
			Scores: [][]float64{{1, 1, 0}, {0, 0, 1}},
			Verdicts: [][]reward.Verdict{
				{{Info: "F"}, {Info: "F"}, {Info: "F"}},
				{{Info: ""}, {Info: ""}, {Info: ""}},
			},
			Prompts: []string{"P", "P", "P"},
			Tokens:  [][]int32{{1, 2}, {1, 2}, {3}}, // responses 0 and 1 are the same
			Step:    10,
		}
	}
	b := base()
	rp := hashReplayer(5)
	b.Replay = rp
	adv, _ := run(t, "mrtpo", DefaultConfig(), b)
	// Reward 1's block is empty: without 1 = full, q = 0, no request.
	// Reward 0: full "P\n\nF" and without "P" for [1 2] (shared by responses
	// 0 and 1) and for [3]: 4 requests.
	if rp.calls != 1 || len(rp.requests) != 4 {
		t.Errorf("%d calls, %d requests, want 1 and 4", rp.calls, len(rp.requests))
	}
	for i := range 3 {
		for _, x := range adv.Relevance[1][i] {
			if x != 0 {
				t.Errorf("empty block: q = %v, want 0", adv.Relevance[1][i])
			}
		}
	}
	if !slices.Equal(adv.Relevance[0][0], adv.Relevance[0][1]) {
		t.Errorf("identical responses got different relevance")
	}

	b = base()
	b.Verdicts[1] = []reward.Verdict{{Info: "A"}, {Info: "A"}, {Info: "A"}}
	rp = hashReplayer(5)
	b.Replay = rp
	c := DefaultConfig()
	c.Joint = true
	adv, _ = run(t, "mrtpo", c, b)
	// Joint: full "P\n\nF\n\nA" and "P" per distinct response: 4 requests,
	// and both rewards get the same q.
	if rp.calls != 1 || len(rp.requests) != 4 {
		t.Errorf("joint: %d calls, %d requests, want 1 and 4", rp.calls, len(rp.requests))
	}
	for _, r := range rp.requests {
		if r.Prompt != "P\n\nF\n\nA" && r.Prompt != "P" {
			t.Errorf("joint requested %q", r.Prompt)
		}
	}
	for i := range 3 {
		if !slices.Equal(adv.Relevance[0][i], adv.Relevance[1][i]) {
			t.Errorf("joint: rewards differ on response %d", i)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	b := func(rp Replayer) *Batch {
		return &Batch{Groups: []int{0, 0}, Scores: [][]float64{{1, 0}},
			Verdicts: [][]reward.Verdict{{{Info: "F"}, {Info: "F"}}},
			Prompts:  []string{"P", "P"}, Tokens: [][]int32{{1}, {2}}, Replay: rp}
	}
	short := &fakeReplayer{dist: func(string, []int32) [][]float32 { return nil }}
	vocab := &fakeReplayer{dist: func(p string, _ []int32) [][]float32 {
		if p == "P" {
			return [][]float32{{1, 0}}
		}
		return [][]float32{{1, 0, 0}}
	}}
	for _, tc := range []struct {
		name string
		b    *Batch
		want string
	}{
		{"nil replayer", b(nil), "Batch.Replay"},
		{"error", b(&fakeReplayer{err: errors.New("out of memory")}), "out of memory"},
		{"short", b(short), "distributions for 1 response tokens"},
		{"vocab", b(vocab), "vocabularies"},
		{"prompts", func() *Batch { x := b(hashReplayer(3)); x.Prompts = nil; return x }(), "Batch.Prompts"},
	} {
		_, _, err := mustNew(t, "mrtpo", DefaultConfig()).Advantages(t.Context(), tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// Config.JS "distance" makes q the square root of the divergence, token by
// token, from the same replays; the square root never concentrates q
// more (it raises small values relative to large ones).
func TestReplayJSForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for trial := range 100 {
		b := randomBatch(rng, 1+rng.IntN(3))
		b.Step = 20
		div, mdiv := run(t, "mrtpo", DefaultConfig(), b)
		c := DefaultConfig()
		c.JS = JSFormDistance
		dist, mdist := run(t, "mrtpo", c, b)
		for k := range div.Relevance {
			for i, row := range div.Relevance[k] {
				if (row == nil) != (dist.Relevance[k][i] == nil) {
					t.Fatalf("trial %d: relevance rows differ in presence", trial)
				}
				for t2, x := range row {
					if got := dist.Relevance[k][i][t2]; !near(got, math.Sqrt(x), 1e-15) {
						t.Fatalf("trial %d: distance q %v, √divergence %v", trial, got, math.Sqrt(x))
					}
				}
			}
		}
		for key, x := range mdiv {
			if strings.HasPrefix(key, "credit/concentration/") && mdist[key] < x-1e-12 {
				t.Fatalf("trial %d: %s %v with the distance, %v with the divergence", trial, key, mdist[key], x)
			}
		}
	}
	c := DefaultConfig()
	c.JS = "bits"
	if _, err := New("mrtpo", c); err == nil || !strings.Contains(err.Error(), `js must be "divergence"`) {
		t.Errorf("bad js: err = %v", err)
	}
}

// TestReplayNeutral: the equal-length control replays with each removed
// block replaced by neutral text of its length, so every request of a
// response has the full prompt's length; joint+neutral replaces every
// block. NeutralBlock keeps a block's byte length.
func TestReplayNeutral(t *testing.T) {
	for _, blk := range []string{"", "F", "Reference call: {\"name\": \"x\"}", strings.Repeat("y", 300)} {
		if got := NeutralBlock(blk); len(got) != len(blk) || strings.Contains(got, "\n") && blk != "" {
			t.Errorf("NeutralBlock(%d bytes) = %q (%d bytes)", len(blk), got, len(got))
		}
	}
	for _, method := range []string{"mrtpo+neutral", "mrtpo+joint+neutral"} {
		b := &Batch{
			Groups: []int{0, 0}, Scores: [][]float64{{1, 0}, {0, 1}},
			Verdicts: [][]reward.Verdict{{{Info: "Format: F"}, {Info: "Format: F"}}, {{Info: "Answer: 42"}, {Info: "Answer: 42"}}},
			Prompts:  []string{"P", "P"}, Tokens: [][]int32{{1, 2}, {3}}, Step: 10,
		}
		rp := hashReplayer(5)
		b.Replay = rp
		run(t, method, DefaultConfig(), b)
		full := reward.Compose("P", []string{"Format: F", "Answer: 42"})
		sawOther := false
		for _, r := range rp.requests {
			if len(r.Prompt) != len(full) {
				t.Errorf("%s requested %q (%d bytes), want the full prompt's %d", method, r.Prompt, len(r.Prompt), len(full))
			}
			sawOther = sawOther || r.Prompt != full
		}
		if !sawOther {
			t.Errorf("%s replayed the full prompt only", method)
		}
	}
}
