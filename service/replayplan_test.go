package service

import (
	"slices"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// /v1/replay-plan lists exactly credit.PlanReplay's requests (prompt texts
// deduplicated, each request with a response whose tokens it carries), and
// its digest, echoed with the answers, is accepted by /v1/advantages.
func TestReplayPlanEndpoint(t *testing.T) {
	_, hs := newServer(t, Options{})
	for _, name := range []string{"mrtpo", "mrtpo+joint", "saw+mrtpo+shuffle"} {
		rec := recordBatch(9, 5, 4, 3)
		plan, err := credit.PlanReplay(name, credit.DefaultConfig(), rec.b)
		if err != nil {
			t.Fatal(err)
		}
		status, got := post(t, hs, "/v1/replay-plan", wireBody(rec, name, nil, false, nil, false))
		if status != 200 {
			t.Fatalf("%s: %d %v", name, status, got)
		}
		prompts := got["prompts"].([]any)
		reqs := got["requests"].([]any)
		if len(reqs) != len(plan.Requests) || len(prompts) >= len(reqs) {
			t.Fatalf("%s: %d requests over %d prompts, want %d requests over fewer prompts", name, len(reqs), len(prompts), len(plan.Requests))
		}
		seen := map[string]bool{}
		for _, p := range prompts {
			if seen[p.(string)] {
				t.Errorf("%s: prompt %q listed twice", name, p)
			}
			seen[p.(string)] = true
		}
		for r, x := range reqs {
			m := x.(map[string]any)
			p, i := int(num(t, m["prompt"])), int(num(t, m["response"]))
			if prompts[p] != plan.Requests[r].Prompt || !slices.Equal(rec.b.Tokens[i], plan.Requests[r].Response) {
				t.Errorf("%s: request %d is prompt %d with response %d, want %q", name, r, p, i, plan.Requests[r].Prompt)
			}
		}
		pairs := got["pairs"].([]any)
		if len(pairs) != len(plan.Pairs) {
			t.Errorf("%s: %d pairs, want %d", name, len(pairs), len(plan.Pairs))
		}
		body := wireBody(rec, name, nil, true, answersFor(plan, 5), false)
		body["replay"].(map[string]any)["plan"] = got["plan"]
		if status, out := post(t, hs, "/v1/advantages", body); status != 200 {
			t.Errorf("%s: advantages with the plan's digest: %d %v", name, status, out["error"])
		}
	}
}
