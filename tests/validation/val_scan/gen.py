#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_scan (validation set): prefix sums of 1 Mi ints (Blelloch in shared memory, warp shuffles)
ptx kernel.ptx
buffer a 4194304 zero
buffer o 4194304 zero
buffer o2 4194304 zero
buffer s 16384 zero
buffer s2 16384 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 1048576
launch scan_blelloch grid 1024 1 1 block 512 1 1 shared 0
arg ptr a
arg ptr o
arg ptr s
launch add_sums grid 1024 1 1 block 256 1 1 shared 0
arg ptr o
arg ptr s
arg s32 1024
launch scan_shfl grid 4096 1 1 block 256 1 1 shared 0
arg ptr a
arg ptr o2
arg ptr s2
''')
