package arith

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// Every demonstration fails exactly the rewards it lists; clean ones have
// only correct steps; blocks are composed in reward order and never
// contradicted; every problem is a training one.
func TestDemosFlawWhatTheyList(t *testing.T) {
	tk := mk(5)
	c := task.DemoConfig{DefaultFlawRate: 0.3, BlockRate: 0.4}
	kinds := map[string]int{}
	for _, d := range tk.demos(2000, 11, c) {
		ref := d.prompt.Ref.(Ref)
		if splitOf(ref.Expr) != task.Train {
			t.Fatalf("demo on test problem %q", ref.Expr)
		}
		if !strings.HasPrefix(d.Prompt, d.prompt.Text) {
			t.Fatalf("demo prompt %q does not start with %q", d.Prompt, d.prompt.Text)
		}
		var blocks []string
		if strings.Contains(d.Prompt, AnswerBlock(ref.Answer)) {
			blocks = append(blocks, AnswerBlock(ref.Answer))
		}
		if strings.Contains(d.Prompt, FormatBlock) {
			blocks = append(blocks, FormatBlock)
		}
		if d.Prompt != task.Compose(d.prompt.Text, blocks) {
			t.Fatalf("demo prompt %q is not the text and blocks %q", d.Prompt, blocks)
		}
		for _, v := range tk.Rewards() {
			vd, err := v.Verify(context.Background(), d.prompt, d.Response)
			if err != nil {
				t.Fatal(err)
			}
			flawed := slices.Contains(d.Flaws, v.Name())
			if flawed != (vd.Score == 0) {
				t.Fatalf("%q\n%s: score %g (%s), flaws %v", d.Response, v.Name(), vd.Score, vd.Reason, d.Flaws)
			}
			if flawed && slices.Contains(blocks, vd.Info) {
				t.Fatalf("demo flaws %s although its prompt carries %q", v.Name(), vd.Info)
			}
			if flawed {
				kind := vd.Reason
				if strings.HasPrefix(kind, "answer ") {
					kind = "wrong answer"
				}
				kinds[v.Name()+": "+strings.SplitN(kind, ",", 2)[0]]++
			}
		}
		if slices.Contains(d.Flaws, "answer") && !slices.Contains(d.Flaws, "format") {
			checkSlipPropagates(t, d.Response)
		}
		if len(d.Flaws) == 0 {
			if d.Response != ref.Response() {
				t.Fatalf("clean demo %q is not the canonical solution", d.Response)
			}
			for _, s := range tk.Steps(d.prompt, d.Response) {
				if !s.Correct {
					t.Fatalf("clean demo %q: step %q wrong", d.Response, d.Response[s.Start:s.End])
				}
			}
		}
	}
	// Each kind of flaw shows up.
	for _, k := range []string{"answer: wrong answer", "answer: no answer line", "format: 1 malformed line(s)", "format: no answer line", "format: 1 step(s) after the answer line"} {
		if kinds[k] == 0 {
			t.Errorf("no demo flawed as %q (saw %v)", k, kinds)
		}
	}
}

// Over 2,000 demonstrations the shares of flawed ones and of ones with
// blocks are the configured rates, within four standard errors.
func TestDemoRates(t *testing.T) {
	tk := mk(8)
	const n = 2000
	tests := []task.DemoConfig{
		{FlawRate: map[string]float64{"answer": 0.2, "format": 0.1}, BlockRate: 0.3},
		task.DefaultDemoConfig(),
		{DefaultFlawRate: 0.5, BlockRate: 0.6},
		{},
		{DefaultFlawRate: 1},
	}
	near := func(got, want float64) bool {
		return math.Abs(got-want) <= 4*math.Sqrt(want*(1-want)/n)+1e-9
	}
	for _, c := range tests {
		var ans, fmtFlaws, blocks int
		for _, d := range tk.Demos(n, 1, c) {
			if slices.Contains(d.Flaws, "answer") {
				ans++
			}
			if slices.Contains(d.Flaws, "format") {
				fmtFlaws++
			}
			if strings.Contains(d.Prompt, "\n\nReference answer: ") || strings.Contains(d.Prompt, FormatBlock) {
				blocks++
			}
		}
		if got := float64(ans) / n; !near(got, c.Rate("answer")) {
			t.Errorf("%+v: answer flaws %.3f", c, got)
		}
		if got := float64(fmtFlaws) / n; !near(got, c.Rate("format")) {
			t.Errorf("%+v: format flaws %.3f", c, got)
		}
		if got := float64(blocks) / n; !near(got, c.BlockRate) {
			t.Errorf("%+v: blocks %.3f", c, got)
		}
	}
}

func TestDemosDeterministic(t *testing.T) {
	a, b := mk(2), mk(2)
	c := task.DefaultDemoConfig()
	da, db := a.Demos(200, 4, c), b.Demos(200, 4, c)
	for i := range da {
		if da[i].Prompt != db[i].Prompt || da[i].Response != db[i].Response || !slices.Equal(da[i].Flaws, db[i].Flaws) {
			t.Fatalf("demo %d differs", i)
		}
	}
	other := a.Demos(200, 5, c)
	same := 0
	for i := range da {
		if da[i].Prompt == other[i].Prompt {
			same++
		}
	}
	if same > 10 {
		t.Errorf("seeds 4 and 5 share %d of 200 demos", same)
	}
	if a.Demos(0, 1, c) != nil || a.Demos(-1, 1, c) != nil {
		t.Error("n <= 0 should give no demos")
	}
}

// checkSlipPropagates: a well-formed demo with a wrong answer either has
// one step whose arithmetic fails, every later step computed on (and the
// answer copied from) its wrong value, or only a wrongly copied answer.
func checkSlipPropagates(t *testing.T, resp string) {
	t.Helper()
	lines := strings.Split(resp, "\n")
	var steps []Eq
	for _, l := range lines[:len(lines)-1] {
		st, err := ParseStep(l)
		if err != nil {
			t.Fatalf("%q: %v", resp, err)
		}
		steps = append(steps, st.Eq)
	}
	broken := 0
	for _, s := range steps {
		if !s.Holds() {
			broken++
		}
	}
	last := strconv.FormatInt(steps[len(steps)-1].C, 10)
	answer := strings.TrimPrefix(lines[len(lines)-1], "answer: ")
	switch {
	case broken == 1 && answer == last: // a slip that propagated
	case broken == 0 && answer != last: // a wrong copy
	default:
		t.Fatalf("%q: %d broken steps, answer %s, last result %s", resp, broken, answer, last)
	}
}
