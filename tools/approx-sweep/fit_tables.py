#!/usr/bin/env python3
"""Fits the MUFU interpolation tables of emu/fp_approx_tab.h to the H100's
outputs (raw files from `sweep dump` + `sweep undump`, see doc/approx-sweep.md).

Every table has 128 segments (the top 7 bits of a 23-bit argument) and a
quadratic in the low 16 bits xl:  P = C0*2^-16 + C1*xl*2^-32 + C2*xl^2*2^-48
in units of the result's last place.  The coefficients are least-squares fits
to the hardware's results over every argument of the segment.
usage: fit_tables.py RAWDIR > emu/fp_approx_tab.h     (needs numpy)
These are the tables of lg2 and sin/cos; rcp, rsqrt, sqrt and ex2 have the
hardware's own coefficients (tools/approx-sweep/fit_datapath.c,
emu/fp_approx_dp.h)."""
import sys
import numpy as np

raw = sys.argv[1]
N = 1 << 16
t = np.arange(N) / N
A = np.vstack([t ** j for j in range(3)]).T


def f32(name):
    return np.fromfile('%s/%s.u32' % (raw, name), dtype=np.uint32).view(np.float32).astype(np.float64)


def fit_lg2(seg0):
    """Weighted least squares on both sightings of each log2(1.m)."""
    rows = []
    for s in range(128):
        sl = slice(s * N, (s + 1) * N)
        w = np.concatenate([whi[sl], wlo[sl]])
        y = np.concatenate([thi[sl], tlo[sl]])
        B = np.vstack([A, A])
        if s == 0:
            C0, C1 = seg0
            y = y - C0 * 2.0 ** -16 - C1 * 2.0 ** -32 * np.concatenate([np.arange(N)] * 2)
            c2 = np.linalg.lstsq(B[:, 2:] * w[:, None], y * w, rcond=None)[0][0]
            rows.append((C0, C1, int(round(c2 / N / N * 2 ** 48))))
            continue
        c = np.linalg.lstsq(B * w[:, None], y * w, rcond=None)[0]
        rows.append((int(round(c[0] * 2 ** 16)), int(round(c[1] / N * 2 ** 32)), int(round(c[2] / N / N * 2 ** 48))))
    return rows


def fit(target, seg0=None):
    """seg0 = (C0, C1) measured exactly (the tiny results of segment 0 show them): fit C2 only."""
    rows = []
    for s in range(128):
        if s == 0 and seg0:
            C0, C1 = seg0
            rest = target[:N] - C0 * 2.0 ** -16 - C1 * 2.0 ** -32 * np.arange(N)
            c2 = np.linalg.lstsq(A[:, 2:], rest, rcond=None)[0][0]
            rows.append((C0, C1, int(round(c2 / N / N * 2 ** 48))))
            continue
        c = np.linalg.lstsq(A, target[s * N:(s + 1) * N], rcond=None)[0]
        rows.append((int(round(c[0] * 2 ** 16)), int(round(c[1] / N * 2 ** 32)), int(round(c[2] / N / N * 2 ** 48))))
    return rows


tabs = []
# log2(1.m), seen twice and truncated toward zero: as lg2(1.m) and as
# lg2(0.5 * 1.m) = -1 + log2(1.m); a weighted fit takes the finer of the two
r = f32('lg2.approx.ftz.f32_3f000000_1000000_1')
lo, hi = r[:1 << 23], r[1 << 23:]
ulo, uhi = (np.spacing(np.abs(v).astype(np.float32)).astype(np.float64) for v in (lo, hi))
tlo, thi = (1 + lo - ulo / 2) * 2 ** 24, (hi + uhi / 2) * 2 ** 24
thi[0] = tlo[0]                          # lg2(1) is 0 by a special case
wlo, whi = 1 / ulo, 1 / uhi
whi[0] = 0
# segment 0 is exact near 1: lg2(1 + m * 2^-23) = (7377 + 11818 m) * 2^-36 for small m
tabs.append(('lg2', 'log2(1.m) in units of 2^-24, before truncation', [fit_lg2((7377 * 16, 11818 << 20))]))



def turns(bits):
    """FMUL.RZ(x, 0x3e22f983): the angle in revolutions, as sin/cos.approx.f32 form it."""
    x = bits.view(np.float32).astype(np.float64)
    p = x * np.float64(np.array([0x3e22f983], dtype=np.uint32).view(np.float32)[0])    # exact
    f = p.astype(np.float32)
    fb = f.view(np.uint32).copy()
    fb[np.abs(f.astype(np.float64)) > np.abs(p)] -= 1
    return fb.view(np.float32).astype(np.float64)


# sin/cos: |turns| in fixed point with 25 fraction bits; the top 2 are the
# quadrant, the low 23 (or their ones' complement) index sin(pi/2 * u), which
# is truncated to the result.
U, V = [], []
for name, lo, n, st in [('sin', 0x38000000, 0x1c0000, 0x40), ('sin', 0x3f000000, 0x200000, 8), ('sin', 0x40000000, 0x800000, 2),
                        ('cos', 0x38000000, 0x1c0000, 0x40), ('cos', 0x3f000000, 0x200000, 8), ('cos', 0x40000000, 0x800000, 2)]:
    v = f32('%s.approx.ftz.f32_%08x_%x_%x' % (name, lo, n, st))
    T = np.floor(np.abs(turns((lo + st * np.arange(n, dtype=np.uint64)).astype(np.uint32))) * 2 ** 25).astype(np.int64)
    q, u = (T >> 23) & 3, T & (2 ** 23 - 1)
    refl = (q & 1) == (1 if name == 'sin' else 0)
    U.append(np.where(refl, 2 ** 23 - 1 - u, u))
    V.append(np.abs(v))
U, V = np.concatenate(U), np.concatenate(V)
V = (V + np.spacing(V.astype(np.float32)).astype(np.float64) / 2) * 2 ** 24
rows = [(0, 51474 << 18, 0)]      # sin(pi/2 * u) = 51474 u * 2^-38 exactly for small u
for s in range(128):
    sel = (U >> 16) == s
    x = (U[sel] & 0xFFFF) / N
    if s == 0:
        c2 = np.linalg.lstsq(np.vstack([x ** 2]).T, V[sel] - 51474 * 2.0 ** -14 * (U[sel] & 0xFFFF), rcond=None)[0][0]
        rows[0] = (0, 51474 << 18, int(round(c2 / N / N * 2 ** 48)))
        continue
    c = np.linalg.lstsq(np.vstack([x ** j for j in range(3)]).T, V[sel], rcond=None)[0]
    rows.append((int(round(c[0] * 2 ** 16)), int(round(c[1] / N * 2 ** 32)), int(round(c[2] / N / N * 2 ** 48))))
tabs.append(('sin', 'sin(pi/2 * 0.m) in units of 2^-24, before truncation', [rows]))

print('/* emu/fp_approx_tab.h - the MUFU interpolation tables of emu/fp_approx.c,')
print(' * generated by tools/approx-sweep/fit_tables.py from the H100\'s outputs. */')
for name, what, lst in tabs:
    print('/* %s */' % what)
    print('static const int64_t tab_%s[%d][128][3] = {' % (name, len(lst)))
    for rows in lst:
        print(' {')
        for i in range(0, 128, 2):
            print('  ' + ' '.join('{%d, %d, %d},' % r for r in rows[i:i + 2]))
        print(' },')
    print('};')
