package report

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

// The fixtures write run and compare directories the way rl and
// `credo compare` do, from a seed, so tests read real files.

var fixtureMethods = []string{"grpo", "gdpo", "span", "mrtpo"}

// writeJSONFile writes v as JSON to path.
func writeJSONFile(t testing.TB, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeLines writes one JSON line per value.
func writeLines[T any](t testing.TB, path string, vs []T) {
	t.Helper()
	var b strings.Builder
	for _, v := range vs {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixtureResponse is a toolcall-style response cut into tokens of one to
// four bytes, with a space, a newline, markup to escape and an empty
// end-of-sequence token.
const fixtureResponse = "<think>convert 86 EUR\nto GBP</think><tool_call>{\"name\":\"convert\",\"arguments\":{\"amount\":86}}</tool_call>"

// The spans the fixture's verifiers checked: format the tags, call the JSON.
var (
	callStart          = strings.Index(fixtureResponse, "{")
	callEnd            = strings.LastIndex(fixtureResponse, "}") + 1
	fixtureFormatSpans = []reward.Span{{Start: 0, End: len("<think>")}, {Start: strings.Index(fixtureResponse, "</think>"), End: callStart}}
	fixtureCallSpans   = []reward.Span{{Start: callStart, End: callEnd, Strength: 0.5}}
)

func fixtureTokens(rng *rand.Rand) ([]string, [][2]int) {
	var toks []string
	var offs [][2]int
	for i := 0; i < len(fixtureResponse); {
		j := min(len(fixtureResponse), i+1+rng.IntN(4))
		toks, offs = append(toks, fixtureResponse[i:j]), append(offs, [2]int{i, j})
		i = j
	}
	return append(toks, ""), append(offs, [2]int{len(fixtureResponse), len(fixtureResponse)})
}

// writeFixtureRun writes a run of method with the given seed that logs
// `logged` of `steps` steps, rewards format and call rising at a
// method-dependent speed, an evaluation every 10 steps and at the end, and
// four samples per step.
func writeFixtureRun(t testing.TB, dir, method string, seed uint64, steps, logged int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "checkpoints"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSONFile(t, filepath.Join(dir, "config.json"), map[string]any{
		"task": "toolcall", "method": method, "steps": steps, "seed": seed, "group": 8, "credit": map[string]any{"beta": 0.5},
	})
	h := fnv.New64a()
	h.Write([]byte(method))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	speed := map[string]float64{"grpo": 0.04, "gdpo": 0.05, "span": 0.08, "mrtpo": 0.09}[method]
	tokenLevel := method == "span" || method == "mrtpo"
	var metrics []map[string]any
	var samples []Sample
	for s := range logged {
		m := map[string]any{"step": s, "lr": 5e-4, "loss/policy": rng.NormFloat64() * 0.01, "loss/kl": nil,
			"time/step": 1 + rng.Float64(), "time/credit": 0.01, "response/length": 40 + 10*rng.Float64(),
			"credit/overhead": 0.01 + 0.02*rng.Float64(), "credit/skipped": 0.3 * rng.Float64()}
		total := 0.0
		for k, name := range []string{"format", "call"} {
			v := math.Min(1, float64(s)*speed/float64(k+1)+0.1*rng.Float64())
			m["reward/"+name+"/mean"], m["reward/"+name+"/std"], m["reward/"+name+"/zero_var"] = v, 0.2, rng.Float64()/2
			total += v
			if tokenLevel {
				m["credit/concentration/"+name] = 0.2 + 0.2*rng.Float64()
				m["credit/localization/"+name] = 1.5 + 2*rng.Float64()
			}
			if (s+1)%10 == 0 || s+1 == steps {
				m["eval/greedy/"+name], m["eval/sampled/"+name] = v, v*0.9
			}
		}
		m["reward/total/mean"] = total
		metrics = append(metrics, m)
		for i := range 4 {
			toks, offs := fixtureTokens(rng)
			smp := Sample{Step: s, Index: i * 16, Prompt: "Tools: convert(amount,from,to)\nUser: Exchange 86 EUR into GBP.",
				Response: fixtureResponse, Tokens: toks, Offsets: offs, Advantage: rng.NormFloat64(),
				Verdicts: []Verdict{
					{Reward: "format", Score: 1, Info: "Format: <think>...</think><tool_call>{...}</tool_call>", Spans: fixtureFormatSpans},
					{Reward: "call", Score: 0, Reason: `argument "from" missing`, Spans: fixtureCallSpans},
				}}
			for range toks {
				smp.Advantages = append(smp.Advantages, smp.Advantage+0.3*rng.NormFloat64())
			}
			if tokenLevel {
				smp.Relevance = map[string][]float64{}
				for _, name := range []string{"format", "call"} {
					q := make([]float64, len(toks))
					for j := range q {
						q[j] = rng.Float64() * rng.Float64()
					}
					smp.Relevance[name] = q
				}
			}
			samples = append(samples, smp)
		}
	}
	writeLines(t, filepath.Join(dir, "metrics.jsonl"), metrics)
	writeLines(t, filepath.Join(dir, "samples.jsonl"), samples)
}

// writeFixtureCompare writes a compare directory of the fixture methods
// over the seeds, each run `steps` long.
func writeFixtureCompare(t testing.TB, dir string, seeds []uint64, steps int) {
	t.Helper()
	type entry struct {
		Method string `json:"method"`
		Seed   uint64 `json:"seed"`
		Dir    string `json:"dir"`
	}
	var runs []entry
	for _, m := range fixtureMethods {
		for _, s := range seeds {
			rel := filepath.Join("runs", m, fmt.Sprintf("seed-%d", s))
			writeFixtureRun(t, filepath.Join(dir, rel), m, s, steps, steps)
			runs = append(runs, entry{m, s, rel})
		}
	}
	writeJSONFile(t, filepath.Join(dir, "compare.json"), map[string]any{
		"task": "toolcall", "methods": fixtureMethods, "seeds": seeds, "steps": steps,
		"threshold": 0.8, "window": 5, "warmup": "warmup", "runs": runs,
	})
}
