package optim

import (
	"fmt"
	"strings"

	"github.com/credo-rl/credo/model"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
)

// Field names one per-token input of an objective; an objective declares
// the set it reads with Objective.Inputs.
type Field uint8

// The per-token inputs an objective can read.
const (
	FieldMask      Field = 1 << iota // TokenInputs.Mask
	FieldAdvantage                   // TokenInputs.Advantage
	FieldOldLogP                     // TokenInputs.OldLogP
	FieldRefLogP                     // TokenInputs.RefLogP
	FieldLabel                       // TokenInputs.Label
)

var fieldNames = []string{"mask", "advantage", "old log-prob", "reference log-prob", "label"}

// String lists the fields of a set, for error messages.
func (f Field) String() string {
	var names []string
	for i, n := range fieldNames {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// TokenInputs are an objective's per-token inputs, by name. Each is
// [sequence][token]: one value per target token (len(seq) − 1) for a
// language model, one per token for a scoring model. An objective reads
// the fields its Inputs declares; the others stay nil.
type TokenInputs struct {
	// Mask weighs each token in the loss: 1 for a token that counts, 0
	// for one that does not (a prompt token, padding). Every objective
	// reads it; a scoring objective may use fractional weights.
	Mask [][]float32
	// Advantage is the token's advantage A (policy gradient).
	Advantage [][]float32
	// OldLogP is log π_old of the target, the sampler's log-probability.
	OldLogP [][]float32
	// RefLogP is log π_ref of the target, under the KL reference policy.
	RefLogP [][]float32
	// Label is a scoring head's target y ∈ {0, 1}.
	Label [][]float32
}

// fields lists the inputs with their Field, in one fixed order: the only
// place that relates a field to a position (host arrays ↔ graph inputs).
func (in *TokenInputs) fields() []*[][]float32 {
	return []*[][]float32{&in.Mask, &in.Advantage, &in.OldLogP, &in.RefLogP, &in.Label}
}

// Present is the set of non-nil fields.
func (in TokenInputs) Present() Field {
	var f Field
	for i, p := range in.fields() {
		if *p != nil {
			f |= 1 << i
		}
	}
	return f
}

// rows returns the inputs of sequences [lo, hi).
func (in TokenInputs) rows(lo, hi int) TokenInputs {
	var out TokenInputs
	dst := out.fields()
	for i, p := range in.fields() {
		if *p != nil {
			*dst[i] = (*p)[lo:hi]
		}
	}
	return out
}

// TokenNodes are TokenInputs inside a graph, each [B, T'] (nil when the
// objective does not read it), with totals over the whole batch of the
// update. A batch split into micro-batches gives each micro-batch its own
// rows but the whole batch's totals, so losses and metrics written as
// sums divided by totals add up over micro-batches to the whole batch's.
type TokenNodes struct {
	Mask, Advantage, OldLogP, RefLogP, Label *Node
	// Tokens is Σ Mask over the whole batch (a scalar).
	Tokens *Node
	// Sequences is the number of the batch's rows with some Mask > 0.
	Sequences *Node
	// Rows is the number of rows B of the whole batch.
	Rows *Node
}

// batchTotals are TokenNodes' totals computed on the host.
type batchTotals struct{ tokens, sequences, rows float32 }

func totalsOf(mask [][]float32) batchTotals {
	t := batchTotals{rows: float32(len(mask))}
	for _, row := range mask {
		s := float32(0)
		for _, x := range row {
			s += x
		}
		t.tokens += s
		if s > 0 {
			t.sequences++
		}
	}
	return t
}

// checkInputs verifies that in holds exactly the fields want names, each
// with one row per sequence of the right length (len(seq) − shift).
func checkInputs(seqs [][]int32, in TokenInputs, want Field, shift int) error {
	if got := in.Present(); got != want {
		return fmt.Errorf("the objective reads %s; got %s", want, got)
	}
	for j, p := range in.fields() {
		arr := *p
		if arr == nil {
			continue
		}
		if len(arr) != len(seqs) {
			return fmt.Errorf("input %s has %d rows for %d sequences", fieldNames[j], len(arr), len(seqs))
		}
		for i, row := range arr {
			if len(row) != max(len(seqs[i])-shift, 0) {
				return fmt.Errorf("input %s row %d has %d values for %d tokens", fieldNames[j], i, len(row), len(seqs[i])-shift)
			}
		}
	}
	return nil
}

// targetWindow is the window of target positions a language model's
// objective is computed at: the W positions of each row from from[i] on
// cover every target its mask weighs, W is the longest such span rounded
// up by model.RowBucket (a bounded number of graph shapes) and at most
// full, the T − 1 targets of the padded batch, and from[i] + W ≤ full. A
// row with no weighted target starts at 0. The head's logits and softmax
// run only in the window, so a policy loss (which masks the prompt) does
// not pay for the prompt's [T, V] logits.
func targetWindow(mask [][]float32, full int) (from []int32, width int) {
	first := make([]int, len(mask))
	span := 1
	for i, row := range mask {
		lo, hi := -1, -1
		for t, x := range row {
			if x != 0 {
				if lo < 0 {
					lo = t
				}
				hi = t
			}
		}
		if lo >= 0 {
			first[i] = lo
			span = max(span, hi-lo+1)
		}
	}
	width = min(model.RowBucket(span), full)
	from = make([]int32, len(mask))
	for i, f := range first {
		from[i] = int32(min(f, full-width))
	}
	return from, width
}

// window returns the present fields' values at the width positions of
// each row i from from[i] on (shorter where a row ends first).
func (in TokenInputs) window(from []int32, width int) TokenInputs {
	var out TokenInputs
	dst := out.fields()
	for j, p := range in.fields() {
		if *p == nil {
			continue
		}
		rows := make([][]float32, len(*p))
		for i, row := range *p {
			lo := min(int(from[i]), len(row))
			rows[i] = row[lo:min(lo+width, len(row))]
		}
		*dst[j] = rows
	}
	return out
}

// packInputs right-pads the present fields to [B, width], in fields order.
func packInputs(in TokenInputs, width int) [][][]float32 {
	var out [][][]float32
	for _, p := range in.fields() {
		if *p == nil {
			continue
		}
		rows := make([][]float32, len(*p))
		for i, row := range *p {
			rows[i] = make([]float32, width)
			copy(rows[i], row)
		}
		out = append(out, rows)
	}
	return out
}

// bindInputs names the graph inputs packInputs laid out for the fields in
// present, followed by the three totals.
func bindInputs(present Field, nodes []*Node) TokenNodes {
	var tn TokenNodes
	dst := []**Node{&tn.Mask, &tn.Advantage, &tn.OldLogP, &tn.RefLogP, &tn.Label}
	k := 0
	for i := range dst {
		if present&(1<<i) != 0 {
			*dst[i] = nodes[k]
			k++
		}
	}
	tn.Tokens, tn.Sequences, tn.Rows = nodes[k], nodes[k+1], nodes[k+2]
	return tn
}
