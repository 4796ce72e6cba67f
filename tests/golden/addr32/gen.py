#!/usr/bin/env python3
"""addr32: inputs and case.txt (kernel.ptx is hand-written).

    gen.py DIR                  the case as committed (expected dp.bin, out.bin)
    gen.py DIR --device         one output file per buffer, for the golden runner
    gen.py DIR --device --no-trunc   without the trunc64 launch, which the
                                hardware run took as a case of its own (a fault
                                there would have lost the other results)

dp.bin and out.bin are what an H100 (driver 580.159.04) wrote: out.bin's words
704..735 from the trunc64 run, the rest from dp_tile + forms."""
import os, random, sys
OUT = sys.argv[1]
DEVICE = '--device' in sys.argv[2:]
rng = random.Random(16)
a = bytes(rng.choice(b'ACGT') for _ in range(64))
b = bytes(rng.choice(b'ACGT') for _ in range(64))
open(os.path.join(OUT, 'seq_a.bin'), 'wb').write(a)
open(os.path.join(OUT, 'seq_b.bin'), 'wb').write(b)
open(os.path.join(OUT, 'gsrc.bin'), 'wb').write(bytes(rng.getrandbits(8) for _ in range(512)))
exp = (lambda n: n + '.out.bin') if DEVICE else (lambda n: n + '.bin')
t = ['# addr32: 32-bit shared/local addresses wrap modulo 2^32 (kernel.ptx).',
     '# dp_tile: 4 blocks, each a 17 x 17 Needleman-Wunsch tile of a[16b..] x b[16b..];',
     '# forms: out[64k + lane] for test k of kernel.ptx (st/ld/vector/atomics/local/',
     '# generic->shared/shared::cluster/cp.async/mbarrier + bulk copy/stmatrix+ldmatrix/wmma).',
     'ptx kernel.ptx',
     'buffer pa 64 file seq_a.bin', 'buffer pb 64 file seq_b.bin', 'buffer dp 4624 zero',
     'buffer out 2944 zero', 'buffer gsrc 512 file gsrc.bin',
     'launch dp_tile grid 4 1 1 block 16 1 1 shared 0', 'arg ptr pa', 'arg ptr pb', 'arg ptr dp',
     'launch forms grid 1 1 1 block 32 1 1 shared 0 cluster 1 1 1', 'arg ptr out', 'arg ptr gsrc',
     'launch trunc64 grid 1 1 1 block 32 1 1 shared 0', 'arg ptr out',
     'expect dp %s exact' % exp('dp'), 'expect out %s exact' % exp('out')]
if DEVICE and '--no-trunc' in sys.argv[2:]:      # the hardware run keeps trunc64 apart
    t = [l for l in t if 'trunc64' not in l and l != 'arg ptr out' or l.startswith('launch forms')]
    t.insert(t.index('arg ptr gsrc'), 'arg ptr out')
open(os.path.join(OUT, 'case.txt'), 'w').write('\n'.join(t) + '\n')
