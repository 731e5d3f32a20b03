#!/usr/bin/env bash
# tr_2026-11-27.sh — issue 14, transpose 8192² against cublasSgeam (goal ≤ 1.05×):
#   1. checks on cuda against the interpreter: transpose.lift, transpose_tiled.lift
#      and transpose_4.lift (the default T = 32, R = 1 and T = 64 with R = 4, 8),
#      at 256² and at a non-square 192 × 320;
#   2. compute-sanitizer racecheck and memcheck on transpose_4 at 128²
#      (T = 32, R = 1 and T = 64, R = 4);
#   3. clift bench --runs 20 at 8192² of transpose.lift, transpose_tiled.lift (its
#      default T = 32 and the tuned T = 64 with work-groups of 64 × 4) and
#      transpose_4.lift for (T, R) in (32,1) (32,2) (32,4) (64,2) (64,4) (64,8);
#   4. peers.cu's transpose: the device copy of the same bytes (transpose_copy),
#      the SDK-style tiled kernel (transpose_tiled) and cublasSgeam (transpose),
#      median of 100 runs each.
# Under 2.5 minutes (peers.cu is built while clift is).
# Usage (device): bash bench/gpu/tr_2026-11-27.sh   (output also in $OUT/output.txt)
# (TARGET=opencl BIG=512 runs the same steps on PoCL, without the sanitizer and peers: a dry run)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tr}; mkdir -p "$OUT"
main() {
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1 2>/dev/null
[ "${TARGET:-cuda}" = cuda ] && ( timeout 100 nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o /tmp/peers >/tmp/nvcc.log 2>&1; echo $? >/tmp/nvcc.rc ) &
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
c=build/clift
TARGET=${TARGET:-cuda} BIG=${BIG:-8192}
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
echo "== 1. checks ($TARGET against the interpreter) [${SECONDS}s]"
check() {   # check NAME SIZES… -- OPTIONS… (the program last)
  local name=$1; shift
  if out=$(timeout 60 $c bench -t $TARGET --check --tolerance 0 --runs 1 "$@" 2>&1) && grep -q "agrees" <<<"$out"; then
    echo "$name: ok"
  else echo "$name: FAILED"; echo "$out" | tail -n 4; fi
}
for sz in "256 256" "192 320"; do
  set -- $sz
  check "transpose.lift N=$1 M=$2" --size N=$1 --size M=$2 bench/gpu/transpose.lift
  check "transpose_tiled.lift T=32 N=$1 M=$2" --size N=$1 --size M=$2 bench/gpu/transpose_tiled.lift
  for tr in "32 1" "64 4" "64 8"; do
    set -- $sz $tr
    check "transpose_4.lift T=$3 R=$4 N=$1 M=$2" --tunable T=$3 --tunable R=$4 --size N=$1 --size M4=$(($2 / 4)) bench/gpu/transpose_4.lift
  done
done
echo "== 2. compute-sanitizer on transpose_4 at 128² [${SECONDS}s]"
for tr in "32 1" "64 4"; do
  set -- $tr
  for tool in racecheck memcheck; do
    [ "$TARGET" = cuda ] || continue
    r=$(timeout 60 "$SAN" --tool $tool --error-exitcode 3 $c bench -t $TARGET --runs 1 --tunable T=$1 --tunable R=$2 \
          --size N=128 --size M4=32 bench/gpu/transpose_4.lift 2>&1)
    echo "T=$1 R=$2 $tool: exit $?, $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" <<<"$r" | head -n 3 | tr '\n' ' ')"
  done
done
echo "== 3. clift bench -t $TARGET --runs 20 at $BIG² (ms) [${SECONDS}s]"
bench() {   # bench LABEL OPTIONS… (the program last)
  local label=$1; shift
  echo "$label: $(timeout 60 $c bench -t $TARGET --no-tune-cache --runs 20 "$@" 2>&1 | median)"
}
bench "transpose.lift" --size N=$BIG --size M=$BIG bench/gpu/transpose.lift
bench "transpose_tiled.lift T=32" --size N=$BIG --size M=$BIG bench/gpu/transpose_tiled.lift
bench "transpose_tiled.lift T=64 local 64x4" --tunable T=64 --local-size 64,4 --size N=$BIG --size M=$BIG bench/gpu/transpose_tiled.lift
for tr in "32 1" "32 2" "32 4" "64 2" "64 4" "64 8"; do
  set -- $tr
  bench "transpose_4.lift T=$1 R=$2" --tunable T=$1 --tunable R=$2 --size N=$BIG --size M4=$((BIG / 4)) bench/gpu/transpose_4.lift
done
echo "== 4. peers: copy of the same bytes, SDK tiled kernel, cublasSgeam (ms, median of 100) [${SECONDS}s]"
wait
if [ "$TARGET" != cuda ]; then :
elif [ "$(cat /tmp/nvcc.rc)" = 0 ]; then timeout 40 /tmp/peers transpose 2>&1 | grep -E "^peer (transpose|copy)|^peerfail|failure"
else tail -n 3 /tmp/nvcc.log; fi
echo "== done [${SECONDS}s]"
}
main 2>&1 | tee "$OUT/output.txt"
