#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_attention (validation set): attention over 256 x 64 floats, block per query and K/V tiles with online softmax
ptx kernel.ptx
buffer Q 65536 zero
buffer K 65536 zero
buffer V 65536 zero
buffer O 65536 zero
buffer O2 65536 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr Q
arg u32 16384
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr K
arg u32 16384
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr V
arg u32 16384
launch attn_row grid 256 1 1 block 128 1 1 shared 0
arg ptr Q
arg ptr K
arg ptr V
arg ptr O
arg s32 256
launch attn_tiled grid 32 1 1 block 256 1 1 shared 0
arg ptr Q
arg ptr K
arg ptr V
arg ptr O2
arg s32 256
expect O O.out.bin f32rel 1e-4
''')
