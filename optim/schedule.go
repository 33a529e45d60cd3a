package optim

import "math"

// Schedule is a learning rate: a linear warm-up from 0 to Peak over
// WarmupSteps, then a cosine decay to MinRatio·Peak at Steps.
// MinRatio 1 holds the rate constant after warm-up.
type Schedule struct {
	Peak        float64 `json:"lr" yaml:"lr"`
	WarmupSteps int     `json:"lr_warmup_steps" yaml:"lr_warmup_steps"`
	Steps       int     `json:"-" yaml:"-"`
	MinRatio    float64 `json:"lr_min_ratio" yaml:"lr_min_ratio"`
}

// At is the learning rate of update step (0-based):
// lr = Peak·(step+1)/W during warm-up, then
// lr = Peak·(m + (1−m)·½(1 + cos(π·p))), p = (step−W)/(Steps−W).
func (s Schedule) At(step int) float64 {
	if step < s.WarmupSteps {
		return s.Peak * float64(step+1) / float64(s.WarmupSteps)
	}
	span := s.Steps - s.WarmupSteps
	if span <= 0 {
		return s.Peak
	}
	p := math.Min(1, float64(step-s.WarmupSteps)/float64(span))
	return s.Peak * (s.MinRatio + (1-s.MinRatio)*0.5*(1+math.Cos(math.Pi*p)))
}
