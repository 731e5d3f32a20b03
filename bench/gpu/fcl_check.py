#!/usr/bin/env python3
# fcl_check.py PROGRAM GOT.npy ARGS… — a clift result (clift run -o GOT.npy) of one
# of the FCL case studies (bench/gpu/fcl_2027.sh) against a reference computed
# here from the same inputs: NumPy where it is installed (the GPU machine), plain
# Python otherwise (small sizes only). ARGS are the program's inputs as given to
# clift: integers and .npy files (1-D, int32 or float64).
#   reverse CHUNK XS           XS reversed
#   transpose TILE ROWS COLS XS   the rows x cols matrix transposed
#   reduce XS                  the sum (int32, wrapping)
#   reduce_k16 K XS            the same (bench/gpu/fcl_2027.sh's coarsened reduce)
#   scan XS                    the inclusive prefix sums (int32, wrapping)
#   matmul T HA WA WB A B      A (HA x WA) times B (WA x WB), float64, exact
# Prints "ok NAME N elements" or "FAILED NAME: …"; exit 0 or 1.
import array, ast, struct, sys

try:
    import numpy as np
except ImportError:
    np = None


def read_npy(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:6] != b'\x93NUMPY':
        raise SystemExit('FAILED: %s is no .npy file' % path)
    major = data[6]
    hl = struct.unpack('<H' if major == 1 else '<I', data[8:10] if major == 1 else data[8:12])[0]
    start = (10 if major == 1 else 12) + hl
    hdr = ast.literal_eval(data[(10 if major == 1 else 12):start].decode('latin1'))
    code = {'<i4': 'i', '<f8': 'd', '<i8': 'q'}[hdr['descr']]
    if np is not None:
        return np.frombuffer(data, dtype=np.dtype(hdr['descr']), offset=start)
    a = array.array(code)
    a.frombytes(data[start:])
    return a


def wrap32(x):
    return (x + 2**31) % 2**32 - 2**31


def reference(name, args):
    if name == 'reverse':
        xs = read_npy(args[1])
        return xs[::-1]
    if name == 'transpose':
        rows, cols, xs = int(args[1]), int(args[2]), read_npy(args[3])
        if np is not None:
            return xs.reshape(rows, cols).T.ravel()
        return [xs[r * cols + c] for c in range(cols) for r in range(rows)]
    if name in ('reduce', 'reduce_k16'):
        xs = read_npy(args[-1])
        s = int(np.sum(xs, dtype=np.int64)) if np is not None else sum(xs)
        return [wrap32(s)]
    if name == 'scan':
        xs = read_npy(args[0])
        if np is not None:
            return np.cumsum(xs, dtype=np.int64).astype(np.int32)
        out, s = [], 0
        for x in xs:
            s = wrap32(s + x)
            out.append(s)
        return out
    if name == 'matmul':
        ha, wa, wb = int(args[1]), int(args[2]), int(args[3])
        a, b = read_npy(args[4]), read_npy(args[5])
        if np is not None:
            return (a.reshape(ha, wa) @ b.reshape(wa, wb)).ravel()
        return [sum(a[i * wa + k] * b[k * wb + j] for k in range(wa)) for i in range(ha) for j in range(wb)]
    raise SystemExit('FAILED: unknown program ' + name)


def main():
    name, got_path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    got, want = read_npy(got_path), reference(name, args)
    if len(got) != len(want):
        print('FAILED %s: %d elements, expected %d' % (name, len(got), len(want)))
        return 1
    if np is not None:
        bad = np.nonzero(np.asarray(got) != np.asarray(want))[0]
        nbad, first = len(bad), (int(bad[0]) if len(bad) else -1)
    else:
        diffs = [i for i in range(len(got)) if got[i] != want[i]]
        nbad, first = len(diffs), (diffs[0] if diffs else -1)
    if nbad:
        print('FAILED %s: %d of %d elements differ, first at %d: %r, expected %r'
              % (name, nbad, len(got), first, got[first], want[first]))
        return 1
    print('ok %s %d elements (%s)' % (name, len(got), 'numpy' if np is not None else 'plain Python'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
