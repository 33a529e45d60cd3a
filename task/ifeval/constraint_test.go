package ifeval

import (
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		id, kwargs, want string
	}{
		{"no:such_id", `{}`, "unknown IFEval instruction id"},
		{"punctuation:no_comma", `{"extra": 1}`, "unknown arguments extra"},
		{"punctuation:no_comma", `[1]`, "want a JSON object"},
		{"punctuation:no_comma", `{} {}`, "trailing data"},
		{"punctuation:no_comma", `{"a":`, "unexpected EOF"},
		{"length_constraints:number_words", `{"relation": "at least"}`, "num_words: missing"},
		{"length_constraints:number_words", `{"relation": "at most", "num_words": 3}`, `want "less than" or "at least"`},
		{"length_constraints:number_words", `{"relation": "at least", "num_words": -1}`, "whole number"},
		{"length_constraints:number_words", `{"relation": "at least", "num_words": 2.5}`, "whole number"},
		{"length_constraints:number_words", `{"relation": "at least", "num_words": "3"}`, "want a number"},
		{"length_constraints:number_words", `{"relation": "at least", "num_words": 1e300}`, "whole number"},
		{"keywords:existence", `{"keywords": []}`, "empty list"},
		{"keywords:existence", `{"keywords": ["a", 3]}`, "keywords[1]: want a string"},
		{"keywords:existence", `{"keywords": "sea"}`, "want a list of strings"},
		{"keywords:forbidden_words", `{"forbidden_words": [" "]}`, "empty"},
		{"keywords:letter_frequency", `{"letter": "ab", "let_relation": "at least", "let_frequency": 1}`, "one non-space character"},
		{"language:response_language", `{"language": "xx"}`, "unknown code"},
		{"length_constraints:nth_paragraph_first_word", `{"num_paragraphs": 2, "nth_paragraph": 3, "first_word": "a"}`, "nth_paragraph"},
		{"detectable_format:multiple_sections", `{"section_spliter": "", "num_sections": 2}`, "section_spliter: empty"},
		{"combination:repeat_prompt", `{}`, "prompt_to_repeat: missing"},
		{"startend:end_checker", `{"end_phrase": null}`, "end_phrase: missing"},
	}
	for _, tt := range tests {
		_, err := ParseJSON(tt.id, []byte(tt.kwargs))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseJSON(%s, %s) error = %v, want %q", tt.id, tt.kwargs, err, tt.want)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	for _, kw := range []string{``, `null`, ` {} `, `{"unused": null}`} {
		if _, err := ParseJSON("punctuation:no_comma", []byte(kw)); err != nil {
			t.Errorf("ParseJSON(no_comma, %q): %v", kw, err)
		}
	}
	// Go values, as a caller builds them, work as well as decoded JSON.
	c, err := Parse("keywords:existence", map[string]any{"keywords": []string{"sea"}})
	if err != nil || !c.Check("the sea").OK {
		t.Errorf("Parse with []string: %v", err)
	}
	if r := (Constraint{}).Check("x"); r.OK || r.Reason == "" {
		t.Errorf("zero Constraint checked %+v", r)
	}
}

func TestTexts(t *testing.T) {
	tests := []struct{ id, kwargs, want string }{
		{"change_case:english_lowercase", `{}`, "Your entire response should be in English, and in all lowercase letters."},
		{"keywords:existence", `{"keywords": ["wave", "sand"]}`, "Include the keywords sand and wave in the response."},
		{"keywords:forbidden_words", `{"forbidden_words": ["b", "a", "b", "c"]}`, "Do not include the keywords a, b or c in the response."},
		{"length_constraints:number_words", `{"relation": "less than", "num_words": 40}`, "Answer with less than 40 words."},
		{"language:response_language", `{"language": "sw"}`, "Your ENTIRE response should be in Swahili language, no other language is allowed."},
	}
	for _, tt := range tests {
		c, err := ParseJSON(tt.id, []byte(tt.kwargs))
		if err != nil {
			t.Fatal(err)
		}
		if c.Text() != tt.want {
			t.Errorf("%s Text() = %q, want %q", tt.id, c.Text(), tt.want)
		}
	}
}
