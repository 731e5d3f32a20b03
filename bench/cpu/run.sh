#!/usr/bin/env bash
# CPU benchmark: clift (openmp target) against hand-written C loops.
# Usage: bash bench/cpu/run.sh [RUNS]      (RUNS >= 10, default 15)
# Env: OMP_NUM_THREADS (default 2), CC (default cc), ONLY (e.g. "filter:FILTER scan:SCAN").
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-15}
CC=${CC:-cc}
CFLAGS="-O3 -march=native -fopenmp -std=c11"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}

[ -x build/clift ] || make -s
TMP=$(mktemp -d "${TMPDIR:-/tmp}/clift-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "# $($CC --version | head -1); flags: $CFLAGS; OMP_NUM_THREADS=$OMP_NUM_THREADS; runs=$RUNS (median, after 2 warm-ups)"

results=$TMP/results
: > "$results"
# program  harness macro
for spec in ${ONLY:-scal:SCAL asum:ASUM dot:DOT gemv:GEMV matmul:MATMUL matmul_ikj:MATMUL_IKJ filter:FILTER scan:SCAN} ${EXTRA:-}; do
  prog=${spec%%:*}; macro=${spec#*:}
  build/clift compile -t openmp -o "$TMP/$prog" "bench/cpu/$prog.lift"
  $CC $CFLAGS -DBENCH_$macro -DPROG="\"$prog.lift\"" -Dclift_run="${prog}_run" -o "$TMP/$prog.bin" \
      bench/cpu/harness.c bench/cpu/baseline.c "$TMP/$prog/$prog.c" -lm
  "$TMP/$prog.bin" "$RUNS" | tee -a "$results" | sed 's/^/# /'
done

echo
printf '| %-9s | %-10s | %-16s | %-13s | %9s | %9s | %6s | %10s | %-11s |\n' \
  benchmark size "clift program" "hand-C" "clift ms" "hand ms" ratio "pair ratio" "max rel err"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' ----------- ------------ ------------------ \
  --------------- ----------: ----------: -------: -----------: -------------
while read -r _ bench size mc mh ratio pratio err prog variant; do
  printf '| %-9s | %-10s | %-16s | %-13s | %9s | %9s | %6s | %10s | %-11s |\n' \
    "$bench" "$size" "$prog" "$variant" "$mc" "$mh" "$ratio" "$pratio" "$err"
done < "$results"
