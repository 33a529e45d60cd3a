package rl

import (
	"math"

	"github.com/credo-rl/credo/reward"
)

// SampleRecord is one rollout as samples.jsonl stores it: enough to
// render the response token by token with each reward's relevance and the
// final advantage (the report's heatmaps).
type SampleRecord struct {
	Step     int      `json:"step"`
	Index    int      `json:"index"` // the response's index in its batch
	Prompt   string   `json:"prompt"`
	Response string   `json:"response"`
	Tokens   []string `json:"tokens"`  // each token's text
	Offsets  [][2]int `json:"offsets"` // each token's byte range in Response
	// Advantages are the final token advantages A[i,t]; Advantage the
	// response-level value they average to.
	Advantages []float64            `json:"advantages"`
	Advantage  float64              `json:"advantage"`
	Relevance  map[string][]float64 `json:"relevance,omitempty"` // q per reward, where computed
	Verdicts   []VerdictRecord      `json:"verdicts"`
}

// VerdictRecord is one reward's verdict on a logged rollout.
type VerdictRecord struct {
	Reward string        `json:"reward"`
	Score  float64       `json:"score"`
	Info   string        `json:"info,omitempty"`
	Spans  []reward.Span `json:"spans,omitempty"`
	Reason string        `json:"reason,omitempty"`
	Skip   bool          `json:"skip,omitempty"`
}

// meanStd is the mean and unbiased std of xs (std 0 for fewer than two).
func meanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)-1))
}

// finiteMetrics replaces NaN and ±Inf (which JSON cannot hold) by nil, so
// a metrics line is always valid JSON and a reader sees the gap.
func finiteMetrics(m map[string]any) map[string]any {
	for k, v := range m {
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			m[k] = nil
		}
	}
	return m
}
