#!/usr/bin/env python3
"""report.py — assemble the clift GPU benchmark's table (bench/gpu/run.sh).

Usage: python3 report.py DIR
Reads DIR/steps.tsv (one row per run.sh step: kind bench target sizes status rc
seconds summary; `meta` rows: key value), DIR/peers.log (`peer NAME SIZE MS`,
`peerfail NAME SIZE reason`) and DIR/jax.log (`jax NAME SIZE MS`, `jaxfail …`,
`jax unavailable`), and writes DIR/performance_gpu.md: one table (benchmark,
size, clift cuda / opencl ms, vendor ms, JAX ms, cuda/vendor, share of the copy
bandwidth), the correctness and sanitizer results, every peer measurement, and
notes saying why a cell is "—".
"""
import os
import re
import sys

BENCHES = ["scal", "asum", "dot", "gemv", "sum", "transpose", "jacobi", "sgemm", "filter", "scan"]
VENDOR = {
    "scal": "cublasSscal", "asum": "cublasSasum", "dot": "cublasSdot", "gemv": "cublasSgemv",
    "sum": "cub::DeviceReduce::Sum", "transpose": "cublasSgeam (T)", "jacobi": "hand CUDA",
    "sgemm": "cublasSgemm", "filter": "cub::DeviceSelect::If", "scan": "cub::DeviceScan::InclusiveSum",
}
# the expected share of the uniform [-1, 1) inputs a filter keeps (x > 0; x > 0.98)
KEPT = {"filter": 0.5, "filter_1pct": 0.01}
PEER_DESC = {
    "copy_kernel": "copy kernel (float4, grid-stride)", "memcpy_d2d": "cudaMemcpy device to device",
    "transpose_copy": "copy of the matrix (the transpose's bound)", "transpose_naive": "naive transpose kernel",
    "transpose_tiled": "tiled transpose (32×32 shared tile)",
}
DASH = "—"


def base(bench):
    """sgemm_naive -> sgemm: a variant program shares its base benchmark's peers and sizes"""
    return bench.split("_", 1)[0]


def parse_size(s):
    """'N=4096,M=4096' -> {'N': 4096, 'M': 4096}; '-' -> {}"""
    out = {}
    for part in re.split(r"[ ,]+", s.strip()):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k] = int(v)
    return out


def key(size):  # order-free: matrices here are square, N/M conventions may differ
    d = parse_size(size) if isinstance(size, str) else size
    return tuple(sorted(d.items()))


def pretty_size(bench, size):
    d = parse_size(size)
    n = d.get("N", 0)
    if base(bench) == "sgemm":
        return f"{n}×{n}×{n}"
    if "M" in d:
        return f"{n}×{d['M']}"
    if n and n & (n - 1) == 0:
        return f"N=2^{n.bit_length() - 1}"
    return f"N={n}"


def bytes_moved(bench, size):
    """the fewest bytes the benchmark must move through device memory"""
    d = parse_size(size)
    n, m = d.get("N", 0), d.get("M", d.get("N", 0))
    if base(bench) == "filter":  # read N, write the K kept (the expected K: KEPT)
        return int(4 * n * (1 + KEPT.get(bench, KEPT["filter"])))
    return {
        "scal": 2 * n * 4, "asum": n * 4, "dot": 2 * n * 4, "sum": n * 4,
        "gemv": (n * m + n + m) * 4, "transpose": 2 * n * m * 4, "jacobi": 2 * n * m * 4,
        "sgemm": 3 * n * n * 4, "scan": 2 * n * 4,
    }.get(base(bench))


def peer_name(bench, names):
    """the peer a row compares with: the variant's own (filter_1pct computes
    something else than filter: never filter's) where the log has one, else its
    base's (sgemm_naive computes what sgemm does)"""
    return bench if bench in names or bench in KEPT else base(bench)


def flops(bench, size):
    n = parse_size(size).get("N", 0)
    return 2.0 * n ** 3 if base(bench) == "sgemm" else None


def fmt_ms(x):
    if x is None:
        return DASH
    return f"{x:.4f}" if x < 10 else f"{x:.2f}"


def read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    d = sys.argv[1]
    meta, steps = {}, []
    for line in read_lines(os.path.join(d, "steps.tsv")):
        f = line.split("\t")
        if f[0] == "meta" and len(f) >= 3:
            meta[f[1]] = f[2]
        elif len(f) >= 8:
            steps.append(dict(kind=f[0], bench=f[1], target=f[2], size=f[3], status=f[4], rc=f[5],
                              secs=f[6], summary="\t".join(f[7:])))

    # peers and jax
    peer, peer_fail, jax, jax_fail, jax_note = {}, {}, {}, {}, None
    peer_order = []
    for line in read_lines(os.path.join(d, "peers.log")):
        f = line.split()
        if len(f) == 4 and f[0] == "peer":
            try:
                peer[(f[1], key(f[2]))] = float(f[3])
                peer_order.append((f[1], f[2]))
            except ValueError:
                pass
        elif len(f) >= 3 and f[0] == "peerfail":
            peer_fail[(f[1], key(f[2]))] = " ".join(f[3:])
    for line in read_lines(os.path.join(d, "jax.log")):
        f = line.split()
        if len(f) == 4 and f[0] == "jax":
            try:
                jax[(f[1], key(f[2]))] = float(f[3])
            except ValueError:
                pass
        elif len(f) >= 3 and f[0] == "jaxfail":
            jax_fail[(f[1], key(f[2]))] = " ".join(f[3:])
        elif line.startswith("jax unavailable"):
            jax_note = line
    peer_names = {name for name, _ in list(peer) + list(peer_fail)}
    jax_names = {name for name, _ in list(jax) + list(jax_fail)}
    peers_step = next((s for s in steps if s["kind"] == "peers"), None)
    jax_step = next((s for s in steps if s["kind"] == "jax"), None)

    # copy bandwidth: the best of the copy kernel and cudaMemcpy at the largest size
    copy_gbs, copy_what = None, None
    for (name, k), ms in peer.items():
        if name in ("copy_kernel", "memcpy_d2d"):
            n = dict(k).get("N", 0)
            gbs = 2 * n * 4 / (ms * 1e-3) / 1e9
            if copy_gbs is None or (n, gbs) > copy_what[1:]:
                copy_gbs, copy_what = gbs, (name, n, gbs)
    # the best at the largest size
    if copy_what:
        nmax = copy_what[1]
        best = max(((2 * nmax * 4 / (ms * 1e-3) / 1e9, name) for (name, k), ms in peer.items()
                    if name in ("copy_kernel", "memcpy_d2d") and dict(k).get("N") == nmax), default=None)
        if best:
            copy_gbs, copy_what = best[0], (best[1], nmax, best[0])

    notes = {}   # reason -> [what, …] (grouped: one line per distinct reason)

    def note(s):
        what, _, reason = s.partition(": ")
        if not reason:
            what, reason = "", s
        whats = notes.setdefault(reason, [])
        if what and what not in whats:
            whats.append(what)

    def step_for(kind, bench, target, size=None):
        for s in steps:
            if s["kind"] == kind and s["bench"] == bench and s["target"] == target and \
                    (size is None or key(s["size"]) == key(size)):
                return s
        return None

    def median_of(s):
        m = re.search(r"median ([0-9.eE+-]+) ms", s["summary"]) if s else None
        return float(m.group(1)) if m else None

    def why(s, what):
        if s is None:
            return f"{what}: not run"
        return f"{what}: {s['status']}: {s['summary']}" if s["status"] != "missing" else \
            f"{what}: {s['summary']}"

    # the main table
    rows = []
    sizes_by_bench = {}
    for s in steps:
        if s["kind"] == "time":
            sizes_by_bench.setdefault(s["bench"], [])
            if s["size"] not in sizes_by_bench[s["bench"]]:
                sizes_by_bench[s["bench"]].append(s["size"])
    order = BENCHES + sorted(set(sizes_by_bench) - set(BENCHES))
    order.sort(key=lambda b: (BENCHES.index(base(b)) if base(b) in BENCHES else 99, b))
    for b in order:
        for size in sizes_by_bench.get(b, []):
            cells = {}
            for tgt in ("cuda", "opencl"):
                s = step_for("time", b, tgt, size)
                ms = median_of(s) if s and s["status"] == "ok" else None
                if ms is None:
                    if s and s["status"] == "missing":
                        note(f"{b}: {s['summary']}")
                    else:
                        note(f"{b} {pretty_size(b, size)} clift -t {tgt}: " + why(s, "timing").split(": ", 1)[1])
                cells[tgt] = ms
            k = key(size)
            pb = peer_name(b, peer_names)
            v = peer.get((pb, k))
            if v is None:
                if (pb, k) in peer_fail:
                    note(f"{b} {pretty_size(b, size)} vendor peer: {peer_fail[(pb, k)]}")
                elif peers_step is None or peers_step["status"] != "ok":
                    note("vendor peers: " + (why(peers_step, "peers").split(": ", 1)[1] if peers_step else "not run"))
                else:
                    note(f"{b} {pretty_size(b, size)} vendor peer: no measurement at this size")
            jb = peer_name(b, jax_names)
            j = jax.get((jb, k))
            if j is None:
                if (jb, k) in jax_fail:
                    note(f"{b} {pretty_size(b, size)} JAX: {jax_fail[(jb, k)]}")
                elif jax_note:
                    note("JAX: " + jax_note)
                elif jax_step is None or jax_step["status"] != "ok":
                    note("JAX: " + (why(jax_step, "jax").split(": ", 1)[1] if jax_step else "not run"))
                else:
                    note(f"{b} {pretty_size(b, size)} JAX: no measurement at this size")
            cu = cells["cuda"]
            ratio = f"{cu / v:.2f}" if cu and v else DASH
            fl = flops(b, size)

            def eff(ms):
                if not ms:
                    return DASH
                if fl:
                    return f"{fl / (ms * 1e-3) / 1e12:.1f} TFLOP/s"
                if copy_gbs:
                    return f"{bytes_moved(b, size) / (ms * 1e-3) / 1e9 / copy_gbs * 100:.0f}%"
                return DASH
            rows.append([b, pretty_size(b, size), fmt_ms(cu), fmt_ms(cells["opencl"]),
                         f"{fmt_ms(v)}" + (f" ({VENDOR.get(base(pb), '')})" if v is not None else ""),
                         fmt_ms(j), ratio, eff(cu), eff(v)])

    # correctness and sanitizers
    crow = []
    stepped = {s["bench"] for s in steps}
    for b in [b for b in order if b in stepped]:
        cells = []
        for kind, tgt in (("check", "cuda"), ("check", "opencl"), ("memcheck", "cuda"), ("racecheck", "cuda")):
            s = step_for(kind, b, tgt)
            if s is None:
                cells.append(DASH)
                continue
            sz = pretty_size(b, s["size"])
            if s["status"] == "ok":
                cells.append(f"ok ({sz})")
            elif s["status"] == "missing":
                cells.append(DASH)
                note(f"{b}: {s['summary']}")
            elif s["status"] == "skipped":
                cells.append(DASH)
                note(f"{b} {kind} -t {tgt}: {s['summary']}")
            else:
                cells.append(f"**{s['status'].upper()}** ({sz})")
                note(f"{b} {kind} -t {tgt} {sz}: {s['status']}: {s['summary']}")
        crow.append([b] + cells)

    out = []
    w = out.append
    w("# GPU performance: clift `cuda` and `opencl` targets vs vendor libraries and JAX")
    w("")
    w(f"Date {meta.get('date', '?')}; GPU `{meta.get('gpu') or '?'}`, driver {meta.get('driver') or '?'}, "
      f"{meta.get('cuda') or 'CUDA ?'}, nvcc {meta.get('nvcc') or '?'}; host {meta.get('host', '?')}; "
      f"clift at commit {meta.get('commit', '?')}.")
    w("")
    w(f"Command: `{meta.get('command', 'bash bench/gpu/run.sh')}` (bench/gpu/run.sh; raw logs beside this file: "
      "steps.tsv, clift.log, sanitizer.log, peers.log, jax.log, build.log).")
    if meta.get("small", "0") != "0":
        w("")
        w("**SMALL=1: reduced sizes, a dry run of the pipeline — not the benchmark's sizes.**")
    w("")
    w("| benchmark | size | clift cuda ms | clift opencl ms | vendor ms | JAX ms | cuda/vendor | "
      "cuda: % copy BW | vendor: % copy BW |")
    w("|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        w("| " + " | ".join(r) + " |")
    w("")
    runs = meta.get("runs", "50")
    w(f"- Times are medians: clift `bench --runs {runs}` (one warm-up, fresh random inputs in [-1, 1), "
      "device work only, no compilation or input transfer); vendor peers (bench/gpu/peers.cu) and JAX "
      "(bench/gpu/jax_peers.py, `jax.jit`, precision HIGHEST) over 100 runs after 5 warm-ups (sgemm: 50). "
      "The JAX column is per call over batches of 10 calls issued back to back with one "
      "`block_until_ready` (dispatch overlaps device work); one call with its own `block_until_ready` "
      "costs more at small sizes (jax.log, `jaxcall` lines). Each peer checks its result against a "
      "CPU float64 reference first.")
    if copy_gbs:
        w(f"- Copy bandwidth: **{copy_gbs:.0f} GB/s** ({PEER_DESC.get(copy_what[0], copy_what[0])}, "
          f"{copy_what[1] * 4 / 2**20:.0f} MiB, counting bytes read + written). \"% copy BW\" = "
          "(the fewest bytes the benchmark must move / time) / copy bandwidth: scal 8N, asum 4N, dot 8N, "
          "sum 4N, gemv 4(NM+N+M), transpose and jacobi 8NM, scan 8N, filter 4N + 4K bytes (K kept: N/2 for "
          "filter, N/100 for filter_1pct, the expected counts). sgemm shows TFLOP/s (2N³ flops) instead.")
    else:
        w("- Copy bandwidth: not measured (peers did not run), so no \"% copy BW\".")
    w("- cuda/vendor < 1 means clift is faster. Vendor for jacobi is a hand-written CUDA kernel "
      "(one thread per point, clamped indices); for transpose, cublasSgeam with op T.")
    if any(base(r[0]) in ("filter", "scan") for r in rows):
        w("- filter (keep x > 0: half the inputs; filter_1pct: x > 0.98, 1%; then × 2): clift's result is "
          "a dynamic-length {∃X.[float]X} (the kept elements and the count); the vendor peer is "
          "cub::DeviceSelect::If writing through a transform_output_iterator (× 2) with the count in "
          "device memory; JAX (no dynamic lengths) is `jnp.nonzero(mask, size=N)`, a gather and × 2, "
          "writing N elements. scan: inclusive prefix sum of floats, vendor "
          "cub::DeviceScan::InclusiveSum, JAX `jnp.cumsum`; their checks: exact on ±1 inputs, then "
          "max |error| / max |prefix sum| ≤ 1e-4 on the timed inputs against float64.")
    w("")
    w("## Correctness and sanitizers (clift, small sizes)")
    w("")
    w("`check`: `clift bench --check` against the reference interpreter on fresh random inputs; "
      "`memcheck` / `racecheck`: `compute-sanitizer --tool … --error-exitcode 3` on "
      "`clift bench -t cuda --runs 1`.")
    w("")
    w("| benchmark | check cuda | check opencl | memcheck | racecheck |")
    w("|---|---|---|---|---|")
    for r in crow:
        w("| " + " | ".join(r) + " |")
    w("")
    w("## Every peer measurement")
    w("")
    if peer_order:
        w("| peer | size | ms | GB/s (bytes the operation must move) |")
        w("|---|---|--:|--:|")
        for name, size in peer_order:
            ms = peer[(name, key(size))]
            b = "transpose" if name.startswith("transpose") else name
            if name in ("copy_kernel", "memcpy_d2d"):
                nbytes = 2 * parse_size(size)["N"] * 4
            else:
                nbytes = bytes_moved(b, size)
            gbs = f"{nbytes / (ms * 1e-3) / 1e9:.0f}" if nbytes and name != "sgemm" else (
                f"{flops('sgemm', size) / (ms * 1e-3) / 1e12:.1f} TFLOP/s" if name == "sgemm" else DASH)
            desc = PEER_DESC.get(name, VENDOR.get(name, VENDOR.get(base(name), name)))
            w(f"| {name} ({desc}) | {pretty_size(b, size)} | {fmt_ms(ms)} | {gbs} |")
    else:
        w("none (see notes)")
    for (name, k), why_ in peer_fail.items():
        if name not in BENCHES and name not in sizes_by_bench:  # the benchmarks' own peers are noted with their rows
            note(f"peer {name} {dict(k)}: {why_}")
    w("")
    w("## Notes")
    w("")
    for k in ("opencl_loader", "opencl_icd", "build_error"):
        if k in meta:
            note(f"{k.replace('_', ' ')}: {meta[k]}")
    skipped = [s for s in steps if s["status"] == "skipped"]
    if skipped:
        note(f"{len(skipped)} step(s) skipped for lack of time (budget): " +
             ", ".join(f"{s['kind']} {s['bench']} {s['target']}" for s in skipped))
    if not notes:
        w("- none: every cell was measured.")
    for reason, whats in notes.items():
        w(f"- {'; '.join(whats) + ': ' if whats else ''}{reason}")
    text = "\n".join(out) + "\n"
    with open(os.path.join(d, "performance_gpu.md"), "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
