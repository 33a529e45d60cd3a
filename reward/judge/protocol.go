package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/reward"
)

// BuiltinRubric is the rubric used when Config.Rubric names no file.
const BuiltinRubric = `You are a strict and fair judge. Score how well the response satisfies the task set by the prompt: correctness first, then completeness, then clarity and concision. Quote the parts of the response that most influenced your score, both the ones that raised it and the ones that lowered it.`

// instructions is the protocol part of the system message: the range and
// the JSON shape. The rubric says what to judge; this says how to answer.
func instructions(lo, hi float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf(`Score range: from %[1]s (worst) to %[2]s (best).

Answer with one JSON object and nothing else, in this shape:
{"score": number, "evidence": [{"quote": "exact substring of the response", "effect": "+" or "-"}]}

"score" is a number from %[1]s to %[2]s. "evidence" lists the parts of the response that most influenced the score. Copy each "quote" exactly, character for character, from the response: a phrase or a sentence, never the whole response. "effect" is "+" when the part raised the score and "-" when it lowered it.`, f(lo), f(hi))
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// messages builds the conversation for one verdict: the rubric and protocol
// as the system message; the prompt and the response, each between tags
// their text does not contain, as the user message.
func messages(rubric string, lo, hi float64, prompt, response string) []message {
	sfx := ""
	for n := 1; strings.Contains(prompt+response, "</prompt"+sfx+">") || strings.Contains(prompt+response, "</response"+sfx+">"); n++ {
		sfx = "-" + strconv.Itoa(n)
	}
	user := fmt.Sprintf("Judge the response to the prompt below.\n\n<prompt%[1]s>\n%[2]s\n</prompt%[1]s>\n\n<response%[1]s>\n%[3]s\n</response%[1]s>", sfx, prompt, response)
	return []message{
		{Role: "system", Content: rubric + "\n\n" + instructions(lo, hi)},
		{Role: "user", Content: user},
	}
}

// responseFormat asks for the answer's JSON shape through structured output.
// The score's range is left out: not every server supports minimum/maximum,
// and scores are clamped anyway.
var responseFormat = json.RawMessage(`{"type":"json_schema","json_schema":{"name":"judge_verdict","strict":true,"schema":{"type":"object","properties":{"score":{"type":"number"},"evidence":{"type":"array","items":{"type":"object","properties":{"quote":{"type":"string"},"effect":{"type":"string","enum":["+","-"]}},"required":["quote","effect"],"additionalProperties":false}}},"required":["score","evidence"],"additionalProperties":false}}}`)

type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []message       `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	ResponseFormat json.RawMessage `json:"response_format,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

// content extracts choices[0].message.content from a 200 answer.
func content(body []byte) (string, error) {
	var r chatResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return "", fmt.Errorf("%w: answer is not a chat completion: %v", ErrMalformed, err)
	}
	if len(r.Choices) == 0 {
		return "", fmt.Errorf("%w: answer has no choices", ErrMalformed)
	}
	c := r.Choices[0]
	if c.Message.Content == nil || strings.TrimSpace(*c.Message.Content) == "" {
		return "", fmt.Errorf("%w: choices[0].message.content is empty (finish_reason %q)", ErrMalformed, c.FinishReason)
	}
	return *c.Message.Content, nil
}

// ErrMalformed marks an answer that does not follow the protocol.
var ErrMalformed = errors.New("malformed judge answer")

// answer is the judge's verdict as parsed, before clamping and location.
type answer struct {
	Score   float64
	Quotes  []string
	Effects []reward.Effect // of each quote: "+" Raised, "-" (or "−") Lowered, else Neutral
	Invalid int             // evidence items that are not {"quote": string} (or a bare string)
}

// parseAnswer reads the judge's message: the whole text as JSON first, else
// the first balanced object in it that has a score (models wrap JSON in
// prose or code fences when structured output is off).
func parseAnswer(text string) (answer, error) {
	if a, err := decodeAnswer([]byte(strings.TrimSpace(text))); err == nil {
		return a, nil
	}
	var first error
	for obj := range objects(text) {
		a, err := decodeAnswer([]byte(obj))
		if err == nil {
			return a, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = errors.New("no JSON object in the answer")
	}
	return answer{}, fmt.Errorf("%w: %v (answer starts %q)", ErrMalformed, first, head(text, 80))
}

func decodeAnswer(b []byte) (answer, error) {
	var raw struct {
		Score    json.RawMessage   `json:"score"`
		Evidence []json.RawMessage `json:"evidence"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return answer{}, err
	}
	s := bytes.TrimSpace(raw.Score)
	if len(s) == 0 || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return answer{}, fmt.Errorf("score %s: want a number", orMissing(s))
	}
	var a answer
	if err := json.Unmarshal(s, &a.Score); err != nil {
		return answer{}, fmt.Errorf("score %s: %v", s, err) // 1e999 overflows
	}
	for _, e := range raw.Evidence {
		var item struct {
			Quote  *string `json:"quote"`
			Effect any     `json:"effect"`
		}
		var bare string
		switch {
		case json.Unmarshal(e, &bare) == nil:
			a.Quotes, a.Effects = append(a.Quotes, bare), append(a.Effects, reward.Neutral)
		case json.Unmarshal(e, &item) == nil && item.Quote != nil:
			a.Quotes, a.Effects = append(a.Quotes, *item.Quote), append(a.Effects, effectOf(item.Effect))
		default:
			a.Invalid++
		}
	}
	return a, nil
}

// effectOf reads a quote's "effect": "+" raised the score, "-" (or the
// minus sign "−") lowered it; anything else, or none, says only that the
// score depends on the quote.
func effectOf(v any) reward.Effect {
	s, _ := v.(string)
	switch strings.TrimSpace(s) {
	case "+":
		return reward.Raised
	case "-", "−":
		return reward.Lowered
	}
	return reward.Neutral
}

func orMissing(b []byte) string {
	if len(b) == 0 {
		return "missing"
	}
	return head(string(b), 40)
}

// head is s cut to at most n bytes, for error messages.
func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
