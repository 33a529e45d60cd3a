package credit

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// ScaleMode says what GRPO divides a response's centred reward by.
type ScaleMode string

const (
	ScaleGroup ScaleMode = "group" // the group's std (GRPO)
	ScaleBatch ScaleMode = "batch" // the batch's std
	ScaleNone  ScaleMode = "none"  // nothing: subtract the group mean only (Dr. GRPO)
)

// CapMode says what the cap κ bounds (ALGORITHMS.md §2).
type CapMode string

const (
	// CapSum bounds the reallocated advantage a token receives summed over
	// rewards, |Σ_k c[k]·A[k,i]·(w[k,i,t] − 1)| ≤ (κ − 1)·max_k |c[k]·A[k,i]|
	// (the MRTPO paper's cap).
	CapSum CapMode = "sum"
	// CapReward caps each reward's weights at κ separately.
	CapReward CapMode = "reward"
)

// JSForm is the replay source's relevance from the Jensen–Shannon
// divergence of the two replays (ALGORITHMS.md §2, "replay").
type JSForm string

const (
	JSFormDivergence JSForm = "divergence" // JS/ln 2 (js.Divergence, default)
	JSFormDistance   JSForm = "distance"   // √(JS/ln 2) (js.Distance)
)

// StepReward says how P2T turns a step's PRM probability R_s into the
// step reward R̃_s its tokens share (ALGORITHMS.md §2, "gradient").
type StepReward string

const (
	StepSigned   StepReward = "signed"   // R̃ = 2R − 1 (default, P2T's released example)
	StepCentred  StepReward = "centred"  // R̃ = R − mean of R over every step of the group's responses
	StepUnsigned StepReward = "unsigned" // R̃ = R (credo's earlier default)
)

// NormMode says how the gradient source turns a step's influences into
// mean-one token weights.
type NormMode string

const (
	NormMagnitude NormMode = "magnitude" // q[t] = n_s·|I[t]| / Σ_u |I[u]| (P2T paper)
	NormSoftmax   NormMode = "softmax"   // q[t] = n_s·softmax(I/T)[t] (P2T released code)
)

// Config holds the options of every method, one struct per method
// family (ALGORITHMS.md), each validated on its own. The structs are
// embedded, so config.json's credit section is one flat object of their
// keys, and a method reads only its own: grpo and gdpo GRPOOptions, span
// PlacementOptions and SpanOptions, mrtpo PlacementOptions and
// ReplayOptions, p2t GradientOptions, saw+<method> SAWOptions besides its
// method's, and any of them ScaleOptions. Package conf reads it from
// config files. Start from DefaultConfig.
type Config struct {
	GRPOOptions
	PlacementOptions
	SpanOptions
	ReplayOptions
	ScaleOptions
	GradientOptions
	SAWOptions
}

// GRPOOptions are the group normalization's (grpo, gdpo, and the outcome
// advantage every other method starts from).
type GRPOOptions struct {
	// Eps is ε in every std normalization. 1e-4 as in GDPO: small enough
	// not to shrink real advantages, large enough to keep a near-constant
	// group finite.
	Eps float64 `json:"eps"`
	// Scale is GRPO's normalization (ALGORITHMS.md §1). "group" is the
	// original GRPO; "batch" and "none" (Dr. GRPO) avoid over-weighting
	// prompts whose groups barely vary. GDPO ignores it.
	Scale ScaleMode `json:"scale"`
}

// PlacementOptions are placement's, the share of a reward's advantage
// that relevance moves between tokens (span, mrtpo).
type PlacementOptions struct {
	// Beta is β, the share of a reward's advantage that placement moves
	// (w = (1 − β) + β·q/mean q). 0.5 as in MRTPO: half the credit stays
	// uniform, so a wrong relevance can never zero a token out.
	Beta float64 `json:"beta"`
	// SpanWarmup and ReplayWarmup are N of each relevance source: β grows
	// linearly from 0 at step 0 to Beta at step N (β_eff = β·min(1,
	// Step/N)); 0 means no warm-up. Replay's relevance is read off the
	// policy being trained, and a barely trained policy's replay is noise:
	// 10 steps as in MRTPO, which behave like GDPO at first. A verifier's
	// spans are exact from the first step (they name what it checked,
	// whatever the policy): 0. The config.json key of older runs,
	// "warmup_steps", still loads and sets both.
	SpanWarmup   int `json:"span_warmup_steps"`
	ReplayWarmup int `json:"replay_warmup_steps"`
	// Kappa is κ, the cap. 4 keeps one token from taking a response's whole
	// advantage.
	Kappa float64 `json:"kappa"`
	// Cap is what κ bounds. "sum" (default, the MRTPO paper's form: the cap
	// "limits how much reallocated advantage a token can receive when
	// several rewards concentrate there"): a token's reallocated advantage
	// summed over rewards, |Σ_k c[k]·A[k,i]·(w[k,i,t] − 1)|, is at most
	// (κ − 1)·max_k |c[k]·A[k,i]|, what one reward's weight of κ could give
	// it; the excess is spread over the response's other tokens by a uniform
	// shift. "reward" (credo's earlier form): each reward's weights are
	// capped at κ separately and the others scaled up (water-filling), so
	// K rewards concentrating on one token can give it K times as much.
	// Both keep the response's mean.
	Cap CapMode `json:"cap"`
	// Shuffle permutes each response's weights (and its stored relevance)
	// across its positions: same values, wrong places. An ablation that
	// tells whether where the credit lands matters. It applies to every
	// placement method (span, mrtpo).
	Shuffle bool `json:"shuffle"`
}

// SpanOptions are the span source's (span).
type SpanOptions struct {
	// Gamma is γ, the span source's discount for the tokens before a span.
	// 0.9 as in the token-heatmap method: the credit of a span reaches
	// about ten tokens back.
	Gamma float64 `json:"gamma"`
	// WrongSpans places each reward on another reward's spans (the span
	// source's control, method "span+wrong"): the next reward in reward
	// order that applies to the response, cyclically; uniform when there
	// is none. If span beats span+wrong, the verifiers' spans are where
	// the credit belongs, not merely somewhere concentrated.
	WrongSpans bool `json:"wrong_spans,omitempty"`
}

// ReplayOptions are the replay source's (mrtpo).
type ReplayOptions struct {
	// JS is the replay source's relevance: "divergence" JS/ln 2 (default:
	// what credo has always computed, so earlier results stay comparable)
	// or "distance" √(JS/ln 2), the paper's wording ("Jensen–Shannon
	// distance, normalized by ln 2 into [0, 1]"). The square root flattens
	// relevance: the same replay concentrates less (ExampleConfig_jsForm
	// prints both on one batch; credit/concentration logs it in training).
	JS JSForm `json:"js"`
	// Joint replaces each reward's "without k" replay by one "without all
	// blocks" replay shared by every reward: an ablation that tells
	// whether separating the rewards matters.
	Joint bool `json:"joint"`
	// Placebo discounts generic prompt sensitivity (an extension, not in
	// MRTPO): each token's replay JS loses the JS that adding the neutral
	// PlaceboBlock to the full prompt causes there, floored at 0, so only
	// what block k moves beyond any added text counts. One more replay per
	// response. Off, as in MRTPO.
	Placebo bool `json:"placebo"`
	// Neutral replaces block k by neutral text of the same length
	// (NeutralBlock) instead of removing it (variant "neutral", the
	// equal-length control): the response then starts at the same
	// position in both replays, so what is left of q is the block's
	// information, not its length.
	Neutral bool `json:"neutral,omitempty"`
}

// ScaleOptions say how every method's advantages are scaled.
type ScaleOptions struct {
	// ScaleTo gives every method the same step size: "grpo" rescales a
	// batch's token advantages so their mean |A| over response tokens is
	// GRPO's on the same batch (GRPO itself is unchanged); "" (default)
	// leaves them raw. Placement does not change a response's mean
	// advantage but does change mean |A|, and GDPO's batch normalization
	// makes it 1.5–2× GRPO's when few groups vary: comparisons set "grpo"
	// so the methods race at one step size, and the report says so.
	ScaleTo string `json:"scale_to,omitempty"`
}

// GradientOptions are the gradient source's (p2t).
type GradientOptions struct {
	// Null is e_null, the reference embedding of the gradient source,
	// passed to the Influencer. "pad" as in P2T.
	Null NullEmbedding `json:"null"`
	// Target is the step scalar the gradient source differentiates,
	// passed to the Influencer: "logit" (also empty, the default: the
	// logit difference z₁ − z₀, as P2T's released code), "prob" (the step
	// probability R_s, as the P2T paper writes ∂R/∂e; it saturates where
	// the PRM is sure) or "logprob" (log R_s).
	Target InfluenceTarget `json:"influence_target,omitempty"`
	// Carry is how the Influencer moves influence from its tokens to the
	// policy's: "sum" (also empty, the default) or "mean" (P2T's released
	// code). The two agree when the PRM and the policy share a tokenizer.
	Carry InfluenceCarry `json:"influence_carry,omitempty"`
	// Norm is how influence becomes weights within a step. "magnitude" as
	// in the P2T paper (it beat the signed variant, 53.8 against 52.6).
	Norm NormMode `json:"norm"`
	// Temperature is T of the softmax norm. 1 as in P2T's released code.
	Temperature float64 `json:"temperature"`
	// Eta is η, the share of a step's reward that influence distributes:
	// r_tok = R_s·((1 − η) + η·q). 0.5 as in P2T (robust for 0.25 to 1).
	Eta float64 `json:"eta"`
	// Alpha is α, the weight of the token reward added to the outcome
	// advantage. 0.1 as in P2T's released example. A_outcome is normalized
	// within the group (spread 1 where the outcome varies), and a token's
	// r_tok is about R̃_s, at most 1 in size: with α = 1 the PRM's opinion
	// would weigh as much as the verified outcome and overturn its sign
	// where they disagree; with 0.1 it re-ranks a response's tokens while
	// the outcome decides the direction, and where the outcome does not vary
	// (A_outcome = 0) it moves the policy at a tenth of the outcome's step.
	Alpha float64 `json:"alpha"`
	// StepReward is how a step's PRM probability R_s becomes the reward its
	// tokens share. "signed" (default, P2T's released example), 2R_s − 1:
	// a step the PRM doubts is pushed down, one it trusts up, so a group
	// whose outcome does not vary is not simply reinforced as sampled.
	// "centred": R_s minus the mean R over every step of the group's
	// responses, a baseline from the same group. "unsigned": R_s itself,
	// never negative (credo's earlier default).
	StepReward StepReward `json:"step_reward"`
}

// SAWOptions are SAW's (saw+<method>).
type SAWOptions struct {
	// SAWOffsets is o[k] of SAW by reward name (missing means 0): shifts a
	// reward before its coefficient of variation, for rewards whose batch
	// mean can be 0 (signed rewards) and would otherwise have an infinite one.
	SAWOffsets map[string]float64 `json:"saw_offsets,omitempty"`
}

// DefaultConfig returns the defaults of ALGORITHMS.md.
func DefaultConfig() Config {
	return Config{
		GRPOOptions:      GRPOOptions{Eps: 1e-4, Scale: ScaleGroup},
		PlacementOptions: PlacementOptions{Beta: 0.5, SpanWarmup: 0, ReplayWarmup: 10, Kappa: 4, Cap: CapSum},
		SpanOptions:      SpanOptions{Gamma: 0.9},
		ReplayOptions:    ReplayOptions{JS: JSFormDivergence},
		GradientOptions: GradientOptions{Null: NullPad, Norm: NormMagnitude, Temperature: 1, Eta: 0.5, Alpha: 0.1,
			StepReward: StepSigned},
	}
}

// Validate reports every invalid option, each with what it must be.
func (c Config) Validate() error {
	return errors.Join(c.GRPOOptions.validateEps(), c.GRPOOptions.validateScale(), c.PlacementOptions.Validate(),
		c.SpanOptions.Validate(), c.ReplayOptions.Validate(), c.GradientOptions.Validate(), c.SAWOptions.Validate(), c.ScaleOptions.Validate())
}

// Validate reports every invalid option of the group normalization.
func (c GRPOOptions) Validate() error { return errors.Join(c.validateEps(), c.validateScale()) }

// Validate reports an invalid scale_to.
func (c ScaleOptions) Validate() error {
	switch c.ScaleTo {
	case "", ScaleToRaw, ScaleToGRPO:
		return nil
	}
	return bad("scale_to", "must be %q or %q (or empty: raw advantages), got %q", ScaleToGRPO, ScaleToRaw, c.ScaleTo)
}

// An OptionError is one invalid option of Config, named by its config.json
// key (Key "beta", Msg "must be in [0, 1] …"): a caller that names options
// otherwise (a flag, a nested key) finds it with errors.As.
type OptionError struct {
	Key string
	Msg string
}

func (e *OptionError) Error() string { return e.Key + " " + e.Msg }

// bad is an OptionError for key.
func bad(key, format string, args ...any) error {
	return &OptionError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func (c GRPOOptions) validateEps() error {
	if !finite(c.Eps) || c.Eps < 0 {
		return bad("eps", "must be a finite number ≥ 0, got %v", c.Eps)
	}
	return nil
}

func (c GRPOOptions) validateScale() error {
	switch c.Scale {
	case ScaleGroup, ScaleBatch, ScaleNone:
		return nil
	}
	return bad("scale", "must be %q, %q or %q, got %q", ScaleGroup, ScaleBatch, ScaleNone, c.Scale)
}

// Validate reports every invalid placement option.
func (c PlacementOptions) Validate() error {
	var errs []error
	if !(c.Beta >= 0 && c.Beta <= 1) {
		errs = append(errs, bad("beta", "must be in [0, 1] (weights are at least 1 − β), got %v", c.Beta))
	}
	if c.SpanWarmup < 0 {
		errs = append(errs, bad("span_warmup_steps", "must be ≥ 0 (0: no warm-up), got %d", c.SpanWarmup))
	}
	if c.ReplayWarmup < 0 {
		errs = append(errs, bad("replay_warmup_steps", "must be ≥ 0 (0: no warm-up), got %d", c.ReplayWarmup))
	}
	if !finite(c.Kappa) || c.Kappa < 1 {
		errs = append(errs, bad("kappa", "must be a finite number ≥ 1 (weights average to one), got %v", c.Kappa))
	}
	if c.Cap != CapSum && c.Cap != CapReward {
		errs = append(errs, bad("cap", "must be %q (the reallocation summed over rewards) or %q (each reward's weights), got %q", CapSum, CapReward, c.Cap))
	}
	return errors.Join(errs...)
}

// Validate reports an invalid replay option.
func (c ReplayOptions) Validate() error {
	if c.JS != JSFormDivergence && c.JS != JSFormDistance {
		return bad("js", "must be %q (JS/ln 2) or %q (its square root), got %q", JSFormDivergence, JSFormDistance, c.JS)
	}
	return nil
}

// Validate reports an invalid span option.
func (c SpanOptions) Validate() error {
	if !(c.Gamma >= 0 && c.Gamma <= 1) {
		return bad("gamma", "must be in [0, 1], got %v", c.Gamma)
	}
	return nil
}

// Validate reports every invalid gradient option.
func (c GradientOptions) Validate() error {
	var errs []error
	switch c.Null {
	case NullPad, NullMean, NullZero, NullEOS:
	default:
		errs = append(errs, bad("null", "must be %q, %q, %q or %q, got %q", NullPad, NullMean, NullZero, NullEOS, c.Null))
	}
	switch c.Norm {
	case NormMagnitude, NormSoftmax:
	default:
		errs = append(errs, bad("norm", "must be %q or %q, got %q", NormMagnitude, NormSoftmax, c.Norm))
	}
	if !finite(c.Temperature) || c.Temperature <= 0 {
		errs = append(errs, bad("temperature", "must be a finite number > 0, got %v", c.Temperature))
	}
	if !(c.Eta >= 0 && c.Eta <= 1) {
		errs = append(errs, bad("eta", "must be in [0, 1], got %v", c.Eta))
	}
	if !finite(c.Alpha) {
		errs = append(errs, bad("alpha", "must be a finite number, got %v", c.Alpha))
	}
	switch c.Target {
	case "", TargetLogit, TargetProb, TargetLogProb:
	default:
		errs = append(errs, fmt.Errorf("influence_target must be %q (z₁ − z₀), %q (R) or %q (log R), got %q", TargetLogit, TargetProb, TargetLogProb, c.Target))
	}
	switch c.Carry {
	case "", CarrySum, CarryMean:
	default:
		errs = append(errs, fmt.Errorf("influence_carry must be %q or %q, got %q", CarrySum, CarryMean, c.Carry))
	}
	switch c.StepReward {
	case StepSigned, StepCentred, StepUnsigned:
	default:
		errs = append(errs, bad("step_reward", "must be %q (2R − 1), %q (R minus the group's mean) or %q (R), got %q", StepSigned, StepCentred, StepUnsigned, c.StepReward))
	}
	return errors.Join(errs...)
}

// Validate reports every non-finite SAW offset.
func (c SAWOptions) Validate() error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(c.SAWOffsets)) {
		if o := c.SAWOffsets[name]; !finite(o) {
			errs = append(errs, bad(fmt.Sprintf("saw_offsets[%q]", name), "must be finite, got %v", o))
		}
	}
	return errors.Join(errs...)
}

// betaAt is the warmed-up β of a source with warm-up N: β·min(1, step/N),
// or β when N is 0.
func (c PlacementOptions) betaAt(step, n int) float64 {
	if n <= 0 || step >= n {
		return c.Beta
	}
	return c.Beta * float64(step) / float64(n)
}
