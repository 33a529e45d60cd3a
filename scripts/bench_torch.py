#!/usr/bin/python3
"""Times the PyTorch peer of credo's BenchmarkTrainStep (optim/bench_test.go).

Same configs as model.Small(268) and model.Medium(268) (and the benchmark's
40M config, and 135M: SmolLM2-135M's shape with its 49,152-token
vocabulary, optim/benchshape_test.go's bench135M), same batch (16 x 256 tokens unless --batch/--seq say otherwise,
loss on every target), same AdamW (betas 0.9/0.95, eps 1e-8, weight
decay 0.1 on matrices, gradient clip 1.0), same FLOP count and peak. The
model is scripts/reference.py's (imported, not copied). Prints one
machine-readable line per config:

    torch 10M params=10734336 step_s=1.42 tokens_s=2880 gflops=... mfu=... blas=openblas ...

It runs under either PyTorch the scripts use: Debian's 1.13 with OpenBLAS
(blas=openblas) or PyPI's 2.15 with the MKL built into its wheel
(blas=mkl). On 2.x, attention is F.scaled_dot_product_attention (its fused
CPU kernel, forward and backward: what a PyTorch 2 model runs) unless
--attention explicit asks for reference.py's written-out softmax(QK^T)V,
the only form 1.13 has; the line says which (attention=). --compile
wraps the loss (forward and, through AOTAutograd, backward) and the
clip-and-AdamW update in torch.compile (inductor, C++ on a CPU); the
warm-up steps include compiling, and first_s is the first step's time.

step_s is the median step, mean_s the mean. With --size (the peer of
BenchmarkTrainShape, run by scripts/scaling.sh) it runs that one config at
--batch x --seq and adds peak_mib, the process's peak RSS (ru_maxrss): run
one shape per process, or the peaks mix.

Run it through scripts/bench.sh or scripts/scaling.sh, which supply a fast
BLAS. By hand:

    LD_LIBRARY_PATH=<openblas-openmp dir> OPENBLAS_CORETYPE=Zen \\
        /usr/bin/python3 scripts/bench_torch.py --peak 200
    ... scripts/bench_torch.py --size 40M --batch 16 --seq 512 --steps 3
    "$(scripts/python/venv.sh client)/bin/python" scripts/bench_torch.py --compile
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
import reference  # noqa: E402  (needs the path above)

BATCH, SEQ, VOCAB = 16, 256, 268


def llama(vocab, hidden, ffn, layers, heads, kv_heads, max_pos=1024, theta=10000.0):
    """A config dict in reference.py's format, as model/presets.go builds it."""
    c = reference.config(vocab=vocab, tied=True, model_type="llama")
    c.update(hidden_size=hidden, intermediate_size=ffn, num_hidden_layers=layers,
             num_attention_heads=heads, num_key_value_heads=kv_heads,
             max_position_embeddings=max_pos, rms_norm_eps=1e-5, rope_theta=theta)
    return c


CONFIGS = {
    "1M": llama(VOCAB, 128, 384, 4, 4, 2),    # model.Small(268)
    "10M": llama(VOCAB, 384, 1024, 6, 6, 6),  # model.Medium(268)
    "40M": llama(VOCAB, 640, 1792, 8, 10, 10),  # bench40M in optim/benchshape_test.go
    # SmolLM2-135M (docs/results/smollm2.md): its own vocabulary, tied, rope
    # theta 100000; bench135M in optim/benchshape_test.go.
    "135M": llama(49152, 576, 1536, 30, 9, 3, max_pos=8192, theta=100000.0),
}


def num_params(c):
    n = 0
    for _, shape in reference.param_specs(c):
        k = 1
        for d in shape:
            k *= d
        n += k
    return n


def train_flops(c, B, T):
    """Port of bench_test.go's trainFLOPs: 6*N*tokens over the matmul
    parameters (the embedding lookup is not a matmul, a tied head is) plus
    attention's 12*L*T^2*(H*hd) per sequence."""
    V, D = c["vocab_size"], c["hidden_size"]
    n = num_params(c) - V * D
    if c["tie_word_embeddings"]:
        n += V * D
    hd = D // c["num_attention_heads"]
    attn = 12 * c["num_hidden_layers"] * T * T * c["num_attention_heads"] * hd
    return (6 * n * T + attn) * B


def init(c, gen):
    """Weights at the scale credo draws them (std 0.02, unit norm gains),
    so activations stay ordinary floats (no overflow or denormals)."""
    ps = {}
    for name, shape in reference.param_specs(c):
        if name.endswith("norm.weight"):
            t = torch.ones(shape)
        else:
            t = on_device(0.02 * torch.randn(shape, generator=gen, device=gen.device))
        ps[name] = t.requires_grad_(True)
    return ps


def on_device(t):
    """t on the default device (--device sets it): random draws come from a
    CPU generator, so every device starts from the same weights."""
    return t.to(torch.empty(0).device)


def set_device(name):
    """Makes name ("cpu", "cuda") the device new tensors land on; on CUDA,
    float32 matmuls may use TF32 when tf32 (as XLA's GPU backend does by
    default)."""
    if name == "cpu":
        return
    torch.set_default_device(name)
    torch.backends.cuda.matmul.allow_tf32 = os.environ.get("CREDO_TF32", "1") == "1"
    torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32


def sync():
    """Waits for the device's queued work (CUDA runs asynchronously)."""
    if torch.empty(0).device.type == "cuda":
        torch.cuda.synchronize()


def blas_in_use():
    """Which BLAS the process runs: the reference BLAS is ~50x slower, so a
    result without OpenBLAS (Debian's 1.13) or MKL (PyPI's 2.x wheels, which
    link it statically, so it is not in the maps) is not a fair peer."""
    try:
        with open("/proc/self/maps") as f:
            maps = f.read()
    except OSError:
        return "unknown"
    # MKL first: a 2.x wheel's process also maps numpy's bundled OpenBLAS,
    # which torch's products do not use.
    if "BLAS_INFO=mkl" in torch.__config__.show():
        return "mkl"
    if "openblas" in maps:
        return "openblas"
    return "reference"


def sdpa_attend(c):
    """forward_hidden's causal attention through the fused kernel of
    PyTorch 2 (same function as reference.py's written-out form)."""
    H, K = c["num_attention_heads"], c["num_key_value_heads"]

    def attend(l, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=H != K)
    return attend


def loss_fn(c, attention):
    """The mean NLL of tokens[:, 1:] under mask, as reference.lm_loss computes
    it but returning the loss alone (nothing else kept alive, and no
    retain_grad, which torch.compile would break its graph on)."""
    def loss(ps, tokens, mask):
        x = F.embedding(tokens[:, :-1], ps["model.embed_tokens.weight"])
        if attention == "sdpa":
            h = reference.layers(c, ps, x, 0, sdpa_attend(c))
        else:
            h = reference.forward_hidden(c, ps, x)
        logp = (h @ reference.head(c, ps).T).log_softmax(-1).gather(-1, tokens[:, 1:, None])[..., 0]
        return -(logp * mask).sum() / mask.sum().clamp(min=1)
    return loss


def new_step(c, batch, seq, attention="explicit", compiled=False):
    """One AdamW step on batch random sequences of seq tokens, as a
    function returning the loss."""
    gen = torch.Generator().manual_seed(1)
    ps = init(c, gen)
    tokens = on_device(torch.randint(0, c["vocab_size"], (batch, seq + 1), generator=gen, device=gen.device))
    mask = torch.ones(batch, seq)
    decay = [p for p in ps.values() if p.dim() >= 2]
    no_decay = [p for p in ps.values() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=1e-3, betas=(0.9, 0.95), eps=1e-8)
    params = list(ps.values())
    loss_of = loss_fn(c, attention)

    def update():
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
    if compiled:
        # Two compiled regions: the loss (inductor fuses the elementwise
        # work of forward and backward around the matmuls) and the update
        # (the clip and AdamW's per-tensor loops become a few fused
        # kernels). backward() itself stays eager: it runs the compiled
        # backward graph.
        loss_of = torch.compile(loss_of)
        update = torch.compile(update)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_of(ps, tokens, mask)
        loss.backward()
        update()
        return loss.item()  # forces completion; torch on CPU is synchronous anyway
    return step


def bench(c, steps, warmup, batch, seq, attention="explicit", compiled=False):
    step = new_step(c, batch, seq, attention, compiled)
    times, first, loss = [], None, None
    for i in range(warmup + steps):
        t0 = time.perf_counter()
        loss = step()
        dt = time.perf_counter() - t0
        first = dt if first is None else first
        if i >= warmup:
            times.append(dt)
    if not (loss == loss and abs(loss) < 1e9):
        raise SystemExit(f"bench_torch: loss is {loss}, not a finite number")
    return statistics.median(times), times, first


def profile(c, batch, seq, attention, compiled, n):
    """torch.profiler over two steps after three untimed ones (compiling
    included): the n ops with the most self CPU time, the table
    docs/performance.md's profile summary reads."""
    from torch.profiler import ProfilerActivity, profile as tprofile, schedule
    step = new_step(c, batch, seq, attention, compiled)
    with tprofile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=0, warmup=3, active=2, repeat=1)) as prof:
        for _ in range(5):
            step()
            prof.step()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=n), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peak", type=float, default=float(os.environ.get("CREDO_PEAK_GFLOPS", "200")),
                    help="float32 peak in GFLOP/s that MFU is stated against (default $CREDO_PEAK_GFLOPS or 200)")
    ap.add_argument("--steps", type=int, default=10, help="timed steps; the median is reported")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--configs", default="1M,10M", help="comma-separated subset of " + ",".join(CONFIGS))
    ap.add_argument("--size", choices=sorted(CONFIGS),
                    help="one config at --batch x --seq, with peak RSS (replaces --configs)")
    ap.add_argument("--batch", type=int, default=BATCH, help="sequences per step (default %(default)s)")
    ap.add_argument("--seq", type=int, default=SEQ, help="positions per sequence (default %(default)s)")
    v2 = int(torch.__version__.split(".")[0]) >= 2
    ap.add_argument("--attention", choices=["explicit", "sdpa"], default="sdpa" if v2 else "explicit",
                    help="sdpa: F.scaled_dot_product_attention (PyTorch 2, the default there); "
                         "explicit: reference.py's softmax(QK^T)V (the only form on 1.13)")
    ap.add_argument("--compile", action="store_true", help="torch.compile the loss and the update (PyTorch 2)")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda (PyTorch 2; TF32 matmuls unless CREDO_TF32=0)")
    ap.add_argument("--profile", metavar="N", type=int, default=0,
                    help="after timing, profile two more steps and print the N costliest ops (torch.profiler)")
    a = ap.parse_args()
    if (a.attention == "sdpa" or a.compile) and not v2:
        raise SystemExit(f"bench_torch: --attention sdpa and --compile need PyTorch 2, not {torch.__version__}")
    if a.batch < 1 or a.seq < 1 or a.steps < 1:
        raise SystemExit("bench_torch: --batch, --seq and --steps must be positive")
    torch.set_num_threads(a.threads)  # reference.py sets 1 at import
    set_device(a.device)
    blas = blas_in_use() if a.device == "cpu" else a.device
    if blas not in ("openblas", "mkl", a.device):
        print(f"bench_torch: warning: BLAS is {blas}, not OpenBLAS or MKL; see scripts/bench.sh", file=sys.stderr)
    names = [a.size] if a.size else a.configs.split(",")
    for name in names:
        if name not in CONFIGS:
            raise SystemExit(f"bench_torch: unknown config {name!r}; have {', '.join(CONFIGS)}")
        c = CONFIGS[name]
        if a.seq > c["max_position_embeddings"]:
            raise SystemExit(f"bench_torch: --seq {a.seq} is past {name}'s {c['max_position_embeddings']} positions")
        sec, times, first = bench(c, a.steps, a.warmup, a.batch, a.seq, a.attention, a.compile)
        flops = train_flops(c, a.batch, a.seq)
        gflops = flops / sec / 1e9
        line = (f"torch {name} params={num_params(c)} step_s={sec:.4f} tokens_s={a.batch * a.seq / sec:.0f} "
                f"gflops={gflops:.1f} mfu={100 * gflops / a.peak:.1f} peak={a.peak:g} "
                f"threads={torch.get_num_threads()} blas={blas} "
                f"min_s={min(times):.4f} max_s={max(times):.4f} mean_s={statistics.fmean(times):.4f} "
                f"batch={a.batch} seq={a.seq} torch={torch.__version__.split('+')[0]} "
                f"attention={a.attention} compile={int(a.compile)} first_s={first:.1f}")
        if a.size:
            # ru_maxrss is in KiB on Linux: the peak of this process, whose
            # only model is this shape's.
            line += f" peak_mib={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f}"
        print(line, flush=True)
        if a.profile:
            profile(c, a.batch, a.seq, a.attention, a.compile, a.profile)


if __name__ == "__main__":
    main()
