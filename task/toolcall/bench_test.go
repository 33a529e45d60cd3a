package toolcall

import (
	"context"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// BenchmarkVerify measures verdicts per second of each verifier on 1,000
// generated responses: demonstrations with the default flaw rates (15% per
// reward), so a mix of clean and flawed ones.
func BenchmarkVerify(b *testing.B) {
	tk := newTask(b, 1)
	demos, refs, _ := tk.demos(1000, 1, task.DefaultDemoConfig())
	prompts := make([]task.Prompt, len(demos))
	for i, d := range demos {
		text, _, _ := strings.Cut(d.Prompt, "\n\n")
		prompts[i] = task.Prompt{ID: "bench", Text: text, Ref: refs[i]}
	}
	ctx := context.Background()
	for _, v := range []reward.Verifier{FormatVerifier{}, CallVerifier{}} {
		b.Run(v.Name(), func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for i, d := range demos {
					if _, err := v.Verify(ctx, prompts[i], d.Response); err != nil {
						b.Fatal(err)
					}
				}
				n += len(demos)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "verdicts/s")
			b.ReportMetric(0, "ns/op") // per 1,000 verdicts: verdicts/s says it better
		})
	}
}

// BenchmarkVerifyLarge measures the call verifier on 1 MB hostile responses.
func BenchmarkVerifyLarge(b *testing.B) {
	p := weatherPrompt(b)
	const mb = 1 << 20
	for name, resp := range map[string]string{
		"brackets": "<think></think><tool_call>" + strings.Repeat("[", mb) + "</tool_call>",
		"members":  `<think></think><tool_call>{"name":"weather","arguments":{` + strings.Repeat(`"city":"Rome",`, mb/14) + `"city":"Rome"}}</tool_call>`,
		"string":   `<think></think><tool_call>{"name":"` + strings.Repeat(`\u00e9`, mb/6) + `","arguments":{}}</tool_call>`,
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(resp)))
			for b.Loop() {
				if _, err := (CallVerifier{}).Verify(context.Background(), p, resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrompt measures prompt generation.
func BenchmarkPrompt(b *testing.B) {
	tk := newTask(b, 1)
	i := 0
	for b.Loop() {
		tk.Prompt(task.Split(i&1), i)
		i++
	}
}
