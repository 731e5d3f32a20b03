#!/usr/bin/env bash
# run.sh — the clift GPU benchmark, one command for the GPU machine (the device
# tool's `run`):   bash bench/gpu/run.sh
#
# Installs nothing. Builds clift (make) and the vendor peers (nvcc, in the
# background), then for every benchmark program bench/gpu/NAME.lift that exists:
#   checks     clift bench --check (against the interpreter) at a small size, -t cuda and -t opencl
#   timing     clift bench --runs 50 at each full size, -t cuda and -t opencl
#   sanitizers compute-sanitizer memcheck (small size) and racecheck (tiny size), -t cuda
# then the peers (peers.cu: cuBLAS, CUB, hand-written CUDA; jax_peers.py: JAX)
# and report.py, which writes ONE table to $OUT/performance_gpu.md.
# Nothing aborts the run: a missing program, a failing target or a step past its
# time shows as "—" in the table with the reason in the notes.
# Output (at most 8 files, the device tool's limit): $OUT (or bench/gpu/out/ when
# OUT is unset) gets performance_gpu.md, steps.tsv (one row per step), clift.log,
# sanitizer.log, peers.log, jax.log, build.log.
# Environment: CLIFT_COMMIT (the commit to name in the report where .git is absent), BUDGET_S (default 470: total seconds; steps that no longer fit
# are skipped), RUNS (default 50), SMALL=1 (small "full" sizes: a dry run on a
# machine without a big GPU), ONLY="scal dot" (a subset of the benchmarks).
set -uo pipefail
cd "$(dirname "$0")/../.."
G=bench/gpu
CLIFT=build/clift
O=${OUT:-$G/out}
mkdir -p "$O"
O=$(cd "$O" && pwd)
: >"$O/steps.tsv"; : >"$O/clift.log"; : >"$O/sanitizer.log"; : >"$O/peers.log"; : >"$O/jax.log"; : >"$O/build.log"
BUDGET=${BUDGET_S:-470}
RUNS=${RUNS:-50}
SMALL=${SMALL:-0}
T0=$SECONDS
TMPD=$(mktemp -d /tmp/clift_gpu_bench.XXXXXX)
CMDLINE="bash $G/run.sh"
[ "$SMALL" != 0 ] && CMDLINE="SMALL=$SMALL $CMDLINE"
[ -n "${ONLY:-}" ] && CMDLINE="ONLY='$ONLY' $CMDLINE"

# ---------------------------------------------------------------- the size tables
BENCHES="scal asum dot gemv sum transpose jacobi sgemm filter scan"
# variants: bench/gpu/BASE_WHAT.lift (e.g. sgemm_naive) runs with BASE's sizes and peers
# (filter_1pct: filter's sizes; its own peers, named filter_1pct, where they exist)
for f in "$G"/*_*.lift; do
  [ -f "$f" ] || continue
  v=$(basename "$f" .lift)
  case " $BENCHES " in *" ${v%%_*} "*) BENCHES="$BENCHES $v" ;; esac
done
[ -n "${ONLY:-}" ] && BENCHES=$ONLY
base() { echo "${1%%_*}"; }
V1=16777216 V2=134217728 G1=4096 G2=8192
[ "$SMALL" != 0 ] && { V1=1048576 V2=4194304 G1=512 G2=1024; }
full_sizes() {   # the timed sizes of each benchmark (N vectors; N rows, M cols; sgemm N)
  case $(base "$1") in
    scal|asum|dot|filter) echo "N=$V1 N=$V2" ;;
    gemv) echo "N=$G1,M=$G1 N=$G2,M=$G2" ;;
    sum|scan) echo "N=$V2" ;;
    transpose) echo "N=$G2,M=$G2" ;;
    jacobi) echo "N=$G1,M=$G1" ;;
    sgemm) echo "N=$G1" ;;
  esac
}
check_size() {   # --check against the interpreter: small
  case $(base "$1") in
    scal|asum|dot|sum|filter) echo "N=1048576" ;;
    scan) echo "N=262144" ;;   # 256 chunks of 1024: see check_tolerance
    gemv|transpose|jacobi) echo "N=256,M=256" ;;
    sgemm) echo "N=256" ;;
  esac
}
check_tolerance() {   # --check's tolerance: sums of random [-1, 1) values cancel
  # (|result| ~ sqrt(N) while the rounding error grows with sum |terms| ~ N), so
  # a relative error of 1e-4 is not a float32 bound there. value_close also
  # accepts an absolute error up to the tolerance: 5e-2 is above the
  # interpreter's own sequential float32 error on 2^20 terms (~0.03 typical,
  # 0.012 seen against the tree) and far below a lost or doubled chunk of
  # 16384 terms (~70).
  # scan: every prefix sum is such a sum. The interpreter's sequential float32
  # prefix sums drift from the exact ones by up to 0.014 absolute over 2^18
  # uniform [-1, 1) terms (max over 300 seeds; 0.05 at 2^20, where 5e-2 would
  # fail now and then: hence the check size 2^18); the chunked scan is closer
  # to exact. A lost or doubled chunk of 1024 shifts every later prefix by
  # ~18, an element out of place by |x| ~ 0.5. filter: x * 2 is exact (1e-4)
  case $(base "$1") in
    dot|sum|scan) echo 5e-2 ;;
    *) echo 1e-4 ;;
  esac
}
memcheck_size() { check_size "$1"; }
racecheck_size() {   # racecheck is slow: tiny
  case $(base "$1") in
    scal|asum|dot|sum|filter|scan) echo "N=262144" ;;
    gemv|transpose|jacobi) echo "N=128,M=128" ;;
    sgemm) echo "N=128" ;;
  esac
}
size_args() { local s; for s in ${1//,/ }; do printf -- '--size %s ' "$s"; done; }

# ---------------------------------------------------------------- steps and the clock
RESERVE=0   # seconds kept for the later, mandatory phases
left() { echo $(( BUDGET - (SECONDS - T0) - RESERVE )); }
log() { echo "[$(( SECONDS - T0 ))s] $*"; }
clean() { tr '\t\n' '  ' | sed 's/  */ /g; s/ $//' | cut -c1-300; }
# step KIND BENCH TARGET SIZES TIMEOUT LOG -- command…: runs the command with a
# timeout (cut to the time left), appends its output to LOG under a header, and
# one row to steps.tsv: kind bench target sizes status rc seconds summary
step() {
  local kind=$1 bench=$2 target=$3 sizes=$4 want=$5 logf=$6; shift 7
  local t; t=$(left); [ "$t" -gt "$want" ] && t=$want
  if [ "$t" -lt 5 ]; then
    printf '%s\t%s\t%s\t%s\tskipped\t-\t0\tskipped: out of time (budget %ss)\n' "$kind" "$bench" "$target" "$sizes" "$BUDGET" >>"$O/steps.tsv"
    log "$kind $bench $target $sizes: skipped (time)"; return 0
  fi
  local s=$SECONDS rc
  { echo "### $kind $bench $target $sizes (timeout ${t}s): $*"; } >>"$logf"
  timeout -k 5 "$t" "$@" >"$TMPD/o" 2>&1; rc=$?
  cat "$TMPD/o" >>"$logf"
  local secs=$(( SECONDS - s )) status summary
  if [ $rc = 0 ]; then status=ok; elif [ $rc = 124 ] || [ $rc = 137 ]; then status=timeout; else status=fail; fi
  case $kind in
    memcheck|racecheck) summary=$(grep -E 'SUMMARY' "$TMPD/o" | tail -n 1 | sed 's/^========= *//') ;;
    *) summary=$(grep -E '^bench ' "$TMPD/o" | tail -n 1) ;;
  esac
  if [ $status != ok ]; then
    local err; err=$(grep -Ei 'error|fail|differ|cannot|not found|no ' "$TMPD/o" | grep -v '^=* *$' | head -n 2 | clean)
    [ -z "$err" ] && err=$(tail -n 2 "$TMPD/o" | clean)
    [ $status = timeout ] && err="timed out after ${t}s${err:+; $err}"
    summary="rc $rc: ${err:-no output}${summary:+ | $summary}"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$bench" "$target" "$sizes" "$status" "$rc" "$secs" "$(echo "$summary" | clean)" >>"$O/steps.tsv"
  log "$kind $bench $target $sizes: $status (${secs}s) $(echo "$summary" | cut -c1-140)"
}
missing() {   # a benchmark without its program: one row per planned step
  printf '%s\t%s\t%s\t%s\tmissing\t-\t0\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$O/steps.tsv"
}
meta() { printf 'meta\t%s\t%s\n' "$1" "$(echo "$2" | clean)" >>"$O/steps.tsv"; }

# ---------------------------------------------------------------- machine, build
log "clift GPU benchmark: budget ${BUDGET}s, runs $RUNS, output $O"
meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta command "$CMDLINE"
meta gpu "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || true)"
meta driver "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 || true)"
meta cuda "$(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | head -n 1 || true)"
meta nvcc "$(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*, V[0-9.]*' || true)"
# the device machine gets the working tree without .git: pass CLIFT_COMMIT=… there
COMMIT=${CLIFT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
[ -z "${CLIFT_COMMIT:-}" ] && [ -n "$(git status --porcelain 2>/dev/null | grep -v '^??' | head -n 1)" ] && COMMIT="$COMMIT (with uncommitted changes)"
meta commit "$COMMIT"
meta host "$(uname -m), $(nproc) cores"
meta runs "$RUNS"
meta small "$SMALL"
nvidia-smi >>"$O/build.log" 2>&1 || echo "nvidia-smi: not available" >>"$O/build.log"

# the peers build in the background while clift runs
PEERS=$TMPD/peers
if command -v nvcc >/dev/null; then
  ( nvcc -O3 -arch=sm_90 "$G/peers.cu" -lcublas -o "$PEERS" >"$TMPD/nvcc.log" 2>&1; echo $? >"$TMPD/nvcc.rc" ) &
  NVCC_PID=$!
else
  echo 127 >"$TMPD/nvcc.rc"; echo "nvcc not found" >"$TMPD/nvcc.log"; NVCC_PID=
fi

log "make"
if ! timeout 300 make -s -j"$(nproc)" >>"$O/build.log" 2>&1 || [ ! -x "$CLIFT" ]; then
  meta build_error "make failed (see build.log): $(tail -n 3 "$O/build.log")"
  log "make failed"
fi

# OpenCL: NVIDIA's platform through an ICD loader. Where the machine has the driver's
# libnvidia-opencl but no loader or no .icd file, point the loader at it through
# environment variables (nothing is installed; the settings apply to the opencl steps).
OCL_ENV=()
ocl_setup() {
  local loader="" vend=""
  if ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1'; then
    for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
      [ -e "$d/libOpenCL.so.1" ] && { loader=$d; break; }
    done
    [ -n "$loader" ] && OCL_ENV+=("LD_LIBRARY_PATH=$loader${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    meta opencl_loader "${loader:-none found}${loader:+/libOpenCL.so.1 (through LD_LIBRARY_PATH)}"
  else
    meta opencl_loader "$(ldconfig -p | grep -m1 'libOpenCL\.so\.1' | sed 's/.*=> //')"
  fi
  if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
    vend=$(ldconfig -p 2>/dev/null | grep -m1 'libnvidia-opencl\.so\.1' | sed 's/.*=> //')
    [ -z "$vend" ] && vend=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -n 1)
    if [ -n "$vend" ]; then
      mkdir -p "$TMPD/icd"; echo "$vend" >"$TMPD/icd/nvidia.icd"
      OCL_ENV+=("OCL_ICD_VENDORS=$TMPD/icd" "OCL_ICD_FILENAMES=$vend")
      meta opencl_icd "$vend (through OCL_ICD_VENDORS; no nvidia .icd in /etc/OpenCL/vendors)"
    else
      meta opencl_icd "no NVIDIA OpenCL ICD; /etc/OpenCL/vendors: $(ls /etc/OpenCL/vendors 2>/dev/null | tr '\n' ' ')"
    fi
  else
    meta opencl_icd "$(grep -ls nvidia /etc/OpenCL/vendors/*.icd | head -n 1)"
  fi
}
ocl_setup
OCL_RUN=(env ${OCL_ENV[@]+"${OCL_ENV[@]}"})   # prefix: a command with the OpenCL settings
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || echo compute-sanitizer)

have() { [ -f "$G/$1.lift" ]; }
for b in $BENCHES; do have "$b" || log "$G/$b.lift: missing"; done

# ---------------------------------------------------------------- phases, by priority
RESERVE=150   # peers + jax + report
log "phase: checks (cuda)"
for b in $BENCHES; do
  s=$(check_size "$b")
  if have "$b"; then step check "$b" cuda "$s" 90 "$O/clift.log" -- $CLIFT bench -t cuda $(size_args "$s") --runs 2 --check --tolerance "$(check_tolerance "$b")" "$G/$b.lift"
  else missing check "$b" cuda "$s" "$G/$b.lift does not exist"; fi
done
log "phase: timing (cuda)"
for b in $BENCHES; do for s in $(full_sizes "$b"); do
  if have "$b"; then step time "$b" cuda "$s" 90 "$O/clift.log" -- $CLIFT bench -t cuda $(size_args "$s") --runs "$RUNS" "$G/$b.lift"
  else missing time "$b" cuda "$s" "$G/$b.lift does not exist"; fi
done; done

log "phase: peers"
RESERVE=100   # jax + report
[ -n "$NVCC_PID" ] && wait "$NVCC_PID"
cat "$TMPD/nvcc.log" >>"$O/build.log"
if [ "$(cat "$TMPD/nvcc.rc")" = 0 ]; then
  pa=""; [ "$SMALL" != 0 ] && pa=small
  step peers all cuda - 150 "$O/peers.log" -- "$PEERS" $pa
else
  printf 'peers\tall\tcuda\t-\tfail\t%s\t0\tnvcc failed: %s\n' "$(cat "$TMPD/nvcc.rc")" "$(tail -n 2 "$TMPD/nvcc.log" | clean)" >>"$O/steps.tsv"
  log "peers: nvcc failed"
fi

RESERVE=110   # jax + memcheck + report
log "phase: checks and timing (opencl)"
for b in $BENCHES; do
  s=$(check_size "$b")
  if have "$b"; then step check "$b" opencl "$s" 60 "$O/clift.log" -- "${OCL_RUN[@]}" $CLIFT bench -t opencl $(size_args "$s") --runs 2 --check --tolerance "$(check_tolerance "$b")" "$G/$b.lift"
  else missing check "$b" opencl "$s" "$G/$b.lift does not exist"; fi
done
for b in $BENCHES; do for s in $(full_sizes "$b"); do
  if have "$b"; then step time "$b" opencl "$s" 60 "$O/clift.log" -- "${OCL_RUN[@]}" $CLIFT bench -t opencl $(size_args "$s") --runs "$RUNS" "$G/$b.lift"
  else missing time "$b" opencl "$s" "$G/$b.lift does not exist"; fi
done; done

log "phase: jax"
RESERVE=60   # memcheck + report
ja=""; [ "$SMALL" != 0 ] && ja=small
step jax all jax - 120 "$O/jax.log" -- env PYTHONUNBUFFERED=1 python3 "$G/jax_peers.py" $ja

log "phase: compute-sanitizer"
RESERVE=10
for b in $BENCHES; do
  s=$(memcheck_size "$b")
  if have "$b"; then step memcheck "$b" cuda "$s" 60 "$O/sanitizer.log" -- "$SAN" --tool memcheck --error-exitcode 3 --print-limit 20 $CLIFT bench -t cuda $(size_args "$s") --runs 1 "$G/$b.lift"
  else missing memcheck "$b" cuda "$s" "$G/$b.lift does not exist"; fi
done
for b in $BENCHES; do
  s=$(racecheck_size "$b")
  if have "$b"; then step racecheck "$b" cuda "$s" 60 "$O/sanitizer.log" -- "$SAN" --tool racecheck --error-exitcode 3 --print-limit 20 $CLIFT bench -t cuda $(size_args "$s") --runs 1 "$G/$b.lift"
  else missing racecheck "$b" cuda "$s" "$G/$b.lift does not exist"; fi
done

RESERVE=0
log "report"
python3 "$G/report.py" "$O" || log "report.py failed"
rm -rf "$TMPD"
log "done: $O/performance_gpu.md"
[ -f "$O/performance_gpu.md" ] && cat "$O/performance_gpu.md"
exit 0
