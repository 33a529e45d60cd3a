package credit

import "github.com/credo-rl/credo/reward"

// Varies says, for each response i, whether one reward's scores differ
// within response i's group (groups[i] is its group id). A response whose
// reward does not vary gets advantage 0 for it from every method and no
// relevance (ALGORITHMS.md §1, §2): this is the one place that decides
// it. A score marked skip (the reward does not apply; skip may be nil)
// counts as 0, as the methods see it.
func Varies(scores []float64, skip []bool, groups []int) []bool {
	x := scores
	if skip != nil {
		x = make([]float64, len(scores))
		for i, s := range scores {
			if !skip[i] {
				x[i] = s
			}
		}
	}
	return variesIn(x, groupIndices(groups))
}

// ZeroVariance is the share of the groups a reward applies to (at least
// one verdict not marked Skip) in which it does not vary (Varies), and how
// many groups it applies to: the reward/<name>/zero_var metric.
func ZeroVariance(verdicts []reward.Verdict, groups []int) (share float64, applies int) {
	scores := make([]float64, len(verdicts))
	skip := make([]bool, len(verdicts))
	for i, v := range verdicts {
		scores[i], skip[i] = v.Score, v.Skip
	}
	varies := Varies(scores, skip, groups)
	zero := 0
	for _, g := range groupIndices(groups) {
		applicable := false
		for _, i := range g {
			applicable = applicable || !skip[i]
		}
		if !applicable {
			continue
		}
		applies++
		if !varies[g[0]] {
			zero++
		}
	}
	if applies == 0 {
		return 0, 0
	}
	return float64(zero) / float64(applies), applies
}

// groupIndices lists the responses of each group, groups in order of
// first appearance.
func groupIndices(groups []int) [][]int {
	var out [][]int
	index := map[int]int{}
	for i, g := range groups {
		j, ok := index[g]
		if !ok {
			j = len(out)
			index[g] = j
			out = append(out, nil)
		}
		out[j] = append(out[j], i)
	}
	return out
}

// variesIn marks the responses of every group whose x is not one value.
func variesIn(x []float64, groups [][]int) []bool {
	out := make([]bool, len(x))
	for _, g := range groups {
		if !allEqual(x, g) {
			for _, i := range g {
				out[i] = true
			}
		}
	}
	return out
}
