#!/usr/bin/env bash
# fcl_2027b.sh — issue 15's reduce and scan at 2^27 int32 on one GPU, before and
# after this branch's changes to the CUDA of FCL programs (docs/fcl.md §6.2): warp
# barriers (a block barrier whose every conflict is within a warp prints as
# __syncwarp()), fixed-size versions (each kernel's body also for its default block
# size: mapLcl loops as ifs and constant steps, a work-item's own elements in
# registers), and, opt-in, the next chunk's reads prefetched into L2
# (CLIFT_FCL_PREFETCH=1) or, in the fixed-size version, read into registers one chunk
# ahead (CLIFT_FCL_PREFETCH=reg), beside CUB in the same call. Goals: reduce (reduce.fcl's main, the thesis's
# reduceFull) <= 1.1x CUB DeviceReduce::Sum, scan (scan.fcl's main, three phases)
# <= 2.2x CUB DeviceScan::InclusiveSum.
#   modes, one build: before = CLIFT_FCL_NO_WARP=1 CLIFT_FCL_NO_VERSION=1 (the same
#           CUDA as main at adfbff5 prints for these programs, diffed when written);
#           warp = CLIFT_FCL_NO_VERSION=1 (warp barriers only); after = the default
#           (both); prefetch = CLIFT_FCL_PREFETCH=1; staged = CLIFT_FCL_PREFETCH=reg
#           (the L2 prefetch in the other version). Step 1 prints each kernel's
#           barriers in order (W warp, F work-group, P a prefetching loop, S staged
#           reads; of the fixed-size version where there is one, marked v).
# Steps (a step that would start past its deadline is skipped and says so; under 4
# minutes on one H100):
#   1. build (make -j16), the peers (nvcc, in the background), the inputs; the
#      barriers and prefetches of reduce's and scan's kernels at 2^27, each mode;
#   2. checks: reduce and scan at 2^27 on cuda against NumPy (bench/gpu/fcl_check.py,
#      the same inputs), after and staged; at 2^20 warp (the block-stride loops
#      with warp barriers at 256 work-items), prefetch, and staged with --local-size 64
#      (two warps a block: the warp barriers with work-items striding over the
#      block) and --local-size 100 (no whole warps: clift_syncwarp falls back to
#      __syncthreads); tests/fcl/compiled/warp.fcl's test block against the
#      interpreter (clift test -t cuda);                           deadline 110 s
#   3. clift bench -t cuda --runs 100, the five modes in turn, twice;          170 s
#   4. the peers: bench/gpu/fcl_peers.cu 2027rs (CUB reduce and scan, copies);
#      the ratios and goals;                                                   200 s
#   5. compute-sanitizer racecheck, memcheck and synccheck (staged) on reduce and scan
#      at 2^16 (default, --local-size 64 and 100) and warp.fcl, one process per tool
#      (clift run --batch); each run on its own when a tool reports anything.  210 s
# Output: stdout, tee'd to $OUT/output.txt; a sanitizer's first report lines in
# $OUT/sanitizer_TOOL.txt. Usage (device): bash bench/gpu/fcl_2027b.sh
# SMALL=1 T=opencl: 2^16 elements (2^12 for the 2^20 checks) on another target, no peers
# or sanitizer (a smoke test of the script without a GPU; the modes differ on cuda only);
# PEERS_FILE=FILE takes the peers' lines from FILE (to try the ratios).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/fcl_out}
mkdir -p "$OUT"
export CLIFT_FCL_FAST=1   # (the default since stop 27, which also prefetches: the modes say CLIFT_FCL_PREFETCH=0 where they did not)
W=$(mktemp -d)
C=build/clift
T=${T:-cuda}
if [ "${SMALL:-0}" = 1 ]; then N=65536 M=4096; else N=134217728 M=1048576; fi

# the environment of each mode
modeenv() {
  case $1 in
    before) echo CLIFT_FCL_NO_WARP=1 CLIFT_FCL_NO_VERSION=1 CLIFT_FCL_PREFETCH=0 ;;
    warp) echo CLIFT_FCL_NO_VERSION=1 CLIFT_FCL_PREFETCH=0 ;;
    after) echo CLIFT_FCL_PREFETCH=0 ;;
    prefetch) echo CLIFT_FCL_PREFETCH=1 ;;
    staged) echo CLIFT_FCL_PREFETCH=reg ;;
  esac
}

# k0…: each kernel's barriers in order, W a warp's, F the work-group's
barriers() {
  awk '/__global__/ { if (k) printf "%s %s  ", k, (s ? s : "-"); k = $5; sub(/\(.*/, "", k); s = ""; other = 0 }
       /the default block size: fixed-size loops/ { s = "v " } /\} else \{   \/\* any other/ { other = 1 }
       !other && /^ *(clift_syncwarp|__syncwarp)\(\);/ { s = s "W" } !other && /^ *__syncthreads\(\);/ { s = s "F" }
       !other && /clift_prefetch\(&/ { s = s "P" } !other && /_stage[0-9]+\[[^]]*\] = in/ { s = s "S" }
       END { if (k) printf "%s %s", k, (s ? s : "-"); print "" }' "$1"
}

main() {
  date -u
  git log -1 --format='commit %h %s' 2>/dev/null | cut -c1-100
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  [ "${SMALL:-0}" = 1 ] || ( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1; echo $? > "$W/nvcc.rc" ) &
  make -s -j16 >&2 || { echo "build failed"; return 1; }
  npy() { python3 tests/fcl/npy.py "$@"; }
  npy $N "$W/n.npy" 8 raw
  npy $M "$W/m.npy" 9 raw
  npy 65536 "$W/s.npy" 11 raw
  echo "== 1. built, inputs ready at ${SECONDS} s; each kernel at N = $N: W warp barrier, F work-group's, P prefetch, S staged read (v: the fixed-size version)"
  for p in reduce scan; do
    for mode in before warp after prefetch staged; do
      env $(modeenv $mode) timeout 60 $C compile -t cuda --print examples/fcl/$p.fcl "$W/n.npy" > "$W/$mode.cu" 2>&1
      printf '%s %-8s %s\n' $p $mode: "$(barriers "$W/$mode.cu")"
    done
  done

  echo "== 2. checks against bench/gpu/fcl_check.py (NumPy)"
  for c in "reduce|$W/n.npy||after" "scan|$W/n.npy||after" "reduce|$W/n.npy||staged" "scan|$W/n.npy||staged" \
           "reduce|$W/m.npy||warp" "scan|$W/m.npy||warp" "reduce|$W/m.npy||prefetch" "scan|$W/m.npy||prefetch" \
           "reduce|$W/m.npy|64|staged" "scan|$W/m.npy|64|staged" "reduce|$W/m.npy|100|staged" "scan|$W/m.npy|100|staged"; do
    IFS='|' read -r name in ls mode <<<"$c"
    what="$name $mode -t $T $( [ "$in" = "$W/n.npy" ] && echo $N || echo $M )${ls:+ --local-size $ls}"
    [ $SECONDS -lt 110 ] || { echo "check $what: skipped (past 110 s)"; continue; }
    rm -f "$W/got.npy"
    if env $(modeenv $mode) timeout 90 $C run -t $T ${ls:+--local-size $ls} -o "$W/got.npy" examples/fcl/$name.fcl "$in" > "$W/run.out" 2>&1; then
      echo "check $what: $(python3 bench/gpu/fcl_check.py $name "$W/got.npy" "$in" 2>&1 | head -c 200)"
    else echo "check $what: FAILED: $(head -c 300 "$W/run.out")"; fi
  done
  if [ $SECONDS -lt 110 ]; then
    timeout 60 $C test -t $T tests/fcl/compiled/warp.fcl > "$W/t.out" 2>&1
    echo "clift test -t $T warp.fcl: exit $?: $(tail -n 1 "$W/t.out" | head -c 200)"
  else echo "clift test warp.fcl: skipped (past 110 s)"; fi

  echo "== 3. clift bench -t $T --runs 100: median ms of all the program's kernels"
  for round in 1 2; do
    for p in reduce scan; do
      for mode in before warp after prefetch staged; do
        [ $SECONDS -lt 170 ] || { echo "$p $mode: skipped (past 170 s)"; continue; }
        env $(modeenv $mode) timeout 60 $C bench -t $T --runs 100 examples/fcl/$p.fcl "$W/n.npy" > "$W/b.out" 2>&1
        m=$(sed -nE 's/.*median ([0-9.]+) ms.*/\1/p' "$W/b.out")
        if [ -n "$m" ]; then echo "$p $mode $m" >> "$W/clift.txt"; echo "round $round: $p $mode $m ms"
        else echo "round $round: $p $mode FAILED: $(head -c 200 "$W/b.out")"; fi
      done
    done
  done

  echo "== 4. peers (bench/gpu/fcl_peers.cu 2027rs) and the goals"
  wait
  if [ -n "${PEERS_FILE:-}" ]; then grep -E "^peer|fcl_peers:" "$PEERS_FILE" | tee "$W/peers.txt"   # to try the ratios
  elif [ "${SMALL:-0}" = 1 ]; then echo "peers: none (SMALL=1)"
  elif [ "$(cat "$W/nvcc.rc" 2>/dev/null)" != 0 ]; then echo "fcl_peers did not build:"; tail -n 5 "$W/nvcc.log"
  elif [ $SECONDS -ge 200 ]; then echo "peers: skipped (past 200 s)"
  else timeout 60 "$W/fcl_peers" 2027rs > "$W/peers.txt" 2>&1; grep -E "^peer|fcl_peers:" "$W/peers.txt"; fi
  peer() { awk -v n="$1" '$1 == "peer" && $2 == n { print $4 }' "$W/peers.txt" 2>/dev/null | head -n 1; }
  best() { awk -v p="$1" -v m="$2" '$1 == p && $2 == m { if (b == "" || $3 < b) b = $3 } END { print b }' "$W/clift.txt" 2>/dev/null; }
  for g in "reduce|$(peer reduce)|CUB DeviceReduce::Sum|1.1" "scan|$(peer scan)|CUB DeviceScan::InclusiveSum|2.2"; do
    IFS='|' read -r p cub cname limit <<<"$g"
    if [ -z "$cub" ]; then echo "$p: no $cname time"; continue; fi
    echo "$p against $cname $cub ms (best of the rounds; goal <= ${limit}x):"
    for mode in before warp after prefetch staged; do
      m=$(best $p $mode)
      [ -n "$m" ] || { echo "  $mode: no time"; continue; }
      awk -v mode=$mode -v m="$m" -v c="$cub" -v b="$(best $p before)" -v l="$limit" 'BEGIN {
        printf "  %-8s %.4f ms  %.2fx CUB  %s  (%.3f of before)\n", mode, m, m / c, (m / c <= l ? "met" : "MISSED"), (b != "" ? m / b : 0) }'
    done
  done

  echo "== 5. compute-sanitizer (staged: all of the branch's code; 2^16, warp.fcl's test input)"
  if [ "$T" != cuda ]; then echo "sanitizer: cuda only"; return 0; fi
  if ! command -v compute-sanitizer > /dev/null; then echo "sanitizer: compute-sanitizer not found: skipped"; return 0; fi
  warp_in=$(sed -n 's/^-- input: //p' tests/fcl/compiled/warp.fcl | head -n 1)
  : > "$W/san.batch"
  for r in "examples/fcl/reduce.fcl" "examples/fcl/scan.fcl" "--local-size	64	examples/fcl/reduce.fcl" "--local-size	64	examples/fcl/scan.fcl" \
           "--local-size	100	examples/fcl/reduce.fcl" "--local-size	100	examples/fcl/scan.fcl"; do
    printf -- '-t\tcuda\t%s\t%s\n' "$r" "$W/s.npy" >> "$W/san.batch"
  done
  printf -- '-t\tcuda\ttests/fcl/compiled/warp.fcl\t%s\n' "$warp_in" >> "$W/san.batch"
  runs=$(wc -l < "$W/san.batch")
  for tool in racecheck memcheck synccheck; do
    [ $SECONDS -lt 210 ] || { echo "sanitizer $tool: skipped (past 210 s)"; continue; }
    CLIFT_FCL_PREFETCH=reg timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 $C run --batch "$W/san.batch" > "$W/san.out" 2> "$W/san.err"
    rc=$?
    summary=$(grep -hE "(ERROR|RACECHECK|SYNCCHECK) SUMMARY" "$W/san.out" "$W/san.err" | head -n 1)
    echo "sanitizer $tool: exit $rc, $(grep -cE '^[0-9]+ 0$' "$W/san.out") of $runs runs ok: ${summary:-$(head -c 200 "$W/san.err")}"
    if [ $rc -ne 0 ] || ! grep -qE "SUMMARY: 0 (errors|hazards)" <<<"$summary"; then
      grep -hE "^=+ " "$W/san.out" "$W/san.err" | head -n 40 > "$OUT/sanitizer_$tool.txt"
      while IFS= read -r line; do
        [ $SECONDS -lt 225 ] || { echo "sanitizer $tool per run: skipped (past 225 s)"; break; }
        IFS=$'\t' read -r -a args <<<"$line"
        CLIFT_FCL_PREFETCH=reg timeout 15 compute-sanitizer --tool $tool --error-exitcode 9 $C run "${args[@]}" > "$W/san1.out" 2>&1 < /dev/null
        echo "  $tool ${args[@]:2:3}: exit $?: $(grep -hE "SUMMARY" "$W/san1.out" | head -n 1)"
      done < "$W/san.batch"
    fi
  done
  echo "done at ${SECONDS} s"
}

main 2>&1 | tee -a "$OUT/output.txt"
rm -rf "$W"
