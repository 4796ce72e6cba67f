#!/usr/bin/env python3
import os, sys
ROWS, COLS, PYR, BLOCK = 101, 262144, 20, 256
owned = BLOCK - 2 * PYR
grid = (COLS + owned - 1) // owned
L = ['# val_pathfinder (validation set): min-path DP down a 101 x 256 Ki int grid, 256-thread pyramid blocks, 20 rows per launch',
     'ptx kernel.ptx',
     'buffer wall %d zero' % (ROWS * COLS * 4),
     'buffer r0 %d zero' % (COLS * 4),
     'buffer r1 %d zero' % (COLS * 4),
     'launch init grid 1056 1 1 block 256 1 1 shared 0',
     'arg ptr wall', 'arg ptr r0', 'arg u32 %d' % (ROWS * COLS), 'arg u32 %d' % COLS]
src, dst = 'r0', 'r1'
for t in range(0, ROWS - 1, PYR):
    L += ['launch pathfinder grid %d 1 1 block %d 1 1 shared 0' % (grid, BLOCK),
          'arg s32 %d' % min(PYR, ROWS - 1 - t), 'arg ptr wall', 'arg ptr ' + src, 'arg ptr ' + dst,
          'arg s32 %d' % COLS, 'arg s32 %d' % t, 'arg s32 %d' % PYR]
    src, dst = dst, src
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('\n'.join(L) + '\n')
