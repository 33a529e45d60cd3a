// Command goverdicts prints the verdicts credo's Go verifiers give to IFEval
// records and BFCL cases, in process, for the Python client's tests to
// compare with what credo serve answers over HTTP
// (clients/python/tests/test_verdicts.py builds and runs it).
//
// Input, one JSON object per line on stdin:
//
//	{"format": "ifeval", "record": {IFEval line}, "responses": ["…"]}
//	{"format": "bfcl", "question": "<question line>", "answer": "<possible_answer line>", "responses": ["…"]}
//
// Output, one line per input line: {"rewards": [...], "verdicts": [[verdict per reward] per response]},
// rewards being the record's distinct instruction ids (ifeval) or format and call (bfcl).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task/ifeval"
	"github.com/credo-rl/credo/task/toolcall"
)

type input struct {
	Format    string        `json:"format"`
	Record    ifeval.Record `json:"record"`
	Question  string        `json:"question"`
	Answer    string        `json:"answer"`
	Responses []string      `json:"responses"`
}

type span struct {
	Start    int     `json:"start"`
	End      int     `json:"end"`
	Strength float64 `json:"strength"`
}

type verdict struct {
	Score  float64 `json:"score"`
	Info   string  `json:"info"`
	Spans  []span  `json:"spans"`
	Reason string  `json:"reason"`
	Skip   bool    `json:"skip"`
}

type output struct {
	Rewards  []string    `json:"rewards"`
	Verdicts [][]verdict `json:"verdicts"`
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 16<<20)
	enc := json.NewEncoder(os.Stdout)
	for line := 1; sc.Scan(); line++ {
		var in input
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			fail(fmt.Errorf("line %d: %w", line, err))
		}
		out, err := judge(context.Background(), in)
		if err != nil {
			fail(fmt.Errorf("line %d: %w", line, err))
		}
		if err := enc.Encode(out); err != nil {
			fail(err)
		}
	}
	if err := sc.Err(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "goverdicts:", err)
	os.Exit(1)
}

// judge runs each reward's verifier on each response.
func judge(ctx context.Context, in input) (output, error) {
	var p reward.Prompt
	var vs []reward.Verifier
	switch in.Format {
	case "ifeval":
		var err error
		if p, _, err = ifeval.FromRecord(in.Record); err != nil {
			return output{}, err
		}
		seen := map[string]bool{}
		for _, id := range in.Record.InstructionIDs {
			if !seen[id] {
				seen[id] = true
				vs = append(vs, ifeval.NewVerifier(id))
			}
		}
	case "bfcl":
		var err error
		if p, err = toolcall.ParseBFCL(in.Question, in.Answer); err != nil {
			return output{}, err
		}
		vs = []reward.Verifier{toolcall.FormatVerifier{}, toolcall.CallVerifier{}}
	default:
		return output{}, fmt.Errorf("format %q: want ifeval or bfcl", in.Format)
	}
	out := output{Verdicts: [][]verdict{}}
	for _, v := range vs {
		out.Rewards = append(out.Rewards, v.Name())
	}
	for _, r := range in.Responses {
		row := []verdict{}
		for _, v := range vs {
			d, err := v.Verify(ctx, p, r)
			if err != nil {
				return output{}, fmt.Errorf("%s: %w", v.Name(), err)
			}
			row = append(row, convert(d))
		}
		out.Verdicts = append(out.Verdicts, row)
	}
	return out, nil
}

func convert(d reward.Verdict) verdict {
	out := verdict{Score: d.Score, Info: d.Info, Reason: d.Reason, Skip: d.Skip, Spans: []span{}}
	for _, s := range d.Spans {
		out.Spans = append(out.Spans, span{Start: s.Start, End: s.End, Strength: s.Weight()})
	}
	return out
}
