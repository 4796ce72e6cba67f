#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_rownorm (validation set): softmax and layer norm of 512 x 1024 floats, block per row and warp per row
ptx kernel.ptx
buffer a 2097152 zero
buffer o 2097152 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 524288
launch softmax_block grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg ptr o
arg s32 1024
launch layernorm_warp grid 64 1 1 block 256 1 1 shared 0
arg ptr a
arg ptr o
arg s32 512
launch layernorm_block grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg ptr o
arg s32 1024
''')
