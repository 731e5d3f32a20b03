#!/usr/bin/env bash
# compare_2027.sh BASE_TGZ — "no benchmark slower" for a change of the generated code
# (issue 14; stop 27: F36's integer min/max by a mask, in every kernel's index
# arithmetic, and what came after), one device call on one H100, ~5 minutes:
#   1. builds this tree and the base (a `git archive --format=tar.gz` of the commit
#      before, carried in);
#   2. each configuration below checked against the interpreter at a small size with
#      this build (clift bench --check), -t cuda and -t opencl;
#   3. clift bench --runs 20 at the full size, base then new, ROUNDS (default 2)
#      rounds; the better median of each side; the ratio new / base (> 1.03: slower).
# Usage (device, carry the tarball): bash bench/gpu/compare_2027.sh .carry/base_c882b6c.tgz
# Output: stdout (tee'd to $OUT/compare.txt).
set -uo pipefail
cd "$(dirname "$0")/../.."
base_tgz=$1 ROUNDS=${ROUNDS:-2}
OUT=${OUT:-/tmp/compare_2027}; mkdir -p "$OUT" /tmp/base
main() {
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
tar xzf "$base_tgz" -C /tmp/base
make -s -j16 >&2 && make -s -C /tmp/base -j16 >&2 || { echo "build failed"; exit 1; }
# label | options | small sizes (check) | full sizes | program
CFG=(
  "sgemm_v4 tuned 4096|K=8 W=132 --double-buffer --unroll|--size N=256|--size N=4096|sgemm_tiled_v4"
  "sgemm_tiled R=8 K=8|R=8 K=8|--size N=256|--size N=4096|sgemm_tiled"
  "transpose_4 T=64 R=4|T=64 R=4|--size N=256 --size M4=64|--size N=8192 --size M4=2048|transpose_4"
  "transpose||--size N=256 --size M=256|--size N=8192 --size M=8192|transpose"
  "jacobi_vec R=2 16x32|R=2 --local-size 16,32|--size N=256 --size M4=64|--size N=4096 --size M4=1024|jacobi_vec"
  "jacobi||--size N=256 --size M=256|--size N=4096 --size M=4096|jacobi"
  "gemv||--size N=256 --size M=256|--size N=4096 --size M=4096|gemv"
  "trmv_best||--size N=304|--size N=16000|trmv_best"
  "scal 2^24||--size N=4100|--size N=16777216|scal"
  "asum 2^24||--size N=4100|--size N=16777216|asum"
  "dot 2^24||--size N=4100|--size N=16777216|dot"
  "sum 2^27||--size N=4100|--size N=134217728|sum"
  "filter 2^27||--size N=4100|--size N=134217728|filter"
  "scan 2^27||--size N=4100|--size N=134217728|scan"
)
opts_of() { local o r=""; for o in $1; do case $o in --*|[0-9]*,*) r="$r $o";; *=*) r="$r --tunable $o";; *) r="$r $o";; esac; done; echo "$r"; }
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
declare -A best
for t in cuda opencl; do
  echo "== $t: checks of this build against the interpreter [${SECONDS}s]"
  for cfg in "${CFG[@]}"; do
    IFS='|' read -r label o small full prog <<<"$cfg"
    r=$(timeout 90 build/clift bench -t $t --no-tune-cache --check --tolerance 1e-3 --runs 1 $(opts_of "$o") $small bench/gpu/$prog.lift 2>&1)
    echo "check $t $label: exit $? $(grep -oiE 'check(ed)?[^;]*(agree|disagree|ok|fail)[^;]*' <<<"$r" | head -n 1)"
  done
  for round in $(seq "$ROUNDS"); do
    for cfg in "${CFG[@]}"; do
      IFS='|' read -r label o small full prog <<<"$cfg"
      for side in base new; do
        c=build/clift; [ $side = base ] && c=/tmp/base/build/clift
        m=$(timeout 90 $c bench -t $t --no-tune-cache --runs 20 $(opts_of "$o") $full bench/gpu/$prog.lift 2>&1 | median)
        k="$t|$label|$side"
        if [ -n "$m" ] && { [ -z "${best[$k]:-}" ] || awk -v a="$m" -v b="${best[$k]}" 'BEGIN{exit !(a<b)}'; }; then best[$k]=$m; fi
      done
    done
    echo "   round $round done [${SECONDS}s]"
  done
done
echo "== new / base (the better median of $ROUNDS rounds of --runs 20; > 1.03 slower)"
printf '| %-22s | %-6s | %9s | %9s | %6s |\n' program target "base ms" "new ms" ratio
for t in cuda opencl; do
  for cfg in "${CFG[@]}"; do
    IFS='|' read -r label o small full prog <<<"$cfg"
    b=${best[$t|$label|base]:-} n=${best[$t|$label|new]:-}
    printf '| %-22s | %-6s | %9s | %9s | %6s |\n' "$label" $t "${b:--}" "${n:--}" "$(awk -v b="$b" -v n="$n" 'BEGIN{ if (b>0 && n>0) printf "%.3f", n/b; else print "-" }')"
  done
done
}
main 2>&1 | tee "$OUT/compare.txt"
