#!/bin/sh
# usage: sh repro.sh [TARGET] (default: every target compared)
cd "$(dirname "$0")"
CLIFT=${CLIFT:-/work/main/build/clift}
for t in ${1:-interp c openmp opencl cuda}; do
  case $t in
    interp) opts=""; export CLIFT;;
    c) opts=""; export CLIFT;;
    openmp) opts=""; export OMP_NUM_THREADS=3;;
    opencl) opts="--global-size 1"; export CLIFT;;
    cuda) opts="--global-size 1"; export CLIFT;;
    *) opts="";;
  esac
  echo "== $t $opts"; "$CLIFT" run -t "$t" $opts prog.lift '[[1.25, -0.75, -1, 1.25], [0.5, -1, -1.875], [0.875, 1.375], [-0.125]]' '[7, 7, 3, 4]' -4
done
