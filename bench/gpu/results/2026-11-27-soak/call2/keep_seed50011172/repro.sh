#!/bin/sh
# usage: sh repro.sh [TARGET] (default: every target compared)
cd "$(dirname "$0")"
CLIFT=${CLIFT:-/work/main/.carry/frozen/build/clift}
for t in ${1:-interp c openmp}; do
  case $t in
    interp) opts=""; export CLIFT;;
    c) opts=""; export CLIFT;;
    openmp) opts=""; export CLIFT;;
    *) opts="";;
  esac
  echo "== $t $opts"; "$CLIFT" run -t "$t" $opts prog.lift '[-0.125, -1.375, 0.125, 2.25, -0.75, -1.125, -2.75, 2.25, -0.125, -0.75, 0.5, -1.75, 2.75, 0.125, -1, 1.25, 1.375, -0.875, 1.625, 0.125, -1.875, 1.25, -2.875, 0.5, 2.25, 0.5, 2.25, 0.625, -0.5, 2.75, 2.125, 1.75, 1.875, -1.625, 2.25, 0.125, -1.5, -0.25, 2.375, -2.5, -2.125, 1.875, -0.875, 1, -0.375, 2.375, -1.5, -2.375]' '[-1.25, 1.125, 1.25, -0.25, 0.375, 0.5, 2.875, -0.75, 1.75, -0.875, -1.5, -1.75]' '[-1.5, -1, -1.625, -1.125, 0.5, -3, 0.125, 0.25, 0.875, -0.5, 2.25, 2.875]' -9 6
done
