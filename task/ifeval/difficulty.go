package ifeval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/credo-rl/credo/task"
)

// knobs are the task's difficulty settings; their defaults give the
// prompts the task made before it had settings.
var knobs = []task.Knob{
	{Name: "min", Default: "2", Help: "fewest constraints per prompt (1..8)"},
	{Name: "max", Default: "6", Help: "most constraints per prompt (min..8; unset, 6 or the number of kinds if fewer)"},
	{Name: "kinds", Default: strings.Join(kindOrder, "+"), Help: "constraint kinds drawn from, joined by +; every kind keeps its reward, which skips prompts without that kind"},
}

// settings are the parsed difficulty settings.
type settings struct {
	min, max int
	kinds    []string // in kindOrder order
}

// readSettings checks d against knobs and reads it.
func readSettings(d task.Difficulty) (settings, error) {
	if err := d.Check("ifeval", knobs); err != nil {
		return settings{}, err
	}
	s := settings{kinds: kindOrder}
	if v, ok := d["kinds"]; ok {
		want := strings.Split(v, "+")
		for i, w := range want {
			if !slices.Contains(kindOrder, w) || slices.Contains(want[:i], w) {
				return s, fmt.Errorf("difficulty kinds=%s: want some of %s joined by +, each once", v, strings.Join(kindOrder, ", "))
			}
		}
		s.kinds = nil
		for _, k := range kindOrder {
			if slices.Contains(want, k) {
				s.kinds = append(s.kinds, k)
			}
		}
	}
	var err error
	if s.min, err = d.Int("min", 2, 1, len(kindOrder)); err != nil {
		return s, err
	}
	if s.max, err = d.Int("max", min(6, len(s.kinds)), 1, len(kindOrder)); err != nil {
		return s, err
	}
	if s.max < s.min || s.max > len(s.kinds) {
		return s, fmt.Errorf("difficulty %s: want min ≤ max ≤ %d (the kinds drawn from), got min=%d, max=%d", d, len(s.kinds), s.min, s.max)
	}
	return s, nil
}

// Knobs lists the difficulty settings (task.Tunable).
func (t *Task) Knobs() []task.Knob { return knobs }
