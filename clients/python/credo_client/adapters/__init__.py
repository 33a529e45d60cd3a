"""Adapters of credo's verifiers and credit to RL engines.

Each module names the upstream version or commit whose API it follows and
imports its engine only when used:

- ``verl``: a reward manager ("credo") and an advantage estimator ("credo"),
  loaded through verl's ``verl.plugins`` entry point (verl 0.9.1).
- ``trl``: ``CredoGRPOTrainer``, a ``GRPOTrainer`` subclass (TRL 1.16.0).
- ``skyrl``: an advantage estimator registered as "credo" (SkyRL 0.4.0).
- ``prime_rl``: an algorithm assigning per-token credit through
  ``assign_advantages(trace, values)`` (untested: prime-rl is not on PyPI).
- ``slime``: functions for ``--custom-reward-post-process-path`` and
  ``--custom-advantage-function-path`` (untested: slime is not on PyPI).
- OpenRLHF's remote reward model is ``credo_client.openrlhf``.

``common`` holds what they share: a batch of sampled responses, verified
and credited through one verify and one advantages request.
"""
