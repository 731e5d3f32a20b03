#!/usr/bin/env bash
# session8d_2026-11-27.sh — a short check on one H100 of the seventh session's last
# code changes: a work-group's toLocal of sequential code written by one work-item
# (F38's kernel), the unread-element fix (F39), the short loops unrolled on opencl:
# their tests/regress programs and the tests/lift programs using toLocal on cuda and
# NVIDIA's OpenCL, and compute-sanitizer racecheck and memcheck on cuda for F38's
# program and a work-group tile written by a mapSeq.
# Usage (device): bash bench/gpu/session8d_2026-11-27.sh   (about 90 s)
cd "$(dirname "$0")/../.." || exit 1
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
files="tests/regress/f38_wrg_two_step_loop.lift tests/regress/f39_*.lift $(grep -l toLocal tests/lift/*.lift tests/regress/*.lift | sort -u | tr '\n' ' ')"
for t in cuda opencl; do echo "$t: $(timeout 100 build/clift test -t $t $files 2>&1 | tail -n 1)"; done
cat > /tmp/tile.lift <<'L'
(lift (N) ((array-type float (* 64 N)))
  (lambda (xs) (join (mapWrg (lambda (c) (mapLcl (lambda (x) (* x 2.0f)) ((toLocal (mapSeq (lambda (x) (+ x 1.0f)))) c))) (split #64 xs)))))
L
in=$(python3 -c "print([round(0.25 * ((i * 7) % 13 - 6), 2) for i in range(256)])")
for tool in racecheck memcheck; do
  timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 build/clift run -t cuda tests/regress/f38_wrg_two_step_loop.lift '[1.5, -2.25, 3, 0.5, -4.75, 2]' 4 -7 > /tmp/s1.txt 2>&1
  echo "$tool f38: exit $? $(grep -hE 'SUMMARY' /tmp/s1.txt | head -n 1)"
  timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 build/clift run -t cuda /tmp/tile.lift "$in" > /tmp/s2.txt 2>&1
  echo "$tool tile: exit $? $(grep -hE 'SUMMARY' /tmp/s2.txt | head -n 1)"
done
echo "tile on cuda: $(build/clift run -t cuda /tmp/tile.lift "$in" | md5sum) interp: $(build/clift run -t interp /tmp/tile.lift "$in" | md5sum)"
