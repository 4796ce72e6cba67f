#!/usr/bin/env python3
import os, struct, sys
NELR, B, RK = 97152, 192, 3
G = NELR // B
def f32(x): return '0x%08x' % struct.unpack('<I', struct.pack('<f', x))[0]
os.makedirs(sys.argv[1], exist_ok=True)
s = f'''# val_cfd (validation set): euler3d-style unstructured Euler solver, {NELR} elements x 5 variables, 4 neighbours: copy, step factor, {RK} RK stages of (flux, time step)
ptx kernel.ptx
buffer vars {NELR * 5 * 4} zero
buffer old {NELR * 5 * 4} zero
buffer fluxes {NELR * 5 * 4} zero
buffer sf {NELR * 4} zero
buffer areas {NELR * 4} zero
buffer esel {NELR * 4 * 4} zero
buffer normals {NELR * 12 * 4} zero
buffer ff 128 zero
launch init grid {G} 1 1 block {B} 1 1 shared 0
arg ptr vars
arg ptr areas
arg ptr esel
arg ptr normals
arg ptr ff
arg s32 {NELR}
launch copy grid {NELR * 5 // B} 1 1 block {B} 1 1 shared 0
arg ptr old
arg ptr vars
arg s32 {NELR * 5}
launch compute_step_factor grid {G} 1 1 block {B} 1 1 shared 0
arg s32 {NELR}
arg ptr vars
arg ptr areas
arg ptr sf
'''
for j in range(RK):
    s += f'''launch compute_flux grid {G} 1 1 block {B} 1 1 shared 0
arg s32 {NELR}
arg ptr esel
arg ptr normals
arg ptr vars
arg ptr ff
arg ptr fluxes
launch time_step grid {G} 1 1 block {B} 1 1 shared 0
arg s32 {NELR}
arg f32 {f32(1.0 / (RK + 1 - j))}
arg ptr old
arg ptr vars
arg ptr sf
arg ptr fluxes
'''
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write(s)
