package ckpt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/credo-rl/credo/run"
)

// ChecksumsFile lists the SHA-256 of a checkpoint's other files.
const ChecksumsFile = "checksums.json"

// writeChecksums records the SHA-256 of every file in dir in checksums.json.
func writeChecksums(dir string) error {
	sums, err := hashFiles(dir)
	if err != nil {
		return err
	}
	return run.WriteJSON(filepath.Join(dir, ChecksumsFile), sums)
}

// hashFiles is the hex SHA-256 of each regular file in dir but checksums.json.
func hashFiles(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == ChecksumsFile {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("hash %s: %w", e.Name(), err)
		}
		sums[e.Name()] = hex.EncodeToString(h.Sum(nil))
	}
	return sums, nil
}

// verifyChecksums checks a checkpoint's files against checksums.json. A
// checkpoint without one (written before checksums existed) is accepted
// with a warning; a missing, changed or unlisted file is an error.
func verifyChecksums(dir string, log io.Writer) error {
	var want map[string]string
	if err := run.ReadJSON(filepath.Join(dir, ChecksumsFile), &want); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(log, "warning: %s has no %s (written by an older credo): its files cannot be verified\n", dir, ChecksumsFile)
			return nil
		}
		return err
	}
	got, err := hashFiles(dir)
	if err != nil {
		return err
	}
	var bad []string
	for name, sum := range want {
		switch g, ok := got[name]; {
		case !ok:
			bad = append(bad, name+" is missing")
		case g != sum:
			bad = append(bad, name+" has changed since it was written")
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			bad = append(bad, name+" was not part of the checkpoint")
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}

// checksumsPresent refuses a checkpoint without checksums.json when the
// run writes one (its state.json pins the configuration, or another of
// its checkpoints has checksums), unless accept; it returns what it
// accepted ("" when nothing).
func checksumsPresent(dir string, accept bool, log io.Writer) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, ChecksumsFile)); !errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if !writesChecksums(dir) {
		return "", nil // an older credo's checkpoint: verifyChecksums warns
	}
	if !accept {
		return "", fmt.Errorf("%s is missing, though this run's checkpoints have one: the files cannot be verified, so a changed weight would go unnoticed. "+
			"Restore it, or accept the checkpoint unverified with --accept-missing-checksums (recorded in %s)", ChecksumsFile, ResumesFile)
	}
	accepted := fmt.Sprintf("%s had no %s: resumed unverified (--accept-missing-checksums)", filepath.Base(dir), ChecksumsFile)
	fmt.Fprintf(log, "warning: %s\n", accepted)
	return accepted, nil
}

// writesChecksums reports whether the run that wrote checkpoint dir
// writes checksums: its state.json pins the configuration (which only a
// credo writing checksums does) or a sibling checkpoint has them.
func writesChecksums(dir string) bool {
	var st State
	if run.ReadJSON(filepath.Join(dir, StateFile), &st) == nil && st.ConfigSHA256 != "" {
		return true
	}
	root := filepath.Dir(dir)
	steps, _ := Steps(root)
	for _, s := range steps {
		if _, err := os.Stat(filepath.Join(root, Name(s), ChecksumsFile)); err == nil {
			return true
		}
	}
	return false
}
