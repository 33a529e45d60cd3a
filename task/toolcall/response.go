package toolcall

import (
	"errors"
	"fmt"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task/tags"
)

// FormatBlock is the format reward's information block.
const FormatBlock = `Format: <think>...</think><tool_call>{"name":"...","arguments":{...}}</tool_call>`

// parsed is a response whose format is right.
type parsed struct {
	think, toolCall tags.Part
	obj             Value // the tool_call body, offsets in the response
	call            Call
}

// formatFault is what is wrong with a response's format, and where.
type formatFault struct {
	reason     string
	start, end int
}

// parseResponse reads <think>…</think><tool_call>{…}</tool_call>.
func parseResponse(resp string) (*parsed, *formatFault) {
	parts, err := tags.Parse(resp, "think", "tool_call")
	if err != nil {
		var te *tags.Error
		if errors.As(err, &te) {
			return nil, &formatFault{te.Msg, te.Start, te.End}
		}
		return nil, &formatFault{err.Error(), 0, len(resp)}
	}
	body := parts[1]
	obj, call, fault := parseCall(body)
	if fault != nil {
		return nil, fault
	}
	return &parsed{think: parts[0], toolCall: body, obj: obj, call: call}, nil
}

// parseCall reads a tool_call element's body: a JSON object with a string
// "name" and an object "arguments".
func parseCall(body tags.Part) (Value, Call, *formatFault) {
	obj, err := parseJSON(body.Inner, body.InnerStart)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return obj, Call{}, &formatFault{"tool_call JSON: " + se.Error(), se.Offset, se.Offset + 1}
		}
		return obj, Call{}, &formatFault{"tool_call JSON: " + err.Error(), body.InnerStart, body.InnerStart + len(body.Inner)}
	}
	if obj.Kind != Object {
		return obj, Call{}, &formatFault{fmt.Sprintf("tool_call holds a JSON %s, want an object", obj.Kind), obj.Start, obj.End}
	}
	name, ok := obj.Get("name")
	switch {
	case !ok:
		return obj, Call{}, &formatFault{`tool_call JSON has no "name"`, obj.Start, obj.End}
	case name.Kind != String:
		return obj, Call{}, &formatFault{fmt.Sprintf(`tool_call "name" is a %s, want a string`, name.Kind), name.Start, name.End}
	}
	args, ok := obj.Get("arguments")
	switch {
	case !ok:
		return obj, Call{}, &formatFault{`tool_call JSON has no "arguments"`, obj.Start, obj.End}
	case args.Kind != Object:
		return obj, Call{}, &formatFault{fmt.Sprintf(`tool_call "arguments" is a %s, want an object`, args.Kind), args.Start, args.End}
	}
	call, _ := CallFromJSON(obj)
	return obj, call, nil
}

// findCall reads the one <tool_call>…</tool_call> element of a response
// wherever it stands, whatever surrounds it (a thought or none, prose):
// how a public record's call is read, by its benchmark's rules, which
// judge the call and leave the layout to the format reward.
func findCall(resp string) (*parsed, *formatFault) {
	const open, closeT = "<tool_call>", "</tool_call>"
	i := strings.Index(resp, open)
	if i < 0 {
		return nil, &formatFault{"no <tool_call>…</tool_call> in the response", 0, len(resp)}
	}
	inner := i + len(open)
	j := strings.Index(resp[inner:], closeT)
	if j < 0 {
		return nil, &formatFault{"missing </tool_call>", inner, len(resp)}
	}
	end := inner + j + len(closeT)
	if k := strings.Index(resp[inner:end-len(closeT)], open); k >= 0 {
		return nil, &formatFault{"<tool_call> opened twice", inner + k, inner + k + len(open)}
	}
	if k := strings.Index(resp[end:], open); k >= 0 {
		return nil, &formatFault{"more than one <tool_call>: the record wants one call", end + k, end + k + len(open)}
	}
	body := tags.Part{Name: "tool_call", Start: i, End: end, Inner: resp[inner : end-len(closeT)], InnerStart: inner}
	obj, call, fault := parseCall(body)
	if fault != nil {
		return nil, fault
	}
	return &parsed{toolCall: body, obj: obj, call: call}, nil
}

// span makes a span of [start, end) that covers at least one byte of a
// non-empty response: an empty range marks the byte at its position, or
// the last byte when it sits at the end.
func span(start, end, n int) []reward.Span {
	start, end = max(0, min(start, n)), max(0, min(end, n))
	if end < start {
		start, end = end, start
	}
	if start == end {
		if n == 0 {
			return nil
		}
		if start == n {
			start--
		}
		end = start + 1
	}
	return []reward.Span{{Start: start, End: end}}
}

// tagSpans are the four tags of a well-formed response.
func (p *parsed) tagSpans() []reward.Span {
	var out []reward.Span
	for _, part := range []struct {
		t            tags.Part
		open, closeT int
	}{{p.think, len("<think>"), len("</think>")}, {p.toolCall, len("<tool_call>"), len("</tool_call>")}} {
		out = append(out,
			reward.Span{Start: part.t.Start, End: part.t.Start + part.open},
			reward.Span{Start: part.t.End - part.closeT, End: part.t.End})
	}
	return out
}

// braceSpans are the opening and closing braces of an object.
func braceSpans(v Value) []reward.Span {
	return []reward.Span{{Start: v.Start, End: v.Start + 1}, {Start: v.End - 1, End: v.End}}
}
