#!/usr/bin/env bash
# fcl_2027c.sh — issue 15's reduce (examples/fcl/reduce.fcl's main, the thesis's
# reduceFull) at 2^27 int32 on one GPU with branch fclred's opt-ins for the chunk
# kernels (docs/fcl.md §6.2), beside CUB in the same call; scan (scan.fcl) timed in
# the same modes, so that none makes it worse. Goals: reduce <= 1.1x CUB
# DeviceReduce::Sum (1.24x with the defaults, 1.16x staged, 2026-11-27e), scan <=
# 2.2x CUB DeviceScan::InclusiveSum (2.15x).
#   Why the reduce was slower (measured 2026-11-27e, reasoned here): its first
#   kernel has 262144 chunks of 512 and the launch policy gives it 65536 blocks, 4
#   chunks each, so the staged or prefetched read of the next chunk covers only 3
#   of each block's 4 (the first chunk's reads are in flight alone); and each chunk
#   of 2 elements a work-item pays 9 barriers, the tests of 8 `if (threadIdx.x <
#   n)` steps in all 8 warps and the loop's own work (about 400 warp instructions
#   a chunk by the CUDA, against about 10 chunks an SM a microsecond at CUB's
#   bandwidth: half the SM's issue rate).
#   Modes (environment of the clift that generates the code, one build):
#     default  no switch set (since stop 28: b4's; MODES=, SCAN_MODES= pick modes)
#     after    stop 27's defaults (warp barriers, fixed-size versions, L2 prefetch)
#     staged   CLIFT_FCL_PREFETCH=reg (the next chunk read into registers)
#     grid     CLIFT_FCL_GRID=1: a chunk kernel's blocks capped at one device-full
#              (SMs x the blocks one SM keeps resident, cuOccupancy…), so each
#              block runs ~250 chunks and the prefetch covers all but the first
#     gstaged  grid + staged
#     gboth    grid + CLIFT_FCL_PREFETCH=both (registers one chunk ahead, and
#              L2 the chunk after next)
#     b2, b4, b8  gstaged + CLIFT_FCL_BATCH=2, 4, 8 (dpia/batch.c: k chunks a block
#              iteration in local arrays of their own, the barriers shared: 2k
#              reads a work-item in flight, the barriers and tests paid once)
#     b4both   b4 with both; b4l2: b4 with the L2 prefetch only;
#     b4nogrid b4 without the grid cap (what the batching alone does)
# Steps (a step that would start past its deadline is skipped and says so; under 4
# minutes on one H100):
#   1. build (make -j16), the peers (nvcc, in the background), the inputs; each
#      mode's kernels of reduce at 2^27 (W warp barrier, F work-group's, P prefetch,
#      S staged read; v: the fixed-size version) and its work-group loops' bounds;
#   2. checks against bench/gpu/fcl_check.py (NumPy): reduce in every mode at 2^27
#      and 2^20, scan in its modes at 2^20 and in gstaged and b4 at 2^27; reduce
#      and scan in b3both (3 does not divide the chunks: the last batch's guards)
#      at 2^20 + 1000, also with --local-size 64 and 100 (the other version);  110 s
#   3. clift bench -t cuda --runs 100: reduce in every mode, scan in eight, twice;
#      then reduce at 2^18 (a chunk kernel of 512 chunks and one of 1: about what
#      the second and third kernels cost at 2^27) in after and b4;            185 s
#   4. the peers: bench/gpu/fcl_peers.cu 2027rs (CUB reduce and scan, copies);
#      the ratios and goals;                                                   195 s
#   5. compute-sanitizer racecheck and synccheck on reduce and scan at 2^16 and
#      2^16 + 1000, default, --local-size 64 and 100, in b4both, b3both and
#      gstaged, and memcheck in b3both (the last batch's tests; one process per
#      tool and mode, clift run --batch).                                     212 s
# Output: stdout, tee'd to $OUT/output.txt; a sanitizer's first report lines in
# $OUT/sanitizer_TOOL_MODE.txt. Usage (device): bash bench/gpu/fcl_2027c.sh
# SMALL=1 T=opencl: 2^16 elements (2^12 for the 2^20 checks) on another target, no peers
# or sanitizer (a smoke test of the script without a GPU; the grid cap and the
# prefetches are cuda's, the batching is every device target's);
# PEERS_FILE=FILE takes the peers' lines from FILE (to try the ratios).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/fcl_out}
mkdir -p "$OUT"
W=$(mktemp -d)
C=build/clift
T=${T:-cuda}
if [ "${SMALL:-0}" = 1 ]; then N=65536 M=4096 O=5096; else N=134217728 M=1048576 O=1049576; fi
MODES=${MODES:-"after staged grid gstaged gboth b2 b4 b8 b4both b4l2 b4nogrid"}
SCAN_MODES=${SCAN_MODES:-"after staged grid gstaged b2 b4 b4both b4l2"}
modes() { if [ "$1" = scan ]; then echo $SCAN_MODES; else echo $MODES; fi; }

# the environment of each mode: every switch set (since stop 28 the defaults are
# b4's: GRID=1 PREFETCH=reg BATCH=4), `default` none
modeenv() {
  [ "$1" = default ] || echo CLIFT_FCL_BATCH=0 CLIFT_FCL_GRID=0
  case $1 in
    after) echo CLIFT_FCL_PREFETCH=1 ;;
    staged) echo CLIFT_FCL_PREFETCH=reg ;;
    grid) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=1 ;;
    gstaged) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=reg ;;
    gboth) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=both ;;
    b2) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=reg CLIFT_FCL_BATCH=2 ;;
    b4) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=reg CLIFT_FCL_BATCH=4 ;;
    b8) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=reg CLIFT_FCL_BATCH=8 ;;
    b4both) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=both CLIFT_FCL_BATCH=4 ;;
    b4l2) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=1 CLIFT_FCL_BATCH=4 ;;
    b4nogrid) echo CLIFT_FCL_PREFETCH=reg CLIFT_FCL_BATCH=4 ;;
    b3both) echo CLIFT_FCL_GRID=1 CLIFT_FCL_PREFETCH=both CLIFT_FCL_BATCH=3 ;;
  esac
}

# k0…: each kernel's barriers in order, W a warp's, F the work-group's (fcl_2027b.sh's)
barriers() {
  awk '/__global__/ { if (k) printf "%s %s  ", k, (s ? s : "-"); k = $5; sub(/\(.*/, "", k); s = ""; other = 0 }
       /the default block size: fixed-size loops/ { s = "v " } /\} else \{   \/\* any other/ { other = 1 }
       !other && /^ *(clift_syncwarp|__syncwarp)\(\);/ { s = s "W" } !other && /^ *__syncthreads\(\);/ { s = s "F" }
       !other && /clift_prefetch\(&/ { s = s "P" } !other && /_stage[0-9]+\[[^]]*\] = in/ { s = s "S" }
       END { if (k) printf "%s %s", k, (s ? s : "-"); print "" }' "$1"
}
# the work-group loops' bounds in order (a batched loop's is the chunks / k)
wgloops() { grep -oE 'for \(clift_index wid[0-9_b]+ = blockIdx.x; wid[0-9_b]+ < [0-9]+' "$1" | awk '{ printf "%s ", $NF }'; }

main() {
  date -u
  git log -1 --format='commit %h %s' 2>/dev/null | cut -c1-100
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  [ "${SMALL:-0}" = 1 ] || ( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1; echo $? > "$W/nvcc.rc" ) &
  make -s -j16 >&2 || { echo "build failed"; return 1; }
  npy() { python3 tests/fcl/npy.py "$@"; }
  npy $N "$W/n.npy" 8 raw
  npy $M "$W/m.npy" 9 raw
  npy $O "$W/o.npy" 10 raw
  npy 65536 "$W/s.npy" 11 raw
  npy 66536 "$W/t.npy" 12 raw
  npy 262144 "$W/q.npy" 13 raw
  echo "== 1. built, inputs ready at ${SECONDS} s; reduce's kernels at N = $N: W warp barrier, F work-group's, P prefetch, S staged read (v: the fixed-size version); its work-group loops' bounds"
  for mode in $MODES; do
    env $(modeenv $mode) timeout 60 $C compile -t cuda --print examples/fcl/reduce.fcl "$W/n.npy" > "$W/$mode.cu" 2>&1
    printf 'reduce %-9s %s  [%s]\n' $mode: "$(barriers "$W/$mode.cu")" "$(wgloops "$W/$mode.cu")"
  done

  echo "== 2. checks against bench/gpu/fcl_check.py (NumPy)"
  checks=""
  for mode in $MODES; do checks="$checks reduce|n||$mode reduce|m||$mode"; done
  for mode in $SCAN_MODES; do checks="$checks scan|m||$mode"; done
  checks="$checks scan|n||gstaged scan|n||b4 reduce|o||b3both scan|o||b3both reduce|o|64|b3both scan|o|64|b3both reduce|o|100|b3both scan|o|100|b3both reduce|o|64|b4both scan|o|100|b4both"
  for c in $checks; do
    IFS='|' read -r name size ls mode <<<"$c"
    in="$W/$size.npy"
    what="$name $mode -t $T $(case $size in n) echo $N ;; m) echo $M ;; o) echo $O ;; esac)${ls:+ --local-size $ls}"
    [ $SECONDS -lt 110 ] || { echo "check $what: skipped (past 110 s)"; continue; }
    rm -f "$W/got.npy"
    if env $(modeenv $mode) timeout 90 $C run -t $T ${ls:+--local-size $ls} -o "$W/got.npy" examples/fcl/$name.fcl "$in" > "$W/run.out" 2>&1; then
      echo "check $what: $(python3 bench/gpu/fcl_check.py $name "$W/got.npy" "$in" 2>&1 | head -c 200)"
    else echo "check $what: FAILED: $(head -c 300 "$W/run.out")"; fi
  done

  echo "== 3. clift bench -t $T --runs 100: median ms of all the program's kernels"
  for round in 1 2; do
    for p in reduce scan; do
      for mode in $(modes $p); do
        [ $SECONDS -lt 185 ] || { echo "round $round: $p $mode: skipped (past 185 s)"; continue; }
        env $(modeenv $mode) timeout 60 $C bench -t $T --runs 100 examples/fcl/$p.fcl "$W/n.npy" > "$W/b.out" 2>&1
        m=$(sed -nE 's/.*median ([0-9.]+) ms.*/\1/p' "$W/b.out")
        if [ -n "$m" ]; then echo "$p $mode $m" >> "$W/clift.txt"; echo "round $round: $p $mode $m ms"
        else echo "round $round: $p $mode FAILED: $(head -c 200 "$W/b.out")"; fi
      done
    done
  done

  for mode in after b4; do
    [ $SECONDS -lt 185 ] || { echo "reduce at 2^18 $mode: skipped (past 185 s)"; continue; }
    env $(modeenv $mode) timeout 60 $C bench -t $T --runs 100 examples/fcl/reduce.fcl "$W/q.npy" > "$W/b.out" 2>&1
    echo "reduce at 2^18 (two kernels: 512 chunks, then 1) $mode: $(sed -nE 's/.*median ([0-9.]+) ms.*/\1 ms/p' "$W/b.out")"
  done

  echo "== 4. peers (bench/gpu/fcl_peers.cu 2027rs) and the goals"
  wait
  if [ -n "${PEERS_FILE:-}" ]; then grep -E "^peer|fcl_peers:" "$PEERS_FILE" | tee "$W/peers.txt"   # to try the ratios
  elif [ "${SMALL:-0}" = 1 ]; then echo "peers: none (SMALL=1)"
  elif [ "$(cat "$W/nvcc.rc" 2>/dev/null)" != 0 ]; then echo "fcl_peers did not build:"; tail -n 5 "$W/nvcc.log"
  elif [ $SECONDS -ge 195 ]; then echo "peers: skipped (past 195 s)"
  else timeout 60 "$W/fcl_peers" 2027rs > "$W/peers.txt" 2>&1; grep -E "^peer|fcl_peers:" "$W/peers.txt"; fi
  peer() { awk -v n="$1" '$1 == "peer" && $2 == n { print $4 }' "$W/peers.txt" 2>/dev/null | head -n 1; }
  best() { awk -v p="$1" -v m="$2" '$1 == p && $2 == m { if (b == "" || $3 < b) b = $3 } END { print b }' "$W/clift.txt" 2>/dev/null; }
  for g in "reduce|$(peer reduce)|CUB DeviceReduce::Sum|1.1" "scan|$(peer scan)|CUB DeviceScan::InclusiveSum|2.2"; do
    IFS='|' read -r p cub cname limit <<<"$g"
    if [ -z "$cub" ]; then echo "$p: no $cname time"; continue; fi
    echo "$p against $cname $cub ms (best of the rounds; goal <= ${limit}x):"
    for mode in $(modes $p); do
      m=$(best $p $mode)
      [ -n "$m" ] || { echo "  $mode: no time"; continue; }
      awk -v mode=$mode -v m="$m" -v c="$cub" -v b="$(best $p after)" -v l="$limit" 'BEGIN {
        printf "  %-9s %.4f ms  %.2fx CUB  %s  (%.3f of after)\n", mode, m, m / c, (m / c <= l ? "met" : "MISSED"), (b != "" ? m / b : 0) }'
    done
  done
  echo "== 5. compute-sanitizer racecheck and synccheck, memcheck in b3both (2^16 and 2^16 + 1000; default, --local-size 64 and 100)"
  if [ "$T" != cuda ]; then echo "sanitizer: cuda only"
  elif ! command -v compute-sanitizer > /dev/null; then echo "sanitizer: compute-sanitizer not found: skipped"
  else
    : > "$W/san.batch"
    for p in reduce scan; do
      for r in "" "--local-size	64	" "--local-size	100	"; do
        printf -- '-t\tcuda\t%sexamples/fcl/%s.fcl\t%s\n' "$r" $p "$W/s.npy" >> "$W/san.batch"
      done
      printf -- '-t\tcuda\texamples/fcl/%s.fcl\t%s\n' $p "$W/t.npy" >> "$W/san.batch"
    done
    runs=$(wc -l < "$W/san.batch")
    for mode in b4both b3both gstaged; do
      for tool in racecheck synccheck $([ $mode = b3both ] && echo memcheck); do
        [ $SECONDS -lt 212 ] || { echo "sanitizer $tool $mode: skipped (past 212 s)"; continue; }
        env $(modeenv $mode) timeout 25 compute-sanitizer --tool $tool --error-exitcode 9 $C run --batch "$W/san.batch" > "$W/san.out" 2> "$W/san.err"
        rc=$?
        summary=$(grep -hE "(ERROR|RACECHECK|SYNCCHECK) SUMMARY" "$W/san.out" "$W/san.err" | head -n 1)
        echo "sanitizer $tool $mode: exit $rc, $(grep -cE '^[0-9]+ 0$' "$W/san.out") of $runs runs ok: ${summary:-$(head -c 200 "$W/san.err")}"
        if [ $rc -ne 0 ] || ! grep -qE "SUMMARY: 0 (errors|hazards)" <<<"$summary"; then
          grep -hE "^=+ " "$W/san.out" "$W/san.err" | head -n 40 > "$OUT/sanitizer_${tool}_$mode.txt"
        fi
      done
    done
  fi

  echo "done at ${SECONDS} s"
}

main 2>&1 | tee -a "$OUT/output.txt"
rm -rf "$W"
