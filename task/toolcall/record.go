package toolcall

import (
	"errors"
	"fmt"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

var _ task.RecordReader = (*Task)(nil)

// RecordFormat is "bfcl": a BFCL question line with its possible answer's
// ground truth.
func (t *Task) RecordFormat() string { return "bfcl" }

// FromRecord reads a BFCL question record (BFCL_v4_simple_python.json,
// BFCL_v4_multiple.json: "id", "question", "function") that also holds its
// possible_answer line's "ground_truth", into the prompt ParseBFCL makes of
// the two lines. "function" and "ground_truth" are required, "id" and
// "question" optional (without an id the prompt's ID is empty).
func (t *Task) FromRecord(record []byte) (task.Prompt, error) {
	v, err := ParseJSON(string(record))
	if err != nil {
		return task.Prompt{}, fmt.Errorf("bfcl record: %w", err)
	}
	if v.Kind != Object {
		return task.Prompt{}, fmt.Errorf("bfcl record is a JSON %s, want an object", v.Kind)
	}
	if f, ok := v.Get("function"); !ok || f.Kind != Array {
		return task.Prompt{}, errors.New("bfcl record: no \"function\" list")
	}
	gt, ok := v.Get("ground_truth")
	if !ok {
		return task.Prompt{}, errors.New("bfcl record: no \"ground_truth\" (the possible_answer line's)")
	}
	id, hasID := v.Get("id")
	if hasID && id.Kind != String {
		return task.Prompt{}, fmt.Errorf("bfcl record: \"id\" is a %s, want a string", id.Kind)
	}
	q := v
	if !hasID { // ParseBFCL pairs the two lines by id
		id = strVal("")
		q = objVal(append([]Member{member("id", id)}, v.Members...)...)
	}
	answer := objVal(member("id", id), member("ground_truth", gt))
	return ParseBFCL(q.String(), answer.String())
}

// RecordRewards are format, then call, as the task's.
func (t *Task) RecordRewards() []reward.Verifier { return t.Rewards() }
