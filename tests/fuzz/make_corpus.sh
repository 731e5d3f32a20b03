#!/usr/bin/env bash
# make_corpus.sh [DIR] — the seed corpus of the fuzzer: every tests/**/*.lift,
# examples/**/*.lift and bench/**/*.lift copied into DIR (default
# build-fuzz/corpus), one file per program, named after its path
# (tests/lift/dot.lift → tests_lift_dot.lift).
# Built at run time, never committed; files already in DIR (inputs the fuzzer
# found) are kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build-fuzz/corpus}
mkdir -p "$dir"
n=0
while IFS= read -r -d '' f; do
  cp "$f" "$dir/$(tr '/' '_' <<<"$f")"
  n=$((n + 1))
done < <(find tests examples bench -name '*.lift' -type f -print0 | sort -z)
echo "make_corpus: $n seed programs in $dir" >&2
