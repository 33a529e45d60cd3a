"""The client against the real credo serve: endpoints, and advantages of padded
torch batches coming back aligned with their response masks."""

from __future__ import annotations

import math

import pytest

from credo_client import Client, from_padded, response, to_padded

torch = pytest.importorskip("torch")


def test_health_methods_tasks(client):
    assert client.health() == {"status": "ok"}
    names = {m["name"] for m in client.methods()["methods"]}
    assert {"grpo", "gdpo", "span", "mrtpo", "p2t"} <= names
    formats = {f["name"] for f in client.tasks()["formats"]}
    assert {"ifeval", "bfcl", "gsm8k", "task"} <= formats  # sql only with --sql-dir
    assert "credo_requests_total" in client.metrics()


def test_prompts_of_the_controlled_task(client):
    out = client.prompts("slots", count=3, seed=1)
    assert out["rewards"][:3] == ["slot1", "slot2", "slot3"]
    assert len(out["prompts"]) == 3 and len({p["id"] for p in out["prompts"]}) == 3
    again = client.prompts("slots", count=3, seed=1)
    assert again == out  # deterministic


# Two groups of four responses; one response is empty; lengths are ragged.
TEXTS = ["a1 b2", "a1 b3 c4", "x", "a1", "", "b2 a1 zz", "c4", "a1 b2 c4 d5"]
GROUPS = [0, 0, 0, 0, "u1", "u1", "u1", "u1"]
SCORES = [[1, 0], [1, 1], [0, 0], [1, 0], [0, 1], [1, 1], [0, 0], [1, 1]]


def _verdicts(text: str, scores: list[int]) -> list[dict]:
    # the first reward's verdict names the response's first two bytes, the second none
    spans = [{"start": 0, "end": min(2, len(text.encode()))}] if text else []
    return [{"score": scores[0], "info": "", "spans": spans, "skip": False},
            {"score": scores[1], "info": "", "spans": [], "skip": False}]


def _tokens(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    b = text.encode()
    return [32 + x for x in b], [(i, i + 1) for i in range(len(b))]


def _padded(side: str):
    rows = [_tokens(t)[0] for t in TEXTS]
    t = max(len(r) for r in rows) + 2  # extra padding columns
    ids = torch.full((len(rows), t), 0)
    mask = torch.zeros((len(rows), t), dtype=torch.int64)
    for i, r in enumerate(rows):
        if not r:
            continue
        sl = slice(0, len(r)) if side == "right" else slice(t - len(r), t)
        ids[i, sl], mask[i, sl] = torch.tensor(r), 1
    return ids, mask


def _direct(client: Client, method: str):
    rs = [response(g, t, *_tokens(t), verdicts=_verdicts(t, s)) for t, g, s in zip(TEXTS, GROUPS, SCORES)]
    return client.advantages(method, rs, rewards=["r1", "r2"])


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("method", ["span", "gdpo", "grpo"])
def test_padded_batch_advantages_align_with_the_mask(client, side, method):
    ids, mask = _padded(side)
    offsets = [_tokens(t)[1] for t in TEXTS]
    rs, lay = from_padded(ids, mask, GROUPS, texts=TEXTS, offsets=offsets,
                          verdicts=[_verdicts(t, s) for t, s in zip(TEXTS, SCORES)])
    out = client.advantages(method, rs, rewards=["r1", "r2"])
    adv = to_padded(out.advantages, lay, like=mask, dtype=torch.float64)  # float64: bit for bit
    assert adv.shape == ids.shape
    assert torch.all(adv[mask == 0] == 0)
    direct = _direct(client, method)
    for i, t in enumerate(TEXTS):
        got = adv[i][mask[i].bool()].tolist()
        assert got == list(direct.advantages[i]), i  # same values, in token order, bit for bit
        assert len(got) == len(t.encode())
        if got:  # placement keeps each response's mean (docs/ALGORITHMS.md's invariant)
            assert abs(sum(got) / len(got) - out.response_advantages[i]) < 1e-6
    assert list(direct.advantages[4]) == []  # the empty response


def test_span_places_on_the_spans(client):
    out = _direct(client, "span")
    a = list(out.advantages[1])  # "a1 b3 c4", reward 1 varies in group 0 and names bytes 0-1
    assert max(a) != min(a)
    gd = _direct(client, "gdpo")
    assert all(len(set(x)) <= 1 for x in gd.advantages)  # gdpo is uniform over each response
    assert out.response_advantages == pytest.approx(gd.response_advantages, abs=1e-9)


def test_json_and_packed_encodings_agree(client, server):
    plain = Client(server.url, packed=False)
    a, b = _direct(client, "span"), _direct(plain, "span")
    assert [list(x) for x in a.advantages] == [list(x) for x in b.advantages]
    assert a.metrics == b.metrics
    assert _direct(client, "span").advantages[0].tolist() == a.advantages[0].tolist()  # deterministic


def test_metrics_are_reported(client):
    out = _direct(client, "span")
    assert any(k.startswith("credit/concentration/") for k in out.metrics)
    assert all(math.isfinite(v) for v in out.metrics.values())
    assert out.metrics["reward/r1/zero_var"] == 0.0
