package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/reward/remote"
	"github.com/credo-rl/credo/rollout"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/ifeval"
	"github.com/credo-rl/credo/task/records"
)

// evalMaxErrors is the share of a reward's verdicts that may fail before
// eval exits 1: its mean would count the failures as zeros.
const evalMaxErrors = 0.2

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "Evaluates a checkpoint on a task's test split: the mean of each reward,\n"+
		"greedy and (with --samples) sampled. Prints JSON. Failed verdicts (a judge that\n"+
		"cannot be reached, a verifier past its time limit) score 0, are counted under\n"+
		"\"errors\", and make eval exit 1 when more than 20% of a reward's verdicts fail.\n"+
		"\"truncated\" counts the greedy responses cut off at --max-tokens (or the context).\n"+
		"On IFEval records (--format ifeval) it also gives IFEval's own figures under\n"+
		"\"ifeval\": prompt-level and instruction-level accuracy, strict and loose (each\n"+
		"instruction also tried on the response without its first and/or last line and\n"+
		"without \"*\", as Google's evaluation_lib does), and per instruction id; over\n"+
		"all prompts evaluated and, with --split all, per split.", stdout, stderr)
	backendFlag(fs)
	dir := fs.String("model", "", "model folder, or a run folder (its newest checkpoint) (required)")
	taskName := fs.String("task", "toolcall", "task whose test split to use (default: the one the model's warmup.json or run-config.json names, else toolcall)")
	taskSeed := fs.Uint64("task-seed", 0, "seed of the task's prompt generator and data (as in training)")
	difficulty := fs.String("difficulty", "", "the task's difficulty settings, key=value,… (as in training)")
	c := rollout.EvalConfig{Prompts: 64, MaxTokens: 128, Workers: 4, Timeout: 5 * time.Second, Seed: 1}
	fs.IntVar(&c.Prompts, "prompts", c.Prompts, "test prompts (the first N, the same every time; of a records file, at most its test split)")
	fs.IntVar(&c.Samples, "samples", c.Samples, "sampled responses per prompt at temperature 1, besides the greedy one")
	fs.IntVar(&c.MaxTokens, "max-tokens", c.MaxTokens, "new tokens per response")
	fs.DurationVar(&c.Timeout, "verify-timeout", c.Timeout, "time limit per verdict (a verifier past it scores 0 and counts as failed)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "sampling seed")
	var judges []string
	fs.ListVar(&judges, "judge", "add an LLM judge reward: name=…,url=…,model=… (repeatable)")
	var verifiers []string
	fs.ListVar(&verifiers, "verifier", verifierUsage)
	var src records.Source
	recordFlags(fs, &src)
	fs.IntVar(&c.Batch, "batch", 0, "prompts generated at once (0: all); their KV cache grows with it, about 46 KB per row and token (prompt plus --max-tokens) for SmolLM2-135M")
	split := fs.String("split", "test", "with --records: test (the first --prompts test prompts) or all (every record in file order, both splits; --prompts does not apply)")
	responses := fs.String("responses", "", "write each greedy response as a JSON line to this file: the prompt, its split, the response, why it ended, each reward's score and, for ifeval records, each instruction followed strictly and loosely")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{Err: errors.New("--model is required")}
	}
	if c.Prompts < 1 || c.MaxTokens < 1 || c.Samples < 0 || c.Timeout <= 0 || c.Batch < 0 {
		return usageError{Err: errors.New("--prompts and --max-tokens must be at least 1, --samples and --batch at least 0, --verify-timeout positive")}
	}
	switch {
	case *split != "test" && *split != "all":
		return usageError{Err: fmt.Errorf("--split %q: want test or all", *split)}
	case *split == "all" && src.Records == "":
		return usageError{Err: errors.New("--split all evaluates a records file: give --records")}
	case *split == "all" && fs.Given("prompts"):
		return usageError{Err: errors.New("--split all evaluates every record: leave --prompts out")}
	}
	folder, err := modelFolder(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	tc := trainedOn{Task: *taskName, TaskSeed: *taskSeed, Difficulty: *difficulty, Source: src}
	if src.Records != "" {
		tc.Task = records.TaskName(src.Format)
	} else if err := chooseTask(folder, &tc, fs.Given, stderr); err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	t, err := records.Build(ctx, tc.Task, tc.TaskSeed, tc.Difficulty, tc.Source, stderr)
	if err != nil {
		return usageError{Err: err}
	}
	if cl, ok := t.(io.Closer); ok {
		defer cl.Close()
	}
	extra, err := remote.Build(verifiers, t)
	if err != nil {
		return usageError{Err: err}
	}
	vs, err := task.Rewards(ctx, t, judges, extra...)
	if err != nil {
		return explain(fs, err)
	}
	p, err := policy.Load(folder)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	prompts, splits := evalPrompts(t, c.Prompts, *split, stderr)
	start := time.Now()
	c.Progress = func(done, total int) {
		fmt.Fprintf(stderr, "greedy: %d of %d prompts answered (%.0f s)\n", done, total, time.Since(start).Seconds())
	}
	res, err := rollout.EvaluatePrompts(ctx, p, prompts, vs, c)
	if err != nil {
		return err
	}
	cut := truncated(res.Responses)
	summary := map[string]any{"task": tc.Task, "difficulty": tc.Difficulty, "model": folder, "prompts": len(prompts), "split": *split,
		"max_tokens": c.MaxTokens, "truncated": cut, "rewards": res}
	judged := judgeIFEval(res)
	if judged != nil {
		acc := ifevalAccuracy(judged, splits)
		summary["ifeval"] = acc
		for _, k := range slices.Sorted(maps.Keys(acc)) {
			a := acc[k]
			fmt.Fprintf(stderr, "ifeval, %s (%d prompts, %d instructions): prompt-level strict %.4f loose %.4f, instruction-level strict %.4f loose %.4f\n",
				k, a.Prompts, a.Instructions, a.PromptStrict, a.PromptLoose, a.InstructionStrict, a.InstructionLoose)
		}
	}
	fmt.Fprintf(stderr, "%d of %d greedy responses ended at --max-tokens %d or the model's context\n", cut, len(res.Responses), c.MaxTokens)
	if *responses != "" {
		if err := writeResponses(*responses, res, splits, judged, vs); err != nil {
			return err
		}
	}
	out, _ := json.MarshalIndent(summary, "", "  ")
	fmt.Fprintln(stdout, string(out))
	for _, k := range slices.Sorted(maps.Keys(res.Errors)) {
		fmt.Fprintf(stderr, "reward %s: %d of %d verdicts failed and scored 0 (last error: %s)\n", k, res.Errors[k], res.Verdicts[k], res.LastError[k])
	}
	if share, name := res.ErrorShare(); share > evalMaxErrors {
		return fmt.Errorf("%d of %d verdicts of reward %s failed, more than %.0f%%: its mean above counts them as zeros", res.Errors[name], res.Verdicts[name], name, 100*evalMaxErrors)
	}
	return nil
}

// evalPrompts are the prompts eval answers and each one's split: the
// first n test prompts (a records file's test split holds fewer: all of
// them, said on log), or with split "all" every record in file order.
func evalPrompts(t task.Task, n int, split string, log io.Writer) ([]task.Prompt, []task.Split) {
	rt, isRecords := t.(*records.Task)
	if split == "all" && isRecords {
		return rt.All()
	}
	if isRecords && n > rt.Len(task.Test) {
		fmt.Fprintf(log, "eval: the test split holds %d records: evaluating those, not --prompts %d\n", rt.Len(task.Test), n)
		n = rt.Len(task.Test)
	}
	prompts := make([]task.Prompt, n)
	splits := make([]task.Split, n)
	for i := range prompts {
		prompts[i], splits[i] = t.Prompt(task.Test, i), task.Test
	}
	return prompts, splits
}

// truncated counts the responses cut off: at the token limit or the
// model's context rather than by the end token or a stop sequence.
func truncated(rs []sample.Response) int {
	n := 0
	for _, r := range rs {
		if r.Finish == sample.FinishLength || r.Finish == sample.FinishContext {
			n++
		}
	}
	return n
}

// judgeIFEval judges each greedy response against its IFEval record's
// instructions (ifeval.JudgeRef); nil when the prompts are not IFEval
// records'.
func judgeIFEval(res rollout.EvalResult) []ifeval.Judged {
	if len(res.Prompts) == 0 {
		return nil
	}
	out := make([]ifeval.Judged, len(res.Prompts))
	for i, p := range res.Prompts {
		ref, ok := p.Ref.(*ifeval.Ref)
		if !ok || ref == nil || ref.Topic != "" || i >= len(res.Responses) {
			return nil
		}
		out[i] = ifeval.JudgeRef(ref, res.Responses[i].Text)
	}
	return out
}

// ifevalAccuracy is IFEval's accuracy over every judged response ("all")
// and over each split present, when more than one is.
func ifevalAccuracy(judged []ifeval.Judged, splits []task.Split) map[string]ifeval.Accuracy {
	out := map[string]ifeval.Accuracy{"all": ifeval.Score(judged)}
	by := map[task.Split][]ifeval.Judged{}
	for i, j := range judged {
		by[splits[i]] = append(by[splits[i]], j)
	}
	if len(by) > 1 {
		for s, js := range by {
			out[s.String()] = ifeval.Score(js)
		}
	}
	return out
}

// evalLine is one line of --responses.
type evalLine struct {
	ID       string              `json:"id"`
	Split    string              `json:"split"`
	Prompt   string              `json:"prompt"`
	Response string              `json:"response"`
	Finish   sample.Finish       `json:"finish"`
	Tokens   int                 `json:"tokens"`
	Rewards  map[string]*float64 `json:"rewards"`
	*ifeval.Judged
}

// writeResponses writes --responses: one evalLine per greedy response.
func writeResponses(path string, res rollout.EvalResult, splits []task.Split, judged []ifeval.Judged, vs []reward.Verifier) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i, r := range res.Responses {
		l := evalLine{ID: res.Prompts[i].ID, Split: splits[i].String(), Prompt: res.Prompts[i].Text, Response: r.Text,
			Finish: r.Finish, Tokens: len(r.Tokens), Rewards: map[string]*float64{}}
		for _, v := range vs {
			if row := res.PerPrompt[v.Name()]; i < len(row) && row[i] != nil {
				l.Rewards[v.Name()] = row[i]
			}
		}
		if judged != nil {
			l.Judged = &judged[i]
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--responses: %w", err)
	}
	return nil
}
