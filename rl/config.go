package rl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model"
)

// Config is everything `credo train` does, with defaults sized for the
// small (~1M) policy on 2 cores. It is saved as config.json in the run
// directory; a JSON or YAML file with the same keys can fill it.
type Config struct {
	Task     string `json:"task" yaml:"task"`           // registered task name
	TaskSeed uint64 `json:"task_seed" yaml:"task_seed"` // the task's prompt generator and data
	// Method is a registered credit method (grpo, gdpo, span, mrtpo, p2t,
	// or saw+<method>). The trainer never looks at it beyond the registry.
	Method string        `json:"method" yaml:"method"`
	Credit credit.Config `json:"credit" yaml:"credit"`
	// Weights are the rewards' c[k] by name; a missing name weighs 1.
	Weights map[string]float64 `json:"reward_weights,omitempty" yaml:"reward_weights,omitempty"`
	// Judges add language-model judge rewards (reward/judge specs:
	// "name=…,url=…,model=…,rubric=FILE,weight=…").
	Judges []string `json:"judges,omitempty" yaml:"judges,omitempty"`
	// PRM is a process reward model folder, for methods that need one (p2t).
	PRM string `json:"prm,omitempty" yaml:"prm,omitempty"`

	Init  string `json:"init" yaml:"init"` // the warmed-up policy folder training starts from
	Out   string `json:"out" yaml:"out"`   // the run directory
	Steps int    `json:"steps" yaml:"steps"`
	// PromptsPerStep × Group responses are sampled each step: 8 × 8 = 64,
	// the replay paper's batch shape scaled to 2 cores.
	PromptsPerStep int     `json:"prompts_per_step" yaml:"prompts_per_step"`
	Group          int     `json:"group" yaml:"group"`
	MaxTokens      int     `json:"max_tokens" yaml:"max_tokens"`   // per response
	Temperature    float64 `json:"temperature" yaml:"temperature"` // 1: sample the policy as it is
	TopP           float64 `json:"top_p" yaml:"top_p"`

	Schedule  `yaml:",inline"`
	Optimizer model.AdamW `json:"optimizer" yaml:"optimizer"`
	// ClipLow and ClipHigh are the surrogate's ε_low and ε_high (0.2 each).
	ClipLow  float64 `json:"clip_low" yaml:"clip_low"`
	ClipHigh float64 `json:"clip_high" yaml:"clip_high"`
	// KLBeta weighs the k3 KL to the frozen initial policy (0: none; 0.001
	// is the common non-zero choice).
	KLBeta float64 `json:"kl_beta" yaml:"kl_beta"`
	// LossAgg aggregates token losses: token-mean (default),
	// seq-mean-token-mean (original GRPO) or seq-mean-token-sum-norm (Dr. GRPO).
	LossAgg string `json:"loss_agg" yaml:"loss_agg"`
	// Updates is μ, the updates per batch against its old log-probs.
	Updates int `json:"updates" yaml:"updates"`

	EvalEvery       int `json:"eval_every" yaml:"eval_every"` // steps between evaluations (0: only at the end)
	EvalPrompts     int `json:"eval_prompts" yaml:"eval_prompts"`
	EvalSamples     int `json:"eval_samples" yaml:"eval_samples"` // sampled responses per eval prompt besides the greedy one
	CheckpointEvery int `json:"checkpoint_every" yaml:"checkpoint_every"`
	KeepCheckpoints int `json:"keep_checkpoints" yaml:"keep_checkpoints"`
	SamplesPerStep  int `json:"samples_per_step" yaml:"samples_per_step"` // rollouts logged to samples.jsonl
	// BlockEvery logs the block diagnostic (BlockDiagnostic on EvalPrompts
	// test prompts, blocks/… metrics) every that many steps of a method
	// that replays (mrtpo); 0 never.
	BlockEvery int `json:"block_every,omitempty" yaml:"block_every"`

	VerifyWorkers int      `json:"verify_workers" yaml:"verify_workers"`
	VerifyTimeout Duration `json:"verify_timeout" yaml:"verify_timeout"`
	Seed          uint64   `json:"seed" yaml:"seed"`
}

// Duration is a time.Duration written as "5s" in JSON and YAML.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string such as \"5s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	*d = Duration(v)
	return err
}
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// String makes Duration a flag.Value.
func (d *Duration) String() string { return time.Duration(*d).String() }

// Set parses a flag value such as "5s".
func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

// DefaultConfig returns the defaults documented on Config's fields.
func DefaultConfig() Config {
	opt := model.DefaultAdamW()
	opt.WeightDecay = 0 // RL moves the policy a little: decay would pull it back toward 0
	return Config{
		Task: "toolcall", Method: "gdpo", Credit: credit.DefaultConfig(),
		Steps: 60, PromptsPerStep: 8, Group: 8, MaxTokens: 128, Temperature: 1, TopP: 1,
		Schedule:  Schedule{Peak: 2e-4, WarmupSteps: 0, MinRatio: 1}, // 5e-4 raised the entropy and lowered the rewards of the small policy on toolcall within 8 steps
		Optimizer: opt,
		ClipLow:   0.2, ClipHigh: 0.2, LossAgg: AggTokenMean, Updates: 1,
		EvalEvery: 20, EvalPrompts: 32, CheckpointEvery: 10, KeepCheckpoints: 2, SamplesPerStep: 4,
		VerifyWorkers: 4, VerifyTimeout: Duration(5 * time.Second), Seed: 1,
	}
}

// Loss aggregation modes (ALGORITHMS.md §3).
const (
	AggTokenMean           = "token-mean"
	AggSeqMeanTokenMean    = "seq-mean-token-mean"
	AggSeqMeanTokenSumNorm = "seq-mean-token-sum-norm"
)

// Validate checks settings that need no files; New checks the rest (the
// task, the method's needs, the policy) before any work starts.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Init == "" {
		bad("init: a warmed-up policy folder is required (make one with `credo sft`)")
	}
	if c.Out == "" {
		bad("out: a run directory is required")
	}
	if c.Steps < 1 || c.PromptsPerStep < 1 || c.MaxTokens < 1 || c.Updates < 1 {
		bad("steps, prompts_per_step, max_tokens and updates must be at least 1")
	}
	if c.Group < 2 {
		bad("group is %d: every credit method normalizes within a group of responses to one prompt, so group must be at least 2", c.Group)
	}
	if c.Temperature < 0 || c.TopP <= 0 || c.TopP > 1 {
		bad("temperature must be ≥ 0 and top_p in (0, 1]")
	}
	if c.Peak <= 0 {
		bad("lr must be positive")
	}
	if c.ClipLow < 0 || c.ClipLow >= 1 || c.ClipHigh < 0 {
		bad("clip_low must be in [0, 1) and clip_high ≥ 0")
	}
	if c.KLBeta < 0 {
		bad("kl_beta must be ≥ 0")
	}
	switch c.LossAgg {
	case AggTokenMean, AggSeqMeanTokenMean, AggSeqMeanTokenSumNorm:
	default:
		bad("loss_agg %q: want %s, %s or %s", c.LossAgg, AggTokenMean, AggSeqMeanTokenMean, AggSeqMeanTokenSumNorm)
	}
	if c.EvalEvery < 0 || c.EvalPrompts < 0 || c.EvalSamples < 0 || c.CheckpointEvery < 0 || c.KeepCheckpoints < 1 || c.SamplesPerStep < 0 || c.BlockEvery < 0 {
		bad("eval and checkpoint settings must be ≥ 0 (keep_checkpoints ≥ 1)")
	}
	if c.VerifyWorkers < 1 || c.VerifyTimeout <= 0 {
		bad("verify_workers must be ≥ 1 and verify_timeout positive")
	}
	if err := c.Credit.Validate(); err != nil {
		bad("credit: %w", err)
	}
	return errors.Join(errs...)
}

// LoadConfigFile fills c from a JSON or YAML file (by extension); keys not
// in the file keep c's values, and unknown keys are an error.
func LoadConfigFile(path string, c *Config) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(c); err != nil {
			return fmt.Errorf("config file %s: %w", path, err)
		}
	default:
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(c); err != nil {
			return fmt.Errorf("config file %s: %w", path, err)
		}
	}
	return nil
}
