#!/usr/bin/python3
"""Writes the PyTorch reference fixtures the model tests compare against.

A minimal Llama/Qwen2/Qwen3 decoder written from the Hugging Face
definitions (RMSNorm, rotate-half RoPE with Llama 3's frequency scaling,
grouped-query attention, SwiGLU, Qwen2's q/k/v bias, Llama's attention_bias
and mlp_bias, Qwen3's per-head q/k RMSNorm and explicit head_dim), run in
float32 on fixed tiny weights. Run once with Debian's python3-torch (1.13)
and commit the output:

    /usr/bin/python3 scripts/reference.py model/testdata/reference model/hf/testdata/reference

(the model's fixtures in the first folder; the dtype roundings, which
model/hf's tests read, in the second).

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


def head_dim(c):
    return c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]


def biases(c):
    """(q/k/v, o, mlp) biases as HF's modeling files decide them."""
    t, ab = c["model_type"], c.get("attention_bias", False)
    return (ab or t == "qwen2", ab and t != "qwen2", c.get("mlp_bias", False) and t == "llama")


def param_specs(c):
    D, Fw, V = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    hd = head_dim(c)
    q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
    qkv_bias, o_bias, mlp_bias = biases(c)
    specs = [("model.embed_tokens.weight", (V, D))]

    def linear(name, out, inp, bias):
        specs.append((name + ".weight", (out, inp)))
        if bias:
            specs.append((name + ".bias", (out,)))

    for l in range(c["num_hidden_layers"]):
        p = f"model.layers.{l}."
        specs.append((p + "input_layernorm.weight", (D,)))
        for name, out in (("q", q), ("k", kv), ("v", kv)):
            linear(p + f"self_attn.{name}_proj", out, D, qkv_bias)
        linear(p + "self_attn.o_proj", D, q, o_bias)
        if c["model_type"] == "qwen3":
            specs += [(p + "self_attn.q_norm.weight", (hd,)), (p + "self_attn.k_norm.weight", (hd,))]
        specs.append((p + "post_attention_layernorm.weight", (D,)))
        linear(p + "mlp.gate_proj", Fw, D, mlp_bias)
        linear(p + "mlp.up_proj", Fw, D, mlp_bias)
        linear(p + "mlp.down_proj", D, Fw, mlp_bias)
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


def inv_freq(c):
    """RoPE frequencies, as transformers' ROPE_INIT_FUNCTIONS compute them
    (default, and _compute_llama3_parameters for rope_type llama3)."""
    hd = head_dim(c)
    inv = 1.0 / (c["rope_theta"] ** (torch.arange(0, hd, 2).float() / hd))
    rs = c.get("rope_scaling")
    if not rs or rs.get("rope_type", rs.get("type")) == "default":
        return inv
    assert rs["rope_type"] == "llama3"
    factor, low, high = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"]
    old_len = rs["original_max_position_embeddings"]
    low_freq_wavelen = old_len / low
    high_freq_wavelen = old_len / high
    wavelen = 2 * math.pi / inv
    inv_llama = torch.where(wavelen > low_freq_wavelen, inv / factor, inv)
    smooth = (old_len / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * inv_llama / factor + smooth * inv_llama
    is_medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return torch.where(is_medium, smoothed, inv_llama)


def layers(c, ps, x, start, attend):
    """The decoder layers over input embeddings x [B, T, D] at positions
    start..start+T-1, attention given by attend(l, q, k, v) on the roped
    q [B, H, T, hd], k and v [B, K, T, hd], returning [B, H, T, hd]; returns
    the final normed hidden [B, T, D]."""
    B, T, D = x.shape
    H, K = c["num_attention_heads"], c["num_key_value_heads"]
    hd = head_dim(c)
    freqs = torch.outer(torch.arange(start, start + T).float(), inv_freq(c))
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos()[None, None], emb.sin()[None, None]  # [1, 1, T, hd]
    qkv_bias, o_bias, mlp_bias = biases(c)
    eps = c["rms_norm_eps"]

    def lin(x, name, bias):
        return F.linear(x, ps[name + ".weight"], ps[name + ".bias"] if bias else None)

    for l in range(c["num_hidden_layers"]):
        p = f"model.layers.{l}."
        h = rms_norm(x, ps[p + "input_layernorm.weight"], eps)

        def proj(name, n):
            y = lin(h, p + f"self_attn.{name}_proj", qkv_bias).view(B, T, n, hd)
            if c["model_type"] == "qwen3" and name in "qk":  # per-head RMSNorm before RoPE
                y = rms_norm(y, ps[p + f"self_attn.{name}_norm.weight"], eps)
            return y.transpose(1, 2)

        q, k, v = proj("q", H), proj("k", K), proj("v", K)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        o = attend(l, q, k, v).transpose(1, 2).reshape(B, T, H * hd)
        x = x + lin(o, p + "self_attn.o_proj", o_bias)
        h = rms_norm(x, ps[p + "post_attention_layernorm.weight"], eps)
        g = lin(h, p + "mlp.gate_proj", mlp_bias)
        u = lin(h, p + "mlp.up_proj", mlp_bias)
        x = x + lin(F.silu(g) * u, p + "mlp.down_proj", mlp_bias)
    return rms_norm(x, ps["model.norm.weight"], eps)


def forward_hidden(c, ps, x):
    """x: input embeddings [B, T, D] -> final normed hidden [B, T, D]."""
    T = x.shape[1]
    H, K = c["num_attention_heads"], c["num_key_value_heads"]
    hd = head_dim(c)
    mask = torch.full((T, T), float("-inf")).triu(1)

    def attend(l, q, k, v):
        k = k.repeat_interleave(H // K, dim=1)
        v = v.repeat_interleave(H // K, dim=1)
        att = q @ k.transpose(-1, -2) / math.sqrt(hd) + mask
        return att.softmax(-1) @ v

    return layers(c, ps, x, 0, attend)


def forward_cached(c, ps, x, cache, start):
    """Incremental decoding: x [B, T, D] are the input embeddings of
    positions start..start+T-1; cache is a list of per-layer (keys, values)
    [B, K, S, hd] buffers, S >= start+T, whose slots < start hold the past
    and into which this call writes slots start..start+T-1. Returns the final
    normed hidden [B, T, D]. Every row is at the same position (no padding);
    forward_hidden over the whole sequence gives the same result."""
    B, T, _ = x.shape
    H, K = c["num_attention_heads"], c["num_key_value_heads"]
    G, hd = H // K, head_dim(c)
    end = start + T
    # Query t (position start+t) sees keys 0..start+t.
    mask = torch.full((T, end), float("-inf")).triu(start + 1)

    def attend(l, q, k, v):
        ck, cv = cache[l]
        ck[:, :, start:end] = k
        cv[:, :, start:end] = v
        # Grouped-query attention without copying the cache: query heads
        # k*G..k*G+G-1 read key head k.
        qg = q.reshape(B, K, G * T, hd)
        att = (qg @ ck[:, :, :end].transpose(-1, -2)).view(B, K, G, T, end) / math.sqrt(hd) + mask
        att = att.softmax(-1).view(B, K, G * T, end)
        return (att @ cv[:, :, :end]).view(B, H, T, hd)

    return layers(c, ps, x, start, attend)


def new_cache(c, B, S):
    """Empty per-layer key/value buffers [B, K, S, hd] for forward_cached."""
    shape = (B, c["num_key_value_heads"], S, head_dim(c))
    return [(torch.zeros(shape), torch.zeros(shape)) for _ in range(c["num_hidden_layers"])]


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


def lm_case(out, name, c, lengths, adamw=False):
    """Saves a language model and the fixture <name>_expected.safetensors:
    right-padded token sequences, logits, target log-probs, the masked mean
    NLL, its gradients (every weight and the input embeddings), the RoPE
    frequencies, and with adamw the first five AdamW losses."""
    ps = init(c)
    save_model(os.path.join(out, name), c, ps)
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
    if adamw:
        losses, norms = adamw_steps(c, {n: p.detach().clone().requires_grad_(True) for n, p in ps.items()}, tokens, mask)
        fx["adamw.losses"] = torch.tensor(losses)
        fx["adamw.grad_norms"] = torch.tensor(norms)
    else:
        fx["rope.inv_freq"] = inv_freq(c)
    write_safetensors(os.path.join(out, name + "_expected.safetensors"), fx)
    print("wrote", name, "loss", loss.item())


def qwen3_config():
    """A tiny Qwen3 with the keys transformers 4.5x writes for Qwen3 (and
    layer_types, which newer versions add): tied embeddings, head_dim 16
    while hidden/heads is 8, grouped-query attention, no biases."""
    c = config(model_type="qwen3", tied=True)
    c.update({
        "architectures": ["Qwen3ForCausalLM"], "head_dim": 16, "attention_bias": False,
        "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 2,
        "initializer_range": 0.02, "max_window_layers": 2, "rope_scaling": None,
        "sliding_window": None, "torch_dtype": "float32", "transformers_version": "4.51.0",
        "use_cache": True, "use_sliding_window": False,
        "layer_types": ["full_attention"] * c["num_hidden_layers"],
    })
    return c


def llama_bias_config():
    """Llama with attention_bias (q, k, v and o) and mlp_bias (gate, up, down)."""
    c = config(model_type="llama")
    c.update({"architectures": ["LlamaForCausalLM"], "attention_bias": True, "mlp_bias": True})
    return c


def llama3_rope_config():
    """Llama 3.1's rope_scaling with original_max_position_embeddings 64, so
    head_dim 8's four wavelengths (6.3, 63, 628, 6283) fall in all three
    regimes: kept (< 16), interpolated (16..64), divided by factor (> 64)."""
    c = config(model_type="llama", tied=True)
    c.update({"architectures": ["LlamaForCausalLM"], "max_position_embeddings": 256,
              "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 64, "rope_type": "llama3"}})
    return c


def main(out, dtype_out):
    os.makedirs(out, exist_ok=True)
    os.makedirs(dtype_out, exist_ok=True)
    # Language model: three sequences of different lengths, right-padded with 0.
    lm_case(out, "lm", config(), [9, 6, 4], adamw=True)

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

    # Architecture variants (added after the two above, so their random
    # draws, and fixtures, are unchanged).
    lm_case(out, "qwen3", qwen3_config(), [9, 6, 4])
    lm_case(out, "llama_bias", llama_bias_config(), [9, 6, 4])
    lm_case(out, "llama3_rope", llama3_rope_config(), [48, 30, 12])
    dtype_case(dtype_out)
    print("wrote fixtures to", out, "and", dtype_out)


def dtype_case(out):
    """float32 values and their bfloat16/float16 roundings by PyTorch's
    .to(): random values across scales, exact ties (both parities),
    float16's overflow edge and subnormals, signed zeros, infinities, NaN.
    The 16-bit patterns are stored as float32 integers."""
    x = torch.cat([
        torch.randn(2000) * torch.logspace(-30, 30, 2000, base=2.0),
        torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"),
                      65504.0, 65519.0, 65520.0, 65536.0, 1e9, -1e9,
                      2.0 ** -24, 2.0 ** -25, 1.5 * 2.0 ** -25, 3 * 2.0 ** -25, 2.0 ** -26, 2.0 ** -14, 1e-40, -1e-45]),
    ])
    # Exact ties: bfloat16 drops 16 bits, float16 (normal range) 13.
    ties = torch.randint(0, 1 << 15, (200,), dtype=torch.int32) << 16 | 0x8000
    ties16 = (torch.randint(0, 30, (200,), dtype=torch.int32) + 100) << 23 | torch.randint(0, 1 << 10, (200,), dtype=torch.int32) << 13 | 0x1000
    x = torch.cat([x, ties.view(torch.float32), ties16.view(torch.float32)])
    fx = {"x": x,
          "bf16": (x.to(torch.bfloat16).view(torch.int16).int() & 0xFFFF).float(),
          "f16": (x.to(torch.float16).view(torch.int16).int() & 0xFFFF).float()}
    write_safetensors(os.path.join(out, "dtype_expected.safetensors"), fx)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "model/testdata/reference",
         sys.argv[2] if len(sys.argv) > 2 else "model/hf/testdata/reference")
