#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_knn (validation set): brute-force nearest neighbours: row norms (thread per row of 64 floats, 16 Ki and 64 Ki rows), 32768 points x 256 queries of 16 dims (queries in shared memory)
ptx kernel.ptx
buffer x 16777216 zero
buffer norm 262144 zero
buffer pts 2097152 zero
buffer qry 16384 zero
buffer best 131072 zero
buffer bestd 131072 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr x
arg u32 4194304
arg u32 1
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr pts
arg u32 524288
arg u32 2
launch init grid 16 1 1 block 256 1 1 shared 0
arg ptr qry
arg u32 4096
arg u32 3
launch row_norms grid 128 1 1 block 128 1 1 shared 0
arg ptr x
arg ptr norm
arg s32 16384
arg s32 64
launch row_norms grid 512 1 1 block 128 1 1 shared 0
arg ptr x
arg ptr norm
arg s32 65536
arg s32 64
launch knn_brute grid 256 1 1 block 128 1 1 shared 0
arg ptr pts
arg ptr qry
arg ptr best
arg ptr bestd
arg s32 32768
arg s32 256
''')
