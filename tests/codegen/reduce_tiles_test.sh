#!/usr/bin/env bash
# reduce_tiles_test.sh — a top-level `reduce` at lengths around its tiles'
# boundaries (1, a tile - 1, a tile, a tile + 1, several tiles and a rest,
# 10^6; tiles of 16384 elements on the device targets, 1024 on c/openmp) agrees
# with the interpreter on every target here: ints exactly
# (tests/lift/reduce_top_int.lift), asum/dot/sum within float tolerance. On the
# device targets the full tiles are read without the padding's check
# (dpia/tiles.c): also under odd launch sizes, and bit for bit what the former
# form (CLIFT_REDUCE_GUARD=1, every read checked) computes for asum and sum
# (dot's products now meet the accumulator with no select between them, so
# NVRTC and OpenCL compilers contract them into fmas, as in any clift kernel:
# a rounding less per element, not the same bits).
# Usage: reduce_tiles_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
targets=$("$CLIFT" test --list-targets | grep -vx interp)
devices=$(grep -E '^(opencl|cuda)$' <<<"$targets")
sizes="1 1023 1024 1025 16383 16384 16385 81997 1000000"   # 81997 = 5 * 16384 + 77
# program | tolerance (relative, clift bench --check: asum's terms are all >= 0;
# dot's and sum's cancel, so their bench inputs in [-1, 1) can sum to nearly 0 and
# no relative tolerance holds: they are checked below against sum |terms|)
cases=("tests/lift/reduce_top_int.lift|0" "bench/gpu/asum.lift|1e-4")
check() {   # check TARGET PROGRAM TOLERANCE ARGS…
  local t=$1 prog=$2 tol=$3 out; shift 3
  if out=$("$CLIFT" bench -t "$t" --check --runs 1 --tolerance "$tol" "$@" "$prog" 2>&1) && grep -q "agrees with interp" <<<"$out"; then ok
  else bad "$t $prog $*: $out"; fi
}
for t in $targets; do
  for c in "${cases[@]}"; do
    for n in $sizes; do check "$t" "${c%%|*}" "${c#*|}" --size N=$n; done
  done
done
# dot and sum on fresh random floats in [-1, 1): |got - interp| <= 1e-6 * sum |terms|
# (+1e-6), as reduce_large_test.sh (the interpreter adds in order in float32:
# about 0.02 off at 10^6 terms, the bound 0.25 there)
signed_inputs() {   # N: $T/s_x.npy, $T/s_y.npy and $T/s_bound (dot's, sum's)
  python3 - "$T" "$1" <<'PY'
import random, struct, sys
d, n = sys.argv[1], int(sys.argv[2])
rng = random.Random()
x = [struct.unpack("<f", struct.pack("<f", rng.uniform(-1, 1)))[0] for _ in range(n)]
y = [struct.unpack("<f", struct.pack("<f", rng.uniform(-1, 1)))[0] for _ in range(n)]
for name, v in (("s_x", x), ("s_y", y)):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open("%s/%s.npy" % (d, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % n, *v))
with open(d + "/s_bound", "w") as f:
    f.write("%r %r\n" % (1e-6 * sum(abs(a * b) for a, b in zip(x, y)) + 1e-6, 1e-6 * sum(abs(a) for a in x) + 1e-6))
PY
}
near() {   # GOT WANT BOUND: |got - want| <= bound
  python3 -c "import sys; g=float(sys.argv[1].strip('[]')); w=float(sys.argv[2].strip('[]')); sys.exit(0 if abs(g-w) <= float(sys.argv[3]) else 1)" "$@" 2>/dev/null
}
for n in $sizes; do
  signed_inputs $n
  read -r bdot bsum < "$T/s_bound"
  wdot=$("$CLIFT" run -t interp bench/gpu/dot.lift "$T/s_x.npy" "$T/s_y.npy" 2>&1)
  wsum=$("$CLIFT" run -t interp bench/gpu/sum.lift "$T/s_x.npy" 2>&1)
  for t in $targets; do
    g=$("$CLIFT" run -t "$t" bench/gpu/dot.lift "$T/s_x.npy" "$T/s_y.npy" 2>&1)
    if near "$g" "$wdot" "$bdot"; then ok; else bad "$t dot.lift N=$n: got $g, interp $wdot (bound $bdot)"; fi
    g=$("$CLIFT" run -t "$t" bench/gpu/sum.lift "$T/s_x.npy" 2>&1)
    if near "$g" "$wsum" "$bsum"; then ok; else bad "$t sum.lift N=$n: got $g, interp $wsum (bound $bsum)"; fi
  done
done
# any launch size (SPEC §6): groups fewer than the tiles, work-items fewer than a group's 256
for t in $devices; do
  for l in "--local-size 1 --global-size 1" "--local-size 7 --global-size 300" "--local-size 64" "--local-size 96 --global-size 960"; do
    for n in 16384 49153; do
      # shellcheck disable=SC2086
      check "$t" tests/lift/reduce_top_int.lift 0 $l --size N=$n
      # shellcheck disable=SC2086
      check "$t" bench/gpu/asum.lift 1e-4 $l --size N=$n
    done
  done
done
# the same bits as the former form, on fresh random floats
python3 - "$T" <<'PY'
import random, struct, sys
rng = random.Random()
for name, n in (("a", 16385), ("c", 1000000)):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open("%s/%s.npy" % (sys.argv[1], name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % n, *[rng.uniform(-1, 1) for _ in range(n)]))
PY
for t in $devices; do
  for x in a c; do
    for prog in bench/gpu/asum.lift bench/gpu/sum.lift; do
      if "$CLIFT" run -t "$t" -o "$T/new.npy" "$prog" "$T/$x.npy" > "$T/out" 2>&1 &&
         CLIFT_REDUCE_GUARD=1 "$CLIFT" run -t "$t" -o "$T/old.npy" "$prog" "$T/$x.npy" >> "$T/out" 2>&1 &&
         cmp -s "$T/new.npy" "$T/old.npy"; then ok
      else bad "$t $prog on $x.npy: not the former form's bits: $(cat "$T/out")"; fi
    done
  done
done
summary "reduce tiles"
