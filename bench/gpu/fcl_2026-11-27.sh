#!/usr/bin/env bash
# fcl_2026-11-27.sh — issue 15: the FCL case studies of seed 003 Tables 5.1 and
# 5.2 on the GPU, cuda and opencl, beside hand-written CUDA and CUB peers
# (bench/gpu/fcl_peers.cu), 32-bit ints, 2^24 elements as the thesis's:
#   Table 5.1 (one kernel each): revDistribute (reverse.fcl, chunks of 256),
#     transposeTiled (transpose.fcl, 4096 x 4096, tiles of 32 and 16),
#     reducePart (reduce.fcl, a sum per 512 elements), matmulTiled
#     (matmul.fcl, doubles as the thesis's, 1024² and 2048² in tiles of 16:
#     128 unrolled steps, about 8 s to compile with NVRTC);
#   Table 5.2 (several kernels): reduceFull and the three-level scan (the
#     examples' main), and reverseAny (the example's main: two passes).
# The Table 5.1 programs are the examples with another main (below), so that
# they stay the examples' code. First the checks, then the timings:
#   1. every program on each target against the FCL interpreter at about 7·10^4
#      elements (clift bench --check; sizes no multiple of the block where the
#      program allows), and the examples against tests/fcl/oracle.py (plain
#      Python) at 300001 elements (reduce, scan, reverse) and 600 x 500;
#   2. clift bench --runs 100 at the full sizes: the median of the device work
#      of all the program's kernels (clift bench's timing), as ms and GB/s;
#   3. the peers (their own checks first), and the peers' ratios.
# Output: stdout and $OUT/output.txt. Environment: TARGETS (default "cuda
# opencl"), SMALL=1 (the full sizes replaced by small ones and no peers: a
# smoke test of the script without a GPU, e.g. TARGETS=opencl SMALL=1).
# Usage (device): bash bench/gpu/fcl_2026-11-27.sh      (under 6 minutes: a step
# that would start after its deadline, 170 s for the checks, 270 s for the
# timings, is skipped and says so)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/fcl_out}
mkdir -p "$OUT"
TARGETS=${TARGETS:-cuda opencl}
SMALL=${SMALL:-0}
W=$(mktemp -d)
C=build/clift

main() {
  date -u
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  if [ "$SMALL" = 0 ]; then
    ( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1; echo $? > "$W/nvcc.rc" ) &
  fi
  make -s -j"$(nproc)" >&2 || { echo "build failed"; return 1; }

  # the Table 5.1 programs: an example without its main, and a main calling the thesis's function
  with_main() {   # with_main EXAMPLE NAME MAIN…: $W/NAME.fcl
    local ex=$1 name=$2; shift 2
    { sed '/^sig main/,$d' examples/fcl/$ex.fcl; printf '%s\n' "$@"; } > "$W/$name.fcl"
  }
  with_main reverse rev "sig main : int -> [int] -> Program<grid> [int]<grid>" "fun main chunk xs = revDistribute chunk xs"
  with_main transpose tr "sig main : int -> int -> int -> [int] -> Program<grid> [int]<grid>" \
    "fun main tile rows cols elems = transposeTiled tile rows cols elems"
  with_main reduce rpart "sig main : [int] -> Program<grid> [int]<grid>" "fun main xs = reducePart (fn a => fn b => a + b) 0 xs"
  with_main matmul mm "sig main : int -> int -> int -> int -> [double] -> [double] -> Program<grid> [double]<grid>" \
    "fun main t hA wA wB A B = matmulTiled (fn a => fn b => a + b) (fn a => fn b => a * b) 0.0 t hA wA wB A B"
  for f in rev tr rpart mm; do $C check "$W/$f.fcl" > /dev/null || { echo "$f.fcl does not check"; return 1; }; done

  # inputs: seeded ints in [-50, 50] for the checks (also as literals, for the oracle), raw ones for the timings
  npy() { python3 tests/fcl/npy.py "$@"; }
  npy 70001 "$W/c70001.npy" 1
  npy 69888 "$W/c69888.npy" 2              # 273 chunks of 256
  npy 71680 "$W/c71680.npy" 3              # 320 x 224
  npy 3072 "$W/a48.npy" 4 double; npy 3840 "$W/b48.npy" 5 double   # 64 x 48 by 48 x 80
  npy 300001 "$W/o300001.npy" 6 int --literal > "$W/o300001.txt"
  npy 300000 "$W/o300000.npy" 7 int --literal > "$W/o300000.txt"
  if [ "$SMALL" = 0 ]; then N=16777216 R=4096 M1=1024 M2=2048; else N=65536 R=256 M1=32 M2=64; fi
  npy $N "$W/n.npy" 8 raw
  npy $((M1 * M1)) "$W/m1a.npy" 9 rawdouble; npy $((M1 * M1)) "$W/m1b.npy" 10 rawdouble
  npy $((M2 * M2)) "$W/m2a.npy" 11 rawdouble; npy $((M2 * M2)) "$W/m2b.npy" 12 rawdouble

  # NAME|PROGRAM|CHECK INPUTS|TIMED INPUTS|B:bytes moved (GB/s) or F:flops (GFLOP/s)|RUNS
  benches=(
    "reverse|$W/rev.fcl|256 $W/c69888.npy|256 $W/n.npy|B:$((8 * N))|100"
    "transpose_t32|$W/tr.fcl|32 320 224 $W/c71680.npy|32 $R $R $W/n.npy|B:$((8 * R * R))|100"
    "transpose_t16|$W/tr.fcl|16 320 224 $W/c71680.npy|16 $R $R $W/n.npy|B:$((8 * R * R))|100"
    "reduce_part|$W/rpart.fcl|$W/c70001.npy|$W/n.npy|B:$((4 * N))|100"
    "matmul_${M1}|$W/mm.fcl|16 64 48 80 $W/a48.npy $W/b48.npy|16 $M1 $M1 $M1 $W/m1a.npy $W/m1b.npy|F:$((2 * M1 * M1 * M1))|20"
    "matmul_${M2}|$W/mm.fcl|16 64 48 80 $W/a48.npy $W/b48.npy|16 $M2 $M2 $M2 $W/m2a.npy $W/m2b.npy|F:$((2 * M2 * M2 * M2))|20"
    "reduce|examples/fcl/reduce.fcl|$W/c70001.npy|$W/n.npy|B:$((4 * N))|100"
    "scan|examples/fcl/scan.fcl|$W/c70001.npy|$W/n.npy|B:$((8 * N))|100"
    "reverse_any|examples/fcl/reverse.fcl|256 $W/c70001.npy|256 $W/n.npy|B:$((8 * N))|100"
  )

  echo "== 1. checks: each program against the FCL interpreter (clift bench --check), the examples against tests/fcl/oracle.py"
  for t in $TARGETS; do
    for b in "${benches[@]}"; do
      IFS='|' read -r name prog small big work runs <<<"$b"
      [ $SECONDS -lt 170 ] || { echo "check $name -t $t: skipped (past 170 s)"; continue; }
      if timeout 60 $C bench -t $t --check --runs 1 "$prog" $small > "$W/ck.out" 2>&1; then echo "check $name -t $t: ok"
      else echo "check $name -t $t: FAILED: $(head -c 400 "$W/ck.out")"; fi
    done
    for o in "reduce|examples/fcl/reduce.fcl|@$W/o300001.txt" "scan|examples/fcl/scan.fcl|@$W/o300001.txt" \
             "reverse|examples/fcl/reverse.fcl|256 @$W/o300001.txt" "transpose|examples/fcl/transpose.fcl|16 600 500 @$W/o300000.txt"; do
      IFS='|' read -r name prog args <<<"$o"
      [ $SECONDS -lt 170 ] || { echo "oracle $name -t $t: skipped (past 170 s)"; continue; }
      python3 tests/fcl/oracle.py $name $args > "$W/want.txt"
      timeout 60 $C run -t $t "$prog" $args > "$W/got.txt" 2>&1
      if cmp -s "$W/want.txt" "$W/got.txt"; then echo "oracle $name $(sed 's/@[^ ]*o\([0-9]*\).txt/[\1]/' <<<"$args") -t $t: ok"
      else echo "oracle $name -t $t: FAILED: $(head -c 300 "$W/got.txt")"; fi
    done
  done

  echo "== 2. timings (clift bench --runs 100, matmul 20: median ms of the device work of every kernel;"
  echo "   GB/s of the bytes each must move, GFLOP/s of matmul's 2n³; kernels counted at these sizes, matmul's at the check's)"
  for b in "${benches[@]}"; do
    IFS='|' read -r name prog small big work runs <<<"$b"
    [ $SECONDS -lt 270 ] || { echo "$name: skipped (past 270 s)"; continue; }
    kin=$big; case $name in matmul*) kin=$small;; esac
    k=$(timeout 60 $C compile -t cuda --print "$prog" $kin 2>/dev/null | grep -c '__global__')
    line="$name ($k kernel(s)):"
    for t in $TARGETS; do
      m=$(timeout 120 $C bench -t $t --runs $runs "$prog" $big 2>"$W/err.txt" | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      if [ -z "$m" ]; then line="$line $t FAILED ($(head -c 200 "$W/err.txt" | tr '\n' ' '))"; continue; fi
      rate=$(awk -v w="${work#*:}" -v m="$m" -v u="${work%%:*}" 'BEGIN { printf " (%.0f %s)", w / (m * 1e6), u == "B" ? "GB/s" : "GFLOP/s" }')
      line="$line $t $m ms$rate"
      echo "$name $t $m" >> "$W/clift.txt"
    done
    echo "$line"
  done

  if [ "$SMALL" = 0 ]; then
    echo "== 3. peers (bench/gpu/fcl_peers.cu: hand-written CUDA after NVIDIA's SDK kernels, CUB for Thrust)"
    wait
    if [ "$(cat "$W/nvcc.rc" 2>/dev/null)" = 0 ]; then
      timeout 60 "$W/fcl_peers" 2>&1 | tee "$W/peers.txt" | grep -E "^peer|fcl_peers:"
      echo "== ratios: clift / peer (median ms), cuda"
      for pair in "reverse reverse" "reverse_any reverse" "transpose_t32 transpose" "transpose_t16 transpose" \
                  "reduce_part reduce_part" "matmul_${M1} matmul:${M1}x${M1}" "matmul_${M2} matmul:${M2}x${M2}" "reduce reduce" "scan scan"; do
        set -- $pair
        c=$(awk -v n="$1" '$1 == n && $2 == "cuda" { print $3 }' "$W/clift.txt")
        p=$(awk -v n="${2%%:*}" -v s="${2#*:}" '$1 == "peer" && $2 == n && (s == n || $3 == s) { print $4 }' "$W/peers.txt" | head -n 1)
        [ -n "$c" ] && [ -n "$p" ] && awk -v a="$1" -v b="${2%%:*}" -v c="$c" -v p="$p" 'BEGIN { printf "%s / peer %s: %.4f / %.4f ms = %.2fx\n", a, b, c, p, c / p }'
      done
    else
      echo "fcl_peers did not build:"; tail -n 5 "$W/nvcc.log"
    fi
  fi
  date -u
}

main 2>&1 | tee "$OUT/output.txt"
rm -rf "$W"
