package main

import (
	"strings"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/task"
)

// The settings tables: each config struct's settings with their flags and
// help, shared by every command that sets them. A setting added to a
// config struct needs a row here or a noFlag entry saying why not
// (TestEverySettingHasAFlag).

// adamSettings are optim.AdamW's, for every command that trains.
func adamSettings() []setting {
	return []setting{
		{"beta1", "adam-beta1", "AdamW β1 (first-moment decay)"},
		{"beta2", "adam-beta2", "AdamW β2 (second-moment decay)"},
		{"eps", "adam-eps", "AdamW ε (added to the root of the second moment)"},
		{"weight_decay", "weight-decay", "AdamW decoupled weight decay (matrices only); --lr × --weight-decay must be below 1"},
		{"clip_norm", "clip-norm", "global gradient-norm clip (0 disables)"},
	}
}

// memorySettings are optim.Memory's, for every command that trains.
func memorySettings() []setting {
	return []setting{
		{"memory_budget", "memory-budget", "memory a training step's activations may take, such as 512MiB or 4GiB: a batch whose estimate (model.Config.StepBytes) is larger is split into micro-batches whose summed gradients give the same update; 0: never split"},
		{"micro_batch", "micro-batch", "sequences per micro-batch, overriding --memory-budget (0: chosen from the budget)"},
	}
}

// adamAliases are the AdamW flags' former names.
var adamAliases = map[string]string{"beta1": "adam-beta1", "beta2": "adam-beta2"}

// creditSettings are credit.Config's (ALGORITHMS.md has every formula).
func creditSettings() []setting {
	return []setting{
		{"eps", "std-eps", "ε added to every std a normalization divides by"},
		{"scale", "scale", "GRPO scale: group, batch or none"},
		{"beta", "place-beta", "placement β: share of a reward's advantage moved by relevance"},
		{"span_warmup_steps", "span-warmup", "span: steps over which β rises linearly from 0 (0: exact spans place from the first step)"},
		{"replay_warmup_steps", "replay-warmup", "mrtpo: steps over which β rises linearly from 0 (a barely trained policy's replay is noise)"},
		{"kappa", "kappa", "cap κ on a token's weight"},
		{"cap", "cap", "what κ caps: sum (a token's reallocated advantage summed over rewards) or reward (each reward's weights)"},
		{"shuffle", "shuffle", "ablation: permute each response's weights across its tokens"},
		{"gamma", "gamma", "span: discount of credit to tokens before a span"},
		{"js", "js", "replay relevance: divergence (JS/ln 2) or distance (its square root)"},
		{"joint", "joint", "replay ablation: one replay without all blocks, shared by every reward"},
		{"placebo", "placebo", "replay extension: subtract the JS a neutral placebo block causes from each token's replay JS"},
		{"neutral", "neutral", "replay control: replace each removed block by neutral text of its length (mrtpo+neutral), so only the block's information moves the response"},
		{"wrong_spans", "wrong-spans", "span control: place each reward on another reward's spans"},
		{"scale_to", "scale-to", "step size: grpo sets every method's batch mean |A| to GRPO's on the same batch; raw (or empty) keeps each method's own"},
		{"null", "null", "gradient: null embedding pad, mean, zero or eos"},
		{"influence_target", "influence-target", "gradient: the step scalar whose gradient is the influence: logit (z₁ − z₀; the default), prob (R, the P2T paper's) or logprob (log R)"},
		{"influence_carry", "influence-carry", "gradient: how influence moves from PRM to policy tokens: sum (the default) or mean (within the step, as P2T's code)"},
		{"norm", "norm", "gradient: influence normalization magnitude or softmax"},
		{"temperature", "norm-temperature", "gradient: temperature T of --norm softmax"},
		{"eta", "eta", "gradient: η, share of a step's reward placed by influence"},
		{"alpha", "alpha", "gradient: α, weight of token rewards added to the outcome advantage"},
		{"step_reward", "step-reward", "gradient: step reward from the PRM probability R: signed (2R−1), centred (R minus the group's mean) or unsigned (R)"},
		{"saw_offsets", "saw-offset", "saw: offset o[k] added to a reward before its coefficient of variation, as name=o (repeatable; default 0)"},
	}
}

// trainSettings are rl.Config's: `credo train`'s flags, and the subset
// `credo compare` takes.
func trainSettings() []setting {
	ss := []setting{
		{"task", "task", "task to train on: " + strings.Join(task.Names(), ", ")},
		{"task_seed", "task-seed", "seed of the task's prompt generator and data"},
		{"difficulty", "difficulty", "the task's difficulty settings, key=value,… (each task's keys: see README)"},
		{"method", "method", "credit method: " + strings.Join(credit.Names(), ", ") + ", or saw+<method>"},
		{"init", "init", "warmed-up policy folder to start from (made by credo sft) (required)"},
		{"out", "out", "run directory (required)"},
		{"prm", "prm", "process reward model folder, for methods that need one (p2t)"},
		{"judges", "judge", "add an LLM judge reward: name=…,url=…,model=…[,rubric=FILE,weight=…,key_env=VAR] (repeatable)"},
		{"reward_weights", "reward-weight", "reward weight c[k] as name=w (repeatable; default 1)"},
		{"steps", "steps", "training steps"},
		{"prompts_per_step", "prompts", "prompts per step"},
		{"group", "group", "responses per prompt (G); at least 2"},
		{"dynamic_sampling", "dynamic-sampling", "keep only groups in which some reward varies, sampling up to this many rounds of fresh prompts per step to fill the batch (DAPO); 0: off"},
		{"max_tokens", "max-tokens", "new tokens per response"},
		{"temperature", "temperature", "sampling temperature"},
		{"top_p", "top-p", "nucleus sampling mass"},
		{"lr", "lr", "learning rate"},
		{"lr_warmup_steps", "lr-warmup", "learning-rate warm-up steps"},
		{"lr_min_ratio", "lr-min-ratio", "final learning rate as a share of --lr (1 keeps it constant)"},
		{"clip_low", "clip-low", "surrogate clip ε_low"},
		{"clip_high", "clip-high", "surrogate clip ε_high"},
		{"kl_beta", "kl-coef", "β_KL, weight of the k3 KL to the initial policy (0: none)"},
		{"loss_agg", "loss-agg", "loss aggregation: token-mean, seq-mean-token-mean or seq-mean-token-sum-norm"},
		{"updates", "updates", "updates per batch (μ) against its old log-probs"},
		{"eval_every", "eval-every", "steps between test-split evaluations (0: only at the end)"},
		{"eval_prompts", "eval-prompts", "test prompts per evaluation (0: none)"},
		{"eval_samples", "eval-samples", "sampled responses per test prompt besides the greedy one"},
		{"checkpoint_every", "checkpoint-every", "steps between checkpoints (and one at the end)"},
		{"keep_checkpoints", "keep-checkpoints", "checkpoints kept"},
		{"samples_per_step", "samples-per-step", "rollouts per step logged to samples.jsonl"},
		{"block_every", "block-every", "every this many steps of a replay method, log whether the policy reads its information blocks (blocks/… metrics; 0: never)"},
		{"verify_workers", "verify-workers", "verifiers run at once"},
		{"verify_timeout", "verify-timeout", "time limit per verdict (a verifier past it scores 0)"},
		{"max_verify_errors", "max-verify-errors", "share of a reward's verdicts over the last 5 steps that may fail (scored 0) before the run stops"},
		{"seed", "seed", "seed of sampling and every other random choice"},
	}
	ss = append(ss, under("optimizer.", adamSettings())...)
	ss = append(ss, memorySettings()...)
	return append(ss, under("credit.", creditSettings())...)
}

// trainAliases are train's former flag names, each now another's.
var trainAliases = map[string]string{
	"beta": "place-beta", "beta1": "adam-beta1", "beta2": "adam-beta2", "kl-beta": "kl-coef", "eps": "std-eps",
}

// trainNoFlag: every rl.Config setting has a flag.
var trainNoFlag = noFlag{}

// warmupSettings are lab.WarmupConfig's: `credo sft`'s flags, and the
// subset `credo compare` takes.
func warmupSettings() []setting {
	ss := []setting{
		{"task", "task", "task whose demonstrations to learn: " + strings.Join(task.Names(), ", ")},
		{"task_seed", "task-seed", "seed of the task's prompt generator and data"},
		{"difficulty", "difficulty", "the task's difficulty settings, key=value,… (each task's keys: see README)"},
		{"size", "size", "fresh model size: tiny, small (~1M parameters), medium (~10M) or qwen-small (small's layers with Qwen3's architecture and 151,936-token vocabulary, ~20M; needs --tokenizer)"},
		{"tokenizer", "tokenizer", "Hugging Face tokenizer folder (tokenizer.json, tokenizer_config.json) of a fresh model, whose chat template formats prompts; empty: byte-level. qwen-small needs Qwen3's, such as ../shared/data/tokenizers/qwen3"},
		{"init", "init", "start from this checkpoint folder instead of fresh weights"},
		{"demos", "demos", "demonstrations to draw (cycled in shuffled epochs)"},
		{"steps", "steps", "optimizer steps"},
		{"batch", "batch", "sequences per step"},
		{"lr", "lr", "peak learning rate (linear warm-up, then cosine decay)"},
		{"lr_warmup_steps", "lr-warmup", "learning-rate warm-up steps"},
		{"lr_min_ratio", "lr-min-ratio", "final learning rate as a share of the peak"},
		{"demo.DefaultFlawRate", "flaw-rate", "share of demonstrations that break each reward, so RL has something to fix"},
		{"demo.BlockRate", "block-rate", "share of demonstrations whose prompt carries information blocks the response follows"},
		{"seed", "seed", "seed of weights, demonstrations and batch order"},
		{"eval.eval_prompts", "eval-prompts", "test-split prompts evaluated at the end (0 skips)"},
		{"eval.eval_samples", "eval-samples", "sampled responses per evaluation prompt besides the greedy one"},
		{"eval.eval_max_tokens", "eval-max-tokens", "new tokens per evaluation response"},
	}
	ss = append(ss, memorySettings()...)
	return append(ss, under("optimizer.", adamSettings())...)
}

// warmupNoFlag are the warm-up settings without a flag.
var warmupNoFlag = noFlag{
	"demo.FlawRate": "per-reward flaw rates are for experiments in Go (task.DemoConfig); the command line sets one rate for every reward (--flaw-rate)",
	"eval.workers":  "the closing evaluation runs the task's own verifiers, 4 at once; not saved in warmup.json",
	"eval.timeout":  "the closing evaluation's verifiers are the task's own, which answer well within their 2 s; not saved in warmup.json",
	"eval.seed":     "the closing evaluation samples with the warm-up's --seed",
}

// compareNoFlag are the comparison settings without a flag of compare's own.
var compareNoFlag = noFlag{
	"train":                  "every training setting can be given in --train-config FILE (keys as in a run's config.json); the flags above override it",
	"warmup.init":            "--init reuses a finished warm-up checkpoint instead of making one",
	"warmup.lr_warmup_steps": warmupBySFT, "warmup.lr_min_ratio": warmupBySFT, "warmup.optimizer": warmupBySFT,
	"warmup.seed": warmupBySFT, "warmup.eval": warmupBySFT, "warmup.memory_budget": warmupBySFT, "warmup.micro_batch": warmupBySFT, "warmup.tokenizer": warmupBySFT,
	"warmup.demo.FlawRate": warmupNoFlag["demo.FlawRate"],
	"calibrate.group":      calibrateFromTrain, "calibrate.max_tokens": calibrateFromTrain, "calibrate.temperature": calibrateFromTrain,
	"calibrate.eval_prompts": calibrateFromTrain, "calibrate.workers": calibrateFromTrain, "calibrate.timeout": calibrateFromTrain,
	"calibrate.seed":         "the calibration samples with seed 1, the same for every comparison",
	"calibrate.max_zero_var": calibrateBy, "calibrate.saturated": calibrateBy,
}

const calibrateFromTrain = "the calibration samples as training does: the training settings' group, max tokens, temperature, verifiers and final evaluation prompts"

const calibrateBy = "`credo calibrate` has a flag for it; a comparison counts rewards by the defaults (fewer than 30% of groups without variance, a start below 0.8)"

const warmupBySFT = "the comparison's warm-up keeps the demo's settings for these; `credo sft` has a flag for each: warm up with it and pass the folder as --init"

// prmTrainSettings are prm.TrainConfig's: `credo prm train`'s flags, and
// the held-out subset `credo prm eval` takes.
func prmTrainSettings() []setting {
	ss := []setting{
		{"task", "task", "task whose step labels to learn (it must label steps; synthetic solutions need one that corrupts them, as arith does)"},
		{"task_seed", "task-seed", "seed of the task's prompt generator"},
		{"size", "size", "fresh model size: tiny, small (~1M parameters) or medium (~10M)"},
		{"init", "init", "start from this language-model checkpoint (a warmed-up policy): its tokenizer, embeddings and layers; a fresh scoring head"},
		{"examples", "examples", "synthetic training solutions: clean and each of the task's corruptions in equal shares"},
		{"held_out", "held-out", "test prompts whose corrupted solutions form the held-out set"},
		{"policy.dir", "policy", "warmed-up policy folder whose samples are added, labelled by the task (empty: none)"},
		{"policy.prompts", "policy-prompts", "training prompts the policy answers"},
		{"policy.held_out", "policy-held-out", "test prompts the policy answers for the held-out set"},
		{"policy.group", "policy-group", "policy samples per prompt"},
		{"policy.sample.temperature", "policy-temperature", "policy sampling temperature"},
		{"policy.sample.top_p", "policy-top-p", "policy nucleus sampling mass"},
		{"policy.sample.max_tokens", "policy-max-tokens", "new tokens per policy sample"},
		{"steps", "steps", "optimizer steps"},
		{"batch", "batch", "responses per step"},
		{"lr", "lr", "peak learning rate (linear warm-up, then cosine decay)"},
		{"lr_warmup", "lr-warmup", "learning-rate warm-up steps"},
		{"lr_min_ratio", "lr-min-ratio", "final learning rate as a share of the peak"},
		{"seed", "seed", "seed of weights, data, policy samples and batch order"},
		{"agreement", "agreement", "held-out responses on which gradient influence is checked against exact attribution (0 skips)"},
		{"eval_every", "eval-every", "log held-out metrics every this many steps (0: only at the end)"},
	}
	return append(ss, under("optimizer.", adamSettings())...)
}

// prmTrainNoFlag are the PRM training settings without a flag.
var prmTrainNoFlag = noFlag{
	"policy.sample.stop": "a step-labelled response runs to its end (EOS or --policy-max-tokens): a stop sequence would cut its last steps",
	"policy.sample.seed": "policy samples are seeded by --seed",
}
