package sql

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/credo-rl/credo/task"
)

// knobs are the task's difficulty settings; their defaults give the
// questions the task asked before it had settings.
var knobs = []task.Knob{
	{Name: "kinds", Default: "filter+join+group+order", Help: "kinds of question asked, joined by +: filter (WHERE on one table), join (two tables), group (GROUP BY, HAVING), order (ORDER BY … LIMIT)"},
	{Name: "joins", Default: "1", Help: "0: leave out every question whose reference joins two tables (one table per query); 1: keep them"},
	{Name: "aggregates", Default: "1", Help: "0: leave out every question whose reference uses COUNT, SUM or AVG; 1: keep them"},
	{Name: "think", Default: thinkShort, Help: "short: <think> holds the question's few-word plan (\"filter customers by city\"); varied: that plan inside two free-worded sentences drawn afresh for every demonstration, tokens the policy stays unsure of that no verdict quotes"},
}

// selectKinds reads the settings and returns the kinds, each with the
// templates the settings keep, in the order of kinds (so the defaults
// draw exactly as before). A template's reference is classified by
// asking it once on the task's data: its query shape does not depend on
// the literals drawn.
func selectKinds(d task.Difficulty, data *dataset) ([]kind, error) {
	if err := d.Check("sql", knobs); err != nil {
		return nil, err
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	want := names
	if v, ok := d["kinds"]; ok {
		want = strings.Split(v, "+")
		for i, w := range want {
			if !slices.Contains(names, w) || slices.Contains(want[:i], w) {
				return nil, fmt.Errorf("difficulty kinds=%s: want some of %s joined by +, each once", v, strings.Join(names, ", "))
			}
		}
	}
	joins, err := d.Int("joins", 1, 0, 1)
	if err != nil {
		return nil, err
	}
	aggs, err := d.Int("aggregates", 1, 0, 1)
	if err != nil {
		return nil, err
	}
	var out []kind
	for _, k := range kinds {
		if !slices.Contains(want, k.name) {
			continue
		}
		kept := kind{name: k.name}
		for _, tm := range k.templates {
			q := tm(rand.New(rand.NewPCG(1, 1)), data).Query
			if (joins == 0 && joinsTables(q)) || (aggs == 0 && aggregates(q)) {
				continue
			}
			kept.templates = append(kept.templates, tm)
		}
		if len(kept.templates) > 0 {
			out = append(out, kept)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("difficulty %s leaves no question to ask", d)
	}
	return out, nil
}

// joinsTables reports whether a reference query joins two tables.
func joinsTables(q string) bool { return strings.Contains(q, " JOIN ") }

// aggregates reports whether a reference query uses an aggregate function.
func aggregates(q string) bool {
	return strings.Contains(q, "COUNT(") || strings.Contains(q, "SUM(") || strings.Contains(q, "AVG(")
}

// Knobs lists the difficulty settings (task.Tunable).
func (t *Task) Knobs() []task.Knob { return knobs }
