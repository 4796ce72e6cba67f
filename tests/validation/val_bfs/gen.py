#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_bfs (validation set): BFS levels on 256 Ki nodes x 8 edges: top-down sweeps and frontier queues
ptx kernel.ptx
buffer adj 8388608 zero
buffer level 1048576 zero
buffer level2 1048576 zero
buffer flag 64 zero
buffer qa 1048576 zero
buffer qb 1048576 zero
buffer cnt 64 zero
launch init grid 512 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
launch bfs_sweep grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
arg s32 0
arg ptr flag
launch bfs_sweep grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
arg s32 1
arg ptr flag
launch bfs_sweep grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
arg s32 2
arg ptr flag
launch bfs_sweep grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
arg s32 3
arg ptr flag
launch bfs_sweep grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
arg s32 4
arg ptr flag
launch bfs_sweep grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
arg s32 5
arg ptr flag
launch bfs_sweep grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level
arg s32 262144
arg s32 6
arg ptr flag
launch queue_init grid 512 1 1 block 256 1 1 shared 0
arg ptr qa
arg ptr cnt
arg ptr level2
arg s32 262144
launch bfs_queue grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level2
arg ptr qa
arg ptr cnt+0
arg ptr qb
arg ptr cnt+4
arg s32 0
launch bfs_queue grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level2
arg ptr qb
arg ptr cnt+4
arg ptr qa
arg ptr cnt+8
arg s32 1
launch bfs_queue grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level2
arg ptr qa
arg ptr cnt+8
arg ptr qb
arg ptr cnt+12
arg s32 2
launch bfs_queue grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level2
arg ptr qb
arg ptr cnt+12
arg ptr qa
arg ptr cnt+16
arg s32 3
launch bfs_queue grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level2
arg ptr qa
arg ptr cnt+16
arg ptr qb
arg ptr cnt+20
arg s32 4
launch bfs_queue grid 1024 1 1 block 256 1 1 shared 0
arg ptr adj
arg ptr level2
arg ptr qb
arg ptr cnt+20
arg ptr qa
arg ptr cnt+24
arg s32 5
''')
