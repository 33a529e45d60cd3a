"""Padded batches to the wire and back, without a server."""

import pytest

from credo_client import from_padded, layout, to_padded

torch = pytest.importorskip("torch")
PAD = 0


def padded(rows, side):
    """rows of token ids as a (B, T) tensor and mask, padded on side."""
    t = max(len(r) for r in rows)
    ids = torch.full((len(rows), t), PAD)
    mask = torch.zeros((len(rows), t), dtype=torch.long)
    for i, r in enumerate(rows):
        if not r:
            continue
        if side == "right":
            ids[i, : len(r)] = torch.tensor(r)
            mask[i, : len(r)] = 1
        else:
            ids[i, t - len(r):] = torch.tensor(r)
            mask[i, t - len(r):] = 1
    return ids, mask


ROWS = [[5, 6, 7], [8], [], [9, 10, 11, 12]]
TEXTS = ["abc", "d", "", "efgh"]
OFFS = [[(0, 1), (1, 2), (2, 3)], [(0, 1)], [], [(0, 1), (1, 2), (2, 3), (3, 4)]]


@pytest.mark.parametrize("side", ["left", "right"])
def test_from_padded_recovers_each_response(side):
    ids, mask = padded(ROWS, side)
    rs, lay = from_padded(ids, mask, groups=["u0", "u0", "u1", "u1"], texts=TEXTS, offsets=OFFS,
                          scores=[[1, 0]] * 4)
    assert [r["tokens"] for r in rs] == ROWS
    assert [r["response"] for r in rs] == TEXTS
    assert [r["offsets"] for r in rs] == OFFS
    assert [r["group"] for r in rs] == ["u0", "u0", "u1", "u1"]
    assert lay.lengths() == [3, 1, 0, 4]


@pytest.mark.parametrize("side", ["left", "right"])
def test_to_padded_puts_values_back_under_the_mask(side):
    ids, mask = padded(ROWS, side)
    lay = layout(mask)
    adv = [[0.1 * (i + 1) * (t + 1) for t in range(len(r))] for i, r in enumerate(ROWS)]
    out = to_padded(adv, lay, like=torch.zeros(1, dtype=torch.bfloat16), dtype=torch.float32)
    assert out.shape == ids.shape and out.dtype == torch.float32
    assert torch.all(out[mask == 0] == 0)
    for i, r in enumerate(ROWS):
        assert torch.allclose(out[i][mask[i].bool()], torch.tensor(adv[i], dtype=torch.float32))


def test_prompt_and_response_in_one_row():
    # a [prompt | response] row whose response_mask covers only the response
    ids = torch.tensor([[1, 2, 3, 5, 6, PAD], [PAD, 1, 2, 8, PAD, PAD]])
    mask = torch.tensor([[0, 0, 0, 1, 1, 0], [0, 0, 0, 1, 0, 0]])
    rs, lay = from_padded(ids, mask, [0, 0], texts=["ab", "c"], offsets=[[(0, 1), (1, 2)], [(0, 1)]], scores=[[1], [0]])
    assert [r["tokens"] for r in rs] == [[5, 6], [8]]
    out = to_padded([[1.0, 2.0], [3.0]], lay)
    assert out.tolist() == [[0, 0, 0, 1, 2, 0], [0, 0, 0, 3, 0, 0]]


def test_mismatches_are_errors():
    ids, mask = padded(ROWS, "right")
    with pytest.raises(ValueError, match="groups has 3"):
        from_padded(ids, mask, [0, 0, 1], texts=TEXTS, offsets=OFFS)
    with pytest.raises(ValueError, match="row 1: 1 tokens but 2 ranges"):
        from_padded(ids, mask, [0] * 4, texts=TEXTS, offsets=[OFFS[0], [(0, 1), (0, 1)], [], OFFS[3]])
    with pytest.raises(ValueError, match="needs a tokenizer"):
        from_padded(ids, mask, [0] * 4)
    with pytest.raises(ValueError, match="row 0: 2 advantages for 3"):
        to_padded([[1, 2], [1], [], [1, 2, 3, 4]], layout(mask))


def test_from_padded_with_a_tokenizer(qwen3_tokenizer):
    tok = qwen3_tokenizer
    texts = ["Sure: 4.", "Non, 5€ !", ""]
    rows = [tok(t, add_special_tokens=False)["input_ids"] for t in texts]
    ids, mask = padded(rows, "left")
    rs, _ = from_padded(ids, mask, [0, 0, 0], tokenizer=tok, scores=[[1]] * 3)
    assert [r["response"] for r in rs] == texts
    assert rs[1]["offsets"][-1][1] == len(texts[1].encode())
    assert rs[2]["tokens"] == [] and rs[2]["offsets"] == []
