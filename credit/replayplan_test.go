package credit

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

// topKBatch is a batch of three responses in two groups with two rewards
// whose blocks are set, for the replay tests below.
func topKBatch() *Batch {
	return &Batch{
		Groups:  []int{0, 0, 1, 1},
		Scores:  [][]float64{{1, 0, 1, 1}, {0, 1, 0, 1}},
		Rewards: []string{"format", "answer"},
		Verdicts: [][]reward.Verdict{
			{{Score: 1, Info: "F"}, {Score: 0, Info: "F"}, {Score: 1, Info: "F"}, {Score: 1, Info: "F"}},
			{{Score: 0, Info: "A"}, {Score: 1, Info: "A"}, {Score: 0, Info: "A1"}, {Score: 1, Info: ""}},
		},
		Prompts: []string{"P", "P", "Q", "Q"},
		Tokens:  [][]int32{{1, 2, 3}, {4}, {5, 6}, {5, 6}},
		Step:    10,
	}
}

// The plan PlanReplay returns is exactly what the method asks its
// Replayer for, and names the replayed pairs.
func TestPlanReplayMatchesReplayer(t *testing.T) {
	for _, name := range []string{"mrtpo", "mrtpo+joint", "saw+mrtpo", "mrtpo+shuffle"} {
		for _, placebo := range []bool{false, true} {
			c := DefaultConfig()
			c.Placebo = placebo
			c.ScaleTo = ScaleToGRPO
			b := topKBatch()
			plan, err := PlanReplay(name, c, b)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rp := hashReplayer(6)
			b.Replay = rp
			m, err := New(name, c)
			if err != nil {
				t.Fatal(err)
			}
			adv, _, err := m.Advantages(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(rp.requests, plan.Requests, func(a, b ReplayRequest) bool {
				return a.Prompt == b.Prompt && slices.Equal(a.Response, b.Response)
			}) {
				t.Errorf("%s placebo=%v: replayer asked %v, plan says %v", name, placebo, rp.requests, plan.Requests)
			}
			// Response 3's answer block is empty: its pair needs no replay.
			// Every listed pair has relevance; response 3's answer has zeros.
			for _, p := range plan.Pairs {
				if adv.Relevance[p.Reward][p.Response] == nil {
					t.Errorf("%s: pair %+v has no relevance", name, p)
				}
				if p.Response == 3 && p.Reward == 1 && !strings.Contains(name, "joint") {
					t.Errorf("%s: pair %+v with an empty block is listed", name, p)
				}
				if (p.Placebo >= 0) != placebo {
					t.Errorf("%s: pair %+v with placebo=%v", name, p, placebo)
				}
			}
			if len(plan.Pairs) == 0 {
				t.Errorf("%s: no pairs", name)
			}
		}
	}
	if _, err := PlanReplay("gdpo", DefaultConfig(), topKBatch()); err == nil {
		t.Error("PlanReplay of gdpo: no error")
	}
	b := topKBatch()
	b.Prompts = nil
	if _, err := PlanReplay("mrtpo", DefaultConfig(), b); err == nil {
		t.Error("PlanReplay without prompts: no error")
	}
}
