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

// NormMode says how the gradient source turns a step's influences into
// mean-one token weights.
type NormMode string

const (
	NormMagnitude NormMode = "magnitude" // q[t] = n_s·|I[t]| / Σ_u |I[u]| (P2T paper)
	NormSoftmax   NormMode = "softmax"   // q[t] = n_s·softmax(I/T)[t] (P2T released code)
)

// Config holds every option of every method (ALGORITHMS.md). Methods read
// only the fields they need. The trainer saves it in config.json, hence the
// json tags. Start from DefaultConfig.
type Config struct {
	// Eps is ε in every std normalization. 1e-4 as in GDPO: small enough
	// not to shrink real advantages, large enough to keep a near-constant
	// group finite.
	Eps float64 `json:"eps"`
	// Scale is GRPO's normalization (ALGORITHMS.md §1). "group" is the
	// original GRPO; "batch" and "none" (Dr. GRPO) avoid over-weighting
	// prompts whose groups barely vary. GDPO ignores it.
	Scale ScaleMode `json:"scale"`

	// Beta is β, the share of a reward's advantage that placement moves
	// (w = (1 − β) + β·q/mean q). 0.5 as in MRTPO: half the credit stays
	// uniform, so a wrong relevance can never zero a token out.
	Beta float64 `json:"beta"`
	// WarmupSteps is N: β grows linearly from 0 at step 0 to Beta at step
	// N (β_eff = β·min(1, Step/N)); 0 means no warm-up. 10 as in MRTPO, so
	// the first steps, when the relevance of a barely trained policy is
	// noise, behave like GDPO.
	WarmupSteps int `json:"warmup_steps"`
	// Kappa is κ, the cap on any token weight. After capping, the other
	// weights are scaled up so the mean stays exactly one (water-filling).
	// 4 keeps one token from taking a response's whole advantage.
	Kappa float64 `json:"kappa"`
	// Shuffle permutes each response's weights (and its stored relevance)
	// across its positions: same values, wrong places. An ablation that
	// tells whether where the credit lands matters. It applies to every
	// placement method (span, mrtpo).
	Shuffle bool `json:"shuffle"`

	// Gamma is γ, the span source's discount for the tokens before a span.
	// 0.9 as in the token-heatmap method: the credit of a span reaches
	// about ten tokens back.
	Gamma float64 `json:"gamma"`

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

	// Null is e_null, the reference embedding of the gradient source,
	// passed to the Influencer. "pad" as in P2T.
	Null NullEmbedding `json:"null"`
	// Norm is how influence becomes weights within a step. "magnitude" as
	// in the P2T paper (it beat the signed variant, 53.8 against 52.6).
	Norm NormMode `json:"norm"`
	// Temperature is T of the softmax norm. 1 as in P2T's released code.
	Temperature float64 `json:"temperature"`
	// Eta is η, the share of a step's reward that influence distributes:
	// r_tok = R_s·((1 − η) + η·q). 0.5 as in P2T (robust for 0.25 to 1).
	Eta float64 `json:"eta"`
	// Alpha is α, the weight of the token reward added to the outcome
	// advantage. 1 as in P2T.
	Alpha float64 `json:"alpha"`
	// Signed uses 2R_s − 1 instead of the step probability R_s, so wrong
	// steps are punished rather than rewarded less. Off, as in P2T.
	Signed bool `json:"signed"`

	// SAWOffsets is o[k] of SAW by reward name (missing means 0): shifts a
	// reward before its coefficient of variation, for rewards whose batch
	// mean can be 0 (signed rewards) and would otherwise have an infinite one.
	SAWOffsets map[string]float64 `json:"saw_offsets,omitempty"`
}

// DefaultConfig returns the defaults of ALGORITHMS.md.
func DefaultConfig() Config {
	return Config{
		Eps:         1e-4,
		Scale:       ScaleGroup,
		Beta:        0.5,
		WarmupSteps: 10,
		Kappa:       4,
		Gamma:       0.9,
		Null:        NullPad,
		Norm:        NormMagnitude,
		Temperature: 1,
		Eta:         0.5,
		Alpha:       1,
	}
}

// Validate reports every invalid option, each with what it must be.
func (c Config) Validate() error {
	return errors.Join(c.validateEps(), c.validateScale(), c.validatePlacement(),
		c.validateSpan(), c.validateGradient(), c.validateSAW())
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func (c Config) validateEps() error {
	if !finite(c.Eps) || c.Eps < 0 {
		return fmt.Errorf("eps must be a finite number ≥ 0, got %v", c.Eps)
	}
	return nil
}

func (c Config) validateScale() error {
	switch c.Scale {
	case ScaleGroup, ScaleBatch, ScaleNone:
		return nil
	}
	return fmt.Errorf("scale must be %q, %q or %q, got %q", ScaleGroup, ScaleBatch, ScaleNone, c.Scale)
}

func (c Config) validatePlacement() error {
	var errs []error
	if !(c.Beta >= 0 && c.Beta <= 1) {
		errs = append(errs, fmt.Errorf("beta must be in [0, 1] (weights are at least 1 − β), got %v", c.Beta))
	}
	if c.WarmupSteps < 0 {
		errs = append(errs, fmt.Errorf("warmup_steps must be ≥ 0 (0: no warm-up), got %d", c.WarmupSteps))
	}
	if !finite(c.Kappa) || c.Kappa < 1 {
		errs = append(errs, fmt.Errorf("kappa must be a finite number ≥ 1 (weights average to one), got %v", c.Kappa))
	}
	return errors.Join(errs...)
}

func (c Config) validateSpan() error {
	if !(c.Gamma >= 0 && c.Gamma <= 1) {
		return fmt.Errorf("gamma must be in [0, 1], got %v", c.Gamma)
	}
	return nil
}

func (c Config) validateGradient() error {
	var errs []error
	switch c.Null {
	case NullPad, NullMean, NullZero, NullEOS:
	default:
		errs = append(errs, fmt.Errorf("null must be %q, %q, %q or %q, got %q", NullPad, NullMean, NullZero, NullEOS, c.Null))
	}
	switch c.Norm {
	case NormMagnitude, NormSoftmax:
	default:
		errs = append(errs, fmt.Errorf("norm must be %q or %q, got %q", NormMagnitude, NormSoftmax, c.Norm))
	}
	if !finite(c.Temperature) || c.Temperature <= 0 {
		errs = append(errs, fmt.Errorf("temperature must be a finite number > 0, got %v", c.Temperature))
	}
	if !(c.Eta >= 0 && c.Eta <= 1) {
		errs = append(errs, fmt.Errorf("eta must be in [0, 1], got %v", c.Eta))
	}
	if !finite(c.Alpha) {
		errs = append(errs, fmt.Errorf("alpha must be a finite number, got %v", c.Alpha))
	}
	return errors.Join(errs...)
}

func (c Config) validateSAW() error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(c.SAWOffsets)) {
		if o := c.SAWOffsets[name]; !finite(o) {
			errs = append(errs, fmt.Errorf("saw_offsets[%q] must be finite, got %v", name, o))
		}
	}
	return errors.Join(errs...)
}

// betaAt is the warmed-up β: β·min(1, step/N), or β when N is 0.
func (c Config) betaAt(step int) float64 {
	if c.WarmupSteps <= 0 || step >= c.WarmupSteps {
		return c.Beta
	}
	return c.Beta * float64(step) / float64(c.WarmupSteps)
}
