#!/usr/bin/env python3
"""reference.py: expected results of the APL example programs in examples/apl,
computed independently with NumPy.

Nothing here reads or interprets APL. Each program's result is computed from the
mathematical definition the program implements (README.md describes them), with
the program's constants written out again here; a list of source snippets per
test (`needs`) checks that the .apl file still has those constants.

  python3 examples/apl/reference.py            print every test's expected lines
  python3 examples/apl/reference.py --check    compare them with the files' test
                                               blocks; exit status 1 on a mismatch
  python3 examples/apl/reference.py --write    rewrite the files' `⍝ output:` lines
  --quick                                      skip bench/ (its sizes take ~20 s)

Output lines follow README.md's convention: one line per `⎕←` value in the order
they execute, then the program's final value; clift's literal format (SPEC §7,
§10): scalars plain, vectors [1, 2], matrices nested, booleans 0/1, ints %d,
doubles %.17g; a char array is text, one line per row.

Double sums (+/) are sequential folds from 0.0, first element first, as TAIL's
reduce(addd, 0.00, …) runs in sequential C: that order gives the thesis's value
of Example 3.1 to the last digit (the correctly rounded sum ends …337, not …344).
Other orders (APL's right fold, a parallel tree) differ within the test's
tolerance. Elsewhere the floating-point operations follow the APL program's
grouping (APL evaluates right to left), so a faithful compilation should print
the same digits or differ in the last few.

Needs NumPy. Without it in this python3, the script runs itself again with
$CLIFT_NUMPY_PYTHON or /tmp/apl-venv/bin/python when one exists (make one with
`python3 -m venv /tmp/apl-venv && /tmp/apl-venv/bin/pip install numpy`).
"""
import math
import os
import re
import sys

try:
    import numpy as np
except ImportError:
    if not os.environ.get("CLIFT_REFERENCE_REEXEC"):          # once: no loop
        for py in (os.environ.get("CLIFT_NUMPY_PYTHON"), "/tmp/apl-venv/bin/python"):
            if py and os.path.exists(py):
                os.environ["CLIFT_REFERENCE_REEXEC"] = "1"
                os.execv(py, [py, os.path.abspath(__file__)] + sys.argv[1:])
    sys.exit("reference.py: NumPy is not installed for %s; make a venv:\n"
             "  python3 -m venv /tmp/apl-venv && /tmp/apl-venv/bin/pip install numpy\n"
             "then run it again (it finds /tmp/apl-venv by itself)" % sys.executable)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TOLERANCE = 1e-12        # SPEC §9: doubles

# --------------------------------------------------------------------------
# clift's literal format


def lit(x):
    """One value as a clift literal line: ints %d, doubles %.17g, bools 0/1."""
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return lit(x[()])
        return "[" + ", ".join(lit(e) for e in x) + "]"
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (int, np.integer)):
        return "%d" % int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return "%.17g" % x
    raise TypeError("no literal for %r" % (x,))


def text(rows):
    """A char matrix: one output line per row (marked as text for --check)."""
    return [Text(r) for r in rows]


class Text(str):
    """An output line that is a row of chars, not a literal."""


def lines(*values):
    out = []
    for v in values:
        out.extend(v if isinstance(v, list) else [lit(v)])
    return out


# --------------------------------------------------------------------------
# The programs, from their definitions

def seq_sum(a, start=0.0):
    """The sequential sum start + a[0] + a[1] + … (row-major for a matrix):
    np.cumsum adds in order, unlike np.sum's pairwise summation."""
    a = np.asarray(a, dtype=np.float64).ravel()
    return float(np.cumsum(np.concatenate(([start], a)))[-1])


def signal(v):
    """Example 3.1: d_i = v_i - v_(i-1) (v_0 = 0), s_i = clamp(50 d_i/(0.01+v_i))."""
    v = np.asarray(v, dtype=np.int64)
    prev = np.concatenate(([0], v[:-1]))
    d = (v - prev).astype(np.float64)
    return np.clip(50.0 * (d / (0.01 + v)), -50.0, 50.0)


def signal_sum_chunked(n, chunk=1 << 22):
    """sum of signal(1 + (7 i mod 97)), i = 1 … n, in chunks (n is 5×10^7)."""
    total = 0.0
    prev = 0
    for lo in range(1, n + 1, chunk):
        i = np.arange(lo, min(n, lo + chunk - 1) + 1, dtype=np.int64)
        v = 1 + (7 * i) % 97
        p = np.concatenate(([prev], v[:-1]))
        s = np.clip(50.0 * ((v - p).astype(np.float64) / (0.01 + v)), -50.0, 50.0)
        total = seq_sum(s, total)
        prev = int(v[-1])
    return total


def inner(a, b, f, g):
    """The inner product a f.g b from its definition: r[i…, j…] = f/ a[i…, k] g b[k, j…]."""
    a = np.asarray(a)
    b = np.asarray(b)
    n = a.shape[-1]
    assert b.shape[0] == n
    ea = a.reshape(a.shape[:-1] + (1,) * (b.ndim - 1) + (n,))
    eb = np.moveaxis(b, 0, -1).reshape((1,) * (a.ndim - 1) + b.shape[1:] + (n,))
    return f(g(ea, eb), axis=-1)


def primes_upto(n):
    """Sieve of Eratosthenes."""
    sieve = np.ones(n + 1, dtype=bool)
    sieve[:2] = False
    for p in range(2, int(n ** 0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = False
    return np.nonzero(sieve)[0].astype(np.int64)


def easter_month_day(y):
    """Easter Sunday (Gregorian) by the anonymous algorithm of Meeus, Jones and
    Butcher (a different algorithm from the program's Knuth's algorithm E)."""
    y = np.asarray(y, dtype=np.int64)
    a = y % 19
    b, c = y // 100, y % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month = (h + l - 7 * m + 114) // 31
    day = (h + l - 7 * m + 114) % 31 + 1
    return month, day


def easter_march_day(y):
    """Easter as 'March N' (N > 31: April N-31), the program's easter ⍵."""
    month, day = easter_month_day(y)
    return np.where(month == 4, day + 31, day)


def _check_easter():
    known = {2000: (4, 23), 2008: (3, 23), 2011: (4, 24), 2019: (4, 21), 2024: (3, 31),
             2025: (4, 20), 1818: (3, 22), 2285: (3, 22), 1943: (4, 25), 2038: (4, 25)}
    ys = np.array(sorted(known))
    m, d = easter_month_day(ys)
    assert [(int(a), int(b)) for a, b in zip(m, d)] == [known[y] for y in ys], "easter reference"


def libm(fn, npfn):
    """fn elementwise with the C library's function (Python's math calls it), which
    is what clift's C targets call; NumPy's own vectorised exp and log may differ in
    the last bit. Large arrays (the benchmarks' checksums) use NumPy's, for speed."""
    def f(x):
        x = np.asarray(x, dtype=np.float64)
        if x.size > 1 << 20:
            return npfn(x)
        return np.array([fn(v) for v in x.ravel().tolist()], dtype=np.float64).reshape(x.shape)
    return f


exp_ = libm(math.exp, np.exp)
log_ = libm(math.log, np.log)


def cnd(x):
    """Φ by Abramowitz and Stegun 26.2.17, Horner's scheme in the program's grouping."""
    x = np.asarray(x, dtype=np.float64)
    l = np.abs(x)
    k = 1.0 / (1.0 + 0.2316419 * l)
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    w = 1.0 - ((1.0 / (2.0 * math.pi) ** 0.5) * exp_(-((l * l) / 2.0))) * poly
    return np.where(x < 0, w + (1.0 - 2.0 * w), w)   # W+(⍵<0)×1-2×W


def black_scholes(n):
    s, r, v, t = 100.0, 0.02, 0.3, 0.5
    x = 80.0 + 40.0 * ((np.arange(1, n + 1) - 1) / n)
    d1 = (log_(s / x) + (r + (v ** 2) / 2.0) * t) / (v * t ** 0.5)
    d2 = d1 - v * t ** 0.5
    c = s * cnd(d1) - x * (math.exp(-(r * t)) * cnd(d2))
    return c


def _check_cnd():
    xs = np.linspace(-6, 6, 1201)
    exact = np.array([0.5 * (1.0 + math.erf(z / math.sqrt(2.0))) for z in xs])
    assert np.max(np.abs(cnd(xs) - exact)) < 7.5e-8, "cnd: Abramowitz-Stegun bound"


SOBOL_D = 30


def sobol_direction_m2(d=SOBOL_D):
    """Dimension 2: primitive polynomial x+1, m_k = m_(k-1) xor 2 m_(k-1), m_1 = 1."""
    m = [1]
    while len(m) < d:
        m.append(m[-1] ^ (2 * m[-1]))
    return m


def sobol_coords(n, m, d=SOBOL_D):
    """x_i = xor of v_k = m_k 2^(d-k) over the set bits k-1 of i, i = 1 … n, as doubles."""
    i = np.arange(1, n + 1, dtype=np.int64)
    x = np.zeros(n, dtype=np.int64)
    for k in range(1, d + 1):
        if (1 << (k - 1)) > n:
            break
        vk = m[k - 1] << (d - k)
        x ^= np.where((i >> (k - 1)) & 1 == 1, vk, 0)
    return x.astype(np.float64) / float(1 << d)


def sobol_pi(n):
    x = sobol_coords(n, [1] * SOBOL_D)
    y = sobol_coords(n, sobol_direction_m2())
    h = int(np.count_nonzero(x * x + y * y <= 1.0))
    return x, y, h, 4.0 * (h / n)


def _check_sobol():
    # dimension 1 is the van der Corput sequence: i's bits reversed
    x = sobol_coords(8, [1] * SOBOL_D)
    assert list(x) == [0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875, 0.0625], "van der Corput"
    # the first 2^m points of a Sobol sequence (with 0) are a (0, m, 2)-net: one point
    # in every elementary interval of area 2^-m
    m = 6
    xs = np.concatenate(([0.0], sobol_coords(2 ** m - 1, [1] * SOBOL_D)))
    ys = np.concatenate(([0.0], sobol_coords(2 ** m - 1, sobol_direction_m2())))
    for a in range(m + 1):
        cells = (np.floor(xs * 2 ** a).astype(int) * 2 ** (m - a) + np.floor(ys * 2 ** (m - a)).astype(int))
        assert len(set(cells.tolist())) == 2 ** m, "sobol net property"


def life_step(g):
    n = sum(np.roll(g, (dr, dc), axis=(0, 1)).astype(np.int64)
            for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
    return (n == 3) | (g & (n == 2))


def life(g, k):
    for _ in range(k):
        g = life_step(g)
    return g


GLIDER = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=bool)


def _check_life():
    g = np.zeros((9, 11), dtype=bool)
    g[2:5, 3:6] = GLIDER
    h = np.zeros_like(g)
    h[3:6, 4:7] = GLIDER                 # one step down and right in 4 generations
    assert (life(g, 4) == h).all(), "life: glider"
    b = np.zeros((5, 5), dtype=bool)
    b[2, 1:4] = True
    assert (life(b, 1) == b.T).all() and (life(b, 2) == b).all(), "life: blinker"


def life_board(r, c):
    i = np.arange(1, r + 1, dtype=np.int64)[:, None]
    j = np.arange(1, c + 1, dtype=np.int64)[None, :]
    return (31 * i * i + 17 * j * j + 7 * i * j) % 1009 < 400


def render(g):
    return text("".join("#" if v else "." for v in row) for row in g)


def hotspot(r, c, k):
    """Rodinia HotSpot, with a cell's missing neighbours taken as the cell itself.
    Constants and the update in the APL program's grouping (right to left)."""
    chip_h = chip_w = 0.016
    t_chip, k_si, spec_heat, factor = 0.0005, 100.0, 1.75e6, 0.5
    max_pd, precision, amb = 3e6, 0.001, 80.0
    g_h, g_w = chip_h / r, chip_w / c
    cap = factor * (spec_heat * (t_chip * (g_w * g_h)))
    rx = g_w / (2.0 * (k_si * (t_chip * g_h)))
    ry = g_h / (2.0 * (k_si * (t_chip * g_w)))
    rz = t_chip / (k_si * (g_h * g_w))
    step = precision / (max_pd / (factor * (t_chip * spec_heat)))
    i = np.arange(1, r + 1, dtype=np.int64)[:, None]
    j = np.arange(1, c + 1, dtype=np.int64)[None, :]
    t = 320.0 + 0.25 * ((3 * i + 7 * j) % 41)
    p = 0.01 * ((i * j) % 17)
    kk = step / cap
    for _ in range(k):
        tp = np.pad(t, 1, mode="edge")
        tn, ts = tp[:-2, 1:-1], tp[2:, 1:-1]
        tw, te = tp[1:-1, :-2], tp[1:-1, 2:]
        t = t + kk * (p + ((tn + (ts - 2.0 * t)) / ry + ((te + (tw - 2.0 * t)) / rx + (amb - t) / rz)))
    return t


# --------------------------------------------------------------------------
# The tests: (file, test name) -> expected output lines; `needs` are source
# snippets the file must contain (its sizes and constants).

REFS = {}
ERRORS = {}


def ref(path, test, needs=()):
    def register(fn):
        REFS[(path, test)] = (fn, list(needs))
        return fn
    return register


def error(path, test, line, col, token, kind):
    ERRORS[(path, test)] = (line, col, token, kind)


THESIS_SIGNAL = "-27.870466000131344"


@ref("signal.apl", "the thesis's value (Example 3.1)",
     needs=["diff ← {1↓⍵-¯1⌽⍵}", "signal ← {¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}",
            "+/ signal 9 8 6 8 7 4 4 3 2 2 1 2 4 5 6"])
def _():
    v = seq_sum(signal([9, 8, 6, 8, 7, 4, 4, 3, 2, 2, 1, 2, 4, 5, 6]))
    assert lit(v) == THESIS_SIGNAL, "Example 3.1 is %s, the thesis says %s" % (lit(v), THESIS_SIGNAL)
    return lines(v)


@ref("dot.apl", "matrix product, max-plus, rank 3 by rank 2, the thesis's R2",
     needs=["A ← 3 2⍴⍳5", "B ← ⍉A", "(2 3 2⍴⍳12) + dot × 2 4⍴⍳8", "×/ +/ R"])
def _():
    a = np.resize(np.arange(1, 6, dtype=np.int64), (3, 2))     # ⍴ repeats cyclically
    b = a.T
    r = np.tensordot(a, b, axes=(1, 0))
    assert (inner(a, b, np.sum, np.multiply) == r).all()
    c = np.resize(np.arange(1, 13, dtype=np.int64), (2, 3, 2))
    d = np.resize(np.arange(1, 9, dtype=np.int64), (2, 4))
    r2 = int(np.prod(r.sum(axis=1)))
    assert r2 == 65780, "the thesis's Figure 3.5 shows 65780"
    return lines(r, np.tensordot(a, b, axes=(1, 0)), inner(a, b, np.max, np.add),
                 np.tensordot(c, d, axes=(2, 0)), r2)


@ref("primes.apl", "the primes up to 100", needs=["N ← 100\n"])
def _():
    p = primes_upto(100)
    return lines(len(p), p)


@ref("bench/primes_cpu.apl", "the primes up to 10000", needs=["N ← 10000\n"])
def _():
    p = primes_upto(10000)
    return lines(len(p), int(p.sum()))


@ref("easter.apl", "Easter 2000 … 2031, and of far years",
     needs=["Y ← 1999+⍳32", "⎕← easter¨ 100000×⍳5"])
def _():
    _check_easter()
    y = np.arange(2000, 2032)
    month, day = easter_month_day(y)
    far = easter_march_day(100000 * np.arange(1, 6))
    return lines(month, far, 10000 * y + 100 * month + day)


def easter_bench(n):
    y = 1 + (np.arange(n, dtype=np.int64) % 3000)
    return lines(int(easter_march_day(y).sum()))


@ref("bench/easter_cpu.apl", "N = 900000", needs=["N ← 900000\n", "Y ← 1+3000|¯1+⍳N"])
def _():
    return easter_bench(900000)


@ref("bench/easter_gpu.apl", "N = 10000000", needs=["N ← 10000000\n", "Y ← 1+3000|¯1+⍳N"])
def _():
    return easter_bench(10000000)


BS_NEEDS = ["S ← 100 ", "X ← 80+40×(¯1+⍳N)÷N", "R ← 0.02 ", "V ← 0.3 ", "T ← 0.5 ",
            "0.2316419", "0.31938153+K×¯0.356563782+K×1.781477937+K×¯1.821255978+K×1.330274429"]


@ref("blackscholes.apl", "ten strikes", needs=["N ← 10\n"] + BS_NEEDS)
def _():
    _check_cnd()
    c = black_scholes(10)
    return lines(seq_sum(c) / 10, c)


@ref("bench/blackscholes_cpu.apl", "N = 100000", needs=["N ← 100000\n"] + BS_NEEDS)
def _():
    return lines(seq_sum(black_scholes(100000)) / 100000)


@ref("bench/blackscholes_gpu.apl", "N = 10000000", needs=["N ← 10000000\n"] + BS_NEEDS)
def _():
    return lines(seq_sum(black_scholes(10000000)) / 10000000)


def sobol_needs(n, b):
    return ["N ← %d " % n, "B ← %d " % b, "D ← 30 ",
            "M2 ← " + " ".join(map(str, sobol_direction_m2())) + "\n"]


@ref("sobol_pi.apl", "1000 points", needs=sobol_needs(1000, 10))
def _():
    _check_sobol()
    x, y, h, p = sobol_pi(1000)
    return lines(x[:8], y[:8], h, p)


@ref("bench/sobol_pi_cpu.apl", "N = 10000", needs=["N ← 10000\n", "B ← 14\n"] + sobol_needs(0, 0)[2:])
def _():
    x, y, h, p = sobol_pi(10000)
    return lines(h, p)


@ref("bench/sobol_pi_gpu.apl", "N = 10000000", needs=["N ← 10000000\n", "B ← 24\n"] + sobol_needs(0, 0)[2:])
def _():
    x, y, h, p = sobol_pi(10000000)
    return lines(h, p)


@ref("life.apl", "a glider and a blinker for 9 generations",
     needs=["R ← 7 ⋄ C ← 10 ⋄ K ← 9", "glider ← 3 3⍴0 1 0 0 0 1 1 1 1",
            "G0 ← (¯3⊖¯6⌽(R,C)↑glider)∨¯1⊖¯3⌽(R,C)↑1 3⍴1"])
def _():
    _check_life()
    g0 = np.zeros((7, 10), dtype=bool)
    g0[3:6, 6:9] = GLIDER         # rows 4-6, columns 7-9
    g0[1, 3:6] = True             # a blinker: row 2, columns 4-6
    g = life(g0, 9)
    return lines(render(g0), render(g), int(g.sum()), g)


@ref("life_board.apl", "a 12×16 board for 20 generations", needs=["R ← 12 ⋄ C ← 16 ⋄ K ← 20"])
def _():
    g0 = life_board(12, 16)
    return lines(int(g0.sum()), life(g0, 20))


@ref("bench/life_cpu.apl", "a 40×40 board, 20000 generations", needs=["R ← 40 ⋄ C ← 40 ⋄ K ← 20000"])
def _():
    g0 = life_board(40, 40)
    return lines(int(g0.sum()), int(life(g0, 20000).sum()))


@ref("bench/life_gpu.apl", "a 1200×1200 board, 100 generations", needs=["R ← 1200 ⋄ C ← 1200 ⋄ K ← 100"])
def _():
    g0 = life_board(1200, 1200)
    return lines(int(g0.sum()), int(life(g0, 100).sum()))


HOTSPOT_NEEDS = ["chipH ← 0.016 ⋄ chipW ← 0.016 ⋄ tChip ← 0.0005",
                 "kSI ← 100 ⋄ specHeat ← 1.75E6 ⋄ factor ← 0.5 ⋄ maxPD ← 3E6 ⋄ precision ← 0.001 ⋄ amb ← 80",
                 "T0 ← 320+0.25×41|(⍳R)∘.{(3×⍺)+7×⍵}⍳C", "P ← 0.01×17|(⍳R)∘.×⍳C"]


@ref("hotspot.apl", "a 6×8 grid, 10 steps", needs=["R ← 6 ⋄ C ← 8 ⋄ K ← 10"] + HOTSPOT_NEEDS)
def _():
    return lines(hotspot(6, 8, 10))


@ref("bench/hotspot.apl", "512×512, 360 steps", needs=["R ← 512 ⋄ C ← 512 ⋄ K ← 360"] + HOTSPOT_NEEDS)
def _():
    return lines(seq_sum(hotspot(512, 512, 360)))


@ref("bench/signal_gpu.apl", "N = 50000000", needs=["N ← 50000000\n", "+/ signal 1+97|7×⍳N"])
def _():
    small = 1 + (7 * np.arange(1, 1001)) % 97
    assert abs(signal_sum_chunked(1000, chunk=97) - seq_sum(signal(small))) < 1e-9
    return lines(signal_sum_chunked(50000000))


# The negative programs: position (line, column in characters, both from 1),
# the token there, and the kind of error the message must name.
error("errors/nested_strand.apl", "a strand of vectors is refused", 4, 5, "(1 2)", "nested array")
error("errors/nested_each.apl", "each with a vector-valued function is refused", 3, 9, "¨", "nested array")
error("errors/recursion_del.apl", "∇ is refused", 4, 11, "∇", "recursion")
error("errors/recursion_named.apl", "a function calling itself by name is refused", 3, 13, "sum 1↓⍵", "recursion")
error("errors/rank.apl", "matrix plus vector is a rank error", 4, 2, "+", "rank")
error("errors/rank_index.apl", "one index for a matrix is a rank error", 4, 2, "[", "rank")
error("errors/length.apl", "vectors of lengths 3 and 2 are a length error", 3, 6, "+", "length")
error("errors/power_shape.apl", "power with a function that lengthens its argument is refused", 4, 7, "⍣", "shape")
error("errors/power_rank.apl", "power with a function that reshapes a vector into a matrix is refused",
      4, 9, "⍣", "shape")


# --------------------------------------------------------------------------
# Test blocks in the .apl files

DIRECTIVE = re.compile(r"^\s*⍝\s*(test|input|output|error|tolerance)\s*:(.*)$")


def parse_blocks(src):
    """[(name, {key: [values]}, first line index, last line index)] of `⍝ key:` blocks."""
    blocks = []
    for no, line in enumerate(src.split("\n")):
        m = DIRECTIVE.match(line)
        if not m:
            continue
        key, val = m.group(1), m.group(2).strip()
        if key == "test":
            blocks.append([val, {}, no, no])
        elif blocks:
            blocks[-1][1].setdefault(key, []).append(val)
            blocks[-1][3] = no
        else:
            raise ValueError("line %d: '%s:' before any '⍝ test:'" % (no + 1, key))
    return blocks


def apl_files(quick):
    for root, dirs, files in os.walk(HERE):
        dirs.sort()
        if quick and os.path.relpath(root, HERE).startswith("bench"):
            continue
        for f in sorted(files):
            if f.endswith(".apl"):
                yield os.path.relpath(os.path.join(root, f), HERE)


NUMBER = re.compile(r"-?(?:inf|nan|[0-9][0-9.eE+-]*)")


def not_17g(line):
    """The numbers of a literal line that are not printed as %.17g prints them."""
    bad = []
    for tok in NUMBER.findall(line):
        if tok in ("inf", "-inf", "nan"):
            continue
        if "%.17g" % float(tok) != tok:
            bad.append(tok)
    return bad


def parse_literal(line):
    return eval(line.replace("nan", "float('nan')").replace("inf", "float('inf')"), {})


def close(got, want, tol):
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(close(g, w, tol) for g, w in zip(got, want))
    if isinstance(got, list):
        return False
    if math.isnan(want):
        return math.isnan(got)
    return got == want or abs(got - want) <= tol * max(abs(got), abs(want))


def expected(rel):
    out = {}
    for (path, test), (fn, needs) in REFS.items():
        if path == rel:
            out[test] = ("output", fn, needs)
    for (path, test), e in ERRORS.items():
        if path == rel:
            out[test] = ("error", e, None)
    return out


def check_error(rel, src, name, vals, e, problems):
    line, col, token, kind = e
    base = os.path.basename(rel)
    want = ["%s:%d:%d:" % (base, line, col), kind]
    if vals.get("error") != want:
        problems.append("%s: %s: error lines %r, expected %r" % (rel, name, vals.get("error"), want))
    src_lines = src.split("\n")
    at = src_lines[line - 1][col - 1:] if line <= len(src_lines) else ""
    if not at.startswith(token):
        problems.append("%s: %s: %d:%d is %r, not the culprit %r" % (rel, name, line, col, at[:10], token))
    if "output" in vals:
        problems.append("%s: %s: an error block with output lines" % (rel, name))


def run(mode, quick):
    problems, notes, seen = [], [], set()
    ran = 0
    for rel in apl_files(quick):
        path = os.path.join(HERE, rel)
        with open(path, encoding="utf-8") as f:
            src = f.read()
        blocks = parse_blocks(src)
        exp = expected(rel)
        if not blocks:
            problems.append("%s: no test block" % rel)
        new_src_lines = src.split("\n")
        for name, vals, first, last in reversed(blocks):
            if name not in exp:
                problems.append("%s: test %r has no reference here" % (rel, name))
                continue
            seen.add((rel, name))
            kind, what, needs = exp[name]
            if kind == "error":
                check_error(rel, src, name, vals, what, problems)
                if mode == "print":
                    print("== %s: %s" % (rel, name))
                    for v in ["%s:%d:%d:" % (os.path.basename(rel), what[0], what[1]), what[3]]:
                        print("⍝ error: " + v)
                continue
            for s in needs:
                if s not in src:
                    problems.append("%s: %s: the program no longer contains %r" % (rel, name, s))
            got = what()
            ran += 1
            for g in got:
                if not isinstance(g, Text) and not_17g(g):
                    problems.append("%s: %s: not %%.17g: %s" % (rel, name, not_17g(g)))
            if mode == "print":
                print("== %s: %s" % (rel, name))
                for g in got:
                    print("⍝ output: " + g)
            elif mode == "write":
                block = [l for l in new_src_lines[first:last + 1] if not re.match(r"^\s*⍝\s*output\s*:", l)]
                block += ["⍝ output: " + g for g in got]
                new_src_lines[first:last + 1] = block
            else:
                want = vals.get("output", [])
                tol = float(vals["tolerance"][0]) if "tolerance" in vals else DEFAULT_TOLERANCE
                if len(want) != len(got):
                    problems.append("%s: %s: %d output lines, the reference has %d"
                                    % (rel, name, len(want), len(got)))
                    continue
                for k, (w, g) in enumerate(zip(want, got)):
                    if w == g:
                        continue
                    ok = False
                    if not isinstance(g, Text):
                        try:
                            ok = close(parse_literal(w), parse_literal(g), tol)
                        except Exception:
                            ok = False
                    if ok:
                        notes.append("%s: %s: output line %d differs within tolerance %g (NumPy's last digits?)"
                                     % (rel, name, k + 1, tol))
                    else:
                        problems.append("%s: %s: output line %d\n  file:      %s\n  reference: %s"
                                        % (rel, name, k + 1, w[:300], g[:300]))
                    if not isinstance(g, Text) and not_17g(w):
                        problems.append("%s: %s: line %d not %%.17g: %s" % (rel, name, k + 1, not_17g(w)))
        if mode == "write":
            new = "\n".join(new_src_lines)
            if new != src:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
                print("wrote", rel)
    for key in list(REFS) + list(ERRORS):
        if key not in seen and not (quick and key[0].startswith("bench/")):
            problems.append("%s: no test block %r for this reference" % key)
    for n in notes:
        print("note:", n)
    for p in problems:
        print("FAIL:", p)
    if mode == "check":
        print("%d programs checked, %d error tests checked, %d problems"
              % (ran, len([k for k in seen if k in ERRORS]), len(problems)))
    return 1 if problems else 0


def main(argv):
    quick = "--quick" in argv
    mode = "check" if "--check" in argv else "write" if "--write" in argv else "print"
    unknown = [a for a in argv if a not in ("--check", "--write", "--quick")]
    if unknown:
        sys.exit("usage: reference.py [--check | --write] [--quick]")
    return run(mode, quick)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
