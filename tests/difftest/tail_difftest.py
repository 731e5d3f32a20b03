#!/usr/bin/env python3
"""tail_difftest.py — random differential testing of clift's TAIL front end.

  python3 tests/difftest/tail_difftest.py --clift build/clift --seeds 1:301 \\
      [--targets interp,c,openmp,opencl] [--jobs 1] [--rotate 2] [--budget S] [--keep DIR]
  python3 tests/difftest/tail_difftest.py --show 42      # print seed 42's program

For each seed, gen_tail.py writes a random well-typed TAIL program (no inputs)
to p.tail; `clift run -t T p.tail` runs it on the interpreter (the oracle) and
on each compiled target (opencl only on every --rotate-th seed: PoCL is slow;
openmp on half of the seeds with OMP_NUM_THREADS 1, 3, 4 or 7).
Outputs are compared as text; where they differ only in numbers, two numbers
agree within a relative tolerance of 1e-9 (absolute 1e-12 near 0) if both
outputs have the same tokens otherwise. Each program is classed:

  agree     every target printed the interpreter's output
  refused   every target failed with the same positioned error (counted by the
            message's prefix: "not supported yet: …", a run-time error, or a
            type error the generator did not avoid)
  DISAGREE  outputs differ, or one target failed where another did not (or
            with other words)
  CRASH     a signal (exit status >= 128 or < 0), "internal error",
            "Assertion", "Sanitizer" in the output, or a timeout (20 s on
            interp, 60 s on a compiled target)

It prints the classes per target, the refusal messages with their counts,
every failure, and ends with "N passed, M failed" (programs; failed =
DISAGREE + CRASH). Exit status 1 when anything failed. --keep DIR writes
each failing program to DIR/seedS/p.tail with every target's output
(DIR/seedS/result.txt). Each run uses a fresh XDG_CACHE_HOME and a copy of
the clift binary taken at the start (so that a rebuild during the run does
not mix two compilers; --no-copy runs CLIFT itself), both removed at the end.

What the generator covers (gen_tail.py): random nested expressions of ranks
0–3 with extents 0–9 (0 and 1 often) over int, double and bool: literals
(scalars, vectors, reshape0 of a literal or iota: cyclic, truncating and
empty sources), iota, shape, each and zipWith (operation names and `fn`
lambdas reading their parameters, enclosing lets and outer parameters),
reduce and scan (associative operations with and without their identity,
non-associative subi/subd, `fn` folds), reshape0/reshape with fills and
zero extents (also to [], a scalar, and with a shape(…) argument), reverse,
vreverse, rotate, vrotate (static and run-time counts), transp, transp2
(random permutations), take (over-take, negative), drop (negative, beyond
the length), cat, cons, snoc, compress/replicate/expand along the last axis
by static masks and counts (negative counts: fills; expand also by a mask
computed at run time), index (static and run-time positions), first (of
empty arrays too), power (static and run-time counts, bodies keeping the
shape), the V-forms (takeV dropV consV snocV catV reverseV rotateV iotaV
firstV shapeV), let bindings at the top and inside expressions (also inside
lambdas), printed values (prArrI … prSclB lets), and values of run-time
length: compress and replicate of vectors by masks or counts computed at run
time (counts with a range known when compiling), iota of a count computed
at run time, compress/replicate along either axis of a matrix (APL's / and
⌿ through transp2), then each, zipWith of two values of the same run-time
length, scan, reduce (along the run-time axis or after transp), index,
shape, compress and replicate of those again, and such values printed or as
the program's value. Scalars: addi subi muli (by a small literal) divi
(guarded) mini maxi resi andi ori xori shli shri shari (counts outside
0..31 too) negi absi signi noti b2i floor ceil signd i2d, the comparisons of
ints and doubles, andb orb xorb eqb nandb norb notb, addd subd muld mind
maxd negd absd divd, and on values that only reach the output (compared
with the tolerance): sin cos atan tanh expd sqrt ln resd powd and general
division. Run-time errors are rare but allowed (an index into a value of
run-time length, floor of the ~inf of an empty maxd reduction): every target
must then fail with the interpreter's message.

What it leaves out: `if` and `zilde()` (refused by clift: "not supported
yet"); first of rank >= 2 ("not supported yet: first of an array of rank
N"); take/drop/cat/reverse/rotate/cons/snoc/expand/reshape0/first/power of
values of run-time length, scan or reduce of them by subi/subd or a `fn`
(all "not supported yet: … of an array whose length is known only at run
time"); replicate by counts that do not read the element (`each(fn x => 2,
v)`: "no range is known", a gap of the range analysis); run-time lengths of
rank 3 and on a middle axis; chars; singleton/refined annotations (S(int,n),
<int>n: lets are annotated [κ]r); run-time errors on purpose (division by
zero, expand by a mask with the wrong number of ones, domains of fact,
acosh, asin); fact, binom, asin, acos, sinh, cosh, asinh, acosh, atanh, tan;
large ints beyond what the shifts make; lambdas of rank >= 1 other than
power's; the cuda target.
"""
import argparse
import concurrent.futures as cf
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tail  # noqa: E402

RTOL, ATOL = 1e-9, 1e-12
TIMEOUT = {'interp': 20}
COMPILED_TIMEOUT = 60
CRASH_WORDS = ('internal error', 'Assertion', 'Sanitizer')

TOKEN = re.compile(r'\s*([\[\]()<>,]|[^\s\[\]()<>,]+)')


def same_output(ref, out):
    """None when equal (text, numbers within the tolerance), else a reason."""
    if ref == out:
        return None
    ra, rb = TOKEN.findall(ref.strip()), TOKEN.findall(out.strip())
    if len(ra) != len(rb):
        return 'shape: %d tokens, expected %d' % (len(rb), len(ra))
    for i, (x, y) in enumerate(zip(ra, rb)):
        if x == y:
            continue
        try:
            a, b = float(x), float(y)
        except ValueError:
            return 'token %d: got %s, expected %s' % (i, y, x)
        if a == b or (a != a and b != b):
            continue
        if abs(a - b) <= RTOL * max(abs(a), abs(b)) + ATOL:
            continue
        return 'token %d: got %s, expected %s' % (i, y, x)
    return None


def run(cmd, timeout, env, cwd):
    """(rc, text of stdout, text of stderr, seconds, timed out)"""
    t0 = time.time()
    for attempt in range(10):     # the binary may be being rewritten (a build elsewhere)
        try:
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
                                 start_new_session=True)
            break
        except OSError:
            if attempt == 9:
                raise
            time.sleep(2)
    try:
        out, err = p.communicate(timeout=timeout)
        to = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        to = True
    return (p.returncode, out.decode('utf-8', 'replace'), err.decode('utf-8', 'replace'),
            time.time() - t0, to)


def error_text(stderr, path):
    """the first error line at the program's position (else the first with "error"),
    without the file position"""
    lines = stderr.splitlines()
    at = [l for l in lines if l.startswith(path + ':')]
    for line in at + lines:
        if 'error' in line:
            line = line.replace(path, 'p.tail')
            line = re.sub(r'^p\.tail:\d+:\d+: ', '', line).strip()
            if 'internal error' in line:
                # the downstream compiler's first complaint, without its paths
                for l2 in lines:
                    if re.search(r'(^|: )error: ', l2) and 'internal error' not in l2:
                        l2 = re.sub(r'\S*/(tempfile_\w+\.cl|[0-9a-f]+\.c):[\d:]*( <Spelling=[^>]*>)?:? ?', '', l2)
                        line += ' [' + l2.strip() + ']'
                        break
            return line
    return stderr.strip().splitlines()[0] if stderr.strip() else '(no message)'


def message_key(msg):
    """the prefix a refusal is counted by"""
    m = re.sub(r'^error: ', '', msg)
    m = re.sub(r"'[^']*'", "'…'", m)
    m = re.sub(r'\b(let|fn) [a-z]+\d+', r'\1 x', m)
    m = re.sub(r'~?-?\d+', 'N', m)
    m = m.split(' (')[0]
    if re.search(r'argument N has type|not a subtype', m):
        m = re.sub(r'has type .*', 'has type … (type error)', m)
        m = re.sub(r'the value has type .*', 'the value has type … (type error)', m)
    return m[:110]


def is_crash(r):
    rc, out, err, _, to = r
    if to:
        return 'timeout'
    if rc is None or rc < 0 or rc >= 128:
        return 'signal/exit %s' % rc
    for w in CRASH_WORDS:
        if w in out or w in err:
            return '"%s" in the output' % w
    return None


def classify(seed, prog, targets, clift, env, workroot, nice):
    d = tempfile.mkdtemp(prefix='s%d_' % seed, dir=workroot)
    path = os.path.join(d, 'p.tail')
    with open(path, 'w') as f:
        f.write(prog)
    res = {}
    for t in targets:
        cmd = ([ 'nice', '-n', str(nice)] if nice else []) + [clift, 'run', '-t', t, path]
        tenv = env
        if t == 'openmp' and omp_threads(seed):
            tenv = dict(env, OMP_NUM_THREADS=str(omp_threads(seed)))
        res[t] = run(cmd, TIMEOUT.get(t, COMPILED_TIMEOUT), tenv, d)
    shutil.rmtree(d, ignore_errors=True)
    per = {}           # target -> (class, reason)
    ref = res['interp'] if 'interp' in res else res[targets[0]]
    refname = 'interp' if 'interp' in res else targets[0]
    crashes = {t: is_crash(r) for t, r in res.items()}
    errs = {t: error_text(r[2], path) for t, r in res.items() if r[0] != 0}
    for t, r in res.items():
        if crashes[t]:
            per[t] = ('CRASH', crashes[t] + ': ' + (errs.get(t) or r[2].strip()[:200]))
    if all(r[0] != 0 for r in res.values()) and not any(crashes.values()):
        msgs = set(errs.values())
        if len(msgs) == 1:
            for t in res:
                per[t] = ('refused', errs[t])
            return per, res, 'refused', message_key(errs[refname])
        for t in res:
            if errs[t] != errs[refname]:
                per[t] = ('DISAGREE', 'error %r where %s says %r' % (errs[t], refname, errs[refname]))
            else:
                per[t] = ('refused', errs[t])
    else:
        for t, r in res.items():
            if t in per:
                continue
            if crashes[refname] and t == refname:
                continue
            if r[0] != ref[0] or (r[0] != 0 and errs.get(t) != errs.get(refname)):
                if r[0] != 0:
                    per[t] = ('DISAGREE', 'error %r where %s printed a value' % (errs[t], refname)) \
                        if ref[0] == 0 else ('DISAGREE', 'error %r vs %r' % (errs[t], errs[refname]))
                else:
                    per[t] = ('DISAGREE', 'a value where %s failed: %r' % (refname, errs.get(refname)))
                continue
            if r[0] != 0:
                per[t] = ('refused', errs[t])
                continue
            why = same_output(ref[1], r[1])
            per[t] = ('agree', '') if why is None else ('DISAGREE', why)
    classes = {c for c, _ in per.values()}
    overall = 'CRASH' if 'CRASH' in classes else 'DISAGREE' if 'DISAGREE' in classes else \
        'refused' if classes == {'refused'} else 'agree'
    key = message_key(errs[refname]) if overall == 'refused' else None
    return per, res, overall, key


def omp_threads(seed):
    """openmp runs half of the seeds with OMP_NUM_THREADS 1, 3, 4 or 7 (None: the default)"""
    return (None, 3, None, 1, None, 4, None, 7)[seed % 8]


def keep(keepdir, seed, prog, per, res):
    d = os.path.join(keepdir, 'seed%d' % seed)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'p.tail'), 'w') as f:
        f.write(prog)
    with open(os.path.join(d, 'result.txt'), 'w') as f:
        for t, r in res.items():
            c, why = per.get(t, ('?', ''))
            omp = ' OMP_NUM_THREADS=%s' % omp_threads(seed) if t == 'openmp' and omp_threads(seed) else ''
            f.write('== %s: %s %s\n   exit %s, %.2f s%s%s\n-- stdout\n%s\n-- stderr\n%s\n' % (
                t, c, why, r[0], r[3], ' (timed out)' if r[4] else '', omp, r[1], r[2]))


def parse_seeds(s):
    if ':' in s:
        a, b = s.split(':')
        return list(range(int(a), int(b)))
    return [int(x) for x in s.split(',')]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--clift', default='build/clift')
    ap.add_argument('--seeds', default='1:101', help='A:B (B excluded) or a,b,c')
    ap.add_argument('--targets', default='interp,c,openmp,opencl')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--rotate', type=int, default=2, help='opencl on every K-th seed only')
    ap.add_argument('--budget', type=float, default=0, help='start no seed after SECONDS')
    ap.add_argument('--keep', help='write failing programs to DIR/seedS/')
    ap.add_argument('--nice', type=int, default=0, help='run clift under nice -n N')
    ap.add_argument('--show', type=int, help='print the program of one seed and exit')
    ap.add_argument('--no-copy', action='store_true',
                    help='run CLIFT itself, not a copy taken at the start')
    ap.add_argument('-v', action='store_true', help='print failures as they happen')
    args = ap.parse_args()
    if args.show is not None:
        sys.stdout.write(gen_tail.generate(args.show))
        return 0
    targets = [t for t in args.targets.split(',') if t]
    if 'interp' in targets:
        targets = ['interp'] + [t for t in targets if t != 'interp']
    workroot = tempfile.mkdtemp(prefix='tail_difftest_')
    clift = os.path.abspath(args.clift)
    if not args.no_copy:
        # a private copy: a rebuild of build/clift during the run changes no result
        shutil.copy2(clift, os.path.join(workroot, 'clift'))
        clift = os.path.join(workroot, 'clift')
    env = dict(os.environ)
    env['XDG_CACHE_HOME'] = os.path.join(workroot, 'cache')
    seeds = parse_seeds(args.seeds)
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    t0 = time.time()
    lock = threading.Lock()
    results = {}
    per_target = {}
    seconds = {}
    skipped = [0]

    def one(seed):
        if stop or (args.budget and time.time() - t0 > args.budget):
            skipped[0] += 1
            return
        prog = gen_tail.generate(seed)
        ts = [t for t in targets if t != 'opencl' or args.rotate <= 1 or seed % args.rotate == 0]
        per, res, overall, key = classify(seed, prog, ts, clift, env, workroot, args.nice)
        with lock:
            results[seed] = (overall, key, per)
            for t, (c, _) in per.items():
                per_target.setdefault(t, {}).setdefault(c, 0)
                per_target[t][c] += 1
                seconds.setdefault(t, []).append(res[t][3])
            if overall in ('DISAGREE', 'CRASH'):
                if args.keep:
                    keep(args.keep, seed, prog, per, res)
                if args.v:
                    print('seed %d %s: %s' % (seed, overall, '; '.join(
                        '%s %s %s' % (t, c, w) for t, (c, w) in per.items() if c != 'agree')), flush=True)

    try:
        if args.jobs <= 1:
            for s in seeds:
                one(s)
        else:
            with cf.ThreadPoolExecutor(args.jobs) as ex:
                list(ex.map(one, seeds))
    finally:
        shutil.rmtree(workroot, ignore_errors=True)

    el = time.time() - t0
    n = len(results)
    print('%d programs in %.0f s (%.2f programs/s)%s' % (
        n, el, n / el if el else 0, ('; %d seeds not run (budget or signal)' % skipped[0]) if skipped[0] else ''))
    print('per target:')
    for t in targets:
        if t not in per_target:
            continue
        cs = per_target[t]
        secs = seconds[t]
        print('  %-7s runs %4d  %s  (%.2f s per run)' % (
            t, sum(cs.values()), '  '.join('%s %d' % (c, cs[c]) for c in
                                           ('agree', 'refused', 'DISAGREE', 'CRASH') if c in cs),
            sum(secs) / len(secs)))
    overall = {}
    for s, (o, _, _) in results.items():
        overall[o] = overall.get(o, 0) + 1
    print('programs: ' + '  '.join('%s %d' % (c, overall.get(c, 0))
                                   for c in ('agree', 'refused', 'DISAGREE', 'CRASH')))
    keys = {}
    for s, (o, k, _) in results.items():
        if o == 'refused':
            keys.setdefault(k, []).append(s)
    if keys:
        print('refusals (every target, same message), %.1f%% of the programs:' % (
            100.0 * sum(len(v) for v in keys.values()) / max(n, 1)))
        for k, ss in sorted(keys.items(), key=lambda kv: -len(kv[1])):
            print('  %4d  %s   [seeds %s]' % (len(ss), k, ' '.join(map(str, sorted(ss)[:5]))))
    fails = sorted(s for s, (o, _, _) in results.items() if o in ('DISAGREE', 'CRASH'))
    if fails:
        print('failures:')
        for s in fails:
            o, _, per = results[s]
            print('  seed %d %s: %s' % (s, o, '; '.join(
                '%s %s: %s' % (t, c, w[:200]) for t, (c, w) in per.items() if c not in ('agree',))))
    passed = n - len(fails)
    print('%d passed, %d failed' % (passed, len(fails)))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
