package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJudgeSecretNeverWritten: a judge URL with credentials is refused by
// train, compare and eval (exit 2, pointing to key_env), and the password
// reaches no file and no message (issue 26: it was saved verbatim in
// config.json and printed in error messages).
func TestJudgeSecretNeverWritten(t *testing.T) {
	const secret = "s3cr3t-pa55"
	ctx := context.Background()
	init := tinyCheckpoint(t)
	dir := t.TempDir()
	spec := "name=q,url=https://user:" + secret + "@127.0.0.1:1/v1,model=m"
	trainCfg := filepath.Join(dir, "train.json")
	b, _ := json.Marshal(map[string]any{"judges": []string{spec}})
	os.WriteFile(trainCfg, b, 0o644)
	small := []string{"--steps", "1", "--prompts", "1", "--group", "2", "--max-tokens", "8", "--eval-prompts", "0"}
	for _, args := range [][]string{
		append([]string{"train", "--init", init, "--out", filepath.Join(dir, "t"), "--judge", spec}, small...),
		append([]string{"train", "--init", init, "--out", filepath.Join(dir, "t2"), "--config", trainCfg}, small...),
		append([]string{"compare", "--init", init, "--out", filepath.Join(dir, "c"), "--methods", "grpo", "--seeds", "1", "--train-config", trainCfg, "--calibrate-prompts", "0"}, small...),
		{"eval", "--model", init, "--task", "toolcall", "--prompts", "1", "--judge", spec},
	} {
		code, o, errw := credo(ctx, args...)
		if code != 2 || !strings.Contains(errw, "key_env") {
			t.Errorf("%s: exit %d, want 2 and a pointer to key_env: %s", args[0], code, errw)
		}
		if strings.Contains(o+errw, secret) {
			t.Errorf("%s printed the password: %s%s", args[0], o, errw)
		}
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path != trainCfg {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), secret) {
				t.Errorf("%s holds the password", path)
			}
		}
		return nil
	})
}
