#!/usr/bin/env python3
import os, struct, sys
def f32(x): return '0x%08x' % struct.unpack('<I', struct.pack('<f', x))[0]
os.makedirs(sys.argv[1], exist_ok=True)
R = C = 1024
N = R * C
RB = 512  # reduction blocks
s = '''# val_srad (validation set): speckle reducing anisotropic diffusion of 1024 x 1024 floats, 3 iterations (reduce, srad1, srad2)
ptx kernel.ptx
buffer J %d zero
buffer C %d zero
buffer dN %d zero
buffer dS %d zero
buffer dW %d zero
buffer dE %d zero
buffer part %d zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr J
arg u32 %d
''' % (4 * N, 4 * N, 4 * N, 4 * N, 4 * N, 4 * N, 8 * RB, N)
for it in range(3):
    s += '''launch reduce grid %d 1 1 block 256 1 1 shared 0
arg ptr J
arg ptr part
arg u32 %d
launch srad1 grid %d %d 1 block 16 16 1 shared 0
arg ptr J
arg ptr C
arg ptr dN
arg ptr dS
arg ptr dW
arg ptr dE
arg s32 %d
arg s32 %d
arg f32 %s
launch srad2 grid %d %d 1 block 16 16 1 shared 0
arg ptr J
arg ptr C
arg ptr dN
arg ptr dS
arg ptr dW
arg ptr dE
arg s32 %d
arg s32 %d
arg f32 %s
''' % (RB, N, C // 16, R // 16, R, C, f32(0.05), C // 16, R // 16, R, C, f32(0.5))
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write(s)
