#!/usr/bin/env python3
import os, sys
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
t = ['# timing_stores2: transposeNaiveRow\'s column stores (1024 x 1024 floats) paced, from few SMs,',
     '# and from one warp per tile.',
     '# launches 0-2: col_paced, 4096 blocks x 256, spin 0 / 64 / 256 dependent steps before the store;',
     '# launches 3-5: col_loop, 8 / 33 / 132 blocks x 256 walking the 4096 tiles;',
     '# launch 6: col_1warp, 4096 blocks x 32, 8 stores a thread.',
     'ptx kernel.ptx',
     'buffer o 4194304 zero']
for s in (0, 64, 256):
    t += ['launch col_paced grid 4096 1 1 block 256 1 1 shared 0', 'arg ptr o', 'arg s32 %d' % s]
for b in (8, 33, 132):
    t += ['launch col_loop grid %d 1 1 block 256 1 1 shared 0' % b, 'arg ptr o']
t += ['launch col_1warp grid 4096 1 1 block 32 1 1 shared 0', 'arg ptr o']
t += ['expect o o.out.bin exact']
open(os.path.join(OUT, 'case.txt'), 'w').write('\n'.join(t) + '\n')
