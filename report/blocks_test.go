package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// TestBlocksNote: each warm-up's warmup.json block diagnostic reaches the
// table's head, by warm-up, with the equal-length control where measured;
// a warm-up without one is left out and a comparison without any has no note.
func TestBlocksNote(t *testing.T) {
	pos := -6.09
	tests := []struct {
		name   string
		blocks map[int]any // warm-up → warmup.json's report.blocks (absent: no warmup.json)
		want   []string
		absent []string
	}{
		{"none", map[int]any{}, nil, []string{"Block diagnostic"}},
		{"no blocks in the report", map[int]any{1: nil, 2: nil}, nil, []string{"Block diagnostic"}},
		{"both figures", map[int]any{1: BlockFigures{0.121, &pos}, 2: BlockFigures{0.048, nil}},
			[]string{"warm-up 1 0.121, warm-up 2 0.048.", "position rather than information", "warm-up 1 -6.09."},
			[]string{"warm-up 2 -", "warm-up 3"}},
		{"one warm-up of two", map[int]any{2: BlockFigures{RightOverWrong: 0.3}},
			[]string{"warm-up 2 0.300."}, []string{"warm-up 1", "Equal-length"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFixtureWarmups(t, dir, []string{"grpo", "gdpo", "span"}, 2, []uint64{1}, 10)
			for w, b := range tt.blocks {
				rep := map[string]any{"final_loss": 0.1}
				if b != nil {
					rep["blocks"] = b
				}
				writeJSONFile(t, filepath.Join(dir, "warmup-"+string(rune('0'+w)), run.WarmupFile), map[string]any{"config": map[string]any{}, "report": rep})
			}
			c, err := LoadCompare(dir)
			if err != nil {
				t.Fatal(err)
			}
			note := BlocksNote(c)
			for _, s := range tt.want {
				if !strings.Contains(note, s) {
					t.Errorf("note lacks %q:\n%s", s, note)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(note, s) {
					t.Errorf("note has %q:\n%s", s, note)
				}
			}
			var intro strings.Builder
			for _, p := range buildPage(c).Intro {
				intro.WriteString(p)
			}
			if got := strings.Contains(intro.String(), "Block diagnostic"); got != (note != "") {
				t.Errorf("page intro has the note: %v, want %v", got, note != "")
			}
		})
	}
}

// TestBlocksCorruptWarmup: a warmup.json that is not JSON is an error
// naming the comparison, not a silently missing diagnostic.
func TestBlocksCorruptWarmup(t *testing.T) {
	dir := t.TempDir()
	writeFixtureWarmups(t, dir, []string{"grpo", "gdpo"}, 2, []uint64{1}, 10)
	if err := os.WriteFile(filepath.Join(dir, "warmup-2", run.WarmupFile), []byte(`{"report": {"blocks": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCompare(dir)
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("LoadCompare = %v, want an error naming %s", err, dir)
	}
}
