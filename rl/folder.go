package rl

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/internal/settings"

	"github.com/credo-rl/credo/internal/redact"
)

// A resume knows a run folder, and the files its settings name, by what
// they point to, not by how they are written: "runs/x", "./runs/x/" and
// /home/u/runs/x are one folder, from any working directory. New runs save
// their paths absolute. The folder may have moved or been copied (a
// resume records its new place), and the files that moved with it (a
// comparison's warm-up beside its runs) are found at their new place.

// judgeMayChange are the keys of a judge spec a resume may change: where
// the judge is reached and how it is asked, not what it judges.
var judgeMayChange = []string{"backoff", "backoff_max", "cache", "concurrency", "key_env", "retries", "timeout", "url"}

// JudgeMayChange lists the keys of a judge spec a resumed run may change.
func JudgeMayChange() []string { return slices.Clone(judgeMayChange) }

// resumeCompare compares the configuration a run is resumed with against
// the one it was started with: paths by what they point to, judges key by
// key, every other setting as resumeDiff does. It returns now with its
// paths resolved (absolute), the changes a resume may make and a settings.Problem
// for each setting it may not change.
func resumeCompare(saved, now Config) (Config, []Change, settings.Problems) {
	var changes []Change
	var refused settings.Problems
	savedOut, nowOut := absPath(saved.Out), absPath(now.Out)
	if !samePlace(savedOut, nowOut) {
		changes = append(changes, Change{"out", saved.Out, nowOut}) // moved or copied
	}
	now.Out = nowOut
	for _, f := range []struct {
		key      string
		was, now *string
	}{{"init", &saved.Init, &now.Init}, {"prm", &saved.PRM, &now.PRM}} {
		resolved, ch, p := pathDiff(f.key, *f.was, *f.now, saved.Out, nowOut)
		changes, refused = appendDiff(changes, refused, ch, p)
		*f.now, *f.was = resolved, resolved
	}
	judges, jc, jp := judgesDiff(saved.Judges, now.Judges, saved.Out, nowOut)
	changes, refused = append(changes, jc...), append(refused, jp...)
	now.Judges, saved.Judges, saved.Out = judges, judges, now.Out
	rest, restRefused := resumeDiff(saved, now)
	return now, append(changes, rest...), append(refused, restRefused...)
}

func appendDiff(changes []Change, refused settings.Problems, ch *Change, p *settings.Problem) ([]Change, settings.Problems) {
	if ch != nil {
		changes = append(changes, *ch)
	}
	if p != nil {
		refused = append(refused, *p)
	}
	return changes, refused
}

// pathDiff compares a path setting: the same file (however written) is no
// change; a file at the same place relative to the run folder, which moved
// with it, is a change; anything else is refused. It returns the path to
// use, absolute.
func pathDiff(key, was, now, savedOut, nowOut string) (string, *Change, *settings.Problem) {
	if was == "" && now == "" {
		return "", nil, nil
	}
	old := resolveSaved(was, savedOut, nowOut)
	cur := absPath(now)
	if was == now {
		cur = old // not given again: the saved path, found from here
	}
	switch {
	case was != "" && now != "" && samePlace(old, cur):
		return cur, nil, nil
	case was != "" && now != "" && relTo(absPath(savedOut), old) == relTo(nowOut, cur):
		return cur, &Change{key, was, cur}, nil // moved with the run folder
	}
	return cur, nil, &settings.Problem{Key: key, Msg: fmt.Sprintf("the run was started with %q, which is not %q", was, now)}
}

// resolveSaved is a saved path as it is to be read now: an absolute one as
// it is; a relative one (written by an older credo, relative to the
// working directory the run was started in) at the same place relative to
// the run folder when that exists, else relative to this working directory.
func resolveSaved(p, savedOut, nowOut string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if !filepath.IsAbs(savedOut) {
		if rel, err := filepath.Rel(savedOut, p); err == nil {
			if cand := filepath.Join(nowOut, rel); exists(cand) {
				return cand
			}
		}
	}
	return absPath(p)
}

// judgesDiff compares the judges spec by spec and key by key: a key
// judgeMayChange lists may change, a rubric is compared as a path, and any
// other difference is refused. It returns the specs to use (now's, with
// rubric paths absolute).
func judgesDiff(saved, now []string, savedOut, nowOut string) ([]string, []Change, settings.Problems) {
	if len(saved) != len(now) {
		return now, nil, settings.Problems{{Key: "judges", Msg: fmt.Sprintf("the run was started with %d judge(s), not %d", len(saved), len(now))}}
	}
	var changes []Change
	var refused settings.Problems
	out := slices.Clone(now)
	for i := range saved {
		a, b := specValues(saved[i]), specValues(now[i])
		name := b["name"]
		for _, k := range unionKeys(a, b) {
			x, y := a[k], b[k]
			switch {
			case k == "rubric":
				resolved, ch, p := pathDiff("judges."+name+".rubric", x, y, savedOut, nowOut)
				changes, refused = appendDiff(changes, refused, ch, p)
				out[i] = setSpecValue(out[i], "rubric", resolved)
			case x == y:
			case slices.Contains(judgeMayChange, k):
				changes = append(changes, Change{"judges." + name + "." + k, redact.String(x), redact.String(y)})
			default:
				refused = append(refused, settings.Problem{Key: "judges", Msg: fmt.Sprintf("judge %s's %s: the run was started with %q, not %q", name, k, redact.String(x), redact.String(y))})
			}
		}
	}
	return out, changes, refused
}

// specValues reads a judge spec's key=value items (values run to the next
// comma; the judge's own parser checks them).
func specValues(spec string) map[string]string {
	m := map[string]string{}
	for item := range strings.SplitSeq(spec, ",") {
		if k, v, ok := strings.Cut(item, "="); ok {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m
}

// setSpecValue is spec with key's value replaced (when it has the key).
func setSpecValue(spec, key, value string) string {
	items := strings.Split(spec, ",")
	for i, item := range items {
		if k, _, ok := strings.Cut(item, "="); ok && strings.TrimSpace(k) == key {
			items[i] = key + "=" + value
		}
	}
	return strings.Join(items, ",")
}

// unionKeys is every key of a or b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// absolutePaths is c with the paths it names absolute (a run started here
// resumes from any working directory).
func absolutePaths(c Config) Config {
	c.Out, c.Init = absPath(c.Out), absPath(c.Init)
	if c.PRM != "" {
		c.PRM = absPath(c.PRM)
	}
	c.Judges = slices.Clone(c.Judges)
	for i, spec := range c.Judges {
		if r := specValues(spec)["rubric"]; r != "" {
			c.Judges[i] = setSpecValue(spec, "rubric", absPath(r))
		}
	}
	return c
}

// absPath is p absolute and clean ("" stays "").
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// samePlace reports whether two absolute paths name one file or folder.
func samePlace(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

// relTo is p relative to base, or "" when it cannot be.
func relTo(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		return ""
	}
	return r
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
