#!/usr/bin/env python3
import os, sys
N, NF, K, B, PPT = 131072, 34, 5, 256, 4
NB = N // (B * PPT)
os.makedirs(sys.argv[1], exist_ok=True)
s = f'''# val_kmeans (validation set): k-means of {N} points x {NF} features, k = {K}: transpose, assign, partial sums, combine; 3 iterations
ptx kernel.ptx
buffer feat {N * NF * 4} zero
buffer ft {N * NF * 4} zero
'''
for i in range(4): s += f'buffer c{i} {K * NF * 4} zero\n'
for i in range(3): s += f'buffer m{i} {N * 4} zero\n'
s += f'''buffer psum {NB * K * NF * 4} zero
buffer pcount {NB * K * 4} zero
launch init grid 1056 1 1 block 256 1 1 shared 0
arg ptr feat
arg ptr c0
arg u32 {N}
arg u32 {NF}
arg u32 {K}
launch invert_mapping grid {N // B} 1 1 block {B} 1 1 shared 0
arg ptr feat
arg ptr ft
arg s32 {N}
arg s32 {NF}
'''
for it in range(3):
    s += f'''launch kmeans_assign grid {N // B} 1 1 block {B} 1 1 shared 0
arg ptr ft
arg ptr c{it}
arg ptr m{it}
arg s32 {N}
arg s32 {K}
arg s32 {NF}
launch kmeans_partial grid {NB} 1 1 block {B} 1 1 shared 0
arg ptr ft
arg ptr m{it}
arg ptr psum
arg ptr pcount
arg s32 {N}
arg s32 {K}
arg s32 {NF}
arg s32 {PPT}
launch kmeans_combine grid 1 1 1 block 256 1 1 shared 0
arg ptr psum
arg ptr pcount
arg ptr c{it}
arg ptr c{it + 1}
arg s32 {NB}
arg s32 {K}
arg s32 {NF}
'''
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write(s)
