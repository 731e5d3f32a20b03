#!/usr/bin/env bash
# apl_gpu.sh — the APL benchmark programs at the GPU sizes of the thesis's §3.5.6
# (examples/apl/bench/*_gpu.apl, HotSpot 512² × 360) on clift's device targets
# against JAX (bench/gpu/apl_jax.py, jit, float64 as APL), for issue 13 item 6.
# Both print the program's output lines, compared here within 1e-9 (relative);
# times are medians of RUNS runs after warm-up: clift bench (the computation, the
# program's literals uploaded once), JAX (one jitted call to block_until_ready).
# Goal: cuda no slower than JAX. Run on the device machine (bench/gpu/run.sh's
# conventions); the table goes to stdout.
# Usage: bash bench/gpu/apl_gpu.sh [RUNS]   (default 10)
# Env: TARGETS (default "cuda opencl"), ONLY ("easter life"), PYTHON (default python3)
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-10}
PY=${PYTHON:-python3}
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  clift $(git rev-parse --short HEAD 2>/dev/null); $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"
echo
echo "| program | target | clift front end ms | clift ms | JAX ms | clift / JAX | outputs |"
echo "|---|---|---:|---:|---:|---:|---|"
status=0
for p in ${ONLY:-easter blackscholes sobol_pi life hotspot signal}; do
  file=examples/apl/bench/${p}_gpu.apl
  [ -f "$file" ] || file=examples/apl/bench/$p.apl
  jax_out=$("$PY" bench/gpu/apl_jax.py "$p" "$RUNS" 2>&1)
  mj=$(sed -nE 's/^median ([0-9.]+) ms.*/\1/p' <<<"$jax_out")
  for t in ${TARGETS:-cuda opencl}; do
    out=$(build/clift bench -t "$t" --runs "$RUNS" "$file" 2>&1) || { echo "| $p | $t | failed: $(tail -n 1 <<<"$out") |"; status=1; continue; }
    front=$(sed -nE 's/.*front end and code generation ([0-9.]+) ms.*/\1/p' <<<"$out")
    mc=$(sed -nE 's/.*; median ([0-9.]+) ms.*/\1/p' <<<"$out")
    agree=$("$PY" - "$out" "$jax_out" <<'PY'
import sys
a = [l for l in sys.argv[1].splitlines() if not l.startswith('bench ')]
b = [l for l in sys.argv[2].splitlines() if not l.startswith('median ') and not l.startswith('#')]
try:
    ok = len(a) == len(b) and all(abs(float(x) - float(y)) <= 1e-9 * max(1.0, abs(float(y))) for x, y in zip(a, b))
except ValueError:
    ok = False
print('agree (' + ', '.join(a) + ')' if ok else 'DIFFER: clift ' + ' '.join(a) + ' vs JAX ' + ' '.join(b))
PY
)
    case $agree in agree*) ;; *) status=1 ;; esac
    ratio=$([ -n "$mj" ] && "$PY" -c "print(f'{$mc / $mj:.2f}')" || echo "-")
    echo "| $p | $t | $front | $mc | ${mj:--} | $ratio | $agree |"
  done
done
exit $status
