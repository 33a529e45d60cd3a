package arith

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

var _ task.RecordReader = (*Task)(nil)

// RecordFormat is "gsm8k": GSM8K's JSON lines.
func (t *Task) RecordFormat() string { return "gsm8k" }

// FromRecord reads a GSM8K line, {"question", "answer"} with the answer's
// worked solution ending "#### N", into the prompt GSM8KRecord.Prompt
// makes (an "id" string, if the record has one, is its ID). The answer
// may also be the bare number, as a string ("18") or a JSON number (18).
func (t *Task) FromRecord(record []byte) (task.Prompt, error) {
	var r struct {
		ID       string          `json:"id"`
		Question *string         `json:"question"`
		Answer   json.RawMessage `json:"answer"`
	}
	if err := json.Unmarshal(record, &r); err != nil {
		return task.Prompt{}, fmt.Errorf("gsm8k record: %w", err)
	}
	if r.Question == nil || r.Answer == nil || string(r.Answer) == "null" {
		return task.Prompt{}, errors.New("gsm8k record: want \"question\" and \"answer\"")
	}
	var answer string
	if err := json.Unmarshal(r.Answer, &answer); err != nil {
		var n json.Number
		if json.Unmarshal(r.Answer, &n) != nil {
			return task.Prompt{}, fmt.Errorf("gsm8k record: \"answer\" is %s, want a solution string or a number", clip(string(r.Answer)))
		}
		answer = n.String()
	}
	return GSM8KRecord{Question: *r.Question, Answer: answer}.Prompt(r.ID)
}

// RecordRewards are answer and format, as the task's; format is Skip for
// GSM8K prompts.
func (t *Task) RecordRewards() []reward.Verifier { return t.Rewards() }
