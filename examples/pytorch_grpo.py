#!/usr/bin/env python3
"""GRPO-style RL in plain PyTorch with credo's verdicts and token-level credit.

A Python trainer driving credo's credit end to end: it loads a credo-saved
Hugging Face folder (config.json, model.safetensors, credo_tokenizer.json)
into the repository's PyTorch reference model (scripts/reference.py, the
model the Go tests are checked against), samples a group of responses per
prompt of credo's own task (POST /v1/prompts), asks credo serve for
verdicts (POST /v1/verify) and per-token advantages (POST /v1/advantages,
method span by default), and takes one policy-gradient step on them
(token-mean of -A[i,t]·log π(token), AdamW), printing the reward curve.

    credo sft --task slots --difficulty slots=3,max=5 --steps 600 --flaw-rate 0.5 \
      --eval-max-tokens 40 --out runs/slots-warm
    python examples/pytorch_grpo.py --model runs/slots-warm --serve bin/credo

(--serve starts `credo serve` on a free loopback port for the run; --credo
URL uses a running one.) Needs torch and the client (pip install
./clients/python, or run from the repository: it is found beside this file).
One run's output and command: docs/results/pytorch-grpo.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import struct
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "python"))

from credo_client import Client, response  # noqa: E402
from credo_client.local import serving  # noqa: E402


def load_reference():
    """scripts/reference.py as a module (its forward passes are the model)."""
    spec = importlib.util.spec_from_file_location("credo_reference", ROOT / "scripts" / "reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # seeds torch and sets one thread; main() below reseeds
    return mod


_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}


def read_safetensors(path: Path) -> dict[str, torch.Tensor]:
    """A safetensors file's tensors as float32, without the safetensors package."""
    data = path.read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    out = {}
    for name, h in header.items():
        if name == "__metadata__":
            continue
        s, e = h["data_offsets"]
        buf = bytearray(data[8 + n + s: 8 + n + e])
        out[name] = torch.frombuffer(buf, dtype=_DTYPES[h["dtype"]]).reshape(h["shape"]).float()
    return out


class BytesTokenizer:
    """credo's byte-level tokenizer (tokenizer/bytes.go): ids 0-255 are bytes, then named specials."""

    def __init__(self, specials: list[str]) -> None:
        self.specials = specials
        self.ids = {s: 256 + i for i, s in enumerate(specials)}
        self.longest = sorted(specials, key=len, reverse=True)
        self.eos, self.pad = self.ids["<|eos|>"], self.ids["<|pad|>"]
        self.vocab = 256 + len(specials)

    def encode(self, text: str) -> list[int]:
        out, b, i = [], text.encode(), 0
        while i < len(b):
            for s in self.longest:
                sb = s.encode()
                if b.startswith(sb, i):
                    out.append(self.ids[s])
                    i += len(sb)
                    break
            else:
                out.append(b[i])
                i += 1
        return out

    def encode_prompt(self, text: str) -> list[int]:
        return [self.ids["<|bos|>"], self.ids["<|user|>"], *self.encode(text), self.ids["<|assistant|>"]]

    def piece(self, tid: int) -> bytes:
        if tid < 256:
            return bytes([tid])
        if tid in (self.eos, self.pad):
            return b""
        return self.specials[tid - 256].encode()

    def text_and_ranges(self, ids: list[int]) -> tuple[str, list[tuple[int, int]]]:
        """The response text (end and padding tokens render as nothing) and each token's byte range."""
        out, ranges = bytearray(), []
        for t in ids:
            p = self.piece(t)
            ranges.append((len(out), len(out) + len(p)))
            out += p
        return out.decode("utf-8", "replace"), ranges


class Policy:
    """The reference model's parameters and forward passes, as a trainable policy."""

    def __init__(self, folder: Path, ref) -> None:
        self.ref = ref
        self.c = json.loads((folder / "config.json").read_text())
        self.ps = {k: v.requires_grad_(True) for k, v in read_safetensors(folder / "model.safetensors").items()}
        tok = json.loads((folder / "credo_tokenizer.json").read_text())
        if tok.get("type") != "bytes":
            raise SystemExit(f"{folder}: this example reads credo's byte-level tokenizer, not {tok.get('type')!r}")
        self.tok = BytesTokenizer(tok["specials"])

    def logits(self, ids: torch.Tensor) -> torch.Tensor:
        x = F.embedding(ids, self.ps["model.embed_tokens.weight"])
        return self.ref.forward_hidden(self.c, self.ps, x) @ self.ref.head(self.c, self.ps).T

    @torch.no_grad()
    def sample(self, prompt: list[int], n: int, max_new: int, gen: torch.Generator) -> list[list[int]]:
        """n responses to one prompt (temperature 1), each ending at <|eos|> or after max_new tokens."""
        emb, hd = self.ps["model.embed_tokens.weight"], self.ref.head(self.c, self.ps)
        cache = self.ref.new_cache(self.c, n, len(prompt) + max_new)
        x = F.embedding(torch.tensor([prompt] * n), emb)
        h = self.ref.forward_cached(self.c, self.ps, x, cache, 0)[:, -1]
        out = [[] for _ in range(n)]
        done = torch.zeros(n, dtype=torch.bool)
        for t in range(max_new):
            probs = torch.softmax((h @ hd.T).double(), -1)
            nxt = torch.multinomial(probs, 1, generator=gen)[:, 0]
            for i in range(n):
                if not done[i]:
                    out[i].append(int(nxt[i]))
            done |= nxt == self.tok.eos
            if bool(done.all()):
                break
            h = self.ref.forward_cached(self.c, self.ps, F.embedding(nxt[:, None], emb), cache, len(prompt) + t)[:, 0]
        return out

    def response_logp(self, prompt: list[int], responses: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        """log π of each response token after the prompt, [G, T] with a mask (responses right-padded)."""
        t = max(1, max(len(r) for r in responses))
        ids = torch.full((len(responses), len(prompt) + t), self.tok.pad)
        mask = torch.zeros((len(responses), t))
        for i, r in enumerate(responses):
            ids[i, : len(prompt)] = torch.tensor(prompt)
            if r:
                ids[i, len(prompt): len(prompt) + len(r)] = torch.tensor(r)
                mask[i, : len(r)] = 1
        lp = self.logits(ids[:, :-1]).log_softmax(-1)  # position j predicts token j+1
        lp = lp[:, len(prompt) - 1:].gather(-1, ids[:, len(prompt):, None])[..., 0]
        return lp, mask


def train(args: argparse.Namespace, client: Client) -> list[dict]:
    ref = load_reference()
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    pol = Policy(Path(args.model), ref)
    opt = torch.optim.AdamW(list(pol.ps.values()), lr=args.lr, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.0)
    curve = []
    for step in range(args.steps):
        t0 = time.time()
        ps = client.prompts(args.task, count=args.prompts, start=step * args.prompts, seed=args.task_seed,
                            difficulty=args.difficulty)
        prompts = ps["prompts"]
        ids = [pol.tok.encode_prompt(p["text"]) for p in prompts]
        samples = [pol.sample(p, args.group, args.max_tokens, gen) for p in ids]
        texts = [[pol.tok.text_and_ranges(r) for r in group] for group in samples]
        v = client.verify("task", [{"prompt_id": p["id"], "responses": [t for t, _ in g]} for p, g in zip(prompts, texts)],
                          task=args.task, seed=args.task_seed, difficulty=args.difficulty)
        rs = []
        for j, (p, g) in enumerate(zip(prompts, samples)):
            for k, toks in enumerate(g):
                text, rng = texts[j][k]
                rs.append(response(j, text, toks, rng, verdicts=v["items"][j]["responses"][k]["verdicts"],
                                   prompt=p["replay_base"]))
        adv = client.advantages(args.method, rs, v["rewards"], v["weights"], step=step, seed=args.seed)
        # one policy-gradient step: token-mean of -A·log π over the whole batch
        opt.zero_grad()
        total_tokens = sum(len(r["tokens"]) for r in rs)
        loss_sum = 0.0
        for j, g in enumerate(samples):
            lp, mask = pol.response_logp(ids[j], g)
            a = torch.zeros_like(mask)
            for k, r in enumerate(g):
                if r:
                    a[k, : len(r)] = torch.as_tensor(adv.advantages[j * args.group + k], dtype=torch.float32)
            loss = -(a * lp * mask).sum() / max(total_tokens, 1)
            loss.backward()
            loss_sum += float(loss.detach())
        torch.nn.utils.clip_grad_norm_(list(pol.ps.values()), 1.0)
        opt.step()
        scores = {name: 0.0 for name in v["rewards"]}
        n = 0
        for item in v["items"]:
            for r in item["responses"]:
                n += 1
                for name, d in zip(v["rewards"], r["verdicts"]):
                    scores[name] += 0.0 if d["skip"] else d["score"]
        row = {"step": step, **{k: s / n for k, s in scores.items()}, "loss": loss_sum,
               "tokens": total_tokens / len(rs), "seconds": time.time() - t0}
        curve.append(row)
        print(f"step {step:3d}  " + "  ".join(f"{k} {row[k]:.3f}" for k in v["rewards"])
              + f"  mean {sum(row[k] for k in v['rewards']) / len(v['rewards']):.3f}  loss {loss_sum:+.4f}"
              + f"  len {row['tokens']:.1f}  {row['seconds']:.1f}s", flush=True)
    return curve


def summary(curve: list[dict], rewards: list[str], window: int) -> str:
    w = max(1, min(window, len(curve) // 2 or 1))
    first, last = curve[:w], curve[-w:]
    lines = [f"reward curve: mean of the first {w} and last {w} steps"]
    for k in rewards:
        a = sum(r[k] for r in first) / len(first)
        b = sum(r[k] for r in last) / len(last)
        lines.append(f"  {k}: {a:.3f} -> {b:.3f} ({b - a:+.3f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a credo-saved Hugging Face folder (credo sft --out)")
    ap.add_argument("--credo", default="", help="credo serve's URL (default: start --serve)")
    ap.add_argument("--serve", default="", help="a credo binary to start `credo serve` from, on a free loopback port")
    ap.add_argument("--task", default="slots")
    ap.add_argument("--difficulty", default="slots=3,max=5")
    ap.add_argument("--task-seed", type=int, default=0)
    ap.add_argument("--method", default="span")
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--prompts", type=int, default=8, help="prompts per step")
    ap.add_argument("--group", type=int, default=8, help="responses per prompt")
    ap.add_argument("--max-tokens", type=int, default=40)
    ap.add_argument("--lr", type=float, default=1.5e-4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="", help="write the reward curve here as JSON")
    args = ap.parse_args(argv)
    if not (args.credo or args.serve):
        ap.error("give --credo URL or --serve BINARY")
    with serving(args.credo, args.serve) as (url, _):
        client = Client(url)
        rewards = client.prompts(args.task, count=1, difficulty=args.difficulty)["rewards"]
        curve = train(args, client)
        print(summary(curve, rewards, 5))
        if args.out:
            Path(args.out).write_text(json.dumps({"args": vars(args), "curve": curve}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
