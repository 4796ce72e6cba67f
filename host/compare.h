/*
 * compare.h -- buffer comparison for ptxemu launch files (expect lines).
 *
 * COMPARE MODES
 *
 *   exact        bytes equal.  For reporting, a buffer whose size is a multiple
 *                of 4 is shown as little-endian 32-bit words (element = word),
 *                any other buffer as bytes.
 *   f32ulp N     each 4-byte element, read as an IEEE binary32, is at most N
 *                ulps from the expected one.
 *   f64ulp N     likewise for 8-byte binary64 elements.
 *   f16ulp N     likewise for 2-byte binary16 (half) elements.
 *   bf16ulp N    likewise for 2-byte bfloat16 elements (extension).
 *   f32rel R     each float a (actual) and b (expected) satisfy
 *                |a - b| <= R * max(1, |b|)   (computed in double).
 *   f64rel R     likewise for doubles (extension).
 *   set32        the buffer, as 4-byte words, is a permutation of the expected
 *                one (both are sorted, then compared as multisets).
 *
 * ULP DISTANCE.  Each value's bit pattern is mapped onto a line of integers in
 * numeric order (sign-magnitude to "biased" unsigned, -0 and +0 both mapping
 * to the same point), and the distance is the difference of the two points.
 * So -0 vs +0 is 0 ulps, the largest finite vs infinity 1 ulp, the smallest
 * denormal vs +0 (or -0) 1 ulp, and -denorm_min vs +denorm_min 2 ulps.
 * NaN matches NaN (any payload, any sign); NaN vs a number never matches.
 *
 * REL MODES.  NaN matches NaN; an infinity matches only the same infinity;
 * anything else follows the formula (so a NaN or inf against a finite value
 * is a mismatch).
 *
 * The report line (cmp_report) is one of
 *     NAME: ok (N bytes, MODE)
 *     NAME: MISMATCH at element I: expected E, got A (K of N elements differ)
 *     NAME: MISMATCH in set32: expected value E missing, got unexpected value A (K of N elements differ)
 *     NAME: MISMATCH in size: expected N bytes, got M bytes
 * where floating values print as "%.9g (0xBITS)" (f32; %.17g for f64,
 * %.5g for f16, %.4g for bf16) and exact words/bytes as hex.  For the ulp and
 * rel modes the parenthesis also gives the largest error seen among the
 * non-NaN pairs ("..., max 3 ulp" / "..., max rel err 1.2e-05").
 */
#ifndef PTXEMU_COMPARE_H
#define PTXEMU_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cmp_mode {
    CMP_EXACT,
    CMP_F32ULP,
    CMP_F64ULP,
    CMP_F16ULP,
    CMP_BF16ULP,
    CMP_F32REL,
    CMP_F64REL,
    CMP_SET32,
    CMP_MODE_COUNT
};

typedef struct cmp_result {
    int match;              /* 1 when the buffers match under the mode */
    int size_mismatch;      /* set by cmp_buffers_sized when the sizes differ */
    size_t actual_size;     /* bytes */
    size_t expected_size;   /* bytes */
    size_t elem_size;       /* bytes per element used for the comparison */
    size_t nelems;          /* elements compared (a short tail counts as one) */
    size_t mismatches;      /* elements that differ (set32: expected values missing) */
    size_t first;           /* index of the first differing element, SIZE_MAX if none
                               (set32: index in the sorted expected words) */
    char expected[96];      /* first differing expected element, formatted ("" if none) */
    char actual[96];        /* first differing actual element, formatted */
    double worst;           /* ulp modes: largest ulp distance, rel modes: largest
                               relative error, among non-NaN pairs; 0 otherwise */
} cmp_result;

/* Compare n bytes.  Returns 1 on match, 0 otherwise; fills *r (r may be NULL).
 * param is N for the ulp modes, R for the rel modes, ignored otherwise.
 * If n is not a multiple of the element size, the tail bytes are compared
 * exactly as one last element.  set32 allocates (2*n bytes); if that fails it
 * reports a mismatch with expected/actual set to "(out of memory)". */
int cmp_buffers(const uint8_t *actual, const uint8_t *expected, size_t n,
                enum cmp_mode mode, double param, cmp_result *r);

/* Same, but sizes may differ: a size difference is a mismatch
 * (r->size_mismatch = 1) and nothing else is compared. */
int cmp_buffers_sized(const uint8_t *actual, size_t actual_n,
                      const uint8_t *expected, size_t expected_n,
                      enum cmp_mode mode, double param, cmp_result *r);

/* Print the one-line report (with '\n') for a result. */
void cmp_report(FILE *out, const char *name, enum cmp_mode mode, double param,
                const cmp_result *r);

/* "f32ulp 2", "exact", "f32rel 1e-05": the mode as written in a launch file. */
void cmp_mode_format(enum cmp_mode mode, double param, char *buf, size_t cap);

/* Mode names ("exact", "f32ulp", ...).  cmp_mode_from_name returns -1 if
 * unknown, else the mode. */
const char *cmp_mode_name(enum cmp_mode mode);
int cmp_mode_from_name(const char *name);
int cmp_mode_has_param(enum cmp_mode mode);       /* 1 for ulp and rel modes */
int cmp_mode_param_is_int(enum cmp_mode mode);    /* 1 for ulp modes */
size_t cmp_mode_elem_size(enum cmp_mode mode);    /* 1 for exact, else 2/4/8 */

/* ULP distances on the ordered-integer line (see above).  Meaningless for
 * NaN inputs (callers check NaN first). */
uint64_t cmp_ulp_f32(uint32_t a, uint32_t b);
uint64_t cmp_ulp_f64(uint64_t a, uint64_t b);
uint64_t cmp_ulp_f16(uint16_t a, uint16_t b);     /* also right for bf16 */

/* binary16 / bfloat16 conversions (round to nearest even; NaN kept quiet). */
double cmp_f16_to_double(uint16_t h);
uint16_t cmp_double_to_f16(double d);
double cmp_bf16_to_double(uint16_t h);

#endif
