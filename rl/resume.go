package rl

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/settings"

	"github.com/credo-rl/credo/run"
)

// resumeMayChange are the settings a resumed run may change: how long it
// runs (steps, which also stretches the learning-rate schedule), how it
// evaluates, checkpoints, logs and runs its verifiers, and how it splits a
// batch to fit memory (the update is the same to float32 rounding); a
// judge's keys are judgeMayChange. Every other setting
// makes the run what it is: resuming with another value would silently
// continue a different run under the old one's name.
var resumeMayChange = []string{
	"block_every", "checkpoint_every", "eval_every", "eval_prompts", "eval_samples", "keep_checkpoints",
	"max_verify_errors", "memory_budget", "micro_batch", "samples_per_step", "steps", "verify_timeout", "verify_workers",
}

// ResumeMayChange lists, by config.json key, the settings a resumed run
// may change; a resume that changes any other is refused.
func ResumeMayChange() []string { return slices.Clone(resumeMayChange) }

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

// LoadRunConfig reads the configuration a run directory was started with
// (its config.json, over the defaults for settings it predates).
func LoadRunConfig(dir string) (Config, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, configErr("resume: run directory %s does not exist (start a new run without --resume)", dir)
	}
	if err != nil {
		return Config{}, fmt.Errorf("resume: %w", err)
	}
	if !st.IsDir() {
		return Config{}, configErr("resume: %s is a file, not a run directory", dir)
	}
	path := filepath.Join(dir, "config.json")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return Config{}, configErr("resume: %s holds no run (it has no config.json)", dir)
	}
	c := DefaultConfig()
	if err := LoadConfigFile(path, &c); err != nil {
		return Config{}, fmt.Errorf("resume: %w", err)
	}
	return c, nil
}

// resumeDiff compares the configuration a run is resumed with against the
// one it was started with: the changes a resume may make, and a settings.Problem for
// each setting it may not change.
func resumeDiff(saved, now Config) ([]Change, settings.Problems) {
	a, b := flatSettings(saved), flatSettings(now)
	keys := unionKeys(a, b)
	var changes []Change
	var refused settings.Problems
	for _, k := range keys {
		x, y := a[k], b[k]
		if jsonText(x) == jsonText(y) {
			continue
		}
		if slices.Contains(resumeMayChange, k) {
			changes = append(changes, Change{k, x, y})
			continue
		}
		refused = append(refused, settings.Problem{Key: k, Msg: fmt.Sprintf("the run was started with %s, not %s", jsonText(x), jsonText(y))})
	}
	return changes, refused
}

// flatSettings flattens a configuration to its config.json keys (nested
// objects dotted: optimizer.beta1); maps and lists stay whole values.
func flatSettings(c Config) map[string]any {
	data, _ := json.Marshal(c)
	var m map[string]any
	json.Unmarshal(data, &m)
	out := map[string]any{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			key := prefix + k
			if sub, ok := v.(map[string]any); ok && key != "reward_weights" {
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

// recordResume appends r to the run's resumes.json.
func recordResume(dir string, r ResumeRecord) error {
	path := filepath.Join(dir, ResumesFile)
	var all []ResumeRecord
	if err := run.ReadJSON(path, &all); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("resume: %w", err)
	}
	r.Time = time.Now().UTC().Format(time.RFC3339)
	return run.WriteJSON(path, append(all, r))
}
