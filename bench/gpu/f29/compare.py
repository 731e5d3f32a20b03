"""compare.py — F29: the vectors x, y and in (x.apl, y.apl, in.apl) written by
each target, against the exact values computed here with integers (every X is
a multiple of 2^-30; X^2 + Y^2 <= 1 is decided exactly, and no point lies
within 2^-48 of the circle, so rounding cannot flip one).
Usage: python3 compare.py DIR   (DIR holds NAME_TARGET[_k].npy)"""
import glob, os, sys
import numpy as np

N, B, D = 10_000_000, 24, 30
M2 = [1, 3, 5, 15, 17, 51, 85, 255, 257, 771, 1285, 3855, 4369, 13107, 21845, 65535, 65537,
      196611, 327685, 983055, 1114129, 3342387, 5570645, 16711935, 16843009, 50529027,
      84215045, 252645135, 286331153, 858993459]

def coord(m):
    i = np.arange(1, N + 1, dtype=np.uint64)
    x = np.zeros(N, dtype=np.uint64)
    for k in range(1, B + 1):
        v = np.uint64((m[k - 1] << (D - k)) & ((1 << D) - 1))
        x ^= np.where((i >> np.uint64(k - 1)) & np.uint64(1), v, np.uint64(0))
    return x

a, b = coord([1] * D), coord(M2)
expect = {"x": a.astype(np.float64) / 2.0**30, "y": b.astype(np.float64) / 2.0**30,
          "in": (a * a + b * b <= np.uint64(1 << 60)).astype(np.int64)}
print(f"exact count {int(expect['in'].sum())}")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.npy"))):
    name = os.path.basename(path)[:-4]
    want = expect[name.split("_")[0]]
    got = np.load(path).astype(want.dtype)
    if got.shape != want.shape:
        print(f"{name}: shape {got.shape}, expected {want.shape}")
        continue
    bad = np.nonzero(got != want)[0]
    print(f"{name}: {len(bad)} elements differ" + ("" if not len(bad) else ", first at i = "
          + ", ".join(f"{j + 1} (got {got[j]!r}, expected {want[j]!r})" for j in bad[:5])))
