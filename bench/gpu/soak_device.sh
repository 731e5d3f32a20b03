#!/usr/bin/env bash
# soak_device.sh — issue 9's soak on one device call: the differential tester
# (every target, cuda on the GPU) and the fuzzer side by side on the machine's
# cores, for the same number of seconds. Both scripts' outputs go to $OUT.
# Usage: bash bench/gpu/soak_device.sh FUZZER SEEDS SECONDS [DIFF_JOBS] [FUZZ_JOBS] [ROTATE]
#   FUZZER: the prebuilt libFuzzer binary, carried in (see fuzz_device.sh).
# CLIFT_SRC=DIR (optional): the compiler under test is built from DIR, a source
# tree of the frozen commit carried in, instead of this working tree, so that a
# soak goes on across sessions on one commit while main moves on:
#   git archive --prefix=frozen/ b0c3504 | tar x -C .carry   (then carry .carry)
# The frozen commit needs `clift run --batch` (3ebd8fd or later): difftest_device.sh
# sends the device runs 16 at a time through it (BATCH); an older compiler refuses
# --batch and every device run falls back to a process of its own (~3 a second).
# The fuzz workers' seeds start after the first seed of SEEDS (FUZZ_SEED_BASE):
# calls with the same seeds and corpus would repeat each other's executions.
set -uo pipefail
cd "$(dirname "$0")/../.."
fuzzer=$1 seeds=$2 secs=$3 djobs=${4:-13} fjobs=${5:-3} rotate=${6:-16}
src=${CLIFT_SRC:-.}
mkdir -p "${OUT:-/tmp}"
echo "compiler from $src (commit $(git rev-parse --short HEAD 2>/dev/null || echo '?') of this tree), $(nproc) cores: difftest $djobs jobs, fuzz $fjobs workers, $secs s"
make -s -C "$src" -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
export CLIFT_BIN=$src/build/clift
JOBS=$djobs bash bench/gpu/difftest_device.sh "$seeds" "$secs" "$rotate" > "${OUT:-/tmp}/difftest_summary.txt" 2>&1 &
dpid=$!
FUZZ_SEED_BASE=${FUZZ_SEED_BASE:-${seeds%%:*}} bash bench/gpu/fuzz_device.sh "$fuzzer" "$fjobs" 100000000 "$secs" > "${OUT:-/tmp}/fuzz_summary.txt" 2>&1
wait $dpid; dstatus=$?
echo "== fuzz"; grep -v '^finding ' "${OUT:-/tmp}/fuzz_summary.txt" | tail -n "$((fjobs + 3))"
grep '^finding ' "${OUT:-/tmp}/fuzz_summary.txt"
echo "== difftest (exit $dstatus)"; tail -n 12 "${OUT:-/tmp}/difftest_summary.txt"
