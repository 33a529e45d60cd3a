"""Writes the transformers fixtures the model tests compare against.

scripts/reference.py is credo's own minimal PyTorch decoder; this script
asks transformers itself: its LlamaForCausalLM, Qwen2ForCausalLM and
Qwen3ForCausalLM, in float32 with random (seeded) weights at tiny sizes,
one folder per variant credo supports. Each model is saved with
save_pretrained, so the Go test also reads transformers' own config.json
and safetensors through model/hf, beside <variant>_expected.safetensors in
scripts/reference.py's format: right-padded token ids, logits, target
log-probs, the masked mean NLL, its gradient for every weight and for the
input embeddings, and the rotary frequencies.

Run with the pinned environment (make fixtures does) and commit the output:

    "$(scripts/python/venv.sh client)/bin/python" scripts/transformers_reference.py model/testdata/transformers

The Go tests never need PyPI.
"""
import json
import os
import shutil
import sys

import torch
import transformers
from safetensors.torch import save_file
from transformers import (LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM,
                          Qwen3Config, Qwen3ForCausalLM)

torch.set_num_threads(1)
transformers.utils.logging.disable_progress_bar()

# The fixture's shape: small enough to commit (about 120 KB a variant with
# its gradients), large enough for grouped-query attention (4 query heads
# share 2 key/value heads), and with vocabulary, hidden and FFN widths all
# different, so a transposed matrix cannot load by having the right shape.
TINY = dict(vocab_size=48, hidden_size=32, intermediate_size=24, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
            rms_norm_eps=1e-6, attn_implementation="eager", dtype=torch.float32)

SHORT = [9, 6, 4]       # three right-padded sequences
LONG = [48, 30, 12]     # long enough for Llama 3 scaling's low-frequency regime

# Llama 3.1's scaling with original_max_position_embeddings 64, so that
# head_dim 8's wavelengths at theta 1e4 (6.3, 63, 628, 6283) fall in all
# three regimes: kept (< 16), interpolated (16..64), divided by factor (> 64).
LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
          "high_freq_factor": 4.0, "original_max_position_embeddings": 64}


def variants():
    """(name, seed, model class, config, sequence lengths, legacy rope):
    legacy writes config.json as transformers 4.x did (rope_scaling and a
    top-level rope_theta) instead of transformers 5's rope_parameters."""
    return [
        ("llama", 11, LlamaForCausalLM, LlamaConfig(**TINY), SHORT, False),
        ("llama_bias", 12, LlamaForCausalLM,
         LlamaConfig(**TINY, attention_bias=True, mlp_bias=True), SHORT, False),
        ("llama3_rope_scaling", 13, LlamaForCausalLM,
         LlamaConfig(**dict(TINY, max_position_embeddings=256), rope_theta=10000.0,
                     rope_scaling=dict(LLAMA3)), LONG, True),
        # transformers 5's own form, with an explicit head_dim 16 (hidden /
        # heads is 8): eight wavelengths 6.3, 20, 63, 199, ... put two in the
        # interpolated band; factor 32 as Llama 3.2's.
        ("llama3_rope_parameters", 14, LlamaForCausalLM,
         LlamaConfig(**dict(TINY, max_position_embeddings=256), head_dim=16,
                     rope_parameters=dict(LLAMA3, factor=32.0, rope_theta=10000.0)), LONG, False),
        ("qwen2", 15, Qwen2ForCausalLM, Qwen2Config(**TINY), SHORT, False),
        ("qwen2_tied", 16, Qwen2ForCausalLM, Qwen2Config(**TINY, tie_word_embeddings=True), SHORT, False),
        ("qwen3", 17, Qwen3ForCausalLM, Qwen3Config(**TINY, head_dim=16), SHORT, False),
        # Tied, and with Qwen3's attention_bias (q, k, v and o), which no
        # released Qwen3 uses but Qwen3Config offers.
        ("qwen3_tied", 18, Qwen3ForCausalLM,
         Qwen3Config(**TINY, head_dim=16, tie_word_embeddings=True, attention_bias=True), SHORT, False),
    ]


def randomize(model, gen):
    """Redraws every weight as scripts/reference.py does: transformers'
    initializer_range (0.02) gives near-zero logits that would hide a
    wrong scale; norm gains not all ones, so a wrong gain shows."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            z = torch.randn(p.shape, generator=gen)
            if name.endswith("norm.weight"):
                p.copy_(1 + 0.1 * z)
            elif name.endswith(".bias"):
                p.copy_(0.1 * z)
            else:
                p.copy_(0.2 * z)


def batch(vocab, lengths, gen):
    """Right-padded (with id 0) token rows and the mask over their targets."""
    T = max(lengths)
    tokens = torch.randint(1, vocab, (len(lengths), T), generator=gen)
    mask = torch.zeros(len(lengths), T - 1)
    for i, n in enumerate(lengths):
        tokens[i, n:] = 0
        mask[i, : n - 1] = 1
    return tokens, mask


def forward(model, tokens, mask):
    """The masked mean NLL of tokens[:, 1:] given tokens[:, :-1], through
    transformers' forward from input embeddings (so their gradient is
    kept); returns (loss, logits, logp, embeddings)."""
    x = model.get_input_embeddings()(tokens[:, :-1])
    x.retain_grad()
    logits = model(inputs_embeds=x).logits
    logp = logits.log_softmax(-1).gather(-1, tokens[:, 1:, None])[..., 0]
    loss = -(logp * mask).sum() / mask.sum()
    return loss, logits, logp, x


def check_own_loss(model, tokens, lengths, loss):
    """transformers' own causal-LM loss (labels, -100 past each length)
    must agree with the masked mean computed here."""
    labels = tokens.clone()
    for i, n in enumerate(lengths):
        labels[i, n:] = -100
    with torch.no_grad():
        own = model(input_ids=tokens, labels=labels).loss
    assert torch.allclose(own, loss, rtol=1e-6, atol=1e-6), (own.item(), loss.item())


def write_legacy_config(folder, model, tokens):
    """Rewrites config.json as transformers 4.x wrote Llama 3's (rope_scaling
    and a top-level rope_theta), then checks transformers 5 reads it back
    into the same model."""
    path = os.path.join(folder, "config.json")
    with open(path) as f:
        c = json.load(f)
    rope = c.pop("rope_parameters")
    c["rope_theta"] = rope.pop("rope_theta")
    c["rope_scaling"] = rope
    with open(path, "w") as f:
        json.dump(c, f, indent=2, sort_keys=True)
        f.write("\n")
    back = type(model).from_pretrained(folder, attn_implementation="eager")
    with torch.no_grad():
        same = torch.equal(back(input_ids=tokens).logits, model(input_ids=tokens).logits)
    assert same, "transformers reads the legacy config.json into a different model"


def case(out, name, seed, cls, config, lengths, legacy):
    gen = torch.Generator().manual_seed(seed)
    model = cls(config).eval()  # eval: no dropout (attention_dropout is 0 anyway)
    randomize(model, gen)
    tokens, mask = batch(config.vocab_size, lengths, gen)
    loss, logits, logp, x = forward(model, tokens, mask)
    loss.backward()
    check_own_loss(model, tokens, lengths, loss)

    folder = os.path.join(out, name)
    shutil.rmtree(folder, ignore_errors=True)
    model.save_pretrained(folder)
    if legacy:
        write_legacy_config(folder, model, tokens)

    fx = {"tokens": tokens.float(), "mask": mask, "lengths": torch.tensor(lengths).float(),
          "logits": logits, "logp": logp, "loss": loss.reshape(1), "grad.embeddings": x.grad,
          "rope.inv_freq": model.model.rotary_emb.inv_freq}
    for n, p in model.named_parameters():  # a tied lm_head is embed_tokens, named once
        fx["grad." + n] = p.grad
    fx = {k: v.detach().float().contiguous() for k, v in fx.items()}
    save_file(fx, os.path.join(out, name + "_expected.safetensors"),
              # one key: safetensors writes several in a varying order
              metadata={"written_by": f"transformers {transformers.__version__}, torch {torch.__version__}"})
    print(f"wrote {name}: loss {loss.item():.6f}")


def main(out):
    os.makedirs(out, exist_ok=True)
    for v in variants():
        case(out, *v)
    print("wrote fixtures to", out, "with transformers", transformers.__version__, "torch", torch.__version__)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "model/testdata/transformers")
