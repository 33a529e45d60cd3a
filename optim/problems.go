package optim

import "github.com/credo-rl/credo/internal/settings"

// Problems lists what is wrong with the schedule, keyed as config.json
// names its settings: lr, lr_warmup_steps, lr_min_ratio.
func (s Schedule) Problems() settings.Problems {
	var ps settings.Problems
	if !(s.Peak > 0) {
		ps.Add("lr", "must be positive, got %v", s.Peak)
	}
	if s.WarmupSteps < 0 {
		ps.Add("lr_warmup_steps", "must be ≥ 0, got %d", s.WarmupSteps)
	}
	if !(s.MinRatio >= 0 && s.MinRatio <= 1) {
		ps.Add("lr_min_ratio", "must be in [0, 1], got %v", s.MinRatio)
	}
	return ps
}

// Problems lists what is wrong with the optimizer's settings (keys
// optimizer.*) at peak learning rate lr: decoupled decay multiplies the
// weights by 1 − lr·decay, which must stay in (0, 1] or every step flips
// and blows the weights up.
func (o AdamW) Problems(lr float64) settings.Problems {
	var ps settings.Problems
	bad := func(key, format string, args ...any) { ps.Add("optimizer."+key, format, args...) }
	if !(o.Beta1 >= 0 && o.Beta1 < 1) {
		bad("beta1", "must be in [0, 1), got %v", o.Beta1)
	}
	if !(o.Beta2 >= 0 && o.Beta2 < 1) {
		bad("beta2", "must be in [0, 1), got %v", o.Beta2)
	}
	if !(o.Eps > 0) {
		bad("eps", "must be positive, got %v", o.Eps)
	}
	if o.WeightDecay < 0 {
		bad("weight_decay", "must be ≥ 0, got %v", o.WeightDecay)
	} else if lr > 0 && lr*o.WeightDecay >= 1 {
		bad("weight_decay", "%v times the learning rate %v is %v: decay multiplies the weights by 1 − lr·decay each step, so lr·decay must be below 1", o.WeightDecay, lr, lr*o.WeightDecay)
	}
	if o.ClipNorm < 0 {
		bad("clip_norm", "must be ≥ 0 (0 disables clipping), got %v", o.ClipNorm)
	}
	return ps
}
