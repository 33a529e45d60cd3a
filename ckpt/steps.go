package ckpt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A run keeps its checkpoints in checkpoints/step-NNNNNN/ (NNNNNN
// completed steps); only folders holding a state.json are complete.

// Name is the folder name of the checkpoint after step completed steps.
func Name(step int) string { return fmt.Sprintf("step-%06d", step) }

// Dir is the folder of the checkpoint of the run in dir after step
// completed steps.
func Dir(dir string, step int) string {
	return filepath.Join(dir, "checkpoints", Name(step))
}

// LatestStep is the step of the newest complete checkpoint of the run in
// dir, 0 when it has none.
func LatestStep(dir string) (int, error) {
	st, err := Steps(filepath.Join(dir, "checkpoints"))
	if err != nil || len(st) == 0 {
		return 0, err
	}
	return st[len(st)-1], nil
}

// Latest is the newest checkpoint folder of the run in out, or "" when it
// has none (a resume then starts from the beginning).
func Latest(out string) (string, error) {
	steps, err := Steps(filepath.Join(out, "checkpoints"))
	if err != nil || len(steps) == 0 {
		return "", err
	}
	return filepath.Join(out, "checkpoints", Name(steps[len(steps)-1])), nil
}

// Steps lists the complete checkpoints under root, oldest first.
func Steps(root string) ([]int, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	var steps []int
	for _, e := range entries {
		n, ok := strings.CutPrefix(e.Name(), "step-")
		if !e.IsDir() || !ok {
			continue // temporary folders start with a dot
		}
		if s, err := strconv.Atoi(n); err == nil {
			if _, err := os.Stat(filepath.Join(root, e.Name(), StateFile)); err == nil {
				steps = append(steps, s)
			}
		}
	}
	sort.Ints(steps)
	return steps, nil
}

// Prune keeps only the newest keep checkpoints under root.
func Prune(root string, keep int) error {
	steps, err := Steps(root)
	if err != nil {
		return err
	}
	for len(steps) > keep {
		if err := os.RemoveAll(filepath.Join(root, Name(steps[0]))); err != nil {
			return fmt.Errorf("prune checkpoints: %w", err)
		}
		steps = steps[1:]
	}
	return nil
}

// RemoveStray deletes what a run killed during a checkpoint write leaves
// in root: .step-*.tmp* folders (a write not yet renamed into place) and
// step-*.old ones (a replaced checkpoint not yet removed).
func RemoveStray(root string, log io.Writer) error {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		tmp := strings.HasPrefix(n, ".step-") && strings.Contains(n, ".tmp")
		old := strings.HasPrefix(n, "step-") && strings.HasSuffix(n, ".old")
		if !tmp && !old {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, n)); err != nil {
			return fmt.Errorf("remove the unfinished checkpoint %s: %w", n, err)
		}
		fmt.Fprintf(log, "removed %s, left by a checkpoint write that did not finish\n", filepath.Join(root, n))
	}
	return nil
}
