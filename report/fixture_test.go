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
	"github.com/credo-rl/credo/run"
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
	speed := map[string]float64{"grpo": 0.04, "gdpo": 0.05, "span": 0.08, "mrtpo": 0.09, "p2t": 0.07, "saw+mrtpo": 0.085}[method]
	tokenLevel := method != "grpo" && method != "gdpo"
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
	writeLines(t, filepath.Join(dir, "evals.jsonl"), fixtureEvals(seed, h.Sum64(), speed, steps, logged))
}

// fixtureEvals are a run's evaluations on 16 test prompts every 10 steps
// and at the end: each prompt passes a reward with the chance the reward's
// training curve has reached (its own random stream, so the other files
// stay as they were).
func fixtureEvals(seed, stream uint64, speed float64, steps, logged int) []run.EvalRecord {
	rng := rand.New(rand.NewPCG(seed, stream^0xe7a1))
	var out []run.EvalRecord
	for s := range logged {
		if (s+1)%10 != 0 && s+1 != steps {
			continue
		}
		e := run.EvalRecord{Step: s + 1, Greedy: map[string][]*float64{}}
		for k, name := range []string{"format", "call"} {
			p := math.Min(1, float64(s)*speed/float64(k+1)+0.1)
			for range 16 {
				v := 0.0
				if rng.Float64() < p {
					v = 1
				}
				e.Greedy[name] = append(e.Greedy[name], &v)
			}
		}
		out = append(out, e)
	}
	return out
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

// writeFixtureWarmups writes a compare directory of methods over warmups
// warm-ups × seeds, each warm-up with its calibration (every reward
// counted), the way `credo compare --warmups` lays it out: the widest
// table the report makes.
func writeFixtureWarmups(t testing.TB, dir string, methods []string, warmups int, seeds []uint64, steps int) {
	t.Helper()
	var ws []run.ManifestWarmup
	var runs []run.ManifestRun
	for w := 1; w <= warmups; w++ {
		wd := fmt.Sprintf("warmup-%d", w)
		ws = append(ws, run.ManifestWarmup{Index: w, Dir: wd, Seed: uint64(w)})
		if err := os.MkdirAll(filepath.Join(dir, wd), 0o755); err != nil {
			t.Fatal(err)
		}
		writeJSONFile(t, filepath.Join(dir, wd, run.CalibrationFile), run.Calibration{Task: "toolcall", Prompts: 8, Group: 8,
			Rewards: []run.RewardStart{{Reward: "format", Pass: 0.3, Groups: 8, Counted: true}, {Reward: "call", Pass: 0.1 + 0.02*float64(w), Groups: 8, Counted: true}},
			Eval:    map[string]float64{"format": 0.5, "call": 0.2}})
		for _, m := range methods {
			for _, s := range seeds {
				rel := filepath.Join("runs", wd, m, fmt.Sprintf("seed-%d", s))
				writeFixtureRun(t, filepath.Join(dir, rel), m, s+uint64(100*w), steps, steps)
				runs = append(runs, run.ManifestRun{Method: m, Seed: s, Warmup: w, Dir: rel})
			}
		}
	}
	writeJSONFile(t, filepath.Join(dir, run.ManifestFile), run.Manifest{Task: "toolcall", Methods: methods, Seeds: seeds, Steps: steps,
		Threshold: 0.8, Window: 5, Warmups: ws, Runs: runs, Baselines: []string{"grpo", "gdpo"}, Train: []byte(`{"difficulty":"tools=3"}`)})
}
