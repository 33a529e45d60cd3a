package prm

import (
	"context"
	"testing"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model"
)

// BenchmarkInfluence measures Influence on 64 arith responses (one forward
// and one backward pass, plus rendering, the dot products and carrying)
// against a plain forward pass (Model.Scores) on the same sequences, with
// the default (small) PRM. Each iteration runs both, so the ratio
// x-forward is robust to other load on the machine.
func BenchmarkInfluence(b *testing.B) {
	for _, size := range []string{"small", "tiny"} {
		b.Run(size, func(b *testing.B) { benchInfluence(b, size) })
	}
}

func benchInfluence(b *testing.B, size string) {
	ctx := context.Background()
	tok := mustBytes()
	c, err := ModelConfig(size, tok.VocabSize())
	if err != nil {
		b.Fatal(err)
	}
	m, err := model.New(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	p, err := New(m, tok, Info{Task: "arith"})
	if err != nil {
		b.Fatal(err)
	}
	reqs := Requests(arithExamples(b, 64, 1))
	seqs := make([][]int32, len(reqs))
	tokens := 0
	for i, r := range reqs {
		e, err := p.encode(r.Prompt, r.Response, p.Split(r.Prompt, r.Response))
		if err != nil {
			b.Fatal(err)
		}
		seqs[i] = e.ids
		tokens += len(e.ids)
	}
	// Compile both graphs first.
	if _, err := m.Scores(ctx, seqs); err != nil {
		b.Fatal(err)
	}
	if _, err := p.Influence(ctx, reqs, credit.NullPad); err != nil {
		b.Fatal(err)
	}
	var fwd, infl time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := m.Scores(ctx, seqs); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := p.Influence(ctx, reqs, credit.NullPad); err != nil {
			b.Fatal(err)
		}
		fwd, infl = fwd+t1.Sub(t0), infl+time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(fwd.Seconds()*1e3/n, "ms-forward")
	b.ReportMetric(infl.Seconds()*1e3/n, "ms-influence")
	b.ReportMetric(infl.Seconds()/fwd.Seconds(), "x-forward")
	b.ReportMetric(float64(tokens)*n/infl.Seconds(), "influence-tok/s")
}
