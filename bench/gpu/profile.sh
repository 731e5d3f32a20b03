#!/usr/bin/env bash
# profile.sh — Nsight Compute on one clift benchmark's kernels (device machine):
#   bash bench/gpu/profile.sh PROGRAM SIZE-ARGS…   e.g. jacobi --size N=4096 --size M=4096
# prints launch configuration, registers, occupancy and speed-of-light figures.
set -u
cd "$(dirname "$0")/../.."
make -s >/dev/null || exit 1
prog=$1; shift
ncu --section SpeedOfLight --section LaunchStats --section Occupancy \
  build/clift bench -t cuda "$@" --runs 1 "bench/gpu/$prog.lift" 2>&1 |
  grep -E "k[0-9]+|Duration|Block Size|Grid Size|Registers Per|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|Compute \(SM\)|bench " | head -60
