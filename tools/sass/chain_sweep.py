#!/usr/bin/env python3
"""tools/sass/chain_sweep.py - which steps of a chain through one register
ptxas combines.

    chain_sweep.py [--arch sm_90] [--keep DIR]      (needs ptxas)

Writes PTX kernels of 32 pairs of statements that each read and write
one register again (r1 = r1 OP a; r1 = r1 OP b), as inline asm or
hand-written PTX leaves a chain (nvcc's own PTX writes each value once):
two xors, two adds, a multiply and an add (by registers, by constants)
and a shift and an add; compiles them with ptxas and prints, for each
kind, the SASS instructions the chain's pairs became (the opcode that
does them, counted).  32 of them: each pair is one instruction (LOP3,
IMAD, LEA), as emu/combine.c's chain steps have it.  The operands a and
b come from adds of a parameter, which ptxas folds into a chain of adds
as well (sm_90: 64 IADD3 for the chain's 64 adds and their operands'
64, three inputs each).  Only the standard library besides ptxas.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import options, ptx_opcodes  # noqa: E402 (beside this file)
from stall_pairs import name  # noqa: E402

PAIRS = 32
KINDS = {   # kind: (first statement, second statement, the opcode that does a pair)
    'xor+xor': ('xor.b32 %r1, %r1, %r{a};', 'xor.b32 %r1, %r1, %r{b};', 'LOP3'),
    'add+add': ('add.u32 %r1, %r1, %r{a};', 'add.u32 %r1, %r1, %r{b};', 'IADD3'),
    'mul+add': ('mul.lo.u32 %r1, %r1, %r{a};', 'add.u32 %r1, %r1, %r{b};', 'IMAD'),
    'mul+add (constants)': ('mul.lo.u32 %r1, %r1, 5;', 'add.u32 %r1, %r1, -427464860;', 'IMAD'),
    'shl+add': ('shl.b32 %r1, %r1, 3;', 'add.u32 %r1, %r1, %r{b};', 'LEA'),
}


def kernel(fn, first, second):
    """PTX of PAIRS chain steps in pairs, each in its own inline-asm block"""
    body = ''.join('  add.u32 %%r%d, %%r2, %d;\n' % (k, k) for k in range(3, 3 + 2 * PAIRS))
    for i in range(PAIRS):
        a, b = 3 + 2 * i, 4 + 2 * i
        body += '  { ' + first.format(a=a, b=b) + ' ' + second.format(a=a, b=b) + ' }\n'
    return '''.visible .entry %s(.param .u64 o, .param .u32 s)
{
  .reg .b32 %%r<%d>;
  .reg .b64 %%rd<3>;
  ld.param.u32 %%r2, [s];
  mov.u32 %%r1, %%tid.x;
%s  ld.param.u64 %%rd1, [o];
  cvta.to.global.u64 %%rd2, %%rd1;
  st.global.u32 [%%rd2], %%r1;
  ret;
}
''' % (fn, 4 + 2 * PAIRS, body)


def main():
    arch, tmp = options(__doc__)
    ops = ptx_opcodes(arch, tmp, 'chain', [kernel('chain%d' % k, first, second) for k, (first, second, _) in enumerate(KINDS.values())])
    print('%d pairs of chain steps a kernel' % PAIRS)
    for k, (kind, (_, _, op)) in enumerate(KINDS.items()):
        n = collections.Counter(name(o) for o in ops['chain%d' % k])
        print('%-20s %-6s %3d   (all: %s)' % (kind, op, n[op], ', '.join('%s %d' % c for c in n.most_common(5))))


if __name__ == '__main__':
    main()
