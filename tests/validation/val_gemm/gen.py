#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_gemm (validation set): SGEMM 256^3 with 16x16, 32x32 and 64x64 (4x4 a thread) tiles
ptx kernel.ptx
buffer A 262144 zero
buffer B 262144 zero
buffer C 262144 zero
buffer C2 262144 zero
buffer C3 262144 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr A
arg u32 65536
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr B
arg u32 65536
launch gemm_t16 grid 16 16 1 block 16 16 1 shared 0
arg ptr A
arg ptr B
arg ptr C
arg s32 256
launch gemm_t32 grid 8 8 1 block 32 32 1 shared 0
arg ptr A
arg ptr B
arg ptr C2
arg s32 256
launch gemm_reg4x4 grid 4 4 1 block 256 1 1 shared 0
arg ptr A
arg ptr B
arg ptr C3
arg s32 256
expect C C.out.bin f32rel 1e-5
''')
