#!/usr/bin/env python3
"""Expected outputs of tests/apl/replicate_runtime.apl and expand_runtime.apl,
computed here from APL's definitions (ISO 13751: replicate repeats item i c[i]
times, -c[i] fills for a negative count; expand puts the next item where the
mask is 1, the fill elsewhere), independently of clift. Prints one line per
output, in clift's format."""

def rep(c, x, fill=0):
    if len(x) == 1: x = x * len(c)
    assert len(c) == len(x)
    out = []
    for k, v in zip(c, x): out += [v] * k if k >= 0 else [fill] * -k
    return out

def exp(b, x, fill=0):
    if len(x) == 1: x = x * sum(b)
    assert sum(b) == len(x), "length error"
    it = iter(x)
    return [next(it) if k else fill for k in b]

def power(f, n, w):
    for _ in range(n): w = f(w)
    return w

def show(v):
    if isinstance(v, str): return v
    if isinstance(v, list): return "[" + ", ".join(show(e) for e in v) + "]"
    return repr(v)

x = [3, 7, 1, 9, 5]
gt = lambda v, k: [int(e > k) for e in v]
M12 = [[4 * i + j + 1 for j in range(4)] for i in range(3)]
print("replicate_runtime.apl")
for line in [
    rep([1 + b for b in gt(x, 5)], x),
    rep([1 - 2 * b for b in gt(x, 5)], x),
    rep([2 * b for b in gt(x, 20)], x),
    rep([1 * int(e == 9) for e in x], x),
    rep([1 + b for b in gt([4], 3)], [4]),
    "".join(rep([1 + b for b in gt(x, 5)], list("abcde"), " ")),
    rep([1 + b for b in gt(x, 5)], [1.5, 2.5, 3.5, 4.5, 5.5]),
    rep([1 + b for b in gt(x, 5)], [9]),
    rep([x[1] - e for e in x], x),
    rep([sum(gt(x, 4)[:i + 1]) for i in range(5)], x),
    rep([1 + int(x[0] > 2)] * 5, x),
    rep([e % 3 for e in x], x),
    rep([sum(gt(r, 5)) for r in M12], [3, 4, 5]),
    rep([max(gt(r, 5)) for r in M12], [3, 4, 5]),
    rep([e * b for e, b in zip(x, gt(x, 5))], x),
    power(lambda w: [e + sum(rep([1 + b for b in gt(w, 5)], w)) for e in w], 2, [3, 7, 1]),
    [2 * e for e in rep([1 + b for b in gt(x, 5)], x)],
    sum(rep([1 + b for b in gt(x, 5)], x)),
    len(rep([1 + b for b in gt(x, 5)], x)),
]: print(show(line))
print("expand_runtime.apl")
M = [[1, 2, 3], [4, 5, 6]]
v = [5, 1, 7, 2, 8]
for line in [
    exp(gt(x, 5), [10, 20]),
    "".join(exp(gt(v, 4)[:3], list("ab"), " ")),
    exp(gt(x, 5), [2.5, 3.5], 0.0),
    exp(gt(x, 5), [7]),
    exp(gt(x, 20), [7]),
    exp(gt([3], 2), [5]),
    [exp(gt(v, 4), r) for r in M],
    [list(r) for r in zip(*[exp(gt(v, 4)[:3], list(col)) for col in zip(*M)])],
    sum(exp(gt(x, 5), [10, 20])),
]: print(show(line))
print("replicate_runtime_matrix.apl")
# ⌿ of an array of rank ≥ 2: rep over its rows (items of the first axis), a
# row of fills for a negative count; a char matrix prints one row a line
fills = lambda r: [fills(e) for e in r] if isinstance(r, list) else (" " if isinstance(r, str) else 0)
rows = lambda c, A: rep(c, A, fills(A[0]))
col1 = [r[0] for r in M12]
C32 = [["a", "b"], ["c", "d"], ["e", "f"]]
D32 = [[1.5, 2.5], [3.5, 4.5], [5.5, 6.5]]
A322 = [[[4 * i + 2 * j + k + 1 for k in range(2)] for j in range(2)] for i in range(3)]
R = rows([1 + b for b in gt(col1, 2)], M12)
shape = lambda A: [len(A)] + (shape(A[0]) if A and isinstance(A[0], list) else ([len(M12[0])] if not A else []))
for line in [
    rows(gt(col1, 2), M12),
    rows(gt(col1, 20), M12),
    shape(rows(gt(col1, 20), M12)),
    rows([int(e == 5) for e in col1], M12),
    rows([1 + b for b in gt(col1, 2)], M12),
    rows([1 - 2 * b for b in gt(col1, 2)], M12),
    rows([2 * b for b in gt(col1, 20)], M12),
    "\n".join("".join(r) for r in rows(gt(col1, 2), C32)),
    rows([1 + b for b in gt(col1, 2)], D32),
    rows([1 - 2 * b for b in gt(col1, 5)], D32),
    rows(gt(col1, 2), A322),
    rows([1 + int(col1[0] > 0)] * 3, M12),
    rows([1 + b for b in gt(col1, 2)], [[1, 2, 3, 4]]),
    [sum(r) for r in R],
    [sum(c) for c in zip(*R)],
    [[2 * e for e in r] for r in R],
    [len(R), len(R[0])],
    [sum(c) for c in zip(*rows(gt(col1, 2), M12))],
    len(R),
]: print(show(line))
print("replicate_runtime_last.apl")
# / of a matrix: rep along each row (the same counts for every row); a char
# matrix prints one row a line
row1 = M12[0]
last = lambda c, A: [rep(c, r, fills(r[0])) for r in A]
L = last([1 + b for b in gt(row1, 2)], M12)
T = lambda A: [list(c) for c in zip(*A)]
for line in [
    last(gt(row1, 2), M12),
    last([1 + b for b in gt(row1, 2)], M12),
    last([1 - 2 * b for b in gt(row1, 2)], M12),
    last(gt(row1, 20), M12),
    [len(M12), len(last(gt(row1, 20), M12)[0])],
    "\n".join("".join(r) for r in last(gt(row1, 2), [list("abcd"), list("efgh")])),
    last([1 + b for b in gt(row1, 2)], [[1.5, 2.5, 3.5, 4.5]]),
    [sum(r) for r in L],
    [sum(c) for c in zip(*L)],
    [[2 * e for e in r] for r in L],
    [len(L), len(L[0])],
    T(L),
    T(rows(gt(col1, 2), M12)),
    last([1 + b for b in gt(col1, 2)], T(M12)),
    [[sum(r) for r in last([1 + int(e > 1) for e in [1, 2, 3]], P)] for P in [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]],
    len(L),
]: print(show(line))
print("replicate_runtime_range.apl")
# counts from ⌊ ⌈ of divisions, doubles, ⌈ ⌊ with an unbounded side, |, ≢,
# the bit and (APL's ⌊x÷y is Python's x // y, x|y is y % x)
import itertools
import math
V = [5, 6, 7]
W = [math.factorial(k) for k in (3, 4, 5)]
B = gt(V, 5)
C = rep(B, V)
Md = [[1.5, 2.5, 0.5], [3, 1, 2]]
for line in [
    rep([v // 2 for v in V], V),
    rep([-(-v // 3) for v in V], V),
    rep([v // -2 for v in V], V),
    rep([max(0, min(3, w)) for w in W], V),
    rep([w % v for v, w in zip(V, W)], V),
    rep([(2 * v) // (1 + i) for i, v in zip((1, 2, 3), V)], V),
    rep([math.floor(2.5 * b) for b in B], V),
    rep([len(C)] * 3, V),
    rep([w & 3 for w in W], V),
    rep([math.floor(max(r)) for r in Md], [4, 8]),
    rep([math.floor(abs(d)) for d in (-1.5, 2.5, -0.5)], V),
    rep([(v // 2) % 2 for v in V], V),
    rep([math.floor((v / 4) % 1.5) for v in V], V),
    rep([math.floor(math.exp(v / 3)) for v in V], V),
    rep([math.floor(math.log(v)) for v in V], V),
    rep([math.floor(2 + 2 * math.sin(v)) for v in V], V),
    rep([math.floor(2 ** (v - 4)) for v in V], V),
    rep([math.floor(v ** 0.5) for v in V], V),
    rep([math.floor(math.gamma(v - 4 + 1)) for v in V], V),
    rep([math.floor(math.gamma(v / 4 + 1)) for v in V], V),
    rep([math.prod(v - 4 for v in V)] * 3, V),
    rep(list(itertools.accumulate((v - 4 for v in V), lambda a, b: a * b)), V),
    rep([abs(math.prod(4 - v for v in V))] * 3, V),
    "".join(rep([v // 2 for v in V], list("abc"), " ")),
    rows([v // 2 for v in V], [[1, 2], [3, 4], [5, 6]]),
    last([v // 3 for v in V], [[1, 2, 3], [4, 5, 6]]),
]: print(show(line))
print("replicate_runtime_rank3.apl")
# / of an array of rank 3: rep along each of its rows; chars one row a line
A = [[[6 * i + 3 * j + k + 1 for k in range(3)] for j in range(2)] for i in range(2)]
a = A[0][0]
last3 = lambda c, X: [last(c, P) for P in X]
chars = [[list("abc"), list("def")], [list("ghi"), list("jkl")]]
for line in [
    last3([1 + b for b in gt(a, 1)], A),
    "\n".join("".join(r) for P in last3(gt(a, 1), chars) for r in P),
    last3(gt(a, 5), A),
    [2, 2, 0],
    last3([1 + b for b in gt(a, 2)], [[[0.5, 1.5, 2.5]], [[3.5, 4.5, 5.5]]]),
    last3([1 - 2 * b for b in gt(a, 2)], A),
]: print(show(line))
print("replicate_runtime_inner.apl")
# a / result scanned, reversed, dropped, compressed; ⍉ of a ⌿ result of rank 3
import itertools
R = last([1 + b for b in gt(row1, 2)], M12)
S = [list(itertools.accumulate(r)) for r in R]
Tr = R[::-1]
A = [[[6 * i + 3 * j + k + 1 for k in range(3)] for j in range(2)] for i in range(2)]
Q = rows([1 + b for b in gt([P[0][0] for P in A], 5)], A)
P = [[[Q[i][j][k] for i in range(len(Q))] for j in range(2)] for k in range(3)]
for line in [
    sum(S[0]), S, Tr, R[1:], [R[0], R[2]],
    [[s * t for s, t in zip(a, b)] for a, b in zip(S, Tr)],
    [len(P), len(P[0]), len(P[0][0])], P, S,
]: print(show(line))
print("replicate_runtime_dynamic.apl")
# compress and replicate of compress and replicate results
V = [3, 8, 1, 9, 7, 2]
C = rep(gt(V, 2), V)
D = rep([int(e < 9) for e in C], C)
E = rep(gt(V, 20), V)
R = rep([1 + b for b in gt(C, 7)], C)
W = rep(gt(V, 2), list("abcdef"), " ")
for line in [
    D, sum(D), len(D),
    R, rep([e - 8 for e in C], C), rep([1 + b for b in gt(E, 7)], E),
    rep(gt(R, 8), R), rep([1 + b for b in gt(R, 8)], R),
    "".join(rep([1 + int(w == "d") for w in W], W, " ")),
    rep([1 + b for b in gt(C, 7)], [e * 0.5 for e in C]),
    len(R),
]: print(show(line))
