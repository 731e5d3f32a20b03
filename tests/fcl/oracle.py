#!/usr/bin/env python3
"""oracle.py — the expected outputs of the FCL examples, computed here in plain
Python (no NumPy), independently of clift: reverse, transpose, sum, row scans,
row sums, matrix products and prefix sums. Usage: oracle.py PROGRAM ARGS… prints clift's literal syntax."""
import sys

def lit(v):
    if isinstance(v, tuple): return "(" + ", ".join(lit(x) for x in v) + ")"
    if isinstance(v, list): return "[" + ", ".join(lit(x) for x in v) + "]"
    return str(v)

def wrap32(x): return (x + 2**31) % 2**32 - 2**31

prog = sys.argv[1]
args = [open(a[1:]).read() if a.startswith("@") else a for a in sys.argv[2:]]
if prog == "reverse":
    xs = eval(args[1]); print(lit(xs[::-1]))
elif prog == "transpose":
    rows, cols, xs = int(args[1]), int(args[2]), eval(args[3])
    print(lit([xs[r * cols + c] for c in range(cols) for r in range(rows)]))
elif prog == "reduce":
    xs = eval(args[0]); print(wrap32(sum(xs)))
elif prog == "scan":
    xs = eval(args[0]); acc = 0; out = []
    for x in xs: acc = wrap32(acc + x); out.append(acc)
    print(lit(out))
elif prog == "matmul":
    hA, wA, wB, A, B = int(args[1]), int(args[2]), int(args[3]), eval(args[4]), eval(args[5])
    print(lit([wrap32(sum(A[r * wA + k] * B[k * wB + c] for k in range(wA))) for r in range(hA) for c in range(wB)]))
elif prog == "folds":
    w, xs = int(args[0]), eval(args[1])
    rows = [xs[i * w:(i + 1) * w] for i in range(len(xs) // w)]
    scans = []
    for r in rows:
        acc = 0; scans.append(0)
        for x in r: acc = wrap32(acc + x); scans.append(acc)
    print(lit((scans, [wrap32(sum(r)) for r in rows])))
