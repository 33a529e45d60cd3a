package lab

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rollout"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

// blockReader is a policy that reads one block: every response token has
// probability 0.9, except token 2, sure (0.99) when the prompt carries
// the block and unsure (0.5) without it, so replay's JS lives on token 2.
type blockReader struct {
	vocab int
	block string
}

func (b blockReader) Replay(_ context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	out := make([][][]float32, len(reqs))
	for i, r := range reqs {
		for t, y := range r.Response {
			p := float32(0.9)
			if t == 2 {
				p = 0.5
				if strings.Contains(r.Prompt, b.block) {
					p = 0.99
				}
			}
			d := make([]float32, b.vocab)
			d[y], d[(int(y)+1)%b.vocab] = p, 1-p
			out[i] = append(out[i], d)
		}
	}
	return out, nil
}

type namedVerifier string

func (n namedVerifier) Name() string { return string(n) }
func (n namedVerifier) Verify(context.Context, reward.Prompt, string) (reward.Verdict, error) {
	return reward.Verdict{}, nil
}

// TestLocalizer: on a group whose verdicts quote token 2 of 5 (with the
// end token), uniform credit (gdpo) has localization 1, span's quotes put
// more on the checked token, and replay (mrtpo) on a policy that reads the
// block puts nearly all of it there (at most 5: all of it); a reward that
// does not vary in its group has none.
func TestLocalizer(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	resp := func(text string) sample.Response {
		ids, offsets := tok.Encode(text)
		return sample.Response{Prompt: 0, Text: text, Tokens: append(ids, tok.EOS()), Offsets: append(offsets, [2]int{len(text), len(text)})}
	}
	const block = "Reference: ab,c"
	comma := []reward.Span{{Start: 2, End: 3}}
	ro := rollout.Rollouts{
		Prompts:   []task.Prompt{{Text: "write ab,c"}},
		Responses: []sample.Response{resp("ab,c"), resp("abxc"), resp("ab,c"), resp("abyc")},
		Verdicts: [][]reward.Verdict{
			{{Score: 1, Info: block, Spans: comma}, {Score: 0, Info: block, Spans: comma}, {Score: 1, Info: block, Spans: comma}, {Score: 0, Info: block, Spans: comma}},
			{{Score: 1, Info: "x"}, {Score: 1, Info: "x"}, {Score: 1, Info: "x"}, {Score: 1, Info: "x"}}, // no variance
		},
	}
	vs := []reward.Verifier{namedVerifier("comma"), namedVerifier("flat")}
	c := CalibrateConfig{Seed: 1, Localize: []string{"gdpo", "span", "mrtpo"}, Credit: credit.DefaultConfig()}
	l, err := newLocalizer(c, vs, blockReader{vocab: tok.VocabSize(), block: block})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // two batches: the mean of equal values is the value
		if err := l.add(context.Background(), ro, 0); err != nil {
			t.Fatal(err)
		}
	}
	got := l.of("comma")
	t.Logf("localization on comma: %v", got)
	if math.Abs(got["gdpo"]-1) > 1e-9 {
		t.Errorf("gdpo: %.6f, want 1 (uniform)", got["gdpo"])
	}
	if !(got["span"] > 1.5) || !(got["mrtpo"] > 4) || got["mrtpo"] > 5+1e-9 {
		t.Errorf("span %.4f (want > 1.5), mrtpo %.4f (want in (4, 5])", got["span"], got["mrtpo"])
	}
	if flat := l.of("flat"); flat != nil {
		t.Errorf("a reward without variance has localization %v", flat)
	}
	if _, err := newLocalizer(CalibrateConfig{Localize: []string{"p2t"}, Credit: credit.DefaultConfig()}, vs, nil); err == nil || !strings.Contains(err.Error(), "process reward model") {
		t.Errorf("p2t in a calibration: %v, want an error naming the process reward model", err)
	}
	if _, err := newLocalizer(CalibrateConfig{Localize: []string{"nope"}, Credit: credit.DefaultConfig()}, vs, nil); err == nil {
		t.Error("an unknown method is accepted")
	}
}
