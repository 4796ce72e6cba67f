#!/usr/bin/env python3
"""vector_atomics: every vector atom/red form of PTX ISA 8.1 (sm_90) and the
scalar f16/bf16/f32 add forms, each thread on its own slot (no contention),
on 2048 element pairs per element format: all pairs of edge values (zeros,
subnormals, normal limits, infinities, NaNs with several payloads, rounding
ties) and random pairs (uniform bits, and close exponents for ties).

    gen.py DIR            kernel.ptx, case.txt and the inputs into DIR
    gen.py DIR --device   case.txt with one output file per buffer (for the
                          hardware run, whose outputs are then merged: every
                          form of one element format and operation gave the
                          same bytes, and every atom returned the old memory)

Forms (manual, atom/red "with vector type"): .add .v2/.v4 .f32;
.add/.min/.max .noftz .v2/.v4/.v8 .f16/.bf16; .add/.min/.max .noftz
.v2/.v4 .f16x2/.bf16x2; .global or generic addressing, every .sem/.scope
spelling and .L2::cache_hint on some of them (they do not change values)."""
import os, random, struct, sys

OUT = sys.argv[1]
DEVICE = '--device' in sys.argv[2:]
os.makedirs(OUT, exist_ok=True)
N = 2048                                   # element pairs per format
rng = random.Random(20261123)

def f32b(v): return struct.unpack('<I', struct.pack('<f', v))[0]

# ---- inputs ----------------------------------------------------------------
E16 = {
    'f16': [0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400, 0x0401,
            0x1400, 0x3555, 0x3c00, 0xbc00, 0x3c01, 0x3e00, 0x6800, 0xe800, 0x7bff, 0xfbff, 0x7c00,
            0xfc00, 0x7c01, 0x7e00, 0x7fff, 0xfe00, 0xfc01, 0x7d55, 0x0010, 0x3bff, 0x1000],
    'bf16': [0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x007f, 0x807f, 0x0040, 0x0080, 0x8080, 0x0081,
             0x3b80, 0x3eab, 0x3f80, 0xbf80, 0x3f81, 0x3fc0, 0x4380, 0xc380, 0x7f7f, 0xff7f, 0x7f80,
             0xff80, 0x7f81, 0x7fc0, 0x7fff, 0xffc0, 0xff81, 0x7fa5, 0x0010, 0x3f7f, 0x0100],
}
E32 = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00800000,
       0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f800001, 0x33800000, 0x34000000, 0x4b800000,
       0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7f800001, 0x7fc00000, 0x7fffffff, 0xffc00000,
       0xff800001, 0x7fa55555, 0x3effffff, 0x00000010]

def pairs(edges, bits, mant):
    ps = [(a, b) for a in edges for b in edges]
    while len(ps) < N:
        if len(ps) % 2:                    # uniform bit patterns
            ps.append((rng.getrandbits(bits), rng.getrandbits(bits)))
        else:                              # close magnitudes: ties, cancellation, carries
            a = rng.getrandbits(bits)
            d = rng.randrange(0, mant + 3) << mant
            b = (a - d if rng.random() < 0.5 else a + d) & ((1 << bits) - 1)
            b ^= rng.getrandbits(1) << (bits - 1)
            b = (b & ~((1 << rng.randrange(0, mant)) - 1)) | rng.getrandbits(1)
            ps.append((a, b & ((1 << bits) - 1)))
    rng.shuffle(ps)
    return ps[:N]

def write(name, data):
    open(os.path.join(OUT, name), 'wb').write(data)

fmt = {}
for t, mant in (('f16', 10), ('bf16', 7)):
    ps = pairs(E16[t], 16, mant)
    write('in_%s_mem.bin' % t, struct.pack('<%dH' % N, *[a for a, b in ps]))
    write('in_%s_val.bin' % t, struct.pack('<%dH' % N, *[b for a, b in ps]))
    fmt[t] = 2 * N
ps = pairs(E32, 32, 23)
write('in_f32_mem.bin', struct.pack('<%dI' % N, *[a for a, b in ps]))
write('in_f32_val.bin', struct.pack('<%dI' % N, *[b for a, b in ps]))
fmt['f32'] = 4 * N

# ---- forms -------------------------------------------------------------------
# (family, ptx type, op, vector length (0 = scalar), register bits, elements per register)
forms = []
for fam, packed in (('f16', 'f16x2'), ('bf16', 'bf16x2')):
    forms.append((fam, fam, 'add', 0, 16, 1))
    forms.append((fam, packed, 'add', 0, 32, 2))
    for op in ('add', 'min', 'max'):
        for v in (2, 4, 8): forms.append((fam, fam, op, v, 16, 1))
        for v in (2, 4): forms.append((fam, packed, op, v, 32, 2))
forms.append(('f32', 'f32', 'add', 0, 32, 1))
for v in (2, 4): forms.append(('f32', 'f32', 'add', v, 32, 1))

ATOM_SEM = ['', '.relaxed.gpu', '.acquire.cta', '.release.cluster', '.acq_rel.sys', '.relaxed.sys', '.acq_rel.gpu']
RED_SEM = ['', '.relaxed.cta', '.release.gpu', '.relaxed.cluster', '.release.sys']

ptx = ['// vector_atomics: written by gen.py (see there); one kernel per form,',
       '// thread i applies the form to slot i of mem with slot i of val.',
       '.version 8.1', '.target sm_90', '.address_size 64', '']
case = ['# vector_atomics: every vector atom/red form (PTX ISA 8.1, sm_90) and the scalar',
        '# f16/bf16/f32 add forms on 2048 element pairs per format (gen.py); each thread',
        '# owns one slot.  Expected memory and returned old values from an H100.',
        'ptx kernel.ptx']
for t in ('f16', 'bf16', 'f32'):
    case.append('buffer v_%s %d file in_%s_val.bin' % (t, fmt[t], t))
launches, expects = [], []
k = 0
for fam, ty, op, vec, rbits, per in forms:
    for isred in (False, True):
        nregs = max(vec, 1)
        ebytes = rbits // 8
        slot = nregs * ebytes
        threads = fmt[fam] // slot
        name = '%s_%s_%s%s' % ('red' if isred else 'atom', op, 'v%d_' % vec if vec else '', ty)
        sem = (RED_SEM if isred else ATOM_SEM)[k % (len(RED_SEM) if isred else len(ATOM_SEM))]
        space = '' if k % 5 == 3 else '.global'          # some use generic addressing
        hint = k % 7 == 2
        k += 1
        noftz = '.noftz' if fam != 'f32' else ''
        opname = '%s%s%s.%s%s%s%s.%s' % ('red' if isred else 'atom', sem, space, op, noftz,
                                        '.L2::cache_hint' if hint else '', '.v%d' % vec if vec else '', ty)
        rk = 'h' if rbits == 16 else 'r'
        src = ['%%%s%d' % (rk, j) for j in range(nregs)]
        dst = ['%%%s%d' % (rk, 10 + j) for j in range(nregs)]
        body = ['.visible .entry %s(.param .u64 mem, .param .u64 val, .param .u64 ret)' % name, '{',
                '\t.reg .b64 %rd<10>;', '\t.reg .b32 %r<40>;', '\t.reg .b16 %h<40>;',
                '\tld.param.u64 %rd1, [mem];', '\tld.param.u64 %rd2, [val];', '\tld.param.u64 %rd3, [ret];',
                '\tmov.u32 %r30, %ctaid.x;', '\tmov.u32 %r31, %ntid.x;', '\tmov.u32 %r32, %tid.x;',
                '\tmad.lo.u32 %r33, %r30, %r31, %r32;',
                '\tmul.wide.u32 %%rd4, %%r33, %d;' % slot,
                '\tadd.s64 %rd5, %rd1, %rd4;', '\tadd.s64 %rd6, %rd2, %rd4;', '\tadd.s64 %rd7, %rd3, %rd4;']
        # load the operand vector
        if rbits == 16 and nregs >= 2:
            words = ['%%r%d' % (20 + j) for j in range(nregs // 2)]
            body.append('\tld.global%s.b32 %s, [%%rd6];' % ('.v%d' % len(words) if len(words) > 1 else '',
                                                          '{%s}' % ', '.join(words) if len(words) > 1 else words[0]))
            for j, w in enumerate(words):
                body.append('\tmov.b32 {%s, %s}, %s;' % (src[2 * j], src[2 * j + 1], w))
        elif nregs > 1:
            body.append('\tld.global.v%d.b%d {%s}, [%%rd6];' % (nregs, rbits, ', '.join(src)))
        else:
            body.append('\tld.global.b%d %s, [%%rd6];' % (rbits, src[0]))
        if hint: body.append('\tcreatepolicy.fractional.L2::evict_last.b64 %rd8, 1.0;')
        a = '{%s}' % ', '.join(src) if vec else src[0]
        d = '{%s}' % ', '.join(dst) if vec else dst[0]
        tail = ', %rd8' if hint else ''
        if isred: body.append('\t%s [%%rd5], %s%s;' % (opname, a, tail))
        else:
            body.append('\t%s %s, [%%rd5], %s%s;' % (opname, d, a, tail))
            if rbits == 16 and nregs >= 2:
                words = ['%%r%d' % (24 + j) for j in range(nregs // 2)]
                for j, w in enumerate(words):
                    body.append('\tmov.b32 %s, {%s, %s};' % (w, dst[2 * j], dst[2 * j + 1]))
                body.append('\tst.global%s.b32 [%%rd7], %s;' % ('.v%d' % len(words) if len(words) > 1 else '',
                                                              '{%s}' % ', '.join(words) if len(words) > 1 else words[0]))
            elif nregs > 1:
                body.append('\tst.global.v%d.b%d [%%rd7], {%s};' % (nregs, rbits, ', '.join(dst)))
            else:
                body.append('\tst.global.b%d [%%rd7], %s;' % (rbits, dst[0]))
        body += ['\tret;', '}', '']
        ptx += body
        mb = 'm_' + name[len('atom_'):] if not isred else 'm_' + name
        mb = 'm_' + name
        case.append('buffer %s %d file in_%s_mem.bin' % (mb, fmt[fam], fam))
        if not isred: case.append('buffer r_%s %d zero' % (name, fmt[fam]))
        launches += ['launch %s grid %d 1 1 block %d 1 1 shared 0' % (name, (threads + 255) // 256, min(threads, 256)),
                     'arg ptr %s' % mb, 'arg ptr v_%s' % fam, 'arg ptr %s' % ('r_' + name if not isred else mb)]
        if DEVICE:
            expects.append('expect %s %s.out.bin exact' % (mb, mb))
            if not isred: expects.append('expect r_%s r_%s.out.bin exact' % (name, name))
        else:
            expects.append('expect %s exp_%s_%s.bin exact' % (mb, fam, op))
            if not isred: expects.append('expect r_%s in_%s_mem.bin exact' % (name, fam))
case += launches + expects
open(os.path.join(OUT, 'kernel.ptx'), 'w').write('\n'.join(ptx))
open(os.path.join(OUT, 'case.txt'), 'w').write('\n'.join(case) + '\n')
