#!/usr/bin/env bash
# f36 probe 3: encodings of integer max/min against the ptxas fault (mini2.cu), the
# clift kernel's SASS min/max instructions, the driver's version.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/f36}; mkdir -p "$OUT"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -n 2
for o in "" "-Xptxas -O1" "-Xptxas -O0"; do
  nvcc -arch=sm_90 -O3 $o -o /tmp/mini2 mini2.cu 2>&1 | grep -v warn | head -3
  echo "== nvcc -O3 $o"; /tmp/mini2
done
nvcc -arch=sm_90 -O3 -cubin -o /tmp/mini2.cubin mini2.cu 2>/dev/null
echo "== SASS min/max instructions per kernel"
cuobjdump -sass /tmp/mini2.cubin | awk '/Function :/ {f=$3} /MNMX/ {split($0,a,";"); sub(/^ *\/\*[0-9a-f]*\*\/ */,"",a[1]); c[f" "a[1]]++} END {for (k in c) print k}' | awk '{print $1, $2}' | sort | uniq -c
} 2>&1 | tee "$OUT/output.txt"
