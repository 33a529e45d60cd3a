package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/credo-rl/credo/replay"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/rollout"

	"github.com/credo-rl/credo/internal/settings"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/optim"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/records"
	"github.com/credo-rl/credo/tokenizer"
)

// WarmupConfig configures supervised warm-up on a task's demonstrations.
type WarmupConfig struct {
	Task     string `json:"task"`
	TaskSeed uint64 `json:"task_seed"`
	// Difficulty is the task's difficulty settings (as Config.Difficulty).
	Difficulty string `json:"difficulty,omitempty"`
	// Source, when it names a records file, is the task instead of Task
	// (task/records): the records' references are the demonstrations.
	records.Source
	// Size picks a fresh model: tiny (tests), small (~1M parameters, the
	// default: learns a task's format in minutes here) or medium (~10M).
	Size string `json:"size"`
	// Tokenizer is a Hugging Face tokenizer folder (tokenizer.json,
	// tokenizer_config.json) a fresh model reads and writes with; empty:
	// the byte-level tokenizer. Size qwen-small needs Qwen3's.
	Tokenizer string `json:"tokenizer,omitempty"`
	// Init continues from a checkpoint folder instead of fresh weights.
	Init  string `json:"init,omitempty"`
	Demos int    `json:"demos"` // demonstrations drawn (cycled through in shuffled epochs)
	Steps int    `json:"steps"`
	Batch int    `json:"batch"` // sequences per step
	optim.Schedule
	Optimizer optim.AdamW `json:"optimizer"`
	// Memory splits each step's batch into micro-batches (as Config's).
	optim.Memory
	Demo task.DemoConfig    `json:"demo"`
	Seed uint64             `json:"seed"`
	Eval rollout.EvalConfig `json:"eval"`
}

// DefaultWarmup is sized for the small model on 2 cores: a few minutes.
func DefaultWarmup() WarmupConfig {
	return WarmupConfig{
		Task: "toolcall", Size: "small", Demos: 4000, Steps: 300, Batch: 16,
		Schedule:  optim.Schedule{Peak: 3e-3, WarmupSteps: 20, MinRatio: 0.1},
		Optimizer: optim.DefaultAdamW(), Memory: rl.DefaultMemory(),
		Demo: task.DefaultDemoConfig(),
		Seed: 1,
		Eval: rollout.EvalConfig{Prompts: 32, MaxTokens: 160, Workers: 4, Timeout: 2 * time.Second},
	}
}

// Validate checks the settings that need no files, naming each bad one by
// its warmup.json key (demo.* and eval.* nested); WarmUp checks the rest.
func (c WarmupConfig) Validate() error {
	var ps settings.Problems
	bad := func(key, format string, args ...any) {
		ps = append(ps, settings.Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	ps = append(ps, settings.NonFinite(c, "")...)
	if err := c.Memory.Validate(); err != nil {
		bad("micro_batch", "%v", err)
	}
	for _, f := range []struct {
		key string
		v   int
	}{{"steps", c.Steps}, {"batch", c.Batch}, {"demos", c.Demos}} {
		if f.v < 1 {
			bad(f.key, "must be at least 1, got %d", f.v)
		}
	}
	if _, err := model.Preset(c.Size, 256); err != nil && c.Init == "" {
		bad("size", "%v", err)
	}
	ps = append(ps, c.Schedule.Problems()...)
	ps = append(ps, c.Optimizer.Problems(c.Peak)...)
	if !(c.Demo.DefaultFlawRate >= 0 && c.Demo.DefaultFlawRate <= 1) {
		bad("demo.DefaultFlawRate", "must be a share in [0, 1], got %v", c.Demo.DefaultFlawRate)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Demo.FlawRate)) {
		if r := c.Demo.FlawRate[name]; !(r >= 0 && r <= 1) {
			bad("demo.FlawRate", "%s: must be a share in [0, 1], got %v", name, r)
		}
	}
	if !(c.Demo.BlockRate >= 0 && c.Demo.BlockRate <= 1) {
		bad("demo.BlockRate", "must be a share in [0, 1], got %v", c.Demo.BlockRate)
	}
	if c.Eval.Prompts < 0 || c.Eval.MaxTokens < 1 && c.Eval.Prompts > 0 {
		bad("eval.eval_prompts", "must be ≥ 0, with eval_max_tokens ≥ 1 when positive (got %d and %d)", c.Eval.Prompts, c.Eval.MaxTokens)
	}
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// WarmupReport summarises a warm-up run.
type WarmupReport struct {
	FinalLoss float64            `json:"final_loss"`
	Tokens    int                `json:"tokens"`
	Skipped   int                `json:"skipped_demos"` // longer than the model's context
	Seconds   float64            `json:"seconds"`
	Eval      rollout.EvalResult `json:"eval"`
	// HeldOut is the next-token accuracy on the response tokens of
	// demonstrations whose prompts training never saw, before and after
	// (teacher-forced; chance is 1/vocabulary).
	HeldOutBefore float64 `json:"held_out_accuracy_before"`
	HeldOutAfter  float64 `json:"held_out_accuracy_after"`
	// Blocks is the block diagnostic on the evaluation's test prompts,
	// after warm-up; nil for a task without reference responses.
	Blocks *replay.BlockReport `json:"blocks,omitempty"`
}

// WarmUp trains a policy on the task's demonstrations with the loss on
// response tokens only, evaluates it on the test split, and saves it to out.
func WarmUp(ctx context.Context, c WarmupConfig, out string, log io.Writer, opts ...WarmupOption) (*policy.Policy, WarmupReport, error) {
	var rep WarmupReport
	var r warmupRun
	for _, o := range opts {
		o(&r)
	}
	t, p, err := c.start(ctx, log)
	if err != nil {
		return nil, rep, err
	}
	var ck *warmupCheckpoint
	if r.dir != "" {
		got, ok, err := loadWarmupCheckpoint(r.dir, c)
		if err != nil {
			return nil, rep, err
		}
		if ok {
			ck, p = &got, got.p
			fmt.Fprintf(log, "resuming the warm-up from %s (step %d of %d)\n", r.dir, got.state.Step, c.Steps)
		}
	}
	demos := t.Demos(c.Demos, c.Seed, c.Demo)
	seqs, masks, skipped := demoSequences(demos, p.Tok, p.Model.Config.MaxPositionEmbeddings)
	rep.Skipped = skipped
	if len(seqs) == 0 {
		return nil, rep, fmt.Errorf("warm-up: every demonstration is longer than the model's context")
	}
	heldSeqs, heldMasks := heldOutDemos(t, p.Tok, c, demos, p.Model.Config.MaxPositionEmbeddings)
	if ck != nil {
		rep.HeldOutBefore = ck.state.HeldOutBefore
	} else if rep.HeldOutBefore, err = tokenAccuracy(ctx, p.Model, heldSeqs, heldMasks); err != nil {
		return nil, rep, err
	}
	if err := c.train(ctx, p, seqs, masks, &rep, log, r, ck); err != nil {
		return nil, rep, err
	}
	if rep.HeldOutAfter, err = tokenAccuracy(ctx, p.Model, heldSeqs, heldMasks); err != nil {
		return nil, rep, err
	}
	if err := c.evaluate(ctx, p, t, &rep); err != nil {
		return nil, rep, err
	}
	if out != "" {
		if err := p.Save(out); err != nil {
			return nil, rep, err
		}
	}
	return p, rep, nil
}

// start checks c and builds its task and initial policy. A task that
// cannot give demonstrations (task.DemoLacker) is refused here.
func (c WarmupConfig) start(ctx context.Context, log io.Writer) (task.Task, *policy.Policy, error) {
	if err := c.Validate(); err != nil {
		return nil, nil, &settings.Error{Err: err}
	}
	t, err := records.Build(ctx, c.Task, c.TaskSeed, c.Difficulty, c.Source, log)
	if err != nil {
		return nil, nil, &settings.Error{Err: err}
	}
	if dl, ok := t.(task.DemoLacker); ok {
		if err := dl.NoDemos(); err != nil {
			return nil, nil, &settings.Error{Err: fmt.Errorf("task %s has no demonstrations: %w", t.Name(), err)}
		}
	}
	if err := checkFlawNames(t, c.Demo.FlawRate); err != nil {
		return nil, nil, &settings.Error{Err: err}
	}
	p, err := initPolicy(c)
	if err != nil && c.Init != "" {
		return nil, nil, &settings.Error{Err: settings.Problems{{Key: "init", Msg: err.Error()}}}
	}
	if err != nil {
		return nil, nil, &settings.Error{Err: err}
	}
	return t, p, nil
}

// checkFlawNames reports a per-reward flaw rate whose name is none of t's
// rewards: a typo would otherwise leave that reward at the default rate.
func checkFlawNames(t task.Task, rates map[string]float64) error {
	names := reward.NamesOf(t.Rewards())
	var ps settings.Problems
	for _, name := range slices.Sorted(maps.Keys(rates)) {
		if !slices.Contains(names, name) {
			ps.Add("demo.FlawRate", "%s is not a reward of %s (its rewards: %s)", name, t.Name(), strings.Join(names, ", "))
		}
	}
	return ps.Err()
}

// train takes c.Steps supervised steps of c.Batch demonstrations, drawn in
// shuffled epochs (optim.Loop), and stops when optim.MaxSkippedSteps updates in a row
// could not be applied. From a checkpoint (ck non-nil) it restores the
// optimizer, draws the batches of the steps done again (discarding them)
// and goes on from there; with r.dir it keeps checkpoints there.
func (c WarmupConfig) train(ctx context.Context, p *policy.Policy, seqs [][]int32, masks [][]float32, rep *WarmupReport, log io.Writer, r warmupRun, ck *warmupCheckpoint) error {
	tr, err := optim.NewUpdater(p.Model, c.Optimizer, optim.CrossEntropy{})
	if err != nil {
		return err
	}
	if err := tr.SetMemory(c.Memory); err != nil {
		return &settings.Error{Err: err}
	}
	b := newBatcher(c.Seed, seqs, masks)
	first, prior := 0, 0.0
	if ck != nil {
		if err := tr.SetOptimizerState(ck.mom, ck.vel, ck.state.Updates); err != nil {
			return err
		}
		first, prior = ck.state.Step, ck.state.Seconds
		for range first {
			rep.Tokens += b.next(c.Batch).tokens
		}
	}
	sched := c.Schedule
	sched.Steps = c.Steps
	start := time.Now()
	save := func(done int) error {
		return saveWarmupCheckpoint(r.dir, c, p, tr, warmupState{Step: done, Updates: tr.Steps(),
			HeldOutBefore: rep.HeldOutBefore, Seconds: prior + time.Since(start).Seconds()})
	}
	loop := optim.Loop{
		First: first, Steps: c.Steps, CheckpointEvery: r.every,
		Stuck: func(done, inARow int) error {
			return fmt.Errorf("warm-up step %d: no update could be applied in %d steps in a row (a non-finite loss, gradient, weight or moment each time): the learning rate (lr %v) or weight decay (%v) is probably far too large; nothing was saved",
				done, inARow, c.Peak, c.Optimizer.WeightDecay)
		},
		Interrupt: func(ctx context.Context, done int) error {
			if r.dir != "" && done > first {
				return errors.Join(ctx.Err(), save(done))
			}
			return ctx.Err()
		},
		Name: "warm-up", Log: log,
	}
	if r.dir != "" {
		loop.Save = save
	}
	err = loop.Run(ctx, func(ctx context.Context, step int) (optim.Outcome, error) {
		bt := b.next(c.Batch)
		rep.Tokens += bt.tokens
		st, err := tr.Step(ctx, bt.seqs, optim.TokenInputs{Mask: bt.masks}, sched.At(step))
		if err != nil {
			return optim.Outcome{}, fmt.Errorf("warm-up step %d: %w", step+1, err)
		}
		rep.FinalLoss = st.Loss
		el := time.Since(start).Seconds()
		return optim.Outcome{Skipped: st.Skipped, Summary: fmt.Sprintf("loss %.3f | %.0f tok/s", st.Loss, float64(rep.Tokens)/(prior+el))}, nil
	})
	if err != nil {
		return err
	}
	rep.Seconds = prior + time.Since(start).Seconds()
	return nil
}

// batcher draws batches of demonstrations in shuffled epochs from a seed:
// the same seed draws the same batches, which a resumed warm-up relies on.
type batcher struct {
	rng   *rand.Rand
	order []int
	pos   int
	seqs  [][]int32
	masks [][]float32
}

func newBatcher(seed uint64, seqs [][]int32, masks [][]float32) *batcher {
	rng := rand.New(rand.NewPCG(seed, 0x5f7))
	return &batcher{rng: rng, order: rng.Perm(len(seqs)), seqs: seqs, masks: masks}
}

// batch is one step's demonstrations.
type batch struct {
	seqs   [][]int32
	masks  [][]float32
	tokens int
}

// next draws n demonstrations, starting a new shuffled epoch when one ends.
func (b *batcher) next(n int) batch {
	out := batch{seqs: make([][]int32, n), masks: make([][]float32, n)}
	for i := range n {
		if b.pos == len(b.order) {
			b.order, b.pos = b.rng.Perm(len(b.seqs)), 0
		}
		out.seqs[i], out.masks[i] = b.seqs[b.order[b.pos]], b.masks[b.order[b.pos]]
		b.pos++
		out.tokens += len(out.seqs[i])
	}
	return out
}

// evaluate adds the greedy evaluation on c.Eval's test prompts and, for a
// task with reference responses, the block diagnostic on them.
func (c WarmupConfig) evaluate(ctx context.Context, p *policy.Policy, t task.Task, rep *WarmupReport) error {
	var err error
	if c.Eval.Prompts > 0 {
		if rep.Eval, err = rollout.Evaluate(ctx, p, t, t.Rewards(), c.Eval); err != nil {
			return err
		}
	}
	if _, ok := t.(task.Referencer); ok && c.Eval.Prompts > 1 {
		b, err := replay.BlockDiagnostic(ctx, p, t, c.Eval.Prompts)
		if err != nil {
			return err
		}
		rep.Blocks = &b
	}
	return nil
}

func initPolicy(c WarmupConfig) (*policy.Policy, error) {
	if c.Init != "" {
		return policy.Load(c.Init)
	}
	tok, err := freshTokenizer(c.Size, c.Tokenizer)
	if err != nil {
		return nil, err
	}
	mc, err := model.Preset(c.Size, tok.VocabSize())
	if err != nil {
		return nil, fmt.Errorf("warm-up: %w", err)
	}
	m, err := model.New(mc, c.Seed)
	if err != nil {
		return nil, err
	}
	return &policy.Policy{Model: m, Tok: tok}, nil
}

// freshTokenizer is a fresh model's tokenizer: the folder's, or the
// byte-level one. Size qwen-small needs a Qwen-vocabulary folder.
func freshTokenizer(size, dir string) (tokenizer.Tokenizer, error) {
	if dir == "" {
		if size == "qwen-small" {
			return nil, settings.Problems{{Key: "tokenizer", Msg: "size qwen-small reads and writes with the Qwen3 tokenizer: pass its folder (tokenizer.json, tokenizer_config.json), such as ../shared/data/tokenizers/qwen3"}}
		}
		return tokenizer.NewBytes()
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		return nil, settings.Problems{{Key: "tokenizer", Msg: err.Error()}}
	}
	return tok, nil
}

// demoSequences tokenizes demonstrations as prompt + response + EOS, with a
// mask selecting the response targets (the loss never sees the prompt).
func demoSequences(demos []task.Demo, tok tokenizer.Tokenizer, maxLen int) (seqs [][]int32, masks [][]float32, skipped int) {
	for _, d := range demos {
		p := tok.EncodePrompt(d.Prompt)
		r, _ := tok.Encode(d.Response)
		s := append(append(p, r...), tok.EOS())
		if len(s) > maxLen {
			skipped++
			continue
		}
		m := make([]float32, len(s)-1)
		for j := len(p) - 1; j < len(m); j++ { // target j+1 is a response token
			m[j] = 1
		}
		seqs, masks = append(seqs, s), append(masks, m)
	}
	return seqs, masks, skipped
}

// heldOutSize is the number of held-out demonstrations accuracy is read on.
const heldOutSize = 64

// heldOutDemos draws demonstrations with another seed and keeps those whose
// prompt is not among the training ones.
func heldOutDemos(t task.Task, tok tokenizer.Tokenizer, c WarmupConfig, train []task.Demo, maxLen int) ([][]int32, [][]float32) {
	seen := make(map[string]bool, len(train))
	for _, d := range train {
		seen[d.Prompt] = true
	}
	var held []task.Demo
	for _, d := range t.Demos(4*heldOutSize, c.Seed^0x6e1d07, c.Demo) {
		if !seen[d.Prompt] && len(held) < heldOutSize {
			held = append(held, d)
		}
	}
	seqs, masks, _ := demoSequences(held, tok, maxLen)
	return seqs, masks
}

// tokenAccuracy is the share of masked targets that are the model's most
// likely next token.
func tokenAccuracy(ctx context.Context, m *model.Model, seqs [][]int32, masks [][]float32) (float64, error) {
	if len(seqs) == 0 {
		return 0, nil
	}
	_, greedy, err := m.Targets(ctx, seqs) // vocabulary-chunked: no [B, T, V] table
	if err != nil {
		return 0, fmt.Errorf("held-out accuracy: %w", err)
	}
	right, total := 0, 0
	for i, g := range greedy {
		for t, best := range g { // g[t] is the prediction of seqs[i][t+1]
			if masks[i][t] == 0 {
				continue
			}
			total++
			if best == seqs[i][t+1] {
				right++
			}
		}
	}
	if total == 0 {
		return 0, nil
	}
	return float64(right) / float64(total), nil
}
