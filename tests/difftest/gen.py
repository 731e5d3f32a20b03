"""gen.py — random well-typed clift programs for the differential tester.

generate(seed, exclude) -> Program (source text, input literals, result type, the
feature groups it uses). Deterministic per seed: everything is drawn from one
random.Random(seed).

The generator is type-directed. It tracks the type of every expression it builds
(scalars float/int/bool/float4, tuples, arrays whose lengths are symbolic Sizes) and
only builds what SPEC §4 types: zip of equal lengths (same size text), split #k with
k dividing the length (a constraint on N, M solved when the inputs are drawn),
strategies nested as §4.2 allows (mapGlb/mapWrg only at the top, mapLcl only inside
mapWrg, sequential patterns anywhere).

Numerics are kept tame so that a tolerance comparison means something: float inputs
are multiples of 1/8 of small magnitude, so +, -, *, min, max and sums stay exact in
float whatever the evaluation order; comparisons, floor and f2i only see such exact
values; transcendental functions only produce results (never branch on them). Int
arithmetic stays far from overflow; a division's divisor is never zero unless the
feature group `divzero` deliberately tests the run-time error.
"""
import random
import re

FLOAT, INT, BOOL, VEC, DOUBLE = 'float', 'int', 'bool', 'float4', 'double'

# Feature groups that can be switched off with --exclude. The ones marked (known)
# hit bugs that were known when the tester was written (see README.md).
FEATURES = {
    'tuple': 'zip/unzip/tuple/get1/get2, tuple inputs and results',
    'tuple_acc': '(known) reduceSeq with a tuple accumulator',
    'nested_tuple': '(known) arrays of nested tuples (zip of a zip)',
    'tuple_array': '(known) tuples holding arrays',
    'vector': 'asVector #4/asScalar, float4 inputs and arithmetic',
    'vec_minmax': '(known) abs/min/max on float4',
    'vec3': '(known) asVector #3 (FINDINGS.md F2: float3 arrays on opencl)',
    'vec_roundtrip': 'asScalar directly on asVector and back (FINDINGS.md F1 on opencl, F6)',
    'f2i_range': 'f2i of a float outside the int range (FINDINGS.md F4)',
    'vec_zip_out': 'asScalar of vectors written through zip or transpose of the result (FINDINGS.md F7)',
    'wrg': 'mapWrg/mapLcl with toLocal/toGlobal',
    'wrg_reduce': '(known) reduce/reduceSeq at work-group level (work-group accumulators)',
    'dims': 'mapGlb1 around mapGlb (2-D grids)',
    'default': 'programs without strategies (map/reduce, default lowering)',
    'top_reduce': 'top-level reduce (parallel tree reduction)',
    'top_reduce_join': '(known) top-level reduce of join of map of reduce',
    'arr_acc': '(known) reduceSeq with an array accumulator',
    'multi': 'let-bound intermediate arrays at the top (several kernels)',
    'lazymap': 'plain map as a view inside explicit strategies',
    'slide': 'slide', 'pad': 'pad/padConstant', 'split': 'split/join',
    'transpose': 'transpose', 'iota': 'iota', 'let': 'let', 'if': 'if',
    'cast': 'i2f/f2i', 'math': 'sqrt/sin/cos/exp/float division',
    'aref': 'aref with index % length',
    'aref_if': '(known) aref guarded by if (bounds check hoisted)',
    'aref_const': '(known) aref at a constant index',
    'divzero': '(known) integer division by a value that may be zero',
    'private': 'toPrivate', 'scalar_param': 'int/float scalar parameters',
    'nested_reduce': 'reductions inside reductions / inside scalar expressions',
    'iterate': 'iterate #k or a run-time count of a map (in a thread and at the top)',
    'scan': 'scan/scanSeq (in a thread and at the top)',
    'slice': 'slice #start #len',
    'bool_double': 'bool and double results (comparisons, f2d)',
    'seq_outer': 'mapSeq/reduceSeq at the top, mapSeq around mapGlb',
    'seq_two': 'mapSeq at the top around two mapGlb a step, the second reading the first\'s row padded (FINDINGS.md F43)',
    'wrg_seq': 'mapSeq around mapLcl inside mapWrg (barriers in a sequential loop)',
    'let_array': 'let-bound temporary arrays inside threads',
    'view_only': 'results that are views of the inputs (copied out by clift)',
    'outview': 'views on the output: transpose/split/asVector/zip of kernel results',
    'if_top': 'an if at the top of the program between two programs of the same type (kernels under a '
              'condition, FINDINGS.md F20)',
    'filter': 'filterSeq/filterGlb/filter: dynamic-length arrays {∃X.[T]X} (SPEC §3.4), used by every consumer',
    'filter_tmp': 'filters whose results (or rows) are read by code that may need a temporary of dynamic size: '
                  'let-bound with several uses, chains through a materialised map, iterate/scan/let in threads over '
                  'them (FINDINGS.md F17)',
    'filter_unread': 'filters whose predicate does not read its element (an element that may report an error '
                     'is computed only when kept, FINDINGS.md F44)',
    'filter_join': 'join of mapWrg/mapLcl row filters (an array of dynamic-length rows written through a view, '
                   'FINDINGS.md F18)',
    'dep': 'position-dependent arrays [i -> [T](i+1)]N and [i -> [T](N-i)]N (SPEC §3.5): triangles and batches of '
           'triangles, row maps at every level, reductions of and over rows, zips, join, row layouts and temporaries',
    'dep_up_tmp': 'upper triangles [i -> [T](N-i)]N whose row functions may need a temporary (iterate, toGlobal, '
                  'toPrivate, let, nested maps): sized at the last row when the rows are a sequential loop (FINDINGS.md F23)',
    'iota_input': '(iota e) of int scalar parameters k (e: k + c, k − c, 2k, max, min, /, %, k + k2, length xs): '
                  'a dynamic-length array bounded before the run by k\'s value size (docs/language.md §3), as the '
                  'source of any program',
    'dep_wrg_reduce': 'reduce of a row of a position-dependent array as the body of a mapWrg (the position '
                      'variable left undeclared, FINDINGS.md F24)',
    'partition': 'position-dependent programs over (partition #N (nat-fn (i) …) a0) of a flat input of N(N+1)/2 '
                 'elements instead of a triangle input (seed 002, Figure 9)',
    'getlength': 'a row of a position-dependent array against (slice #0 #(getLength row) v) of a vector of N, '
                 'or padded to N by (padConstant #0 #(- N (getLength row)) c row) and zipped with it (SPEC §3.5)',
    'bits': 'int bit operations (bitand bitor bitxor bitnot shl lshr ashr), shift counts outside 0..31',
    'wrap': 'int literals at the ends of the int range (2147483647, -2147483648, 1000000007, …), one in 5: '
            'sums and products that overflow and wrap, as in the interpreter (FINDINGS.md F59)',
    'long': 'long arithmetic on widened ints (i2l, long literals, products past the int range), l2i back',
    'while': 'whileSeq over a (counter, value) state inside a thread',
    'stencil': 'stencils: slide2D over pad2D (or slide over pad/padConstant) of an input, a window function of '
               'constant-index arefs and window reductions, under every strategy nest and iterate, run with '
               '--peel/--peel=all/--no-peel on the compiled targets (issue 12: peeling, the device cost rule)',
}
KNOWN = sorted(k for k, v in FEATURES.items() if v.startswith('(known)'))
# groups that hit bugs still open on main when this was written (FINDINGS.md): the test
# suite leaves them out (tests/difftest/run.sh); remove a name here once its bug is fixed
OPEN = []   # F23, F24 (found at 4c42926) fixed on main (26bd6b0, 7ec590d); F17, F18 fixed on issue11


class Size:
    """A symbolic length: its nat text (SPEC §2) and a function of the size variables."""
    def __init__(self, s, f, lo=1):
        self.s, self.f, self.lo = s, f, lo   # lo: a lower bound clift can prove (for aref_const)
        if is_dyn(self):
            self.lo = 0

    def __eq__(self, other):
        return isinstance(other, Size) and self.s == other.s

    def __hash__(self):
        return hash(self.s)


def _dyn_len(_s):
    raise Reject('a constraint on the length of a filtered array')


def sz_dyn(k):
    """The hidden length of the k-th filter's result (SPEC §3.4): known only at run time,
    never equal to another one (a name X<k> no other size uses)."""
    return Size(f'X{k}', _dyn_len, 0)


def is_dyn(n):
    """Whether a size mentions the length of a filtered array."""
    return bool(re.search(r'\bX[0-9]+\b', n.s))


def has_dyn(t):
    if is_arr(t):
        return is_dyn(t[2]) or has_dyn(t[1])
    if is_tup(t):
        return any(has_dyn(x) for x in t[1:])
    return False


def dyn_names(t):
    """The hidden lengths (X<k>) a type mentions."""
    return set(re.findall(r'\bX[0-9]+\b', type_text(t))) if is_arr(t) or is_tup(t) else set()


def is_pos(n):
    """Whether a size is a row length of a position-dependent array (mentions its position i)."""
    return bool(re.search(r'\bi\b', n.s))


def sz_row(kind, n):
    """The length of row i of a lower ('lo': i + 1) or upper ('up': N - i) triangle. Its
    function gives the shortest row's length (1), so that a constraint on it (slide, slice)
    holds for every row."""
    return Size('(+ i 1)' if kind == 'lo' else f'(- {n.s} i)', lambda s: 1, 1)


def sz_tri(n):
    """The length of a joined triangle: Σ (i + 1) = Σ (N - i) = N (N + 1) / 2."""
    return Size(f'(/ (* {n.s} (+ {n.s} 1)) 2)', lambda s: n.f(s) * (n.f(s) + 1) // 2)


def dep(elem, kind, n):
    """A position-dependent array [i -> [elem](row i)]n (a triangle, packed row after row)."""
    return ('dep', elem, kind, n)


def is_dep(t):
    return isinstance(t, tuple) and t[0] == 'dep'


def dep_row(t):
    return arr(t[1], sz_row(t[2], t[3]))


def sz_var(v):
    return Size(v, lambda e: e[v])


def sz_mul(k, a):
    return Size(f'(* {k} {a.s})', lambda e: k * a.f(e), k * a.lo)


def sz_div(a, k):
    return Size(f'(/ {a.s} {k})', lambda e: a.f(e) // k)


def sz_add(a, k):
    return Size(f'(+ {a.s} {k})', lambda e: a.f(e) + k, a.lo + k)


def sz_slide(a, s, st):
    return Size(f'(+ (/ (- {a.s} {s}) {st}) 1)', lambda e: (a.f(e) - s) // st + 1)


def arr(elem, n):
    return ('arr', elem, n)


def tup(*ts):
    return ('tup',) + tuple(ts)


def is_arr(t):
    return isinstance(t, tuple) and t[0] == 'arr'


def is_tup(t):
    return isinstance(t, tuple) and t[0] == 'tup'


def type_text(t):
    """The type in clift's input syntax (for the lift header)."""
    if t == VEC:
        return '(vector-type float 4)'
    if is_arr(t):
        return f'(array-type {type_text(t[1])} {t[2].s})'
    if is_tup(t):
        return '(tuple ' + ' '.join(type_text(x) for x in t[1:]) + ')'
    if is_dep(t):
        return f'(dep-array-type (i) {type_text(dep_row(t))} {t[3].s})'
    return t


def depth_of(t):
    return 1 + depth_of(t[1]) if is_arr(t) else 0


class Var:
    def __init__(self, name, t, exact=True):
        self.name, self.t, self.exact = name, t, exact


class Program:
    def __init__(self, seed, text, inputs, result, feats, sizes):
        self.seed, self.text, self.inputs = seed, text, inputs
        self.result, self.feats, self.sizes = result, feats, sizes


class Reject(Exception):
    """This draw cannot be completed (no size fits); the caller draws again."""


class Gen:
    def __init__(self, seed, exclude=()):
        self.r = random.Random(seed)
        self.wide = random.Random(f'wrap{seed}')   # the 'wrap' literals (lit)
        self.exclude = set(exclude)
        self.feats = set()
        self.cons = []        # functions of the size variables that must hold
        self.nid = 0
        self.prefer = set()   # names of arrays source() picks first (a filter's result)
        self.bias = None      # input sampling of a filter program (value)
        self.risky = True     # filter programs: shapes that may need dynamic temporaries (filter_tmp)

    # ---- helpers --------------------------------------------------------------
    def on(self, feat, p=1.0):
        if feat in self.exclude or self.r.random() >= p:
            return False
        self.feats.add(feat)
        return True

    def fresh(self, base):
        self.nid += 1
        return f'{base}{self.nid}'

    def pick(self, xs):
        if not xs:
            raise Reject('nothing to choose from')
        return self.r.choice(xs)

    def flit(self):
        k = self.r.randint(-16, 16) or 3
        v = k / 4
        return f'{v:g}f' if v != int(v) else f'{int(v)}.0f'

    def ilit(self, lo=-9, hi=9):
        return str(self.r.randint(lo, hi))

    def lit(self, t):
        if t == FLOAT:
            return self.flit()
        if t == INT:
            k = self.ilit()
            # a sum or product with an int at the range's ends, from a stream of its own (the other
            # seeds' programs stay as they were), that wraps; its residue keeps it small, as the
            # literals other groups expect (an f2i of a product of it, a guarded index)
            if 'wrap' not in self.exclude and self.wide.random() < 0.2:
                self.feats.add('wrap')
                big = self.wide.choice(['2147483647', '-2147483648', '1000000007', '65537', '-1073741825'])
                return f'(% ({self.wide.choice(["+", "*", "-"])} {k} {big}) 1009)'
            return k
        if t == BOOL:
            return self.pick(['true', 'false'])
        if is_tup(t):
            parts = [self.lit(x) for x in t[1:]]
            return None if None in parts else '(tuple ' + ' '.join(parts) + ')'
        return None   # no float4 literal in the language

    # ---- scalar expressions -----------------------------------------------------
    def leaves(self, t, env):
        """(text, exact) for the variables and tuple projections of type t in env, the
        innermost bindings (the element a function works on) several times over."""
        out = []
        for i, v in enumerate(env):
            w = 6 if i >= len(env) - 2 else 1
            for _ in range(w):
                self._proj(v.name, v.t, t, v.exact, out)
            if t == INT and is_arr(v.t) and self.r.random() < 0.15:
                out.append((f'(length {v.name})', True))
        return out

    def _proj(self, text, vt, t, exact, out, depth=0):
        if vt == t:
            out.append((text, exact))
        elif is_tup(vt) and depth < 3:
            for i, ft in enumerate(vt[1:]):
                acc = ['get1', 'get2'][i] if i < 2 and self.r.random() < 0.7 else f'get #{i + 1}'
                self._proj(f'({acc} {text})', ft, t, exact, out, depth + 1)

    def scal(self, t, env, d):
        """(text, exact) of a scalar expression of type t."""
        if is_tup(t):
            parts = [self.scal(x, env, d - 1) for x in t[1:]]
            return '(tuple ' + ' '.join(p[0] for p in parts) + ')', all(p[1] for p in parts)
        if t == BOOL:
            return self.cond(env, d)
        leaves = self.leaves(t, env)
        r = self.r.random()
        if d <= 0 or r < 0.25:
            if leaves and (t == VEC or self.r.random() < 0.9):
                return self.pick(leaves)
            other = self.leaves(INT if t == FLOAT else FLOAT, env) if t in (FLOAT, INT) else []
            if other and self.r.random() < 0.8:
                o = self.pick(other)
                if t == FLOAT:
                    return f'(i2f {o[0]})', True
                if o[1]:
                    return f'(f2i (* {o[0]} 8.0f))', True
            if t == VEC:
                return self.vec_expr(env, d)
            return self.lit(t), True
        if t == VEC:
            return self.vec_expr(env, d)
        choices = ['arith'] * 5 + ['leaf'] * 2
        if self.on('if', 0.5): choices.append('if')
        if self.on('let', 0.5): choices.append('let')
        if self.on('cast', 0.5): choices.append('cast')
        if t == FLOAT and self.on('math', 0.4): choices.append('math')
        if any(is_arr(v.t) and v.t[1] == t for v in env) and self.on('aref', 0.5): choices.append('aref')
        if any(is_arr(v.t) for v in env) and self.on('nested_reduce', 0.4): choices.append('reduce')
        if t == INT and 'divzero' not in self.exclude and self.r.random() < 0.1: choices.append('divzero')
        if t == INT and self.on('bits', 0.25): choices += ['bits', 'bits']
        if t == INT and self.on('long', 0.2): choices.append('long')
        if t in (FLOAT, INT) and self.on('while', 0.15): choices.append('while')
        c = self.pick(choices)
        if c == 'bits':
            # int bit operations; shifts by counts outside 0..31 (taken modulo 32, as
            # OpenCL C defines them), whose results then wrap in int arithmetic (-fwrapv)
            a, b = self.scal(INT, env, d - 1), self.scal(INT, env, d - 1)
            op = self.pick(['bitand', 'bitor', 'bitxor', 'bitnot', 'shl', 'lshr', 'ashr'])
            if op == 'bitnot':
                return f'(bitnot {a[0]})', a[1]
            if op in ('shl', 'lshr', 'ashr') and self.r.random() < 0.6:
                b = (self.pick([str(self.r.randint(0, 31)), str(self.r.randint(-40, 70)), f'(% {b[0]} 5)']), True)
            return f'({op} {a[0]} {b[0]})', a[1] and b[1]
        if c == 'long':
            # long arithmetic on widened ints (products beyond the int range), narrowed back
            # by l2i (wrapping) or by a comparison with a long literal
            a, b = self.scal(INT, env, d - 1), self.scal(INT, env, d - 1)
            op = self.pick(['+', '-', '*', 'min', 'max', '/', '%'])
            wa, wb = f'(* (i2l {a[0]}) {self.pick(["100003L", "1L", "-7L", "4294967296L"])})', f'(i2l {b[0]})'
            if op in '/%':
                wb = f'(+ (abs {wb}) 1L)'
            e = f'({op} {wa} {wb})'
            if self.r.random() < 0.5:
                return f'(l2i {e})', a[1] and b[1]
            return f'(if (> {e} {self.pick(["0L", "1000000L", "-50000000000L"])}) {a[0]} {b[0]})', a[1] and b[1]
        if c == 'while':
            # whileSeq over a (counter, value) state in the thread: at most 7 steps
            k = self.r.randint(0, 7)
            s0 = self.fresh('st')
            v = self.scal(t, env, d - 1)
            upd = self.scal(t, env + [Var(f'(get2 {s0})', t, v[1])], d - 1)
            return (f'(get2 (whileSeq (lambda ({s0}) (< (get1 {s0}) {k})) '
                    f'(lambda ({s0}) (tuple (+ (get1 {s0}) 1) {upd[0]})) (tuple 0 {v[0]})))'), v[1] and upd[1]
        if c == 'leaf' and leaves:
            return self.pick(leaves)
        if c == 'if':
            cnd = self.cond(env, d - 1)
            a, b = self.scal(t, env, d - 1), self.scal(t, env, d - 1)
            return f'(if {cnd[0]} {a[0]} {b[0]})', a[1] and b[1]
        if c == 'let':
            lt = self.pick([FLOAT, INT])
            x = self.fresh('s')
            val = self.scal(lt, env, d - 1)
            body = self.scal(t, env + [Var(x, lt, val[1])], d - 1)
            return f'(let {x} {val[0]} {body[0]})', body[1]
        if c == 'cast':
            if t == FLOAT:
                return f'(i2f {self.scal(INT, env, d - 1)[0]})', True
            e = self.exact_scal(FLOAT, env, d - 1)
            if self.r.random() < 0.2 and self.on('f2i_range'):
                return f'(f2i (* {e} 1000000000.0f))', True   # out of int range: FINDINGS.md F4
            return f'(f2i (* {e} 4.0f))', True
        if c == 'math':
            a = self.scal(FLOAT, env, d - 1)[0]
            m = self.pick(['sqrt', 'sin', 'cos', 'exp', 'div'])
            if m == 'sqrt':
                return f'(sqrt (abs {a}))', False
            if m == 'exp':
                return f'(exp (min {a} 2.0f))', False
            if m == 'div':
                b = self.scal(FLOAT, env, d - 1)[0]
                return f'(/ {a} (+ (abs {b}) 0.5f))', False
            return f'({m} {a})', False
        if c == 'aref':
            return self.aref(t, env, d)
        if c == 'reduce':
            got = self.reduce_scalar(t, env, d)
            if got:
                return got
        if c == 'divzero':
            self.feats.add('divzero')
            a, b = self.scal(INT, env, d - 1)[0], self.scal(INT, env, d - 1)[0]
            return f'({self.pick(["/", "%"])} {a} {b})', True
        # arithmetic
        a, b = self.scal(t, env, d - 1), self.scal(t, env, d - 1)
        if t == INT:
            op = self.pick(['+', '-', '*', 'min', 'max', '+', '-', '/', '%'])
            if op in '/%':
                # a divisor that is never zero
                k = self.pick([str(self.r.randint(1, 7)), f'(+ (abs {b[0]}) 1)'])
                return f'({op} {a[0]} {k})', True
            if op == '*':   # keep products small: one factor is a literal or clamped
                b = (f'(min (max {b[0]} -9) 9)', True)
        else:
            op = self.pick(['+', '-', '*', 'min', 'max', '+'])
            if op == '*':
                b = (f'(min (max {b[0]} -4.0f) 4.0f)', b[1])
        return f'({op} {a[0]} {b[0]})', a[1] and b[1]

    def exact_scal(self, t, env, d):
        for _ in range(8):
            e, ex = self.scal(t, env, d)
            if ex:
                return e
        return self.lit(t)

    def cond(self, env, d):
        t = self.pick([INT, INT, FLOAT])
        a, b = self.exact_scal(t, env, d), self.exact_scal(t, env, d)
        c = f'({self.pick(["<", "<=", ">", ">=", "=", "!="])} {a} {b})'
        if d > 1 and self.r.random() < 0.2:
            c2 = self.cond(env, d - 2)[0]
            c = f'({self.pick(["and", "or"])} {c} {c2})'
        if self.r.random() < 0.1:
            c = f'(not {c})'
        return c, True

    def vec_expr(self, env, d):
        vs = self.leaves(VEC, env)
        if not vs:
            raise Reject('no float4 in scope')
        a = self.pick(vs)[0]
        if d <= 0 or self.r.random() < 0.3:
            return a, True
        r = self.r.random()
        if r < 0.3 and self.on('vec_minmax'):
            if self.r.random() < 0.5:
                return f'(abs {a})', True
            return f'({self.pick(["min", "max"])} {a} {self.vec_expr(env, d - 1)[0]})', True
        op = self.pick(['+', '-', '*'])
        if r < 0.55:
            s = self.scal(FLOAT, env, d - 1)
            s = s[0] if op != '*' else f'(min (max {s[0]} -4.0f) 4.0f)'
            return f'({op} {a} {s})', True
        return f'({op} {a} {self.vec_expr(env, d - 1)[0]})', True

    def aref(self, t, env, d):
        cands = [v for v in env if is_arr(v.t) and v.t[1] == t]
        v = self.pick(cands)
        n = v.t[2]
        if is_dyn(n):
            # a filtered array may be empty: guard the index (SPEC §3.4, `length` is run-time)
            i = self.scal(INT, env, d - 1)[0]
            dflt = self.lit(t)
            if dflt is None:
                raise Reject('no default for an empty filtered array')
            return (f'(if (> (length {v.name}) 0) (aref {v.name} (% (abs {i}) (length {v.name}))) {dflt})',
                    v.exact)
        if self.on('aref_const', 0.3):
            k = self.pick([0, 1]) if n.lo >= 2 else 0
            return f'(aref {v.name} {k})', v.exact
        if self.on('aref_if', 0.35):
            i = self.scal(INT, env, d - 1)[0]
            if re.fullmatch(r'-?[0-9]+', i):
                i = i.lstrip('-')   # a constant index out of range for every length is a compile-time error
                if re.fullmatch(r'[0-9]+', n.s) and int(i) >= int(n.s):
                    i = str(int(i) % int(n.s))   # the same for a constant length (seed 2002280)
            return (f'(if (and (>= {i} 0) (< {i} (length {v.name}))) (aref {v.name} {i}) {self.lit(t) or v.name})',
                    v.exact)
        i = self.scal(INT, env, d - 1)[0]
        return f'(aref {v.name} (% (abs {i}) (length {v.name})))', v.exact

    def reduce_scalar(self, t, env, d):
        """(aref (reduceSeq init f xs) 0) of type t over an array of env."""
        arrs = [v for v in env if is_arr(v.t)]
        v = self.pick(arrs)
        xs, xt = v.name, v.t
        if self.r.random() < 0.3:
            xs, xt = self.view(xs, xt, env, 1)
        init = self.lit(t)
        if init is None:
            return None
        if is_tup(t) and not self.on('tuple_acc'):
            return None
        res = self.reduce_fn(t, init, xt, env, d)
        return f'(aref ({self.reduce_kw()} {init} {res} {xs}) 0)', True

    def reduce_kw(self):
        return 'reduce' if self.level == 'dseq' else 'reduceSeq'

    def reduce_fn(self, t, init, xt, env, d):
        acc, x = self.fresh('acc'), self.fresh('x')
        env2 = env + [Var(x, xt[1])]
        if is_tup(t):
            body = '(tuple ' + ' '.join(
                f'(+ ({g} {acc}) {self.scal(ft, env2, d - 1)[0]})'
                for g, ft in zip(['get1', 'get2', 'get #3'], t[1:])) + ')'
        else:
            op = self.pick(['+', '+', 'max', 'min'])
            body = f'({op} {acc} {self.scal(t, env2, d - 1)[0]})'
        return f'(lambda ({acc} {x}) {body})'

    # ---- views ------------------------------------------------------------------
    def view(self, xs, xt, env, d):
        """A layout view of array xs: (text, type)."""
        n, e = xt[2], xt[1]
        ops = []
        if self.on('split', 0.6): ops += ['split', 'join', 'join']
        if self.on('slide', 0.5): ops.append('slide')
        if self.on('pad', 0.5): ops.append('pad')
        if self.on('transpose', 0.6): ops += ['transpose', 'transpose']
        if self.on('tuple', 0.5): ops += ['zip', 'zip']
        if self.on('iota', 0.3): ops.append('iota')
        if e == FLOAT and self.on('vector', 0.5): ops += ['asVector', 'asVector']
        if e == VEC and self.on('vector', 0.7): ops += ['asScalar'] * 3
        if self.level != 'dseq' and self.on('lazymap', 0.3): ops.append('map')
        if is_tup(e) and self.on('tuple', 0.7): ops += ['unzip'] * 3
        if self.on('slice', 0.3): ops.append('slice')
        if is_dyn(n) or has_dyn(e):
            # a filtered array: no constraint on its length can be met (split, slide, slice,
            # asVector), no iota of it, no transpose (a dynamic length inside an element type)
            ops = [o for o in ops if o in ('zip', 'unzip', 'map', 'pad', 'join') and not has_dyn(e)]
        if is_pos(n):
            # a row of a position-dependent array (length i + 1 or N - i): no split or
            # asVector (divisibility unknown), no iota (i cannot be named in a size)
            # asVector only of a length 4 * (row length): the asScalar of a float4 row
            ops = [o for o in ops if o in ('zip', 'unzip', 'map', 'pad', 'slide', 'slice', 'transpose', 'join',
                                           'asScalar') or o == 'asVector' and n.s.startswith('(* 4 ')]
        if not ops:
            return xs, xt
        op = self.pick(ops)
        if op == 'split':
            k = self.pick([2, 4, 3])
            self.cons.append(lambda s, n=n, k=k: n.f(s) % k == 0 and n.f(s) >= k)
            return f'(split #{k} {xs})', arr(arr(e, Size(str(k), lambda s, k=k: k, k)), sz_div(n, k))
        if op == 'join' and is_arr(e):
            m = e[2]
            return f'(join {xs})', arr(e[1], Size(f'(* {n.s} {m.s})', lambda s: n.f(s) * m.f(s), n.lo * m.lo))
        if op == 'transpose' and is_arr(e):
            return f'(transpose {xs})', arr(arr(e[1], n), e[2])
        if op == 'slide':
            sw, st = self.pick([(3, 1), (2, 1), (3, 2), (4, 2), (1, 1)])
            if is_pos(n) and n.lo < sw:
                return xs, xt   # some row is shorter than the window
            self.cons.append(lambda s, n=n, sw=sw: n.f(s) >= sw)
            return f'(slide #{sw} #{st} {xs})', arr(arr(e, Size(str(sw), lambda s, sw=sw: sw, sw)),
                                                     sz_slide(n, sw, st))
        if op == 'pad':
            l, r = self.r.randint(0, 2), self.r.randint(0, 2)
            m = Size(f'(+ {n.s} {l + r})', lambda s: n.f(s) + l + r, n.lo + l + r)
            if is_dyn(n) and self.lit(e) is None:
                return xs, xt   # a clamped pad of an empty array is a run-time error
            if (self.r.random() < 0.5 or self.lit(e) is None) and not is_dyn(n):
                return f'(pad #{l} #{r} {xs})', arr(e, m)
            return f'(padConstant #{l} #{r} {self.lit(e)} {xs})', arr(e, m)
        if op == 'zip':
            others = [v for v in env if is_arr(v.t) and v.t[2] == n and v.name != xs]
            if (is_dyn(n) or is_pos(n)) and not others:
                return xs, xt
            if not is_dyn(n) and not is_pos(n) and self.on('iota', 0.3) or not others:
                ys, yt = f'(iota #{n.s})', arr(INT, n)
            else:
                o = self.pick(others)
                ys, yt = o.name, o.t
            if (is_tup(e) or is_tup(yt[1])) and not self.on('nested_tuple'):
                return xs, xt
            if self.r.random() < 0.2 and not is_tup(e) and not is_tup(yt[1]):
                o = self.pick(others) if others and self.r.random() < 0.5 else None
                zs, zt = (o.name, o.t[1]) if o and not is_tup(o.t[1]) else (f'(iota #{n.s})', INT)
                if (is_dyn(n) or is_pos(n)) and zs.startswith('(iota'):
                    zs, zt = ys, yt[1]
                return f'(zip3 {xs} {ys} {zs})', arr(tup(e, yt[1], zt), n)
            if self.r.random() < 0.5:
                return f'(zip {xs} {ys})', arr(tup(e, yt[1]), n)
            return f'(zip {ys} {xs})', arr(tup(yt[1], e), n)
        if op == 'iota':
            return f'(iota #{n.s})', arr(INT, n)
        if op == 'asVector':
            k = 4
            if self.on('vec3', 0.2):
                k = 3    # only float4 values are modelled: #3 goes straight back to scalars
            if k == 3:
                self.cons.append(lambda s, n=n: n.f(s) % 3 == 0)
                return (f'(asScalar (mapSeq id (asVector #3 {xs})))',
                        arr(e, Size(f'(* (/ {n.s} 3) 3)', lambda s, n=n: n.f(s) // 3 * 3, 3)))
            if xs.startswith('(asScalar') and not self.on('vec_roundtrip'):
                return xs, xt   # FINDINGS.md F6: the compiled targets crash on this result
            self.cons.append(lambda s, n=n: n.f(s) % 4 == 0)
            return f'(asVector #4 {xs})', arr(VEC, sz_div(n, 4))
        if op == 'asScalar':
            if xs.startswith('(asVector') and not self.on('vec_roundtrip'):
                return xs, xt   # FINDINGS.md F1: opencl cannot build this as a result
            return f'(asScalar {xs})', arr(FLOAT, sz_mul(4, n))
        if op == 'map' and not is_arr(e):
            x = self.fresh('m')
            rt = self.pick([FLOAT, INT])
            body = self.scal(rt, env + [Var(x, e)], 2)[0]
            return f'(map (lambda ({x}) {body}) {xs})', arr(rt, n)
        if op == 'unzip':
            g = self.pick(['get1', 'get2'])
            return f'({g} (unzip {xs}))', arr(e[1] if g == 'get1' else e[2], n)
        if op == 'slice':
            a, b = self.r.randint(0, 2), self.r.randint(1, 3)
            if is_pos(n) and n.lo < a + b:
                return xs, xt
            self.cons.append(lambda s, n=n, a=a, b=b: n.f(s) >= a + b)
            return f'(slice #{a} #{b} {xs})', arr(e, Size(str(b), lambda s, b=b: b, b))
        return xs, xt

    def views(self, xs, xt, env, k):
        for _ in range(k):
            xs, xt = self.view(xs, xt, env, 1)
        return xs, xt

    def source(self, env, d, want=None):
        """A view over an array of env."""
        arrs = [v for v in env if is_arr(v.t) and (want is None or want(v.t))]
        ks = [v for v in env if v.t == INT and re.fullmatch(r'k[0-9]+', v.name)]   # int scalar parameters
        if ks and (want is None or want(arr(INT, sz_dyn(0)))) and self.on('iota_input', 0.2):
            # at least 0 for the parameter's values, -9…9 (value)
            it = arr(INT, sz_dyn(self.new_dyn()))
            k, k2 = self.pick(ks).name, self.pick(ks).name
            # each at least 0 for k, k2 in -9…9; every form of value_bound (types/infer_layout.c)
            n = self.pick([f'(+ {k} {self.pick([9, 10, 13])})', f'(- (+ {k} 14) 5)', f'(* 2 (+ {k} 9))',
                           f'(max {k} 3)', f'(/ (+ {k} 10) 3)', f'(% (+ {k} 20) 7)', f'(+ (+ {k} 9) (+ {k2} 9))',
                           f'(min (+ {k} 9) 6)', f'(length {self.pick(arrs).name})' if arrs and not has_dyn(self.pick(arrs).t) else f'(+ {k} 9)'])
            return self.views(f'(iota {n})', it, env, self.r.randint(0, d))
        pref = [v for v in arrs if v.name in self.prefer]
        v = self.pick(pref) if pref and self.r.random() < 0.8 else self.pick(arrs)
        return self.views(v.name, v.t, env, self.r.randint(0, d) if self.r.random() < 0.4 else d)

    # ---- functions at a level ---------------------------------------------------------
    def thread_fn(self, et, env, d):
        """(lambda (x) body) for a sequential element function: (text, result type)."""
        x = self.fresh('x')
        env2 = env + [Var(x, et)]
        body, rt = self.thread_body(env2, Var(x, et), d)
        if dyn_names(rt) & set().union(*(dyn_names(v.t) for v in env2)):
            # the length of a filtered array from outside inside the element type: an
            # error by design (SPEC §3.4); only a filter inside the function may be
            raise Reject('outer dynamic length in an element type')
        return f'(lambda ({x}) {body})', rt

    def thread_body(self, env, x, d):
        r = self.r.random()
        mapkw = 'map' if self.level == 'dseq' else 'mapSeq'
        if is_arr(x.t) and x.t[1] in (FLOAT, INT) and d > 0 and r < 0.12:
            if self.on('iterate', 0.5):
                return self.iterate(mapkw, x.name, x.t, env), x.t
            if self.on('scan', 0.5):
                t = x.t[1]
                op = self.pick(['+', 'max', 'min'])
                kw = 'scan' if self.level == 'dseq' else 'scanSeq'
                return f'({kw} {self.lit(t)} {op} {x.name})', x.t
        if d > 0 and r > 0.85 and r <= 0.93 and self.on('let_array'):
            # a temporary array in the thread, read by the rest of the body (maybe twice)
            xs, xt = (x.name, x.t) if is_arr(x.t) and self.r.random() < 0.6 else self.source(env, 1)
            f, rt = self.thread_fn(xt[1], env, 0)
            tmp = self.fresh('tmp')
            val = f'({mapkw} {f} {xs})'
            if self.level != 'dseq' and self.r.random() < 0.3:
                val = f'((toPrivate ({mapkw} {f})) {xs})'
            tv = Var(tmp, arr(rt, xt[2]))
            body, bt = self.thread_body(env + [tv], tv, d - 1)
            return f'(let {tmp} {val} {body})', bt
        if r > 0.93 and self.on('bool_double'):
            if self.r.random() < 0.5:
                return self.cond(env, 2)[0], BOOL
            return f'(f2d {self.scal(FLOAT, env, 2)[0]})', DOUBLE
        if is_arr(x.t) and r < 0.55 and d > 0:
            # a row: reduce it or map over it
            xs, xt = self.views(x.name, x.t, env, self.r.randint(0, 1))
            if self.r.random() < 0.5:
                t = INT if xt[1] == INT and self.r.random() < 0.7 else FLOAT
                if self.on('vector', 0.3) and self.leaves(VEC, env):
                    t = VEC
                if self.on('tuple_acc', 0.2):
                    t = tup(FLOAT, INT)
                init = self.lit(t) or self.pick(self.leaves(VEC, env))[0]
                if depth_of(xt) >= 2 and self.level != 'dseq' and self.on('arr_acc', 0.1):
                    return self.arr_acc(xs, xt, env, d)
                f = self.reduce_fn(t, init, xt, env, d - 1)
                return f'({self.reduce_kw()} {init} {f} {xs})', arr(t, Size('1', lambda s: 1))
            f, rt = self.thread_fn(xt[1], env, d - 1)
            if self.level != 'dseq' and self.on('private', 0.4):
                return f'((toPrivate ({mapkw} {f})) {xs})', arr(rt, xt[2])
            return f'({mapkw} {f} {xs})', arr(rt, xt[2])
        if r < 0.7 and d > 0 and any(is_arr(v.t) for v in env) and self.r.random() < 0.3:
            # a map over some other array (e.g. a row of a parameter) with x in scope
            xs, xt = self.source(env, 1)
            f, rt = self.thread_fn(xt[1], env, d - 1)
            return f'({mapkw} {f} {xs})', arr(rt, xt[2])
        if r < 0.85 and d > 0 and self.r.random() < 0.3:
            # reduce some array (a parameter, a view of it) with x in scope
            xs, xt = self.source(env, 1)
            t = xt[1] if xt[1] in (FLOAT, INT) else FLOAT
            if self.on('tuple_acc', 0.2):
                t = tup(t, INT)
            init = self.lit(t)
            f = self.reduce_fn(t, init, xt, env, d - 1)
            return f'({self.reduce_kw()} {init} {f} {xs})', arr(t, Size('1', lambda s: 1))
        t = self.pick([FLOAT, FLOAT, INT])
        if x.t in (FLOAT, INT) and self.r.random() < 0.6:
            t = x.t
        if x.t == VEC and self.r.random() < 0.6:
            t = VEC
        if self.on('tuple', 0.2):
            t = tup(t, self.pick([FLOAT, INT]))
        return self.scal(t, env, min(d + 1, 3))[0], t

    def iterate(self, mapkw, xs, xt, env):
        """(iterate #k (map (lambda (y) e)) xs), e of the element's type."""
        y = self.fresh('it')
        t = xt[1]
        e = self.scal(t, env + [Var(y, t)], 2)[0]
        e = f'(min (max {e} -50.0f) 50.0f)' if t == FLOAT else f'(min (max {e} -500) 500)'
        count = f'#{self.r.randint(1, 3)}'
        if self.r.random() < 0.4:   # a count computed at run time (SPEC §4.1), 0..3
            count = f'(% (abs (% {self.scal(INT, env, 1)[0]} 1000)) 4)'
        return f'(iterate {count} ({mapkw} (lambda ({y}) {e})) {xs})'

    def arr_acc(self, xs, xt, env, d):
        """reduceSeq whose accumulator is an array: element-wise sums of the rows."""
        row = xt[1]
        acc, x = self.fresh('acc'), self.fresh('x')
        # the accumulator has the row's type; start from the first row, scaled to 0
        init = f'(mapSeq (lambda (z) (* 0.0f z)) (aref {xs} 0))' if row[1] == FLOAT else None
        if init is None:
            return f'(mapSeq id (aref {xs} 0))', row
        body = f'(mapSeq (lambda (p) (+ (get1 p) (get2 p))) (zip {acc} {x}))'
        return f'(reduceSeq {init} (lambda ({acc} {x}) {body}) {xs})', arr(row, Size('1', lambda s: 1))

    # ---- the top level ------------------------------------------------------------------
    def program(self, seed):
        r = self.r
        sizes = ['N'] + (['M'] if r.random() < 0.4 else [])
        N = sz_var('N')
        M = sz_var('M') if 'M' in sizes else None
        params = []
        narr = r.randint(1, 3)
        for i in range(narr):
            kinds = ['f', 'f', 'i', 'f4n', 'f4n']
            if M: kinds += ['2d', '2d', '2d', 'fM']
            if self.on('tuple', 0.2): kinds.append('tup')
            if self.on('tuple_array', 0.1): kinds.append('tuparr')
            if self.on('vector', 0.15): kinds.append('vec')
            k = r.choice(kinds)
            n = N
            if k == 'f':
                t = arr(FLOAT, n)
            elif k == 'fM':
                t = arr(FLOAT, M)
            elif k == 'f4n':
                t = arr(FLOAT, sz_mul(4, N))
            elif k == 'i':
                t = arr(INT, r.choice([N, N, sz_mul(4, N)]))
            elif k == '2d':
                t = arr(arr(r.choice([FLOAT, FLOAT, INT]), M), N)
            elif k == 'tup':
                t = arr(tup(FLOAT, INT), N)
            elif k == 'tuparr':
                t = tup(arr(FLOAT, N), arr(INT, self.pick([N, sz_mul(4, N)])))
            else:
                t = arr(VEC, N)
            params.append(Var(f'a{i}', t))
        if self.on('scalar_param', 0.5):
            for i in range(r.randint(1, 2)):
                params.append(Var(f'k{i}', r.choice([FLOAT, INT])))
        if self.on('vector', 0.1):
            params.append(Var('v0', VEC))
        # a size variable no parameter mentions: the compiled targets say "size variable
        # M is not bound" where the interpreter runs (FINDINGS.md); leave it out
        for v in list(sizes):
            if not any(re.search(rf'\b{v}\b', type_text(p.t)) for p in params):
                sizes.remove(v)
        env = list(params)
        for p in params:   # the arrays inside a tuple parameter, as if they were variables
            if is_tup(p.t):
                env += [Var(f'({g} {p.name})', ft) for g, ft in zip(['get1', 'get2'], p.t[1:])]
        modes = ['glb'] * 4
        if 'wrg' not in self.exclude: modes += ['wrg'] * 3
        if 'default' not in self.exclude: modes += ['default'] * 2
        if 'top_reduce' not in self.exclude: modes += ['top_reduce'] * 2
        if 'multi' not in self.exclude: modes += ['multi']
        for m in ('seq_outer', 'iterate', 'scan', 'view_only'):
            if m not in self.exclude: modes.append(m)
        if 'dims' not in self.exclude and M: modes += ['dims', 'dims']
        if 'filter' not in self.exclude: modes += ['filter'] * 4
        mode = r.choice(modes)
        if mode != 'glb':
            self.feats.add(mode)
        body, rt = self.top(mode, env)
        if (is_arr(rt) or is_tup(rt)) and not has_dyn(rt) and self.on('if_top', 0.12):
            # an if at the top choosing between two programs of the same type: on the
            # device targets every kernel of a branch runs under the condition (FINDINGS F20)
            alt = body
            for _ in range(4):
                try:
                    b2, t2 = self.top(mode, env)
                except Reject:
                    continue
                if type_text(t2) == type_text(rt):
                    alt = b2
                    break
            cnd = self.cond(env, 1)[0]
            body = f'(if {cnd} {body} {alt})' if r.random() < 0.5 else f'(if {cnd} {alt} {body})'
        if has_dyn(rt) or not is_arr(rt) and not is_tup(rt):
            pass   # a filter's result (SPEC §3.4: printed as its kept elements), or a scalar
        elif is_arr(rt) and self.on('outview', 0.25):
            body, rt = self.out_view(body, rt, env)
        if is_arr(rt) and not has_dyn(rt) and self.on('tuple_array', 0.08):
            # a tuple of arrays as the result: unzip the result or pair it with an input
            if is_tup(rt[1]) and len(rt[1]) == 3 and self.r.random() < 0.6:
                body, rt = f'(unzip {body})', tup(arr(rt[1][1], rt[2]), arr(rt[1][2], rt[2]))
            else:
                p = self.pick([p for p in params if is_arr(p.t)])
                body, rt = f'(tuple {body} {p.name})', tup(rt, p.t)
        text = (f'(lift ({" ".join(sizes)}) ({" ".join(type_text(p.t) for p in params)})\n'
                f'  (lambda ({" ".join(p.name for p in params)})\n    {body}))\n')
        # sizes: draw until every constraint holds
        for _ in range(400):
            s = {'N': r.choice([1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, r.randint(1, 64)])}
            loops = len(re.findall(r'\((map|reduce|scan|iterate|filter|whileSeq)', text))
            if not M and loops <= 2 and r.random() < 0.1:
                s['N'] = r.choice([100, 256, 257, 1000, 1031])   # several work-groups
            if not M and loops <= 3 and self.bias and r.random() < 0.3:
                # filters over several work-groups, lengths that are no multiple of a
                # work-group size, and enough elements for a 1% selectivity to keep some
                s['N'] = r.choice([100, 127, 257, 300, 513, 1000, 1031])
            if not M and loops <= 2 and (self.bias or 'scan' in self.feats) and r.random() < 0.15:
                # the one-pass filter and scan of the device targets work on tiles
                # of 3840 elements with a look-back between them (dpia/lookback.c):
                # one tile and one, and several tiles
                s['N'] = r.choice([2303, 2305, 4609, 7001])
            if M:
                s['M'] = r.choice([1, 2, 3, 4, 6, 8, r.randint(1, 16)])
            if all(c(s) for c in self.cons):
                break
        else:
            raise Reject('no sizes satisfy the constraints')
        inputs = [self.value(p.t, s, self.bias if is_arr(p.t) else None) for p in params]
        return Program(seed, text, inputs, rt, sorted(self.feats), s)

    def top(self, mode, env):
        r = self.r
        self.level = 'seq'
        if mode == 'glb':
            xs, xt = self.source(env, 2)
            f, rt = self.thread_fn(xt[1], env, 2)
            out, ot = f'(mapGlb {f} {xs})', arr(rt, xt[2])
            return self.maybe_join(out, ot)
        if mode == 'dims':
            xs, xt = self.source(env, 1, want=lambda t: depth_of(t) >= 2)
            if depth_of(xt) < 2:
                raise Reject('no 2-D array')
            row = self.fresh('row')
            f, rt = self.thread_fn(xt[1][1], env + [Var(row, xt[1])], 1)
            m, n = xt[1][2], xt[2]
            kind = r.randint(0, 3)
            if kind == 0:
                return f'(mapGlb1 (lambda ({row}) (mapGlb {f} {row})) {xs})', arr(arr(rt, m), n)
            if kind == 1:
                return f'(mapGlb (lambda ({row}) (mapGlb1 {f} {row})) {xs})', arr(arr(rt, m), n)
            if kind == 2:
                # work-groups in two dimensions, local threads in dimension 0
                k = r.choice([1, 2, 3])
                self.cons.append(lambda s, m=m, k=k: m.f(s) % k == 0)
                c = self.fresh('c')
                return (f'(mapWrg1 (lambda ({row}) (join (mapWrg (lambda ({c}) (mapLcl {f} {c})) (split #{k} {row})))) {xs})',
                        arr(arr(rt, Size(f'(* (/ {m.s} {k}) {k})', lambda s, m=m, k=k: m.f(s) // k * k)), n))
            # rows split over work-groups of dimension 1, one local thread (dim 1) per row
            if is_dyn(n):
                return f'(mapGlb1 (lambda ({row}) (mapGlb {f} {row})) {xs})', arr(arr(rt, m), n)
            k = r.choice([1, 2])
            self.cons.append(lambda s, n=n, k=k: n.f(s) % k == 0)
            rows = self.fresh('rows')
            g, grt = self.thread_fn(xt[1], env, 1)
            return (f'(join (mapWrg1 (lambda ({rows}) (mapLcl1 {g} {rows})) (split #{k} {xs})))',
                    arr(grt, Size(f'(* (/ {n.s} {k}) {k})', lambda s, n=n, k=k: n.f(s) // k * k)))
        if mode == 'wrg':
            return self.wrg(env)
        if mode == 'filter':
            return self.filter_top(env)
        if mode == 'default':
            self.level = 'dseq'
            xs, xt = self.source(env, 2)
            f, rt = self.thread_fn(xt[1], env, 2)
            out, ot = f'(map {f} {xs})', arr(rt, xt[2])
            return self.maybe_join(out, ot)
        if mode == 'top_reduce':
            self.level = 'dseq'
            xs, xt = self.source(env, 1)
            if depth_of(xt) >= 2 and xt[1][1] in (FLOAT, INT) and self.on('top_reduce_join', 0.3):
                t = xt[1][1]
                return (f'(reduce {"0.0f" if t == FLOAT else "0"} + '
                        f'(join (map (reduce {"0.0f" if t == FLOAT else "0"} +) {xs})))'), arr(t, Size('1', lambda s: 1))
            x = self.fresh('x')
            t = r.choice([FLOAT, FLOAT, INT])
            if depth_of(xt) == 1 and r.random() < 0.25:
                got = self.top_reduce_special(xs, xt, env)
                if got:
                    return got
            if depth_of(xt) == 1 and xt[1] in (FLOAT, INT) and r.random() < 0.3:
                t, ys = xt[1], xs
            else:
                if depth_of(xt) == 1:
                    e = self.scal(t, env + [Var(x, xt[1])], 2)[0]
                elif self.on('top_reduce_join'):   # same crash as reduce of join of map of reduce
                    e = self.reduce_scalar_of(t, x, xt[1], env)
                else:
                    raise Reject('top-level reduce over rows')
                ys = f'(map (lambda ({x}) {e}) {xs})'
            op, init = r.choice([('+', '0'), ('max', 'LO'), ('min', 'HI')])
            if init == '0':
                init = '0.0f' if t == FLOAT else '0'
            elif init == 'LO':
                init = '-100000.0f' if t == FLOAT else '-100000'
            else:
                init = '100000.0f' if t == FLOAT else '100000'
            return f'(reduce {init} {op} {ys})', arr(t, Size('1', lambda s: 1))
        if mode == 'view_only':
            # no kernel written: the result is a view of the inputs, copied out by clift
            xs, xt = self.source(env, 3)
            if 'zip' in xs and '(asScalar' in xs and not self.on('vec_zip_out'):
                raise Reject('FINDINGS.md F7')
            if self.r.random() < 0.3:
                xs = self.pick([f'(map id {xs})', f'(mapGlb id {xs})', f'(id {xs})'])
            return xs, xt
        if mode == 'seq_outer':
            xs, xt = self.source(env, 1)
            n = xt[1][2] if depth_of(xt) >= 2 else None
            if n is not None and xt[1][1] in (FLOAT, INT) and not is_dyn(n) and not is_pos(n) \
                    and self.on('seq_two', 0.25):
                # two grid loops a step, the second reading the first's row padded: the
                # plan keeps the mapSeq one kernel only where every read is its writer's
                # own (FINDINGS.md F43)
                row, b = self.fresh('row'), self.fresh('b')
                env2 = env + [Var(row, xt[1])]
                f, rt = self.thread_fn(xt[1][1], env2, 1)
                if rt in (FLOAT, INT):
                    l, rr = self.pick([0, 0, 1, 2]), r.randint(1, 2)   # (pad #0 …): F43's reads
                    m = Size(f'(+ {n.s} {l + rr})', lambda s, n=n, k=l + rr: n.f(s) + k, n.lo + l + rr)
                    padded = f'(pad #{l} #{rr} {b})' if r.random() < 0.5 else \
                        f'(padConstant #{l} #{rr} {self.lit(rt)} {b})'
                    g, gt = self.thread_fn(rt, env2 + [Var(b, arr(rt, n))], 1)
                    self.feats.add('seq_outer')
                    return f'(mapSeq (lambda ({row}) (let {b} (mapGlb {f} {row})\n      (mapGlb {g} {padded}))) {xs})', \
                        arr(arr(gt, m), xt[2])
            if depth_of(xt) >= 2 and r.random() < 0.5:
                row = self.fresh('row')
                f, rt = self.thread_fn(xt[1][1], env + [Var(row, xt[1])], 1)
                return f'(mapSeq (lambda ({row}) (mapGlb {f} {row})) {xs})', arr(arr(rt, xt[1][2]), xt[2])
            if r.random() < 0.5 and xt[1] in (FLOAT, INT):
                t = xt[1]
                f = self.reduce_fn(t, self.lit(t), xt, env, 2)
                return f'(reduceSeq {self.lit(t)} {f} {xs})', arr(t, Size('1', lambda s: 1))
            f, rt = self.thread_fn(xt[1], env, 2)
            return f'(mapSeq {f} {xs})', arr(rt, xt[2])
        if mode == 'iterate':
            xs, xt = self.source(env, 1, want=lambda t: t[1] in (FLOAT, INT))
            if xt[1] not in (FLOAT, INT):
                raise Reject('iterate needs scalars')
            return self.iterate('mapGlb', xs, xt, env), xt
        if mode == 'scan':
            self.level = 'dseq'
            xs, xt = self.source(env, 1, want=lambda t: t[1] in (FLOAT, INT))
            if xt[1] not in (FLOAT, INT):
                raise Reject('scan needs scalars')
            return f'(scan {"0.0f" if xt[1] == FLOAT else "0"} + {xs})', xt
        if mode == 'multi':
            xs, xt = self.source(env, 1)
            f, rt = self.thread_fn(xt[1], env, 1)
            y = self.fresh('y')
            first = f'(mapGlb {f} {xs})'
            env2 = env + [Var(y, arr(rt, xt[2]))]
            xs2, xt2 = self.source(env2, 1, want=lambda t: t == arr(rt, xt[2]))
            g, rt2 = self.thread_fn(xt2[1], env2, 1)
            out, ot = self.maybe_join(f'(mapGlb {g} {xs2})', arr(rt2, xt2[2]))
            return f'(let {y} {first}\n    {out})', ot

    def out_view(self, body, rt, env):
        """A layout view applied to the kernel's result (written through an acceptor)."""
        e, n = rt[1], rt[2]
        ops = ['split', 'zip']
        if is_arr(e): ops += ['transpose', 'transpose', 'join']
        if e == FLOAT: ops.append('asVector')
        if e == VEC: ops.append('asScalar')
        op = self.pick(ops)
        if (op, body[:10]) in (('asVector', '(asScalar '), ('asScalar', '(asVector ')) \
                and not self.on('vec_roundtrip'):
            op = 'zip'   # FINDINGS.md F1, F6
        if op == 'transpose':
            return f'(transpose {body})', arr(arr(e[1], n), e[2])
        if op == 'join':
            return f'(join {body})', arr(e[1], Size(f'(* {n.s} {e[2].s})', lambda s, n=n, m=e[2]: n.f(s) * m.f(s)))
        if op == 'asScalar':
            return f'(asScalar {body})', arr(FLOAT, sz_mul(4, n))
        if op in ('zip', 'transpose') and '(asScalar' in body and not self.on('vec_zip_out'):
            return body, rt   # FINDINGS.md F7
        if op == 'zip':
            # a second kernel over the same index space, zipped with the first result
            ys = f'(mapGlb (lambda (i) (* i 2)) (iota #{n.s}))'
            return f'(zip {body} {ys})', arr(tup(e, INT), n)
        k = 4 if op == 'asVector' else self.pick([2, 4])
        if n.f is None:
            raise Reject('unknown size')
        self.cons.append(lambda s, n=n, k=k: n.f(s) % k == 0 and n.f(s) >= k)
        if op == 'asVector':
            return f'(asVector #4 {body})', arr(VEC, sz_div(n, 4))
        return f'(split #{k} {body})', arr(arr(e, Size(str(k), lambda s, k=k: k, k)), sz_div(n, k))

    def top_reduce_special(self, xs, xt, env):
        """A top-level reduce of tuples (sum and max of two fields) or of float4s."""
        e = xt[1]
        if e == VEC and self.leaves(VEC, env) and self.on('vector'):
            z = self.pick([v for v in env if v.t == VEC]).name
            # the init of a top-level reduce must be neutral (docs/language.md): a zero float4
            return f'(reduce (* {z} 0.0f) + {xs})', arr(VEC, Size('1', lambda s: 1))
        if e in (FLOAT, INT) and not is_dyn(xt[2]) and self.on('tuple'):
            p, q = self.fresh('p'), self.fresh('q')
            zero = '0.0f' if e == FLOAT else '0'
            op2 = self.pick(['max', 'min', '+'])
            init2 = {'max': '-100000', 'min': '100000', '+': '0'}[op2]
            body = f'(tuple (+ (get1 {p}) (get1 {q})) ({op2} (get2 {p}) (get2 {q})))'
            ys = f'(zip {xs} (iota #{xt[2].s}))'
            return f'(reduce (tuple {zero} {init2}) (lambda ({p} {q}) {body}) {ys})', arr(tup(e, INT), Size('1', lambda s: 1))
        return None

    def reduce_scalar_of(self, t, x, xt, env):
        """A scalar of type t from an element x that is an array (a row)."""
        env2 = env + [Var(x, xt)]
        init = self.lit(t)
        f = self.reduce_fn(t, init, xt, env2, 1)
        return f'(aref (reduce {init} {f} {x}) 0)'

    def maybe_join(self, out, ot):
        e = ot[1]
        if is_arr(e) and not is_dyn(e[2]) and self.on('split', 0.7):   # rows of a dynamic length: {∃…} elements
            return f'(join {out})', arr(e[1], Size(f'(* {ot[2].s} {e[2].s})', lambda s, a=ot[2], b=e[2]: a.f(s) * b.f(s)))
        return out, ot

    def wrg(self, env):
        r = self.r
        xs, xt = self.source(env, 1)
        if is_dyn(xt[2]):
            raise Reject('work-groups over a filtered array need a split')
        if depth_of(xt) < 2 or r.random() < 0.5:
            if depth_of(xt) < 1:
                raise Reject('no array')
            k = r.choice([2, 4, 8, 3])
            n = xt[2]
            self.cons.append(lambda s, n=n, k=k: n.f(s) % k == 0 and n.f(s) >= k)
            xs, xt = f'(split #{k} {xs})', arr(arr(xt[1], Size(str(k), lambda s, k=k: k, k)), sz_div(n, k))
        c = self.fresh('chunk')
        ct = xt[1]
        cenv = env + [Var(c, ct)]
        if ct[1] in (FLOAT, INT) and self.on('wrg_reduce', 0.25):
            t = ct[1]
            init = '0.0f' if t == FLOAT else '0'
            kw = r.choice(['reduce', 'reduceSeq', '(toLocal (reduceSeq))'])
            red = f'({kw} {init} + {c})' if kw[0] != '(' else f'((toLocal (reduceSeq {init} +)) {c})'
            if r.random() < 0.5:
                body, bt = red, arr(t, Size('1', lambda s: 1))
            else:
                # every local thread reads the work-group's sum
                sv, x = self.fresh('sum'), self.fresh('x')
                e = self.scal(t, cenv + [Var(sv, arr(t, Size('1', lambda s: 1))), Var(x, t)], 2)[0]
                body, bt = f'(let {sv} {red} (mapLcl (lambda ({x}) (+ {e} (aref {sv} 0))) {c}))', ct
        elif ct[1] in (FLOAT, INT) and self.on('iterate', 0.15):
            # a stencil iterated inside the work-group: barriers between the steps
            v, w = self.fresh('v'), self.fresh('w')
            t = ct[1]
            op = self.pick(['+', 'max', 'min'])
            if self.r.random() < 0.5:
                inner = f'(mapLcl (lambda ({w}) (aref (reduceSeq {self.lit(t)} {op} {w}) 0)) (slide #3 #1 (pad #1 #1 {v})))'
            else:
                y = self.fresh('y')
                e = self.scal(t, cenv + [Var(y, t)], 1)[0]
                e = f'(min (max {e} -50.0f) 50.0f)' if t == FLOAT else f'(min (max {e} -500) 500)'
                inner = f'(mapLcl (lambda ({y}) {e}) {v})'
            body, bt = f'(iterate #{self.r.randint(1, 3)} (lambda ({v}) {inner}) {c})', ct
        elif is_arr(ct[1]) and self.on('wrg_seq', 0.3):
            # a sequential loop over the chunk's rows, each row mapped over local threads
            row = self.fresh('row')
            f, rt = self.thread_fn(ct[1][1], cenv + [Var(row, ct[1])], 1)
            body, bt = f'(mapSeq (lambda ({row}) (mapLcl {f} {row})) {c})', arr(arr(rt, ct[1][2]), ct[2])
        else:
            cv, cvt = c, ct
            if r.random() < 0.5:
                # stage through local memory first
                y = self.fresh('y')
                yb = self.scal(ct[1] if ct[1] in (FLOAT, INT) else FLOAT,
                               cenv + [Var(y, ct[1])], 1)[0] if ct[1] in (FLOAT, INT) else None
                if yb is not None:
                    cv = f'((toLocal (mapLcl (lambda ({y}) {yb}))) {c})'
                    cvt = ct
                    if r.random() < 0.5:
                        z = self.fresh('l')
                        cenv = cenv + [Var(z, cvt)]
                        inner, it = self.lcl(z, cvt, cenv)
                        body = f'(let {z} {cv} {inner})'
                        return self.finish_wrg(body, it, xs, xt, c)
            inner, it = self.lcl(cv, cvt, cenv)
            body, bt = inner, it
        return self.finish_wrg(body, bt, xs, xt, c)

    def lcl(self, cv, cvt, env):
        cv, cvt = self.views(cv, cvt, env, self.r.randint(0, 1))
        f, rt = self.thread_fn(cvt[1], env, 1)
        out = f'(mapLcl {f} {cv})'
        if self.r.random() < 0.2:
            out = f'((toGlobal (mapLcl {f})) {cv})'
        if is_arr(rt) and rt[2].s == '1':
            return f'(join {out})', arr(rt[1], cvt[2])
        return out, arr(rt, cvt[2])

    def finish_wrg(self, body, bt, xs, xt, c):
        out, ot = f'(mapWrg (lambda ({c}) {body}) {xs})', arr(bt, xt[2])
        return self.maybe_join(out, ot)

    # ---- filters (SPEC §3.4) ---------------------------------------------------------------
    def filter_kw(self, where):
        """filterSeq/filterGlb/filter for a filter at `where`: 'top' (the program's own
        level), 'thread' (inside a mapGlb/mapSeq/mapLcl/mapWrg function)."""
        if self.level == 'dseq':
            return 'filter'
        if where == 'top':
            return self.pick(['filterSeq', 'filterGlb', 'filterGlb', 'filter'])
        return self.pick(['filterSeq', 'filterSeq', 'filterSeq', 'filter'])

    def filter_pred(self, et, env):
        """(lambda (x) bool) over elements of type et. Mostly a threshold on a scalar of the
        element against 0 (or a scalar parameter), so that the biased inputs (value) set
        the selectivity; sometimes `mod` on ints, the generator's own conditions, and/or/not."""
        x = self.fresh('p')
        env2 = env + [Var(x, et)]
        own = []
        for t in (INT, FLOAT):
            got = []
            self._proj(x, et, t, True, got)
            own += [(e, t) for e, _ in got]
        if is_arr(et) and et[1] in (FLOAT, INT):
            z = '0.0f' if et[1] == FLOAT else '0'
            own.append((f'(aref ({self.reduce_kw()} {z} {self.pick(["+", "max", "min"])} {x}) 0)', et[1]))
        thr = None
        if own:
            e, t = self.pick(own)
            if t == INT and self.r.random() < 0.3:
                thr = f'({self.pick(["=", "!="])} (% {e} {self.pick([2, 3, 5])}) 0)'
            else:
                ks = [v.name for v in env if v.t == t]
                k = self.pick(ks) if ks and self.r.random() < 0.25 else ('0' if t == INT else '0.0f')
                thr = f'({self.pick(["<", "<=", ">", ">=", ">", ">"])} {e} {k})'
        r = self.r.random()
        if 'filter_unread' not in self.exclude and self.r.random() < 0.1:
            # a predicate over the enclosing scalars alone: the element is never read
            self.feats.add('filter_unread')
            c = self.cond(env, 1)[0]
        elif thr is None or r < 0.2:
            c = self.cond(env2, 2)[0]
        elif r < 0.75:
            c = thr
        else:
            c = f'({self.pick(["and", "or"])} {thr} {self.cond(env2, 1)[0]})'
        if self.r.random() < 0.1:
            c = f'(not {c})'
        return f'(lambda ({x}) {c})'

    def filtered(self, xs, xt, env, where):
        """(FILTER p xs): (text, type {∃X.[T]X} as an array of a fresh hidden length)."""
        self.feats.add('filter')
        kw = self.filter_kw(where)
        unread = 'filter_unread' in self.feats
        p = self.filter_pred(xt[1], env)
        if not unread and 'filter_unread' in self.feats and xt[1] == INT and 'divzero' not in self.exclude \
                and self.r.random() < 0.5:
            # elements that fail where the input is 0, computed only for kept ones (F44)
            self.feats.add('divzero')
            q = self.fresh('q')
            xs = f'(map (lambda ({q}) ({self.pick(["/", "%"])} {self.r.randint(1, 999)} {q})) {xs})'
        return f'({kw} {p} {xs})', arr(xt[1], sz_dyn(self.new_dyn()))

    def new_dyn(self):
        self.nid += 1
        return self.nid

    def filter_source(self, env, where, d=1):
        """What a filter reads: a view of an array in env, maybe a map (lazy, or a
        materialising mapGlb/mapSeq at the top) or a zip, or another filter (a chain)."""
        xs, xt = self.source(env, d)
        r = self.r.random()
        if r < 0.25 and not has_dyn(xt[1]) and depth_of(xt) >= 1:
            # a filter of a map
            f, rt = self.thread_fn(xt[1], env, 1)
            if not has_dyn(rt):
                if self.level == 'dseq':
                    kw = 'map'
                elif where == 'top':
                    kw = self.pick(['map', 'mapGlb', 'mapSeq'])
                else:
                    kw = self.pick(['map', 'mapSeq'])
                xs, xt = f'({kw} {f} {xs})', arr(rt, xt[2])
        elif r < 0.4:
            # a filter of a zip with another array of the same length (or iota)
            others = [v for v in env if is_arr(v.t) and v.t[2] == xt[2] and v.name != xs and not is_tup(v.t[1])]
            if not is_tup(xt[1]):
                if others and self.r.random() < 0.6:
                    o = self.pick(others)
                    xs, xt = f'(zip {xs} {o.name})', arr(tup(xt[1], o.t[1]), xt[2])
                elif not is_dyn(xt[2]):
                    xs, xt = f'(zip {xs} (iota #{xt[2].s}))', arr(tup(xt[1], INT), xt[2])
        elif r < 0.6:
            # a chain: a filter of a filter (or of a map of a filter)
            xs, xt = self.filtered(xs, xt, env, where)
            if self.r.random() < 0.3 and not has_dyn(xt[1]):
                f, rt = self.thread_fn(xt[1], env, 0)
                kw = 'map' if self.level == 'dseq' or not self.risky else \
                    self.pick(['map', 'mapSeq'] + (['mapGlb'] if where == 'top' else []))
                xs, xt = f'({kw} {f} {xs})', arr(rt, xt[2])
        return xs, xt

    def filter_top(self, env):
        """A program around filters: at the top, in a row map at some level, consumed."""
        r = self.r
        self.level = 'dseq' if r.random() < 0.2 else 'seq'
        self.bias = self.pick([None, None, 'neg', 'pos', 'rare', 'rare'])
        self.risky = self.on('filter_tmp', 0.6)
        kinds = ['result', 'result', 'consume', 'consume', 'consume', 'row', 'row', 'row', 'row', 'length']
        if self.risky:
            kinds += ['let', 'let', 'row_consume', 'consume']
        kind = self.pick(kinds)
        dd = 1 if self.risky else 0   # thread functions of depth 0: scalar expressions, no temporaries
        if kind in ('result', 'consume', 'let', 'length'):
            xs, xt = self.filter_source(env, 'top', 2)
            ys, yt = self.filtered(xs, xt, env, 'top')
            if kind == 'result':
                return ys, yt
            if kind == 'length':
                return f'(length {ys})', INT
            if kind == 'consume':
                # one consumer, the filter inline (K-normalised by the type checker)
                c = r.random()
                if c < 0.5 or has_dyn(yt[1]):
                    f, rt = self.thread_fn(yt[1], env, dd)
                    kw = 'map' if self.level == 'dseq' else self.pick(['mapGlb', 'mapGlb', 'mapSeq', 'map', '(toGlobal mapGlb)'])
                    if kw.startswith('(toGlobal'):
                        return f'((toGlobal (mapGlb {f})) {ys})', arr(rt, yt[2])
                    return f'({kw} {f} {ys})', arr(rt, yt[2])
                if yt[1] in (FLOAT, INT) and c < 0.75:
                    t = yt[1]
                    if self.level == 'dseq' or r.random() < 0.3:
                        z = '0.0f' if t == FLOAT else '0'
                        return f'(reduce {z} {self.pick(["+", "max", "min"])} {ys})', arr(t, Size('1', lambda s: 1))
                    init = self.lit(t)
                    return f'(reduceSeq {init} {self.reduce_fn(t, init, yt, env, 2)} {ys})', arr(t, Size('1', lambda s: 1))
                if yt[1] in (FLOAT, INT):
                    kw = 'scan' if self.level == 'dseq' else 'scanSeq'
                    return f'({kw} {self.lit(yt[1])} {self.pick(["+", "max", "min"])} {ys})', yt
                f, rt = self.thread_fn(yt[1], env, dd)
                return f'(mapGlb {f} {ys})' if self.level != 'dseq' else f'(map {f} {ys})', arr(rt, yt[2])
            # let: the filtered array in scope of a whole program body (several uses)
            y = self.fresh('ys')
            yv = Var(y, yt)
            env2 = env + [yv]
            self.prefer = {y}
            c = r.random()
            if c < 0.25 and not has_dyn(yt[1]):
                g, gt = self.thread_fn(yt[1], env2, 1)
                kw = 'map' if self.level == 'dseq' else self.pick(['mapSeq', 'mapGlb', 'map'])
                body, bt = f'(zip ({kw} {g} {y}) {y})', arr(tup(gt, yt[1]), yt[2])
                if has_dyn(gt) or is_tup(gt) or is_tup(yt[1]):
                    body, bt = f'({kw} {g} {y})', arr(gt, yt[2])
            elif c < 0.45:
                # a map over the input with the filtered array (its length, elements,
                # reductions) in the scalar expressions
                xs2, xt2 = self.source(env, 1)
                f, rt = self.thread_fn(xt2[1], env2, 2)
                kw = 'map' if self.level == 'dseq' else self.pick(['mapGlb', 'mapSeq'])
                body, bt = f'({kw} {f} {xs2})', arr(rt, xt2[2])
            else:
                mode = self.pick(['glb', 'glb', 'seq_outer', 'multi', 'iterate', 'scan', 'top_reduce']
                                 + (['dims'] if depth_of(yt) >= 2 else [])
                                 if self.level != 'dseq' else ['default', 'default', 'top_reduce', 'scan'])
                lvl = self.level
                body, bt = self.top(mode, env2)
                self.level = lvl
            self.prefer = set()
            return f'(let {y} {ys}\n    {body})', bt
        if kind == 'row_consume':
            rows, rt = self.filter_rows(env)
            q = self.fresh('q')
            f, ft = self.thread_fn(rt[1], env, 2)
            kw = 'map' if self.level == 'dseq' else self.pick(['mapGlb', 'mapSeq'])
            return f'({kw} {f} {rows})', arr(ft, rt[2])
        if kind == 'row' and not self.risky:
            # no hoisted temporaries: one level of rows, a thread body without arrays
            pass
        return self.filter_rows(env)

    def filter_rows(self, env):
        """A filter in the function of a map over rows, at some level: [{∃X.[T]X}]n (or
        rows of a filter's reduction, zip, map ...)."""
        r = self.r
        xs, xt = self.source(env, 1, want=lambda t: depth_of(t) >= 2)
        if depth_of(xt) < 2:
            if depth_of(xt) < 1 or has_dyn(xt):
                raise Reject('no array for rows')
            k = r.choice([1, 2, 3, 4, 5, 8])
            n = xt[2]
            self.cons.append(lambda s, n=n, k=k: n.f(s) % k == 0 and n.f(s) >= k)
            xs, xt = f'(split #{k} {xs})', arr(arr(xt[1], Size(str(k), lambda s, k=k: k, k)), sz_div(n, k))
        if self.level == 'dseq':
            row = self.fresh('row')
            b, bt = self.filter_row_body(row, xt[1], env)
            return f'(map (lambda ({row}) {b}) {xs})', arr(bt, xt[2])
        how = r.choice(['glb', 'glb', 'glb', 'seq', 'wrg', 'wrg_lcl', 'wrg_lcl'] + (['glb_seq'] if self.risky else []))
        row = self.fresh('row')
        if how in ('glb', 'seq'):
            b, bt = self.filter_row_body(row, xt[1], env)
            kw = {'glb': 'mapGlb', 'seq': 'mapSeq'}[how]
            return f'({kw} (lambda ({row}) {b}) {xs})', arr(bt, xt[2])
        if how == 'wrg':
            # one work-group per row, the filter in it, maybe its result over local threads
            ys, yt = self.filtered(row, xt[1], env + [Var(row, xt[1])], 'thread')
            if r.random() < 0.5 and not has_dyn(yt[1]):
                f, ft = self.thread_fn(yt[1], env + [Var(row, xt[1])], 1 if self.risky else 0)
                ys, yt = f'(mapLcl {f} {ys})', arr(ft, yt[2])
            return f'(mapWrg (lambda ({row}) {ys}) {xs})', arr(yt, xt[2])
        if how == 'wrg_lcl':
            k = r.choice([1, 2, 3, 4])
            n = xt[2]
            self.cons.append(lambda s, n=n, k=k: n.f(s) % k == 0 and n.f(s) >= k)
            c = self.fresh('chunk')
            b, bt = self.filter_row_body(row, xt[1], env)
            out = f'(mapWrg (lambda ({c}) (mapLcl (lambda ({row}) {b}) {c})) (split #{k} {xs}))'
            ot = arr(arr(bt, Size(str(k), lambda s, k=k: k, k)), sz_div(n, k))
            if has_dyn(bt) and self.on('filter_join', 0.5) or not has_dyn(bt) and r.random() < 0.5:
                return f'(join {out})', arr(bt, Size(f'(* (/ {n.s} {k}) {k})', lambda s, n=n, k=k: n.f(s) // k * k))
            return out, ot
        # glb_seq: a filter one level deeper, over chunks of each row
        k = r.choice([1, 2, 3])
        m = xt[1][2]
        self.cons.append(lambda s, m=m, k=k: m.f(s) % k == 0 and m.f(s) >= k)
        c = self.fresh('c')
        ct = arr(xt[1][1], Size(str(k), lambda s, k=k: k, k))
        b, bt = self.filter_row_body(c, ct, env + [Var(row, xt[1])])
        return (f'(mapGlb (lambda ({row}) (mapSeq (lambda ({c}) {b}) (split #{k} {row}))) {xs})',
                arr(arr(bt, sz_div(m, k)), xt[2]))

    def filter_row_body(self, row, rowt, env):
        """The body of a thread's function over one row: a filter of the row, used."""
        env2 = env + [Var(row, rowt)]
        src, srct = (row, rowt)
        if self.r.random() < 0.5:
            src, srct = self.filter_source(env2, 'thread', 0)
            if has_dyn(srct[1]) or depth_of(srct) < 1:
                src, srct = (row, rowt)
        ys, yt = self.filtered(src, srct, env2, 'thread')
        c = self.r.random() * (1 if self.risky else 0.65)
        if c < 0.35:
            return ys, yt
        mapkw = 'map' if self.level == 'dseq' else 'mapSeq'
        if c < 0.5:
            f, ft = self.thread_fn(yt[1], env2, 1 if self.risky else 0)
            return f'({mapkw} {f} {ys})', arr(ft, yt[2])
        if c < 0.65 and yt[1] in (FLOAT, INT):
            init = self.lit(yt[1])
            return (f'({self.reduce_kw()} {init} {self.reduce_fn(yt[1], init, yt, env2, 1)} {ys})',
                    arr(yt[1], Size('1', lambda s: 1)))
        if c < 0.72:
            return f'(mapSeq (lambda (z) (+ z (length {ys}))) (iota #1))' if self.level != 'dseq' \
                else f'(map (lambda (z) (+ z (length {ys}))) (iota #1))', arr(INT, Size('1', lambda s: 1))
        # a let: the filtered row used by a thread body (maps, reductions, iterate, scan,
        # zip with itself, its length and elements in scalar expressions)
        y = self.fresh('ys')
        yv = Var(y, yt)
        if self.r.random() < 0.3 and not has_dyn(yt[1]) and not is_tup(yt[1]):
            g, gt = self.thread_fn(yt[1], env2 + [yv], 0)
            if not has_dyn(gt) and not is_tup(gt):
                return f'(let {y} {ys} (zip ({mapkw} {g} {y}) {y}))', arr(tup(gt, yt[1]), yt[2])
        body, bt = self.thread_body(env2 + [yv], yv, 2)
        return f'(let {y} {ys} {body})', bt

    # ---- position-dependent arrays (SPEC §3.5) -----------------------------------------------
    def dep_program(self, seed):
        """A program over a triangle [i -> [T](i+1)]N or [i -> [T](N-i)]N (or a batch of M
        of them): row maps at every level, reductions of the rows and over them, zips, join,
        layouts of a row and row-sized temporaries; the result position-dependent or regular."""
        r = self.r
        self.feats.add('dep')
        N = sz_var('N')
        kind = self.pick(['lo', 'lo', 'up'])
        et = self.pick([FLOAT, FLOAT, FLOAT, INT])
        if self.on('vector', 0.08):
            et = VEC
        batch = r.random() < 0.2
        M = sz_var('M') if batch else None
        dt = dep(et, kind, N)
        params = [Var('a0', arr(dt, M) if batch else dt)]
        tri = 'a0'
        if not batch and self.on('partition', 0.3):
            # the triangle made from its packed elements (seed 002 Figure 9): a flat input
            # of N(N+1)/2 elements cut by partition with a nat function
            params = [Var('a0', arr(et, sz_tri(N)))]
            tri = f'(partition #N (nat-fn (i) {"(+ i 1)" if kind == "lo" else "(- N i)"}) a0)'
        if r.random() < 0.5:   # a regular vector of the triangle's length (zip, reads in rows)
            params.append(Var('a1', arr(self.pick([FLOAT, FLOAT, INT]) if et != VEC else FLOAT, N)))
        if self.on('scalar_param', 0.3):
            params.append(Var('k0', self.pick([FLOAT, INT])))
        env = [p for p in params if not is_dep(p.t) and not (is_arr(p.t) and is_dep(p.t[1])) and p.name != 'a0']
        self.level = 'seq'
        if batch:
            body, rt = self.dep_batch('a0', dt, env)
        else:
            body, rt = self.dep_top(tri, dt, env)
        if kind == 'up' and re.search(r'iterate|toGlobal|toPrivate|toLocal|\(let |scan|\(map[A-Za-z]* [^()]*\(lambda [^)]*\) \(map', body):
            if 'dep_up_tmp' in self.exclude:
                raise Reject('FINDINGS.md F23')
            self.feats.add('dep_up_tmp')
        sizes = ['N'] + (['M'] if batch else [])
        text = (f'(lift ({" ".join(sizes)}) ({" ".join(type_text(p.t) for p in params)})\n'
                f'  (lambda ({" ".join(p.name for p in params)})\n    {body}))\n')
        loops = len(re.findall(r'\((map|reduce|scan|iterate)', text))
        for _ in range(400):
            s = {'N': r.choice([1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 31, 32, 33, r.randint(1, 64)])}
            if batch:
                s['N'] = min(s['N'], r.choice([1, 3, 5, 8, 13]))
                s['M'] = r.choice([1, 2, 3, 5])
            elif loops <= 3 and et != VEC and r.random() < 0.15:
                s['N'] = r.choice([65, 100, 127, 129])   # several work-groups, no multiple of their size
            if all(c(s) for c in self.cons):
                break
        else:
            raise Reject('no sizes satisfy the constraints')
        inputs = [self.value(p.t, s) for p in params]
        return Program(seed, text, inputs, rt, sorted(self.feats), s)

    def stencil_window(self, w, et, sw, twod, env):
        """A scalar of window w ([[et]sw]sw, or [et]sw in 1-D): terms at constant positions
        weighted by literals or a scalar parameter, a reduction of the whole window, or both."""
        r = self.r
        zero = '0.0f' if et == FLOAT else '0'
        def at(i, j):
            return f'(aref (aref {w} {i}) {j})' if twod else f'(aref {w} {i})'
        terms = []
        for _ in range(r.randint(1, 5)):
            i, j = r.randrange(sw), r.randrange(sw)
            x = at(i, j)
            c = r.random()
            if c < 0.4:
                x = f'(* {self.lit(et)} {x})'
            elif c < 0.55 and env:
                x = f'(* {env[0].name} {x})'
            terms.append(x)
        if r.random() < 0.35:
            op = self.pick(['+', 'max', 'min'])
            init = zero if op == '+' else at(0, 0)
            flat = f'(join {w})' if twod else w
            red = self.pick(['reduceSeq', 'reduce'])
            terms.append(f'(aref ({red} {init} (lambda (acc x) ({op} acc x)) {flat}) 0)')
        body = terms[0]
        for t in terms[1:]:
            body = f'({self.pick(["+", "+", "-", "max", "min"])} {body} {t})'
        if r.random() < 0.2:
            body = f'(if (> {at(sw // 2, sw // 2)} {zero}) {body} {self.lit(et)})'
        return body

    def stencil_program(self, seed):
        """A stencil (issue 12, seed 002's peeling): a window function over slide2D of
        pad2D of a matrix (or slide of pad/padConstant of a vector) under a strategy nest,
        sometimes iterated (shape-preserving windows only)."""
        r = self.r
        self.feats.add('stencil')
        et = self.pick([FLOAT, FLOAT, INT])
        twod = r.random() < 0.7
        N, M = sz_var('N'), sz_var('M')
        params = [Var('a0', arr(arr(et, M), N) if twod else arr(et, N))]
        env = []
        if self.on('scalar_param', 0.3):
            params.append(Var('k0', et))
            env = [params[-1]]
        sw = self.pick([1, 2, 3, 3, 3, 3, 4, 5, 5, 5, 7])
        same = r.random() < 0.7   # the output the input's shape: pads around the window's centre
        st = 1 if same else self.pick([1, 1, 2])
        if same:
            lo = (sw - 1) // 2
            hi = sw - 1 - lo
        else:
            lo, hi = r.randint(0, 3), r.randint(0, 3)
        iterated = same and self.on('iterate', 0.25)
        g = 'g' if iterated else 'a0'
        if twod:
            win = f'(slide2D #{sw} #{st} (pad2D #{lo} #{hi} {g}))'
        elif r.random() < 0.5 or et is None:
            win = f'(slide #{sw} #{st} (pad #{lo} #{hi} {g}))'
        else:
            win = f'(slide #{sw} #{st} (padConstant #{lo} #{hi} {self.lit(et)} {g}))'
        f = self.stencil_window('w', et, sw, twod, env)
        if twod:
            nest = self.pick(['map', 'map', 'glb', 'glb', 'glbseq', 'seqglb', 'wrg', 'glb2'])
            inner, outer = {'map': ('map', 'map'), 'glb': ('mapGlb', 'mapGlb1'), 'glbseq': ('mapSeq', 'mapGlb'),
                            'seqglb': ('mapGlb', 'mapSeq'), 'wrg': ('mapLcl', 'mapWrg'),
                            'glb2': ('mapGlb', 'mapGlb1')}[nest]
            if iterated and nest == 'seqglb':
                inner, outer = 'mapGlb', 'mapGlb1'   # iterate's body at the top: no mapSeq around it
            body = f'({outer} (lambda (wrow) ({inner} (lambda (w) {f}) wrow)) {win})'
        else:
            m = self.pick(['map', 'map', 'mapGlb', 'mapSeq'])
            body = f'({m} (lambda (w) {f}) {win})'
        n_out = lambda e, n: (n + lo + hi - sw) // st + 1
        self.cons.append(lambda e: e['N'] + lo + hi >= sw and (not twod or e['M'] + lo + hi >= sw))
        if iterated:
            body = f'(iterate #{r.randint(1, 3)} (lambda (g) {body}) a0)'
        sizes = ['N', 'M'] if twod else ['N']
        on = Size(f'(+ (/ (- (+ N {lo + hi}) {sw}) {st}) 1)', lambda e: n_out(e, e['N']))
        om = Size(f'(+ (/ (- (+ M {lo + hi}) {sw}) {st}) 1)', lambda e: n_out(e, e['M']))
        rt = arr(arr(et, om), on) if twod else arr(et, on)
        text = (f'(lift ({" ".join(sizes)}) ({" ".join(type_text(p.t) for p in params)})\n'
                f'  (lambda ({" ".join(p.name for p in params)})\n    {body}))\n')
        for _ in range(400):
            e = {'N': r.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 33, r.randint(1, 70)])}
            if twod:
                e['M'] = r.choice([1, 2, 3, 4, 5, 7, 8, 13, 16, 31, r.randint(1, 40)])
            elif r.random() < 0.2:
                e['N'] = r.choice([100, 257, 1000])
            if all(c(e) for c in self.cons):
                break
        else:
            raise Reject('no sizes satisfy the constraints')
        inputs = [self.value(p.t, e) for p in params]
        return Program(seed, text, inputs, rt, sorted(self.feats), e)

    def dep_rows(self, m, dt, env):
        """A position-dependent array over m's rows: m itself, a zip with itself, with a
        regular vector of its length, a lazy map of it. (text, function maker) where the
        maker, given a fresh parameter name, gives the Vars its function sees and the
        one standing for the row."""
        r = self.r
        rowt = dep_row(dt)
        vecs = [v for v in env if is_arr(v.t) and v.t[2] == dt[3] and not is_arr(v.t[1])]
        c = r.random()
        if c < 0.5:
            return m, lambda p: ([Var(p, rowt)], Var(p, rowt))
        if c < 0.65:
            self.feats.add('tuple')
            return f'(zip {m} {m})', lambda p: ([Var(f'(get1 {p})', rowt), Var(f'(get2 {p})', rowt)],
                                                Var(f'(get{self.pick([1, 2])} {p})', rowt))
        if c < 0.8 and vecs:
            self.feats.add('tuple')
            v = self.pick(vecs)
            if r.random() < 0.5:
                return f'(zip {m} {v.name})', lambda p: ([Var(f'(get1 {p})', rowt), Var(f'(get2 {p})', v.t[1])],
                                                         Var(f'(get1 {p})', rowt))
            return f'(zip {v.name} {m})', lambda p: ([Var(f'(get2 {p})', rowt), Var(f'(get1 {p})', v.t[1])],
                                                     Var(f'(get2 {p})', rowt))
        # a lazy map of the triangle: each row mapped by a scalar function (fused into the reader)
        self.feats.add('lazymap')
        q, y = self.fresh('q'), self.fresh('y')
        t = self.pick([FLOAT, FLOAT, INT]) if et_scalar(dt[1]) else dt[1]
        lvl, self.level = self.level, 'dseq'
        e = self.scal(t, env + [Var(y, dt[1])], 2)[0]
        self.level = lvl
        mt = arr(t, rowt[2])
        lazy = f'(map (lambda ({q}) (map (lambda ({y}) {e}) {q})) {m})'
        if r.random() < 0.3:
            self.feats.add('tuple')
            def mk(p):
                vs = [Var(f'(get1 {p})', mt), Var(f'(get2 {p})', rowt)]
                return vs, self.pick(vs)
            return f'(zip {lazy} {m})', mk
        return lazy, lambda p: ([Var(p, mt)], Var(p, mt))

    def dep_row_body(self, env, x, d=2):
        """The body of a thread's function over a row x (in env): the generator's thread
        bodies, or one of the shapes of SPEC §3.5 (layouts of the row, temporaries of its
        size, reductions with scalar, tuple and array accumulators, its length)."""
        r = self.r
        c = r.random()
        mapkw = 'map' if self.level == 'dseq' else 'mapSeq'
        vecs = [v for v in env if is_arr(v.t) and v.t[2].s == 'N' and v.t[1] == x.t[1] and re.fullmatch(r'\w+', v.name)]
        if vecs and self.on('getlength', 0.3):
            # SPEC §3.5's shapes with the row's length as a nat: the row against the first
            # (getLength row) elements of a vector of N (seed 002's trmv), or the row padded
            # to N by a constant and zipped with the vector; a row that is not a variable
            # ((get1 p) of a zip) bound by a let first
            v, t = self.pick(vecs), x.t[1]
            rw = x.name if re.fullmatch(r'\w+', x.name) else self.fresh('rw')
            if r.random() < 0.5:
                init = self.lit(t)
                body, bt = (f'(reduceSeq {init} (lambda (a p) (+ a (* (get1 p) (get2 p)))) '
                            f'(zip {rw} (slice #0 #(getLength {rw}) {v.name})))'), arr(t, Size('1', lambda s: 1))
            else:
                op = self.pick(['+', '-', 'max', 'min'])
                body, bt = (f'({mapkw} (lambda (p) ({op} (get1 p) (get2 p))) '
                            f'(zip (padConstant #0 #(- N (getLength {rw})) {self.lit(t)} {rw}) {v.name}))'), \
                    arr(t, sz_var('N'))
            return (body if rw == x.name else f'(let {rw} {x.name} {body})'), bt
        if c < 0.4 or not et_scalar(x.t[1]):
            return self.thread_body(env, x, d)
        if c < 0.52:
            # a layout of the row (pad, padConstant, slide of a padded row), then mapped or reduced
            self.feats.add('pad')
            l, rr = r.randint(0, 2), r.randint(0, 2)
            e, n = x.t[1], x.t[2]
            m = Size(f'(+ {n.s} {l + rr})', lambda s: n.f(s) + l + rr, n.lo + l + rr)
            xs = f'(pad #{l} #{rr} {x.name})' if r.random() < 0.5 else \
                f'(padConstant #{l} #{rr} {self.lit(e)} {x.name})'
            xt = arr(e, m)
            if m.lo >= 2 and r.random() < 0.6:
                self.feats.add('slide')
                sw = self.pick([k for k in (2, 3) if k <= m.lo])
                xs, xt = f'(slide #{sw} #1 {xs})', arr(arr(e, Size(str(sw), lambda s, sw=sw: sw, sw)), sz_slide(m, sw, 1))
            v = Var(self.fresh('w'), xt)
            body, bt = self.thread_body(env + [v], v, d)
            return body.replace(v.name, f'{xs}') if False else f'(let {v.name} {xs} {body})', bt
        if c < 0.64 and self.level != 'dseq':
            # a temporary of the row's size (global or private memory), read by the rest
            self.feats.add('let_array')
            f, ft = self.thread_fn(x.t[1], env, 0)
            tmp = self.fresh('tmp')
            sp = self.pick(['toGlobal', 'toGlobal', 'toPrivate'] if self.level == 'seq' else ['toGlobal', 'toPrivate'])
            if sp == 'toPrivate':
                self.feats.add('private')
            tv = Var(tmp, arr(ft, x.t[2]))
            body, bt = self.thread_body(env + [tv], tv, d - 1)
            return f'(let {tmp} (({sp} (mapSeq {f})) {x.name}) {body})', bt
        if c < 0.76:
            # a reduction of the row: scalar, tuple or array accumulator
            t = x.t[1]
            k = r.random()
            if k < 0.3 and self.on('tuple_acc'):
                tt = tup(t, INT)
                init = f'(tuple {self.lit(t)} 0)'
                return f'({self.reduce_kw()} {init} {self.reduce_fn(tt, init, x.t, env, d - 1)} {x.name})', \
                    arr(tt, Size('1', lambda s: 1))
            if k < 0.5 and self.level != 'dseq' and t == FLOAT and self.on('arr_acc'):
                # element-wise sums of the windows of the padded row
                w = f'(slide #2 #1 (pad #1 #0 {x.name}))'
                acc, y = self.fresh('acc'), self.fresh('x')
                init = f'(mapSeq (lambda (z) (* 0.0f z)) (aref {w} 0))'
                bd = f'(mapSeq (lambda (p) (+ (get1 p) (get2 p))) (zip {acc} {y}))'
                return f'(reduceSeq {init} (lambda ({acc} {y}) {bd}) {w})', \
                    arr(arr(FLOAT, Size('2', lambda s: 2, 2)), Size('1', lambda s: 1))
            init = self.lit(t)
            return f'({self.reduce_kw()} {init} {self.reduce_fn(t, init, x.t, env, d - 1)} {x.name})', \
                arr(t, Size('1', lambda s: 1))
        if c < 0.84:
            # the row's length and elements in a map over the row
            y = self.fresh('x')
            e = self.scal(INT, env + [Var(y, x.t[1])], 1)[0]
            return f'({mapkw} (lambda ({y}) (+ {e} (length {x.name}))) {x.name})', arr(INT, x.t[2])
        if c < 0.92:
            # a regular array computed from the row (a map over a vector with the row in scope)
            src = [v for v in env if is_arr(v.t) and not is_pos(v.t[2])]
            if src:
                xs, xt = self.source(src, 1)
                f, ft = self.thread_fn(xt[1], env, 1)
                return f'({mapkw} {f} {xs})', arr(ft, xt[2])
        f, ft = self.thread_fn(x.t[1], env, d - 1)
        return f'({mapkw} {f} {x.name})', arr(ft, x.t[2])

    def dep_fn(self, mk, env, d=2):
        """(lambda (p) body) over the rows that mk describes, and its result type."""
        p = self.fresh('row')
        vs, x = mk(p)
        body, bt = self.dep_row_body(env + vs, x, d)
        return f'(lambda ({p}) {body})', bt

    def dep_top(self, m, dt, env, outer=True):
        """A program (or, outer=False, the body of a thread's function) over the triangle m."""
        r = self.r
        n = dt[3]
        rowt = dep_row(dt)
        kinds = ['glb'] * 5 + ['seq', 'seq_glb', 'default', 'default', 'wrg', 'wrg', 'wrg',
                                'reduce_rows', 'reduce_rows', 'join', 'join', 'join', 'let', 'glb_seq']
        if not outer:
            kinds = ['seq', 'seq', 'reduce_rows', 'join_seq']
        k = self.pick(kinds)
        if k in ('glb', 'seq', 'glb_seq'):
            rows, mk = self.dep_rows(m, dt, env)
            f, bt = self.dep_fn(mk, env)
            kw = {'glb': 'mapGlb', 'seq': 'mapSeq', 'glb_seq': 'mapGlb'}[k]
            if k == 'glb_seq':
                # a mapSeq over the rows inside a mapGlb over chunks of ... no: mapSeq of the row inside mapGlb
                p = self.fresh('row')
                vs, x = mk(p)
                g, gt = self.thread_fn(x.t[1], env + vs, 1)
                return f'(mapGlb (lambda ({p}) (mapSeq {g} {x.name})) {rows})', arr(arr(gt, x.t[2]), n)
            return f'({kw} {f} {rows})', arr(bt, n)
        if k == 'seq_glb':
            # a sequential loop over the rows, each row one kernel
            self.feats.add('seq_outer')
            rows, mk = self.dep_rows(m, dt, env)
            p = self.fresh('row')
            vs, x = mk(p)
            g, gt = self.thread_fn(x.t[1], env + vs, 1)
            return f'(mapSeq (lambda ({p}) (mapGlb {g} {x.name})) {rows})', arr(arr(gt, x.t[2]), n)
        if k == 'default':
            self.feats.add('default')
            lvl, self.level = self.level, 'dseq'
            rows, mk = self.dep_rows(m, dt, env)
            f, bt = self.dep_fn(mk, env)
            self.level = lvl
            return f'(map {f} {rows})', arr(bt, n)
        if k == 'wrg':
            self.feats.add('wrg')
            rows, mk = self.dep_rows(m, dt, env)
            p = self.fresh('row')
            vs, x = mk(p)
            cenv = env + vs
            e = x.t[1]
            c = r.random()
            if c < 0.3 and et_scalar(e):
                # staged through local memory, then a layout of the local copy
                y, l = self.fresh('y'), self.fresh('l')
                yb = self.scal(e, cenv + [Var(y, e)], 1)[0]
                lt = arr(e, x.t[2])
                cenv2 = cenv + [Var(l, lt)]
                lv, lvt = self.views(l, lt, cenv2, r.randint(0, 1))
                g, gt = self.thread_fn(lvt[1], cenv2, 1)
                inner, it = f'(mapLcl {g} {lv})', arr(gt, lvt[2])
                body = f'(let {l} ((toLocal (mapLcl (lambda ({y}) {yb}))) {x.name}) {inner})'
            elif c < 0.36 and et_scalar(e):
                # toLocal of a mapSeq at work-group level (every work-item writes the local
                # copy, FINDINGS.md F22), read by the local threads
                y, l = self.fresh('y'), self.fresh('l')
                yb = self.scal(e, cenv + [Var(y, e)], 1)[0]
                lt = arr(e, x.t[2])
                g, gt = self.thread_fn(e, cenv + [Var(l, lt)], 1)
                body = f'(let {l} ((toLocal (mapSeq (lambda ({y}) {yb}))) {x.name}) (mapLcl {g} {l}))'
                it = arr(gt, x.t[2])
            elif c < 0.42 and e in (FLOAT, INT) and self.on('wrg_reduce') and self.on('dep_wrg_reduce'):
                z = '0.0f' if e == FLOAT else '0'
                body, it = f'({self.pick(["reduce", "reduceSeq"])} {z} {self.pick(["+", "max", "min"])} {x.name})', \
                    arr(e, Size('1', lambda s: 1))
            elif c < 0.5 and et_scalar(e):
                # windows of the padded row, one after the other, each over the local threads
                self.feats.add('wrg_seq')
                w = self.fresh('w')
                g, gt = self.thread_fn(e, cenv + [Var(w, arr(e, Size('2', lambda s: 2, 2)))], 1)
                body = f'(mapSeq (lambda ({w}) (mapLcl {g} {w})) (slide #2 #1 (pad #1 #0 {x.name})))'
                it = arr(arr(gt, Size('2', lambda s: 2, 2)), x.t[2])
            else:
                xv, xvt = self.views(x.name, x.t, cenv, r.randint(0, 1))
                g, gt = self.thread_fn(xvt[1], cenv, 1)
                kw = '(toGlobal (mapLcl {}))' if r.random() < 0.2 else None
                body = f'((toGlobal (mapLcl {g})) {xv})' if kw else f'(mapLcl {g} {xv})'
                it = arr(gt, xvt[2])
                if is_arr(gt) and gt[2].s == '1' and r.random() < 0.5:
                    body, it = f'(join {body})', arr(gt[1], xvt[2])
            return f'(mapWrg (lambda ({p}) {body}) {rows})', arr(it, n)
        if k == 'reduce_rows':
            # a reduceSeq over the rows (scalar or tuple accumulator)
            rows, mk = self.dep_rows(m, dt, env)
            p, acc = self.fresh('row'), self.fresh('acc')
            vs, x = mk(p)
            env2 = env + vs
            t = x.t[1] if x.t[1] in (FLOAT, INT) else FLOAT
            kw = 'reduce' if self.level == 'dseq' else 'reduceSeq'
            def part(tt):
                c = r.random()
                if c < 0.5 and x.t[1] == tt:
                    return self.reduce_scalar_row(tt, x, env2)
                if c < 0.7 and x.t[1] == tt:
                    return f'(aref {x.name} {self.pick(["0", f"(- (length {x.name}) 1)", f"(% (abs {self.scal(INT, env2, 1)[0]}) (length {x.name}))"])})'
                if tt == INT and c < 0.8:
                    return f'(length {x.name})'
                return self.scal(tt, env2, 2)[0]
            if self.on('tuple_acc', 0.3):
                tt = tup(t, INT)
                init = f'(tuple {self.lit(t)} 0)'
                bd = f'(tuple (+ (get1 {acc}) {part(t)}) (max (get2 {acc}) {part(INT)}))'
                return f'({kw} {init} (lambda ({acc} {p}) {bd}) {rows})', arr(tt, Size('1', lambda s: 1))
            init = self.lit(t)
            bd = f'({self.pick(["+", "+", "max", "min"])} {acc} {part(t)})'
            return f'({kw} {init} (lambda ({acc} {p}) {bd}) {rows})', arr(t, Size('1', lambda s: 1))
        if k in ('join', 'join_seq'):
            self.feats.add('split')
            c = r.random()
            jt = arr(dt[1], sz_tri(n))
            js = f'(join {m})'
            if c < 0.35:
                # join of a row map (materialised, or lazy)
                rows, mk = self.dep_rows(m, dt, env)
                p = self.fresh('row')
                vs, x = mk(p)
                kw = self.pick(['map', 'mapGlb', 'mapSeq']) if k == 'join' else self.pick(['map', 'mapSeq'])
                lvl = self.level
                if kw == 'map':
                    self.level = 'dseq'
                    y = self.fresh('y')
                    t = self.pick([FLOAT, INT]) if et_scalar(x.t[1]) else x.t[1]
                    g = f'(lambda ({y}) {self.scal(t, env + vs + [Var(y, x.t[1])], 2)[0]})'
                else:
                    g, t = self.thread_fn(x.t[1], env + vs, 0)
                    if is_arr(t):
                        g, t = f'(lambda (z) z)', x.t[1]
                self.level = lvl
                inner = 'map' if kw == 'map' else 'mapSeq'
                js, jt = f'(join ({kw} (lambda ({p}) ({inner} {g} {x.name})) {rows}))', arr(t, sz_tri(n))
            if k == 'join' and r.random() < 0.15:
                return js, jt   # the joined array itself (a view or a row map's result)
            c = r.random()
            e = jt[1]
            if k == 'join' and c < 0.3 and e in (FLOAT, INT):
                self.feats.add('top_reduce')
                z = '0.0f' if e == FLOAT else '0'
                op, init = self.pick([('+', z), ('max', '-100000' + ('.0f' if e == FLOAT else '')),
                                      ('min', '100000' + ('.0f' if e == FLOAT else ''))])
                return f'(reduce {init} {op} {js})', arr(e, Size('1', lambda s: 1))
            if c < 0.45 and e in (FLOAT, INT):
                init = self.lit(e)
                return f'({self.reduce_kw()} {init} {self.reduce_fn(e, init, jt, env, 1)} {js})', \
                    arr(e, Size('1', lambda s: 1))
            f, ft = self.thread_fn(e, env, 1)
            kw = self.pick(['mapGlb', 'mapGlb', 'mapSeq']) if k == 'join' else 'mapSeq'
            return f'({kw} {f} {js})', arr(ft, jt[2])
        # let: a position-dependent intermediate (one kernel's result), read by a second row map
        self.feats.add('multi')
        rows, mk = self.dep_rows(m, dt, env)
        p = self.fresh('row')
        vs, x = mk(p)
        y = self.fresh('y')
        if et_scalar(x.t[1]):
            g, gt = self.thread_fn(x.t[1], env + vs, 0)
            if gt not in (FLOAT, INT):   # rows of float or int (no double/bool rows to compute on)
                g, gt = '(lambda (z) z)', x.t[1]
        else:
            g, gt = '(lambda (z) z)', x.t[1]
        first = f'(mapGlb (lambda ({p}) (mapSeq {g} {x.name})) {rows})'
        yt = dep(gt, dt[2], n)
        body, bt = self.dep_top(y, yt, env) if r.random() < 0.6 else self.dep_top(y, yt, env + [Var(y + '_', yt)])
        return f'(let {y} {first}\n    {body})', bt

    def reduce_scalar_row(self, t, x, env):
        init = self.lit(t)
        return f'(aref ({self.reduce_kw()} {init} {self.reduce_fn(t, init, x.t, env, 1)} {x.name}) 0)'

    def dep_batch(self, ts, dt, env):
        """A program over a batch [[i -> [T](row i)]N]M: one triangle per thread, per
        work-group (its rows over the local threads), per sequential step (its rows one kernel)."""
        r = self.r
        n = dt[3]
        t = self.fresh('t')
        k = self.pick(['glb', 'glb', 'wrg', 'seq_glb', 'default', 'glb_join'])
        if k == 'glb':
            body, bt = self.dep_top(t, dt, env, outer=False)
            return f'(mapGlb (lambda ({t}) {body}) {ts})', arr(bt, sz_var('M'))
        if k == 'glb_join':
            self.feats.add('split')
            f, ft = self.thread_fn(dt[1], env, 1)
            return f'(mapGlb (lambda ({t}) (mapSeq {f} (join {t}))) {ts})', arr(arr(ft, sz_tri(n)), sz_var('M'))
        if k == 'default':
            self.feats.add('default')
            lvl, self.level = self.level, 'dseq'
            rows, mk = self.dep_rows(t, dt, env)
            f, bt = self.dep_fn(mk, env)
            self.level = lvl
            return f'(map (lambda ({t}) (map {f} {rows})) {ts})', arr(arr(bt, n), sz_var('M'))
        rows, mk = self.dep_rows(t, dt, env)
        f, bt = self.dep_fn(mk, env, 1)
        if k == 'wrg':
            self.feats.add('wrg')
            return f'(mapWrg (lambda ({t}) (mapLcl {f} {rows})) {ts})', arr(arr(bt, n), sz_var('M'))
        self.feats.add('seq_outer')
        return f'(mapSeq (lambda ({t}) (mapGlb {f} {rows})) {ts})', arr(arr(bt, n), sz_var('M'))

    # ---- input values -------------------------------------------------------------------
    def value(self, t, s, bias=None):
        """A random input of type t. bias (filter programs, the arrays only): the sign of
        the scalars, so that a threshold predicate (`(> x 0)`, filter_pred) keeps
        nothing ('neg'), everything ('pos'), about 1% ('rare') or about half (None)."""
        r = self.r
        if t in (FLOAT, INT):
            hi = 24 if t == FLOAT else 9
            if bias == 'neg' or bias == 'rare' and r.random() >= 0.01:
                k = -r.randint(1, hi)
            elif bias in ('pos', 'rare'):
                k = r.randint(1, hi)
            else:
                k = r.randint(-hi, hi) or (5 if t == FLOAT else 4)
            return f'{k / 8:g}' if t == FLOAT else str(k)
        if t == VEC:
            return '<' + ', '.join(self.value(FLOAT, s, bias) for _ in range(4)) + '>'
        if is_tup(t):
            return '(' + ', '.join(self.value(x, s, bias) for x in t[1:]) + ')'
        if is_dep(t):   # a ragged literal, row i of length i + 1 (lower) or N - i (upper)
            n = t[3].f(s)
            return '[' + ', '.join('[' + ', '.join(self.value(t[1], s) for _ in range(i + 1 if t[2] == 'lo' else n - i))
                                   + ']' for i in range(n)) + ']'
        n = t[2].f(s)
        return '[' + ', '.join(self.value(t[1], s, bias) for _ in range(n)) + ']'


def et_scalar(t):
    return t in (FLOAT, INT)


DEP_SHARE = 0.12   # the share of seeds that are position-dependent programs (group dep)
STENCIL_SHARE = 0.06   # of the others, stencil programs (group stencil), drawn apart as dep


def generate(seed, exclude=()):
    """The program for seed: deterministic. Redraws (seed, attempt) until one fits.
    Whether a seed is a program of the group `dep` is drawn apart (DEP_SHARE), so that the
    other seeds give the programs they gave before the group existed."""
    want_dep = 'dep' not in exclude and random.Random(f'dep{seed}').random() < DEP_SHARE
    want_stencil = not want_dep and 'stencil' not in exclude and random.Random(f'st{seed}').random() < STENCIL_SHARE
    for attempt in range(50):
        g = Gen(seed * 1000 + attempt, exclude)
        try:
            p = g.dep_program(seed) if want_dep else g.stencil_program(seed) if want_stencil else g.program(seed)
            return p
        except Reject:
            continue
    raise RuntimeError(f'seed {seed}: no program after 50 attempts')
