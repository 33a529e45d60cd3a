#!/usr/bin/python3
"""Times the PyTorch peer of credo's BenchmarkGenerate (sample/bench_test.go).

Same shape: the model.Small(268) and model.Medium(268) configs
(bench_torch.CONFIGS), 8 prompts of 53 tokens (credo's 50-byte prompts plus
<|bos|><|user|> ... <|assistant|>) x G = 8 = batch 64, 128 new tokens,
temperature-1 multinomial sampling with each token's log-prob, no EOS stop.
The prompts run once (batch 8) and their keys and values are copied to the
8 rows of each group, as credo's Prefill does; then one token per row at a
time through reference.forward_cached (preallocated per-layer key/value
buffers, written in place). Prints one machine-readable line per config:

    torch-gen 1M batch=64 new=128 tokens_s=5210 gen_s=1.57 min_s=... blas=openblas gflop=... mfu=... peak_mib=...

gflop is one generation's model FLOPs (gen_flops: the same count for
credo's, whose rate scripts/bench-sample.sh turns into its MFU); mfu is
against --peak; peak_mib is the process's peak RSS so far (ru_maxrss), a
config's own only when it is the process's one config. It runs under
Debian's 1.13 with OpenBLAS or PyPI's 2.15 (blas=mkl), eager on both: the
cached decode writes into its buffers at a new position every token,
which torch.compile would recompile or guard on (not measured here).

--check first verifies that the cached decode is the model: greedy tokens
from forward_cached equal a full re-run's (reference.forward_hidden over
the whole sequence) for a few tokens, and their logits agree.

Run it through scripts/bench-sample.sh, which supplies a fast BLAS.
"""
import argparse
import os
import resource
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_torch  # noqa: E402  (needs the path above)
import reference  # noqa: E402

PROMPTS, GROUP, PROMPT_LEN, NEW = 8, 8, 53, 128


def logits_of(c, ps, h):
    return h @ reference.head(c, ps).T


def generate(c, ps, prompts, group, new, gen, greedy=False):
    """Samples new tokens for each of group copies of every prompt [P, L]
    (all the same length). Returns tokens [P*group, new] and their
    log-probs."""
    P, L = prompts.shape
    B = P * group
    cache = reference.new_cache(c, P, L)
    x = F.embedding(prompts, ps["model.embed_tokens.weight"])
    h = reference.forward_cached(c, ps, x, cache, 0)
    logits = logits_of(c, ps, h[:, -1]).repeat_interleave(group, 0)  # [B, V]
    big = reference.new_cache(c, B, L + new - 1)
    for (k, v), (bk, bv) in zip(cache, big):
        bk[:, :, :L] = k.repeat_interleave(group, 0)
        bv[:, :, :L] = v.repeat_interleave(group, 0)
    out = torch.empty(B, new, dtype=torch.long)
    lps = torch.empty(B, new)
    for t in range(new):
        lp = logits.log_softmax(-1)
        if greedy:
            tok = lp.argmax(-1)
        else:
            tok = torch.multinomial(lp.exp(), 1, generator=gen)[:, 0]
        out[:, t] = tok
        lps[:, t] = lp.gather(-1, tok[:, None])[:, 0]
        if t == new - 1:  # the last token is sampled, never fed back
            break
        x = F.embedding(tok[:, None], ps["model.embed_tokens.weight"])
        h = reference.forward_cached(c, ps, x, big, L + t)
        logits = logits_of(c, ps, h[:, 0])
    return out, lps


def check(c, gen, steps=6):
    """Greedy cached decoding equals greedy full re-runs, logits within 1e-4."""
    ps = {n: p.detach() for n, p in bench_torch.init(c, gen).items()}
    prompts = torch.randint(0, c["vocab_size"], (3, 20), generator=gen)
    got, _ = generate(c, ps, prompts, 1, steps, gen, greedy=True)
    seq = prompts
    for t in range(steps):
        x = F.embedding(seq, ps["model.embed_tokens.weight"])
        lp = logits_of(c, ps, reference.forward_hidden(c, ps, x)[:, -1]).log_softmax(-1)
        want = lp.argmax(-1)
        if not torch.equal(want, got[:, t]):
            raise SystemExit(f"bench_generate_torch: step {t}: cached greedy {got[:, t].tolist()} != re-run {want.tolist()}")
        seq = torch.cat([seq, want[:, None]], 1)
    # Logits of the cached path at the last step against the re-run's.
    cache = reference.new_cache(c, 3, seq.shape[1])
    x = F.embedding(seq, ps["model.embed_tokens.weight"])
    split = prompts.shape[1]
    reference.forward_cached(c, ps, x[:, :split], cache, 0)
    h = reference.forward_cached(c, ps, x[:, split:], cache, split)
    full = reference.forward_hidden(c, ps, x)[:, split:]
    diff = (logits_of(c, ps, h) - logits_of(c, ps, full)).abs().max().item()
    if diff > 1e-4:
        raise SystemExit(f"bench_generate_torch: cached logits differ from a re-run's by {diff}")
    return diff


def gen_flops(c, prompts=PROMPTS, group=GROUP, prompt_len=PROMPT_LEN, new=NEW):
    """Model FLOPs of one generation, counted as bench_torch.train_flops
    counts a forward pass: 2 per matmul parameter per token (a tied head
    included, the embedding lookup not) plus attention's 4 * context * (H*hd)
    per token and layer. The prompts run once (prompts x prompt_len, full
    prompt_len^2 attention like the training count), then new - 1 decode
    steps of prompts * group rows (the last token is sampled, not fed back),
    the step at offset t attending prompt_len + t + 1 positions."""
    n = bench_torch.train_flops(c, 1, 1) // 6  # the matmul parameters (attention at T=1 adds 2*L*q)
    q = c["num_attention_heads"] * reference.head_dim(c)
    n -= 2 * c["num_hidden_layers"] * q
    L = c["num_hidden_layers"]
    prefill = prompts * (2 * n * prompt_len + 4 * L * prompt_len * prompt_len * q)
    decode = sum(prompts * group * (2 * n + 4 * L * q * (prompt_len + t + 1)) for t in range(new - 1))
    return prefill + decode


def bench(c, runs, warmup, gen):
    ps = {n: p.detach() for n, p in bench_torch.init(c, gen).items()}
    prompts = bench_torch.on_device(torch.randint(0, c["vocab_size"], (PROMPTS, PROMPT_LEN), generator=gen, device=gen.device))
    draws = gen if gen.device == prompts.device else torch.Generator(device=prompts.device).manual_seed(1)  # sampling's, on the model's device
    times = []
    for i in range(warmup + runs):
        t0 = time.perf_counter()
        toks, lps = generate(c, ps, prompts, GROUP, NEW, draws)
        bench_torch.sync()
        if i >= warmup:
            times.append(time.perf_counter() - t0)
    if not torch.isfinite(lps).all():
        raise SystemExit("bench_generate_torch: non-finite log-probs")
    return statistics.median(times), times, toks.numel()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="timed generations; the median is reported")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--configs", default="1M,10M", help="comma-separated subset of " + ",".join(bench_torch.CONFIGS))
    ap.add_argument("--check", action="store_true", help="verify cached decoding against a full re-run first")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda (PyTorch 2; TF32 matmuls unless CREDO_TF32=0)")
    ap.add_argument("--peak", type=float, default=float(os.environ.get("CREDO_PEAK_GFLOPS", "200")),
                    help="float32 peak in GFLOP/s that mfu is stated against (default $CREDO_PEAK_GFLOPS or 200)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)  # reference.py sets 1 at import
    bench_torch.set_device(a.device)
    blas = bench_torch.blas_in_use() if a.device == "cpu" else a.device
    if blas not in ("openblas", "mkl", a.device):
        print(f"bench_generate_torch: warning: BLAS is {blas}, not OpenBLAS or MKL; see scripts/bench-sample.sh", file=sys.stderr)
    gen = torch.Generator(device="cpu").manual_seed(1)
    with torch.inference_mode():
        for name in a.configs.split(","):
            if name not in bench_torch.CONFIGS:
                raise SystemExit(f"bench_generate_torch: unknown config {name!r}; have {', '.join(bench_torch.CONFIGS)}")
            c = bench_torch.CONFIGS[name]
            if a.check:
                print(f"# {name}: cached greedy = re-run greedy, logits within {check(c, gen):.2g}", flush=True)
            sec, times, n = bench(c, a.runs, a.warmup, gen)
            gflop = gen_flops(c) / 1e9
            print(f"torch-gen {name} batch={PROMPTS * GROUP} new={NEW} tokens_s={n / sec:.0f} gen_s={sec:.4f} "
                  f"min_s={min(times):.4f} max_s={max(times):.4f} threads={torch.get_num_threads()} blas={blas} "
                  f"torch={torch.__version__.split('+')[0]} gflop={gflop:.2f} mfu={100 * gflop / sec / a.peak:.1f} "
                  f"peak={a.peak:g} peak_mib={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
