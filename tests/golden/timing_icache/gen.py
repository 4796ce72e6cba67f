#!/usr/bin/env python3
# gen.py of timing_icache: writes case.txt into the folder given as argv[1].
import os, struct, sys

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
T = []
T += ['# timing_icache: instruction fetch of straight-line code (fetch_N: N FP32 FMAs per thread,',
      '# 8 independent chains, ~16 N bytes of SASS).  reps 1: every instruction runs once, its code',
      '# cold (Nsight Compute flushes caches before each launch); reps 8: the body runs 8 times.',
      '# Shapes: 1 warp on 1 SM; 4 warps (one per sub-partition) on 1 SM; 4 warps on each of 132 SMs.',
      '# Dynamic PTX thread-instructions: 32..16896 warps x N x reps, ~150 M in all.',
      '# Expected on the H100: cold code costs far more than 1 cycle per FMA; warm loops approach it.',
      'ptx kernel.ptx',
      'buffer out 67584 zero']
def f32(v): return '0x%08x' % struct.unpack('<I', struct.pack('<f', v))[0]
n = 0
for k in ['256', '1k', '4k', '16k']:
    for grid, block, reps in [(1, 32, 1), (1, 128, 1), (132, 128, 1), (1, 32, 8)]:
        T += ['launch fetch_%s grid %d 1 1 block %d 1 1 shared 0' % (k, grid, block),
              'arg ptr out', 'arg f32 ' + f32(0.99995), 'arg f32 ' + f32(0.005), 'arg s32 %d' % reps]
        n += 1
T += ['expect out out.out.bin exact']
open(os.path.join(OUT, 'case.txt'), 'w').write('\n'.join(T) + '\n')
