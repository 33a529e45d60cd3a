package prm

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/credo-rl/credo/tokenizer"
)

// linearScorer is a scoring model linear in its input embeddings:
//
//	score[t] = bias + Σ_{u ≤ t} ⟨w[u mod P], e_u⟩
//
// so S = Σ sel·score has ∂S/∂e_u = (Σ_{t ≥ u} sel[t])·w[u mod P], and
// nulling e_u changes S by exactly ⟨∂S/∂e_u, e_u − e_null⟩.
type linearScorer struct {
	table [][]float32 // embedding table [V][D]
	w     [][]float32 // position weights [P][D]
	bias  float64
	calls int // EmbeddingGradient calls
}

func newLinearScorer(vocab, d, p int, seed uint64) *linearScorer {
	rng := rand.New(rand.NewPCG(seed, 1))
	row := func() []float32 {
		r := make([]float32, d)
		for i := range r {
			r[i] = float32(rng.NormFloat64())
		}
		return r
	}
	s := &linearScorer{bias: 0.25}
	for range vocab {
		s.table = append(s.table, row())
	}
	for range p {
		s.w = append(s.w, row())
	}
	return s
}

func (s *linearScorer) embed(seqs [][]int32) ([][][]float32, error) {
	out := make([][][]float32, len(seqs))
	for i, seq := range seqs {
		for _, id := range seq {
			if id < 0 || int(id) >= len(s.table) {
				return nil, fmt.Errorf("token %d outside the vocabulary", id)
			}
			out[i] = append(out[i], s.table[id])
		}
	}
	return out, nil
}

func (s *linearScorer) ScoreEmbeddings(_ context.Context, emb [][][]float32) ([][]float32, error) {
	out := make([][]float32, len(emb))
	for i, rows := range emb {
		acc := s.bias
		for u, e := range rows {
			w := s.w[u%len(s.w)]
			for d := range e {
				acc += float64(w[d]) * float64(e[d])
			}
			out[i] = append(out[i], float32(acc))
		}
	}
	return out, nil
}

func (s *linearScorer) Scores(ctx context.Context, seqs [][]int32) ([][]float32, error) {
	emb, err := s.embed(seqs)
	if err != nil {
		return nil, err
	}
	return s.ScoreEmbeddings(ctx, emb)
}

func (s *linearScorer) EmbeddingGradient(ctx context.Context, seqs [][]int32, sel [][]float32) ([][]float32, [][][]float32, [][][]float32, error) {
	s.calls++
	emb, err := s.embed(seqs)
	if err != nil {
		return nil, nil, nil, err
	}
	scores, _ := s.ScoreEmbeddings(ctx, emb)
	grad := make([][][]float32, len(seqs))
	for i := range seqs {
		grad[i] = make([][]float32, len(seqs[i]))
		var after float32 // Σ_{t ≥ u} sel[t]
		for u := len(seqs[i]) - 1; u >= 0; u-- {
			after += sel[i][u]
			g := make([]float32, len(s.w[0]))
			for d := range g {
				g[d] = after * s.w[u%len(s.w)][d]
			}
			grad[i][u] = g
		}
	}
	return scores, emb, grad, nil
}

func (s *linearScorer) EmbeddingRow(id int32) ([]float32, error) {
	if id < 0 || int(id) >= len(s.table) {
		return nil, fmt.Errorf("token %d outside the vocabulary", id)
	}
	return s.table[id], nil
}

func (s *linearScorer) MeanEmbedding() []float32 {
	out := make([]float32, len(s.table[0]))
	for _, r := range s.table {
		for d, v := range r {
			out[d] += v / float32(len(s.table))
		}
	}
	return out
}

// pairTokenizer is the byte tokenizer except that a response's bytes are
// read two at a time: a tokenizer coarser than a byte-level policy's.
type pairTokenizer struct{ *tokenizer.Bytes }

func (p pairTokenizer) VocabSize() int { return 1024 }

func (p pairTokenizer) Encode(text string) ([]int32, [][2]int) {
	var ids []int32
	var offs [][2]int
	for i := 0; i < len(text); i += 2 {
		j := min(i+2, len(text))
		id := int32(300)
		for _, c := range []byte(text[i:j]) {
			id = (id*31 + int32(c)) % 1024
		}
		ids, offs = append(ids, max(id, 300)), append(offs, [2]int{i, j})
	}
	return ids, offs
}

// linearPRM is a PRM on the linear scorer with the byte tokenizer (or
// another) and the arith step splitter.
func linearPRM(tok tokenizer.Tokenizer, seed uint64) (*PRM, *linearScorer) {
	s := newLinearScorer(1024, 8, 7, seed)
	split, err := Info{Task: "arith"}.Splitter()
	if err != nil {
		panic(err)
	}
	return &PRM{Model: s, Tok: tok, Split: split, Info: Info{Task: "arith"}}, s
}

func mustBytes() *tokenizer.Bytes {
	b, err := tokenizer.NewBytes()
	if err != nil {
		panic(err)
	}
	return b
}

// byteOffsets are one-byte token ranges over n bytes, as a byte-level
// policy has, then an ending EOS with an empty range.
func byteOffsets(n int) [][2]int {
	out := make([][2]int, 0, n+1)
	for b := range n {
		out = append(out, [2]int{b, b + 1})
	}
	return append(out, [2]int{n, n})
}

// chunkOffsets are token ranges of the given sizes, cycled, over n bytes:
// a policy tokenizer that merges bytes.
func chunkOffsets(n int, sizes ...int) [][2]int {
	var out [][2]int
	for b, k := 0, 0; b < n; k++ {
		e := min(b+sizes[k%len(sizes)], n)
		out = append(out, [2]int{b, e})
		b = e
	}
	return out
}
