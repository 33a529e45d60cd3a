package arith

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/credo-rl/credo/task"
)

// GSM8KRecord is one line of GSM8K's JSON Lines files.
type GSM8KRecord struct {
	Question string `json:"question"`
	Answer   string `json:"answer"` // the worked solution, ending "#### N"
}

// GSM8KAnswer extracts the final answer of a GSM8K solution: the first
// field after its last "####", in ParseNumber's canonical form, so commas
// go ("#### 1,000" gives "1000") and negative or decimal answers survive.
// A solution that is a bare number ("18", as verl's GSM8K preprocessing
// writes its ground_truth) is its own answer.
func GSM8KAnswer(solution string) (string, error) {
	i := strings.LastIndex(solution, "####")
	if i < 0 {
		if n, ok := ParseNumber(strings.TrimSpace(solution)); ok {
			return n, nil
		}
		return "", fmt.Errorf("gsm8k answer: %q is neither a solution ending \"#### N\" nor a number", clip(solution))
	}
	rest := strings.TrimLeft(solution[i+4:], " \t\r\n")
	if j := strings.IndexAny(rest, " \t\r\n"); j >= 0 {
		rest = rest[:j]
	}
	n, ok := ParseNumber(rest)
	if !ok {
		return "", fmt.Errorf("gsm8k answer: %q after \"####\" is not a number", clip(rest))
	}
	return n, nil
}

// gsm8kInstruction tells the policy how to end, since the answer reward
// reads the last answer line.
const gsm8kInstruction = "Give the final answer on a last line `answer: N`."

// ReadGSM8K reads GSM8K records, one JSON object per line.
func ReadGSM8K(r io.Reader) ([]GSM8KRecord, error) {
	dec := json.NewDecoder(r)
	var out []GSM8KRecord
	for {
		var rec GSM8KRecord
		err := dec.Decode(&rec)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("read gsm8k record %d: %w", len(out)+1, err)
		}
		out = append(out, rec)
	}
}

// Prompt turns a GSM8K record into an arith prompt whose answer reward
// works: the text is the question and an instruction to end with
// "answer: N"; the Ref holds the extracted answer and the question's
// integers (the operands Steps allows). The answer reward accepts
// "answer: N" and GSM8K's own "#### N", so the record's worked solution
// scores 1. The format reward does not apply (its verdict is Skip): free
// GSM8K solutions divide, use decimals and write prose, which the step
// format has no room for. Steps still labels such responses, with every
// non-step line incorrect.
func (rec GSM8KRecord) Prompt(id string) (task.Prompt, error) {
	ans, err := GSM8KAnswer(rec.Answer)
	if err != nil {
		return task.Prompt{}, fmt.Errorf("gsm8k prompt %s: %w", id, err)
	}
	return task.Prompt{
		ID:   id,
		Text: rec.Question + "\n" + gsm8kInstruction,
		Ref:  Ref{Answer: ans, Numbers: promptNumbers(rec.Question), GSM8K: true},
	}, nil
}
