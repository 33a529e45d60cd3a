package ifeval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/credo-rl/credo/reward"
)

// Record is one line of IFEval's input_data.jsonl.
type Record struct {
	Key            int              `json:"key"`
	Prompt         string           `json:"prompt"`
	InstructionIDs []string         `json:"instruction_id_list"`
	Kwargs         []map[string]any `json:"kwargs"`
}

// Ref is what a prompt of this package carries in reward.Prompt.Ref: its
// constraints, each under the name of the reward that judges it.
type Ref struct {
	Topic string // the topic of a generated prompt; empty for IFEval records
	Items []Item
	// Request is a generated prompt's text without its constraints ("Write
	// about the sea."), which the prompt states only as information blocks
	// after it. Empty for IFEval records, whose constraints are worded
	// inside their prose and cannot be taken out: replay then composes the
	// blocks after the whole prompt.
	Request string
	spec    *spec // a generated prompt's parameters, for Task.Reference
}

// ReplayBase is the text replay composes the rewards' blocks after
// (task.BlockStater): the request without the constraints; empty (the
// prompt's whole text) for IFEval records.
func (r *Ref) ReplayBase() string { return r.Request }

// Item is one constraint of a prompt with the reward that judges it: a
// task kind ("words") for generated prompts, the instruction id for IFEval
// records. A reward may have several items (a word range is two
// number_words constraints); all must hold.
type Item struct {
	Kind       string
	Constraint Constraint
}

// ReadRecords reads IFEval records, one JSON object per line.
func ReadRecords(r io.Reader) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return out, fmt.Errorf("ifeval record on line %d: %w", line, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read ifeval records: %w", err)
	}
	return out, nil
}

// FromRecord turns an IFEval record into a prompt whose Ref holds its
// constraints, each under its instruction id (so NewVerifier(id) judges
// it), and the constraints in the record's order.
func FromRecord(rec Record) (reward.Prompt, []Constraint, error) {
	if len(rec.InstructionIDs) != len(rec.Kwargs) {
		return reward.Prompt{}, nil, fmt.Errorf("ifeval record %d: %d instruction ids but %d kwargs", rec.Key, len(rec.InstructionIDs), len(rec.Kwargs))
	}
	ref := &Ref{}
	cs := make([]Constraint, 0, len(rec.InstructionIDs))
	for i, id := range rec.InstructionIDs {
		c, err := Parse(id, rec.Kwargs[i])
		if err != nil {
			return reward.Prompt{}, nil, fmt.Errorf("ifeval record %d: %w", rec.Key, err)
		}
		cs = append(cs, c)
		ref.Items = append(ref.Items, Item{Kind: id, Constraint: c})
	}
	p := reward.Prompt{ID: fmt.Sprintf("ifeval-%d", rec.Key), Text: rec.Prompt, Ref: ref}
	return p, cs, nil
}
