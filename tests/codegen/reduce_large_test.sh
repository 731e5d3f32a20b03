#!/usr/bin/env bash
# reduce_large_test.sh — a top-level `reduce` over 10^6 fresh random floats
# (the two-kernel tree reduction on compiled targets) agrees with the
# interpreter within float tolerance, on every target available here.
# Usage: reduce_large_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
# 10^6 uniform floats in [-1, 1) as a float32 .npy, a fresh seed each run
python3 - "$T/xs.npy" <<'PY'
import random, struct, sys
n = 1000000
rng = random.Random()
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%df" % n, *[rng.uniform(-1, 1) for _ in range(n)]))
PY
want=$("$CLIFT" run -t interp tests/lift/reduce_top.lift "$T/xs.npy") || { echo "interp failed"; echo "0 passed, 1 failed"; exit 1; }
targets=$("$CLIFT" test --list-targets 2>/dev/null || echo "c openmp")
for t in $targets; do
  [ "$t" = interp ] && continue
  got=$("$CLIFT" run -t "$t" tests/lift/reduce_top.lift "$T/xs.npy" 2>&1)
  # |got - want| <= 1e-6 * Σ|x| ≈ 0.5: the interpreter sums sequentially in
  # float32 (typical error ~0.03 here), the tree far more accurately
  if python3 -c "import sys; g=float(sys.argv[1].strip('[]')); w=float(sys.argv[2].strip('[]')); sys.exit(0 if abs(g-w) <= 0.5 else 1)" "$got" "$want" 2>/dev/null; then
    ok
  else
    bad "[$t]: got $got, interp $want"
  fi
done
summary "reduce 10^6"
