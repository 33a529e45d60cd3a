package arith

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/credo-rl/credo/task"
)

// Corrupted solutions carry the labeler's labels, break the step they say,
// and the answer reward agrees with the kind.
func TestPRMExamples(t *testing.T) {
	tk := mk(6)
	const n = 2000
	counts := map[Corruption]int{}
	for _, l := range tk.PRMExamples(n, 3) {
		counts[l.Corruption]++
		ref := l.Prompt.Ref.(Ref)
		if !slices.Equal(l.Steps, Steps(l.Prompt, l.Response)) {
			t.Fatalf("%q: stored labels differ from Steps", l.Response)
		}
		first := slices.IndexFunc(l.Steps, func(s task.Step) bool { return !s.Correct })
		if first != l.First {
			t.Fatalf("%v %q: first wrong step %d, example says %d", l.Corruption, l.Response, first, l.First)
		}
		ans, err := AnswerVerifier{}.Verify(context.Background(), l.Prompt, l.Response)
		if err != nil {
			t.Fatal(err)
		}
		form, _ := FormatVerifier{}.Verify(context.Background(), l.Prompt, l.Response)
		if form.Score != 1 {
			t.Fatalf("%v %q breaks the format: %s", l.Corruption, l.Response, form.Reason)
		}
		wantSteps := len(ref.Solution)
		if l.Corruption == SkippedStep {
			wantSteps--
		}
		if len(l.Steps) != wantSteps {
			t.Fatalf("%v %q: %d steps, want %d", l.Corruption, l.Response, len(l.Steps), wantSteps)
		}
		if l.Corruption == Clean {
			if first != -1 || ans.Score != 1 {
				t.Fatalf("clean %q: first wrong %d, answer %g", l.Response, first, ans.Score)
			}
			continue
		}
		if first < 0 {
			t.Fatalf("%v %q: no wrong step", l.Corruption, l.Response)
		}
		// Check the broken step independently of the labeler.
		line := l.Response[l.Steps[first].Start:l.Steps[first].End]
		st, err := ParseStep(line)
		if err != nil {
			t.Fatalf("%v: step %q: %v", l.Corruption, line, err)
		}
		av := slices.Clone(ref.Numbers)
		for _, s := range l.Steps[:first] { // all correct: their results are available
			prev, err := ParseStep(l.Response[s.Start:s.End])
			if err != nil {
				t.Fatal(err)
			}
			av = append(av, prev.C)
		}
		missing := !slices.Contains(av, st.A) || !slices.Contains(av, st.B)
		switch l.Corruption {
		case WrongResult:
			if st.Holds() || missing || ans.Score != 0 {
				t.Fatalf("wrong result %q: step %q holds=%v operand missing=%v answer %g", l.Response, line, st.Holds(), missing, ans.Score)
			}
		case WrongOperand:
			if !st.Holds() || !missing || ans.Score != 0 {
				t.Fatalf("wrong operand %q: step %q holds=%v operand missing=%v answer %g", l.Response, line, st.Holds(), missing, ans.Score)
			}
		case SkippedStep:
			if !st.Holds() || !missing || ans.Score != 1 {
				t.Fatalf("skipped step %q: step %q holds=%v operand missing=%v answer %g", l.Response, line, st.Holds(), missing, ans.Score)
			}
		}
	}
	for k := Clean; k <= SkippedStep; k++ {
		if c := counts[k]; c < n/4-120 || c > n/4+120 {
			t.Errorf("%v: %d of %d examples", k, c, n)
		}
	}
}

func TestCorruptErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	if _, _, err := Corrupt(rng, Ref{Answer: "1"}, WrongResult); !errors.Is(err, errNoCorruption) {
		t.Errorf("no solution: %v", err)
	}
	ref := example17.Ref.(Ref)
	ref.Solution = []SolStep{
		{Eq: Eq{17, 25, 42, '+'}, From: [2]int{-1, -1}},
		{Eq: Eq{42, 3, 126, '*'}, From: [2]int{0, -1}},
		{Eq: Eq{126, 8, 118, '-'}, From: [2]int{1, -1}},
	}
	if _, _, err := Corrupt(rng, ref, Corruption(9)); err == nil {
		t.Error("unknown corruption accepted")
	}
	if s := Corruption(9).String(); s != "Corruption(9)" {
		t.Errorf("String = %q", s)
	}
	// 42 is a prompt number here, so skipping "17 + 25 = 42" breaks nothing;
	// the other skip must be chosen.
	ref.Numbers = append(ref.Numbers, 42)
	for range 20 {
		resp, first, err := Corrupt(rng, ref, SkippedStep)
		if err != nil || resp != "17 + 25 = 42\n126 - 8 = 118\nanswer: 118" || first != 1 {
			t.Fatalf("skip: %q, %d, %v", resp, first, err)
		}
	}
	ref.Numbers = append(ref.Numbers, 126)
	if _, _, err := Corrupt(rng, ref, SkippedStep); !errors.Is(err, errNoCorruption) {
		t.Errorf("nothing to skip: %v", err)
	}
}

// The task is a task.StepCorrupter: its kinds are the Corruption names,
// Corrupt is the package function on the prompt's Ref with the labeler's
// labels, and a prompt without a canonical solution is refused before any
// random number is drawn. The labeler it registers by name is its Steps.
func TestStepCorrupter(t *testing.T) {
	tk, err := task.New("arith", task.Config{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := tk.(task.StepCorrupter)
	if !ok {
		t.Fatal("arith is no task.StepCorrupter")
	}
	if got := c.Corruptions(); !slices.Equal(got, []string{"clean", "wrong-result", "wrong-operand", "skipped-step"}) {
		t.Errorf("Corruptions = %v", got)
	}
	c.Corruptions()[0] = "changed"
	if c.Corruptions()[0] != "clean" {
		t.Error("Corruptions shares its slice")
	}
	reg, ok := task.StepsOf("arith")
	if !ok {
		t.Fatal("arith registered no step labeler")
	}
	for i := range 40 {
		p := tk.Prompt(task.Train, i)
		kind := i % 4
		a, b := rand.New(rand.NewPCG(uint64(i), 9)), rand.New(rand.NewPCG(uint64(i), 9))
		resp, ok := c.Corrupt(a, p, kind)
		want, _, err := Corrupt(b, p.Ref.(Ref), Corruption(kind))
		if ok != (err == nil) || resp != want {
			t.Fatalf("prompt %d kind %d: Corrupt %q %v, package Corrupt %q %v", i, kind, resp, ok, want, err)
		}
		steps := c.Steps(p, resp)
		if !slices.Equal(steps, reg.Steps(task.Prompt{Text: p.Text}, resp)) {
			t.Fatalf("prompt %d: the registered labeler disagrees with Task.Steps on %q", i, resp)
		}
		wrong := slices.ContainsFunc(steps, func(s task.Step) bool { return !s.Correct })
		if ok && wrong != (kind != 0) {
			t.Errorf("prompt %d kind %d: a wrong step %v in %q", i, kind, wrong, resp)
		}
	}
	src := rand.NewPCG(1, 1)
	rng := rand.New(src)
	before, _ := src.MarshalBinary()
	for _, p := range []task.Prompt{{Text: "What is 2 + 3?"}, {Text: "gsm", Ref: Ref{GSM8K: true, Answer: "4"}}} {
		if _, ok := c.Corrupt(rng, p, 1); ok {
			t.Errorf("prompt %q without a solution was corrupted", p.Text)
		}
	}
	if _, ok := c.Corrupt(rng, tk.Prompt(task.Train, 0), 4); ok {
		t.Error("kind 4 accepted")
	}
	if after, _ := src.MarshalBinary(); !slices.Equal(after, before) {
		t.Error("a refused prompt drew random numbers")
	}
}
