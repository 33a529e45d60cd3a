package toolcall

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/tasktest"
)

func tuned(t *testing.T, spec string) *Task {
	t.Helper()
	return tasktest.Tuned(t, "toolcall", spec).(*Task)
}

// tools=k offers k distinct tools, the target among them at every
// position, and the prompt lists exactly their signatures.
func TestToolsKnob(t *testing.T) {
	for k := 1; k <= len(toolSchemas); k++ {
		tk := tuned(t, "tools="+string(rune('0'+k)))
		at := make([]int, k)
		for i := range 400 {
			p := tk.Prompt(task.Train, i)
			ref := p.Ref.(*Ref)
			if len(ref.Functions) != k {
				t.Fatalf("tools=%d: %d functions offered", k, len(ref.Functions))
			}
			line, _, _ := strings.Cut(strings.TrimPrefix(p.Text, "Tools: "), "\nUser: ")
			if n := strings.Count(line, "; ") + 1; n != k {
				t.Fatalf("tools=%d: prompt lists %d signatures: %q", k, n, p.Text)
			}
			seen := map[string]bool{}
			for j, f := range ref.Functions {
				if seen[f.Name] {
					t.Fatalf("tools=%d: %s offered twice", k, f.Name)
				}
				seen[f.Name] = true
				if f.Name == ref.Answer.Function {
					at[j]++
				}
			}
		}
		for j, n := range at {
			if n < 400/k/2 {
				t.Errorf("tools=%d: target at position %d in %d of 400 prompts, want about %d", k, j, n, 400/k)
			}
		}
	}
}

// optionalOf reports, for a prompt whose target has an optional argument,
// whether the request leaves it out (its accepted values include "").
func optionalOf(ref *Ref) (omitted, ok bool) {
	opt := map[string]string{"weather": "unit", "timer": "label", "search": "limit"}[ref.Answer.Function]
	if opt == "" {
		return false, false
	}
	for _, a := range ref.Answer.Params {
		if a.Name == opt {
			for _, v := range a.Values {
				if v.Kind == String && v.Str == "" {
					return true, true
				}
			}
			return false, true
		}
	}
	return false, false
}

// optional=omit leaves every optional argument out of the request, state
// states every one, mixed does both.
func TestOptionalKnob(t *testing.T) {
	for _, c := range []struct {
		mode           string
		omitted, state bool // whether some prompt omits / states it
	}{{"omit", true, false}, {"state", false, true}, {"mixed", true, true}} {
		tk := tuned(t, "optional="+c.mode)
		var omitted, stated int
		for i := range 300 {
			o, ok := optionalOf(tk.Prompt(task.Train, i).Ref.(*Ref))
			switch {
			case !ok:
			case o:
				omitted++
			default:
				stated++
			}
		}
		if (omitted > 0) != c.omitted || (stated > 0) != c.state {
			t.Errorf("optional=%s: %d prompts omit the optional argument, %d state it", c.mode, omitted, stated)
		}
	}
}

// vocab=N draws every city from the first N cities; the default uses more.
func TestVocabKnob(t *testing.T) {
	citiesOf := func(tk *Task) map[string]bool {
		out := map[string]bool{}
		for i := range 600 {
			ref := tk.Prompt(task.Train, i).Ref.(*Ref)
			if ref.Answer.Function == "weather" {
				out[ref.Answer.Params[0].Values[0].Str] = true
			}
		}
		return out
	}
	small := citiesOf(tuned(t, "vocab=3"))
	if len(small) != 3 {
		t.Errorf("vocab=3: cities %v, want 3 of them", small)
	}
	for c := range small {
		if !strings.Contains(strings.Join(cities[:3], ","), c) {
			t.Errorf("vocab=3: city %s is not among the first three", c)
		}
	}
	if all := citiesOf(tuned(t, "")); len(all) <= 10 {
		t.Errorf("default: only %d cities", len(all))
	}
}

// max=N bounds every number a request states; the default keeps each
// tool's own range, so its prompts are the ones the task made before.
func TestMaxKnob(t *testing.T) {
	largest := func(tk *Task) float64 {
		top := 0.0
		for i := range 600 {
			for _, a := range tk.Prompt(task.Train, i).Ref.(*Ref).Answer.Params {
				for _, v := range a.Values {
					if x, err := strconv.ParseFloat(v.Num, 64); v.Kind == Number && err == nil && x > top {
						top = x
					}
				}
			}
		}
		return top
	}
	if got := largest(tuned(t, "max=9")); got < 5 || got >= 10 { // convert may add .75 to 9
		t.Errorf("max=9: largest number %v, want in [5, 10)", got)
	}
	if got := largest(tuned(t, "")); got <= 90 {
		t.Errorf("default: largest number %v, want convert's amounts above 90", got)
	}
	def, same := tuned(t, ""), tuned(t, "max=500")
	for i := range 50 {
		if a, b := def.Prompt(task.Train, i).Text, same.Prompt(task.Train, i).Text; a != b {
			t.Fatalf("max=500 changed prompt %d: %q, default %q", i, b, a)
		}
	}
}

// At every setting the clean demonstrations score 1 on both rewards and
// the flawed ones break what they say (a single offered tool included,
// where no other name can be called).
func TestDemosAtSettings(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []string{"tools=1", "tools=4,optional=state", "vocab=2,optional=omit", "tools=1,max=9"} {
		tk := tuned(t, spec)
		demos, refs, counters := tk.demos(400, 3, task.DemoConfig{DefaultFlawRate: 0.3, BlockRate: 0.3})
		for i, d := range demos {
			text, _, _ := strings.Cut(d.Prompt, "\n\n")
			pr := task.Prompt{Text: text, Ref: refs[i]}
			fv, _ := FormatVerifier{}.Verify(ctx, pr, d.Response)
			cv, err := CallVerifier{}.Verify(ctx, pr, d.Response)
			if err != nil {
				t.Fatal(err)
			}
			flaw := strings.Join(d.Flaws, ",")
			if wantF := !strings.Contains(flaw, "format"); (fv.Score == 1) != wantF {
				t.Errorf("%s demo %d: format %v, flaws %v: %q", spec, i, fv.Score, d.Flaws, d.Response)
			}
			if wantC := !strings.Contains(flaw, "format") && !strings.Contains(flaw, "call"); counters[i] == nil && (cv.Score == 1) != wantC {
				t.Errorf("%s demo %d: call %v, flaws %v: %q", spec, i, cv.Score, d.Flaws, d.Response)
			}
		}
	}
}

func TestBadSettings(t *testing.T) {
	tasktest.Refuses(t, "toolcall", "tools=0", "tools=6", "tools=two", "vocab=1", "vocab=21", "max=0", "max=501", "max=nine", "optional=some", "think=long", "level=2")
}

// think=plan gives every demonstration the same prompts as think=short
// with a thought of two sentences that names no argument value, one per
// prompt, drawn from many (so the policy cannot read it off the prompt);
// the reference response carries it too, and scores full marks.
func TestThinkKnob(t *testing.T) {
	short, planned := tuned(t, "tools=1,optional=state"), tuned(t, "tools=1,optional=state,think=plan")
	plans := map[string]bool{}
	for i := range 200 {
		ps, pp := short.Prompt(task.Train, i), planned.Prompt(task.Train, i)
		if ps.Text != pp.Text {
			t.Fatalf("prompt %d differs with think=plan:\n%q\n%q", i, ps.Text, pp.Text)
		}
		resp, ok := planned.Reference(pp)
		if !ok {
			t.Fatalf("prompt %d: no reference response", i)
		}
		th, _, _ := strings.Cut(strings.TrimPrefix(resp, "<think>"), "</think>")
		if n := len(th); n < 40 || n > 110 {
			t.Errorf("prompt %d: plan of %d bytes, want 40..110: %q", i, n, th)
		}
		for _, a := range pp.Ref.(*Ref).Answer.Params {
			for _, v := range a.Values {
				if v.Kind == String && v.Str != "" && strings.Contains(strings.ToLower(th), strings.ToLower(v.Str)) {
					t.Errorf("prompt %d: the plan names argument %s=%q: %q", i, a.Name, v.Str, th)
				}
			}
		}
		if again, _ := planned.Reference(planned.Prompt(task.Train, i)); again != resp {
			t.Fatalf("prompt %d: two plans for one prompt", i)
		}
		plans[th] = true
		for _, v := range planned.Rewards() {
			verdict, err := v.Verify(context.Background(), pp, resp)
			if err != nil || verdict.Score != 1 {
				t.Fatalf("prompt %d: reference scores %v on %s (%v): %q", i, verdict.Score, v.Name(), err, resp)
			}
		}
	}
	if len(plans) < 150 {
		t.Errorf("%d distinct plans over 200 prompts, want most of them distinct", len(plans))
	}
	for _, d := range planned.Demos(50, 3, task.DemoConfig{}) {
		th, _, _ := strings.Cut(strings.TrimPrefix(d.Response, "<think>"), "</think>")
		if strings.Count(th, ".") != 2 {
			t.Errorf("a demonstration without a plan: %q", d.Response)
		}
	}
}

// think=plan demonstrates a prompt always with its one plan; think=varied
// with plans drawn afresh; both name no argument (TestThinkKnob).
func TestThinkVaried(t *testing.T) {
	thoughts := func(spec string) map[string]map[string]bool {
		out := map[string]map[string]bool{}
		for _, d := range tuned(t, spec).Demos(600, 5, task.DemoConfig{}) {
			th, _, ok := strings.Cut(strings.TrimPrefix(d.Response, "<think>"), "</think>")
			if !ok || strings.Count(th, ".") != 2 {
				t.Fatalf("%s: a demonstration without a plan: %q", spec, d.Response)
			}
			if out[d.Prompt] == nil {
				out[d.Prompt] = map[string]bool{}
			}
			out[d.Prompt][th] = true
		}
		return out
	}
	const base = "tools=1,optional=state,vocab=4,max=1"
	for p, ths := range thoughts(base + ",think=plan") {
		if len(ths) != 1 {
			t.Errorf("think=plan: prompt %q demonstrated with %d plans, want 1", p, len(ths))
		}
	}
	var many int
	varied := thoughts(base + ",think=varied")
	for _, ths := range varied {
		if len(ths) > 1 {
			many++
		}
	}
	if many < len(varied)/2 {
		t.Errorf("think=varied: %d of %d prompts demonstrated with more than one plan", many, len(varied))
	}
}
