#!/usr/bin/env bash
# run-example.sh — set up, build, and run examples/dot.lift on the default
# target with two random vectors of 1000 floats; prints the dot product.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
awk 'BEGIN { srand(7); for (v = 0; v < 2; v++) { s = "["; for (i = 0; i < 1000; i++) s = s (i ? ", " : "") sprintf("%.3f", rand() * 2 - 1); print s "]" > ("/tmp/clift-dot-" v ".txt") } }'
echo "clift run examples/dot.lift @/tmp/clift-dot-0.txt @/tmp/clift-dot-1.txt" >&2
build/clift run examples/dot.lift @/tmp/clift-dot-0.txt @/tmp/clift-dot-1.txt
