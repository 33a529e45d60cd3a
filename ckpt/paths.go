package ckpt

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/internal/redact"
	"github.com/credo-rl/credo/internal/settings"
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

// AppendDiff adds a comparison's change and problem (either may be nil).
func AppendDiff(changes []Change, refused settings.Problems, ch *Change, p *settings.Problem) ([]Change, settings.Problems) {
	if ch != nil {
		changes = append(changes, *ch)
	}
	if p != nil {
		refused = append(refused, *p)
	}
	return changes, refused
}

// PathDiff compares a path setting: the same file (however written) is no
// change; a file at the same place relative to the run folder, which moved
// with it, is a change; anything else is refused. It returns the path to
// use, absolute.
func PathDiff(key, was, now, savedOut, nowOut string) (string, *Change, *settings.Problem) {
	if was == "" && now == "" {
		return "", nil, nil
	}
	old := resolveSaved(was, savedOut, nowOut)
	cur := AbsPath(now)
	if was == now {
		cur = old // not given again: the saved path, found from here
	}
	switch {
	case was != "" && now != "" && SamePlace(old, cur):
		return cur, nil, nil
	case was != "" && now != "" && relTo(AbsPath(savedOut), old) == relTo(nowOut, cur):
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
	return AbsPath(p)
}

// JudgesDiff compares the judges spec by spec and key by key: a key
// JudgeMayChange lists may change, a rubric is compared as a path, and any
// other difference is refused. It returns the specs to use (now's, with
// rubric paths absolute).
func JudgesDiff(saved, now []string, savedOut, nowOut string) ([]string, []Change, settings.Problems) {
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
				resolved, ch, p := PathDiff("judges."+name+".rubric", x, y, savedOut, nowOut)
				changes, refused = AppendDiff(changes, refused, ch, p)
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

// AbsRubrics is judges with each rubric path absolute (a run started here
// resumes from any working directory).
func AbsRubrics(judges []string) []string {
	judges = slices.Clone(judges)
	for i, spec := range judges {
		if r := specValues(spec)["rubric"]; r != "" {
			judges[i] = setSpecValue(spec, "rubric", AbsPath(r))
		}
	}
	return judges
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

// AbsPath is p absolute and clean ("" stays "").
func AbsPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// SamePlace reports whether two absolute paths name one file or folder.
func SamePlace(a, b string) bool {
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

// JudgeSecrets refuses judge specs whose URL carries a user name or a
// password: config.json, compare.json and every message would repeat it.
// The key belongs in an environment variable, named with key_env.
func JudgeSecrets(judges []string) settings.Problems {
	var ps settings.Problems
	for _, spec := range judges {
		if shown, found := redact.URLs(spec); found {
			ps = append(ps, settings.Problem{Key: "judges", Msg: fmt.Sprintf("%q: a user name or password in a judge's url is not allowed (it would be saved in config.json and printed in messages): put the API key in an environment variable and name it with key_env=", shown)})
		}
	}
	return ps
}
