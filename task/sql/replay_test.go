package sql

import (
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// TestReplayPromptWithoutBlock: the replay prompt without reward k, built
// as credit's replay builds it (task.Compose after task.ReplayBase, with
// the verdicts' blocks in reward order), holds none of reward k's
// information: neither its block nor its wording (the format template, the
// error the query raised, the reference query); the full one holds both.
// The executes block exists only for a query that fails, so each prompt is
// replayed for the reference and for a misspelled query.
func TestReplayPromptWithoutBlock(t *testing.T) {
	tk := openTask(t, 4, Options{})
	names := []string{"format", "executes", "result"}
	for i := range 40 {
		p := tk.Prompt(task.Train, i)
		ref := p.Ref.(Ref)
		good, ok := tk.Reference(p)
		if !ok {
			t.Fatalf("%s: no reference", p.ID)
		}
		bad := strings.Replace(good, "SELECT", "SELEC", 1)
		for _, resp := range []string{good, bad} {
			vs := verifyAll(t, tk, p, resp)
			blocks := make([]string, len(names))
			for k, n := range names {
				blocks[k] = vs[n].Info
			}
			if resp == good && vs["result"].Score != 1 || resp == bad && blocks[1] == "" {
				t.Fatalf("%s: %q scores %v", p.ID, resp, vs)
			}
			base := task.ReplayBase(p)
			if base != p.Text {
				t.Fatalf("%s: replay base %q, want the prompt", p.ID, base)
			}
			full := task.Compose(base, blocks)
			wording := []string{"<answer>", strings.TrimPrefix(blocks[1], "Error: "), ref.Query}
			for k, blk := range blocks {
				if blk == "" {
					continue
				}
				without := slices.Clone(blocks)
				without[k] = ""
				w := task.Compose(base, without)
				if !strings.Contains(full, blk) || !strings.Contains(full, wording[k]) {
					t.Fatalf("%s: the full prompt lacks %s's %q", p.ID, names[k], wording[k])
				}
				if strings.Contains(w, blk) || strings.Contains(w, wording[k]) {
					t.Fatalf("%s: the prompt without %s holds %q:\n%s", p.ID, names[k], wording[k], w)
				}
			}
		}
	}
}
