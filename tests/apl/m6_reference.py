#!/usr/bin/env python3
"""m6_reference.py — expected values of the tests of APL's ! (factorial and
binomial), the arc and hyperbolic circle functions and the bit operations
(docs/apl.md §5 M6), and of the clift scalar operations under them
(tests/lift/math_arc.lift, special.lift, bits.lift): Python's math module,
math.comb and the ISO 13751 table of the binomial written here from the
standard's text, 32-bit wrapping by masks. Independent of clift's code
(prim/special.h). Run: python3 tests/apl/m6_reference.py; it prints each
test's expected lines, which the test files hold."""
import math

def g(x):
    """%.17g as clift prints a double (integral values without a point)."""
    if isinstance(x, float) and math.isnan(x): return "nan"
    if isinstance(x, float) and math.isinf(x): return "inf" if x > 0 else "-inf"
    s = "%.17g" % x
    return s

def vec(xs): return "[" + ", ".join(g(x) for x in xs) + "]"

def fact(x):
    if x == math.floor(x):
        if x < 0: raise ValueError("domain")
        return float(math.factorial(int(x))) if x <= 170 else math.inf
    return math.gamma(x + 1)

def binom(k, n):
    """ISO 13751: integers by the signs of k, n and n-k; else Γ(n+1)÷Γ(k+1)×Γ(n-k+1)."""
    d = n - k
    if k == math.floor(k) and n == math.floor(n):
        k, n, d = int(k), int(n), int(d)
        ka, na, da = k < 0, n < 0, d < 0
        if not ka and not na and not da: return float(math.comb(n, k))
        if not ka and not na and da: return 0.0
        if not ka and na and da: return float((-1) ** k * math.comb(k - n - 1, k))      # (¯1*A)×A!A-B+1
        if ka and not na: return 0.0
        if ka and na and not da: return float((-1) ** d * math.comb(-k - 1, -n - 1))     # (¯1*B-A)×(|B+1)!|A+1
        return 0.0
    if n == math.floor(n) and n < 0: raise ValueError("domain")
    def rg(x):   # 1/Γ(x), 0 at the poles
        return 0.0 if x == math.floor(x) and x <= 0 else 1 / math.gamma(x)
    return math.gamma(n + 1) * rg(k + 1) * rg(d + 1)

def i32(x): x &= 0xffffffff; return x - (1 << 32) if x >> 31 else x

def shl(x, n): return i32(x << (n & 31))
def lshr(x, n): return i32((x & 0xffffffff) >> (n & 31))
def ashr(x, n): return i32(x) >> (n & 31)

def circle(k, x):
    f = {-7: math.atanh, -6: math.acosh, -5: math.asinh, -3: math.atan, -2: math.acos, -1: math.asin,
         5: math.sinh, 6: math.cosh, 7: math.tanh, 1: math.sin, 2: math.cos, 3: math.tan}
    if k == -4: return (x + 1) * math.sqrt((x - 1) / (x + 1))
    if k == 4: return math.sqrt(1 + x * x)
    if k == 0: return math.sqrt(1 - x * x)
    return f[k](x)

print("== tests/lift/math_arc.lift")
xs = [0.5, -0.25, 0.875, 0.0, -0.625]
for x in xs:
    print("  ", tuple(g(v) for v in (math.asin(x), math.acos(x), math.atan(x), math.sinh(x), math.cosh(x),
                                      math.tanh(x), math.asinh(x), math.acosh(1 + x * x), math.atanh(x))))
print("== tests/lift/math_arc_vec4.lift (float: %.9g)")
xs = [0.5, -0.25, 0.875, 0.0, -0.625, 0.125, 0.75, -0.5]
print("  ", ["%.9g" % sum(f(x) for f in (math.asin, math.acos, math.atan, math.sinh, math.cosh, math.tanh, math.asinh,
                                          math.atanh)) for x in xs])
print("== tests/lift/special.lift")
xs = [0, 1, 5, 10, 20, 170, 171, 0.5, -0.5, 2.25, -2.5]
print("  factorial", vec([fact(x) for x in xs]))
ks = [2, 0, 5, 2, -3, -5, -2, 0.5, 2.5, -1, 0.5]
ns = [5, 7, 3, -3, -5, -3, 4, 2, 1.5, 0.5, 3.25]
print("  binomial", vec([binom(k, n) for k, n in zip(ks, ns)]))
print("== tests/lift/bits.lift")
a = [12, -7, 2147483647, -2147483648, 0, 255]
b = [10, 3, 1, 31, -1, 36]
print("  ", [(i32(x & y), i32(x | y), i32(x ^ y), i32(~x), shl(x, y), lshr(x, y), ashr(x, y)) for x, y in zip(a, b)])
def i64(x): x &= (1 << 64) - 1; return x - (1 << 64) if x >> 63 else x
print("  long, (x << 40) >> 40:", [i64(x << 40) >> 40 for x in a])

print("== tests/apl/factorial.apl")
print("  !0 1 2 3 4 5 10 ->", vec([fact(x) for x in [0, 1, 2, 3, 4, 5, 10]]))
print("  !0.5 2.5 ¯0.5 ->", vec([fact(x) for x in [0.5, 2.5, -0.5]]))
print("  !20 ->", g(fact(20)))
print("  !2 2⍴1 3 5 7 ->", [[g(fact(1)), g(fact(3))], [g(fact(5)), g(fact(7))]])
print("  2!5 ->", g(binom(2, 5)))
print("  0 1 2 3 4 5!5 ->", vec([binom(k, 5) for k in range(6)]))
print("  3!2 3 4 10 ->", vec([binom(3, n) for n in [2, 3, 4, 10]]))
print("  2 ¯3 ¯5 ¯3!¯3 ¯5 ¯3 2 ->", vec([binom(k, n) for k, n in [(2, -3), (-3, -5), (-5, -3), (-3, 2)]]))
print("  0.5 2.5 ¯1!2 1.5 0.5 ->", vec([binom(k, n) for k, n in [(0.5, 2), (2.5, 1.5), (-1, 0.5)]]))
print("  !/3 2 ->", g(binom(3, 2)), " (3!2)")
print("  +/!⍳5 ->", g(sum(fact(x) for x in range(1, 6))))
print("  50!100 ->", g(binom(50, 100)))
print("  2!(⍳3)-2 ->", vec([binom(2, n) for n in [-1, 0, 1]]), " (binomial_runtime.apl)")

print("== tests/apl/circle_arc.apl")
for k, xs in [(-1, [0.5, -0.25, 1]), (-2, [0.5, -0.25, 1]), (-3, [1, -2, 0.5]), (5, [0.5, -1, 2]), (6, [0.5, -1, 2]),
              (7, [0.5, -1, 2]), (-5, [0.5, -1, 2]), (-6, [1, 1.5, 3]), (-7, [0.5, -0.25, 0]), (-4, [1, 2, 3.5, -2])]:
    print("  %d○" % k, vec([circle(k, x) for x in xs]))
print("  ¯1○1○0.5 ->", g(math.asin(math.sin(0.5))))
print("  7○2 2⍴0 1 2 3 ->", [[g(math.tanh(0)), g(math.tanh(1))], [g(math.tanh(2)), g(math.tanh(3))]])

print("== tests/apl/bits.apl")
print("  5 ⎕INT32AND 3 ->", 5 & 3, " 12 ⎕INT32OR 3 ->", 12 | 3, " 12 ⎕INT32XOR 10 ->", 12 ^ 10)
print("  1 ⎕INT32SHL 10 31 ->", [shl(1, 10), shl(1, 31)])
print("  1024 ¯2147483648 ⎕INT32SHR 10 30 ->", [lshr(1024, 10), lshr(-2147483648, 30)])
print("  1024 ¯1024 ⎕INT32SHAR 10 1 ->", [ashr(1024, 10), ashr(-1024, 1)])
print("  ⎕INT32NOT 0 5 ¯1 ->", [i32(~x) for x in [0, 5, -1]])
v = [3, 5, 9, 17, 33]
x = 0
for e in v: x ^= e
print("  ⎕INT32XOR/3 5 9 17 33 ->", x)
a = -1
for e in [7, 13, 15]: a &= e
print("  ⎕INT32AND/7 13 15 ->", a)
o = 0
for e in [1, 2, 4, 64]: o |= e
print("  ⎕INT32OR/1 2 4 64 ->", o)
print("  6 ⎕INT32AND 2 3⍴⍳6 ->", [[6 & x for x in [1, 2, 3]], [6 & x for x in [4, 5, 6]]])
print("  1 ⎕INT32SHL ⍳5 ->", [shl(1, i) for i in range(1, 6)])
print("  testBit: 0≠5 and 1 sll (⍳4)-1 ->", [1 if (5 & shl(1, i - 1)) != 0 else 0 for i in range(1, 5)])
print("  1 ⎕INT32SHL 33 ->", shl(1, 33))
