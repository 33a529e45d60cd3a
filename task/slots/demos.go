package slots

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/credo-rl/credo/task"
)

// demoStream separates the demonstration generator's random stream from
// the prompts' (which use streams 2i and 2i+1).
const demoStream = 0x736c6f74 // "slot"

// Demos returns n demonstrations on training prompts, a function of (task
// seed, settings, seed, c).
//
// With probability c.BlockRate a demonstration's prompt carries the
// information blocks of a random non-empty subset of its slots (in slot
// order), and those slots are always answered right: the policy learns
// that a block tells the answer. Every other slot k slips (its sum off by
// 1 or 2) with probability rate_k / (1 − BlockRate/2), capped at 1, where
// rate_k is c.Rate("slot<k+1>"): a slot's block is present in half of the
// demonstrations with blocks, so its overall flaw rate is rate_k.
func (t *Task) Demos(n int, seed uint64, c task.DemoConfig) []task.Demo {
	if n <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, t.seed^demoStream))
	blockRate := clamp01(c.BlockRate)
	free := 1 - blockRate/2
	rewards := t.Rewards()
	out := make([]task.Demo, n)
	for i := range out {
		ref := t.draw(rng, task.Train)
		withBlock := make([]bool, t.slots)
		if rng.Float64() < blockRate {
			for { // a uniformly random non-empty subset
				some := false
				for k := range withBlock {
					withBlock[k] = rng.IntN(2) == 0
					some = some || withBlock[k]
				}
				if some {
					break
				}
			}
		}
		var blocks []string
		lines := make([]string, t.slots)
		var flaws []string
		for k, p := range ref.Pairs {
			lines[k] = p.Line()
			if withBlock[k] {
				blocks = append(blocks, Block(k, p))
				continue
			}
			if rate := clamp01(c.Rate(rewards[k].Name())); free > 0 && rng.Float64() < min(1, rate/free) {
				lines[k] = fmt.Sprintf("%d+%d=%d", p.A, p.B, slip(rng, p.Sum()))
				flaws = append(flaws, rewards[k].Name())
			}
		}
		out[i] = task.Demo{
			Prompt:   task.Compose(promptText(ref), blocks),
			Response: strings.Join(lines, "\n"),
			Flaws:    flaws,
		}
	}
	return out
}

// slip is a sum off by 1 or 2, never below zero.
func slip(rng *rand.Rand, sum int) int {
	d := 1 + rng.IntN(2)
	if rng.IntN(2) == 0 && sum-d >= 0 {
		return sum - d
	}
	return sum + d
}

func clamp01(x float64) float64 {
	if !(x > 0) { // also NaN
		return 0
	}
	return min(x, 1)
}
