#!/usr/bin/env python3
import os, struct, sys
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
f32 = lambda v: '0x%08x' % struct.unpack('<I', struct.pack('<f', v))[0]
t = ['# timing_divrem: latency (one warp, a dependent chain) and throughput (264 x 256 threads,',
     '# 8 independent chains) of rem.u32, rem.u64 and div.rn.f32, which ptxas expands into sequences.',
     'ptx kernel.ptx',
     'buffer a 128 zero', 'buffer b 270336 zero', 'buffer c 256 zero', 'buffer e 540672 zero',
     'buffer f 128 zero', 'buffer g 270336 zero']
def L(k, grid, block, buf, n, ty, d):
    t.extend(['launch %s grid %d 1 1 block %d 1 1 shared 0' % (k, grid, block), 'arg ptr %s' % buf, 'arg s32 %d' % n, 'arg %s %s' % (ty, d)])
L('rem32_lat', 1, 32, 'a', 256, 'u32', 1000033)
L('rem32_tput', 264, 256, 'b', 32, 'u32', 1000033)
L('rem64_lat', 1, 32, 'c', 128, 'u64', 1000000000039)
L('rem64_tput', 264, 256, 'e', 8, 'u64', 1000000000039)
L('fdiv_lat', 1, 32, 'f', 256, 'f32', f32(1.37))
L('fdiv_tput', 264, 256, 'g', 32, 'f32', f32(1.37))
for b in 'abcefg': t.append('expect %s %s.out.bin exact' % (b, b))
open(os.path.join(OUT, 'case.txt'), 'w').write('\n'.join(t) + '\n')
