package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestObjects(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{`{"a":1}`, []string{`{"a":1}`}},
		{"prose {\"a\": {\"b\": 2}} more", []string{`{"a": {"b": 2}}`, `{"b": 2}`}},
		{`{"q": "a } brace"} {"x":1}`, []string{`{"q": "a } brace"}`, `{"x":1}`}},
		{`{"q": "esc \" } still in"}`, []string{`{"q": "esc \" } still in"}`}},
		{`{"q": "backslash \\"}`, []string{`{"q": "backslash \\"}`}},
		{`{ unbalanced {"a":1}`, []string{`{"a":1}`}},
		{`no object } here`, nil},
		{"", nil},
	}
	for _, c := range cases {
		var got []string
		for o := range objects(c.in) {
			got = append(got, o)
		}
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
			t.Errorf("objects(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestObjectsBounded(t *testing.T) {
	s := strings.Repeat("{", 100000) // unbalanced: every start scans to the end
	n := 0
	for range objects(s) {
		n++
	}
	if n != 0 {
		t.Errorf("%d objects", n)
	}
}

func TestParseAnswer(t *testing.T) {
	cases := []struct {
		in      string
		score   float64
		quotes  []string
		invalid int
		err     string
	}{
		{in: `{"score": 0.5, "evidence": [{"quote": "a", "effect": "+"}, {"quote": "b", "effect": "-"}]}`, score: 0.5, quotes: []string{"a", "b"}},
		{in: "```json\n{\"score\": 7}\n```", score: 7},
		{in: `I think {"score": -2, "evidence": ["bare quote", {"effect": "+"}, 3]} overall`, score: -2, quotes: []string{"bare quote"}, invalid: 2},
		{in: `{"reasoning": "…"} then {"score": 1}`, score: 1},
		{in: `{"score": "1"}`, err: `score "1": want a number`},
		{in: `{"score": true}`, err: "want a number"},
		{in: `{}`, err: "score missing"},
		{in: `{"score": 1e999}`, err: "score 1e999"},
		{in: `nothing here`, err: "no JSON object"},
	}
	for _, c := range cases {
		a, err := parseAnswer(c.in)
		if c.err != "" {
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseAnswer(%q): err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || a.Score != c.score || fmt.Sprint(a.Quotes) != fmt.Sprint(c.quotes) || a.Invalid != c.invalid || len(a.Effects) != len(a.Quotes) {
			t.Errorf("parseAnswer(%q) = %+v, %v", c.in, a, err)
		}
	}
}

// Each quote keeps its effect: "+" raised the score, "-" or "−" lowered
// it; a bare string, a missing or an unknown effect says nothing.
func TestParseEffects(t *testing.T) {
	a, err := parseAnswer(`{"score": 1, "evidence": [{"quote": "a", "effect": "+"}, {"quote": "b", "effect": "-"},
		{"quote": "c", "effect": "−"}, {"quote": "d"}, "e", {"quote": "f", "effect": 1}, {"quote": "g", "effect": " - "}]}`)
	if err != nil {
		t.Fatal(err)
	}
	want := []reward.Effect{reward.Raised, reward.Lowered, reward.Lowered, reward.Neutral, reward.Neutral, reward.Neutral, reward.Lowered}
	if fmt.Sprint(a.Effects) != fmt.Sprint(want) {
		t.Errorf("effects %v, want %v", a.Effects, want)
	}
}

func FuzzObjects(f *testing.F) {
	for _, s := range []string{
		`{"score": 1, "evidence": [{"quote": "}", "effect": "+"}]}`,
		"```json\n{\"a\": \"\\\"{\"}\n```",
		`{{{ "}" {"x": [1, {"y": null}]}`,
		`"{" {"a":"\\"}`,
		"\xff{\"\x00\":1}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		for o := range objects(s) {
			n++
			if len(o) < 2 || o[0] != '{' || o[len(o)-1] != '}' || !strings.Contains(s, o) {
				t.Fatalf("objects(%q) yielded %q", s, o)
			}
			if json.Valid([]byte(o)) {
				var m map[string]any
				if json.Unmarshal([]byte(o), &m) != nil {
					t.Fatalf("%q is valid JSON but not an object", o)
				}
			}
		}
		if n > maxCandidates {
			t.Fatalf("%d candidates", n)
		}
		// A valid object with text around it that has no braces is found whole.
		if whole := strings.TrimSpace(s); strings.HasPrefix(whole, "{") && json.Valid([]byte(whole)) {
			for o := range objects("Verdict: " + whole + " — end") {
				if o != whole {
					t.Fatalf("first object of %q is %q", whole, o)
				}
				break
			}
		}
		parseAnswer(s) // must not panic
	})
}

func BenchmarkParseAnswer(b *testing.B) {
	text := "Here is my assessment.\n```json\n" + answerJSON(0.8, "brown fox", "lazy dog", "jumps over") + "\n```"
	for b.Loop() {
		if _, err := parseAnswer(text); err != nil {
			b.Fatal(err)
		}
	}
}
