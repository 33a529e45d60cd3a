package toolcall

import (
	"context"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// weatherPrompt is a BFCL-style record: weather(city, unit?) and a
// distractor; Paris, the unit may be left out or be celsius.
func weatherPrompt(t testing.TB) task.Prompt {
	t.Helper()
	q := `{"id":"w1","question":[[{"role":"user","content":"Weather in Paris?"}]],"function":[` +
		`{"name":"weather","parameters":{"type":"dict","properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"]}},` +
		`{"name":"convert","parameters":{"type":"dict","properties":{"amount":{"type":"float"}},"required":["amount"]}}]}`
	a := `{"id":"w1","ground_truth":[{"weather":{"city":["Paris","paris, france"],"unit":["","celsius"]}}]}`
	p, err := ParseBFCL(q, a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVerifiers(t *testing.T) {
	const pre = "<think>weather in Paris</think><tool_call>"
	const post = "</tool_call>"
	tests := []struct {
		name         string
		resp         string
		format, call float64
		reason       string // a substring of the call verdict's reason
		span         string // the text the call verdict's first span covers …
		from         string // … found at the first place this text begins (default: span)
	}{
		{"right", pre + `{"name":"weather","arguments":{"city":"Paris"}}` + post, 1, 1, "", `"weather"`, ""},
		{"spaces and case", " " + pre + ` { "name": "weather", "arguments": {"city": "PARIS", "unit": "Celsius"} } ` + post + "\n", 1, 1, "", `"weather"`, ""},
		{"standardized", pre + `{"name":"weather","arguments":{"city":"Paris-France"}}` + post, 1, 1, "", `"weather"`, ""},
		{"duplicate key, last wins", pre + `{"name":"weather","arguments":{"city":"Rome","city":"Paris"}}` + post, 1, 1, "", `"weather"`, ""},
		{"extra top-level key", pre + `{"id":1,"name":"weather","arguments":{"city":"Paris"}}` + post, 1, 1, "", `"weather"`, ""},
		{"wrong function", pre + `{"name":"convert","arguments":{"city":"Paris"}}` + post, 1, 0, `function "convert", want "weather"`, `"convert"`, ""},
		{"missing required", pre + `{"name":"weather","arguments":{"unit":"celsius"}}` + post, 1, 0, `missing required argument "city"`, `}`, `}}</tool_call>`},
		{"wrong value", pre + `{"name":"weather","arguments":{"city":"Paris","unit":"kelvin"}}` + post, 1, 0, `argument "unit": "kelvin" not among ["","celsius"]`, `"unit":"kelvin"`, ""},
		{"unexpected argument", pre + `{"name":"weather","arguments":{"city":"Paris","days":3}}` + post, 1, 0, `unexpected argument "days"`, `"days":3`, ""},
		{"wrong type", pre + `{"name":"weather","arguments":{"city":5}}` + post, 1, 0, `argument "city": 5 is a int, want string`, `"city":5`, ""},
		{"missing </tool_call>", pre + `{"name":"weather","arguments":{"city":"Paris"}}`, 0, 0, "format: missing </tool_call>", `{"name":"weather","arguments":{"city":"Paris"}}`, ""},
		// A record's call is read wherever it stands (BFCL's rules): the
		// layout is format's fault alone.
		{"missing </think>", `<think>x<tool_call>{"name":"weather","arguments":{}}</tool_call>`, 0, 0, `missing required argument "city"`, `}`, `}}</tool_call>`},
		{"tags out of order", `<tool_call>{"name":"weather","arguments":{}}</tool_call><think>x</think>`, 0, 0, `missing required argument "city"`, `}`, `}}</tool_call>`},
		{"no think", `<tool_call>{"name":"weather","arguments":{"city":"Paris"}}</tool_call>`, 0, 1, "", `"weather"`, ""},
		{"missing closing brace", pre + `{"name":"weather","arguments":{"city":"Paris"}` + post, 0, 0, "unexpected end of JSON in an object", `<`, `</tool_call>`},
		{"missing quote", pre + `{name":"weather","arguments":{"city":"Paris"}}` + post, 0, 0, "expected a quoted key", `n`, `name"`},
		{"name not a string", pre + `{"name":["weather"],"arguments":{}}` + post, 0, 0, `"name" is a array`, `["weather"]`, ""},
		{"no arguments", pre + `{"name":"weather"}` + post, 0, 0, `no "arguments"`, `{"name":"weather"}`, ""},
		{"arguments a string", pre + `{"name":"weather","arguments":"{}"}` + post, 0, 0, `"arguments" is a string`, `"{}"`, ""},
		{"not an object", pre + `["weather"]` + post, 0, 0, "holds a JSON array", `["weather"]`, ""},
		{"empty", "", 0, 0, "format: no <tool_call>", "", ""},
	}
	p := weatherPrompt(t)
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fv, err := FormatVerifier{}.Verify(ctx, p, tt.resp)
			if err != nil {
				t.Fatal(err)
			}
			cv, err := CallVerifier{}.Verify(ctx, p, tt.resp)
			if err != nil {
				t.Fatal(err)
			}
			if fv.Score != tt.format || cv.Score != tt.call {
				t.Errorf("scores format %g call %g, want %g %g (reasons %q, %q)", fv.Score, cv.Score, tt.format, tt.call, fv.Reason, cv.Reason)
			}
			if fv.Info != FormatBlock || cv.Info != `Reference call: {"name":"weather","arguments":{"city":"Paris"}}` {
				t.Errorf("info blocks %q, %q", fv.Info, cv.Info)
			}
			if !strings.Contains(cv.Reason, tt.reason) {
				t.Errorf("call reason %q, want it to contain %q", cv.Reason, tt.reason)
			}
			carried := strings.HasPrefix(tt.reason, "format:") && tt.resp != "" // call failed on the format's own fault
			if tt.format == 0 && (fv.Reason == "" || carried && !strings.Contains(cv.Reason, fv.Reason)) {
				t.Errorf("format reason %q not carried by the call reason %q", fv.Reason, cv.Reason)
			}
			checkSpans(t, tt.resp, fv.Spans)
			checkSpans(t, tt.resp, cv.Spans)
			if tt.resp == "" {
				if len(cv.Spans) != 0 {
					t.Errorf("spans %v on an empty response", cv.Spans)
				}
				return
			}
			from := tt.from
			if from == "" {
				from = tt.span
			}
			at := strings.Index(tt.resp, from)
			if len(cv.Spans) == 0 || cv.Spans[0].Start != at || tt.resp[at:cv.Spans[0].End] != tt.span {
				t.Errorf("call spans %v, want the first to cover %q at %d", cv.Spans, tt.span, at)
			}
			if carried && (fv.Spans[0] != cv.Spans[0]) {
				t.Errorf("format spans %v and call spans %v differ on a format fault", fv.Spans, cv.Spans)
			}
		})
	}
}

// checkSpans asserts spans are non-empty byte ranges of the response.
func checkSpans(t testing.TB, resp string, spans []reward.Span) {
	t.Helper()
	for _, s := range spans {
		if s.Start < 0 || s.End > len(resp) || s.Start >= s.End {
			t.Fatalf("span %d..%d outside the %d-byte response", s.Start, s.End, len(resp))
		}
	}
}

func TestSuccessSpans(t *testing.T) {
	p := weatherPrompt(t)
	resp := `<think>w</think><tool_call>{"name":"weather","arguments":{"city":"Paris","unit":"celsius"}}</tool_call>`
	texts := func(v reward.Verdict) []string {
		var out []string
		for _, s := range v.Spans {
			out = append(out, resp[s.Start:s.End])
		}
		return out
	}
	fv, _ := FormatVerifier{}.Verify(context.Background(), p, resp)
	cv, _ := CallVerifier{}.Verify(context.Background(), p, resp)
	if got, want := strings.Join(texts(fv), " "), "<think> </think> <tool_call> </tool_call> { } { }"; got != want {
		t.Errorf("format spans cover %q, want %q", got, want)
	}
	if got, want := strings.Join(texts(cv), " "), `"weather" "Paris" "celsius"`; got != want {
		t.Errorf("call spans cover %q, want %q", got, want)
	}
}

func TestVerifyErrors(t *testing.T) {
	p := weatherPrompt(t)
	resp := `<think>w</think><tool_call>{"name":"weather","arguments":{"city":"Paris"}}</tool_call>`
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range []reward.Verifier{FormatVerifier{}, CallVerifier{}} {
		if _, err := v.Verify(ctx, p, resp); err == nil {
			t.Errorf("%s: no error on a cancelled context", v.Name())
		}
	}
	if _, err := (CallVerifier{}).Verify(context.Background(), task.Prompt{ID: "x", Ref: "not a ref"}, resp); err == nil ||
		!strings.Contains(err.Error(), "want *toolcall.Ref") {
		t.Errorf("a wrong Ref gave %v", err)
	}
	bad := &Ref{Functions: nil, Answer: Answer{Function: "weather"}}
	if _, err := (CallVerifier{}).Verify(context.Background(), task.Prompt{ID: "x", Ref: bad}, resp); err == nil {
		t.Error("a Ref without the ground-truth function gave no error")
	}
}

// TestHostileResponses feeds large and malformed responses: each scores 0
// with a reason, and none panics.
func TestHostileResponses(t *testing.T) {
	p := weatherPrompt(t)
	mb := 1 << 20
	good := `<think>w</think><tool_call>{"name":"weather","arguments":{"city":"Paris"}}</tool_call>`
	valid := map[string]bool{ // well-formed, if odd: only the call is wrong
		"invalid UTF-8": true, "lone surrogate": true, "1 MB of many members": true, "NUL bytes": false,
	}
	tests := map[string]string{
		"1 MB of text":         strings.Repeat("a", mb),
		"1 MB of brackets":     "<think></think><tool_call>" + strings.Repeat("[", mb) + "</tool_call>",
		"1 MB of braces":       "<think></think><tool_call>" + strings.Repeat(`{"a":`, mb/5) + "</tool_call>",
		"1 MB string":          `<think></think><tool_call>{"name":"` + strings.Repeat("\\u00e9", mb/6) + "</tool_call>",
		"1 MB think":           "<think>" + strings.Repeat("<", mb) + "</think>",
		"1 MB number":          `<think></think><tool_call>{"name":"weather","arguments":{"city":` + strings.Repeat("9", mb) + "}}</tool_call>",
		"invalid UTF-8":        "<think>\xff\xfe</think><tool_call>{\"name\":\"weather\xff\",\"arguments\":{\"city\":\"Par\xc3is\"}}</tool_call>",
		"invalid UTF-8 bare":   "\xff\xfe\xfd",
		"NUL bytes":            strings.ReplaceAll(good, "Paris", "Par\x00is"),
		"lone surrogate":       strings.ReplaceAll(good, "Paris", `\ud800Paris`),
		"deep but in bounds":   "<think></think><tool_call>" + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + "</tool_call>",
		"1 MB of many members": `<think></think><tool_call>{"name":"weather","arguments":{` + strings.Repeat(`"city":"Rome",`, mb/14) + `"city":"Rome"}}</tool_call>`,
	}
	for name, resp := range tests {
		for _, v := range []reward.Verifier{FormatVerifier{}, CallVerifier{}} {
			verdict, err := v.Verify(context.Background(), p, resp)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, v.Name(), err)
			}
			if valid[name] && v.Name() == "format" {
				if verdict.Score != 1 {
					t.Errorf("%s: format scores %g (%q)", name, verdict.Score, verdict.Reason)
				}
				continue
			}
			if verdict.Score != 0 || verdict.Reason == "" {
				t.Errorf("%s: %s scores %g (%q)", name, v.Name(), verdict.Score, verdict.Reason)
			}
			checkSpans(t, resp, verdict.Spans)
		}
	}
}
