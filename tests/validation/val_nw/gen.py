#!/usr/bin/env python3
import os, sys
N = 2048
COLS = N + 1
NT = N // 16
BYTES = COLS * COLS * 4
L = ['# val_nw (validation set): Needleman-Wunsch score matrix 2049 x 2049 in 16x16 tiles, one launch per tile anti-diagonal (selection)',
     'ptx kernel.ptx',
     'buffer ref %d zero' % BYTES,
     'buffer score %d zero' % BYTES,
     'launch init grid 264 1 1 block 256 1 1 shared 0',
     'arg ptr ref', 'arg ptr score', 'arg s32 %d' % COLS, 'arg s32 10']
for d in (1, 16, 64, 128):
    L += ['launch nw_upper grid %d 1 1 block 16 1 1 shared 0' % d,
          'arg ptr ref', 'arg ptr score', 'arg s32 %d' % COLS, 'arg s32 10', 'arg s32 %d' % d]
for d in (127, 64, 16, 1):
    L += ['launch nw_lower grid %d 1 1 block 16 1 1 shared 0' % d,
          'arg ptr ref', 'arg ptr score', 'arg s32 %d' % COLS, 'arg s32 10', 'arg s32 %d' % d, 'arg s32 %d' % NT]
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('\n'.join(L) + '\n')
