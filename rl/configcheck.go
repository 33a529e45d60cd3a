package rl

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/run"
)

// A checkpoint pins the configuration it was written under: it holds a
// copy of config.json (RunConfigFile, covered by checksums.json) and
// state.json holds that copy's SHA-256. A resume whose config.json differs
// from the copy in a setting a resume may not change is refused: the file
// was edited by hand, and the run would silently become another. The
// changes resumes make themselves (ResumeMayChange) pass.

// RunConfigFile is the checkpoint's copy of the run's config.json (what
// the checkpoint was trained with, and on which task).
const RunConfigFile = "run-config.json"

// runConfigBytes is config.json as the run writes it, and its SHA-256.
func (t *Trainer) runConfigBytes() ([]byte, string, error) {
	data, err := json.MarshalIndent(t.c, "", "  ")
	if err != nil {
		return nil, "", err
	}
	data = append(data, '\n')
	sum := sha256.Sum256(data)
	return data, hex.EncodeToString(sum[:]), nil
}

// checkRunConfig holds the run's config.json against the copy checkpoint
// dir was written with.
func (t *Trainer) checkRunConfig(dir string) error {
	var st checkpointState
	if err := run.ReadJSON(filepath.Join(dir, "state.json"), &st); err != nil {
		return err
	}
	if st.ConfigSHA256 == "" {
		return nil // written before checkpoints pinned their configuration
	}
	path := filepath.Join(t.c.Out, run.ConfigFile)
	now, err := boundedread.ReadFile(path, boundedread.Settings)
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if sum := sha256.Sum256(now); hex.EncodeToString(sum[:]) == st.ConfigSHA256 {
		return nil
	}
	then := DefaultConfig()
	if err := LoadConfigFile(filepath.Join(dir, RunConfigFile), &then); err != nil {
		return fmt.Errorf("resume from %s: %w", dir, err)
	}
	current := DefaultConfig()
	if err := LoadConfigFile(path, &current); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if _, _, refused := resumeCompare(then, current); len(refused) > 0 {
		return fmt.Errorf("resume: %s was changed after %s was written, in settings a resume may not change:\n%v\n(restore them: %s holds the configuration the checkpoint was written with)",
			path, dir, refused, filepath.Join(dir, RunConfigFile))
	}
	return nil
}

// WithMissingChecksums lets a resume continue from a checkpoint whose
// checksums.json is gone although the run writes one: its files cannot be
// verified. The resume says so and records it in resumes.json.
func WithMissingChecksums() Option { return func(t *Trainer) { t.acceptNoChecksums = true } }

// checksumsPresent refuses a checkpoint without checksums.json when the
// run writes one (its state.json pins the configuration, or another of
// its checkpoints has checksums), unless the resume accepts it.
func (t *Trainer) checksumsPresent(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, checksumsFile)); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if !t.writesChecksums(dir) {
		return nil // an older credo's checkpoint: verifyChecksums warns
	}
	if !t.acceptNoChecksums {
		return fmt.Errorf("%s is missing, though this run's checkpoints have one: the files cannot be verified, so a changed weight would go unnoticed. "+
			"Restore it, or accept the checkpoint unverified with --accept-missing-checksums (recorded in %s)", checksumsFile, ResumesFile)
	}
	t.accepted = fmt.Sprintf("%s had no %s: resumed unverified (--accept-missing-checksums)", filepath.Base(dir), checksumsFile)
	fmt.Fprintf(t.log, "warning: %s\n", t.accepted)
	return nil
}

// writesChecksums reports whether the run that wrote checkpoint dir
// writes checksums: its state.json pins the configuration (which only a
// credo writing checksums does) or a sibling checkpoint has them.
func (t *Trainer) writesChecksums(dir string) bool {
	var st checkpointState
	if run.ReadJSON(filepath.Join(dir, "state.json"), &st) == nil && st.ConfigSHA256 != "" {
		return true
	}
	root := filepath.Dir(dir)
	steps, _ := checkpointSteps(root)
	for _, s := range steps {
		if _, err := os.Stat(filepath.Join(root, checkpointName(s), checksumsFile)); err == nil {
			return true
		}
	}
	return false
}
