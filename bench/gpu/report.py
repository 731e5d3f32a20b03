#!/usr/bin/env python3
"""report.py — assemble the clift GPU benchmark's table (bench/gpu/run.sh).

Usage: python3 report.py DIR
Reads DIR/steps.tsv (one row per run.sh step: kind bench target sizes status rc
seconds summary; `meta` rows: key value), DIR/peers.log (`peer NAME SIZE MS`,
`peerfail NAME SIZE reason`) and DIR/jax.log (`jax NAME SIZE MS`, `jaxfail …`,
`jax unavailable`), and writes DIR/performance_gpu.md: one table (benchmark,
size, clift cuda / opencl ms, vendor ms, JAX ms, cuda/vendor, share of the copy
bandwidth), the correctness and sanitizer results, every peer measurement, and
notes saying why a cell is "—". trmv (issue 12 item 9) and the Jacobi
stencil-size sweep jsweep_K (item 10) have sections of their own instead of
rows in the main table: every peer's ratio (cublasStrmv, cublasStpmv, JAX), the
% of copy bandwidth counting N(N+1)/2 + 2N floats, and peeled (`--peel`, the
targets cuda-peel / opencl-peel in steps.tsv) vs unpeeled.
"""
import os
import re
import sys

BENCHES = ["scal", "asum", "dot", "gemv", "sum", "transpose", "jacobi", "sgemm", "filter", "scan", "trmv", "jsweep"]
OWN_SECTION = ("trmv", "jsweep")   # not in the main table: sections of their own
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
    "trmv_strmv_lower": "cublasStrmv, lower, full N×N storage",
    "trmv_strmv_upper": "cublasStrmv, upper, full N×N storage",
    "trmv_stpmv_lower": "cublasStpmv, packed: clift's buffer as column-major upper, op T",
    "trmv_stpmv_upper": "cublasStpmv, packed: clift's buffer as column-major lower, op T",
    "trmv_stpmv_n_lower": "cublasStpmv, lower, column-major packed copy, op N",
    "trmv_stpmv_n_upper": "cublasStpmv, upper, column-major packed copy, op N",
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
        "trmv": (n * (n + 1) // 2 + 2 * n) * 4, "jsweep": 2 * n * m * 4,
    }.get(base(bench))


def order_key(b):
    """benchmarks in BENCHES order, variants after their base, jsweep_3 before jsweep_11"""
    suffix = b.split("_", 1)[1] if "_" in b else ""
    return (BENCHES.index(base(b)) if base(b) in BENCHES else 99, b != base(b), "upper" in b.split("_"),
            int(suffix) if suffix.isdigit() else 0, b)


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
    order.sort(key=order_key)
    def clift_ms(b, tgt, size):
        """the median of a timing step, or None with a note saying why"""
        s = step_for("time", b, tgt, size)
        ms = median_of(s) if s and s["status"] == "ok" else None
        if ms is None:
            if s and s["status"] == "missing":
                note(f"{b}: {s['summary']}")
            else:
                note(f"{b} {pretty_size(b, size)} clift -t {tgt}: " + why(s, "timing").split(": ", 1)[1])
        return ms

    for b in order:
        if base(b) in OWN_SECTION:
            continue
        for size in sizes_by_bench.get(b, []):
            cells = {}
            for tgt in ("cuda", "opencl"):
                cells[tgt] = clift_ms(b, tgt, size)
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
    stepped_peel = {s["bench"] for s in steps if s["target"].endswith("-peel")}
    for b, sfx in [(b, sfx) for b in order if b in stepped for sfx in ("", "-peel")
                   if not sfx or b in stepped_peel]:
        cells = []
        for kind, tgt in (("check", "cuda"), ("check", "opencl"), ("memcheck", "cuda"), ("racecheck", "cuda")):
            tgt += sfx
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
        crow.append([b + (" --peel" if sfx else "")] + cells)

    def peer_ms(name, size, what):
        v = peer.get((name, key(size)))
        if v is None:
            if (name, key(size)) in peer_fail:
                note(f"{what} {pretty_size('trmv', size)} {name}: {peer_fail[(name, key(size))]}")
            elif peers_step is None or peers_step["status"] != "ok":
                note("vendor peers: " + (why(peers_step, "peers").split(": ", 1)[1] if peers_step else "not run"))
            else:
                note(f"{name} {pretty_size('trmv', size)}: no measurement at this size")
        return v

    def jax_ms(name, size):
        j = jax.get((name, key(size)))
        if j is None:
            if (name, key(size)) in jax_fail:
                note(f"{name} {size} JAX: {jax_fail[(name, key(size))]}")
            elif jax_note:
                note("JAX: " + jax_note)
            elif jax_step is None or jax_step["status"] != "ok":
                note("JAX: " + (why(jax_step, "jax").split(": ", 1)[1] if jax_step else "not run"))
            else:
                note(f"{name} {size} JAX: no measurement at this size")
        return j

    def ratio(a, b):
        return f"{a / b:.2f}" if a and b else DASH

    def pct_bw(b, size, ms):
        if not ms or not copy_gbs:
            return DASH
        return f"{bytes_moved(b, size) / (ms * 1e-3) / 1e9 / copy_gbs * 100:.0f}%"

    # trmv (issue 12 item 9): every variant against every peer of its uplo
    trmv_rows, trmv_peer_rows, trmv_best16k = [], [], None
    tvariants = [b for b in order if base(b) == "trmv" and b in sizes_by_bench]
    tsizes = []
    for b in tvariants:
        ul = "upper" if "upper" in b.split("_") else "lower"
        for size in sizes_by_bench[b]:
            if size not in tsizes:
                tsizes.append(size)
            cu, oc = clift_ms(b, "cuda", size), clift_ms(b, "opencl", size)
            st = peer_ms(f"trmv_strmv_{ul}", size, b)
            pt = peer_ms(f"trmv_stpmv_{ul}", size, b)
            pn = peer_ms(f"trmv_stpmv_n_{ul}", size, b)
            pbest = min([x for x in (pt, pn) if x], default=None)
            j = jax_ms("trmv" if ul == "lower" else "trmv_upper", size)
            trmv_rows.append([b, ul, pretty_size(b, size), fmt_ms(cu), fmt_ms(oc), fmt_ms(st), fmt_ms(pt), fmt_ms(pn),
                              fmt_ms(j), ratio(cu, st), ratio(cu, pbest), ratio(cu, j), pct_bw(b, size, cu)])
            if cu and copy_gbs and parse_size(size).get("N") == 16000:
                p = bytes_moved(b, size) / (cu * 1e-3) / 1e9 / copy_gbs * 100
                if trmv_best16k is None or p > trmv_best16k[0]:
                    trmv_best16k = (p, b)
    for ul in ("lower", "upper"):
        for size in tsizes:
            cells = [peer.get((f"trmv_{p}_{ul}", key(size))) for p in ("strmv", "stpmv", "stpmv_n")]
            j = jax.get(("trmv" if ul == "lower" else "trmv_upper", key(size)))
            if any(x is not None for x in cells + [j]):
                trmv_peer_rows.append([ul, pretty_size("trmv", size)] + [pct_bw("trmv", size, x) for x in cells + [j]])

    # the Jacobi stencil-size sweep (issue 12 item 10): peeled vs unpeeled, and JAX
    sweep_rows, speedups = [], []
    for b in [b for b in order if base(b) == "jsweep" and b in sizes_by_bench]:
        k = b.split("_", 1)[1]
        for size in sizes_by_bench[b]:
            cu, cp = clift_ms(b, "cuda", size), clift_ms(b, "cuda-peel", size)
            oc, op = clift_ms(b, "opencl", size), clift_ms(b, "opencl-peel", size)
            j = jax_ms(b, size)
            if cu and cp:
                speedups.append((cu / cp, k))
            sweep_rows.append([f"{k}×{k}", pretty_size(b, size), fmt_ms(cu), fmt_ms(cp), ratio(cu, cp), fmt_ms(oc), fmt_ms(op),
                               ratio(oc, op), fmt_ms(j), ratio(cu, j), ratio(cp, j), pct_bw(b, size, cu), pct_bw(b, size, cp)])

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
    if meta.get("no_gpu", "0") != "0":
        w("")
        w("**NO_GPU=1: a dry run of the plumbing without a GPU — the \"cuda\" columns are `-t openmp`, "
          "no peers, no sanitizers. Not measurements.**")
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
    if trmv_rows:
        w("")
        w("## trmv: triangular matrix × vector, packed input (issue 12 item 9)")
        w("")
        w("clift reads the triangle packed row after row (N(N+1)/2 floats); the programs: trmv (lower, seed 002's "
          "*basic*, Listing 4: a work-item per row), trmv_best (Listing 5: a work-group per row, the row padded "
          "to N, chunks of 16 per work-item, then a tree in local memory), trmv_wrg (a work-group per row, "
          "coalesced strided columns, then a tree in local memory), trmv_upper / trmv_upper_wrg (the same for "
          "an upper triangle). Peers, same uplo: cublasStrmv on full N×N column-major storage; cublasStpmv on "
          "clift's packed row-major buffer read as the column-major packed transpose with op T (\"stpmv T\"), "
          "and on a column-major packed copy with op N (\"stpmv N\"); JAX `t @ v`, t = `jnp.tril(a)` / "
          "`jnp.triu(a)` dense, computed once outside the timing. cuda/stpmv uses the faster of the two stpmv. "
          "\"% copy BW\" counts the N(N+1)/2 + 2N floats that must move (read T and v, write y), for every "
          "column alike (strmv and JAX read more).")
        w("")
        w("| program | uplo | size | clift cuda ms | clift opencl ms | strmv ms | stpmv T ms | stpmv N ms | JAX ms | "
          "cuda/strmv | cuda/stpmv | cuda/JAX | cuda: % copy BW |")
        w("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for r in trmv_rows:
            w("| " + " | ".join(r) + " |")
        w("")
        if trmv_peer_rows:
            w("| peers: uplo | size | strmv: % copy BW | stpmv T: % copy BW | stpmv N: % copy BW | JAX: % copy BW |")
            w("|---|---|--:|--:|--:|--:|")
            for r in trmv_peer_rows:
                w("| " + " | ".join(r) + " |")
            w("")
        w("- Goal (issue 12): ≥ 85% of copy bandwidth at N = 16000. " +
          (f"Best clift cuda program there: **{trmv_best16k[1]}, {trmv_best16k[0]:.0f}%**." if trmv_best16k
           else "Not measured at N = 16000 (see notes)."))
    if sweep_rows:
        w("")
        w("## Jacobi stencil-size sweep: peeled vs unpeeled (issue 12 item 10)")
        w("")
        w("jsweep_K: a K×K box sum over a clamped grid (pad2D #K/2 #K/2, slide2D #K #1, reduceSeq over each "
          "window's join; mapGlb1 × mapGlb, one work-item per point), generated by run.sh. \"unpeeled\": the "
          "program as written; \"peeled\": the same program with `--peel` (the stencil rewrite into a partition "
          "with a case split: prologue, body without boundary checks, epilogue). peeled× = unpeeled ms / peeled "
          "ms (> 1: peeling helps). JAX: `lax.reduce_window(add)` over `jnp.pad(a, K//2, mode=\"edge\")`. "
          "% copy BW counts 8NM bytes (read the grid once, write it once).")
        w("")
        w("| stencil | size | cuda unpeeled ms | cuda peeled ms | cuda peeled× | opencl unpeeled ms | "
          "opencl peeled ms | opencl peeled× | JAX ms | unpeeled/JAX | peeled/JAX | unpeeled: % copy BW | "
          "peeled: % copy BW |")
        w("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for r in sweep_rows:
            w("| " + " | ".join(r) + " |")
        w("")
        if speedups:
            lo, hi = min(speedups), max(speedups)
            w(f"- Goal (issue 12): peeled never slower than unpeeled, ≥ 1.5× at its best size. cuda: peeled× from "
              f"{lo[0]:.2f} ({lo[1]}×{lo[1]}) to **{hi[0]:.2f}** ({hi[1]}×{hi[1]}); "
              f"{'never slower' if lo[0] >= 1.0 else 'SLOWER at ' + ', '.join(k + '×' + k for r, k in speedups if r < 1.0)}.")
        else:
            w("- Goal (issue 12): peeled never slower than unpeeled, ≥ 1.5× at its best size: not measured "
              "(no pair of cuda timings; see notes).")
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
    skipped = [s for s in steps if s["status"] == "skipped" and "out of time" in s["summary"]]
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
