package main

import (
	"strings"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/task"
)

// The settings tables: each config struct's settings with their flags and
// help, shared by every command that sets them. A setting added to a
// config struct needs a row here or a NoFlag entry saying why not
// (TestEverySettingHasAFlag).

// adamSettings are optim.AdamW's, for every command that trains.
func adamSettings() []cli.Setting {
	return []cli.Setting{
		{Key: "beta1", Flag: "adam-beta1", Usage: "AdamW β1 (first-moment decay)"},
		{Key: "beta2", Flag: "adam-beta2", Usage: "AdamW β2 (second-moment decay)"},
		{Key: "eps", Flag: "adam-eps", Usage: "AdamW ε (added to the root of the second moment)"},
		{Key: "weight_decay", Flag: "weight-decay", Usage: "AdamW decoupled weight decay (matrices only); --lr × --weight-decay must be below 1"},
		{Key: "clip_norm", Flag: "clip-norm", Usage: "global gradient-norm clip (0 disables)"},
	}
}

// memorySettings are optim.Memory's, for every command that trains.
func memorySettings() []cli.Setting {
	return []cli.Setting{
		{Key: "memory_budget", Flag: "memory-budget", Usage: "memory a training step may take, such as 512MiB or 4GiB: its weights, gradient and AdamW moments (16 bytes a parameter) and its activations; a batch whose activations' estimate (model.Config.StepBytes) does not fit the rest is split into micro-batches whose summed gradients give the same update; the process's Go heap limit becomes 5/4 of it (or of twice the model's 16 bytes a parameter, when more) unless GOMEMLIMIT is set; 0: never split"},
		{Key: "micro_batch", Flag: "micro-batch", Usage: "sequences per micro-batch, overriding --memory-budget (0: chosen from the budget)"},
	}
}

// adamAliases are the AdamW flags' former names.
var adamAliases = map[string]string{"beta1": "adam-beta1", "beta2": "adam-beta2"}

// creditSettings are credit.Config's (ALGORITHMS.md has every formula).
func creditSettings() []cli.Setting {
	return []cli.Setting{
		{Key: "eps", Flag: "std-eps", Usage: "ε added to every std a normalization divides by"},
		{Key: "scale", Flag: "scale", Usage: "GRPO scale: group, batch or none"},
		{Key: "beta", Flag: "place-beta", Usage: "placement β: share of a reward's advantage moved by relevance"},
		{Key: "span_warmup_steps", Flag: "span-warmup", Usage: "span: steps over which β rises linearly from 0 (0: exact spans place from the first step)"},
		{Key: "replay_warmup_steps", Flag: "replay-warmup", Usage: "mrtpo: steps over which β rises linearly from 0 (a barely trained policy's replay is noise)"},
		{Key: "kappa", Flag: "kappa", Usage: "cap κ on a token's weight"},
		{Key: "cap", Flag: "cap", Usage: "what κ caps: sum (a token's reallocated advantage summed over rewards) or reward (each reward's weights)"},
		{Key: "shuffle", Flag: "shuffle", Usage: "ablation: permute each response's weights across its tokens"},
		{Key: "gamma", Flag: "gamma", Usage: "span: discount of credit to tokens before a span"},
		{Key: "js", Flag: "js", Usage: "replay relevance: divergence (JS/ln 2) or distance (its square root)"},
		{Key: "joint", Flag: "joint", Usage: "replay ablation: one replay without all blocks, shared by every reward"},
		{Key: "placebo", Flag: "placebo", Usage: "replay extension: subtract the JS a neutral placebo block causes from each token's replay JS"},
		{Key: "neutral", Flag: "neutral", Usage: "replay control: replace each removed block by neutral text of its length (mrtpo+neutral), so only the block's information moves the response"},
		{Key: "wrong_spans", Flag: "wrong-spans", Usage: "span control: place each reward on another reward's spans"},
		{Key: "scale_to", Flag: "scale-to", Usage: "step size: grpo sets every method's batch mean |A| to GRPO's on the same batch; raw (or empty) keeps each method's own"},
		{Key: "null", Flag: "null", Usage: "gradient: null embedding pad, mean, zero or eos"},
		{Key: "influence_target", Flag: "influence-target", Usage: "gradient: the step scalar whose gradient is the influence: logit (z₁ − z₀; the default), prob (R, the P2T paper's) or logprob (log R)"},
		{Key: "influence_carry", Flag: "influence-carry", Usage: "gradient: how influence moves from PRM to policy tokens: sum (the default) or mean (within the step, as P2T's code)"},
		{Key: "norm", Flag: "norm", Usage: "gradient: influence normalization magnitude or softmax"},
		{Key: "temperature", Flag: "norm-temperature", Usage: "gradient: temperature T of --norm softmax"},
		{Key: "eta", Flag: "eta", Usage: "gradient: η, share of a step's reward placed by influence"},
		{Key: "alpha", Flag: "alpha", Usage: "gradient: α, weight of token rewards added to the outcome advantage"},
		{Key: "step_reward", Flag: "step-reward", Usage: "gradient: step reward from the PRM probability R: signed (2R−1), centred (R minus the group's mean) or unsigned (R)"},
		{Key: "saw_offsets", Flag: "saw-offset", Usage: "saw: offset o[k] added to a reward before its coefficient of variation, as name=o (repeatable; default 0)"},
	}
}

// trainSettings are rl.Config's: `credo train`'s flags, and the subset
// `credo compare` takes.
func trainSettings() []cli.Setting {
	ss := []cli.Setting{
		{Key: "task", Flag: "task", Usage: "task to train on: " + strings.Join(task.Names(), ", ")},
		{Key: "task_seed", Flag: "task-seed", Usage: "seed of the task's prompt generator and data"},
		{Key: "difficulty", Flag: "difficulty", Usage: "the task's difficulty settings, key=value,… (each task's keys: see README)"},
		{Key: "method", Flag: "method", Usage: "credit method: " + strings.Join(credit.Names(), ", ") + ", or saw+<method>"},
		{Key: "init", Flag: "init", Usage: "warmed-up policy folder to start from (made by credo sft) (required)"},
		{Key: "out", Flag: "out", Usage: "run directory (required)"},
		{Key: "prm", Flag: "prm", Usage: "process reward model folder, for methods that need one (p2t)"},
		{Key: "judges", Flag: "judge", Usage: "add an LLM judge reward: name=…,url=…,model=…[,rubric=FILE,weight=…,key_env=VAR] (repeatable)"},
		{Key: "verifiers", Flag: "verifier", Usage: verifierUsage},
		{Key: "reward_weights", Flag: "reward-weight", Usage: "reward weight c[k] as name=w (repeatable; default 1)"},
		{Key: "steps", Flag: "steps", Usage: "training steps"},
		{Key: "prompts_per_step", Flag: "prompts", Usage: "prompts per step"},
		{Key: "group", Flag: "group", Usage: "responses per prompt (G); at least 2"},
		{Key: "dynamic_sampling", Flag: "dynamic-sampling", Usage: "keep only groups in which some reward varies, sampling up to this many rounds of fresh prompts per step to fill the batch (DAPO); 0: off"},
		{Key: "max_tokens", Flag: "max-tokens", Usage: "new tokens per response"},
		{Key: "temperature", Flag: "temperature", Usage: "sampling temperature"},
		{Key: "top_p", Flag: "top-p", Usage: "nucleus sampling mass"},
		{Key: "lr", Flag: "lr", Usage: "learning rate"},
		{Key: "lr_warmup_steps", Flag: "lr-warmup", Usage: "learning-rate warm-up steps"},
		{Key: "lr_min_ratio", Flag: "lr-min-ratio", Usage: "final learning rate as a share of --lr (1 keeps it constant)"},
		{Key: "clip_low", Flag: "clip-low", Usage: "surrogate clip ε_low"},
		{Key: "clip_high", Flag: "clip-high", Usage: "surrogate clip ε_high"},
		{Key: "kl_beta", Flag: "kl-coef", Usage: "β_KL, weight of the k3 KL to the initial policy (0: none)"},
		{Key: "loss_agg", Flag: "loss-agg", Usage: "loss aggregation: token-mean, seq-mean-token-mean or seq-mean-token-sum-norm"},
		{Key: "updates", Flag: "updates", Usage: "updates per batch (μ) against its old log-probs"},
		{Key: "eval_every", Flag: "eval-every", Usage: "steps between test-split evaluations (0: only at the end)"},
		{Key: "eval_prompts", Flag: "eval-prompts", Usage: "test prompts per evaluation (0: none)"},
		{Key: "eval_samples", Flag: "eval-samples", Usage: "sampled responses per test prompt besides the greedy one"},
		{Key: "checkpoint_every", Flag: "checkpoint-every", Usage: "steps between checkpoints (and one at the end)"},
		{Key: "keep_checkpoints", Flag: "keep-checkpoints", Usage: "checkpoints kept"},
		{Key: "samples_per_step", Flag: "samples-per-step", Usage: "rollouts per step logged to samples.jsonl"},
		{Key: "block_every", Flag: "block-every", Usage: "every this many steps of a replay method, log whether the policy reads its information blocks (blocks/… metrics; 0: never)"},
		{Key: "verify_workers", Flag: "verify-workers", Usage: "verifiers run at once"},
		{Key: "verify_timeout", Flag: "verify-timeout", Usage: "time limit per verdict (a verifier past it scores 0)"},
		{Key: "max_verify_errors", Flag: "max-verify-errors", Usage: "share of a reward's verdicts over the last 5 steps that may fail (scored 0) before the run stops"},
		{Key: "seed", Flag: "seed", Usage: "seed of sampling and every other random choice"},
	}
	ss = append(ss, recordSettings()...)
	ss = append(ss, cli.Under("optimizer.", adamSettings())...)
	ss = append(ss, memorySettings()...)
	return append(ss, cli.Under("credit.", creditSettings())...)
}

// trainAliases are train's former flag names, each now another's.
var trainAliases = map[string]string{
	"beta": "place-beta", "beta1": "adam-beta1", "beta2": "adam-beta2", "kl-beta": "kl-coef", "eps": "std-eps",
}

// trainNoFlag: every rl.Config setting has a flag.
var trainNoFlag = cli.NoFlag{"records_sha256": recordsDigest}

// recordsDigest: the records file's digest is read from the file.
const recordsDigest = "the records file's SHA-256, taken from the file when a run starts; a resume refuses a file that changed"

// warmupSettings are lab.WarmupConfig's: `credo sft`'s flags, and the
// subset `credo compare` takes.
func warmupSettings() []cli.Setting {
	ss := []cli.Setting{
		{Key: "task", Flag: "task", Usage: "task whose demonstrations to learn: " + strings.Join(task.Names(), ", ")},
		{Key: "task_seed", Flag: "task-seed", Usage: "seed of the task's prompt generator and data"},
		{Key: "difficulty", Flag: "difficulty", Usage: "the task's difficulty settings, key=value,… (each task's keys: see README)"},
		{Key: "size", Flag: "size", Usage: "fresh model size: tiny, small (~1M parameters), medium (~10M) or qwen-small (small's layers with Qwen3's architecture and 151,936-token vocabulary, ~20M; needs --tokenizer)"},
		{Key: "tokenizer", Flag: "tokenizer", Usage: "Hugging Face tokenizer folder (tokenizer.json, tokenizer_config.json) of a fresh model, whose chat template formats prompts; empty: byte-level. qwen-small needs Qwen3's, such as ../shared/data/tokenizers/qwen3"},
		{Key: "init", Flag: "init", Usage: "start from this checkpoint folder instead of fresh weights"},
		{Key: "demos", Flag: "demos", Usage: "demonstrations to draw (cycled in shuffled epochs)"},
		{Key: "steps", Flag: "steps", Usage: "optimizer steps"},
		{Key: "batch", Flag: "batch", Usage: "sequences per step"},
		{Key: "lr", Flag: "lr", Usage: "peak learning rate (linear warm-up, then cosine decay)"},
		{Key: "lr_warmup_steps", Flag: "lr-warmup", Usage: "learning-rate warm-up steps"},
		{Key: "lr_min_ratio", Flag: "lr-min-ratio", Usage: "final learning rate as a share of the peak"},
		{Key: "demo.DefaultFlawRate", Flag: "flaw-rate", Usage: "share of demonstrations that break each reward, so RL has something to fix"},
		{Key: "demo.FlawRate", Flag: "reward-flaw-rate", Usage: "one reward's flaw rate as name=share, in place of --flaw-rate for it (repeatable), such as call=0.5 to flaw toolcall's calls but not their format"},
		{Key: "demo.BlockRate", Flag: "block-rate", Usage: "share of demonstrations whose prompt carries information blocks the response follows"},
		{Key: "seed", Flag: "seed", Usage: "seed of weights, demonstrations and batch order"},
		{Key: "eval.eval_prompts", Flag: "eval-prompts", Usage: "test-split prompts evaluated at the end (0 skips)"},
		{Key: "eval.eval_samples", Flag: "eval-samples", Usage: "sampled responses per evaluation prompt besides the greedy one"},
		{Key: "eval.eval_max_tokens", Flag: "eval-max-tokens", Usage: "new tokens per evaluation response"},
	}
	ss = append(ss, recordSettings()...)
	ss = append(ss, memorySettings()...)
	return append(ss, cli.Under("optimizer.", adamSettings())...)
}

// warmupNoFlag are the warm-up settings without a flag.
var warmupNoFlag = cli.NoFlag{
	"records_sha256": recordsDigest,
	"eval.workers":   "the closing evaluation runs the task's own verifiers, 4 at once; not saved in warmup.json",
	"eval.timeout":   "the closing evaluation's verifiers are the task's own, which answer well within their 2 s; not saved in warmup.json",
	"eval.seed":      "the closing evaluation samples with the warm-up's --seed",
	"eval.batch":     "the closing evaluation generates its few dozen prompts at once",
	"eval.progress":  "a report of the evaluation's progress that credo eval prints, not a setting",
}

// warmupRecords: compare's warm-ups take the training's records.
const warmupRecords = "the warm-ups take the training's records file (--records, or records in --train-config)"

// compareNoFlag are the comparison settings without a flag of compare's own.
var compareNoFlag = cli.NoFlag{
	"train":                 "every training setting can be given in --train-config FILE (keys as in a run's config.json); the flags above override it",
	"warmup.init":           "--init reuses a finished warm-up checkpoint instead of making one",
	"warmup.records_sha256": warmupRecords, "warmup.records": warmupRecords, "warmup.format": warmupRecords, "warmup.test_fraction": warmupRecords, "warmup.strict_records": warmupRecords,
	"warmup.lr_warmup_steps": warmupBySFT, "warmup.lr_min_ratio": warmupBySFT, "warmup.optimizer": warmupBySFT,
	"warmup.eval": warmupBySFT, "warmup.memory_budget": warmupBySFT, "warmup.micro_batch": warmupBySFT, "warmup.tokenizer": warmupBySFT,
	"calibrate.group": calibrateFromTrain, "calibrate.max_tokens": calibrateFromTrain, "calibrate.temperature": calibrateFromTrain,
	"calibrate.eval_prompts": calibrateFromTrain, "calibrate.workers": calibrateFromTrain, "calibrate.timeout": calibrateFromTrain,
	"calibrate.seed":         "the calibration samples with seed 1, the same for every comparison",
	"calibrate.max_zero_var": calibrateBy, "calibrate.saturated": calibrateBy,
	"calibrate.localize": "the methods of --min-localization, whose localization the gate reads",
	"calibrate.credit":   "the training settings' credit configuration, as each run's first step would place",
}

const calibrateFromTrain = "the calibration samples as training does: the training settings' group, max tokens, temperature, verifiers and final evaluation prompts"

const calibrateBy = "`credo calibrate` has a flag for it; a comparison counts rewards by the defaults (fewer than 30% of groups without variance, a start below 0.8)"

const warmupBySFT = "the comparison's warm-up keeps the demo's settings for these; `credo sft` has a flag for each: warm up with it and pass the folder as --init"

// prmTrainSettings are prm.TrainConfig's: `credo prm train`'s flags, and
// the held-out subset `credo prm eval` takes.
func prmTrainSettings() []cli.Setting {
	ss := []cli.Setting{
		{Key: "task", Flag: "task", Usage: "task whose step labels to learn (it must label steps; synthetic solutions need one that corrupts them, as arith does)"},
		{Key: "task_seed", Flag: "task-seed", Usage: "seed of the task's prompt generator"},
		{Key: "size", Flag: "size", Usage: "fresh model size: tiny, small (~1M parameters) or medium (~10M)"},
		{Key: "init", Flag: "init", Usage: "start from this language-model checkpoint (a warmed-up policy): its tokenizer, embeddings and layers; a fresh scoring head"},
		{Key: "examples", Flag: "examples", Usage: "synthetic training solutions: clean and each of the task's corruptions in equal shares"},
		{Key: "held_out", Flag: "held-out", Usage: "test prompts whose corrupted solutions form the held-out set"},
		{Key: "policy.dir", Flag: "policy", Usage: "warmed-up policy folder whose samples are added, labelled by the task (empty: none)"},
		{Key: "policy.prompts", Flag: "policy-prompts", Usage: "training prompts the policy answers"},
		{Key: "policy.held_out", Flag: "policy-held-out", Usage: "test prompts the policy answers for the held-out set"},
		{Key: "policy.group", Flag: "policy-group", Usage: "policy samples per prompt"},
		{Key: "policy.sample.temperature", Flag: "policy-temperature", Usage: "policy sampling temperature"},
		{Key: "policy.sample.top_p", Flag: "policy-top-p", Usage: "policy nucleus sampling mass"},
		{Key: "policy.sample.max_tokens", Flag: "policy-max-tokens", Usage: "new tokens per policy sample"},
		{Key: "steps", Flag: "steps", Usage: "optimizer steps"},
		{Key: "batch", Flag: "batch", Usage: "responses per step"},
		{Key: "lr", Flag: "lr", Usage: "peak learning rate (linear warm-up, then cosine decay)"},
		{Key: "lr_warmup", Flag: "lr-warmup", Usage: "learning-rate warm-up steps"},
		{Key: "lr_min_ratio", Flag: "lr-min-ratio", Usage: "final learning rate as a share of the peak"},
		{Key: "seed", Flag: "seed", Usage: "seed of weights, data, policy samples and batch order"},
		{Key: "agreement", Flag: "agreement", Usage: "held-out responses on which gradient influence is checked against exact attribution (0 skips)"},
		{Key: "eval_every", Flag: "eval-every", Usage: "log held-out metrics every this many steps (0: only at the end)"},
	}
	return append(ss, cli.Under("optimizer.", adamSettings())...)
}

// prmTrainNoFlag are the PRM training settings without a flag.
var prmTrainNoFlag = cli.NoFlag{
	"policy.sample.stop":     "a step-labelled response runs to its end (EOS or --policy-max-tokens): a stop sequence would cut its last steps",
	"policy.sample.seed":     "policy samples are seeded by --seed",
	"policy.sample.suppress": "`credo sample`'s own (its --raw): training draws from the policy as it is",
}
