package ckpt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/tokenizer"
)

// A checkpoint is a folder holding the policy (config.json,
// model.safetensors in float32, the tokenizer), optimizer.safetensors
// (AdamW moments "m.<param>" and "v.<param>"), StateFile, RunConfigFile
// (the configuration it was written under, whose SHA-256 StateFile pins)
// and checksums.json (the SHA-256 of every other file, checked on read).

// StateFile is a checkpoint's State.
const StateFile = "state.json"

// State is a checkpoint's state.json.
type State struct {
	Step    int    `json:"step"`    // completed training steps
	Updates int64  `json:"updates"` // applied optimizer updates (AdamW's bias-correction count)
	Seed    uint64 `json:"seed"`    // the run's seed: with Step, all its RNG state
	// ConfigSHA256 is the SHA-256 of RunConfigFile, the run's configuration
	// when the checkpoint was written (pin.go).
	ConfigSHA256 string `json:"config_sha256,omitempty"`
	// HeldOutBefore and Seconds are the warm-up's report figures a resumed
	// warm-up can no longer measure: the initial policy's held-out
	// accuracy and the training time so far.
	HeldOutBefore float64 `json:"held_out_before,omitempty"`
	Seconds       float64 `json:"seconds,omitempty"`
}

// Checkpoint is what a checkpoint folder holds.
type Checkpoint struct {
	Policy   *policy.Policy
	Mom, Vel [][]float32 // AdamW's moments, in the model's Specs order
	State    State
	// Config is the configuration the checkpoint was written under, as
	// its run saves it (ConfigBytes); nil when it has none.
	Config []byte
	// Accepted says what a Read was told to accept (ReadOptions), or "".
	Accepted string
}

// Write writes ck into dir whole: a temporary sibling folder renamed into
// place (an older dir is replaced), so a run killed at any moment leaves
// the old checkpoint or the new one. It sets State.ConfigSHA256 from
// Config, and refuses non-finite weights or moments (the update guard
// never lets them in; a checkpoint of them would be worse than none).
func Write(dir string, ck Checkpoint) error {
	dir = filepath.Clean(dir)
	parent, name := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, atomicfile.DirMode); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	m := ck.Policy.Model
	weights, specs := m.ParamData(), m.Specs()
	for i, p := range specs {
		if bad := firstNonFinite(weights[i], ck.Mom[i], ck.Vel[i]); bad != "" {
			return fmt.Errorf("checkpoint step %d: %s of %s is not finite: not saved", ck.State.Step, bad, p.Name)
		}
	}
	tmp, err := atomicfile.MkdirTemp(parent, "."+name+".tmp*")
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	st := ck.State
	if ck.Config != nil {
		sum := sha256.Sum256(ck.Config)
		st.ConfigSHA256 = hex.EncodeToString(sum[:])
		err = run.WriteFile(filepath.Join(tmp, RunConfigFile), ck.Config)
	}
	err = errors.Join(err,
		hf.SaveAs(m, tmp, "F32"), // float32 master weights: a resume continues bit for bit, whatever the folder dtype
		ck.Policy.Tok.Save(tmp),
		WriteOptimizerState(filepath.Join(tmp, OptimizerFile), specs, ck.Mom, ck.Vel),
		run.WriteJSON(filepath.Join(tmp, StateFile), st),
	)
	if err == nil {
		err = writeChecksums(tmp)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("checkpoint step %d: %w", ck.State.Step, err)
	}
	if err := policy.ReplaceDir(tmp, dir); err != nil {
		return fmt.Errorf("checkpoint step %d: %w", ck.State.Step, err)
	}
	return nil
}

// ReadOptions says how Read checks a checkpoint.
type ReadOptions struct {
	// Log receives warnings (a checkpoint an older credo wrote without
	// checksums, one accepted unverified).
	Log io.Writer
	// AcceptMissingChecksums reads a checkpoint whose checksums.json is
	// gone although its run writes one: its files cannot be verified.
	AcceptMissingChecksums bool
	// CheckState, when set, holds state.json against what the trainer
	// knows (the folder's step, its steps, updates and seed) before any
	// weight is read; its error is returned as "state.json: …".
	CheckState func(dir string, st State) error
}

// Read restores a checkpoint after checking it: its files against their
// checksums, state.json (o.CheckState), and every weight and moment for
// finiteness. A checkpoint without RunConfigFile has a nil Config.
func Read(dir string, o ReadOptions) (Checkpoint, error) {
	var ck Checkpoint
	if o.Log == nil {
		o.Log = io.Discard
	}
	var err error
	if ck.Accepted, err = checksumsPresent(dir, o.AcceptMissingChecksums, o.Log); err != nil {
		return ck, err
	}
	if err := verifyChecksums(dir, o.Log); err != nil {
		return ck, err
	}
	if err := run.ReadJSON(filepath.Join(dir, StateFile), &ck.State); err != nil {
		return ck, err
	}
	if o.CheckState != nil {
		if err := o.CheckState(dir, ck.State); err != nil {
			return ck, fmt.Errorf("%s: %w", StateFile, err)
		}
	}
	m, err := hf.Load(dir)
	if err != nil {
		return ck, err
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		return ck, err
	}
	ck.Policy = &policy.Policy{Model: m, Tok: tok}
	if ck.Mom, ck.Vel, err = ReadOptimizerState(filepath.Join(dir, OptimizerFile), m.Specs()); err != nil {
		return ck, err
	}
	weights := m.ParamData()
	for i, p := range m.Specs() {
		if bad := firstNonFinite(weights[i], ck.Mom[i], ck.Vel[i]); bad != "" {
			return ck, fmt.Errorf("%s of %s is not finite", bad, p.Name)
		}
	}
	if ck.Config, err = os.ReadFile(filepath.Join(dir, RunConfigFile)); errors.Is(err, os.ErrNotExist) {
		ck.Config, err = nil, nil
	}
	return ck, err
}

// firstNonFinite names the first array (weight, first moment, second
// moment) holding a NaN or an infinity, or "" when all are finite.
func firstNonFinite(weight, mom, vel []float32) string {
	for j, xs := range [][]float32{weight, mom, vel} {
		for _, x := range xs {
			if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
				return [...]string{"a weight", "a first moment", "a second moment"}[j]
			}
		}
	}
	return ""
}
