#!/usr/bin/env python3
"""gen_tests.py — writes the language-level test programs tests/lift/*.lift and
examples/dot.lift, with their `;; test:` blocks (SPEC §9).

Inputs are fresh random values (fixed seed, so the files are reproducible); every
expected output is computed here with NumPy/Python, never by running clift.  Each
float reference is evaluated twice — in float64 (the value written down) and in
float32 in the program's own evaluation order — and the two must agree to 1e-6, so a
test never depends on rounding.  Large inputs come from tests/gen/gen_inputs.py
(run it first); paths in `input:` lines are relative to the .lift file.

    python3 tests/gen/gen_inputs.py && python3 tests/gen/gen_tests.py
"""
import os
import zlib
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LIFT = os.path.join(ROOT, "tests", "lift")
DATA = os.path.join(LIFT, "data")

rng = np.random.default_rng(7734)
F32, F64 = np.float32, np.float64


# ---------------------------------------------------------------- values
def fmt(v):
    if isinstance(v, np.ndarray):
        return fmt(list(v))
    if isinstance(v, list):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(x) for x in v) + ")"
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, Dbl):
        return "%.17g" % v.x
    if isinstance(v, Lit):
        return v.s
    return "%.9g" % float(v)


class Lit:            # an input float written exactly as its decimal text
    def __init__(self, s): self.s = s


class Dbl:            # a double output
    def __init__(self, x): self.x = x


def rfloats(n, lo=-10.0, hi=10.0, dec=2):
    """n random decimals, none zero; returned as the text literals."""
    out = []
    while len(out) < n:
        x = round(float(rng.uniform(lo, hi)), dec)
        if x != 0.0:
            out.append(x)
    return out


def rints(n, lo=-50, hi=50):
    return [int(x) for x in rng.integers(lo, hi + 1, size=n)]


def as_dt(xs, dt):
    """decimal literals -> values as parsed into float32, then widened to dt."""
    return np.array(xs, dtype=F64).astype(F32).astype(dt)


def close(a, b, tol=1e-6):
    a = np.asarray(a, dtype=F64).ravel(); b = np.asarray(b, dtype=F64).ravel()
    assert a.shape == b.shape
    bad = np.abs(a - b) > tol * np.maximum(np.maximum(np.abs(a), np.abs(b)), 1.0)
    return not bad.any()


def checked(ref, *args):
    """ref(dt, *args) at float64 and at float32; they must agree."""
    hi = ref(F64, *args)
    lo = ref(F32, *args)
    flat_hi = flatten(hi); flat_lo = flatten(lo)
    assert close(flat_hi, flat_lo), ("rounding-sensitive test", flat_hi, flat_lo)
    return hi


def flatten(v):
    if isinstance(v, (list, tuple, np.ndarray)):
        r = []
        for x in v:
            r.extend(flatten(x))
        return r
    return [float(v)]


def seq_reduce(f, init, xs):
    acc = init
    for x in xs:
        acc = f(acc, x)
    return acc


# ---------------------------------------------------------------- files
FILES = {}


PENDING = {"err_filter_zip", "euler01_minlift", "filter_glb", "filter_seq"}   # need filter (tests/pending/README.md)


def program(name, header, src, tests, path=None):
    if name in PENDING and path is None:
        path = os.path.join(ROOT, "tests", "pending", name + ".lift")
        tests = [dict(t, inputs=[("../lift/" + i if isinstance(i, str) and i.startswith("data/") else i)
                                 for i in t.get("inputs", [])]) for t in tests]
    lines = [";; " + l if l else ";;" for l in header.strip("\n").split("\n")]
    out = "\n".join(lines) + "\n" + src.strip("\n") + "\n\n"
    for t in tests:
        out += ";; test: %s\n" % t["name"]
        for i in t.get("inputs", []):
            out += ";; input: %s\n" % (i if isinstance(i, str) else fmt(i))
        if "error" in t:
            out += ";; error: %s\n" % t["error"]
        else:
            out += ";; output: %s\n" % fmt(t["output"])
        if "tol" in t:
            out += ";; tolerance: %s\n" % t["tol"]
    FILES[path or os.path.join(LIFT, name + ".lift")] = out


def T(name, inputs, output=None, error=None, tol=None):
    t = {"name": name, "inputs": inputs}
    if error is not None:
        t["error"] = error
    else:
        t["output"] = output
    if tol is not None:
        t["tol"] = tol
    return t


FARR = "(array-type float N)"


# ================================================================ programs
def p_twice():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (* x 2.0f)) xs)))"""
    ref = lambda dt, xs: as_dt(xs, dt) * dt(2.0)
    ts = []
    for name, n in (("eight random floats", 8), ("odd length 17", 17), ("single element", 1)):
        xs = rfloats(n)
        ts.append(T(name, [xs], checked(ref, xs)))
    program("twice", "twice: every element times 2 (min-lift corpus), one mapGlb", src, ts)


def p_twice_global():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    ((toGlobal (mapGlb (lambda (x) (* x 2.0f)))) xs)))"""
    ref = lambda dt, xs: as_dt(xs, dt) * dt(2.0)
    ts = [T("twelve floats", [xs], checked(ref, xs)) for xs in [rfloats(12)]]
    ts += [T("forty-one floats", [xs], checked(ref, xs)) for xs in [rfloats(41, -100, 100, 3)]]
    program("twice_global", "twice with the output placed in global memory: (toGlobal (mapGlb f)) is a function", src, ts)


def p_twice_wrg_lcl():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    ((o join
        (mapWrg (o join (mapLcl (mapSeq (lambda (x) (* x 2.0f)))) (split #2)))
        (split #8))
     xs)))"""
    ref = lambda dt, xs: as_dt(xs, dt) * dt(2.0)
    ts = [T("sixteen floats (2 work-groups)", [xs], checked(ref, xs)) for xs in [rfloats(16)]]
    ts += [T("forty floats (5 work-groups)", [xs], checked(ref, xs)) for xs in [rfloats(40)]]
    program("twice_wrg_lcl", "twice split over work-groups of 8 and local threads of 2 (mapWrg/mapLcl/mapSeq)", src, ts)


def p_sum():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (reduceSeq 0.0f (lambda (acc x) (+ acc x)) xs)))"""
    ref = lambda dt, xs: [seq_reduce(lambda a, x: a + x, dt(0), as_dt(xs, dt))]
    ts = []
    for name, xs in (("ten positive floats", rfloats(10, 0.5, 20)),
                     ("sixty-four floats", rfloats(64, 1, 100)),
                     ("one element", rfloats(1))):
        ts.append(T(name, [xs], checked(ref, xs)))
    program("sum", "sum: reduceSeq with +, the result is a one-element array", src, ts)


def p_sum_int():
    src = """(lift (N) ((array-type int N))
  (lambda (xs)
    (reduceSeq 0 (lambda (acc x) (+ acc x)) xs)))"""
    ts = []
    for name, xs in (("signed ints", rints(13, -1000, 1000)), ("fifty ints", rints(50, -30000, 30000))):
        ts.append(T(name, [xs], [sum(xs)]))
    program("sum_int", "sum of ints with reduceSeq", src, ts)


def p_composition():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    ((o (mapSeq (lambda (x) (- x 1.5f)))
        (mapSeq (lambda (x) (* x x)))
        (mapSeq (lambda (x) (+ x 2.0f))))
     xs)))"""
    def ref(dt, xs):
        x = as_dt(xs, dt)
        y = x + dt(2.0)
        return y * y - dt(1.5)
    ts = [T("(x+2)^2-1.5, rightmost first", [xs], checked(ref, xs)) for xs in [rfloats(9, -5, 5)]]
    ts += [T("twenty floats", [xs], checked(ref, xs)) for xs in [rfloats(20, 0, 8)]]
    program("composition", "composition: (o f g h) applies h first", src, ts)


def p_composition_minlift():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (toGlobal
      (o (mapSeq (lambda (x) (* x 3.0f)))
         (mapSeq (lambda (x) (- x 0.5f)))
         xs))))"""
    ref = lambda dt, xs: (as_dt(xs, dt) - dt(0.5)) * dt(3.0)
    ts = [T("3*(x-0.5)", [xs], checked(ref, xs)) for xs in [rfloats(11)]]
    ts += [T("thirty floats", [xs], checked(ref, xs)) for xs in [rfloats(30, -3, 3, 3)]]
    program("composition_minlift",
            "min-lift style: `o` whose last operand is the data applies the composition to it,\n"
            "and toGlobal wraps the resulting expression (as in the min-lift corpus)", src, ts)


def p_let():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (let sq (mapSeq (lambda (x) (* x x)) xs)
      (mapGlb (lambda (t) (- (get1 t) (get2 t))) (zip sq xs)))))"""
    def ref(dt, xs):
        x = as_dt(xs, dt)
        return x * x - x
    ts = [T("x*x - x", [xs], checked(ref, xs)) for xs in [rfloats(10, -4, 4)]]
    ts += [T("twenty-five floats", [xs], checked(ref, xs)) for xs in [rfloats(25, 2, 9)]]
    program("let", "let: a let-bound intermediate array zipped with the input", src, ts)


def p_let_scalar():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (reduceSeq 0.0f
               (lambda (acc x) (let half (* x 0.5f) (+ acc half)))
               xs)))"""
    ref = lambda dt, xs: [seq_reduce(lambda a, x: a + x * dt(0.5), dt(0), as_dt(xs, dt))]
    ts = [T("half the sum", [xs], checked(ref, xs)) for xs in [rfloats(14, 0, 10), rfloats(33, 1, 50)]]
    ts[1]["name"] = "thirty-three floats"
    program("let_scalar", "let binding a scalar inside the reduction's function", src, ts)


def pairwise(dt, xs, k):
    x = as_dt(xs, dt)
    return [seq_reduce(lambda a, v: a + v, dt(0), x[i:i + k]) for i in range(0, len(x), k)]


def p_split_reduce():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (join (mapSeq (reduceSeq 0.0f (lambda (acc x) (+ acc x))) (split #2 xs)))))"""
    ref = lambda dt, xs: pairwise(dt, xs, 2)
    ts = [T("pairwise sums of 8", [xs], checked(ref, xs)) for xs in [rfloats(8)]]
    ts += [T("pairwise sums of 22", [xs], checked(ref, xs)) for xs in [rfloats(22, 1, 30)]]
    ts.append(T("odd length is rejected: split #2 does not divide 7", [rfloats(7)], error="split"))
    program("split_reduce", "split #2, reduce every pair, join: pairwise sums", src, ts)


def p_split_reduce_minlift():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (toGlobal (o (mapSeq (reduceSeq 0.0f (lambda (acc x) (+ acc x)))) (split #4) xs))))"""
    ref = lambda dt, xs: [[s] for s in pairwise(dt, xs, 4)]
    ts = [T("sums of 4, no join: [[float]1]N/4", [xs], checked(ref, xs)) for xs in [rfloats(12, 0, 10)]]
    ts += [T("thirty-two floats", [xs], checked(ref, xs)) for xs in [rfloats(32, 1, 20)]]
    program("split_reduce_minlift", "min-lift style split: each chunk of 4 reduced, result not joined", src, ts)


def p_split_join():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    ((o join (mapGlb (mapSeq id)) (split #4)) xs)))"""
    ts = [T("identity on 8", [xs], [Lit(repr(x)) for x in xs]) for xs in [rfloats(8)]]
    ts += [T("identity on 24", [xs], [Lit(repr(x)) for x in xs]) for xs in [rfloats(24, -1000, 1000, 3)]]
    program("split_join", "split #4 then join is the identity (copied by mapGlb (mapSeq id))", src, ts)


def p_split_twice():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    ((o join
        (mapSeq (lambda (ys) (mapSeq (lambda (y) (* y 2.0f)) ys)))
        (split #2))
     xs)))"""
    ref = lambda dt, xs: as_dt(xs, dt) * dt(2.0)
    ts = [T("six floats", [xs], checked(ref, xs)) for xs in [rfloats(6)]]
    ts += [T("eighteen floats", [xs], checked(ref, xs)) for xs in [rfloats(18)]]
    program("split_twice", "seed 000 figure: join . mapSeq (mapSeq (* 2)) . split 2", src, ts)


def zip_src(body_par="mapGlb"):
    return """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (%s (lambda (t) (+ (get1 t) (get2 t))) (zip xs ys))))""" % body_par


def p_zip_add():
    ref = lambda dt, xs, ys: as_dt(xs, dt) + as_dt(ys, dt)
    ts = []
    for name, n in (("add seven pairs", 7), ("add thirty pairs", 30)):
        xs, ys = rfloats(n), rfloats(n)
        ts.append(T(name, [xs, ys], checked(ref, xs, ys)))
    ts.append(T("ys shorter than xs is rejected, naming ys",
                [rfloats(3), rfloats(4)], error="ys"))
    program("zip_add", "zip two arrays of the same length and add the pairs", zip_src(), ts)


def p_bad_inputs():
    ref = lambda dt, xs, ys: as_dt(xs, dt) + as_dt(ys, dt)
    xs, ys = rfloats(5), rfloats(5)
    ts = [T("well-formed inputs still work", [xs, ys], checked(ref, xs, ys)),
          T("one input for two parameters", [rfloats(4)], error="expected 2 inputs"),
          T("malformed first literal", ["[0.5, 1.25,, 3.0]", rfloats(3)], error="input 1"),
          T("unreadable .npy file", [rfloats(2), "data/no_such_file.npy"], error="cannot open")]
    program("bad_inputs", "bad inputs are reported before anything runs (SPEC §8)", zip_src("mapSeq"), ts)


def dot_ref(dt, xs, ys):
    p = as_dt(xs, dt) * as_dt(ys, dt)
    return [seq_reduce(lambda a, v: a + v, dt(0), p)]


def p_dot():
    src = """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (reduceSeq 0.0f (lambda (acc x) (+ acc x))
               (mapSeq (lambda (t) (* (get1 t) (get2 t))) (zip xs ys)))))"""
    ts = []
    for name, n in (("dot of 8", 8), ("dot of 48", 48)):
        xs, ys = rfloats(n, 0.1, 5), rfloats(n, 0.1, 5)
        ts.append(T(name, [xs, ys], checked(dot_ref, xs, ys)))
    program("dot", "dot product: zip, mapSeq multiply, reduceSeq add", src, ts)


def p_dot_fused():
    src = """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (reduceSeq 0.0f (lambda (acc t) (+ acc (* (get1 t) (get2 t)))) (zip xs ys))))"""
    ts = []
    for name, n in (("dot of 16", 16), ("dot of 64", 64)):
        xs, ys = rfloats(n, 0.1, 5), rfloats(n, -5, -0.1)
        ts.append(T(name, [xs, ys], checked(dot_ref, xs, ys)))
    program("dot_fused", "dot product with the multiplication inside reduceSeq's function", src, ts)


def p_dot_reduce():
    src = """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (reduce 0.0f (lambda (acc x) (+ acc x))
            (map (lambda (t) (* (get1 t) (get2 t))) (zip xs ys)))))"""
    ts = []
    for name, n in (("dot of 9", 9), ("dot of 57", 57)):
        xs, ys = rfloats(n, 0.1, 5), rfloats(n, 0.1, 5)
        ts.append(T(name, [xs, ys], checked(dot_ref, xs, ys)))
    program("dot_reduce", "dot product with the algorithmic map and reduce (default strategy)", src, ts)


def p_dot_example():
    src = """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (reduceSeq 0.0f (lambda (acc x) (+ acc x))
               (mapSeq (lambda (t) (* (get1 t) (get2 t))) (zip xs ys)))))"""
    xs, ys = rfloats(6, 0.1, 4), rfloats(6, 0.1, 4)
    ts = [T("dot of two vectors", [xs, ys], checked(dot_ref, xs, ys))]
    program("dot", "dot.lift — the dot product of two float vectors.\n"
            "  clift run examples/dot.lift '[1, 2, 3]' '[4, 5, 6]'   prints [32]", src,
            ts + [T("README example", [[1, 2, 3], [4, 5, 6]], [32.0])],
            path=os.path.join(ROOT, "examples", "dot.lift"))


def p_dot_wrg():
    src = """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (join
      (mapWrg
        (lambda (zs1)
          (join (mapLcl (lambda (zs2)
                          (reduceSeq 0.0f (lambda (acc t) (+ acc (* (get1 t) (get2 t)))) zs2))
                        (split #2048 zs1))))
        (split #(* 2048 2) (zip xs ys))))))"""
    ts = []
    for n in (4096, 8192):
        xs = np.load(os.path.join(DATA, "dot_xs_%d.npy" % n)).astype(F64)
        ys = np.load(os.path.join(DATA, "dot_ys_%d.npy" % n)).astype(F64)
        partial = (xs * ys).reshape(-1, 2048).sum(axis=1)
        ts.append(T("partial sums of %d elements" % n,
                    ["data/dot_xs_%d.npy" % n, "data/dot_ys_%d.npy" % n], list(partial)))
    program("dot_wrg", "seed 004 dot product: work-groups of 2 threads, each thread reduces 2048\n"
            "products; the result holds the N/2048 partial sums (inputs: tests/gen/gen_inputs.py)", src, ts)


def gemv_ref(dt, m, v):
    M = np.array([as_dt(r, dt) for r in m]); x = as_dt(v, dt)
    return [seq_reduce(lambda a, p: a + p, dt(0), row * x) for row in M]


def p_gemv():
    src = """(lift (N M) ((array-type (array-type float N) M) (array-type float N))
  (lambda (mat xs)
    (join (mapGlb (lambda (row)
                    (reduceSeq 0.0f (lambda (acc t) (+ acc (* (get1 t) (get2 t)))) (zip row xs)))
                  mat))))"""
    ts = []
    for name, (r, c) in (("3x4 matrix", (3, 4)), ("5x7 matrix", (5, 7))):
        m = [rfloats(c, 0.1, 9) for _ in range(r)]
        v = rfloats(c, 0.1, 9)
        ts.append(T(name, [m, v], checked(gemv_ref, m, v)))
    m = np.load(os.path.join(DATA, "gemv_mat_24x40.npy")).astype(F64)
    v = np.load(os.path.join(DATA, "gemv_vec_40.npy")).astype(F64)
    ts.append(T("24x40 matrix from .npy", ["data/gemv_mat_24x40.npy", "data/gemv_vec_40.npy"], list(m @ v)))
    program("gemv", "gemv: matrix [[float]N]M times vector [float]N", src, ts)


def p_matmul():
    src = """(lift (M K N) ((array-type (array-type float K) M) (array-type (array-type float N) K))
  (lambda (a b)
    (mapGlb (lambda (row)
              (join (mapSeq (lambda (col)
                              (reduceSeq 0.0f (lambda (acc t) (+ acc (* (get1 t) (get2 t))))
                                         (zip row col)))
                            (transpose b))))
            a)))"""
    def ref(dt, a, b):
        A = np.array([as_dt(r, dt) for r in a]); B = np.array([as_dt(r, dt) for r in b])
        return [[seq_reduce(lambda s, p: s + p, dt(0), A[i] * B[:, j]) for j in range(B.shape[1])]
                for i in range(A.shape[0])]
    ts = []
    for name, (m, k, n) in (("2x3 times 3x4", (2, 3, 4)), ("4x5 times 5x3", (4, 5, 3)), ("1x6 times 6x2", (1, 6, 2))):
        a = [rfloats(k, 0.1, 6) for _ in range(m)]
        b = [rfloats(n, 0.1, 6) for _ in range(k)]
        ts.append(T(name, [a, b], checked(ref, a, b)))
    program("matmul", "matrix multiply: rows of A against the rows of (transpose B)", src, ts)


def clamp_pad(x, l, r):
    return [x[0]] * l + list(x) + [x[-1]] * r


def p_stencil3():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (w) (+ (* 0.25f (aref w 0))
                           (+ (* 0.5f (aref w 1)) (* 0.25f (aref w 2)))))
            (slide #3 #1 (pad #1 #1 xs)))))"""
    def ref(dt, xs):
        x = clamp_pad(as_dt(xs, dt), 1, 1)
        return [dt(0.25) * x[i] + (dt(0.5) * x[i + 1] + dt(0.25) * x[i + 2]) for i in range(len(x) - 2)]
    ts = [T("smoothing 10, edges clamped", [xs], checked(ref, xs)) for xs in [rfloats(10, 1, 10)]]
    ts += [T("smoothing 37", [xs], checked(ref, xs)) for xs in [rfloats(37, 5, 50)]]
    ts += [T("two elements", [xs], checked(ref, xs)) for xs in [rfloats(2, 1, 10)]]
    program("stencil3", "3-point stencil: slide #3 #1 over pad #1 #1 (clamped), weights read with aref", src, ts)


def p_stencil3_sum():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (join (mapGlb (reduceSeq 0.0f (lambda (acc x) (+ acc x)))
                  (slide #3 #1 (padConstant #1 #1 0.0f xs))))))"""
    def ref(dt, xs):
        x = [dt(0)] + list(as_dt(xs, dt)) + [dt(0)]
        return [seq_reduce(lambda a, v: a + v, dt(0), x[i:i + 3]) for i in range(len(x) - 2)]
    ts = [T("window sums of 12, zero boundary", [xs], checked(ref, xs)) for xs in [rfloats(12, 1, 10)]]
    ts += [T("window sums of 40", [xs], checked(ref, xs)) for xs in [rfloats(40, 1, 10)]]
    program("stencil3_sum", "3-point sum stencil with padConstant 0 boundaries and reduceSeq", src, ts)


def p_slide_step():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (join (mapGlb (reduceSeq -1000.0f (lambda (m x) (max m x)))
                  (slide #4 #2 xs)))))"""
    def ref(dt, xs):
        x = as_dt(xs, dt)
        return [max(x[i:i + 4]) for i in range(0, len(x) - 4 + 1, 2)]
    ts = [T("max of windows of 4, step 2, over 10", [xs], checked(ref, xs)) for xs in [rfloats(10)]]
    ts += [T("over 21 (last element unused)", [xs], checked(ref, xs)) for xs in [rfloats(21)]]
    program("slide_step", "slide #4 #2: (N-4)/2+1 windows, each reduced with max", src, ts)


def p_pad_clamp():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb id (pad #2 #3 xs))))"""
    ts = [T("pad 2 left 3 right, clamped", [xs], [Lit(repr(v)) for v in clamp_pad(xs, 2, 3)])
          for xs in [rfloats(5), rfloats(1)]]
    ts[1]["name"] = "single element repeated"
    program("pad_clamp", "pad #2 #3 repeats the edge elements", src, ts)


def p_pad_constant():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb id (padConstant #1 #2 9.5f xs))))"""
    ts = [T("one 9.5 before, two after", [xs], [9.5] + [Lit(repr(v)) for v in xs] + [9.5, 9.5])
          for xs in [rfloats(6), rfloats(13)]]
    ts[1]["name"] = "thirteen floats"
    program("pad_constant", "padConstant #1 #2 9.5f", src, ts)


def p_asum():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (reduceSeq 0.0f (lambda (acc x) (+ acc (abs x))) xs)))"""
    ref = lambda dt, xs: [seq_reduce(lambda a, v: a + abs(v), dt(0), as_dt(xs, dt))]
    ts = [T("sum of magnitudes, mixed signs", [xs], checked(ref, xs)) for xs in [rfloats(11)]]
    ts += [T("sixty floats", [xs], checked(ref, xs)) for xs in [rfloats(60, -100, 100)]]
    program("asum", "BLAS asum: sum of absolute values", src, ts)


def p_scal():
    src = """(lift (N) (float (array-type float N))
  (lambda (a xs)
    (mapGlb (lambda (x) (* a x)) xs)))"""
    ref = lambda dt, a, xs: as_dt([a], dt)[0] * as_dt(xs, dt)
    ts = []
    for name, a, xs in (("a = 2.75", 2.75, rfloats(9)), ("negative scalar", -0.37, rfloats(26)),
                        ("int literal for the float scalar", 3, rfloats(5))):
        ts.append(T(name, [a, xs], checked(ref, a, xs)))
    program("scal", "BLAS scal: a run-time float scalar times a vector", src, ts)


def p_vector_scale():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (join (mapWrg (lambda (chunk)
                    (asScalar (mapLcl (lambda (v) (* v 3.0f)) (asVector #4 chunk))))
                  (split #1024 xs)))))"""
    a = np.load(os.path.join(DATA, "vscale_1024.npy")).astype(F64)
    b = np.array(eval(open(os.path.join(DATA, "vscale_2048.txt")).read()), dtype=F64)
    ts = [T("1024 floats from .npy (one work-group)", ["data/vscale_1024.npy"], list(a * 3.0)),
          T("2048 floats from a literal file (two work-groups)", ["@data/vscale_2048.txt"], list(b * 3.0))]
    program("vector_scale", "seed 000 Fig. 2 vector scale: split 1024 / mapWorkgroup / mapLocal over float4\n"
            "(inputs: tests/gen/gen_inputs.py)", src, ts)


def p_vadd4():
    src = """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (asScalar (mapGlb (lambda (t) (+ (get1 t) (get2 t)))
                      (zip (asVector #4 xs) (asVector #4 ys))))))"""
    ref = lambda dt, xs, ys: as_dt(xs, dt) + as_dt(ys, dt)
    ts = []
    for n in (8, 20):
        xs, ys = rfloats(n), rfloats(n)
        ts.append(T("%d floats as float4" % n, [xs, ys], checked(ref, xs, ys)))
    program("vadd4", "element-wise float4 addition over asVector #4 views", src, ts)


def euler_ref(xs):
    return [sum(x for x in xs if x % 3 == 0 or x % 5 == 0)]


def p_euler01():
    src = """(lift (N) ((array-type int N))
  (lambda (xs)
    (reduceSeq 0
               (lambda (acc x) (if (or (= (% x 3) 0) (= (% x 5) 0)) (+ acc x) acc))
               xs)))"""
    xs = rints(20, 1, 500)
    ts = [T("0..999 from .npy: Project Euler 1", ["data/euler_1000.npy"], [233168]),
          T("0..99 from a literal file", ["@data/euler_100.txt"], [2318]),
          T("twenty random ints", [xs], euler_ref(xs))]
    ys = rints(15, -60, 60)
    ts.append(T("negative ints too", [ys], euler_ref(ys)))
    program("euler01", "Project Euler 1: sum of the multiples of 3 or 5, with if inside reduceSeq", src, ts)


def p_euler01_iota():
    src = """(lift () (int)
  (lambda (unused)
    (reduceSeq 0
               (lambda (acc x) (if (or (= (% x 3) 0) (= (% x 5) 0)) (+ acc x) acc))
               (iota #1000))))"""
    ts = [T("multiples below 1000", [7], [233168]), T("parameter is ignored", [-42], [233168])]
    program("euler01_iota", "Project Euler 1 over (iota #1000); the int parameter is unused", src, ts)


def p_euler01_minlift():
    src = """(lift (N) ((array-type int N))
  (lambda (xs)
    (let ys (filterSeq (lambda (x) (or (=i (mod x 3) 0) (=i (mod x 5) 0))) xs)
      (reduceSeq 0 (lambda (acc y) (+i acc y)) ys))))"""
    xs = rints(25, 0, 300)
    ts = [T("0..999 from .npy", ["data/euler_1000.npy"], [233168]),
          T("twenty-five random ints", [xs], euler_ref(xs))]
    program("euler01_minlift", "Project Euler 1 with min-lift's =i, mod and +i over a filterSeq result", src, ts)


def p_transpose():
    src = """(lift (N M) ((array-type (array-type float N) M))
  (lambda (m)
    (mapGlb (mapSeq id) (transpose m))))"""
    ts = []
    for name, (r, c) in (("3x4 becomes 4x3", (3, 4)), ("2x5 becomes 5x2", (2, 5)), ("1x3 becomes 3x1", (1, 3))):
        m = [rfloats(c) for _ in range(r)]
        ts.append(T(name, [m], [[Lit(repr(m[i][j])) for i in range(r)] for j in range(c)]))
    program("transpose", "transpose a matrix, copied by mapGlb (mapSeq id)", src, ts)


def p_iota_length():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (t) (+ (get1 t) (i2f (* (get2 t) (length xs)))))
            (zip xs (iota #N)))))"""
    def ref(dt, xs):
        x = as_dt(xs, dt); n = len(xs)
        return [x[i] + dt(i * n) for i in range(n)]
    ts = [T("x[i] + i*N for N=6", [xs], checked(ref, xs)) for xs in [rfloats(6, -1, 1)]]
    ts += [T("N=15", [xs], checked(ref, xs)) for xs in [rfloats(15, -1, 1)]]
    program("iota_length", "iota #N zipped with the input, and (length xs) as a value", src, ts)


def p_aref():
    src = """(lift (N) ((array-type float N) int)
  (lambda (xs k)
    (mapGlb (lambda (x) (- x (aref xs k))) xs)))"""
    ref = lambda dt, xs, k: as_dt(xs, dt) - as_dt(xs, dt)[k]
    ts = []
    for name, n, k in (("subtract xs[3]", 8, 3), ("subtract xs[0]", 5, 0), ("subtract the last", 12, 11)):
        xs = rfloats(n)
        ts.append(T(name, [xs, k], checked(ref, xs, k)))
    program("aref", "aref with a run-time index parameter", src, ts)


def p_unzip():
    src = """(lift (N) ((array-type (tuple float int) N))
  (lambda (ps)
    (unzip (mapGlb (lambda (p) (tuple (* (get1 p) 2.0f) (+ (get2 p) 1))) ps))))"""
    ts = []
    for name, n in (("four pairs", 4), ("eleven pairs", 11)):
        fs, is_ = rfloats(n), rints(n)
        ps = [(Lit(repr(f)), i) for f, i in zip(fs, is_)]
        out = (list(as_dt(fs, F64) * 2.0), [i + 1 for i in is_])
        ts.append(T(name, [ps], out))
    program("unzip", "an array of (float, int) tuples in, a tuple of two arrays out", src, ts)


def p_unzip_let():
    src = """(lift (N) ((array-type float N) (array-type float N))
  (lambda (xs ys)
    (let p (unzip (mapGlb (lambda (t) (tuple (+ (get1 t) (get2 t)) (- (get1 t) (get2 t))))
                          (zip xs ys)))
      (mapGlb (lambda (q) (* (get1 q) (get2 q))) (zip (get1 p) (get2 p))))))"""
    def ref(dt, xs, ys):
        x, y = as_dt(xs, dt), as_dt(ys, dt)
        return (x + y) * (x - y)
    ts = []
    for n in (6, 19):
        xs, ys = rfloats(n, 5, 10), rfloats(n, 0, 4)
        ts.append(T("(x+y)*(x-y), %d pairs" % n, [xs, ys], checked(ref, xs, ys)))
    program("unzip_let", "unzip a mapped zip, take both halves with get1/get2, zip them again", src, ts)


def p_zip3():
    src = """(lift (N) ((array-type float N) (array-type float N) (array-type float N))
  (lambda (xs ys zs)
    (mapGlb (lambda (t) (+ (* (get1 t) (get2 t)) (get #3 t))) (zip3 xs ys zs))))"""
    ref = lambda dt, a, b, c: as_dt(a, dt) * as_dt(b, dt) + as_dt(c, dt)
    ts = []
    for n in (5, 16):
        a, b, c = rfloats(n, 1, 5), rfloats(n, 1, 5), rfloats(n, 1, 5)
        ts.append(T("x*y+z over %d triples" % n, [a, b, c], checked(ref, a, b, c)))
    ts.append(T("third array too long, naming zs", [rfloats(2), rfloats(2), rfloats(3)], error="zs"))
    program("zip3", "zip3 and (get #3 t): the third component (get1 is the first)", src, ts)


def p_minmax():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (reduceSeq (tuple (aref xs 0) (aref xs 0))
               (lambda (acc x) (tuple (min (get1 acc) x) (max (get2 acc) x)))
               xs)))"""
    ts = []
    for n in (7, 40, 1):
        xs = rfloats(n, -100, 100)
        ts.append(T("min and max of %d" % n, [xs], [(Lit(repr(min(xs))), Lit(repr(max(xs))))]))
    program("minmax", "reduceSeq with a tuple accumulator: [(min, max)]", src, ts)


def p_mean():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapSeq (lambda (s) (/ s (i2f (length xs))))
            (reduceSeq 0.0f (lambda (acc x) (+ acc x)) xs))))"""
    ref = lambda dt, xs: [seq_reduce(lambda a, v: a + v, dt(0), as_dt(xs, dt)) / dt(len(xs))]
    ts = [T("mean of %d" % len(xs), [xs], checked(ref, xs)) for xs in [rfloats(10, 0, 10), rfloats(45, 10, 20)]]
    program("mean", "mean: the sum divided by (i2f (length xs))", src, ts)


def p_dsum():
    src = """(lift (N) ((array-type double N))
  (lambda (xs)
    (reduceSeq 0.0 (lambda (acc x) (+ acc x)) xs)))"""
    ts = []
    for n in (9, 50):
        xs = rfloats(n, -1000, 1000, 6)
        exact = seq_reduce(lambda a, v: a + v, 0.0, xs)
        ts.append(T("double sum of %d" % n, [xs], [Dbl(exact)], tol="1e-9"))
    program("dsum", "sum of doubles (double literal 0.0); tolerance loosened for reassociation", src, ts)


def p_casts():
    src = """(lift (N) ((array-type float N) (array-type int N))
  (lambda (xs ks)
    (mapGlb (lambda (t) (tuple (f2i (get1 t)) (+ (i2d (get2 t)) (f2d (get1 t)))))
            (zip xs ks))))"""
    ts = []
    for n in (6, 12):
        xs, ks = rfloats(n, -20, 20), rints(n, -100, 100)
        out = [(int(np.trunc(x)), Dbl(float(k) + float(np.float32(x)))) for x, k in zip(xs, ks)]
        ts.append(T("f2i truncates, i2d + f2d, %d elements" % n, [xs, ks], out))
    program("casts", "casts: f2i (truncating), i2d, f2d; the result is an array of (int, double)", src, ts)


def p_relu():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (if (> x 0.0f) x (* x 0.125f))) xs)))"""
    ref = lambda dt, xs: np.array([x if x > 0 else x * dt(0.125) for x in as_dt(xs, dt)])
    ts = [T("leaky relu on %d" % len(xs), [xs], checked(ref, xs)) for xs in [rfloats(10), rfloats(31)]]
    program("relu", "if on floats: leaky ReLU", src, ts)


def p_positive():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (and (> x 0.0f) (not (> x 5.0f)))) xs)))"""
    ts = []
    for n in (8, 17):
        xs = rfloats(n)
        ts.append(T("0 < x <= 5 on %d" % n, [xs], [bool(0 < np.float32(x) <= 5) for x in xs]))
    program("positive", "a bool result: and, not, comparisons", src, ts)


def p_math():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (+ (sqrt (abs x))
                           (+ (floor x)
                              (+ (exp (* -0.5f x))
                                 (+ (log (+ 1.0f (* x x)))
                                    (+ (sin x) (+ (* 0.5f (cos x)) (pow (abs x) 1.5f))))))))
            xs)))"""
    def ref(dt, xs):
        x = as_dt(xs, dt)
        return (np.sqrt(np.abs(x)) + (np.floor(x) + (np.exp(dt(-0.5) * x) + (np.log(dt(1) + x * x)
                + (np.sin(x) + (dt(0.5) * np.cos(x) + np.power(np.abs(x), dt(1.5))))))))
    ts = [T("math functions on %d" % len(xs), [xs], checked_loose(ref, xs)) for xs in [rfloats(8, -4, 4), rfloats(20, -3, 5)]]
    program("math", "sqrt exp log sin cos pow abs floor", src, ts)


def checked_loose(ref, *args):
    hi = ref(F64, *args); lo = ref(F32, *args)
    assert close(hi, lo, 2e-6), ("rounding-sensitive", hi, lo)
    return hi


def p_int_ops():
    src = """(lift (N) ((array-type int N))
  (lambda (xs)
    (mapGlb (lambda (x) (max (min (+ (* (/ x 7) 10) (% x 7)) 500) (- 0 x))) xs)))"""
    ts = []
    for n in (10, 24):
        xs = rints(n, 0, 900)
        ts.append(T("div, mod, min, max on %d ints" % n, [xs],
                    [max(min((x // 7) * 10 + x % 7, 500), -x) for x in xs]))
    program("int_ops", "integer / % min max (non-negative operands)", src, ts)


def p_mat_scale():
    src = """(lift (N M) ((array-type (array-type float N) M))
  (lambda (m)
    (mapGlb (mapSeq (lambda (x) (* x 0.5f))) m)))"""
    ts = []
    for r, c in ((3, 5), (6, 2)):
        m = [rfloats(c) for _ in range(r)]
        ts.append(T("%dx%d matrix" % (r, c), [m], [list(as_dt(row, F64) * 0.5) for row in m]))
    program("mat_scale", "a 2-D input: mapGlb over rows, mapSeq inside", src, ts)


def p_filter_seq():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapSeq (lambda (x) (* x 2.0f)) (filterSeq (lambda (x) (> x 0.5f)) xs))))"""
    ts = []
    for n in (9, 30):
        xs = rfloats(n, 0, 1)
        ts.append(T("double the elements above 0.5 of %d" % n, [xs],
                    [float(np.float32(x)) * 2 for x in xs if np.float32(x) > np.float32(0.5)]))
    ts.append(T("nothing kept", [[0.25, 0.125, 0.5]], []))
    program("filter_seq", "filterSeq then mapSeq (the existential is unpacked automatically)", src, ts)


def p_filter_glb():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    ((toGlobal (mapGlb (lambda (x) (* x 2.0f))))
     (filterGlb (lambda (x) (> x 0.5f)) xs))))"""
    ts = []
    for n in (12, 50):
        xs = rfloats(n, 0, 1)
        ts.append(T("parallel filter of %d" % n, [xs],
                    [float(np.float32(x)) * 2 for x in xs if np.float32(x) > np.float32(0.5)]))
    program("filter_glb", "seed 000 Fig. 22: filterGlb then (toGlobal (mapGlb f))", src, ts)


def p_rounding():
    src = """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (+ (ceil x) (* 0.5f (tan (* x 0.1f))))) xs)))"""
    def ref(dt, xs):
        x = as_dt(xs, dt)
        return np.ceil(x) + dt(0.5) * np.tan(x * dt(0.1))
    ts = [T("ceil and tan on %d" % len(xs), [xs], checked_loose(ref, xs)) for xs in [rfloats(9, -9, 9), rfloats(23, -9, 9)]]
    program("rounding", "ceil and tan", src, ts)


def p_compare():
    src = """(lift (N) ((array-type int N) (array-type int N))
  (lambda (xs ys)
    (mapGlb (lambda (t) (tuple (< (get1 t) (get2 t)) (<= (get1 t) (get2 t))
                               (>= (get1 t) (get2 t)) (!= (get1 t) (get2 t))))
            (zip xs ys))))"""
    ts = []
    for n in (6, 14):
        xs = rints(n, -5, 5); ys = rints(n, -5, 5)
        xs[0] = ys[0]                      # at least one equal pair
        ts.append(T("int comparisons on %d pairs" % n, [xs, ys],
                    [(x < y, x <= y, x >= y, x != y) for x, y in zip(xs, ys)]))
    program("compare", "< <= >= != on ints, a 4-tuple of bools per pair", src, ts)


def p_long_sum():
    src = """(lift (N) ((array-type int N))
  (lambda (xs)
    (reduceSeq (i2l 0) (lambda (acc x) (+ acc (i2l x))) xs)))"""
    ts = []
    for n in (5, 30):
        xs = rints(n, 1500000000, 2100000000)
        ts.append(T("sum of %d large ints overflows int, not long" % n, [xs], [sum(xs)]))
    program("long_sum", "long accumulator (i2l) over ints whose sum exceeds 2^31", src, ts)


def p_vec_input():
    src = """(lift (N) ((array-type (vector-type float 4) N))
  (lambda (vs)
    (mapGlb (lambda (v) (+ (* v 3.0f) v)) vs)))"""
    ts = []
    for n in (2, 5):
        vs = [rfloats(4) for _ in range(n)]
        lit = "[" + ", ".join("<" + ", ".join(fmt(x) for x in v) + ">" for v in vs) + "]"
        out = "[" + ", ".join("<" + ", ".join(fmt(x) for x in checked(lambda dt, v: as_dt(v, dt) * dt(3) + as_dt(v, dt), v)) + ">"
                              for v in vs) + "]"
        ts.append(T("%d float4 values" % n, [lit], Lit(out)))
    program("vec_input", "float4 input elements; a float operand is broadcast", src, ts)


# ---------------------------------------------------------------- negative
def p_negative():
    program("err_zip_mismatch", "negative: zip of [float]N and [float]M is a type error naming both types", """(lift (N M) ((array-type float N) (array-type float M))
  (lambda (xs ys)
    (mapGlb (lambda (t) (+ (get1 t) (get2 t))) (zip xs ys))))""",
            [T("zip of unequal sizes is rejected", [rfloats(3), rfloats(3)], error="zip")])
    program("err_syntax_paren", "negative: a missing closing parenthesis", """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (* x 2.0f)) xs))""",
            [T("missing paren is a syntax error", [rfloats(3)], error="expected")])
    program("err_syntax_extra", "negative: a stray closing parenthesis after the program", """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (* x 2.0f)) xs))))""",
            [T("extra paren is a syntax error", [rfloats(3)], error="expected")])
    program("err_int_float", "negative: float times an int literal (no implicit promotion)", """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapGlb (lambda (x) (* x 2)) xs)))""",
            [T("float * int is a type error", [rfloats(3)], error="float")])
    program("err_filter_zip", "negative (SPEC 3.4): zip of two separately filtered arrays", """(lift (N) ((array-type float N))
  (lambda (xs)
    (mapSeq (lambda (t) (+ (get1 t) (get2 t)))
            (zip (filterSeq (lambda (x) (> x 0.5f)) xs)
                 (filterSeq (lambda (x) (< x 0.5f)) xs)))))""",
            [T("lengths of two filters differ", [rfloats(4, 0, 1)], error="zip")])


def main():
    for name, fn in sorted(globals().items()):
        if name.startswith("p_"):
            global rng
            rng = np.random.default_rng(zlib.crc32(name.encode()))   # stable per program
            fn()
    for path, text in sorted(FILES.items()):
        with open(path, "w") as f:
            f.write(text)
    print("wrote %d files" % len(FILES))


if __name__ == "__main__":
    main()
