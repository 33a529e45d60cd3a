package serve_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/serve"
)

func decode(t *testing.T, r reply) serve.Completion {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var c serve.Completion
	if err := json.Unmarshal(r.Body, &c); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
	return c
}

// TestOpenAIShape asks the real tiny policy through a plain HTTP client and
// checks the whole chat.completion object.
func TestOpenAIShape(t *testing.T) {
	p := tinyPolicy(t, 512)
	srv := httptest.NewServer(serve.Handler(p, serve.Options{}))
	defer srv.Close()
	body := `{"model": "credo", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello?"}],
		"temperature": 0.8, "top_p": 0.9, "max_tokens": 6, "n": 3, "seed": 11, "stop": ["\n\n"], "user": "someone", "presence_penalty": 0}`
	r := do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", body)
	c := decode(t, r)
	if !strings.HasPrefix(c.ID, "chatcmpl-") || c.Object != "chat.completion" || c.Created <= 0 || c.Model != "credo" {
		t.Errorf("header fields: id %q object %q created %d model %q", c.ID, c.Object, c.Created, c.Model)
	}
	if len(c.Choices) != 3 {
		t.Fatalf("%d choices, want 3", len(c.Choices))
	}
	for i, ch := range c.Choices {
		if ch.Index != i || ch.Message.Role != "assistant" || (ch.FinishReason != "stop" && ch.FinishReason != "length") {
			t.Errorf("choice %d: index %d role %q finish %q", i, ch.Index, ch.Message.Role, ch.FinishReason)
		}
		if strings.Contains(ch.Message.Content, "\n\n") {
			t.Errorf("choice %d shows its stop sequence: %q", i, ch.Message.Content)
		}
	}
	wantPrompt := len(p.Tok.EncodePrompt("Be brief.\n\nHello?"))
	u := c.Usage
	if u.PromptTokens != wantPrompt || u.CompletionTokens < 3 || u.CompletionTokens > 18 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
		t.Errorf("usage %+v: want %d prompt tokens, 3..18 completion tokens, total their sum", u, wantPrompt)
	}
	// The raw JSON has OpenAI's field names, logprobs null included.
	var raw map[string]any
	json.Unmarshal(r.Body, &raw)
	ch0 := raw["choices"].([]any)[0].(map[string]any)
	if _, ok := ch0["logprobs"]; !ok || ch0["logprobs"] != nil {
		t.Errorf("choice lacks logprobs: null: %v", ch0)
	}
	if _, ok := raw["usage"].(map[string]any)["total_tokens"]; !ok {
		t.Errorf("usage lacks total_tokens: %s", r.Body)
	}

	// The same seed samples the same choices; another seed others.
	again := decode(t, do(t, srv.Client(), "POST", srv.URL+"/chat/completions", body))
	if !reflect.DeepEqual(texts(again), texts(c)) {
		t.Errorf("seed 11 twice: %q then %q", texts(c), texts(again))
	}
	if c.ID == again.ID {
		t.Errorf("two completions share the id %q", c.ID)
	}
	other := decode(t, do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", strings.Replace(body, `"seed": 11`, `"seed": -12`, 1)))
	if reflect.DeepEqual(texts(other), texts(c)) {
		t.Errorf("seeds 11 and -12 sampled the same %q: the seed is ignored", texts(c))
	}
}

func texts(c serve.Completion) []string {
	var out []string
	for _, ch := range c.Choices {
		out = append(out, ch.Message.Content)
	}
	return out
}

// TestSeedStream: requests without a seed get the next seed of a stream
// seeded by Options.Seed, so two servers with one seed answer the same
// sequence, and consecutive requests differ.
func TestSeedStream(t *testing.T) {
	seeds := func(optSeed uint64) []uint64 {
		f := &forced{text: "x", finish: sample.FinishEOS}
		srv := httptest.NewServer(serve.Handler(nil, serve.Options{Seed: optSeed, Generate: f.generate}))
		defer srv.Close()
		for range 3 {
			decode(t, do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", okBody))
		}
		decode(t, do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", `{"messages": [{"role": "user", "content": "a"}], "seed": 5}`))
		var out []uint64
		for _, c := range f.seen() {
			out = append(out, c.Config.Seed)
		}
		return out
	}
	a, b, c := seeds(1), seeds(1), seeds(2)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Options.Seed 1 twice: %v then %v", a, b)
	}
	if a[0] == a[1] || a[1] == a[2] || reflect.DeepEqual(a[:3], c[:3]) {
		t.Errorf("seed streams %v and %v: want distinct seeds per request and per Options.Seed", a, c)
	}
	if a[3] != 5 || c[3] != 5 {
		t.Errorf("a request's own seed 5 became %d / %d", a[3], c[3])
	}
}

// TestParametersReachThePolicy: what the generator is asked, for each
// request shape (defaults included).
func TestParametersReachThePolicy(t *testing.T) {
	tests := []struct {
		name, body string
		opts       serve.Options
		want       call
	}{
		{"defaults", `{"messages": [{"role": "user", "content": "hi"}]}`, serve.Options{},
			call{"hi", 1, sample.Config{MaxTokens: 256, Temperature: 1, TopP: 1}}},
		{"configured default length", `{"messages": [{"role": "user", "content": "hi"}]}`, serve.Options{MaxTokens: 32},
			call{"hi", 1, sample.Config{MaxTokens: 32, Temperature: 1, TopP: 1}}},
		{"all set", `{"model": "credo", "messages": [{"role": "user", "content": "hi"}], "temperature": 0, "top_p": 0.5, "max_tokens": 7, "n": 4, "stop": "END", "seed": 3}`, serve.Options{},
			call{"hi", 4, sample.Config{MaxTokens: 7, Temperature: 0, TopP: 0.5, Stop: []string{"END"}, Seed: 3}}},
		{"max_completion_tokens wins", `{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 7, "max_completion_tokens": 9, "seed": 1, "stop": ["a", "b"]}`, serve.Options{},
			call{"hi", 1, sample.Config{MaxTokens: 9, Temperature: 1, TopP: 1, Stop: []string{"a", "b"}, Seed: 1}}},
		{"nulls are absent", `{"model": null, "messages": [{"role": "user", "content": "hi"}], "temperature": null, "n": null, "stop": null, "seed": null, "response_format": null, "stream": false}`, serve.Options{Seed: 0},
			call{"hi", 1, sample.Config{MaxTokens: 256, Temperature: 1, TopP: 1}}},
		{"conversation rendered", `{"messages": [{"role": "system", "content": "Rules."}, {"role": "user", "content": [{"type": "text", "text": "Part one, "}, {"type": "text", "text": "part two."}]}, {"role": "assistant", "content": null}, {"role": "user", "content": "More?"}], "seed": 0}`, serve.Options{},
			call{"Rules.\n\nPart one, part two.\n\nMore?", 1, sample.Config{MaxTokens: 256, Temperature: 1, TopP: 1}}},
		{"json_schema ignored", `{"messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "json_schema", "json_schema": {"name": "v", "schema": {"type": "object"}}}, "seed": 0}`, serve.Options{},
			call{"hi", 1, sample.Config{MaxTokens: 256, Temperature: 1, TopP: 1}}},
		{"text format fine when strict", `{"messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "text"}, "seed": 0}`, serve.Options{StrictSchema: true},
			call{"hi", 1, sample.Config{MaxTokens: 256, Temperature: 1, TopP: 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &forced{text: "x", finish: sample.FinishEOS}
			tc.opts.Generate = f.generate
			srv := httptest.NewServer(serve.Handler(nil, tc.opts))
			defer srv.Close()
			c := decode(t, do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", tc.body))
			seen := f.seen()
			if len(seen) != 1 {
				t.Fatalf("%d generations, want 1", len(seen))
			}
			got := seen[0]
			if !strings.Contains(tc.body, `"seed"`) || strings.Contains(tc.body, `"seed": null`) {
				got.Config.Seed = 0 // drawn from the stream: TestSeedStream checks it
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("generator asked %+v, want %+v", got, tc.want)
			}
			if len(c.Choices) != tc.want.N {
				t.Errorf("%d choices for n %d", len(c.Choices), tc.want.N)
			}
		})
	}
}

// TestFinishReasons maps each sample.Finish and cuts a stop sequence.
func TestFinishReasons(t *testing.T) {
	tests := []struct {
		finish      sample.Finish
		text, stop  string
		want, reply string
		tokens      int
	}{
		{sample.FinishEOS, "done", "", "stop", "done", 5},
		{sample.FinishStop, "answer: 4\nQ: next", "\nQ:", "stop", "answer: 4", 17},
		{sample.FinishLength, "cut off", "", "length", "cut off", 7},
		{sample.FinishContext, "context full", "", "length", "context full", 12},
	}
	for _, tc := range tests {
		t.Run(string(tc.finish), func(t *testing.T) {
			f := &forced{text: tc.text, finish: tc.finish}
			srv := httptest.NewServer(serve.Handler(nil, serve.Options{Generate: f.generate}))
			defer srv.Close()
			stop := ""
			if tc.stop != "" {
				b, _ := json.Marshal(tc.stop)
				stop = fmt.Sprintf(`, "stop": %s`, b)
			}
			c := decode(t, do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", `{"messages": [{"role": "user", "content": "q"}]`+stop+`}`))
			ch := c.Choices[0]
			if ch.FinishReason != tc.want || ch.Message.Content != tc.reply || c.Usage.CompletionTokens != tc.tokens {
				t.Errorf("finish %q content %q tokens %d, want %q %q %d", ch.FinishReason, ch.Message.Content, c.Usage.CompletionTokens, tc.want, tc.reply, tc.tokens)
			}
			if serve.FinishReason(tc.finish) != tc.want {
				t.Errorf("FinishReason(%s) = %s", tc.finish, serve.FinishReason(tc.finish))
			}
		})
	}
}

// TestModels lists the served model under every path a client may use.
func TestModels(t *testing.T) {
	srv := httptest.NewServer(serve.Handler(nil, serve.Options{Name: "tiny-judge", Generate: (&forced{}).generate}))
	defer srv.Close()
	for _, path := range []string{"/v1/models", "/models"} {
		r := do(t, srv.Client(), "GET", srv.URL+path, "")
		var raw struct {
			Object string           `json:"object"`
			Data   []map[string]any `json:"data"`
		}
		if r.Status != 200 || json.Unmarshal(r.Body, &raw) != nil || raw.Object != "list" || len(raw.Data) != 1 ||
			raw.Data[0]["id"] != "tiny-judge" || raw.Data[0]["object"] != "model" || raw.Data[0]["created"].(float64) <= 0 {
			t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	r := do(t, srv.Client(), "GET", srv.URL+"/v1/models/tiny-judge", "")
	var m map[string]any
	if r.Status != 200 || json.Unmarshal(r.Body, &m) != nil || m["id"] != "tiny-judge" {
		t.Errorf("GET /v1/models/tiny-judge: %d %s", r.Status, r.Body)
	}
	if r := do(t, srv.Client(), "HEAD", srv.URL+"/v1/models", ""); r.Status != 200 || len(r.Body) != 0 {
		t.Errorf("HEAD /v1/models: %d %q", r.Status, r.Body)
	}
}

// TestLog writes one line per request, with the status.
func TestLog(t *testing.T) {
	var log syncBuffer
	srv := httptest.NewServer(serve.Handler(nil, serve.Options{Log: &log, Generate: (&forced{text: "abc", finish: sample.FinishEOS}).generate}))
	decode(t, do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", okBody))
	do(t, srv.Client(), "GET", srv.URL+"/nowhere", "")
	srv.Close() // waits for the handlers, so both lines are written
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `POST "/v1/chat/completions" 200 4 tokens`) || !strings.HasPrefix(lines[1], `GET "/nowhere" 404 0 tokens`) {
		t.Errorf("log:\n%s", log.String())
	}
}

// syncBuffer is a strings.Builder safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
