#!/usr/bin/env python3
import os, struct, sys
def f32(x): return '0x%08x' % struct.unpack('<I', struct.pack('<f', x))[0]
os.makedirs(sys.argv[1], exist_ok=True)
R = C = 1024
N = R * C
# chip parameters of the classic benchmark
MAX_PD, PRECISION, SPEC_HEAT_SI, K_SI, FACTOR_CHIP = 3.0e6, 0.001, 1.75e6, 100.0, 0.5
t_chip, chip_h, chip_w, amb = 0.0005, 0.016, 0.016, 80.0
gh, gw = chip_h / R, chip_w / C
Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * gw * gh
Rx = gw / (2.0 * K_SI * t_chip * gh)
Ry = gh / (2.0 * K_SI * t_chip * gw)
Rz = t_chip / (K_SI * gh * gw)
step = PRECISION / (MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI))
s = '''# val_hotspot (validation set): thermal stencil on 1024 x 1024 floats, pyramid tiles of 16x16, heights 2 and 4, ping-pong buffers
ptx kernel.ptx
buffer t0 %d zero
buffer t1 %d zero
buffer power %d zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr t0
arg ptr power
arg u32 %d
''' % (4 * N, 4 * N, 4 * N, N)
bufs = ('t0', 't1')
for k, ph in enumerate([2, 2, 4, 4]):
    g = -(-C // (16 - 2 * ph))
    s += 'launch hotspot grid %d %d 1 block 16 16 1 shared 0\n' % (g, g)
    s += 'arg s32 %d\narg ptr power\narg ptr %s\narg ptr %s\n' % (ph, bufs[k % 2], bufs[(k + 1) % 2])
    s += 'arg s32 %d\narg s32 %d\narg s32 %d\narg s32 %d\n' % (C, R, ph, ph)
    s += ''.join('arg f32 %s\n' % f32(v) for v in (Cap, Rx, Ry, Rz, step, amb))
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write(s)
