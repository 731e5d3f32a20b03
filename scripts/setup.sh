#!/usr/bin/env bash
# setup.sh — install what clift needs on a fresh Debian machine (only what is
# missing), then build build/clift. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v cc   >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || need+=(make)
if ((${#need[@]})); then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

# The opencl target (SPEC §6) runs on PoCL where no other OpenCL platform is
# installed. clift loads libOpenCL at run time, so the build does not need it:
# a failed install only leaves the opencl target out of `clift test`. The
# headers and the loader's link library are for the host files of
# `clift compile -t opencl` (tests/codegen/opencl_lib_test.sh).
if ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1 || ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1' ||
   [ ! -f /usr/include/CL/cl.h ] || [ -z "$(ls /usr/lib/*/libOpenCL.so /usr/lib/libOpenCL.so 2>/dev/null)" ]; then
  echo "setup: installing pocl-opencl-icd ocl-icd-opencl-dev opencl-headers (the opencl target)" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  { $SUDO apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pocl-opencl-icd ocl-icd-opencl-dev opencl-headers; } >&2 ||
    echo "setup: could not install PoCL; the opencl target will be skipped" >&2
fi

# The fuzz test (tests/fuzz) builds with clang's libFuzzer, ASan and UBSan. On
# Debian 12 the package clang (clang-14) only recommends libclang-rt-14-dev,
# which holds those runtimes, so both are asked for. A failed install only
# skips the fuzz test.
if ! bash tests/fuzz/have_libfuzzer.sh; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  command -v clang >/dev/null 2>&1 || {
    echo "setup: installing clang (the fuzz test)" >&2
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang; } >&2 || true
  }
  v=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
  if [ -n "$v" ] && ! bash tests/fuzz/have_libfuzzer.sh; then
    echo "setup: installing libclang-rt-$v-dev (libFuzzer and the sanitizer runtimes, the fuzz test)" >&2
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "libclang-rt-$v-dev"; } >&2 || true
  fi
  bash tests/fuzz/have_libfuzzer.sh || echo "setup: clang cannot build a libFuzzer target; the fuzz test will be skipped" >&2
fi

make -s -j"$(nproc)" all >&2
