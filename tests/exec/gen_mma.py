#!/usr/bin/env python3
"""tests/exec/gen_mma.py - writes the tensor-core tests of tests/exec:
mma_*.ptx, mma_*.launch and their data in mma_data/.

Every expected output is computed here by a straightforward reference that
shares no code with the emulator: whole matrices A (MxK), B (KxN), C (MxN)
are generated, D = A*B + C is computed element by element, and the
register images of the fragments are built with the per-lane layouts as
the PTX ISA manual writes them (row/col formulas of the "Matrix fragments
for mma.mXnYkZ" sections, ldmatrix/stmatrix, wgmma), written out here
shape by shape.  wmma fragments are opaque in PTX; their layout here is the
one measured on an H100 (see WMMA LAYOUTS below).

Numerics of the reference (the H100 tensor-core model, measured; see
README and emu/exec_mma.c): products of f16/bf16/tf32 inputs are exact;
the K products and c are aligned to the largest exponent
E = max(ea+eb, ec) (format exponents, subnormals at emin), each truncated
toward zero to FRAC = 25 fraction bits below 2^E, added exactly, and the
sum is rounded once: toward zero to f32, or to nearest even to f16.  tf32
inputs ignore the low 13 bits.  Forms built by ptxas from several steps:
mma.sync e4m3/e5m2 (inputs to f16; two f16 products over k with (k/2)
even, then odd, the first from zero; then c added by an IEEE add),
mma.m8n8k4 with an f32 result (f32 fma chain p0+p1+p2+p3, then + c, all
to nearest), wmma.m16n16k8 tf32 (two k=4 products in k order), wgmma
e4m3/e5m2 (FRAC 13, f32 results cut to 13 fraction bits).  f64 is a chain
of IEEE fmas in k order.  Integers are exact (wrap or .satfinite).

Data: each test runs W warps; warps come in groups of 4 with different
data: small integers (every result exact), random values, values over
the whole exponent range with subnormals, signed powers of two (many exact
ties and cancellations), and special values (inf, NaN, zeros, extremes).

Usage: gen_mma.py [OUTDIR]   (default: the folder of this script)
"""
import os
import random
import struct
import sys
import zlib
from fractions import Fraction

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
DATA = 'mma_data'
os.makedirs(os.path.join(OUT, DATA), exist_ok=True)

# ----------------------------------------------------------------------------
# Floating-point formats: (exponent bits, fraction bits)
FMT = {'f16': (5, 10), 'bf16': (8, 7), 'tf32': (8, 23), 'f32': (8, 23), 'e4m3': (4, 3),
       'e5m2': (5, 2), 'f64': (11, 52)}
WIDTH = {'f16': 16, 'bf16': 16, 'tf32': 32, 'f32': 32, 'e4m3': 8, 'e5m2': 8, 'f64': 64,
         's8': 8, 'u8': 8, 's4': 4, 'u4': 4, 'b1': 1, 's32': 32}
ZERO, NUM, INF, NAN = range(4)
CANON_NAN = {'f32': 0x7FFFFFFF, 'f16': 0x7FFF}


def fdecode(bits, f):
    """-> (class, sign, format exponent, x, sig): value = (-1)^sign * sig * 2^x."""
    eb, mb = FMT[f]
    if f == 'tf32':
        bits &= 0xFFFFE000
    emask, mmask = (1 << eb) - 1, (1 << mb) - 1
    bias = (1 << (eb - 1)) - 1
    s = (bits >> (eb + mb)) & 1
    e = (bits >> mb) & emask
    m = bits & mmask
    if f == 'e4m3':
        if e == emask and m == mmask:
            return (NAN, s, 0, 0, 0)
    elif e == emask:
        return (NAN if m else INF, s, 0, 0, 0)
    if e == 0:
        if m == 0:
            return (ZERO, s, 0, 0, 0)
        return (NUM, s, 1 - bias, 1 - bias - mb, m)
    return (NUM, s, e - bias, e - bias - mb, m | (1 << mb))


def fround(sign, mag, x, f, mode):
    """Round (-1)^sign * mag * 2^x to format f; mode rn/rz/rm/rp; overflow -> inf
    except where the IEEE directed rounding gives the largest finite value."""
    eb, mb = FMT[f]
    sbit = sign << (eb + mb)
    if mag == 0:
        return sbit
    bias = (1 << (eb - 1)) - 1
    emin = 1 - bias
    e = x + mag.bit_length() - 1
    lsb = max(e, emin) - mb
    sh = lsb - x
    if sh <= 0:
        q, rem, half = mag << -sh, 0, 0
    else:
        q, rem, half = mag >> sh, mag & ((1 << sh) - 1), 1 << (sh - 1)
    up = False
    if rem:
        if mode == 'rn':
            up = rem > half or (rem == half and q & 1)
        elif mode == 'rp':
            up = not sign
        elif mode == 'rm':
            up = bool(sign)
    if up:
        q += 1
    if q >> (mb + 1):
        q >>= 1
        lsb += 1
    emax = (1 << eb) - 1
    if q < (1 << mb):
        return sbit | q
    be = lsb + mb + bias
    if be >= emax:
        if mode == 'rn' or (mode == 'rp' and not sign) or (mode == 'rm' and sign) or f != 'f64':
            return sbit | (emax << mb)
        return sbit | ((emax - 1) << mb) | ((1 << mb) - 1)
    return sbit | (be << mb) | (q & ((1 << mb) - 1))


FRAC = 25          # fraction bits of the tensor-core alignment (f16, bf16, tf32)
FRAC_FP8 = 13      # ... for e4m3/e5m2 inputs


def tc_dot(avals, bvals, afmt, bfmt, cbits, cfmt, dfmt, nega=False, negb=False):
    """sum a_k*b_k + c with the tensor-core numerics; returns the D bits."""
    frac = FRAC_FP8 if afmt in ('e4m3', 'e5m2') else FRAC
    c = fdecode(cbits, cfmt)
    nan = c[0] == NAN
    pinf = c[0] == INF and not c[1]
    ninf = c[0] == INF and c[1]
    prods = []
    for a, b in zip(avals, bvals):
        p, q = fdecode(a, afmt), fdecode(b, bfmt)
        if nega:
            p = (p[0], p[1] ^ 1) + p[2:]
        if negb:
            q = (q[0], q[1] ^ 1) + q[2:]
        prods.append((p, q))
        if p[0] == NAN or q[0] == NAN:
            nan = True
        elif p[0] == INF or q[0] == INF:
            if p[0] == ZERO or q[0] == ZERO:
                nan = True
            elif p[1] ^ q[1]:
                ninf = True
            else:
                pinf = True
    out16 = dfmt == 'f16'
    if nan or (pinf and ninf):
        return CANON_NAN[dfmt]
    if pinf or ninf:
        return (0xFC00 if ninf else 0x7C00) if out16 else (0xFF800000 if ninf else 0x7F800000)
    terms = []
    allneg = bool(c[1])
    for p, q in prods:
        allneg = allneg and bool(p[1] ^ q[1])
        if p[0] == NUM and q[0] == NUM:
            terms.append((p[1] ^ q[1], p[2] + q[2], p[3] + q[3], p[4] * q[4]))
    if c[0] == NUM:
        terms.append((c[1], c[2], c[3], c[4]))
    if not terms:
        return (0x8000 if out16 else 0x80000000) if allneg else 0
    E = max(t[1] for t in terms)
    lsb = E - frac
    s = 0
    for sg, _, x, sig in terms:
        sh = x - lsb
        v = sig << sh if sh >= 0 else sig >> -sh
        s += -v if sg else v
    if s == 0:
        return 0
    return fround(1 if s < 0 else 0, abs(s), lsb, 'f16' if out16 else 'f32', 'rn' if out16 else 'rz')


def tc_chain(avals, bvals, afmt, bfmt, cbits, cfmt, dfmt):
    """The composed forms of fp8 mma.sync (see the docstring)."""
    a16 = [fp8_to_f16(x, afmt) for x in avals]
    b16 = [fp8_to_f16(x, bfmt) for x in bvals]
    part, pf = 0, dfmt
    for h in (0, 1):
        idx = [k for k in range(len(a16)) if (k >> 1) & 1 == h]
        part = tc_dot([a16[k] for k in idx], [b16[k] for k in idx], 'f16', 'f16', part, pf, dfmt)
    return ieee_add(part, cbits, dfmt)


def fp8_to_f16(bits, f):
    c = fdecode(bits, f)
    if c[0] == NAN:
        return 0x7FFF
    if c[0] == INF:
        return 0xFC00 if c[1] else 0x7C00
    if c[0] == ZERO:
        return c[1] << 15
    return fround(c[1], c[4], c[3], 'f16', 'rn')


def ieee_add(x, y, f, rnd='rn'):
    """IEEE add of two f32 or f16 bit patterns (canonical NaN)."""
    p, q = fdecode(x, f), fdecode(y, f)
    eb, mb = FMT[f]
    inf = ((1 << eb) - 1) << mb
    if p[0] == NAN or q[0] == NAN:
        return CANON_NAN[f]
    if p[0] == INF or q[0] == INF:
        if p[0] == INF and q[0] == INF and p[1] != q[1]:
            return CANON_NAN[f]
        sg = p[1] if p[0] == INF else q[1]
        return (sg << (eb + mb)) | inf
    terms = [t for t in (p, q) if t[0] == NUM]
    if not terms:
        return (p[1] & q[1]) << (eb + mb)
    x0 = min(t[3] for t in terms)
    v = sum((-1 if t[1] else 1) * (t[4] << (t[3] - x0)) for t in terms)
    if v == 0:
        return 0
    return fround(1 if v < 0 else 0, abs(v), x0, f, rnd)


def f16_as_f32(bits):
    c = fdecode(bits, 'f16')
    if c[0] == NAN:
        return 0x7FC00000 | (c[1] << 31)
    if c[0] == INF:
        return 0x7F800000 | (c[1] << 31)
    if c[0] == ZERO:
        return c[1] << 31
    return fround(c[1], c[4], c[3], 'f32', 'rn')


def ffma_chain(avals, bvals, cbits, cfmt):
    """mma.m8n8k4 with an f32 result: ((p0 + p1) + p2) + p3, then + c (f32, nearest)."""
    acc = None
    for a, b in zip(avals, bvals):
        p, q = fdecode(a, 'f16'), fdecode(b, 'f16')
        if p[0] == NAN or q[0] == NAN or ((p[0] == INF or q[0] == INF) and (p[0] == ZERO or q[0] == ZERO)):
            pb = CANON_NAN['f32']
        elif p[0] == INF or q[0] == INF:
            pb = 0x7F800000 | ((p[1] ^ q[1]) << 31)
        elif p[0] == ZERO or q[0] == ZERO:
            pb = (p[1] ^ q[1]) << 31
        else:
            pb = fround(p[1] ^ q[1], p[4] * q[4], p[3] + q[3], 'f32', 'rn')    # exact
        acc = pb if acc is None else ieee_add(acc, pb, 'f32')
    c32 = f16_as_f32(cbits) if cfmt == 'f16' else cbits
    return ieee_add(acc, c32, 'f32')


def tc_k4(avals, bvals, cbits, cfmt, dfmt):
    """wmma.m16n16k8 tf32: two k=4 products in k order."""
    d, f = cbits, cfmt
    for k0 in range(0, len(avals), 4):
        d = tc_dot(avals[k0:k0 + 4], bvals[k0:k0 + 4], 'tf32', 'tf32', d, f, dfmt)
        f = dfmt
    return d


def qgmma(avals, bvals, afmt, bfmt, cbits, cfmt, dfmt, nega=False, negb=False):
    """wgmma with fp8 inputs: 13 fraction bits; f32 results keep 13 fraction bits."""
    d = tc_dot(avals, bvals, afmt, bfmt, cbits, cfmt, dfmt, nega, negb)
    if dfmt == 'f32' and (d & 0x7F800000) != 0x7F800000:
        d &= ~0x3FF
    return d


def f64_isnan(a):
    return (a & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000


def f64_fma(a, b, c, mode='rn'):
    """IEEE fma on f64 bit patterns (NaN: b, c, a quieted; invalid: 0xFFF8...)."""
    Q, CN, S = 0x0008000000000000, 0xFFF8000000000000, 1 << 63
    if f64_isnan(a) or f64_isnan(b) or f64_isnan(c):
        for v in (b, c, a):
            if f64_isnan(v):
                return v | Q
    pa, pb, pc = fdecode(a, 'f64'), fdecode(b, 'f64'), fdecode(c, 'f64')
    sp = (a ^ b) & S
    if pa[0] == INF or pb[0] == INF:
        if pa[0] == ZERO or pb[0] == ZERO:
            return CN
        if pc[0] == INF and (c & S) != sp:
            return CN
        return sp | 0x7FF0000000000000
    if pc[0] == INF:
        return c
    if pa[0] == ZERO or pb[0] == ZERO:
        if pc[0] != ZERO:
            return c
        if sp == (c & S):
            return sp
        return S if mode == 'rm' else 0
    v = Fraction(pa[4] * pb[4]) * Fraction(2) ** (pa[3] + pb[3]) * (-1 if sp else 1)
    if pc[0] == NUM:
        v += Fraction(pc[4]) * Fraction(2) ** pc[3] * (-1 if pc[1] else 1)
    if v == 0:
        return S if mode == 'rm' else 0
    sign = 1 if v < 0 else 0
    v = abs(v)
    x = min(pa[3] + pb[3], pc[3] if pc[0] == NUM else 0) - 2
    mag = v / Fraction(2) ** x
    assert mag.denominator == 1
    return fround(sign, int(mag), x, 'f64', mode)


def sval(v, f):
    """Integer value of an s8/u8/s4/u4/b1 element."""
    w = WIDTH[f]
    v &= (1 << w) - 1
    if f[0] == 's' and v >> (w - 1):
        v -= 1 << w
    return v


def ref_mma(A, B, C, M, N, K, afmt, bfmt, cfmt, dfmt, sat=False, bop=None, rnd='rn', nega=False, negb=False, form=None):
    """D = A*B + C on element bit patterns (row-major lists)."""
    D = [0] * (M * N)
    for m in range(M):
        for n in range(N):
            a = [A[m * K + k] for k in range(K)]
            b = [B[k * N + n] for k in range(K)]
            c = C[m * N + n]
            if afmt == 'f64':
                d = c
                for k in range(K):
                    d = f64_fma(a[k], b[k], d, rnd)
            elif afmt == 'b1':
                acc = sval(c, 's32') + sum(((x ^ y) if bop == 'xor' else (x & y)) & 1 for x, y in zip(a, b))
                d = acc & 0xFFFFFFFF
            elif afmt in ('s8', 'u8', 's4', 'u4'):
                acc = sval(c, 's32') + sum(sval(x, afmt) * sval(y, bfmt) for x, y in zip(a, b))
                if sat:
                    acc = max(-2 ** 31, min(2 ** 31 - 1, acc))
                d = acc & 0xFFFFFFFF
            elif form == 'fp8mma':
                d = tc_chain(a, b, afmt, bfmt, c, cfmt, dfmt)
            elif form == 'ffma':
                d = ffma_chain(a, b, c, cfmt)
            elif form == 'k4':
                d = tc_k4(a, b, c, cfmt, dfmt)
            elif form == 'qgmma':
                d = qgmma(a, b, afmt, bfmt, c, cfmt, dfmt, nega, negb)
            else:
                d = tc_dot(a, b, afmt, bfmt, c, cfmt, dfmt, nega, negb)
            D[m * N + n] = d
    return D


# ----------------------------------------------------------------------------
# Data generators (bit patterns)

def enc(f, sign, e, m):
    eb, mb = FMT[f]
    return (sign << (eb + mb)) | (e << mb) | m


def gen_int(rng, f, lo=-8, hi=8):
    v = rng.randint(lo, hi)
    if v == 0:
        return 0
    sign, v = (1 if v < 0 else 0), abs(v)
    e = v.bit_length() - 1
    eb, mb = FMT[f]
    bias = (1 << (eb - 1)) - 1
    m = (v << mb >> e) & ((1 << mb) - 1)
    return enc(f, sign, e + bias, m)


def gen_rand(rng, f, lo=-6, hi=6):
    eb, mb = FMT[f]
    bias = (1 << (eb - 1)) - 1
    m = rng.getrandbits(mb)
    if f == 'tf32':
        m |= 0            # low bits are random garbage anyway (getrandbits(23))
    return enc(f, rng.getrandbits(1), bias + rng.randint(lo, hi), m)


def gen_wide(rng, f):
    eb, mb = FMT[f]
    emax = (1 << eb) - 2
    e = rng.randint(0, emax)
    m = rng.getrandbits(mb)
    if f == 'e4m3' and e == emax + 1:
        e = emax
    return enc(f, rng.getrandbits(1), e, m)


def gen_pow2(rng, f, lo=-5, hi=5):
    eb, mb = FMT[f]
    bias = (1 << (eb - 1)) - 1
    r = rng.random()
    m = 0 if r < 0.6 else (1 << (mb - 1)) if r < 0.85 else rng.getrandbits(mb)
    if rng.random() < 0.1:
        return 0
    return enc(f, rng.getrandbits(1), bias + rng.randint(lo, hi), m)


def specials(f):
    eb, mb = FMT[f]
    emax = (1 << eb) - 1
    s = [0, enc(f, 1, 0, 0), enc(f, 0, 0, 1), enc(f, 1, 0, (1 << mb) - 1), enc(f, 0, 1, 0)]
    if f == 'e4m3':
        s += [enc(f, 0, emax, mb and (1 << mb) - 1), enc(f, 0, emax, (1 << mb) - 2), enc(f, 1, emax, (1 << mb) - 2)]
    else:
        s += [enc(f, 0, emax, 0), enc(f, 1, emax, 0), enc(f, 0, emax, 1 << (mb - 1)),
              enc(f, 0, emax - 1, (1 << mb) - 1), enc(f, 1, emax - 1, (1 << mb) - 1)]
    return s


def gen_special(rng, f):
    if rng.random() < 0.25:
        return rng.choice(specials(f))
    return gen_rand(rng, f, -3, 3)


def gen_elem(rng, f, cat, role):
    """An element of format f for data category cat; role 'ab' or 'c'."""
    if f in ('s8', 'u8', 's4', 'u4', 'b1'):
        return rng.getrandbits(WIDTH[f])
    if f == 's32':
        if cat == 'special':
            return rng.choice([2 ** 31 - 1, 2 ** 31 - 100, 2 ** 31, 2 ** 31 + 77, 0, 5]) & 0xFFFFFFFF
        return rng.randint(-10 ** 6, 10 ** 6) & 0xFFFFFFFF
    if cat == 'int':
        return gen_int(rng, f, -100, 100) if role == 'c' else gen_int(rng, f, -8, 8) if f not in ('e4m3', 'e5m2') else gen_int(rng, f, -4, 4)
    if cat == 'rand':
        if f == 'f64':
            return gen_rand(rng, f, -20, 20)
        return gen_rand(rng, f, -4, 8) if role == 'c' else gen_rand(rng, f, -4, 4)
    if cat == 'wide':
        return gen_wide(rng, f)
    if cat == 'pow2':
        return gen_pow2(rng, f, -6, 6) if role == 'c' else gen_pow2(rng, f, -4, 3)
    return gen_special(rng, f)


CATS = ['int', 'rand', 'wide', 'pow2', 'special']


def cat_of(warp):
    return CATS[(warp // 4) % len(CATS)]


# ----------------------------------------------------------------------------
# Fragment layouts of mma, as the PTX ISA manual writes them.
# Each returns, for (lane, element index i), the (row, col) of the element;
# element i sits in register i // per, bits (i % per) * width.

def g_t(lane):
    return lane >> 2, lane & 3


def frag_A(shape, f):
    M, N, K = shape
    w = WIDTH[f]

    def fn(lane, i):
        g, t = g_t(lane)
        if f in ('f16', 'bf16'):
            if K == 16:
                return (g if i < 2 or 4 <= i < 6 else g + 8), t * 2 + (i & 1) + (8 if i >= 4 else 0)
            return (g if i < 2 else g + 8), t * 2 + (i & 1)                       # k8
        if f == 'tf32' or (f == 'f64' and M == 16):
            if K == 4:
                return (g if i == 0 else g + 8), t
            if K == 8:
                return (g if i in (0, 2) else g + 8), (t if i < 2 else t + 4)
            return (g if i % 2 == 0 else g + 8), (i * 2 + t if i % 2 == 0 else i * 2 - 2 + t)   # f64 k16
        if f == 'f64':                                                        # m8n8k4
            return g, t
        if w == 8:                                                            # s8/u8/e4m3/e5m2
            if M == 8:
                return g, t * 4 + i
            if K == 16:
                return (g if i < 4 else g + 8), t * 4 + (i & 3)
            return (g if i < 4 or 8 <= i < 12 else g + 8), t * 4 + (i & 3) + (16 if i >= 8 else 0)
        if w == 4:
            if M == 8:
                return g, t * 8 + i
            if K == 32:
                return (g if i < 8 else g + 8), t * 8 + (i & 7)
            return (g if i < 8 or 16 <= i < 24 else g + 8), t * 8 + (i & 7) + (32 if i >= 16 else 0)
        if M == 8:                                                            # b1
            return g, t * 32 + i
        if K == 128:
            return (g if i < 32 else g + 8), t * 32 + (i & 31)
        return (g if i < 32 or 64 <= i < 96 else g + 8), t * 32 + (i & 31) + (128 if i >= 64 else 0)
    return fn


def frag_B(shape, f):
    M, N, K = shape
    w = WIDTH[f]

    def fn(lane, i):
        g, t = g_t(lane)
        if f in ('f16', 'bf16'):
            return t * 2 + (i & 1) + 8 * (i >> 1), g        # k16; k32 (mma.sp)
        if f == 'tf32' or (f == 'f64' and M == 16):
            return t + 4 * i, g                         # k4: b0; k8: b0, b1 (t, t+4); f64 k16: t + 4i
        if f == 'f64':
            return t, g
        if w == 8:
            if K == 32 and M == 16:
                return t * 4 + (i & 3) + (16 if i >= 4 else 0), g
            return t * 4 + i, g
        if w == 4:
            if K == 64:
                return t * 8 + (i & 7) + (32 if i >= 8 else 0), g
            return t * 8 + i, g
        if K == 256:
            return t * 32 + (i & 31) + (128 if i >= 32 else 0), g
        return t * 32 + i, g
    return fn


def frag_C(shape):
    M = shape[0]

    def fn(lane, i):
        g, t = g_t(lane)
        if M == 8:
            return g, t * 2 + i
        return (g if i < 2 else g + 8), t * 2 + (i & 1)
    return fn


def frag_884(which, layout, dt=None):
    """mma.m8n8k4 .f16: lanes 0-15 (low group) and 16-31 (high group) of quad
    pair q = (lane >> 2) & 3; returns (matrix q, row, col)."""
    def fn(lane, i):
        q, hi = (lane >> 2) & 3, lane >= 16
        l4 = lane % 4
        if which == 'A':
            if layout == 'row':
                return q, l4 + (4 if hi else 0), i
            return q, i % 4 + (4 if hi else 0), l4
        if which == 'B':
            if layout == 'row':
                return q, l4, i + (4 if hi else 0)
            return q, i, l4 + (4 if hi else 0)
        if dt == 'f16':
            return q, l4 + (4 if hi else 0), i
        X = (lane & 1) + (i & 2)
        return q, X + (4 if hi else 0), (i & 4) + (lane & 2) + (i & 1)
    return fn


def to_regs(elems_at, nelem, width, lanes=32):
    """Register image [lane][reg] from a function (lane, i) -> element bits."""
    per = max(1, 32 // width) if width < 32 else 1
    nreg = nelem // per
    img = []
    for lane in range(lanes):
        regs = []
        for r in range(nreg):
            v = 0
            for e in range(per):
                v |= (elems_at(lane, r * per + e) & ((1 << width) - 1 if width < 64 else ~0)) << (e * width if width < 32 else 0)
            regs.append(v)
        img.append(regs)
    return img


def pack_img(img, regbytes):
    fmt = '<Q' if regbytes == 8 else '<I'
    return b''.join(struct.pack(fmt, v) for regs in img for v in regs)


# ----------------------------------------------------------------------------
# Output: PTX and launch files

HEADER = '.version 8.5\n.target sm_90a\n.address_size 64\n'
HEADER87 = HEADER.replace('8.5', '8.7')   # fp8 with an f16 accumulator needs PTX 8.7


def write(name, text, binary=False):
    with open(os.path.join(OUT, name), 'wb' if binary else 'w') as f:
        f.write(text)


class Launch:
    """A launch file whose inputs live in one blob (buffer 'in') and whose
    outputs in another (buffer 'out', zeroed, compared as a whole with the
    expected blob); each named region is 256-byte aligned and listed in a
    comment with its offset, so a mismatch at byte B belongs to the region
    whose offset is the largest not above B."""

    def __init__(self, name, title):
        self.name = name
        self.head = ['# ' + l for l in title.strip().split('\n')]
        self.head.append('# Generated by gen_mma.py; expected values from its reference (see its docstring).')
        self.lines = []
        self.inp = bytearray()
        self.out = bytearray()
        self.exp = bytearray()
        self.where = {}

    def _put(self, blob, data):
        off = (len(blob) + 255) // 256 * 256
        blob.extend(bytes(off - len(blob)))
        blob.extend(data)
        return off

    def buf(self, bname, data):
        self.where[bname] = 'in+%d' % self._put(self.inp, data)
        self.lines.append('# in  %-8s %s (%d bytes)' % (self.where[bname][3:], bname, len(data)))

    def zero(self, bname, n):
        off = self._put(self.out, bytes(n))
        self._put(self.exp, bytes(n))
        self.where[bname] = 'out+%d' % off
        self.lines.append('# out %-8d %s (%d bytes)' % (off, bname, n))

    def launch(self, kernel, grid, block, args, shared=0):
        self.lines.append('launch %s grid %d 1 1 block %d 1 1 shared %d' % (kernel, grid, block, shared))
        for a in args:
            if a.startswith('ptr '):
                a = 'ptr ' + self.where[a[4:]]
            self.lines.append('arg ' + a)

    def expect(self, bname, data):
        off = int(self.where[bname][4:])
        self.exp[off:off + len(data)] = data

    def save(self):
        pad = lambda b: bytes(b) + bytes((-len(b)) % 256)
        inp, exp = pad(self.inp) or bytes(256), pad(self.exp) or bytes(256)
        write('%s/%s.in.bin' % (DATA, self.name), inp, True)
        write('%s/%s.out.bin' % (DATA, self.name), exp, True)
        lines = self.head + ['ptx %s.ptx' % self.name,
                             'buffer in %d file %s/%s.in.bin' % (len(inp), DATA, self.name),
                             'buffer out %d zero' % len(exp)] + self.lines
        lines.append('expect out %s/%s.out.bin exact' % (DATA, self.name))
        write(self.name + '.launch', '\n'.join(lines) + '\n')


# Register-image kernel: each lane loads its fragment registers from
# in[block][lane][reg], runs one instruction, stores out[block][lane][reg].
def regs_kernel(kname, instr, ops, nthreads=32):
    """ops: list of (operand name, nregs, regtype) in instruction order; the first
    is the destination.  Returns PTX of an entry kernel(param per operand)."""
    p = []
    params = ', '.join('.param .u64 p_%s' % o[0] for o in ops)
    p.append('.visible .entry %s(%s)\n{' % (kname, params))
    p.append('  .reg .b32 %t<4>;\n  .reg .b64 %rd<40>;')
    for name, n, rt in ops:
        p.append('  .reg .%s %%%s<%d>;' % (rt, name, max(n, 1)))
    p.append('  mov.u32 %t0, %tid.x;\n  mov.u32 %t1, %ctaid.x;')
    addr = {}
    for k, (name, n, rt) in enumerate(ops):
        sz = 8 if rt in ('f64', 'b64') else 4
        b = 4 * k
        p.append('  ld.param.u64 %%rd%d, [p_%s];' % (b, name))
        p.append('  mul.wide.u32 %%rd%d, %%t1, %d;' % (b + 1, n * sz * nthreads))
        p.append('  mul.wide.u32 %%rd%d, %%t0, %d;' % (b + 2, n * sz))
        p.append('  add.s64 %%rd%d, %%rd%d, %%rd%d;' % (b + 3, b, b + 1))
        p.append('  add.s64 %%rd%d, %%rd%d, %%rd%d;' % (b + 3, b + 3, b + 2))
        addr[name] = (b + 3, sz)
    for name, n, rt in ops[1:]:
        r, sz = addr[name]
        for j in range(n):
            p.append('  ld.global.%s %%%s%d, [%%rd%d+%d];' % (rt, name, j, r, j * sz))
    p.append('  ' + instr)
    name, n, rt = ops[0]
    r, sz = addr[name]
    for j in range(n):
        p.append('  st.global.%s [%%rd%d+%d], %%%s%d;' % (rt, r, j * sz, name, j))
    p.append('}\n')
    return '\n'.join(p)


def vec(name, n):
    return '{' + ', '.join('%%%s%d' % (name, j) for j in range(n)) + '}'


# ----------------------------------------------------------------------------
# mma.sync

def nregs_of(rows, cols, f, lanes=32):
    w = WIDTH[f]
    per = 1 if w >= 32 else 32 // w
    return rows * cols // lanes // per


def regtype(f, acc=False):
    if f == 'f64':
        return 'f64'
    if f == 'f32':
        return 'f32'
    return 'b32'


def mma_case(L, ptx, tag, shape, dt, at, bt, ct, warps=20, sat=False, bop=None, layouts=('row', 'col'), seed=1):
    """One mma.sync variant: kernel + data + expected output in launch L."""
    rng = random.Random(zlib.crc32(('%s/%d' % (tag, seed)).encode()))
    M, N, K = shape
    volta = shape == (8, 8, 4) and at == 'f16'
    mods = []
    if sat:
        mods.append('satfinite')
    spelling = 'mma.sync.aligned.m%dn%dk%d.%s.%s' % (M, N, K, layouts[0], layouts[1])
    if sat:
        spelling += '.satfinite'
    spelling += '.%s.%s.%s.%s' % (dt, at, bt, ct)
    if bop:
        spelling += '.%s.popc' % bop
    if volta:
        na, nb = 2, 2
        nc = 4 if ct == 'f16' else 8
        nd = 4 if dt == 'f16' else 8
    else:
        na, nb = nregs_of(M, K, at), nregs_of(K, N, bt)
        nc, nd = nregs_of(M, N, ct), nregs_of(M, N, dt)
    kname = 'mma_' + tag
    instr = '%s %s, %s, %s, %s;' % (spelling, vec('d', nd), vec('a', na), vec('b', nb), vec('c', nc))
    ptx.append(regs_kernel(kname, instr, [('d', nd, regtype(dt)), ('a', na, regtype(at)), ('b', nb, regtype(bt)),
                                          ('c', nc, regtype(ct))]))
    aimg, bimg, cimg, dimg = [], [], [], []
    for wi in range(warps):
        cat = cat_of(wi)
        nmat = 4 if volta else 1
        As = [[gen_elem(rng, at, cat, 'ab') for _ in range(M * K)] for _ in range(nmat)]
        Bs = [[gen_elem(rng, bt, cat, 'ab') for _ in range(K * N)] for _ in range(nmat)]
        Cs = [[gen_elem(rng, ct, cat, 'c') for _ in range(M * N)] for _ in range(nmat)]
        if at == 'b1' or at in ('s8', 'u8', 's4', 'u4'):
            if cat == 'special':
                Cs = [[gen_elem(rng, 's32', 'special', 'c') for _ in range(M * N)] for _ in range(nmat)]
        form = 'fp8mma' if at in ('e4m3', 'e5m2') else 'ffma' if (volta and dt == 'f32') else None
        Ds = [ref_mma(As[q], Bs[q], Cs[q], M, N, K, at, bt, ct, dt, sat=sat, bop=bop, form=form) for q in range(nmat)]
        if volta:
            fa, fb = frag_884('A', layouts[0]), frag_884('B', layouts[1])
            fc, fd = frag_884('C', None, ct), frag_884('C', None, dt)
            pick = lambda f, mats, cols: (lambda lane, i: mats[f(lane, i)[0]][f(lane, i)[1] * cols + f(lane, i)[2]])
            aimg += to_regs(pick(fa, As, K), 4, 16)
            bimg += to_regs(pick(fb, Bs, N), 4, 16)
            cimg += to_regs(pick(fc, Cs, N), 8, WIDTH[ct])
            dimg += to_regs(pick(fd, Ds, N), 8, WIDTH[dt])
        else:
            fa, fb, fc = frag_A(shape, at), frag_B(shape, bt), frag_C(shape)
            A, B, C, D = As[0], Bs[0], Cs[0], Ds[0]
            aimg += to_regs(lambda l, i: A[fa(l, i)[0] * K + fa(l, i)[1]], M * K // 32, WIDTH[at])
            bimg += to_regs(lambda l, i: B[fb(l, i)[0] * N + fb(l, i)[1]], K * N // 32, WIDTH[bt])
            cimg += to_regs(lambda l, i: C[fc(l, i)[0] * N + fc(l, i)[1]], M * N // 32, WIDTH[ct])
            dimg += to_regs(lambda l, i: D[fc(l, i)[0] * N + fc(l, i)[1]], M * N // 32, WIDTH[dt])
    rb = lambda f: 8 if f == 'f64' else 4
    L.buf(tag + '_a', pack_img(aimg, rb(at)))
    L.buf(tag + '_b', pack_img(bimg, rb(bt)))
    L.buf(tag + '_c', pack_img(cimg, rb(ct)))
    L.zero(tag + '_d', len(dimg) * nd * rb(dt))
    L.lines.append('# %s: %d warps (%s)' % (spelling, warps, ', '.join(cat_of(4 * k) for k in range((warps + 3) // 4))))
    L.launch(kname, warps, 32, ['ptr %s_d' % tag, 'ptr %s_a' % tag, 'ptr %s_b' % tag, 'ptr %s_c' % tag])
    L.expect(tag + '_d', pack_img(dimg, rb(dt)))


def gen_mma_families():
    fams = {
        'mma_f16': ('mma.sync with f16 inputs: m16n8k16/m16n8k8, f32 and f16 accumulators, and the\n'
                    'Volta-style m8n8k4 in every layout and accumulator combination', [
            ('k16_f32', (16, 8, 16), 'f32', 'f16', 'f16', 'f32', {}),
            ('k16_f16', (16, 8, 16), 'f16', 'f16', 'f16', 'f16', {}),
            ('k8_f32', (16, 8, 8), 'f32', 'f16', 'f16', 'f32', {}),
            ('k8_f16', (16, 8, 8), 'f16', 'f16', 'f16', 'f16', {}),
            ('v884_rc_f32', (8, 8, 4), 'f32', 'f16', 'f16', 'f32', {'layouts': ('row', 'col')}),
            ('v884_rr_f16', (8, 8, 4), 'f16', 'f16', 'f16', 'f16', {'layouts': ('row', 'row')}),
            ('v884_cc_f32f16', (8, 8, 4), 'f32', 'f16', 'f16', 'f16', {'layouts': ('col', 'col')}),
            ('v884_cr_f32f16', (8, 8, 4), 'f32', 'f16', 'f16', 'f16', {'layouts': ('col', 'row')}),
        ]),
        'mma_bf16_tf32': ('mma.sync with bf16 (m16n8k16, m16n8k8) and tf32 (m16n8k8, m16n8k4) inputs', [
            ('bf16_k16', (16, 8, 16), 'f32', 'bf16', 'bf16', 'f32', {}),
            ('bf16_k8', (16, 8, 8), 'f32', 'bf16', 'bf16', 'f32', {}),
            ('tf32_k8', (16, 8, 8), 'f32', 'tf32', 'tf32', 'f32', {}),
            ('tf32_k4', (16, 8, 4), 'f32', 'tf32', 'tf32', 'f32', {}),
        ]),
        'mma_fp8': ('mma.sync.m16n8k32 with e4m3/e5m2 inputs (sm_89+), f32 and f16 accumulators', [
            ('e4m3_f32', (16, 8, 32), 'f32', 'e4m3', 'e4m3', 'f32', {}),
            ('e5m2_f32', (16, 8, 32), 'f32', 'e5m2', 'e5m2', 'f32', {}),
            ('e4m3e5m2_f32', (16, 8, 32), 'f32', 'e4m3', 'e5m2', 'f32', {}),
            ('e5m2e4m3_f16', (16, 8, 32), 'f16', 'e5m2', 'e4m3', 'f16', {}),
            ('e4m3_f16', (16, 8, 32), 'f16', 'e4m3', 'e4m3', 'f16', {}),
        ]),
        'mma_f64': ('mma.sync with f64: m8n8k4 and the sm_90 shapes m16n8k4/k8/k16', [
            ('m8n8k4', (8, 8, 4), 'f64', 'f64', 'f64', 'f64', {}),
            ('m16n8k4', (16, 8, 4), 'f64', 'f64', 'f64', 'f64', {}),
            ('m16n8k8', (16, 8, 8), 'f64', 'f64', 'f64', 'f64', {}),
            ('m16n8k16', (16, 8, 16), 'f64', 'f64', 'f64', 'f64', {}),
        ]),
        'mma_int': ('mma.sync with 8-bit and 4-bit integers: every shape, signed/unsigned mixes, .satfinite\n'
                    '(warps 16-19 use accumulators near INT_MAX/INT_MIN)', [
            ('s8_m8n8k16', (8, 8, 16), 's32', 's8', 's8', 's32', {}),
            ('u8s8_m8n8k16_sat', (8, 8, 16), 's32', 'u8', 's8', 's32', {'sat': True}),
            ('s8u8_m16n8k16', (16, 8, 16), 's32', 's8', 'u8', 's32', {}),
            ('u8_m16n8k16_sat', (16, 8, 16), 's32', 'u8', 'u8', 's32', {'sat': True}),
            ('s8_m16n8k32_sat', (16, 8, 32), 's32', 's8', 's8', 's32', {'sat': True}),
            ('u8s8_m16n8k32', (16, 8, 32), 's32', 'u8', 's8', 's32', {}),
            ('s4_m8n8k32', (8, 8, 32), 's32', 's4', 's4', 's32', {}),
            ('u4s4_m8n8k32_sat', (8, 8, 32), 's32', 'u4', 's4', 's32', {'sat': True}),
            ('s4u4_m16n8k32', (16, 8, 32), 's32', 's4', 'u4', 's32', {}),
            ('u4_m16n8k32_sat', (16, 8, 32), 's32', 'u4', 'u4', 's32', {'sat': True}),
            ('s4_m16n8k64_sat', (16, 8, 64), 's32', 's4', 's4', 's32', {'sat': True}),
            ('u4s4_m16n8k64', (16, 8, 64), 's32', 'u4', 's4', 's32', {}),
        ]),
        'mma_b1': ('mma.sync on single bits: m8n8k128, m16n8k128, m16n8k256 with .and.popc and .xor.popc', [
            ('and_m8n8k128', (8, 8, 128), 's32', 'b1', 'b1', 's32', {'bop': 'and'}),
            ('xor_m8n8k128', (8, 8, 128), 's32', 'b1', 'b1', 's32', {'bop': 'xor'}),
            ('and_m16n8k128', (16, 8, 128), 's32', 'b1', 'b1', 's32', {'bop': 'and'}),
            ('xor_m16n8k128', (16, 8, 128), 's32', 'b1', 'b1', 's32', {'bop': 'xor'}),
            ('and_m16n8k256', (16, 8, 256), 's32', 'b1', 'b1', 's32', {'bop': 'and'}),
            ('xor_m16n8k256', (16, 8, 256), 's32', 'b1', 'b1', 's32', {'bop': 'xor'}),
        ]),
    }
    for fam, (title, cases) in fams.items():
        L = Launch(fam, title)
        ptx = [HEADER87 if fam == 'mma_fp8' else HEADER]
        for tag, shape, dt, at, bt, ct, kw in cases:
            mma_case(L, ptx, tag, shape, dt, at, bt, ct, **kw)
        write(fam + '.ptx', '\n'.join(ptx))
        L.save()


# ----------------------------------------------------------------------------
# ldmatrix / stmatrix / movmatrix

def gen_ldst():
    rng = random.Random(7)
    W = 4
    ptx = [HEADER + '.shared .align 16 .b8 sm[512];\n']
    L = Launch('mma_ldmatrix', 'ldmatrix .x1/.x2/.x4 (.trans), stmatrix .x1/.x2/.x4 (.trans), movmatrix.trans;\n'
               'each lane supplies the shared address of a row in a random order')
    # kernel: copy 4 matrices (512 B) to shared, each lane computes its row address
    # from rowperm, runs one instruction per variant, writes registers.
    body = []
    body.append('.visible .entry ldm(.param .u64 p_src, .param .u64 p_perm, .param .u64 p_out)\n{')
    body.append('  .reg .b32 %t<4>; .reg .b32 %r<8>; .reg .b64 %rd<20>;')
    body.append('  mov.u32 %t0, %tid.x;\n  mov.u32 %t1, %ctaid.x;')
    body.append('  ld.param.u64 %rd0, [p_src];\n  mul.wide.u32 %rd1, %t1, 512;\n  add.s64 %rd0, %rd0, %rd1;')
    body.append('  mul.wide.u32 %rd2, %t0, 16;\n  add.s64 %rd0, %rd0, %rd2;')
    body.append('  mov.u64 %rd3, sm;\n  add.s64 %rd4, %rd3, %rd2;')
    body.append('  ld.global.v4.b32 {%r0, %r1, %r2, %r3}, [%rd0];\n  st.shared.v4.b32 [%rd4], {%r0, %r1, %r2, %r3};')
    body.append('  bar.sync 0;')
    body.append('  ld.param.u64 %rd5, [p_perm];\n  mul.wide.u32 %rd6, %t1, 128;\n  add.s64 %rd5, %rd5, %rd6;')
    body.append('  mul.wide.u32 %rd7, %t0, 4;\n  add.s64 %rd5, %rd5, %rd7;\n  ld.global.u32 %t2, [%rd5];')
    body.append('  mul.wide.u32 %rd8, %t2, 16;\n  add.s64 %rd9, %rd3, %rd8;')
    body.append('  ld.param.u64 %rd10, [p_out];\n  mul.wide.u32 %rd11, %t1, 2816;\n  add.s64 %rd10, %rd10, %rd11;')
    body.append('  mul.wide.u32 %rd12, %t0, 4;\n  add.s64 %rd10, %rd10, %rd12;')
    slot = 0
    variants = []
    for num in (1, 2, 4):
        for trans in (False, True):
            regs = vec('r', num)
            body.append('  ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 %s, [%%rd9];' % (num, '.trans' if trans else '', regs))
            for j in range(num):
                body.append('  st.global.b32 [%%rd10+%d], %%r%d;' % (128 * slot, j))
                slot += 1
            variants.append(('ld', num, trans))
    # stmatrix: registers from the source words (words of lane 4t..), store to the shared image
    body.append('}\n')
    ptx.append('\n'.join(body))
    src, perm, out = [], [], []
    for wi in range(W):
        mats = [[rng.getrandbits(16) for _ in range(64)] for _ in range(4)]
        src += [v for m in mats for v in m]
        p = list(range(32))
        rng.shuffle(p)
        perm += p
        # lane l supplies row p[l]; matrix i row r = row supplied by lane 8i+r
        rows = [mats[p[l] // 8][(p[l] % 8) * 8:(p[l] % 8) * 8 + 8] for l in range(32)]
        regs = [[0] * 22 for _ in range(32)]
        slot = 0
        for _, num, trans in variants:
            for i in range(num):
                for l in range(32):
                    g, t = l >> 2, l & 3
                    if trans:
                        lo, hi = rows[8 * i + 2 * t][g], rows[8 * i + 2 * t + 1][g]
                    else:
                        lo, hi = rows[8 * i + g][2 * t], rows[8 * i + g][2 * t + 1]
                    regs[l][slot] = lo | hi << 16
                slot += 1
        # layout in memory: out[block][slot][lane]
        for s in range(22):
            out += [regs[l][s] for l in range(32)]
    L.buf('ld_src', struct.pack('<%dH' % len(src), *src))
    L.buf('rowperm', struct.pack('<%dI' % len(perm), *perm))
    L.zero('ld_out', 4 * len(out))
    L.launch('ldm', W, 32, ['ptr ld_src', 'ptr rowperm', 'ptr ld_out'])
    L.expect('ld_out', struct.pack('<%dI' % len(out), *out))

    # stmatrix + movmatrix: lane l holds 4 registers regs[l][0..3]
    body = ['.visible .entry stm(.param .u64 p_regs, .param .u64 p_perm, .param .u64 p_out, .param .u64 p_mov)\n{',
            '  .reg .b32 %t<4>; .reg .b32 %r<8>; .reg .b32 %z<5>; .reg .b64 %rd<24>;',
            '  mov.u32 %t0, %tid.x;\n  mov.u32 %t1, %ctaid.x;',
            '  ld.param.u64 %rd0, [p_regs];\n  mul.wide.u32 %rd1, %t1, 512;\n  add.s64 %rd0, %rd0, %rd1;',
            '  mul.wide.u32 %rd2, %t0, 16;\n  add.s64 %rd0, %rd0, %rd2;',
            '  ld.global.v4.b32 {%r0, %r1, %r2, %r3}, [%rd0];',
            '  mov.u64 %rd3, sm;\n  add.s64 %rd4, %rd3, %rd2;',
            '  ld.param.u64 %rd5, [p_perm];\n  mul.wide.u32 %rd6, %t1, 128;\n  add.s64 %rd5, %rd5, %rd6;',
            '  mul.wide.u32 %rd7, %t0, 4;\n  add.s64 %rd5, %rd5, %rd7;\n  ld.global.u32 %t2, [%rd5];',
            '  mul.wide.u32 %rd8, %t2, 16;\n  add.s64 %rd9, %rd3, %rd8;',
            '  ld.param.u64 %rd10, [p_out];\n  mul.wide.u32 %rd11, %t1, 3072;\n  add.s64 %rd10, %rd10, %rd11;',
            '  add.s64 %rd10, %rd10, %rd2;',
            '  mov.u32 %z0, 0;']
    sv = []
    slot = 0
    for num in (1, 2, 4):
        for trans in (False, True):
            body.append('  st.shared.v4.b32 [%rd4], {%z0, %z0, %z0, %z0};\n  bar.sync 0;')
            body.append('  stmatrix.sync.aligned.m8n8.x%d%s.shared.b16 [%%rd9], %s;' % (num, '.trans' if trans else '', vec('r', num)))
            body.append('  bar.sync 0;\n  ld.shared.v4.b32 {%z1, %z2, %z3, %z4}, [%rd4];')
            body.append('  st.global.v4.b32 [%%rd10+%d], {%%z1, %%z2, %%z3, %%z4};\n  bar.sync 0;' % (512 * slot))
            sv.append((num, trans))
            slot += 1
    body.append('  movmatrix.sync.aligned.m8n8.trans.b16 %r4, %r1;')
    body.append('  ld.param.u64 %rd12, [p_mov];\n  mul.wide.u32 %rd13, %t1, 128;\n  add.s64 %rd12, %rd12, %rd13;')
    body.append('  add.s64 %rd12, %rd12, %rd7;\n  st.global.b32 [%rd12], %r4;')
    body.append('}\n')
    ptx.append('\n'.join(body))
    regsrc, perm, out, mov = [], [], [], []
    for wi in range(W):
        regs = [[rng.getrandbits(32) for _ in range(4)] for _ in range(32)]
        regsrc += [v for r in regs for v in r]
        p = list(range(32))
        rng.shuffle(p)
        perm += p
        for num, trans in sv:
            img = [0] * 256            # 512 bytes of b16
            for i in range(num):
                # matrix i element (r, c) comes from lane 4r + c/2 (or transposed)
                for r in range(8):
                    addr_lane = 8 * i + r
                    row = p[addr_lane]
                    for c in range(8):
                        if trans:
                            l, half = 4 * c + r // 2, r & 1
                        else:
                            l, half = 4 * r + c // 2, c & 1
                        img[row * 8 + c] = (regs[l][i] >> (16 * half)) & 0xFFFF
            out += img
        for l in range(32):
            g, t = l >> 2, l & 3
            # transposed fragment: element (g, 2t+h) of the result = element (2t+h, g) of the source
            def el(r, c):
                return (regs[4 * r + c // 2][1] >> (16 * (c & 1))) & 0xFFFF
            mov.append(el(2 * t, g) | el(2 * t + 1, g) << 16)
    L.buf('st_regs', struct.pack('<%dI' % len(regsrc), *regsrc))
    L.buf('st_perm', struct.pack('<%dI' % len(perm), *perm))
    L.zero('st_out', 2 * len(out))
    L.zero('mov_out', 4 * len(mov))
    L.launch('stm', W, 32, ['ptr st_regs', 'ptr st_perm', 'ptr st_out', 'ptr mov_out'])
    L.expect('st_out', struct.pack('<%dH' % len(out), *out))
    L.expect('mov_out', struct.pack('<%dI' % len(mov), *mov))
    write('mma_ldmatrix.ptx', '\n'.join(ptx))
    L.save()



# ----------------------------------------------------------------------------
# wmma

# (type, accumulator types, shapes, a/b layouts allowed)
WMMA_SHAPES = {
    'f16': [(16, 16, 16), (32, 8, 16), (8, 32, 16)],
    'bf16': [(16, 16, 16), (32, 8, 16), (8, 32, 16)],
    's8': [(16, 16, 16), (32, 8, 16), (8, 32, 16)],
    'u8': [(16, 16, 16), (32, 8, 16), (8, 32, 16)],
    'tf32': [(16, 16, 8)],
    'f64': [(8, 8, 4)],
    's4': [(8, 8, 32)],
    'u4': [(8, 8, 32)],
    'b1': [(8, 8, 128)],
}


def wmma_nregs(which, shape, f):
    """Registers of a wmma fragment (PTX ISA 'wmma.load' fragment sizes)."""
    M, N, K = shape
    if which == 'c':
        if f == 'f16':
            return 4
        return 2 if f in ('f64', 's32') and M == 8 and N == 8 else 8
    if f == 'f16':
        return 8
    rows, cols = (M, K) if which == 'a' else (K, N)
    return nregs_of(rows, cols, f)


def wmma_regtype(f):
    return {'f64': 'f64', 'f32': 'f32', 'tf32': 'b32'}.get(f, 'b32')


def mat_bytes(rows, cols, f, rowmajor, ld):
    """Byte size of a matrix stored with leading dimension ld (elements)."""
    n = (rows - 1) * ld + cols if rowmajor else (cols - 1) * ld + rows
    return (n * WIDTH[f] + 7) // 8


def mat_store(rows, cols, f, rowmajor, ld, elems, nbytes, fill=None):
    """Memory image (bytes) of a row-major element list stored with layout/ld."""
    w = WIDTH[f]
    bits = bytearray(nbytes if fill is None else fill)
    for r in range(rows):
        for c in range(cols):
            idx = r * ld + c if rowmajor else c * ld + r
            v = elems[r * cols + c]
            if w >= 8:
                bits[idx * w // 8: idx * w // 8 + w // 8] = (v & ((1 << w) - 1)).to_bytes(w // 8, 'little')
            else:
                bp = idx * w
                b = bits[bp // 8]
                b &= ~(((1 << w) - 1) << (bp % 8)) & 0xFF
                b |= (v & ((1 << w) - 1)) << (bp % 8)
                bits[bp // 8] = b
    return bytes(bits)


def al(n, a=256):
    return (n + a - 1) // a * a


def wmma_e2e(L, ptx, tag, shape, at, ct, dt, la, lb, lc, ld_, strides, warps=8, sat=False, bop=None, rnd=None, seed=3):
    """load.a/load.b/load.c, mma, store.d through memory: layout-free check."""
    rng = random.Random(zlib.crc32(('%s/%d' % (tag, seed)).encode()))
    M, N, K = shape
    bt = at
    sa, sb, sc, sd = strides
    ab = al(mat_bytes(M, K, at, la == 'row', sa))
    bb = al(mat_bytes(K, N, bt, lb == 'row', sb))
    cb = al(mat_bytes(M, N, ct, lc == 'row', sc))
    db = al(mat_bytes(M, N, dt, ld_ == 'row', sd))
    na, nb_ = wmma_nregs('a', shape, at), wmma_nregs('b', shape, bt)
    nc, nd = wmma_nregs('c', shape, ct), wmma_nregs('c', shape, dt)
    sh = 'm%dn%dk%d' % shape
    kname = 'wmma_' + tag
    p = ['.visible .entry %s(.param .u64 p_a, .param .u64 p_b, .param .u64 p_c, .param .u64 p_d)\n{' % kname,
         '  .reg .b32 %t<4>;\n  .reg .b64 %rd<16>;',
         '  .reg .%s %%a<%d>;\n  .reg .%s %%b<%d>;\n  .reg .%s %%c<%d>;\n  .reg .%s %%d<%d>;' % (
             wmma_regtype(at), na, wmma_regtype(bt), nb_, wmma_regtype(ct), nc, wmma_regtype(dt), nd),
         '  mov.u32 %t1, %ctaid.x;']
    for k, (nm, size) in enumerate([('a', ab), ('b', bb), ('c', cb), ('d', db)]):
        p.append('  ld.param.u64 %%rd%d, [p_%s];\n  mul.wide.u32 %%rd%d, %%t1, %d;\n  add.s64 %%rd%d, %%rd%d, %%rd%d;' % (
            2 * k, nm, 2 * k + 1, size, 2 * k, 2 * k, 2 * k + 1))
    p.append('  wmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%rd0], %d;' % (la, sh, at, vec('a', na), sa))
    p.append('  wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%rd2], %d;' % (lb, sh, bt, vec('b', nb_), sb))
    p.append('  wmma.load.c.sync.aligned.%s.%s.global.%s %s, [%%rd4], %d;' % (lc, sh, ct, vec('c', nc), sc))
    if at == 'f16':
        mm = 'wmma.mma.sync.aligned.%s.%s.%s.%s.%s' % (la, lb, sh, dt, ct)
    elif at == 'b1':
        mm = 'wmma.mma.%s.popc.sync.aligned.%s.%s.%s.s32.b1.b1.s32' % (bop, la, lb, sh)
    elif at == 'f64':
        mm = 'wmma.mma.sync.aligned.%s.%s.%s%s.f64.f64.f64.f64' % (la, lb, sh, '.' + rnd if rnd else '')
    else:
        mm = 'wmma.mma.sync.aligned.%s.%s.%s.%s.%s.%s.%s%s' % (la, lb, sh, dt, at, bt, ct, '.satfinite' if sat else '')
    p.append('  %s %s, %s, %s, %s;' % (mm, vec('d', nd), vec('a', na), vec('b', nb_), vec('c', nc)))
    p.append('  wmma.store.d.sync.aligned.%s.%s.global.%s [%%rd6], %s, %d;' % (ld_, sh, dt, vec('d', nd), sd))
    p.append('}\n')
    ptx.append('\n'.join(p))
    ai, bi, ci, do = b'', b'', b'', b''
    for wi in range(warps):
        cat = cat_of(wi)
        A = [gen_elem(rng, at, cat, 'ab') for _ in range(M * K)]
        B = [gen_elem(rng, bt, cat, 'ab') for _ in range(K * N)]
        cfmt = ct if ct != 's32' else 's32'
        C = [gen_elem(rng, cfmt, cat, 'c') for _ in range(M * N)]
        D = ref_mma(A, B, C, M, N, K, at, bt, ct, dt, sat=sat, bop=bop, rnd=rnd or 'rn', form='k4' if at == 'tf32' else None)
        ai += mat_store(M, K, at, la == 'row', sa, A, ab, bytes(rng.getrandbits(8) for _ in range(ab)))
        bi += mat_store(K, N, bt, lb == 'row', sb, B, bb, bytes(rng.getrandbits(8) for _ in range(bb)))
        ci += mat_store(M, N, ct, lc == 'row', sc, C, cb, bytes(rng.getrandbits(8) for _ in range(cb)))
        do += mat_store(M, N, dt, ld_ == 'row', sd, D, db)
    L.buf(tag + '_a', ai)
    L.buf(tag + '_b', bi)
    L.buf(tag + '_c', ci)
    L.zero(tag + '_d', len(do))
    L.lines.append('# %s: a %s ld %d, b %s ld %d, c %s ld %d, d %s ld %d' % (mm, la, sa, lb, sb, lc, sc, ld_, sd))
    L.launch(kname, warps, 32, ['ptr %s_a' % tag, 'ptr %s_b' % tag, 'ptr %s_c' % tag, 'ptr %s_d' % tag])
    L.expect(tag + '_d', do)


def gen_wmma():
    L = Launch('mma_wmma', 'wmma.load/mma/store for every shape and type, row and column layouts, strides;\n'
               'the fragments go through memory only, so this checks loads, stores and the numerics')
    ptx = [HEADER]
    cases = []
    n = 0
    for at, shapes in WMMA_SHAPES.items():
        for shape in shapes:
            M, N, K = shape
            sub = at in ('s4', 'u4', 'b1')
            lays = [('row', 'col')] if sub else [('row', 'col'), ('col', 'row'), ('row', 'row'), ('col', 'col')]
            if at == 'f16':
                accs = [('f32', 'f32'), ('f16', 'f16'), ('f32', 'f16'), ('f16', 'f32')]     # (ctype, dtype)
            elif at in ('s8', 'u8', 's4', 'u4', 'b1'):
                accs = [('s32', 's32')]
            elif at == 'f64':
                accs = [('f64', 'f64')]
            else:
                accs = [('f32', 'f32')]
            for li, (la, lb) in enumerate(lays):
                ct, dt = accs[li % len(accs)]
                lc = 'row' if li % 2 == 0 else 'col'
                ld_ = 'col' if li % 3 == 1 else 'row'
                pad = 0 if li == 0 else 128 // WIDTH[at]          # rows stay 16-byte aligned
                w = lambda rows, cols, lay, f: (cols if lay == 'row' else rows) + pad
                sa = w(M, K, la, at)
                sb = w(K, N, lb, at)
                sc = (N if lc == 'row' else M) + (8 if li else 0)
                sd = (N if ld_ == 'row' else M) + (8 if li == 2 else 0)
                kw = {}
                if at in ('s8', 'u8', 's4', 'u4'):
                    kw['sat'] = li % 2 == 1
                if at == 'b1':
                    for bop in ('and', 'xor'):
                        n += 1
                        wmma_e2e(L, ptx, 'w%d_b1_%s' % (n, bop), shape, at, ct, dt, la, lb, lc, ld_, (sa, sb, sc, sd), bop=bop)
                    continue
                if at == 'f64':
                    for rnd in (None, 'rn', 'rz', 'rm', 'rp'):
                        n += 1
                        wmma_e2e(L, ptx, 'w%d_f64_%s' % (n, rnd or 'def'), shape, at, ct, dt, la, lb, lc, ld_, (sa, sb, sc, sd), rnd=rnd)
                    break
                n += 1
                tag = 'w%d_%s_m%dn%dk%d_%s%s_%s%s' % (n, at, M, N, K, la[0], lb[0], ct, dt)
                wmma_e2e(L, ptx, tag, shape, at, ct, dt, la, lb, lc, ld_, (sa, sb, sc, sd), **kw)
    write('mma_wmma.ptx', '\n'.join(ptx))
    L.save()


# Fragment layout probes: wmma.load of a matrix whose element (r, c) holds
# its own index (for narrow types, one bit-plane of the index per launch),
# registers written out raw; wmma.store.d of registers holding their own
# (lane, register, element) index.
# WMMA LAYOUTS: the fragment layouts of wmma on the H100 (sm_90), measured
# with the probes below (PTX leaves them opaque).  They do not depend on the
# .row/.col memory layout; f16 A/B fragments have 8 registers and repeat
# their elements when the tile has fewer.  m8n32k16 is the transposed
# m32n8k16.  Element i of a fragment is in register i // per.
def wmma_pos(which, shape, f, lane, i):
    M, N, K = shape
    g, t = lane >> 2, lane & 3
    rows, cols = {'a': (M, K), 'b': (K, N), 'c': (M, N)}[which]
    i %= rows * cols // 32
    if which == 'c':
        if M == 8 and N == 8:
            return g, t * 2 + i
        if M == 32:
            return g + 8 * (i >> 1), t * 2 + (i & 1)
        if M == 8:
            return t * 2 + (i & 1), g + 8 * (i >> 1)
        return g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >> 2)
    w = WIDTH[f]
    if w == 16:
        if which == 'a':
            if M == 8:
                return g, t * 2 + (i & 1) + 8 * (i >> 1)
            return g + 8 * ((i >> 1) & 1) + 16 * (i >> 3), t * 2 + (i & 1) + 8 * ((i >> 2) & 1)
        if N == 8:
            return t * 2 + (i & 1) + 8 * (i >> 1), g
        if N == 16:
            return t * 2 + (i & 1) + 8 * ((i >> 1) & 1), g + 8 * (i >> 2)
        return t * 2 + (i & 1) + 8 * ((i >> 2) & 1), g + 8 * ((i >> 1) & 1) + 16 * (i >> 3)
    if w == 8:
        return (g + 8 * (i >> 2), t * 4 + (i & 3)) if which == 'a' else (t * 4 + (i & 3), g + 8 * (i >> 2))
    if f == 'tf32':
        return (g + 8 * (i & 1), t + 4 * (i >> 1)) if which == 'a' else (t + 4 * (i & 1), g + 8 * (i >> 1))
    per = {64: 1, 4: 8, 1: 32}[w]
    return (g, t * per + i) if which == 'a' else (t * per + i, g)


def wmma_probe_expect(which, shape, f, lay, shift, width):
    M, N, K = shape
    if which == 'store':
        nr = wmma_nregs('c', shape, f)
        per = 2 if f == 'f16' else 1
        mem = [0] * (M * N)
        for lane in range(32):
            for i in range(nr * per):
                r, c = wmma_pos('c', shape, f, lane, i)
                mem[r * N + c if lay == 'row' else c * M + r] = lane * nr * per + i
        w = WIDTH[f]
        return b''.join(v.to_bytes(w // 8, 'little') for v in mem)
    rows, cols = {'a': (M, K), 'b': (K, N), 'c': (M, N)}[which]
    nr = wmma_nregs(which, shape, f)
    w = WIDTH[f]
    per = 1 if w >= 32 else 32 // w
    img = []
    for lane in range(32):
        for j in range(nr):
            v = 0
            for e in range(per):
                r, c = wmma_pos(which, shape, f, lane, j * per + e)
                idv = ((r * cols + c) >> shift) & ((1 << width) - 1)
                v |= idv << (e * w) if w < 32 else idv
            img.append(v)
    return struct.pack('<%d%s' % (len(img), 'Q' if f == 'f64' else 'I'), *img)


def wmma_probe_planes(f, nelem):
    w = WIDTH[f]
    need = max(1, (nelem - 1).bit_length())
    if w >= 16:
        return [(0, w)]
    step = w
    return [(s, step) for s in range(0, need, step)]


def gen_wmma_probe(expect_fn=None):
    L = Launch('mma_wmma_layout', 'wmma fragment layouts: the register images wmma.load produces and the memory\n'
               'image wmma.store.d produces (PTX leaves them opaque; these are the H100 ones)')
    ptx = [HEADER]
    n = 0
    for at, shapes in WMMA_SHAPES.items():
        if at in ('u8', 'u4'):
            continue
        for shape in shapes:
            M, N, K = shape
            sh = 'm%dn%dk%d' % shape
            sub = at in ('s4', 'b1')
            accs = {'f16': ['f16', 'f32'], 's8': ['s32'], 's4': ['s32'], 'b1': ['s32'], 'f64': ['f64']}.get(at, ['f32'])
            frags = [('a', at), ('b', at)] + [('c', c) for c in accs]
            for which, f in frags:
                rows, cols = {'a': (M, K), 'b': (K, N), 'c': (M, N)}[which]
                for lay in (['row', 'col'] if not (sub and which != 'c') else (['row'] if which == 'a' else ['col'])):
                    nr = wmma_nregs(which, shape, f)
                    n += 1
                    kname = 'probe%d' % n
                    ld = cols if lay == 'row' else rows
                    nbytes = al(mat_bytes(rows, cols, f, lay == 'row', ld), 32)
                    p = ['.visible .entry %s(.param .u64 p_m, .param .u64 p_o)\n{' % kname,
                         '  .reg .b32 %%t<4>;\n  .reg .b64 %%rd<8>;\n  .reg .%s %%r<%d>;' % (wmma_regtype(f), nr),
                         '  mov.u32 %t0, %tid.x;',
                         '  ld.param.u64 %rd0, [p_m];\n  ld.param.u64 %rd1, [p_o];',
                         '  mul.wide.u32 %%rd2, %%t0, %d;\n  add.s64 %%rd1, %%rd1, %%rd2;' % (nr * (8 if f == 'f64' else 4)),
                         '  wmma.load.%s.sync.aligned.%s.%s.global.%s %s, [%%rd0], %d;' % (which, lay, sh, f, vec('r', nr), ld)]
                    for j in range(nr):
                        p.append('  st.global.%s [%%rd1+%d], %%r%d;' % (wmma_regtype(f), j * (8 if f == 'f64' else 4), j))
                    p.append('}\n')
                    ptx.append('\n'.join(p))
                    L.lines.append('# wmma.load.%s.%s.%s.%s: matrix %dx%d, element (r, c) = r*%d + c (bit-planes for narrow types)' % (
                        which, lay, sh, f, rows, cols, cols))
                    for pi, (shift, width) in enumerate(wmma_probe_planes(f, rows * cols)):
                        ids = [((r * cols + c) >> shift) & ((1 << width) - 1) for r in range(rows) for c in range(cols)]
                        bn = '%s_m%d' % (kname, pi)
                        L.buf(bn, mat_store(rows, cols, f, lay == 'row', ld, ids, nbytes))
                        L.zero('%s_o%d' % (kname, pi), 32 * nr * (8 if f == 'f64' else 4))
                        L.launch(kname, 1, 32, ['ptr ' + bn, 'ptr %s_o%d' % (kname, pi)])
                        exp = expect_fn(which, shape, f, lay, shift, width) if expect_fn else None
                        if exp is not None:
                            L.expect('%s_o%d' % (kname, pi), exp)
                        else:
                            L.lines.append('expect %s_o%d value u32 0  # placeholder' % (kname, pi))
            # store probes for each accumulator type and layout
            for f in accs:
                for lay in ('row', 'col'):
                    nr = wmma_nregs('c', shape, f)
                    n += 1
                    kname = 'probe%d' % n
                    ld = N if lay == 'row' else M
                    rb = 8 if f == 'f64' else 4
                    p = ['.visible .entry %s(.param .u64 p_r, .param .u64 p_o)\n{' % kname,
                         '  .reg .b32 %%t<4>;\n  .reg .b64 %%rd<8>;\n  .reg .%s %%r<%d>;' % (wmma_regtype(f), nr),
                         '  mov.u32 %t0, %tid.x;',
                         '  ld.param.u64 %rd0, [p_r];\n  ld.param.u64 %rd1, [p_o];',
                         '  mul.wide.u32 %%rd2, %%t0, %d;\n  add.s64 %%rd0, %%rd0, %%rd2;' % (nr * rb)]
                    for j in range(nr):
                        p.append('  ld.global.%s %%r%d, [%%rd0+%d];' % (wmma_regtype(f), j, j * rb))
                    p.append('  wmma.store.d.sync.aligned.%s.%s.global.%s [%%rd1], %s, %d;' % (lay, sh, f, vec('r', nr), ld))
                    p.append('}\n')
                    ptx.append('\n'.join(p))
                    per = 2 if f == 'f16' else 1
                    img = []
                    for lane in range(32):
                        for j in range(nr):
                            if per == 2:
                                img.append(((lane * nr + j) * 2) | (((lane * nr + j) * 2 + 1) << 16))
                            else:
                                img.append(lane * nr + j)
                    L.lines.append('# wmma.store.d.%s.%s.%s: element e of register j of lane l holds (l*%d + j)*%d + e' % (lay, sh, f, nr, per))
                    L.buf(kname + '_r', struct.pack('<%d%s' % (len(img), 'Q' if rb == 8 else 'I'), *img))
                    L.zero(kname + '_o', M * N * WIDTH[f] // 8)
                    L.launch(kname, 1, 32, ['ptr %s_r' % kname, 'ptr %s_o' % kname])
                    exp = expect_fn('store', shape, f, lay, 0, 0) if expect_fn else None
                    if exp is not None:
                        L.expect(kname + '_o', exp)
                    else:
                        L.lines.append('expect %s_o value u32 0  # placeholder' % kname)
    write('mma_wmma_layout.ptx', '\n'.join(ptx))
    L.save()



# ----------------------------------------------------------------------------
# wgmma (sm_90a)
#
# Shared-memory operands follow the canonical layouts of the PTX ISA
# ("Shared Memory Matrix Layout", "Matrix Descriptor Format"), in bytes, for
# element (mn, k) of an operand (mn = row of A / column of B), e = element
# bytes, T = 16 / e, W = swizzle width in bytes:
#   K-major,  no swizzle: (mn%8)*16 + (mn/8)*SBO + (k%T)*e + (k/T)*LBO
#   K-major,  swizzle W : (mn%8)*W  + (mn/8)*SBO + k*e
#   MN-major, no swizzle: (mn%T)*e  + (mn/T)*SBO + (k%8)*16 + (k/8)*LBO
#   MN-major, swizzle W : (mn%(W/e))*e + (mn/(W/e))*LBO + (k%8)*W + (k/8)*SBO
# and the swizzle XORs address bits [4, 4+log2(W/16)) with bits [7, ...) of the
# shared address (the pattern repeats every 8 rows of W bytes; the descriptor's
# base offset says which row of the pattern a start address that is not
# aligned to the pattern is at).

SWZ = {'none': (0, 0), 'sw32': (3, 32), 'sw64': (2, 64), 'sw128': (1, 128)}   # mode field, width


def desc_byte(mode, mnmajor, mn, kbit, ebits, lbo, sbo, start, base_off=0):
    W = SWZ[mode][1]
    if not mnmajor:
        kb, bit = kbit // 8, kbit % 8
        if W == 0:
            e = max(1, ebits // 8)
            T = 16 // e
            k, ksub = kb // e, 0
            off = (mn % 8) * 16 + (mn // 8) * sbo + (k % T) * e + (k // T) * lbo
        else:
            off = (mn % 8) * W + (mn // 8) * sbo + kb
    else:
        e = ebits // 8
        k = kbit // ebits
        if W == 0:
            T = 16 // e
            off = (mn % T) * e + (mn // T) * sbo + (k % 8) * 16 + (k // 8) * lbo
        else:
            span = W // e
            off = (mn % span) * e + (mn // span) * lbo + (k % 8) * W + (k // 8) * sbo
        bit = 0
    a = start + off
    if W:
        a ^= (((a >> 7) - base_off) & (W // 16 - 1)) << 4
    return a, bit


def desc_template(mode, lbo, sbo, base_off=0):
    return ((lbo & 0x3FFFF) >> 4) << 16 | ((sbo & 0x3FFFF) >> 4) << 32 | base_off << 49 | SWZ[mode][0] << 62


def wg_D_pos(q, lane, i):
    """wgmma accumulator element i of lane (warp q of the warpgroup): (row, col)."""
    g, t = lane >> 2, lane & 3
    return 16 * q + g + 8 * ((i >> 1) & 1), (i >> 2) * 8 + t * 2 + (i & 1)


def put_elem(buf, addr, bit, v, ebits):
    if ebits >= 8:
        buf[addr:addr + ebits // 8] = (v & ((1 << ebits) - 1)).to_bytes(ebits // 8, 'little')
    else:
        buf[addr] = (buf[addr] & ~(1 << bit) & 0xFF) | ((v & 1) << bit)


def wg_kernel(kname, N, K, dt, at, bt, a_regs, S, offA, offB, extra, sat=False, bop=None):
    """PTX of a wgmma test kernel (128 threads)."""
    nd = N // 2 if dt != 'f16' else N // 4
    drt = {'f32': 'f32', 'f16': 'b32', 's32': 's32'}[dt]
    na = 4
    p = ['.shared .align 1024 .b8 sm_%s[%d];' % (kname, S),
         '.visible .entry %s(.param .u64 p_s, .param .u64 p_a, .param .u64 p_c, .param .u64 p_d, '
         '.param .u64 p_ta, .param .u64 p_tb, .param .u32 p_scd)\n{' % kname,
         '  .reg .pred %p<2>;\n  .reg .b32 %t<8>;\n  .reg .b64 %rd<24>;\n  .reg .b32 %v<4>;',
         '  .reg .%s %%d<%d>;\n  .reg .b32 %%a<%d>;' % (drt, nd, na),
         '  mov.u32 %t0, %tid.x;\n  mov.u32 %t1, %ctaid.x;',
         '  ld.param.u64 %%rd0, [p_s];\n  mul.wide.u32 %%rd1, %%t1, %d;\n  add.s64 %%rd0, %%rd0, %%rd1;' % S,
         '  mul.wide.u32 %rd2, %t0, 16;\n  add.s64 %rd0, %rd0, %rd2;',
         '  mov.u64 %%rd3, sm_%s;\n  add.s64 %%rd4, %%rd3, %%rd2;' % kname]
    for j in range(S // 2048):
        p.append('  ld.global.v4.b32 {%%v0, %%v1, %%v2, %%v3}, [%%rd0+%d];\n  st.shared.v4.b32 [%%rd4+%d], {%%v0, %%v1, %%v2, %%v3};' % (2048 * j, 2048 * j))
    p.append('  fence.proxy.async.shared::cta;\n  bar.sync 0;')
    p.append('  ld.param.u64 %%rd5, [p_ta];\n  add.s64 %%rd6, %%rd3, %d;\n  and.b64 %%rd6, %%rd6, 262143;\n  shr.u64 %%rd6, %%rd6, 4;\n  or.b64 %%rd7, %%rd5, %%rd6;' % offA)
    p.append('  ld.param.u64 %%rd8, [p_tb];\n  add.s64 %%rd9, %%rd3, %d;\n  and.b64 %%rd9, %%rd9, 262143;\n  shr.u64 %%rd9, %%rd9, 4;\n  or.b64 %%rd10, %%rd8, %%rd9;' % offB)
    # per-thread images: index = ctaid*128 + tid
    rb = 4
    p.append('  ld.param.u64 %%rd11, [p_c];\n  mul.wide.u32 %%rd12, %%t1, %d;\n  mul.wide.u32 %%rd13, %%t0, %d;\n  add.s64 %%rd11, %%rd11, %%rd12;\n  add.s64 %%rd11, %%rd11, %%rd13;' % (128 * nd * rb, nd * rb))
    p.append('  ld.param.u64 %rd14, [p_d];\n  add.s64 %rd14, %rd14, %rd12;\n  add.s64 %rd14, %rd14, %rd13;')
    for j in range(nd):
        p.append('  ld.global.%s %%d%d, [%%rd11+%d];' % (drt, j, j * rb))
    if a_regs:
        p.append('  ld.param.u64 %%rd15, [p_a];\n  mul.wide.u32 %%rd16, %%t1, %d;\n  mul.wide.u32 %%rd17, %%t0, 16;\n  add.s64 %%rd15, %%rd15, %%rd16;\n  add.s64 %%rd15, %%rd15, %%rd17;' % (128 * 16))
        for j in range(na):
            p.append('  ld.global.b32 %%a%d, [%%rd15+%d];' % (j, 4 * j))
    p.append('  ld.param.u32 %t2, [p_scd];\n  setp.ne.b32 %p0, %t2, 0;')
    p.append('  wgmma.fence.sync.aligned;')
    sp = 'wgmma.mma_async.sync.aligned.m64n%dk%d' % (N, K)
    if at in ('s8', 'u8', 'b1'):
        sp += '.satfinite' if sat else ''
        sp += '.s32.%s.%s' % (at, bt)
        if bop:
            sp += '.%s.popc' % bop
    else:
        sp += '.%s.%s.%s' % (dt, at, bt)
    aop = vec('a', na) if a_regs else '%rd7'
    p.append('  %s %s, %s, %%rd10, %%p0%s;' % (sp, vec('d', nd), aop, extra))
    p.append('  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;')
    for j in range(nd):
        p.append('  st.global.%s [%%rd14+%d], %%d%d;' % (drt, j * rb, j))
    p.append('}\n')
    return '\n'.join(p), sp


WG_K = {'f16': 16, 'bf16': 16, 'tf32': 8, 'e4m3': 32, 'e5m2': 32, 's8': 32, 'u8': 32, 'b1': 256}


def kmajor_params(mode, rows):
    W = SWZ[mode][1]
    if W == 0:
        return 128, 256          # LBO: K-chunk stride, SBO: 8-row group stride (2 chunks of 128 B)
    return 16, 8 * W


def mnmajor_params(mode, mnext, ebits):
    """(LBO, SBO) for an MN-major operand spanning mnext elements, K = 16."""
    W = SWZ[mode][1]
    e = ebits // 8
    if W == 0:
        return 16 * 8 * (mnext // 8), 128          # LBO: 8-k group stride, SBO: 8-mn group stride
    span = W // e
    atoms = max(1, mnext // span)
    return 8 * W, 8 * W * atoms                    # LBO: next MN atom, SBO: next 8-k group


def wg_case(L, ptx, tag, N, at, bt, dt, amode='none', bmode='none', a_mn=False, b_mn=False, a_regs=False,
            scd=1, sa=1, sb=1, sat=False, bop=None, blocks=5, kstep=0, base_off=0, astart_extra=0,
            Afn=None, Bfn=None, fixedC=None, seed=5, shared_fn=None):
    """One wgmma.mma_async test; Afn/Bfn(block, launch) override the data (probes)."""
    rng = random.Random(zlib.crc32(('%s/%d' % (tag, seed)).encode()))
    K = WG_K[at]
    M = 64
    eb_a, eb_b = WIDTH[at], WIDTH[bt]
    # descriptors
    if a_mn:
        alb, asb = mnmajor_params(amode, M, eb_a)
    else:
        alb, asb = kmajor_params(amode, M)
    if b_mn:
        blb, bsb = mnmajor_params(bmode, N, eb_b)
    else:
        blb, bsb = kmajor_params(bmode, N)
    # regions: A then B, each 1024-aligned (plus the optional start offsets)
    def extent(mode, mn, lbo, sbo, rows, ebits):
        mx = 0
        for r in range(rows):
            for kk in range(0, K * ebits, ebits):
                a, _ = desc_byte(mode, mn, r, kk, ebits, lbo, sbo, 0, 0)
                mx = max(mx, a + max(1, ebits // 8))
        return mx
    offA = 0
    a_start = offA + kstep + astart_extra
    aext = 0 if a_regs else extent(amode, a_mn, alb, asb, M, eb_a) + kstep + astart_extra + 128
    offB = al(max(aext, 1), 1024)
    bext = extent(bmode, b_mn, blb, bsb, N, eb_b)
    S = al(offB + bext + 128, 2048)
    extra = ''
    isfloat = at not in ('s8', 'u8', 'b1')
    if isfloat:
        extra += ', %d, %d' % (sa, sb)
        if at in ('f16', 'bf16'):
            if not a_regs:
                extra += ', %d' % int(a_mn)
            extra += ', %d' % int(b_mn)
    text, spelling = wg_kernel('wg_' + tag, N, K, dt, at, bt, a_regs, S, a_start, offB, extra, sat=sat, bop=bop)
    ptx.append(text)
    nd = N // 2 if dt != 'f16' else N // 4
    launches = 2 if (Afn or Bfn) else 1
    cfmt = {'f16': 'f16', 'f32': 'f32', 's32': 's32'}[dt]
    for li in range(launches):
        simg, aimg, cimg, dimg = bytearray(), [], [], []
        for blk in range(blocks):
            cat = CATS[blk % len(CATS)]
            A = Afn(blk, li) if Afn else [gen_elem(rng, at, cat, 'ab') for _ in range(M * K)]
            B = Bfn(blk, li) if Bfn else [gen_elem(rng, bt, cat, 'ab') for _ in range(K * N)]
            C = fixedC(blk) if fixedC else [gen_elem(rng, cfmt, cat, 'c') for _ in range(M * N)]
            sm = bytearray(rng.getrandbits(8) for _ in range(S))
            if shared_fn:
                sm = bytearray(shared_fn(S, li))
            if not a_regs:
                for r in range(M):
                    for k in range(K):
                        a, bit = desc_byte(amode, a_mn, r, k * eb_a, eb_a, alb, asb, a_start, base_off)
                        put_elem(sm, a, bit, A[r * K + k], eb_a)
            for n in range(N):
                for k in range(K):
                    a, bit = desc_byte(bmode, b_mn, n, k * eb_b, eb_b, blb, bsb, offB, 0)
                    put_elem(sm, a, bit, B[k * N + n], eb_b)
            if shared_fn and not a_regs and Afn is None:
                pass
            simg += sm
            C0 = C if scd else [0] * (M * N)
            D = ref_mma(A, B, C0, M, N, K, at, bt, cfmt, dt, sat=sat, bop=bop, nega=sa == -1, negb=sb == -1,
                        form='qgmma' if at in ('e4m3', 'e5m2') else None)
            for q in range(4):
                for lane in range(32):
                    regs_c, regs_d = [], []
                    per = 2 if dt == 'f16' else 1
                    for j in range(nd):
                        vc = vd = 0
                        for e in range(per):
                            r, c = wg_D_pos(q, lane, j * per + e)
                            vc |= C[r * N + c] << (16 * e)
                            vd |= D[r * N + c] << (16 * e)
                        regs_c.append(vc)
                        regs_d.append(vd)
                    cimg += regs_c
                    dimg += regs_d
                    if a_regs:
                        fa = frag_A((16, 8, K), at)
                        per_a = 32 // eb_a
                        regs = []
                        for j in range(4):
                            v = 0
                            for e in range(per_a):
                                r, c = fa(lane, j * per_a + e)
                                v |= A[(16 * q + r) * K + c] << (e * eb_a)
                            regs.append(v)
                        aimg += regs
        sfx = '' if launches == 1 else str(li)
        L.buf('%s_s%s' % (tag, sfx), bytes(simg))
        if aimg:
            L.buf('%s_a%s' % (tag, sfx), struct.pack('<%dI' % len(aimg), *aimg))
        else:
            L.zero('%s_a%s' % (tag, sfx), 4)
        if any(cimg):
            L.buf('%s_c%s' % (tag, sfx), struct.pack('<%dI' % len(cimg), *cimg))
        else:
            L.zero('%s_c%s' % (tag, sfx), 4 * len(cimg))
        L.zero('%s_d%s' % (tag, sfx), 4 * len(dimg))
        ta = desc_template(amode, alb, asb, base_off)
        tb = desc_template(bmode, blb, bsb)
        if launches == 1:
            L.lines.append('# %s: A %s %s%s, B %s %s, scale-d %d, scale-a %d, scale-b %d' % (
                spelling, 'registers' if a_regs else amode, 'MN-major' if a_mn else 'K-major',
                ' start+%d base_offset %d' % (kstep + astart_extra, base_off) if (kstep or astart_extra or base_off) else '',
                bmode, 'MN-major' if b_mn else 'K-major', scd, sa, sb))
        L.launch('wg_' + tag, blocks, 128, ['ptr %s_s%s' % (tag, sfx), 'ptr %s_a%s' % (tag, sfx), 'ptr %s_c%s' % (tag, sfx),
                                            'ptr %s_d%s' % (tag, sfx), 'u64 0x%x' % ta, 'u64 0x%x' % tb, 'u32 %d' % scd])
        L.expect('%s_d%s' % (tag, sfx), struct.pack('<%dI' % len(dimg), *dimg))


def gen_wgmma():
    L = Launch('mma_wgmma', 'wgmma.mma_async (sm_90a): shared-memory descriptors with every swizzle mode,\n'
               'K-major and MN-major (transposed) operands, A from registers, every type, scale-d/imm-scale')
    ptx = [HEADER]
    for mode in ('none', 'sw32', 'sw64', 'sw128'):
        wg_case(L, ptx, 'f16_k_%s' % mode, 16, 'f16', 'f16', 'f32', amode=mode, bmode=mode)
        wg_case(L, ptx, 'f16_mn_%s' % mode, 128 if mode == 'sw128' else 64, 'f16', 'f16', 'f32', amode=mode, bmode=mode,
                a_mn=True, b_mn=True, blocks=3)
    wg_case(L, ptx, 'f16_kstep', 8, 'f16', 'f16', 'f32', amode='sw128', bmode='none', kstep=32)
    wg_case(L, ptx, 'f16_kstep64', 8, 'f16', 'f16', 'f32', amode='sw64', bmode='sw32', kstep=32)
    wg_case(L, ptx, 'f16_rs', 32, 'f16', 'f16', 'f32', a_regs=True, bmode='sw64', b_mn=True)
    wg_case(L, ptx, 'f16_acc16', 16, 'f16', 'f16', 'f16', amode='none', bmode='sw128')
    wg_case(L, ptx, 'f16_rs_acc16', 24, 'f16', 'f16', 'f16', a_regs=True, bmode='sw32')
    wg_case(L, ptx, 'bf16_neg', 8, 'bf16', 'bf16', 'f32', amode='sw128', bmode='sw128', sa=-1, scd=0)
    wg_case(L, ptx, 'bf16_negb', 16, 'bf16', 'bf16', 'f32', amode='sw32', bmode='sw64', sb=-1, a_mn=True)
    wg_case(L, ptx, 'tf32', 8, 'tf32', 'tf32', 'f32', amode='sw128', bmode='sw128')
    wg_case(L, ptx, 'tf32_rs', 16, 'tf32', 'tf32', 'f32', a_regs=True, bmode='sw32')
    wg_case(L, ptx, 'tf32_none', 24, 'tf32', 'tf32', 'f32', amode='none', bmode='none', sb=-1)
    wg_case(L, ptx, 'e4m3', 8, 'e4m3', 'e4m3', 'f32', amode='sw64', bmode='sw64')
    wg_case(L, ptx, 'e5m2e4m3_acc16', 16, 'e5m2', 'e4m3', 'f16', a_regs=True, bmode='sw128')
    wg_case(L, ptx, 'e4m3e5m2_none', 8, 'e4m3', 'e5m2', 'f32', amode='none', bmode='none', sa=-1)
    wg_case(L, ptx, 's8_sat', 8, 's8', 's8', 's32', amode='none', bmode='none', sat=True)
    wg_case(L, ptx, 'u8s8_rs', 16, 'u8', 's8', 's32', a_regs=True, bmode='sw128')
    wg_case(L, ptx, 's8u8_sw32', 8, 's8', 'u8', 's32', amode='sw32', bmode='sw64', scd=0)
    wg_case(L, ptx, 'b1_and', 8, 'b1', 'b1', 's32', amode='none', bmode='none', bop='and')
    wg_case(L, ptx, 'b1_and_sw128', 16, 'b1', 'b1', 's32', amode='sw128', bmode='sw64', bop='and')
    wg_case(L, ptx, 'f16_n256', 256, 'f16', 'f16', 'f32', amode='sw128', bmode='sw128', blocks=2)
    wg_case(L, ptx, 'f16_base3', 8, 'f16', 'f16', 'f32', amode='sw128', bmode='none', astart_extra=384, base_off=3, blocks=2)
    write('mma_wgmma.ptx', '\n'.join(ptx))
    L.save()



def gen_wgmma_probe():
    """Descriptor layout probes: shared memory holds, in every element slot, the
    slot's own index (two launches: index mod 1024 / mod 256, and the rest);
    the other operand is an identity, so D shows which slot each element of A
    (or B) was read from."""
    L = Launch('mma_wgmma_layout', 'wgmma shared-memory descriptor layouts, element by element (see gen_wgmma_probe)')
    ptx = [HEADER]
    for at, dt in (('f16', 'f32'), ('tf32', 'f32'), ('u8', 's32')):
        K = WG_K[at]
        eb = WIDTH[at]
        e = eb // 8
        div = 256 if at == 'u8' else 1024

        def val(slot, li, at=at, div=div):
            v = slot % div if li == 0 else slot // div
            if at == 'u8':
                return v
            return gen_int_exact(at, v)

        def idfill(S, li, e=e, val=val, at=at):
            b = bytearray(S)
            for slot in range(S // e):
                put_elem(b, slot * e, 0, val(slot, li), eb)
            return bytes(b)
        one = 1 if at == 'u8' else gen_int_exact(at, 1)
        majors = [False, True] if at == 'f16' else [False]
        for mode in ('none', 'sw32', 'sw64', 'sw128'):
            for mn in majors:
                # A probe: B = identity (K x K), N = K
                N = K
                tag = 'pa_%s_%s%s' % (at, mode, '_mn' if mn else '')
                alb, asb = mnmajor_params(mode, 64, eb) if mn else kmajor_params(mode, 64)

                def Afn(blk, li, mode=mode, mn=mn, alb=alb, asb=asb, K=K, val=val, e=e):
                    return [val(desc_byte(mode, mn, r, k * eb, eb, alb, asb, 0)[0] // e, li) for r in range(64) for k in range(K)]

                def Bfn(blk, li, K=K, one=one, N=N):
                    return [one if k == n else 0 for k in range(K) for n in range(N)]
                wg_case(L, ptx, tag, N, at, at, dt, amode=mode, a_mn=mn, bmode='none', scd=0, blocks=1,
                        Afn=Afn, Bfn=Bfn, fixedC=lambda blk, N=N: [0] * (64 * N), shared_fn=idfill)
                # B probe: A = identity rows (registers), N = 64 (128 for MN-major 128B)
                N = 128 if (mn and mode == 'sw128') else 64
                tag = 'pb_%s_%s%s' % (at, mode, '_mn' if mn else '')
                blb, bsb = mnmajor_params(mode, N, eb) if mn else kmajor_params(mode, N)
                offB = 0

                def Bfn2(blk, li, mode=mode, mn=mn, blb=blb, bsb=bsb, K=K, N=N, val=val, e=e):
                    # the B region starts at offset 1024 (after an empty A region); slots count from the smem base
                    return [val((1024 + desc_byte(mode, mn, n, k * eb, eb, blb, bsb, 0)[0]) // e, li) for k in range(K) for n in range(N)]

                def Afn2(blk, li, K=K, one=one):
                    return [one if k == r % K else 0 for r in range(64) for k in range(K)]
                wg_case(L, ptx, tag, N, at, at, dt, a_regs=True, bmode=mode, b_mn=mn, scd=0, blocks=1,
                        Afn=Afn2, Bfn=Bfn2, fixedC=lambda blk, N=N: [0] * (64 * N), shared_fn=idfill)
    write('mma_wgmma_layout.ptx', '\n'.join(ptx))
    L.save()


def gen_int_exact(f, v):
    """Bits of the small non-negative integer v in format f."""
    if v == 0:
        return 0
    eb, mb = FMT[f]
    bias = (1 << (eb - 1)) - 1
    e = v.bit_length() - 1
    return enc(f, 0, e + bias, (v << mb >> e) & ((1 << mb) - 1))



def sp_meta_lane(K, sel, g, chunk):
    """Lane holding the metadata of chunk 'chunk' of rows g and g+8 (mma.sp f16/bf16)."""
    return 4 * g + (sel if K == 16 else 2 * sel + chunk // 4)


def sp_decompress(K, sel, aimg, meta):
    """Dense 16 x K rows of (k, element) pairs from the compressed A register
    image [lane][reg] and the metadata registers: register j of lane (g, t)
    holds row g + 8*(j&1), chunk t + 4*(j>>1); the chunk's metadata nibble is
    at bit 16*(row >= 8) + 4*(chunk % 4) of lane sp_meta_lane(); its low and
    high two bits index the first and second element in the chunk."""
    rows = [[] for _ in range(16)]
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for j in range(K // 8):
            row, chunk = g + 8 * (j & 1), t + 4 * (j >> 1)
            nib = (meta[sp_meta_lane(K, sel, g, chunk)] >> (16 * (row >= 8) + 4 * (chunk % 4))) & 15
            for h in range(2):
                rows[row].append((4 * chunk + ((nib >> (2 * h)) & 3), (aimg[lane][j] >> (16 * h)) & 0xFFFF))
    return rows


def sp_ref(K, sel, aimg, meta, B, C, at, ct, dt):
    rows = sp_decompress(K, sel, aimg, meta)
    D = [0] * 128
    for m in range(16):
        for n in range(8):
            ks = [k for k, _ in rows[m]]
            D[m * 8 + n] = tc_dot([v for _, v in rows[m]], [B[k * 8 + n] for k in ks], at, at, C[m * 8 + n], ct, dt)
    return D


def gen_mma_sp():
    """mma.sp with f16/bf16 (m16n8k16, m16n8k32): probes of the metadata layout
    (A holds 1.0 in one register slot, B[k][0] = 2^k (k < 16) and B[k][1] =
    2^(k-16) (k >= 16), so D shows which column each element went to), and
    random data with random (valid) metadata in every lane."""
    L = Launch('mma_sp', 'mma.sp with f16/bf16 inputs: metadata layout, sparsity selectors, numerics (see gen_mma_sp)')
    ptx = [HEADER]
    rng = random.Random(11)
    nibs = [0x4, 0x8, 0xC, 0x9, 0xD, 0xE]      # (i0, i1) = (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)

    def kern(tag, K, sel, at, ct, dt):
        na = nb = K // 8
        nc = 4 if ct == 'f32' else 2
        nd = 4 if dt == 'f32' else 2
        instr = 'mma.sp.sync.aligned.m16n8k%d.row.col.%s.%s.%s.%s %s, %s, %s, %s, %%e0, %d;' % (
            K, dt, at, at, ct, vec('d', nd), vec('a', na), vec('b', nb), vec('c', nc), sel)
        ptx.append(regs_kernel('mma_' + tag, instr, [('d', nd, regtype(dt)), ('a', na, 'b32'), ('b', nb, 'b32'),
                                                     ('c', nc, regtype(ct)), ('e', 1, 'b32')]))
        return instr.split(' ')[0]

    fc = frag_C((16, 8, 16))
    for K, sels in ((16, (0, 1, 2, 3)), (32, (0, 1))):
        na = K // 8
        fb = frag_B((16, 8, K), 'f16')
        for sel in sels:
            tag = 'sp_k%d_s%d' % (K, sel)
            kern(tag, K, sel, 'f16', 'f32', 'f32')
            meta = [sum(rng.choice(nibs) << (4 * j) for j in range(8)) for _ in range(32)]
            L.buf(tag + '_e', struct.pack('<32I', *meta))
            B = [0] * (K * 8)
            for k in range(K):
                B[k * 8 + (0 if k < 16 else 1)] = gen_int_exact('f16', 1 << (k % 16))
            L.buf(tag + '_b', pack_img(to_regs(lambda l, i: B[fb(l, i)[0] * 8 + fb(l, i)[1]], K * 8 // 32, 16), 4))
            L.buf(tag + '_c', bytes(32 * 4 * 4))
            L.lines.append('# probes of %s, selector %d: A = 1.0 in one register slot per launch' % (tag, sel))
            for slot in range(2 * na):
                aimg = [[(0x3C00 << (16 * (slot & 1))) if j == slot // 2 else 0 for j in range(na)] for _ in range(32)]
                L.buf('%s_a%d' % (tag, slot), pack_img(aimg, 4))
                L.zero('%s_d%d' % (tag, slot), 32 * 4 * 4)
                L.launch('mma_' + tag, 1, 32, ['ptr %s_d%d' % (tag, slot), 'ptr %s_a%d' % (tag, slot), 'ptr %s_b' % tag,
                                               'ptr %s_c' % tag, 'ptr %s_e' % tag])
                D = sp_ref(K, sel, aimg, meta, B, [0] * 128, 'f16', 'f32', 'f32')
                L.expect('%s_d%d' % (tag, slot), pack_img(to_regs(lambda l, i: D[fc(l, i)[0] * 8 + fc(l, i)[1]], 4, 32), 4))
    # random data
    for K, sel, at, ct, dt in ((16, 2, 'f16', 'f32', 'f32'), (16, 1, 'bf16', 'f32', 'f32'), (32, 1, 'f16', 'f16', 'f16'),
                               (32, 0, 'bf16', 'f32', 'f32')):
        tag = 'spr_k%d_s%d_%s_%s' % (K, sel, at, dt)
        spelling = kern(tag, K, sel, at, ct, dt)
        na = K // 8
        fb = frag_B((16, 8, K), at)
        W = 20
        aimg, bimg, cimg, dimg, meta_all = [], [], [], [], []
        for wi in range(W):
            cat = cat_of(wi)
            meta = [rng.getrandbits(32) for _ in range(32)]       # junk in the lanes that do not hold metadata
            for g in range(8):
                for chunk in range(K // 4):
                    for half in range(2):
                        ml = sp_meta_lane(K, sel, g, chunk)
                        sh = 16 * half + 4 * (chunk % 4)
                        meta[ml] = (meta[ml] & ~(15 << sh)) | (rng.choice(nibs) << sh)
            A = [[gen_elem(rng, at, cat, 'ab') | (gen_elem(rng, at, cat, 'ab') << 16) for _ in range(na)] for _ in range(32)]
            B = [gen_elem(rng, at, cat, 'ab') for _ in range(K * 8)]
            C = [gen_elem(rng, ct, cat, 'c') for _ in range(128)]
            D = sp_ref(K, sel, A, meta, B, C, at, ct, dt)
            aimg += A
            bimg += to_regs(lambda l, i: B[fb(l, i)[0] * 8 + fb(l, i)[1]], K * 8 // 32, 16)
            cimg += to_regs(lambda l, i: C[fc(l, i)[0] * 8 + fc(l, i)[1]], 4, WIDTH[ct])
            dimg += to_regs(lambda l, i: D[fc(l, i)[0] * 8 + fc(l, i)[1]], 4, WIDTH[dt])
            meta_all += meta
        L.buf(tag + '_a', pack_img(aimg, 4))
        L.buf(tag + '_b', pack_img(bimg, 4))
        L.buf(tag + '_c', pack_img(cimg, 4))
        L.buf(tag + '_e', struct.pack('<%dI' % len(meta_all), *meta_all))
        L.zero(tag + '_d', 4 * sum(len(r) for r in dimg))
        L.lines.append('# %s selector %d: %d warps, random metadata' % (spelling, sel, W))
        L.launch('mma_' + tag, W, 32, ['ptr %s_d' % tag, 'ptr %s_a' % tag, 'ptr %s_b' % tag, 'ptr %s_c' % tag, 'ptr %s_e' % tag])
        L.expect(tag + '_d', pack_img(dimg, 4))
    write('mma_sp.ptx', '\n'.join(ptx))
    L.save()


def gen_int_exact(f, v):
    """Bits of the small non-negative integer v in format f."""
    if v == 0:
        return 0
    eb, mb = FMT[f]
    bias = (1 << (eb - 1)) - 1
    e = v.bit_length() - 1
    return enc(f, 0, e + bias, (v << mb >> e) & ((1 << mb) - 1))



def gen_mma_sp_probe(expect_fn=None):
    """mma.sp (f16, m16n8k16 / m16n8k32): every lane holds random valid
    metadata; A holds 1.0 in one register slot (one launch per slot) and 0
    elsewhere; B[k][0] = 2^k (k < 16), B[k][1] = 2^(k-16) (k >= 16), so D[m][0]
    + 2^16 D[m][1] is the set of columns of A the slot's element went to."""
    rng = random.Random(11)
    L = Launch('mma_sp', 'mma.sp with f16 inputs: metadata layout and sparsity selectors (see gen_mma_sp_probe)')
    ptx = [HEADER]
    nibs = [0x4, 0x8, 0xC, 0x9, 0xD, 0xE]      # (i0, i1) = (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    for K, sels in ((16, (0, 1, 2, 3)), (32, (0, 1))):
        na = nb = K // 8
        for sel in sels:
            tag = 'sp_k%d_s%d' % (K, sel)
            kname = 'mma_' + tag
            instr = 'mma.sp.sync.aligned.m16n8k%d.row.col.f32.f16.f16.f32 %s, %s, %s, %s, %%e0, %d;' % (
                K, vec('d', 4), vec('a', na), vec('b', nb), vec('c', 4), sel)
            ptx.append(regs_kernel(kname, instr, [('d', 4, 'f32'), ('a', na, 'b32'), ('b', nb, 'b32'), ('c', 4, 'f32'),
                                                  ('e', 1, 'b32')]))
            meta = []
            for lane in range(32):
                v = 0
                for j in range(8):
                    v |= rng.choice(nibs) << (4 * j)
                meta.append(v)
            L.buf(tag + '_e', struct.pack('<32I', *meta))
            B = [[0] * 8 for _ in range(K)]
            for k in range(K):
                B[k][0 if k < 16 else 1] = gen_int_exact('f16', 1 << (k % 16))
            fb = frag_B((16, 8, K), 'f16')
            bimg = to_regs(lambda l, i: B[fb(l, i)[0]][fb(l, i)[1]], K * 8 // 32, 16)
            L.buf(tag + '_b', pack_img(bimg, 4))
            L.buf(tag + '_c', bytes(32 * 4 * 4))
            for slot in range(2 * na):
                aimg = [[(0x3C00 << (16 * (slot & 1))) if j == slot // 2 else 0 for j in range(na)] for _ in range(32)]
                L.buf('%s_a%d' % (tag, slot), pack_img(aimg, 4))
                L.zero('%s_d%d' % (tag, slot), 32 * 4 * 4)
                L.launch(kname, 1, 32, ['ptr %s_d%d' % (tag, slot), 'ptr %s_a%d' % (tag, slot), 'ptr %s_b' % tag,
                                        'ptr %s_c' % tag, 'ptr %s_e' % tag])
                exp = expect_fn(K, sel, slot, meta) if expect_fn else None
                if exp is not None:
                    L.expect('%s_d%d' % (tag, slot), exp)
                else:
                    L.lines.append('expect %s_d%d value u32 0  # placeholder' % (tag, slot))
    write('mma_sp.ptx', '\n'.join(ptx))
    L.save()


if __name__ == '__main__':
    gen_mma_families()
    gen_ldst()
    gen_wmma()
    gen_wmma_probe(wmma_probe_expect)
    gen_wgmma()
    gen_wgmma_probe()
    gen_mma_sp()
