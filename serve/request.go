package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/credo-rl/credo/sample"
)

// Message is one turn of a chat request.
type Message struct {
	Role    string
	Content string // text parts of an array content, concatenated
}

// request is a validated chat-completion request.
type request struct {
	Model    string
	Messages []Message
	Prompt   string // the messages rendered for the policy
	N        int
	Sample   sample.Config
	HasSeed  bool // Sample.Seed came from the request
}

// wireRequest is the JSON body as sent. Pointers tell a missing (or null)
// field from a zero one. Fields not listed (user, logprobs, tools, penalties
// …) are ignored: a policy has no use for them and OpenAI clients send them.
type wireRequest struct {
	Model               *string           `json:"model"`
	Messages            []json.RawMessage `json:"messages"`
	Temperature         *float64          `json:"temperature"`
	TopP                *float64          `json:"top_p"`
	MaxTokens           *int              `json:"max_tokens"`
	MaxCompletionTokens *int              `json:"max_completion_tokens"`
	N                   *int              `json:"n"`
	Stop                json.RawMessage   `json:"stop"`
	Seed                *int64            `json:"seed"`
	ResponseFormat      json.RawMessage   `json:"response_format"`
	Stream              *bool             `json:"stream"`
}

// roles a message may have. Every role's text goes into the prompt (see Render).
var roles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true}

// parseRequest decodes and checks a request body against the options
// (defaults filled in). A nil *apiError means req is usable.
func parseRequest(body []byte, o Options) (request, *apiError) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return request{}, &apiError{Status: 400, Message: "request body: want a JSON object, got " + te.Value, Type: typeInvalid, Code: "invalid_json"}
			}
			return request{}, badParam(te.Field, "want %s, got %s", kindName(te.Type), te.Value)
		}
		return request{}, &apiError{Status: 400, Message: "request body is not valid JSON: " + err.Error(), Type: typeInvalid, Code: "invalid_json"}
	}
	r := request{Model: o.Name, N: 1, Sample: sample.Config{MaxTokens: o.MaxTokens, Temperature: 1, TopP: 1}}
	if w.Model != nil && *w.Model != "" {
		r.Model = *w.Model
	}
	if w.Stream != nil && *w.Stream {
		return request{}, badParam("stream", "streaming is not supported; leave stream out or set it to false")
	}
	if len(w.Messages) == 0 {
		return request{}, &apiError{Status: 400, Message: "messages: required, at least one message", Type: typeInvalid, Param: "messages", Code: "missing_required_parameter"}
	}
	for i, raw := range w.Messages {
		m, err := parseMessage(raw)
		if err != nil {
			return request{}, badParam(fmt.Sprintf("messages[%d]", i), "%v", err)
		}
		r.Messages = append(r.Messages, m)
	}
	r.Prompt = Render(r.Messages)
	if r.Prompt == "" {
		return request{}, badParam("messages", "no message carries any text")
	}
	if e := r.sampling(w, o); e != nil {
		return request{}, e
	}
	if e := checkFormat(w.ResponseFormat, o.StrictSchema); e != nil {
		return request{}, e
	}
	if err := r.Sample.Validate(); err != nil { // the checks above should cover it
		return request{}, badParam("request", "%v", err)
	}
	return r, nil
}

// sampling reads the generation parameters.
func (r *request) sampling(w wireRequest, o Options) *apiError {
	if t := w.Temperature; t != nil {
		if *t < 0 {
			return badParam("temperature", "%v is negative; want ≥ 0 (0 is greedy)", *t)
		}
		r.Sample.Temperature = *t
	}
	if p := w.TopP; p != nil {
		if *p <= 0 || *p > 1 {
			return badParam("top_p", "%v is outside (0, 1]", *p)
		}
		r.Sample.TopP = *p
	}
	param, mt := "max_tokens", w.MaxTokens
	if w.MaxCompletionTokens != nil { // the newer name wins, as at OpenAI
		param, mt = "max_completion_tokens", w.MaxCompletionTokens
	}
	if mt != nil {
		switch {
		case *mt < 1:
			return badParam(param, "%d; want at least 1", *mt)
		case *mt > o.MaxTokens:
			return badParam(param, "%d exceeds this server's limit of %d", *mt, o.MaxTokens)
		}
		r.Sample.MaxTokens = *mt
	}
	if n := w.N; n != nil {
		if *n < 1 || *n > o.MaxN {
			return badParam("n", "%d; want 1 to %d choices", *n, o.MaxN)
		}
		r.N = *n
	}
	stop, err := parseStop(w.Stop)
	if err != nil {
		return badParam("stop", "%v", err)
	}
	r.Sample.Stop = stop
	if w.Seed != nil {
		r.Sample.Seed, r.HasSeed = uint64(*w.Seed), true // negative seeds are seeds too
	}
	return nil
}

// parseMessage reads {"role", "content"}; content is a string, null, or an
// array of parts of which only {"type": "text", "text"} is understood.
func parseMessage(raw json.RawMessage) (Message, error) {
	var w struct {
		Role    *string         `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Message{}, fmt.Errorf("want an object with role and content: %v", err)
	}
	if w.Role == nil {
		return Message{}, errors.New("role: required")
	}
	if !roles[*w.Role] {
		return Message{}, fmt.Errorf("role %q: want system, developer, user, assistant or tool", head(*w.Role, 40))
	}
	text, err := parseContent(w.Content)
	if err != nil {
		return Message{}, fmt.Errorf("content: %v", err)
	}
	return Message{Role: *w.Role, Content: text}, nil
}

func parseContent(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil // an assistant turn that only called tools
	}
	var s string
	if raw[0] == '"' {
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("want a string or an array of text parts")
	}
	var b strings.Builder
	for i, p := range parts {
		if p.Type != "text" || p.Text == nil {
			return "", fmt.Errorf("part %d has type %q; only text parts are supported", i, head(p.Type, 40))
		}
		b.WriteString(*p.Text)
	}
	return b.String(), nil
}

// parseStop reads a stop string or a list of up to MaxStop of them.
func parseStop(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var list []string
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		list = []string{s}
	} else if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("want a string or an array of strings")
	}
	if len(list) > MaxStop {
		return nil, fmt.Errorf("%d sequences; at most %d", len(list), MaxStop)
	}
	for i, s := range list {
		if s == "" {
			return nil, fmt.Errorf("sequence %d is empty", i)
		}
	}
	return list, nil
}

// checkFormat accepts response_format text, and json_object / json_schema
// unless strict (then 400, naming response_format so clients fall back).
func checkFormat(raw json.RawMessage, strict bool) *apiError {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	var f struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return badParam("response_format", "want an object with a type")
	}
	switch f.Type {
	case "text":
		return nil
	case "json_object", "json_schema":
		if strict {
			e := badParam("response_format", "type %s is not supported: this server's policy cannot be constrained to a format; leave response_format out", f.Type)
			e.Code = "unsupported_parameter"
			return e
		}
		return nil
	}
	return badParam("response_format", "type %q: want text, json_object or json_schema", head(f.Type, 40))
}

// Render turns a conversation into the one prompt the policy reads: the
// text of every message, in order, separated by a blank line; messages
// without text are skipped. A lone user message is its own content exactly,
// which is what a policy trained on single prompts saw. Roles are not
// written: the tokenizer's chat template wraps the whole prompt as the
// user's turn, and a small policy never learnt any other turn markers.
func Render(msgs []Message) string {
	var parts []string
	for _, m := range msgs {
		if strings.TrimSpace(m.Content) != "" {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n\n")
}

// kindName says in words what JSON a Go type wants.
func kindName(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return kindName(t.Elem())
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// head is s cut to at most n bytes, for error messages.
func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
