#!/usr/bin/env python3
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write('''# val_spmv (validation set): slotted-CSR SpMV, 16384 rows, 4..35 non-zeros a row; scalar and vector kernels
ptx kernel.ptx
buffer len 65536 zero
buffer col 2359296 zero
buffer val 2359296 zero
buffer x 65536 zero
buffer y 65536 zero
buffer y2 65536 zero
launch init grid 64 1 1 block 256 1 1 shared 0
arg ptr len
arg ptr col
arg ptr val
arg ptr x
arg s32 16384
launch spmv_scalar grid 64 1 1 block 256 1 1 shared 0
arg ptr len
arg ptr col
arg ptr val
arg ptr x
arg ptr y
arg s32 16384
launch spmv_vector grid 2048 1 1 block 256 1 1 shared 0
arg ptr len
arg ptr col
arg ptr val
arg ptr x
arg ptr y2
arg s32 16384
expect y y.out.bin f32rel 1e-5
''')
