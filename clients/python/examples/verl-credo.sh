#!/usr/bin/env bash
# verl 0.9.1 GRPO on GSM8K with credo's verifiers and span credit.
# credo serve must be running (credo serve --addr 127.0.0.1:8700) and
# credo_client installed in verl's environment (pip install ./clients/python):
# its verl.plugins entry point registers reward manager and estimator "credo".
# Each dataset row carries its record: reward_model.ground_truth (the
# parquet verl's own examples/data_preprocess/gsm8k.py writes holds the bare
# number, "72"; a worked solution "... #### 72" works too), or
# extra_info.credo_record for the other formats (CREDO_FORMAT=ifeval, …;
# CREDO_REWARDS=a,b narrows the rewards and verl's reward_extra_info keys).
# trainer.use_v1=False: verl 0.9.1's default v1 trainer passes advantage
# estimators no reward extra info. Without a GPU verl stops in
# RayPPOTrainer.init_workers ("Total available GPUs 0 ...";
# clients/python/README.md).
export CREDO_URL=${CREDO_URL:-http://127.0.0.1:8700}
export CREDO_FORMAT=gsm8k CREDO_METHOD=span
python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=credo \
  algorithm.use_kl_in_reward=False \
  trainer.use_v1=False \
  actor_rollout_ref.actor.use_kl_loss=True \
  reward.reward_manager.name=credo \
  data.train_files="$HOME/data/gsm8k/train.parquet" \
  data.val_files="$HOME/data/gsm8k/test.parquet" \
  actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \
  actor_rollout_ref.rollout.n=8 \
  "$@"
