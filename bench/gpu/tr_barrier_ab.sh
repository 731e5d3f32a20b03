#!/usr/bin/env bash
# tr_barrier_ab.sh — branch tr's last commit (c88e08f: on cuda the barrier that
# closes a work-group loop's body only where the block has a next iteration)
# against this tree, which left it out: the same programs timed with both
# builds in one call, each checked against the interpreter first.
# Usage (device): bash bench/gpu/tr_barrier_ab.sh .carry/trb.tgz
set -uo pipefail
cd "$(dirname "$0")/../.."
tgz=$1; B=$(mktemp -d)
tar xzf "$tgz" -C "$B" && make -s -C "$B" -j"$(nproc)" >/dev/null 2>&1 || { echo "build of $tgz failed"; exit 1; }
make -s -j"$(nproc)" >/dev/null 2>&1
for cfg in "transpose_4.lift|--size N=8192 --size M4=2048 --tunable T=32 --tunable R=4|--size N=256 --size M4=64 --tunable T=32 --tunable R=4" \
           "transpose_4.lift|--size N=8192 --size M4=2048 --tunable T=64 --tunable R=4|--size N=256 --size M4=64 --tunable T=64 --tunable R=4" \
           "sgemm_tiled.lift|--size N=4096 --tunable R=4 --tunable K=16|--size N=128 --tunable R=4 --tunable K=16" \
           "jacobi_tiled.lift|--size N=4096 --size M=4096|--size N=256 --size M=256"; do
  IFS='|' read -r f big small <<<"$cfg"
  line="$f $big:"
  for b in main barrier; do
    c=build/clift; [ $b = barrier ] && c=$B/build/clift
    timeout 60 $c bench -t cuda --check --tolerance 1e-3 --runs 1 $small bench/gpu/$f >/dev/null 2>&1 && ck=ok || ck=FAIL
    m=$(timeout 60 $c bench -t cuda --runs 20 $big bench/gpu/$f 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    line="$line $b=$m ($ck)"
  done
  echo "$line"
done
rm -rf "$B"
