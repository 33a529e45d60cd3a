package lab

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/credo-rl/credo/rollout"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/progress"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/replay"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// CalibrateConfig says how to measure where a warmed-up policy starts on a
// task: groups sampled as training would sample them, on the first
// training prompts.
type CalibrateConfig struct {
	Prompts     int           `json:"prompts"` // candidate training prompts, from index 0
	Group       int           `json:"group"`   // responses per prompt, as in training
	MaxTokens   int           `json:"max_tokens"`
	Temperature float64       `json:"temperature"`
	Seed        uint64        `json:"seed"`
	Workers     int           `json:"-"`
	Timeout     time.Duration `json:"-"`
	// MaxZeroVar is the largest share of groups without variance a counted
	// reward may have (0.3: with fewer varying groups a reward gives too
	// little signal for any method to place).
	MaxZeroVar float64 `json:"max_zero_var"`
	// Saturated is the pass rate at or above which a reward has too little
	// left to learn to tell methods apart (0.8).
	Saturated float64 `json:"saturated"`
	// EvalPrompts > 0 also evaluates the policy greedily on that many test
	// prompts (the runs' final evaluation starts from there).
	EvalPrompts int `json:"eval_prompts"`
	// Localize names credit methods whose localization at the start is
	// measured on every reward (run.RewardStart.Localization), each with
	// Credit as its configuration: what a comparison's warm-up gate
	// (run.Gate) reads.
	Localize []string      `json:"localize,omitempty"`
	Credit   credit.Config `json:"-"`
}

// DefaultCalibrate samples 64 prompts × 8 responses at temperature 1.
func DefaultCalibrate() CalibrateConfig {
	return CalibrateConfig{Prompts: 64, Group: 8, MaxTokens: 128, Temperature: 1, Seed: 1,
		Workers: 4, Timeout: 5 * time.Second, MaxZeroVar: 0.3, Saturated: 0.8}
}

// Calibrate samples c.Group responses to each of the first c.Prompts
// training prompts and reports, per reward, the pass rate, the share of
// groups without variance and, over its failed verdicts with spans, how
// much of a uniform advantage's update already lands on what they quote
// (the focus diagnostic's Share(g), from a replay of every response). A
// reward is counted when fewer than c.MaxZeroVar of its groups lack
// variance and its pass rate is below c.Saturated. With c.Localize it also
// runs those credit methods on each batch of 8 prompts × c.Group
// responses, as at a run's first step, and keeps each reward's mean
// localization.
func Calibrate(ctx context.Context, p *policy.Policy, t task.Task, vs []reward.Verifier, c CalibrateConfig, log io.Writer) (run.Calibration, error) {
	out := run.Calibration{Task: t.Name(), Prompts: c.Prompts, Group: c.Group, MaxZeroVar: c.MaxZeroVar, Saturated: c.Saturated}
	if c.Prompts < 1 || c.Group < 2 || c.MaxTokens < 1 {
		return out, fmt.Errorf("calibrate: prompts ≥ 1, group ≥ 2 and max tokens ≥ 1 are required (got %d, %d, %d)", c.Prompts, c.Group, c.MaxTokens)
	}
	const chunk = 8                               // prompts per generation call: bounded memory, a progress bar that moves
	verdicts := make([][]reward.Verdict, len(vs)) // [K][N]
	bar := progress.New(log, "calibrate", 0, c.Prompts)
	rp := replay.New(p.Model, p.Tok, 32)
	blamed := make(blamedSums, len(vs))
	loc, err := newLocalizer(c, vs, rp)
	if err != nil {
		return out, fmt.Errorf("calibrate: %w", err)
	}
	for start := 0; start < c.Prompts; start += chunk {
		n := min(chunk, c.Prompts-start)
		prompts := make([]task.Prompt, n)
		for j := range prompts {
			prompts[j] = t.Prompt(task.Train, start+j)
		}
		sc := sample.Config{MaxTokens: c.MaxTokens, Temperature: c.Temperature, TopP: 1, Seed: rollout.StepSeed(c.Seed, start)}
		ro, err := rollout.Rollout(ctx, p, prompts, c.Group, sc, vs, rollout.Verify{Workers: c.Workers, Timeout: c.Timeout})
		if err != nil && ro.Responses == nil { // sampling failed
			return out, fmt.Errorf("calibrate: %w", err)
		} else if err != nil {
			return out, err
		}
		for k := range vs {
			verdicts[k] = append(verdicts[k], ro.Verdicts[k]...)
		}
		if err := blamed.add(ctx, rp, ro); err != nil {
			return out, fmt.Errorf("calibrate: %w", err)
		}
		if err := loc.add(ctx, ro, start); err != nil {
			return out, fmt.Errorf("calibrate: %w", err)
		}
		bar.Update(start+n, "")
	}
	bar.Done()
	for k, v := range vs {
		r := startOf(v.Name(), verdicts[k], c)
		r.Blamed, r.BlamedTokens, r.BlamedUniform = blamed.of(k)
		r.Localization = loc.of(v.Name())
		out.Rewards = append(out.Rewards, r)
	}
	out.Localized = slices.Clone(c.Localize)
	if c.EvalPrompts > 0 {
		res, err := rollout.Evaluate(ctx, p, t, vs, rollout.EvalConfig{Prompts: c.EvalPrompts, MaxTokens: c.MaxTokens,
			Workers: c.Workers, Timeout: c.Timeout, Seed: c.Seed})
		if err != nil {
			return out, fmt.Errorf("calibrate: %w", err)
		}
		out.Eval, out.EvalPrompts = res.Greedy, c.EvalPrompts
	}
	return out, nil
}

// startOf summarises one reward's verdicts, in groups of c.Group (the
// zero-variance share as credit.ZeroVariance decides it).
func startOf(name string, vd []reward.Verdict, c CalibrateConfig) run.RewardStart {
	r := run.RewardStart{Reward: name}
	groups := make([]int, len(vd))
	sum, n := 0.0, 0
	for i, v := range vd {
		groups[i] = i / c.Group
		if !v.Skip {
			sum += v.Score
			n++
		}
	}
	if n > 0 {
		r.Pass = sum / float64(n)
	}
	r.ZeroVar, r.Groups = credit.ZeroVariance(vd, groups)
	switch {
	case r.Groups == 0:
		r.Why = "applies to none of the calibration prompts"
	case r.Pass >= c.Saturated:
		r.Why = fmt.Sprintf("already at %.2f (≥ %.2f): little left to learn", r.Pass, c.Saturated)
	case r.ZeroVar >= c.MaxZeroVar:
		r.Why = fmt.Sprintf("%.0f%% of groups have no variance (≥ %.0f%%): too little signal", 100*r.ZeroVar, 100*c.MaxZeroVar)
	default:
		r.Counted = true
	}
	return r
}

// blamedSums accumulates, per reward, the failed verdicts that quote part
// of their response, as Focus's "<reward> failed" rows do (without
// relevance).
type blamedSums []focusSum

// add replays a rollout's responses and adds its failed verdicts.
func (b blamedSums) add(ctx context.Context, rp credit.Replayer, ro rollout.Rollouts) error {
	reqs := make([]credit.ReplayRequest, len(ro.Responses))
	for i, r := range ro.Responses {
		reqs[i] = credit.ReplayRequest{Prompt: ro.Prompts[r.Prompt].Text, Response: r.Tokens}
	}
	g, err := gradientNorms(ctx, rp, reqs)
	if err != nil {
		return err
	}
	for k := range b {
		for i, v := range ro.Verdicts[k] {
			if v.Skip || v.Score >= 1 || len(v.Spans) == 0 {
				continue
			}
			strength := make([]float64, len(g[i]))
			reward.NewTokenRanges(ro.Responses[i].Offsets).Fill(strength, nil, v.Spans)
			b[k].add(g[i], strength, nil)
		}
	}
	return nil
}

// of is reward k's count of such verdicts and their mean shares of the
// tokens and of a uniform advantage's update.
func (b blamedSums) of(k int) (int, float64, float64) {
	r := b[k].report("")
	return r.Pairs, r.Checked, r.Uniform
}

// BlamedInWords is a calibration line's tail on r's failed verdicts: what
// share of the response they quote and of a uniform advantage's update
// already lands there; "" without such verdicts.
func BlamedInWords(r run.RewardStart) string {
	if r.Blamed == 0 {
		return ""
	}
	return fmt.Sprintf("; its failed verdicts quote %.0f%% of a response, where %.0f%% of a uniform advantage's update already lands",
		100*r.BlamedTokens, 100*r.BlamedUniform)
}
