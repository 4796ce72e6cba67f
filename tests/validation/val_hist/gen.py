#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_hist (validation set): 256-bin histograms of 4 Mi bytes, global and shared atomics, uniform and skewed
ptx kernel.ptx
buffer w 4194304 zero
buffer bins 4096 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr w
arg u32 1048576
arg u32 0
launch hist_global grid 264 1 1 block 256 1 1 shared 0
arg ptr w
arg u32 1048576
arg ptr bins
launch hist_shared grid 264 1 1 block 256 1 1 shared 0
arg ptr w
arg u32 1048576
arg ptr bins+1024
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr w
arg u32 1048576
arg u32 1
launch hist_global grid 264 1 1 block 256 1 1 shared 0
arg ptr w
arg u32 1048576
arg ptr bins+2048
launch hist_shared grid 264 1 1 block 256 1 1 shared 0
arg ptr w
arg u32 1048576
arg ptr bins+3072
expect bins bins.out.bin exact
''')
