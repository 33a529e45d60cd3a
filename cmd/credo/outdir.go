package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/internal/lock"
	"github.com/credo-rl/credo/lab"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
)

// notLock is true for a folder entry other than a lock file (a folder
// holding only a lock holds nothing of the user's).
func notLock(e fs.DirEntry) bool { return e.Name() != lock.File }

// checkOut refuses to write into a folder that holds something unless
// replace says to overwrite it; flag names the flag that chose it.
func checkOut(dir, flag string, replace bool) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.IsDir():
		return usageError{Err: fmt.Errorf("--%s %s is a file, not a folder", flag, dir)}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(entries, notLock) || replace {
		return nil
	}
	names := make([]string, 0, 3)
	for _, e := range entries[:min(3, len(entries))] {
		names = append(names, e.Name())
	}
	more := ""
	if len(entries) > 3 {
		more = ", …"
	}
	return usageError{Err: fmt.Errorf("--%s %s already holds %s%s: choose another folder, or pass --replace to overwrite it", flag, dir, strings.Join(names, ", "), more)}
}

// holdOut takes the lock of an --out folder that exists, so that no other
// process writes it meanwhile (a nil lock when it does not exist: it is
// built in a locked temporary folder, see saveWarmup).
func holdOut(dir string) (*lock.Lock, error) {
	l, err := lock.Acquire(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return l, err
}

// saveWarmup writes a warmed-up policy and its warmup.json into dir whole:
// both go into a locked temporary sibling that replaces dir at once, so a
// kill at any moment leaves the old folder or the new one, and the
// temporary folder of a killed sft is recognised and removed by the next
// run in the parent (lock.RemoveAbandoned).
func saveWarmup(dir string, p *policy.Policy, rec lab.WarmupRecord) error {
	tmp, l, err := lock.MkdirTemp(dir)
	if err != nil {
		return fmt.Errorf("save %s: %w", dir, err)
	}
	defer l.Release()
	err = errors.Join(hf.Save(p.Model, tmp), p.Tok.Save(tmp), run.WriteJSON(filepath.Join(tmp, run.WarmupFile), rec), recordBackend(tmp, p.Model))
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("save %s: %w", dir, err)
	}
	if err := policy.ReplaceDir(tmp, dir); err != nil {
		return err
	}
	l.Moved(dir)
	return nil
}
