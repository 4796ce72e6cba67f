/*
 * Unit tests for emu/fp.c (PTX floating-point and conversion semantics).
 *
 * Expected values come from IEEE 754 / the PTX ISA by hand reasoning (the
 * comment on each check says how), or, where the manual leaves a result
 * open ("unspecified NaN", ftz tininess, ...), from measurements on an H100
 * (marked "H100:").  The last test compares against the host FPU under
 * fesetround, an independent correctly rounded implementation.
 *
 * Hex notes used below: f32 1.0 = 3f800000, 2^-126 = 00800000 (min normal),
 * 2^-149 = 00000001 (min subnormal), MAX = 7f7fffff; f64 1.0 =
 * 3ff0000000000000; f16 1.0 = 3c00, 65504 = 7bff, inf = 7c00; bf16 1.0 =
 * 3f80.
 */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fp.h"

#define EQ(expr, want)                                                                         \
    do {                                                                                       \
        uint64_t got_ = (uint64_t)(expr), want_ = (uint64_t)(want);                            \
        ck_assert_msg(got_ == want_, "%s = 0x%llx, want 0x%llx", #expr, (unsigned long long)got_, \
                      (unsigned long long)want_);                                              \
    } while (0)

static const int RND[4] = {FP_RN, FP_RZ, FP_RM, FP_RP};

/* ------------------------------------------------------------------------ */
START_TEST(f32_add_rounding)
{
    /* 1 + 2^-24 is exactly halfway between 1 and 1+2^-23 (ulp of [1,2) is
     * 2^-23): RN ties to the even significand 1.0; RZ/RM truncate; RP up. */
    const uint32_t one = 0x3F800000, h = 0x33800000; /* 2^-24 */
    EQ(f32_add(one, h, FP_RN, 0, 0), 0x3F800000);
    EQ(f32_add(one, h, FP_RZ, 0, 0), 0x3F800000);
    EQ(f32_add(one, h, FP_RM, 0, 0), 0x3F800000);
    EQ(f32_add(one, h, FP_RP, 0, 0), 0x3F800001);
    /* -(1 + 2^-24): RM goes away from zero, RP/RZ toward zero. */
    EQ(f32_add(one | 0x80000000u, h | 0x80000000u, FP_RN, 0, 0), 0xBF800000);
    EQ(f32_add(one | 0x80000000u, h | 0x80000000u, FP_RM, 0, 0), 0xBF800001);
    EQ(f32_add(one | 0x80000000u, h | 0x80000000u, FP_RP, 0, 0), 0xBF800000);
    /* (1+2^-23) + 2^-24: halfway between 1+2^-23 (odd) and 1+2^-22 (even):
     * RN -> 1+2^-22 = 3f800002. */
    EQ(f32_add(0x3F800001, h, FP_RN, 0, 0), 0x3F800002);
    /* Exact cancellation: x + (-x) is +0 except under RM where it is -0. */
    for (int i = 0; i < 4; i++)
        EQ(f32_add(0x40490FDB, 0xC0490FDB, RND[i], 0, 0), RND[i] == FP_RM ? 0x80000000 : 0);
    /* Signed zero sums: -0 + -0 = -0 in every mode, +0 + -0 = +0 except RM. */
    EQ(f32_add(0x80000000, 0x80000000, FP_RN, 0, 0), 0x80000000);
    EQ(f32_add(0x00000000, 0x80000000, FP_RN, 0, 0), 0x00000000);
    EQ(f32_add(0x00000000, 0x80000000, FP_RM, 0, 0), 0x80000000);
    /* sub is add of the negation: 1 - 1 = +0 (RN), -0 (RM). */
    EQ(f32_sub(one, one, FP_RN, 0, 0), 0);
    EQ(f32_sub(one, one, FP_RM, 0, 0), 0x80000000);
    /* 3 - 1.5 = 1.5 exactly in every mode. */
    for (int i = 0; i < 4; i++) EQ(f32_sub(0x40400000, 0x3FC00000, RND[i], 0, 0), 0x3FC00000);
}
END_TEST

START_TEST(f32_overflow)
{
    /* MAX + MAX = 2^129 - 2^105: beyond MAX, so IEEE overflow: RN -> inf,
     * RZ -> MAX, RM -> MAX for positive, RP -> inf; mirrored for negative. */
    const uint32_t M = 0x7F7FFFFF, NM = 0xFF7FFFFF;
    EQ(f32_add(M, M, FP_RN, 0, 0), 0x7F800000);
    EQ(f32_add(M, M, FP_RZ, 0, 0), M);
    EQ(f32_add(M, M, FP_RM, 0, 0), M);
    EQ(f32_add(M, M, FP_RP, 0, 0), 0x7F800000);
    EQ(f32_add(NM, NM, FP_RN, 0, 0), 0xFF800000);
    EQ(f32_add(NM, NM, FP_RZ, 0, 0), NM);
    EQ(f32_add(NM, NM, FP_RM, 0, 0), 0xFF800000);
    EQ(f32_add(NM, NM, FP_RP, 0, 0), NM);
    /* MAX + 2^103 (half an ulp of MAX, ulp = 2^104) is a tie; MAX has an odd
     * significand so RN rounds up to 2^128 = inf; RZ keeps MAX. */
    EQ(f32_add(M, 0x73000000, FP_RN, 0, 0), 0x7F800000);
    EQ(f32_add(M, 0x73000000, FP_RZ, 0, 0), M);
    /* MAX * 2 in RZ is MAX; in RN it is inf. */
    EQ(f32_mul(M, 0x40000000, FP_RZ, 0, 0), M);
    EQ(f32_mul(M, 0x40000000, FP_RN, 0, 0), 0x7F800000);
}
END_TEST

START_TEST(f32_nan_sat)
{
    /* Any NaN result of f32 arithmetic is the canonical 7fffffff (H100),
     * including quiet/signalling/negative NaN inputs and invalid ops. */
    EQ(f32_add(0x7FC00000, 0x3F800000, FP_RN, 0, 0), FP32_CANON_NAN);
    EQ(f32_add(0xFF800001, 0x3F800000, FP_RZ, 0, 0), FP32_CANON_NAN);
    EQ(f32_mul(0x7FC12345, 0x3F800000, FP_RN, 0, 0), FP32_CANON_NAN);
    EQ(f32_add(0x7F800000, 0xFF800000, FP_RN, 0, 0), FP32_CANON_NAN); /* inf - inf */
    EQ(f32_mul(0x7F800000, 0x00000000, FP_RP, 0, 0), FP32_CANON_NAN); /* inf * 0 */
    EQ(f32_fma(0x00000000, 0x7F800000, 0x3F800000, FP_RN, 0, 0), FP32_CANON_NAN);
    /* .sat: NaN -> +0, clamp to [0,1], -0 -> +0 (H100). */
    EQ(f32_add(0x7F800000, 0xFF800000, FP_RN, 0, 1), 0);
    EQ(f32_add(0x3F000000, 0x3F400000, FP_RN, 0, 1), 0x3F800000); /* 0.5+0.75=1.25 -> 1 */
    EQ(f32_add(0xBF000000, 0x3E800000, FP_RN, 0, 1), 0);          /* -0.25 -> 0 */
    EQ(f32_add(0x3E800000, 0x3E800000, FP_RN, 0, 1), 0x3F000000); /* 0.5 stays */
    EQ(f32_add(0x80000000, 0x80000000, FP_RN, 0, 1), 0);          /* -0 -> +0 */
    EQ(f32_mul(0x40000000, 0x40000000, FP_RZ, 0, 1), 0x3F800000); /* 4 -> 1 */
    EQ(f32_fma(0x3F000000, 0x40800000, 0, FP_RN, 0, 1), 0x3F800000); /* 2 -> 1 */
    EQ(f32_canon(0xFFC00001), FP32_CANON_NAN);
    EQ(f32_canon(0x3F800000), 0x3F800000);
}
END_TEST

START_TEST(f32_ftz)
{
    /* Subnormal inputs are flushed: 2^-149 + 2^-149 = 2^-148 normally, but
     * with .ftz both operands become +0. */
    EQ(f32_add(1, 1, FP_RN, 0, 0), 2);
    EQ(f32_add(1, 1, FP_RN, 1, 0), 0);
    /* Sign is preserved: -2^-149 * 1 -> -0 under ftz. */
    EQ(f32_mul(0x80000001, 0x3F800000, FP_RN, 1, 0), 0x80000000);
    /* Subnormal results are flushed: 1.5*2^-126 - 2^-126 = 2^-127. */
    EQ(f32_sub(0x00C00000, 0x00800000, FP_RN, 0, 0), 0x00400000);
    EQ(f32_sub(0x00C00000, 0x00800000, FP_RN, 1, 0), 0);
    EQ(f32_sub(0x00800000, 0x00C00000, FP_RN, 1, 0), 0x80000000);
    /* Tininess is judged after rounding to 24 bits with unbounded exponent
     * (H100).  2^-126 * (1 - 2^-24) is exactly representable with 24 bits
     * and < 2^-126, so it is tiny and flushed, although IEEE RN on the
     * subnormal grid makes it a tie that rounds up to 2^-126 (00800000 has
     * the even significand). */
    EQ(f32_mul(0x00800000, 0x3F7FFFFF, FP_RN, 0, 0), 0x00800000);
    EQ(f32_mul(0x00800000, 0x3F7FFFFF, FP_RN, 1, 0), 0);
    EQ(f32_mul(0x00800000, 0xBF7FFFFF, FP_RN, 1, 0), 0x80000000);
    /* (1+2^-23)2^-63 * (1-2^-23)2^-63 = 2^-126 (1 - 2^-46): RN to 24 bits
     * gives 2^-126 (not tiny) -> kept; RZ gives 2^-126(1-2^-24) -> tiny ->
     * +0; without ftz RZ lands on the largest subnormal 007fffff. */
    EQ(f32_mul(0x20000001, 0x1FFFFFFE, FP_RN, 1, 0), 0x00800000);
    EQ(f32_mul(0x20000001, 0x1FFFFFFE, FP_RP, 1, 0), 0x00800000);
    EQ(f32_mul(0x20000001, 0x1FFFFFFE, FP_RZ, 1, 0), 0);
    EQ(f32_mul(0x20000001, 0x1FFFFFFE, FP_RZ, 0, 0), 0x007FFFFF);
    EQ(f32_fma(0x20000001, 0x1FFFFFFE, 0, FP_RN, 1, 0), 0x00800000);
    /* -2^-126 / (1+2^-23) rounds (RM, away from zero) to -2^-126(1-2^-24),
     * which is tiny: flushed to -0.  Without ftz IEEE gives -2^-126. */
    EQ(f32_div(0x80800000, 0x3F800001, FP_RM, 1), 0x80000000);
    EQ(f32_div(0x80800000, 0x3F800001, FP_RM, 0), 0x80800000);
    /* A tiny positive result under RP is still flushed to +0. */
    EQ(f32_mul(0x00800000, 0x3F000000, FP_RP, 1, 0), 0);
    /* rcp.rn.ftz of a subnormal: input becomes +0, 1/+0 = +inf. */
    EQ(f32_rcp(0x00000005, FP_RN, 1), 0x7F800000);
    EQ(f32_flush(0x807FFFFF), 0x80000000);
    EQ(f32_flush(0x00800000), 0x00800000);
}
END_TEST

START_TEST(f32_mul_fma)
{
    /* 1.5 * (1+2^-23) = 1.5 + 2^-23 + 2^-24: the 2^-24 part is half an ulp:
     * RZ/RM drop it (3fc00001), RP adds an ulp (3fc00002), RN ties to even
     * (3fc00002 has the even last bit). */
    EQ(f32_mul(0x3FC00000, 0x3F800001, FP_RZ, 0, 0), 0x3FC00001);
    EQ(f32_mul(0x3FC00000, 0x3F800001, FP_RM, 0, 0), 0x3FC00001);
    EQ(f32_mul(0x3FC00000, 0x3F800001, FP_RP, 0, 0), 0x3FC00002);
    EQ(f32_mul(0x3FC00000, 0x3F800001, FP_RN, 0, 0), 0x3FC00002);
    /* Negative product under RM rounds away from zero. */
    EQ(f32_mul(0xBFC00000, 0x3F800001, FP_RM, 0, 0), 0xBFC00002);
    /* Signs of zero products: xor of signs in every mode. */
    EQ(f32_mul(0x80000000, 0x3F800000, FP_RM, 0, 0), 0x80000000);
    EQ(f32_mul(0x80000000, 0xBF800000, FP_RM, 0, 0), 0);
    /* fma is fused: (1+2^-23)(1-2^-24) - 1 = 2^-24 - 2^-47
     * = 2^-25 * (2 - 2^-22): exponent field 102 (0x33), fraction 22 ones and
     * a zero (7ffffe) -> 337ffffe, exact.  A separate mul would round the
     * product 1 + 2^-24 - 2^-47 (below the tie) to 1 and give 0. */
    EQ(f32_fma(0x3F800001, 0x3F7FFFFF, 0xBF800000, FP_RN, 0, 0), 0x337FFFFE);
    /* (1+2^-23)(1-2^-23) - 1 = -2^-46 exactly = a8800000. */
    EQ(f32_fma(0x3F800001, 0x3F7FFFFE, 0xBF800000, FP_RN, 0, 0), 0xA8800000);
    /* Exact zero: 1*1 - 1 = +0 (RN), -0 (RM). */
    EQ(f32_fma(0x3F800000, 0x3F800000, 0xBF800000, FP_RN, 0, 0), 0);
    EQ(f32_fma(0x3F800000, 0x3F800000, 0xBF800000, FP_RM, 0, 0), 0x80000000);
    /* 0 * -1 + -0: product -0 plus -0 is -0 in every mode. */
    for (int i = 0; i < 4; i++) EQ(f32_fma(0, 0xBF800000, 0x80000000, RND[i], 0, 0), 0x80000000);
    /* 1 * 1 + 2^-30: RN 1.0, RP 1+2^-23, RZ 1.0; with -2^-30: RZ/RM give
     * the float just below 1 (3f7fffff), RN/RP give 1.0. */
    EQ(f32_fma(0x3F800000, 0x3F800000, 0x30800000, FP_RN, 0, 0), 0x3F800000);
    EQ(f32_fma(0x3F800000, 0x3F800000, 0x30800000, FP_RP, 0, 0), 0x3F800001);
    EQ(f32_fma(0x3F800000, 0x3F800000, 0xB0800000, FP_RZ, 0, 0), 0x3F7FFFFF);
    EQ(f32_fma(0x3F800000, 0x3F800000, 0xB0800000, FP_RM, 0, 0), 0x3F7FFFFF);
    EQ(f32_fma(0x3F800000, 0x3F800000, 0xB0800000, FP_RP, 0, 0), 0x3F800000);
}
END_TEST

START_TEST(f32_div_sqrt_rcp)
{
    /* 1/3 = 1.0101...b * 2^-2; 24-bit significand 1.0101...010 followed by
     * 1010... (> half): RN/RP round up to 3eaaaaab, RZ/RM truncate. */
    EQ(f32_div(0x3F800000, 0x40400000, FP_RN, 0), 0x3EAAAAAB);
    EQ(f32_div(0x3F800000, 0x40400000, FP_RZ, 0), 0x3EAAAAAA);
    EQ(f32_div(0x3F800000, 0x40400000, FP_RM, 0), 0x3EAAAAAA);
    EQ(f32_div(0x3F800000, 0x40400000, FP_RP, 0), 0x3EAAAAAB);
    EQ(f32_div(0xBF800000, 0x40400000, FP_RM, 0), 0xBEAAAAAB);
    EQ(f32_div(0xBF800000, 0x40400000, FP_RP, 0), 0xBEAAAAAA);
    EQ(f32_rcp(0x40400000, FP_RZ, 0), 0x3EAAAAAA);
    /* Exact quotient: 6/3 = 2 in every mode. */
    for (int i = 0; i < 4; i++) EQ(f32_div(0x40C00000, 0x40400000, RND[i], 0), 0x40000000);
    /* x/0 = signed inf, 0/0 and inf/inf = NaN. */
    EQ(f32_div(0x3F800000, 0x00000000, FP_RN, 0), 0x7F800000);
    EQ(f32_div(0x3F800000, 0x80000000, FP_RZ, 0), 0xFF800000);
    EQ(f32_div(0, 0, FP_RN, 0), FP32_CANON_NAN);
    EQ(f32_div(0x7F800000, 0x7F800000, FP_RP, 0), FP32_CANON_NAN);
    EQ(f32_rcp(0x80000000, FP_RN, 0), 0xFF800000);
    /* sqrt(2) = 1.41421356237...; nearest float 3fb504f3 = 1.41421353816
     * lies below it, so RN = RZ = RM = 3fb504f3 and RP = 3fb504f4. */
    EQ(f32_sqrt(0x40000000, FP_RN, 0), 0x3FB504F3);
    EQ(f32_sqrt(0x40000000, FP_RZ, 0), 0x3FB504F3);
    EQ(f32_sqrt(0x40000000, FP_RM, 0), 0x3FB504F3);
    EQ(f32_sqrt(0x40000000, FP_RP, 0), 0x3FB504F4);
    for (int i = 0; i < 4; i++) EQ(f32_sqrt(0x40800000, RND[i], 0), 0x40000000); /* sqrt 4 */
    EQ(f32_sqrt(0x80000000, FP_RN, 0), 0x80000000);                                /* -0 */
    EQ(f32_sqrt(0xBF800000, FP_RZ, 0), FP32_CANON_NAN);                            /* -1 */
    EQ(f32_sqrt(0x7F800000, FP_RM, 0), 0x7F800000);
    /* sqrt(2^-149) = 2^-74.5, a normal number: no flush without ftz ... */
    ck_assert(f32_sqrt(1, FP_RN, 0) > 0x1A000000);
    /* ... while .ftz flushes the subnormal input first: sqrt(+0) = +0. */
    EQ(f32_sqrt(1, FP_RN, 1), 0);
}
END_TEST

START_TEST(f32_minmax_abs)
{
    const uint32_t one = 0x3F800000, qnan = 0x7FC00000, nnan = 0xFFC00001;
    /* One NaN: the other operand; two NaNs: canonical; .NaN: canonical. */
    EQ(f32_min(one, qnan, 0, 0, 0), one);
    EQ(f32_max(nnan, one, 0, 0, 0), one);
    EQ(f32_min(qnan, nnan, 0, 0, 0), FP32_CANON_NAN);
    EQ(f32_min(one, qnan, 0, 1, 0), FP32_CANON_NAN);
    EQ(f32_max(one, 0x40000000, 0, 1, 0), 0x40000000);
    /* -0 < +0 in either operand order. */
    EQ(f32_min(0x00000000, 0x80000000, 0, 0, 0), 0x80000000);
    EQ(f32_min(0x80000000, 0x00000000, 0, 0, 0), 0x80000000);
    EQ(f32_max(0x80000000, 0x00000000, 0, 0, 0), 0x00000000);
    EQ(f32_max(0xFF800000, 0xFF7FFFFF, 0, 0, 0), 0xFF7FFFFF);
    /* ftz: the subnormal becomes a signed zero before comparing. */
    EQ(f32_min(0x00000001, one, 1, 0, 0), 0);
    EQ(f32_min(0x80000001, 0x00000000, 1, 0, 0), 0x80000000);
    EQ(f32_min(0x00000001, one, 0, 0, 0), 1);
    /* .xorsign.abs: |min| of |a|,|b| with sign a^b. min(|-2|,|3|) = 2, sign
     * 1 -> -2; max(|-2|,|-3|) = 3, sign 0 -> +3. */
    EQ(f32_min(0xC0000000, 0x40400000, 0, 0, 1), 0xC0000000);
    EQ(f32_max(0xC0000000, 0xC0400000, 0, 0, 1), 0x40400000);
    /* With one NaN the other magnitude is used, the sign is still the xor
     * of both sign bits (the NaN's too): (-NaN, 2) -> -2. */
    EQ(f32_min(0xFFC00000, 0x40000000, 0, 0, 1), 0xC0000000);
    /* ... and a NaN result ignores xorsign: canonical. */
    EQ(f32_min(0xFFC00000, 0xFFC00000, 0, 0, 1), FP32_CANON_NAN);
    /* three-input forms (manual semantics: min(min(a,b),c)). */
    EQ(f32_min3(0x40400000, qnan, one, 0, 0, 0), one);
    EQ(f32_max3(0xC0A00000, 0x40000000, 0x40400000, 0, 0, 1), 0x40A00000); /* |-5| */
    EQ(f32_max3(one, one, qnan, 0, 1, 0), FP32_CANON_NAN);
    /* abs/neg flip/clear the sign; NaN -> canonical (H100); ftz flushes. */
    EQ(f32_abs(0xBF800000, 0), one);
    EQ(f32_neg(one, 0), 0xBF800000);
    EQ(f32_neg(0, 0), 0x80000000);
    EQ(f32_abs(0xFFC00000, 0), FP32_CANON_NAN);
    EQ(f32_neg(0x7F800001, 0), FP32_CANON_NAN);
    EQ(f32_abs(0x80000003, 1), 0);
    EQ(f32_neg(0x00000003, 1), 0x80000000);
    EQ(f32_abs(0x80000003, 0), 3);
}
END_TEST

/* ------------------------------------------------------------------------ */
START_TEST(f64_arith)
{
    const uint64_t one = 0x3FF0000000000000ull, h = 0x3CA0000000000000ull; /* 2^-53 */
    /* 1 + 2^-53 is the tie between 1 and 1+2^-52: RN -> 1, RP -> up. */
    EQ(f64_add(one, h, FP_RN), one);
    EQ(f64_add(one, h, FP_RZ), one);
    EQ(f64_add(one, h, FP_RM), one);
    EQ(f64_add(one, h, FP_RP), one + 1);
    EQ(f64_sub(one | (1ull << 63), h, FP_RM), (one + 1) | (1ull << 63));
    /* x - x = +0, -0 under RM. */
    EQ(f64_sub(0x400921FB54442D18ull, 0x400921FB54442D18ull, FP_RN), 0);
    EQ(f64_sub(0x400921FB54442D18ull, 0x400921FB54442D18ull, FP_RM), 0x8000000000000000ull);
    /* 1/3 = 0x1.5555555555555|55..p-2: the discarded part is 0.333 ulp, so
     * RN/RZ/RM give ...555 and RP ...556. */
    EQ(f64_div(one, 0x4008000000000000ull, FP_RN), 0x3FD5555555555555ull);
    EQ(f64_div(one, 0x4008000000000000ull, FP_RZ), 0x3FD5555555555555ull);
    EQ(f64_div(one, 0x4008000000000000ull, FP_RM), 0x3FD5555555555555ull);
    EQ(f64_div(one, 0x4008000000000000ull, FP_RP), 0x3FD5555555555556ull);
    EQ(f64_rcp(0x4008000000000000ull, FP_RP), 0x3FD5555555555556ull);
    EQ(f64_div(0xBFF0000000000000ull, 0x4008000000000000ull, FP_RM), 0xBFD5555555555556ull);
    /* sqrt(2) = 1.41421356237309504880...; the nearest double
     * 3ff6a09e667f3bcd = 1.41421356237309514547 is above it, so RN = RP =
     * ...bcd and RZ = RM = ...bcc. */
    EQ(f64_sqrt(0x4000000000000000ull, FP_RN), 0x3FF6A09E667F3BCDull);
    EQ(f64_sqrt(0x4000000000000000ull, FP_RP), 0x3FF6A09E667F3BCDull);
    EQ(f64_sqrt(0x4000000000000000ull, FP_RZ), 0x3FF6A09E667F3BCCull);
    EQ(f64_sqrt(0x4000000000000000ull, FP_RM), 0x3FF6A09E667F3BCCull);
    for (int i = 0; i < 4; i++) EQ(f64_sqrt(0x4010000000000000ull, RND[i]), 0x4000000000000000ull);
    /* Overflow: MAX * 2. */
    const uint64_t M = 0x7FEFFFFFFFFFFFFFull;
    EQ(f64_mul(M, 0x4000000000000000ull, FP_RN), 0x7FF0000000000000ull);
    EQ(f64_mul(M, 0x4000000000000000ull, FP_RZ), M);
    EQ(f64_mul(M, 0x4000000000000000ull, FP_RM), M);
    EQ(f64_mul(M, 0x4000000000000000ull, FP_RP), 0x7FF0000000000000ull);
    EQ(f64_mul(M, 0xC000000000000000ull, FP_RM), 0xFFF0000000000000ull);
    EQ(f64_mul(M, 0xC000000000000000ull, FP_RP), M | (1ull << 63));
    /* Underflow: 2^-1074 * 0.5 is the tie between 0 and 2^-1074: RN -> 0
     * (even), RP -> 2^-1074; negative: RM -> -2^-1074, RN/RP -> -0.
     * f64 never flushes subnormals. */
    EQ(f64_mul(1, 0x3FE0000000000000ull, FP_RN), 0);
    EQ(f64_mul(1, 0x3FE0000000000000ull, FP_RP), 1);
    EQ(f64_mul(1, 0x3FE0000000000000ull, FP_RZ), 0);
    EQ(f64_mul(0x8000000000000001ull, 0x3FE0000000000000ull, FP_RM), 0x8000000000000001ull);
    EQ(f64_mul(0x8000000000000001ull, 0x3FE0000000000000ull, FP_RN), 0x8000000000000000ull);
    EQ(f64_mul(1, 0x3FE8000000000000ull, FP_RN), 1); /* 0.75 ulp -> 1 ulp */
    /* 2^-1022 * 2^-52 = 2^-1074 exactly. */
    for (int i = 0; i < 4; i++) EQ(f64_mul(0x0010000000000000ull, 0x3CB0000000000000ull, RND[i]), 1);
    /* Fused: (1+2^-52)(1-2^-52) - 1 = -2^-104 = b970000000000000. */
    for (int i = 0; i < 4; i++)
        EQ(f64_fma(one + 1, 0x3FEFFFFFFFFFFFFEull, 0xBFF0000000000000ull, RND[i]), 0xB970000000000000ull);
    /* 1*1 +- 2^-60 (3c30000000000000): only the directed modes move. */
    EQ(f64_fma(one, one, 0x3C30000000000000ull, FP_RN), one);
    EQ(f64_fma(one, one, 0x3C30000000000000ull, FP_RP), one + 1);
    EQ(f64_fma(one, one, 0xBC30000000000000ull, FP_RZ), 0x3FEFFFFFFFFFFFFFull);
    EQ(f64_fma(one, one, 0xBC30000000000000ull, FP_RM), 0x3FEFFFFFFFFFFFFFull);
    EQ(f64_fma(one, one, 0xBC30000000000000ull, FP_RP), one);
    EQ(f64_fma(one, one, 0xBFF0000000000000ull, FP_RM), 0x8000000000000000ull);
    /* A product far below the addend still decides directed rounding:
     * 2^-1074 * 2^-1074 + 1 under RP -> 1+2^-52. */
    EQ(f64_fma(1, 1, one, FP_RP), one + 1);
    EQ(f64_fma(1, 1, one, FP_RN), one);
    /* abs/neg/min/max and copysign on numbers. */
    EQ(f64_abs(0xBFF0000000000000ull), one);
    EQ(f64_neg(one), 0xBFF0000000000000ull);
    EQ(f64_min(0, 0x8000000000000000ull, 0), 0x8000000000000000ull);
    EQ(f64_max(one, 0x7FF8000000000000ull, 0), one);
    EQ(f64_copysign(0x8000000000000000ull, one), 0xBFF0000000000000ull);
}
END_TEST

START_TEST(f64_nan)
{
    /* H100: NaN operands propagate quieted with sign and payload; the
     * default NaN of an invalid operation is fff8000000000000. */
    const uint64_t N1 = 0x7FF0000000000001ull, N2 = 0x7FF8000000000002ull, N3 = 0xFFF8000000000003ull;
    const uint64_t one = 0x3FF0000000000000ull;
    EQ(f64_add(0x7FF0000000000000ull, 0xFFF0000000000000ull, FP_RN), 0xFFF8000000000000ull);
    EQ(f64_mul(0, 0x7FF0000000000000ull, FP_RZ), 0xFFF8000000000000ull);
    EQ(f64_div(0, 0, FP_RN), 0xFFF8000000000000ull);
    EQ(f64_sqrt(0xBFF0000000000000ull, FP_RN), 0xFFF8000000000000ull);
    EQ(f64_sqrt(0xBFF0000000000000ull, FP_RP), 0xFFF8000000000000ull);
    /* One NaN: quieted (quiet bit 2^51 set). */
    EQ(f64_add(N1, one, FP_RN), 0x7FF8000000000001ull);
    EQ(f64_mul(one, N3, FP_RM), N3);
    EQ(f64_sqrt(N1, FP_RN), 0x7FF8000000000001ull);
    EQ(f64_rcp(N3, FP_RZ), N3);
    /* Two NaNs: add/sub/mul return b, div returns a. */
    EQ(f64_add(N1, N2, FP_RN), N2);
    EQ(f64_add(N2, N1, FP_RP), 0x7FF8000000000001ull);
    EQ(f64_mul(N2, N3, FP_RN), N3);
    EQ(f64_div(N1, N2, FP_RN), 0x7FF8000000000001ull);
    EQ(f64_div(N2, N1, FP_RZ), N2);
    /* sub does not negate a NaN b. */
    EQ(f64_sub(0, N2, FP_RN), N2);
    EQ(f64_sub(0, N3, FP_RM), N3);
    /* fma: b, then c, then a. */
    EQ(f64_fma(N1, N2, N3, FP_RN), N2);
    EQ(f64_fma(N1, one, N3, FP_RN), N3);
    EQ(f64_fma(N3, one, N1, FP_RZ), 0x7FF8000000000001ull);
    EQ(f64_fma(N1, one, one, FP_RN), 0x7FF8000000000001ull);
    /* abs/neg keep a NaN's sign and quiet it. */
    EQ(f64_abs(0xFFF0000000000001ull), 0xFFF8000000000001ull);
    EQ(f64_neg(N2), N2);
    /* min/max: one NaN -> other operand, two NaNs -> b quieted. */
    EQ(f64_min(N2, one, 0), one);
    EQ(f64_min(N2, N1, 0), 0x7FF8000000000001ull);
    EQ(f64_max(N1, N3, 0), N3);
    EQ(f64_quiet(N1), 0x7FF8000000000001ull);
    EQ(f64_canon(N1), FP64_CANON_NAN);
}
END_TEST

/* ------------------------------------------------------------------------ */
START_TEST(half_arith)
{
    /* f16: 1 + 2^-11 (1000) ties between 1 and 1+2^-10: RN -> 3c00 (even),
     * RP -> 3c01. */
    EQ(f16_add(0x3C00, 0x1000, FP_RN, 0, 0), 0x3C00);
    EQ(f16_add(0x3C00, 0x1000, FP_RP, 0, 0), 0x3C01);
    EQ(f16_add(0x3C01, 0x1000, FP_RN, 0, 0), 0x3C02);
    /* 65504 + 16 = 65520: halfway between 65504 (odd significand) and 2^16,
     * so RN overflows to inf; RZ stays at 65504. */
    EQ(f16_add(0x7BFF, 0x4C00, FP_RN, 0, 0), 0x7C00);
    EQ(f16_add(0x7BFF, 0x4C00, FP_RZ, 0, 0), 0x7BFF);
    /* 2^-14 * 0.5 = 2^-15 is subnormal 0200; ftz flushes it. */
    EQ(f16_mul(0x0400, 0x3800, FP_RN, 0, 0), 0x0200);
    EQ(f16_mul(0x0400, 0x3800, FP_RN, 1, 0), 0);
    EQ(f16_mul(0x8400, 0x3800, FP_RN, 1, 0), 0x8000);
    /* Subnormal inputs under ftz: 2^-24 + 2^-24 -> +0. */
    EQ(f16_add(1, 1, FP_RN, 0, 0), 2);
    EQ(f16_add(1, 1, FP_RN, 1, 0), 0);
    /* Tininess after rounding (H100): (1+2^-10)2^-7 * (1-2^-10)2^-7 =
     * 2^-14(1-2^-20) rounds to 2^-14 with 11 bits -> kept under ftz. */
    EQ(f16_mul(0x2001, 0x1FFE, FP_RN, 1, 0), 0x0400);
    /* sat: 0.75 + 0.5 -> 1; NaN -> 0. */
    EQ(f16_add(0x3A00, 0x3800, FP_RN, 0, 1), 0x3C00);
    EQ(f16_add(0x7C00, 0xFC00, FP_RN, 0, 1), 0);
    /* NaN results: canonical 7fff. */
    EQ(f16_add(0x7C00, 0xFC00, FP_RN, 0, 0), 0x7FFF);
    EQ(f16_mul(0x7E00, 0x3C00, FP_RN, 0, 0), 0x7FFF);
    /* fma: fused (1+2^-10)(1-2^-10) - 1 = -2^-20 (3bfe = 1-2^-10; 8010 =
     * -16 * 2^-24, a subnormal); unfused, 1-2^-20 would round to 1 -> 0. */
    EQ(f16_fma(0x3C01, 0x3BFE, 0xBC00, FP_RN, 0, 0, 0), 0x8010);
    /* relu: -1*2+1 = -1 -> +0; NaN -> canonical; -0 -> +0. */
    EQ(f16_fma(0xBC00, 0x4000, 0x3C00, FP_RN, 0, 0, 1), 0);
    EQ(f16_fma(0x3C00, 0x3C00, 0x7E01, FP_RN, 0, 0, 1), 0x7FFF);
    EQ(f16_fma(0x8000, 0x3C00, 0x8000, FP_RN, 0, 0, 1), 0);
    EQ(f16_fma(0x3C00, 0x4000, 0x3C00, FP_RN, 0, 0, 1), 0x4200); /* 3 */
    EQ(f16_sub(0x3C00, 0x3C00, FP_RM, 0, 0), 0x8000);
    /* bf16: 1 + 2^-8 (3b80) ties between 1 and 1+2^-7 -> 3f80 (even);
     * 1+2^-7 + 2^-8 ties up to 1+2^-6 (3f82). */
    EQ(bf16_add(0x3F80, 0x3B80, FP_RN, 0, 0), 0x3F80);
    EQ(bf16_add(0x3F81, 0x3B80, FP_RN, 0, 0), 0x3F82);
    EQ(bf16_add(0x3F80, 0x3B80, FP_RP, 0, 0), 0x3F81);
    EQ(bf16_mul(0x7F7F, 0x4000, FP_RN, 0, 0), 0x7F80); /* overflow */
    EQ(bf16_mul(0x7FC0, 0x3F80, FP_RN, 0, 0), 0x7FFF);
    EQ(bf16_fma(0xBF80, 0x3F80, 0x0000, FP_RN, 0, 0, 1), 0);
    EQ(bf16_sub(0x3F80, 0x3F80, FP_RN, 0, 0), 0);
    /* bf16 keeps subnormals (no ftz form): 2^-126 * 0.5 = 0040. */
    EQ(bf16_mul(0x0080, 0x3F00, FP_RN, 0, 0), 0x0040);
}
END_TEST

START_TEST(half_minmax_abs)
{
    EQ(f16_min(0x7E00, 0x3C00, 0, 0, 0), 0x3C00);
    EQ(f16_max(0x7E00, 0xFE00, 0, 0, 0), 0x7FFF);
    EQ(f16_min(0x3C00, 0x7E00, 0, 1, 0), 0x7FFF);
    EQ(f16_min(0x0000, 0x8000, 0, 0, 0), 0x8000);
    EQ(f16_max(0x0001, 0x0000, 1, 0, 0), 0x0000); /* ftz: 2^-24 -> +0 */
    EQ(f16_max(0x0001, 0x0000, 0, 0, 0), 0x0001);
    EQ(f16_min(0xC000, 0x4200, 0, 0, 1), 0xC000); /* |-2| < |3|, sign 1 */
    EQ(bf16_max(0xC000, 0xC040, 0, 1), 0x4040);   /* |-3|, sign 0 */
    EQ(bf16_min(0x7FC0, 0x7FC1, 0, 0), 0x7FFF);
    EQ(bf16_max(0x7FC0, 0x3F80, 0, 0), 0x3F80);
    EQ(bf16_max(0x7FC0, 0x3F80, 1, 0), 0x7FFF);
    /* abs/neg: sign ops, NaN -> 7fff (H100), f16 ftz flushes. */
    EQ(f16_neg(0x3C00, 0), 0xBC00);
    EQ(f16_abs(0xFC00, 0), 0x7C00);
    EQ(f16_abs(0xFE00, 0), 0x7FFF);
    EQ(f16_neg(0x7C01, 0), 0x7FFF);
    EQ(f16_neg(0x0001, 1), 0x8000);
    EQ(bf16_neg(0x3F80), 0xBF80);
    EQ(bf16_abs(0xFF81), 0x7FFF);
    EQ(f16_canon(0xFE00), 0x7FFF);
    EQ(bf16_canon(0xFF80), 0xFF80); /* -inf is not a NaN */
}
END_TEST

/* ------------------------------------------------------------------------ */
START_TEST(cvt_f32_f16)
{
    /* 65520 is the midpoint between 65504 (odd significand) and 2^16:
     * RN -> inf, RZ/RM -> 65504, RP -> inf; .satfinite clamps RN to 65504. */
    EQ(cvt_f32_to_f16(0x477FF000, FP_RN, 0), 0x7C00);
    EQ(cvt_f32_to_f16(0x477FF000, FP_RZ, 0), 0x7BFF);
    EQ(cvt_f32_to_f16(0x477FF000, FP_RM, 0), 0x7BFF);
    EQ(cvt_f32_to_f16(0x477FF000, FP_RP, 0), 0x7C00);
    EQ(cvt_f32_to_f16(0x477FF000, FP_RN, FP_CVT_SATFINITE), 0x7BFF);
    EQ(cvt_f32_to_f16(0xC77FF000, FP_RM, 0), 0xFC00);
    EQ(cvt_f32_to_f16(0xC77FF000, FP_RP, 0), 0xFBFF);
    /* just below the midpoint: RN 65504, RP inf. */
    EQ(cvt_f32_to_f16(0x477FEFFF, FP_RN, 0), 0x7BFF);
    EQ(cvt_f32_to_f16(0x477FEFFF, FP_RP, 0), 0x7C00);
    /* 1+2^-11 ties -> 3c00; one more f32 ulp -> 3c01; 1+3*2^-11 ties to
     * the even 3c02. */
    EQ(cvt_f32_to_f16(0x3F801000, FP_RN, 0), 0x3C00);
    EQ(cvt_f32_to_f16(0x3F801000, FP_RP, 0), 0x3C01);
    EQ(cvt_f32_to_f16(0x3F801001, FP_RN, 0), 0x3C01);
    EQ(cvt_f32_to_f16(0x3F803000, FP_RN, 0), 0x3C02);
    /* Subnormal f16: 2^-24 -> 0001; 2^-25 ties between 0 and 2^-24 -> 0;
     * a hair above -> 0001; RP of any positive tiny -> 0001. */
    EQ(cvt_f32_to_f16(0x33800000, FP_RN, 0), 0x0001);
    EQ(cvt_f32_to_f16(0x33000000, FP_RN, 0), 0x0000);
    EQ(cvt_f32_to_f16(0x33000001, FP_RN, 0), 0x0001);
    EQ(cvt_f32_to_f16(0x00000001, FP_RP, 0), 0x0001);
    EQ(cvt_f32_to_f16(0x80000001, FP_RN, 0), 0x8000);
    /* H100: .ftz does not flush the f32 source of cvt.f16.f32. */
    EQ(cvt_f32_to_f16(0x00000001, FP_RP, FP_CVT_FTZ), 0x0001);
    EQ(cvt_f32_to_f16(0x80000001, FP_RM, FP_CVT_FTZ), 0x8001);
    /* Specials: inf, NaN -> canonical 7fff; satfinite on inf -> MAX. */
    EQ(cvt_f32_to_f16(0xFF800000, FP_RN, 0), 0xFC00);
    EQ(cvt_f32_to_f16(0xFF800000, FP_RZ, FP_CVT_SATFINITE), 0xFBFF);
    EQ(cvt_f32_to_f16(0xFFC00001, FP_RN, 0), 0x7FFF);
    EQ(cvt_f32_to_f16(0x7FC00000, FP_RN, FP_CVT_SATFINITE), 0x7FFF);
    /* relu: negatives and -0 -> +0, NaN -> 7fff. */
    EQ(cvt_f32_to_f16(0xBF800000, FP_RN, FP_CVT_RELU), 0);
    EQ(cvt_f32_to_f16(0x80000000, FP_RN, FP_CVT_RELU), 0);
    EQ(cvt_f32_to_f16(0x3FC00000, FP_RN, FP_CVT_RELU), 0x3E00);
    EQ(cvt_f32_to_f16(0x7F800001, FP_RZ, FP_CVT_RELU | FP_CVT_SATFINITE), 0x7FFF);
    /* sat: [0,1], NaN -> 0. */
    EQ(cvt_f32_to_f16(0x40000000, FP_RN, FP_CVT_SAT), 0x3C00);
    EQ(cvt_f32_to_f16(0xC0000000, FP_RN, FP_CVT_SAT), 0);
    EQ(cvt_f32_to_f16(0x7FC00000, FP_RN, FP_CVT_SAT), 0);
    /* f16 -> f32 is exact; NaN -> canonical. */
    EQ(cvt_f16_to_f32(0x3C00), 0x3F800000);
    EQ(cvt_f16_to_f32(0x0001), 0x33800000);
    EQ(cvt_f16_to_f32(0x83FF), 0xB87FC000); /* -(1023 * 2^-24) */
    EQ(cvt_f16_to_f32(0xFC00), 0xFF800000);
    EQ(cvt_f16_to_f32(0x7C01), FP32_CANON_NAN);
    EQ(fp_cvt(0x7BFF, FP_F16, FP_F32, FP_RN, 0), 0x477FE000);
}
END_TEST

START_TEST(cvt_bf16_tf32)
{
    /* f32 -> bf16 keeps the top 16 bits after rounding: 1+2^-8 ties to
     * 3f80, 1+3*2^-8 ties to the even 3f82. */
    EQ(cvt_f32_to_bf16(0x3F808000, FP_RN, 0), 0x3F80);
    EQ(cvt_f32_to_bf16(0x3F818000, FP_RN, 0), 0x3F82);
    EQ(cvt_f32_to_bf16(0x3F80FFFF, FP_RZ, 0), 0x3F80);
    EQ(cvt_f32_to_bf16(0x3F80FFFF, FP_RN, 0), 0x3F81);
    EQ(cvt_f32_to_bf16(0x3F800001, FP_RP, 0), 0x3F81);
    EQ(cvt_f32_to_bf16(0xBF800001, FP_RM, 0), 0xBF81);
    /* f32 MAX rounds up past the bf16 MAX (7f7f) to inf under RN. */
    EQ(cvt_f32_to_bf16(0x7F7FFFFF, FP_RN, 0), 0x7F80);
    EQ(cvt_f32_to_bf16(0x7F7FFFFF, FP_RZ, 0), 0x7F7F);
    EQ(cvt_f32_to_bf16(0x7F7FFFFF, FP_RN, FP_CVT_SATFINITE), 0x7F7F);
    EQ(cvt_f32_to_bf16(0x7FC00000, FP_RN, 0), 0x7FFF);
    EQ(cvt_f32_to_bf16(0xC0000000, FP_RZ, FP_CVT_RELU | FP_CVT_SATFINITE), 0);
    /* bf16 -> f32: shift; H100 keeps a NaN's payload unquieted ... */
    EQ(cvt_bf16_to_f32(0x3F80), 0x3F800000);
    EQ(cvt_bf16_to_f32(0x7F81), 0x7F810000);
    EQ(fp_cvt(0x7F81, FP_BF16, FP_F32, FP_RN, 0), 0x7F810000);
    /* ... except with .ftz, which canonicalises (H100). */
    EQ(fp_cvt(0x7F81, FP_BF16, FP_F32, FP_RN, FP_CVT_FTZ), FP32_CANON_NAN);
    /* bf16 subnormal -> f32 subnormal, flushed by .ftz. */
    EQ(fp_cvt(0x0001, FP_BF16, FP_F32, FP_RN, 0), 0x00010000);
    EQ(fp_cvt(0x8001, FP_BF16, FP_F32, FP_RN, FP_CVT_FTZ), 0x80000000);
    /* f16 <-> bf16: 1.0 both ways; f16 65504 = 0x1.ffcp15 -> bf16 RN rounds
     * to 2^16 (4780), RZ to 0x1.fep15 (477f). */
    EQ(fp_cvt(0x3C00, FP_F16, FP_BF16, FP_RN, 0), 0x3F80);
    EQ(fp_cvt(0x7BFF, FP_F16, FP_BF16, FP_RN, 0), 0x4780);
    EQ(fp_cvt(0x7BFF, FP_F16, FP_BF16, FP_RZ, 0), 0x477F);
    EQ(fp_cvt(0x3F80, FP_BF16, FP_F16, FP_RN, 0), 0x3C00);
    EQ(fp_cvt(0x4780, FP_BF16, FP_F16, FP_RN, 0), 0x7C00); /* 65536 -> inf */
    EQ(fp_cvt(0x4780, FP_BF16, FP_F16, FP_RZ, 0), 0x7BFF);
    /* tf32 keeps 10 fraction bits; RNA breaks ties away from zero.
     * 1+2^-11 is a tie: RNA -> 1+2^-10 (3f802000), RN -> 1.0 (even). */
    EQ(cvt_f32_to_tf32(0x3F801000, FP_RNA, 0), 0x3F802000);
    EQ(cvt_f32_to_tf32(0x3F801000, FP_RN, 0), 0x3F800000);
    EQ(cvt_f32_to_tf32(0xBF801000, FP_RNA, 0), 0xBF802000);
    EQ(cvt_f32_to_tf32(0x3F801FFF, FP_RZ, 0), 0x3F800000);
    EQ(cvt_f32_to_tf32(0x3F800FFF, FP_RNA, 0), 0x3F800000);
    EQ(cvt_f32_to_tf32(0x7F7FF000, FP_RNA, 0), 0x7F800000);  /* up to 2^128 */
    EQ(cvt_f32_to_tf32(0x7F7FF000, FP_RNA, FP_CVT_SATFINITE), 0x7F7FE000);
    EQ(cvt_f32_to_tf32(0x7F800000, FP_RNA, FP_CVT_SATFINITE), 0x7F7FE000);
    EQ(cvt_f32_to_tf32(0xBF800000, FP_RN, FP_CVT_RELU), 0);
    /* tf32 NaNs (H100): rna truncates the NaN to 19 bits (7f800001 becomes
     * +inf!) and .satfinite then steps the exponent field down; rn/rz give
     * 7fffe000. */
    EQ(cvt_f32_to_tf32(0x7FC00000, FP_RNA, 0), 0x7FC00000);
    EQ(cvt_f32_to_tf32(0xFFFFFFFF, FP_RNA, 0), 0xFFFFE000);
    EQ(cvt_f32_to_tf32(0x7F800001, FP_RNA, 0), 0x7F800000);
    EQ(cvt_f32_to_tf32(0x7FC00000, FP_RNA, FP_CVT_SATFINITE), 0x7FBFE000);
    EQ(cvt_f32_to_tf32(0xFFC00000, FP_RN, 0), 0x7FFFE000);
    EQ(cvt_f32_to_tf32(0x7F800001, FP_RZ, 0), 0x7FFFE000);
}
END_TEST

START_TEST(cvt_f64)
{
    /* f32 -> f64 exact; subnormal f32 becomes a normal f64; ftz flushes. */
    EQ(cvt_f32_to_f64(0x3FC00000, 0), 0x3FF8000000000000ull);
    EQ(cvt_f32_to_f64(0x00000001, 0), 0x36A0000000000000ull); /* 2^-149 */
    EQ(cvt_f32_to_f64(0x80000001, 1), 0x8000000000000000ull);
    /* NaN (H100): IEEE widening keeps sign and payload, sets the quiet bit;
     * with .ftz the f32 NaN is canonicalised first (7fffffff widened). */
    EQ(cvt_f32_to_f64(0x7F800001, 0), 0x7FF8000020000000ull);
    EQ(cvt_f32_to_f64(0xFFC00000, 0), 0xFFF8000000000000ull);
    EQ(cvt_f32_to_f64(0x7F800001, 1), 0x7FFFFFFFE0000000ull);
    /* f64 -> f32: 1+2^-24 ties -> 1.0; RP -> 1+2^-23; one more f64 ulp
     * breaks the tie upward. */
    EQ(cvt_f64_to_f32(0x3FF0000010000000ull, FP_RN, 0), 0x3F800000);
    EQ(cvt_f64_to_f32(0x3FF0000010000000ull, FP_RP, 0), 0x3F800001);
    EQ(cvt_f64_to_f32(0x3FF0000010000001ull, FP_RN, 0), 0x3F800001);
    EQ(cvt_f64_to_f32(0xBFF0000010000001ull, FP_RZ, 0), 0xBF800000);
    /* (2 - 2^-24) * 2^127 is MAX + half ulp: RN -> inf, RZ -> MAX. */
    EQ(cvt_f64_to_f32(0x47EFFFFFF0000000ull, FP_RN, 0), 0x7F800000);
    EQ(cvt_f64_to_f32(0x47EFFFFFF0000000ull, FP_RZ, 0), 0x7F7FFFFF);
    EQ(cvt_f64_to_f32(0x47EFFFFFEFFFFFFFull, FP_RN, 0), 0x7F7FFFFF);
    /* 2^-150 ties between 0 and 2^-149: RN -> 0, RP -> 1; above -> 1. */
    EQ(cvt_f64_to_f32(0x3690000000000000ull, FP_RN, 0), 0);
    EQ(cvt_f64_to_f32(0x3690000000000000ull, FP_RP, 0), 1);
    EQ(cvt_f64_to_f32(0x3690000000000001ull, FP_RN, 0), 1);
    EQ(cvt_f64_to_f32(0x3690000000000001ull, FP_RN, FP_CVT_FTZ), 0);
    /* ftz tininess after rounding: 2^-126(1-2^-40) rounds (RN) to 2^-126
     * -> kept; RZ gives 2^-126(1-2^-24) -> tiny -> 0. */
    EQ(cvt_f64_to_f32(0x380FFFFFFFFFF000ull, FP_RN, FP_CVT_FTZ), 0x00800000);
    EQ(cvt_f64_to_f32(0x380FFFFFFFFFF000ull, FP_RZ, FP_CVT_FTZ), 0);
    EQ(cvt_f64_to_f32(0x380FFFFFFFFFF000ull, FP_RZ, 0), 0x007FFFFF);
    /* f64 NaN -> f32 (H100): quiet bit set, top payload bits kept. */
    EQ(cvt_f64_to_f32(0x7FF8000012345678ull, FP_RN, 0), 0x7FC00000);
    EQ(cvt_f64_to_f32(0xFFF0000000000001ull, FP_RN, 0), 0xFFC00000);
    EQ(cvt_f64_to_f32(0xFFFFFFFFFFFFFFFFull, FP_RZ, FP_CVT_FTZ), 0xFFFFFFFF);
    EQ(cvt_f64_to_f32(0x7FF4000000000000ull, FP_RN, 0), 0x7FE00000);
    EQ(cvt_f64_to_f32(0x4000000000000000ull, FP_RN, FP_CVT_SAT), 0x3F800000);
    /* f64 -> f16 / bf16: 65520 -> inf (RN) / 65504 (RZ); NaN keeps sign. */
    EQ(fp_cvt(0x40EFFE0000000000ull, FP_F64, FP_F16, FP_RN, 0), 0x7C00);
    EQ(fp_cvt(0x40EFFE0000000000ull, FP_F64, FP_F16, FP_RZ, 0), 0x7BFF);
    EQ(fp_cvt(0xFFF8000000000000ull, FP_F64, FP_F16, FP_RZ, 0), 0xFE00);
    EQ(fp_cvt(0x7FF8000000000000ull, FP_F64, FP_BF16, FP_RN, 0), 0x7FC0);
    /* f16/bf16 -> f64: exact, NaN payload shifted up and quieted. */
    EQ(fp_cvt(0x0001, FP_F16, FP_F64, FP_RN, 0), 0x3E70000000000000ull); /* 2^-24 */
    EQ(fp_cvt(0x7C01, FP_F16, FP_F64, FP_RN, 0), 0x7FF8040000000000ull);
    EQ(fp_cvt(0x7F81, FP_BF16, FP_F64, FP_RN, 0), 0x7FF8200000000000ull);
    EQ(fp_cvt(0xFF80, FP_BF16, FP_F64, FP_RN, 0), 0xFFF0000000000000ull);
    /* Same-format cvt: .ftz / .sat. */
    EQ(fp_cvt(0x80000001, FP_F32, FP_F32, FP_RN, FP_CVT_FTZ), 0x80000000);
    EQ(fp_cvt(0x3F800001, FP_F32, FP_F32, FP_RN, FP_CVT_SAT), 0x3F800000);
    EQ(fp_cvt(0xFFC00000, FP_F32, FP_F32, FP_RN, FP_CVT_FTZ), FP32_CANON_NAN);
}
END_TEST

START_TEST(cvt_fp8_fp6_fp4)
{
    /* e4m3: bias 7, 1.0 = 0 0111 000 = 38; MAX = 1.75*2^8 = 448 = 7e
     * (s.1111.111 is NaN). 480 is beyond MAX -> satfinite 7e; 464 is the
     * midpoint 448..480 -> also > MAX_NORM -> 7e. */
    EQ(cvt_f32_to_e4m3(0x3F800000, 0), 0x38);
    EQ(cvt_f32_to_e4m3(0x43E00000, 0), 0x7E);
    EQ(cvt_f32_to_e4m3(0x43F00000, 0), 0x7E);
    EQ(cvt_f32_to_e4m3(0x43E80000, 0), 0x7E);
    EQ(cvt_f32_to_e4m3(0xC47A0000, 0), 0xFE); /* -1000 */
    EQ(cvt_f32_to_e4m3(0x7F800000, 0), 0x7E);
    EQ(cvt_f32_to_e4m3(0x7FC00000, 0), 0x7F);
    /* 1.0625 is the midpoint of 1.0 (38) and 1.125 (39): even -> 38; one
     * f32 ulp above goes to 39 (direct rounding, no f16 intermediate). */
    EQ(cvt_f32_to_e4m3(0x3F880000, 0), 0x38);
    EQ(cvt_f32_to_e4m3(0x3F880001, 0), 0x39);
    /* subnormals: min 2^-9 = 01; 2^-10 ties -> 00; 3*2^-10 ties -> 02. */
    EQ(cvt_f32_to_e4m3(0x3B000000, 0), 0x01);
    EQ(cvt_f32_to_e4m3(0x3A800000, 0), 0x00);
    EQ(cvt_f32_to_e4m3(0x3B400000, 0), 0x02);
    EQ(cvt_f32_to_e4m3(0xBF800000, 1), 0x00); /* relu */
    EQ(cvt_f32_to_e4m3(0x7FC00000, 1), 0x7F);
    /* e5m2: bias 15, 1.0 = 3c, MAX = 1.75*2^15 = 57344 = 7b, NaN 7f;
     * 61440 is the midpoint to 2^16 -> satfinite 7b; inf -> 7b. */
    EQ(cvt_f32_to_e5m2(0x3F800000, 0), 0x3C);
    EQ(cvt_f32_to_e5m2(0x47600000, 0), 0x7B);
    EQ(cvt_f32_to_e5m2(0x47700000, 0), 0x7B);
    EQ(cvt_f32_to_e5m2(0xFF800000, 0), 0xFB);
    EQ(cvt_f32_to_e5m2(0xFFC00000, 0), 0x7F);
    /* from f16: 1.0 -> 38; f16 NaN -> 7f. */
    EQ(fp_cvt(0x3C00, FP_F16, FP_E4M3, FP_RN, FP_CVT_SATFINITE), 0x38);
    EQ(fp_cvt(0x7E00, FP_F16, FP_E5M2, FP_RN, FP_CVT_SATFINITE), 0x7F);
    /* back to f16 (exact): 448 = 1.75*2^8 -> f16 0 10111 1100000000 = 5f00;
     * 2^-9 -> 1800; NaN codes -> 7fff; relu of -1 -> 0. */
    EQ(cvt_f8_to_f16(0x7E, FP_E4M3, 0), 0x5F00);
    EQ(cvt_f8_to_f16(0x01, FP_E4M3, 0), 0x1800);
    EQ(cvt_f8_to_f16(0xFF, FP_E4M3, 0), 0x7FFF);
    EQ(cvt_f8_to_f16(0xB8, FP_E4M3, 1), 0x0000);
    EQ(cvt_f8_to_f16(0xB8, FP_E4M3, 0), 0xBC00);
    EQ(cvt_f8_to_f16(0x7C, FP_E5M2, 0), 0x7C00); /* e5m2 inf */
    EQ(cvt_f8_to_f16(0x7D, FP_E5M2, 0), 0x7FFF);
    /* e5m2 is the top byte of an f16: 01 = 2^-16 = 256 * 2^-24 = 0100. */
    EQ(cvt_f8_to_f16(0x01, FP_E5M2, 0), 0x0100);
    /* e2m1 (bias 1): 0.5 = 1 (subnormal), 1.0 = 2, 4 = 6, 6 = 7 (MAX).
     * 5 is the midpoint of 4 (mantissa 0) and 6 -> 6 (even); 7 -> MAX;
     * 0.25 ties between 0 and 0.5 -> 0; 0.75 ties -> 1.0 (even); NaN ->
     * +MAX (manual: no NaN in fp4/fp6). */
    EQ(fp_cvt(0x40A00000, FP_F32, FP_E2M1, FP_RN, FP_CVT_SATFINITE), 0x6);
    EQ(fp_cvt(0x40E00000, FP_F32, FP_E2M1, FP_RN, FP_CVT_SATFINITE), 0x7);
    EQ(fp_cvt(0xC0E00000, FP_F32, FP_E2M1, FP_RN, FP_CVT_SATFINITE), 0xF);
    EQ(fp_cvt(0x3E800000, FP_F32, FP_E2M1, FP_RN, FP_CVT_SATFINITE), 0x0);
    EQ(fp_cvt(0x3F400000, FP_F32, FP_E2M1, FP_RN, FP_CVT_SATFINITE), 0x2);
    EQ(fp_cvt(0x7FC00000, FP_F32, FP_E2M1, FP_RN, FP_CVT_SATFINITE), 0x7);
    EQ(fp_cvt(0x7, FP_E2M1, FP_F16, FP_RN, 0), 0x4600); /* 6.0 */
    EQ(fp_cvt(0x1, FP_E2M1, FP_F16, FP_RN, 0), 0x3800); /* 0.5 */
    /* e2m3: MAX 1.875*4 = 7.5 = 1f; e3m2: MAX 1.75*16 = 28 = 1f. */
    EQ(fp_cvt(0x41000000, FP_F32, FP_E2M3, FP_RN, FP_CVT_SATFINITE), 0x1F);
    EQ(fp_cvt(0x42000000, FP_F32, FP_E3M2, FP_RN, FP_CVT_SATFINITE), 0x1F);
    EQ(fp_cvt(0x3F800000, FP_F32, FP_E2M3, FP_RN, FP_CVT_SATFINITE), 0x08);
    EQ(fp_cvt(0x3F800000, FP_F32, FP_E3M2, FP_RN, FP_CVT_SATFINITE), 0x0C);
    /* ue8m0 = 2^(e-127): rz of 3 -> 2^1 = 80, rp of 3 -> 2^2 = 81, exact 4
     * -> 81 in both; NaN -> ff; inf -> ff, satfinite -> fe. */
    EQ(fp_cvt(0x40400000, FP_F32, FP_UE8M0, FP_RZ, 0), 0x80);
    EQ(fp_cvt(0x40400000, FP_F32, FP_UE8M0, FP_RP, 0), 0x81);
    EQ(fp_cvt(0x40800000, FP_F32, FP_UE8M0, FP_RP, 0), 0x81);
    EQ(fp_cvt(0x7FC00000, FP_F32, FP_UE8M0, FP_RZ, 0), 0xFF);
    EQ(fp_cvt(0x7F800000, FP_F32, FP_UE8M0, FP_RP, FP_CVT_SATFINITE), 0xFE);
    EQ(fp_cvt(0x7F, FP_UE8M0, FP_BF16, FP_RN, 0), 0x3F80);
    EQ(fp_cvt(0x00, FP_UE8M0, FP_BF16, FP_RN, 0), 0x0040); /* 2^-127 */
    EQ(fp_cvt(0xFF, FP_UE8M0, FP_BF16, FP_RN, 0), 0x7FFF);
}
END_TEST

START_TEST(cvt_f2i)
{
    /* rni: ties to even; rzi truncates; rmi floor; rpi ceil. */
    EQ(cvt_float_to_int(0x40200000, FP_F32, 32, 1, FP_RN, 0), 2);  /* 2.5 */
    EQ(cvt_float_to_int(0x40600000, FP_F32, 32, 1, FP_RN, 0), 4);  /* 3.5 */
    EQ(cvt_float_to_int(0xC0200000, FP_F32, 32, 1, FP_RN, 0), (uint64_t)-2);
    EQ(cvt_float_to_int(0xBF000000, FP_F32, 32, 1, FP_RN, 0), 0);  /* -0.5 -> -0 -> 0 */
    EQ(cvt_float_to_int(0xC02CCCCD, FP_F32, 32, 1, FP_RZ, 0), (uint64_t)-2); /* -2.7 */
    EQ(cvt_float_to_int(0xC0066666, FP_F32, 32, 1, FP_RM, 0), (uint64_t)-3); /* -2.1 */
    EQ(cvt_float_to_int(0x40066666, FP_F32, 32, 1, FP_RP, 0), 3);            /* 2.1 */
    EQ(cvt_float_to_int(0xBF000000, FP_F32, 32, 1, FP_RP, 0), 0);
    EQ(cvt_float_to_int(0x80000000, FP_F32, 32, 1, FP_RM, 0), 0);  /* -0 */
    /* Saturation (cvt float->int always saturates). */
    EQ(cvt_float_to_int(0x4F32D05E, FP_F32, 32, 1, FP_RZ, 0), 0x7FFFFFFF);          /* 3e9 */
    EQ(cvt_float_to_int(0xCF32D05E, FP_F32, 32, 1, FP_RZ, 0), 0xFFFFFFFF80000000ull); /* -3e9 */
    EQ(cvt_float_to_int(0xBF800000, FP_F32, 32, 0, FP_RZ, 0), 0);                   /* u32(-1) */
    EQ(cvt_float_to_int(0x4F9502F9, FP_F32, 32, 0, FP_RZ, 0), 0xFFFFFFFF);          /* 5e9 */
    EQ(cvt_float_to_int(0x43480000, FP_F32, 8, 1, FP_RN, 0), 127);                  /* 200 */
    EQ(cvt_float_to_int(0xC3480000, FP_F32, 8, 1, FP_RN, 0), (uint64_t)-128);
    EQ(cvt_float_to_int(0x437F8000, FP_F32, 8, 0, FP_RN, 0), 255); /* 255.5 -> 256 -> 255 */
    EQ(cvt_float_to_int(0x437F8000, FP_F32, 8, 0, FP_RZ, 0), 255);
    /* INT_MIN is exact; 2^31 saturates for s32 but fits u32. */
    EQ(cvt_float_to_int(0xCF000000, FP_F32, 32, 1, FP_RN, 0), 0xFFFFFFFF80000000ull);
    EQ(cvt_float_to_int(0x4F000000, FP_F32, 32, 1, FP_RN, 0), 0x7FFFFFFF);
    EQ(cvt_float_to_int(0x4F000000, FP_F32, 32, 0, FP_RN, 0), 0x80000000);
    EQ(cvt_float_to_int(0x5F000000, FP_F32, 64, 1, FP_RN, 0), 0x7FFFFFFFFFFFFFFFull); /* 2^63 */
    EQ(cvt_float_to_int(0xDF000000, FP_F32, 64, 1, FP_RN, 0), 0x8000000000000000ull);
    EQ(cvt_float_to_int(0x5F000000, FP_F32, 64, 0, FP_RN, 0), 0x8000000000000000ull);
    EQ(cvt_float_to_int(0x5F800000, FP_F32, 64, 0, FP_RN, 0), 0xFFFFFFFFFFFFFFFFull); /* 2^64 */
    EQ(cvt_float_to_int(0x43EFFFFFFFFFFFFFull, FP_F64, 64, 0, FP_RZ, 0), 0xFFFFFFFFFFFFF800ull);
    /* inf saturates; -inf to unsigned is 0. */
    EQ(cvt_float_to_int(0x7F800000, FP_F32, 16, 1, FP_RN, 0), 0x7FFF);
    EQ(cvt_float_to_int(0xFF800000, FP_F32, 16, 1, FP_RN, 0), (uint64_t)-32768);
    EQ(cvt_float_to_int(0xFF800000, FP_F32, 32, 0, FP_RN, 0), 0);
    /* NaN (PTX "Integer Notes"): 0 unless the source is f64 or the
     * destination 64-bit; then 1 << (bits-1) (MININT for signed). */
    EQ(cvt_float_to_int(0x7FC00000, FP_F32, 32, 1, FP_RN, 0), 0);
    EQ(cvt_float_to_int(0x7FC00000, FP_F32, 16, 0, FP_RZ, 0), 0);
    EQ(cvt_float_to_int(0x7FC00000, FP_F32, 64, 1, FP_RN, 0), 0x8000000000000000ull);
    EQ(cvt_float_to_int(0x7FC00000, FP_F32, 64, 0, FP_RN, 0), 0x8000000000000000ull);
    EQ(cvt_float_to_int(0x7FF8000000000000ull, FP_F64, 32, 1, FP_RN, 0), 0xFFFFFFFF80000000ull);
    EQ(cvt_float_to_int(0x7FF8000000000000ull, FP_F64, 32, 0, FP_RN, 0), 0x80000000);
    EQ(cvt_float_to_int(0x7FF8000000000000ull, FP_F64, 8, 0, FP_RN, 0), 0x80);
    EQ(cvt_float_to_int(0x7FF8000000000000ull, FP_F64, 16, 1, FP_RN, 0), (uint64_t)-32768);
    EQ(cvt_float_to_int(0x7E00, FP_F16, 32, 1, FP_RN, 0), 0);
    EQ(cvt_float_to_int(0x7E00, FP_F16, 64, 0, FP_RN, 0), 0x8000000000000000ull);
    /* .ftz: ceil(2^-149) = 1 normally, 0 after flushing; floor(-2^-149) =
     * -1 normally, 0 after flushing. */
    EQ(cvt_float_to_int(0x00000001, FP_F32, 32, 1, FP_RP, 0), 1);
    EQ(cvt_float_to_int(0x00000001, FP_F32, 32, 1, FP_RP, 1), 0);
    EQ(cvt_float_to_int(0x80000001, FP_F32, 32, 1, FP_RM, 0), (uint64_t)-1);
    EQ(cvt_float_to_int(0x80000001, FP_F32, 32, 1, FP_RM, 1), 0);
    /* f16/bf16/f64 sources. */
    EQ(cvt_float_to_int(0x7BFF, FP_F16, 16, 1, FP_RN, 0), 0x7FFF); /* 65504 */
    EQ(cvt_float_to_int(0x7BFF, FP_F16, 16, 0, FP_RN, 0), 65504);
    EQ(cvt_float_to_int(0x3E00, FP_F16, 8, 1, FP_RN, 0), 2);        /* 1.5 */
    EQ(cvt_float_to_int(0x4300, FP_BF16, 8, 1, FP_RN, 0), 127);     /* 128 */
    EQ(cvt_float_to_int(0xC004000000000000ull, FP_F64, 64, 1, FP_RN, 0), (uint64_t)-2); /* -2.5 */
    EQ(cvt_float_to_int(0x4330000000000001ull, FP_F64, 64, 1, FP_RZ, 0), 4503599627370497ull);
}
END_TEST

START_TEST(cvt_round_int)
{
    EQ(fp_round_int(0x40200000, FP_F32, FP_RN, 0, 0), 0x40000000); /* 2.5 -> 2 */
    EQ(fp_round_int(0xBF000000, FP_F32, FP_RN, 0, 0), 0x80000000); /* -0.5 -> -0 */
    EQ(fp_round_int(0xBFC00000, FP_F32, FP_RZ, 0, 0), 0xBF800000); /* -1.5 -> -1 */
    EQ(fp_round_int(0xBF000000, FP_F32, FP_RM, 0, 0), 0xBF800000); /* -0.5 -> -1 */
    EQ(fp_round_int(0x3E4CCCCD, FP_F32, FP_RP, 0, 0), 0x3F800000); /* 0.2 -> 1 */
    EQ(fp_round_int(0xBE4CCCCD, FP_F32, FP_RP, 0, 0), 0x80000000); /* -0.2 -> -0 */
    /* 8388607.5 ties between 8388607 (odd) and 8388608 (even). */
    EQ(fp_round_int(0x4AFFFFFF, FP_F32, FP_RN, 0, 0), 0x4B000000);
    EQ(fp_round_int(0x4B000001, FP_F32, FP_RN, 0, 0), 0x4B000001); /* already integral */
    EQ(fp_round_int(0xFF800000, FP_F32, FP_RN, 0, 0), 0xFF800000);
    EQ(fp_round_int(0xFFC00001, FP_F32, FP_RN, 0, 0), FP32_CANON_NAN);
    EQ(fp_round_int(0x3FC00000, FP_F32, FP_RN, 0, 1), 0x3F800000); /* 2 -> sat 1 */
    EQ(fp_round_int(0x00000001, FP_F32, FP_RP, 0, 0), 0x3F800000);
    EQ(fp_round_int(0x00000001, FP_F32, FP_RP, 1, 0), 0);          /* flushed */
    EQ(fp_round_int(0x4004000000000000ull, FP_F64, FP_RN, 0, 0), 0x4000000000000000ull);
    EQ(fp_round_int(0x7FF0000000000001ull, FP_F64, FP_RN, 0, 0), 0x7FF8000000000001ull);
    EQ(fp_round_int(0x4100, FP_F16, FP_RN, 0, 0), 0x4000); /* 2.5 -> 2 */
    EQ(fp_round_int(0x3F40, FP_BF16, FP_RP, 0, 0), 0x3F80); /* 0.75 -> 1 */
}
END_TEST

START_TEST(cvt_i2f)
{
    const uint64_t umax = 0xFFFFFFFFFFFFFFFFull;
    /* u64 max = 2^64 - 1 -> f32: RN/RP round up to 2^64 (5f800000), RZ/RM
     * give the largest float below 2^64, (2-2^-23)*2^63 = 5f7fffff. */
    EQ(cvt_int_to_float(umax, 0, FP_F32, FP_RN, 0), 0x5F800000);
    EQ(cvt_int_to_float(umax, 0, FP_F32, FP_RZ, 0), 0x5F7FFFFF);
    EQ(cvt_int_to_float(umax, 0, FP_F32, FP_RM, 0), 0x5F7FFFFF);
    EQ(cvt_int_to_float(umax, 0, FP_F32, FP_RP, 0), 0x5F800000);
    /* same bits as s64 are -1. */
    EQ(cvt_int_to_float(umax, 1, FP_F32, FP_RN, 0), 0xBF800000);
    /* 2^24 + 1 ties between 2^24 and 2^24+2: RN even -> 2^24. */
    EQ(cvt_int_to_float(16777217, 1, FP_F32, FP_RN, 0), 0x4B800000);
    EQ(cvt_int_to_float(16777217, 1, FP_F32, FP_RP, 0), 0x4B800001);
    EQ(cvt_int_to_float(16777217, 1, FP_F32, FP_RZ, 0), 0x4B800000);
    EQ(cvt_int_to_float((uint64_t)-16777217, 1, FP_F32, FP_RM, 0), 0xCB800001);
    EQ(cvt_int_to_float((uint64_t)-16777217, 1, FP_F32, FP_RP, 0), 0xCB800000);
    EQ(cvt_int_to_float(16777219, 0, FP_F32, FP_RN, 0), 0x4B800002); /* tie -> even (...4) */
    /* INT_MIN values are exact powers of two. */
    for (int i = 0; i < 4; i++) {
        EQ(cvt_int_to_float((uint64_t)(int64_t)INT32_MIN, 1, FP_F32, RND[i], 0), 0xCF000000);
        EQ(cvt_int_to_float(0x8000000000000000ull, 1, FP_F32, RND[i], 0), 0xDF000000);
        EQ(cvt_int_to_float(0x8000000000000000ull, 1, FP_F64, RND[i], 0), 0xC3E0000000000000ull);
    }
    /* f64: 2^53+1 ties -> 2^53; u64 max -> 2^64 (RN) / 43efffffffffffff (RZ). */
    EQ(cvt_int_to_float((1ull << 53) + 1, 1, FP_F64, FP_RN, 0), 0x4340000000000000ull);
    EQ(cvt_int_to_float((1ull << 53) + 1, 1, FP_F64, FP_RP, 0), 0x4340000000000001ull);
    EQ(cvt_int_to_float(umax, 0, FP_F64, FP_RN, 0), 0x43F0000000000000ull);
    EQ(cvt_int_to_float(umax, 0, FP_F64, FP_RZ, 0), 0x43EFFFFFFFFFFFFFull);
    /* f16: 65519 -> 65504; 65520 ties -> inf; 70000 -> inf (RN) / 65504 (RZ). */
    EQ(cvt_int_to_float(65519, 0, FP_F16, FP_RN, 0), 0x7BFF);
    EQ(cvt_int_to_float(65520, 0, FP_F16, FP_RN, 0), 0x7C00);
    EQ(cvt_int_to_float(70000, 0, FP_F16, FP_RN, 0), 0x7C00);
    EQ(cvt_int_to_float(70000, 0, FP_F16, FP_RZ, 0), 0x7BFF);
    EQ(cvt_int_to_float((uint64_t)-70000, 1, FP_F16, FP_RP, 0), 0xFBFF);
    EQ(cvt_int_to_float((uint64_t)-70000, 1, FP_F16, FP_RM, 0), 0xFC00);
    EQ(cvt_int_to_float(2049, 0, FP_F16, FP_RN, 0), 0x6800); /* 2049 ties -> 2048 */
    /* bf16: u64 max -> RZ (2-2^-7)*2^63 = 5f7f, RN 2^64 = 5f80. */
    EQ(cvt_int_to_float(umax, 0, FP_BF16, FP_RZ, 0), 0x5F7F);
    EQ(cvt_int_to_float(umax, 0, FP_BF16, FP_RN, 0), 0x5F80);
    EQ(cvt_int_to_float(0, 1, FP_F32, FP_RM, 0), 0); /* +0 even under RM */
    EQ(cvt_int_to_float(5, 1, FP_F32, FP_RN, 1), 0x3F800000);
    EQ(cvt_int_to_float((uint64_t)-3, 1, FP_F32, FP_RN, 1), 0);
    EQ(cvt_int_to_float(1, 0, FP_TF32, FP_RN, 0), 0x3F800000);
}
END_TEST

START_TEST(cvt_int_int)
{
    EQ(cvt_int_sat(0xFFFFFFFF, 32, 1, 8, 0, 1), 0);            /* s32 -1 -> u8 sat */
    EQ(cvt_int_sat(0xFFFFFFFF, 32, 1, 8, 0, 0), 0xFF);         /* truncated */
    EQ(cvt_int_sat(300, 32, 1, 8, 1, 1), 127);
    EQ(cvt_int_sat(300, 32, 1, 8, 1, 0), 44);                  /* 0x12c & 0xff */
    EQ(cvt_int_sat((uint32_t)-129, 32, 1, 8, 1, 1), (uint64_t)-128);
    EQ(cvt_int_sat((uint32_t)-129, 32, 1, 8, 1, 0), 127);      /* 0x7f */
    EQ(cvt_int_sat(0xFFFFFFFF, 32, 0, 32, 1, 1), 0x7FFFFFFF);  /* u32 max -> s32 */
    EQ(cvt_int_sat(0xFFFFFFFFFFFFFFFFull, 64, 1, 64, 0, 1), 0);
    EQ(cvt_int_sat(0x8000000000000000ull, 64, 0, 64, 1, 1), 0x7FFFFFFFFFFFFFFFull);
    EQ(cvt_int_sat(0x8000000000000000ull, 64, 1, 32, 1, 1), 0xFFFFFFFF80000000ull);
    EQ(cvt_int_sat(0xFF, 8, 1, 32, 0, 0), 0xFFFFFFFF);          /* s8 -1 sign-extends */
    EQ(cvt_int_sat(0xFFFB, 16, 1, 64, 1, 0), 0xFFFFFFFFFFFFFFFBull);
    EQ(cvt_int_sat(0x1FF, 8, 1, 16, 0, 1), 0);                 /* only low 8 bits: -1 */
    EQ(cvt_int_sat(0x80000000, 32, 0, 16, 1, 1), 0x7FFF);
}
END_TEST

START_TEST(testp_copysign)
{
    /* testp: zero counts as normal; subnormal excludes zero. */
    ck_assert_int_eq(fp_testp(0, FP_F32, FP_TESTP_NORMAL), 1);
    ck_assert_int_eq(fp_testp(0x80000000, FP_F32, FP_TESTP_SUBNORMAL), 0);
    ck_assert_int_eq(fp_testp(1, FP_F32, FP_TESTP_SUBNORMAL), 1);
    ck_assert_int_eq(fp_testp(1, FP_F32, FP_TESTP_NORMAL), 0);
    ck_assert_int_eq(fp_testp(0x7F800000, FP_F32, FP_TESTP_FINITE), 0);
    ck_assert_int_eq(fp_testp(0xFF800000, FP_F32, FP_TESTP_INFINITE), 1);
    ck_assert_int_eq(fp_testp(0x7F800000, FP_F32, FP_TESTP_NORMAL), 0);
    ck_assert_int_eq(fp_testp(0x7FC00000, FP_F32, FP_TESTP_NUMBER), 0);
    ck_assert_int_eq(fp_testp(0x7F800001, FP_F32, FP_TESTP_NOTANUMBER), 1);
    ck_assert_int_eq(fp_testp(0x7FC00000, FP_F32, FP_TESTP_NORMAL), 0);
    ck_assert_int_eq(fp_testp(0x3F800000, FP_F32, FP_TESTP_FINITE), 1);
    ck_assert_int_eq(fp_testp(0x000FFFFFFFFFFFFFull, FP_F64, FP_TESTP_SUBNORMAL), 1);
    ck_assert_int_eq(fp_testp(0x0010000000000000ull, FP_F64, FP_TESTP_NORMAL), 1);
    ck_assert_int_eq(fp_testp(0xFFF8000000000000ull, FP_F64, FP_TESTP_NOTANUMBER), 1);
    ck_assert_int_eq(fp_testp(0xFFF0000000000000ull, FP_F64, FP_TESTP_INFINITE), 1);
    /* copysign d = b with a's sign; a NaN b keeps its payload. */
    EQ(f32_copysign(0xBF800000, 0x40000000), 0xC0000000);
    EQ(f32_copysign(0x3F800000, 0xFFC00001), 0x7FC00001);
    EQ(f64_copysign(0, 0xBFF0000000000000ull), 0x3FF0000000000000ull);
}
END_TEST

/* The .approx functions (emu/fp_approx.c) on inputs where a correctly
 * rounded model differs from the H100, and on the unit's edges.  H100: every
 * expected value was read from an H100 (tools/approx-sweep, sm_90, driver 580). */
START_TEST(approx_h100)
{
    static const struct { int fn, ftz; uint32_t a, want; } c[] = {
        /* rcp/rsqrt/sqrt: the interpolation's rounding, not the exact one */
        {FPA_RCP, 1, 0x010005a9, 0x7dfff4ae}, {FPA_RCP, 1, 0x010005aa, 0x7dfff4ac},
        {FPA_RCP, 0, 0x2d600215, 0x519247c8}, {FPA_RCP, 0, 0xc5700025, 0xb9888874},
        {FPA_RCP, 1, 0x3f800000, 0x3f800000}, {FPA_RCP, 1, 0x3f800001, 0x3f7ffffe},
        {FPA_RSQRT, 0, 0x00000001, 0x64b504f2}, {FPA_RSQRT, 0, 0x00000003, 0x645105eb},
        {FPA_RSQRT, 1, 0x01000002, 0x5eb504f1}, {FPA_RSQRT, 1, 0x7dd0001c, 0x2048d29d},
        {FPA_RSQRT, 1, 0x40000000, 0x3f3504f2}, {FPA_RSQRT, 1, 0x3f800001, 0x3f7ffffe},
        {FPA_SQRT, 0, 0x00000003, 0x1a9cc470}, {FPA_SQRT, 0, 0x5e600000, 0x4eef7750},
        {FPA_SQRT, 1, 0x01000002, 0x203504f4}, {FPA_SQRT, 1, 0x4220001c, 0x40ca62d3},
        {FPA_SQRT, 1, 0x40000000, 0x3fb504f3}, {FPA_SQRT, 1, 0x40000001, 0x3fb504f4},
        /* the H100's results (raw sweep outputs) where the fitted quadratic rounds
         * the other way: the sparse corrections of fp_approx_exc.h */
        {FPA_RCP, 0, 0x3f803068, 0x3f7f9f55}, {FPA_RCP, 1, 0x3faadb47, 0x3f3fc95f}, {FPA_RCP, 0, 0x3fd58708, 0x3f1975da},
        {FPA_RSQRT, 0, 0x3f803040, 0x3f7fcfce}, {FPA_RSQRT, 1, 0x3fd58642, 0x3f46353f}, {FPA_RSQRT, 0, 0x402adaf1, 0x3f1cae49},
        {FPA_SQRT, 0, 0x3f803481, 0x3f801a3d}, {FPA_SQRT, 1, 0x3fd5860d, 0x3fa5522b}, {FPA_SQRT, 0, 0x402adb02, 0x3fd12383},
        {FPA_EX2, 0, 0x3f003146, 0x3fb51d1c}, {FPA_EX2, 1, 0x3f55865e, 0x3fe4303a}, {FPA_EX2, 0, 0x3faadaef, 0x40216f44},
        {FPA_EX2, 0, 0xbf00c128, 0x3f34a65f}, {FPA_EX2, 1, 0xbf5617bc, 0x3f0f614a}, {FPA_EX2, 0, 0xbfab6bfc, 0x3eca5baf},
        {FPA_EX2, 0, 0xc280c108, 0x1f4520a8}, {FPA_EX2, 1, 0xc2ab6cb8, 0x149c3e82}, {FPA_EX2, 0, 0xc2d6168c, 0x09f84dcb},
        /* ex2: x in fixed point with 23 fraction bits, negative x in ones' complement */
        {FPA_EX2, 1, 0xbc400000, 0x3f7dedd0}, {FPA_EX2, 1, 0xbc400001, 0x3f7dedd0},
        {FPA_EX2, 0, 0x3d100000, 0x3f832851}, {FPA_EX2, 0, 0x42f00003, 0x7b800086},
        {FPA_EX2, 1, 0x3f000000, 0x3fb504f3}, {FPA_EX2, 1, 0x3f000001, 0x3fb504f3},
        {FPA_EX2, 1, 0x3fffffff, 0x407fffff}, {FPA_EX2, 1, 0xc2800000, 0x1f800000},
        /* lg2: a fixed-point sum truncated toward zero */
        {FPA_LG2, 1, 0x3f800001, 0x3495f600}, {FPA_LG2, 1, 0x3f800002, 0x34f24a00},
        {FPA_LG2, 0, 0x0fa0000d, 0xc2bf5b2b}, {FPA_LG2, 1, 0x4f80000d, 0x42000000},
        {FPA_LG2, 1, 0x3f800000, 0x00000000}, {FPA_LG2, 1, 0x3f000000, 0xbf7ffffe},
        {FPA_LG2, 1, 0x20000000, 0xc27bffff}, {FPA_LG2, 0, 0x3e500002, 0xc0132bfd},
        /* lg2: the interpolator's truncated square (none below m = 1024), x < 1
         * in ones' complement: a correctly rounded table gets these wrong */
        {FPA_LG2, 1, 0x3f7ffffd, 0xb446d000}, {FPA_LG2, 0, 0x3f7ffffe, 0xb3d38800},
        {FPA_LG2, 1, 0x3f7ffa74, 0xb8fff21a}, {FPA_LG2, 1, 0x3f0006e4, 0xbf7fec1c},
        {FPA_LG2, 0, 0x3f800026, 0x36dee1a0}, {FPA_LG2, 1, 0x3f853b7f, 0x3d6cc122},
        {FPA_LG2, 1, 0x3f8fffff, 0x3e2e00cb}, {FPA_LG2, 0, 0x40000138, 0x3f8001c3},
        {FPA_LG2, 1, 0x20001568, 0xc27bff08},
        /* tanh: |x| keeps 17 to 21 mantissa bits, the interpolator's value truncated
         * (below 2^E with one more bit), x below 2^-8, 1 from 8 up */
        {FPA_TANH, 0, 0x3f9bfff8, 0x3f56dbe4}, {FPA_TANH, 0, 0x3f800000, 0x3f42f848},
        {FPA_TANH, 0, 0x3c000000, 0x3bffff00}, {FPA_TANH, 0, 0x3b800040, 0x3b800040},
        {FPA_TANH, 0, 0x3b7fff00, 0x3b7fff00}, {FPA_TANH, 0, 0x3e800000, 0x3e7acbc0},
        {FPA_TANH, 0, 0x3f000000, 0x3eec9a50}, {FPA_TANH, 0, 0x3f000010, 0x3eec9a69},
        {FPA_TANH, 0, 0x40ffe810, 0x3f7ffffc}, {FPA_TANH, 0, 0x41000000, 0x3f800000},
        {FPA_TANH, 0, 0x40000003, 0x3f76caa0}, {FPA_TANH, 0, 0x40000004, 0x3f76caa1},
        {FPA_TANH, 0, 0x3d00001f, 0x3cffeac0}, {FPA_TANH, 0, 0x3d000020, 0x3cffeaff},
        /* sin/cos: the angle in fixed point (2^-25 turn), exact at whole quadrants */
        {FPA_SIN, 0, 0x34400001, 0x00000000}, {FPA_SIN, 1, 0xb4400001, 0x80000000},
        {FPA_SIN, 1, 0x34500001, 0x34491200}, {FPA_SIN, 1, 0x35000000, 0x34c91200},
        {FPA_SIN, 1, 0x4b100009, 0xbf800000}, {FPA_SIN, 1, 0xc8500009, 0x3f800000},
        {FPA_COS, 0, 0x4b000003, 0x00000000}, {FPA_COS, 1, 0x4af00001, 0xbf3504f2},
        {FPA_COS, 1, 0x00000000, 0x3f800000}, {FPA_COS, 1, 0x37400001, 0x3f7fffff},
        {FPA_COS, 1, 0xcb200000, 0xbf3504f2}, {FPA_COS, 0, 0xc1b00001, 0xbf7ffd70},
        /* sin/cos: the table's interpolator (emu/fp_approx_trig.h), where the
         * fitted table was up to 14 units off; the start of segment 1; the end of
         * a quadrant, which rounds up to 1; negative angles */
        {FPA_SIN, 1, 0x39440e16, 0x3943f70b}, {FPA_SIN, 0, 0xb9440e16, 0xb943f70b},
        {FPA_SIN, 0, 0x3cc91c3a, 0x3cc9169b}, {FPA_SIN, 1, 0x3fc90fda, 0x3f800000},
        {FPA_SIN, 1, 0x40c90e4a, 0xb9487b32}, {FPA_SIN, 0, 0xc0c90e4a, 0x39487b32},
        {FPA_COS, 0, 0x3fc90993, 0x3948dfbb}, {FPA_COS, 1, 0xbfc90993, 0x3948dfbb},
        {FPA_COS, 1, 0x40490fd1, 0xbf800000},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        ck_assert_msg(fp_approx_f32(c[i].fn, c[i].a, c[i].ftz) == c[i].want, "fn %d ftz %d %08x -> %08x, H100 %08x",
                      c[i].fn, c[i].ftz, c[i].a, fp_approx_f32(c[i].fn, c[i].a, c[i].ftz), c[i].want);
    /* tanh.approx.f16/.bf16: the H100's f32 tanh truncated (one unit away from
     * the truncated exact tanh; tanh(x) = x for small x, 1 at 9.0) */
    static const struct { int bf; uint16_t a, want; } h[] = {
        {0, 0x0dc5, 0x0dc5}, {0, 0x1149, 0x1149}, {0, 0x2d3f, 0x2d3b}, {0, 0x3c8e, 0x3a82},
        {0, 0x4881, 0x3c00}, {0, 0xc881, 0xbc00}, {1, 0x39b9, 0x39b9}, {1, 0x3f3f, 0x3f21},
        {1, 0xbf3f, 0xbf21}, {1, 0x3b49, 0x3b49},
    };
    for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
        ck_assert_msg(fp_approx_h(FPA_TANH, h[i].bf, h[i].a) == h[i].want, "tanh bf %d %04x -> %04x, H100 %04x",
                      h[i].bf, h[i].a, fp_approx_h(FPA_TANH, h[i].bf, h[i].a), h[i].want);
}
END_TEST

/* The round-to-nearest fast paths must agree with the general code paths:
 * a + b == fma(a, 1, b) and a * b == fma(a, b, -0) exactly (the fma path
 * is the general one), and the bit-trick f32 -> f16/bf16 conversions equal
 * fp_cvt with no modifiers. */
START_TEST(half_fast_paths)
{
    int bad = 0;
    for (uint32_t x = 0; x < 0xFFFFFFFFu - 9973u * 7u && bad < 10; x += 9973u * 7u) {
        uint16_t a = (uint16_t)(x >> 16), b = (uint16_t)x;
        bad += f16_add(a, b, FP_RN, 0, 0) != f16_fma(a, 0x3C00, b, FP_RN, 0, 0, 0);
        bad += f16_mul(a, b, FP_RN, 0, 0) != f16_fma(a, b, 0x8000, FP_RN, 0, 0, 0);
        bad += f16_add(a, b, FP_RN, 0, 1) != f16_fma(a, 0x3C00, b, FP_RN, 0, 1, 0);
        bad += bf16_add(a, b, FP_RN, 0, 0) != bf16_fma(a, 0x3F80, b, FP_RN, 0, 0, 0);
        bad += bf16_mul(a, b, FP_RN, 0, 0) != bf16_fma(a, b, 0x8000, FP_RN, 0, 0, 0);
        bad += cvt_f32_to_f16_rn(x) != (uint16_t)fp_cvt(x, FP_F32, FP_F16, FP_RN, 0);
        bad += cvt_f32_to_bf16_rn(x) != (uint16_t)fp_cvt(x, FP_F32, FP_BF16, FP_RN, 0);
        bad += cvt_f16_to_f32(b) != (uint32_t)fp_cvt(b, FP_F16, FP_F32, FP_RN, 0);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Oracle: the host FPU under fesetround (x86 SSE is IEEE 754 correctly
 * rounded in every mode).  Operands live in volatiles so that the compiler
 * neither folds the operations nor moves them across fesetround. */

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static uint32_t rand_f32(void)
{
    uint64_t r = rnd64();
    uint32_t s = (uint32_t)(r >> 63) << 31, m = (uint32_t)r & 0x7FFFFF, e;
    switch ((r >> 40) % 6) {
    case 0: e = 1 + (r >> 32) % 254; break;     /* any finite */
    case 1: e = 120 + (r >> 32) % 16; break;    /* close exponents */
    case 2: e = (r >> 32) % 3; break;           /* subnormal / tiny */
    case 3: e = 250 + (r >> 32) % 5; break;     /* near overflow */
    case 4: e = 62 + (r >> 32) % 4; break;      /* products near 2^-126 */
    default: e = 126 + (r >> 32) % 3; m &= ~0u << ((r >> 50) % 24); break; /* ties */
    }
    return s | (e << 23) | m;
}
static uint64_t rand_f64(void)
{
    uint64_t r = rnd64(), m = rnd64() & 0xFFFFFFFFFFFFFull, s = (r >> 63) << 63, e;
    switch ((r >> 40) % 6) {
    case 0: e = 1 + (r >> 32) % 2046; break;
    case 1: e = 1016 + (r >> 32) % 16; break;
    case 2: e = (r >> 32) % 3; break;
    case 3: e = 2042 + (r >> 32) % 5; break;
    case 4: e = 509 + (r >> 32) % 6; break;
    default: e = 1022 + (r >> 32) % 3; m &= ~0ull << ((r >> 50) % 53); break;
    }
    return s | (e << 52) | m;
}

static const int host_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

START_TEST(oracle_f32)
{
    volatile float va, vb, vc, vr;
    int bad = 0;
    for (int it = 0; it < 40000 && bad < 10; it++) {
        uint32_t a = rand_f32(), b = rand_f32(), c = rand_f32();
        if (it & 1) c = fp_f32_bits(-(fp_f32_val(a) * fp_f32_val(b))) ^ (uint32_t)(rnd64() & 1);
        for (int k = 0; k < 4; k++) {
            uint32_t want[6], got[6];
            va = fp_f32_val(a); vb = fp_f32_val(b); vc = fp_f32_val(c);
            fesetround(host_mode[k]);
            vr = va + vb; want[0] = fp_f32_bits(vr);
            vr = va * vb; want[1] = fp_f32_bits(vr);
            vr = va / vb; want[2] = fp_f32_bits(vr);
            vr = sqrtf(va < 0 ? -va : va); want[3] = fp_f32_bits(vr);
            vr = fmaf(va, vb, vc); want[4] = fp_f32_bits(vr);
            vr = va - vb; want[5] = fp_f32_bits(vr);
            fesetround(FE_TONEAREST);
            got[0] = f32_add(a, b, RND[k], 0, 0);
            got[1] = f32_mul(a, b, RND[k], 0, 0);
            got[2] = f32_div(a, b, RND[k], 0);
            got[3] = f32_sqrt(a & 0x7FFFFFFF, RND[k], 0);
            got[4] = f32_fma(a, b, c, RND[k], 0, 0);
            got[5] = f32_sub(a, b, RND[k], 0, 0);
            for (int j = 0; j < 6; j++) {
                if (f32_isnan(want[j])) want[j] = FP32_CANON_NAN;
                if (want[j] != got[j] && bad++ < 10)
                    fprintf(stderr, "f32 op%d rnd%d a=%08x b=%08x c=%08x got %08x want %08x\n", j, k, a, b, c,
                            got[j], want[j]);
            }
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(oracle_f64)
{
    volatile double va, vb, vc, vr;
    int bad = 0;
    for (int it = 0; it < 40000 && bad < 10; it++) {
        uint64_t a = rand_f64(), b = rand_f64(), c = rand_f64();
        if (it & 1) c = fp_f64_bits(-(fp_f64_val(a) * fp_f64_val(b))) ^ (rnd64() & 1);
        for (int k = 0; k < 4; k++) {
            uint64_t want[6], got[6];
            va = fp_f64_val(a); vb = fp_f64_val(b); vc = fp_f64_val(c);
            fesetround(host_mode[k]);
            vr = va + vb; want[0] = fp_f64_bits(vr);
            vr = va * vb; want[1] = fp_f64_bits(vr);
            vr = va / vb; want[2] = fp_f64_bits(vr);
            vr = sqrt(va < 0 ? -va : va); want[3] = fp_f64_bits(vr);
            vr = fma(va, vb, vc); want[4] = fp_f64_bits(vr);
            vr = va - vb; want[5] = fp_f64_bits(vr);
            fesetround(FE_TONEAREST);
            got[0] = f64_add(a, b, RND[k]);
            got[1] = f64_mul(a, b, RND[k]);
            got[2] = f64_div(a, b, RND[k]);
            got[3] = f64_sqrt(a & 0x7FFFFFFFFFFFFFFFull, RND[k]);
            got[4] = f64_fma(a, b, c, RND[k]);
            got[5] = f64_sub(a, b, RND[k]);
            for (int j = 0; j < 6; j++) {
                if (f64_isnan(want[j]) && f64_isnan(got[j])) continue; /* NaN rules tested above */
                if (want[j] != got[j] && bad++ < 10)
                    fprintf(stderr, "f64 op%d rnd%d a=%016llx b=%016llx c=%016llx got %016llx want %016llx\n", j, k,
                            (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
                            (unsigned long long)got[j], (unsigned long long)want[j]);
            }
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(oracle_cvt)
{
    volatile double vd;
    volatile float vf;
    volatile int64_t vi;
    volatile uint64_t vu;
    int bad = 0;
    for (int it = 0; it < 40000 && bad < 10; it++) {
        uint64_t d = rand_f64();
        uint64_t r = rnd64(), iv = r >> (r & 63);
        if (it & 1) d = (d & 0x800FFFFFFFFFFFFFull) | ((uint64_t)(870 + (rnd64() % 290)) << 52); /* f32 range */
        for (int k = 0; k < 4; k++) {
            uint64_t want[4], got[4];
            vd = fp_f64_val(d); vi = (int64_t)iv * ((r >> 7) & 1 ? -1 : 1); vu = iv;
            fesetround(host_mode[k]);
            vf = (float)vd; want[0] = fp_f32_bits(vf);
            vf = (float)vi; want[1] = fp_f32_bits(vf);
            vf = (float)vu; want[2] = fp_f32_bits(vf);
            vd = (double)vi; want[3] = fp_f64_bits(vd);
            fesetround(FE_TONEAREST);
            got[0] = cvt_f64_to_f32(d, RND[k], 0);
            got[1] = cvt_int_to_float((uint64_t)vi, 1, FP_F32, RND[k], 0);
            got[2] = cvt_int_to_float(iv, 0, FP_F32, RND[k], 0);
            got[3] = cvt_int_to_float((uint64_t)vi, 1, FP_F64, RND[k], 0);
            for (int j = 0; j < 4; j++)
                if (want[j] != got[j] && bad++ < 10)
                    fprintf(stderr, "cvt%d rnd%d d=%016llx i=%016llx got %llx want %llx\n", j, k, (unsigned long long)d,
                            (unsigned long long)iv, (unsigned long long)got[j], (unsigned long long)want[j]);
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

static Suite *fp_suite(void)
{
    Suite *s = suite_create("fp");
    TCase *t = tcase_create("arith");
    tcase_add_test(t, f32_add_rounding);
    tcase_add_test(t, f32_overflow);
    tcase_add_test(t, f32_nan_sat);
    tcase_add_test(t, f32_ftz);
    tcase_add_test(t, f32_mul_fma);
    tcase_add_test(t, f32_div_sqrt_rcp);
    tcase_add_test(t, f32_minmax_abs);
    tcase_add_test(t, f64_arith);
    tcase_add_test(t, f64_nan);
    tcase_add_test(t, half_arith);
    tcase_add_test(t, half_minmax_abs);
    tcase_add_test(t, half_fast_paths);
    tcase_add_test(t, approx_h100);
    suite_add_tcase(s, t);
    t = tcase_create("cvt");
    tcase_add_test(t, cvt_f32_f16);
    tcase_add_test(t, cvt_bf16_tf32);
    tcase_add_test(t, cvt_f64);
    tcase_add_test(t, cvt_fp8_fp6_fp4);
    tcase_add_test(t, cvt_f2i);
    tcase_add_test(t, cvt_round_int);
    tcase_add_test(t, cvt_i2f);
    tcase_add_test(t, cvt_int_int);
    tcase_add_test(t, testp_copysign);
    suite_add_tcase(s, t);
    t = tcase_create("oracle");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, oracle_f32);
    tcase_add_test(t, oracle_f64);
    tcase_add_test(t, oracle_cvt);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(fp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
