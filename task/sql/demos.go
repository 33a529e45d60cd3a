package sql

import (
	"context"
	"math/rand/v2"

	"github.com/credo-rl/credo/task"
)

// Demos returns n demonstrations on train-split questions, seeded by seed
// (and the task's seed). Each reward is broken at its rate in c, in a way a
// model would break it: format by a missing </answer>, </think> or think;
// executes by a misspelled column, table or keyword (which breaks result
// too, so result is broken at max(rate(result), rate(executes)): the
// result-only flaws make up the difference); result by a query that runs
// but answers something else (another literal, column, comparison or
// order, a dropped condition). Every flaw is checked against the database,
// so Demo.Flaws is exact.
//
// With probability c.BlockRate the prompt also carries information blocks
// (task.Compose, in reward order), and the response follows them: the
// format description (then the format is right), the error a misspelled
// previous attempt raised (then the query is corrected), the reference
// query (then the answer is exactly that query). A block is only given
// when the demonstration's flaws do not contradict it. Half the reference
// blocks (counterShare) are counterfactual: another query that runs but
// answers something else (as a result flaw does), which the answer gives
// instead of the question's; Flaws then lists result. So the answer
// depends on what the block says, and a policy learns to read it, which
// replay relies on. Under think=varied the thought is drawn from a stream
// of its own (demoThought), so the rest is as at the default.
func (t *Task) Demos(n int, seed uint64, c task.DemoConfig) []task.Demo {
	demos, _ := t.demos(n, seed, c)
	return demos
}

// demos also returns each demonstration's question, for tests.
func (t *Task) demos(n int, seed uint64, c task.DemoConfig) ([]task.Demo, []question) {
	r := rand.New(rand.NewPCG(seed, t.seed^streamDemos))
	tr := rand.New(rand.NewPCG(seed, t.seed^streamThink))
	ctx := context.Background()
	out := make([]task.Demo, 0, max(n, 0))
	qs := make([]question, 0, max(n, 0))
	for range n {
		x := t.drawIn(r, task.Train)
		out = append(out, t.demo(ctx, r, tr, x, c))
		qs = append(qs, x)
	}
	return out, qs
}

// demo draws everything from r but the thought, which comes from tr.
func (t *Task) demo(ctx context.Context, r, tr *rand.Rand, x question, c task.DemoConfig) task.Demo {
	re, rr := c.Rate("executes"), c.Rate("result")
	flawFormat := r.Float64() < c.Rate("format")
	flawExec := r.Float64() < re
	flawResult := flawExec
	if !flawExec && re < 1 {
		flawResult = r.Float64() < (rr-re)/(1-re)
	}

	query := x.Query
	var flaws []string
	if flawFormat {
		flaws = append(flaws, "format")
	}
	switch {
	case flawExec:
		if bad, _, ok := t.breakExecutes(ctx, r, x.Query); ok {
			query = bad
			flaws = append(flaws, "executes", "result")
		} else {
			flawExec, flawResult = false, false
		}
	case flawResult:
		if bad, ok := t.breakResult(ctx, r, x); ok {
			query = bad
			flaws = append(flaws, "result")
		} else {
			flawResult = false
		}
	}

	var blocks []string
	if r.Float64() < c.BlockRate {
		blocks = t.demoBlocks(ctx, r, x, !flawFormat, !flawExec, !flawExec && !flawResult)
	}
	// A counterfactual reference block: another query that runs, which the
	// answer follows; the result reward then scores 0 against the question.
	if n := len(blocks); n > 0 && blocks[n-1] == ResultInfo(x.Query) && r.Float64() < counterShare {
		if alt, ok := t.breakResult(ctx, r, x); ok {
			blocks[n-1], query = ResultInfo(alt), alt
			flaws = append(flaws, "result")
		}
	}
	return task.Demo{
		Prompt:   task.Compose(promptText(x.text), blocks),
		Response: respond(r, t.demoThought(tr, x.Think), query, flawFormat),
		Flaws:    flaws,
	}
}

// demoBlocks picks a non-empty subset of the blocks allowed, in reward order.
func (t *Task) demoBlocks(ctx context.Context, r *rand.Rand, x question, format, exec, ref bool) []string {
	var execBlock string
	if exec {
		if _, msg, ok := t.breakExecutes(ctx, r, x.Query); ok {
			execBlock = ExecutesInfo(msg)
		}
	}
	cands := []string{}
	if format {
		cands = append(cands, FormatInfo)
	}
	if execBlock != "" {
		cands = append(cands, execBlock)
	}
	if ref {
		cands = append(cands, ResultInfo(x.Query))
	}
	if len(cands) == 0 {
		return nil
	}
	var blocks []string
	for _, b := range cands {
		if r.IntN(2) == 0 {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		blocks = []string{pick(r, cands)}
	}
	return blocks
}

// counterShare is the share of reference blocks that give another query.
const counterShare = 0.5

// respond writes the response, with a format slip when asked.
func respond(r *rand.Rand, think, query string, flawFormat bool) string {
	if !flawFormat {
		return "<think>" + think + "</think><answer>" + query + "</answer>"
	}
	switch r.IntN(3) {
	case 0:
		return "<think>" + think + "</think><answer>" + query
	case 1:
		return "<answer>" + query + "</answer>"
	default:
		return "<think>" + think + "<answer>" + query + "</answer>"
	}
}

// Reference is the clean demonstration of a question the task made: its
// plan (under think=varied the question's own, refPlan) and the reference
// query (task.Referencer); false for another Ref.
func (t *Task) Reference(p task.Prompt) (string, bool) {
	ref, err := refOf(p)
	if err != nil || ref.Think == "" || ref.Query == "" {
		return "", false
	}
	return "<think>" + t.refThought(p.Text, ref.Think) + "</think><answer>" + ref.Query + "</answer>", true
}
