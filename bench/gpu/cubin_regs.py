#!/usr/bin/env python3
"""cubin_regs.py FILE.cubin [KERNEL] — the registers of each kernel of a CUDA
cubin (or of KERNEL), read from its .nv.info section (the EIATTR_REGCOUNT
attribute: symbol index, count), without cuobjdump or a GPU."""
import struct
import sys

EIATTR_REGCOUNT = 0x2F


def registers(path):
    d = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]

    def cstr(off):
        return d[off:d.index(b"\0", off)].decode()

    names = [cstr(secs[shstrndx][4] + s[0]) for s in secs]
    symtab = secs[names.index(".symtab")]
    strtab = secs[names.index(".strtab")]

    def symbol(i):
        return cstr(strtab[4] + struct.unpack_from("<I", d, symtab[4] + i * 24)[0])

    out = {}
    for s, name in zip(secs, names):
        if name != ".nv.info":
            continue
        o, end = s[4], s[4] + s[5]
        while o < end:
            fmt, attr = d[o], d[o + 1]
            if fmt == 4:   # EIFMT_SVAL: a 16-bit size, then the value
                size = struct.unpack_from("<H", d, o + 2)[0]
                if attr == EIATTR_REGCOUNT:
                    sym, count = struct.unpack_from("<II", d, o + 4)
                    out[symbol(sym)] = count
                o += 4 + size
            else:   # EIFMT_NVAL, EIFMT_HVAL: 4 bytes in all
                o += 4
    return out


if __name__ == "__main__":
    regs = registers(sys.argv[1])
    if len(sys.argv) > 2:
        print(regs.get(sys.argv[2], "?"))
    else:
        print(" ".join(f"{k}={v}" for k, v in sorted(regs.items())))
