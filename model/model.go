package model

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	_ "github.com/gomlx/compute/gobackend" // the pure-Go backend: no C libraries to install
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// Model is a transformer's configuration and weights on a backend, with
// the batched forward functions the rest of credo needs. A Model is not
// safe for concurrent use: the training loop owns it.
type Model struct {
	Config  Config
	backend compute.Backend
	specs   []ParamSpec
	params  []*tensors.Tensor // in specs order
	dtypes  []string          // each weight's storage dtype ("F32", "BF16", "F16"), in specs order

	mu    sync.Mutex
	execs map[string]*Exec // compiled graphs by purpose; each caches its own shapes
}

// New creates a model with fresh weights drawn from seed. They are stored
// (saved) in c.TorchDtype, float32 when empty.
func New(c Config, seed uint64) (*Model, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return FromWeights(c, initParams(c, seed), nil)
}

// FromWeights builds a model of config c from given weights, data[i] being
// the values of c.Params()[i] (row-major), and each weight's storage dtype
// ("F32", "BF16" or "F16") in the same order; nil dtypes store every weight
// in c.TorchDtype. hf.Load builds the models it reads with it.
func FromWeights(c Config, data [][]float32, dtypes []string) (*Model, error) {
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
	backend, err := compute.New()
	if err != nil {
		return nil, fmt.Errorf("start compute backend: %w", err)
	}
	m := &Model{Config: c, backend: backend, specs: specs, execs: map[string]*Exec{}, dtypes: slices.Clone(dtypes)}
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

// exec returns the compiled graph registered under name, building it once.
func (m *Model) exec(name string, build func() (*Exec, error)) (*Exec, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.execs[name]; ok {
		return e, nil
	}
	e, err := build()
	if err != nil {
		return nil, fmt.Errorf("build %s graph: %w", name, err)
	}
	e.SetMaxCache(256) // one entry per batch shape; shapes are bucketed
	m.execs[name] = e
	return e, nil
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

// splitParams separates the weight nodes from the other inputs of a graph
// built by NewExec with a slice of inputs.
func (m *Model) splitParams(inputs []*Node) (*weights, []*Node) {
	n := len(m.specs)
	return m.bind(inputs[:n]), inputs[n:]
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

// LogProbs returns, for each sequence, the log-probability of every token
// after the first given the tokens before it: out[i][t] = log p(s[t+1] | s[≤t]).
// A vocabulary larger than one chunk is scored in chunks (Targets), never
// holding a [B, T, V] table.
func (m *Model) LogProbs(ctx context.Context, seqs [][]int32) ([][]float32, error) {
	if m.Config.VocabSize > vocabChunk {
		lp, _, err := m.Targets(ctx, seqs)
		return lp, err
	}
	return m.wholeLogProbs(ctx, seqs)
}

// wholeLogProbs is LogProbs from the whole [B, T−1, V] log-softmax table,
// in one graph: the faster path for a small vocabulary.
func (m *Model) wholeLogProbs(ctx context.Context, seqs [][]int32) ([][]float32, error) {
	if m.Config.NumLabels > 0 {
		return nil, fmt.Errorf("log-probs: the model has a scoring head, not a language-model head")
	}
	if err := m.CheckTokens(seqs); err != nil {
		return nil, fmt.Errorf("log-probs: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, err := m.exec("logprobs", func() (*Exec, error) {
		return NewExec(m.backend, func(inputs []*Node) *Node {
			w, rest := m.splitParams(inputs)
			tokens := rest[0] // [B, T]
			lp, _ := tokenLogProbs(m.Config, w, tokens)
			return lp // [B, T-1]
		})
	})
	if err != nil {
		return nil, err
	}
	pad, _ := Padded(seqs)
	out, err := e.Call(append(m.paramArgs(), pad)...)
	if err != nil {
		return nil, fmt.Errorf("log-probs: %w", err)
	}
	flat := tensors.MustCopyFlatData[float32](out[0])
	out[0].FinalizeAll()
	T := len(pad[0]) - 1
	res := make([][]float32, len(seqs))
	for i, s := range seqs {
		n := max(len(s)-1, 0)
		res[i] = append([]float32(nil), flat[i*T:i*T+n]...)
	}
	return res, nil
}

// tokenLogProbs computes log p(tokens[:, t+1] | tokens[:, ≤t]) [B, T−1] and
// the entropy of each of those predictions [B, T−1].
func tokenLogProbs(c Config, w *weights, tokens *Node) (logp, entropy *Node) {
	T := tokens.Shape().Dimensions[1]
	in := Slice(tokens, AxisRange(), AxisRange(0, T-1)) // [B, T-1]
	tgt := Slice(tokens, AxisRange(), AxisRange(1, T))  // [B, T-1]
	h := forward(c, w, embedTokens(w, in), sequenceInputs(c, in), nil)
	logits := headLogits(w, h)    // [B, T-1, V]
	all := LogSoftmax(logits, -1) // [B, T-1, V]
	g, dims := tokens.Graph(), tgt.Shape().Dimensions
	at := shapes.Make(dtypes.Int32, dims[0], dims[1], 1)
	idx := Concatenate([]*Node{Iota(g, at, 0), Iota(g, at, 1), ExpandAxes(tgt, -1)}, -1) // [B, T-1, 3]: (b, t, target)
	logp = Gather(all, idx)                                                              // [B, T-1], no one-hot [B, T-1, V] table
	p := StopGradient(Exp(all))
	entropy = Neg(ReduceSum(Mul(p, StopGradient(all)), -1)) // [B, T-1]
	return logp, entropy
}

// Distributions returns, for each sequence and each position t ≥ from[i],
// the next-token distribution from which s[t] is predicted, that is
// p(· | s[<t]): out[i] has len(s) − from[i] rows of VocabSize
// probabilities. from[i] must be at least 1 (the first token has no
// prediction). Replay compares two of these for the same response.
func (m *Model) Distributions(ctx context.Context, seqs [][]int32, from []int) ([][][]float32, error) {
	if m.Config.NumLabels > 0 {
		return nil, fmt.Errorf("distributions: the model has a scoring head, not a language-model head")
	}
	if len(from) != len(seqs) {
		return nil, fmt.Errorf("distributions: %d start positions for %d sequences", len(from), len(seqs))
	}
	for i, f := range from {
		if f < 1 || f > len(seqs[i]) {
			return nil, fmt.Errorf("distributions: start %d outside [1, %d] for sequence %d", f, len(seqs[i]), i)
		}
	}
	if err := m.CheckTokens(seqs); err != nil {
		return nil, fmt.Errorf("distributions: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return m.distributionsIn(ctx, seqs, from, distBytes)
}

// distributionsIn is Distributions with calls of as many rows as keep
// their [rows, T, V] logit and probability tables within maxBytes (a
// 151,936-token vocabulary makes a 64 × 256 batch's table 10 GB).
func (m *Model) distributionsIn(ctx context.Context, seqs [][]int32, from []int, maxBytes int) ([][][]float32, error) {
	T := 0
	for _, q := range seqs {
		T = max(T, len(q))
	}
	rows := max(1, maxBytes/(2*4*Bucket(T)*m.Config.VocabSize))
	res := make([][][]float32, 0, len(seqs))
	for lo := 0; lo < len(seqs); lo += rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+rows, len(seqs))
		part, err := m.distributions(seqs[lo:hi], from[lo:hi])
		if err != nil {
			return nil, err
		}
		res = append(res, part...)
	}
	return res, nil
}

// distBytes bounds the probability tables one Distributions call builds.
const distBytes = 256 << 20

// distributions is Distributions in one graph call.
func (m *Model) distributions(seqs [][]int32, from []int) ([][][]float32, error) {
	e, err := m.exec("probs", func() (*Exec, error) {
		return NewExec(m.backend, func(inputs []*Node) *Node {
			w, rest := m.splitParams(inputs)
			tokens := rest[0] // [B, T]
			h := forward(m.Config, w, embedTokens(w, tokens), sequenceInputs(m.Config, tokens), nil)
			return Softmax(headLogits(w, h), -1) // [B, T, V]
		})
	})
	if err != nil {
		return nil, err
	}
	pad, T := Padded(seqs)
	out, err := e.Call(append(m.paramArgs(), pad)...)
	if err != nil {
		return nil, fmt.Errorf("distributions: %w", err)
	}
	first, n := make([]int, len(seqs)), make([]int, len(seqs))
	for i, s := range seqs {
		first[i], n[i] = i*T+from[i]-1, len(s)-from[i] // the prediction for position t is made at t−1
	}
	return pickRows(out[0], m.Config.VocabSize, first, n), nil
}

// EmbeddingGradient scores sequences with the model's scoring head
// (num_labels > 0, label 0) and differentiates the weighted sum of scores
// S = Σ_{i,t} sel[i][t] · score[i][t] with respect to the input embeddings
// in one backward pass. It returns the scores [N][T_i], the embeddings e
// and the gradients ∂S/∂e, both [N][T_i][D]. sel[i] has len(seqs[i]) entries.
func (m *Model) EmbeddingGradient(ctx context.Context, seqs [][]int32, sel [][]float32) (scores [][]float32, emb, grad [][][]float32, err error) {
	if m.Config.NumLabels == 0 {
		return nil, nil, nil, fmt.Errorf("embedding gradient: the model has no scoring head (num_labels is 0)")
	}
	if len(sel) != len(seqs) {
		return nil, nil, nil, fmt.Errorf("embedding gradient: %d selections for %d sequences", len(sel), len(seqs))
	}
	for i := range seqs {
		if len(sel[i]) != len(seqs[i]) {
			return nil, nil, nil, fmt.Errorf("embedding gradient: sequence %d has %d tokens but %d selection weights", i, len(seqs[i]), len(sel[i]))
		}
	}
	if err := m.CheckTokens(seqs); err != nil {
		return nil, nil, nil, fmt.Errorf("embedding gradient: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	e, err := m.exec("embgrad", func() (*Exec, error) {
		return NewExec(m.backend, func(inputs []*Node) []*Node {
			w, rest := m.splitParams(inputs)
			tokens, weights := rest[0], rest[1] // [B, T], [B, T]
			x := embedTokens(w, tokens)         // [B, T, D]
			h := forward(m.Config, w, x, sequenceInputs(m.Config, tokens), nil)
			logits := headLogits(w, h) // [B, T, labels]
			score := labelZero(logits) // [B, T]
			S := ReduceAllSum(Mul(score, weights))
			return []*Node{score, x, Gradient(S, x)[0]}
		})
	})
	if err != nil {
		return nil, nil, nil, err
	}
	pad, T := Padded(seqs)
	wpad := make([][]float32, len(seqs))
	for i := range sel {
		wpad[i] = make([]float32, T)
		copy(wpad[i], sel[i])
	}
	out, err := e.Call(append(m.paramArgs(), pad, wpad)...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("embedding gradient: %w", err)
	}
	defer func() {
		for _, o := range out {
			o.FinalizeAll()
		}
	}()
	fs := tensors.MustCopyFlatData[float32](out[0])
	fe := tensors.MustCopyFlatData[float32](out[1])
	fg := tensors.MustCopyFlatData[float32](out[2])
	D := m.Config.HiddenSize
	for i, s := range seqs {
		scores = append(scores, fs[i*T:i*T+len(s)])
		var ei, gi [][]float32
		for t := range s {
			off := (i*T + t) * D
			ei = append(ei, fe[off:off+D:off+D])
			gi = append(gi, fg[off:off+D:off+D])
		}
		emb, grad = append(emb, ei), append(grad, gi)
	}
	return scores, emb, grad, nil
}

// Scores runs the scoring head: out[i][t] is label 0's logit at token t.
func (m *Model) Scores(ctx context.Context, seqs [][]int32) ([][]float32, error) {
	if m.Config.NumLabels == 0 {
		return nil, fmt.Errorf("scores: the model has no scoring head (num_labels is 0)")
	}
	if err := m.CheckTokens(seqs); err != nil {
		return nil, fmt.Errorf("scores: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, err := m.exec("scores", func() (*Exec, error) {
		return NewExec(m.backend, func(inputs []*Node) *Node {
			w, rest := m.splitParams(inputs)
			tokens := rest[0]
			h := forward(m.Config, w, embedTokens(w, tokens), sequenceInputs(m.Config, tokens), nil)
			return labelZero(headLogits(w, h)) // [B, T]
		})
	})
	if err != nil {
		return nil, err
	}
	pad, T := Padded(seqs)
	out, err := e.Call(append(m.paramArgs(), pad)...)
	if err != nil {
		return nil, fmt.Errorf("scores: %w", err)
	}
	flat := tensors.MustCopyFlatData[float32](out[0])
	out[0].FinalizeAll()
	res := make([][]float32, len(seqs))
	for i, s := range seqs {
		res[i] = flat[i*T : i*T+len(s) : i*T+len(s)]
	}
	return res, nil
}

// labelZero picks label 0 of a scoring head's logits: [B, T, labels] → [B, T].
func labelZero(logits *Node) *Node {
	return Squeeze(Slice(logits, AxisRange(), AxisRange(), AxisRange(0, 1)), -1)
}

// EmbeddingRow copies the input embedding of one token.
func (m *Model) EmbeddingRow(id int32) ([]float32, error) {
	if id < 0 || int(id) >= m.Config.VocabSize {
		return nil, fmt.Errorf("embedding row: token id %d outside the vocabulary [0, %d)", id, m.Config.VocabSize)
	}
	D := m.Config.HiddenSize
	table := tensors.MustCopyFlatData[float32](m.param("model.embed_tokens.weight"))
	return append([]float32(nil), table[int(id)*D:int(id+1)*D]...), nil
}

// MeanEmbedding is the mean of the input embedding table's rows.
func (m *Model) MeanEmbedding() []float32 {
	D := m.Config.HiddenSize
	table := tensors.MustCopyFlatData[float32](m.param("model.embed_tokens.weight"))
	mean := make([]float64, D)
	for i, v := range table {
		mean[i%D] += float64(v)
	}
	out := make([]float32, D)
	for i := range out {
		out[i] = float32(mean[i] / float64(m.Config.VocabSize))
	}
	return out
}

// ScoreEmbeddings runs the scoring head on given input embeddings
// emb [N][T_i][D] instead of token ids: out[i][t] is label 0's logit. The
// exact (slow) attribution of the gradient method re-scores sequences in
// which one token's embedding was replaced.
func (m *Model) ScoreEmbeddings(ctx context.Context, emb [][][]float32) ([][]float32, error) {
	if m.Config.NumLabels == 0 {
		return nil, fmt.Errorf("score embeddings: the model has no scoring head (num_labels is 0)")
	}
	if len(emb) == 0 {
		return nil, fmt.Errorf("score embeddings: empty batch")
	}
	D := m.Config.HiddenSize
	T := 0
	for i, rows := range emb {
		if len(rows) == 0 || len(rows) > m.Config.MaxPositionEmbeddings {
			return nil, fmt.Errorf("score embeddings: sequence %d has %d positions (want 1..%d)", i, len(rows), m.Config.MaxPositionEmbeddings)
		}
		for _, r := range rows {
			if len(r) != D {
				return nil, fmt.Errorf("score embeddings: sequence %d has a row of width %d, want %d", i, len(r), D)
			}
		}
		T = max(T, len(rows))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	T = Bucket(T)
	flat := make([]float32, len(emb)*T*D)
	for i, rows := range emb {
		for t, r := range rows {
			copy(flat[(i*T+t)*D:], r)
		}
	}
	e, err := m.exec("scoreemb", func() (*Exec, error) {
		return NewExec(m.backend, func(inputs []*Node) *Node {
			w, rest := m.splitParams(inputs)
			x := rest[0] // [B, T, D]
			dims := x.Shape().Dimensions
			tokens := Zeros(x.Graph(), shapes.Make(dtypes.Int32, dims[0], dims[1])) // only its shape is read
			h := forward(m.Config, w, x, sequenceInputs(m.Config, tokens), nil)
			return labelZero(headLogits(w, h)) // [B, T]
		})
	})
	if err != nil {
		return nil, err
	}
	out, err := e.Call(append(m.paramArgs(), tensors.FromFlatDataAndDimensions(flat, len(emb), T, D))...)
	if err != nil {
		return nil, fmt.Errorf("score embeddings: %w", err)
	}
	res := tensors.MustCopyFlatData[float32](out[0])
	out[0].FinalizeAll()
	scores := make([][]float32, len(emb))
	for i, rows := range emb {
		scores[i] = res[i*T : i*T+len(rows) : i*T+len(rows)]
	}
	return scores, nil
}

// pickRows copies rows of width V out of an output tensor [B, T, V]
// (rows counted flat, b·T + t), sequence i's being rows start[i] …
// start[i]+n[i]−1, into one allocation (without first copying the whole
// table, whose padding and prompt rows are not wanted) and finalizes the
// tensor. The rows are views of that allocation, each capped at its own
// end.
func pickRows(out *tensors.Tensor, V int, start, n []int) [][][]float32 {
	total := 0
	for _, k := range n {
		total += k
	}
	buf := make([]float32, total*V)
	res := make([][][]float32, len(n))
	tensors.MustConstFlatData(out, func(flat []float32) {
		at := 0
		for i := range n {
			rows := make([][]float32, n[i])
			copy(buf[at*V:], flat[start[i]*V:(start[i]+n[i])*V])
			for k := range rows {
				lo := (at + k) * V
				rows[k] = buf[lo : lo+V : lo+V]
			}
			res[i] = rows
			at += n[i]
		}
	})
	out.FinalizeAll()
	return res
}
