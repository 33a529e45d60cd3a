package ifeval

import (
	"math"
	"reflect"
	"testing"
)

func mustParse(t *testing.T, id string, kwargs map[string]any) Constraint {
	t.Helper()
	c, err := Parse(id, kwargs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLooseVariants(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want [8]string
	}{
		{"*Title*\n body *x* \n\nend ", [8]string{"*Title*\n body *x* \n\nend ", "Title\n body x \n\nend ",
			"body *x* \n\nend", "*Title*\n body *x*", "body *x*", "body x \n\nend", "Title\n body x", "body x"}},
		{"one *line*", [8]string{"one *line*", "one line", "", "", "", "", "", ""}},
		{"a\nb", [8]string{"a\nb", "a\nb", "b", "a", "", "b", "a", ""}},
		{"", [8]string{}},
	} {
		if got := LooseVariants(tc.in); got != tc.want {
			t.Errorf("LooseVariants(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestJudge: strict checks the response as it is; loose passes an
// instruction that holds on any variant, never on an empty one.
func TestJudge(t *testing.T) {
	end := map[string]any{"end_phrase": "Any other questions?"}
	for _, tc := range []struct {
		name          string
		ids           []string
		kwargs        []map[string]any
		response      string
		strict, loose []bool
	}{
		{"both hold", []string{"punctuation:no_comma", "change_case:english_lowercase"}, []map[string]any{{}, {}},
			"all lower and no commas", []bool{true, true}, []bool{true, true}},
		{"two instructions, one failing", []string{"punctuation:no_comma", "change_case:english_lowercase"}, []map[string]any{{}, {}},
			"No commas but a capital", []bool{true, false}, []bool{true, false}},
		{"only loosely: a trailing line after the end phrase", []string{"startend:end_checker"}, []map[string]any{end},
			"Hello.\nAny other questions?\n---", []bool{false}, []bool{true}},
		{"only loosely: markdown around the quotation", []string{"startend:quotation"}, []map[string]any{{}},
			`**"Quoted, in bold."**`, []bool{false}, []bool{true}},
		{"only loosely: a first line before the quotation", []string{"startend:quotation"}, []map[string]any{{}},
			"Sure:\n\"Quoted.\"", []bool{false}, []bool{true}},
		{"loose cannot pass on an emptied response", []string{"keywords:forbidden_words"}, []map[string]any{{"forbidden_words": []any{"cat"}}},
			"the cat", []bool{false}, []bool{false}},
		{"an empty response follows nothing", []string{"keywords:forbidden_words", "punctuation:no_comma"},
			[]map[string]any{{"forbidden_words": []any{"cat"}}, {}}, " \n ", []bool{false, false}, []bool{false, false}},
		{"the same id twice, judged each", []string{"keywords:frequency", "keywords:frequency"},
			[]map[string]any{{"keyword": "sea", "frequency": 2, "relation": "at least"}, {"keyword": "sky", "frequency": 1, "relation": "at least"}},
			"sea and sea", []bool{true, false}, []bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := make([]Constraint, len(tc.ids))
			for i, id := range tc.ids {
				cs[i] = mustParse(t, id, tc.kwargs[i])
			}
			j := Judge(tc.ids, cs, tc.response)
			if !reflect.DeepEqual(j.Strict, tc.strict) || !reflect.DeepEqual(j.Loose, tc.loose) {
				t.Errorf("Judge(%q): strict %v loose %v, want %v %v", tc.response, j.Strict, j.Loose, tc.strict, tc.loose)
			}
		})
	}
}

// TestJudgeRef: a record's prompt is judged in its record's order.
func TestJudgeRef(t *testing.T) {
	p, _, err := FromRecord(Record{Key: 1, Prompt: "p", InstructionIDs: []string{"change_case:english_lowercase", "punctuation:no_comma"},
		Kwargs: []map[string]any{{}, {}}})
	if err != nil {
		t.Fatal(err)
	}
	j := JudgeRef(p.Ref.(*Ref), "lower, with a comma")
	want := Judged{IDs: []string{"change_case:english_lowercase", "punctuation:no_comma"}, Strict: []bool{true, false}, Loose: []bool{true, false}}
	if !reflect.DeepEqual(j, want) {
		t.Errorf("JudgeRef = %+v, want %+v", j, want)
	}
}

func TestScore(t *testing.T) {
	const a, b = "punctuation:no_comma", "change_case:english_lowercase"
	T, F := true, false
	for _, tc := range []struct {
		name string
		js   []Judged
		want Accuracy
	}{
		{"none", nil, Accuracy{Kinds: map[string]KindAccuracy{}}},
		{"one prompt, one of two followed", []Judged{{IDs: []string{a, b}, Strict: []bool{T, F}, Loose: []bool{T, F}}},
			Accuracy{Prompts: 1, Instructions: 2, PromptStrict: 0, PromptLoose: 0, InstructionStrict: 0.5, InstructionLoose: 0.5,
				Kinds: map[string]KindAccuracy{a: {1, 1, 1}, b: {1, 0, 0}}}},
		{"loose passes a prompt strict does not", []Judged{
			{IDs: []string{a, b}, Strict: []bool{T, F}, Loose: []bool{T, T}},
			{IDs: []string{a}, Strict: []bool{T}, Loose: []bool{T}},
			{IDs: []string{b, b}, Strict: []bool{F, F}, Loose: []bool{F, T}},
			{IDs: []string{a}, Strict: []bool{F}, Loose: []bool{F}},
		}, Accuracy{Prompts: 4, Instructions: 6, PromptStrict: 0.25, PromptLoose: 0.5, InstructionStrict: 2.0 / 6, InstructionLoose: 4.0 / 6,
			Kinds: map[string]KindAccuracy{a: {3, 2.0 / 3, 2.0 / 3}, b: {3, 0, 2.0 / 3}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Score(tc.js)
			near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
			if got.Prompts != tc.want.Prompts || got.Instructions != tc.want.Instructions ||
				!near(got.PromptStrict, tc.want.PromptStrict) || !near(got.PromptLoose, tc.want.PromptLoose) ||
				!near(got.InstructionStrict, tc.want.InstructionStrict) || !near(got.InstructionLoose, tc.want.InstructionLoose) {
				t.Errorf("Score = %+v, want %+v", got, tc.want)
			}
			if len(got.Kinds) != len(tc.want.Kinds) {
				t.Fatalf("kinds %v, want %v", got.Kinds, tc.want.Kinds)
			}
			for id, w := range tc.want.Kinds {
				g := got.Kinds[id]
				if g.N != w.N || !near(g.Strict, w.Strict) || !near(g.Loose, w.Loose) {
					t.Errorf("kind %s: %+v, want %+v", id, g, w)
				}
			}
		})
	}
}
