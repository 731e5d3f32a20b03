#!/usr/bin/env python3
# npy.py N FILE [SEED] [int|double|raw|rawdouble] [--literal] — a 1-D .npy input for clift (plain
# Python, no NumPy): N pseudo-random ints in [-50, 50] (seeded: reproducible),
# the same as doubles, or (raw) N int32s straight from os.urandom (fast, for
# timing at GPU sizes; sums wrap, as int does in FCL), or (rawdouble) N doubles
# holding random ints in [-128, 127] (fast); --literal: the values
# also printed as clift's literal on stdout.
import array, os, random, struct, sys

literal = '--literal' in sys.argv
sys.argv = [a for a in sys.argv if a != '--literal']
n, path = int(sys.argv[1]), sys.argv[2]
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
kind = sys.argv[4] if len(sys.argv) > 4 else 'int'
if kind == 'raw':
    a = array.array('i')
    a.frombytes(os.urandom(4 * n))
elif kind == 'rawdouble':
    a = array.array('d', array.array('b', os.urandom(n)))
else:
    r = random.Random(seed)
    a = array.array('d' if kind == 'double' else 'i', (r.randint(-50, 50) for _ in range(n)))
if sys.byteorder != 'little':
    a.byteswap()
hdr = "{'descr': '<%s', 'fortran_order': False, 'shape': (%d,), }" % ('f8' if a.typecode == 'd' else 'i4', n)
hdr += ' ' * ((64 - (10 + len(hdr) + 1) % 64) % 64) + '\n'
with open(path, 'wb') as f:
    f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + a.tobytes())
if literal:
    print('[' + ', '.join(repr(x) for x in a) + ']')
