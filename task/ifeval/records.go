package ifeval

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

var _ task.RecordReader = (*Task)(nil)

// RecordFormat is "ifeval": IFEval's input_data.jsonl lines.
func (t *Task) RecordFormat() string { return "ifeval" }

// FromRecord reads one IFEval record, {"key"?, "prompt",
// "instruction_id_list", "kwargs"}, into a prompt (the package function
// FromRecord) whose constraints the RecordRewards judge. The prompt and
// both lists are required; the ID is "ifeval-<key>", or empty without a
// key.
func (t *Task) FromRecord(record []byte) (task.Prompt, error) {
	var r struct {
		Key            *int              `json:"key"`
		Prompt         *string           `json:"prompt"`
		InstructionIDs *[]string         `json:"instruction_id_list"`
		Kwargs         *[]map[string]any `json:"kwargs"`
	}
	if err := json.Unmarshal(record, &r); err != nil {
		return task.Prompt{}, fmt.Errorf("ifeval record: %w", err)
	}
	switch {
	case r.Prompt == nil:
		return task.Prompt{}, errors.New("ifeval record: no \"prompt\"")
	case r.InstructionIDs == nil:
		return task.Prompt{}, errors.New("ifeval record: no \"instruction_id_list\"")
	case r.Kwargs == nil:
		return task.Prompt{}, errors.New("ifeval record: no \"kwargs\"")
	}
	rec := Record{Prompt: *r.Prompt, InstructionIDs: *r.InstructionIDs, Kwargs: *r.Kwargs}
	if r.Key != nil {
		rec.Key = *r.Key
	}
	for i, kw := range rec.Kwargs {
		if kw == nil {
			rec.Kwargs[i] = map[string]any{} // null: no arguments
		}
	}
	p, _, err := FromRecord(rec)
	if err != nil {
		return task.Prompt{}, err
	}
	if r.Key == nil {
		p.ID = ""
	}
	return p, nil
}

// RecordRewards is one verifier per IFEval instruction id, in IDs order;
// a prompt without an id gets Skip from its verifier.
func (t *Task) RecordRewards() []reward.Verifier {
	ids := IDs()
	out := make([]reward.Verifier, len(ids))
	for i, id := range ids {
		out[i] = NewVerifier(id)
	}
	return out
}
