package sample

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// pick draws the next token from logits and returns it with its log-prob
// under the untempered distribution, log softmax(logits)[id].
func pick(logits []float32, c Config, rng *rand.Rand) (int32, float32) {
	if len(c.Suppress) > 0 {
		logits = slices.Clone(logits)
		for _, id := range c.Suppress {
			if id >= 0 && int(id) < len(logits) {
				logits[id] = float32(math.Inf(-1)) // exp(−Inf) = 0: never drawn
			}
		}
	}
	mx := math.Inf(-1)
	best := 0
	for i, v := range logits {
		if float64(v) > mx {
			mx, best = float64(v), i
		}
	}
	var z float64 // Σ exp(logit − max), for the untempered log-prob
	if c.Temperature != 1 {
		for _, v := range logits {
			z += math.Exp(float64(v) - mx)
		}
	}
	logProb := func(i int) float32 { return float32(float64(logits[i]) - mx - math.Log(z)) }
	if c.Temperature == 0 {
		return int32(best), logProb(best)
	}
	probs := make([]float64, len(logits)) // softmax(logits / T)
	var sum float64
	for i, v := range logits {
		probs[i] = math.Exp((float64(v) - mx) / c.Temperature)
		sum += probs[i]
	}
	if c.Temperature == 1 { // the same terms, summed in the same order: no second pass of exp
		z = sum
	}
	id := draw(probs, sum, c.TopP, rng.Float64())
	return int32(id), logProb(id)
}

// draw samples index i with probability probs[i]/sum, restricted to the
// top-p nucleus: the most likely tokens whose mass first reaches topP.
func draw(probs []float64, sum, topP, u float64) int {
	if topP >= 1 {
		target := u * sum
		acc := 0.0
		for i, p := range probs {
			acc += p
			if acc > target {
				return i
			}
		}
		return lastPositive(probs)
	}
	idx := make([]int, len(probs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return probs[idx[a]] > probs[idx[b]] })
	keep, acc := 0, 0.0
	for keep < len(idx) {
		acc += probs[idx[keep]]
		keep++
		if acc >= topP*sum {
			break
		}
	}
	target := u * acc
	acc = 0
	for _, i := range idx[:keep] {
		acc += probs[i]
		if acc > target {
			return i
		}
	}
	return idx[keep-1]
}

// lastPositive guards against rounding leaving u·sum just above the running
// total: it returns the last token that has any probability.
func lastPositive(probs []float64) int {
	for i := len(probs) - 1; i >= 0; i-- {
		if probs[i] > 0 {
			return i
		}
	}
	return 0
}
