# torch_env.sh is sourced by scripts/bench.sh, bench-sample.sh and scaling.sh:
# it sets up the PyTorch peer's environment the same way for all three.
#
# Debian's torch links the reference BLAS (~3 GFLOP/s, one thread); the peer
# is made fair by loading OpenBLAS (OpenMP build) in its place through
# LD_LIBRARY_PATH. This installs python3-torch if missing, unpacks
# libopenblas0-openmp (not installed, so the system's BLAS stays as it is)
# under $CREDO_BENCH_CACHE, and sets:
#
#   PY                 the Debian python3 with torch 1.13
#   PY2                the python of scripts/python/venv.sh client, with
#                      PyTorch 2.15 from its PyPI wheel: MKL built in (its
#                      own BLAS; LD_LIBRARY_PATH is not given to it), and
#                      torch.compile's inductor, which needs g++ on a CPU.
#                      PEER2=0 leaves it unset (and the 2.15 columns out).
#   OBDIR              the directory holding OpenBLAS's libblas.so.3
#   OPENBLAS_CORETYPE  (exported) SkylakeX with AVX-512, else Haswell,
#                      unless already set
#   OMP_WAIT_POLICY    (exported) PASSIVE unless set; "default" unsets it
#                      (libgomp's own spin-then-sleep). Both peers' wheels
#                      use libgomp, so the same setting serves both.
#   TORCHINDUCTOR_COMPILE_THREADS  (exported) 1 unless set: inductor
#                      compiles in this process instead of a pool of workers
#                      (on 2 cores the pool only contends with the benchmark)
#
# and defines peak_gflops, which prints the float32 peak MFU is stated
# against: scripts/peak.sh's best of three (other load only lowers it).
#
# See bench.sh's header for why those defaults.
CACHE=${CREDO_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/credo-bench}
PY=/usr/bin/python3
_sudo=""
[ "$(id -u)" -eq 0 ] || _sudo=sudo
if ! "$PY" -c 'import torch' 2>/dev/null; then
	echo "# installing python3-torch" >&2
	$_sudo apt-get install -y python3-torch >&2
fi
OBDIR=$CACHE/openblas/usr/lib/x86_64-linux-gnu/openblas-openmp
if [ ! -e "$OBDIR/libblas.so.3" ]; then
	echo "# fetching libopenblas0-openmp into $CACHE" >&2
	mkdir -p "$CACHE"
	(cd "$CACHE" && rm -f libopenblas0-openmp_*.deb && apt-get download libopenblas0-openmp >&2 &&
		dpkg -x libopenblas0-openmp_*.deb openblas)
	[ -e "$OBDIR/libblas.so.3" ] || { echo "torch_env.sh: no libblas.so.3 in $OBDIR" >&2; exit 1; }
fi
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
	if grep -qw avx512f /proc/cpuinfo; then OPENBLAS_CORETYPE=SkylakeX; else OPENBLAS_CORETYPE=Haswell; fi
fi
export OPENBLAS_CORETYPE
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
if [ "$OMP_WAIT_POLICY" = default ]; then unset OMP_WAIT_POLICY; else export OMP_WAIT_POLICY; fi

PY2=""
if [ "${PEER2:-1}" != 0 ]; then
	PY2="$(scripts/python/venv.sh client)/bin/python"
	command -v g++ >/dev/null || { echo "# installing g++ (torch.compile's inductor on a CPU)" >&2; $_sudo apt-get install -y g++ >&2; }
	"$PY2" -c 'import torch, sys; sys.exit(not torch.__version__.startswith("2."))' ||
		{ echo "torch_env.sh: $PY2 has no PyTorch 2" >&2; exit 1; }
fi
export TORCHINDUCTOR_COMPILE_THREADS=${TORCHINDUCTOR_COMPILE_THREADS:-1}

peak_gflops() {
	local best=0 g
	for _ in 1 2 3; do
		g=$(bash scripts/peak.sh 2>/dev/null | awk '/peak float32/ {print $3}')
		best=$(awk -v a="$best" -v b="$g" 'BEGIN {print (b > a ? b : a)}')
	done
	echo "$best"
}
