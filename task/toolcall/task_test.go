package toolcall

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

func newTask(t testing.TB, seed uint64) *Task {
	t.Helper()
	tk, err := task.New("toolcall", task.Config{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return tk.(*Task)
}

func TestRegistered(t *testing.T) {
	tk := newTask(t, 1)
	var names []string
	for _, v := range tk.Rewards() {
		names = append(names, v.Name())
	}
	if tk.Name() != "toolcall" || !reflect.DeepEqual(names, []string{"format", "call"}) {
		t.Errorf("task %q with rewards %v", tk.Name(), names)
	}
}

// TestSplits draws a few thousand prompts per split and seed: the splits
// share no prompt text, every prompt is in its split's hash class, IDs are
// unique, and there is variety (the space is small: about 1,500 distinct
// weather prompts, for one, of which a fifth are test prompts).
func TestSplits(t *testing.T) {
	const n = 3000
	ids := map[string]bool{}
	for _, seed := range []uint64{1, 2} {
		tk := newTask(t, seed)
		texts := [2]map[string]bool{{}, {}}
		for _, split := range []task.Split{task.Train, task.Test} {
			for i := range n {
				p := tk.Prompt(split, i)
				if SplitOf(p.Text) != split {
					t.Fatalf("%s prompt %d is in class %s", split, i, SplitOf(p.Text))
				}
				texts[split][p.Text] = true
				key := p.ID + "/" + string(rune('0'+seed))
				if ids[key] {
					t.Fatalf("duplicate ID %s", p.ID)
				}
				ids[key] = true
			}
		}
		for s := range texts[task.Test] {
			if texts[task.Train][s] {
				t.Fatalf("seed %d: prompt in both splits: %q", seed, s)
			}
		}
		t.Logf("seed %d: %d distinct train prompts, %d distinct test prompts of %d each", seed, len(texts[0]), len(texts[1]), n)
		if len(texts[task.Train]) < n/2 || len(texts[task.Test]) < n/2 {
			t.Errorf("too many repeats: %d train, %d test distinct", len(texts[0]), len(texts[1]))
		}
	}
}

func TestDeterminism(t *testing.T) {
	a, b, c := newTask(t, 7), newTask(t, 7), newTask(t, 8)
	same := 0
	for i := range 200 {
		for _, split := range []task.Split{task.Train, task.Test} {
			pa, pb, pc := a.Prompt(split, i), b.Prompt(split, i), c.Prompt(split, i)
			if pa.Text != pb.Text || pa.ID != pb.ID || pa.Ref.(*Ref).ReferenceCall() != pb.Ref.(*Ref).ReferenceCall() {
				t.Fatalf("seed 7 %s prompt %d differs between two tasks", split, i)
			}
			if pa.Text == pc.Text {
				same++
			}
		}
	}
	if same > 40 {
		t.Errorf("seeds 7 and 8 agree on %d of 400 prompts", same)
	}
	da, db := a.Demos(100, 3, task.DefaultDemoConfig()), b.Demos(100, 3, task.DefaultDemoConfig())
	if !reflect.DeepEqual(da, db) {
		t.Error("the same demo seed gave different demonstrations")
	}
	if reflect.DeepEqual(da, a.Demos(100, 4, task.DefaultDemoConfig())) {
		t.Error("demo seeds 3 and 4 gave the same demonstrations")
	}
}

// TestPrompts checks the generated prompts are short, mention every tool
// they offer, and that their reference call, in the response format, scores
// 1 on both rewards and is short too.
func TestPrompts(t *testing.T) {
	tk := newTask(t, 1)
	targets := map[string]int{}
	maxPrompt, maxResp, sumPrompt, sumResp := 0, 0, 0, 0
	for i := range 2000 {
		p := tk.Prompt(task.Split(i%2), i)
		ref := p.Ref.(*Ref)
		if len(ref.Functions) != 2 {
			t.Fatalf("%d functions offered", len(ref.Functions))
		}
		for _, f := range ref.Functions {
			if !strings.Contains(p.Text, Signature(f)) {
				t.Fatalf("prompt %q does not show %s", p.Text, f.Name)
			}
		}
		targets[ref.Answer.Function]++
		resp := renderResponse("x", ref.ReferenceCall())
		for _, v := range tk.Rewards() {
			verdict, err := v.Verify(context.Background(), p, resp)
			if err != nil || verdict.Score != 1 {
				t.Fatalf("%s: reference %s scores %g (%s), %v", v.Name(), resp, verdict.Score, verdict.Reason, err)
			}
		}
		sumPrompt += len(p.Text)
		sumResp += len(resp)
		maxPrompt = max(maxPrompt, len(p.Text))
		maxResp = max(maxResp, len(resp))
	}
	t.Logf("targets %v; prompts %d bytes on average, %d at most; reference responses %d on average, %d at most",
		targets, sumPrompt/2000, maxPrompt, sumResp/2000, maxResp)
	if len(targets) != len(toolSchemas) {
		t.Errorf("targets %v, want all %d tools", targets, len(toolSchemas))
	}
	if maxPrompt > 160 || maxResp > 120 {
		t.Errorf("prompts up to %d bytes, responses up to %d: too long for small policies", maxPrompt, maxResp)
	}
}

// TestVocab checks every string parameter of the tools has a vocabulary of
// at least two values, and that enum vocabularies are the schema's enum.
func TestVocab(t *testing.T) {
	for _, f := range newTask(t, 1).tools {
		for _, p := range f.Params {
			if p.Type != "string" {
				continue
			}
			words := vocab[f.Name+"."+p.Name]
			if len(words) < 2 {
				t.Errorf("%s.%s has %d words", f.Name, p.Name, len(words))
			}
			if enum, ok := p.Schema.Get("enum"); ok {
				var vals []string
				for _, e := range enum.Elems {
					vals = append(vals, e.Str)
				}
				if !reflect.DeepEqual(vals, words) {
					t.Errorf("%s.%s: enum %v, vocabulary %v", f.Name, p.Name, vals, words)
				}
			}
		}
	}
}
