#!/usr/bin/env python3
"""sass_path.py — how many SASS instructions one CUDA thread executes, without a GPU
(issue 12 item 10: the peeled stencil's instructions per interior element).
Follows the thread through a `cuobjdump -sass` listing, executing the integer
instructions that steer its branches (IMAD, IADD3, VIMNMX, ISETP, SEL, …) on
concrete values; loads give unknown values, and a branch on an unknown
predicate stops it with an error. The kernel's parameters are clift's for a
2-D program with sizes N and M: out at 0x210, one input at 0x218, N at 0x220,
M at 0x228 (cuda_print.c's order; see the .cubin's parameter offsets).
Usage: sass_path.py FILE.sass KERNEL tid.x tid.y ctaid.x ctaid.y bdim.x bdim.y grid.x grid.y N M [-v]
  e.g. clift compile -t cuda --print --peel j3.lift > j3.cu
       nvcc -arch=sm_90 -cubin -DCLIFT_INDEX=int -o j3.cubin j3.cu    (the runtime's 32-bit indices)
       cuobjdump -sass j3.cubin > j3.sass    (cuobjdump: CUDA toolkit, or pip nvidia-cuda-cuobjdump)
       python3 bench/gpu/sass_path.py j3.sass k0 5 5 3 3 16 16 256 256 4096 4096
-v prints the path."""
import re, sys
f, kname = sys.argv[1], sys.argv[2]
tx, ty, cx, cy, bx, by, gx, gy, N, M = map(int, sys.argv[3:13])
verbose = '-v' in sys.argv
text = open(f).read()
# the kernel's section
m = re.search(r'Function : ' + re.escape(kname) + r'\n(.*?)(?:\n\s*\.{5,}|\Z)', text, re.S)
body = m.group(1) if m else text
ins = {}
order = []
for line in body.split('\n'):
    mm = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
    if mm:
        a = int(mm.group(1), 16); ins[a] = mm.group(2).strip(); order.append(a)
const = {0x0: bx, 0x4: by, 0x8: 1, 0xc: gx, 0x10: gy, 0x14: 1, 0x28: 0, 0x210: 0x10000000, 0x214: 0, 0x218: 0x20000000,
         0x21c: 0, 0x220: N, 0x224: 0, 0x228: M, 0x22c: 0, 0x230: 0x30000000, 0x234: 0, 0x208: 0, 0x20c: 0}
R = {}; P = {'PT': True}
def s32(v): v &= 0xffffffff; return v - (1 << 32) if v >= 1 << 31 else v
def val(tok):
    tok = tok.strip()
    neg = False
    if tok.startswith('-'): neg = True; tok = tok[1:]
    tok = tok.replace('.reuse', '')
    if tok in ('RZ', 'URZ'): v = 0
    elif re.match(r'^U?R\d+$', tok): v = R.get(tok)
    elif tok.startswith('0x') or re.match(r'^\d+$', tok): v = int(tok, 0)
    elif tok.startswith('c[0x0]['):
        o = tok[7:-1]; v = const.get(int(o, 16), None) if o != 'RZ' else const[0]
    else: v = None
    if v is None: return None
    return -v if neg else v
def pred(tok):
    tok = tok.strip(); n = tok.startswith('!'); t = tok.lstrip('!')
    v = P.get(t)
    if v is None: return None
    return (not v) if n else v
def setreg(d, v):
    d = d.replace('.reuse', '')
    if d in ('RZ', 'URZ'): return
    R[d] = None if v is None else s32(v)
def cmp(op, a, b):
    return {'LT': a < b, 'LE': a <= b, 'GT': a > b, 'GE': a >= b, 'EQ': a == b, 'NE': a != b}[op]
pc = order[0]; count = 0; stack_bssy = []
while True:
    count += 1
    if count > 100000: sys.exit('runaway')
    s = ins[pc]
    g = None
    mm = re.match(r'@(!?U?P\w+)\s+(.*)', s)
    if mm: g, s = mm.group(1), mm.group(2)
    parts = s.split(None, 1); op = parts[0]; args = [x.strip().replace('.reuse', '') for x in parts[1].split(',')] if len(parts) > 1 else []
    nxt = order[order.index(pc) + 1] if order.index(pc) + 1 < len(order) else None
    if verbose: print(f'{pc:05x} {ins[pc]}')
    if g is not None:
        gv = pred(g)
        if gv is None: sys.exit(f'unknown guard at {pc:x}: {ins[pc]}')
        if not gv: pc = nxt; continue
    base = op.split('.')[0]
    if base == 'EXIT': break
    if base == 'BRA':
        if len(args) > 1:
            pv = pred(args[0])
            if pv is None: sys.exit(f'unknown branch predicate at {pc:x}')
            if not pv: pc = nxt; continue
        pc = int(args[-1], 16); continue
    if base in ('BSSY', 'BSYNC', 'NOP', 'STG', 'ST', 'BAR', 'MEMBAR', 'DEPBAR', 'CCTL', 'WARPSYNC', 'RED', 'ATOM'): pc = nxt; continue
    d = args[0] if args else None
    try:
        if base in ('LDC', 'ULDC'):
            v = val(args[1]); setreg(d, v)
            if op.endswith('.64'):
                n = int(re.sub(r'\D', '', d)) + 1; pre = 'UR' if d.startswith('UR') else 'R'
                o = int(args[1][7:-1], 16) + 4; setreg(f'{pre}{n}', const.get(o))
        elif base in ('S2R', 'S2UR'):
            sr = args[1]
            setreg(d, {'SR_TID.X': tx, 'SR_TID.Y': ty, 'SR_CTAID.X': cx, 'SR_CTAID.Y': cy}.get(sr))
        elif base in ('MOV', 'UMOV', 'IMAD.MOV'):
            setreg(d, val(args[1]) if base != 'IMAD.MOV' else val(args[-1]))
        elif op.startswith('IMAD.MOV') or op.startswith('IMAD.IADD'):
            if op.startswith('IMAD.MOV'): setreg(d, val(args[3]) if len(args) > 3 else None)
            else: a, b = val(args[1]), val(args[2]); setreg(d, None if None in (a, b) else a + b)
        elif op.startswith('IMAD.WIDE') or op.startswith('IMAD.HI') or op.startswith('IMAD.X') or op.startswith('IMAD.SHL') or op.startswith('IMAD.U32'):
            if op.startswith('IMAD.SHL'):
                a, b = val(args[1]), val(args[2]); setreg(d, None if None in (a, b) else a * b)
            else:
                setreg(d, None)
                if op.startswith('IMAD.WIDE'): setreg('R' + str(int(d[1:].replace('.reuse','')) + 1) if d.startswith('R') and d != 'RZ' else 'RZ', None)
        elif base in ('IMAD', 'UIMAD'):
            a, b, c = val(args[1]), val(args[2]), val(args[3]); setreg(d, None if None in (a, b, c) else a * b + c)
        elif base in ('IADD3', 'UIADD3'):
            if '.X' in op: setreg(d, None)
            else:
                # IADD3 R, P?, a, b, c
                vals = [val(a) for a in args[1:] if re.match(r'^-?(U?R\w+|0x[0-9a-f]+|\d+|c\[.*\]|URZ|RZ)$', a)]
                setreg(d, None if None in vals else sum(vals))
        elif base in ('VIMNMX', 'UIMNMX', 'IMNMX'):
            a, b = val(args[1]), val(args[2]); p = pred(args[3])
            setreg(d, None if None in (a, b, p) else (min(a, b) if p else max(a, b)))
        elif base == 'VIADDMNMX':
            a, b, c = val(args[1]), val(args[2]), val(args[3]); p = pred(args[4])
            setreg(d, None if None in (a, b, c, p) else (min(a + b, c) if p else max(a + b, c)))
        elif base in ('ISETP', 'UISETP'):
            c = op.split('.')[1]; comb = op.split('.')[-1]
            a, b = val(args[2]), val(args[3]); p2 = pred(args[4])
            if '.U32' in op and a is not None and b is not None: a &= 0xffffffff; b &= 0xffffffff
            r = None if None in (a, b, p2) else cmp(c, a, b)
            if r is not None: r = (r and p2) if comb == 'AND' else (r or p2) if comb == 'OR' else (r != p2)
            if args[0] != 'PT': P[args[0]] = r
            if args[1] != 'PT': P[args[1]] = None if r is None else None  # second result rarely used
        elif base in ('SEL', 'USEL'):
            a, b, p = val(args[1]), val(args[2]), pred(args[3]); setreg(d, None if None in (a, b, p) else (a if p else b))
        elif base == 'HFMA2':
            import struct
            try:
                hi = struct.unpack('<H', struct.pack('<e', float(args[-2])))[0]; lo = struct.unpack('<H', struct.pack('<e', float(args[-1])))[0]
                setreg(d, (hi << 16) | lo if args[1] in ('-RZ', 'RZ') and args[2] == 'RZ' else None)
            except Exception: setreg(d, None)
        elif base in ('LEA', 'ULEA'):
            if '.HI' in op: setreg(d, None)
            else:
                a, b, sh = val(args[1]), val(args[2]), val(args[3]); setreg(d, None if None in (a, b, sh) else (a << sh) + b)
        elif base in ('SHF', 'USHF'):
            setreg(d, None)
        else:
            if d and re.match(r'^U?R\d+', d): setreg(d, None)
            elif d and re.match(r'^U?P\d', d): P[d] = None
    except Exception as e:
        sys.exit(f'at {pc:x} {ins[pc]}: {e}')
    pc = nxt
print(count)
