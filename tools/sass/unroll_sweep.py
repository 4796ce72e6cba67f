#!/usr/bin/env python3
"""tools/sass/unroll_sweep.py - which loops ptxas unrolls.

    unroll_sweep.py [--arch sm_90] [--keep DIR]      (needs ptxas)

Writes PTX kernels whose only loop runs a run-time number of trips (a
parameter) over a body of N statements (N = 4 to 48) of one kind, as nvcc
leaves a loop it did not unroll: a dependent FFMA chain, a load and an
FFMA that uses it (a dot product's step), or N/2 steps of a distance (two
loads, FSUB, FFMA), or a shared-memory load and an FFMA; compiles them with ptxas and
prints for each kind and N how many copies of the body the SASS
holds (FFMAs in the SASS over N): 1 where ptxas left the loop as it is.
The timing model's `unroll_max_insns` (configs/h100.gpu) is the largest
body, in SASS instructions with the loop's control, that ptxas unrolls.
Only the standard library besides ptxas.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import options, ptx_opcodes  # noqa: E402 (beside this file)

SIZES = list(range(4, 49, 2))
KINDS = ('ffma', 'ldg+ffma', '2ldg+fsub+ffma', 'lds+ffma')


def kernel(name, kind, n):
    """PTX of a loop of `trips` (a parameter) trips over n statements"""
    if kind == 'ffma':
        body = '  fma.rn.f32 %f1, %f1, %f2, 0f3F800000;\n' * n
    elif kind == 'ldg+ffma':  # a dot product's step: load, multiply-add
        body = ''.join('  ld.global.nc.f32 %%f3, [%%rd1+%d];\n  fma.rn.f32 %%f1, %%f1, %%f3, 0f3F800000;\n' % (4 * j) for j in range(n))
        body += '  add.s64 %%rd1, %%rd1, %d;\n' % (4 * n)
    elif kind == 'lds+ffma':  # the same from shared memory
        body = ''.join('  ld.shared.f32 %%f3, [%%r2+%d];\n  fma.rn.f32 %%f1, %%f1, %%f3, 0f3F800000;\n' % (4 * j) for j in range(n))
    else:                     # a distance's step: two loads, their difference squared and summed (n/2 of them)
        body = ''.join('  ld.global.nc.f32 %%f3, [%%rd1+%d];\n  ld.global.nc.f32 %%f2, [%%rd1+%d];\n  sub.f32 %%f3, %%f3, %%f2;\n'
                       '  fma.rn.f32 %%f1, %%f3, %%f3, %%f1;\n' % (8 * j, 8 * j + 4) for j in range(n // 2))
        body += '  add.s64 %%rd1, %%rd1, %d;\n' % (8 * (n // 2))
    return '''.visible .entry %s(.param .u64 p, .param .u64 o, .param .u32 trips, .param .f32 a)
{
  .reg .pred %%p<2>;
  .reg .b32 %%r<4>;
  .reg .f32 %%f<4>;
  .reg .b64 %%rd<5>;
  ld.param.u64 %%rd1, [p];
  ld.param.u64 %%rd2, [o];
  ld.param.u32 %%r1, [trips];
  ld.param.f32 %%f2, [a];
  cvta.to.global.u64 %%rd1, %%rd1;
  cvta.to.global.u64 %%rd2, %%rd2;
  mov.u32 %%r2, %%tid.x;
  mul.wide.u32 %%rd3, %%r2, 4;
  add.s64 %%rd4, %%rd2, %%rd3;
  ld.global.f32 %%f1, [%%rd4];
  mov.u32 %%r3, 0;
  setp.lt.s32 %%p1, %%r1, 1;
  @%%p1 bra $L_done;
$L_loop:
%s  add.s32 %%r3, %%r3, 1;
  setp.lt.s32 %%p1, %%r3, %%r1;
  @%%p1 bra $L_loop;
$L_done:
  st.global.f32 [%%rd4], %%f1;
  ret;
}
''' % (name, body)


def main():
    arch, tmp = options(__doc__)
    ops = ptx_opcodes(arch, tmp, 'unroll', [kernel('k%d_%d' % (r, n), kind, n) for r, kind in enumerate(KINDS) for n in SIZES])
    FFMA = (0x223, 0x423, 0x823, 0xa23, 0xc23)
    per = {'ffma': 1, 'ldg+ffma': 1, '2ldg+fsub+ffma': 0.5, 'lds+ffma': 1}   # FFMAs a statement
    print('body statements: ' + ' '.join('%3d' % n for n in SIZES))
    for r, kind in enumerate(KINDS):
        copies = []
        for n in SIZES:
            ffma = sum(1 for o in ops['k%d_%d' % (r, n)] if o in FFMA)
            copies.append('%3d' % (ffma // max(1, int(n * per[kind]))))
        print('%-16s %s' % (kind, ' '.join(copies)))
    print('copies of the body in the SASS (1: not unrolled)')


if __name__ == '__main__':
    main()
