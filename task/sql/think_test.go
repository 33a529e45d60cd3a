package sql

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// think=varied changes only the words in <think>: the same prompts, flaws
// and answers as think=short (and the default), the question's short plan
// inside a frame that differs between demonstrations of one question, and
// references that still score 1 on every reward.
func TestThinkVaried(t *testing.T) {
	c := task.DemoConfig{DefaultFlawRate: 0.3, BlockRate: 0.3}
	def, short, varied := tuned(t, ""), tuned(t, "think=short"), tuned(t, "think=varied")
	dd, _ := def.demos(400, 5, c)
	ds, _ := short.demos(400, 5, c)
	dv, qs := varied.demos(400, 5, c)
	frames := map[string]map[string]bool{} // question text → frames seen
	for i := range dd {
		if dd[i].Prompt != ds[i].Prompt || dd[i].Response != ds[i].Response {
			t.Fatalf("think=short demo %d differs from the default:\n%q\n%q", i, ds[i].Response, dd[i].Response)
		}
		if dv[i].Prompt != dd[i].Prompt || strings.Join(dv[i].Flaws, ",") != strings.Join(dd[i].Flaws, ",") {
			t.Fatalf("think=varied demo %d asks or breaks something else: %q %v, short %q %v", i, dv[i].Prompt, dv[i].Flaws, dd[i].Prompt, dd[i].Flaws)
		}
		_, sAfter, _ := strings.Cut(dd[i].Response, "</think>")
		_, vAfter, _ := strings.Cut(dv[i].Response, "</think>")
		if sAfter != vAfter {
			t.Fatalf("demo %d: answers differ: %q against %q", i, vAfter, sAfter)
		}
		if !strings.HasPrefix(dd[i].Response, "<think>") {
			continue // a format flaw that drops the thought
		}
		if !strings.Contains(dv[i].Response, qs[i].Think) || len(dv[i].Response) < len(dd[i].Response)+40 {
			t.Fatalf("demo %d: %q does not frame the plan %q", i, dv[i].Response, qs[i].Think)
		}
		if frames[qs[i].text] == nil {
			frames[qs[i].text] = map[string]bool{}
		}
		frames[qs[i].text][strings.Replace(dv[i].Response, qs[i].Think, "", 1)] = true
	}
	varies := 0
	for _, fs := range frames {
		if len(fs) > 1 {
			varies++
		}
	}
	if varies < 10 {
		t.Fatalf("the plan differs between demonstrations of only %d of %d questions", varies, len(frames))
	}
	for i := range 30 {
		p := varied.Prompt(task.Test, i)
		ref, ok := varied.Reference(p)
		if !ok || ref == wellFormed(p.Ref.(Ref).Think, p.Ref.(Ref).Query) {
			t.Fatalf("reference %q (ok %v) is not a varied plan", ref, ok)
		}
		if again, _ := varied.Reference(p); again != ref {
			t.Fatalf("reference not fixed per question: %q, then %q", ref, again)
		}
		for name, vd := range verifyAll(t, varied, p, ref) {
			if vd.Score != 1 {
				t.Errorf("reference %q scores %g on %s: %s", ref, vd.Score, name, vd.Reason)
			}
		}
	}
}

func TestThinkSettingRejected(t *testing.T) {
	d, _ := task.ParseDifficulty("think=long")
	_, err := task.New("sql", task.Config{Seed: 1, Dir: t.TempDir(), Difficulty: d})
	if err == nil || !strings.Contains(err.Error(), "short or varied") {
		t.Fatalf("think=long: got %v, want an error naming short and varied", err)
	}
}
