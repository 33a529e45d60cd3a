package toolcall

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

func TestDemos(t *testing.T) {
	tk := newTask(t, 1)
	p := task.Prompt{} // the format verifier reads no prompt
	ctx := context.Background()
	for _, c := range []task.DemoConfig{
		{FlawRate: map[string]float64{"format": 0.1, "call": 0.25}, BlockRate: 0.3},
		{DefaultFlawRate: 0.2, BlockRate: 0},
		{DefaultFlawRate: 0.4, BlockRate: 0.6},
		{DefaultFlawRate: 0, BlockRate: 1},
	} {
		const n = 2000
		demos, refs, counters := tk.demos(n, 11, c)
		if len(demos) != n {
			t.Fatalf("%d demos, want %d", len(demos), n)
		}
		flawed := map[string]int{}
		var withFormat, withRef, withCounter, clean, maxLen int
		for i, d := range demos {
			text, blocks, _ := strings.Cut(d.Prompt, "\n\n")
			if SplitOf(text) != task.Train {
				t.Fatalf("demo prompt %q is a test prompt", text)
			}
			hasFormat := strings.Contains(blocks, FormatBlock)
			hasRef := strings.Contains(blocks, "Reference call: ")
			if hasFormat {
				withFormat++
			}
			if hasRef {
				withRef++
			}
			counter := counters[i]
			if counter != nil {
				withCounter++
			}
			for _, f := range d.Flaws {
				if f != "call" || counter == nil { // a counterfactual block's call is no flaw of the policy's
					flawed[f]++
				}
			}
			if !slices.IsSorted(flawOrder(d.Flaws)) {
				t.Errorf("flaws %v not in reward order", d.Flaws)
			}
			ref := refs[i]
			pr := task.Prompt{ID: "demo", Text: text, Ref: ref}
			fv, _ := FormatVerifier{}.Verify(ctx, p, d.Response)
			cv, err := CallVerifier{}.Verify(ctx, pr, d.Response)
			if err != nil {
				t.Fatal(err)
			}
			fmtFlaw, callFlaw := slices.Contains(d.Flaws, "format"), slices.Contains(d.Flaws, "call")
			if fmtFlaw != (fv.Score == 0) {
				t.Errorf("flaws %v, format scores %g (%s): %s", d.Flaws, fv.Score, fv.Reason, d.Response)
			}
			if callFlaw && cv.Score != 0 || len(d.Flaws) == 0 && cv.Score != 1 {
				t.Errorf("flaws %v, call scores %g (%s): %s", d.Flaws, cv.Score, cv.Reason, d.Response)
			}
			if len(d.Flaws) == 0 {
				clean++
			}
			// A block is followed: the call it gives is answered exactly,
			// thought included, the format kept. A counterfactual one gives
			// another call to an offered tool, and the demo lists call.
			given := ref
			if counter != nil {
				given = counter
				if !hasRef || counter.ReferenceCall() == ref.ReferenceCall() || !callFlaw || cv.Score != 0 && !fmtFlaw {
					t.Errorf("counterfactual %s, flaws %v, call %g: %s", counter.ReferenceCall(), d.Flaws, cv.Score, d.Response)
				}
				if !slices.ContainsFunc(ref.Functions, func(f Function) bool { return f.Name == counter.Answer.Function }) {
					t.Errorf("counterfactual call to %s, not an offered tool", counter.Answer.Function)
				}
			}
			if hasRef && !strings.Contains(d.Response, "<tool_call>"+given.ReferenceCall()) {
				t.Errorf("prompt carries %s, response %s", ReferenceBlock(given), d.Response)
			}
			if hasRef && given.think != "" && !strings.Contains(d.Response, "<think>"+given.think) && !fmtFlaw {
				t.Errorf("prompt carries %s, thought of response %s", ReferenceBlock(given), d.Response)
			}
			if hasRef && callFlaw && counter == nil || hasFormat && fmtFlaw {
				t.Errorf("flaws %v despite blocks %q", d.Flaws, blocks)
			}
			if hasRef && blocks != ReferenceBlock(given) && blocks != FormatBlock+"\n\n"+ReferenceBlock(given) {
				t.Errorf("blocks %q", blocks)
			}
			maxLen = max(maxLen, len(d.Response))
		}
		for _, name := range []string{"format", "call"} {
			got := float64(flawed[name]) / n
			if math.Abs(got-c.Rate(name)) > 0.03 {
				t.Errorf("%+v: %s flaw rate %.3f, want %.2f", c, name, got, c.Rate(name))
			}
		}
		for name, got := range map[string]int{"format": withFormat, "reference": withRef} {
			if want := c.BlockRate * 2 / 3; math.Abs(float64(got)/n-want) > 0.04 {
				t.Errorf("%+v: %s block in %.3f of prompts, want %.2f", c, name, float64(got)/n, want)
			}
		}
		if want := c.BlockRate * 2 / 3 * counterShare; math.Abs(float64(withCounter)/n-want) > 0.04 {
			t.Errorf("%+v: counterfactual reference in %.3f of prompts, want %.2f", c, float64(withCounter)/n, want)
		}
		t.Logf("%+v: flawed %v, clean %d, blocks format %d reference %d, longest response %d bytes", c, flawed, clean, withFormat, withRef, maxLen)
	}
}

func flawOrder(flaws []string) []int {
	out := make([]int, len(flaws))
	for i, f := range flaws {
		out[i] = slices.Index([]string{"format", "call"}, f)
	}
	return out
}
