package replay

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/js"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/policy/policytest"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

// echoTask has prompts "q<i>", one reward whose block is "B<i>", and
// reference responses "r<i>".
type echoTask struct{}

func (echoTask) Name() string { return "echo" }
func (echoTask) Prompt(_ task.Split, i int) task.Prompt {
	return task.Prompt{ID: fmt.Sprint(i), Text: fmt.Sprint("q", i), Ref: i}
}
func (echoTask) Rewards() []reward.Verifier                     { return []reward.Verifier{echoVerifier{}} }
func (echoTask) Demos(int, uint64, task.DemoConfig) []task.Demo { return nil }
func (echoTask) Reference(p task.Prompt) (string, bool)         { return fmt.Sprint("r", p.Ref), true }

type echoVerifier struct{}

func (echoVerifier) Name() string { return "echo" }
func (echoVerifier) Verify(_ context.Context, p reward.Prompt, _ string) (reward.Verdict, error) {
	return reward.Verdict{Score: 1, Info: fmt.Sprint("B", p.Ref)}, nil
}

// readingReplayer is a policy that reads its block: the reference's next
// token gets 0.9 after its own block, 0.1 after another's, 0.5 without a
// block (a placebo changes nothing).
type readingReplayer struct {
	tok  tokenizer.Tokenizer
	refs map[string]int // response tokens → prompt index
}

func (r readingReplayer) dist(x float32, id int32) []float32 {
	v := r.tok.VocabSize()
	d := make([]float32, v)
	for j := range d {
		d[j] = (1 - x) / float32(v-1)
	}
	d[id] = x
	return d
}

func (r readingReplayer) Replay(_ context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	out := make([][][]float32, len(reqs))
	for q, req := range reqs {
		i := r.refs[fmt.Sprint(req.Response)]
		x := float32(0.5)
		switch {
		case strings.Contains(req.Prompt, fmt.Sprint("B", i)):
			x = 0.9
		case strings.Contains(req.Prompt, "B"):
			x = 0.1
		}
		for _, id := range req.Response {
			out[q] = append(out[q], r.dist(x, id))
		}
	}
	return out, nil
}

func TestBlockDiagnostic(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	rp := readingReplayer{tok: tok, refs: map[string]int{}}
	for i := range 3 {
		ids, _ := tok.Encode(fmt.Sprint("r", i))
		rp.refs[fmt.Sprint(append(ids, tok.EOS()))] = i
	}
	rep, err := blockDiagnostic(context.Background(), rp, tok, echoTask{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("%s %v, want %v", name, got, want)
		}
	}
	if rep.Prompts != 3 || rep.Tokens != 9 {
		t.Errorf("%d prompts, %d tokens, want 3 and 9 (two bytes and the end token each)", rep.Prompts, rep.Tokens)
	}
	near("none", rep.LogProbNone, math.Log(0.5))
	near("right", rep.LogProbRight, math.Log(0.9))
	near("wrong", rep.LogProbWrong, math.Log(0.1))
	near("placebo", rep.LogProbPlacebo, math.Log(0.5))
	near("right − wrong", rep.RightOverWrong, math.Log(9))
	near("placebo JS", rep.PlaceboJS, 0)
	near("replay JS", rep.ReplayJS["echo"], js.Divergence(rp.dist(0.9, 1), rp.dist(0.5, 1)))
	if m := rep.Metrics(); m["blocks/replay_js/echo"] != rep.ReplayJS["echo"] || m["blocks/right_over_wrong"] != rep.RightOverWrong {
		t.Errorf("metrics %v", m)
	}
	if s := rep.String(); !strings.Contains(s, "right − wrong 2.197") {
		t.Errorf("report %q", s)
	}
	// This policy reads what a block says, not how long it is: neutral
	// text of a block's length moves it as removing the block does, and
	// none of the head's JS is position.
	near("neutral JS", rep.NeutralJS["echo"], rep.ReplayJS["echo"])
	near("position share", rep.PositionShareHead, 0)
	// One that reads only the prompt's length: removing a block moves it,
	// neutral text of the block's length does not, all of it is position.
	rep, err = blockDiagnostic(context.Background(), lengthReplayer{rp}, tok, echoTask{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ReplayJSHead["echo"] <= 0 || rep.NeutralJS["echo"] != 0 {
		t.Errorf("a length-reading policy: replay JS head %v, neutral JS %v", rep.ReplayJSHead, rep.NeutralJS)
	}
	near("position share of a length-reading policy", rep.PositionShareHead, 1)
}

// lengthReplayer is a policy whose next token depends only on the prompt's
// length.
type lengthReplayer struct{ readingReplayer }

func (r lengthReplayer) Replay(_ context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	out := make([][][]float32, len(reqs))
	for q, req := range reqs {
		x := float32(0.2 + 0.6*float64(len(req.Prompt)%7)/6)
		for _, id := range req.Response {
			out[q] = append(out[q], r.dist(x, id))
		}
	}
	return out, nil
}

// On a real policy the diagnostic runs end to end, and a task without
// reference responses is an error naming it.
func TestBlockDiagnosticPolicy(t *testing.T) {
	p, err := policy.Load(policytest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	tk, err := task.New("toolcall", task.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := BlockDiagnostic(context.Background(), p, tk, 3)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Prompts != 3 || rep.LogProbRight >= 0 || rep.PlaceboJS <= 0 || rep.PlaceboJS > 1 || len(rep.ReplayJS) != 2 {
		t.Errorf("report %+v", rep)
	}
	if _, err := BlockDiagnostic(context.Background(), p, noRefTask{tk}, 3); err == nil || !strings.Contains(err.Error(), "toolcall") {
		t.Errorf("a task without references: %v", err)
	}
}

// noRefTask hides a task's Reference.
type noRefTask struct{ task.Task }
