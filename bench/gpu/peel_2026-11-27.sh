#!/usr/bin/env bash
# peel_2026-11-27.sh — one device call for issue 12 item 10 (the peeled 3×3
# Jacobi sweep never slower than the unpeeled one): the peeled stencil's
# sections as loop nests of their own on the device targets (dpia/plan_nests.c;
# sm_90 SASS, 3×3 interior: 98 instructions per element before, 84 after,
# unpeeled 92), this tree against the base (main):
#   1. builds both (the base from a `git archive` tarball or folder carried in,
#      else `git archive main` where the checkout has git);
#   2. checks jsweep 3×3, 5×5, 9×9, unpeeled and --peel, on cuda against the
#      interpreter at 250×270, also with a small grid (--global-size 64,32:
#      several trips round every grid-stride loop), this build and the base;
#      compute-sanitizer memcheck on the new peeled 3×3;
#   3. times jsweep 3×3, 5×5, 9×9 at 4096², unpeeled and --peel, base and new,
#      ROUNDS rounds interleaved, `clift bench --runs RUNS` on cuda; prints the
#      median of each one's medians;
#   4. Nsight Compute on 3×3: instructions executed and duration, unpeeled
#      and peeled, base and new (the first timed launch).
# (Before the device cost rule of dpia/peel.c: --peel at 3×3 now emits the unpeeled
# kernel; --peel=all is the peeled one measured here.)
# Usage (device; carry .carry), after, here (BASE: main before this change, e.g. ea91691):
#   mkdir -p .carry && git archive --format=tar.gz -o .carry/base.tgz BASE
#   bash bench/gpu/peel_2026-11-27.sh .carry/base.tgz
# Without a GPU (the plumbing only: builds, programs, checks on opencl/PoCL):
#   NO_GPU=1 bash bench/gpu/peel_2026-11-27.sh
# Env: RUNS (default 20), ROUNDS (default 2), OUT (default /tmp/peel), JOBS (make -j, default nproc).
# Output: stdout and $OUT/output.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
base_src=${1:-}
RUNS=${RUNS:-20} ROUNDS=${ROUNDS:-2} NO_GPU=${NO_GPU:-0}
out=${OUT:-/tmp/peel}
mkdir -p "$out"
: >"$out/times.txt"
jobs=${JOBS:-$(nproc)}

main() {
  local t=cuda
  [ "$NO_GPU" != 0 ] && t=opencl
  if [ "$NO_GPU" = 0 ]; then nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; fi
  echo "this tree: $(git log --oneline -1 2>/dev/null || echo '(no git)')"
  base=$(mktemp -d /tmp/peel_base.XXXXXX)
  if [ -n "$base_src" ] && [ -d "$base_src" ]; then cp -r "$base_src"/. "$base"/
  elif [ -n "$base_src" ] && [ -f "$base_src" ]; then tar xzf "$base_src" -C "$base"
  elif git rev-parse -q --verify main >/dev/null 2>&1; then git archive main | tar x -C "$base"
  else echo "no base: give a git archive tarball or folder of main"; return 1; fi
  echo "base: $base_src; plan_nests.c (this change) in this tree: $([ -f src/dpia/plan_nests.c ] && echo yes || echo no), in the base: $([ -f "$base/src/dpia/plan_nests.c" ] && echo yes || echo no)"
  ( make -s -j"$jobs" >&2 ) & p1=$!
  ( make -s -C "$base" -j"$jobs" >&2 ) & p2=$!
  wait $p1 && wait $p2 || { echo "build failed"; return 1; }
  local new=build/clift old=$base/build/clift
  gen=$(mktemp -d)
  for k in 3 5 9; do   # bench/gpu/run.sh's jsweep_program
    h=$((k / 2))
    printf '(lift (N M) ((array-type (array-type float M) N))\n  (lambda (a)\n    (mapGlb1 (lambda (wrow)\n               (mapGlb (lambda (w) (reduceSeq 0.0f (lambda (acc x) (+ acc x)) (join w))) wrow))\n             (slide2D #%d #1 (pad2D #%d #%d a)))))\n' "$k" "$h" "$h" >"$gen/jsweep_$k.lift"
  done

  echo "== checks against the interpreter ($t, 250x270)"
  local bad=0
  for c in new old; do
    local cl=$new; [ $c = old ] && cl=$old
    for k in 3 5 9; do
      for fl in "" --peel; do
        for grid in "" "--local-size 16,8 --global-size 64,32"; do
          r=$("$cl" bench -t $t --check --tolerance 1e-3 --runs 1 --size N=250 --size M=270 $grid $fl "$gen/jsweep_$k.lift" 2>&1)
          rc=$?
          if [ $rc = 0 ] && grep -q "agrees" <<<"$r"; then echo "$c jsweep_$k ${fl:-unpeeled} ${grid:+small grid }: ok"
          else bad=1; echo "$c jsweep_$k ${fl:-unpeeled} $grid: FAILED (exit $rc): $(tail -n 3 <<<"$r")"; fi
        done
      done
    done
  done
  echo "checks: $([ $bad = 0 ] && echo all ok || echo SOME FAILED)"
  if [ "$NO_GPU" = 0 ] && command -v compute-sanitizer >/dev/null; then
    echo "== compute-sanitizer memcheck, new, jsweep_3 --peel, 250x270"
    timeout 90 compute-sanitizer --tool memcheck "$new" bench -t cuda --runs 1 --peel --size N=250 --size M=270 \
      "$gen/jsweep_3.lift" 2>&1 | grep -E "ERROR SUMMARY|median" | head -n 3
  fi

  local size="--size N=4096 --size M=4096"
  [ "$NO_GPU" != 0 ] && size="--size N=512 --size M=512"
  echo "== timings ($t, ms, ${size//--size /}): median of $ROUNDS rounds' medians of --runs $RUNS, interleaved"
  for r in $(seq "$ROUNDS"); do
    for k in 3 5 9; do
      for v in old-unpeeled new-unpeeled old-peel new-peel; do
        local cl=$new fl=""; [ "${v%%-*}" = old ] && cl=$old; [ "${v#*-}" = peel ] && fl=--peel
        m=$("$cl" bench -t $t --runs "$RUNS" $size $fl "$gen/jsweep_$k.lift" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
        echo "$k $v ${m:-NA}" >>"$out/times.txt"
        echo "round $r jsweep_$k $v: ${m:-NA}"
      done
    done
  done
  median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  printf "%-9s %12s %12s %12s %12s %10s %10s\n" stencil "base unpeel" "new unpeel" "base peel" "new peel" "new p/u" "peel n/b"
  for k in 3 5 9; do
    for v in old-unpeeled new-unpeeled old-peel new-peel; do
      eval "m_${v//-/_}=$(awk -v k=$k -v v=$v '$1 == k && $2 == v && $3 != "NA" {print $3}' "$out/times.txt" | median)"
    done
    printf "%-9s %12s %12s %12s %12s %10s %10s\n" "${k}x$k" "$m_old_unpeeled" "$m_new_unpeeled" "$m_old_peel" "$m_new_peel" \
      "$(awk -v a="$m_new_peel" -v b="$m_new_unpeeled" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }')" \
      "$(awk -v a="$m_new_peel" -v b="$m_old_peel" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }')"
  done

  if [ "$NO_GPU" = 0 ] && command -v ncu >/dev/null; then
    echo "== Nsight Compute, jsweep_3 at 4096² (the second launch: the first timed one)"
    for v in old-unpeeled new-unpeeled old-peel new-peel; do
      local cl=$new fl=""; [ "${v%%-*}" = old ] && cl=$old; [ "${v#*-}" = peel ] && fl=--peel
      echo "-- $v"
      timeout 60 ncu --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,gpu__time_duration.sum,launch__registers_per_thread \
        --launch-skip 1 --launch-count 1 "$cl" bench -t cuda --runs 1 $fl $size "$gen/jsweep_3.lift" 2>&1 |
        grep -E "inst_executed|duration|registers" | head -n 4
    done
  fi
  rm -rf "$base" "$gen"
}

main 2>&1 | tee "$out/output.txt"
