#!/usr/bin/env bash
# peel3_ncu.sh — one device call for issue 12's "stencil peeling is never
# slower" (docs/performance.md, "the device cost rule"): on opencl and cuda a
# stencil's dimension is now peeled only when its window is 5 or wider
# (dpia/peel.c), so `--peel` leaves the 3×3 Jacobi as written (the unpeeled
# kernel, with a note) and peels 5×5; `--peel=all` peels any window (the
# peeled 3×3 measured before: 1.05× the unpeeled time on an H100);
# `--peel-aligned` (for measuring) gives the peeled interior's work-items the
# unpeeled kernel's positions (work-item x computes column x, not x + 1).
# Variants: --no-peel, --peel, --peel=all, "--peel=all --peel-aligned" (3×3)
# and "--peel --peel-aligned" (5×5).
#   1. builds clift; prints the rule's notes for jsweep 3×3 and 5×5 with --peel;
#   2. checks jsweep 3×3 and 5×5, every variant, on cuda
#      against the interpreter at 250×270, also with a small grid
#      (--global-size 64,32: several trips round every grid-stride loop);
#   3. times them at 4096² (`clift bench --runs RUNS`, the median of RUNS
#      runs), ROUNDS rounds interleaved; prints the median of each one's
#      medians and peeled / unpeeled;
#   4. Nsight Compute (SpeedOfLight, MemoryWorkloadAnalysis, LaunchStats,
#      Occupancy, and the sector counts of the stores and DRAM bytes) on every
#      kernel launch of one peeled (--peel=all) and one unpeeled 3×3 run at
#      4096² (`--runs 1`: the warm-up launch and one timed launch of k0), and
#      on the timed launch of the aligned one: why the peeled 3×3 is slower.
#      The suspect: its interior's work-items are shifted by the left padding
#      (item x writes column x + 1), so a half-warp's 64-byte store touches 3
#      sectors instead of 2 (l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
#      about 1.5× the unpeeled; the aligned one as the unpeeled). The aligned
#      interior executes more instructions (sm_90, bench/gpu/sass_path.py,
#      per interior point: unpeeled 92, peeled 84, aligned 99; 5×5: 182, 161,
#      167): if it is still faster than the peeled one, the stores are it.
# Under 3 minutes on one H100 (about 2 s a bench call, 36 of them; ncu about
# 20 s a run, 3 runs).
# Usage (device; no carry needed): bash bench/gpu/peel3_ncu.sh
# Without a GPU (the plumbing only: build, programs, checks and timings on
# opencl/PoCL at 256², no ncu): NO_GPU=1 bash bench/gpu/peel3_ncu.sh
# Env: RUNS (default 20), ROUNDS (default 2), OUT (default /tmp/peel3),
# JOBS (make -j, default nproc).
# Output: stdout and $OUT/output.txt (appended), $OUT/ncu_*.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-20} ROUNDS=${ROUNDS:-2} NO_GPU=${NO_GPU:-0}
OUT=${OUT:-/tmp/peel3}
mkdir -p "$OUT"
: >"$OUT/times.txt"
jobs=${JOBS:-$(nproc)}
t=cuda size="--size N=4096 --size M=4096"
if [ "$NO_GPU" != 0 ]; then t=opencl size="--size N=256 --size M=256"; fi
log() { tee -a "$OUT/output.txt"; }
variants=(nopeel peel all aligned)
flags() {   # flags K VARIANT
  case $2 in
    nopeel) echo --no-peel ;; peel) echo --peel ;; all) echo --peel=all ;;
    aligned) if [ "$1" = 3 ]; then echo --peel=all --peel-aligned; else echo --peel --peel-aligned; fi ;;
  esac
}
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT

{
  [ "$NO_GPU" = 0 ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "this tree: $(git log --oneline -1 2>/dev/null || echo '(no git)'); target $t; ${size//--size /}"
} 2>&1 | log
make -s -j"$jobs" >&2 || { echo "build failed" | log; exit 1; }
clift=build/clift
for k in 3 5; do   # bench/gpu/run.sh's jsweep_program
  h=$((k / 2))
  printf '(lift (N M) ((array-type (array-type float M) N))\n  (lambda (a)\n    (mapGlb1 (lambda (wrow)\n               (mapGlb (lambda (w) (reduceSeq 0.0f (lambda (acc x) (+ acc x)) (join w))) wrow))\n             (slide2D #%d #1 (pad2D #%d #%d a)))))\n' "$k" "$h" "$h" >"$gen/jsweep_$k.lift"
done

{
  echo "== the cost rule's notes ($t, --peel)"
  for k in 3 5; do
    n=$("$clift" compile -t $t --print --peel "$gen/jsweep_$k.lift" | grep -c "not peeled on this target")
    echo "jsweep_$k --peel: $n dimension(s) left unpeeled by the rule"
  done
  echo "== checks against the interpreter ($t, 250x270)"
  bad=0
  for k in 3 5; do
    for v in "${variants[@]}"; do
      fl=$(flags $k "$v")
      for grid in "" "--local-size 16,8 --global-size 64,32"; do
        r=$("$clift" bench -t $t --check --tolerance 1e-3 --runs 1 --size N=250 --size M=270 $grid $fl "$gen/jsweep_$k.lift" 2>&1)
        rc=$?
        if [ $rc = 0 ] && grep -q "agrees" <<<"$r"; then echo "jsweep_$k $fl ${grid:+small grid}: ok"
        else bad=1; echo "jsweep_$k $fl $grid: FAILED (exit $rc): $(tail -n 3 <<<"$r")"; fi
      done
    done
  done
  echo "checks: $([ $bad = 0 ] && echo all ok || echo SOME FAILED)"
} 2>&1 | log

{
  echo "== timings ($t, ms, ${size//--size /}): median of $ROUNDS rounds' medians of --runs $RUNS, interleaved"
  for r in $(seq "$ROUNDS"); do
    for k in 3 5; do
      for v in "${variants[@]}"; do
        m=$("$clift" bench -t $t --runs "$RUNS" $size $(flags $k "$v") "$gen/jsweep_$k.lift" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
        echo "$k $v ${m:-NA}" >>"$OUT/times.txt"
        echo "round $r jsweep_$k $(flags $k "$v"): ${m:-NA}"
      done
    done
  done
  median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }'; }
  echo "(aligned: --peel=all --peel-aligned at 3x3, --peel --peel-aligned at 5x5; ratios to no-peel)"
  printf "%-8s %9s %9s %9s %9s %8s %9s %8s\n" stencil no-peel peel peel=all aligned peel/u peel=all/u aligned/u
  for k in 3 5; do
    med() { awk -v k=$k -v v="$1" '$1 == k && $2 == v && $3 != "NA" {print $3}' "$OUT/times.txt" | median; }
    m_nopeel=$(med nopeel) m_peel=$(med peel) m_all=$(med all) m_aligned=$(med aligned)
    printf "%-8s %9s %9s %9s %9s %8s %9s %8s\n" "${k}x$k" "$m_nopeel" "$m_peel" "$m_all" "$m_aligned" \
      "$(ratio "$m_peel" "$m_nopeel")" "$(ratio "$m_all" "$m_nopeel")" "$(ratio "$m_aligned" "$m_nopeel")"
  done
} 2>&1 | log

if [ "$NO_GPU" = 0 ] && command -v ncu >/dev/null; then
  for v in nopeel all aligned; do
    fl=$(flags 3 $v) which="every launch (warm-up and one timed)" skip=""
    [ $v = aligned ] && which="the timed launch" skip="--launch-skip 1 --launch-count 1"
    echo "== Nsight Compute, jsweep_3 $fl, ${size//--size /}, $which" | log
    timeout 60 ncu $skip --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
      --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,gpu__time_duration.sum \
      "$clift" bench -t cuda --runs 1 $fl $size "$gen/jsweep_3.lift" 2>&1 | tee "$OUT/ncu_$v.txt" | log
  done
fi
