#!/usr/bin/env bash
# gen_snapshot.sh CLIFT DIR [NRANDOM] — every file `clift compile` writes, for
# every program of tests/, examples/ and bench/ and NRANDOM (default 300)
# programs of the random generator (tests/difftest, seeds 0..NRANDOM-1), on
# each of c, openmp, opencl and cuda, into DIR/TARGET/NAME/ (with the
# compiler's messages and exit status in DIR/TARGET/NAME/status).
# Two snapshots taken before and after a refactoring must be identical
# (`diff -r A B`): the back-end work of issue 10 keeps generated code
# byte-identical except for `iterate`.
set -uo pipefail
clift=$(realpath "$1") dir=$2 nrandom=${3:-300}
cd "$(dirname "$0")/.."
rm -rf "$dir"; mkdir -p "$dir/random"
for s in $(seq 0 $((nrandom - 1))); do
  python3 tests/difftest/difftest.py --show "$s" | grep -v '^;; inputs:' >"$dir/random/seed$s.lift"
done
dir=$(realpath "$dir")
progs=$( (find tests examples bench -name '*.lift' -type f; cd "$dir" && ls random/*.lift) | sort)
for t in c openmp opencl cuda; do
  for f in $progs; do
    out=$dir/$t/$(tr '/' '_' <<<"${f%.lift}")
    mkdir -p "$out"
    # programs named by the same relative path in every snapshot (generated
    # files and messages quote it): the random ones from inside DIR
    from=.; [ -f "$f" ] || from=$dir
    (cd "$from" && "$clift" compile -t "$t" -o "$out" "$f") >"$out/status" 2>&1
    echo "exit $?" >>"$out/status"
  done
done
echo "gen_snapshot: $(echo "$progs" | wc -l) programs x 4 targets in $dir"
