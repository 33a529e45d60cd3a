package records

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// IFEval's 541 prompts: one reward per instruction id present (all 25),
// a fixed split, the prompt's own sentences as blocks, and no
// demonstrations.
func TestIFEvalRecords(t *testing.T) {
	tk := open(t, shareddata.Path(t, "ifeval/input_data.jsonl"), Options{Format: "ifeval"})
	if n := tk.Len(task.Train) + tk.Len(task.Test); n != 541 || len(tk.Skipped()) != 0 {
		t.Fatalf("%d prompts, skipped %v", n, tk.Skipped())
	}
	// The split is the records' hash: these counts change only with it.
	if tr, te := tk.Len(task.Train), tk.Len(task.Test); tr != ifevalTrain || te != 541-ifevalTrain {
		t.Errorf("split %d train / %d test, want %d / %d", tr, te, ifevalTrain, 541-ifevalTrain)
	}
	if len(tk.Rewards()) != 25 || tk.Name() != "records-ifeval" {
		t.Errorf("%s: %d rewards %v", tk.Name(), len(tk.Rewards()), reward.NamesOf(tk.Rewards()))
	}
	var p task.Prompt
	for s := range 2 {
		for i := range tk.Len(task.Split(s)) {
			if q := tk.Prompt(task.Split(s), i); q.ID == "ifeval-1000" {
				p = q
			}
		}
	}
	if p.ID == "" {
		t.Fatal("no prompt ifeval-1000")
	}
	want := map[string]string{
		"punctuation:no_comma":                          "Do not use any commas and highlight at least 3 sections",
		"detectable_format:number_highlighted_sections": "Do not use any commas and highlight at least 3 sections",
		"length_constraints:number_words":               "Write a 300+ word summary",
		"keywords:existence":                            "", // not in this prompt: Skip, no block
	}
	for _, v := range tk.Rewards() {
		w, ok := want[v.Name()]
		if !ok {
			continue
		}
		d, err := v.Verify(context.Background(), p, "A short answer, with a comma.")
		if err != nil || !strings.HasPrefix(d.Info, w) || (w == "") != d.Skip {
			t.Errorf("%s: %+v, %v; want a block starting %q", v.Name(), d, err, w)
		}
	}
	if d := tk.Demos(4, 1, task.DefaultDemoConfig()); d != nil || tk.NoDemos() == nil {
		t.Errorf("demos %v, NoDemos %v", d, tk.NoDemos())
	}
	if _, ok := tk.Reference(p); ok {
		t.Error("an IFEval record has a reference")
	}
	if r, ok := tk.Record(p); !ok || !strings.HasPrefix(string(r), `{"key":1000,"prompt":"Write a 300+ word summary`) {
		t.Errorf("record %s, %v", r, ok)
	}
}

// ifevalTrain is the training prompts of IFEval's 541 at the default
// fraction 0.2.
const ifevalTrain = 430

// Each format's references score 1 on every reward that applies, and its
// demonstrations are those references.
func TestReferencesScoreOne(t *testing.T) {
	cases := []struct {
		name   string
		path   func(testing.TB) string
		o      Options
		block  map[string]string // reward → the block's prefix
		prompt string            // in every prompt's text
	}{
		{"gsm8k", func(tb testing.TB) string { return shareddata.Path(tb, "gsm8k/test.jsonl") }, Options{Format: "gsm8k"}, nil, "answer: N"},
		{"bfcl", func(tb testing.TB) string { return bfclRecords(tb, "BFCL_v4_simple_python.json") }, Options{Format: "bfcl"},
			map[string]string{"call": "Function: {"}, "<tool_call>"},
		{"bfcl-multiple", func(tb testing.TB) string { return bfclRecords(tb, "BFCL_v4_multiple.json") }, Options{Format: "bfcl"},
			map[string]string{"call": "Function: {"}, "<tool_call>"},
		{"sql", func(tb testing.TB) string { return sqlRecords(tb, 60) }, Options{Format: "sql"},
			map[string]string{"executes": "Schema:\nCREATE TABLE customers"}, "CREATE TABLE orders"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tk := open(t, c.path(t), c.o)
			if len(tk.Skipped()) > 0 {
				t.Errorf("skipped %d: %v", len(tk.Skipped()), tk.Skipped()[0])
			}
			for s := range 2 {
				for i := range tk.Len(task.Split(s)) {
					p := tk.Prompt(task.Split(s), i)
					ref, ok := tk.Reference(p)
					if !ok || !strings.Contains(p.Text, c.prompt) {
						t.Fatalf("%s: reference %v, text %q", p.ID, ok, p.Text)
					}
					for name, sc := range scores(t, tk.Rewards(), p, ref) {
						if sc == 0 {
							t.Fatalf("%s: %s scores its reference %q 0", p.ID, name, ref)
						}
					}
					for name, pre := range c.block {
						for _, v := range tk.Rewards() {
							if d, _ := v.Verify(context.Background(), p, ""); v.Name() == name && !strings.HasPrefix(d.Info, pre) {
								t.Fatalf("%s: %s block %q", p.ID, name, d.Info)
							}
						}
					}
				}
			}
			demos := tk.Demos(7, 3, task.DemoConfig{BlockRate: 1})
			if len(demos) != 7 || tk.NoDemos() != nil {
				t.Fatalf("%d demos, %v", len(demos), tk.NoDemos())
			}
			for _, d := range demos {
				if c.block != nil && !strings.Contains(d.Prompt, "\n\n"+strings.SplitN(c.block[firstKey(c.block)], "\n", 2)[0]) {
					t.Errorf("demo prompt without its block: %q", d.Prompt)
				}
			}
		})
	}
}

func firstKey(m map[string]string) string {
	for k := range m {
		return k
	}
	return ""
}

// Malformed records are reported by line and skipped, or refused with
// Strict; a duplicate id is malformed too.
func TestMalformedRecords(t *testing.T) {
	good := func(q string, a int) string {
		return `{"question": "` + q + `", "answer": "It is so.\n#### ` + strings.Repeat("1", a) + `"}`
	}
	lines := []string{good("a?", 1), `not json`, `[1, 2]`, `{"question": "no answer"}`, ``, good("b?", 2),
		`{"question": "c?", "answer": "no hashes"}`, `{"id": "x", "question": "d?", "answer": "#### 4"}`, `{"id": "x", "question": "e?", "answer": "#### 5"}`}
	for i := range 30 {
		lines = append(lines, good(strings.Repeat("q", i+1)+"?", i%5+1))
	}
	path := writeLines(t, lines...)
	tk := open(t, path, Options{Format: "gsm8k", TestFraction: 0.3})
	var log strings.Builder
	Report(&log, tk)
	if want := "33 gsm8k prompts"; !strings.Contains(log.String(), want) || !strings.Contains(log.String(), "5 malformed records skipped") || !strings.Contains(log.String(), "  skipped line 2: not JSON") {
		t.Errorf("report:\n%s", log.String())
	}
	var got []int
	for _, p := range tk.Skipped() {
		got = append(got, p.Line)
	}
	if want := []int{2, 3, 4, 7, 9}; !slices.Equal(got, want) {
		t.Errorf("skipped lines %v, want %v (%v)", got, want, tk.Skipped())
	}
	if tk.Len(task.Train)+tk.Len(task.Test) != 33 {
		t.Errorf("%d prompts", tk.Len(task.Train)+tk.Len(task.Test))
	}
	_, err := Open(context.Background(), path, Options{Format: "gsm8k", Strict: true})
	var pr Problem
	if !errors.As(err, &pr) || pr.Line != 2 || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("strict: %v", err)
	}
}

// Bad options and files are errors that say what is wrong.
func TestOpenErrors(t *testing.T) {
	one := writeLines(t, `{"question": "a?", "answer": "#### 1"}`)
	cases := []struct {
		name, path string
		o          Options
		want       string
	}{
		{"format", one, Options{Format: "csv"}, `unknown format "csv" (known: bfcl, gsm8k, ifeval, sql)`},
		{"fraction", one, Options{Format: "gsm8k", TestFraction: 1}, "test fraction 1 is not in (0, 1)"},
		{"negative", one, Options{Format: "gsm8k", TestFraction: -0.1}, "not in (0, 1)"},
		{"one split", one, Options{Format: "gsm8k"}, "both splits need one"},
		{"missing", one + ".nope", Options{Format: "gsm8k"}, "no such file"},
		{"empty", writeLines(t, ""), Options{Format: "gsm8k"}, "no records"},
		{"none usable", writeLines(t, "{}", "[]"), Options{Format: "gsm8k"}, "none of its 2 records is usable (first: line 1"},
		{"sql db", writeLines(t, `{"db_id": "nope", "query": "SELECT 1", "question": "q"}`), Options{Format: "sql", Strict: true}, `line 1: sql record: no database "nope"`},
	}
	for _, c := range cases {
		if _, err := Open(context.Background(), c.path, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// The split is a function of each record's compact line alone: the same
// record lands in the same split whatever its spacing, the file around it
// or the seed, and about the fraction of records are test records.
func TestSplitIsStable(t *testing.T) {
	if TestSplit([]byte(`{"a": 1, "b": [2, 3]}`), 0.5) != TestSplit([]byte(`{"a":1,"b":[2,3]}`), 0.5) {
		t.Error("spacing changes the split")
	}
	n := 0
	for i := range 10000 {
		if TestSplit([]byte(`{"question": "`+strings.Repeat("x", i%97)+string(rune('a'+i%26))+`", "i": `+strconv.Itoa(i)+`}`), 0.2) {
			n++
		}
	}
	if n < 1800 || n > 2200 {
		t.Errorf("%d of 10000 records in a 0.2 test split", n)
	}
	path := shareddataOrSkip(t)
	a := open(t, path, Options{Format: "gsm8k", Seed: 1})
	b := open(t, path, Options{Format: "gsm8k", Seed: 2})
	if a.Len(task.Test) != b.Len(task.Test) || a.Prompt(task.Test, 5).ID != b.Prompt(task.Test, 5).ID {
		t.Error("the seed changes the test split")
	}
	if a.Prompt(task.Train, 0).ID == b.Prompt(task.Train, 0).ID && a.Prompt(task.Train, 1).ID == b.Prompt(task.Train, 1).ID {
		t.Error("the seed does not change the training order")
	}
}

// All lists every record once, in file order, each with the split that
// holds it.
func TestAll(t *testing.T) {
	var lines []string
	for i := range 12 {
		lines = append(lines, `{"question": "q`+strconv.Itoa(i)+`?", "answer": "#### `+strconv.Itoa(i)+`"}`)
	}
	tk := open(t, writeLines(t, lines...), Options{Format: "gsm8k", TestFraction: 0.5, Seed: 3})
	ps, splits := tk.All()
	if len(ps) != 12 || len(splits) != 12 {
		t.Fatalf("%d prompts, %d splits", len(ps), len(splits))
	}
	test := 0
	for i, p := range ps {
		if want := "gsm8k-line" + strconv.Itoa(i+1); p.ID != want {
			t.Errorf("prompt %d is %s, want %s", i, p.ID, want)
		}
		if splits[i] == task.Test {
			if tk.Prompt(task.Test, test).ID != p.ID {
				t.Errorf("prompt %s is not test prompt %d", p.ID, test)
			}
			test++
		}
	}
	if test != tk.Len(task.Test) {
		t.Errorf("%d test prompts listed, the split has %d", test, tk.Len(task.Test))
	}
}

func shareddataOrSkip(t *testing.T) string { return shareddata.Path(t, "gsm8k/test.jsonl") }

// Build makes a registered task without a records file, the records'
// task with one, and refuses settings that do not go together.
func TestBuild(t *testing.T) {
	ctx := context.Background()
	path := writeLines(t, `{"question": "a?", "answer": "#### 1"}`, `{"question": "b?", "answer": "#### 2"}`, `{"question": "c?", "answer": "#### 3"}`, `{"question": "d?", "answer": "#### 4"}`)
	cases := []struct {
		name, difficulty string
		s                Source
		want, err        string
	}{
		{"arith", "", Source{}, "arith", ""},
		{"arith", "", Source{Records: path, Format: "gsm8k", TestFraction: 0.5}, "records-gsm8k", ""},
		{"", "", Source{Records: path, Format: "gsm8k", TestFraction: 0.5, StrictRecords: true}, "records-gsm8k", ""},
		{"arith", "", Source{Format: "gsm8k"}, "", "go with a records file"},
		{"", "", Source{Records: path}, "", "needs its format"},
		{"", "steps=2", Source{Records: path, Format: "gsm8k"}, "", "no difficulty settings"},
	}
	for _, c := range cases {
		tk, err := Build(ctx, c.name, 1, c.difficulty, c.s, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %v, want %q", c, err, c.err)
			}
			continue
		}
		if err != nil || tk.Name() != c.want {
			t.Errorf("%+v: %v, %v", c, tk, err)
			continue
		}
		if cl, ok := tk.(interface{ Close() error }); ok {
			cl.Close()
		}
	}
}

// Pin records the file's digest; Build refuses the file once it changes.
func TestPin(t *testing.T) {
	path := writeLines(t, `{"question": "a?", "answer": "#### 1"}`, `{"question": "b?", "answer": "#### 2"}`, `{"question": "c?", "answer": "#### 3"}`, `{"question": "d?", "answer": "#### 4"}`)
	s, err := Pin(Source{Records: path, Format: "gsm8k", TestFraction: 0.5})
	if err != nil || len(s.SHA256) != 64 {
		t.Fatalf("%+v, %v", s, err)
	}
	if again, _ := Pin(s); again != s {
		t.Errorf("pinned twice: %+v", again)
	}
	if none, err := Pin(Source{}); err != nil || none != (Source{}) {
		t.Errorf("no file: %+v, %v", none, err)
	}
	tk, err := Build(context.Background(), "", 1, "", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	tk.(*Task).Close()
	os.WriteFile(path, []byte(`{"question": "e?", "answer": "#### 5"}`+"\n"), 0o644)
	if _, err := Build(context.Background(), "", 1, "", s, nil); err == nil || !strings.Contains(err.Error(), "changed since the run was set up") {
		t.Errorf("a changed file: %v", err)
	}
}
