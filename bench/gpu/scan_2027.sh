#!/usr/bin/env bash
# scan_2027.sh — issue 11 item 10: the one-pass filter and scan on cuda toward
# CUB (≤ 1.1× at 2^27). One device call on one H100, under 5 minutes. One build:
# the variants are dpia/lookback.c's switches, read from the environment of the
# clift that generates the code (lookback.c's comment lists them):
#   base     CLIFT_LB_LOOPS=0: the pinned work-group's loops printed as blocks
#            (73f6a3f to 68d126a's default; never timed: NVRTC 13.0 gives its pass
#            110 registers (filter) and 99 (scan) here, 2 groups a multiprocessor);
#   loops    CLIFT_LB_LOOPS=1, the default since 68d126a: the pass's loops strided,
#            byte for byte the k1 of cde41c4 (0.511 / 0.424 / 0.569 ms on
#            2026-11-27; 40 registers);
#   lt       loops + CLIFT_LB_TOTALS=1: every work-item adds the warps' totals
#            before its own, 6 barriers a tile instead of 8;
#   ltm      lt + CLIFT_LB_MASK=1: the filter's kept elements as bits of a
#            register, its compaction reads only those (the scan is lt's;
#            the filter 47 registers);
#   ltmb     ltm + CLIFT_LB_BLOCK_TILE=1: the tile is the block's index, no
#            atomic counter before the loads (as CUB; relies on blocks starting
#            in index order);
#   g128x24  ltm with groups of 128 × 24 elements (CUB's sm_90 scan tuning for
#            4-byte values: tiles of 3072; 48 registers);
#   g128x30  ltm with groups of 128 × 30 (tiles of 3840, as now; 56 registers);
#   ltm6     ltm + CLIFT_LB_MIN_BLOCKS=6: __launch_bounds__(256, 6), which holds
#            the filter at 40 registers (ltm's mask takes it to 47: 5 groups a
#            multiprocessor instead of 6);
#   ltmd     ltm + CLIFT_LB_DIRECT=256: a tile keeping at most 256 elements (the
#            1% filter's ~38) has every work-item write its kept ones straight
#            out, no second local tile, no barrier before the copy (as CUB's
#            select does up to a block's size of them); 40 registers;
#   ltmw     ltm6 + CLIFT_LB_WAIT=1140 CLIFT_LB_RETRY=688: the look-back's warp
#            sleeps 1140 ns after publishing the aggregate and 688 ns before
#            reading a word again that was not yet published, instead of
#            spinning (CUB's delays for sm_90 float sums; from 500 tiles);
#            40 registers with ltm6's bounds (43 / 48 without);
#   all      ltmw + CLIFT_LB_DIRECT=256 (every switch at groups of 256 but the
#            block tiles).
# EXTRA="name:CLIFT_LB_X=v,CLIFT_LB_Y=w …" adds variants (checked and timed as these).
# (Registers: NVRTC of CUDA 13.0 here, k1 with 32-bit indices; step 0 prints the
# device's.) Loops, the mask and the group's size change opencl's code too
# (checked on PoCL); the totals, block tiles and launch bounds are cuda's only.
# Steps:
#   0. builds clift; CUB's peers (bench/gpu/peers.cu) in the background; each
#      variant's k1 (32-bit indices, as the runtime compiles it) through NVRTC
#      (bench/gpu/nvrtc_cubin.c, cubin_regs.py): its registers; through nvcc
#      -Xptxas -v: its spills;
#   1. every variant on cuda against the interpreter: filter, filter_1pct and
#      scan_int (exact) at 3·10^6, its tile ± 1, 1 and 262144, the float scan
#      at 262144 (tolerance 5e-2: its sums drift with the order); 10 at a time,
#      sizes outer; those not started 150 s into the call are skipped;
#   2. compute-sanitizer racecheck at 65537 elements: ltm's filter and scan_int,
#      ltmd's 1% filter (its tiles take the direct writes), ltmb's scan_int,
#      g128x24's filter;
#   3. times every variant whose checks passed at 2^27 (clift bench --runs 20,
#      the median), filter, filter_1pct, scan; then CUB; the ratios to CUB;
#   4. in the time left (to 250 s), Nsight Compute on the filter's pass of base
#      and of the fastest variant (2^24): registers, occupancy, stalls.
# Usage (device run from the repository root, nothing to carry; the build there
# is make -j16): bash bench/gpu/scan_2027.sh — it tees its output into
# $OUT/output.txt itself; the build log, the checks' lines and ptxas's go to $OUT.
# CHECK_SECONDS (default 150): when the checks stop starting. BIG and RUNS
# (defaults 134217728, 20) change the timed size and runs; VARIANTS a subset
# (names above).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/scan_out}
mkdir -p "$OUT"
if [ -z "${SCAN_2027_TEED:-}" ]; then   # everything also into $OUT/output.txt
  SCAN_2027_TEED=1 bash "$0" "$@" 2>&1 | tee "$OUT/output.txt"
  exit "${PIPESTATUS[0]}"
fi
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }
stamp() { echo "   [$(elapsed) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
TARGET=${TARGET:-cuda}   # a trial without a GPU: TARGET=opencl (PoCL) NO_PEERS=1 BIG=… RUNS=…
W=/tmp/scan_2027 && rm -rf $W && mkdir -p $W
( [ -n "${NO_PEERS:-}" ] && exit; $NVCC -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o $W/peers >$W/nvcc.log 2>&1; echo $? >$W/nvcc.rc ) &
nvcc_pid=$!
make -s -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -n 20 "$OUT/build.log"; exit 1; }

# Since stop 27 the default is `all`: every variant starts from $OFF (the switches
# off) so that the names keep their meaning; `default` sets nothing.
OFF="CLIFT_LB_TOTALS=0 CLIFT_LB_MASK=0 CLIFT_LB_MIN_BLOCKS=0 CLIFT_LB_DIRECT=0 CLIFT_LB_WAIT=0 CLIFT_LB_RETRY=0"
declare -A env=(
  [default]=""
  [base]="$OFF CLIFT_LB_LOOPS=0"
  [loops]="$OFF CLIFT_LB_LOOPS=1"
  [lt]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1"
  [ltm]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1"
  [ltmb]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1 CLIFT_LB_BLOCK_TILE=1"
  [g128x24]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1 CLIFT_LB_GROUP=128 CLIFT_LB_ITEMS=24"
  [g128x30]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1 CLIFT_LB_GROUP=128 CLIFT_LB_ITEMS=30"
  [ltm6]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1 CLIFT_LB_MIN_BLOCKS=6"
  [ltmd]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1 CLIFT_LB_DIRECT=256"
  [ltmw]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1 CLIFT_LB_MIN_BLOCKS=6 CLIFT_LB_WAIT=1140 CLIFT_LB_RETRY=688"
  [all]="$OFF CLIFT_LB_LOOPS=1 CLIFT_LB_TOTALS=1 CLIFT_LB_MASK=1 CLIFT_LB_MIN_BLOCKS=6 CLIFT_LB_WAIT=1140 CLIFT_LB_RETRY=688 CLIFT_LB_DIRECT=256")
VARIANTS=${VARIANTS:-base loops lt ltm ltm6 ltmd ltmw all ltmb g128x24 g128x30}
for x in ${EXTRA:-}; do env[${x%%:*}]=$(echo "${x#*:}" | tr ',' ' '); VARIANTS="$VARIANTS ${x%%:*}"; done
tile() {   # VARIANT: its tile, CLIFT_LB_GROUP × CLIFT_LB_ITEMS
  local g=256 i=15 kv
  for kv in ${env[$1]}; do case $kv in CLIFT_LB_GROUP=*) g=${kv#*=} ;; CLIFT_LB_ITEMS=*) i=${kv#*=} ;; esac; done
  echo $((g * i)); }
# cl VARIANT ARGS…: build/clift under the variant's switches
cl() { local v=$1; shift; env ${env[$v]} build/clift "$@"; }

echo "== 0. k1's registers: NVRTC sm_90 as the runtime compiles it (32-bit indices), and nvcc's ptxas spills"
CUDA_LIB=$(dirname "$NVCC")/../lib64
cc -O1 bench/gpu/nvrtc_cubin.c -I"$(dirname "$NVCC")/../include" -L"$CUDA_LIB" -lnvrtc -o $W/nvrtc_cubin >$W/nvrtc_cubin.log 2>&1 ||
  echo "nvrtc_cubin.c did not build: $(tail -n 1 $W/nvrtc_cubin.log)"
pids=""
for v in $VARIANTS; do
  for p in filter scan; do
    ( { echo "#define CLIFT_INDEX int"; cl $v compile -t cuda --print bench/gpu/$p.lift; } >$W/$v-$p.cu &&
      { LD_LIBRARY_PATH="$CUDA_LIB:${LD_LIBRARY_PATH:-}" $W/nvrtc_cubin $W/$v-$p.cu $W/$v-$p.rtc.cubin >/dev/null 2>&1 || true; } &&
      $NVCC -arch=sm_90 -std=c++17 -cubin -Xptxas -v -o $W/$v-$p.cubin $W/$v-$p.cu >$W/$v-$p.ptxas 2>&1 ) &
    pids="$pids $!"
  done
done
wait $pids   # not the peers' build
for v in $VARIANTS; do
  line="$v:"
  for p in filter scan; do
    r=$(python3 bench/gpu/cubin_regs.py $W/$v-$p.rtc.cubin k1 2>/dev/null)
    used=$(grep -A3 "'k1'" $W/$v-$p.ptxas 2>/dev/null | sed -nE 's/.*Used ([0-9]+) registers.*/\1/p')
    spill=$(grep -A3 "'k1'" $W/$v-$p.ptxas 2>/dev/null | sed -nE 's/.* ([0-9]+) bytes spill stores.*/\1/p')
    line="$line $p ${r:-?} regs (nvcc ${used:-?}, ${spill:-?} B spilled)"
  done
  echo "$line"
done
cat $W/*-*.ptxas >"$OUT/ptxas.log" 2>/dev/null
echo "== 0. done$(stamp)"

echo "== 1. checks against the interpreter ($TARGET)"
jobs_file=$W/checks.txt && : >$jobs_file
# sizes outer, so that every variant has its first checks early; past the
# deadline (150 s into the call) the rest are skipped, not failed, and the
# timings still run
for n in 3000000 TILE-1 1 TILE+1 262144; do
  for p in filter filter_1pct scan_int; do
    for v in $VARIANTS; do
      t=$(tile $v)
      echo "$v $p $(( ${n//TILE/$t} )) $([ $p = scan_int ] && echo 0 || echo 1e-4)" >>$jobs_file
    done
  done
done
for v in $VARIANTS; do echo "$v scan 262144 5e-2" >>$jobs_file; done
check_job() {   # VARIANT PROGRAM N TOLERANCE: one line, ok, skip or FAIL
  local v=$1 p=$2 n=$3 tol=$4 log=$W/check-$1-$2-$3.log e
  [ "$(date +%s)" -gt "$CHECK_DEADLINE" ] && { echo "skip $v $p N=$n"; return; }
  eval "e=\$env_$v"
  env $e timeout 60 build/clift bench -t $TARGET --check --tolerance $tol --runs 1 --size N=$n bench/gpu/$p.lift >$log 2>&1
  local rc=$?
  if [ $rc = 0 ]; then echo "ok $v $p N=$n"; else echo "FAIL $v $p N=$n (exit $rc): $(tail -n 2 $log | tr '\n' ' ' | cut -c1-200)"; fi
}
export -f check_job
CHECK_DEADLINE=$((T0 + ${CHECK_SECONDS:-150}))
export W TARGET CHECK_DEADLINE
for v in $VARIANTS; do export "env_$v=${env[$v]}"; done
xargs -P 10 -L 1 bash -c 'check_job "$@"' _ <$jobs_file >$W/checks.out 2>&1
cp $W/checks.out "$OUT/checks.txt"
failed=" "
for v in $VARIANTS; do
  okn=$(grep -c "^ok $v " $W/checks.out); all=$(grep -c "^$v " $jobs_file); skip=$(grep -c "^skip $v " $W/checks.out)
  echo "$v: $okn/$all ok$([ "$skip" != 0 ] && echo ", $skip skipped (late)")"
  if grep -q "^FAIL $v " $W/checks.out || [ $((okn + skip)) != "$all" ]; then
    grep "^FAIL $v " $W/checks.out | head -n 3; failed="$failed$v "; fi
done
echo "== 1. done$(stamp)"

echo "== 2. compute-sanitizer racecheck (N=65537)"
races=""
for vp in ltm:filter ltm:scan_int ltmd:filter_1pct ltmb:scan_int g128x24:filter default:filter default:filter_1pct default:scan_int; do
  v=${vp%%:*} p=${vp#*:}
  case " $VARIANTS " in *" $v "*) ;; *) continue ;; esac
  if env ${env[$v]} timeout 40 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 \
       build/clift bench -t $TARGET --size N=65537 --runs 1 bench/gpu/$p.lift >$W/race-$v-$p.log 2>&1
  then echo "ok   racecheck $v $p"; else races="$races $v:$p"; echo "FAIL racecheck $v $p: $(grep -m2 -E 'ERROR|hazard|rror' $W/race-$v-$p.log | cut -c1-200 | tr '\n' ' ')"; fi
done
echo "== 2. done$(stamp)"

BIG=${BIG:-134217728} RUNS=${RUNS:-20}
echo "== 3. ms at N=$BIG (median of clift bench --runs $RUNS)"
declare -A ms
median() {   # VARIANT PROGRAM: ms, "-" where its checks failed, "late" past 255 s
  case "$failed" in *" $1 "*) echo -; return ;; esac
  [ "$(elapsed)" -gt 255 ] && { echo late; return; }
  env ${env[$1]} timeout 30 build/clift bench -t $TARGET --runs $RUNS --size N=$BIG bench/gpu/$2.lift 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
for p in filter filter_1pct scan; do
  line="$p:"
  for v in $VARIANTS; do ms[$v-$p]=$(median $v $p); line="$line $v=${ms[$v-$p]:-?}"; done
  echo "$line"
done
echo "== 3. done$(stamp)"
echo "== peers (CUB)"
while kill -0 $nvcc_pid 2>/dev/null && [ "$(elapsed)" -lt 270 ]; do sleep 1; done
if kill -0 $nvcc_pid 2>/dev/null; then echo "peers.cu still compiling at $(elapsed) s: no CUB timings"
elif [ -n "${NO_PEERS:-}" ]; then echo "(NO_PEERS: skipped)"
elif [ "$(cat $W/nvcc.rc)" = 0 ]; then
  timeout $(( 295 - $(elapsed) > 5 ? 295 - $(elapsed) : 5 )) $W/peers filter scan 2>&1 | grep -E "^peer" >$W/peers.out
  grep -E "N=$BIG " $W/peers.out
  echo "== ratios to CUB at N=$BIG (clift / CUB)"
  for p in filter filter_1pct scan; do
    cub=$(awk -v p=$p -v n="N=$BIG" '$2 == p && $3 == n { print $4 }' $W/peers.out)
    line="$p (CUB ${cub:-?} ms):"
    for v in $VARIANTS; do
      r=$(awk -v a="${ms[$v-$p]}" -v b="$cub" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
      line="$line $v=$r"
    done
    echo "$line"
  done
else echo "peers.cu did not build:"; tail -n 3 $W/nvcc.log; fi
# 4. in the time left, Nsight Compute on the filter's pass (k1, 2^24, the first
# timed launch) of base and of the fastest variant at 2^27: registers, occupancy, stalls
best=$(for v in $VARIANTS; do echo "$v ${ms[$v-filter]:-}"; done | awk '$2 + 0 > 0 { print $2, $1 }' | sort -n | head -n 1 | cut -d" " -f2)
for v in base $([ -n "$best" ] && [ "$best" != base ] && echo $best); do
  [ "$(elapsed)" -gt 250 ] && { echo "(no Nsight Compute of $v: $(elapsed) s so far)"; continue; }
  echo "== 4. Nsight Compute: $v's filter pass at 2^24"
  env ${env[$v]} timeout 40 ncu --section LaunchStats --section Occupancy --section WarpStateStats --section SpeedOfLight \
    --kernel-name k1 --launch-skip 1 --launch-count 1 build/clift bench -t $TARGET --runs 1 --size N=16777216 bench/gpu/filter.lift 2>&1 |
    grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|DRAM Throughput|Warp Cycles Per Issued|Block Limit Reg|Block Limit Shared" |
    tr -s ' ' | cut -c1-120 | head -n 10
done
echo "== end$(stamp), checks $([ "$failed" = " " ] && ! grep -q "^FAIL" $W/checks.out && echo "all ok" || echo "FAILED: $failed")$(grep -q "^skip" $W/checks.out && echo " ($(grep -c "^skip" $W/checks.out) skipped, late)")$([ -n "$races" ] && echo ", racecheck FAILED:$races")"
[ "$failed" = " " ] && [ -z "$races" ] && ! grep -q "^FAIL" $W/checks.out
