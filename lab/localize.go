package lab

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rollout"
)

// localizer measures, during a calibration, the localization each named
// credit method gives every reward: the method runs on each batch of
// calibration samples as on a run's first step, and its
// credit/localization/<reward> is averaged over the batches that define it.
type localizer struct {
	methods []string
	meths   []credit.Method
	vs      []reward.Verifier
	replay  credit.Replayer
	seed    uint64
	sum     map[string]map[string]float64 // [method][reward]
	n       map[string]map[string]int
}

// newLocalizer makes the methods of c.Localize (localizable).
func newLocalizer(c CalibrateConfig, vs []reward.Verifier, rp credit.Replayer) (*localizer, error) {
	l := &localizer{methods: c.Localize, vs: vs, replay: rp, seed: c.Seed,
		sum: map[string]map[string]float64{}, n: map[string]map[string]int{}}
	for _, name := range c.Localize {
		m, err := localizable(name, c.Credit)
		if err != nil {
			return nil, err
		}
		l.meths = append(l.meths, m)
		l.sum[name], l.n[name] = map[string]float64{}, map[string]int{}
	}
	return l, nil
}

// localizable is credit method name, made with cfg, when a calibration
// can measure its localization: one that needs a process reward model is
// an error (a calibration has none).
func localizable(name string, cfg credit.Config) (credit.Method, error) {
	m, err := credit.New(name, cfg)
	if err != nil {
		return nil, err
	}
	if credit.RequirementsOf(m).PRM {
		return nil, fmt.Errorf("the localization of %s cannot be measured in a calibration: it needs a process reward model", name)
	}
	return m, nil
}

// add runs every method on one batch of rollouts (batch index start).
func (l *localizer) add(ctx context.Context, ro rollout.Rollouts, start int) error {
	if len(l.meths) == 0 {
		return nil
	}
	b := ro.CreditBatch(l.vs, nil, 0, rollout.StepSeed(l.seed, start))
	b.Replay = l.replay
	for j, m := range l.meths {
		_, met, err := m.Advantages(ctx, b)
		if err != nil {
			return fmt.Errorf("localization of %s: %w", l.methods[j], err)
		}
		for _, v := range l.vs {
			if x, ok := met["credit/localization/"+v.Name()]; ok {
				l.sum[l.methods[j]][v.Name()] += x
				l.n[l.methods[j]][v.Name()]++
			}
		}
	}
	return nil
}

// of is reward's mean localization per method; nil without any.
func (l *localizer) of(reward string) map[string]float64 {
	var out map[string]float64
	for _, m := range l.methods {
		if n := l.n[m][reward]; n > 0 {
			if out == nil {
				out = map[string]float64{}
			}
			out[m] = l.sum[m][reward] / float64(n)
		}
	}
	return out
}
