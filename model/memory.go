package model

import "fmt"

// Memory bounds what one training step holds at once. A step over B
// sequences is split into micro-batches of MicroBatch sequences (or, when
// MicroBatch is 0, of as many as StepBytes estimates fit in Budget); their
// gradients are summed before the one update. The zero value runs every
// batch whole.
type Memory struct {
	// Budget is the bytes a step's activations may take (0: no limit).
	Budget int64
	// MicroBatch is the number of sequences per micro-batch; it overrides
	// Budget when positive.
	MicroBatch int
}

// Validate rejects negative settings.
func (m Memory) Validate() error {
	if m.Budget < 0 || m.MicroBatch < 0 {
		return fmt.Errorf("memory: budget %d and micro-batch %d must not be negative", m.Budget, m.MicroBatch)
	}
	return nil
}

// SetMemory sets how later steps split their batches.
func (t *Trainer) SetMemory(m Memory) error {
	if err := m.Validate(); err != nil {
		return err
	}
	t.mem = m
	return nil
}

// StepBytes estimates the bytes of activations a training step keeps per
// sequence of T tokens (forward values kept for the backward pass and the
// backward's own), as
//
//	4·T·(k_V·V + L·(k_D·D + k_F·F + k_A·H·T))
//
// with V the vocabulary, L layers, D the width, F the MLP width and H the
// heads: [T, V] tables (logits, log-softmax, probabilities, their
// gradients), [T, D] and [T, F] tables per layer, and [H, T, T]
// attention tables per layer. The constants k were fitted to the peak
// resident memory scripts/memory.sh measures, rounded up.
func (c Config) StepBytes(T int) int64 {
	const kV, kD, kF, kA = 8, 24, 8, 6
	V, L, D, F, H := int64(c.VocabSize), int64(c.NumHiddenLayers), int64(c.HiddenSize), int64(c.IntermediateSize), int64(c.NumAttentionHeads)
	t := int64(T)
	return 4 * t * (kV*V + L*(kD*D+kF*F+kA*H*t))
}

// microRows is the number of sequences per micro-batch for this batch:
// the override, or as many as fit the budget at the batch's padded length
// (at least one), or the whole batch.
func (t *Trainer) microRows(seqs [][]int32) int {
	switch {
	case t.mem.MicroBatch > 0:
		return t.mem.MicroBatch
	case t.mem.Budget == 0:
		return len(seqs)
	}
	T := 0
	for _, s := range seqs {
		T = max(T, len(s))
	}
	per := t.m.Config.StepBytes(bucket(T))
	return int(max(t.mem.Budget/max(per, 1), 1))
}
