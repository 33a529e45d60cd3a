package serve

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/credo-rl/credo/sample"
)

// Completion is the body of a 200 answer to POST /v1/chat/completions, in
// OpenAI's shape.
type Completion struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"` // "chat.completion"
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []Choice `json:"choices"`
	Usage   Usage    `json:"usage"`
}

// Choice is one sampled answer.
type Choice struct {
	Index        int           `json:"index"`
	Message      ChoiceMessage `json:"message"`
	FinishReason string        `json:"finish_reason"` // "stop" or "length"
	Logprobs     *struct{}     `json:"logprobs"`      // always null: not offered
}

// ChoiceMessage is the assistant's message of a Choice.
type ChoiceMessage struct {
	Role    string `json:"role"` // "assistant"
	Content string `json:"content"`
}

// Usage counts tokens as the policy's tokenizer does. Completion tokens
// include an ending EOS: the policy generated it.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"` // prompt + completion
}

// FinishReason maps a sample.Finish to OpenAI's finish_reason: the policy's
// EOS and a stop sequence are "stop"; MaxTokens and a full context are
// "length" (the answer was cut).
func FinishReason(f sample.Finish) string {
	switch f {
	case sample.FinishLength, sample.FinishContext:
		return "length"
	}
	return "stop"
}

// answer builds the completion for a request's responses.
func (s *server) answer(req request, res []sample.Response, promptTokens int) Completion {
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("chatcmpl-%x-%d", s.created, s.seq)
	s.mu.Unlock()
	c := Completion{ID: id, Object: "chat.completion", Created: s.created, Model: s.o.Name, Choices: make([]Choice, len(res))}
	for i, r := range res {
		text := r.Text
		if r.Finish == sample.FinishStop {
			text = cutStop(text, req.Sample.Stop)
		}
		c.Choices[i] = Choice{Index: i, Message: ChoiceMessage{Role: "assistant", Content: text}, FinishReason: FinishReason(r.Finish)}
		c.Usage.CompletionTokens += len(r.Tokens)
	}
	c.Usage.PromptTokens = promptTokens
	c.Usage.TotalTokens = promptTokens + c.Usage.CompletionTokens
	return c
}

// cutStop drops the stop sequence that ended text, and what follows it, as
// OpenAI does: the content never shows the stop sequence.
func cutStop(text string, stop []string) string {
	cut := len(text)
	for _, st := range stop {
		if i := strings.Index(text, st); i >= 0 && i < cut {
			cut = i
		}
	}
	return text[:cut]
}

// modelObject is one entry of GET /v1/models.
type modelObject struct {
	ID      string `json:"id"`
	Object  string `json:"object"` // "model"
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

func (s *server) modelObject() modelObject {
	return modelObject{ID: s.o.Name, Object: "model", Created: s.created, OwnedBy: "credo"}
}

// models lists the one model served.
func (s *server) models(w http.ResponseWriter, _ *http.Request) int {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []modelObject{s.modelObject()}})
	return 0
}

// model describes the served model by name (GET /v1/models/{name}).
func (s *server) model(w http.ResponseWriter, r *http.Request) int {
	name := r.URL.Path[strings.Index(r.URL.Path, "/models/")+len("/models/"):]
	if name != s.o.Name {
		return fail(w, &apiError{Status: http.StatusNotFound, Type: typeInvalid, Param: "model", Code: "model_not_found",
			Message: fmt.Sprintf("model %q: this server serves %q", head(name, 100), s.o.Name)})
	}
	writeJSON(w, http.StatusOK, s.modelObject())
	return 0
}
