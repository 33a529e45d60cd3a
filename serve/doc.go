// Package serve puts a policy behind the OpenAI chat-completions protocol,
// so that any OpenAI client — credo's own judge client among them — can be
// run end to end against a real local model: `credo serve-model --model DIR`.
//
// Endpoints: POST /v1/chat/completions (non-streaming; also at
// /chat/completions) and GET /v1/models (also /models and
// /v1/models/{name}). Anything else is a 404, a wrong method a 405.
//
// A request is read as OpenAI defines it, within what a small policy can do:
//
//   - model: must be Options.Name (default "credo") or absent; another name
//     is a 404 model_not_found, so a client aimed at the wrong server
//     learns it. Responses carry the served name.
//   - messages: required. The policy was trained on single prompts, so the
//     conversation becomes one prompt (see Render): the text of every
//     message in order, blank-line separated; the tokenizer's chat template
//     then frames it. Content is a string, null, or an array of text parts.
//   - temperature (default 1; 0 is greedy; ≥ 0), top_p (default 1; in
//     (0, 1]), max_tokens or max_completion_tokens (default and upper limit
//     Options.MaxTokens), n (1 to Options.MaxN), stop (a string or up to 4),
//     seed (any integer; without one, Options.Seed seeds a stream of them).
//   - response_format: text is fine; json_object and json_schema are
//     accepted and ignored (the policy cannot be held to a schema), or, with
//     Options.StrictSchema, refused with a 400 naming response_format, on
//     which clients like the judge ask again without it.
//   - stream: true is a 400. Other fields (user, tools, penalties, logprobs
//     …) are ignored.
//
// The answer is OpenAI's chat.completion object. finish_reason is "stop"
// when the policy ended with EOS or met a stop sequence (which is cut from
// the content, as OpenAI does) and "length" when max_tokens or the model's
// context cut it. usage counts tokens with the policy's tokenizer, the
// chat template included.
//
// Errors are OpenAI-shaped, {"error": {"message", "type", "param",
// "code"}}: 400 for malformed JSON, missing messages, bad parameter values
// and a prompt that does not fit the model's context; 401 for a missing or
// wrong key when Options.APIKey is set; 413 for a body over
// Options.MaxBodyBytes; 503 (with Retry-After) when Options.MaxQueue
// requests already wait; 500 when generation fails.
//
// The model is not safe for concurrent use, so requests generate one at a
// time, in arrival order; a request whose client disconnects stops
// waiting, or stops generating at the next token.
//
// It imports policy and sample.
package serve
