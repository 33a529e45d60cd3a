"""SkyRL 0.4.0's advantage-estimator registry with credo's estimator (make test-engines)."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ppo_utils = pytest.importorskip("skyrl.backends.skyrl_train.utils.ppo_utils")

from conftest import GSM8K, ByteTokenizer  # noqa: E402
from credo_client.adapters import skyrl as adapter  # noqa: E402
from credo_client.adapters.common import Credo  # noqa: E402
from credo_client.batch import Layout, to_padded  # noqa: E402

def test_credo_estimator_in_skyrl_registry(server):
    assert "credo" in ppo_utils.AdvantageEstimatorRegistry.list_available()
    answers = ["answer: 7", "answer: 8", "So it is 7.\nanswer: 7", "x"]
    gen = {"response_ids": [list(a.encode()) for a in answers]}
    credo = Credo(url=server.url, format="gsm8k", method="span")
    rewards = adapter.per_token_rewards(credo, ByteTokenizer(), gen, ["u0"] * 4, [json.dumps(GSM8K[0])] * 4)
    assert [len(r) for r in rewards] == [len(a) for a in answers]
    # SkyRL right-aligns per-token rewards into (B, T) (skyrl/train/dataset/preprocess.py)
    t = max(map(len, rewards))
    lay = Layout((4, t), [list(range(t - len(r), t)) for r in rewards])
    tlr = to_padded(rewards, lay, like=torch.zeros(0), dtype=torch.float32)
    mask = (tlr != 0).float()
    for i, r in enumerate(rewards):
        mask[i, t - len(r):] = 1
    adv, ret = ppo_utils.compute_advantages_and_returns(
        token_level_rewards=tlr, response_mask=mask, index=np.array(["u0"] * 4), adv_estimator="credo", config=None)
    assert torch.equal(adv, tlr * mask) and torch.equal(ret, adv)
    assert float(adv[0][mask[0].bool()].std()) > 0 or float(adv[2][mask[2].bool()].std()) > 0
