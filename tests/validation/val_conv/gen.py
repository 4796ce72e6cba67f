#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_conv (validation set): 5x5 convolution of 1024 x 1024 floats (direct, shared tile), matrix-vector products of 2048 x 2048 (warp per row, thread per column)
ptx kernel.ptx
buffer img 4194304 zero
buffer w 100 zero
buffer out 4194304 zero
buffer out2 4194304 zero
buffer A 16777216 zero
buffer x 8192 zero
buffer y 8192 zero
buffer y2 8192 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr img
arg u32 1048576
arg u32 1
launch init grid 1 1 1 block 32 1 1 shared 0
arg ptr w
arg u32 25
arg u32 2
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr A
arg u32 4194304
arg u32 3
launch init grid 8 1 1 block 256 1 1 shared 0
arg ptr x
arg u32 2048
arg u32 4
launch conv_direct grid 64 64 1 block 16 16 1 shared 0
arg ptr img
arg ptr w
arg ptr out
arg s32 1024
arg s32 1024
launch conv_tiled grid 64 64 1 block 16 16 1 shared 0
arg ptr img
arg ptr w
arg ptr out2
arg s32 1024
arg s32 1024
launch gemv_warp grid 256 1 1 block 256 1 1 shared 0
arg ptr A
arg ptr x
arg ptr y
arg s32 2048
arg s32 2048
launch gemv_cols grid 16 1 1 block 128 1 1 shared 0
arg ptr A
arg ptr x
arg ptr y2
arg s32 2048
arg s32 2048
''')
