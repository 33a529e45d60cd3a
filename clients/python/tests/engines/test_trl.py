"""TRL 1.16.0 itself: a real GRPOTrainer run of a few steps on a tiny model
with CredoGRPOTrainer, the advantages its loss receives checked against what
credo serve says for the same completions (make test-engines)."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
trl = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")

from conftest import need_shared  # noqa: E402
from credo_client import Client, Layout, to_padded, token_ranges  # noqa: E402
from credo_client.adapters.common import Credo  # noqa: E402
from credo_client.adapters.trl import CredoGRPOTrainer  # noqa: E402

# constraints random text passes or fails by chance, so groups vary
EASY = {"punctuation:no_comma", "change_case:english_lowercase", "change_case:english_capital"}


class Spy(CredoGRPOTrainer):
    """Records what credo's adapter produced and what the loss then read."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.made, self.seen = [], []

    def _generate_and_score_completions(self, inputs):
        out = super()._generate_and_score_completions(inputs)
        self.made.append({"inputs": [dict(x) for x in inputs], "ids": out["completion_ids"].clone(),
                          "mask": out["completion_mask"].clone(), "adv": out["advantages"].clone()})
        return out

    def _compute_loss(self, model, inputs):
        self.seen.append({"ids": inputs["completion_ids"].clone(), "adv": inputs["advantages"].clone()})
        return super()._compute_loss(model, inputs)


def test_grpo_trainer_trains_on_credo_advantages(server, qwen3_tokenizer, tmp_path):
    from transformers import Qwen2Config, Qwen2ForCausalLM

    tok = qwen3_tokenizer
    recs = [json.loads(x) for x in need_shared("ifeval/input_data.jsonl").read_text().splitlines() if x.strip()]
    recs = [r for r in recs if r["instruction_id_list"] == ["punctuation:no_comma"]][:8]
    assert len(recs) >= 4
    ds = datasets.Dataset.from_list([{"prompt": r["prompt"][:300], "credo_record": json.dumps(r)} for r in recs])
    torch.manual_seed(0)
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
                      pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id, tie_word_embeddings=False)
    model = Qwen2ForCausalLM(cfg)
    # A random tiny model writes random tokens of a 151k vocabulary, which pass or fail these
    # constraints all alike. Make its samples mixes of a few words instead (lower or upper case,
    # with or without commas), chosen by the sign of one hidden unit, so groups vary.
    lower = [tok.convert_tokens_to_ids(t) for t in [",", "\u0120the", "\u0120a"]]
    upper = [tok.convert_tokens_to_ids(t) for t in ["\u0120THE", "\u0120The", "\u0120cat"]]
    with torch.no_grad():
        model.model.norm.weight.zero_()
        model.model.norm.weight[0] = 1
        model.lm_head.weight.zero_()
        model.lm_head.weight[lower, 0] = 60
        model.lm_head.weight[upper, 0] = -60
    args = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=8, num_generations=8,
                          max_completion_length=12, max_steps=3, learning_rate=1e-3, logging_steps=1,
                          report_to=[], use_cpu=True, seed=1, beta=0.0, save_strategy="no", temperature=1.0)
    credo = Credo(url=server.url, format="ifeval", method="span", rewards=sorted(EASY))
    trainer = Spy(model=model, args=args, train_dataset=ds, processing_class=tok, credo=credo)
    before = [p.detach().clone() for p in model.parameters()]
    trainer.train()
    assert any(not torch.equal(a, b.detach()) for a, b in zip(before, model.parameters()))  # it trained
    assert len(trainer.made) == 3 and len(trainer.seen) >= 3
    # only the reward these records are judged on is logged: the two case rewards skip every
    # record (no such id), and TRL would log them as columns of None
    logged = {k for h in trainer.state.log_history for k in h if k.startswith("rewards/")}
    assert logged == {"rewards/punctuation:no_comma/mean", "rewards/punctuation:no_comma/std"}, logged

    client = Client(server.url)
    nonzero = 0
    for made in trainer.made:
        # credo's answer for these completions, computed here without the adapter
        rows = [made["ids"][i][made["mask"][i].bool()].tolist() for i in range(len(made["ids"]))]
        lens = [int(made["mask"][i].sum()) for i in range(len(rows))]
        texts = [token_ranges(tok, r) for r in rows]
        v = client.verify("ifeval", [{"record": json.loads(x["credo_record"]), "responses": [texts[i][0]]}
                                     for i, x in enumerate(made["inputs"])], rewards=sorted(EASY))
        rs = [{"group": i // 8, "response": t, "tokens": r, "offsets": o, "verdicts": item["responses"][0]["verdicts"]}
              for i, ((t, o), r, item) in enumerate(zip(texts, rows, v["items"]))]
        want = client.advantages("span", rs, v["rewards"], v["weights"], step=trainer.made.index(made))
        grid = to_padded(want.advantages, Layout(tuple(made["ids"].shape), [list(range(n)) for n in lens]),
                         like=made["adv"], dtype=torch.float32)
        assert torch.allclose(made["adv"], grid, atol=1e-6)
        nonzero += int((grid != 0).any())
        # the loss read the same per-token advantages, row for row (TRL shuffles rows before the loss)
        by_row = {tuple(made["ids"][i].tolist()): made["adv"][i] for i in range(len(rows))}
        for seen in trainer.seen:
            for i in range(len(seen["ids"])):
                key = tuple(seen["ids"][i].tolist())
                if key in by_row:
                    assert torch.equal(seen["adv"][i], by_row[key])
    assert nonzero >= 1, "every group was uniform: the check would be empty"
    print(f"{len(trainer.made)} GRPOTrainer steps trained on credo's (B, T) advantages")
