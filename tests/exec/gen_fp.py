#!/usr/bin/env python3
"""tests/exec/gen_fp.py - writes the floating-point and conversion tests of
tests/exec: fp_*.ptx/.launch and cvt_*.ptx/.launch.

Each test is one instruction on edge values (NaN, inf, -0, subnormals,
ties in every rounding mode, out-of-range conversions, INT_MIN ...).  The
expected value of each is written here by hand, with its reasoning next to
it, from the PTX ISA manual and from the hardware facts that emu/fp.h
records (canonical NaNs, f64 NaN propagation, .ftz tininess after
rounding, ...) or from the SASS that ptxas emits for a form (noted where
used).  Python's float arithmetic (IEEE double, struct for f32 rounding)
is used only as a calculator for ordinary values.

One thread runs each kernel: test k stores its 32-bit result at word k of
`out` (16-bit results with st.u16 into the zeroed word, predicates as 0/1),
64-bit results go to `out64`.

Usage: gen_fp.py [OUTDIR]   (default: the folder of this script)
"""
import os
import struct
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def F(x):
    """f32 bits of a Python float (rounded to nearest)."""
    return struct.unpack('<I', struct.pack('<f', x))[0]


def D(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


NAN32 = 0x7FFFFFFF      # canonical f32 NaN (fp.h FP32_CANON_NAN)
NAN64 = 0xFFF8000000000000
NAN16 = 0x7FFF
INF32, NINF32 = 0x7F800000, 0xFF800000


class Suite:
    def __init__(self, name, title, version='8.0', target='sm_90'):
        self.name, self.title, self.version, self.target = name, title, version, target
        self.body, self.n32, self.n64, self.exp = [], 0, 0, []

    def _load(self, regs):
        """regs: list of (register, type letter, bits) -> mov lines."""
        out = []
        for reg, t, v in regs:
            if t == 'f':
                out.append('mov.b32 %s, 0f%08X;' % (reg, v))
            elif t == 'd':
                out.append('mov.b64 %s, 0d%016X;' % (reg, v))
            elif t == 'h':
                out.append('mov.b16 %s, 0x%04X;' % (reg, v))
            elif t == 'r':
                out.append('mov.b32 %s, 0x%08X;' % (reg, v))
            elif t == 'l':
                out.append('mov.b64 %s, 0x%016X;' % (reg, v))
        return out

    def t32(self, lines, expect, why, res='%r1'):
        """A test whose 32-bit result is in res (%r1, %f1, %h1 or %p1)."""
        k = self.n32
        self.n32 += 1
        self.body.append('\t// %d: %s' % (k, why.split(':')[0]))
        self.body += ['\t' + l for l in lines]
        if res.startswith('%p'):
            self.body.append('\tselp.u32 %%r7, 1, 0, %s;' % res)
            self.body.append('\tst.global.u32 [%%rd6+%d], %%r7;' % (4 * k))
        elif res.startswith('%h'):
            self.body.append('\tst.global.u16 [%%rd6+%d], %s;' % (4 * k, res))
        else:
            self.body.append('\tst.global.b32 [%%rd6+%d], %s;' % (4 * k, res))
        self.exp.append(('out+%d' % (4 * k), 'u32', expect, '%d: %s' % (k, why)))

    def t64(self, lines, expect, why, res='%rd1'):
        k = self.n64
        self.n64 += 1
        self.body.append('\t// q%d: %s' % (k, why.split(':')[0]))
        self.body += ['\t' + l for l in lines]
        self.body.append('\tst.global.b64 [%%rd7+%d], %s;' % (8 * k, res))
        self.exp.append(('out64+%d' % (8 * k), 'u64', expect, 'q%d: %s' % (k, why)))

    # shorthands -------------------------------------------------------------
    def f32op(self, insn, srcs, expect, why, nsrc=None):
        """insn on f32 sources given as bit patterns; result word."""
        regs = [('%%f%d' % (i + 2), 'f', v) for i, v in enumerate(srcs)]
        ops = ', '.join(r for r, _, _ in regs)
        self.t32(self._load(regs) + ['%s %%f1, %s;' % (insn, ops)], expect, insn + ': ' + why, '%f1')

    def f64op(self, insn, srcs, expect, why):
        regs = [('%%d%d' % (i + 2), 'd', v) for i, v in enumerate(srcs)]
        ops = ', '.join(r for r, _, _ in regs)
        self.t64(self._load(regs) + ['%s %%d1, %s;' % (insn, ops)], expect, insn + ': ' + why, '%d1')

    def h16op(self, insn, srcs, expect, why):
        regs = [('%%h%d' % (i + 2), 'h', v) for i, v in enumerate(srcs)]
        ops = ', '.join(r for r, _, _ in regs)
        self.t32(self._load(regs) + ['%s %%h1, %s;' % (insn, ops)], expect, insn + ': ' + why, '%h1')

    def h32op(self, insn, srcs, expect, why):
        """packed x2 sources in b32 registers."""
        regs = [('%%r%d' % (i + 2), 'r', v) for i, v in enumerate(srcs)]
        ops = ', '.join(r for r, _, _ in regs)
        self.t32(self._load(regs) + ['%s %%r1, %s;' % (insn, ops)], expect, insn + ': ' + why, '%r1')

    def pred(self, insn, srcs, t, expect, why, extra=''):
        regs = [('%%%s%d' % ({'f': 'f', 'd': 'd', 'h': 'h', 'r': 'r'}[t], i + 2), t, v) for i, v in enumerate(srcs)]
        ops = ', '.join(r for r, _, _ in regs)
        self.t32(self._load(regs) + ['%s %%p1, %s%s;' % (insn, ops, extra)], expect, insn + ': ' + why, '%p1')

    def write(self):
        ptx = ['// %s' % self.title,
               '// Generated by gen_fp.py; expected values and their reasoning are in %s.launch.' % self.name,
               '.version %s' % self.version, '.target %s' % self.target, '.address_size 64', '',
               '.visible .entry %s(.param .u64 out, .param .u64 out64)' % self.name, '{',
               '\t.reg .pred %p<4>;', '\t.reg .b16 %h<8>;', '\t.reg .b32 %r<8>;', '\t.reg .f32 %f<8>;',
               '\t.reg .f64 %d<8>;', '\t.reg .b64 %rd<8>;',
               '\tld.param.u64 %rd6, [out];', '\tld.param.u64 %rd7, [out64];'] + self.body + ['\tret;', '}', '']
        with open(os.path.join(OUT, self.name + '.ptx'), 'w') as f:
            f.write('\n'.join(ptx))
        la = ['# %s' % self.title,
              '# Generated by gen_fp.py: one thread; test k at word k of out (q k at out64).',
              '# Each expect line is preceded by the test and the reasoning for its value.',
              'ptx %s.ptx' % self.name,
              'buffer out %d zero' % max(4, 4 * self.n32),
              'buffer out64 %d zero' % max(8, 8 * self.n64),
              'launch %s grid 1 1 1 block 1 1 1 shared 0' % self.name,
              'arg ptr out', 'arg ptr out64', '']
        for where, ty, v, why in self.exp:
            la.append('# ' + why)
            la.append('expect %s value %s 0x%0*X' % (where, ty, 8 if ty == 'u32' else 16, v))
        with open(os.path.join(OUT, self.name + '.launch'), 'w') as f:
            f.write('\n'.join(la) + '\n')


# =============================================================================
# f32 / f64 arithmetic
# =============================================================================
s = Suite('fp_arith', 'f32/f64 arithmetic: rounding modes, ties, .ftz, .sat, NaN, signed zeros')
ONE, TWO, THREE = F(1.0), F(2.0), F(3.0)
E24, E25 = F(2.0 ** -24), F(2.0 ** -25)
s.f32op('add.rn.f32', [ONE, E24], ONE, '1 + 2^-24 is a tie between 1 and 1+2^-23: even -> 1.0')
s.f32op('add.rp.f32', [ONE, E24], 0x3F800001, '1 + 2^-24 rounded up -> 1+2^-23')
s.f32op('add.rm.f32', [F(-1.0), F(-2.0 ** -24)], 0xBF800001, '-1 - 2^-24 toward -inf -> -(1+2^-23)')
s.f32op('add.rz.f32', [ONE, F(-2.0 ** -25)], 0x3F7FFFFF, '1 - 2^-25 is a tie between 1-2^-24 and 1: toward zero -> 1-2^-24')
s.f32op('add.rn.f32', [ONE, F(-2.0 ** -25)], ONE, '1 - 2^-25 tie: even mantissa -> 1.0')
s.f32op('add.f32', [ONE, E24], ONE, 'no rounding modifier is .rn: tie -> 1.0')
s.f32op('sub.rn.f32', [THREE, THREE], 0x00000000, 'x - x = +0 in round to nearest (IEEE 754 6.3)')
s.f32op('sub.rm.f32', [THREE, THREE], 0x80000000, 'x - x = -0 when rounding toward -inf (IEEE 754 6.3)')
s.f32op('add.f32', [INF32, NINF32], NAN32, 'inf + -inf is invalid: the canonical NaN 7fffffff (fp.h)')
s.f32op('add.f32', [0x7F800001, ONE], NAN32, 'a NaN operand gives the canonical NaN, payload dropped (fp.h)')
s.f32op('sub.f32', [ONE, 0xFFC00001], NAN32, 'NaN b: canonical NaN, its sign dropped (fp.h)')
s.f32op('add.f32', [0x00000001, 0x00000000], 0x00000001, 'subnormals are kept without .ftz: 2^-149 + 0')
s.f32op('add.ftz.f32', [0x00000001, 0x00000000], 0x00000000, '.ftz flushes the subnormal input to +0')
s.f32op('add.ftz.f32', [0x80000001, 0x80000000], 0x80000000, '.ftz: -2^-149 -> -0; -0 + -0 = -0')
s.f32op('mul.rn.f32', [F(2.0 ** -126), F(0.5)], 0x00400000, '2^-126 * 0.5 = 2^-127, a subnormal, kept')
s.f32op('mul.rn.ftz.f32', [F(2.0 ** -126), F(0.5)], 0x00000000, '.ftz flushes the subnormal result 2^-127 to +0')
s.f32op('mul.rn.ftz.f32', [0x3F7FFFFF, F(2.0 ** -126)], 0x00000000,
        '(1-2^-24)*2^-126 is exact in 24 bits with unbounded exponent, below 2^-126: tiny -> flushed (fp.h: tininess after rounding)')
s.f32op('mul.rn.f32', [0x3F7FFFFF, F(2.0 ** -126)], 0x00800000,
        'without .ftz, (1-2^-24)*2^-126 = 2^-126 - 2^-150 is a tie on the subnormal grid (2^-149): even -> 2^-126')
s.f32op('mul.rn.ftz.f32', [0x3F7FFFFE, 0x00800001], 0x00800000,
        '(1-2^-23)(1+2^-23)*2^-126 = 2^-126(1-2^-46) rounds to 2^-126 in 24 bits: not tiny, kept (fp.h)')
s.f32op('mul.rz.f32', [F(1.0 + 2.0 ** -23), F(1.0 + 2.0 ** -23)], 0x3F800002,
        '(1+2^-23)^2 = 1 + 2^-22 + 2^-46 toward zero -> 1+2^-22')
s.f32op('mul.rp.f32', [F(1.0 + 2.0 ** -23), F(1.0 + 2.0 ** -23)], 0x3F800003, '... toward +inf -> 1+2^-22+2^-23')
s.f32op('mul.rn.f32', [F(2.0 ** 100), F(2.0 ** 100)], INF32, '2^200 overflows -> +inf in round to nearest')
s.f32op('mul.rz.f32', [F(2.0 ** 100), F(2.0 ** 100)], 0x7F7FFFFF, '2^200 toward zero -> the largest finite')
s.f32op('mul.rm.f32', [F(2.0 ** 100), F(-(2.0 ** 100))], NINF32, '-2^200 toward -inf -> -inf')
s.f32op('mul.f32', [0x00000000, INF32], NAN32, '0 * inf is invalid -> canonical NaN')
s.f32op('mul.rn.sat.f32', [THREE, TWO], ONE, '.sat clamps 6 to 1.0')
s.f32op('mul.rn.sat.f32', [0x80000000, ONE], 0x00000000, '.sat: -0 -> +0 (fp.h)')
s.f32op('add.sat.f32', [F(-2.0), ONE], 0x00000000, '.sat clamps -1 to +0')
s.f32op('add.sat.f32', [0x7FC00000, ONE], 0x00000000, '.sat: a NaN result becomes +0 (PTX manual)')
FMA_A = F(1.0 + 2.0 ** -12)
s.f32op('fma.rn.f32', [FMA_A, FMA_A, F(-1.0)], 0x3A000400,
        '(1+2^-12)^2 - 1 = 2^-11 + 2^-24 = 2^-11(1+2^-13) exactly, one rounding (a separate mul would lose 2^-24 and give 0x3a000000)')
s.f32op('mad.rn.f32', [FMA_A, FMA_A, F(-1.0)], 0x3A000400, 'mad.rn.f32 is fma.rn.f32 (sm_20+)')
s.f32op('fma.rz.f32', [F(1.0 + 2.0 ** -23), F(1.0 + 2.0 ** -23), F(2.0 ** -30)], 0x3F800002,
        '1 + 2^-22 + 2^-46 + 2^-30 toward zero -> 1+2^-22')
s.f32op('fma.rp.f32', [ONE, ONE, F(2.0 ** -60)], 0x3F800001, '1 + 2^-60 toward +inf -> 1+2^-23')
s.f32op('fma.rp.f32', [ONE, F(-1.0), F(2.0 ** -60)], 0xBF7FFFFF, '-1 + 2^-60 toward +inf -> -(1-2^-24)')
s.f32op('fma.rm.f32', [ONE, F(-1.0), F(2.0 ** -60)], 0xBF800000, '-1 + 2^-60 toward -inf -> -1')
s.f32op('fma.rn.f32', [ONE, F(-1.0), ONE], 0x00000000, '1*-1 + 1 = +0 in round to nearest')
s.f32op('fma.rm.f32', [ONE, F(-1.0), ONE], 0x80000000, '... and -0 toward -inf')
s.f32op('fma.rn.sat.f32', [TWO, THREE, ONE], ONE, '.sat clamps 7 to 1.0')
s.f32op('fma.rn.sat.f32', [INF32, 0x00000000, ONE], 0x00000000, '.sat: the NaN of inf*0 becomes +0')
s.f32op('fma.rn.ftz.f32', [0x00000001, F(2.0 ** 100), ONE], ONE, '.ftz: the subnormal a is flushed, 0*2^100 + 1 = 1')
s.f32op('div.rn.f32', [ONE, THREE], 0x3EAAAAAB, '1/3 = 0.3333333333: 0x3eaaaaab (0.33333334) is the nearer')
s.f32op('div.rz.f32', [ONE, THREE], 0x3EAAAAAA, '1/3 toward zero -> 0x3eaaaaaa')
s.f32op('div.rp.f32', [ONE, THREE], 0x3EAAAAAB, '1/3 toward +inf')
s.f32op('div.rm.f32', [F(-1.0), THREE], 0xBEAAAAAB, '-1/3 toward -inf')
s.f32op('div.rn.f32', [ONE, 0x00000000], INF32, '1/+0 = +inf')
s.f32op('div.rn.f32', [ONE, 0x80000000], NINF32, '1/-0 = -inf')
s.f32op('div.rn.f32', [0x00000000, 0x00000000], NAN32, '0/0 is invalid -> canonical NaN')
s.f32op('div.rn.f32', [0x00000001, ONE], 0x00000001, '2^-149 / 1, subnormal kept')
s.f32op('div.rn.ftz.f32', [0x00000001, ONE], 0x00000000, '.ftz flushes the subnormal dividend')
s.f32op('div.rn.ftz.f32', [ONE, 0x80000001], NINF32, '.ftz flushes the divisor to -0: 1/-0 = -inf')
s.f32op('sqrt.rn.f32', [TWO], 0x3FB504F3, 'sqrt(2) = 1.41421356: 0x3fb504f3 (1.41421354) is nearer than ..f4 (1.41421366)')
s.f32op('sqrt.rp.f32', [TWO], 0x3FB504F4, 'sqrt(2) toward +inf')
s.f32op('sqrt.rz.f32', [TWO], 0x3FB504F3, 'sqrt(2) toward zero')
s.f32op('sqrt.rn.f32', [F(-1.0)], NAN32, 'sqrt of a negative number -> canonical NaN')
s.f32op('sqrt.rn.f32', [0x80000000], 0x80000000, 'sqrt(-0) = -0 (IEEE)')
s.f32op('sqrt.rn.ftz.f32', [0x00000004], 0x00000000, '.ftz: the subnormal input is flushed, sqrt(+0) = +0')
s.f32op('sqrt.rn.f32', [F(2.0 ** -148)], F(2.0 ** -74), 'sqrt(2^-148) = 2^-74 exactly (subnormal input supported)')
s.f32op('rcp.rn.f32', [THREE], 0x3EAAAAAB, '1/3 nearest')
s.f32op('rcp.rz.f32', [THREE], 0x3EAAAAAA, '1/3 toward zero')
s.f32op('rcp.rn.f32', [0x80000000], NINF32, '1/-0 = -inf')
s.f32op('rcp.rn.ftz.f32', [0x00000001], INF32, '.ftz: 1/+0 = +inf')
s.f32op('abs.f32', [0x80000000], 0x00000000, '|-0| = +0')
s.f32op('abs.f32', [0xFFC00001], NAN32, 'abs of a NaN -> canonical NaN (fp.h, measured)')
s.f32op('abs.ftz.f32', [0x80000001], 0x00000000, '.ftz: -2^-149 -> -0, |-0| = +0')
s.f32op('abs.f32', [0x80000001], 0x00000001, 'without .ftz the subnormal is kept')
s.f32op('neg.f32', [0x7F800001], NAN32, 'neg of a NaN -> canonical NaN (fp.h)')
s.f32op('neg.f32', [0x00000000], 0x80000000, '-(+0) = -0')
s.f32op('neg.ftz.f32', [0x00000001], 0x80000000, '.ftz: 2^-149 -> +0, negated -> -0')
s.f32op('min.f32', [0x80000000, 0x00000000], 0x80000000, 'min(-0, +0) = -0 (fp.h: -0 < +0)')
s.f32op('max.f32', [0x80000000, 0x00000000], 0x00000000, 'max(-0, +0) = +0')
s.f32op('min.f32', [0x7FC00000, TWO], TWO, 'one NaN input: the other input')
s.f32op('max.f32', [F(-5.0), 0xFF800001], F(-5.0), 'one NaN input (b): the other input')
s.f32op('min.f32', [0x7FC00001, 0xFFC00000], NAN32, 'two NaN inputs: canonical NaN')
s.f32op('min.NaN.f32', [0x7FC00001, TWO], NAN32, '.NaN: any NaN input gives the canonical NaN')
s.f32op('max.NaN.f32', [ONE, TWO], TWO, '.NaN without NaN inputs: ordinary max')
s.f32op('max.xorsign.abs.f32', [F(-2.0), THREE], F(-3.0), 'max(|-2|, |3|) = 3 with sign xor(-, +) = - -> -3')
s.f32op('min.xorsign.abs.f32', [F(-2.0), F(-3.0)], TWO, 'min(2, 3) = 2 with sign xor(-, -) = + -> 2')
s.f32op('min.ftz.f32', [0x80000001, 0x00000000], 0x80000000, '.ftz: -2^-149 -> -0; min(-0, +0) = -0')
s.f32op('min.f32', [0x80000001, 0x00000000], 0x80000001, 'without .ftz: -2^-149 < 0')
s.f32op('copysign.f32', [F(-1.0), TWO], F(-2.0), 'copysign d, a, b: b with the sign of a -> -2')
s.f32op('copysign.f32', [ONE, 0xFFC00000], 0x7FC00000, 'the sign bit of a on b; a NaN b keeps its payload (fp.h)')
for op, v, e, why in [('finite', INF32, 0, 'inf is not finite'), ('finite', 0x00000001, 1, 'a subnormal is finite'),
                      ('infinite', NINF32, 1, '-inf is infinite'), ('number', 0x7FC00000, 0, 'NaN is not a number'),
                      ('notanumber', 0xFF800001, 1, 'a signaling-pattern NaN is a NaN'),
                      ('normal', 0x00000000, 1, 'zero counts as normal (fp.h, measured)'),
                      ('normal', 0x00000001, 0, 'a subnormal is not normal'), ('normal', INF32, 0, 'inf is not normal'),
                      ('subnormal', 0x807FFFFF, 1, 'the largest negative subnormal'),
                      ('subnormal', 0x80000000, 0, '-0 is not subnormal')]:
    s.pred('testp.%s.f32' % op, [v], 'f', e, why)
s.pred('testp.subnormal.f64', [0x0000000000000001], 'd', 1, 'the smallest f64 subnormal')
s.pred('testp.normal.f64', [0x0010000000000000], 'd', 1, '2^-1022 is normal')
# f64
DONE = D(1.0)
s.f64op('add.rn.f64', [DONE, D(2.0 ** -53)], DONE, '1 + 2^-53 is a tie: even -> 1.0')
s.f64op('add.rp.f64', [DONE, D(2.0 ** -53)], 0x3FF0000000000001, '... toward +inf -> 1+2^-52')
s.f64op('add.rz.f64', [DONE, D(-(2.0 ** -54))], 0x3FEFFFFFFFFFFFFF, '1 - 2^-54 toward zero -> 1-2^-53')
s.f64op('sub.rm.f64', [D(5.0), D(5.0)], 0x8000000000000000, 'x - x toward -inf = -0')
s.f64op('add.f64', [0x7FF0000000000000, 0xFFF0000000000000], NAN64,
        'inf - inf creates the default NaN fff8000000000000 (fp.h: f64 invalid operations)')
s.f64op('add.f64', [DONE, 0x7FF0000000000001], 0x7FF8000000000001, 'an f64 NaN operand propagates quieted, payload kept (fp.h)')
s.f64op('mul.rn.f64', [0x7FF0000000000001, 0xFFF0000000000002], 0xFFF8000000000002,
        'two NaN operands: mul prefers b (fp.h precedence), quieted')
s.f64op('div.rn.f64', [0x7FF0000000000001, 0xFFF0000000000002], 0x7FF8000000000001, 'div prefers a (fp.h)')
s.f64op('fma.rn.f64', [D(1.0 + 2.0 ** -27), D(1.0 + 2.0 ** -27), D(-1.0)], D(2.0 ** -26 + 2.0 ** -54),
        '(1+2^-27)^2 - 1 = 2^-26 + 2^-54 exactly with one rounding')
s.f64op('mad.rn.f64', [D(1.0 + 2.0 ** -27), D(1.0 + 2.0 ** -27), D(-1.0)], D(2.0 ** -26 + 2.0 ** -54), 'mad.rn.f64 = fma')
s.f64op('div.rz.f64', [DONE, D(3.0)], 0x3FD5555555555555, '1/3 toward zero')
s.f64op('div.rn.f64', [DONE, D(3.0)], 0x3FD5555555555555, '1/3 nearest (...5555 0.333.. is below, error 1/3 ulp)')
s.f64op('div.rp.f64', [DONE, D(3.0)], 0x3FD5555555555556, '1/3 toward +inf')
s.f64op('sqrt.rn.f64', [D(2.0)], 0x3FF6A09E667F3BCD, 'sqrt(2) to nearest')
s.f64op('sqrt.rp.f64', [D(2.0)], 0x3FF6A09E667F3BCD, 'sqrt(2) = 1.41421356237309504880..., ..bcd (1.4142135623730951) is above it')
s.f64op('sqrt.rm.f64', [D(2.0)], 0x3FF6A09E667F3BCC, 'sqrt(2) toward -inf')
s.f64op('rcp.rn.f64', [D(-4.0)], D(-0.25), '1/-4 exactly')
s.f64op('rcp.rn.f64', [0x8000000000000000], 0xFFF0000000000000, '1/-0 = -inf')
s.f64op('abs.f64', [0xFFF0000000000001], 0xFFF8000000000001, 'abs.f64 of a NaN: quieted, sign unchanged (fp.h)')
s.f64op('neg.f64', [0x7FF0000000000001], 0x7FF8000000000001, 'neg.f64 of a NaN: quieted, sign unchanged (fp.h)')
s.f64op('neg.f64', [0x0000000000000001], 0x8000000000000001, 'neg keeps subnormals (f64 never flushes)')
s.f64op('min.f64', [0x8000000000000000, 0x0000000000000000], 0x8000000000000000, 'min(-0, +0) = -0')
s.f64op('max.f64', [0x7FF8000000000000, D(-3.0)], D(-3.0), 'one NaN input: the other input')
s.f64op('min.f64', [0x7FF0000000000001, 0xFFF0000000000002], 0xFFF8000000000002, 'two NaN inputs: b quieted (fp.h)')
s.f64op('copysign.f64', [0x8000000000000000, D(3.0)], D(-3.0), 'b with the sign of a')
s.write()

s = Suite('fp_min3', 'three-input min/max.f32 (sm_100; not measurable on the H100)', version='8.8', target='sm_100')
s.f32op('min.f32', [THREE, ONE, TWO], ONE, 'min(min(3, 1), 2) = 1')
s.f32op('max.f32', [THREE, ONE, F(7.0)], F(7.0), 'max(max(3, 1), 7) = 7')
s.f32op('min.NaN.f32', [THREE, 0x7FC00000, TWO], NAN32, '.NaN: a NaN input gives the canonical NaN')
s.f32op('max.f32', [0x7FC00000, F(-1.0), F(-5.0)], F(-1.0), 'NaN inputs are ignored without .NaN: max(-1, -5)')
s.f32op('min.abs.f32', [F(-3.0), TWO, F(-4.0)], TWO, '.abs: min(|-3|, |2|, |-4|) = 2')
s.write()

# =============================================================================
# f16 / bf16 arithmetic
# =============================================================================
s = Suite('fp_half', 'f16/f16x2/bf16/bf16x2 arithmetic, min/max, abs/neg')
H1, H2, H3, HM1, HM2 = 0x3C00, 0x4000, 0x4200, 0xBC00, 0xC000
s.h16op('add.f16', [H1, H2], H3, '1 + 2 = 3 (0x4200)')
s.h16op('add.rn.f16', [H1, 0x1000], H1, '1 + 2^-11 is a tie between 1 and 1+2^-10: even -> 1.0')
s.h16op('add.rn.f16', [H1, 0x1001], 0x3C01, '1 + 2^-11(1+2^-10) is above the tie -> 1+2^-10')
s.h16op('add.f16', [0x7BFF, 0x7BFF], 0x7C00, '65504 + 65504 overflows -> +inf')
s.h16op('add.sat.f16', [H2, H1], H1, '.sat clamps 3 to 1.0')
s.h16op('sub.f16', [H1, H1], 0x0000, '1 - 1 = +0')
s.h16op('mul.f16', [0x0400, 0x3800], 0x0200, '2^-14 * 0.5 = 2^-15, an f16 subnormal, kept')
s.h16op('mul.ftz.f16', [0x0400, 0x3800], 0x0000, '.ftz flushes the subnormal result')
s.h16op('mul.f16', [0x7C00, 0x0000], NAN16, 'inf * 0 -> canonical f16 NaN 7fff (fp.h)')
s.h16op('fma.rn.f16', [H2, H3, H1], 0x4700, '2*3 + 1 = 7 (0x4700)')
s.h16op('fma.rn.f16', [0x7C01, H1, H1], NAN16, 'a NaN operand -> canonical 7fff')
s.h16op('fma.rn.relu.f16', [H1, HM2, H1], 0x0000, '.relu: 1*-2 + 1 = -1 -> +0')
s.h16op('fma.rn.relu.f16', [0x7C01, H1, H1], NAN16, '.relu: NaN -> canonical NaN (PTX manual)')
s.h16op('fma.rn.sat.f16', [H2, H3, H1], H1, '.sat clamps 7 to 1')
s.h16op('add.bf16', [0x3F80, 0x3B80], 0x3F80, 'bf16: 1 + 2^-8 is a tie between 1 and 1+2^-7: even -> 1.0')
s.h16op('add.rn.bf16', [0x3F80, 0x3BC0], 0x3F81, 'bf16: 1 + 1.5*2^-8 is above the tie -> 1+2^-7')
s.h16op('mul.bf16', [0x4040, 0x4000], 0x40C0, 'bf16: 3 * 2 = 6 (0x40c0)')
s.h16op('fma.rn.bf16', [0x3F80, 0x4000, 0x3F80], 0x4040, 'bf16: 1*2 + 1 = 3 (0x4040)')
s.h16op('fma.rn.relu.bf16', [0xBF80, 0x3F80, 0x0000], 0x0000, 'bf16 .relu: -1 -> +0')
s.h16op('neg.f16', [0x7C01], NAN16, 'neg of an f16 NaN -> canonical 7fff (fp.h)')
s.h16op('neg.f16', [0x0001], 0x8001, 'neg keeps the f16 subnormal')
s.h16op('neg.ftz.f16', [0x0001], 0x8000, '.ftz: subnormal -> +0 -> -0')
s.h16op('abs.f16', [0xC000], H2, '|-2| = 2')
s.h16op('abs.bf16', [0xFF81], 0x7FFF, 'abs of a bf16 NaN -> canonical 7fff (fp.h)')
s.h16op('neg.bf16', [0x3F80], 0xBF80, '-1 in bf16')
s.h16op('min.f16', [0x7E00, H2], H2, 'one NaN input: the other')
s.h16op('max.NaN.f16', [0x7E00, H2], NAN16, '.NaN: canonical NaN')
s.h16op('min.f16', [0x8000, 0x0000], 0x8000, 'min(-0, +0) = -0')
s.h16op('min.xorsign.abs.f16', [HM2, H3], HM2, 'min(|-2|, |3|) = 2, sign xor(-, +) -> -2')
s.h16op('max.bf16', [0xBF80, 0x3F80], 0x3F80, 'bf16 max(-1, 1) = 1')
s.h16op('min.NaN.bf16', [0x3F80, 0xFFC1], 0x7FFF, 'bf16 .NaN: canonical 7fff')
s.h32op('add.f16x2', [(H2 << 16) | H1, (H1 << 16) | H1], (H3 << 16) | H2, 'f16x2 lanes: lo 1+1 = 2, hi 2+1 = 3')
s.h32op('mul.f16x2', [(H2 << 16) | 0x7C00, (H3 << 16) | 0x0000], (0x4600 << 16) | NAN16,
        'f16x2: lo inf*0 = NaN -> 7fff, hi 2*3 = 6 (0x4600)')
s.h32op('fma.rn.f16x2', [(H1 << 16) | H2, (H2 << 16) | H2, (H1 << 16) | HM1], (H3 << 16) | H3,
        'f16x2: lo 2*2 - 1 = 3, hi 1*2 + 1 = 3')
s.h32op('neg.f16x2', [(HM1 << 16) | 0x7C01], (H1 << 16) | NAN16, 'f16x2: lo NaN -> 7fff, hi -(-1) = 1')
s.h32op('max.f16x2', [(H3 << 16) | HM1, (H2 << 16) | 0x7E00], (H3 << 16) | HM1, 'f16x2: lo max(-1, NaN) = -1, hi max(3, 2) = 3')
s.h32op('add.bf16x2', [(0x3F80 << 16) | 0x4000, (0x3F80 << 16) | 0x3F80], (0x4000 << 16) | 0x4040,
        'bf16x2: lo 2+1 = 3 (0x4040), hi 1+1 = 2 (0x4000)')
s.h32op('fma.rn.relu.bf16x2', [(0xBF80 << 16) | 0x3F80, (0x3F80 << 16) | 0x3F80, 0],
        0x3F80, 'bf16x2 .relu: lo 1*1+0 = 1, hi -1*1+0 = -1 -> +0')
# fma.oob (measured on an H200, 512 operand triples): +0 where a multiplicand
# is the OOB-NaN the tensor copies fill with (0x7ff7, either sign, f16 and
# bf16 alike); an addend 0x7ff7, or another NaN, is an ordinary NaN
s.h32op('fma.rn.oob.f16x2', [0x7FF77FF7, 0x3C003F80, 0x3C003F80], 0x00000000, 'H200: a is the OOB-NaN in both halves -> +0')
s.h32op('fma.rn.oob.relu.bf16x2', [0x3C003F80, 0xFFF7FFF7, 0xBC00BF80], 0x00000000, 'H200: b is 0xfff7 (the OOB-NaN with its sign set) -> +0')
s.h32op('fma.rn.oob.f16x2', [0x3C003F80, 0x3C003F80, 0x7FF77FF7], 0x7FFF7FFF, 'H200: c 0x7ff7 is an ordinary NaN')
s.h32op('fma.rn.oob.bf16x2', [0x7FFF7FFF, 0x3C003F80, 0], 0x7FFF7FFF, 'H200: 0x7fff is not the OOB-NaN')
s.h32op('fma.rn.oob.f16x2', [0xBC00BF80, 0x3C003F80, 0x3C003F80], 0x0000BE90, 'H200: no NaN: an ordinary fma (-1 * 1 + 1 = 0; -1.875 * 1.875 + 1.875 = -1.640625)')
s.h32op('min.NaN.xorsign.abs.bf16x2', [(0xC000 << 16) | 0x7FC1, (0x3F80 << 16) | 0x3F80],
        (0xBF80 << 16) | 0x7FFF, 'bf16x2: lo NaN with .NaN -> 7fff; hi min(|-2|, |1|) = 1, sign xor(-, +) -> -1')
s.write()

# =============================================================================
# comparisons
# =============================================================================
s = Suite('fp_cmp', 'float setp/set: ordered and unordered comparisons, num/nan, .ftz, BoolOp, p|q, packed halves')
NAN = 0x7FC00000
for cmp, a, b, e, why in [
        ('lt', ONE, TWO, 1, '1 < 2'), ('lt', NAN, TWO, 0, 'ordered: false with a NaN'),
        ('ltu', NAN, TWO, 1, 'unordered: true with a NaN'), ('ltu', TWO, ONE, 0, '2 < 1 false, no NaN'),
        ('eq', 0x80000000, 0x00000000, 1, '-0 == +0'), ('ne', NAN, ONE, 0, 'ne is ordered: false with a NaN'),
        ('neu', NAN, NAN, 1, 'neu: true with a NaN'), ('equ', NAN, ONE, 1, 'equ: true with a NaN'),
        ('eq', NAN, NAN, 0, 'NaN is not equal to itself'), ('le', TWO, TWO, 1, '2 <= 2'),
        ('gt', INF32, 0x7F7FFFFF, 1, 'inf > max finite'), ('ge', NINF32, NINF32, 1, '-inf >= -inf'),
        ('geu', ONE, TWO, 0, '1 >= 2 false, no NaN'), ('gtu', ONE, 0xFFC00000, 1, 'unordered with a NaN'),
        ('leu', THREE, TWO, 0, '3 <= 2 false, no NaN'),
        ('num', ONE, TWO, 1, 'both are numbers'), ('num', ONE, NAN, 0, 'b is NaN'),
        ('nan', 0xFF800001, ONE, 1, 'a is NaN'), ('nan', ONE, TWO, 0, 'no NaN'),
        ('gt', 0x00000001, 0x00000000, 1, 'without .ftz 2^-149 > 0')]:
    s.pred('setp.%s.f32' % cmp, [a, b], 'f', e, why)
s.pred('setp.gt.ftz.f32', [0x00000001, 0x00000000], 'f', 0, '.ftz flushes 2^-149 to 0: 0 > 0 false')
s.pred('setp.eq.ftz.f32', [0x80000001, 0x00000000], 'f', 1, '.ftz: -2^-149 -> -0 == +0')
s.pred('setp.lt.f64', [D(1.0), D(1.0 + 2.0 ** -52)], 'd', 1, 'f64 1 < 1+2^-52')
s.pred('setp.ltu.f64', [0x7FF0000000000001, D(1.0)], 'd', 1, 'f64 unordered')
s.pred('setp.gt.f64', [0x0000000000000001, 0], 'd', 1, 'f64 subnormals are never flushed')
s.pred('setp.lt.f16', [0x3C00, 0x4000], 'h', 1, 'f16 1 < 2')
s.pred('setp.equ.f16', [0x7E00, 0x3C00], 'h', 1, 'f16 equ with a NaN')
s.pred('setp.gt.ftz.f16', [0x0001, 0x0000], 'h', 0, 'f16 .ftz flushes the subnormal')
s.pred('setp.gt.f16', [0x0001, 0x0000], 'h', 1, 'f16 subnormal > 0 without .ftz')
s.pred('setp.lt.bf16', [0xBF80, 0x3F80], 'h', 1, 'bf16 -1 < 1')
# BoolOp and p|q
s.t32(['mov.pred %p3, 1;', 'mov.b32 %f2, 0f3F800000;', 'setp.lt.and.f32 %p1, %f2, 0f40000000, !%p3;'], 0,
      'setp.lt.and with !true: 1 < 2 and false -> 0', '%p1')
s.t32(['mov.pred %p3, 0;', 'mov.b32 %f2, 0f7FC00000;', 'setp.lt.or.f32 %p1, %f2, 0f40000000, !%p3;'], 1,
      'setp.lt.or with !false: NaN < 2 (false) or true -> 1', '%p1')
s.t32(['mov.pred %p3, 1;', 'mov.b32 %f2, 0f3F800000;', 'setp.lt.xor.f32 %p1, %f2, 0f40000000, %p3;'], 0,
      'setp.lt.xor: 1 xor 1 -> 0', '%p1')
s.t32(['mov.b32 %f2, 0f7FC00000;', 'setp.lt.f32 %p1|%p2, %f2, 0f40000000;'], 1,
      'setp.lt p|q with a NaN: q = !t = 1 (t is false)', '%p2')
s.t32(['mov.pred %p3, 1;', 'mov.b32 %f2, 0f3F800000;', 'setp.lt.and.f32 %p1|%p2, %f2, 0f40000000, %p3;'], 0,
      'setp.lt.and p|q: q = !(1<2) and true = 0', '%p2')
# packed: p is the low half, q the high half
s.t32(['mov.b32 %r2, 0x42003C00;', 'mov.b32 %r3, 0x40004000;', 'setp.lt.f16x2 %p1|%p2, %r2, %r3;'], 1,
      'setp.lt.f16x2: p = lo (1 < 2) = 1', '%p1')
s.t32(['mov.b32 %r2, 0x42003C00;', 'mov.b32 %r3, 0x40004000;', 'setp.lt.f16x2 %p1|%p2, %r2, %r3;'], 0,
      'setp.lt.f16x2: q = hi (3 < 2) = 0', '%p2')
s.t32(['mov.pred %p3, 1;', 'mov.b32 %r2, 0x42003C00;', 'mov.b32 %r3, 0x40004000;',
       'setp.gt.or.bf16x2 %p1|%p2, %r2, %r3, %p3;'], 1, 'setp.gt.or.bf16x2: q = hi (bf16 32 > 2) or true = 1', '%p2')
# set
s.t32(['mov.b32 %f2, 0f7FC00000;', 'set.gtu.u32.f32 %r1, %f2, 0f3F800000;'], 0xFFFFFFFF, 'set.gtu.u32: NaN unordered -> all ones')
s.t32(['mov.b32 %f2, 0f3F800000;', 'set.lt.f32.f32 %r1, %f2, 0f40000000;'], 0x3F800000, 'set.lt.f32.f32: true -> 1.0f')
s.t32(['mov.b32 %f2, 0f3F800000;', 'set.gt.s32.f32 %r1, %f2, 0f40000000;'], 0, 'set.gt: false -> 0')
s.t32(['mov.pred %p3, 0;', 'mov.b32 %f2, 0f3F800000;', 'set.lt.and.u32.f32 %r1, %f2, 0f40000000, !%p3;'], 0xFFFFFFFF,
      'set.lt.and with !false: true -> all ones')
s.t32(['mov.b32 %f2, 0f3F800000;', 'set.lt.f16.f32 %h1, %f2, 0f40000000;'], 0x3C00, 'set.lt.f16.f32: true -> f16 1.0', '%h1')
s.t32(['mov.b16 %h2, 0x7E00;', 'mov.b16 %h3, 0x3C00;', 'set.nan.f16.f16 %h1, %h2, %h3;'], 0x3C00, 'set.nan.f16.f16: a NaN -> f16 1.0', '%h1')
s.t32(['mov.b32 %r2, 0x42003C00;', 'mov.b32 %r3, 0x40004000;', 'set.lt.u32.f16x2 %r1, %r2, %r3;'], 0x0000FFFF,
      'set.lt.u32.f16x2: per half, lo 1 < 2 -> ffff, hi 3 < 2 -> 0')
s.t32(['mov.b32 %r2, 0x42003C00;', 'mov.b32 %r3, 0x40004000;', 'set.lt.f16x2.f16x2 %r1, %r2, %r3;'], 0x00003C00,
      'set.lt.f16x2.f16x2: lo true -> 1.0 (3c00), hi false -> 0')
s.t32(['mov.b32 %r2, 0x3F804000;', 'mov.b32 %r3, 0x40003F80;', 'set.lt.bf16x2.bf16x2 %r1, %r2, %r3;'], 0x3F800000,
      'set.lt.bf16x2.bf16x2: lo 2 < 1 false -> 0, hi 1 < 2 -> bf16 1.0 (3f80)')
s.t32(['mov.b32 %r2, -5;', 'set.lt.f16.s32 %h1, %r2, 3;'], 0x3C00, 'set.lt.f16.s32: integer source, f16 1.0', '%h1')
s.t32(['mov.b32 %r2, -5;', 'set.lo.bf16.u32 %h1, %r2, 3;'], 0x0000, 'set.lo.bf16.u32: 0xfffffffb < 3 unsigned is false -> 0', '%h1')
s.write()

# =============================================================================
# special functions
# =============================================================================
s = Suite('fp_sfu', 'approximate special functions: special values and the exact points of the ptxas sequences')
s.f32op('rcp.approx.f32', [TWO], F(0.5), '1/2 (exact)')
s.f32op('rcp.approx.ftz.f32', [0x80000000], NINF32, '1/-0 = -inf')
s.f32op('rcp.approx.f32', [INF32], 0x00000000, '1/inf = +0')
s.f32op('rcp.approx.f32', [0x7FC00001], NAN32, 'NaN -> canonical NaN')
s.f32op('rcp.approx.ftz.f32', [0x00000001], INF32, '.ftz: the subnormal is flushed, 1/+0 = inf')
s.f32op('rcp.approx.f32', [F(2.0 ** -127)], F(2.0 ** 127),
        'no .ftz: ptxas scales a subnormal by 2^24 (1/2^-103 = 2^103, times 2^24) -> 2^127')
s.f32op('rcp.approx.ftz.f32', [F(2.0 ** -127)], INF32, '.ftz: the subnormal 2^-127 is flushed, 1/+0 = inf')
s.f32op('rcp.approx.f32', [F(2.0 ** 127)], 0x00400000,
        'no .ftz, |a| > 2^126 (ptxas sequence): rcp(a*0.25 = 2^125) = 2^-125, times 0.25 = 2^-127, the subnormal 0x00400000')
s.f32op('rcp.approx.ftz.f32', [F(2.0 ** 127)], 0x00000000, '.ftz: 1/2^127 = 2^-127 is subnormal -> flushed')
s.f32op('div.approx.f32', [THREE, F(4.0)], F(0.75), '3 * (1/4) = 0.75 (exact)')
s.f32op('div.approx.f32', [F(2.0 ** 127), F(2.0 ** 127)], 0x00000000,
        '|b| > 2^126: 1/b is subnormal and the reciprocal unit flushes it, a*0 = 0 (PTX manual)')
s.f32op('div.approx.f32', [INF32, F(2.0 ** 127)], NAN32, '|b| > 2^126 and a = inf: inf*0 = NaN (PTX manual)')
s.f32op('div.full.f32', [F(2.0 ** 127), F(2.0 ** 127)], ONE, 'div.full scales a and b by 1/4 when |b| > 2^126 -> 1')
s.f32op('div.full.ftz.f32', [F(3.0 * 2.0 ** 126), F(2.0 ** 127)], F(1.5), 'div.full.ftz, |b| > 2^126 scaled: 1.5')
s.f32op('div.approx.f32', [F(2.0 ** -20), F(2.0 ** -140)], F(2.0 ** 120),
        'no .ftz: a subnormal b scales a and b by 2^24: (1/2^-116) * 2^4 = 2^120')
s.f32op('div.approx.ftz.f32', [ONE, F(2.0 ** -140)], INF32, '.ftz: b flushed to +0 -> 1 * inf')
s.f32op('div.full.f32', [F(2.0 ** -130), F(2.0 ** -140)], F(1024.0), 'div.full, subnormal b: both scaled by 2^24 -> 2^10')
s.f32op('sqrt.approx.f32', [F(4.0)], TWO, 'sqrt(4) = 2')
s.f32op('sqrt.approx.f32', [F(-4.0)], NAN32, 'negative -> canonical NaN')
s.f32op('sqrt.approx.f32', [0x80000000], 0x80000000, 'sqrt(-0) = -0')
s.f32op('sqrt.approx.f32', [INF32], INF32, 'sqrt(inf) = inf')
s.f32op('sqrt.approx.f32', [F(2.0 ** -140)], F(2.0 ** -70), 'no .ftz: subnormal scaled by 2^24, sqrt(2^-116) * 2^-12 = 2^-70')
s.f32op('sqrt.approx.ftz.f32', [F(2.0 ** -140)], 0x00000000, '.ftz: flushed to +0')
s.f32op('rsqrt.approx.f32', [F(4.0)], F(0.5), 'rsqrt(4) = 0.5')
s.f32op('rsqrt.approx.f32', [0x00000000], INF32, 'rsqrt(+0) = +inf')
s.f32op('rsqrt.approx.f32', [0x80000000], NINF32, 'rsqrt(-0) = -inf')
s.f32op('rsqrt.approx.f32', [INF32], 0x00000000, 'rsqrt(inf) = +0')
s.f32op('rsqrt.approx.f32', [F(-1.0)], NAN32, 'negative -> NaN')
s.f32op('rsqrt.approx.f32', [F(2.0 ** -140)], F(2.0 ** 70), 'no .ftz: rsqrt(2^-116) * 2^12 = 2^70')
s.f32op('rsqrt.approx.ftz.f32', [F(2.0 ** -140)], INF32, '.ftz: flushed to +0 -> inf')
s.f32op('ex2.approx.f32', [THREE], F(8.0), '2^3 = 8')
s.f32op('ex2.approx.ftz.f32', [NINF32], 0x00000000, '2^-inf = +0')
s.f32op('ex2.approx.f32', [INF32], INF32, '2^inf = inf')
s.f32op('ex2.approx.f32', [0x80000001], ONE, '2^(-2^-149) rounds to 1')
s.f32op('ex2.approx.ftz.f32', [F(-130.0)], 0x00000000, '.ftz: 2^-130 is subnormal -> flushed')
s.f32op('ex2.approx.f32', [F(-130.0)], 0x00080000,
        'no .ftz, a < -126 (ptxas sequence): r = 2^(a/2) = 2^-65, r*r = 2^-130, the subnormal 0x00080000')
s.f32op('ex2.approx.f32', [0x7FC00000], NAN32, 'NaN -> canonical NaN')
s.f32op('lg2.approx.f32', [F(8.0)], THREE, 'log2(8) = 3')
s.f32op('lg2.approx.f32', [0x00000000], NINF32, 'log2(+0) = -inf')
s.f32op('lg2.approx.f32', [0x80000000], NINF32, 'log2(-0) = -inf')
s.f32op('lg2.approx.f32', [F(-1.0)], NAN32, 'log2 of a negative number -> NaN')
s.f32op('lg2.approx.f32', [INF32], INF32, 'log2(inf) = inf')
s.f32op('lg2.approx.f32', [F(2.0 ** -140)], F(-140.0), 'no .ftz: subnormal scaled by 2^24, log2(2^-116) - 24 = -140')
s.f32op('lg2.approx.ftz.f32', [F(2.0 ** -140)], NINF32, '.ftz: flushed to +0 -> -inf')
s.f32op('sin.approx.f32', [0x00000000], 0x00000000, 'sin(+0) = +0')
s.f32op('sin.approx.f32', [0x80000000], 0x80000000, 'sin(-0) = -0')
s.f32op('sin.approx.f32', [INF32], NAN32, 'sin(inf) = NaN')
s.f32op('cos.approx.f32', [0x00000000], ONE, 'cos(0) = 1')
s.f32op('cos.approx.ftz.f32', [NINF32], NAN32, 'cos(-inf) = NaN')
s.f32op('tanh.approx.f32', [INF32], ONE, 'tanh(inf) = 1')
s.f32op('tanh.approx.f32', [NINF32], F(-1.0), 'tanh(-inf) = -1')
s.f32op('tanh.approx.f32', [0x80000000], 0x80000000, 'tanh(-0) = -0')
s.f32op('tanh.approx.f32', [0x00000005], 0x00000005, 'tanh keeps a subnormal (tanh(x) = x; MUFU.TANH does not flush: measured)')
s.h16op('ex2.approx.f16', [0x4200], 0x4800, 'f16 2^3 = 8 (0x4800)')
s.h16op('ex2.approx.f16', [0xFC00], 0x0000, 'f16 2^-inf = +0')
s.h16op('ex2.approx.ftz.bf16', [0x3F80], 0x4000, 'bf16 2^1 = 2')
s.h16op('tanh.approx.f16', [0x0000], 0x0000, 'f16 tanh(0) = 0')
s.h16op('tanh.approx.bf16', [0xFF80], 0xBF80, 'bf16 tanh(-inf) = -1')
s.h32op('ex2.approx.f16x2', [(0x3C00 << 16) | 0x4000], (0x4000 << 16) | 0x4400, 'f16x2: lo 2^2 = 4, hi 2^1 = 2')
s.h32op('tanh.approx.bf16x2', [(0x7F80 << 16) | 0x8000], (0x3F80 << 16) | 0x8000, 'bf16x2: lo tanh(-0) = -0, hi tanh(inf) = 1')
s.f64op('rcp.approx.ftz.f64', [D(2.0)], D(0.5), 'MUFU.RCP64H of the high word: 1/2')
s.f64op('rcp.approx.ftz.f64', [0x4000000000000001], D(0.5),
        'ptxas reads only the high word of a (0x40000000 = 2.0) and writes a zero low word -> 0.5')
s.f64op('rcp.approx.ftz.f64', [0x0008000000000000], 0x7FF0000000000000, '.ftz: the subnormal is flushed, 1/+0 = +inf')
s.f64op('rsqrt.approx.ftz.f64', [D(4.0)], D(0.5), 'MUFU.RSQ64H: 1/sqrt(4) = 0.5')
s.f64op('rsqrt.approx.f64', [D(4.0)], D(0.5), 'Newton step on an exact start: e = 0, d = r = 0.5')
s.f64op('rsqrt.approx.f64', [0x8000000000000000], 0xFFF0000000000000, 'ptxas slow path: -0 -> -inf')
s.f64op('rsqrt.approx.f64', [D(-1.0)], NAN64, 'slow path: negative -> fff8000000000000')
s.f64op('rsqrt.approx.f64', [0x7FF0000000000000], 0, 'slow path: +inf -> +0')
s.f64op('rsqrt.approx.f64', [0x7FF0000000000001], 0x7FF8000000000001, 'slow path: NaN -> a + a, quieted')
s.f64op('rsqrt.approx.f64', [0x0000000000004000], D(2.0 ** 530),
        'slow path: subnormal 2^-1060 scaled by 2^54 -> rsqrt(2^-1006) = 2^503, times 2^27 = 2^530')
# MUFU.RCP64H/RSQ64H are not correctly rounded: the f32 unit's result on the
# high word's 20 mantissa bits, truncated to 20 bits (measured on an H200,
# all 2^20 mantissas; the values below are the hardware's)
s.f64op('rsqrt.approx.ftz.f64', [0x3FF0000100000000], 0x3FEFFFFE00000000,
        'H200: 1.m with m = 1 -> 0x3feffffe (correctly rounded would be 0x3fefffff)')
s.f64op('rsqrt.approx.ftz.f64', [0x4000000900000000], 0x3FE6A09700000000, 'H200: 2 * 1.m, m = 9 (odd exponent) -> 0x3fe6a097')
s.f64op('rcp.approx.ftz.f64', [0x3FF002C800000000], 0x3FEFFA7100000000, 'H200: 1.m, m = 0x2c8 -> 0x3feffa71 (rounded: 0x3feffa70)')
s.f64op('rcp.approx.ftz.f64', [0x8011E3E8F64ACCF3], 0xFFCC9E7200000000, 'H200: a negative near the normal minimum, exponent applied apart')
s.f64op('rcp.approx.ftz.f64', [0x7FEBF8BADA7B7560], 0, 'H200: 1/x below the normal range flushes to +0')
s.f64op('rcp.approx.ftz.f64', [0xFFF639B16B714B4F], 0x7FFFFFFF00000000, "H200: NaN -> the f32 unit's NaN 7fffffff widened")
s.f64op('rsqrt.approx.f64', [0x0003D6D64EC5CDD2], 0x5FF054E4D6C41B09, 'H200: subnormal, scaled, Newton step on the truncated start')
s.f64op('rsqrt.approx.f64', [0x7FBBC99C01B25020], 0x20084832F29934A3, 'H200: large argument')
s.write()

# =============================================================================
# conversions
# =============================================================================
s = Suite('cvt_int', 'cvt between integer types and between integers and floats')


def cvt(insn, dreg, sreg, stype, sval, expect, why, dkind='r'):
    load = s._load([(sreg, stype, sval)])
    if dkind == 'l':
        s.t64(load + ['%s %s, %s;' % (insn, dreg, sreg)], expect, insn + ': ' + why, dreg)
    else:
        s.t32(load + ['%s %s, %s;' % (insn, dreg, sreg)], expect, insn + ': ' + why, dreg)


cvt('cvt.s32.s8', '%r1', '%r2', 'r', 0x00000080, 0xFFFFFF80, 'the low byte 0x80 = -128 sign-extended')
cvt('cvt.u32.s8', '%r1', '%r2', 'r', 0x12345680, 0xFFFFFF80, 's8 source: sign-extended, upper source bits ignored')
cvt('cvt.u32.u8', '%r1', '%r2', 'r', 0x12345680, 0x00000080, 'u8 source: zero-extended')
cvt('cvt.s8.s32', '%r1', '%r2', 'r', 0x000001FF, 0xFFFFFFFF,
    'truncated to 8 bits (0xff = -1), sign-extended into the 32-bit register (signed type)')
cvt('cvt.u8.u32', '%r1', '%r2', 'r', 0x000001FF, 0x000000FF, 'truncated to 8 bits, zero-extended (unsigned type)')
cvt('cvt.sat.s8.s32', '%r1', '%r2', 'r', 300, 0x0000007F, '.sat clamps 300 to 127')
cvt('cvt.sat.s8.s32', '%r1', '%r2', 'r', (-300) & 0xFFFFFFFF, 0xFFFFFF80, '.sat clamps -300 to -128 (sign-extended)')
cvt('cvt.sat.u8.s32', '%r1', '%r2', 'r', (-5) & 0xFFFFFFFF, 0, '.sat clamps -5 to 0')
cvt('cvt.sat.u8.s32', '%r1', '%r2', 'r', 300, 255, '.sat clamps 300 to 255')
cvt('cvt.sat.u32.s32', '%r1', '%r2', 'r', 0xFFFFFFFF, 0, '.sat: -1 -> 0')
cvt('cvt.sat.s32.u32', '%r1', '%r2', 'r', 0xFFFFFFFF, 0x7FFFFFFF, '.sat: 4294967295 -> INT_MAX')
cvt('cvt.s32.u32', '%r1', '%r2', 'r', 0xFFFFFFFF, 0xFFFFFFFF, 'same width without .sat: bits unchanged')
cvt('cvt.u16.u32', '%h1', '%r2', 'r', 0x12345678, 0x5678, 'truncated to 16 bits')
cvt('cvt.sat.s16.s32', '%h1', '%r2', 'r', 0x80000000, 0x8000, '.sat: INT_MIN -> -32768')
cvt('cvt.u64.s32', '%rd1', '%r2', 'r', 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF, '-1 sign-extended to 64 bits', 'l')
cvt('cvt.u64.u32', '%rd1', '%r2', 'r', 0xFFFFFFFF, 0x00000000FFFFFFFF, 'zero-extended', 'l')
cvt('cvt.s64.s16', '%rd1', '%h2', 'h', 0x8000, 0xFFFFFFFFFFFF8000, '-32768 sign-extended', 'l')
cvt('cvt.sat.s32.s64', '%r1', '%rd2', 'l', 0x8000000000000000, 0x80000000, '.sat: INT64_MIN -> INT_MIN')
cvt('cvt.s32.s64', '%r1', '%rd2', 'l', 0x0000000123456789, 0x23456789, 'truncated to 32 bits')
cvt('cvt.sat.s64.u64', '%rd1', '%rd2', 'l', 0xFFFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, '.sat: UINT64_MAX -> INT64_MAX', 'l')
# float -> int
cvt('cvt.rni.s32.f32', '%r1', '%f2', 'f', F(2.5), 2, 'nearest even: 2.5 -> 2')
cvt('cvt.rni.s32.f32', '%r1', '%f2', 'f', F(3.5), 4, 'nearest even: 3.5 -> 4')
cvt('cvt.rni.s32.f32', '%r1', '%f2', 'f', F(-2.5), 0xFFFFFFFE, 'nearest even: -2.5 -> -2')
cvt('cvt.rzi.s32.f32', '%r1', '%f2', 'f', F(-2.7), 0xFFFFFFFE, 'toward zero: -2.7 -> -2')
cvt('cvt.rmi.s32.f32', '%r1', '%f2', 'f', F(-2.5), 0xFFFFFFFD, 'toward -inf: -2.5 -> -3')
cvt('cvt.rpi.s32.f32', '%r1', '%f2', 'f', F(2.1), 3, 'toward +inf: 2.1 -> 3')
cvt('cvt.rzi.s32.f32', '%r1', '%f2', 'f', 0x7FC00000, 0, 'NaN -> 0 (PTX manual, 32-bit destination from f32)')
cvt('cvt.rzi.s32.f32', '%r1', '%f2', 'f', INF32, 0x7FFFFFFF, 'saturates: +inf -> INT_MAX')
cvt('cvt.rzi.s32.f32', '%r1', '%f2', 'f', NINF32, 0x80000000, 'saturates: -inf -> INT_MIN')
cvt('cvt.rzi.s32.f32', '%r1', '%f2', 'f', F(3e9), 0x7FFFFFFF, 'saturates: 3e9 -> INT_MAX')
cvt('cvt.rni.s32.f32', '%r1', '%f2', 'f', 0xCF000000, 0x80000000, '-2^31 is exactly INT_MIN')
cvt('cvt.rzi.s32.f32', '%r1', '%f2', 'f', 0x4EFFFFFF, 0x7FFFFF80, 'the largest f32 below 2^31 = 2147483520')
cvt('cvt.rzi.u32.f32', '%r1', '%f2', 'f', F(-1.0), 0, 'unsigned saturation: -1 -> 0')
cvt('cvt.rni.u32.f32', '%r1', '%f2', 'f', F(-0.5), 0, '-0.5 rounds to -0 -> 0')
cvt('cvt.rpi.u32.f32', '%r1', '%f2', 'f', F(4294967296.0), 0xFFFFFFFF, '2^32 saturates to UINT_MAX')
cvt('cvt.rni.u8.f32', '%r1', '%f2', 'f', F(300.0), 255, 'u8 destination saturates to 255')
cvt('cvt.rni.s8.f32', '%r1', '%f2', 'f', F(-200.0), 0xFFFFFF80, 's8: -200 -> -128, sign-extended in the register')
cvt('cvt.rzi.ftz.s32.f32', '%r1', '%f2', 'f', 0x80000001, 0, '.ftz: subnormal -> 0')
cvt('cvt.rni.s32.f16', '%r1', '%h2', 'h', 0x4100, 2, 'f16 2.5 -> 2 (nearest even)')
cvt('cvt.rzi.s16.f16', '%h1', '%h2', 'h', 0x7C00, 0x7FFF, 'f16 inf -> 32767')
cvt('cvt.rmi.u32.f16', '%r1', '%h2', 'h', 0xBC00, 0, 'f16 -1 -> 0 (unsigned)')
cvt('cvt.rni.s32.bf16', '%r1', '%h2', 'h', 0x4040, 3, 'bf16 3.0 -> 3')
cvt('cvt.rzi.s32.f64', '%r1', '%d2', 'd', 0x7FF8000000000000, 0x80000000,
    'NaN from an f64 source -> 1 << 31 (PTX Integer Notes; fp.h)')
cvt('cvt.rzi.u32.f64', '%r1', '%d2', 'd', 0x7FF8000000000000, 0x80000000, 'f64 NaN -> 1 << 31 for u32 too')
cvt('cvt.rzi.s64.f32', '%rd1', '%f2', 'f', 0x7FC00000, 0x8000000000000000, '64-bit destination: NaN -> 1 << 63', 'l')
cvt('cvt.rni.s64.f64', '%rd1', '%d2', 'd', D(-(2.0 ** 63)), 0x8000000000000000, '-2^63 is INT64_MIN', 'l')
cvt('cvt.rpi.u64.f64', '%rd1', '%d2', 'd', D(2.0 ** 64), 0xFFFFFFFFFFFFFFFF, '2^64 saturates to UINT64_MAX', 'l')
cvt('cvt.rzi.s64.f64', '%rd1', '%d2', 'd', D(-123456789012.9), (-123456789012) & 0xFFFFFFFFFFFFFFFF, 'toward zero', 'l')
# int -> float
cvt('cvt.rn.f32.s32', '%f1', '%r2', 'r', 16777217, 0x4B800000, '2^24+1 is a tie: even -> 2^24')
cvt('cvt.rp.f32.s32', '%f1', '%r2', 'r', 16777217, 0x4B800001, '2^24+1 toward +inf -> 2^24+2')
cvt('cvt.rm.f32.s32', '%f1', '%r2', 'r', (-16777217) & 0xFFFFFFFF, 0xCB800001, '-(2^24+1) toward -inf -> -(2^24+2)')
cvt('cvt.rz.f32.u32', '%f1', '%r2', 'r', 0xFFFFFFFF, 0x4F7FFFFF, '2^32-1 toward zero -> 2^32-256')
cvt('cvt.rn.f32.u32', '%f1', '%r2', 'r', 0xFFFFFFFF, 0x4F800000, '2^32-1 to nearest -> 2^32')
cvt('cvt.rn.f32.s32', '%f1', '%r2', 'r', 0x80000000, 0xCF000000, 'INT_MIN -> -2^31 exactly')
cvt('cvt.rn.f32.s16', '%f1', '%h2', 'h', 0x8000, F(-32768.0), 's16 -32768')
cvt('cvt.rn.f32.u8', '%f1', '%r2', 'r', 0xFFFFFF80, F(128.0), 'u8 source: the low byte 128')
cvt('cvt.rn.f64.s64', '%rd1', '%rd2', 'l', 2 ** 53 + 1, 0x4340000000000000, '2^53+1 tie: even -> 2^53', 'l')
cvt('cvt.rp.f64.s64', '%rd1', '%rd2', 'l', 2 ** 53 + 1, 0x4340000000000001, '2^53+1 toward +inf', 'l')
cvt('cvt.rn.f64.u64', '%rd1', '%rd2', 'l', 0xFFFFFFFFFFFFFFFF, 0x43F0000000000000, '2^64-1 -> 2^64', 'l')
cvt('cvt.rn.f16.s32', '%h1', '%r2', 'r', 65520, 0x7C00, '65520 is the tie between 65504 and 2^16: even -> overflow -> inf')
cvt('cvt.rz.f16.s32', '%h1', '%r2', 'r', 100000, 0x7BFF, 'toward zero: the largest finite f16 65504')
cvt('cvt.rn.f16.u32', '%h1', '%r2', 'r', 1, 0x3C00, '1 -> 0x3c00')
cvt('cvt.rn.bf16.s32', '%h1', '%r2', 'r', 257, 0x4380, 'bf16: 257 is a tie between 256 and 258 -> even 256')
cvt('cvt.rn.sat.f32.s32', '%f1', '%r2', 'r', 5, ONE, '.sat: 5 -> 1.0')
cvt('cvt.rn.sat.f32.s32', '%f1', '%r2', 'r', 0xFFFFFFFB, 0, '.sat: -5 -> +0')
s.write()

s = Suite('cvt_float', 'cvt between float formats: rounding, ties, .ftz/.sat/.relu/.satfinite, NaNs, packed pairs, fp8, tf32',
          version='8.1')


def cvf(insn, dreg, sreg, stype, sval, expect, why, dkind='r'):
    load = s._load([(sreg, stype, sval)])
    if dkind == 'l':
        s.t64(load + ['%s %s, %s;' % (insn, dreg, sreg)], expect, insn + ': ' + why, dreg)
    else:
        s.t32(load + ['%s %s, %s;' % (insn, dreg, sreg)], expect, insn + ': ' + why, dreg)


cvf('cvt.rn.f16.f32', '%h1', '%f2', 'f', 0x3F801000, 0x3C00, '1 + 2^-11 is a tie: even -> 1.0')
cvf('cvt.rp.f16.f32', '%h1', '%f2', 'f', 0x3F801000, 0x3C01, '... toward +inf -> 1 + 2^-10')
cvf('cvt.rm.f16.f32', '%h1', '%f2', 'f', 0xBF801000, 0xBC01, '-(1 + 2^-11) toward -inf')
cvf('cvt.rz.f16.f32', '%h1', '%f2', 'f', 0x3F801FFF, 0x3C00, 'toward zero drops the tail')
cvf('cvt.rn.f16.f32', '%h1', '%f2', 'f', 0x477FF000, 0x7C00, '65520: tie between 65504 and 2^16 -> inf')
cvf('cvt.rn.f16.f32', '%h1', '%f2', 'f', 0x477FEFFF, 0x7BFF, 'just below 65520 -> 65504')
cvf('cvt.rz.f16.f32', '%h1', '%f2', 'f', 0x477FF000, 0x7BFF, 'toward zero -> 65504')
cvf('cvt.rn.satfinite.f16.f32', '%h1', '%f2', 'f', INF32, 0x7BFF, '.satfinite: inf -> MAX_NORM 65504')
cvf('cvt.rn.satfinite.f16.f32', '%h1', '%f2', 'f', 0x7FC00000, 0x7FFF, '.satfinite: NaN stays NaN (canonical)')
cvf('cvt.rn.f16.f32', '%h1', '%f2', 'f', 0xFFC00001, 0x7FFF, 'NaN -> canonical f16 NaN 7fff (fp.h)')
cvf('cvt.rn.relu.f16.f32', '%h1', '%f2', 'f', F(-1.0), 0x0000, '.relu: -1 -> +0')
cvf('cvt.rn.relu.f16.f32', '%h1', '%f2', 'f', 0x80000000, 0x0000, '.relu: -0 -> +0 (fp.h)')
cvf('cvt.rn.f16.f32', '%h1', '%f2', 'f', F(2.0 ** -24), 0x0001, '2^-24 = the smallest f16 subnormal')
cvf('cvt.rn.f16.f32', '%h1', '%f2', 'f', F(2.0 ** -25), 0x0000, '2^-25 is a tie between 0 and 2^-24: even -> 0')
cvf('cvt.rp.f16.f32', '%h1', '%f2', 'f', 0x00000001, 0x0001, 'toward +inf: 2^-149 -> 2^-24')
cvf('cvt.rn.sat.f16.f32', '%h1', '%f2', 'f', F(2.0), 0x3C00, '.sat clamps to 1.0')
cvf('cvt.f32.f16', '%f1', '%h2', 'h', 0x0001, F(2.0 ** -24), 'exact: the f16 subnormal 2^-24')
cvf('cvt.f32.f16', '%f1', '%h2', 'h', 0x7C01, NAN32, 'f16 NaN -> canonical f32 NaN (fp.h, measured)')
cvf('cvt.f32.bf16', '%f1', '%h2', 'h', 0x7F81, 0x7F810000, 'bf16 -> f32 is a 16-bit shift: NaN payload kept (fp.h)')
cvf('cvt.f32.bf16', '%f1', '%h2', 'h', 0xC0A0, F(-5.0), 'bf16 -5')
cvf('cvt.f64.f32', '%rd1', '%f2', 'f', 0x7F800001, 0x7FF8000020000000, 'f32 NaN to f64: quieted, payload kept (fp.h)', 'l')
cvf('cvt.ftz.f64.f32', '%rd1', '%f2', 'f', 0x7F800001, 0x7FFFFFFFE0000000, '.ftz canonicalises the f32 NaN first (fp.h)', 'l')
cvf('cvt.ftz.f64.f32', '%rd1', '%f2', 'f', 0x80000001, 0x8000000000000000, '.ftz flushes the subnormal source to -0', 'l')
cvf('cvt.f64.f32', '%rd1', '%f2', 'f', 0x80000001, D(-(2.0 ** -149)), 'exact without .ftz', 'l')
cvf('cvt.rn.f32.f64', '%f1', '%rd2', 'l', 0x3FF0000010000000, ONE, '1 + 2^-24 is a tie: even -> 1.0')
cvf('cvt.rp.f32.f64', '%f1', '%rd2', 'l', 0x3FF0000010000000, 0x3F800001, 'toward +inf')
cvf('cvt.rn.f32.f64', '%f1', '%rd2', 'l', D(1e300), INF32, 'overflow -> inf')
cvf('cvt.rz.f32.f64', '%f1', '%rd2', 'l', D(1e300), 0x7F7FFFFF, 'toward zero -> max finite')
cvf('cvt.rm.f32.f64', '%f1', '%rd2', 'l', D(2.0 ** -150), 0x00000000, '2^-150 toward -inf -> +0')
cvf('cvt.rn.f32.f64', '%f1', '%rd2', 'l', D(2.0 ** -149 * 1.5), 0x00000002, '1.5 * 2^-149 is a tie: even -> 2^-148')
cvf('cvt.rn.ftz.f32.f64', '%f1', '%rd2', 'l', D(2.0 ** -130), 0x00000000, '.ftz flushes the tiny result')
cvf('cvt.rn.f32.f64', '%f1', '%rd2', 'l', 0xFFF8000000000000, 0xFFC00000, 'f64 NaN to f32: IEEE, sign kept (fp.h)')
cvf('cvt.rn.f16.f64', '%h1', '%rd2', 'l', D(1.0 + 2.0 ** -11 + 2.0 ** -40), 0x3C01,
    'one rounding from f64: just above the tie -> 1 + 2^-10 (no double rounding through f32)')
cvf('cvt.rn.bf16.f32', '%h1', '%f2', 'f', 0x3F808000, 0x3F80, '1 + 2^-8 tie -> even 1.0')
cvf('cvt.rn.bf16.f32', '%h1', '%f2', 'f', 0x3F818000, 0x3F82, '(1 + 3*2^-8) tie -> even 0x3f82')
cvf('cvt.rz.bf16.f32', '%h1', '%f2', 'f', 0x3F81FFFF, 0x3F81, 'toward zero')
cvf('cvt.rn.bf16.f32', '%h1', '%f2', 'f', 0x7F800001, 0x7FFF, 'NaN -> canonical bf16 NaN 7fff (fp.h)')
cvf('cvt.rn.satfinite.bf16.f32', '%h1', '%f2', 'f', NINF32, 0xFF7F, '.satfinite: -inf -> -MAX_NORM')
cvf('cvt.rna.tf32.f32', '%r1', '%f2', 'f', 0x3F801000, 0x3F802000, 'tf32 has 10 fraction bits: 1 + 2^-11 is a tie, .rna -> away')
cvf('cvt.rn.tf32.f32', '%r1', '%f2', 'f', 0x3F801000, 0x3F800000, '.rn: the tie goes to even -> 1.0')
cvf('cvt.rz.tf32.f32', '%r1', '%f2', 'f', 0x3F801FFF, 0x3F800000, '.rz drops the low 13 bits')
cvf('cvt.rni.f32.f32', '%f1', '%f2', 'f', F(2.5), TWO, 'integral, nearest even: 2.5 -> 2.0')
cvf('cvt.rni.f32.f32', '%f1', '%f2', 'f', F(-0.5), 0x80000000, '-0.5 -> -0')
cvf('cvt.rmi.f32.f32', '%f1', '%f2', 'f', F(-0.5), F(-1.0), 'toward -inf: -0.5 -> -1')
cvf('cvt.rpi.f32.f32', '%f1', '%f2', 'f', F(-0.5), 0x80000000, 'toward +inf: -0.5 -> -0')
cvf('cvt.rzi.f32.f32', '%f1', '%f2', 'f', 0x7F800001, NAN32, 'NaN -> canonical (fp.h)')
cvf('cvt.rni.ftz.f32.f32', '%f1', '%f2', 'f', 0x80000001, 0x80000000, '.ftz: -2^-149 -> -0')
cvf('cvt.rni.sat.f32.f32', '%f1', '%f2', 'f', F(1.7), ONE, '.sat: round(1.7) = 2 clamped to 1')
cvf('cvt.rzi.f64.f64', '%rd1', '%rd2', 'l', D(-2.7), D(-2.0), 'toward zero', 'l')
cvf('cvt.rni.f64.f64', '%rd1', '%rd2', 'l', 0x7FF0000000000001, 0x7FF8000000000001, 'f64 NaN quieted, payload kept (fp.h)', 'l')
cvf('cvt.rni.f16.f16', '%h1', '%h2', 'h', 0x4100, 0x4000, 'f16 2.5 -> 2.0')
cvf('cvt.rpi.bf16.bf16', '%h1', '%h2', 'h', 0x3FC0, 0x4000, 'bf16 1.5 -> 2.0')
cvf('cvt.f32.f32', '%f1', '%f2', 'f', 0x7F800001, 0x7F800001, 'no modifier: ptxas emits no instruction (a move), NaN payload kept')
cvf('cvt.f32.f32', '%f1', '%f2', 'f', 0x00000001, 0x00000001, 'a move keeps the subnormal')
cvf('cvt.ftz.f32.f32', '%f1', '%f2', 'f', 0x80000001, 0x80000000, '.ftz (FADD.FTZ x + -0): -2^-149 -> -0')
cvf('cvt.ftz.f32.f32', '%f1', '%f2', 'f', 0x7F800001, NAN32, 'FADD canonicalises the NaN')
cvf('cvt.sat.f32.f32', '%f1', '%f2', 'f', F(2.0), ONE, '.sat (FADD.SAT): 2 -> 1')
cvf('cvt.sat.f32.f32', '%f1', '%f2', 'f', 0xFFC00000, 0x00000000, '.sat: NaN -> +0 (PTX manual)')
cvf('cvt.sat.f32.f32', '%f1', '%f2', 'f', 0x80000000, 0x00000000, '.sat: -0 -> +0')
cvf('cvt.f64.f64', '%rd1', '%rd2', 'l', 0x7FF0000000000001, 0x7FF0000000000001, 'a move: even a signaling NaN is kept', 'l')
cvf('cvt.sat.f64.f64', '%rd1', '%rd2', 'l', D(-3.0), 0, '.sat: -3 -> +0', 'l')
cvf('cvt.sat.f64.f64', '%rd1', '%rd2', 'l', D(0.25), D(0.25), '.sat: 0.25 unchanged', 'l')
cvf('cvt.f16.f16', '%h1', '%h2', 'h', 0x7C01, 0x7FFF, 'ptxas emits HADD2 x + -0: NaN -> canonical 7fff')
cvf('cvt.f16.f16', '%h1', '%h2', 'h', 0x0001, 0x0001, 'HADD2 keeps f16 subnormals')
cvf('cvt.sat.f16.f16', '%h1', '%h2', 'h', 0xC000, 0x0000, '.sat (HADD2.SAT): -2 -> +0')
# packed pairs: a goes to the upper half (PTX manual: d[31:16] = convert(a))
s.t32(['mov.b32 %f2, 0f3F800000;', 'mov.b32 %f3, 0f40000000;', 'cvt.rn.f16x2.f32 %r1, %f2, %f3;'], 0x3C004000,
      'cvt.rn.f16x2.f32 d, 1.0, 2.0: a (1.0 = 3c00) upper, b (2.0 = 4000) lower')
s.t32(['mov.b32 %f2, 0f3F800000;', 'cvt.rn.f16x2.f32 %r1, %f2, 0.5;'], 0x3C003800,
      'cvt.rn.f16x2.f32 with a decimal literal b = 0.5 (3800) in the lower half')
s.t32(['mov.b32 %f2, 0fBF801000;', 'mov.b32 %f3, 0f3F801000;', 'cvt.rz.f16x2.f32 %r1, %f2, %f3;'], 0xBC003C00,
      'cvt.rz.f16x2.f32: -(1+2^-11) -> bc00 upper, 1+2^-11 -> 3c00 lower')
s.t32(['mov.b32 %f2, 0f3F800000;', 'mov.b32 %f3, 0fBF800000;', 'cvt.rn.bf16x2.f32 %r1, %f2, %f3;'], 0x3F80BF80,
      'cvt.rn.bf16x2.f32 d, 1, -1: 3f80 upper, bf80 lower')
s.t32(['mov.b32 %f2, 0fBF800000;', 'mov.b32 %f3, 0f7F800000;', 'cvt.rn.relu.satfinite.bf16x2.f32 %r1, %f2, %f3;'],
      0x00007F7F, 'cvt.rn.relu.satfinite.bf16x2.f32: a = -1 -> relu +0, b = inf -> satfinite 7f7f')
s.t32(['mov.b32 %f2, 0f3F800000;', 'mov.b32 %f3, 0f43E00000;', 'cvt.rn.satfinite.e4m3x2.f32 %h1, %f2, %f3;'], 0x387E,
      'cvt.rn.satfinite.e4m3x2.f32 d, 1.0, 448: e4m3 1.0 = 0x38 upper, 448 (max) = 0x7e lower', '%h1')
s.t32(['mov.b32 %f2, 0f7FC00000;', 'mov.b32 %f3, 0f447A0000;', 'cvt.rn.satfinite.e4m3x2.f32 %h1, %f2, %f3;'], 0x7F7E,
      'e4m3x2: NaN -> 0x7f; 1000 saturates to 448 = 0x7e', '%h1')
s.t32(['mov.b32 %f2, 0fBF800000;', 'mov.b32 %f3, 0f3F800000;', 'cvt.rn.satfinite.relu.e4m3x2.f32 %h1, %f2, %f3;'], 0x0038,
      'e4m3x2 .relu: -1 -> 0, 1 -> 0x38', '%h1')
s.t32(['mov.b32 %f2, 0f3F800000;', 'mov.b32 %f3, 0f7F800000;', 'cvt.rn.satfinite.e5m2x2.f32 %h1, %f2, %f3;'], 0x3C7B,
      'cvt.rn.satfinite.e5m2x2.f32 d, 1.0, inf: e5m2 1.0 = 0x3c; inf saturates to 57344 = 0x7b', '%h1')
s.t32(['mov.b16 %h2, 0x387E;', 'cvt.rn.f16x2.e4m3x2 %r1, %h2;'], 0x3C005F00,
      'cvt.rn.f16x2.e4m3x2: upper 0x38 = 1.0 -> 3c00, lower 0x7e = 448 -> 5f00')
s.t32(['mov.b16 %h2, 0x3C7B;', 'cvt.rn.f16x2.e5m2x2 %r1, %h2;'], 0x3C007B00,
      'cvt.rn.f16x2.e5m2x2: upper 0x3c = 1.0, lower 0x7b = 57344 -> 7b00')
s.t32(['mov.b16 %h2, 0xB87F;', 'cvt.rn.relu.f16x2.e4m3x2 %r1, %h2;'], 0x00007FFF,
      'cvt.rn.relu.f16x2.e4m3x2: upper -1 -> +0, lower NaN (0x7f) -> canonical 7fff')
s.t32(['mov.b32 %r2, 0x3C005F00;', 'cvt.rn.satfinite.e4m3x2.f16x2 %h1, %r2;'], 0x387E,
      'cvt.rn.satfinite.e4m3x2.f16x2: upper f16 1.0 -> 0x38, lower 448 -> 0x7e', '%h1')
s.write()

s = Suite('cvt_pack', 'cvt.pack: saturating pack of two s32 values, the rest from c', version='8.0')
s.t32(['mov.b32 %r2, 300;', 'mov.b32 %r3, -5;', 'mov.b32 %r4, 0x12345678;', 'cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;'],
      0x5678FF00, 'cvt.pack.sat.u8: b = -5 -> 0 in bits 7..0, a = 300 -> 255 in bits 15..8, c << 16 above')
s.t32(['mov.b32 %r2, -200;', 'mov.b32 %r3, 100;', 'mov.b32 %r4, 0;', 'cvt.pack.sat.s8.s32.b32 %r1, %r2, %r3, %r4;'],
      0x00008064, 'cvt.pack.sat.s8: a = -200 -> -128 (0x80), b = 100 (0x64), c = 0')
s.t32(['mov.b32 %r2, -40000;', 'mov.b32 %r3, 40000;', 'cvt.pack.sat.s16.s32 %r1, %r2, %r3;'], 0x80007FFF,
      'cvt.pack.sat.s16: a = -40000 -> 0x8000 upper, b = 40000 -> 0x7fff lower')
s.t32(['mov.b32 %r2, 70000;', 'mov.b32 %r3, -1;', 'cvt.pack.sat.u16.s32 %r1, %r2, %r3;'], 0xFFFF0000,
      'cvt.pack.sat.u16: a = 70000 -> 0xffff upper, b = -1 -> 0 lower')
s.t32(['mov.b32 %r2, -9;', 'mov.b32 %r3, 7;', 'mov.b32 %r4, 0xABCDEF12;', 'cvt.pack.sat.s4.s32.b32 %r1, %r2, %r3, %r4;'],
      0xCDEF1287, 'cvt.pack.sat.s4: a = -9 -> -8 (0x8) bits 7..4, b = 7 bits 3..0, c << 8 above')
s.t32(['mov.b32 %r2, 16;', 'mov.b32 %r3, 3;', 'mov.b32 %r4, 0x1;', 'cvt.pack.sat.u4.s32.b32 %r1, %r2, %r3, %r4;'],
      0x000001F3, 'cvt.pack.sat.u4: a = 16 -> 15, b = 3, c = 1 at bit 8')
s.write()
