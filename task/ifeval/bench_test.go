package ifeval

import (
	"context"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// BenchmarkVerifiers measures verdicts per second of each task reward on
// 1,000 generated demonstrations (default flaw rates).
func BenchmarkVerifiers(b *testing.B) {
	tk := newTask(b, 1)
	ds := tk.demos(1000, 1, task.DefaultDemoConfig())
	ctx := context.Background()
	for k, v := range tk.Rewards() {
		b.Run(kindOrder[k], func(b *testing.B) {
			n := 0
			for b.Loop() {
				for _, d := range ds {
					if _, err := v.Verify(ctx, d.prompt, d.Response); err != nil {
						b.Fatal(err)
					}
					n++
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "verdicts/s")
		})
	}
}

// BenchmarkCheck1MB measures each checker on a 1 MB response of mixed
// English text and markup, to show linear cost (about a millisecond per
// megabyte for most).
func BenchmarkCheck1MB(b *testing.B) {
	unit := "<<The Sea>>\n* the sea is calm, and the boat is [x].\n- DON'T STOP P.S. Section 1 *hi* ***\n\n"
	s := strings.Repeat(unit, (1<<20)/len(unit))
	for _, c := range representativeConstraints(b) {
		b.Run(c.ID(), func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				c.Check(s)
			}
		})
	}
}

// BenchmarkPrompt measures prompt generation.
func BenchmarkPrompt(b *testing.B) {
	tk := newTask(b, 1)
	i := 0
	for b.Loop() {
		tk.Prompt(task.Train, i)
		i++
	}
}
