#!/usr/bin/env bash
# apl.sh — the APL benchmark programs (examples/apl/bench, the thesis's CPU
# sizes; issue 13 item 6) on clift's openmp target against hand-written C +
# OpenMP (bench/cpu/apl_peers.c, compiled with the flags of the openmp
# target). Both print their checksum lines, compared here within 1e-9
# (relative); times are medians of RUNS runs after a warm-up, computation only
# (clift bench: no compilation; the peer: its timed region). Goal: openmp ≤ 1.2×.
# Usage: bash bench/cpu/apl.sh [RUNS]   (default 10)
# Env: OMP_NUM_THREADS (default: all cores), ONLY ("primes life"). The _int rows: the
# peer in int, the APL program's 32-bit ints, where the first peers used long.
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-10}
CC=${CC:-cc}
[ -x build/clift ] || make -s
TMP=$(mktemp -d "${TMPDIR:-/tmp}/clift-apl-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
$CC -O3 -march=native -mno-avx512f -std=c11 -fwrapv -fno-math-errno -fopenmp -o "$TMP/peers" bench/cpu/apl_peers.c -lm || exit 1
echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
echo "# clift $(git rev-parse --short HEAD 2>/dev/null); $($CC --version | head -1); runs=$RUNS"
echo
echo "| program | clift front end ms | clift openmp ms | hand C+OpenMP ms | ratio | outputs |"
echo "|---|---:|---:|---:|---:|---|"
status=0
for spec in ${ONLY:-primes primes_int easter easter_int blackscholes sobol_pi sobol_pi_bits life hotspot}; do
  base=${spec%_bits}; base=${base%_int}   # _bits, _int: the same program against another peer
  file=examples/apl/bench/${base}_cpu.apl
  [ -f "$file" ] || file=examples/apl/bench/$spec.apl
  clift_out=$(build/clift bench -t openmp --runs "$RUNS" "$file" 2>&1) || { echo "| $spec | clift failed: $(tail -n 1 <<<"$clift_out") |"; status=1; continue; }
  peer_out=$("$TMP/peers" "$spec" "$RUNS" 2>&1) || { echo "| $spec | peer failed |"; status=1; continue; }
  front=$(sed -nE 's/.*front end and code generation ([0-9.]+) ms.*/\1/p' <<<"$clift_out")
  mc=$(sed -nE 's/.*; median ([0-9.]+) ms.*/\1/p' <<<"$clift_out")
  mp=$(sed -nE 's/^median ([0-9.]+) ms.*/\1/p' <<<"$peer_out")
  agree=$(python3 - "$clift_out" "$peer_out" <<'PY'
import sys
a = [l for l in sys.argv[1].splitlines() if not l.startswith('bench ')]
b = [l for l in sys.argv[2].splitlines() if not l.startswith('median ')]
ok = len(a) == len(b) and all(abs(float(x) - float(y)) <= 1e-9 * max(1.0, abs(float(y))) for x, y in zip(a, b))
print('agree (' + ', '.join(a) + ')' if ok else 'DIFFER: clift ' + ' '.join(a) + ' vs C ' + ' '.join(b))
PY
)
  case $agree in agree*) ;; *) status=1 ;; esac
  ratio=$(python3 -c "print(f'{$mc / $mp:.2f}')")
  echo "| $spec | $front | $mc | $mp | $ratio | $agree |"
done
exit $status
