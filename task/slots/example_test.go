package slots_test

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/slots"
)

// A prompt with three sums; a response that slips on the second: only the
// second reward is 0, and its span is the wrong sum.
func Example() {
	d, _ := task.ParseDifficulty("slots=3")
	t, err := task.New("slots", task.Config{Seed: 1, Difficulty: d})
	if err != nil {
		panic(err)
	}
	p := task.Prompt{ID: "ex", Text: "Add each pair, one line each:\n3+4\n7+2\n5+5",
		Ref: slots.Ref{Pairs: []slots.Pair{{A: 3, B: 4}, {A: 7, B: 2}, {A: 5, B: 5}}}}
	resp := "3+4=7\n7+2=8\n5+5=10"
	for _, v := range t.Rewards() {
		vd, _ := v.Verify(context.Background(), p, resp)
		s := vd.Spans[0]
		fmt.Printf("%s %g span %q info %q\n", v.Name(), vd.Score, resp[s.Start:s.End], vd.Info)
	}
	// Output:
	// slot1 1 span "7" info "Reference 1: 3+4=7"
	// slot2 0 span "8" info "Reference 2: 7+2=9"
	// slot3 1 span "10" info "Reference 3: 5+5=10"
}
