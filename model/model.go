package model

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // the pure-Go backend: no C libraries to install (xla: backend_xla.go)
	. "github.com/gomlx/gomlx/core/graph"  //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// Model is a transformer's configuration and weights on a backend, with
// the batched forward functions the rest of credo needs. A Model is not
// safe for concurrent use: the training loop owns it.
type Model struct {
	Config  Config
	backend compute.Backend
	info    BackendInfo
	specs   []ParamSpec
	params  []*tensors.Tensor // in specs order
	dtypes  []string          // each weight's storage dtype ("F32", "BF16", "F16"), in specs order

	mu     sync.Mutex // one weight move to the device at a time (onDevice)
	graphs *Graphs    // compiled graphs by purpose

	rowBuckets bool // pad forward calls' rows to RowBucket counts (rowBucket): on XLA
}

// New creates a model with fresh weights drawn from seed. They are stored
// (saved) in c.TorchDtype, float32 when empty. It runs on the backend
// opts name, else on CREDO_BACKEND's (BackendEnv).
func New(c Config, seed uint64, opts ...Option) (*Model, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return FromWeights(c, initParams(c, seed), nil, opts...)
}

// FromWeights builds a model of config c from given weights, data[i] being
// the values of c.Params()[i] (row-major), and each weight's storage dtype
// ("F32", "BF16" or "F16") in the same order; nil dtypes store every weight
// in c.TorchDtype. hf.Load builds the models it reads with it. It runs on
// the backend opts name, else on CREDO_BACKEND's (BackendEnv).
func FromWeights(c Config, data [][]float32, dtypes []string, opts ...Option) (*Model, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	c = c.Normalized()
	st, err := StorageDType(c.TorchDtype)
	if err != nil {
		return nil, err
	}
	specs := c.Params()
	if len(data) != len(specs) || dtypes != nil && len(dtypes) != len(specs) {
		return nil, fmt.Errorf("model weights: %d tensors and %d dtypes for %d parameters", len(data), len(dtypes), len(specs))
	}
	backend, info, err := openFor(opts)
	if err != nil {
		return nil, fmt.Errorf("start compute backend: %w", err)
	}
	m := &Model{Config: c, backend: backend, info: info, specs: specs, graphs: NewGraphs(0), dtypes: slices.Clone(dtypes),
		rowBuckets: info.Name != "go"}
	if m.dtypes == nil {
		m.dtypes = make([]string, len(m.specs))
		for i := range m.dtypes {
			m.dtypes[i] = st
		}
	}
	for i, p := range m.specs {
		if _, ok := TorchDType(m.dtypes[i]); !ok {
			return nil, fmt.Errorf("tensor %s: storage dtype %q is not supported (want F32, BF16 or F16)", p.Name, m.dtypes[i])
		}
		if len(data[i]) != p.Size() {
			return nil, fmt.Errorf("tensor %s: %d values for shape %v", p.Name, len(data[i]), p.Shape)
		}
		m.params = append(m.params, tensors.FromFlatDataAndDimensions(data[i], p.Shape...))
	}
	return m, nil
}

// Backend is the compute backend the model runs on.
func (m *Model) Backend() compute.Backend { return m.backend }

// BackendInfo says which backend the model runs on (and, for XLA, which
// plugin): what a run records.
func (m *Model) BackendInfo() BackendInfo { return m.info }

// Specs lists the model's weights in the order of ParamData (graphs bind
// them by name).
func (m *Model) Specs() []ParamSpec { return m.specs }

// DTypes is each weight's storage dtype ("F32", "BF16" or "F16"), in Specs
// order: what it was loaded in, and what hf.Save writes it in.
func (m *Model) DTypes() []string { return slices.Clone(m.dtypes) }

// ParamData copies the weights to the host, in Specs order.
func (m *Model) ParamData() [][]float32 {
	out := make([][]float32, len(m.params))
	for i, t := range m.params {
		out[i] = tensors.MustCopyFlatData[float32](t)
	}
	return out
}

// SetParamData replaces the weights, in Specs order.
func (m *Model) SetParamData(data [][]float32) error {
	if len(data) != len(m.specs) {
		return fmt.Errorf("set weights: %d tensors for %d parameters", len(data), len(m.specs))
	}
	for i, p := range m.specs {
		if len(data[i]) != p.Size() {
			return fmt.Errorf("set weights: tensor %s has %d values, want %d", p.Name, len(data[i]), p.Size())
		}
	}
	for i, p := range m.specs {
		m.params[i].FinalizeAll()
		m.params[i] = tensors.FromFlatDataAndDimensions(data[i], p.Shape...)
	}
	return nil
}

// Weights are the weight tensors themselves (not copies), in Specs order:
// graph arguments for an optimizer's update (optim), which must not free
// them; ReplaceWeights hands back the updated ones.
func (m *Model) Weights() []*tensors.Tensor { return slices.Clone(m.params) }

// ReplaceWeights makes ts the model's weights, in Specs order, and frees
// the tensors they replace: how an update computed in another graph lands
// (optim's Updater). The model owns ts from then on.
func (m *Model) ReplaceWeights(ts []*tensors.Tensor) error {
	if len(ts) != len(m.specs) {
		return fmt.Errorf("replace weights: %d tensors for %d parameters", len(ts), len(m.specs))
	}
	for i, p := range m.specs {
		if got := ts[i].Shape().Dimensions; !slices.Equal(got, p.Shape) {
			return fmt.Errorf("replace weights: tensor %s has shape %v, want %v", p.Name, got, p.Shape)
		}
	}
	for i, t := range ts {
		m.params[i].FinalizeAll()
		m.params[i] = t
	}
	return nil
}

// onDevice moves weights that are still host-side (new, or just set) to
// the backend, one caller at a time. Calls may then run concurrently:
// GoMLX checks a tensor argument's state without its lock, and would see
// a tensor halfway through that move as neither host-side nor on device.
func (m *Model) onDevice() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, t := range m.params {
		if err := t.MaterializeOnDevice(m.backend, true, 0); err != nil {
			return fmt.Errorf("weight %s to device: %w", m.specs[i].Name, err)
		}
	}
	return nil
}

// builder makes a graph's outputs from the model's weights, bound by name,
// and the graph's other inputs.
type builder func(w *weights, in []*Node) []*Node

// run calls the graph compiled under name (build makes it, once) on the
// model's weights followed by args, and returns its outputs, which the
// caller finalizes. A failed call is an error naming call, the forward
// function's name in its errors ("log-probs").
func (m *Model) run(call, name string, build builder, args ...any) ([]*tensors.Tensor, error) {
	e, err := m.graphs.Exec(name, ShapeKey(args), func() (*Exec, error) {
		return NewExec(m.backend, func(inputs []*Node) []*Node {
			n := len(m.specs)
			return build(m.bind(inputs[:n]), inputs[n:])
		})
	})
	if err != nil {
		return nil, err
	}
	out, err := e.Call(append(m.paramArgs(), args...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", call, err)
	}
	return out, nil
}

// paramArgs returns the weights as graph arguments.
func (m *Model) paramArgs() []any {
	args := make([]any, len(m.params))
	for i, t := range m.params {
		args[i] = t
	}
	return args
}

// Bucket rounds a sequence length up so that a few dozen compiled graphs
// serve every batch while padding wastes at most 1/8 of a step: multiples
// of 16 up to 128, then of 32. Every batch a graph of the model's runs on,
// and optim's updates, is padded to it (Padded).
func Bucket(n int) int {
	switch {
	case n <= 16:
		return 16
	case n <= 128:
		return (n + 15) / 16 * 16
	default:
		return (n + 31) / 32 * 32
	}
}

// RowBucket rounds a count of rows up to 1, 2, 3, 4, 6, 8, 12, 16, 24,
// 32, …: padding adds at most half, and a call with up to 16 rows of each
// kind compiles for 8 counts instead of 16.
func RowBucket(n int) int {
	if n <= 4 {
		return max(n, 1)
	}
	b := 4
	for b < n {
		if b&(b-1) == 0 { // a power of two: the next is 1.5×
			b += b / 2
		} else {
			b = b / 3 * 4
		}
	}
	return b
}

// rowBucket is the rows a forward function's graph runs for a call of n
// sequences. On XLA, which compiles a graph per input shape (seconds
// each), it is RowBucket(n): every forward function over a batch of
// sequences (LogProbs, Targets, Distributions, Scores, EmbeddingGradient,
// ScoreEmbeddings) pads its rows so, as it pads its lengths to Bucket,
// since their callers' row counts vary (the trainer's reference log-probs
// with the groups a step keeps, replay's chunks, the process reward
// model's batches). A padding row is token 0 (a zero embedding, a zero
// selection weight); rows never mix in the model, and only the real rows'
// outputs are read back.
//
// On the Go backend it is n: there padding would add up to half a call's
// work, and it can move a product across the backend's small/large kernel
// threshold, which sums in another order (1M preset, 5 rows of 16 tokens
// against 6: 14 log-probs differ, by at most 1e-6). SharedDistributions
// pads on both (RowBucket), since replay's calls vary in rows, prefixes
// and both lengths at once.
func (m *Model) rowBucket(n int) int {
	if !m.rowBuckets {
		return n
	}
	return RowBucket(n)
}

// rowsWithin is the largest RowBucket count ≤ n, at least 1: a forward
// function that splits a batch into calls of at most n rows, to bound
// their memory, and pads each call's rows to a RowBucket count, splits it
// into calls of this many.
func rowsWithin(n int) int {
	b := 1
	for RowBucket(b+1) <= n {
		b = RowBucket(b + 1)
	}
	return b
}

// padded is Padded with the rows, too, padded to rowBucket's count: what
// a forward function over a batch of sequences runs its graph on.
func (m *Model) padded(seqs [][]int32) (rows [][]int32, T int) {
	rows, T = Padded(seqs)
	return padRows(rows, m.rowBucket(len(rows)), T), T
}

// padRows is rows with zero rows of length T appended up to n.
func padRows(rows [][]int32, n, T int) [][]int32 {
	for len(rows) < n {
		rows = append(rows, make([]int32, T))
	}
	return rows
}

// Padded packs sequences into a [B, T] array right-padded with token 0, T
// the longest sequence's length rounded up by Bucket.
func Padded(seqs [][]int32) (rows [][]int32, T int) {
	for _, s := range seqs {
		T = max(T, len(s))
	}
	T = Bucket(T)
	rows = make([][]int32, len(seqs))
	for i, s := range seqs {
		rows[i] = make([]int32, T) // zeros past the sequence: the padding
		copy(rows[i], s)
	}
	return rows, T
}

// CheckTokens is what every call over token sequences checks first: a
// batch of at least one sequence, none longer than the context, every id
// inside the vocabulary.
func (m *Model) CheckTokens(seqs [][]int32) error {
	if len(seqs) == 0 {
		return fmt.Errorf("empty batch")
	}
	for i, s := range seqs {
		if len(s) > m.Config.MaxPositionEmbeddings {
			return fmt.Errorf("sequence %d has %d tokens, more than the model's context of %d", i, len(s), m.Config.MaxPositionEmbeddings)
		}
		for _, t := range s {
			if t < 0 || int(t) >= m.Config.VocabSize {
				return fmt.Errorf("sequence %d: token id %d outside the vocabulary [0, %d)", i, t, m.Config.VocabSize)
			}
		}
	}
	return nil
}

// head is the output head a forward function reads.
type head int

const (
	lmHead    head = iota // the language-model head (num_labels 0)
	scoreHead             // a scoring head (num_labels > 0)
)

// needs is the head check of every forward function: an error naming the
// call when the model's head is not the one it reads.
func (m *Model) needs(call string, h head) error {
	switch {
	case h == lmHead && m.Config.NumLabels > 0:
		return fmt.Errorf("%s: the model has a scoring head, not a language-model head", call)
	case h == scoreHead && m.Config.NumLabels == 0:
		return fmt.Errorf("%s: the model has no scoring head (num_labels is 0)", call)
	}
	return nil
}

// ready checks what a forward function over token sequences checks before
// it runs, in this order: the head it reads (needs), its own arguments
// (argErr: nil, or an error already naming the call), the tokens
// (CheckTokens) and the context.
func (m *Model) ready(ctx context.Context, call string, h head, seqs [][]int32, argErr error) error {
	if err := m.needs(call, h); err != nil {
		return err
	}
	if argErr != nil {
		return argErr
	}
	if err := m.CheckTokens(seqs); err != nil {
		return fmt.Errorf("%s: %w", call, err)
	}
	return ctx.Err()
}

// bind gives roles to the weight nodes of a graph, passed in Specs order.
func (m *Model) bind(ps []*Node) *weights { return bindByName(m.Config, m.specs, ps) }

// param returns the weight tensor of that Hugging Face name.
func (m *Model) param(name string) *tensors.Tensor {
	for i, p := range m.specs {
		if p.Name == name {
			return m.params[i]
		}
	}
	panic("model: no weight " + name) // every config has the names asked for here
}
