package ifeval

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

func newTask(t testing.TB, seed uint64) *Task {
	t.Helper()
	tk, err := task.New("ifeval", task.Config{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return tk.(*Task)
}

func TestRegistered(t *testing.T) {
	if !slices.Contains(task.Names(), "ifeval") {
		t.Fatalf("ifeval not in %v", task.Names())
	}
	tk := newTask(t, 1)
	var names []string
	for _, v := range tk.Rewards() {
		names = append(names, v.Name())
	}
	if !slices.Equal(names, kindOrder) {
		t.Errorf("rewards %v, want %v", names, kindOrder)
	}
}

// TestSplits draws thousands of prompts per split: the splits share no
// text, every prompt is deterministic, has 2 to 6 kinds and states each of
// its constraints.
func TestSplits(t *testing.T) {
	tk := newTask(t, 7)
	const n = 3000
	texts := map[task.Split]map[string]bool{task.Train: {}, task.Test: {}}
	ids := map[string]bool{}
	for _, split := range []task.Split{task.Train, task.Test} {
		for i := range n {
			p := tk.Prompt(split, i)
			if q := tk.Prompt(split, i); q.Text != p.Text || q.ID != p.ID {
				t.Fatalf("Prompt(%v, %d) is not deterministic", split, i)
			}
			if ids[p.ID] {
				t.Fatalf("duplicate prompt id %s", p.ID)
			}
			ids[p.ID] = true
			texts[split][p.Text] = true
			ref := p.Ref.(*Ref)
			kinds := map[string]bool{}
			for _, it := range ref.Items {
				kinds[it.Kind] = true
				if !strings.Contains(p.Text, it.Constraint.Text()) {
					t.Errorf("%s: text lacks %q", p.ID, it.Constraint.Text())
				}
				if it.Constraint.ID() != kindID[it.Kind] {
					t.Errorf("%s: kind %s judged by %s", p.ID, it.Kind, it.Constraint.ID())
				}
			}
			if len(kinds) < 2 || len(kinds) > 6 {
				t.Errorf("%s has %d kinds", p.ID, len(kinds))
			}
		}
	}
	for s := range texts[task.Test] {
		if texts[task.Train][s] {
			t.Fatalf("prompt in both splits: %q", s)
		}
	}
	// The space of prompts is large: few repeats within a split.
	for split, m := range texts {
		if len(m) < n*9/10 {
			t.Errorf("%v: only %d distinct prompts of %d", split, len(m), n)
		}
	}
	// Another seed gives other prompts.
	other := newTask(t, 8)
	same := 0
	for i := range 200 {
		if other.Prompt(task.Train, i).Text == tk.Prompt(task.Train, i).Text {
			same++
		}
	}
	if same > 5 {
		t.Errorf("seeds 7 and 8 share %d of 200 prompts", same)
	}
}

// TestSkip checks that a reward the prompt lacks is skipped and one it has
// carries the constraint's text.
func TestSkip(t *testing.T) {
	tk := newTask(t, 3)
	ctx := context.Background()
	for i := range 50 {
		p := tk.Prompt(task.Train, i)
		ref := p.Ref.(*Ref)
		blocks := blocksOf(ref.Items)
		ds, err := tk.Verify(ctx, p, "anything at all")
		if err != nil {
			t.Fatal(err)
		}
		for k, d := range ds {
			kind := kindOrder[k]
			b, has := blocks[kind]
			if d.Skip == has {
				t.Errorf("%s %s: Skip %v, but prompt has it: %v", p.ID, kind, d.Skip, has)
			}
			if has && d.Info != b {
				t.Errorf("%s %s: Info %q, want %q", p.ID, kind, d.Info, b)
			}
			if d.Skip && (d.Score != 0 || d.Info != "") {
				t.Errorf("%s %s: skipped verdict %+v", p.ID, kind, d)
			}
		}
	}
	if _, err := NewVerifier("words").Verify(ctx, task.Prompt{ID: "x", Ref: 3}, "r"); err == nil {
		t.Error("Verify accepted a foreign Ref")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewVerifier("words").Verify(cctx, tk.Prompt(task.Train, 0), "r"); err == nil {
		t.Error("Verify ignored a cancelled context")
	}
}

// TestDemosClean: with no flaws every demonstration passes every reward
// its prompt has, and its prompt is the one the policy is asked in
// training, whatever the block rate.
func TestDemosClean(t *testing.T) {
	tk := newTask(t, 11)
	ctx := context.Background()
	ds := tk.demos(2000, 5, task.DemoConfig{BlockRate: 0.4})
	for _, d := range ds {
		if len(d.Flaws) != 0 {
			t.Fatalf("clean demo has flaws %v:\n%s", d.Flaws, d.Response)
		}
		vs, err := tk.Verify(ctx, d.prompt, d.Response)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range vs {
			if !v.Skip && v.Score != 1 {
				t.Fatalf("clean demo fails %s (%s):\n%s\n%s", kindOrder[k], v.Reason, d.Prompt, d.Response)
			}
		}
		if d.Prompt != d.prompt.Text || len(d.unstated) > 0 {
			t.Fatalf("clean demo has prompt %q, want %q", d.Prompt, d.prompt.Text)
		}
	}
}

// checkUnstated: a demonstration whose prompt leaves blocks out leaves out
// exactly those of the kinds its response breaks, and states the others
// after the request, in kind order.
func checkUnstated(t *testing.T, d demo) {
	t.Helper()
	if !slices.Equal(d.unstated, d.Flaws) {
		t.Fatalf("unstated %v, flaws %v", d.unstated, d.Flaws)
	}
	ref := d.prompt.Ref.(*Ref)
	all := blocksOf(ref.Items)
	var want []string
	for _, k := range kindOrder {
		if b, ok := all[k]; ok && !slices.Contains(d.Flaws, k) {
			want = append(want, b)
		}
	}
	if d.Prompt != task.Compose(ref.Request, want) {
		t.Fatalf("demo prompt %q, want the request and blocks %q", d.Prompt, want)
	}
	for _, k := range d.Flaws {
		if strings.Contains(d.Prompt, all[k]) {
			t.Fatalf("demo prompt %q states broken %s", d.Prompt, k)
		}
	}
}

// TestDemosFlawed: flawed demonstrations fail exactly the rewards they
// list, and each reward is flawed in about its configured share of the
// demonstrations whose prompt has it.
func TestDemosFlawed(t *testing.T) {
	tk := newTask(t, 12)
	ctx := context.Background()
	c := task.DemoConfig{DefaultFlawRate: 0.2, BlockRate: 0.3, FlawRate: map[string]float64{KindWords: 0.4, KindNoComma: 0.05}}
	const n = 2000
	ds := tk.demos(n, 9, c)
	has := map[string]int{}
	flawed := map[string]int{}
	unstated, withFlaws := 0, 0
	for _, d := range ds {
		vs, err := tk.Verify(ctx, d.prompt, d.Response)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range vs {
			kind := kindOrder[k]
			if v.Skip {
				if slices.Contains(d.Flaws, kind) {
					t.Fatalf("flaw %s on a prompt without it", kind)
				}
				continue
			}
			has[kind]++
			broken := v.Score == 0
			if broken != slices.Contains(d.Flaws, kind) {
				t.Fatalf("%s: score %v but flaws %v (%s):\n%s\n%s", kind, v.Score, d.Flaws, v.Reason, d.Prompt, d.Response)
			}
			if broken {
				flawed[kind]++
			}
		}
		switch {
		case len(d.unstated) > 0:
			checkUnstated(t, d)
			unstated++
		case d.Prompt != d.prompt.Text:
			t.Fatalf("demo prompt %q, want %q", d.Prompt, d.prompt.Text)
		}
		if len(d.Flaws) > 0 {
			withFlaws++
		}
		// Flaws are slips, not rewrites: one comma, one capitalised word.
		if slices.Contains(d.Flaws, KindNoComma) && strings.Count(d.Response, ",") != 1 {
			t.Errorf("no_comma flaw with %d commas: %q", strings.Count(d.Response, ","), d.Response)
		}
		if slices.Contains(d.Flaws, KindLowercase) {
			if r := lowercaseOf(t, d).Check(d.Response); len(r.Spans) != 1 {
				t.Errorf("lowercase flaw with %s: %q", r.Reason, d.Response)
			}
		}
	}
	for _, k := range kindOrder {
		rate := float64(flawed[k]) / float64(has[k])
		want := c.Rate(k)
		sd := math.Sqrt(want * (1 - want) / float64(has[k]))
		if math.Abs(rate-want) > 4*sd+0.01 {
			t.Errorf("%s: flawed in %.3f of %d demos, want %.2f", k, rate, has[k], want)
		}
		t.Logf("%-9s flawed %4d of %4d (%.3f, want %.2f)", k, flawed[k], has[k], rate, want)
	}
	if got := float64(unstated) / float64(withFlaws); math.Abs(got-c.BlockRate) > 0.05 {
		t.Errorf("%.3f of %d flawed demos leave the broken blocks out, want about %.2f", got, withFlaws, c.BlockRate)
	}
}

func lowercaseOf(t *testing.T, d demo) Constraint {
	for _, it := range d.prompt.Ref.(*Ref).Items {
		if it.Kind == KindLowercase {
			return it.Constraint
		}
	}
	t.Fatal("no lowercase constraint")
	return Constraint{}
}

// TestDemosDeterministic: the same seed gives the same demonstrations.
func TestDemosDeterministic(t *testing.T) {
	a := newTask(t, 1).Demos(50, 2, task.DefaultDemoConfig())
	b := newTask(t, 1).Demos(50, 2, task.DefaultDemoConfig())
	c := newTask(t, 1).Demos(50, 3, task.DefaultDemoConfig())
	same := 0
	for i := range a {
		if a[i].Prompt != b[i].Prompt || a[i].Response != b[i].Response || !slices.Equal(a[i].Flaws, b[i].Flaws) {
			t.Fatalf("demo %d differs between runs", i)
		}
		if a[i].Response == c[i].Response {
			same++
		}
	}
	if same > 5 {
		t.Errorf("seeds 2 and 3 share %d of 50 demos", same)
	}
	if len(newTask(t, 1).Demos(0, 1, task.DefaultDemoConfig())) != 0 || len(newTask(t, 1).Demos(-1, 1, task.DefaultDemoConfig())) != 0 {
		t.Error("Demos(0) or Demos(-1) returned demos")
	}
}

// TestDemoResponses checks the demonstrations' size for small policies.
func TestDemoResponses(t *testing.T) {
	ds := newTask(t, 4).Demos(500, 1, task.DefaultDemoConfig())
	total, longest := 0, 0
	for _, d := range ds {
		total += len(d.Response)
		longest = max(longest, len(d.Response))
	}
	if mean := total / len(ds); mean < 40 || mean > 220 {
		t.Errorf("mean response %d bytes, want 40 to 220", mean)
	}
	t.Logf("responses: mean %d bytes, longest %d", total/len(ds), longest)
}

// TestReplayPromptWithoutBlock: the replay prompt without reward k, built
// as credit's replay builds it (task.Compose after task.ReplayBase, with the
// verdicts' blocks), states nothing of kind k: neither its block nor any of
// its constraints' wording; the full one states them and is exactly the
// prompt the policy answers.
func TestReplayPromptWithoutBlock(t *testing.T) {
	tk := newTask(t, 3)
	ctx := context.Background()
	for i := range 200 {
		p := tk.Prompt(task.Train, i)
		resp, ok := tk.Reference(p)
		if !ok {
			t.Fatalf("%s: no reference response", p.ID)
		}
		vs, err := tk.Verify(ctx, p, resp)
		if err != nil {
			t.Fatal(err)
		}
		blocks := make([]string, len(vs))
		for k, v := range vs {
			if !v.Skip && v.Score != 1 {
				t.Fatalf("%s: the reference fails %s (%s)", p.ID, kindOrder[k], v.Reason)
			}
			blocks[k] = v.Info
		}
		base := task.ReplayBase(p)
		full := task.Compose(base, blocks)
		if full != p.Text {
			t.Fatalf("%s: full replay prompt %q is not the prompt %q", p.ID, full, p.Text)
		}
		for k := range blocks {
			if blocks[k] == "" {
				continue
			}
			without := slices.Clone(blocks)
			without[k] = ""
			w := task.Compose(base, without)
			for _, it := range p.Ref.(*Ref).Items {
				if it.Kind != kindOrder[k] {
					continue
				}
				if !strings.Contains(full, it.Constraint.Text()) {
					t.Fatalf("%s: the full prompt lacks %q", p.ID, it.Constraint.Text())
				}
				if strings.Contains(w, it.Constraint.Text()) {
					t.Fatalf("%s: the prompt without %s still states %q:\n%s", p.ID, kindOrder[k], it.Constraint.Text(), w)
				}
			}
			if strings.Contains(w, blocks[k]) {
				t.Fatalf("%s: the prompt without %s holds its block:\n%s", p.ID, kindOrder[k], w)
			}
		}
	}
	// A prompt that is not the task's (an IFEval record) has no reference.
	if _, ok := tk.Reference(task.Prompt{Text: "x", Ref: &Ref{}}); ok {
		t.Error("a reference for a prompt the task did not make")
	}
}
