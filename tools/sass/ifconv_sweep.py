#!/usr/bin/env python3
"""tools/sass/ifconv_sweep.py - which short ifs ptxas predicates.

    ifconv_sweep.py [--arch sm_90] [--keep DIR]      (needs nvcc and ptxas)

Writes kernels whose only branch is `if (threadIdx.x > k) { BODY }`, BODY
being 1 to 24 statements of one kind (an integer multiply-add, a float
FMA, or a global store of a value already in a register, each one SASS
instruction), and if/else forms with the FMAs or stores split between
the paths; compiles them (nvcc -ptx -O3, then ptxas) and prints for each
kind and length whether the SASS still branches (a BRA besides the one
that ends every kernel) or ptxas made the body predicated code.  The
timing model's `ifconvert_max_insns` and `ifconvert_else_max_insns`
(configs/h100.gpu) are the longest if and if/else ptxas predicates.  A
last row, written in PTX for ptxas alone (nvcc would fold the sums), has
bodies of 1 to 24 pairs of a mul.wide.u32 and the add.s64 that sums it
(each pair one IMAD.WIDE): ptxas counts a body's SASS instructions after
it has combined such pairs.  Only the standard library besides the two
tools.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import opcodes, options, ptx_opcodes  # noqa: E402 (beside this file)

KINDS = {
    'imad': 'x = x * x + %d;',
    'ffma': 'f = f * fa + %d.0f;',
    'stg': 'o[threadIdx.x + 1024 * %d] = x;',
}
ROWS = list(KINDS) + ['ffma if/else', 'stg if/else']
LENGTHS = range(1, 25)
WIDE_ROW = 'wide pairs'


def wide_kernel(name, n):
    """PTX: if ((tid & 3) == o[1]) sum += o[0] * c (64-bit) n times, pairs of different constants"""
    body = []
    prev = '%rd3'
    for i in range(1, n + 1):
        body.append('  mul.wide.u32 %%rd%d, %%r%d, %d;' % (100 + i, 1 + i % 2, 4 * i + 3))
        body.append('  add.s64 %%rd%d, %s, %%rd%d;' % (200 + i, prev, 100 + i))
        prev = '%%rd%d' % (200 + i)
    return '\n'.join([
        '.visible .entry %s(.param .u64 p)' % name, '{',
        '  .reg .u32 %r<8>;', '  .reg .pred %p;', '  .reg .u64 %rd<300>;',
        '  mov.u32 %r1, %tid.x;', '  ld.param.u64 %rd1, [p];', '  cvta.to.global.u64 %rd2, %rd1;',
        '  ld.global.u32 %r2, [%rd2];', '  ld.global.u32 %r3, [%rd2+4];', '  and.b32 %r4, %r1, 3;',
        '  cvt.u64.u32 %rd3, %r2;', '  setp.ne.s32 %p, %r4, %r3;', '  @%p bra DONE;'] + body + [
        '  mov.u64 %%rd3, %s;' % prev, 'DONE:', '  st.global.u64 [%rd2], %rd3;', '  ret;', '}', ''])


def kernel(name, kind, n):
    if kind.endswith(' if/else'):     # the n statements split between the two paths
        one = KINDS[kind.split()[0]]
        then = ' '.join(one % (i + 1) for i in range((n + 1) // 2))
        other = ' '.join(one % (i + 40) for i in range(n // 2))
        cond = '{ %s } else { %s }' % (then, other)
    else:
        cond = '{ %s }' % ' '.join(KINDS[kind] % (i + 1) for i in range(n))
    return ('extern "C" __global__ void %s(int *o, int k, float fa) { int x = o[threadIdx.x]; float f = fa * 2; '
            'if (threadIdx.x > k) %s o[threadIdx.x] = x + (int)f; }' % (name, cond))


def main():
    arch, tmp = options(__doc__)
    src = os.path.join(tmp, 'ifconv.cu')
    with open(src, 'w') as f:
        for r, kind in enumerate(ROWS):
            for n in LENGTHS:
                f.write(kernel('k%d_%d' % (r, n), kind, n) + '\n')
    ptx, cubin = os.path.join(tmp, 'ifconv.ptx'), os.path.join(tmp, 'ifconv.cubin')
    subprocess.run(['nvcc', '-ptx', '-arch=' + arch, '-O3', src, '-o', ptx], check=True)
    subprocess.run(['ptxas', '-arch=' + arch, ptx, '-o', cubin], check=True)
    ops = opcodes(cubin)
    ops.update(ptx_opcodes(arch, tmp, 'ifconv_wide', [wide_kernel('w_%d' % n, n) for n in LENGTHS]))
    BRA = 0x947
    print('body length:  ' + ' '.join('%3d' % n for n in LENGTHS))
    for r, kind in enumerate(ROWS):
        marks = []
        for n in LENGTHS:
            branches = ops['k%d_%d' % (r, n)].count(BRA) - 1
            marks.append('  B' if branches > 0 else '  p')
        print('%-14s %s' % (kind, ' '.join(marks)))
    print('%-14s %s' % (WIDE_ROW, ' '.join('  B' if ops['w_%d' % n].count(BRA) > 1 else '  p' for n in LENGTHS)))
    print('p: predicated (no branch), B: branch kept')


if __name__ == '__main__':
    main()
