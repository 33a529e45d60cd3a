package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/tokenizer"
)

// echoForwarder is a fake policy for replay: the "distribution" at each
// asked position is {the token there, the sequence's length, from}, so a
// test reads back exactly what replay sent.
type echoForwarder struct {
	ctxLen int
	calls  []int     // sequences per call
	seqs   [][]int32 // every sequence sent
}

func (f *echoForwarder) ContextLength() int { return f.ctxLen }

func (f *echoForwarder) Distributions(_ context.Context, seqs [][]int32, from []int) ([][][]float32, error) {
	f.calls = append(f.calls, len(seqs))
	f.seqs = append(f.seqs, seqs...)
	out := make([][][]float32, len(seqs))
	for i, s := range seqs {
		for t := from[i]; t < len(s); t++ {
			out[i] = append(out[i], []float32{float32(s[t]), float32(len(s)), float32(from[i])})
		}
	}
	return out, nil
}

// TestReplayerWithFakePolicy: replay needs only the Forwarder's two
// methods; it batches requests in chunks, keeps results in order, cuts
// an overlong prompt from its start and refuses a response that cannot fit.
func TestReplayerWithFakePolicy(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	f := &echoForwarder{ctxLen: 40}
	r := New(f, tok, 2)
	resp := func(s string) []int32 { ids, _ := tok.Encode(s); return ids }
	long := strings.Repeat("p", 60) // longer than the context by itself
	reqs := []credit.ReplayRequest{
		{Prompt: "a", Response: resp("xy")},
		{Prompt: "bb", Response: resp("z")},
		{Prompt: long, Response: resp("0123456789")},
		{Prompt: "c", Response: resp("w")},
		{Prompt: "d", Response: resp("vv")},
	}
	got, err := r.Replay(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.calls, []int{2, 2, 1}) {
		t.Errorf("calls of %v sequences, want [2 2 1]", f.calls)
	}
	if len(got) != len(reqs) {
		t.Fatalf("%d results for %d requests", len(got), len(reqs))
	}
	for i, req := range reqs {
		if len(got[i]) != len(req.Response) {
			t.Fatalf("request %d: %d distributions for %d response tokens", i, len(got[i]), len(req.Response))
		}
		prompt := tok.EncodePrompt(req.Prompt)
		wantLen := min(len(prompt)+len(req.Response), f.ctxLen)
		kept := prompt[len(prompt)+len(req.Response)-wantLen:] // the prompt's end
		if want := append(slices.Clone(kept), req.Response...); !slices.Equal(f.seqs[i], want) {
			t.Errorf("request %d: sent %v, want %v", i, f.seqs[i], want)
		}
		for j, d := range got[i] {
			if int32(d[0]) != req.Response[j] || int(d[1]) != wantLen || int(d[2]) != wantLen-len(req.Response) {
				t.Errorf("request %d position %d: got %v, want token %d in a sequence of %d", i, j, d, req.Response[j], wantLen)
			}
		}
	}
	f.ctxLen = 5
	if _, err := r.Replay(context.Background(), reqs[2:3]); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("a response longer than the context: %v", err)
	}
}

// TestSharePrefixes: sorted sequences are cut into runs whose common
// prefix still saves tokens, and no prefix reaches the position whose
// prediction is asked for.
func TestSharePrefixes(t *testing.T) {
	for _, c := range []struct {
		name     string
		seqs     [][]int32
		from     []int
		prefixes [][]int32
		owner    []int
		use      []int
	}{
		{"one run", [][]int32{{1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 7}, {1, 2, 3, 4, 8, 9}}, []int{5, 4, 5}, [][]int32{{1, 2, 3}}, []int{0, 0, 0}, []int{3, 3, 3}},
		{"start caps the prefix", [][]int32{{1, 2, 3, 4, 5}, {1, 2, 3, 4, 6}}, []int{2, 4}, [][]int32{{1}}, []int{0, 0}, []int{1, 1}},
		{"nothing shared", [][]int32{{1, 2, 3}, {4, 5, 6}}, []int{2, 2}, [][]int32{{1}, {4}}, []int{0, 1}, []int{1, 1}},
		// Joining the third would cut the prefix from 7 to 1: 3·1 < 2·7; nesting
		// it would save its prefix's 2 tokens for 1 more suffix token, and
		// does.
		{"short overlap nests", [][]int32{{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 9}, {1, 9, 9, 9}}, []int{8, 8, 3}, [][]int32{{1, 2, 3, 4, 5, 6, 7}}, []int{0, 0, 0}, []int{7, 7, 1}},
		// Nothing saved by nesting: 2·(4 − 1) − 4 = 2 and 2·(4 − 1) − 4 = 2.
		{"short overlap starts a run", [][]int32{{1, 2, 3, 4, 5}, {1, 2, 3, 4, 6}, {1, 7, 8, 9, 5}, {1, 7, 8, 9, 6}}, []int{5, 5, 5, 5}, [][]int32{{1, 2, 3, 4}, {1, 7, 8, 9}}, []int{0, 0, 1, 1}, []int{4, 4, 4, 4}},
		// Replay's variants: the prompt without its last block is the start
		// of the prompt with it; one prefix serves both runs.
		{"a prompt's start nests", [][]int32{{1, 2, 3, 4, 5, 6, 7, 8, 20, 21}, {1, 2, 3, 4, 5, 6, 7, 8, 20, 22}, {1, 2, 3, 4, 5, 20, 21}, {1, 2, 3, 4, 5, 20, 22}}, []int{9, 9, 6, 6}, [][]int32{{1, 2, 3, 4, 5, 6, 7, 8}}, []int{0, 0, 0, 0}, []int{8, 8, 5, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := sharePrefixes(c.seqs, c.from)
			if !slices.EqualFunc(s.Prefixes, c.prefixes, slices.Equal) || !slices.Equal(s.Owner, c.owner) || !slices.Equal(s.Use, c.use) {
				t.Fatalf("prefixes %v owners %v use %v, want %v %v %v", s.Prefixes, s.Owner, s.Use, c.prefixes, c.owner, c.use)
			}
			for i, x := range s.Suffixes {
				used := s.Prefixes[s.Owner[i]][:s.Use[i]]
				if got := append(slices.Clone(used), x...); !slices.Equal(got, c.seqs[i]) {
					t.Errorf("sequence %d: prefix+suffix %v, want %v", i, got, c.seqs[i])
				}
				if len(used) >= c.from[i] {
					t.Errorf("sequence %d: prefix of %d reaches start %d", i, len(used), c.from[i])
				}
			}
		})
	}
}

// plainModel hides the model's SharedDistributions, so replay takes the
// whole-sequence path.
type plainModel struct{ m *model.Model }

func (p plainModel) ContextLength() int { return p.m.ContextLength() }
func (p plainModel) Distributions(ctx context.Context, seqs [][]int32, from []int) ([][][]float32, error) {
	return p.m.Distributions(ctx, seqs, from)
}

// TestReplayerSharesPrefixes: replay with shared prefixes gives what
// replaying every whole sequence gives, on the variants MRTPO asks for
// (a prompt with and without each block, for a group's responses), with
// chunks that cut runs apart.
func TestReplayerSharesPrefixes(t *testing.T) {
	tok, m := tinyBytesModel(t)
	data := m.ParamData() // a fresh model is near uniform: make every weight matter
	for i, d := range data {
		for j := range d {
			d[j] += 0.3 * float32(math.Sin(float64(7*i+13*j)))
		}
	}
	if err := m.SetParamData(data); err != nil {
		t.Fatal(err)
	}
	resp := func(s string) []int32 { ids, _ := tok.Encode(s); return ids }
	var reqs []credit.ReplayRequest
	for _, prompt := range []string{"Call the weather tool for Paris.", "Sum 2 and 3."} {
		for _, r := range []string{`{"a": 1}`, `{"b": 22}`, "five", strings.Repeat("long answer ", 12)} {
			for _, blocks := range [][]string{{"Format: JSON.", "Reference: x"}, {"Reference: x"}, {"Format: JSON."}} {
				reqs = append(reqs, credit.ReplayRequest{Prompt: reward.Compose(prompt, blocks), Response: resp(r)})
			}
		}
	}
	want, err := New(plainModel{m}, tok, 64).Replay(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	var first [][][]float32 // chunk 5's answer: twelve calls, two at a time
	for _, chunk := range []int{64, 5, 5} {
		got, err := New(m, tok, chunk).Replay(context.Background(), reqs)
		if err != nil {
			t.Fatal(err)
		}
		if chunk == 5 && first == nil {
			first = got
		} else if chunk == 5 && !reflect.DeepEqual(got, first) {
			t.Errorf("chunk 5: a second replay of the same requests differs from the first (concurrent calls must not change results)")
		}
		worst := 0.0
		for i := range want {
			if len(got[i]) != len(want[i]) {
				t.Fatalf("chunk %d, request %d: %d positions, want %d", chunk, i, len(got[i]), len(want[i]))
			}
			for p := range want[i] {
				for v := range want[i][p] {
					worst = max(worst, math.Abs(float64(got[i][p][v]-want[i][p][v])))
				}
			}
		}
		t.Logf("chunk %d: max |shared − whole| probability difference %.2e", chunk, worst)
		if worst > 1e-5 {
			t.Errorf("chunk %d: shared replay differs from whole replay by %.2e", chunk, worst)
		}
	}
}

// TestReplayerCancelled: a cancelled replay returns the context's error
// and no distributions, whichever of its concurrent calls saw it first.
func TestReplayerCancelled(t *testing.T) {
	tok, m := tinyBytesModel(t)
	resp, _ := tok.Encode("an answer")
	var reqs []credit.ReplayRequest
	for i := range 12 {
		reqs = append(reqs, credit.ReplayRequest{Prompt: fmt.Sprintf("Prompt %d", i), Response: resp})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := New(m, tok, 2).Replay(ctx, reqs)
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Fatalf("Replay on a cancelled context = %d answers, %v; want none and context.Canceled", len(got), err)
	}
}

// TestCallParts: a call takes a prefix's rows whole when they fit, a
// prefix with more rows than a call is spread evenly, and no call mixes
// length classes.
func TestCallParts(t *testing.T) {
	short, long := make([]int32, 10), make([]int32, 200) // length classes 0 and 1
	for _, c := range []struct {
		name   string
		owner  []int
		suffix [][]int32
		chunk  int
		want   [][]int
	}{
		{"whole prefixes", []int{0, 0, 0, 1, 1, 1, 2, 2}, nil, 4, [][]int{{0, 1, 2}, {3, 4, 5}, {6, 7}}},
		{"prefixes share a call", []int{0, 0, 1, 1, 2, 2, 2}, nil, 4, [][]int{{0, 1, 2, 3}, {4, 5, 6}}},
		{"a large prefix spread evenly", []int{0, 0, 0, 0, 0, 0, 0, 1}, nil, 3, [][]int{{0, 1}, {2, 3}, {4, 5, 6}, {7}}},
		{"classes apart", []int{0, 0, 0, 0}, [][]int32{short, short, long, long}, 4, [][]int{{0, 1}, {2, 3}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := model.Shared{Owner: c.owner, Suffixes: c.suffix}
			if s.Suffixes == nil {
				for range c.owner {
					s.Suffixes = append(s.Suffixes, short)
				}
			}
			rows := make([]int, len(c.owner))
			for i := range rows {
				rows[i] = i
			}
			if got := callParts(s, rows, c.chunk); !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("callParts = %v, want %v", got, c.want)
			}
		})
	}
}

func TestLengthClass(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 0}, {128, 0}, {129, 1}, {256, 1}, {257, 2}, {512, 2}, {513, 3}, {1024, 3}} {
		if got := lengthClass(c.n); got != c.want {
			t.Errorf("lengthClass(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// tinyBytesModel is the byte tokenizer and a fresh Tiny model over it.
func tinyBytesModel(t *testing.T) (*tokenizer.Bytes, *model.Model) {
	t.Helper()
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(model.Tiny(tok.VocabSize()), 2)
	if err != nil {
		t.Fatal(err)
	}
	return tok, m
}
