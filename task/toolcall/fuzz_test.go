package toolcall

import (
	"context"
	"testing"

	"github.com/credo-rl/credo/reward"
)

// FuzzVerify runs both verifiers on arbitrary responses: no panic, a score
// of 0 or 1, a reason for every 0, spans inside the response, and a call
// never scored 1 when the format is 0.
func FuzzVerify(f *testing.F) {
	for _, s := range []string{
		`<think>w</think><tool_call>{"name":"weather","arguments":{"city":"Paris"}}</tool_call>`,
		`<think>w</think><tool_call>{"name":"weather","arguments":{"city":"Paris","unit":"kelvin"}}</tool_call>`,
		`<think>w</think><tool_call>{"name":"convert","arguments":{}}</tool_call>`,
		`<think>w</think><tool_call>{"name":"weather","arguments":{"city":"Paris"}</tool_call>`,
		`<tool_call>{}</tool_call><think></think>`,
		"<think>\xff</think><tool_call>{\"name\":\"\xfe\",\"arguments\":{\"city\":[[[{}]]]}}</tool_call>",
		"",
	} {
		f.Add(s)
	}
	p := weatherPrompt(f)
	f.Fuzz(func(t *testing.T, resp string) {
		var scores []float64
		for _, v := range []reward.Verifier{FormatVerifier{}, CallVerifier{}} {
			verdict, err := v.Verify(context.Background(), p, resp)
			if err != nil {
				t.Fatalf("%s: %v", v.Name(), err)
			}
			if verdict.Score != 0 && verdict.Score != 1 || verdict.Score == 0 && verdict.Reason == "" {
				t.Fatalf("%s: score %g, reason %q", v.Name(), verdict.Score, verdict.Reason)
			}
			if len(resp) > 0 && len(verdict.Spans) == 0 {
				t.Fatalf("%s: no spans", v.Name())
			}
			checkSpans(t, resp, verdict.Spans)
			scores = append(scores, verdict.Score)
		}
		if scores[0] == 0 && scores[1] == 1 {
			t.Fatal("call scored 1 on a broken format")
		}
	})
}
