#!/usr/bin/env bash
# cuda_test.sh — the cuda target without a GPU (SPEC §4.2, §6, §8):
#   - every test program that type-checks prints as CUDA C++ that NVRTC
#     compiles to PTX for sm_90 (skipped, with a message, where libnvrtc is
#     absent; programs the code generators do not support are skipped);
#   - the shape of the kernels, as opencl_test.sh checks it for OpenCL:
#     grid-stride loops over blockIdx/threadIdx, __shared__ arrays, a
#     __syncthreads() after a mapLcl whose result other threads read (plus one
#     closing the block's loop body) and none when each thread reads what it
#     wrote, float4 loads/stores for asVector, one kernel per plan kernel;
#   - `clift run -t cuda` without a CUDA device fails with a clear message and
#     exit status 1 (with a device it must print the right result).
# Usage: cuda_test.sh path/to/clift    Prints "N passed, N failed".
set -u
CLIFT=${1:-build/clift}
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# 1. NVRTC accepts everything we print
if "$CLIFT" compile -t cuda --ptx examples/dot.lift > "$T/dot.ptx" 2> "$T/err"; then
  nvrtc_ok=0 nvrtc_skip=0
  for f in tests/lift/*.lift tests/codegen/*.lift examples/*.lift; do
    "$CLIFT" check "$f" > /dev/null 2>&1 || continue
    if ! "$CLIFT" compile -t cuda --print "$f" > "$T/gen.cu" 2> "$T/err"; then
      if grep -q "not supported" "$T/err"; then nvrtc_skip=$((nvrtc_skip + 1)); else bad "$f: cuda printing failed: $(cat "$T/err")"; fi
      continue
    fi
    if "$CLIFT" compile -t cuda --ptx "$f" > "$T/gen.ptx" 2> "$T/err" && grep -q '\.entry k0' "$T/gen.ptx"; then
      nvrtc_ok=$((nvrtc_ok + 1)); ok
    else
      bad "$f: NVRTC rejects the CUDA source: $(head -c 2000 "$T/err")"
    fi
  done
  echo "NVRTC (compute_90): $nvrtc_ok programs compile, $nvrtc_skip not supported by the code generators"
elif grep -q "libnvrtc" "$T/err"; then
  echo "SKIP: NVRTC checks: $(cat "$T/err")"
else
  bad "examples/dot.lift: NVRTC failed: $(cat "$T/err")"
fi

# 2. the shape of the kernels
gen() { "$CLIFT" compile -t cuda --print "$1" > "$T/gen.cu" 2>"$T/err" || { bad "$1 does not compile: $(cat "$T/err")"; return 1; }; }
# expect_count FILE PATTERN N WHAT (occurrences, not lines)
expect_count() {
  local n; n=$(grep -oE "$2" "$T/gen.cu" | wc -l)
  if [ "$n" -eq "$3" ]; then ok; else bad "$1: $4: expected $3, found $n"; sed -n '/__global__/,$p' "$T/gen.cu"; fi
}

f=tests/lift/local_neighbours.lift
if gen $f; then
  expect_count $f '__syncthreads\(\);' 2 "barriers (after the writer, closing the block's loop body)"
  if awk '/loc[0-9]+\[lid[0-9]+\] = /{w=1} w&&/^    }$/{getline; print; exit}' "$T/gen.cu" | grep -q '__syncthreads();'; then ok
  else bad "$f: no __syncthreads() right after the loop writing shared memory"; fi
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[4\];' 1 "one shared array of 4 floats per block"
  expect_count $f 'for \(long long wid[0-9]+ = blockIdx\.x; wid[0-9]+ < N / 4; wid[0-9]+ \+= gridDim\.x\)' 1 "block loop"
  expect_count $f 'for \(long long lid[0-9]+ = threadIdx\.x; lid[0-9]+ < 4; lid[0-9]+ \+= blockDim\.x\)' 2 "thread loops"
fi

f=tests/lift/local_same_item.lift
if gen $f; then
  expect_count $f '__syncthreads' 0 "barriers when each thread reads what it wrote"
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[4\];' 1 "shared array"
fi

f=tests/lift/vector_scale.lift
if gen $f; then
  expect_count $f '\*\(const float4 \*\)&xs\[wid[0-9]+ \* 1024 \+ lid[0-9]+ \* 4\]' 1 "float4 load"
  expect_count $f '\*\(float4 \*\)&out\[wid[0-9]+ \* 1024 \+ lid[0-9]+ \* 4\] = ' 1 "float4 store"
  expect_count $f 'const float \*__restrict__ xs' 1 "const __restrict__ input"
fi

f=tests/lift/vadd4.lift
if gen $f; then
  expect_count $f '\*\(const float4 \*\)&(xs|ys)\[gid[0-9]+ \* 4\]' 2 "float4 loads"
  expect_count $f 'for \(long long gid[0-9]+ = \(long long\)blockIdx\.x \* blockDim\.x \+ threadIdx\.x; .* \+= \(long long\)gridDim\.x \* blockDim\.x\)' 1 "grid-stride loop"
fi

f=tests/codegen/dot_par_seq.lift
if gen $f; then
  expect_count $f '^extern "C" __global__ void' 2 "kernels (parallel map, then the sequential sum)"
  expect_count $f '^/\* k1: one thread \*/' 1 "the sum runs on one thread"
  expect_count $f 'float \*__restrict__ tmp[0-9]+' 2 "the temporary is a global buffer of both kernels"
  expect_count $f '__syncthreads' 0 "barriers (the kernel boundary separates them)"
fi

# 3. running: a clear error without a device, the right result with one
out=$("$CLIFT" run -t cuda examples/dot.lift '[1, 2, 3]' '[4, 5, 6]' 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  if [ "$out" = "[32]" ]; then ok; else bad "run -t cuda examples/dot.lift: got $out, expected [32]"; fi
elif [ $rc -eq 1 ] && grep -q "no CUDA device" <<<"$out"; then ok
else bad "run -t cuda without a device: exit $rc, expected 1 with 'no CUDA device': $out"; fi

echo "cuda codegen: $pass passed, $fail failed"
[ $fail -eq 0 ]
