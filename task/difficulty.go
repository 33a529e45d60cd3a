package task

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Difficulty holds a task's difficulty settings as key=value pairs, written
// "slots=4,max=9" on the command line and in config.json. Each task
// declares its knobs (Knob) and reads them with Int or Float; a key the
// task does not know is an error that lists the known ones, so a typo never
// silently trains on the default.
type Difficulty map[string]string

// ParseDifficulty reads "key=value,key=value". Spaces around keys and
// values are ignored; an empty spec is no setting.
func ParseDifficulty(spec string) (Difficulty, error) {
	d := Difficulty{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("difficulty %q: want key=value pairs separated by commas, got %q", spec, part)
		}
		if _, dup := d[k]; dup {
			return nil, fmt.Errorf("difficulty %q: %s is set twice", spec, k)
		}
		d[k] = v
	}
	return d, nil
}

// String writes the settings back as "key=value,…" in key order.
func (d Difficulty) String() string {
	parts := make([]string, 0, len(d))
	for _, k := range slices.Sorted(maps.Keys(d)) {
		parts = append(parts, k+"="+d[k])
	}
	return strings.Join(parts, ",")
}

// Knob is one difficulty setting a task understands.
type Knob struct {
	Name    string
	Default string
	Help    string
}

// Check fails when d names a setting that is not among knobs.
func (d Difficulty) Check(task string, knobs []Knob) error {
	known := make([]string, len(knobs))
	for i, k := range knobs {
		known[i] = k.Name
	}
	for _, k := range slices.Sorted(maps.Keys(d)) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("task %s has no difficulty setting %q (known: %s)", task, k, strings.Join(known, ", "))
		}
	}
	return nil
}

// Int reads setting name as an integer in [lo, hi], or def when unset.
func (d Difficulty) Int(name string, def, lo, hi int) (int, error) {
	s, ok := d[name]
	if !ok {
		return def, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("difficulty %s=%s: want an integer in [%d, %d]", name, s, lo, hi)
	}
	return v, nil
}

// Float reads setting name as a number in [lo, hi], or def when unset.
func (d Difficulty) Float(name string, def, lo, hi float64) (float64, error) {
	s, ok := d[name]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= lo && v <= hi) { // also rejects NaN
		return 0, fmt.Errorf("difficulty %s=%s: want a number in [%g, %g]", name, s, lo, hi)
	}
	return v, nil
}

// Tunable is an optional capability of tasks with difficulty settings:
// Knobs lists them with their defaults, for --help and for errors.
type Tunable interface {
	Knobs() []Knob
}

// Region is an optional capability of tasks that know exactly which bytes
// of a response each reward depends on (the controlled task, slots): the
// ground truth against which a relevance source's localization is checked,
// independently of the spans a verifier reports. Regions returns, per
// reward in Rewards order, the byte ranges [start, end) of the response
// that reward k reads; a nil entry means unknown.
type Region interface {
	Regions(p Prompt, response string) [][][2]int
}
