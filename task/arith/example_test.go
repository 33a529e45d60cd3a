package arith_test

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/arith"
)

// A generated prompt, its canonical solution and both rewards; then a
// response whose first step slipped: its step labels (the error
// propagates) and the answer verdict, whose spans point at the slip and
// at the answer.
func Example() {
	t, err := task.New("arith", task.Config{Seed: 7})
	if err != nil {
		panic(err)
	}
	p := t.Prompt(task.Train, 0)
	solution := p.Ref.(arith.Ref).Response()
	fmt.Println(p.Text)
	fmt.Println(solution)
	for _, v := range t.Rewards() {
		verdict, err := v.Verify(context.Background(), p, solution)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %g\n", v.Name(), verdict.Score)
	}

	q := task.Prompt{Text: "Compute (17 + 25) * 3 - 8.", Ref: arith.Ref{Answer: "118", Numbers: []int64{17, 25, 3, 8}}}
	slipped := "17 + 25 = 43\n43 * 3 = 129\n129 - 8 = 121\nanswer: 121"
	for _, s := range t.(task.StepLabeler).Steps(q, slipped) {
		fmt.Printf("%q correct=%v\n", slipped[s.Start:s.End], s.Correct)
	}
	verdict, err := arith.AnswerVerifier{}.Verify(context.Background(), q, slipped)
	if err != nil {
		panic(err)
	}
	fmt.Printf("answer: %g (%s), info %q\n", verdict.Score, verdict.Reason, verdict.Info)
	for _, sp := range verdict.Spans {
		fmt.Printf("span %q\n", slipped[sp.Start:sp.End])
	}
	// Output:
	// Compute 12 * 7 + 61.
	// 12 * 7 = 84
	// 84 + 61 = 145
	// answer: 145
	// answer: 1
	// format: 1
	// "17 + 25 = 43" correct=false
	// "43 * 3 = 129" correct=false
	// "129 - 8 = 121" correct=false
	// answer: 0 (answer 121, reference 118), info "Reference answer: 118"
	// span "43"
	// span "121"
}

// Difficulty settings: one-step sums with operands up to 20, none told as
// a word problem.
func Example_difficulty() {
	d, err := task.ParseDifficulty("min_ops=1,max_ops=1,operators=+,max=20,words=0")
	if err != nil {
		panic(err)
	}
	t, err := task.New("arith", task.Config{Seed: 7, Difficulty: d})
	if err != nil {
		panic(err)
	}
	for i := range 3 {
		p := t.Prompt(task.Train, i)
		fmt.Println(p.Text, "=", p.Ref.(arith.Ref).Answer)
	}
	_, err = task.New("arith", task.Config{Difficulty: task.Difficulty{"operators": "/"}})
	fmt.Println(err)
	// Output:
	// Compute 18 + 16. = 34
	// Compute 10 + 20. = 30
	// Compute 15 + 2. = 17
	// arith: difficulty operators=/: want some of + - * each at most once, e.g. +-
}
