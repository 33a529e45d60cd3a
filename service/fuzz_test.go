package service

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// FuzzDecode feeds any bytes to every POST endpoint: none may panic, and
// every error must be an API error (a 400 or 413 naming a path), never a
// bare one, which the server would answer as a 500.
func FuzzDecode(f *testing.F) {
	t := &testing.T{}
	f.Add([]byte(mustJSON(small(t))))
	rec := recordBatch(1, 2, 3, 2)
	plan, _ := credit.PlanReplay("mrtpo", credit.DefaultConfig(), rec.b)
	for _, packed := range []bool{false, true} {
		raw, _ := json.Marshal(wireBody(rec, "mrtpo", map[string]any{"placebo": true}, packed, answersFor(plan, 3), false))
		f.Add(raw)
	}
	raw, _ := json.Marshal(wireBody(rec, "p2t", nil, false, nil, true))
	f.Add(raw)
	f.Add([]byte(`{"format": "ifeval", "items": [{"record": {"prompt": "x", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}, "responses": ["a, b"]}]}`))
	f.Add([]byte(`{"format": "task", "task": "slots", "items": [{"prompt_id": "slots-train-0", "responses": ["8"]}]}`))
	f.Add([]byte(`{"task": "arith", "count": 3, "split": "test"}`))
	f.Add([]byte(`{"method": "span", "rewards": ["a"], "responses": [{"group": "x", "response": "\u00e9\ud83d\ude42", "tokens": "AQAAAA==", "offsets": "AAAAAAYAAAA=", "scores": [1e-3]}]}`))
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	f.Fuzz(func(t *testing.T, body []byte) {
		for name, h := range map[string]func(context.Context, []byte) ([]byte, error){
			"advantages": s.advantages, "replay-plan": s.replayPlan, "verify": s.verify, "prompts": s.prompts,
		} {
			out, err := h(context.Background(), body)
			var ae *apiError
			switch {
			case err == nil && !json.Valid(out):
				t.Fatalf("%s answered invalid JSON: %.200s", name, out)
			case err != nil && !errors.As(err, &ae):
				t.Fatalf("%s: a bare error (a 500): %v", name, err)
			case err != nil && ae.status != 400 && ae.status != 413:
				t.Fatalf("%s: status %d for %v", name, ae.status, err)
			}
		}
	})
}
