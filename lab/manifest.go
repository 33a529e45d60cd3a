package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/internal/lock"
	"github.com/credo-rl/credo/run"
)

// openComparison makes the folder and its compare.json, or checks that the
// folder's compare.json has m's settings. A comparison may gain methods,
// seeds and (one of several warm-ups) warm-ups: its runs are independent,
// and warm-up w is always made with seed w. compare.json then lists the
// old ones and the new, in that order, and m becomes that manifest.
func openComparison(dir string, m *run.Manifest) error {
	path := filepath.Join(dir, run.ManifestFile)
	var saved run.Manifest
	err := run.ReadJSON(path, &saved)
	switch {
	case err == nil:
		saved.Baselines = saved.BaselineMethods() // a file from before it named them
		grown, ok, changed := extended(saved, *m)
		if !ok { // a method or seed was dropped: name the difference
			return sameSettings(dir, saved, *m)
		}
		base := saved
		base.Methods, base.Seeds, base.Warmups = grown.Methods, grown.Seeds, grown.Warmups
		if err := sameSettings(dir, base, grown); err != nil {
			return err
		}
		*m = grown
		if changed {
			return run.WriteJSON(path, grown)
		}
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("compare: %w", err)
	}
	if entries, err := os.ReadDir(dir); err == nil && slices.ContainsFunc(entries, notLock) {
		return fmt.Errorf("compare: %s holds files but no %s, so it is not a comparison folder: choose another --out", dir, run.ManifestFile)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return run.WriteJSON(path, *m)
}

// extended is now with saved's methods and seeds first and now's new ones
// after (runs listed seed by seed); ok is false when now lacks one of
// saved's methods or seeds, and changed says whether any were added.
func extended(saved, now run.Manifest) (m run.Manifest, ok, changed bool) {
	for _, x := range saved.Methods {
		if !slices.Contains(now.Methods, x) {
			return now, false, false
		}
	}
	for _, x := range saved.Seeds {
		if !slices.Contains(now.Seeds, x) {
			return now, false, false
		}
	}
	if !morewarmups(saved.Warmups, now.Warmups) {
		return now, false, false
	}
	m = now
	m.Methods = append([]string(nil), saved.Methods...)
	for _, x := range now.Methods {
		if !slices.Contains(m.Methods, x) {
			m.Methods = append(m.Methods, x)
		}
	}
	m.Seeds = append([]uint64(nil), saved.Seeds...)
	for _, x := range now.Seeds {
		if !slices.Contains(m.Seeds, x) {
			m.Seeds = append(m.Seeds, x)
		}
	}
	m.Runs = manifestRuns(m.Methods, m.Seeds, len(m.Warmups))
	return m, true, len(m.Methods) != len(saved.Methods) || len(m.Seeds) != len(saved.Seeds) || len(m.Warmups) != len(saved.Warmups)
}

// morewarmups says whether now's warm-ups are saved's and perhaps more
// after them. A comparison of one warm-up keeps one: its runs live in
// other folders (runs/<method>/seed-<s>, not .../warmup-<w>/...).
func morewarmups(saved, now []run.ManifestWarmup) bool {
	if len(saved) == 0 || len(now) < len(saved) {
		return len(saved) == len(now)
	}
	return slices.Equal(saved, now[:len(saved)])
}

// manifestRuns lists a comparison's runs, seed by seed, each seed's runs
// warm-up by warm-up (warmups > 1) in method order: an interrupted
// comparison has complete seeds to pair.
func manifestRuns(methods []string, seeds []uint64, warmups int) []run.ManifestRun {
	var runs []run.ManifestRun
	for _, s := range seeds {
		if warmups <= 1 {
			for _, method := range methods {
				runs = append(runs, run.ManifestRun{Method: method, Seed: s, Dir: filepath.Join("runs", method, fmt.Sprintf("seed-%d", s))})
			}
			continue
		}
		for w := 1; w <= warmups; w++ {
			for _, method := range methods {
				runs = append(runs, run.ManifestRun{Method: method, Seed: s, Warmup: w,
					Dir: filepath.Join("runs", method, fmt.Sprintf("warmup-%d", w), fmt.Sprintf("seed-%d", s))})
			}
		}
	}
	return runs
}

// sameSettings is nil when a comparison saved in dir has now's settings,
// else an error listing each that differs (the runs are derived from the
// methods and seeds, so they are not listed again).
func sameSettings(dir string, saved, now run.Manifest) error {
	if len(saved.Train) == 0 {
		return fmt.Errorf("compare: %s/%s does not record the settings its runs were made with (an older credo wrote it), so they cannot be checked: choose another --out", dir, run.ManifestFile)
	}
	saved.Runs, now.Runs = nil, nil
	saved.Train = sameRecordsPath(dir, saved.Train, now.Train)
	saved.WarmupConfig = sameRecordsPath(dir, saved.WarmupConfig, now.WarmupConfig)
	changes, err := run.Diff(saved, now)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	top := map[string]bool{}
	for _, ch := range changes {
		top[ch.Key] = true
	}
	var lines []string
	for _, ch := range changes {
		if k, ok := strings.CutPrefix(ch.Key, "train."); ok && top[k] {
			continue // steps and task are in the header too
		}
		if strings.HasPrefix(ch.Key, "warmup_config") && top["warmup"] {
			continue // another warm-up altogether
		}
		lines = append(lines, "  "+ch.String())
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("compare: %s holds a comparison made with other settings:\n%s\nresume it with the settings in its %s (a comparison may gain methods, seeds and warm-ups, not lose them), or choose another --out", dir, strings.Join(lines, "\n"), run.ManifestFile)
}

// notLock is true for a folder entry other than a lock file.
func notLock(e fs.DirEntry) bool { return e.Name() != lock.File }

// sameRecordsPath is saved (a run configuration's JSON) with its records
// path replaced by now's when both name the same file however written
// (relative to another working directory, or moved with the comparison
// folder), as a run's own resume compares paths; the file's digest,
// records_sha256, is still compared. Else saved as it is.
func sameRecordsPath(dir string, saved, now json.RawMessage) json.RawMessage {
	var a, b struct {
		Records string `json:"records"`
	}
	if json.Unmarshal(saved, &a) != nil || json.Unmarshal(now, &b) != nil || a.Records == "" || b.Records == "" || a.Records == b.Records {
		return saved
	}
	if _, _, p := ckpt.PathDiff("records", a.Records, b.Records, dir, ckpt.AbsPath(dir)); p != nil {
		return saved
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(saved, &m) != nil {
		return saved
	}
	m["records"], _ = json.Marshal(b.Records)
	out, err := json.Marshal(m)
	if err != nil {
		return saved
	}
	return out
}
