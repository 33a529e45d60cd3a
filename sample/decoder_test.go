package sample

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/credo-rl/credo/tokenizer"
)

// scripted is a fake Decoder: row r writes script[r / group] one token per
// step, then EOS, with all but exp(−40) of the probability on that token.
// It shows that Generate needs nothing of a model but the Decoder methods,
// and it reaches branches a real model reaches only by chance.
type scripted struct {
	tok     tokenizer.Tokenizer
	script  [][]int32 // per prompt
	ctxLen  int
	room    int // extra cache slots past the prompt; -1: what Prefill asks for
	group   int
	asked   int // newTokens of the last Prefill
	caches  []*fakeKV
	decodes int
}

type fakeKV struct {
	len, cap int
	freed    bool
}

func (c *fakeKV) Len() int { return c.len }
func (c *fakeKV) Cap() int { return c.cap }
func (c *fakeKV) Free()    { c.freed = true }

func (s *scripted) ContextLength() int { return s.ctxLen }

func (s *scripted) Prefill(_ context.Context, prompts [][]int32, group, newTokens int) (*fakeKV, [][]float32, error) {
	s.group, s.asked = group, newTokens
	longest := 0
	for _, p := range prompts {
		longest = max(longest, len(p))
	}
	room := s.room
	if room < 0 {
		room = newTokens
	}
	c := &fakeKV{len: longest, cap: longest + room}
	s.caches = append(s.caches, c)
	return c, s.logits(len(prompts)*group, 0), nil
}

func (s *scripted) Decode(_ context.Context, c *fakeKV, tokens []int32) ([][]float32, error) {
	if c.len >= c.cap {
		return nil, fmt.Errorf("decode: the cache is full")
	}
	c.len++
	s.decodes++
	return s.logits(len(tokens), s.decodes), nil
}

// logits of every row at response position t.
func (s *scripted) logits(rows, t int) [][]float32 {
	out := make([][]float32, rows)
	for r := range out {
		out[r] = make([]float32, s.tok.VocabSize())
		next := s.tok.EOS()
		if sc := s.script[r/s.group]; t < len(sc) {
			next = sc[t]
		}
		out[r][next] = 40
	}
	return out
}

func TestGenerateWithFakeDecoder(t *testing.T) {
	ctx := context.Background()
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	ids := func(s string) []int32 { x, _ := tok.Encode(s); return x }
	for _, tc := range []struct {
		name      string
		script    []string
		ctxLen    int
		room      int
		c         Config
		wantText  []string
		wantFin   []Finish
		wantAsked int
	}{
		{"ends at eos", []string{"hello", "hi"}, 64, -1, Config{MaxTokens: 10, Temperature: 1, TopP: 1},
			[]string{"hello", "hi"}, []Finish{FinishEOS, FinishEOS}, 9},
		{"max tokens", []string{"hello"}, 64, -1, Config{MaxTokens: 3, TopP: 1},
			[]string{"hel"}, []Finish{FinishLength}, 2},
		{"stop sequence", []string{"a;b;c"}, 64, -1, Config{MaxTokens: 10, TopP: 1, Stop: []string{";b"}},
			[]string{"a;b"}, []Finish{FinishStop}, 9},
		{"context bounds the row", []string{"abcdefghij"}, 8, -1, Config{MaxTokens: 100, TopP: 1},
			[]string{"abcde"}, []Finish{FinishContext}, 7}, // a 3-token prompt and 5 tokens fill 8
		{"cache full before the context", []string{"abcdefghij"}, 64, 2, Config{MaxTokens: 100, TopP: 1},
			[]string{"abc"}, []Finish{FinishContext}, 63}, // the first token, then two decodes fill it
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &scripted{tok: tok, ctxLen: tc.ctxLen, room: tc.room}
			prompts := make([][]int32, len(tc.script))
			for i, s := range tc.script {
				d.script = append(d.script, ids(s))
				prompts[i] = ids("q" + fmt.Sprint(i) + "?")
			}
			res, err := Generate(ctx, d, tok, prompts, 2, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if d.asked != tc.wantAsked {
				t.Errorf("prefill asked room for %d tokens, want %d", d.asked, tc.wantAsked)
			}
			if len(d.caches) != 1 || !d.caches[0].freed {
				t.Errorf("the cache was not freed once (%d caches)", len(d.caches))
			}
			if len(res) != 2*len(tc.script) {
				t.Fatalf("%d responses, want %d", len(res), 2*len(tc.script))
			}
			for i, r := range res {
				p := i / 2
				if r.Prompt != p || r.Text != tc.wantText[p] || r.Finish != tc.wantFin[p] {
					t.Errorf("response %d: prompt %d, %q (%s); want %d, %q (%s)", i, r.Prompt, r.Text, r.Finish, p, tc.wantText[p], tc.wantFin[p])
				}
				if len(r.LogProbs) != len(r.Tokens) || len(r.Offsets) != len(r.Tokens) {
					t.Fatalf("response %d: %d tokens, %d log-probs, %d offsets", i, len(r.Tokens), len(r.LogProbs), len(r.Offsets))
				}
				for j, lp := range r.LogProbs {
					// log softmax of a logit 40 above V−1 zeros: −(V−1)·e^−40
					if want := -float64(tok.VocabSize()-1) * math.Exp(-40); math.Abs(float64(lp)-want) > 1e-6 {
						t.Errorf("response %d token %d: log-prob %v, want %v", i, j, lp, want)
					}
				}
			}
		})
	}
}
