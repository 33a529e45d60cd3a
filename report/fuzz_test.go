package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// FuzzParseMetrics: any metrics file either fails to parse with an error
// or gives steps the table and the page handle without panicking.
func FuzzParseMetrics(f *testing.F) {
	f.Add([]byte(`{"step":0,"reward/a/mean":0.5,"eval/greedy/a":1,"time/step":2}` + "\n" + `{"step":2,"reward/a/mean":null}`))
	f.Add([]byte(`{"step":1,"reward//mean":1,"reward/total/mean":3,"credit/localization/a":-1}`))
	f.Add([]byte(`{"step":0,"reward/a/mean":1e308,"response/length":-1e308}`))
	f.Add([]byte("{\"step\":0}\n\n  \n{\"step\":0.5}"))
	f.Add([]byte(`{"step":1048575}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		steps, err := ParseMetrics(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(steps) > run.MaxStep {
			t.Fatalf("%d steps", len(steps))
		}
		for s, st := range steps {
			if st != nil && st["step"] != float64(s) {
				t.Fatalf("step %d holds line %v", s, st["step"])
			}
		}
		if len(steps) > 5000 {
			return // the table and page are linear in steps: keep each input fast
		}
		c := Single(&Run{Method: "gdpo", Seed: 1, Steps: 3, Metrics: steps})
		_ = Markdown(Table(c))
		var buf bytes.Buffer
		if err := Render(&buf, c); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzRenderSamples: any samples file either fails to parse or renders,
// whatever its tokens, offsets, spans and values, and text from it never
// becomes markup.
func FuzzRenderSamples(f *testing.F) {
	good, _ := json.Marshal(Sample{Step: 2, Response: "ab\n c", Tokens: []string{"ab", "\n", " c", ""},
		Offsets: [][2]int{{0, 2}, {2, 3}, {3, 5}, {5, 5}}, Advantages: []float64{1, -2, 0, 0.5},
		Relevance: map[string][]float64{"a": {0, 1, 2, 3}},
		Verdicts:  []Verdict{{Reward: "a", Score: 1, Spans: nil, Reason: "<b>r</b>"}}})
	f.Add(good)
	f.Add([]byte(`{"response":"xyz","offsets":[[2,1],[-5,99],[0,3]],"advantages":[1e308,-1e308],"relevance":{"a":[-1,0]},"verdicts":[{"reward":"a","spans":[{"Start":9,"End":-2,"Strength":-3}]}]}`))
	f.Add([]byte(`{"tokens":["<script>alert(1)</script>","\t\r"],"relevance":{"<i>":[1,2,3,4,5]},"verdicts":[{"reward":"a\"b"}]}`))
	f.Add([]byte(`{"step":-4}` + "\n" + `{"step":9,"index":-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		samples, err := ParseSamples(bytes.NewReader(data))
		if err != nil {
			return
		}
		c := Single(&Run{Method: "span", Seed: 1, Steps: 1, Metrics: []Step{{"step": 0, "reward/a/mean": 1}}, Samples: samples})
		var buf bytes.Buffer
		if err := Render(&buf, c); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(buf.String(), "<script") {
			t.Fatal("text from samples became markup")
		}
	})
}

// FuzzParseEvals: any evals file either fails to parse with an error or
// gives evaluations in increasing step order whose retention counts are
// consistent (never more regressions than passes).
func FuzzParseEvals(f *testing.F) {
	f.Add([]byte(handEvals))
	f.Add([]byte(`{"step":1,"greedy":{"a":[1,null,0.5],"b":[]}}` + "\n" + `{"step":4,"greedy":{"a":[0],"c":[1,1]}}`))
	f.Add([]byte(`{"step":3,"greedy":null}` + "\n" + `{"step":2}`))
	f.Add([]byte(`{"step":0,"greedy":{"":[1e308,-1e308]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		evals, err := ParseEvals(bytes.NewReader(data))
		if err != nil {
			return
		}
		for i := 1; i < len(evals); i++ {
			if evals[i].Step <= evals[i-1].Step {
				t.Fatalf("steps %d then %d", evals[i-1].Step, evals[i].Step)
			}
		}
		r := RetentionOf(evals)
		if r.Regressed < 0 || r.Regressed > r.Passed || r.Runs > 1 {
			t.Fatalf("retention %+v", r)
		}
		_ = retentionCell(r)
	})
}
