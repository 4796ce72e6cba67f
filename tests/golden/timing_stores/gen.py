#!/usr/bin/env python3
# gen.py of timing_stores: writes case.txt into argv[1].
import os, sys
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
t = ['# timing_stores: a transpose taken apart (1024 x 1024 floats, blocks of 256, 4096 blocks).',
     '# launches 0-3: pat_store modes row, col, col_xsm, col_sparse (one 4-byte store per thread);',
     '# launches 4-7: pat_load, the same modes (one 4-byte load, one coalesced store per thread).',
     '# col: 32 sectors per request, the 8 warps of a block complete them (transposeNaiveRow);',
     '# col_xsm: 8 blocks on 8 SMs complete them; col_sparse: each sector touched once.',
     'ptx kernel.ptx',
     'buffer o 33554432 zero',
     'buffer in 33554432 zero',
     'buffer lo 4194304 zero']
for m in range(4):
    t += ['launch pat_store grid 4096 1 1 block 256 1 1 shared 0', 'arg ptr o', 'arg s32 %d' % m]
for m in range(4):
    t += ['launch pat_load grid 4096 1 1 block 256 1 1 shared 0', 'arg ptr in', 'arg ptr lo', 'arg s32 %d' % m]
t += ['expect o o.out.bin exact', 'expect lo lo.out.bin exact']
open(os.path.join(OUT, 'case.txt'), 'w').write('\n'.join(t) + '\n')
