package arith

import (
	"context"
	"testing"

	"github.com/credo-rl/credo/task"
)

// benchResponses are 1,000 generated responses: demonstrations with the
// default flaw and block rates (so clean, slipped and malformed ones mix),
// with the prompts they answer.
func benchResponses() ([]task.Prompt, []string) {
	ds := mk(1).demos(1000, 1, task.DefaultDemoConfig())
	ps, rs := make([]task.Prompt, len(ds)), make([]string, len(ds))
	for i, d := range ds {
		ps[i], rs[i] = d.prompt, d.Response
	}
	return ps, rs
}

// BenchmarkVerify reports each verifier's verdicts per second.
func BenchmarkVerify(b *testing.B) {
	ps, rs := benchResponses()
	ctx := context.Background()
	for _, v := range mk(0).Rewards() {
		b.Run(v.Name(), func(b *testing.B) {
			for b.Loop() {
				for i := range rs {
					if _, err := v.Verify(ctx, ps[i], rs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N*len(rs))/b.Elapsed().Seconds(), "verdicts/s")
		})
	}
}

// BenchmarkSteps reports labelled responses per second.
func BenchmarkSteps(b *testing.B) {
	ps, rs := benchResponses()
	for b.Loop() {
		for i := range rs {
			Steps(ps[i], rs[i])
		}
	}
	b.ReportMetric(float64(b.N*len(rs))/b.Elapsed().Seconds(), "responses/s")
}

// BenchmarkPrompt reports generated prompts per second.
func BenchmarkPrompt(b *testing.B) {
	t := mk(1)
	i := 0
	for b.Loop() {
		t.Prompt(task.Train, i)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "prompts/s")
}
