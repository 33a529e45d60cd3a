package credit

func init() { Register("p2t-code", newP2TCode) }

// newP2TCode is P2T as its released code runs it (stonewst/P2T, commit
// cf422b3, 2026-08), beside credo's p2t, which follows the paper's
// formula. Per response, with the PRM's step probability R_s:
//
//	I[t]         = ⟨∂(Σ_s (z₁ − z₀)_s)/∂e_t, e_t − e_pad⟩
//	               (p2t/scripts/p2t_attribution.py, _step_scalars and
//	               compute_p2t_token_rewards: attribution_target "logit_diff",
//	               backward_mode "single", e_null the PAD embedding)
//	R̃_s          = 2R_s − 1  (process_reward_scale "signed")
//	R^P2T[t]     = N_s · R̃_s · softmax_{u in s}(I[u]/T)[t],  T = 1
//	R^process[t] = R̃_s
//	               (p2t/scripts/p2t_align.py, align_prm_influence_to_policy:
//	               the influence carried onto policy tokens as an
//	               overlap-weighted mean, agg "mean"; N_s the step's policy
//	               tokens, so a token's R^P2T is about R̃_s)
//	A[i,t]       = A_outcome[i] + 0.1·R^P2T[t] + 0.1·R^process[t]
//	               (p2t/trainer/ppo/core_algos.py, compute_p2t_advantage, with
//	               examples/p2t/qwen2.5-1.5b-instruct_MATH-12k.sh's
//	               p2t_adv_coef = process_adv_coef = 0.1)
//
// Special tokens are dropped before scoring there (P2TScorer.score in
// p2t/scripts/p2t_scorer.py), so the end token, which has no bytes here,
// belongs to no step: it gets A_outcome alone and N_s leaves it out.
// A_outcome is GRPO on the weighted rewards (Config.Scale, Eps), the code's
// default outcome_adv_norm_mode "group-mean-std"; the example script sets
// "null" (the raw reward) because it samples one response per prompt,
// which credo's groups never do.
//
// That advantage is credo's p2t formula, α·R̃_s·((1 − η) + η·q[t]) with
// q = N_s·softmax, at α = 0.2 and η = 0.5, so it is built as one: Norm
// softmax, Eta 0.5, Alpha 0.2, StepReward signed, Target logit and Carry
// mean, whatever c says; c's Null, Temperature, Scale and Eps apply (their
// defaults are the code's). The differences from credo's default p2t are
// the softmax weights (the paper's magnitude ones there), twice the PRM's
// weight (0.1 of the process reward on top of 0.1 of the redistributed
// one), the mean carry and the end token; both differentiate the logit.
func newP2TCode(c Config) (Method, error) {
	c.Norm, c.Eta, c.Alpha, c.StepReward = NormSoftmax, 0.5, 0.2, StepSigned
	c.Target, c.Carry = TargetLogit, CarryMean
	m, err := newP2T(c)
	if err != nil {
		return nil, err
	}
	pm := m.(*p2t)
	pm.noEnd = true
	return pm, nil
}
