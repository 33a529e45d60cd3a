package slots

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

func newTask(t testing.TB, spec string) *Task {
	t.Helper()
	d, err := task.ParseDifficulty(spec)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := task.New("slots", task.Config{Seed: 3, Difficulty: d})
	if err != nil {
		t.Fatal(err)
	}
	return tk.(*Task)
}

func verdicts(t testing.TB, tk *Task, p task.Prompt, resp string) []reward.Verdict {
	t.Helper()
	var out []reward.Verdict
	for _, v := range tk.Rewards() {
		vd, err := v.Verify(context.Background(), p, resp)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, vd)
	}
	return out
}

func TestSplitsDisjointAndDeterministic(t *testing.T) {
	tk := newTask(t, "")
	seen := map[string]task.Split{}
	for _, split := range []task.Split{task.Train, task.Test} {
		for i := range 2000 {
			p := tk.Prompt(split, i)
			if q := tk.Prompt(split, i); q.Text != p.Text {
				t.Fatalf("prompt %s %d differs between calls", split, i)
			}
			if s, ok := seen[p.Text]; ok && s != split {
				t.Fatalf("prompt %q is in both splits", p.Text)
			}
			seen[p.Text] = split
		}
	}
}

// Each reward reads only its own line: slipping slot k changes reward k
// alone, and the reference answer scores 1 everywhere.
func TestRewardsAreIndependent(t *testing.T) {
	tk := newTask(t, "slots=5,max=20")
	for i := range 50 {
		p := tk.Prompt(task.Train, i)
		ref := p.Ref.(Ref)
		for _, vd := range verdicts(t, tk, p, ref.Response()) {
			if vd.Score != 1 {
				t.Fatalf("reference scored %v: %s", vd.Score, vd.Reason)
			}
		}
		for k := range ref.Pairs {
			lines := strings.Split(ref.Response(), "\n")
			pk := ref.Pairs[k]
			lines[k] = fmt.Sprintf("%d+%d=%d", pk.A, pk.B, pk.Sum()+1)
			resp := strings.Join(lines, "\n")
			for j, vd := range verdicts(t, tk, p, resp) {
				want := 1.0
				if j == k {
					want = 0
				}
				if vd.Score != want {
					t.Fatalf("slot %d slipped: reward %d scored %v (%s)", k, j, vd.Score, vd.Reason)
				}
			}
		}
	}
}

// The verifier's span lies inside the ground-truth region of its reward,
// on the sum's digits.
func TestSpansInsideRegions(t *testing.T) {
	tk := newTask(t, "")
	p := tk.Prompt(task.Test, 0)
	resp := p.Ref.(Ref).Response()
	regions := tk.Regions(p, resp)
	for k, vd := range verdicts(t, tk, p, resp) {
		if len(vd.Spans) != 1 || len(regions[k]) != 1 {
			t.Fatalf("reward %d: spans %v, regions %v", k, vd.Spans, regions[k])
		}
		s, r := vd.Spans[0], regions[k][0]
		if s.Start < r[0] || s.End > r[1] {
			t.Fatalf("reward %d: span %v outside region %v", k, s, r)
		}
		want := fmt.Sprint(p.Ref.(Ref).Pairs[k].Sum())
		if got := resp[s.Start:s.End]; got != want {
			t.Fatalf("reward %d: span holds %q, want the sum %q", k, got, want)
		}
	}
}

func TestMalformedResponses(t *testing.T) {
	tk := newTask(t, "slots=2")
	p := task.Prompt{ID: "x", Ref: Ref{Pairs: []Pair{{3, 4}, {7, 2}}}}
	cases := []struct {
		resp       string
		want       [2]float64
		spanOfLine [2]bool // the span is the whole line
	}{
		{"3+4=7\n7+2=9", [2]float64{1, 1}, [2]bool{}},
		{"3+4=7", [2]float64{1, 0}, [2]bool{}},
		{"3+4=7\n7+2=9 ", [2]float64{1, 0}, [2]bool{false, true}},
		{"3 + 4 = 7\n7+2=9", [2]float64{0, 1}, [2]bool{true, false}},
		{"4+3=7\n7+2=9", [2]float64{0, 1}, [2]bool{}},
		{"", [2]float64{0, 0}, [2]bool{}},
		{"3+4=07\n7+2=+9", [2]float64{0, 0}, [2]bool{true, true}},
		{"3+4=9999999\n", [2]float64{0, 0}, [2]bool{true, false}},
	}
	for _, c := range cases {
		vs := verdicts(t, tk, p, c.resp)
		for k, vd := range vs {
			if vd.Score != c.want[k] {
				t.Errorf("%q reward %d: score %v, want %v (%s)", c.resp, k, vd.Score, c.want[k], vd.Reason)
			}
			if vd.Score == 0 && vd.Reason == "" {
				t.Errorf("%q reward %d: a zero without a reason", c.resp, k)
			}
			if c.spanOfLine[k] {
				s, e, _ := lineRange(c.resp, k)
				if len(vd.Spans) != 1 || vd.Spans[0].Start != s || vd.Spans[0].End != e {
					t.Errorf("%q reward %d: spans %v, want the whole line [%d,%d)", c.resp, k, vd.Spans, s, e)
				}
			}
		}
	}
	if _, err := (Verifier{Slot: 2}).Verify(context.Background(), p, "3+4=7"); err == nil {
		t.Error("a reward for a slot the prompt lacks must be an error")
	}
	if _, err := (Verifier{}).Verify(context.Background(), task.Prompt{Ref: 3}, "x"); err == nil {
		t.Error("a prompt without a slots.Ref must be an error")
	}
}

func TestDifficultySettings(t *testing.T) {
	tk := newTask(t, "slots=6,max=50")
	if len(tk.Rewards()) != 6 || tk.Rewards()[5].Name() != "slot6" {
		t.Fatalf("rewards %v", tk.Rewards())
	}
	for i := range 200 {
		for _, pr := range tk.Prompt(task.Train, i).Ref.(Ref).Pairs {
			if pr.A > 50 || pr.B > 50 || pr.A < 0 || pr.B < 0 {
				t.Fatalf("operand outside [0, 50]: %v", pr)
			}
		}
	}
	for _, bad := range []string{"slots=1", "slots=9", "max=0", "max=x", "level=3", "slots=4,max=1"} {
		d, err := task.ParseDifficulty(bad)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := task.New("slots", task.Config{Difficulty: d}); err == nil {
			t.Errorf("difficulty %q accepted", bad)
		}
	}
}

// Demonstrations slip each slot at its flaw rate overall, and never slip a
// slot whose block the prompt carries.
func TestDemoFlawRatesAndBlocks(t *testing.T) {
	tk := newTask(t, "slots=3")
	c := task.DemoConfig{DefaultFlawRate: 0.5, FlawRate: map[string]float64{"slot3": 0.2}, BlockRate: 0.3}
	demos := tk.Demos(6000, 9, c)
	flawed := map[string]int{}
	withBlocks := 0
	for _, d := range demos {
		for _, f := range d.Flaws {
			flawed[f]++
		}
		if strings.Contains(d.Prompt, "Reference ") {
			withBlocks++
		}
		for k := range 3 {
			name := fmt.Sprintf("slot%d", k+1)
			if strings.Contains(d.Prompt, fmt.Sprintf("Reference %d:", k+1)) && strings.Contains(strings.Join(d.Flaws, ","), name) {
				t.Fatalf("slot %d has its block and a flaw:\n%s\n---\n%s", k+1, d.Prompt, d.Response)
			}
		}
	}
	for name, want := range map[string]float64{"slot1": 0.5, "slot2": 0.5, "slot3": 0.2} {
		got := float64(flawed[name]) / float64(len(demos))
		if math.Abs(got-want) > 0.03 {
			t.Errorf("%s flaw rate %.3f, want %.2f", name, got, want)
		}
	}
	if got := float64(withBlocks) / float64(len(demos)); math.Abs(got-0.3) > 0.03 {
		t.Errorf("block rate %.3f, want 0.3", got)
	}
	// Every demonstration's score agrees with its declared flaws.
	for i, d := range demos[:200] {
		p := task.Prompt{ID: "demo", Ref: parsePrompt(t, d.Prompt)}
		for k, vd := range verdicts(t, tk, p, d.Response) {
			broken := strings.Contains(strings.Join(d.Flaws, ","), fmt.Sprintf("slot%d", k+1))
			if (vd.Score == 0) != broken {
				t.Fatalf("demo %d slot %d: score %v, flaws %v", i, k+1, vd.Score, d.Flaws)
			}
		}
	}
}

// parsePrompt reads a demonstration's pairs back from its prompt text.
func parsePrompt(t testing.TB, text string) Ref {
	t.Helper()
	var r Ref
	for _, line := range strings.Split(text, "\n")[1:] {
		if line == "" {
			break
		}
		var p Pair
		if _, err := fmt.Sscanf(line, "%d+%d", &p.A, &p.B); err != nil {
			t.Fatalf("prompt line %q: %v", line, err)
		}
		r.Pairs = append(r.Pairs, p)
	}
	return r
}

// The replay prompt without reward k holds none of reward k's
// information (its block, its answer line); the full one holds it.
func TestReplayPromptWithoutBlockHidesTheAnswer(t *testing.T) {
	tk := newTask(t, "")
	for i := range 100 {
		p := tk.Prompt(task.Train, i)
		vs := verdicts(t, tk, p, "")
		blocks := make([]string, len(vs))
		for k, vd := range vs {
			blocks[k] = vd.Info
		}
		full := task.Compose(p.Text, blocks)
		for k := range vs {
			without := append([]string(nil), blocks...)
			without[k] = ""
			w := task.Compose(p.Text, without)
			line := p.Ref.(Ref).Pairs[k].Line()
			if !strings.Contains(full, blocks[k]) || !strings.Contains(full, line) {
				t.Fatalf("the full prompt lacks reward %d's block", k)
			}
			if strings.Contains(w, blocks[k]) || strings.Contains(w, "Reference "+fmt.Sprint(k+1)+":") || containsLine(w, line) {
				t.Fatalf("the prompt without reward %d still tells its answer:\n%s", k, w)
			}
		}
	}
}

// containsLine reports whether line (a+b=c) occurs in s not as part of a
// longer number.
func containsLine(s, line string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], line)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || s[j-1] < '0' || s[j-1] > '9'
		end := j + len(line)
		after := end == len(s) || s[end] < '0' || s[end] > '9'
		if before && after {
			return true
		}
		i = j + 1
	}
}

func FuzzVerify(f *testing.F) {
	f.Add("3+4=7\n7+2=9", 3, 4)
	f.Add("\n\n+=\n", 0, 0)
	f.Add("99+99=198", 99, 99)
	f.Fuzz(func(t *testing.T, resp string, a, b int) {
		p := task.Prompt{ID: "f", Ref: Ref{Pairs: []Pair{{a, b}, {b, a}}}}
		for k := range 2 {
			vd, err := Verifier{Slot: k}.Verify(context.Background(), p, resp)
			if err != nil {
				t.Fatal(err)
			}
			if vd.Score != 0 && vd.Score != 1 {
				t.Fatalf("score %v", vd.Score)
			}
			for _, s := range vd.Spans {
				if s.Start < 0 || s.End > len(resp) || s.Start > s.End {
					t.Fatalf("span %v outside the response of %d bytes", s, len(resp))
				}
			}
		}
	})
}

func BenchmarkVerify(b *testing.B) {
	tk := newTask(b, "")
	p := tk.Prompt(task.Train, 0)
	resp := p.Ref.(Ref).Response()
	v := tk.Rewards()[2]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(context.Background(), p, resp); err != nil {
			b.Fatal(err)
		}
	}
}

// With strict=0 any correct sum on line k counts, whatever its operands.
func TestLoose(t *testing.T) {
	tk := newTask(t, "slots=2,strict=0")
	p := task.Prompt{ID: "x", Ref: Ref{Pairs: []Pair{{3, 4}, {7, 2}}}}
	vs := verdicts(t, tk, p, "5+5=10\n7+2=8")
	if vs[0].Score != 1 || vs[1].Score != 0 {
		t.Fatalf("loose verdicts %v %v", vs[0], vs[1])
	}
	strict := verdicts(t, newTask(t, "slots=2"), p, "5+5=10\n7+2=9")
	if strict[0].Score != 0 || strict[1].Score != 1 {
		t.Fatalf("strict verdicts %v %v", strict[0], strict[1])
	}
}

// The reference of every prompt the task made passes every reward; a
// prompt it did not make has none.
func TestReference(t *testing.T) {
	for _, settings := range []string{"", "slots=6,max=50", "strict=0"} {
		tk := newTask(t, settings)
		for _, split := range []task.Split{task.Train, task.Test} {
			for i := range 50 {
				p := tk.Prompt(split, i)
				resp, ok := tk.Reference(p)
				if !ok {
					t.Fatalf("%q: no reference for prompt %s", settings, p.ID)
				}
				for _, vd := range verdicts(t, tk, p, resp) {
					if vd.Score != 1 {
						t.Fatalf("%q: reference %q of %s scores %g", settings, resp, p.ID, vd.Score)
					}
				}
			}
		}
		if _, ok := tk.Reference(task.Prompt{ID: "x", Text: "3+4"}); ok {
			t.Fatalf("%q: a reference for a prompt the task did not make", settings)
		}
	}
}
