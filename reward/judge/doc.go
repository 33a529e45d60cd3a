// Package judge is the language-model judge: a reward whose verifier asks
// any OpenAI-compatible chat-completions server (vLLM, SGLang, llama.cpp's
// server, a hosted API) to score a response on one metric and to quote the
// parts of the response that most influenced the score. The quotes, located
// in the response, become the verdict's spans for the span relevance source
// (ALGORITHMS.md §4, the token-heatmap method), each with the effect the
// judge gave it: "+" raised the score, "−" lowered it (reward.Effect), so
// that good parts get positive credit and bad parts negative.
//
// One Judge is one metric: one request per (metric, prompt, response), with
// the metric's rubric (a plain-text file, or BuiltinRubric) and the range of
// scores in the system message, and the prompt and the response between
// tags in the user message. The answer must hold
//
//	{"score": number, "evidence": [{"quote": "…", "effect": "+"|"-"}]}
//
// Where the server supports it the request asks for that shape through
// response_format (a JSON schema); otherwise the first JSON object in the
// answer is read. The score is clamped to the metric's range and kept in it.
// Quotes are matched exactly, then ignoring differences in whitespace; the
// ones that cannot be found are dropped and counted.
//
// The client bounds each attempt with a time-out, retries 429, 5xx, network
// errors and time-outs with capped exponential back-off and full jitter
// (honouring Retry-After), caps the requests in flight, and caches verdicts
// so replays and evaluations do not pay twice. The API key is read from the
// environment variable the Config names, at request time, and is never
// stored in the Config, an error or a metric.
//
// A judge is added to any task as one more reward with its own advantage:
// from a spec (--judge name=…,url=…,model=…,rubric=FILE,weight=…, see
// ParseSpec), through reward.New("judge", spec), or from a Config in the
// run's configuration file. A judge that cannot be reached does not stop
// training: its verdict scores 0 with the reason, and Verify's error says why.
//
// It imports reward, and internal/httpcall for the HTTP plumbing it shares
// with reward/remote.
//
// It needs no GoMLX (go list -deps names none).
package judge
