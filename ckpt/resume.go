package ckpt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/run"
)

// ResumeConflict is a resume that would change settings that make the run
// what it is.
type ResumeConflict struct {
	Problems  settings.Problems // each refused setting, with its saved and asked values
	MayChange []string          // the settings a resume may change
}

func (e *ResumeConflict) Error() string {
	return fmt.Sprintf("%v\n(a resume continues the run as it was started: leave these settings out; only %s may change)",
		e.Problems, strings.Join(e.MayChange, ", "))
}

// Change is one setting a resume changed, by config.json key.
type Change struct {
	Key  string `json:"key"`
	From any    `json:"from"`
	To   any    `json:"to"`
}

// ResumeRecord is one resume that changed settings, as resumes.json keeps it.
type ResumeRecord struct {
	Time       string   `json:"time"`
	Step       int      `json:"step"`       // completed steps when it resumed
	Checkpoint string   `json:"checkpoint"` // resumed from ("" when no checkpoint existed yet)
	Changes    []Change `json:"changes"`
	// Accepted is what the resume was told to accept (a checkpoint without
	// checksums.json), or "".
	Accepted string `json:"accepted,omitempty"`
}

// ResumesFile is where a run directory records resumes that changed settings.
const ResumesFile = "resumes.json"

// Diff compares the configuration a run is resumed with against the one
// it was started with, by config.json key (nested objects dotted:
// optimizer.beta1; the keys in whole, and lists, compared whole): the
// changes a resume may make (the keys in mayChange), and a
// settings.Problem for each other setting that differs.
func Diff(saved, now any, mayChange []string, whole ...string) ([]Change, settings.Problems) {
	a, b := flatSettings(saved, whole), flatSettings(now, whole)
	keys := unionKeys(a, b)
	var changes []Change
	var refused settings.Problems
	for _, k := range keys {
		x, y := a[k], b[k]
		if jsonText(x) == jsonText(y) {
			continue
		}
		if slices.Contains(mayChange, k) {
			changes = append(changes, Change{k, x, y})
			continue
		}
		refused = append(refused, settings.Problem{Key: k, Msg: fmt.Sprintf("the run was started with %s, not %s", jsonText(x), jsonText(y))})
	}
	return changes, refused
}

// flatSettings flattens a configuration to its config.json keys (nested
// objects dotted); the keys in whole stay whole values.
func flatSettings(c any, whole []string) map[string]any {
	data, _ := json.Marshal(c)
	var m map[string]any
	json.Unmarshal(data, &m)
	out := map[string]any{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			key := prefix + k
			if sub, ok := v.(map[string]any); ok && !slices.Contains(whole, key) {
				walk(key+".", sub)
				continue
			}
			out[key] = v
		}
	}
	walk("", m)
	return out
}

func jsonText(v any) string {
	if v == nil {
		return "nothing"
	}
	b, _ := json.Marshal(v)
	return string(b)
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

// Resumed cleans a resumed run's folder of what a killed checkpoint write
// left behind and, when the resume changed settings or accepted
// something, records it in resumes.json, says so on log and saves config
// as the folder's config.json.
func Resumed(out string, r ResumeRecord, config any, log io.Writer) error {
	if err := RemoveStray(filepath.Join(out, "checkpoints"), log); err != nil {
		return err
	}
	if len(r.Changes) == 0 && r.Accepted == "" {
		return nil
	}
	if err := record(out, r); err != nil {
		return err
	}
	for _, ch := range r.Changes {
		fmt.Fprintf(log, "resume: %s changes from %v to %v (recorded in resumes.json)\n", ch.Key, ch.From, ch.To)
	}
	return run.WriteJSON(filepath.Join(out, run.ConfigFile), config)
}

// record appends r to the run's resumes.json.
func record(dir string, r ResumeRecord) error {
	path := filepath.Join(dir, ResumesFile)
	var all []ResumeRecord
	if err := run.ReadJSON(path, &all); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("resume: %w", err)
	}
	r.Time = time.Now().UTC().Format(time.RFC3339)
	return run.WriteJSON(path, append(all, r))
}
