package ifeval_test

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/ifeval"
)

// Parse an IFEval instruction and check responses against it.
func ExampleParse() {
	c, err := ifeval.Parse("keywords:forbidden_words", map[string]any{"forbidden_words": []any{"sea"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Text())
	for _, resp := range []string{"Waves on the seashore.", "The sea is calm. The SEA is blue."} {
		r := c.Check(resp)
		fmt.Println(r.OK, r.Reason, r.Spans)
	}
	// Output:
	// Do not include the keyword sea in the response.
	// true no forbidden word [{0 22 0 0}]
	// false uses sea [{4 7 0 0} {21 24 0 0}]
}

// Build verifiers for a record of IFEval's input_data.jsonl.
func ExampleFromRecord() {
	rec := ifeval.Record{
		Key:            1001,
		Prompt:         "Write an itinerary in a Shakespearean style. You are not allowed to use any commas in your response.",
		InstructionIDs: []string{"punctuation:no_comma"},
		Kwargs:         []map[string]any{{}},
	}
	p, _, err := ifeval.FromRecord(rec)
	if err != nil {
		panic(err)
	}
	v := ifeval.NewVerifier("punctuation:no_comma")
	d, _ := v.Verify(context.Background(), p, "Hark, to Kyoto we go.")
	fmt.Printf("score %v: %s (%s)\n", d.Score, d.Reason, d.Info)
	// Output:
	// score 0: 1 comma (In your entire response, refrain from the use of any commas.)
}

// The task: a prompt, its rewards and a verdict per reward, skipped for
// the kinds the prompt does not have. The prompt states its constraints
// only as information blocks after the request, so replay can leave each
// one out.
func ExampleNew() {
	tk, err := task.New("ifeval", task.Config{Seed: 42})
	if err != nil {
		panic(err)
	}
	p := tk.Prompt(task.Train, 0)
	fmt.Println(p.Text)
	fmt.Printf("replay base: %q\n", task.ReplayBase(p))
	for _, v := range tk.Rewards() {
		d, _ := v.Verify(context.Background(), p, "Cats have a long tail and soft fur and they sleep a lot in the sun every day of the week.")
		if d.Skip {
			continue
		}
		fmt.Printf("%s: %v (%s)\n", v.Name(), d.Score, d.Reason)
	}
	// Output:
	// Describe cats.
	//
	// Answer with at least 23 words.
	//
	// Include the keyword tail in the response.
	//
	// Do not include the keyword paw in the response.
	//
	// In your entire response, refrain from the use of any commas.
	//
	// Your answer must contain exactly 2 bullet points, markdown lines starting with "* ".
	// replay base: "Describe cats."
	// words: 0 (21 words, want at least 23)
	// include: 1 (all keywords found)
	// forbid: 1 (no forbidden word)
	// no_comma: 1 (no commas)
	// bullets: 0 (0 bullet points, want exactly 2)
}
