package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/rl"
)

// TestConfigErrorPosition: a config file's syntax error names the line
// (and, in JSON, the column) where it is (issue 49: garbage JSON said
// `invalid character 'h' in literal true` and nothing more; a YAML
// fault on line 2 was reported on line 1).
func TestConfigErrorPosition(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		want             []string
	}{
		{"JSON garbage", "c.json", "{\n  \"steps\": 3,\n  \"method\": th\n}\n", []string{"invalid character 'h' in literal true", "(line 3, column 14)"}},
		{"JSON first byte", "c.json", "x", []string{"(line 1, column 1)"}},
		{"JSON wrong type", "c.json", "{\"steps\": 3,\n\"method\": 7}", []string{"line 2, column"}},
		{"JSON cut short", "c.json", "{\n\"steps\": 3,\n\"method\": \"gd", []string{"the file ends inside a value, at line 3"}},
		{"YAML unclosed list", "c.yaml", "steps: 3\nmethod: [gdpo\n", []string{"yaml: line 2: did not find expected ',' or ']'"}},
		{"YAML stray item", "c.yaml", "steps: 3\nmethod: gdpo\n- span\n", []string{"yaml: line 3: did not find expected key"}},
		{"YAML nested", "c.yaml", "steps: 3\ncredit:\n  beta: [1\n", []string{"yaml: line 3:"}},
		{"YAML scanner (already right)", "c.yaml", "steps: 3\n\tmethod: gdpo\n", []string{"yaml: line 2: found a tab character"}},
		{"YAML unknown key", "c.yaml", "steps: 3\nbogus: 1\n", []string{"line 2: field bogus not found"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			c := rl.DefaultConfig()
			err := loadTrainConfig(path, &c, nil)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestLineColumn(t *testing.T) {
	for _, tc := range []struct {
		data      string
		off       int64
		line, col int
	}{
		{"", 0, 1, 1},
		{"abc", 1, 1, 1},
		{"abc", 3, 1, 3},
		{"abc", 99, 1, 3},
		{"a\nbc", 3, 2, 1},
		{"a\nbc", 4, 2, 2},
		{"a\n\nb", 4, 3, 1},
	} {
		if l, c := lineColumn([]byte(tc.data), tc.off); l != tc.line || c != tc.col {
			t.Errorf("lineColumn(%q, %d) = %d:%d, want %d:%d", tc.data, tc.off, l, c, tc.line, tc.col)
		}
	}
}
