package service

import (
	"context"
	"encoding/json"

	"github.com/credo-rl/credo/service/wire"
	"github.com/credo-rl/credo/task"
)

// taskFields are the fields that name a generated task: task, seed and
// difficulty, shared by /v1/prompts and /v1/verify.
type taskFields struct {
	name, difficulty string
	seed             uint64
	given            bool // any of them was in the request
}

// read reads one of the three fields when key is one; handled says so.
func (tf *taskFields) read(d *wire.Decoder, key string) (handled bool, err error) {
	switch key {
	case "task":
		tf.name, err = d.Str()
	case "seed":
		tf.seed, err = d.Uint()
	case "difficulty":
		tf.difficulty, err = d.Str()
	default:
		return false, nil
	}
	tf.given = true
	return true, err
}

// prompts answers POST /v1/prompts (docs/SERVICE.md §5).
func (s *Server) prompts(ctx context.Context, body []byte) ([]byte, error) {
	var tf taskFields
	split, start, count := "train", int64(0), int64(-1)
	err := decodeObject(body, func(d *wire.Decoder, key string) error {
		if ok, err := tf.read(d, key); ok {
			return err
		}
		var err error
		switch key {
		case "split":
			split, err = d.Str()
		case "start":
			start, err = d.Int(0, 1<<30-1)
		case "count":
			count, err = d.Int(1, maxPromptsAnswer)
		default:
			return d.Unknown(key, "task, seed, difficulty, split, start, count")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	switch {
	case tf.name == "":
		return nil, badRequest("task", "required: a task of /v1/tasks")
	case count < 0:
		return nil, badRequest("count", "required: how many prompts, 1 to 10,000")
	case split != "train" && split != "test":
		return nil, badf("split", "want \"train\" or \"test\", got %q", split)
	case start+count > 1<<30:
		return nil, badf("count", "prompts %d to %d: indices stop at 2^30", start, start+count)
	}
	t, release, err := s.tasks.get(tf.name, tf.seed, tf.difficulty)
	if err != nil {
		return nil, err
	}
	defer release()
	sp := task.Train
	if split == "test" {
		sp = task.Test
	}
	type promptOut struct {
		ID         string `json:"id"`
		Text       string `json:"text"`
		ReplayBase string `json:"replay_base"`
	}
	out := struct {
		Rewards []string    `json:"rewards"`
		Prompts []promptOut `json:"prompts"`
	}{Rewards: verifierNames(t.Rewards())}
	for i := range int(count) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := t.Prompt(sp, int(start)+i)
		out.Prompts = append(out.Prompts, promptOut{p.ID, p.Text, task.ReplayBase(p)})
	}
	return json.Marshal(out)
}
