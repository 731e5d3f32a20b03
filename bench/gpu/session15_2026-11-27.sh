#!/usr/bin/env bash
# session15_2026-11-27.sh — F7's change on a GPU (a device kernel takes only the
# sizes and counts its text names, PlanKernel.sizes_used; cuda and NVIDIA's OpenCL
# pass the same lists): tests/regress and examples on cuda, the APL program of 8
# copies of replicate_runtime.apl's statements (~1,300 kernels) on cuda and opencl
# against the interpreter, FCL's examples on both. Usage (device): about 2 minutes.
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s15}"; mkdir -p "$O"
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
echo "cuda regress+examples: $(timeout 100 build/clift test -t cuda tests/regress/*.lift examples/*.lift > "$O/cuda.txt" 2>&1; echo "rc=$? $(tail -n 1 "$O/cuda.txt")")"
grep -B2 -A5 FAIL "$O/cuda.txt" | head -20
echo "opencl regress+examples: $(timeout 150 build/clift test -t opencl tests/regress/*.lift examples/*.lift > "$O/opencl.txt" 2>&1; echo "rc=$? $(tail -n 1 "$O/opencl.txt")")"
grep -B2 -A5 FAIL "$O/opencl.txt" | head -20
body=$(sed -n '/^x ← /,/^≢R$/p' tests/apl/replicate_runtime.apl)
for i in 1 2 3 4 5 6 7 8; do echo "$body"; done > /tmp/many8.apl
build/clift run -t interp /tmp/many8.apl > /tmp/want.txt 2>&1
for t in cuda opencl; do
  timeout 60 build/clift run -t $t /tmp/many8.apl > /tmp/got.txt 2>&1
  echo "many8 $t: rc=$? $(wc -l < /tmp/want.txt) lines, $(cmp -s /tmp/want.txt /tmp/got.txt && echo same || echo DIFFERENT: $(diff /tmp/want.txt /tmp/got.txt | head -n 3))"
done
for t in cuda opencl; do echo "fcl $t: $(timeout 60 build/clift test -t $t examples/fcl/*.fcl tests/fcl/compiled/*.fcl 2>&1 | tail -n 1)"; done
