package arith

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// TestReplayPromptWithoutBlock: the replay prompt without reward k, built
// as credit's replay builds it (task.Compose after task.ReplayBase, with
// the verdicts' blocks), holds none of reward k's information: neither its
// block nor its wording (the reference answer, the format's step
// template); the full one holds both.
func TestReplayPromptWithoutBlock(t *testing.T) {
	tk := mk(6)
	ctx := context.Background()
	for i := range 100 {
		p := tk.Prompt(task.Train, i)
		resp, ok := tk.Reference(p)
		if !ok {
			t.Fatalf("%s: no reference", p.ID)
		}
		var blocks []string
		for _, v := range tk.Rewards() {
			d, err := v.Verify(ctx, p, resp)
			if err != nil || d.Score != 1 {
				t.Fatalf("%s: the reference %q scores %g on %s (%v %s)", p.ID, resp, d.Score, v.Name(), err, d.Reason)
			}
			blocks = append(blocks, d.Info)
		}
		base := task.ReplayBase(p)
		if base != p.Text {
			t.Fatalf("%s: replay base %q, want the prompt", p.ID, base)
		}
		full := task.Compose(base, blocks)
		wording := []string{"Reference answer: " + p.Ref.(Ref).Answer, "`a op b = c`"}
		for k, blk := range blocks {
			without := slices.Clone(blocks)
			without[k] = ""
			w := task.Compose(base, without)
			if !strings.Contains(full, blk) || !strings.Contains(full, wording[k]) {
				t.Fatalf("%s: the full prompt lacks reward %d's %q", p.ID, k, wording[k])
			}
			if strings.Contains(w, blk) || strings.Contains(w, wording[k]) {
				t.Fatalf("%s: the prompt without reward %d holds %q:\n%s", p.ID, k, wording[k], w)
			}
		}
	}
	if _, ok := tk.Reference(task.Prompt{Ref: Ref{Answer: "3"}}); ok {
		t.Error("a reference for a prompt without a solution")
	}
}
