package toolcall

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
// block nor its wording (the format's tag template, the reference call);
// the full one holds both.
func TestReplayPromptWithoutBlock(t *testing.T) {
	tk := newTask(t, 5)
	ctx := context.Background()
	wording := []func(*Ref) string{
		func(*Ref) string { return "<tool_call>{" },
		func(r *Ref) string { return r.ReferenceCall() },
	}
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
		for k, blk := range blocks {
			if blk == "" {
				t.Fatalf("%s: reward %d gives no block", p.ID, k)
			}
			without := slices.Clone(blocks)
			without[k] = ""
			w := task.Compose(base, without)
			word := wording[k](p.Ref.(*Ref))
			if !strings.Contains(full, blk) || !strings.Contains(full, word) {
				t.Fatalf("%s: the full prompt lacks reward %d's %q", p.ID, k, word)
			}
			if strings.Contains(w, blk) || strings.Contains(w, word) {
				t.Fatalf("%s: the prompt without reward %d holds %q:\n%s", p.ID, k, word, w)
			}
		}
	}
}
