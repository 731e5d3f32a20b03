#!/usr/bin/env bash
# have_libfuzzer.sh — exit 0 when $FUZZ_CC (default clang) can build a libFuzzer
# target with ASan and UBSan, i.e. compiler and runtimes are installed (on
# Debian 12: the packages clang and libclang-rt-14-dev). Used by
# scripts/setup.sh (install if not) and tests/fuzz/run.sh (skip if still not).
set -u
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null 2>&1 || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$tmp/t.c"
"$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/t" "$tmp/t.c" >/dev/null 2>&1
