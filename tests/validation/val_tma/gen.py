#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_tma (validation set): bulk copies (TMA) in pipelined kernels: a producer warp and a 4-stage ring, load-transform-store through bulk groups, bulk reductions
ptx kernel.ptx
buffer in 67108864 zero
buffer sums 2048 zero
buffer outp 67108864 zero
buffer tot 65536 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr in
arg u32 16777216
launch tma_pipe_sum grid 132 1 1 block 128 1 1 shared 0
arg ptr in
arg ptr sums
arg s32 64
launch tma_pipe_sum grid 264 1 1 block 128 1 1 shared 0
arg ptr in
arg ptr sums
arg s32 32
launch tma_transform grid 264 1 1 block 256 1 1 shared 0
arg ptr in
arg ptr outp
arg s32 16
launch tma_reduce grid 264 1 1 block 128 1 1 shared 0
arg ptr in
arg ptr tot
arg s32 8
arg s32 16
expect sums sums.out.bin exact
expect tot tot.out.bin exact
''')
