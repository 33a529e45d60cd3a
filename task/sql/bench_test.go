package sql

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/credo-rl/credo/task"
)

// BenchmarkVerify measures verdicts per second of each verifier on 1,000
// generated responses (demonstrations, 30% flawed per reward), cycling
// through them. "cached" is the default sandbox, which runs each distinct
// query once; "uncached" runs every query.
func BenchmarkVerify(b *testing.B) {
	for _, cache := range []struct {
		name  string
		bytes int
	}{{"cached", 0}, {"uncached", -1}} {
		tk := openTask(b, 1, Options{CacheBytes: cache.bytes})
		demos, qs := tk.demos(1000, 1, task.DemoConfig{DefaultFlawRate: 0.3})
		for _, v := range tk.Rewards() {
			b.Run(v.Name()+"/"+cache.name, func(b *testing.B) {
				ctx := context.Background()
				i := 0
				for b.Loop() {
					p := task.Prompt{ID: "b", Text: demos[i].Prompt, Ref: qs[i].Ref}
					if _, err := v.Verify(ctx, p, demos[i].Response); err != nil {
						b.Fatal(err)
					}
					i = (i + 1) % len(demos)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "verdicts/s")
			})
		}
	}
}

// BenchmarkHostile measures the wall time of queries the time limit must
// stop, against the limit: ms/op should sit just above the limit, and
// max/limit (the worst run over the limit) below 2.
func BenchmarkHostile(b *testing.B) {
	tk := openTask(b, 1, Options{CacheBytes: -1})
	v := tk.Rewards()[1]
	p := tk.Prompt(task.Train, 0)
	for _, q := range []struct{ name, query string }{
		{"endless-cte", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"},
		{"cte-after-first-row", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c WHERE x = 1 OR x < 0"},
		{"cross-join", "SELECT COUNT(*) FROM orders a, orders b, orders c"},
		{"sparse-cross-join", "SELECT a.id FROM orders a, orders b, orders c WHERE a.id + b.id + c.id = 3"},
	} {
		b.Run(q.name, func(b *testing.B) {
			resp := wellFormed("t", q.query)
			var worst time.Duration
			for b.Loop() {
				start := time.Now()
				vd, err := v.Verify(context.Background(), p, resp)
				if err != nil || vd.Score != 0 {
					b.Fatal(err, vd)
				}
				worst = max(worst, time.Since(start))
			}
			b.ReportMetric(float64(worst)/float64(tk.box.limit), "max/limit")
		})
	}
}

// BenchmarkDemos measures demonstrations per second (with the default
// flaw and block rates, each flaw checked against the database).
func BenchmarkDemos(b *testing.B) {
	tk := openTask(b, 1, Options{})
	seed := uint64(0)
	for b.Loop() {
		seed++
		if d := tk.Demos(100, seed, task.DefaultDemoConfig()); len(d) != 100 {
			b.Fatal(fmt.Sprint(len(d)))
		}
	}
	b.ReportMetric(100*float64(b.N)/b.Elapsed().Seconds(), "demos/s")
}

// BenchmarkOpen measures generating and writing the database.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		tk, err := Open(task.Config{Seed: 1, Dir: dir}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		tk.Close()
	}
}
