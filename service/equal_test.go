package service

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
)

// everyMethod lists every registered method, each with every variant that
// applies to it, and SAW over each.
func everyMethod(t *testing.T) []string {
	var out []string
	for _, name := range credit.Names() {
		out = append(out, name, "saw+"+name)
		for v := range variantDocs() {
			if _, err := credit.New(name+"+"+v, credit.DefaultConfig()); err == nil {
				out = append(out, name+"+"+v, "saw+"+name+"+"+v)
			}
		}
	}
	if len(out) < 16 {
		t.Fatalf("only %d method names: %v", len(out), out)
	}
	return out
}

// inProcess is what credo's trainer computes for the batch: the method
// with the config, the recorded replay answers as its Replayer and the
// recorded influence as its PRM.
func inProcess(t *testing.T, rec recorded, name string, c credit.Config, answers []topk.Answer) (credit.Advantages, credit.Metrics) {
	t.Helper()
	b := *rec.b
	m, err := credit.New(name, c)
	if err != nil {
		t.Fatal(err)
	}
	if credit.RequirementsOf(m).Replay {
		plan, err := credit.PlanReplay(name, c, &b)
		if err != nil {
			t.Fatal(err)
		}
		if b.Replay, err = topk.NewReplayer(plan.Requests, answers); err != nil {
			t.Fatal(err)
		}
	}
	b.PRM = fixedInfluence(rec.influence)
	adv, met, err := m.Advantages(context.Background(), &b)
	if err != nil {
		t.Fatalf("%s in process: %v", name, err)
	}
	return adv, met
}

// sameBits compares float64 slices bit for bit.
func sameBits(a, b []float64) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i, false
		}
	}
	return 0, true
}

// TestHTTPEqualsInProcess: for every registered method and variant, with
// and without SAW, on recorded batches (verdicts with spans, effects,
// blocks and skips; multi-byte tokens; recorded top-k replay answers and
// recorded influence), the advantages, relevance and metrics the service
// answers over HTTP equal credit.New(…).Advantages(…) in process bit for
// bit, with JSON and with packed arrays.
func TestHTTPEqualsInProcess(t *testing.T) {
	_, hs := newServer(t, Options{})
	configs := []map[string]any{nil, {"beta": 0.3, "scale_to": "grpo", "cap": "reward", "js": "distance", "placebo": true, "gamma": 0.7, "eta": 0.25, "step_reward": "centred"}}
	checked := 0
	for _, name := range everyMethod(t) {
		for ci, cfg := range configs {
			for seed := range uint64(2) {
				packed := (seed+uint64(ci))%2 == 1
				rec := recordBatch(seed+uint64(7*ci), 4, 4, 3)
				c := credit.DefaultConfig()
				if cfg != nil {
					raw, _ := json.Marshal(cfg)
					if err := json.Unmarshal(raw, &c); err != nil {
						t.Fatal(err)
					}
				}
				var answers []topk.Answer
				if m, _ := credit.New(name, c); credit.RequirementsOf(m).Replay {
					plan, err := credit.PlanReplay(name, c, rec.b)
					if err != nil {
						t.Fatal(err)
					}
					answers = answersFor(plan, 4)
				}
				want, wantMet := inProcess(t, rec, name, c, answers)
				usesPRM := strings.Contains(name, "p2t")
				status, got := post(t, hs, "/v1/advantages", wireBody(rec, name, cfg, packed, answers, usesPRM))
				label := fmt.Sprintf("%s config %d seed %d packed %v", name, ci, seed, packed)
				if status != 200 {
					t.Fatalf("%s: %d %v", label, status, got["error"])
				}
				compareAnswer(t, label, rec, want, wantMet, got)
				checked++
			}
		}
	}
	t.Logf("%d (method, config, batch) cases equal bit for bit", checked)
}

func compareAnswer(t *testing.T, label string, rec recorded, want credit.Advantages, wantMet credit.Metrics, got map[string]any) {
	t.Helper()
	rows := got["advantages"].([]any)
	if len(rows) != len(want.Tokens) {
		t.Fatalf("%s: %d rows, want %d", label, len(rows), len(want.Tokens))
	}
	for i, row := range rows {
		if j, ok := sameBits(floatsOf(t, row), want.Tokens[i]); !ok {
			t.Fatalf("%s: response %d differs at token %d: %v, want %v", label, i, j, floatsOf(t, row), want.Tokens[i])
		}
	}
	if j, ok := sameBits(floatsOf(t, got["response_advantages"]), want.Response); !ok {
		t.Fatalf("%s: response advantages differ at %d", label, j)
	}
	rel := got["relevance"].(map[string]any)
	for k, name := range rec.b.Rewards {
		q := rel[name].([]any)
		for i, row := range q {
			var w []float64
			if want.Relevance != nil {
				w = want.Relevance[k][i]
			}
			if (row == nil) != (w == nil) {
				t.Fatalf("%s: relevance %s[%d] is %v, want %v", label, name, i, row, w)
			}
			if row != nil {
				if j, ok := sameBits(floatsOf(t, row), w); !ok {
					t.Fatalf("%s: relevance %s[%d] differs at %d", label, name, i, j)
				}
			}
		}
	}
	met := got["metrics"].(map[string]any)
	for key, v := range wantMet {
		if math.Float64bits(num(t, met[key])) != math.Float64bits(v) {
			t.Fatalf("%s: metric %s = %v, want %v", label, key, met[key], v)
		}
	}
	for _, name := range rec.b.Rewards {
		if _, ok := met["reward/"+name+"/zero_var"]; !ok {
			t.Errorf("%s: no reward/%s/zero_var", label, name)
		}
	}
}

// p2t without influence uses the server's PRM, and gives what the same
// PRM gives in process.
func TestHTTPEqualsInProcessServerPRM(t *testing.T) {
	rec := recordBatch(5, 3, 4, 2)
	_, hs := newServer(t, Options{PRM: fixedInfluence(rec.influence)})
	want, wantMet := inProcess(t, rec, "p2t", credit.DefaultConfig(), nil)
	status, got := post(t, hs, "/v1/advantages", wireBody(rec, "p2t", nil, false, nil, false))
	if status != 200 {
		t.Fatalf("%d %v", status, got)
	}
	compareAnswer(t, "p2t with --prm", rec, want, wantMet, got)
}
