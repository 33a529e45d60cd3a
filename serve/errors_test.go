package serve_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/serve"
)

const okBody = `{"model": "credo", "messages": [{"role": "user", "content": "hi"}]}`

// TestErrorStatuses checks every refusal: its status, OpenAI error object
// (type, param, code) and a message that says why — and that the policy
// was never asked.
func TestErrorStatuses(t *testing.T) {
	withMsgs := func(extra string) string {
		return `{"messages": [{"role": "user", "content": "hi"}], ` + extra + `}`
	}
	tests := []struct {
		name, method, path, body string
		opts                     serve.Options
		header                   []string
		status                   int
		typ, param, code, msg    string
	}{
		{"malformed JSON", "POST", "/v1/chat/completions", `{"messages": [`, serve.Options{}, nil, 400, "invalid_request_error", "", "invalid_json", "not valid JSON"},
		{"trailing garbage", "POST", "/v1/chat/completions", okBody + "x", serve.Options{}, nil, 400, "invalid_request_error", "", "invalid_json", "not valid JSON"},
		{"body not an object", "POST", "/v1/chat/completions", `[1, 2]`, serve.Options{}, nil, 400, "invalid_request_error", "", "invalid_json", "want a JSON object"},
		{"empty body", "POST", "/v1/chat/completions", ``, serve.Options{}, nil, 400, "invalid_request_error", "", "invalid_json", "not valid JSON"},
		{"missing messages", "POST", "/v1/chat/completions", `{"model": "credo"}`, serve.Options{}, nil, 400, "invalid_request_error", "messages", "missing_required_parameter", "messages: required"},
		{"empty messages", "POST", "/v1/chat/completions", `{"messages": []}`, serve.Options{}, nil, 400, "invalid_request_error", "messages", "missing_required_parameter", "at least one"},
		{"messages not a list", "POST", "/v1/chat/completions", `{"messages": "hi"}`, serve.Options{}, nil, 400, "invalid_request_error", "messages", "invalid_value", "want an array"},
		{"no text at all", "POST", "/v1/chat/completions", `{"messages": [{"role": "user", "content": "  "}]}`, serve.Options{}, nil, 400, "invalid_request_error", "messages", "invalid_value", "no message carries any text"},
		{"message without role", "POST", "/v1/chat/completions", `{"messages": [{"content": "hi"}]}`, serve.Options{}, nil, 400, "invalid_request_error", "messages[0]", "invalid_value", "role: required"},
		{"unknown role", "POST", "/v1/chat/completions", `{"messages": [{"role": "user", "content": "a"}, {"role": "robot", "content": "hi"}]}`, serve.Options{}, nil, 400, "invalid_request_error", "messages[1]", "invalid_value", `role "robot"`},
		{"image part", "POST", "/v1/chat/completions", `{"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}`, serve.Options{}, nil, 400, "invalid_request_error", "messages[0]", "invalid_value", "only text parts"},
		{"content a number", "POST", "/v1/chat/completions", `{"messages": [{"role": "user", "content": 3}]}`, serve.Options{}, nil, 400, "invalid_request_error", "messages[0]", "invalid_value", "want a string or an array of text parts"},
		{"negative max_tokens", "POST", "/v1/chat/completions", withMsgs(`"max_tokens": -1`), serve.Options{}, nil, 400, "invalid_request_error", "max_tokens", "invalid_value", "want at least 1"},
		{"zero max_tokens", "POST", "/v1/chat/completions", withMsgs(`"max_tokens": 0`), serve.Options{}, nil, 400, "invalid_request_error", "max_tokens", "invalid_value", "want at least 1"},
		{"max_tokens over the cap", "POST", "/v1/chat/completions", withMsgs(`"max_tokens": 65`), serve.Options{MaxTokens: 64}, nil, 400, "invalid_request_error", "max_tokens", "invalid_value", "limit of 64"},
		{"max_completion_tokens over the cap", "POST", "/v1/chat/completions", withMsgs(`"max_tokens": 8, "max_completion_tokens": 300`), serve.Options{}, nil, 400, "invalid_request_error", "max_completion_tokens", "invalid_value", "limit of 256"},
		{"fractional max_tokens", "POST", "/v1/chat/completions", withMsgs(`"max_tokens": 1.5`), serve.Options{}, nil, 400, "invalid_request_error", "max_tokens", "invalid_value", "want an integer"},
		{"negative temperature", "POST", "/v1/chat/completions", withMsgs(`"temperature": -0.1`), serve.Options{}, nil, 400, "invalid_request_error", "temperature", "invalid_value", "negative"},
		{"temperature a string", "POST", "/v1/chat/completions", withMsgs(`"temperature": "hot"`), serve.Options{}, nil, 400, "invalid_request_error", "temperature", "invalid_value", "want a number, got string"},
		{"top_p zero", "POST", "/v1/chat/completions", withMsgs(`"top_p": 0`), serve.Options{}, nil, 400, "invalid_request_error", "top_p", "invalid_value", "outside (0, 1]"},
		{"top_p above one", "POST", "/v1/chat/completions", withMsgs(`"top_p": 1.01`), serve.Options{}, nil, 400, "invalid_request_error", "top_p", "invalid_value", "outside (0, 1]"},
		{"n zero", "POST", "/v1/chat/completions", withMsgs(`"n": 0`), serve.Options{}, nil, 400, "invalid_request_error", "n", "invalid_value", "want 1 to 8"},
		{"n too large", "POST", "/v1/chat/completions", withMsgs(`"n": 3`), serve.Options{MaxN: 2}, nil, 400, "invalid_request_error", "n", "invalid_value", "want 1 to 2"},
		{"too many stops", "POST", "/v1/chat/completions", withMsgs(`"stop": ["a", "b", "c", "d", "e"]`), serve.Options{}, nil, 400, "invalid_request_error", "stop", "invalid_value", "at most 4"},
		{"empty stop", "POST", "/v1/chat/completions", withMsgs(`"stop": ""`), serve.Options{}, nil, 400, "invalid_request_error", "stop", "invalid_value", "empty"},
		{"stop a number", "POST", "/v1/chat/completions", withMsgs(`"stop": 7`), serve.Options{}, nil, 400, "invalid_request_error", "stop", "invalid_value", "string or an array"},
		{"seed a string", "POST", "/v1/chat/completions", withMsgs(`"seed": "one"`), serve.Options{}, nil, 400, "invalid_request_error", "seed", "invalid_value", "want an integer"},
		{"streaming", "POST", "/v1/chat/completions", withMsgs(`"stream": true`), serve.Options{}, nil, 400, "invalid_request_error", "stream", "invalid_value", "streaming is not supported"},
		{"unknown response_format", "POST", "/v1/chat/completions", withMsgs(`"response_format": {"type": "xml"}`), serve.Options{}, nil, 400, "invalid_request_error", "response_format", "invalid_value", `"xml"`},
		{"response_format not an object", "POST", "/v1/chat/completions", withMsgs(`"response_format": "json"`), serve.Options{}, nil, 400, "invalid_request_error", "response_format", "invalid_value", "want an object"},
		{"strict json_schema", "POST", "/v1/chat/completions", withMsgs(`"response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}`), serve.Options{StrictSchema: true}, nil, 400, "invalid_request_error", "response_format", "unsupported_parameter", "response_format: type json_schema is not supported"},
		{"strict json_object", "POST", "/v1/chat/completions", withMsgs(`"response_format": {"type": "json_object"}`), serve.Options{StrictSchema: true}, nil, 400, "invalid_request_error", "response_format", "unsupported_parameter", "not supported"},
		{"other model", "POST", "/v1/chat/completions", `{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}`, serve.Options{}, nil, 404, "invalid_request_error", "model", "model_not_found", `model "gpt-4o": this server serves "credo"`},
		{"other model than the configured name", "POST", "/v1/chat/completions", okBody, serve.Options{Name: "mine"}, nil, 404, "invalid_request_error", "model", "model_not_found", `serves "mine"`},
		{"unknown path", "POST", "/v1/completions", okBody, serve.Options{}, nil, 404, "invalid_request_error", "", "unknown_url", "no endpoint POST /v1/completions"},
		{"unknown model path", "GET", "/v1/models/gpt-4o", "", serve.Options{}, nil, 404, "invalid_request_error", "model", "model_not_found", `"gpt-4o"`},
		{"GET completions", "GET", "/v1/chat/completions", "", serve.Options{}, nil, 405, "invalid_request_error", "", "method_not_allowed", "use POST"},
		{"POST models", "POST", "/v1/models", okBody, serve.Options{}, nil, 405, "invalid_request_error", "", "method_not_allowed", "use GET or HEAD"},
		{"body too large", "POST", "/v1/chat/completions", `{"messages": [{"role": "user", "content": "` + strings.Repeat("a", 200) + `"}]}`, serve.Options{MaxBodyBytes: 100}, nil, 413, "invalid_request_error", "", "request_too_large", "larger than 100 bytes"},
		{"no key", "POST", "/v1/chat/completions", okBody, serve.Options{APIKey: "sekrit"}, nil, 401, "authentication_error", "", "invalid_api_key", "API key"},
		{"wrong key", "POST", "/v1/chat/completions", okBody, serve.Options{APIKey: "sekrit"}, []string{"Authorization", "Bearer sekrit2"}, 401, "authentication_error", "", "invalid_api_key", "API key"},
		{"key without scheme", "POST", "/v1/chat/completions", okBody, serve.Options{APIKey: "sekrit"}, []string{"Authorization", "sekrit"}, 401, "authentication_error", "", "invalid_api_key", "API key"},
		{"models need the key too", "GET", "/v1/models", "", serve.Options{APIKey: "sekrit"}, []string{"Authorization", "Basic c2Vrcml0"}, 401, "authentication_error", "", "invalid_api_key", "API key"},
		{"generation fails", "POST", "/v1/chat/completions", okBody, serve.Options{Generate: (&forced{err: errors.New("out of memory")}).generate}, nil, 500, "server_error", "", "", "generate: out of memory"},
		{"generator miscounts", "POST", "/v1/chat/completions", withMsgs(`"n": 2`), serve.Options{Generate: func(_ context.Context, _ string, _ int, _ sample.Config) ([]sample.Response, error) {
			return []sample.Response{{Text: "x"}}, nil
		}}, nil, 500, "server_error", "", "", "1 responses for 2 choices"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &forced{text: "ok", finish: sample.FinishEOS}
			if tc.opts.Generate == nil {
				tc.opts.Generate = f.generate
			}
			srv := httptest.NewServer(serve.Handler(nil, tc.opts))
			defer srv.Close()
			r := do(t, srv.Client(), tc.method, srv.URL+tc.path, tc.body, tc.header...)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Body)
			}
			e := r.err(t)
			if e.Type != tc.typ || deref(e.Param) != tc.param || deref(e.Code) != tc.code {
				t.Errorf("type %q param %q code %q, want %q %q %q", e.Type, deref(e.Param), deref(e.Code), tc.typ, tc.param, tc.code)
			}
			if !strings.Contains(e.Message, tc.msg) {
				t.Errorf("message %q does not say %q", e.Message, tc.msg)
			}
			if n := len(f.seen()); n != 0 {
				t.Errorf("the policy was asked %d times for a refused request", n)
			}
			switch tc.status {
			case 401:
				if r.Header.Get("WWW-Authenticate") == "" {
					t.Error("401 without WWW-Authenticate")
				}
				if strings.Contains(string(r.Body), "sekrit") {
					t.Error("the answer repeats the key")
				}
			case 405:
				if r.Header.Get("Allow") == "" {
					t.Error("405 without Allow")
				}
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestAPIKeyAccepted: the right key, in either case of the scheme, passes.
func TestAPIKeyAccepted(t *testing.T) {
	f := &forced{text: "ok", finish: sample.FinishEOS}
	srv := httptest.NewServer(serve.Handler(nil, serve.Options{APIKey: "sekrit", Generate: f.generate}))
	defer srv.Close()
	for _, h := range []string{"Bearer sekrit", "bearer sekrit", "Bearer  sekrit "} {
		if r := do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", okBody, "Authorization", h); r.Status != 200 {
			t.Errorf("Authorization %q: status %d: %s", h, r.Status, r.Body)
		}
	}
	if r := do(t, srv.Client(), "GET", srv.URL+"/v1/models", "", "Authorization", "Bearer sekrit"); r.Status != 200 {
		t.Errorf("models: status %d", r.Status)
	}
}

// TestPromptTooLong: a prompt that fills the model's context is a 400 that
// gives both lengths, before any waiting or generating.
func TestPromptTooLong(t *testing.T) {
	p := tinyPolicy(t, 64)
	srv := httptest.NewServer(serve.Handler(p, serve.Options{}))
	defer srv.Close()
	long := strings.Repeat("x", 61) // + <|bos|><|user|> … <|assistant|> = 64 tokens
	r := do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", `{"messages": [{"role": "user", "content": "`+long+`"}]}`)
	if r.Status != 400 {
		t.Fatalf("status %d, want 400: %s", r.Status, r.Body)
	}
	e := r.err(t)
	if deref(e.Code) != "context_length_exceeded" || deref(e.Param) != "messages" || !strings.Contains(e.Message, "64 tokens") || !strings.Contains(e.Message, "context of 64") {
		t.Errorf("error %+v (code %q)", e, deref(e.Code))
	}
	// One byte shorter fits: the model answers.
	r = do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", `{"messages": [{"role": "user", "content": "`+long[1:]+`"}], "max_tokens": 4}`)
	if r.Status != 200 {
		t.Fatalf("a prompt of 63 tokens: status %d: %s", r.Status, r.Body)
	}
}
