package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// taskSet holds built tasks by (name, seed, difficulty): every registered
// task with its defaults from the start, others as requests name them, up
// to maxBuilt; past that a task is built for one request and closed after.
type taskSet struct {
	mu    sync.Mutex
	built map[string]task.Task
	order []string // keys in the order built, for Close
}

const maxBuilt = 32

func taskKey(name string, seed uint64, d task.Difficulty) string {
	return name + "\x00" + strconv.FormatUint(seed, 10) + "\x00" + d.String()
}

func newTaskSet() (*taskSet, error) {
	ts := &taskSet{built: map[string]task.Task{}}
	for _, name := range task.Names() {
		t, err := task.New(name, task.Config{})
		if err != nil {
			ts.close()
			return nil, fmt.Errorf("build task %s: %w", name, err)
		}
		k := taskKey(name, 0, nil)
		ts.built[k], ts.order = t, append(ts.order, k)
	}
	return ts, nil
}

// defaults are the tasks built with their defaults, in name order.
func (ts *taskSet) defaults() []task.Task {
	out := make([]task.Task, 0, len(ts.order))
	for _, name := range task.Names() {
		if t, ok := ts.built[taskKey(name, 0, nil)]; ok {
			out = append(out, t)
		}
	}
	return out
}

// get returns the task, building it if need be, and a function to call
// when the request is done with it. Errors name the field at fault.
func (ts *taskSet) get(name string, seed uint64, difficulty string) (task.Task, func(), error) {
	d, err := task.ParseDifficulty(difficulty)
	if err != nil {
		return nil, nil, badRequest("difficulty", err.Error())
	}
	k := taskKey(name, seed, d)
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t, ok := ts.built[k]; ok {
		return t, func() {}, nil
	}
	if !slices.Contains(task.Names(), name) {
		return nil, nil, badf("task", "unknown task %q (known: %s)", name, strings.Join(task.Names(), ", "))
	}
	t, err := task.New(name, task.Config{Seed: seed, Difficulty: d})
	if err != nil {
		return nil, nil, badRequest("difficulty", err.Error())
	}
	if len(ts.built) < maxBuilt {
		ts.built[k], ts.order = t, append(ts.order, k)
		return t, func() {}, nil
	}
	return t, func() { closeTask(t) }, nil
}

func closeTask(t task.Task) error {
	if c, ok := t.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (ts *taskSet) close() error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var errs []error
	for _, k := range ts.order {
		errs = append(errs, closeTask(ts.built[k]))
	}
	ts.built, ts.order = map[string]task.Task{}, nil
	return errors.Join(errs...)
}

// format is one value of a verify request's "format": a record reader, or
// credo's generated prompts ("task", reader nil).
type format struct {
	name, task string
	reader     task.RecordReader
	rewards    []reward.Verifier
}

// formatTask is the format of credo's own generated prompts, by id.
const formatTask = "task"

// recordFields describes each format's record for GET /v1/tasks.
var recordFields = map[string]string{
	"ifeval":   "{prompt, instruction_id_list, kwargs, key?}: an IFEval input_data.jsonl line",
	"bfcl":     "{id?, question?, function, ground_truth}: a BFCL question line with its possible_answer's ground_truth",
	"gsm8k":    "{question, answer}: a GSM8K line, the answer ending with #### N",
	"sql":      "{db_id, query, question?}: a database of --sql-dir and the reference query (Spider's names)",
	formatTask: "{prompt_id} with the request's task, seed and difficulty: a prompt of credo's own tasks (/v1/prompts)",
}

// buildFormats finds the record readers among the default tasks and the
// extra ones, and checks that no judge is named like a reward.
func (s *Server) buildFormats() ([]format, error) {
	var out []format
	add := func(f format) error {
		for _, g := range out {
			if g.name == f.name {
				return fmt.Errorf("two record readers of format %q (tasks %s and %s)", f.name, g.task, f.task)
			}
		}
		out = append(out, f)
		return nil
	}
	for _, t := range s.tasks.defaults() {
		if rr, ok := t.(task.RecordReader); ok {
			if err := add(format{name: rr.RecordFormat(), task: t.Name(), reader: rr, rewards: rr.RecordRewards()}); err != nil {
				return nil, err
			}
		}
	}
	for _, rr := range s.o.Records {
		if err := add(format{name: rr.RecordFormat(), task: rr.RecordFormat(), reader: rr, rewards: rr.RecordRewards()}); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b format) int { return strings.Compare(a.name, b.name) })
	out = append(out, format{name: formatTask})
	seen := map[string]bool{}
	for _, j := range s.o.Judges {
		if seen[j.Name()] {
			return nil, fmt.Errorf("two judges named %q", j.Name())
		}
		seen[j.Name()] = true
		for _, f := range out {
			if slices.ContainsFunc(f.rewards, func(v reward.Verifier) bool { return v.Name() == j.Name() }) {
				return nil, fmt.Errorf("judge %q has the name of a reward of format %s: give it another name=", j.Name(), f.name)
			}
		}
		for _, t := range s.tasks.defaults() {
			if slices.ContainsFunc(t.Rewards(), func(v reward.Verifier) bool { return v.Name() == j.Name() }) {
				return nil, fmt.Errorf("judge %q has the name of a reward of task %s: give it another name=", j.Name(), t.Name())
			}
		}
	}
	return out, nil
}

func (s *Server) format(name string) (format, error) {
	names := make([]string, len(s.formats))
	for i, f := range s.formats {
		if f.name == name {
			return f, nil
		}
		names[i] = f.name
	}
	return format{}, badf("format", "unknown format %q (this server reads: %s)", name, strings.Join(names, ", "))
}

// listTasks answers GET /v1/tasks (small: encoding/json writes it).
func (s *Server) listTasks(context.Context, []byte) ([]byte, error) {
	type formatOut struct {
		Name    string   `json:"name"`
		Task    string   `json:"task"`
		Rewards []string `json:"rewards"`
		Record  string   `json:"record"`
	}
	type taskOut struct {
		Name    string   `json:"name"`
		Rewards []string `json:"rewards"`
		Knobs   []string `json:"knobs"`
	}
	type judgeOut struct {
		Name   string  `json:"name"`
		Weight float64 `json:"weight"`
	}
	out := struct {
		Formats   []formatOut `json:"formats"`
		Tasks     []taskOut   `json:"tasks"`
		Judges    []judgeOut  `json:"judges"`
		Databases []string    `json:"sql_databases"`
	}{Formats: []formatOut{}, Tasks: []taskOut{}, Judges: []judgeOut{}, Databases: []string{}}
	for _, f := range s.formats {
		out.Formats = append(out.Formats, formatOut{f.name, f.task, verifierNames(f.rewards), recordFields[f.name]})
	}
	for _, t := range s.tasks.defaults() {
		knobs := []string{}
		if tu, ok := t.(task.Tunable); ok {
			for _, k := range tu.Knobs() {
				knobs = append(knobs, k.Name)
			}
		}
		out.Tasks = append(out.Tasks, taskOut{t.Name(), verifierNames(t.Rewards()), knobs})
	}
	for _, j := range s.o.Judges {
		out.Judges = append(out.Judges, judgeOut{j.Name(), weightOf(j)})
	}
	for _, rr := range s.o.Records {
		if l, ok := rr.(interface{ IDs() []string }); ok {
			out.Databases = append(out.Databases, l.IDs()...)
		}
	}
	return json.Marshal(out)
}

func verifierNames(vs []reward.Verifier) []string {
	out := make([]string, len(vs)) // never nil: JSON [], not null
	for i, v := range vs {
		out[i] = v.Name()
	}
	return out
}

// weightOf is a verifier's default weight: a judge's configured one, else 1.
func weightOf(v reward.Verifier) float64 {
	if w, ok := v.(reward.Weighted); ok {
		return w.Weight()
	}
	return 1
}

// promptByID finds a generated prompt by its id, whose last two fields
// are the split and the index ("toolcall-train-17", "train-3").
func promptByID(t task.Task, id string) (task.Prompt, error) {
	cut := strings.LastIndexByte(id, '-')
	if cut < 0 {
		return task.Prompt{}, fmt.Errorf("prompt id %q is not <…-><train|test>-<index>", id)
	}
	i, err := strconv.Atoi(id[cut+1:])
	rest := id[:cut]
	split := task.Train
	switch {
	case rest == "test" || strings.HasSuffix(rest, "-test"):
		split = task.Test
	case rest == "train" || strings.HasSuffix(rest, "-train"):
	default:
		err = errors.New("no split")
	}
	if err != nil || i < 0 || i >= 1<<30 {
		return task.Prompt{}, fmt.Errorf("prompt id %q is not <…-><train|test>-<index>", id)
	}
	p := t.Prompt(split, i)
	if p.ID != id {
		return task.Prompt{}, fmt.Errorf("task %s has no prompt %q (its prompt %d of the %s split is %q)", t.Name(), id, i, split, p.ID)
	}
	return p, nil
}
