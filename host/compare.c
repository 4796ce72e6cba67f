/* compare.c -- buffer comparison for ptxemu launch files; see compare.h. */
#include "compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_names[CMP_MODE_COUNT] = {
    [CMP_EXACT] = "exact",   [CMP_F32ULP] = "f32ulp", [CMP_F64ULP] = "f64ulp",
    [CMP_F16ULP] = "f16ulp", [CMP_BF16ULP] = "bf16ulp", [CMP_F32REL] = "f32rel",
    [CMP_F64REL] = "f64rel", [CMP_SET32] = "set32",
};

const char *cmp_mode_name(enum cmp_mode mode)
{
    if ((int)mode < 0 || mode >= CMP_MODE_COUNT) return "?";
    return mode_names[mode];
}

int cmp_mode_from_name(const char *name)
{
    for (int i = 0; i < CMP_MODE_COUNT; i++)
        if (strcmp(name, mode_names[i]) == 0) return i;
    return -1;
}

int cmp_mode_has_param(enum cmp_mode mode)
{
    return mode != CMP_EXACT && mode != CMP_SET32;
}

int cmp_mode_param_is_int(enum cmp_mode mode)
{
    return mode == CMP_F32ULP || mode == CMP_F64ULP || mode == CMP_F16ULP ||
           mode == CMP_BF16ULP;
}

size_t cmp_mode_elem_size(enum cmp_mode mode)
{
    switch (mode) {
    case CMP_F32ULP: case CMP_F32REL: case CMP_SET32: return 4;
    case CMP_F64ULP: case CMP_F64REL: return 8;
    case CMP_F16ULP: case CMP_BF16ULP: return 2;
    default: return 1;
    }
}

void cmp_mode_format(enum cmp_mode mode, double param, char *buf, size_t cap)
{
    if (!cmp_mode_has_param(mode))
        snprintf(buf, cap, "%s", cmp_mode_name(mode));
    else if (cmp_mode_param_is_int(mode))
        snprintf(buf, cap, "%s %.0f", cmp_mode_name(mode), param);
    else
        snprintf(buf, cap, "%s %g", cmp_mode_name(mode), param);
}

/* ---- half / bfloat16 ---------------------------------------------------- */

double cmp_f16_to_double(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0) v = ldexp((double)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexp((double)(m + 1024), e - 25);
    return s ? -v : v;
}

uint16_t cmp_double_to_f16(double d)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d);
    if (isnan(d)) return (uint16_t)(sign | 0x7e00);
    if (a >= 65520.0) return (uint16_t)(sign | 0x7c00); /* includes inf */
    if (a < 0x1p-14) {                                    /* subnormal (or rounds to 2^-14) */
        double q = rint(a * 0x1p24);                      /* exact scaling, RNE */
        return (uint16_t)(sign | (uint16_t)q);
    }
    int E;
    double f = frexp(a, &E); /* a = f * 2^E, f in [0.5, 1) */
    double m = rint((f * 2.0 - 1.0) * 1024.0);
    if (m >= 1024.0) { m = 0; E++; }
    int he = E - 1 + 15;
    if (he >= 31) return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | (he << 10) | (int)m);
}

double cmp_bf16_to_double(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- ulp ---------------------------------------------------------------- */

static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

uint64_t cmp_ulp_f32(uint32_t a, uint32_t b)
{
    uint64_t ka = (a >> 31) ? 0x80000000ull - (a & 0x7fffffffu) : 0x80000000ull + a;
    uint64_t kb = (b >> 31) ? 0x80000000ull - (b & 0x7fffffffu) : 0x80000000ull + b;
    return absdiff(ka, kb);
}

uint64_t cmp_ulp_f64(uint64_t a, uint64_t b)
{
    const uint64_t base = 0x8000000000000000ull, mask = 0x7fffffffffffffffull;
    uint64_t ka = (a >> 63) ? base - (a & mask) : base + a;
    uint64_t kb = (b >> 63) ? base - (b & mask) : base + b;
    return absdiff(ka, kb);
}

uint64_t cmp_ulp_f16(uint16_t a, uint16_t b)
{
    uint64_t ka = (a >> 15) ? 0x8000u - (a & 0x7fffu) : 0x8000u + a;
    uint64_t kb = (b >> 15) ? 0x8000u - (b & 0x7fffu) : 0x8000u + b;
    return absdiff(ka, kb);
}

/* ---- element access ----------------------------------------------------- */

static uint16_t ld16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}
static uint64_t ld64(const uint8_t *p) { return ld32(p) | ((uint64_t)ld32(p + 4) << 32); }
static double f32v(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double f64v(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static int f16_isnan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
static int bf16_isnan(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f); }

/* Format the element at p (es bytes, or fewer for a tail) for the mode. */
static void fmt_elem(char *buf, size_t cap, enum cmp_mode mode, const uint8_t *p, size_t es,
                     size_t avail)
{
    if (avail < es || mode == CMP_EXACT) {
        if (avail >= 4 && es == 4) {
            snprintf(buf, cap, "0x%08" PRIx32, ld32(p));
            return;
        }
        /* bytes, lowest address first */
        size_t o = 0;
        buf[0] = 0;
        for (size_t i = 0; i < avail && i < 16 && o + 5 < cap; i++)
            o += (size_t)snprintf(buf + o, cap - o, i ? " %02x" : "0x%02x", p[i]);
        return;
    }
    switch (mode) {
    case CMP_F32ULP: case CMP_F32REL:
        snprintf(buf, cap, "%.9g (0x%08" PRIx32 ")", f32v(ld32(p)), ld32(p));
        break;
    case CMP_F64ULP: case CMP_F64REL:
        snprintf(buf, cap, "%.17g (0x%016" PRIx64 ")", f64v(ld64(p)), ld64(p));
        break;
    case CMP_F16ULP:
        snprintf(buf, cap, "%.5g (0x%04x)", cmp_f16_to_double(ld16(p)), ld16(p));
        break;
    case CMP_BF16ULP:
        snprintf(buf, cap, "%.4g (0x%04x)", cmp_bf16_to_double(ld16(p)), ld16(p));
        break;
    case CMP_SET32:
        snprintf(buf, cap, "0x%08" PRIx32 " (%" PRIu32 ")", ld32(p), ld32(p));
        break;
    default:
        snprintf(buf, cap, "?");
    }
}

static int ulp_ok(uint64_t dist, double param)
{
    if (!(param >= 0)) return dist == 0;
    if (param >= 18446744073709551615.0) return 1;
    return dist <= (uint64_t)param;
}

static int rel_ok(double a, double b, double param, double *err)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b)) return a == b;
    double d = fabs(a - b), scale = fabs(b) > 1.0 ? fabs(b) : 1.0;
    double e = d / scale;
    if (e > *err) *err = e;
    return d <= param * scale;
}

/* Compare one full element; returns 1 on match and updates *worst. */
static int elem_match(enum cmp_mode mode, const uint8_t *a, const uint8_t *e, size_t es,
                      double param, double *worst)
{
    switch (mode) {
    case CMP_F32ULP: {
        uint32_t x = ld32(a), y = ld32(e);
        int nx = isnan(f32v(x)), ny = isnan(f32v(y));
        if (nx || ny) return nx && ny;
        uint64_t d = cmp_ulp_f32(x, y);
        if ((double)d > *worst) *worst = (double)d;
        return ulp_ok(d, param);
    }
    case CMP_F64ULP: {
        uint64_t x = ld64(a), y = ld64(e);
        int nx = isnan(f64v(x)), ny = isnan(f64v(y));
        if (nx || ny) return nx && ny;
        uint64_t d = cmp_ulp_f64(x, y);
        if ((double)d > *worst) *worst = (double)d;
        return ulp_ok(d, param);
    }
    case CMP_F16ULP: case CMP_BF16ULP: {
        uint16_t x = ld16(a), y = ld16(e);
        int nx = mode == CMP_F16ULP ? f16_isnan(x) : bf16_isnan(x);
        int ny = mode == CMP_F16ULP ? f16_isnan(y) : bf16_isnan(y);
        if (nx || ny) return nx && ny;
        uint64_t d = cmp_ulp_f16(x, y);
        if ((double)d > *worst) *worst = (double)d;
        return ulp_ok(d, param);
    }
    case CMP_F32REL:
        return rel_ok(f32v(ld32(a)), f32v(ld32(e)), param, worst);
    case CMP_F64REL:
        return rel_ok(f64v(ld64(a)), f64v(ld64(e)), param, worst);
    default:
        return memcmp(a, e, es) == 0;
    }
}

static void result_init(cmp_result *r, size_t an, size_t en)
{
    memset(r, 0, sizeof *r);
    r->actual_size = an;
    r->expected_size = en;
    r->first = SIZE_MAX;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static int cmp_set32(const uint8_t *actual, const uint8_t *expected, size_t n, cmp_result *r)
{
    size_t nw = n / 4, tail = n % 4;
    r->elem_size = 4;
    r->nelems = nw + (tail ? 1 : 0);
    uint32_t *a = malloc(nw ? nw * 4 : 1), *e = malloc(nw ? nw * 4 : 1);
    if (!a || !e) {
        free(a);
        free(e);
        r->mismatches = r->nelems ? r->nelems : 1;
        r->first = 0;
        snprintf(r->expected, sizeof r->expected, "(out of memory)");
        snprintf(r->actual, sizeof r->actual, "(out of memory)");
        return r->match = 0;
    }
    for (size_t i = 0; i < nw; i++) {
        a[i] = ld32(actual + 4 * i);
        e[i] = ld32(expected + 4 * i);
    }
    qsort(a, nw, 4, cmp_u32);
    qsort(e, nw, 4, cmp_u32);
    size_t i = 0, j = 0, missing = 0;
    int have_missing = 0, have_extra = 0;
    while (i < nw || j < nw) {
        if (i < nw && j < nw && a[i] == e[j]) { i++; j++; continue; }
        if (j < nw && (i >= nw || e[j] < a[i])) { /* expected value missing from actual */
            if (!have_missing) {
                have_missing = 1;
                r->first = j;
                snprintf(r->expected, sizeof r->expected, "0x%08" PRIx32 " (%" PRIu32 ")",
                         e[j], e[j]);
            }
            missing++;
            j++;
        } else { /* actual value not in expected */
            if (!have_extra) {
                have_extra = 1;
                snprintf(r->actual, sizeof r->actual, "0x%08" PRIx32 " (%" PRIu32 ")", a[i],
                         a[i]);
            }
            i++;
        }
    }
    free(a);
    free(e);
    if (tail && memcmp(actual + 4 * nw, expected + 4 * nw, tail) != 0) {
        if (!missing) {
            r->first = nw;
            fmt_elem(r->expected, sizeof r->expected, CMP_EXACT, expected + 4 * nw, 4, tail);
            fmt_elem(r->actual, sizeof r->actual, CMP_EXACT, actual + 4 * nw, 4, tail);
        }
        missing++;
    }
    r->mismatches = missing;
    return r->match = (missing == 0);
}

int cmp_buffers(const uint8_t *actual, const uint8_t *expected, size_t n, enum cmp_mode mode,
                double param, cmp_result *r)
{
    cmp_result local;
    if (!r) r = &local;
    result_init(r, n, n);
    if ((int)mode < 0 || mode >= CMP_MODE_COUNT) mode = CMP_EXACT;
    if (n == 0) return r->match = 1;
    if (mode == CMP_SET32) return cmp_set32(actual, expected, n, r);

    size_t es = cmp_mode_elem_size(mode);
    if (mode == CMP_EXACT) es = (n % 4 == 0) ? 4 : 1;
    size_t full = n / es, tail = n % es;
    r->elem_size = es;
    r->nelems = full + (tail ? 1 : 0);
    double worst = 0;
    for (size_t i = 0; i < full; i++) {
        const uint8_t *a = actual + i * es, *e = expected + i * es;
        if (elem_match(mode, a, e, es, param, &worst)) continue;
        if (r->mismatches++ == 0) {
            r->first = i;
            fmt_elem(r->expected, sizeof r->expected, mode, e, es, es);
            fmt_elem(r->actual, sizeof r->actual, mode, a, es, es);
        }
    }
    if (tail && memcmp(actual + full * es, expected + full * es, tail) != 0) {
        if (r->mismatches++ == 0) {
            r->first = full;
            fmt_elem(r->expected, sizeof r->expected, mode, expected + full * es, es, tail);
            fmt_elem(r->actual, sizeof r->actual, mode, actual + full * es, es, tail);
        }
    }
    r->worst = worst;
    return r->match = (r->mismatches == 0);
}

int cmp_buffers_sized(const uint8_t *actual, size_t actual_n, const uint8_t *expected,
                      size_t expected_n, enum cmp_mode mode, double param, cmp_result *r)
{
    cmp_result local;
    if (!r) r = &local;
    if (actual_n != expected_n) {
        result_init(r, actual_n, expected_n);
        r->size_mismatch = 1;
        r->elem_size = cmp_mode_elem_size(mode);
        return r->match = 0;
    }
    return cmp_buffers(actual, expected, actual_n, mode, param, r);
}

void cmp_report(FILE *out, const char *name, enum cmp_mode mode, double param,
                const cmp_result *r)
{
    char m[64];
    cmp_mode_format(mode, param, m, sizeof m);
    if (!name) name = "?";
    if (r->size_mismatch) {
        fprintf(out, "%s: MISMATCH in size: expected %zu bytes, got %zu bytes\n", name,
                r->expected_size, r->actual_size);
        return;
    }
    if (r->match) {
        fprintf(out, "%s: ok (%zu bytes, %s)\n", name, r->expected_size, m);
        return;
    }
    char extra[64] = "";
    if (cmp_mode_param_is_int(mode))
        snprintf(extra, sizeof extra, ", max %.0f ulp", r->worst);
    else if (mode == CMP_F32REL || mode == CMP_F64REL)
        snprintf(extra, sizeof extra, ", max rel err %.3g", r->worst);
    if (mode == CMP_SET32)
        fprintf(out,
                "%s: MISMATCH in set32: expected value %s missing, got unexpected value %s "
                "(%zu of %zu elements differ)\n",
                name, r->expected[0] ? r->expected : "-", r->actual[0] ? r->actual : "-",
                r->mismatches, r->nelems);
    else
        fprintf(out, "%s: MISMATCH at element %zu: expected %s, got %s (%zu of %zu elements differ%s)\n",
                name, r->first, r->expected, r->actual, r->mismatches, r->nelems, extra);
}
