package rl

import (
	"fmt"
	"time"

	"github.com/credo-rl/credo/conf"
	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/optim"
	"github.com/credo-rl/credo/task/records"
)

// Config is everything `credo train` does, with defaults sized for the
// small (~1M) policy on 2 cores. It is saved as config.json in the run
// directory; a JSON or YAML file with the same keys can fill it.
type Config struct {
	Task     string `json:"task" yaml:"task"`           // registered task name
	TaskSeed uint64 `json:"task_seed" yaml:"task_seed"` // the task's prompt generator and data
	// Difficulty is the task's difficulty settings, "key=value,…" (see
	// each task's Knobs); empty keeps the task's defaults.
	Difficulty string `json:"difficulty,omitempty" yaml:"difficulty,omitempty"`
	// Method is a registered credit method (grpo, gdpo, span, mrtpo, p2t,
	// or saw+<method>). The trainer never looks at it beyond the registry.
	Method string      `json:"method" yaml:"method"`
	Credit conf.Credit `json:"credit" yaml:"credit"`
	// Weights are the rewards' c[k] by name; a missing name weighs 1.
	Weights map[string]float64 `json:"reward_weights,omitempty" yaml:"reward_weights,omitempty"`
	// Judges add language-model judge rewards (reward/judge specs:
	// "name=…,url=…,model=…,rubric=FILE,weight=…").
	Judges []string `json:"judges,omitempty" yaml:"judges,omitempty"`
	// Verifiers add rewards judged by the user's own programs over HTTP
	// (reward/remote specs: "name=…,url=http://127.0.0.1:PORT/…[,timeout=…,retries=…]").
	Verifiers []string `json:"verifiers,omitempty" yaml:"verifiers,omitempty"`
	// Source, when it names a records file, gives the run's prompts and
	// rewards instead of Task (task/records: records, format,
	// test_fraction, strict_records).
	records.Source `yaml:",inline"`
	// PRM is a process reward model folder, for methods that need one (p2t).
	PRM string `json:"prm,omitempty" yaml:"prm,omitempty"`

	Init  string `json:"init" yaml:"init"` // the warmed-up policy folder training starts from
	Out   string `json:"out" yaml:"out"`   // the run directory
	Steps int    `json:"steps" yaml:"steps"`
	// PromptsPerStep × Group responses are sampled each step: 8 × 8 = 64,
	// the replay paper's batch shape scaled to 2 cores.
	PromptsPerStep int `json:"prompts_per_step" yaml:"prompts_per_step"`
	Group          int `json:"group" yaml:"group"`
	// DynamicSampling R > 1 keeps only groups in which some reward varies,
	// sampling up to R rounds of fresh prompts per step to fill the batch
	// (DAPO's dynamic sampling); 0 samples one round and keeps every group.
	DynamicSampling int     `json:"dynamic_sampling,omitempty" yaml:"dynamic_sampling,omitempty"`
	MaxTokens       int     `json:"max_tokens" yaml:"max_tokens"`   // per response
	Temperature     float64 `json:"temperature" yaml:"temperature"` // 1: sample the policy as it is
	TopP            float64 `json:"top_p" yaml:"top_p"`

	optim.Schedule `yaml:",inline"`
	Optimizer      optim.AdamW `json:"optimizer" yaml:"optimizer"`
	// Memory splits each update's batch into micro-batches that fit
	// memory_budget (or of micro_batch sequences); the update is the
	// whole batch's to float32 rounding.
	optim.Memory `yaml:",inline"`
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
	// MaxVerifyErrors is the share of a reward's verdicts that may fail
	// (an unreachable judge, a verifier past its time limit) over the last
	// verifyWindow steps before the run stops: a failed verdict scores 0,
	// and a reward that mostly fails would train the policy on noise.
	MaxVerifyErrors float64 `json:"max_verify_errors" yaml:"max_verify_errors"`
	Seed            uint64  `json:"seed" yaml:"seed"`
}

// Duration is a time.Duration written as "5s" in JSON and YAML.
type Duration = conf.Duration

// DefaultMemory is the training step's memory setting by default: a
// budget of 4 GiB, which runs the small (~1M) and medium presets' default
// batches whole, as before micro-batches existed, and splits the batches
// of a model with a large vocabulary (README, Memory).
func DefaultMemory() optim.Memory { return optim.Memory{Budget: 4 << 30} }

// DefaultConfig returns the defaults documented on Config's fields.
func DefaultConfig() Config {
	opt := optim.DefaultAdamW()
	opt.WeightDecay = 0 // RL moves the policy a little: decay would pull it back toward 0
	return Config{
		Task: "toolcall", Method: "gdpo", Credit: conf.DefaultCredit(),
		Steps: 60, PromptsPerStep: 8, Group: 8, MaxTokens: 128, Temperature: 1, TopP: 1,
		Schedule:  optim.Schedule{Peak: 2e-4, WarmupSteps: 0, MinRatio: 1}, // 5e-4 raised the entropy and lowered the rewards of the small policy on toolcall within 8 steps
		Optimizer: opt, Memory: DefaultMemory(),
		ClipLow: 0.2, ClipHigh: 0.2, LossAgg: AggTokenMean, Updates: 1,
		EvalEvery: 20, EvalPrompts: 32, CheckpointEvery: 10, KeepCheckpoints: 2, SamplesPerStep: 4,
		VerifyWorkers: 4, VerifyTimeout: Duration(5 * time.Second), MaxVerifyErrors: 0.2, Seed: 1,
	}
}

// Loss aggregation modes (ALGORITHMS.md §3).
const (
	AggTokenMean           = "token-mean"
	AggSeqMeanTokenMean    = "seq-mean-token-mean"
	AggSeqMeanTokenSumNorm = "seq-mean-token-sum-norm"
)

// Validate checks settings that need no files; New checks the rest (the
// task, the method's needs, the policy) before any work starts. Its error
// is a settings.Problems list naming each bad setting by its config.json key.
func (c Config) Validate() error {
	var ps settings.Problems
	bad := func(key, format string, args ...any) {
		ps = append(ps, settings.Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	ps = append(ps, settings.NonFinite(c, "")...)
	ps = append(ps, judgeSecrets(c.Judges)...)
	if err := c.Memory.Validate(); err != nil {
		bad("micro_batch", "%v", err)
	}
	if c.Init == "" {
		bad("init", "a warmed-up policy folder is required (make one with `credo sft`)")
	}
	if c.Out == "" {
		bad("out", "a run directory is required")
	}
	for _, f := range []struct {
		key string
		v   int
	}{{"steps", c.Steps}, {"prompts_per_step", c.PromptsPerStep}, {"max_tokens", c.MaxTokens}, {"updates", c.Updates}} {
		if f.v < 1 {
			bad(f.key, "must be at least 1, got %d", f.v)
		}
	}
	if c.DynamicSampling < 0 {
		bad("dynamic_sampling", "must be 0 (off) or the largest number of sampling rounds per step, got %d", c.DynamicSampling)
	}
	if c.Group < 2 {
		bad("group", "must be at least 2, got %d: every credit method normalizes within a group of responses to one prompt", c.Group)
	}
	if c.Temperature < 0 {
		bad("temperature", "must be ≥ 0, got %v", c.Temperature)
	}
	if !(c.TopP > 0 && c.TopP <= 1) {
		bad("top_p", "must be in (0, 1], got %v", c.TopP)
	}
	ps = append(ps, c.Schedule.Problems()...)
	ps = append(ps, c.Optimizer.Problems(c.Peak)...)
	if !(c.ClipLow >= 0 && c.ClipLow < 1) {
		bad("clip_low", "must be in [0, 1), got %v", c.ClipLow)
	}
	if c.ClipHigh < 0 {
		bad("clip_high", "must be ≥ 0, got %v", c.ClipHigh)
	}
	if c.KLBeta < 0 {
		bad("kl_beta", "must be ≥ 0, got %v", c.KLBeta)
	}
	switch c.LossAgg {
	case AggTokenMean, AggSeqMeanTokenMean, AggSeqMeanTokenSumNorm:
	default:
		bad("loss_agg", "%q: want %s, %s or %s", c.LossAgg, AggTokenMean, AggSeqMeanTokenMean, AggSeqMeanTokenSumNorm)
	}
	for _, f := range []struct {
		key string
		v   int
	}{{"eval_every", c.EvalEvery}, {"eval_prompts", c.EvalPrompts}, {"eval_samples", c.EvalSamples}, {"checkpoint_every", c.CheckpointEvery}, {"samples_per_step", c.SamplesPerStep}, {"block_every", c.BlockEvery}} {
		if f.v < 0 {
			bad(f.key, "must be ≥ 0, got %d", f.v)
		}
	}
	if c.KeepCheckpoints < 1 {
		bad("keep_checkpoints", "must be at least 1, got %d", c.KeepCheckpoints)
	}
	if c.VerifyWorkers < 1 {
		bad("verify_workers", "must be at least 1, got %d", c.VerifyWorkers)
	}
	if c.VerifyTimeout <= 0 {
		bad("verify_timeout", "must be positive, got %v", time.Duration(c.VerifyTimeout))
	}
	if !(c.MaxVerifyErrors >= 0 && c.MaxVerifyErrors <= 1) {
		bad("max_verify_errors", "must be a share in [0, 1], got %v", c.MaxVerifyErrors)
	}
	ps = append(ps, c.Credit.Problems()...)
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// configErr is a *settings.Error with a formatted message.
func configErr(format string, args ...any) error { return settings.Errorf(format, args...) }

// LoadConfigFile fills c from a JSON or YAML file (conf.Load): keys not in
// the file keep c's values, and unknown keys are an error.
func LoadConfigFile(path string, c *Config) error { return conf.Load(path, c) }

// DecodeConfig decodes a config file's bytes over c (conf.Decode).
func DecodeConfig(path string, data []byte, c *Config) error { return conf.Decode(path, data, c) }
