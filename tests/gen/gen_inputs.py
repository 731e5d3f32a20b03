#!/usr/bin/env python3
"""gen_inputs.py — inputs and expected outputs for the language-level tests.

Writes the larger input files into tests/lift/data/ (.npy and @file text) and
prints, for every test that uses them, the `;; output:` line to paste into the
program's test block.  Every expected value is computed here with NumPy/Python,
independently of clift.  Float data in the large cases are small dyadic rationals
(k/16), so every product and partial sum is exact in float32 and the result does
not depend on the order a parallel backend adds in.

    python3 tests/gen/gen_inputs.py          # (re)write data files, print outputs
"""
import os
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "lift", "data")


def fmt(v):
    if isinstance(v, (list, np.ndarray)):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(x) for x in v) + ")"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return "%.9g" % float(v)


def dyadic(rng, n, lo=-32, hi=32):
    return (rng.integers(lo, hi + 1, size=n) / 16.0).astype(np.float32)


def save_npy(name, arr):
    np.save(os.path.join(DATA, name), arr)


def save_txt(name, arr):
    with open(os.path.join(DATA, name), "w") as f:
        f.write(fmt(arr) + "\n")


def main():
    os.makedirs(DATA, exist_ok=True)
    rng = np.random.default_rng(20240611)

    # vector_scale.lift: split 1024 / mapWrg / mapLcl / asVector 4, times 3.0f
    a = dyadic(rng, 1024)
    save_npy("vscale_1024.npy", a)
    print("vector_scale data/vscale_1024.npy ->", fmt(a.astype(np.float64) * 3.0))
    b = dyadic(rng, 2048)
    save_txt("vscale_2048.txt", b)
    print("vector_scale @data/vscale_2048.txt ->", fmt(b.astype(np.float64) * 3.0))

    # dot_wrg.lift: split (2048*2) / mapWrg / split 2048 / mapLcl / reduceSeq
    for n in (4096, 8192):
        xs = dyadic(rng, n)
        ys = dyadic(rng, n)
        save_npy("dot_xs_%d.npy" % n, xs)
        save_npy("dot_ys_%d.npy" % n, ys)
        prod = xs.astype(np.float64) * ys.astype(np.float64)
        partial = prod.reshape(-1, 2048).sum(axis=1)
        print("dot_wrg data/dot_xs_%d.npy data/dot_ys_%d.npy ->" % (n, n), fmt(partial))
        print("   full dot", fmt([prod.sum()]))

    # euler01.lift: multiples of 3 or 5 below 1000 (and below 100)
    e = np.arange(1000, dtype=np.int32)
    save_npy("euler_1000.npy", e)
    print("euler01 data/euler_1000.npy ->",
          fmt([sum(int(x) for x in e if x % 3 == 0 or x % 5 == 0)]))
    e2 = np.arange(100, dtype=np.int32)
    save_txt("euler_100.txt", e2)
    print("euler01 @data/euler_100.txt ->",
          fmt([sum(int(x) for x in e2 if x % 3 == 0 or x % 5 == 0)]))

    # gemv.lift: a 24 x 40 matrix from .npy
    m = dyadic(rng, 24 * 40).reshape(24, 40)
    v = dyadic(rng, 40)
    save_npy("gemv_mat_24x40.npy", m)
    save_npy("gemv_vec_40.npy", v)
    print("gemv data/gemv_mat_24x40.npy data/gemv_vec_40.npy ->",
          fmt(m.astype(np.float64) @ v.astype(np.float64)))

    # dot_vec4_wrg*.lift (seed 004 §6.3): asVector 4, split 8192, mapWrg, split 2048,
    # mapLcl, a float4 accumulator starting at the input z. Non-zero k/16 values:
    # every product and partial sum is exact in float32 (|sum| < 2^13, step 2^-8).
    rng4 = np.random.default_rng(20250214)
    n = 65536
    k = rng4.integers(1, 33, size=2 * n) * rng4.choice([-1, 1], size=2 * n)
    xs, ys = (k[:n] / 16.0).astype(np.float32), (k[n:] / 16.0).astype(np.float32)
    save_npy("dot4_xs_%d.npy" % n, xs)
    save_npy("dot4_ys_%d.npy" % n, ys)
    z = np.array([0.5, -1.25, 2.0, 0.75])
    prod = (xs.astype(np.float64) * ys.astype(np.float64)).reshape(-1, 2048, 4)  # [work-item][i][lane]
    partial = prod.sum(axis=1) + z                                                # one float4 per work-item
    print("dot_vec4_wrg z=<0.5, -1.25, 2, 0.75> ->",
          "[" + ", ".join("<" + ", ".join(fmt(x) for x in v) + ">" for v in partial) + "]")
    print("dot_vec4_wrg_scalar ->", fmt(partial.reshape(-1)))


if __name__ == "__main__":
    main()
