package rl

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
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

// TestReplayerWithFakePolicy: replay needs only the forwarder's two
// methods; it batches requests in chunks, keeps results in order, cuts
// an overlong prompt from its start and refuses a response that cannot fit.
func TestReplayerWithFakePolicy(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	f := &echoForwarder{ctxLen: 40}
	r := replayer{m: f, tok: tok, chunk: 2}
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
