#!/usr/bin/env bash
# A verl 0.9.1 GRPO run on GSM8K with credo's verifiers and token-level
# credit (span). Needs a GPU machine with verl installed and
# `pip install ./clients/python` (which registers reward manager and
# advantage estimator "credo" through verl's plugin entry point), and
# `credo serve` running where CREDO_URL points.
#
# Untested as a whole here: a main_ppo run needs a GPU rollout engine. The
# adapter's parts are tested with verl's own functions on a CPU batch
# (make test-engines ENGINES=verl; credo_client/adapters/verl.py says which).
#
#   MODEL=/path/to/a/hf/model DATA=$HOME/data/gsm8k clients/python/examples/verl-credo.sh
# DATA holds train.parquet and test.parquet as verl's
# examples/data_preprocess/gsm8k.py writes them (reward_model.ground_truth
# is the "#### N" answer, which format gsm8k reads).
set -euo pipefail
: "${MODEL:?set MODEL to a Hugging Face model folder}"
DATA=${DATA:-$HOME/data/gsm8k}
export CREDO_URL=${CREDO_URL:-http://127.0.0.1:8700} CREDO_FORMAT=${CREDO_FORMAT:-gsm8k} CREDO_METHOD=${CREDO_METHOD:-span}
python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=credo \
  algorithm.use_kl_in_reward=False \
  reward.reward_manager.name=credo \
  data.train_files="$DATA/train.parquet" data.val_files="$DATA/test.parquet" \
  data.train_batch_size=256 data.max_prompt_length=512 data.max_response_length=512 \
  actor_rollout_ref.model.path="$MODEL" \
  actor_rollout_ref.actor.optim.lr=1e-6 \
  actor_rollout_ref.actor.ppo_mini_batch_size=64 \
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
  actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.n=8 \
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
  trainer.n_gpus_per_node=1 trainer.nnodes=1 trainer.total_epochs=1 trainer.logger=console \
  "$@"
