package rl

import (
	"context"
	"math"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	_ "github.com/credo-rl/credo/task/toolcall"
)

// TestZeroVarAgreesWithCredit: a reward's zero_var metric counts the
// groups in which credit gives it no advantage, among the groups it
// applies to. A skipped verdict scores 0 for credit, so a group whose
// applicable verdicts agree but one is skipped does vary.
func TestZeroVarAgreesWithCredit(t *testing.T) {
	sk := reward.Verdict{Skip: true}
	v := func(s float64) reward.Verdict { return reward.Verdict{Score: s} }
	verdicts := [][]reward.Verdict{{
		v(1), v(1), v(1), // group 0: no variance
		v(1), sk, v(1), // group 1: credit sees 1, 0, 1
		sk, sk, sk, // group 2: the reward does not apply
		v(0), v(1), v(1), // group 3: varies
	}}
	groups := []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}
	tr := &Trainer{rewards: []reward.Verifier{namedVerifier{name: "r"}}, weights: []float64{1}}
	m := run.Metrics{}
	tr.rewardMetrics(m, verdicts, groups)

	b := &credit.Batch{Groups: groups, Scores: [][]float64{make([]float64, len(groups))}, Verdicts: verdicts, Tokens: make([][]int32, len(groups))}
	for i, vd := range verdicts[0] {
		b.Scores[0][i] = vd.Score
		b.Tokens[i] = []int32{1}
	}
	meth, err := credit.New("grpo", credit.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	adv, _, err := meth.Advantages(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	for g := range 4 {
		if g != 2 && adv.Response[3*g] == 0 && adv.Response[3*g+1] == 0 && adv.Response[3*g+2] == 0 {
			zero++
		}
	}
	want := float64(zero) / 3 // groups 0, 1 and 3 apply
	if got := m[run.RewardKey("r", "zero_var")]; math.Abs(got-want) > 1e-12 || want != 1.0/3 {
		t.Errorf("zero_var %v, credit gives no advantage in %v of the groups the reward applies to (want 1/3)", got, want)
	}
	if got := m[run.RewardKey("r", "mean")]; math.Abs(got-7.0/8) > 1e-12 {
		t.Errorf("mean %v over the 8 applicable verdicts, want 7/8", got)
	}
}

// namedVerifier is a verifier with only a name, for metric keys.
type namedVerifier struct{ name string }

func (v namedVerifier) Name() string { return v.name }
func (namedVerifier) Verify(context.Context, reward.Prompt, string) (reward.Verdict, error) {
	return reward.Verdict{}, nil
}
