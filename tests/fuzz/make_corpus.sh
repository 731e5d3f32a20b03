#!/usr/bin/env bash
# make_corpus.sh [DIR] — the seed corpus of the fuzzer: every tests/**/*.lift,
# examples/**/*.lift and bench/**/*.lift, and every .apl, .tail and .fcl program
# there (the target runs each input through all four front ends), copied into DIR (default
# build-fuzz/seeds), one file per program, named after its path
# (tests/lift/dot.lift → tests_lift_dot.lift). Built at run time, never
# committed; DIR's old seeds are removed first, so a deleted test leaves it too.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build-fuzz/seeds}
mkdir -p "$dir"
find "$dir" -maxdepth 1 \( -name '*.lift' -o -name '*.apl' -o -name '*.tail' -o -name '*.fcl' \) -type f -delete
n=0
while IFS= read -r -d '' f; do
  cp "$f" "$dir/$(tr '/' '_' <<<"$f")"
  n=$((n + 1))
done < <(find tests examples bench \( -name '*.lift' -o -name '*.apl' -o -name '*.tail' -o -name '*.fcl' \) -type f -print0 | sort -z)
echo "make_corpus: $n seed programs in $dir" >&2
