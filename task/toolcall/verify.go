package toolcall

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// FormatVerifier is the format reward: 1 when the response is
// <think>…</think><tool_call>{…}</tool_call> with a JSON object holding a
// string "name" and an object "arguments", else 0. Its spans are the fault's
// location, or on success the tags and the braces of the call and of its
// arguments. Info is FormatBlock.
type FormatVerifier struct{}

// Name is "format".
func (FormatVerifier) Name() string { return "format" }

// Verify scores one response. Only a cancelled context gives an error.
func (FormatVerifier) Verify(ctx context.Context, _ task.Prompt, response string) (reward.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return reward.Verdict{}, fmt.Errorf("toolcall format: %w", err)
	}
	p, fault := parseResponse(response)
	if fault != nil {
		return reward.Verdict{Info: FormatBlock, Reason: fault.reason,
			Spans: span(fault.start, fault.end, len(response))}, nil
	}
	spans := append(p.tagSpans(), braceSpans(p.obj)...)
	spans = append(spans, braceSpans(p.call.ArgsValue)...)
	return reward.Verdict{Score: 1, Info: FormatBlock, Spans: spans}, nil
}

// CallVerifier is the call reward: 1 when the call matches the prompt's Ref
// under BFCL's rules (Ref.Match), else 0, also when the format is broken.
// A public BFCL record's prompt (ParseBFCL, the service's format "bfcl")
// is judged by its benchmark's rules: its call is the response's one
// <tool_call>{…}</tool_call> wherever it stands, with or without a
// <think>, since credo's layout belongs to the format reward.
// Its spans are the part of the call at fault: the name's value, the wrong
// argument's key and value, or the closing brace of the arguments where a
// missing one belongs; on a broken format, the format fault. On success,
// the name and the argument values. Info is ReferenceBlock.
type CallVerifier struct{}

// Name is "call".
func (CallVerifier) Name() string { return "call" }

// Verify scores one response. The prompt's Ref must be a *Ref; anything else
// and a cancelled context give an error.
func (CallVerifier) Verify(ctx context.Context, pr task.Prompt, response string) (reward.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return reward.Verdict{}, fmt.Errorf("toolcall call: %w", err)
	}
	ref, ok := pr.Ref.(*Ref)
	if !ok || ref == nil {
		return reward.Verdict{}, fmt.Errorf("toolcall call: prompt %q: Ref is %T, want *toolcall.Ref", pr.ID, pr.Ref)
	}
	v := reward.Verdict{Info: ReferenceBlock(ref)}
	read := parseResponse
	if ref.public {
		read = findCall
	}
	p, fault := read(response)
	if fault != nil {
		v.Reason = "format: " + fault.reason
		v.Spans = span(fault.start, fault.end, len(response))
		return v, nil
	}
	if err := ctx.Err(); err != nil { // a long response may have taken a while
		return reward.Verdict{}, fmt.Errorf("toolcall call: %w", err)
	}
	m, err := ref.Match(p.call)
	if err != nil {
		return reward.Verdict{}, fmt.Errorf("toolcall call: prompt %q: %w", pr.ID, err)
	}
	c := p.call
	if m == nil {
		v.Score = 1
		v.Spans = []reward.Span{{Start: c.NameValue.Start, End: c.NameValue.End}}
		for _, a := range c.Args {
			v.Spans = append(v.Spans, reward.Span{Start: a.Value.Start, End: a.Value.End})
		}
		return v, nil
	}
	v.Reason = m.Reason
	switch m.Fault {
	case WrongFunction:
		v.Spans = span(c.NameValue.Start, c.NameValue.End, len(response))
	case MissingRequired, MissingArg:
		v.Spans = span(c.ArgsValue.End-1, c.ArgsValue.End, len(response))
	default:
		a, _ := c.arg(m.Param)
		v.Spans = span(a.KeyStart, a.Value.End, len(response))
	}
	return v, nil
}
