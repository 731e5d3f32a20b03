#!/usr/bin/env bash
# Resources benchmark (issue 9 §4): the interpreter's memory on a long loop, and
# the time and memory of reading inputs and writing results (.npy and text).
# Usage: bash bench/cpu/resources.sh [RUNS]     (default 5; medians of RUNS runs)
# Env: CLIFT (default build/clift; point it at another build to compare),
#      NESTED (the loop's N = M, default 10000: 10^8 iterations), NPY (default
#      10^7 floats), TEXT (default 2·10^6 floats).
# Needs python3 (standard library only) to write the inputs, GNU time for RSS.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-5}
CLIFT=${CLIFT:-build/clift}
NESTED=${NESTED:-10000} NPY=${NPY:-10000000} TEXT=${TEXT:-2000000}
[ -x "$CLIFT" ] || make -s
TMP=$(mktemp -d "${TMPDIR:-/tmp}/clift-resources.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $CLIFT (checkout at $(git rev-parse --short HEAD 2>/dev/null || echo '?'); a CLIFT from elsewhere may be another commit); runs=$RUNS, medians; RSS = GNU time's maximum resident set size"

# ---- inputs: random floats in [-1, 1), fixed seed ----
python3 - "$TMP" "$NPY" "$TEXT" "$NESTED" <<'EOF'
import array, random, sys
tmp, npy, text, nested = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def floats(n, seed):
    r = random.Random(seed)
    return array.array('f', (r.uniform(-1, 1) for _ in range(n)))
def write_npy(path, a):
    d = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(a)
    pad = (10 + len(d) + 1 + 63) // 64 * 64 - (10 + len(d) + 1)
    h = (d + ' ' * pad + '\n').encode()
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + len(h).to_bytes(2, 'little') + h)
        a.tofile(f)
def write_text(path, a):
    with open(path, 'w') as f:
        f.write('[' + ', '.join('%.9g' % x for x in a) + ']\n')
write_npy(tmp + '/big.npy', floats(npy, 1)); write_npy(tmp + '/one.npy', floats(1, 1))
write_text(tmp + '/big.txt', floats(text, 2)); write_text(tmp + '/one.txt', floats(1, 2))
write_text(tmp + '/nested.txt', floats(nested, 3))
EOF
cat > "$TMP/twice.lift" <<'EOF'
(lift (N) ((array-type float N)) (lambda (xs) (mapGlb (lambda (x) (* x 2.0f)) xs)))
EOF
cat > "$TMP/sum.lift" <<'EOF'
(lift (N) ((array-type float N)) (lambda (xs) (reduceSeq 0.0f (lambda (a x) (+ a x)) xs)))
EOF
cat > "$TMP/nested.lift" <<'EOF'
(lift (N M) ((array-type float N) (array-type float M)) (lambda (xs ys) (reduceSeq 0.0f (lambda (a x) (+ a (aref (reduceSeq 0.0f (lambda (b y) (+ b (* x y))) ys) 0))) xs)))
EOF

# measure LABEL OUTFILE -- COMMAND…: RUNS runs; sets WALL, CPU (user+sys), RSS (MB, max)
measure() {
  local out=$2; shift 3
  local w=() c=() r=0
  "$@" > /dev/null   # warm-up (fills the compile cache: a compiler child's RSS would count)
  for ((k = 0; k < RUNS; k++)); do
    /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" > "$out"
    read -r e u s m < "$TMP/time"
    w+=("$e"); c+=("$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')")
    [ "$m" -gt "$r" ] && r=$m
  done
  WALL=$(printf '%s\n' "${w[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  CPU=$(printf '%s\n' "${c[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  RSS=$(awk -v k="$r" 'BEGIN { printf "%.1f", k / 1024 }')
}

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
size() { stat -c %s "$1"; }

printf '\n| case | target | input MB | output MB | wall s | cpu s | MB/s (cpu) | peak RSS MB | RSS − 1-element run MB | budget 1.2×(in+out) MB |\n'
printf '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n'

# row CASE TARGET INPUT ONE PROG OUTARG: the big input and the 1-element one
row() {
  local name=$1 target=$2 input=$3 one=$4 prog=$5 outmode=$6
  local outfile=$TMP/out.txt oarg=()
  [ "$outmode" = npy ] && oarg=(-o "$TMP/out.npy") && outfile=$TMP/stdout
  measure x /dev/null -- "$CLIFT" run -t "$target" "${oarg[@]}" "$TMP/$prog" "$one"
  local base=$RSS
  measure x "$outfile" -- "$CLIFT" run -t "$target" "${oarg[@]}" "$TMP/$prog" "$input"
  local in_bytes out_bytes
  in_bytes=$(size "${input#@}")
  if [ "$outmode" = npy ]; then out_bytes=$(size "$TMP/out.npy"); else out_bytes=$(size "$outfile"); fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$target" "$(mb "$in_bytes")" "$(mb "$out_bytes")" \
    "$WALL" "$CPU" "$(awk -v b=$((in_bytes + out_bytes)) -v t="$CPU" 'BEGIN { printf "%.0f", (t > 0 ? b / 1e6 / t : 0) }')" \
    "$RSS" "$(awk -v a="$RSS" -v b="$base" 'BEGIN { printf "%.1f", a - b }')" \
    "$(awk -v b=$((in_bytes + out_bytes)) 'BEGIN { printf "%.1f", 1.2 * b / 1e6 }')"
}

for target in interp openmp; do
  row ".npy in (sum)" $target "$TMP/big.npy" "$TMP/one.npy" sum.lift print
  row ".npy in, .npy out" $target "$TMP/big.npy" "$TMP/one.npy" twice.lift npy
  row "text in (sum)" $target "@$TMP/big.txt" "@$TMP/one.txt" sum.lift print
  row "text in, printed out" $target "@$TMP/big.txt" "@$TMP/one.txt" twice.lift print
done

echo
measure x "$TMP/nested.out" -- "$CLIFT" run -t interp "$TMP/nested.lift" "@$TMP/nested.txt" "@$TMP/nested.txt"
echo "interp nested reduceSeq, N = M = $NESTED ($((NESTED * NESTED)) iterations): wall $WALL s, cpu $CPU s, peak RSS $RSS MB; result $(cat "$TMP/nested.out")"
