#!/usr/bin/env python3
"""apl_jax.py — the APL benchmark programs of examples/apl/bench (the _gpu sizes of
the thesis's §3.5.6, and HotSpot) written in JAX (jax.jit), the peer of clift's
cuda and opencl targets for issue 13 item 6 (bench/gpu/apl_gpu.sh).

Usage: python3 apl_jax.py PROGRAM [RUNS]     PROGRAM: easter blackscholes sobol_pi sobol_pi_xor life hotspot signal
Prints the program's output lines as `clift run` prints them (ints plain, doubles
%.17g), then `median MS (min MS, max MS) over RUNS runs`: one jitted call per run
after two warm-up calls, each timed to block_until_ready (inputs are generated inside
the function from the program's constants, as the APL programs do). Doubles are
float64 (jax_enable_x64), as APL's. Prints `jax unavailable` (exit 0) when jax cannot
be imported; runs on whatever device JAX has (the CPU too, slowly).
"""
import sys
import time


def programs(jax, jnp):
    lax = jax.lax

    def easter():
        n = 10_000_000
        y = 1 + jnp.arange(n, dtype=jnp.int32) % 3000
        g = 1 + y % 19
        c = 1 + y // 100
        x = (3 * c) // 4 - 12
        z = (5 + 8 * c) // 25 - 5
        d = (5 * y) // 4 - (x + 10)
        e0 = (11 * g + 20 + z - x) % 30
        e = e0 + ((e0 == 24) | ((e0 == 25) & (g > 11))).astype(jnp.int32)
        n0 = 44 - e
        n1 = n0 + 30 * (n0 < 21).astype(jnp.int32)
        return (jnp.sum(n1 + 7 - (d + n1) % 7),)

    def cnd(x):
        l = jnp.abs(x)
        k = 1.0 / (1.0 + 0.2316419 * l)
        poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
        w = 1.0 - (1.0 / jnp.sqrt(2.0 * jnp.pi)) * jnp.exp(-(l * l) / 2.0) * poly
        return jnp.where(x < 0, 1.0 - w, w)

    def blackscholes():
        n = 10_000_000
        s, r, v, t = 100.0, 0.02, 0.3, 0.5
        x = 80.0 + 40.0 * (jnp.arange(n, dtype=jnp.float64) / n)
        d1 = (jnp.log(s / x) + (r + v * v / 2) * t) / (v * jnp.sqrt(t))
        d2 = d1 - v * jnp.sqrt(t)
        c = s * cnd(d1) - x * jnp.exp(-r * t) * cnd(d2)
        return (jnp.sum(c) / n,)

    def sobol_pi():
        """The APL program's own algorithm: X = (I ≠.∧ dirs) +.× 2*-⍳D, the xor of
        an inner product of bit matrices done as an integer matrix product mod 2
        (N × 24 by 24 × 30), then a product with the powers of two."""
        n, b, dbits = 10_000_000, 24, 30
        m1 = [1] * dbits
        m2 = [1, 3, 5, 15, 17, 51, 85, 255, 257, 771, 1285, 3855, 4369, 13107, 21845, 65535, 65537,
              196611, 327685, 983055, 1114129, 3342387, 5570645, 16711935]
        k = jnp.arange(b, dtype=jnp.int32)
        j = jnp.arange(1, dbits + 1, dtype=jnp.int64)

        def dirs(m):   # B × D: the bits of v_k = m_k · 2^(D-k), most significant first
            v = jnp.asarray(m[:b], dtype=jnp.int64) << (dbits - 1 - k).astype(jnp.int64)
            return ((v[:, None] >> (dbits - j)[None, :]) & 1).astype(jnp.int32)

        i = jnp.arange(1, n + 1, dtype=jnp.int32)
        bits = (i[:, None] >> k[None, :]) & 1                 # N × B, least significant first
        w = 2.0 ** -j.astype(jnp.float64)
        x = ((bits @ dirs(m1)) % 2).astype(jnp.float64) @ w
        y = ((bits @ dirs(m2)) % 2).astype(jnp.float64) @ w
        h = jnp.sum((x * x + y * y <= 1.0).astype(jnp.int32))
        return h, 4.0 * h / n

    def sobol_pi_xor():
        """A faster algorithm than the APL program's: per point, the xor of the
        direction numbers of its set bits (24 steps)."""
        n, b, dbits = 10_000_000, 24, 30
        m2 = [1, 3, 5, 15, 17, 51, 85, 255, 257, 771, 1285, 3855, 4369, 13107, 21845, 65535, 65537,
              196611, 327685, 983055, 1114129, 3342387, 5570645, 16711935]
        i = jnp.arange(1, n + 1, dtype=jnp.int32)
        a = jnp.zeros(n, jnp.int32)
        c = jnp.zeros(n, jnp.int32)
        for k in range(b):   # the xor of the direction numbers of i's set bits
            bit = (i >> k) & 1
            a = a ^ (bit * (1 << (dbits - 1 - k)))
            c = c ^ (bit * (m2[k] << (dbits - 1 - k)))
        x = a.astype(jnp.float64) / (1 << dbits)
        y = c.astype(jnp.float64) / (1 << dbits)
        h = jnp.sum((x * x + y * y <= 1.0).astype(jnp.int32))
        return h, 4.0 * h / n

    def life():
        r = c = 1200
        steps = 100
        ii = jnp.arange(1, r + 1, dtype=jnp.int32)[:, None]
        jj = jnp.arange(1, c + 1, dtype=jnp.int32)[None, :]
        g0 = (400 > (31 * ii * ii + 17 * jj * jj + 7 * ii * jj) % 1009).astype(jnp.int32)

        def step(_, g):
            nb = sum(jnp.roll(jnp.roll(g, di, 0), dj, 1) for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj)
            return ((nb == 3) | ((g == 1) & (nb == 2))).astype(jnp.int32)
        g = lax.fori_loop(0, steps, step, g0)
        return jnp.sum(g0), jnp.sum(g)

    def hotspot():
        r = c = 512
        steps = 360
        chip_h, chip_w, t_chip, k_si, spec_heat = 0.016, 0.016, 0.0005, 100.0, 1.75e6
        factor, max_pd, precision, amb = 0.5, 3e6, 0.001, 80.0
        gh, gw = chip_h / r, chip_w / c
        cap = factor * spec_heat * t_chip * gw * gh
        rx = gw / (2 * k_si * t_chip * gh)
        ry = gh / (2 * k_si * t_chip * gw)
        rz = t_chip / (k_si * gh * gw)
        step_ = precision / (max_pd / (factor * t_chip * spec_heat))
        ii = jnp.arange(1, r + 1, dtype=jnp.int32)[:, None]
        jj = jnp.arange(1, c + 1, dtype=jnp.int32)[None, :]
        t0 = 320.0 + 0.25 * ((3 * ii + 7 * jj) % 41).astype(jnp.float64)
        p = 0.01 * ((ii * jj) % 17).astype(jnp.float64)

        def step(_, t):
            tn = jnp.concatenate([t[:1], t[:-1]], 0)
            ts = jnp.concatenate([t[1:], t[-1:]], 0)
            tw = jnp.concatenate([t[:, :1], t[:, :-1]], 1)
            te = jnp.concatenate([t[:, 1:], t[:, -1:]], 1)
            return t + (step_ / cap) * (p + (tn + ts - 2 * t) / ry + (te + tw - 2 * t) / rx + (amb - t) / rz)
        return (jnp.sum(lax.fori_loop(0, steps, step, t0)),)

    def signal():
        n = 50_000_000
        x = (1 + (7 * jnp.arange(1, n + 1, dtype=jnp.int64)) % 97).astype(jnp.float64)
        d = x - jnp.concatenate([jnp.zeros(1, jnp.float64), x[:-1]])
        return (jnp.sum(jnp.maximum(-50.0, jnp.minimum(50.0, 50.0 * d / (0.01 + x)))),)

    return {"easter": easter, "blackscholes": blackscholes, "sobol_pi": sobol_pi, "sobol_pi_xor": sobol_pi_xor,
            "life": life, "hotspot": hotspot, "signal": signal}


def show(v):
    import numpy as np
    v = np.asarray(v)
    return str(int(v)) if np.issubdtype(v.dtype, np.integer) else "%.17g" % float(v)


def main():
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    name, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
    except Exception as e:  # noqa: BLE001
        print(f"jax unavailable ({type(e).__name__})")
        return 0
    table = programs(jax, jnp)
    if name not in table:
        print(f"unknown program {name} (one of {' '.join(table)})", file=sys.stderr)
        return 2
    f = jax.jit(table[name])
    for _ in range(2):
        out = jax.block_until_ready(f())
    ms = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = jax.block_until_ready(f())
        ms.append((time.perf_counter() - t0) * 1e3)
    ms.sort()
    for v in out:
        print(show(v))
    print(f"median {ms[len(ms) // 2]:.4f} ms (min {ms[0]:.4f}, max {ms[-1]:.4f}) over {runs} runs "
          f"on {jax.devices()[0].device_kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
