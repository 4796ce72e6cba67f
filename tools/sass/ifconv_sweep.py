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
(configs/h100.gpu) are the longest if and if/else ptxas predicates.  Only
the standard library besides the two tools.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import opcodes, options  # noqa: E402 (beside this file)

KINDS = {
    'imad': 'x = x * x + %d;',
    'ffma': 'f = f * fa + %d.0f;',
    'stg': 'o[threadIdx.x + 1024 * %d] = x;',
}
ROWS = list(KINDS) + ['ffma if/else', 'stg if/else']
LENGTHS = range(1, 25)


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
    BRA = 0x947
    print('body length:  ' + ' '.join('%3d' % n for n in LENGTHS))
    for r, kind in enumerate(ROWS):
        marks = []
        for n in LENGTHS:
            branches = ops['k%d_%d' % (r, n)].count(BRA) - 1
            marks.append('  B' if branches > 0 else '  p')
        print('%-14s %s' % (kind, ' '.join(marks)))
    print('p: predicated (no branch), B: branch kept')


if __name__ == '__main__':
    main()
