package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward/remote"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/records"
)

// site is one warm-up of a comparison: where its checkpoint is, how it is
// made and where its calibration is kept.
type site struct {
	index       int          // 1 … among several; 0 for a comparison's only one
	dir         string       // the checkpoint folder
	config      WarmupConfig // how it is made, when the comparison makes it
	calibration string       // its calibration.json
}

// sites are c's warm-ups: Out/warmup (or Init) with the calibration in
// Out, or, with Warmups > 1, Out/warmup-<w> with seed Warmup.Seed + w − 1
// and its calibration beside its checkpoint.
func (c CompareConfig) sites() []site {
	if c.Warmups <= 1 {
		return []site{{dir: c.warmupDir(), config: c.Warmup, calibration: filepath.Join(c.Out, run.CalibrationFile)}}
	}
	out := make([]site, c.Warmups)
	for i := range out {
		w := i + 1
		cfg := c.Warmup
		cfg.Seed += uint64(i)
		dir := filepath.Join(c.Out, fmt.Sprintf("warmup-%d", w))
		out[i] = site{index: w, dir: dir, config: cfg, calibration: filepath.Join(dir, run.CalibrationFile)}
	}
	return out
}

// warmupOnce makes the comparison's warm-up checkpoint unless a finished
// one (with its warmup.json) is already there, made with c.
func warmupOnce(ctx context.Context, c WarmupConfig, dir string, log io.Writer) error {
	path := filepath.Join(dir, run.WarmupFile)
	var saved WarmupRecord
	switch err := run.ReadJSON(path, &saved); {
	case err == nil:
		changes, err := run.Diff(saved.Config, c)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		if len(changes) > 0 {
			return fmt.Errorf("compare: the warm-up in %s was made with other settings (%v): choose another --out", dir, changes)
		}
		fmt.Fprintf(log, "reusing the warm-up checkpoint %s\n", dir)
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("compare: %w", err)
	}
	_, rep, err := WarmUp(ctx, c, dir, log)
	if err != nil {
		return err
	}
	return run.WriteJSON(path, WarmupRecord{Config: c, Report: rep})
}

// calibrateOnce measures where warm-up st starts (its calibration.json)
// unless a calibration made with the same settings is there, and returns it.
func calibrateOnce(ctx context.Context, c CompareConfig, st site, log io.Writer) (run.Calibration, error) {
	path, init := st.calibration, st.dir
	cc := c.Calibrate
	cc.Group, cc.MaxTokens, cc.Temperature = c.Train.Group, c.Train.MaxTokens, c.Train.Temperature
	cc.EvalPrompts = c.Train.EvalPrompts
	cc.Workers, cc.Timeout = c.Train.VerifyWorkers, time.Duration(c.Train.VerifyTimeout)
	cc.Localize, cc.Credit = c.Gate.Methods(), c.Train.Credit.Config
	var saved run.Calibration
	switch err := run.ReadJSON(path, &saved); {
	case err == nil:
		if saved.Prompts != cc.Prompts || saved.Group != cc.Group || saved.EvalPrompts != cc.EvalPrompts {
			return run.Calibration{}, fmt.Errorf("compare: %s was made with %d prompts × %d responses (eval %d), these settings ask %d × %d (eval %d): choose another --out",
				path, saved.Prompts, saved.Group, saved.EvalPrompts, cc.Prompts, cc.Group, cc.EvalPrompts)
		}
		if !slices.ContainsFunc(cc.Localize, func(m string) bool { return !slices.Contains(saved.Localized, m) }) {
			return saved, nil
		}
		// made before the gate asked for a localization: measured again
		// (the same samples, so the same pass rates), now with it
		fmt.Fprintf(log, "measuring %s again: the gate reads localizations it lacks\n", path)
	case !errors.Is(err, os.ErrNotExist):
		return run.Calibration{}, fmt.Errorf("compare: %w", err)
	}
	p, err := policy.Load(init)
	if err != nil {
		return run.Calibration{}, fmt.Errorf("compare: calibrate: %w", err)
	}
	t, err := records.Build(ctx, c.Train.Task, c.Train.TaskSeed, c.Train.Difficulty, c.Train.Source, nil)
	if err != nil {
		return run.Calibration{}, fmt.Errorf("compare: calibrate: %w", err)
	}
	if cl, ok := t.(io.Closer); ok {
		defer cl.Close()
	}
	extra, err := remote.Build(c.Train.Verifiers, t)
	if err != nil {
		return run.Calibration{}, fmt.Errorf("compare: calibrate: %w", err)
	}
	vs, err := task.RewardsOf(t, c.Train.Judges, extra...)
	if err != nil {
		return run.Calibration{}, fmt.Errorf("compare: calibrate: %w", err)
	}
	cal, err := Calibrate(ctx, p, t, vs, cc, log)
	if err != nil {
		return run.Calibration{}, err
	}
	cal.Difficulty = c.Train.Difficulty
	for _, r := range cal.Rewards {
		status := "counted"
		if !r.Counted {
			status = "not counted: " + r.Why
		}
		who := ""
		if st.index > 0 {
			who = fmt.Sprintf(" (warm-up %d)", st.index)
		}
		fmt.Fprintf(log, "calibration%s: %s starts at %.2f, %.0f%% of groups without variance: %s%s%s\n", who, r.Reward, r.Pass, 100*r.ZeroVar, status, BlamedInWords(r), localizationInWords(r))
	}
	return cal, run.WriteJSON(path, cal)
}

// judgeable refuses a warm-up whose calibration counts no reward
// (countsSomething), except under --headline own with several warm-ups,
// where it only warns: that warm-up's runs are left out of the headline
// and the others still judge the methods.
func judgeable(cal run.Calibration, st site, own bool, log io.Writer) error {
	err := countsSomething(cal, st.calibration)
	if err == nil || !own || st.index == 0 {
		return err
	}
	fmt.Fprintf(log, "warning: warm-up %d counts no reward, so under --headline own its runs are trained and reported per reward but left out of the headline\n", st.index)
	return nil
}

// countsSomething refuses a calibration that counts no reward: every run
// would train, and the table would judge the methods on nothing (issue 27:
// compare went on at 100% zero-variance groups and printed zeros).
func countsSomething(cal run.Calibration, path string) error {
	if len(cal.Counted()) > 0 {
		return nil
	}
	var why []string
	for _, r := range cal.Rewards {
		why = append(why, r.Reward+" "+r.Why)
	}
	return fmt.Errorf("compare: the calibration (%s) counts no reward, so no comparison could tell the methods apart: %s.\n"+
		"Make the task harder or easier for this policy (--difficulty) or warm up longer or shorter; `credo calibrate` measures a setting before a comparison", path, strings.Join(why, "; "))
}

// countedWarning is a warning when no reward is counted on every warm-up
// (cals, in warm-up order): the table's shared headline counts only those,
// so it would judge no method (the per-reward rows are still reported);
// "" otherwise.
func countedWarning(cals []run.Calibration) string {
	var where []string
	for _, r := range cals[0].Rewards {
		var on []string
		for w, cal := range cals {
			if slices.Contains(cal.Counted(), r.Reward) {
				on = append(on, fmt.Sprint(w+1))
			}
		}
		if len(on) == len(cals) {
			return ""
		}
		if len(on) > 0 {
			where = append(where, fmt.Sprintf("%s on warm-ups %s", r.Reward, strings.Join(on, ", ")))
		}
	}
	return "warning: no reward is counted on every warm-up (" + strings.Join(where, "; ") + "), so the table's headline, " +
		"which counts only those, will judge no method; the per-reward rows are still reported. " +
		"Other warm-up settings (--warmup-steps, --flaw-rate) or --difficulty may give warm-ups that agree (`credo calibrate` measures one first); " +
		"or a new comparison with --headline own averages each warm-up's own counted rewards"
}

// localizationInWords is a calibration line's tail on the methods'
// localization at the start; "" without any.
func localizationInWords(r run.RewardStart) string {
	if len(r.Localization) == 0 {
		return ""
	}
	var parts []string
	for _, m := range slices.Sorted(maps.Keys(r.Localization)) {
		parts = append(parts, fmt.Sprintf("%s %.2f", m, r.Localization[m]))
	}
	return "; localization at the start: " + strings.Join(parts, ", ")
}
