#!/usr/bin/python3
"""Writes the PyTorch reference fixtures the model tests compare against.

A minimal Llama/Qwen2 decoder written from the Hugging Face definitions
(RMSNorm, rotate-half RoPE, grouped-query attention, SwiGLU, optional q/k/v
bias), run in float32 on fixed tiny weights. Run once with Debian's
python3-torch (1.13) and commit the output:

    /usr/bin/python3 scripts/reference.py model/testdata/reference

The Go tests never need PyTorch.
"""
import json
import math
import os
import struct
import sys

import torch
import torch.nn.functional as F

torch.manual_seed(1234)
torch.set_num_threads(1)


def config(vocab=48, labels=0, tied=False, model_type="qwen2"):
    c = {
        "model_type": model_type, "vocab_size": vocab, "hidden_size": 32,
        "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "max_position_embeddings": 64, "rope_theta": 10000.0,
        "rms_norm_eps": 1e-6, "tie_word_embeddings": tied, "hidden_act": "silu",
    }
    if labels:
        c["num_labels"] = labels
    return c


def param_specs(c):
    D, Fw, V = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    hd = D // c["num_attention_heads"]
    q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
    bias = c["model_type"] == "qwen2"
    specs = [("model.embed_tokens.weight", (V, D))]
    for l in range(c["num_hidden_layers"]):
        p = f"model.layers.{l}."
        specs.append((p + "input_layernorm.weight", (D,)))
        for name, out in (("q", q), ("k", kv), ("v", kv)):
            specs.append((p + f"self_attn.{name}_proj.weight", (out, D)))
            if bias:
                specs.append((p + f"self_attn.{name}_proj.bias", (out,)))
        specs += [(p + "self_attn.o_proj.weight", (D, q)),
                  (p + "post_attention_layernorm.weight", (D,)),
                  (p + "mlp.gate_proj.weight", (Fw, D)),
                  (p + "mlp.up_proj.weight", (Fw, D)),
                  (p + "mlp.down_proj.weight", (D, Fw))]
    specs.append(("model.norm.weight", (D,)))
    if c.get("num_labels"):
        specs.append(("score.weight", (c["num_labels"], D)))
    elif not c["tie_word_embeddings"]:
        specs.append(("lm_head.weight", (V, D)))
    return specs


def init(c):
    ps = {}
    for name, shape in param_specs(c):
        if name.endswith("norm.weight"):
            t = 1 + 0.1 * torch.randn(shape)  # not all ones, so a wrong gain shows
        elif name.endswith("bias"):
            t = 0.1 * torch.randn(shape)
        else:
            t = 0.2 * torch.randn(shape)
        ps[name] = t.float().requires_grad_(True)
    return ps


def rms_norm(x, w, eps):
    var = x.pow(2).mean(-1, keepdim=True)
    return w * (x * torch.rsqrt(var + eps))


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def forward_hidden(c, ps, x):
    """x: input embeddings [B, T, D] -> final normed hidden [B, T, D]."""
    B, T, D = x.shape
    H, K = c["num_attention_heads"], c["num_key_value_heads"]
    hd = D // H
    inv = 1.0 / (c["rope_theta"] ** (torch.arange(0, hd, 2).float() / hd))
    freqs = torch.outer(torch.arange(T).float(), inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos()[None, None], emb.sin()[None, None]  # [1, 1, T, hd]
    mask = torch.full((T, T), float("-inf")).triu(1)
    bias = c["model_type"] == "qwen2"
    for l in range(c["num_hidden_layers"]):
        p = f"model.layers.{l}."
        h = rms_norm(x, ps[p + "input_layernorm.weight"], c["rms_norm_eps"])

        def proj(name, n):
            w = ps[p + f"self_attn.{name}_proj.weight"]
            b = ps[p + f"self_attn.{name}_proj.bias"] if bias else None
            return F.linear(h, w, b).view(B, T, n, hd).transpose(1, 2)

        q, k, v = proj("q", H), proj("k", K), proj("v", K)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(H // K, dim=1)
        v = v.repeat_interleave(H // K, dim=1)
        att = q @ k.transpose(-1, -2) / math.sqrt(hd) + mask
        att = att.softmax(-1)
        o = (att @ v).transpose(1, 2).reshape(B, T, H * hd)
        x = x + F.linear(o, ps[p + "self_attn.o_proj.weight"])
        h = rms_norm(x, ps[p + "post_attention_layernorm.weight"], c["rms_norm_eps"])
        g = F.linear(h, ps[p + "mlp.gate_proj.weight"])
        u = F.linear(h, ps[p + "mlp.up_proj.weight"])
        x = x + F.linear(F.silu(g) * u, ps[p + "mlp.down_proj.weight"])
    return rms_norm(x, ps["model.norm.weight"], c["rms_norm_eps"])


def head(c, ps):
    if c.get("num_labels"):
        return ps["score.weight"]
    if c["tie_word_embeddings"]:
        return ps["model.embed_tokens.weight"]
    return ps["lm_head.weight"]


def lm_loss(c, ps, tokens, mask):
    """Mean NLL of targets tokens[:, 1:] under the mask; returns (loss, logits, logp, x)."""
    inp = tokens[:, :-1]
    x = F.embedding(inp, ps["model.embed_tokens.weight"])
    x.retain_grad()
    logits = forward_hidden(c, ps, x) @ head(c, ps).T
    all_lp = logits.log_softmax(-1)
    logp = all_lp.gather(-1, tokens[:, 1:, None])[..., 0]
    loss = -(logp * mask).sum() / mask.sum().clamp(min=1)
    return loss, logits, logp, x


def write_safetensors(path, tensors):
    header, blobs, off = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous().float()
        b = t.numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def save_model(dirname, c, ps):
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, "config.json"), "w") as f:
        json.dump(c, f, indent=2)
    write_safetensors(os.path.join(dirname, "model.safetensors"), ps)


def adamw_steps(c, ps, tokens, mask, steps=5, lr=1e-2):
    decay = [p for n, p in ps.items() if p.dim() >= 2]
    no_decay = [p for n, p in ps.items() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=lr, betas=(0.9, 0.95), eps=1e-8)
    losses, norms = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss, *_ = lm_loss(c, ps, tokens, mask)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(list(ps.values()), 1.0)
        opt.step()
        losses.append(loss.item())
        norms.append(norm.item())
    return losses, norms


def main(out):
    os.makedirs(out, exist_ok=True)
    # Language model: three sequences of different lengths, right-padded with 0.
    c = config()
    ps = init(c)
    save_model(os.path.join(out, "lm"), c, ps)
    lengths = [9, 6, 4]
    T = max(lengths)
    tokens = torch.randint(1, c["vocab_size"], (len(lengths), T))
    mask = torch.zeros(len(lengths), T - 1)
    for i, n in enumerate(lengths):
        tokens[i, n:] = 0
        mask[i, : n - 1] = 1
    loss, logits, logp, x = lm_loss(c, ps, tokens, mask)
    loss.backward()
    fx = {"tokens": tokens.float(), "mask": mask, "logits": logits, "logp": logp,
          "loss": loss.reshape(1), "grad.embeddings": x.grad,
          "lengths": torch.tensor(lengths).float()}
    for n, p in ps.items():
        fx["grad." + n] = p.grad
    losses, norms = adamw_steps(c, {n: p.detach().clone().requires_grad_(True) for n, p in ps.items()}, tokens, mask)
    fx["adamw.losses"] = torch.tensor(losses)
    fx["adamw.grad_norms"] = torch.tensor(norms)
    write_safetensors(os.path.join(out, "lm_expected.safetensors"), fx)

    # Scoring head (process reward model): S = sum(sel * score), dS/d(embeddings).
    cs = config(labels=1, model_type="llama")
    pss = init(cs)
    save_model(os.path.join(out, "prm"), cs, pss)
    stoks = torch.randint(1, cs["vocab_size"], (2, 7))
    sel = (torch.rand(2, 7) < 0.5).float()
    sel[:, -1] = 1
    xe = F.embedding(stoks, pss["model.embed_tokens.weight"]).detach().requires_grad_(True)
    score = (forward_hidden(cs, pss, xe) @ head(cs, pss).T)[..., 0]
    S = (score * sel).sum()
    S.backward()
    write_safetensors(os.path.join(out, "prm_expected.safetensors"),
                      {"tokens": stoks.float(), "sel": sel, "score": score, "embeddings": xe, "grad": xe.grad})
    print("wrote fixtures to", out, "loss", loss.item(), "adamw", losses)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "model/testdata/reference")
