// Package remote is a reward whose verifier is a user's own program over
// HTTP. For each response credo POSTs a JSON object
//
//	{"prompt_id": "…", "prompt": "…", "response": "…", "record": {…} | null}
//
// ("record" is the record the prompt was made from, for a records task
// (Records), else null) and the verifier answers
//
//	{"score": 0.5, "spans": [{"start": 0, "end": 4, "effect": "+"}], "info": "…", "reason": "…", "skip": false}
//
// where only "score" (a finite number) is required. Spans are byte ranges
// [start, end) of the response as sent (a byte that is not valid UTF-8 is
// sent as "?", so that offsets count the same bytes); "effect" is "+" (raised the score), "-"
// (lowered it) or absent (the score depends on the part); "strength" (≥ 0,
// 0 meaning 1) weighs a span. "info" is the reward's information block
// (MRTPO replays prompts without it), "reason" is logged, "skip" says the
// reward does not apply to the prompt. Unknown keys are ignored.
//
// Each request has a time limit and is retried on 429, 5xx, network errors
// and time-outs with the judge's back-off (internal/httpcall); answers are
// read up to httpcall.MaxBody. A verifier that cannot be reached, or that
// answers nonsense (not JSON, no score, a span outside the response),
// costs that response a zero score with the reason, and Verify's error,
// which the trainer counts against max_verify_errors; Metrics counts
// requests, retries and errors.
//
// A verifier is built from a spec, "name=N,url=http://127.0.0.1:PORT/path"
// with optional timeout=, retries=, backoff=, concurrency= and weight=
// (ParseSpec), through reward.New("remote", spec) or New. Before a run,
// Check sends one probe (an empty prompt and response) so that a verifier
// that is down stops the start. examples/verifier.py is a complete one.
//
// It imports reward, internal/httpcall and internal/redact.
package remote
