package ckpt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/run"
)

// A checkpoint pins the configuration it was written under: it holds a
// copy of config.json (RunConfigFile, covered by checksums.json) and
// state.json holds that copy's SHA-256. A resume whose config.json differs
// from the copy in a setting a resume may not change is refused: the file
// was edited by hand, and the run would silently become another. The
// changes resumes make themselves pass.

// RunConfigFile is the checkpoint's copy of the run's config.json (what
// the checkpoint was trained with, and on which task).
const RunConfigFile = "run-config.json"

// ConfigBytes is c as a run writes its config.json (indented JSON and a
// newline), the bytes a checkpoint pins.
func ConfigBytes(c any) ([]byte, error) {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// CheckPin holds the run's config.json (path) against the copy checkpoint
// dir was written with. refused compares the two (then: the copy, now:
// config.json's bytes) and returns the settings a resume may not change.
// A checkpoint that pins nothing (written before checkpoints did) passes.
func CheckPin(dir, path string, refused func(then, now []byte) (settings.Problems, error)) error {
	var st State
	if err := run.ReadJSON(filepath.Join(dir, StateFile), &st); err != nil {
		return err
	}
	if st.ConfigSHA256 == "" {
		return nil // written before checkpoints pinned their configuration
	}
	now, err := boundedread.ReadFile(path, boundedread.Settings)
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if sum := sha256.Sum256(now); hex.EncodeToString(sum[:]) == st.ConfigSHA256 {
		return nil
	}
	then, err := boundedread.ReadFile(filepath.Join(dir, RunConfigFile), boundedread.Settings)
	if err != nil {
		return fmt.Errorf("resume from %s: config file: %w", dir, err)
	}
	ps, err := refused(then, now)
	if err != nil {
		return err
	}
	if len(ps) > 0 {
		return fmt.Errorf("resume: %s was changed after %s was written, in settings a resume may not change:\n%v\n(restore them: %s holds the configuration the checkpoint was written with)",
			path, dir, ps, filepath.Join(dir, RunConfigFile))
	}
	return nil
}
