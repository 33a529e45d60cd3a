package ifeval

import (
	"strconv"
	"strings"
	"testing"
)

// representative are constraints of all 25 ids with typical kwargs, for
// fuzzing, large inputs and benchmarks.
var representative = []struct{ id, kwargs string }{
	{"change_case:capital_word_frequency", `{"capital_relation": "at least", "capital_frequency": 3}`},
	{"change_case:english_capital", `{}`},
	{"change_case:english_lowercase", `{}`},
	{"combination:repeat_prompt", `{"prompt_to_repeat": "Write a poem about the sea."}`},
	{"combination:two_responses", `{}`},
	{"detectable_content:number_placeholders", `{"num_placeholders": 3}`},
	{"detectable_content:postscript", `{"postscript_marker": "P.P.S"}`},
	{"detectable_content:postscript", `{"postscript_marker": "P.S."}`},
	{"detectable_content:postscript", `{"postscript_marker": "Note:"}`},
	{"detectable_format:constrained_response", `{}`},
	{"detectable_format:json_format", `{}`},
	{"detectable_format:multiple_sections", `{"section_spliter": "Section", "num_sections": 3}`},
	{"detectable_format:number_bullet_lists", `{"num_bullets": 3}`},
	{"detectable_format:number_highlighted_sections", `{"num_highlights": 2}`},
	{"detectable_format:title", `{}`},
	{"keywords:existence", `{"keywords": ["sea", "İstanbul"]}`},
	{"keywords:forbidden_words", `{"forbidden_words": ["run", "sea"]}`},
	{"keywords:frequency", `{"keyword": "the", "relation": "at least", "frequency": 3}`},
	{"keywords:letter_frequency", `{"letter": "q", "let_relation": "less than", "let_frequency": 5}`},
	{"language:response_language", `{"language": "hi"}`},
	{"length_constraints:nth_paragraph_first_word", `{"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "elm"}`},
	{"length_constraints:number_paragraphs", `{"num_paragraphs": 3}`},
	{"length_constraints:number_sentences", `{"relation": "less than", "num_sentences": 5}`},
	{"length_constraints:number_words", `{"relation": "at least", "num_words": 100}`},
	{"punctuation:no_comma", `{}`},
	{"startend:end_checker", `{"end_phrase": "Is there anything else I can help with?"}`},
	{"startend:quotation", `{}`},
}

func representativeConstraints(t testing.TB) []Constraint {
	var out []Constraint
	for _, r := range representative {
		c, err := ParseJSON(r.id, []byte(r.kwargs))
		if err != nil {
			t.Fatalf("%s: %v", r.id, err)
		}
		out = append(out, c)
	}
	return out
}

// validResult fails the test when a result's spans leave the response or
// run backwards, or it gives no reason.
func validResult(t *testing.T, id, s string, r Result) {
	t.Helper()
	prev := 0
	for _, sp := range r.Spans {
		if sp.Start < prev || sp.End < sp.Start || sp.End > len(s) {
			t.Fatalf("%s: span %+v of %d-byte response %q", id, sp, len(s), truncate(s))
		}
		prev = sp.Start
	}
	if len(r.Spans) == 0 || r.Reason == "" {
		t.Fatalf("%s: result %+v lacks spans or reason", id, r)
	}
}

// FuzzCheck runs every checker on the fuzzed response: no panic, valid
// spans, the same verdict twice.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"", " ", "Hello, world.", "<<Title>>\n* a\n* b\n- c\n\nP.S. bye",
		"Section 1 x SECTION 2 y", "```json\n{\"a\": [1, 2]}\n```", "a ****** b",
		"\"quoted\"", "*hi* **there**", "[x] [y\n]", "p. p. s", "यह एक अच्छा दिन है।",
		"\xff\xfe\xfd", "İſK", "one.\n***\ntwo.\n***\n", "DON'T STOP ME NOW",
		"Write a poem about the sea. Sure.", "My answer is yes.", "end. Is there anything else I can help with?",
	} {
		f.Add(s)
	}
	cs := representativeConstraints(f)
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range cs {
			r := c.Check(s)
			validResult(t, c.ID(), s, r)
			if r2 := c.Check(s); r2.OK != r.OK || len(r2.Spans) != len(r.Spans) {
				t.Fatalf("%s: two checks of %q disagree", c.ID(), truncate(s))
			}
		}
		countSentences(s)
		detectLanguage(s)
	})
}

// FuzzParseJSON parses fuzzed kwargs for each id: an error or a
// constraint that states itself and checks responses without panicking.
func FuzzParseJSON(f *testing.F) {
	for _, r := range representative {
		f.Add(r.id, []byte(r.kwargs))
	}
	f.Add("keywords:existence", []byte(`{"keywords": ["", null, 1]}`))
	f.Add("length_constraints:number_words", []byte(`{"relation": "at least", "num_words": 1e999}`))
	f.Add("detectable_format:multiple_sections", []byte(`{"section_spliter": "(", "num_sections": 2}`))
	f.Add("keywords:letter_frequency", []byte(`{"letter": "\u00ff", "let_relation": "at least", "let_frequency": 0}`))
	f.Add("x", []byte("\xff"))
	f.Fuzz(func(t *testing.T, id string, kwargs []byte) {
		c, err := ParseJSON(id, kwargs)
		if err != nil {
			if !strings.Contains(err.Error(), id) && !strings.Contains(err.Error(), strconv.Quote(id)) {
				t.Fatalf("error %q does not name the id %q", err, id)
			}
			return
		}
		if c.Text() == "" || c.ID() != id {
			t.Fatalf("ParseJSON(%q, %q) = %q with text %q", id, kwargs, c.ID(), c.Text())
		}
		for _, s := range []string{"", "a", string(kwargs), c.Text()} {
			validResult(t, id, s, c.Check(s))
		}
	})
}

// FuzzReadRecords reads fuzzed JSON Lines as IFEval records and builds
// prompts from those that parse.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"key": 1000, "prompt": "p", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}`))
	f.Add([]byte("{\"key\": 1}\n{\"kwargs\": [null]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, _ := ReadRecords(strings.NewReader(string(data)))
		for _, rec := range recs {
			p, cs, err := FromRecord(rec)
			if err == nil && len(cs) != len(p.Ref.(*Ref).Items) {
				t.Fatalf("record %d: %d constraints, %d items", rec.Key, len(cs), len(p.Ref.(*Ref).Items))
			}
		}
	})
}

// TestLargeInputs runs every checker on 1 MB adversarial responses (long
// runs of markers, brackets, separators, invalid UTF-8): a checker that is
// super-linear in the response length would not finish. Their speed is
// measured by BenchmarkCheck1MB.
func TestLargeInputs(t *testing.T) {
	cs := representativeConstraints(t)
	for name, s := range largeInputs() {
		for _, c := range cs {
			validResult(t, c.ID()+" on "+name, s, c.Check(s))
		}
	}
}

func largeInputs() map[string]string {
	size := 1 << 20
	if testing.Short() {
		size = 64 << 10
	}
	rep := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	return map[string]string{
		"brackets":   rep("["),
		"angles":     rep("<"),
		"stars":      rep("*"),
		"bullets":    rep("* a\n- b\n"),
		"markers":    rep("p.p."),
		"sections":   rep("Section 1 "),
		"paragraphs": rep("x\n\n"),
		"commas":     rep(","),
		"words":      rep("the sea "),
		"capitals":   rep("DON'T "),
		"invalid":    rep("\xff\xfe"),
		"turkish":    rep("İſ"),
		"json":       rep("[{"),
		"quotes":     rep(`"`),
		"splits":     rep("******"),
		"hindi":      rep("यह है "),
		"sentences":  rep("Mr. A. .. ! "),
		"one-line":   "<<" + rep("a") + ">>",
	}
}
