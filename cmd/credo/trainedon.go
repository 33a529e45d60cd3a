package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task/records"
)

// trainedOn is the task a model folder was trained on, as the folder's own
// files say: warmup.json (sft, and compare's warm-ups) or run-config.json
// (a train checkpoint's copy of its run's config.json). eval and train
// --init take it when --task is not given, so a model is evaluated and
// trained on what it learned rather than on the default task.
type trainedOn struct {
	Task       string `json:"task"`
	TaskSeed   uint64 `json:"task_seed"`
	Difficulty string `json:"difficulty,omitempty"`
	// Source is the records file a records task was made of.
	records.Source
	from string // the file that said so
}

// readTrainedOn reads what dir was trained on; ok is false when dir keeps
// no record (a Hugging Face folder, an imported GGUF).
func readTrainedOn(dir string) (t trainedOn, ok bool, err error) {
	warm := filepath.Join(dir, run.WarmupFile)
	var rec struct {
		Config trainedOn `json:"config"`
	}
	switch err := run.ReadJSON(warm, &rec); {
	case err == nil && rec.Config.Task != "":
		rec.Config.from = warm
		return rec.Config, true, nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return t, false, err
	}
	cfg := filepath.Join(dir, ckpt.RunConfigFile)
	switch err := run.ReadJSON(cfg, &t); {
	case err == nil && t.Task != "":
		t.from = cfg
		return t, true, nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return t, false, err
	}
	return trainedOn{}, false, nil
}

// modelFolder is the model folder dir names: dir itself, or a run
// folder's newest checkpoint (a run folder holds checkpoints/).
func modelFolder(dir string) (string, error) {
	if fi, err := os.Stat(filepath.Join(dir, "checkpoints")); err != nil || !fi.IsDir() {
		return dir, nil
	}
	step, err := ckpt.LatestStep(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	if step == 0 {
		return "", fmt.Errorf("%s is a run folder with no checkpoint yet: name a model folder, or wait for the run's first checkpoint", dir)
	}
	return ckpt.Dir(dir, step), nil
}

// chooseTask fills what the command line left unset in c, the task a
// command uses with the model in dir (given reports which of task,
// task-seed, difficulty it set), from the model's record, and
// prints one line saying so; a --task that differs from the record gets a
// one-line note, since training on one task and using another is allowed.
func chooseTask(dir string, c *trainedOn, given func(flag string) bool, w io.Writer) error {
	rec, ok, err := readTrainedOn(dir)
	if err != nil {
		return fmt.Errorf("%s: reading what it was trained on: %w", dir, err)
	}
	if !ok {
		return nil
	}
	if given("task") {
		if c.Task != rec.Task {
			fmt.Fprintf(w, "note: %s was trained on task %s (%s); using task %s, as asked\n", dir, rec.Task, rec.from, c.Task)
		}
		return nil
	}
	c.Task, c.Source = rec.Task, rec.Source
	if !given("task-seed") {
		c.TaskSeed = rec.TaskSeed
	}
	if !given("difficulty") {
		c.Difficulty = rec.Difficulty
	}
	fmt.Fprintf(w, "task %s%s, as %s records (--task overrides)\n", c.Task, describeDifficulty(c.Difficulty), rec.from)
	return nil
}

func describeDifficulty(d string) string {
	if d == "" {
		return ""
	}
	return " at difficulty " + d
}
