#!/usr/bin/env python3
"""jax_peers.py — the clift GPU benchmarks written in JAX (jax.jit), as a second peer.

Usage: python3 jax_peers.py [small] [BENCH…]   (BENCH…: only those benchmarks, by base name)
Prints two lines per measurement:  jaxcall NAME SIZE MEDIAN_MS (one call, then
block_until_ready: includes JAX's dispatch) and  jax NAME SIZE MEDIAN_MS (the median
over batches of BATCH calls issued back to back with one block_until_ready at the
end, per call: dispatch overlaps the previous call's device work; the report's number)
(a failed check: jaxfail NAME SIZE reason), or `jax unavailable` (exit 0) when jax
cannot be imported or sees no GPU. Each benchmark: fresh random inputs uniform in
[-1, 1), the result checked once against NumPy in float64, then warm-up runs and
RUNS timed runs, each `f(*args).block_until_ready()` between two perf_counter reads,
then RUNS more calls in batches. Matrix products use
precision=HIGHEST (true fp32, no tf32), like cublasSgemm's default math mode.
filter / filter_1pct (keep x > 0 or x > 0.98, times 2): jnp.nonzero(mask, size=N)
then a gather and the product, under jit, returning the N-element padded result and
the count (JAX has no dynamic-length array: the tail past the count is x[0] * 2);
scan: jnp.cumsum (float32 in, float32 out), checked exactly on ±1 inputs first.
trmv / trmv_upper (names of the lower and upper peers): `t @ v` with
t = jnp.tril(a) / jnp.triu(a) of a dense N x N `a`, computed once on the device
outside the timing (JAX has no packed triangular type: it reads all N² floats).
jsweep_K (K = 3, 5, …, 17): the K x K box sum with clamped boundaries,
lax.reduce_window(add) over jnp.pad(a, K//2, mode="edge"), checked against
float64 window sums (an integral image) relative to the window's sum of |x|.
"""
import os
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

RUNS = int(os.environ.get("JAX_PEERS_RUNS", "100"))
WARMUP = 5
BATCH = 10


def main():
    args = sys.argv[1:]
    small = "small" in args
    only = {a for a in args if a != "small"}

    def want(b):
        return not only or b in only
    try:
        import numpy as np
        import jax
        import jax.numpy as jnp
        devs = jax.devices()
    except Exception as e:  # noqa: BLE001
        print(f"jax unavailable ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
        return 0
    if not small and devs[0].platform != "gpu":
        print(f"jax unavailable (no GPU: devices {devs})")
        return 0
    print(f"# jax {jax.__version__} on {devs[0].device_kind} ({devs[0].platform})", file=sys.stderr)
    rng = np.random.default_rng()
    HI = jax.lax.Precision.HIGHEST
    failures = 0

    def rand(*shape):
        return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)

    def ready(o):  # block_until_ready on an array or a tuple of them
        for leaf in (o if isinstance(o, tuple) else (o,)):
            leaf.block_until_ready()
        return o

    def timed(name, size, f, args, check):
        timed_dev(name, size, f, [jax.device_put(a) for a in args], check)

    def timed_dev(name, size, f, dargs, check):
        nonlocal failures
        try:
            out = ready(f(*dargs))
            err, tol = check(tuple(np.asarray(o) for o in out) if isinstance(out, tuple) else np.asarray(out))
        except Exception as e:  # noqa: BLE001
            print(f"jaxfail {name} {size} {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)
            failures += 1
            return
        if not (err <= tol):
            print(f"jaxfail {name} {size} check error {err:.3g} > tolerance {tol:.3g}", flush=True)
            failures += 1
            return
        print(f"check {name} {size} ok (error {err:.3g}, tolerance {tol:.3g})", file=sys.stderr)
        for _ in range(WARMUP):
            ready(f(*dargs))
        ms = []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            ready(f(*dargs))
            ms.append((time.perf_counter() - t0) * 1e3)
        ms.sort()
        # per call: dispatch + device work + the wait, as a caller sees one call
        print(f"jaxcall {name} {size} {ms[len(ms) // 2]:.5f}", flush=True)
        # pipelined: BATCH calls back to back, one wait; the dispatch of the next call
        # overlaps the device work of the previous one (closer to the device time)
        bt = []
        for _ in range(max(RUNS // BATCH, 10)):
            t0 = time.perf_counter()
            outs = [f(*dargs) for _ in range(BATCH)]
            ready(outs[-1])
            bt.append((time.perf_counter() - t0) * 1e3 / BATCH)
            del outs
        bt.sort()
        print(f"jax {name} {size} {bt[len(bt) // 2]:.5f}", flush=True)
        del dargs, out

    def rel_sum(got, terms):  # error of a sum relative to sum |terms|
        return abs(float(got) - terms.sum()) / np.abs(terms).sum(), 1e-5

    def rel_elem(got, want, floor=1e-6, tol=1e-6):
        return float(np.max(np.abs(got.astype(np.float64) - want) / np.maximum(np.abs(want), floor))), tol

    scal = jax.jit(lambda a, x: a * x)
    asum = jax.jit(lambda x: jnp.sum(jnp.abs(x)))
    dot = jax.jit(lambda x, y: jnp.dot(x, y, precision=HI))
    gemv = jax.jit(lambda a, x: jnp.dot(a, x, precision=HI))
    vsum = jax.jit(jnp.sum)
    transpose = jax.jit(lambda a: a.T)

    @jax.jit
    def jacobi(a):
        p = jnp.pad(a, 1, mode="edge")  # clamped boundaries, like pad2D clamp
        return 0.2 * (p[1:-1, 1:-1] + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:])

    sgemm = jax.jit(lambda a, b: jnp.matmul(a, b, precision=HI))

    V1, V2 = (1 << 16, 1 << 18) if small else (1 << 24, 1 << 27)
    G1, G2 = (256, 512) if small else (4096, 8192)

    for n in ((V1, V2) if want("scal") else ()):
        x = rand(n)
        a = np.float32(rng.uniform(0.5, 1.5))
        timed("scal", f"N={n}", scal, [a, x], lambda g: rel_elem(g, np.float64(a) * x))
    for n in ((V1, V2) if want("asum") else ()):
        x = rand(n)
        timed("asum", f"N={n}", asum, [x], lambda g: rel_sum(g, np.abs(x.astype(np.float64))))
    for n in ((V1, V2) if want("dot") else ()):
        x, y = rand(n), rand(n)
        timed("dot", f"N={n}", dot, [x, y], lambda g: rel_sum(g, x.astype(np.float64) * y))
        del x, y
    for g_ in ((G1, G2) if want("gemv") else ()):
        A, x = rand(g_, g_), rand(g_)

        def chk(g, A=A, x=x):
            prod = A.astype(np.float64) * x  # row r: terms A[r, c] x[c]
            return float(np.max(np.abs(g - prod.sum(1)) / np.abs(prod).sum(1))), 1e-5
        timed("gemv", f"N={g_},M={g_}", gemv, [A, x], chk)
        del A
    if want("sum"):
        x = rand(V2)
        timed("sum", f"N={V2}", vsum, [x], lambda g: rel_sum(g, x.astype(np.float64)))
        del x
    if want("transpose"):
        A = rand(G2, G2)
        timed("transpose", f"N={G2},M={G2}", transpose, [A], lambda g: (float(np.any(g != A.T)), 0.0))
        del A
    A = rand(G1, G1)

    def jchk(g):
        p = np.pad(A.astype(np.float64), 1, mode="edge")
        want = 0.2 * (p[1:-1, 1:-1] + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:])
        q = np.abs(p)  # error relative to the sum of |terms| (the sum may cancel)
        mag = 0.2 * (q[1:-1, 1:-1] + q[:-2, 1:-1] + q[2:, 1:-1] + q[1:-1, :-2] + q[1:-1, 2:])
        return float(np.max(np.abs(g - want) / mag)), 1e-5
    if want("jacobi"):
        timed("jacobi", f"N={G1},M={G1}", jacobi, [A], jchk)
    B = rand(G1, G1)

    def schk(g):
        rows = rng.integers(0, G1, 64)
        a64, b64 = A[rows].astype(np.float64), B.astype(np.float64)
        want, mag = a64 @ b64, np.abs(a64) @ np.abs(b64)
        return float(np.max(np.abs(g[rows] - want) / mag)), 1e-5
    if want("sgemm"):
        timed("sgemm", f"N={G1}", sgemm, [A, B], schk)
    del A, B

    def make_filter(t):
        @jax.jit
        def filt(x):
            mask = x > t
            idx = jnp.nonzero(mask, size=x.shape[0], fill_value=0)[0]
            return x[idx] * 2.0, jnp.sum(mask, dtype=jnp.int32)
        return filt

    for name, t in ((("filter", 0.0), ("filter_1pct", 0.98)) if want("filter") else ()):
        filt = make_filter(np.float32(t))
        for n in (V1, V2):
            x = rand(n)

            def fchk(g, x=x, t=t):
                vals, count = g
                want = x[x > np.float32(t)] * np.float32(2.0)  # exact in float32
                if int(count) != want.size:
                    return 1.0, 0.0
                return float(np.count_nonzero(vals[:want.size] != want)), 0.0
            timed(name, f"N={n}", filt, [x], fchk)
            del x
    if want("scan"):
        cumsum = jax.jit(jnp.cumsum)
        pm = np.where(rng.integers(0, 2, V2) == 1, 1.0, -1.0).astype(np.float32)
        try:  # exact first: every partial sum of ±1 is a small integer, any order gives it exactly
            g = np.asarray(cumsum(jax.device_put(pm)))
            bad = int(np.count_nonzero(g != np.cumsum(pm.astype(np.int64)).astype(np.float32)))
        except Exception as e:  # noqa: BLE001
            bad, why = -1, f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
        del pm
        if bad:
            print(f"jaxfail scan N={V2} " + (why if bad < 0 else f"{bad} prefix sums of ±1 wrong"), flush=True)
            failures += 1
        else:
            x = rand(V2)

            def cchk(g):  # max |got - want| over max(1, max |want|): see peers.cu bench_scan
                want = np.cumsum(x.astype(np.float64))
                return float(np.max(np.abs(g - want)) / max(1.0, float(np.max(np.abs(want))))), 1e-4
            timed("scan", f"N={V2}", cumsum, [x], cchk)
            del x

    # trmv: dense tril/triu computed once on the device, outside the timing
    trmv = jax.jit(lambda t, v: jnp.dot(t, v, precision=HI))
    TS = (256, 1024) if small else (1024, 4096, 8192, 16000)   # run.sh full_sizes trmv
    for n in (TS if want("trmv") else ()):
        for name, tri in (("trmv", jnp.tril), ("trmv_upper", jnp.triu)):
            a = rand(n, n)
            v = rand(n)
            lower = name == "trmv"
            try:
                t = jax.jit(tri)(jax.device_put(a))
                t.block_until_ready()
            except Exception as e:  # noqa: BLE001
                print(f"jaxfail {name} N={n} {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)
                failures += 1
                continue

            def tchk(g, a=a, v=v, lower=lower):
                err = 0.0
                for r0 in range(0, a.shape[0], 1024):   # row blocks: float64 copies stay small
                    blk = a[r0:r0 + 1024].astype(np.float64)
                    rows = np.arange(r0, r0 + blk.shape[0])[:, None]
                    cols = np.arange(a.shape[1])[None, :]
                    prod = np.where(cols <= rows if lower else cols >= rows, blk, 0.0) * v
                    e = np.abs(g[r0:r0 + blk.shape[0]] - prod.sum(1)) / np.maximum(np.abs(prod).sum(1), 1e-30)
                    err = max(err, float(np.max(e)))
                return err, 1e-5
            del a
            timed_dev(name, f"N={n}", trmv, [t, v], tchk)
            del t

    # jsweep_K: K x K box sums with clamped boundaries (bench/gpu/run.sh generates jsweep_K.lift)
    def make_box(k):
        h = k // 2

        @jax.jit
        def box(a):
            p = jnp.pad(a, h, mode="edge")
            return jax.lax.reduce_window(p, np.float32(0.0), jax.lax.add, (k, k), (1, 1), "VALID")
        return box

    def box_ref(x, k):  # float64 window sums through an integral image
        h = k // 2
        p = np.pad(x, h, mode="edge")
        s = np.zeros((p.shape[0] + 1, p.shape[1] + 1))
        s[1:, 1:] = p.cumsum(0).cumsum(1)
        return s[k:, k:] - s[:-k, k:] - s[k:, :-k] + s[:-k, :-k]

    SG = 512 if small else 4096   # run.sh full_sizes jsweep (G1; SMALL: 512)
    for k in ((3, 5, 7, 9, 11, 13, 15, 17) if want("jsweep") else ()):
        A = rand(SG, SG)

        def bchk(g, A=A, k=k):
            a64 = A.astype(np.float64)
            want_, mag = box_ref(a64, k), box_ref(np.abs(a64), k)
            return float(np.max(np.abs(g - want_) / np.maximum(mag, 1e-30))), 1e-5
        timed(f"jsweep_{k}", f"N={SG},M={SG}", make_box(k), [A], bchk)
        del A
    print(f"# jax_peers: {failures} failure(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
