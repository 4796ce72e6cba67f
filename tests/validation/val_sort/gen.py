#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_sort (validation set): bitonic sort of 256 Ki keys (shared-memory blocks, global merge steps)
ptx kernel.ptx
buffer a 1048576 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
launch sort_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 4096
arg u32 2048
launch merge_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
arg u32 4096
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 8192
arg u32 4096
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 8192
arg u32 2048
launch merge_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
arg u32 8192
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 16384
arg u32 8192
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 16384
arg u32 4096
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 16384
arg u32 2048
launch merge_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
arg u32 16384
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 32768
arg u32 16384
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 32768
arg u32 8192
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 32768
arg u32 4096
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 32768
arg u32 2048
launch merge_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
arg u32 32768
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 65536
arg u32 32768
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 65536
arg u32 16384
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 65536
arg u32 8192
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 65536
arg u32 4096
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 65536
arg u32 2048
launch merge_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
arg u32 65536
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 131072
arg u32 65536
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 131072
arg u32 32768
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 131072
arg u32 16384
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 131072
arg u32 8192
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 131072
arg u32 4096
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 131072
arg u32 2048
launch merge_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
arg u32 131072
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
arg u32 131072
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
arg u32 65536
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
arg u32 32768
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
arg u32 16384
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
arg u32 8192
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
arg u32 4096
launch merge_global grid 512 1 1 block 256 1 1 shared 0
arg ptr a
arg u32 262144
arg u32 2048
launch merge_block grid 128 1 1 block 1024 1 1 shared 0
arg ptr a
arg u32 262144
''')
