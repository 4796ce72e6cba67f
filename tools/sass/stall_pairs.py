#!/usr/bin/env python3
"""tools/sass/stall_pairs.py - the latencies ptxas assumes, read from its
stall counts.

    stall_pairs.py [--min N] FILE.cubin...      (ptxas -arch=sm_90 -o FILE.cubin FILE.ptx)

Every SASS instruction of sm_70 and later carries control bits that ptxas
writes: a stall count (the cycles its warp waits before issuing the next
instruction), a yield bit, a write and a read scoreboard and a mask of
scoreboards to wait on.  An instruction that sets no write scoreboard
gives its result after a fixed latency, which ptxas covers with the stall
counts alone.  For each such writer this prints, per (writer, first reader
of its result in the same straight-line run) pair of opcodes, how many
cycles of stall counts lie between them: the smallest and the most frequent
are the latency ptxas assumes (configs/h100.gpu cites them as [S]).

Opcodes are the encoding's low 12 bits; the names are those of the sm_90
forms the project's kernels use (register, immediate, constant and uniform
operand forms of one instruction share a name); others print in hex.  The
register fields read are the destination (bits 16-23) and the sources
(24-31, 32-39 for register forms, 64-71); a pair is counted only where the
reader names the writer's register there.  --min N (default 15) leaves out
pairs seen fewer times.  Only the standard library; no CUDA toolkit needed
to read the files.
"""
import collections
import signal
import struct
import sys

# low 12 bits of the encoding -> name; the form (0x2.. register, 0x4..
# immediate, 0x8.. constant, 0xc.. uniform register) in the top nibble
NAMES = {
    0x202: 'MOV', 0x207: 'SEL', 0x20b: 'FSETP', 0x20c: 'ISETP', 0x210: 'IADD3', 0x211: 'LEA',
    0x212: 'LOP3', 0x219: 'SHF', 0x220: 'FMUL', 0x221: 'FADD', 0x223: 'FFMA', 0x224: 'IMAD',
    0x225: 'IMAD.WIDE', 0x227: 'IMAD.HI', 0x236: 'VIADD', 0x245: 'I2FP', 0x305: 'F2I', 0x306: 'I2F',
    0x308: 'MUFU', 0x388: 'STS', 0x919: 'S2R', 0x947: 'BRA', 0x94d: 'EXIT', 0x981: 'LDG',
    0x984: 'LDS', 0x986: 'STG', 0x918: 'NOP', 0xb1d: 'BAR', 0xb82: 'LDC',
}
BRANCHES = {0x947, 0x94d}
NO_REGISTER_RESULT = {'ISETP', 'FSETP', 'STG', 'STS', 'BRA', 'EXIT', 'NOP', 'BAR'}   # (a predicate, or nothing, in bits 16-23's place)
WIDE_ADDRESS = {0x981, 0x986}           # LDG, STG: [R.64] reads R and R+1
NO_SCOREBOARD = 7
RZ = 255


def name(op):
    """An opcode's name, its operand form folded (0x2.., 0x4.., 0x8.., 0xc..)."""
    base = 0x200 | (op & 0xff) if op >> 8 in (0x2, 0x4, 0x8, 0xc) else op
    return NAMES.get(op, NAMES.get(base, '%03x' % op))


def text_sections(data):
    """(name, bytes) of each .text.* section of an ELF64 file; ValueError
    for what is not one (every offset and size checked against the file)."""
    if len(data) < 0x40 or data[:4] != b'\x7fELF' or data[4] != 2:
        raise ValueError('not an ELF64 file')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    if shentsize < 0x40 or shstrndx >= shnum or shoff > len(data) or shnum * shentsize > len(data) - shoff:
        raise ValueError('a damaged ELF file (its section headers)')
    heads = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
    for _nm, _typ, _flags, _addr, off, size in heads:
        if _typ != 8 and (off > len(data) or size > len(data) - off):    # (8: SHT_NOBITS, no bytes in the file)
            raise ValueError('a damaged ELF file (a section outside it)')
    strtab, strsize = heads[shstrndx][4], heads[shstrndx][5]
    for nm, _typ, _flags, _addr, off, size in heads:
        end = data.find(b'\0', strtab + nm, strtab + strsize)
        if nm >= strsize or end < 0:
            raise ValueError('a damaged ELF file (a section name)')
        if data[strtab + nm:end].startswith(b'.text.'):
            yield data[strtab + nm:end].decode('ascii', 'replace'), data[off:off + size]


def decode(code):
    """Each 16-byte instruction: opcode, registers, stall count, write scoreboard."""
    out = []
    for k in range(len(code) // 16):
        lo, hi = struct.unpack_from('<QQ', code, 16 * k)
        op = lo & 0xfff
        srcs = {(lo >> 24) & 0xff, hi & 0xff}
        if op >> 8 == 0x2:                  # register form: the B operand is a register
            srcs.add((lo >> 32) & 0xff)
        if op in WIDE_ADDRESS:
            srcs.add(((lo >> 24) & 0xff) + 1)
        out.append({'op': op, 'rd': (lo >> 16) & 0xff, 'srcs': srcs,
                    'stall': (hi >> 41) & 0xf, 'wbar': (hi >> 46) & 7})
    return out


def pairs_of(insns, counts):
    for i, w in enumerate(insns):
        if w['wbar'] != NO_SCOREBOARD or w['rd'] == RZ or name(w['op']) in NO_REGISTER_RESULT:
            continue
        wide = name(w['op']) == 'IMAD.WIDE'
        dist = 0
        for j in range(i + 1, min(len(insns), i + 64)):
            dist += insns[j - 1]['stall']
            r = insns[j]
            if r['op'] in BRANCHES:
                break
            if w['rd'] in r['srcs'] or (wide and w['rd'] + 1 in r['srcs']):
                counts[(name(w['op']), name(r['op']))][dist] += 1
                break
            if r['rd'] == w['rd']:
                break


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # (a reader that stops early: no traceback)
    least = 15
    if len(argv) > 2 and argv[1] == '--min':
        least = int(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    counts = collections.defaultdict(collections.Counter)
    for path in argv[1:]:
        try:
            with open(path, 'rb') as f:
                data = f.read()
            for _label, code in text_sections(data):
                pairs_of(decode(code), counts)
        except (OSError, ValueError, IndexError, struct.error) as err:
            print('%s: %s' % (path, err), file=sys.stderr)
            return 66
    print('%-10s %-10s %6s %5s %5s  %s' % ('writer', 'reader', 'pairs', 'least', 'most', 'cycles:pairs'))
    for key in sorted(counts, key=lambda k: -sum(counts[k].values())):
        c = counts[key]
        n = sum(c.values())
        if n < least:
            continue
        common = max(sorted(c), key=lambda d: c[d])
        print('%-10s %-10s %6d %5d %5d  %s' % (key[0], key[1], n, min(c), common,
                                               ' '.join('%d:%d' % (d, c[d]) for d in sorted(c)[:8])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
