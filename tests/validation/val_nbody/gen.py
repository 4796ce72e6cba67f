#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_nbody (validation set): all-pairs n-body, 2048 bodies, shared-memory tiles and naive
ptx kernel.ptx
buffer p 65536 zero
buffer a 65536 zero
buffer a2 65536 zero
launch init grid 8 1 1 block 256 1 1 shared 0
arg ptr p
arg s32 2048
launch nbody_tiled grid 8 1 1 block 256 1 1 shared 0
arg ptr p
arg ptr a
arg s32 2048
launch nbody_naive grid 16 1 1 block 128 1 1 shared 0
arg ptr p
arg ptr a2
arg s32 2048
expect a a.out.bin f32rel 1e-4
''')
