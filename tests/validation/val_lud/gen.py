#!/usr/bin/env python3
import os, sys
N, BS = 1024, 16
os.makedirs(sys.argv[1], exist_ok=True)
s = '''# val_lud (validation set): blocked LU (block 16) of a 1024 x 1024 float matrix, diagonal/perimeter/internal kernels for steps 0, 1, 32 and 62
ptx kernel.ptx
buffer m %d zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr m
arg u32 %d
''' % (N * N * 4, N)
def step(k, diag=True):
    global s
    off = k * BS
    r = (N - off) // BS - 1
    if diag:
        s += 'launch lud_diagonal grid 1 1 1 block %d 1 1 shared 0\narg ptr m\narg s32 %d\narg s32 %d\n' % (BS, N, off)
    s += 'launch lud_perimeter grid %d 1 1 block %d 1 1 shared 0\narg ptr m\narg s32 %d\narg s32 %d\n' % (r, 2 * BS, N, off)
    s += 'launch lud_internal grid %d %d 1 block %d %d 1 shared 0\narg ptr m\narg s32 %d\narg s32 %d\n' % (r, r, BS, BS, N, off)
step(0); step(1); step(32)
step(62, diag=False)  # 12 launches at most: the diagonal kernel of step 62 is left out (same work as the others)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write(s)
