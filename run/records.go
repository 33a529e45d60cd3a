package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/credo-rl/credo/reward"
)

// These record types are the run files' one schema: rl writes them and
// report reads them, so a field added here reaches both.

// The files of a run directory and of a comparison folder.
const (
	ConfigFile   = "config.json"   // a run's settings (rl.Config); Info is the part every reader needs
	MetricsFile  = "metrics.jsonl" // one Metrics line per step
	SamplesFile  = "samples.jsonl" // a few Sample lines per step
	ManifestFile = "compare.json"  // a comparison's Manifest
	WarmupFile   = "warmup.json"   // a WarmupRecord beside a warmed-up checkpoint
	// CalibrationFile is a comparison's Calibration: where its warm-up starts.
	CalibrationFile = "calibration.json"
	// EvalsFile has one EvalRecord line per evaluation of a run.
	EvalsFile = "evals.jsonl"
)

// MaxStep bounds the step numbers a metrics file may use, so a damaged
// line cannot make a reader allocate without limit.
const MaxStep = 1 << 20

// Metric keys that rl writes and report reads. Keys are namespaced
// (DESIGN.md lists them); credit's own keys (credit/…) are credit's.
const (
	KeyStep           = "step"            // 0-based, an integer
	KeyResponseLength = "response/length" // mean response tokens
	KeyTimeStep       = "time/step"       // seconds for the whole step
	KeyCreditOverhead = "credit/overhead" // time/credit ÷ time/step
	// KeyAbsAdvantage is the batch's mean |A| over response tokens: the
	// step size a method trains at.
	KeyAbsAdvantage = "adv/abs_mean"
	// TotalReward is the reward name under which Σ_k c_k·mean_k is
	// logged (RewardKey(TotalReward, "mean")); it names no verifier.
	TotalReward = "total"
)

// RewardKey is the key of a reward's statistic stat (mean, std,
// zero_var): "reward/<name>/<stat>".
func RewardKey(name, stat string) string { return "reward/" + name + "/" + stat }

// ParseRewardKey splits a RewardKey into the reward's name and the
// statistic; ok is false for any other key.
func ParseRewardKey(key string) (name, stat string, ok bool) {
	rest, ok := strings.CutPrefix(key, "reward/")
	if !ok {
		return "", "", false
	}
	i := strings.LastIndexByte(rest, '/')
	if i < 0 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}

// EvalKey is the key of a reward's test-split mean, greedy or sampled:
// "eval/<mode>/<name>".
func EvalKey(mode, name string) string { return "eval/" + mode + "/" + name }

// Metrics is one line of metrics.jsonl: a step's numeric values by key,
// KeyStep among them. A value JSON cannot hold (NaN, ±Inf) is written as
// null, and null or a value that is not a number reads back as absent, so
// a reader sees the gap.
type Metrics map[string]float64

// Step is the line's step number.
func (m Metrics) Step() int { return int(m[KeyStep]) }

// MarshalJSON writes the values with NaN and ±Inf as null.
func (m Metrics) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out[k] = nil
		} else {
			out[k] = v
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a line: a JSON object with an integer "step" in
// [0, MaxStep); its numeric values are kept.
func (m *Metrics) UnmarshalJSON(data []byte) error {
	if d := bytes.TrimSpace(data); len(d) == 0 || d[0] != '{' {
		return errors.New("want a JSON object")
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	sv, ok := raw[KeyStep].(float64)
	if !ok {
		return fmt.Errorf(`no numeric %q`, KeyStep)
	}
	if sv < 0 || sv >= MaxStep || sv != math.Trunc(sv) {
		return fmt.Errorf("step %v: want an integer in [0, %d)", sv, MaxStep)
	}
	out := make(Metrics, len(raw))
	for k, v := range raw {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	*m = out
	return nil
}

// Sample is one logged rollout, one line of samples.jsonl: enough to
// render the response token by token with each reward's relevance and the
// final advantage (the report's heatmaps).
type Sample struct {
	Step     int      `json:"step"`
	Index    int      `json:"index"` // the response's index in its batch
	Prompt   string   `json:"prompt"`
	Response string   `json:"response"`
	Tokens   []string `json:"tokens"`  // each token's text
	Offsets  [][2]int `json:"offsets"` // each token's byte range in Response
	// Advantages are the final token advantages A[i,t] (absent when one
	// was not finite); Advantage the response-level value they average to.
	Advantages []float64            `json:"advantages"`
	Advantage  float64              `json:"advantage"`
	Relevance  map[string][]float64 `json:"relevance,omitempty"` // q per reward, where computed
	Verdicts   []Verdict            `json:"verdicts"`
}

// EvalRecord is one evaluation of a run, one line of evals.jsonl: each
// reward's greedy score on each test prompt, in prompt order (null where
// the reward does not apply to the prompt), so that a reader can follow a
// prompt from one evaluation to the next (retention: a reward that passed
// there and fails later).
type EvalRecord struct {
	Step   int                   `json:"step"` // completed training steps
	Greedy map[string][]*float64 `json:"greedy"`
}

// Verdict is one reward's verdict on a logged rollout.
type Verdict struct {
	Reward string        `json:"reward"`
	Score  float64       `json:"score"`
	Info   string        `json:"info,omitempty"`
	Spans  []reward.Span `json:"spans,omitempty"`
	Reason string        `json:"reason,omitempty"`
	Skip   bool          `json:"skip,omitempty"`
}

// Info is the part of a run's config.json (rl.Config) that names the run;
// rl's tests keep these keys in step with its Config.
type Info struct {
	Task   string `json:"task"`
	Method string `json:"method"`
	Steps  int    `json:"steps"` // configured steps
	Seed   uint64 `json:"seed"`
}

// Manifest is compare.json: a comparison of credit methods over seeds,
// every run trained from one warm-up with the same prompts.
type Manifest struct {
	Task      string   `json:"task"`
	Methods   []string `json:"methods"`
	Seeds     []uint64 `json:"seeds"`
	Steps     int      `json:"steps"`
	Threshold float64  `json:"threshold"` // the reward whose moving mean counts as reached
	Window    int      `json:"window"`    // the moving mean's window, in steps
	// Warmup is the warm-up checkpoint every run starts from: relative to
	// the comparison folder when the comparison made it, else absolute.
	Warmup string `json:"warmup"`
	// Warmups are the warm-ups of a comparison that makes several (one per
	// warm-up seed, each run pairing with the runs of the same warm-up and
	// seed); nil when it has one, named by Warmup.
	Warmups []ManifestWarmup `json:"warmups,omitempty"`
	Runs    []ManifestRun    `json:"runs"`
	// Baselines are the methods every other one is measured against, in
	// the table's column order; the last is the reference of the final
	// evaluation's difference. A compare.json written before the field
	// existed compared with grpo and gdpo (BaselineMethods).
	Baselines []string `json:"baselines,omitempty"`
	// Train is every run's training configuration (rl.Config without the
	// method, seed, init and out each run sets), and WarmupConfig the
	// warm-up's (rl.WarmupConfig) when the comparison made it: a compare
	// into this folder with other settings is refused by what differs.
	Train        json.RawMessage `json:"train,omitempty"`
	WarmupConfig json.RawMessage `json:"warmup_config,omitempty"`
	// Headline is which rewards a run's headline figure averages, fixed
	// before the runs: HeadlineShared ("", the rewards every warm-up's
	// calibration counts) or HeadlineOwn (the rewards its own warm-up's
	// calibration counts).
	Headline string `json:"headline,omitempty"`
	// Gate, when set, uses only the warm-ups whose calibration it passes
	// (Gate.Why): no run trains from the others, and the report leaves
	// them out. Fixed before the runs, like Headline.
	Gate Gate `json:"min_localization,omitempty"`
}

// The rules a comparison's headline figure is averaged by
// (Manifest.Headline). Shared judges every warm-up on the same rewards,
// and so judges nothing when the warm-ups count none in common; own
// judges each warm-up on what it left to learn, at the price of
// averaging different rewards on different warm-ups.
const (
	HeadlineShared = "shared"
	HeadlineOwn    = "own"
)

// BaselineMethods is m.Baselines, or grpo and gdpo, the baselines of every
// comparison made before compare.json named its own.
func (m Manifest) BaselineMethods() []string {
	if len(m.Baselines) > 0 {
		return m.Baselines
	}
	return []string{"grpo", "gdpo"}
}

// ManifestRun names one run of a comparison.
type ManifestRun struct {
	Method string `json:"method"`
	Seed   uint64 `json:"seed"`
	// Warmup is the index (1 …) of the warm-up the run starts from among
	// Manifest.Warmups; 0 when the comparison has one.
	Warmup int    `json:"warmup,omitempty"`
	Dir    string `json:"dir"` // relative to the comparison folder
}

// ManifestWarmup is one warm-up of a comparison that makes several.
type ManifestWarmup struct {
	Index int    `json:"index"` // 1 …, as ManifestRun.Warmup names it
	Dir   string `json:"dir"`   // relative to the comparison folder
	Seed  uint64 `json:"seed"`  // the warm-up's seed
}

// WarmupRecord is warmup.json, beside a warmed-up checkpoint: the settings
// it was trained with and what it reached (rl's WarmupConfig and
// WarmupReport, which this package cannot name).
type WarmupRecord[C, R any] struct {
	Config C `json:"config"`
	Report R `json:"report"`
}

// Calibration is calibration.json: where a warmed-up policy starts on a
// task, reward by reward, from groups sampled as training samples them,
// and its greedy evaluation on the test prompts the runs are evaluated on.
// A comparison judges methods only on the rewards it counts.
type Calibration struct {
	Task       string        `json:"task"`
	Difficulty string        `json:"difficulty,omitempty"`
	Prompts    int           `json:"prompts"` // candidate training prompts, from index 0
	Group      int           `json:"group"`   // responses per prompt
	MaxZeroVar float64       `json:"max_zero_var"`
	Saturated  float64       `json:"saturated"`
	Rewards    []RewardStart `json:"rewards"`
	// Eval is the warm-up's greedy mean of each reward on the first
	// EvalPrompts test prompts: the runs' final evaluation starts here.
	Eval        map[string]float64 `json:"eval,omitempty"`
	EvalPrompts int                `json:"eval_prompts,omitempty"`
	// Localized are the credit methods whose localization at the start
	// each RewardStart.Localization holds (a comparison's Gate asks for
	// them).
	Localized []string `json:"localized,omitempty"`
}

// RewardStart is one reward's starting point.
type RewardStart struct {
	Reward string `json:"reward"`
	// Pass is the mean score over the responses the reward applies to.
	Pass float64 `json:"pass"`
	// ZeroVar is the share of groups (among those the reward applies to)
	// in which every response scored the same: credit has nothing to place.
	ZeroVar float64 `json:"zero_var"`
	Groups  int     `json:"groups"` // groups the reward applies to
	// Counted says whether a comparison judges methods on this reward; Why
	// says why not.
	Counted bool   `json:"counted"`
	Why     string `json:"why,omitempty"`
	// Over the failed verdicts that quote some but not all of their
	// response (Blamed of them): the quoted tokens' mean share of the
	// response (BlamedTokens) and of a uniform advantage's logit update
	// (BlamedUniform, lab.Focus's Share(g)). Near 1, GDPO's update already
	// lands where span's would, and placing the credit can add little.
	Blamed        int     `json:"blamed,omitempty"`
	BlamedTokens  float64 `json:"blamed_tokens,omitempty"`
	BlamedUniform float64 `json:"blamed_uniform,omitempty"`
	// Localization is, per credit method of Calibration.Localized, the
	// reward's credit/localization (relevance on its verdicts' checked
	// tokens relative to uniform; 1: none) over the calibration's samples,
	// as the method would place at the first step: the mean over batches
	// of 8 prompts, as a run's is the mean over its steps. A method is
	// absent where the reward varied in no group.
	Localization map[string]float64 `json:"localization,omitempty"`
}

// Counted lists the rewards a comparison judges methods on.
func (c Calibration) Counted() []string {
	var out []string
	for _, r := range c.Rewards {
		if r.Counted {
			out = append(out, r.Reward)
		}
	}
	return out
}

// Start is a reward's starting pass rate, and whether it was calibrated.
func (c Calibration) Start(reward string) (float64, bool) {
	for _, r := range c.Rewards {
		if r.Reward == reward {
			return r.Pass, true
		}
	}
	return 0, false
}
