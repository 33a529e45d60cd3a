"""transformers' own `generate` on a real model: the peer of credo's
BenchmarkGenerateReal (policy/bench_test.go), run side by side by
scripts/bench-sample.sh.

The same folder credo reads (config.json, model.safetensors, tokenizer.json:
what `credo import-gguf` writes), the same prompts rendered with the model's
chat template, 32 rows x 128 new tokens, sampling at temperature 1 over the
whole vocabulary (top_k=0, top_p=1), the end token suppressed so that every
row generates all 128 (min_new_tokens), float32, the threads given. Prints
one line per prompt set:

    hf-gen poem tokens_s=... s_generation=... runs=3 threads=2 torch=... transformers=...

Run with the pinned peers environment:

    "$(scripts/python/venv.sh client)/bin/python" scripts/bench_generate_hf.py --model runs/smollm2
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import time

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

POEM = "Write a short poem about the sea. Do not use any commas."
REPO = pathlib.Path(__file__).resolve().parents[1]


def ifeval_prompts(n: int) -> list[str]:
    """The first n prompts of the shared IFEval data (empty if absent)."""
    data = pathlib.Path(os.environ.get("CREDO_SHARED_DATA", REPO.parent / "shared" / "data"))
    path = data / "ifeval" / "input_data.jsonl"
    if not path.exists():
        return []
    out: list[str] = []
    for line in path.read_text().splitlines():
        if line.strip():
            out.append(json.loads(line)["prompt"])
        if len(out) == n:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="the model folder credo reads")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3, help="timed generations after one untimed")
    ap.add_argument("--new", type=int, default=128, help="new tokens per row")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.float32)
    model.eval()
    sets = {"poem": ([POEM], 32)}
    ifeval = ifeval_prompts(4)
    if ifeval:
        sets["ifeval"] = (ifeval, 8)
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    for name, (prompts, group) in sets.items():
        texts = [tok.apply_chat_template([{"role": "user", "content": p}], tokenize=False, add_generation_prompt=True)
                 for p in prompts for _ in range(group)]
        enc = tok(texts, return_tensors="pt", padding=True, add_special_tokens=False)

        def once() -> tuple[float, int]:
            t0 = time.perf_counter()
            with torch.inference_mode():
                out = model.generate(**enc, max_new_tokens=args.new, min_new_tokens=args.new, do_sample=True,
                                     temperature=1.0, top_k=0, top_p=1.0, pad_token_id=tok.pad_token_id)
            return time.perf_counter() - t0, (out.shape[1] - enc["input_ids"].shape[1]) * out.shape[0]

        once()  # warm-up
        times, tokens = [], 0
        for _ in range(args.runs):
            dt, n = once()
            times.append(dt)
            tokens = n
        med = statistics.median(times)
        print(f"hf-gen {name} tokens_s={tokens / med:.1f} s_generation={med:.2f} runs={args.runs} "
              f"threads={args.threads} torch={torch.__version__} transformers={transformers.__version__}", flush=True)


if __name__ == "__main__":
    main()
