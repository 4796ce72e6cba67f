#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_stencil (validation set): Jacobi 2D 1024^2 (plain, shared tile), 3D 7-point 128^3
ptx kernel.ptx
buffer a 8388608 zero
buffer b 8388608 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 2097152
launch jacobi2d grid 32 64 1 block 32 16 1 shared 0
arg ptr a
arg ptr b
arg s32 1024
launch jacobi2d grid 32 64 1 block 32 16 1 shared 0
arg ptr b
arg ptr a
arg s32 1024
launch jacobi2d_smem grid 32 64 1 block 32 16 1 shared 0
arg ptr a
arg ptr b
arg s32 1024
launch stencil3d grid 4 16 1 block 32 8 1 shared 0
arg ptr a
arg ptr b
arg s32 128
''')
