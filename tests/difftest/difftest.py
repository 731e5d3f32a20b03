#!/usr/bin/env python3
"""difftest.py — random differential testing of clift's targets against its interpreter.

For each seed: generate a well-typed random program and inputs (gen.py), run it with
`clift run -t interp` (the oracle) and with every other target, compare, classify:

  agree       same result (floats within tolerance, ints exactly), or the same
              run-time error on both sides
  disagree    a different result or error
  crash       a signal, a sanitizer report, "internal" in the message, a timeout
  cc_fail     the C compiler or the OpenCL compiler rejected generated code
  refused     "… not supported by the TARGET target" (documented; counted, not failed)
  rejected    the interpreter refused the program (a generator bug or a type-checker
              bug: investigate); per program, not per target
  target_err  the target reported a compile- or run-time error the interpreter did not

Failing programs go to --keep DIR/seedS/ with prog.lift, the inputs, both outputs and
a repro.sh. Ends with "N passed, N failed" (failed = disagree + crash + cc_fail +
target_err + rejected); exit status 1 when anything failed.

  python3 tests/difftest/difftest.py --seeds 0:1000 --clift build/clift
"""
import argparse
import concurrent.futures as cf
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

FAIL_CLASSES = ('disagree', 'crash', 'cc_fail', 'target_err', 'rejected', 'noise')
RTOL, ATOL = 1e-4, 1e-4

# ---- output literals -------------------------------------------------------------------
TOKEN = re.compile(r'\s*([\[\]()<>,]|[^\s\[\]()<>,]+)')


def parse_value(text):
    toks = TOKEN.findall(text.strip())
    pos = 0

    def item():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t in '[(<':
            close = {'[': ']', '(': ')', '<': '>'}[t]
            out = []
            if toks[pos] == close:
                pos += 1
                return (t, out)
            while True:
                out.append(item())
                t2 = toks[pos]
                pos += 1
                if t2 == close:
                    return (t, out)
                if t2 != ',':
                    raise ValueError(f'expected , or {close}, found {t2}')
        if t in ('true', 'false'):
            return t == 'true'
        return float(t) if re.search(r'[.eEna]', t) else int(t)

    v = item()
    if pos != len(toks):
        raise ValueError('trailing text')
    return v


def magnitude(v):
    if isinstance(v, tuple):
        return max((magnitude(x) for x in v[1]), default=0.0)
    if isinstance(v, bool):
        return 0.0
    return abs(v) if v == v and abs(v) != float('inf') else 0.0


def same(t, a, b, scale):
    """a, b parsed values of type t (gen's type); None when equal, else a reason."""
    if gen.is_arr(t) or t == gen.VEC:
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or a[0] != b[0] or len(a[1]) != len(b[1]):
            return 'shape'
        et = t[1] if gen.is_arr(t) else gen.FLOAT
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            why = same(et, x, y, scale)
            if why:
                return f'[{i}] {why}'
        return None
    if gen.is_tup(t):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a[1]) != len(b[1]) or len(a[1]) != len(t) - 1:
            return 'tuple shape'
        for i, (ft, x, y) in enumerate(zip(t[1:], a[1], b[1])):
            why = same(ft, x, y, scale)
            if why:
                return f'.{i + 1} {why}'
        return None
    if isinstance(a, tuple) or isinstance(b, tuple):
        return 'shape'
    if t in (gen.FLOAT, gen.DOUBLE):   # a double may hold a float's rounding (f2d of sin: seed 2002804)
        a, b = float(a), float(b)
        if a != a or b != b:
            return None if (a != a) == (b != b) else f'{b} vs {a}'
        if a == b or abs(a - b) <= RTOL * abs(a) + ATOL * (1 + scale):
            return None
        return f'got {b}, expected {a}'
    return None if a == b else f'got {b}, expected {a}'


LARGE_OUTPUT = 4_000_000   # characters: parsed token by token, not into values
NUMBER_LIKE = re.compile(r'[.eEna]')


def same_tokens(ref, out):
    """Two large outputs compared token by token without types (parsing them into
    values took minutes): the same brackets and separators, equal integers and
    booleans, numbers where either is real-looking within the tolerance of
    `same` at the scale of the reference's largest magnitude. None when equal,
    else a reason. (Before, an output over LARGE_OUTPUT that was not the same
    text was counted apart, `slow`, unchecked: 2 of 19,282 programs on the x4.)"""
    ra, rb = TOKEN.findall(ref.strip()), TOKEN.findall(out.strip())
    if len(ra) != len(rb):
        return f'shape: {len(rb)} tokens, expected {len(ra)}'
    scale = 0.0
    for t in ra:
        if t[0] not in '[]()<>,tf':
            try:
                v = abs(float(t))
            except ValueError:
                continue
            if v == v and v != float('inf'):
                scale = max(scale, v)
    for i, (x, y) in enumerate(zip(ra, rb)):
        if x == y:
            continue
        if x in '[]()<>,' or y in '[]()<>,' or x in ('true', 'false') or y in ('true', 'false'):
            return f'token {i}: got {y}, expected {x}'
        try:
            a, b = float(x), float(y)
        except ValueError:
            return f'token {i}: got {y}, expected {x}'
        if not (NUMBER_LIKE.search(x) or NUMBER_LIKE.search(y)):
            return f'token {i}: got {y}, expected {x}'
        if a != a or b != b:
            if (a != a) != (b != b):
                return f'token {i}: got {y}, expected {x}'
            continue
        if not (a == b or abs(a - b) <= RTOL * abs(a) + ATOL * (1 + scale)):
            return f'token {i}: got {y}, expected {x}'
    return None


def self_test():
    """The comparisons on made-up outputs: each case's expected verdict."""
    big = lambda xs: '[' + ', '.join(xs) + ']'
    n = 200_000
    ref = big(f'{i * 0.5:.6g}' for i in range(n))
    cases = [
        ('equal text', same_tokens(ref, ref) is None),
        ('within tolerance', same_tokens(ref, big(f'{i * 0.5 * (1 + 1e-7):.9g}' for i in range(n))) is None),
        ('one element off', same_tokens(ref, big(f'{i * 0.5 + (1000.0 if i == 777 else 0):.6g}' for i in range(n))) is not None),
        ('one element missing', same_tokens(ref, big(f'{i * 0.5:.6g}' for i in range(n - 1))) is not None),
        ('ints differ', same_tokens(big(str(i) for i in range(n)), big(str(i + (i == 5)) for i in range(n))) is not None),
        ('nan matches nan', same_tokens('[nan, 1.5]', '[nan, 1.5]') is None),
        ('nan against a number', same_tokens('[nan, 1.5]', '[0.5, 1.5]') is not None),
        ('bool differs', same_tokens('[true, false]', '[true, true]') is not None),
        ('brackets differ', same_tokens('[[1], [2]]', '[[1, 2]]') is not None),
    ]
    failed = [name for name, ok in cases if not ok]
    for name in failed:
        print(f'FAIL: difftest comparison: {name}')
    print(f'{len(cases) - len(failed)} passed, {len(failed)} failed')
    return 1 if failed else 0


# ---- running clift ---------------------------------------------------------------------
LAUNCHES = ['--local-size 1 --global-size 1', '--local-size 3 --global-size 17', '--local-size 7 --global-size 300',
            '--local-size 64', '--local-size 2 --global-size 6', '--local-size 5', '--local-size 3,5 --global-size 17,11',
            '--local-size 16 --global-size 32', '--global-size 1']


PEELS = [[], [], ['--peel'], ['--peel=all'], ['--no-peel']]


def launch(seed, target, args, feats=()):
    """Extra options and environment for this seed and target (deterministic): odd launch
    sizes on the device targets (SPEC §6: any size is correct), odd thread counts for openmp;
    a stencil program (group stencil) on a compiled target: one of the peeling flags;
    with --gpus N the device targets of seed s run on GPU F + (s div K) mod N, K the --rotate step, F --first-gpu
    (with K = 16 and N = 4, s mod N picked GPU 0 for every rotated seed), and with --omp-threads K
    openmp runs that get no odd count use K threads (many jobs on a many-core machine)."""
    opts, extra = launch_odd(seed, target, args)
    if 'stencil' in feats and target != 'interp':
        opts = random.Random(f'peel{seed}{target}').choice(PEELS) + opts
    if (args.gpus > 1 or args.first_gpu) and target in ('opencl', 'cuda'):
        extra['CUDA_VISIBLE_DEVICES'] = str(args.first_gpu + seed // max(args.rotate, 1) % args.gpus)
    if args.omp_threads and target == 'openmp' and 'OMP_NUM_THREADS' not in extra:
        extra['OMP_NUM_THREADS'] = str(args.omp_threads)
    return opts, extra


def launch_odd(seed, target, args):
    if args.no_launch:
        return [], {}
    r = random.Random(seed * 7919 + 17)
    if target in ('opencl', 'cuda') and r.random() < 0.5:
        return r.choice(LAUNCHES).split(), {}
    if target == 'openmp' and r.random() < 0.5:
        return [], {'OMP_NUM_THREADS': str(r.choice([1, 3, 4, 7]))}
    return [], {}


def run(clift, target, prog, inputs, timeout, env, opts=()):
    cmd = [clift, 'run', '-t', target] + list(opts) + [prog] + inputs
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, errors='replace')
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return 'timeout', e.stdout or '', e.stderr or '', time.time() - t0


CC_FAIL = re.compile(r'C compiler|failed to build|rejected the generated code')
SAN = re.compile(r'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|SUMMARY: \w+Sanitizer')


def bad_exit(rc, err):
    """The crash class of a failed run, or None when it is an ordinary error."""
    if rc == 'timeout':
        return 'crash'
    if rc < 0 or rc >= 128 or SAN.search(err) or 'Assertion' in err:
        return 'crash'
    if 'internal' in err and not CC_FAIL.search(err):
        return 'crash'
    return None


def error_line(err):
    """The message of an `error:` line, without the file position."""
    for line in err.splitlines():
        m = re.search(r'error: (.*)', line)
        if m:
            return m.group(1)
    return err.strip().splitlines()[0] if err.strip() else ''


def same_error(a, b):
    """The same run-time error, up to the values in it: when several elements fail, a
    parallel target may report another one than the interpreter (the first it meets)."""
    num = r'-?[0-9][0-9.e+-]*'
    return re.sub(num, '#', a) == re.sub(num, '#', b)


RUNTIME_ERR = re.compile(r'division by zero|modulo by zero|out of range|does not fit')


def classify(target, ref, got, rtype):
    rrc, rout, rerr, _ = ref
    rc, out, err, _ = got
    crash = bad_exit(rc, err)
    if crash:
        return crash, f'{"timeout" if rc == "timeout" else "exit " + str(rc)}: {err.strip()[-600:]}'
    if rc != 0:
        if 'not supported' in err:
            return 'refused', error_line(err)
        if CC_FAIL.search(err):
            return 'cc_fail', err.strip()[:1500]
        if rrc != 0 and same_error(error_line(err), error_line(rerr)):
            return 'agree', ''
        # several elements fail: a parallel target reports the one it meets first,
        # which need not be the interpreter's (docs/language.md, "Run-time errors");
        # the sequential c target must report the interpreter's own
        if (rrc != 0 and target != 'c' and RUNTIME_ERR.search(error_line(err))
                and RUNTIME_ERR.search(error_line(rerr))):
            return 'agree', ''
        return ('disagree' if rrc != 0 else 'target_err'), err.strip()[:1000]
    if rrc != 0:
        return 'disagree', f'ran, but the interpreter failed with: {error_line(rerr)}\ngot: {out.strip()[:300]}'
    if err.strip():
        # a run that succeeds says nothing on stderr: a warning there is a downstream
        # compiler's about our code (PoCL's clang on xs[i1 % 0], fifteenth session)
        return 'noise', f'stderr of a successful run: {err.strip()[:600]}'
    if len(rout) > LARGE_OUTPUT:
        why = same_tokens(rout, out)
        return ('disagree', why) if why else ('agree', '')
    try:
        a, b = parse_value(rout), parse_value(out)
    except (ValueError, IndexError) as e:
        return 'disagree' if rout.strip() != out.strip() else 'agree', f'unparsable output ({e})'
    why = same(rtype, a, b, magnitude(a))
    return ('disagree', why) if why else ('agree', '')


ARG_MAX_INLINE = 8192   # longer inputs go through a file (clift run's @file): the argument list has a limit


def input_args(d, inputs):
    """The inputs as clift run's arguments: literals, or @file for a long one."""
    out = []
    for k, text in enumerate(inputs):
        if len(text) <= ARG_MAX_INLINE:
            out.append(text)
            continue
        path = os.path.join(d, f'in{k}.txt')
        with open(path, 'w') as f:
            f.write(text)
        out.append('@' + path)
    return out


class Batcher:
    """Device runs of many seeds in one clift process (`clift run --batch`): a CUDA or
    NVIDIA OpenCL process costs about 0.5 s of driver time, serialised between
    processes (bench/gpu/runrate_probe.sh: 16 programs in one process 1.6 s, 32 in
    their own processes 12-16 s), which capped the soaks near 3 device runs a second.
    run() queues one run and waits for its result; the queue of one target and
    environment is run when it holds `size` runs or its oldest has waited `wait`
    seconds, or at once when every job thread is waiting for a device run (jobs
    waiting on half-full queues idled the cores: the 2026-11-28 soak on one H100 host
    made 7.6 programs a second with 16 jobs, ROTATE 4 and batches of 16). A batch that
    dies or times out leaves its unfinished runs to single processes, so a crash or
    a hang is classified as without batching."""

    def __init__(self, clift, workdir, size, timeout, jobs, wait=3.0):
        self.clift, self.workdir, self.size, self.timeout, self.wait = clift, workdir, size, timeout, wait
        self.jobs, self.waiting = jobs, 0
        self.lock = threading.Lock()
        self.queues = {}   # (target, extra env) -> [(args, target, prog, inputs, opts, env, event, slot, since)]
        self.n = 0
        threading.Thread(target=self._flusher, daemon=True).start()

    def run(self, target, prog, inputs, env, extra, opts):
        args = ['-t', target] + list(opts) + [prog] + inputs
        full_env = dict(env, **extra)
        if any('\t' in a or '\n' in a for a in args):
            return run(self.clift, target, prog, inputs, self.timeout, full_env, opts)
        done, slot, ready = threading.Event(), {}, []
        with self.lock:
            q = self.queues.setdefault((target, tuple(sorted(extra.items()))), [])
            q.append((args, target, prog, inputs, opts, full_env, done, slot, time.time()))
            self.waiting += 1
            if self.waiting >= self.jobs:   # no job thread left to fill a queue: run them all
                ready = [q[:] for q in self.queues.values() if q]
                for q in self.queues.values(): q.clear()
            elif len(q) >= self.size:
                ready = [q[:]]
                q.clear()
        for batch in ready[1:]:
            threading.Thread(target=self._run_batch, args=(batch,), daemon=True).start()
        if ready:
            self._run_batch(ready[0])
        done.wait()
        with self.lock:
            self.waiting -= 1
        return slot['result']

    def _flusher(self):
        while True:
            time.sleep(0.2)
            ready = []
            with self.lock:
                for q in self.queues.values():
                    if q and time.time() - q[0][8] >= self.wait:
                        ready.append(q[:])
                        q.clear()
            for batch in ready:
                threading.Thread(target=self._run_batch, args=(batch,), daemon=True).start()

    def _run_batch(self, batch):
        env = batch[0][5]   # one queue, one environment
        with self.lock:
            self.n += 1
            path = os.path.join(self.workdir, f'batch{self.n}.txt')
        with open(path, 'w') as f:
            f.write(''.join('\t'.join(item[0]) + '\n' for item in batch))
        t0 = time.time()
        status = {}
        try:
            p = subprocess.run([self.clift, 'run', '--batch', path], capture_output=True, text=True,
                               timeout=self.timeout * len(batch), env=env, errors='replace')
            for line in p.stdout.splitlines():
                k, _, rc = line.partition(' ')
                if k.isdigit() and rc.lstrip('-').isdigit():
                    status[int(k)] = int(rc)
        except subprocess.TimeoutExpired:
            pass
        dt = (time.time() - t0) / len(batch)
        for k, (args, target, prog, inputs, opts, env_k, done, slot, _) in enumerate(batch):
            try:
                if k not in status:   # the batch died or hung before this run finished
                    raise OSError('no status')
                with open(f'{path}.{k}.out', errors='replace') as fo, open(f'{path}.{k}.err', errors='replace') as fe:
                    slot['result'] = (status[k], fo.read(), fe.read(), dt)
            except OSError:   # alone, as without batching (also when its files are missing)
                slot['result'] = run(self.clift, target, prog, inputs, self.timeout, env_k, opts)
            finally:   # a job thread waiting for this run never waits forever
                slot.setdefault('result', (-1, '', 'internal: the batch runner failed', dt))
                done.set()


def test_seed(seed, args, targets, workdir, env):
    try:
        p = gen.generate(seed, args.exclude)
    except RuntimeError as e:
        return seed, None, {'generator': ('rejected', str(e))}, {}
    if args.only and not set(args.only) & set(p.feats):
        return seed, None, {}, {}
    d = os.path.join(workdir, f's{seed}')
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, 'prog.lift')
    with open(prog, 'w') as f:
        f.write(f';; difftest seed {seed}, sizes {p.sizes}\n' + p.text)
    results, runs = {}, {}
    inputs = input_args(d, p.inputs)
    ref = run(args.clift, 'interp', prog, inputs, args.timeout, env)
    runs['interp'] = ref
    rrc, _, rerr, _ = ref
    crash = bad_exit(rrc, rerr)
    if rrc == 'timeout':
        results['interp'] = ('slow', 'the interpreter ran out of time: the generator made too much work')
    elif crash:
        results['interp'] = (crash, rerr.strip()[-600:])
    elif rrc != 0 and not (RUNTIME_ERR.search(rerr) and {'divzero', 'f2i_range'} & set(p.feats)):
        results['interp'] = ('rejected', error_line(rerr))
    else:
        for t in targets_for(seed, targets, args):
            opts, extra = launch(seed, t, args, p.feats)
            if args.batcher and t in ('opencl', 'cuda'):
                got = args.batcher.run(t, prog, inputs, env, extra, opts)
            else:
                got = run(args.clift, t, prog, inputs, args.timeout, dict(env, **extra), opts)
            runs[t] = got
            results[t] = classify(t, ref, got, p.result)
    failed = any(c in FAIL_CLASSES for c, _ in results.values())
    if failed and args.keep:
        save(args, seed, p, runs, results)
    shutil.rmtree(d, ignore_errors=True)
    return seed, p, results, {t: r[3] for t, r in runs.items()}


def targets_for(seed, targets, args):
    """Every target, or with --rotate K the slow ones (opencl) only every K-th seed."""
    out = []
    for t in targets:
        if t in args.slow and args.rotate > 1 and seed % args.rotate != 0:
            continue
        out.append(t)
    return out


def save(args, seed, p, runs, results):
    d = os.path.join(args.keep, f'seed{seed}')
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'prog.lift'), 'w') as f:
        f.write(f';; difftest seed {seed}, sizes {p.sizes}\n' + p.text)
    with open(os.path.join(d, 'inputs.txt'), 'w') as f:
        f.write('\n'.join(p.inputs) + '\n')
    clift = os.path.abspath(args.clift)
    # long inputs as files beside the script (input_args writes them into d)
    ins = ' '.join(i if i.startswith('@') else shlex.quote(i)
                   for i in (('@' + os.path.basename(x[1:]) if x.startswith('@') else x) for x in input_args(d, p.inputs)))
    with open(os.path.join(d, 'repro.sh'), 'w') as f:
        f.write('#!/bin/sh\n# usage: sh repro.sh [TARGET] (default: every target compared)\n'
                f'cd "$(dirname "$0")"\nCLIFT=${{CLIFT:-{clift}}}\n'
                f'for t in ${{1:-interp {" ".join(t for t in runs if t != "interp")}}}; do\n'
                f'  case $t in\n'
                + ''.join(f'    {t}) opts="{" ".join(launch(seed, t, args, p.feats)[0])}"; '
                          f'export {" ".join(f"{k}={v}" for k, v in launch(seed, t, args, p.feats)[1].items()) or "CLIFT"};;\n'
                          for t in runs)
                + f'    *) opts="";;\n  esac\n'
                f'  echo "== $t $opts"; "$CLIFT" run -t "$t" $opts prog.lift {ins}\ndone\n')
    with open(os.path.join(d, 'result.txt'), 'w') as f:
        f.write(f'features: {" ".join(p.feats)}\n')
        for t, (c, why) in results.items():
            f.write(f'{t}: {c}\n  {why}\n')
        for t, (rc, out, err, _) in runs.items():
            f.write(f'\n== {t} (exit {rc})\n{out}{err}')


# ---- main --------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description='random differential tester for clift')
    ap.add_argument('--seeds', default='0:200', help='A:B, the seeds A..B-1; A: (no end) the seeds from A on, until --budget')
    ap.add_argument('--clift', default='build/clift')
    ap.add_argument('--targets', default=None, help='comma-separated (default: clift test --list-targets, minus interp)')
    ap.add_argument('--exclude', default='', help='feature groups to leave out (comma-separated; "known": the '
                    'groups of the bugs known when the tester was written, "open": those of bugs still open)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--budget', type=float, default=0, help='stop starting new seeds after this many seconds')
    ap.add_argument('--timeout', type=float, default=60, help='per clift run, seconds')
    ap.add_argument('--keep', default=None, help='folder for failing programs')
    ap.add_argument('--rotate', type=int, default=1, help='run the slow targets on every K-th seed only')
    ap.add_argument('--slow', default='opencl,cuda', help='targets --rotate applies to')
    ap.add_argument('--only', default='', help='run only the programs that use one of these feature groups')
    ap.add_argument('--no-launch', action='store_true', help='default launch sizes and thread counts only')
    ap.add_argument('--gpus', type=int, default=1, help='run the device targets of seed s on GPU (s div ROTATE) mod N '
                    '(CUDA_VISIBLE_DEVICES; a CUDA or NVIDIA OpenCL run then initialises one GPU, not all)')
    ap.add_argument('--first-gpu', type=int, default=0, help='with --gpus N: GPUs F … F+N-1 (leaves the GPUs '
                    'below F to other work, e.g. timings beside a soak)')
    ap.add_argument('--omp-threads', type=int, default=0, help='OMP_NUM_THREADS of the openmp runs that get no '
                    'odd count (0: the machine default; many jobs on many cores oversubscribe it)')
    ap.add_argument('--batch', type=int, default=0, help='device runs (opencl, cuda) K at a time in one '
                    'clift process (`clift run --batch`): a device process costs ~0.5 s of driver time, '
                    'serialised between processes; 0: each in its own process')
    ap.add_argument('--pocl-opt-disable', action='store_true',
                    help='build OpenCL kernels with -cl-opt-disable on PoCL (about 25%% faster, tests less)')
    ap.add_argument('--list-features', action='store_true')
    ap.add_argument('--show', type=int, default=None, help='print the program of one seed and exit')
    ap.add_argument('-v', '--verbose', action='store_true', help='print every failure as it happens')
    ap.add_argument('--self-test', action='store_true', help='check the output comparisons on made-up outputs and exit')
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.list_features:
        for k, v in gen.FEATURES.items():
            print(f'{k:16} {v}')
        return 0
    ex = set(x for x in args.exclude.split(',') if x)
    if 'known' in ex:
        ex = (ex - {'known'}) | set(gen.KNOWN)
    if 'open' in ex:
        ex = (ex - {'open'}) | set(gen.OPEN)
    unknown = ex - set(gen.FEATURES)
    if unknown:
        ap.error(f'unknown feature groups: {", ".join(sorted(unknown))} (see --list-features)')
    args.exclude = sorted(ex)
    args.only = [x for x in args.only.split(',') if x]
    args.slow = set(args.slow.split(','))
    if args.show is not None:
        p = gen.generate(args.show, args.exclude)
        print(p.text + ';; inputs: ' + ' '.join(shlex.quote(i) for i in p.inputs))
        return 0
    first, _, last = args.seeds.partition(':')
    a = int(first)
    b = int(last) if last else a + 10**9   # 'A:' runs until the budget ends
    if not last and not args.budget:
        ap.error('--seeds A: (no end) needs --budget')
    args.clift = os.path.abspath(args.clift)
    if args.targets:
        targets = [t for t in args.targets.split(',') if t and t != 'interp']
    else:
        out = subprocess.run([args.clift, 'test', '--list-targets'], capture_output=True, text=True).stdout
        targets = [t for t in out.split() if t != 'interp']
    if args.keep:
        args.keep = os.path.abspath(args.keep)
    workdir = tempfile.mkdtemp(prefix='difftest.')
    env = dict(os.environ)
    env['XDG_CACHE_HOME'] = os.path.join(workdir, 'cache')   # a fresh cache, removed at the end
    if args.pocl_opt_disable:
        env['POCL_EXTRA_BUILD_FLAGS'] = '-cl-opt-disable'
    env.setdefault('ASAN_OPTIONS', 'detect_leaks=0:halt_on_error=1')
    env.setdefault('UBSAN_OPTIONS', 'print_stacktrace=1:halt_on_error=1')
    args.batcher = Batcher(args.clift, workdir, args.batch, args.timeout, args.jobs) if args.batch > 1 else None
    t0 = time.time()
    counts, per_target, tsum, nrun = {}, {}, {}, {}
    failures, programs, skipped, refusals = [], 0, 0, {}
    print(f'difftest: seeds {a}:{b}, targets {",".join(targets)}, {args.jobs} jobs'
          + (f', excluding {",".join(args.exclude)}' if args.exclude else ''), flush=True)
    stop = []   # set by SIGINT/SIGTERM: start nothing new, finish what runs, summarise
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    try:
        with cf.ThreadPoolExecutor(args.jobs) as pool:
            pending, it = set(), iter(range(a, b))
            while True:
                while len(pending) < 2 * args.jobs and not stop:
                    if args.budget and time.time() - t0 > args.budget:
                        break
                    s = next(it, None)
                    if s is None:
                        break
                    pending.add(pool.submit(test_seed, s, args, targets, workdir, env))
                if not pending:
                    break
                done, pending = cf.wait(pending, timeout=1, return_when=cf.FIRST_COMPLETED)
                for fut in done:
                    seed, p, results, times = fut.result()
                    if not results:
                        continue   # --only: not one of the groups asked for
                    programs += 1
                    if args.verbose and programs % 100 == 0:
                        print(f'... {programs} programs, {len(failures)} failures, {time.time() - t0:.0f} s',
                              flush=True)
                    for t, dt in times.items():
                        tsum[t] = tsum.get(t, 0) + dt
                        nrun[t] = nrun.get(t, 0) + 1
                    for t, (c, why) in results.items():
                        counts[c] = counts.get(c, 0) + 1
                        per_target.setdefault(t, {}).setdefault(c, 0)
                        per_target[t][c] += 1
                        if c == 'refused':
                            key = f'{t}: {re.sub(r"[0-9]+", "#", re.sub(r" [(]of type .*", "", why))[:120]}'
                            refusals[key] = refusals.get(key, 0) + 1
                        if c in FAIL_CLASSES:
                            known = sorted(set(p.feats) & set(gen.KNOWN + gen.OPEN)) if p else []
                            failures.append((seed, t, c, why, known))
                            if args.verbose:
                                print(f'seed {seed} {t}: {c}: {why.splitlines()[0] if why else ""}'
                                      + (f' [{",".join(known)}]' if known else ''), flush=True)
            skipped = b - a - programs if not args.only else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    dt = time.time() - t0
    print(f'\n{programs} programs in {dt:.0f} s ({programs / max(dt, 1e-9):.2f} programs/s)'
          + (f'; stopped (budget or signal), {skipped} seeds not run' if skipped else ''))
    print('seconds per run: ' + ', '.join(f'{t} {tsum[t] / nrun[t]:.2f}' for t in tsum))
    print('per target: ' + '; '.join(
        f'{t}: ' + ', '.join(f'{c} {n}' for c, n in sorted(cs.items())) for t, cs in per_target.items()))
    print('total: ' + ', '.join(f'{c} {n}' for c, n in sorted(counts.items())))
    if refusals:
        print('refusals:')
        for k, n in sorted(refusals.items(), key=lambda x: -x[1]):
            print(f'  {n:5} {k}')
    if failures:
        print('\nfailures (seed target class: first line) [known-bug groups the program uses]:')
        for seed, t, c, why, known in sorted(failures):
            print(f'  {seed} {t} {c}: {(why.splitlines() or [""])[0][:160]}'
                  + (f' [{",".join(known)}]' if known else ''))
        nk = sum(1 for f in failures if not f[4])
        print(f'{nk} of {len(failures)} failures in programs that use no known-bug group')
        if args.keep:
            print(f'kept in {args.keep}/seedS (repro: sh {args.keep}/seedS/repro.sh [TARGET])')
    nfail = sum(counts.get(c, 0) for c in FAIL_CLASSES)
    npass = sum(n for c, n in counts.items() if c not in FAIL_CLASSES)
    print(f'{npass} passed, {nfail} failed')
    return 1 if nfail else 0


if __name__ == '__main__':
    sys.exit(main())
