// Package toolcall is the tool-calling task: the policy reads a short list
// of tools and a user request, thinks briefly, and answers with one call,
//
//	<think>…</think><tool_call>{"name":"weather","arguments":{"city":"Paris"}}</tool_call>
//
// It has two rewards. format is 1 when the tags are present and in order and
// the tool_call body is a JSON object with a string "name" and an object
// "arguments"; its information block is the format description. call is 1
// when the call matches the reference under the Berkeley Function Calling
// Leaderboard's matching rules (see Ref.Match); its information block is the
// reference call.
//
// Generated prompts, made for small policies trained from scratch, use five
// made-up tools with one to three parameters each. Their Ref holds the tool
// schemas and the ground truth in BFCL's own structure, so one call verifier
// serves both them and real BFCL records (see ParseBFCL).
//
// Difficulty settings (Knobs) set the tools offered, the optional
// arguments, the vocabulary and numbers of the requests, and the
// demonstrations' thought: short ("weather in Paris") or, with think=plan,
// a free-worded plan that names no argument value, so a policy stays unsure
// of tokens no call verdict quotes.
//
// The package has its own JSON scanner (ParseJSON), because verdicts need
// the byte range of every key and value of the model's call.
//
// It imports task, reward and task/tags.
//
// It needs no GoMLX (go list -deps names none).
package toolcall
