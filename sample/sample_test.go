package sample

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/tokenizer"
)

func setup(t testing.TB, ctxLen int) (*model.Model, *tokenizer.Bytes) {
	t.Helper()
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	c := model.Tiny(tok.VocabSize())
	c.MaxPositionEmbeddings = ctxLen
	m, err := model.New(c, 11)
	if err != nil {
		t.Fatal(err)
	}
	return m, tok
}

func encode(tok tokenizer.Tokenizer, texts ...string) [][]int32 {
	var out [][]int32
	for _, s := range texts {
		out = append(out, tok.EncodePrompt(s))
	}
	return out
}

// TestLogProbsMatchForward: the log-probs generation reports equal those of
// a full forward pass over the finished sequence, within 1e-4.
func TestLogProbsMatchForward(t *testing.T) {
	ctx := context.Background()
	m, tok := setup(t, 256)
	for _, tc := range []struct {
		prompts   []string
		group     int
		maxTokens int
	}{
		{[]string{"hi"}, 1, 5},
		{[]string{"add 2 and 3", "x"}, 3, 20},
		{[]string{"a longer prompt with more bytes in it", "b", "ccc", "dddd"}, 4, 40},
	} {
		prompts := encode(tok, tc.prompts...)
		c := DefaultConfig()
		c.MaxTokens, c.Seed = tc.maxTokens, 5
		res, err := Generate(ctx, m, tok, prompts, tc.group, c)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != len(prompts)*tc.group {
			t.Fatalf("%d responses, want %d", len(res), len(prompts)*tc.group)
		}
		seqs := make([][]int32, len(res))
		for i, r := range res {
			seqs[i] = append(append([]int32(nil), prompts[r.Prompt]...), r.Tokens...)
		}
		full, err := m.LogProbs(ctx, seqs)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i, r := range res {
			p := len(prompts[r.Prompt])
			for j, lp := range r.LogProbs {
				worst = math.Max(worst, math.Abs(float64(lp-full[i][p-1+j])))
			}
		}
		t.Logf("%d prompts × %d, %d tokens: max log-prob difference %.2e", len(prompts), tc.group, tc.maxTokens, worst)
		if worst > 1e-4 {
			t.Errorf("generation log-probs differ from the forward pass by %.2e", worst)
		}
	}
}

// TestGreedyMatchesNoCache: greedy decoding with the cache picks the same
// tokens as re-running the full sequence for every token.
func TestGreedyMatchesNoCache(t *testing.T) {
	ctx := context.Background()
	m, tok := setup(t, 256)
	prompts := encode(tok, "one", "two words", "three words here")
	c := Config{MaxTokens: 24, Temperature: 0, TopP: 1}
	got, err := Generate(ctx, m, tok, prompts, 2, c)
	if err != nil {
		t.Fatal(err)
	}
	want, err := GenerateNoCache(ctx, m, tok, prompts, 2, c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !slices.Equal(got[i].Tokens, want[i].Tokens) {
			t.Errorf("response %d: cached %v, reference %v", i, got[i].Tokens, want[i].Tokens)
		}
		if got[i].Finish != want[i].Finish {
			t.Errorf("response %d: finish %s, reference %s", i, got[i].Finish, want[i].Finish)
		}
	}
	// A group of greedy responses is one response repeated.
	if !slices.Equal(got[0].Tokens, got[1].Tokens) {
		t.Error("greedy responses of one prompt differ")
	}
}

func TestSeeded(t *testing.T) {
	ctx := context.Background()
	m, tok := setup(t, 256)
	prompts := encode(tok, "seed me")
	c := DefaultConfig()
	c.MaxTokens, c.Seed = 16, 1
	a, _ := Generate(ctx, m, tok, prompts, 4, c)
	b, _ := Generate(ctx, m, tok, prompts, 4, c)
	c.Seed = 2
	d, _ := Generate(ctx, m, tok, prompts, 4, c)
	for i := range a {
		if !slices.Equal(a[i].Tokens, b[i].Tokens) {
			t.Fatal("the same seed gave different responses")
		}
	}
	if slices.Equal(a[0].Tokens, d[0].Tokens) && slices.Equal(a[1].Tokens, d[1].Tokens) {
		t.Error("different seeds gave the same responses")
	}
	if slices.Equal(a[0].Tokens, a[1].Tokens) && slices.Equal(a[1].Tokens, a[2].Tokens) {
		t.Error("responses of one group are identical under sampling")
	}
}

func TestOffsetsTileText(t *testing.T) {
	m, tok := setup(t, 256)
	c := DefaultConfig()
	c.MaxTokens = 30
	res, err := Generate(context.Background(), m, tok, encode(tok, "tile"), 8, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		pos := 0
		for i, o := range r.Offsets {
			if o[0] != pos || o[1] < o[0] {
				t.Fatalf("token %d range %v does not follow %d", i, o, pos)
			}
			if r.Tokens[i] == tok.EOS() && (o[0] != o[1] || i != len(r.Tokens)-1) {
				t.Fatalf("EOS at %d has range %v", i, o)
			}
			if string(r.Text[o[0]:o[1]]) != tok.Decode(r.Tokens[i:i+1]) && r.Tokens[i] != tok.EOS() {
				t.Fatalf("token %d text %q, want %q", i, r.Text[o[0]:o[1]], tok.Decode(r.Tokens[i:i+1]))
			}
			pos = o[1]
		}
		if pos != len(r.Text) {
			t.Fatalf("ranges end at %d, text has %d bytes", pos, len(r.Text))
		}
	}
}

// TestBadInput: defined behaviour at the edges, never a panic.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	m, tok := setup(t, 32)
	c := DefaultConfig()

	long := encode(tok, strings.Repeat("x", 40))
	if _, err := Generate(ctx, m, tok, long, 1, c); err == nil || !strings.Contains(err.Error(), "context") {
		t.Errorf("prompt longer than the context: error %v", err)
	}

	c.MaxTokens = 0
	res, err := Generate(ctx, m, tok, encode(tok, "a"), 2, c)
	if err != nil || len(res) != 2 || len(res[0].Tokens) != 0 || res[0].Finish != FinishLength {
		t.Errorf("max tokens 0: %+v, %v", res, err)
	}

	// The context bounds the response: truncated and flagged.
	c.MaxTokens = 100
	c.Stop = []string{"a stop sequence that never appears"}
	prompt := encode(tok, "0123456789")
	res, err = Generate(ctx, m, tok, prompt, 3, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Finish == FinishContext && len(prompt[0])+len(r.Tokens) != 32 {
			t.Errorf("context finish after %d+%d tokens, want 32 in all", len(prompt[0]), len(r.Tokens))
		}
		if r.Finish != FinishContext && r.Finish != FinishEOS {
			t.Errorf("finish %q, want context or eos", r.Finish)
		}
	}

	for _, bad := range []Config{{MaxTokens: -1, TopP: 1}, {Temperature: -1, TopP: 1}, {TopP: 0}, {TopP: 1, Stop: []string{""}}} {
		if _, err := Generate(ctx, m, tok, prompt, 1, bad); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
	if _, err := Generate(ctx, m, tok, [][]int32{{}}, 1, DefaultConfig()); err == nil {
		t.Error("empty prompt accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Generate(cancelled, m, tok, prompt, 1, DefaultConfig()); err == nil {
		t.Error("cancelled context ignored")
	}
}

// TestStop: a stop sequence ends the response at the token completing it.
func TestStop(t *testing.T) {
	m, tok := setup(t, 256)
	c := Config{MaxTokens: 40, Temperature: 0, TopP: 1}
	res, err := Generate(context.Background(), m, tok, encode(tok, "q"), 1, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res[0].Text) < 3 {
		t.Skipf("greedy response too short to test stop sequences: %q", res[0].Text)
	}
	stop := res[0].Text[1:3] // completed by the response's third byte
	c.Stop = []string{stop}
	got, err := Generate(context.Background(), m, tok, encode(tok, "q"), 1, c)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Finish != FinishStop || !strings.HasSuffix(got[0].Text, stop) || strings.Contains(got[0].Text[:len(got[0].Text)-1], stop) {
		t.Errorf("stop %q: got %q (%s)", stop, got[0].Text, got[0].Finish)
	}
}
