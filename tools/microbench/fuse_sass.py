#!/usr/bin/env python3
"""tools/microbench/fuse_sass.py [PTX ...] - which memory instructions, of
which widths, ptxas makes of PTX: compiles each file (default: the mb_fuse
microbenchmark and the validation set) with `ptxas -arch=sm_90 -O3` and
prints, per kernel, its SASS instruction count and its LDS/STS/LDG/STG by
access width (LDS.128 x10: ten 16-byte shared loads).  This is the evidence
for configs/h100.gpu's fuse_bytes (emu/fuse.c): 4 scalar ld.shared.f32 of
a 16-byte aligned block become one LDS.128.

Needs ptxas (CUDA 12 or 13), no GPU and no disassembler: the cubin is an
ELF file whose .text.<kernel> sections hold 16-byte sm_90 instructions.
Read from the encodings (the same instruction at each width, compared):
bits 0-11 are the opcode (0x984 LDS, 0x988 and 0x388 STS, 0x981 LDG, 0x986
STG, 0x918 NOP) and bits 73-75 the access size (4: 32 bits, 5: 64, 6: 128)."""
import glob
import os
import struct
import subprocess
import sys
import tempfile

OPS = {0x984: 'LDS', 0x988: 'STS', 0x388: 'STS', 0x981: 'LDG', 0x986: 'STG'}
SIZES = {0: 8, 1: 8, 2: 16, 3: 16, 4: 32, 5: 64, 6: 128}
NOP = 0x918


def sections(path):
    """name -> bytes of every section of an ELF64 file"""
    d = open(path, 'rb').read()
    if d[:4] != b'\x7fELF':
        raise SystemExit('%s: not an ELF file' % path)
    shoff = struct.unpack_from('<Q', d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    out = {}
    for s in secs:
        name = d[names + s[0]:d.index(b'\0', names + s[0])].decode()
        out[name] = d[s[4]:s[4] + s[5]]
    return out


def kernels(cubin):
    """(kernel, SASS instructions, {'LDS.128': n, ...}) for each kernel"""
    for name, text in sorted(sections(cubin).items()):
        if not name.startswith('.text.'):
            continue
        n, mem = 0, {}
        for i in range(0, len(text) - 15, 16):
            lo, hi = struct.unpack_from('<QQ', text, i)
            op = lo & 0xfff
            if op != NOP:
                n += 1
            if op in OPS:
                key = '%s.%d' % (OPS[op], SIZES.get((hi >> 9) & 7, 0))
                mem[key] = mem.get(key, 0) + 1
        yield name[len('.text.'):], n, mem


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    files = sys.argv[1:] or ([os.path.join(root, 'tests/microbench/mb_fuse/kernel.ptx')] +
                             sorted(glob.glob(os.path.join(root, 'tests/validation/*/kernel.ptx'))))
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            cubin = os.path.join(tmp, 'k.cubin')
            r = subprocess.run(['ptxas', '-arch=sm_90', '-O3', f, '-o', cubin], capture_output=True, text=True)
            if r.returncode:
                print('%s: ptxas failed: %s' % (f, r.stderr.strip()), file=sys.stderr)
                continue
            print('# %s' % os.path.relpath(f, root))
            for k, n, mem in kernels(cubin):
                print('%-24s %5d  %s' % (k, n, ' '.join('%s x%d' % kv for kv in sorted(mem.items()))))


if __name__ == '__main__':
    main()
