package service

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestCapSpans(t *testing.T) {
	spans := func(n, step int) []reward.Span {
		out := make([]reward.Span, n)
		for i := range out {
			out[i] = reward.Span{Start: i * step, End: i*step + 1}
		}
		return out
	}
	cases := []struct {
		name    string
		in      []reward.Span
		limit   int
		want    int // spans kept
		dropped int
	}{
		{"under the cap, untouched", spans(3, 2), 4, 3, 0},
		{"at the cap", spans(4, 2), 4, 4, 0},
		{"adjacent merged under the cap", spans(10, 1), 4, 1, 0},
		{"apart: the first by position kept", spans(10, 2), 4, 4, 6},
		{"strengths differ: not merged", []reward.Span{{Start: 0, End: 1, Strength: 1}, {Start: 1, End: 2, Strength: 2}, {Start: 2, End: 3, Strength: 1}}, 2, 2, 1},
		{"effects differ: not merged", []reward.Span{{Start: 0, End: 1, Effect: reward.Raised}, {Start: 1, End: 2, Effect: reward.Lowered}, {Start: 2, End: 3}}, 2, 2, 1},
		{"overlapping, out of order", []reward.Span{{Start: 5, End: 9}, {Start: 0, End: 6}, {Start: 20, End: 21}}, 2, 2, 0},
	}
	for _, c := range cases {
		v := reward.Verdict{Spans: c.in}
		orig := append([]reward.Span(nil), c.in...)
		n := capSpans(&v, c.limit)
		if n != c.dropped || len(v.Spans) != c.want {
			t.Errorf("%s: %d spans kept, %d dropped; want %d, %d (%v)", c.name, len(v.Spans), n, c.want, c.dropped, v.Spans)
		}
		for i := 1; i < len(v.Spans) && len(orig) > c.limit; i++ {
			if v.Spans[i].Start < v.Spans[i-1].Start {
				t.Errorf("%s: kept spans out of order: %v", c.name, v.Spans)
			}
		}
		for i := range orig {
			if c.in[i] != orig[i] {
				t.Errorf("%s: the verifier's slice was changed", c.name)
			}
		}
	}
}

// A comma-heavy IFEval response gets at most maxVerdictSpans spans and
// says how many it dropped; a run of commas is one span; the verdict goes
// back into /v1/advantages as it is; a response over maxVerifyText is a
// 413 naming it.
func TestVerifyBounds(t *testing.T) {
	_, hs := newServer(t, Options{})
	rec := map[string]any{"prompt": "Write.", "instruction_id_list": []string{"punctuation:no_comma"}, "kwargs": []any{map[string]any{}}}
	apart := strings.Repeat("a,", 5000)
	run := strings.Repeat(",", 5000)
	status, got := post(t, hs, "/v1/verify", map[string]any{"format": "ifeval", "items": []any{
		map[string]any{"record": rec, "responses": []string{apart, run}}}})
	if status != 200 {
		t.Fatalf("%d %v", status, got)
	}
	rs := got["items"].([]any)[0].(map[string]any)["responses"].([]any)
	for i, want := range []struct{ spans, dropped int }{{maxVerdictSpans, 5000 - maxVerdictSpans}, {1, 0}} {
		v := rs[i].(map[string]any)["verdicts"].([]any)[0].(map[string]any)
		d := 0.0
		if x, ok := v["spans_dropped"]; ok {
			d = num(t, x)
		}
		if n := len(v["spans"].([]any)); n != want.spans || int(d) != want.dropped || num(t, v["score"]) != 0 {
			t.Errorf("response %d: %d spans, %v dropped, score %v; want %d, %d, 0", i, n, d, v["score"], want.spans, want.dropped)
		}
	}
	// The capped verdict, spans_dropped included, is accepted by /v1/advantages.
	verdict := rs[0].(map[string]any)["verdicts"].([]any)[0]
	offsets := make([][2]int, len(apart)/2)
	for i := range offsets {
		offsets[i] = [2]int{2 * i, 2*i + 2}
	}
	adv := map[string]any{"method": "span", "rewards": []string{"punctuation:no_comma"}, "responses": []any{
		map[string]any{"group": 0, "response": apart, "tokens": make([]int, len(offsets)), "offsets": offsets, "verdicts": []any{verdict}},
		map[string]any{"group": 0, "response": "ok", "tokens": []int{1}, "offsets": [][2]int{{0, 2}}, "scores": []float64{1}},
	}}
	if status, got := post(t, hs, "/v1/advantages", adv); status != 200 {
		t.Errorf("advantages of a capped verdict: %d %v", status, got["error"])
	}
	runErrorCases(t, "/v1/verify", Options{}, []errorCase{
		{"response over the limit", map[string]any{"format": "ifeval", "items": []any{
			map[string]any{"record": rec, "responses": []string{"ok", strings.Repeat(",", maxVerifyText+1)}}}},
			413, "items[0].responses[1]", "at most 262144"},
	})
}
