package remote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/credo-rl/credo/internal/httpcall"
	"github.com/credo-rl/credo/reward"
)

// answer is the verifier's JSON answer.
type answer struct {
	Score  *float64 `json:"score"`
	Spans  []span   `json:"spans"`
	Info   string   `json:"info"`
	Reason string   `json:"reason"`
	Skip   bool     `json:"skip"`
}

type span struct {
	Start    *int     `json:"start"`
	End      *int     `json:"end"`
	Effect   string   `json:"effect"`
	Strength *float64 `json:"strength"`
}

// maxSpans bounds the spans of one answer.
const maxSpans = 4096

// ParseAnswer reads a verifier's answer about a response of n bytes (see
// the package doc). It is an error, never a panic, when the answer is not
// one JSON object, has no finite score, or has a span that is not within
// [0, n] with start ≤ end, an unknown effect or a negative or non-finite
// strength.
func ParseAnswer(body []byte, n int) (reward.Verdict, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var a answer
	if err := dec.Decode(&a); err != nil {
		return reward.Verdict{}, fmt.Errorf("not a JSON object: %w (answer %q)", err, httpcall.Head(string(body), 120))
	}
	if dec.More() {
		return reward.Verdict{}, errors.New("more than one JSON value")
	}
	switch {
	case a.Score == nil:
		return reward.Verdict{}, fmt.Errorf(`no "score" (answer %q)`, httpcall.Head(string(body), 120))
	case math.IsNaN(*a.Score) || math.IsInf(*a.Score, 0):
		return reward.Verdict{}, fmt.Errorf("score %v is not finite", *a.Score)
	case len(a.Spans) > maxSpans:
		return reward.Verdict{}, fmt.Errorf("%d spans, more than %d", len(a.Spans), maxSpans)
	}
	d := reward.Verdict{Score: *a.Score, Info: a.Info, Reason: a.Reason, Skip: a.Skip}
	for i, s := range a.Spans {
		sp, err := s.read(n)
		if err != nil {
			return reward.Verdict{}, fmt.Errorf("spans[%d]: %w", i, err)
		}
		d.Spans = append(d.Spans, sp)
	}
	if d.Skip {
		d.Score = 0 // a skipped reward scores 0 (reward.Verdict)
	}
	return d, nil
}

func (s span) read(n int) (reward.Span, error) {
	if s.Start == nil || s.End == nil {
		return reward.Span{}, errors.New(`want "start" and "end"`)
	}
	if *s.Start < 0 || *s.Start > *s.End || *s.End > n {
		return reward.Span{}, fmt.Errorf("[%d, %d) is not a byte range of the %d-byte response", *s.Start, *s.End, n)
	}
	sp := reward.Span{Start: *s.Start, End: *s.End}
	switch s.Effect {
	case "", "neutral":
	case "+", "raised":
		sp.Effect = reward.Raised
	case "-", "lowered":
		sp.Effect = reward.Lowered
	default:
		return reward.Span{}, fmt.Errorf(`effect %q: want "+", "-" or none`, s.Effect)
	}
	if s.Strength != nil {
		if x := *s.Strength; math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return reward.Span{}, fmt.Errorf("strength %v: want a finite number ≥ 0", x)
		}
		sp.Strength = *s.Strength
	}
	return sp, nil
}
