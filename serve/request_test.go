package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		msgs []Message
		want string
	}{
		{"lone user message is itself", []Message{{"user", "  What is 2+2?\n"}}, "  What is 2+2?\n"},
		{"system then user", []Message{{"system", "Be brief."}, {"user", "Hi"}}, "Be brief.\n\nHi"},
		{"empty turns skipped", []Message{{"system", ""}, {"user", "a"}, {"assistant", " \n"}, {"user", "b"}}, "a\n\nb"},
		{"every role in order", []Message{{"developer", "d"}, {"user", "u"}, {"assistant", "a"}, {"tool", "t"}}, "d\n\nu\n\na\n\nt"},
		{"nothing", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Render(tc.msgs); got != tc.want {
				t.Errorf("Render = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCutStop(t *testing.T) {
	tests := []struct {
		text string
		stop []string
		want string
	}{
		{"abc END", []string{"END"}, "abc "},
		{"x\n\nQ: y", []string{"Q:", "\n\n"}, "x"}, // the earliest of several
		{"no stop here", []string{"END"}, "no stop here"},
		{"END", []string{"END"}, ""},
	}
	for _, tc := range tests {
		if got := cutStop(tc.text, tc.stop); got != tc.want {
			t.Errorf("cutStop(%q, %q) = %q, want %q", tc.text, tc.stop, got, tc.want)
		}
	}
}

// FuzzParseRequest: any body gives a usable request or a 400 with a message
// — never a panic — and a usable request respects every limit.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"model": "credo", "messages": [{"role": "user", "content": "hi"}]}`,
		`{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": [{"type": "text", "text": "a"}]}], "n": 3, "stop": ["x", "y"], "seed": -5}`,
		`{"messages": [{"role": "user", "content": "q"}], "temperature": 0, "top_p": 0.3, "max_tokens": 12, "max_completion_tokens": 7}`,
		`{"messages": [{"role": "assistant", "content": null}, {"role": "tool", "content": "r"}], "response_format": {"type": "json_schema"}}`,
		`{"messages": [{"role": "user", "content": "q"}], "response_format": {"type": "json_object"}, "stream": false, "stop": "\n"}`,
		`{"messages": [{"role": "user", "content": "q"}], "n": 99, "max_tokens": -1, "temperature": -2, "top_p": 2}`,
		`{"messages": [{"role": "user"}]}`, `{"messages": {}}`, `[]`, `null`, `"x"`, `{`, ``,
		`{"messages": [{"role": "user", "content": "\ud800"}], "seed": 18446744073709551615}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, strict bool) {
		o := Options{MaxTokens: 64, MaxN: 4, StrictSchema: strict}.withDefaults()
		r, e := parseRequest(body, o)
		if e != nil {
			if e.Status != http.StatusBadRequest || e.Message == "" || e.Type != typeInvalid {
				t.Fatalf("error %+v: want a 400 invalid_request_error with a message", e)
			}
			if _, err := json.Marshal(e.body()); err != nil {
				t.Fatalf("error body does not encode: %v", err)
			}
			return
		}
		c := r.Sample
		switch {
		case r.N < 1 || r.N > o.MaxN:
			t.Fatalf("n %d", r.N)
		case c.MaxTokens < 1 || c.MaxTokens > o.MaxTokens:
			t.Fatalf("max tokens %d", c.MaxTokens)
		case c.Temperature < 0, c.TopP <= 0, c.TopP > 1, len(c.Stop) > MaxStop:
			t.Fatalf("sampling %+v", c)
		case strings.TrimSpace(r.Prompt) == "" || len(r.Messages) == 0 || r.Model == "":
			t.Fatalf("request %+v", r)
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted an invalid config: %v", err)
		}
		if r.Prompt != Render(r.Messages) {
			t.Fatal("prompt is not the rendered messages")
		}
	})
}
