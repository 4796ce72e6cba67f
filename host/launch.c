/* launch.c -- parse and validate ptxemu launch files; see launch.h. */
#define _POSIX_C_SOURCE 200809L
#include "launch.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/num.h"

/* ---- types -------------------------------------------------------------- */

static const struct {
    const char *name;
    size_t size;
} type_info[LF_TYPE_COUNT] = {
    [LF_U8] = {"u8", 1},   [LF_U16] = {"u16", 2}, [LF_U32] = {"u32", 4}, [LF_U64] = {"u64", 8},
    [LF_S8] = {"s8", 1},   [LF_S16] = {"s16", 2}, [LF_S32] = {"s32", 4}, [LF_S64] = {"s64", 8},
    [LF_F16] = {"f16", 2}, [LF_F32] = {"f32", 4}, [LF_F64] = {"f64", 8},
};

const char *lf_type_name(enum lf_type t)
{
    return ((int)t >= 0 && t < LF_TYPE_COUNT) ? type_info[t].name : "?";
}

size_t lf_type_size(enum lf_type t)
{
    return ((int)t >= 0 && t < LF_TYPE_COUNT) ? type_info[t].size : 0;
}

int lf_type_from_name(const char *name)
{
    for (int i = 0; i < LF_TYPE_COUNT; i++)
        if (strcmp(name, type_info[i].name) == 0) return i;
    return -1;
}

static int type_is_float(enum lf_type t) { return t == LF_F16 || t == LF_F32 || t == LF_F64; }
static int type_is_signed(enum lf_type t) { return t >= LF_S8 && t <= LF_S64; }

static uint64_t width_mask(size_t bytes)
{
    return bytes >= 8 ? ~0ull : ((1ull << (8 * bytes)) - 1);
}

static int64_t sext(uint64_t bits, size_t bytes)
{
    if (bytes >= 8) return (int64_t)bits;
    uint64_t sign = 1ull << (8 * bytes - 1);
    bits &= width_mask(bytes);
    return (int64_t)((bits ^ sign) - sign);
}

uint64_t lf_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void store_le(uint8_t *p, uint64_t v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the element sizes, one store each (a buffer's millions of elements) */
    switch (n) {
    case 1: *p = (uint8_t)v; return;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); return; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); return; }
    case 8: memcpy(p, &v, 8); return;
    default: break;
    }
#endif
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* bits of double d rounded to float type t */
static uint64_t float_to_bits(enum lf_type t, double d)
{
    if (t == LF_F16) return cmp_double_to_f16(d);
    if (t == LF_F32) return f32_bits((float)d);
    return f64_bits(d);
}

static double bits_to_double(enum lf_type t, uint64_t b)
{
    if (t == LF_F16) return cmp_f16_to_double((uint16_t)b);
    if (t == LF_F32) {
        uint32_t u = (uint32_t)b;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* ---- growable arrays ------------------------------------------------------ */

static int grow(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 0;
    int nc = *cap ? *cap * 2 : 8;
    while (nc < need) nc *= 2;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p) return -1;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *arr = p;
    *cap = nc;
    return 0;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* ---- parser state --------------------------------------------------------- */

/* Buffer contents are generated while parsing: their total is bounded so a
 * launch file cannot make ptxemu allocate more than the device may hold. */
static uint64_t lf_total_cap = LF_MAX_TOTAL_BYTES;

typedef struct parser {
    const char *path;
    FILE *diag;
    int nerr;
    int stopped;
    int line;
    launch_file *lf;
    int cap_buffers, cap_steps, cap_expects, cap_objects;
    char *bad;             /* per buffer: 1 when its line had an error */
    int cap_bad;
    char *obj_bad;         /* per object: 1 when its line had an error */
    int cap_obj_bad;
    uint64_t total_bytes;
    int open_launch;       /* step index of the launch args attach to, or -1 */
    int last_launch;       /* step index of the latest launch, or -1 */
    int closer_line;       /* line of the directive that ended the open launch */
    int stdout_line;
    int seen_ptx;          /* a ptx line was seen (valid or not) */
    int ptx_first_line;
    char qbuf[4][200];
    int qi;
} parser;

static void err(parser *P, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void err(parser *P, const char *fmt, ...)
{
    if (P->stopped) return;
    if (P->nerr >= LF_MAX_ERRORS) {
        if (P->diag) fprintf(P->diag, "%s:%d: error: too many errors, giving up\n", P->path, P->line);
        P->stopped = 1;
        return;
    }
    P->nerr++;
    if (!P->diag) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(P->diag, "%s:%d: error: ", P->path, P->line);
    vfprintf(P->diag, fmt, ap);
    fputc('\n', P->diag);
    va_end(ap);
}

/* A token made printable for a message (escapes, truncated). */
static const char *quote(parser *P, const char *s, int quotes)
{
    char *b = P->qbuf[P->qi];
    P->qi = (P->qi + 1) % 4;
    size_t o = 0, cap = sizeof P->qbuf[0];
    if (quotes) b[o++] = '\'';
    for (size_t i = 0; s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o + 10 >= cap) {
            memcpy(b + o, quotes ? "...'" : "...", quotes ? 5 : 4);
            return b;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\')
            b[o++] = (char)c;
        else
            o += (size_t)snprintf(b + o, cap - o, "\\x%02x", c);
    }
    if (quotes) b[o++] = '\'';
    b[o] = 0;
    return b;
}

static const char *q(parser *P, const char *s) { return quote(P, s, 1); }  /* 'tok' */
static const char *qf(parser *P, const char *s) { return quote(P, s, 0); } /* file name */

static void oom(parser *P) { err(P, "out of memory"); }

/* ---- paths and files ------------------------------------------------------ */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup("");
    if (slash == path) return xstrdup("/");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = 0;
    }
    return d;
}

static char *join(const char *dir, const char *file)
{
    if (file[0] == '/' || !dir || !dir[0]) return xstrdup(file);
    size_t a = strlen(dir), b = strlen(file);
    int sep = dir[a - 1] != '/';
    char *p = malloc(a + sep + b + 1);
    if (!p) return NULL;
    memcpy(p, dir, a);
    if (sep) p[a] = '/';
    memcpy(p + a + sep, file, b + 1);
    return p;
}

/* Size of a regular file; error message names it as written (tok). */
static int file_size(parser *P, const char *tok, const char *resolved, uint64_t *size)
{
    struct stat st;
    if (stat(resolved, &st) != 0) {
        err(P, "cannot open file %s: %s", qf(P, tok), strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        err(P, "cannot read file %s: not a regular file", qf(P, tok));
        return -1;
    }
    *size = (uint64_t)st.st_size;
    return 0;
}

/* Read exactly size bytes (plus a NUL terminator) into *data. */
static int read_all(parser *P, const char *tok, const char *resolved, uint64_t size,
                    uint8_t **data)
{
    *data = NULL;
    if (size > SIZE_MAX - 1) { oom(P); return -1; }
    uint8_t *buf = malloc((size_t)size + 1);
    if (!buf) {
        err(P, "out of memory reading file %s (%llu bytes)", qf(P, tok), (unsigned long long)size);
        return -1;
    }
    FILE *f = fopen(resolved, "rb");
    if (!f) {
        err(P, "cannot open file %s: %s", qf(P, tok), strerror(errno));
        free(buf);
        return -1;
    }
    size_t got = size ? fread(buf, 1, (size_t)size, f) : 0;
    int e = ferror(f) ? errno : 0;
    fclose(f);
    if (got != size) {
        if (e)
            err(P, "cannot read file %s: %s", qf(P, tok), strerror(e));
        else
            err(P, "cannot read file %s: it changed size while being read", qf(P, tok));
        free(buf);
        return -1;
    }
    buf[size] = 0;
    *data = buf;
    return 0;
}

/* ---- numbers -------------------------------------------------------------- */

enum { NUM_OK = 0, NUM_SYNTAX = -1, NUM_OVERFLOW = -2 };

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int has_hex_prefix(const char *s) { return s[0] == '0' && (s[1] == 'x' || s[1] == 'X'); }

/* [-](decimal | 0x hex) -> sign and magnitude (util/num.h) */
static int parse_int(const char *s, int *neg, uint64_t *mag)
{
    int r = num_int(s, neg, mag);
    return r == NUM_BAD_SYNTAX ? NUM_SYNTAX : r == NUM_OUT_OF_RANGE ? NUM_OVERFLOW : NUM_OK;
}

/* Unsigned number (decimal or hex, no sign) in [lo, hi]. */
static int parse_count(parser *P, const char *tok, const char *what, uint64_t lo, uint64_t hi,
                       uint64_t *out)
{
    int neg;
    uint64_t v;
    int r = parse_int(tok, &neg, &v);
    if (r == NUM_SYNTAX) {
        err(P, "bad number %s for %s", q(P, tok), what);
        return -1;
    }
    if (r == NUM_OVERFLOW || neg || v < lo || v > hi) {
        if (neg && r == NUM_OK && v == 0) { /* -0 */
            if (lo == 0) { *out = 0; return 0; }
        }
        err(P, "%s %s out of range (%llu to %llu)", what, q(P, tok), (unsigned long long)lo,
            (unsigned long long)hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* Decimal floating literal (no hex) -> double; t selects overflow check. */
static int parse_decimal_float(parser *P, enum lf_type t, const char *tok, double *out)
{
    if (!*tok || strchr(tok, 'x') || strchr(tok, 'X') || strchr(tok, '(')) {
        err(P, "bad %s value %s", lf_type_name(t), q(P, tok));
        return -1;
    }
    char *end;
    errno = 0;
    double d;
    if (t == LF_F32) {
        float f = strtof(tok, &end);
        d = f;
    } else {
        d = strtod(tok, &end);
    }
    int range = errno == ERANGE;
    if (end == tok || *end) {
        err(P, "bad %s value %s", lf_type_name(t), q(P, tok));
        return -1;
    }
    if ((range && isinf(d)) ||
        (t == LF_F16 && isinf(cmp_f16_to_double(cmp_double_to_f16(d))) && !isinf(d))) {
        err(P, "value %s out of range for %s", q(P, tok), lf_type_name(t));
        return -1;
    }
    *out = d;
    return 0;
}

/* A value of type t -> its bit pattern (masked to the width); for floats
 * also the value as a double (dv may be NULL). */
static int parse_typed(parser *P, enum lf_type t, const char *tok, uint64_t *bits, double *dv)
{
    size_t sz = lf_type_size(t);
    uint64_t mask = width_mask(sz);
    if (type_is_float(t)) {
        if (has_hex_prefix(tok)) {
            int neg;
            uint64_t v;
            int r = parse_int(tok, &neg, &v);
            if (r == NUM_SYNTAX) {
                err(P, "bad %s value %s", lf_type_name(t), q(P, tok));
                return -1;
            }
            if (r == NUM_OVERFLOW || v > mask) {
                err(P, "value %s out of range for %s", q(P, tok), lf_type_name(t));
                return -1;
            }
            *bits = v;
            if (dv) *dv = bits_to_double(t, v);
            return 0;
        }
        double d;
        if (parse_decimal_float(P, t, tok, &d)) return -1;
        *bits = float_to_bits(t, d);
        if (dv) *dv = bits_to_double(t, *bits);
        return 0;
    }
    int neg;
    uint64_t v;
    int r = parse_int(tok, &neg, &v);
    if (r == NUM_SYNTAX) {
        err(P, "bad number %s for %s", q(P, tok), lf_type_name(t));
        return -1;
    }
    int ok = r == NUM_OK;
    if (ok) {
        if (type_is_signed(t)) {
            uint64_t lim = 1ull << (8 * sz - 1); /* 2^(n-1) */
            if (neg) ok = v <= lim;
            else if (has_hex_prefix(tok)) ok = v <= mask;
            else ok = v <= lim - 1;
        } else {
            ok = neg ? v == 0 : v <= mask;
        }
    }
    if (!ok) {
        err(P, "value %s out of range for %s", q(P, tok), lf_type_name(t));
        return -1;
    }
    *bits = (neg ? (uint64_t)0 - v : v) & mask;
    if (dv) *dv = type_is_signed(t) ? (double)sext(*bits, sz) : (double)*bits;
    return 0;
}

static int parse_type(parser *P, const char *tok, int allow_float)
{
    int t = lf_type_from_name(tok);
    if (t < 0 || (!allow_float && type_is_float((enum lf_type)t))) {
        err(P, "unknown type %s", q(P, tok));
        return -1;
    }
    return t;
}

/* ---- names ---------------------------------------------------------------- */

static int is_buffer_name(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
    size_t n = 0;
    for (; *s; s++, n++) {
        char c = *s;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '$'))
            return 0;
    }
    return n <= 256;
}

/* PTX identifier: [a-zA-Z][a-zA-Z0-9_$]* | [_$%][a-zA-Z0-9_$]+ */
static int is_ptx_ident(const char *s)
{
    char c0 = s[0];
    int alpha0 = (c0 >= 'A' && c0 <= 'Z') || (c0 >= 'a' && c0 <= 'z');
    if (!alpha0 && c0 != '_' && c0 != '$' && c0 != '%') return 0;
    if (!alpha0 && !s[1]) return 0;
    size_t n = 1;
    for (const char *p = s + 1; *p; p++, n++) {
        char c = *p;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$'))
            return 0;
    }
    return n <= 1024;
}

int lf_find_buffer(const launch_file *lf, const char *name)
{
    for (int i = 0; i < lf->nbuffers; i++)
        if (strcmp(lf->buffers[i].name, name) == 0) return i;
    return -1;
}

/* "NAME", "NAME+OFF", "symbol:SYM", "symbol:SYM+OFF" (symbols only when
 * allow_symbol).  what: "arg ptr", "expect", ...  Returns 0 if the target is
 * usable; *bad_buffer is set when it names a buffer whose line had errors
 * (no further checks on it). */
static int parse_target(parser *P, const char *tok, const char *what, int allow_symbol,
                        int allow_offset, lf_target *t, int *has_offset, int *bad_buffer)
{
    memset(t, 0, sizeof *t);
    t->buffer = -1;
    *has_offset = 0;
    *bad_buffer = 0;
    size_t len = strlen(tok);
    char *name = malloc(len + 1);
    if (!name) { oom(P); return -1; }
    memcpy(name, tok, len + 1);
    char *plus = strchr(name, '+');
    int rc = 0;
    if (plus) {
        *plus = 0;
        *has_offset = 1;
        if (!allow_offset) {
            err(P, "%s takes no +OFFSET: %s", what, q(P, tok));
            rc = -1;
        } else if (parse_count(P, plus + 1, "offset", 0, UINT64_MAX, &t->offset)) {
            rc = -1;
        }
    }
    int is_sym = strncmp(name, "symbol:", 7) == 0;
    if (is_sym) {
        const char *sym = name + 7;
        if (!allow_symbol) {
            err(P, "%s needs a buffer, not %s", what, q(P, name));
            rc = -1;
        } else if (!is_ptx_ident(sym)) {
            err(P, "bad symbol name %s in %s", q(P, sym), what);
            rc = -1;
        } else if (!(t->symbol = xstrdup(sym))) {
            oom(P);
            rc = -1;
        }
    } else {
        int b = lf_find_buffer(P->lf, name);
        if (b < 0) {
            err(P, "unknown buffer %s in %s", q(P, name), what);
            rc = -1;
        } else {
            t->buffer = b;
            if (P->bad[b]) *bad_buffer = 1;
            else if (rc == 0 && t->offset > P->lf->buffers[b].size) {
                err(P, "offset %llu is beyond the end of buffer %s (%llu bytes) in %s",
                    (unsigned long long)t->offset, q(P, name),
                    (unsigned long long)P->lf->buffers[b].size, what);
                rc = -1;
            }
        }
    }
    free(name);
    if (rc) {
        free(t->symbol);
        t->symbol = NULL;
    }
    return rc;
}

/* Values V... of type t -> bytes appended to *data. */
static int parse_values(parser *P, enum lf_type t, char **tok, int n, uint8_t **data,
                        size_t *size)
{
    size_t es = lf_type_size(t);
    *data = NULL;
    *size = 0;
    if (n <= 0) {
        err(P, "no values given");
        return -1;
    }
    uint8_t *d = malloc((size_t)n * es);
    if (!d) { oom(P); return -1; }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        uint64_t bits;
        if (parse_typed(P, t, tok[i], &bits, NULL)) rc = -1;
        else store_le(d + (size_t)i * es, bits, es);
    }
    if (rc) { free(d); return -1; }
    *data = d;
    *size = (size_t)n * es;
    return 0;
}

/* ---- directives ----------------------------------------------------------- */

#define WANT(cond, usage)                                                              \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            err(P, "wrong number of tokens for '%s' (expected '%s')", tok[0], usage);  \
            return;                                                                    \
        }                                                                              \
    } while (0)

static void do_ptx(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    int first = !P->seen_ptx;
    P->seen_ptx = 1;
    if (first) P->ptx_first_line = P->line;
    WANT(n == 2, "ptx FILE");
    if (!first) {
        err(P, "duplicate 'ptx' line (first at line %d)", P->ptx_first_line);
        return;
    }
    if (lf->nlaunches > 0) err(P, "'ptx' line after the first 'launch'");
    char *path = join(lf->dir, tok[1]);
    if (!path) { oom(P); return; }
    uint64_t sz;
    if (file_size(P, tok[1], path, &sz)) {
        free(path);
        return;
    }
    lf->ptx_path = path;
    lf->ptx_line = P->line;
}

static int add_buffer(parser *P, const char *name, lf_buffer **out)
{
    launch_file *lf = P->lf;
    if (grow((void **)&lf->buffers, &P->cap_buffers, lf->nbuffers + 1, sizeof(lf_buffer)) ||
        grow((void **)&P->bad, &P->cap_bad, lf->nbuffers + 1, 1)) {
        oom(P);
        return -1;
    }
    lf_buffer *b = &lf->buffers[lf->nbuffers];
    memset(b, 0, sizeof *b);
    if (!(b->name = xstrdup(name))) { oom(P); return -1; }
    b->line = P->line;
    P->bad[lf->nbuffers] = 1; /* until the line is fully validated */
    lf->nbuffers++;
    *out = b;
    return 0;
}

static int gen_random(parser *P, lf_buffer *b, enum lf_type t, char **args, int nargs)
{
    uint64_t seed;
    int neg;
    int r = parse_int(args[0], &neg, &seed);
    if (r != NUM_OK || (neg && seed)) {
        err(P, "bad seed %s (a number from 0 to 2^64-1)", q(P, args[0]));
        return -1;
    }
    size_t es = lf_type_size(t);
    uint64_t lo_b = 0, hi_b = 0;
    double lo_d = 0, hi_d = 1;
    int ranged = nargs == 3;
    if (ranged) {
        int e1 = parse_typed(P, t, args[1], &lo_b, &lo_d);
        int e2 = parse_typed(P, t, args[2], &hi_b, &hi_d);
        if (e1 || e2) return -1;
        if (type_is_float(t)) {
            if (!isfinite(lo_d) || !isfinite(hi_d)) {
                err(P, "random range must be finite");
                return -1;
            }
            if (lo_d > hi_d) {
                err(P, "random range %s > %s", q(P, args[1]), q(P, args[2]));
                return -1;
            }
        } else if (type_is_signed(t) ? sext(lo_b, es) > sext(hi_b, es) : lo_b > hi_b) {
            err(P, "random range %s > %s", q(P, args[1]), q(P, args[2]));
            return -1;
        }
    }
    uint64_t state = seed, n = b->size / es;
    uint64_t span = ranged ? (uint64_t)(type_is_signed(t) ? (uint64_t)sext(hi_b, es) -
                                                             (uint64_t)sext(lo_b, es)
                                                       : hi_b - lo_b)
                           : 0;
    uint64_t lo_v = type_is_signed(t) ? (uint64_t)sext(lo_b, es) : lo_b;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = lf_splitmix64(&state), v;
        if (type_is_float(t)) {
            double u = (double)(x >> 11) * 0x1p-53;
            double d = ranged ? lo_d + u * (hi_d - lo_d) : u;
            v = float_to_bits(t, d);
        } else if (ranged) {
            v = lo_v + (span == UINT64_MAX ? x : x % (span + 1));
        } else {
            v = x;
        }
        store_le(b->data + i * es, v, es);
    }
    return 0;
}

static int gen_ramp(parser *P, lf_buffer *b, enum lf_type t, char **args)
{
    size_t es = lf_type_size(t);
    uint64_t start_b, n = b->size / es;
    double start_d;
    if (parse_typed(P, t, args[0], &start_b, &start_d)) return -1;
    if (type_is_float(t)) {
        double step;
        uint64_t sb;
        if (has_hex_prefix(args[1])) {
            if (parse_typed(P, t, args[1], &sb, &step)) return -1;
        } else if (parse_decimal_float(P, LF_F64, args[1], &step)) {
            return -1;
        }
        for (uint64_t i = 0; i < n; i++)
            store_le(b->data + i * es, float_to_bits(t, start_d + (double)i * step), es);
        return 0;
    }
    int neg;
    uint64_t mag;
    int r = parse_int(args[1], &neg, &mag);
    if (r == NUM_SYNTAX) {
        err(P, "bad number %s for ramp step", q(P, args[1]));
        return -1;
    }
    if (r == NUM_OVERFLOW || (neg && mag > (1ull << 63))) {
        err(P, "ramp step %s out of range (-2^63 to 2^64-1)", q(P, args[1]));
        return -1;
    }
    uint64_t step = neg ? (uint64_t)0 - mag : mag;
    uint64_t v = start_b;
    for (uint64_t i = 0; i < n; i++, v += step) store_le(b->data + i * es, v, es);
    return 0;
}

static void do_buffer(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    WANT(n >= 4, "buffer NAME BYTES zero|file|random|ramp|fill ...");
    const char *name = tok[1];
    if (!is_buffer_name(name)) {
        if (strlen(name) > 256) err(P, "buffer name of %zu characters, more than 256", strlen(name));
        else err(P, "bad buffer name %s", q(P, name));
        return;
    }
    int prev = lf_find_buffer(lf, name);
    if (prev >= 0) {
        err(P, "duplicate buffer %s (first defined at line %d)", q(P, name), lf->buffers[prev].line);
        return;
    }
    lf_buffer *b;
    if (add_buffer(P, name, &b)) return;
    int idx = lf->nbuffers - 1;

    uint64_t size;
    if (parse_count(P, tok[2], "buffer size", 1, LF_MAX_BUFFER_BYTES, &size)) return;
    b->size = size;
    if (P->total_bytes + size > lf_total_cap) {
        err(P, "buffer %s would bring all buffers to %llu bytes, over the limit of %llu%s",
            q(P, name), (unsigned long long)(P->total_bytes + size), (unsigned long long)lf_total_cap,
            lf_total_cap < LF_MAX_TOTAL_BYTES ? " (the device memory cap, --max-memory)" : "");
        return;
    }
    P->total_bytes += size;

    const char *kind = tok[3];
    if (strcmp(kind, "zero") == 0 || strcmp(kind, "uninit") == 0) {
        int undef = kind[0] == 'u';
        WANT(n == 4, undef ? "buffer NAME BYTES uninit" : "buffer NAME BYTES zero");
        b->init = undef ? LF_INIT_UNDEF : LF_INIT_ZERO;
        P->bad[idx] = 0;
        return;
    }
    if (strcmp(kind, "file") == 0) {
        WANT(n == 5, "buffer NAME BYTES file FILE");
        b->init = LF_INIT_FILE;
        if (!(b->file = join(lf->dir, tok[4]))) { oom(P); return; }
        uint64_t fsz;
        if (file_size(P, tok[4], b->file, &fsz)) return;
        if (fsz != size) {
            err(P, "buffer %s size %llu does not match file %s (%llu bytes)", q(P, name),
                (unsigned long long)size, qf(P, tok[4]), (unsigned long long)fsz);
            return;
        }
        if (read_all(P, tok[4], b->file, size, &b->data)) return;
        P->bad[idx] = 0;
        return;
    }
    int gen;
    if (strcmp(kind, "random") == 0) {
        gen = LF_INIT_RANDOM;
        WANT(n == 6 || n == 8, "buffer NAME BYTES random TYPE SEED [LO HI]");
    } else if (strcmp(kind, "ramp") == 0) {
        gen = LF_INIT_RAMP;
        WANT(n == 7, "buffer NAME BYTES ramp TYPE START STEP");
    } else if (strcmp(kind, "fill") == 0) {
        gen = LF_INIT_FILL;
        WANT(n == 6, "buffer NAME BYTES fill TYPE VALUE");
    } else {
        err(P, "unknown buffer kind %s (zero, file, random, ramp, fill)", q(P, kind));
        return;
    }
    int t = parse_type(P, tok[4], 1);
    if (t < 0) return;
    b->init = (enum lf_init)gen;
    b->type = (enum lf_type)t;
    size_t es = lf_type_size(b->type);
    if (size % es) {
        err(P, "buffer %s size %llu is not a multiple of %zu (%s elements)", q(P, name),
            (unsigned long long)size, es, lf_type_name(b->type));
        return;
    }
    if (size > SIZE_MAX || !(b->data = malloc((size_t)size))) {
        err(P, "out of memory for buffer %s (%llu bytes)", q(P, name), (unsigned long long)size);
        return;
    }
    int rc;
    if (gen == LF_INIT_RANDOM) {
        rc = gen_random(P, b, b->type, tok + 5, n - 5);
    } else if (gen == LF_INIT_RAMP) {
        rc = gen_ramp(P, b, b->type, tok + 5);
    } else {
        uint64_t v;
        rc = parse_typed(P, b->type, tok[5], &v, NULL);
        if (!rc)
            for (uint64_t i = 0; i < size / es; i++) store_le(b->data + i * es, v, es);
    }
    if (rc) {
        free(b->data);
        b->data = NULL;
        return;
    }
    P->bad[idx] = 0;
}

static int add_step(parser *P, enum lf_step_kind kind, lf_step **out)
{
    launch_file *lf = P->lf;
    if (grow((void **)&lf->steps, &P->cap_steps, lf->nsteps + 1, sizeof(lf_step))) {
        oom(P);
        return -1;
    }
    lf_step *s = &lf->steps[lf->nsteps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->line = P->line;
    *out = s;
    return 0;
}

static void do_launch(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    lf_step *s;
    if (add_step(P, LF_LAUNCH, &s)) return;
    lf_launch *L = &s->launch;
    L->index = lf->nlaunches++;
    for (int i = 0; i < 3; i++) L->grid[i] = L->block[i] = L->cluster[i] = 1;
    P->open_launch = P->last_launch = lf->nsteps - 1; /* args attach even if this line is bad */
    static const char usage[] =
        "launch KERNEL grid GX GY GZ block BX BY BZ shared DYN [cluster CX CY CZ]";
    WANT(n == 12 || n == 16, usage);
    if (strcmp(tok[2], "grid") || strcmp(tok[6], "block") || strcmp(tok[10], "shared") ||
        (n == 16 && strcmp(tok[12], "cluster"))) {
        err(P, "malformed 'launch' line (expected '%s')", usage);
        return;
    }
    if (!is_ptx_ident(tok[1])) {
        err(P, "bad kernel name %s", q(P, tok[1]));
        return;
    }
    if (!(L->kernel = xstrdup(tok[1]))) { oom(P); return; }
    static const char *const gname[3] = {"grid x", "grid y", "grid z"};
    static const char *const bname[3] = {"block x", "block y", "block z"};
    static const char *const cname[3] = {"cluster x", "cluster y", "cluster z"};
    static const uint64_t gmax[3] = {0x7fffffff, 65535, 65535};
    static const uint64_t bmax[3] = {1024, 1024, 64};
    int bad = 0;
    uint64_t v;
    for (int i = 0; i < 3; i++) {
        if (parse_count(P, tok[3 + i], gname[i], 1, gmax[i], &v)) bad = 1;
        else L->grid[i] = (uint32_t)v;
        if (parse_count(P, tok[7 + i], bname[i], 1, bmax[i], &v)) bad = 1;
        else L->block[i] = (uint32_t)v;
    }
    if (parse_count(P, tok[11], "shared", 0, 0xffffffffu, &v)) bad = 1;
    else L->shared = (uint32_t)v;
    if (n == 16) {
        L->has_cluster = 1;
        for (int i = 0; i < 3; i++) {
            if (parse_count(P, tok[13 + i], cname[i], 1, 0xffffffffu, &v)) bad = 1;
            else L->cluster[i] = (uint32_t)v;
        }
    }
    if (bad) return;
    uint64_t threads = (uint64_t)L->block[0] * L->block[1] * L->block[2];
    if (threads > 1024)
        err(P, "block %ux%ux%u has %llu threads, more than 1024", L->block[0], L->block[1],
            L->block[2], (unsigned long long)threads);
    if (L->has_cluster)
        for (int i = 0; i < 3; i++)
            if (L->grid[i] % L->cluster[i])
                err(P, "%s %u is not a multiple of %s %u", gname[i], L->grid[i], cname[i],
                    L->cluster[i]);
}

static void do_arg(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    if (P->last_launch < 0) {
        err(P, "'arg' before any 'launch'");
        return;
    }
    if (P->open_launch < 0) {
        err(P, "'arg' does not follow its 'launch' (line %d ended the launch at line %d)",
            P->closer_line, lf->steps[P->last_launch].line);
        return;
    }
    WANT(n >= 2, "arg TYPE VALUE");
    lf_launch *L = &lf->steps[P->open_launch].launch;
    lf_arg a;
    memset(&a, 0, sizeof a);
    a.line = P->line;
    a.buffer = -1;
    if (strcmp(tok[1], "bytes") == 0) {
        WANT(n >= 3, "arg bytes HEX [HEX ...]");
        a.kind = LF_ARG_BYTES;
        size_t total = 0;
        for (int i = 2; i < n; i++) {
            size_t l = strlen(tok[i]);
            if (has_hex_prefix(tok[i])) l -= 2;
            total += l / 2;
        }
        if (total > LF_MAX_PARAM_BYTES) {
            err(P, "'arg bytes' of %zu bytes, more than %d", total, LF_MAX_PARAM_BYTES);
            return;
        }
        uint8_t *d = malloc(total ? total : 1);
        if (!d) { oom(P); return; }
        size_t o = 0;
        for (int i = 2; i < n; i++) {
            const char *s = tok[i];
            if (has_hex_prefix(s)) s += 2;
            size_t l = strlen(s);
            int ok = l > 0 && l % 2 == 0;
            for (size_t j = 0; ok && j < l; j += 2) {
                int h = hexval((unsigned char)s[j]), lo = hexval((unsigned char)s[j + 1]);
                if (h < 0 || lo < 0) ok = 0;
                else d[o++] = (uint8_t)(h << 4 | lo);
            }
            if (!ok) {
                err(P, "bad hex bytes %s (an even number of hex digits)", q(P, tok[i]));
                free(d);
                return;
            }
        }
        a.bytes = d;
        a.size = o;
    } else if (strcmp(tok[1], "texture") == 0 || strcmp(tok[1], "surface") == 0 ||
               strcmp(tok[1], "tensormap") == 0) {
        static const char *const usage[] = {"arg texture NAME", "arg surface NAME",
                                            "arg tensormap NAME"};
        enum lf_object_kind k = strcmp(tok[1], "texture") == 0   ? LF_OBJ_TEXTURE
                              : strcmp(tok[1], "surface") == 0 ? LF_OBJ_SURFACE
                                                               : LF_OBJ_TENSORMAP;
        WANT(n == 3, usage[k]);
        int o = lf_find_object(lf, tok[2]);
        if (o < 0) {
            err(P, "unknown %s %s in arg %s", tok[1], q(P, tok[2]), tok[1]);
            return;
        }
        if (!P->obj_bad[o] && lf->objects[o].kind != k) {
            static const char *const kname[] = {"texture", "surface", "tensormap"};
            err(P, "%s is a %s (line %d), not a %s", q(P, tok[2]), kname[lf->objects[o].kind],
                lf->objects[o].line, tok[1]);
            return;
        }
        a.kind = k == LF_OBJ_TEXTURE ? LF_ARG_TEXTURE : k == LF_OBJ_SURFACE ? LF_ARG_SURFACE
                                                                              : LF_ARG_TENSORMAP;
        a.object = o;
        a.size = k == LF_OBJ_TENSORMAP ? 128 : 8;
    } else if (strcmp(tok[1], "ptr") == 0) {
        WANT(n == 3, "arg ptr NAME[+OFFSET]");
        a.kind = LF_ARG_PTR;
        lf_target t;
        int has_off, badbuf;
        if (parse_target(P, tok[2], "arg ptr", 0, 1, &t, &has_off, &badbuf)) return;
        a.buffer = t.buffer;
        a.offset = t.offset;
        a.size = 8;
    } else {
        int ty = lf_type_from_name(tok[1]);
        if (ty < 0) {
            err(P, "unknown arg type %s", q(P, tok[1]));
            return;
        }
        WANT(n == 3, "arg TYPE VALUE");
        a.kind = LF_ARG_SCALAR;
        a.type = (enum lf_type)ty;
        a.size = lf_type_size(a.type);
        if (parse_typed(P, a.type, tok[2], &a.value, NULL)) return;
    }
    int cap = L->nargs; /* args arrays grow by exact count; keep simple */
    lf_arg *na = realloc(L->args, (size_t)(cap + 1) * sizeof *na);
    if (!na) {
        free(a.bytes);
        oom(P);
        return;
    }
    L->args = na;
    L->args[L->nargs++] = a;
}

/* Parses "[MODE [PARAM]]" at tok[0..n); n == 0 means exact when
 * allow_default.  Returns 0 on success. */
static int parse_mode(parser *P, char **tok, int n, int allow_default, enum cmp_mode *mode,
                      double *param)
{
    *mode = CMP_EXACT;
    *param = 0;
    if (n == 0) {
        if (allow_default) return 0;
        err(P, "missing compare mode");
        return -1;
    }
    int m = cmp_mode_from_name(tok[0]);
    if (m < 0) {
        err(P, "unknown compare mode %s", q(P, tok[0]));
        return -1;
    }
    *mode = (enum cmp_mode)m;
    if (!cmp_mode_has_param(*mode)) {
        if (n > 1) {
            err(P, "compare mode '%s' takes no parameter (got %s)", tok[0], q(P, tok[1]));
            return -1;
        }
        return 0;
    }
    if (n < 2) {
        err(P, "compare mode '%s' needs a parameter", tok[0]);
        return -1;
    }
    if (n > 2) {
        err(P, "extra token %s after compare mode '%s'", q(P, tok[2]), tok[0]);
        return -1;
    }
    if (cmp_mode_param_is_int(*mode)) {
        uint64_t v;
        if (parse_count(P, tok[1], "ulp count", 0, 1ull << 53, &v)) return -1;
        *param = (double)v;
    } else {
        double d;
        if (parse_decimal_float(P, LF_F64, tok[1], &d)) return -1;
        if (!(d >= 0) || isinf(d)) {
            err(P, "tolerance %s must be a finite number >= 0", q(P, tok[1]));
            return -1;
        }
        *param = d;
    }
    return 0;
}

static void free_target(lf_target *t)
{
    free(t->symbol);
    t->symbol = NULL;
}

static void do_expect(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    WANT(n >= 4, "expect NAME FILE MODE | expect NAME value TYPE V... [MODE]");
    lf_expect e;
    memset(&e, 0, sizeof e);
    e.line = P->line;
    e.type = -1;
    int has_off, badbuf;
    if (parse_target(P, tok[1], "expect", 1, 1, &e.target, &has_off, &badbuf)) return;
    e.partial = has_off;
    if (!(e.name = xstrdup(tok[1]))) goto fail_oom;

    if (strcmp(tok[2], "value") == 0) {
        int ti = parse_type(P, tok[3], 1);
        if (ti < 0) goto fail;
        enum lf_type t = (enum lf_type)ti;
        e.type = ti;
        int first = 4, k = first;
        while (k < n && cmp_mode_from_name(tok[k]) < 0) k++;
        e.partial = 1;
        int bad = 0;
        if (parse_values(P, t, tok + first, k - first, &e.data, &e.size)) bad = 1;
        if (parse_mode(P, tok + k, n - k, 1, &e.mode, &e.param)) bad = 1;
        if (bad) goto fail;
    } else {
        if (n != 4 && n != 5) {
            err(P, "wrong number of tokens for 'expect' (expected 'expect NAME FILE MODE')");
            goto fail;
        }
        int bad = parse_mode(P, tok + 3, n - 3, 0, &e.mode, &e.param) != 0;
        if (!(e.file = join(lf->dir, tok[2]))) goto fail_oom;
        uint64_t fsz;
        if (file_size(P, tok[2], e.file, &fsz)) goto fail;
        if (e.target.buffer >= 0 && !badbuf) {
            uint64_t bsz = lf->buffers[e.target.buffer].size;
            if (!has_off && fsz != bsz) {
                err(P, "expect %s: file %s is %llu bytes, buffer is %llu bytes", q(P, tok[1]),
                    qf(P, tok[2]), (unsigned long long)fsz, (unsigned long long)bsz);
                goto fail;
            }
        }
        if (fsz > LF_MAX_BUFFER_BYTES) {
            err(P, "expect %s: file %s is too large (%llu bytes)", q(P, tok[1]), qf(P, tok[2]),
                (unsigned long long)fsz);
            goto fail;
        }
        if (bad) goto fail;
        if (read_all(P, tok[2], e.file, fsz, &e.data)) goto fail;
        e.size = (size_t)fsz;
        if (e.target.buffer >= 0 && !badbuf && lf->buffers[e.target.buffer].init >= LF_INIT_RANDOM)
            e.type = (int)lf->buffers[e.target.buffer].type;
    }
    if (e.target.buffer >= 0 && !badbuf &&
        e.target.offset + e.size > lf->buffers[e.target.buffer].size) {
        err(P, "expect %s: %zu expected bytes at offset %llu run past the end of the buffer "
            "(%llu bytes)", q(P, tok[1]), e.size, (unsigned long long)e.target.offset,
            (unsigned long long)lf->buffers[e.target.buffer].size);
        goto fail;
    }
    size_t es = cmp_mode_elem_size(e.mode);
    if (e.size % es) {
        err(P, "expect %s: %zu bytes is not a multiple of the %s element size (%zu)",
            q(P, tok[1]), e.size, cmp_mode_name(e.mode), es);
        goto fail;
    }
    if (grow((void **)&lf->expects, &P->cap_expects, lf->nexpects + 1, sizeof(lf_expect)))
        goto fail_oom;
    lf->expects[lf->nexpects++] = e;
    return;
fail_oom:
    oom(P);
fail:
    free_target(&e.target);
    free(e.name);
    free(e.file);
    free(e.data);
}

static void do_dump(parser *P, char **tok, int n)
{
    WANT(n == 3, "dump NAME FILE");
    lf_target t;
    int has_off, badbuf;
    if (parse_target(P, tok[1], "dump", 1, 0, &t, &has_off, &badbuf)) return;
    char *file = join(P->lf->dir, tok[2]);
    lf_step *s;
    if (!file || add_step(P, LF_DUMP, &s)) {
        if (!file) oom(P);
        free(file);
        free_target(&t);
        return;
    }
    s->dump.target = t;
    s->dump.file = file;
}

static void do_symbol(parser *P, char **tok, int n)
{
    WANT(n >= 4, "symbol SYM file FILE | symbol SYM value TYPE V... | symbol SYM fill TYPE V");
    if (strncmp(tok[1], "symbol:", 7) == 0) {
        err(P, "write 'symbol NAME', not 'symbol symbol:NAME'");
        return;
    }
    lf_symset ss;
    memset(&ss, 0, sizeof ss);
    ss.target.buffer = -1;
    /* SYM[+OFFSET] */
    const char *plus = strchr(tok[1], '+');
    size_t nl = plus ? (size_t)(plus - tok[1]) : strlen(tok[1]);
    char *sym = malloc(nl + 1);
    if (!sym) { oom(P); return; }
    memcpy(sym, tok[1], nl);
    sym[nl] = 0;
    ss.target.symbol = sym;
    int bad = 0;
    if (!is_ptx_ident(sym)) {
        err(P, "bad symbol name %s", q(P, sym));
        bad = 1;
    }
    if (plus && parse_count(P, plus + 1, "offset", 0, UINT64_MAX, &ss.target.offset)) bad = 1;
    const char *act = tok[2];
    if (strcmp(act, "file") == 0) {
        if (n != 4) {
            err(P, "wrong number of tokens for 'symbol' (expected 'symbol SYM file FILE')");
            goto fail;
        }
        char *path = join(P->lf->dir, tok[3]);
        uint64_t fsz;
        if (!path) { oom(P); goto fail; }
        if (file_size(P, tok[3], path, &fsz) == 0) {
            if (fsz > LF_MAX_BUFFER_BYTES) {
                err(P, "symbol file %s is too large", qf(P, tok[3]));
                bad = 1;
            } else if (!bad && read_all(P, tok[3], path, fsz, &ss.data) == 0) {
                ss.size = (size_t)fsz;
            } else {
                bad = 1;
            }
        } else {
            bad = 1;
        }
        free(path);
    } else if (strcmp(act, "value") == 0 || strcmp(act, "fill") == 0) {
        int fill = act[0] == 'f';
        if (fill && n != 5) {
            err(P, "wrong number of tokens for 'symbol' (expected 'symbol SYM fill TYPE VALUE')");
            goto fail;
        }
        if (fill && plus) {
            err(P, "'symbol ... fill' covers the whole variable and takes no +OFFSET");
            bad = 1;
        }
        int t = parse_type(P, tok[3], 1);
        if (t < 0) goto fail;
        if (n < 5) {
            err(P, "no values given");
            goto fail;
        }
        if (parse_values(P, (enum lf_type)t, tok + 4, n - 4, &ss.data, &ss.size)) bad = 1;
        ss.fill = fill;
    } else {
        err(P, "unknown symbol action %s (file, value, fill)", q(P, act));
        goto fail;
    }
    if (bad) goto fail;
    lf_step *s;
    if (add_step(P, LF_SYMBOL_SET, &s)) goto fail;
    s->symset = ss;
    return;
fail:
    free(ss.data);
    free_target(&ss.target);
}

/* ---- textures, surfaces, tensor maps ---------------------------------------- */

int lf_find_object(const launch_file *lf, const char *name)
{
    for (int i = 0; i < lf->nobjects; i++)
        if (strcmp(lf->objects[i].name, name) == 0) return i;
    return -1;
}

size_t lf_tensormap_elem_size(int dtype)
{
    static const uint8_t size[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    return dtype >= 0 && dtype < 13 ? size[dtype] : 0;
}

static const char *const object_kind_name[] = {"texture", "surface", "tensormap"};

/* Declare object NAME (it stays known even if the rest of the line is bad). */
static int add_object(parser *P, enum lf_object_kind kind, const char *name, int *index)
{
    launch_file *lf = P->lf;
    if (!is_buffer_name(name) && !is_ptx_ident(name)) {
        err(P, "bad %s name %s", object_kind_name[kind], q(P, name));
        return -1;
    }
    int prev = lf_find_object(lf, name);
    if (prev >= 0) {
        err(P, "duplicate name %s (first defined at line %d)", q(P, name), lf->objects[prev].line);
        return -1;
    }
    if (grow((void **)&lf->objects, &P->cap_objects, lf->nobjects + 1, sizeof(lf_object)) ||
        grow((void **)&P->obj_bad, &P->cap_obj_bad, lf->nobjects + 1, 1)) {
        oom(P);
        return -1;
    }
    lf_object *o = &lf->objects[lf->nobjects];
    memset(o, 0, sizeof *o);
    if (!(o->name = xstrdup(name))) { oom(P); return -1; }
    o->kind = kind;
    o->line = P->line;
    o->buffer = -1;
    o->tmap.into_buffer = -1;
    P->obj_bad[lf->nobjects] = 1; /* until the line is fully validated */
    *index = lf->nobjects++;
    return 0;
}

/* The object line is valid: it becomes a step. */
static void commit_object(parser *P, int index)
{
    lf_step *s;
    if (add_step(P, LF_OBJECT, &s)) return;
    s->object = index;
    P->obj_bad[index] = 0;
}

static int is_digit_start(const char *t) { return (t[0] >= '0' && t[0] <= '9'); }

static int keyword_index(const char *t, const char *const *kw, int nkw)
{
    for (int i = 0; i < nkw; i++)
        if (strcmp(t, kw[i]) == 0) return i;
    return -1;
}

static int parse_flag(parser *P, const char *tok, const char *what, int *out)
{
    uint64_t v;
    if (parse_count(P, tok, what, 0, 1, &v)) return -1;
    *out = (int)v;
    return 0;
}

#define TEX_MAX_DIM 131072u
#define TEX_MAX_LAYERS 2048u

static void do_texture(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    int surface = tok[0][0] == 's';
    const char *what = surface ? "surface" : "texture";
    if (surface)
        WANT(n >= 6, "surface NAME BUFFER[+OFF] TYPE CHANNELS WIDTH [HEIGHT [DEPTH]] [OPTION ...]");
    else
        WANT(n >= 6, "texture NAME BUFFER[+OFF] TYPE CHANNELS WIDTH [HEIGHT [DEPTH]] [OPTION ...]");
    int idx;
    if (add_object(P, surface ? LF_OBJ_SURFACE : LF_OBJ_TEXTURE, tok[1], &idx)) return;
    lf_object *o = &lf->objects[idx];
    lf_texture *t = &o->tex;
    t->width = t->height = t->depth = 1;
    for (int k = 0; k < 3; k++) t->addr[k] = LF_ADDR_CLAMP;
    int bad = 0;

    lf_target tg;
    int has_off, badbuf;
    if (parse_target(P, tok[2], what, 0, 1, &tg, &has_off, &badbuf)) return;
    o->buffer = tg.buffer;
    o->offset = tg.offset;
    if (o->offset % 16) {
        err(P, "%s data must be 16-byte aligned (offset %llu)", what, (unsigned long long)o->offset);
        bad = 1;
    }
    int ty = lf_type_from_name(tok[3]);
    if (ty < 0 || ty == LF_U64 || ty == LF_S64 || ty == LF_F64) {
        err(P, "unknown %s element type %s (u8 s8 u16 s16 u32 s32 f16 f32)", what, q(P, tok[3]));
        return;
    }
    t->type = (enum lf_type)ty;
    uint64_t v;
    if (parse_count(P, tok[4], "channel count", 1, 4, &v)) return;
    if (v == 3) {
        err(P, "channel count must be 1, 2 or 4 (got 3)");
        return;
    }
    t->channels = (int)v;
    static const char *const dname[3] = {"width", "height", "depth"};
    int k = 5;
    while (k < n && t->ndims < 3 && is_digit_start(tok[k])) {
        if (parse_count(P, tok[k], dname[t->ndims], 1, TEX_MAX_DIM, &v)) return;
        uint32_t *d = t->ndims == 0 ? &t->width : t->ndims == 1 ? &t->height : &t->depth;
        *d = (uint32_t)v;
        t->ndims++;
        k++;
    }
    if (t->ndims == 0) {
        err(P, "%s %s needs a width", what, q(P, tok[1]));
        return;
    }
    static const char *const kw[] = {"layers", "cube", "pitch", "addr", "filter", "normalized",
                                     "read", "border", "srgb"};
    enum { K_LAYERS, K_CUBE, K_PITCH, K_ADDR, K_FILTER, K_NORMALIZED, K_READ, K_BORDER, K_SRGB, K_N };
    static const char *const modes[] = {"wrap", "clamp", "mirror", "border"};
    int seen[K_N] = {0};
    while (k < n) {
        int w = keyword_index(tok[k], kw, K_N);
        if (w < 0 || (surface && w > K_PITCH)) {
            err(P, "unknown %s option %s", what, q(P, tok[k]));
            return;
        }
        if (seen[w]) {
            err(P, "duplicate %s option '%s'", what, kw[w]);
            return;
        }
        seen[w] = 1;
        k++;
        if (w == K_CUBE) {
            t->cube = 1;
            continue;
        }
        if (k >= n) {
            err(P, "%s option '%s' needs a value", what, kw[w]);
            return;
        }
        switch (w) {
        case K_LAYERS:
            if (parse_count(P, tok[k++], "layer count", 1, TEX_MAX_LAYERS, &v)) return;
            t->layers = (uint32_t)v;
            break;
        case K_PITCH:
            if (parse_count(P, tok[k++], "pitch", 1, UINT32_MAX, &v)) return;
            t->pitch = v;
            break;
        case K_ADDR: {
            int nm = 0;
            while (k < n && nm < 3) {
                int m = keyword_index(tok[k], modes, 4);
                if (m < 0) break;
                /* 'border' followed by a number is the border colour option */
                if (m == LF_ADDR_BORDER && k + 1 < n && keyword_index(tok[k + 1], kw, K_N) < 0 &&
                    keyword_index(tok[k + 1], modes, 4) < 0)
                    break;
                t->addr[nm++] = m;
                k++;
            }
            if (nm == 0) {
                err(P, "bad address mode %s (wrap, clamp, mirror, border)", q(P, tok[k]));
                return;
            }
            for (int j = nm; j < 3; j++) t->addr[j] = t->addr[nm - 1];
            break;
        }
        case K_FILTER:
            if (strcmp(tok[k], "point") == 0) t->linear = 0;
            else if (strcmp(tok[k], "linear") == 0) t->linear = 1;
            else {
                err(P, "bad filter mode %s (point, linear)", q(P, tok[k]));
                return;
            }
            k++;
            break;
        case K_NORMALIZED:
            if (parse_flag(P, tok[k++], "normalized", &t->normalized)) return;
            break;
        case K_READ:
            if (strcmp(tok[k], "element") == 0) t->read_normalized = 0;
            else if (strcmp(tok[k], "normalized") == 0) t->read_normalized = 1;
            else {
                err(P, "bad read mode %s (element, normalized)", q(P, tok[k]));
                return;
            }
            k++;
            break;
        case K_BORDER: {
            int nv = 0;
            double dv[4];
            while (k < n && nv < 4 && keyword_index(tok[k], kw, K_N) < 0) {
                if (parse_decimal_float(P, LF_F32, tok[k], &dv[nv])) return;
                nv++;
                k++;
            }
            if (nv != 1 && nv != 4) {
                err(P, "'border' takes one value or four (r g b a), got %d", nv);
                return;
            }
            for (int j = 0; j < 4; j++) t->border[j] = (float)dv[nv == 1 ? 0 : j];
            break;
        }
        case K_SRGB:
            if (parse_flag(P, tok[k++], "srgb", &t->srgb)) return;
            break;
        }
    }
    /* consistency, as cudaCreateTextureObject / cudaMalloc3DArray check it */
    enum lf_type ty2 = t->type;
    int small_int = ty2 == LF_U8 || ty2 == LF_S8 || ty2 == LF_U16 || ty2 == LF_S16;
    if (t->read_normalized && !small_int) {
        err(P, "'read normalized' needs an 8- or 16-bit integer type (not %s)", lf_type_name(ty2));
        bad = 1;
    }
    if (t->linear && !t->read_normalized && ty2 != LF_F16 && ty2 != LF_F32) {
        err(P, "'filter linear' needs float results (TYPE f16/f32, or 'read normalized')");
        bad = 1;
    }
    if (t->srgb && !(ty2 == LF_U8 && t->read_normalized)) {
        err(P, "'srgb 1' needs TYPE u8 with 'read normalized'");
        bad = 1;
    }
    if (t->cube && (t->ndims != 2 || t->width != t->height)) {
        err(P, "a cubemap has square faces: WIDTH HEIGHT with HEIGHT = WIDTH and no DEPTH");
        bad = 1;
    }
    if (t->layers && t->ndims == 3) {
        err(P, "3-D %ss cannot be layered", what);
        bad = 1;
    }
    uint64_t texel = (uint64_t)t->channels * lf_type_size(ty2);
    uint64_t rowbytes = (uint64_t)t->width * texel;
    if (!t->pitch) t->pitch = rowbytes;
    else if (t->pitch < rowbytes || t->pitch % texel) {
        err(P, "pitch %llu must be at least %llu (WIDTH * %llu-byte texels) and a multiple of %llu",
            (unsigned long long)t->pitch, (unsigned long long)rowbytes, (unsigned long long)texel,
            (unsigned long long)texel);
        bad = 1;
    }
    if (bad) return;
    uint64_t rows = (uint64_t)t->height * t->depth * (t->layers ? t->layers : 1) * (t->cube ? 6 : 1);
    t->bytes = t->pitch * (rows - 1) + rowbytes;
    if (!badbuf) {
        uint64_t bsz = lf->buffers[o->buffer].size;
        if (o->offset > bsz || t->bytes > bsz - o->offset) {
            err(P, "%s %s needs %llu bytes from offset %llu, buffer %s has %llu", what, q(P, tok[1]),
                (unsigned long long)t->bytes, (unsigned long long)o->offset,
                q(P, lf->buffers[o->buffer].name), (unsigned long long)bsz);
            return;
        }
    }
    commit_object(P, idx);
}

static void do_tensormap(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    WANT(n >= 6, "tensormap NAME DTYPE RANK BUFFER[+OFF] dims D0 .. strides S1 .. box B0 .. "
                 "[OPTION ...]");
    int idx;
    if (add_object(P, LF_OBJ_TENSORMAP, tok[1], &idx)) return;
    lf_object *o = &lf->objects[idx];
    lf_tensormap *t = &o->tmap;
    static const char *const dtypes[] = {"u8",  "u16", "u32",  "s32",    "u64",  "s64",    "f16",
                                         "f32", "f64", "bf16", "f32ftz", "tf32", "tf32ftz"};
    t->dtype = keyword_index(tok[2], dtypes, 13);
    if (t->dtype < 0) {
        err(P, "unknown tensormap data type %s (u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32ftz "
               "tf32 tf32ftz)", q(P, tok[2]));
        return;
    }
    uint64_t v;
    if (parse_count(P, tok[3], "tensormap rank", 1, 5, &v)) return;
    t->rank = (int)v;
    lf_target tg;
    int has_off, badbuf;
    if (parse_target(P, tok[4], "tensormap", 0, 1, &tg, &has_off, &badbuf)) return;
    o->buffer = tg.buffer;
    o->offset = tg.offset;
    for (int i = 0; i < 5; i++) t->estride[i] = 1;

    static const char *const kw[] = {"dims", "strides", "box", "elemstrides", "lower", "upper",
                                     "interleave", "swizzle", "l2promo", "oobfill", "into",
                                     "channels", "pixels"};
    enum { K_DIMS, K_STRIDES, K_BOX, K_ESTRIDES, K_LOWER, K_UPPER, K_INTERLEAVE, K_SWIZZLE, K_L2,
           K_OOB, K_INTO, K_CHANNELS, K_PIXELS, K_N };
    static const char *const inter[] = {"none", "16B", "32B"};
    static const char *const swz[] = {"none", "32B", "64B", "128B"};
    static const char *const l2[] = {"none", "64B", "128B", "256B"};
    static const char *const oob[] = {"zero", "nan"};
    int seen[K_N] = {0}, bad = 0;
    int k = 5;
    while (k < n) {
        int w = keyword_index(tok[k], kw, K_N);
        if (w < 0) {
            err(P, "unknown tensormap option %s", q(P, tok[k]));
            return;
        }
        if (seen[w]) {
            err(P, "duplicate tensormap option '%s'", kw[w]);
            return;
        }
        seen[w] = 1;
        k++;
        if (w <= K_UPPER) { /* a list of numbers up to the next keyword */
            int first = k;
            while (k < n && keyword_index(tok[k], kw, K_N) < 0 &&
                   (is_digit_start(tok[k]) || tok[k][0] == '-' || tok[k][0] == '+'))
                k++;
            int nv = k - first;
            int want = w == K_STRIDES ? t->rank - 1 : w == K_LOWER || w == K_UPPER ? t->rank - 2 : t->rank;
            if ((w == K_LOWER || w == K_UPPER) && t->rank < 3) {
                err(P, "an im2col tensormap ('%s') needs rank 3 to 5", kw[w]);
                bad = 1;
                continue;
            }
            if (nv != want) {
                err(P, "tensormap of rank %d needs %d '%s' value%s, got %d", t->rank, want, kw[w],
                    want == 1 ? "" : "s", nv);
                bad = 1;
                continue;
            }
            for (int i = 0; i < nv; i++) {
                const char *s = tok[first + i];
                switch (w) {
                case K_DIMS:
                    if (parse_count(P, s, "tensormap dimension", 1, UINT32_MAX, &v)) bad = 1;
                    else t->dim[i] = v;
                    break;
                case K_STRIDES:
                    if (parse_count(P, s, "tensormap stride", 0, (1ull << 40) - 1, &v)) bad = 1;
                    else t->stride[i + 1] = v;
                    break;
                case K_BOX:
                    if (parse_count(P, s, "tensormap box size", 1, 256, &v)) bad = 1;
                    else t->box[i] = (uint32_t)v;
                    break;
                case K_LOWER: case K_UPPER: {
                    int64_t c;
                    if (num_s64(s, -32768, 32767, &c)) {
                        err(P, "bad im2col corner %s (-32768 to 32767)", q(P, s));
                        bad = 1;
                    } else if (w == K_LOWER) t->lower[i] = (int32_t)c;
                    else t->upper[i] = (int32_t)c;
                    break;
                }
                default:
                    if (parse_count(P, s, "tensormap element stride", 1, 8, &v)) bad = 1;
                    else t->estride[i] = (uint32_t)v;
                    break;
                }
            }
            continue;
        }
        if (k >= n) {
            err(P, "tensormap option '%s' needs a value", kw[w]);
            return;
        }
        const char *s = tok[k++];
        int m = -1;
        switch (w) {
        case K_INTERLEAVE: m = t->interleave = keyword_index(s, inter, 3); break;
        case K_SWIZZLE: m = t->swizzle = keyword_index(s, swz, 4); break;
        case K_L2: m = t->l2promo = keyword_index(s, l2, 4); break;
        case K_OOB: m = t->oobfill = keyword_index(s, oob, 2); break;
        case K_CHANNELS: case K_PIXELS:
            if (parse_count(P, s, w == K_CHANNELS ? "im2col channels per pixel" : "im2col pixels per column", 1,
                            w == K_CHANNELS ? 256 : 1024, &v)) return;
            if (w == K_CHANNELS) t->channels = (uint32_t)v;
            else t->pixels = (uint32_t)v;
            m = 0;
            break;
        default: {
            lf_target it;
            int ho, bb;
            if (parse_target(P, s, "tensormap into", 0, 1, &it, &ho, &bb)) return;
            t->into_buffer = it.buffer;
            t->into_offset = it.offset;
            m = 0;
            if (it.offset % 64) {
                err(P, "a tensor map must be 64-byte aligned ('into' offset %llu)",
                    (unsigned long long)it.offset);
                bad = 1;
            } else if (!bb && lf->buffers[it.buffer].size - it.offset < 128) {
                err(P, "the 128-byte tensor map does not fit in buffer %s at offset %llu",
                    q(P, lf->buffers[it.buffer].name), (unsigned long long)it.offset);
                bad = 1;
            }
        }
        }
        if (m < 0) {
            static const char *const opts[] = {"", "", "", "", "", "", "none, 16B, 32B",
                                               "none, 32B, 64B, 128B", "none, 64B, 128B, 256B",
                                               "zero, nan"};
            err(P, "bad tensormap %s %s (%s)", kw[w], q(P, s), opts[w]);
            return;
        }
    }
    if (bad) return;
    t->im2col = seen[K_LOWER] || seen[K_UPPER] || seen[K_CHANNELS] || seen[K_PIXELS];
    if (t->im2col) {   /* cuTensorMapEncodeIm2col: corners, channels and pixels replace the box */
        if (seen[K_BOX]) {
            err(P, "an im2col tensormap takes lower/upper/channels/pixels, not 'box'");
            return;
        }
        if (!seen[K_LOWER] || !seen[K_UPPER] || !seen[K_CHANNELS] || !seen[K_PIXELS]) {
            err(P, "an im2col tensormap needs 'lower', 'upper', 'channels' and 'pixels'");
            return;
        }
        t->box[0] = t->channels;           /* checked below like box[0] */
        seen[K_BOX] = 1;
    }
    if (!seen[K_DIMS] || !seen[K_BOX] || (!seen[K_STRIDES] && t->rank > 1)) {
        err(P, "tensormap needs %s", !seen[K_DIMS] ? "'dims'" : !seen[K_BOX] ? "'box'" : "'strides'");
        return;
    }
    /* cuTensorMapEncodeTiled's rules */
    uint64_t es = lf_tensormap_elem_size(t->dtype);
    uint64_t align = t->interleave == 2 ? 32 : 16;
    if (t->interleave && t->rank < 3) {
        err(P, "an interleaved tensormap needs rank 3 to 5");
        bad = 1;
    }
    if (o->offset % align) {
        err(P, "the tensor's global address (offset %llu) must be %llu-byte aligned",
            (unsigned long long)o->offset, (unsigned long long)align);
        bad = 1;
    }
    for (int i = 1; i < t->rank; i++)
        if (t->stride[i] % align) {
            err(P, "tensormap stride %llu is not a multiple of %llu", (unsigned long long)t->stride[i],
                (unsigned long long)align);
            bad = 1;
        }
    uint64_t inner = (uint64_t)t->box[0] * es;
    if (t->interleave == 0 && inner % 16) {
        err(P, "box[0] * element size (%llu bytes) must be a multiple of 16", (unsigned long long)inner);
        bad = 1;
    }
    if (t->interleave == 0 && t->swizzle && inner > (16ull << t->swizzle)) {
        err(P, "the inner box dimension (%llu bytes) is wider than the %s swizzle span",
            (unsigned long long)inner, swz[t->swizzle]);
        bad = 1;
    }
    if (t->interleave == 2 && t->swizzle != 1) {
        err(P, "interleave 32B needs swizzle 32B");
        bad = 1;
    }
    if (t->oobfill && t->dtype < 6) {
        err(P, "oobfill nan needs a floating-point data type (not %s)", dtypes[t->dtype]);
        bad = 1;
    }
    if (bad) return;
    commit_object(P, idx);
}

static void do_stdout(parser *P, char **tok, int n)
{
    launch_file *lf = P->lf;
    WANT(n == 2, "stdout FILE");
    if (lf->stdout_path) {
        err(P, "duplicate 'stdout' line (first at line %d)", P->stdout_line);
        return;
    }
    char *path = join(lf->dir, tok[1]);
    if (!path) { oom(P); return; }
    uint64_t sz;
    uint8_t *data;
    if (file_size(P, tok[1], path, &sz)) { free(path); return; }
    if (sz > LF_MAX_BUFFER_BYTES) {
        err(P, "stdout file %s is too large", qf(P, tok[1]));
        free(path);
        return;
    }
    if (read_all(P, tok[1], path, sz, &data)) { free(path); return; }
    lf->stdout_path = path;
    lf->stdout_data = data;
    lf->stdout_size = (size_t)sz;
    P->stdout_line = P->line;
}

static void do_line(parser *P, char **tok, int n)
{
    const char *d = tok[0];
    if (strcmp(d, "arg") == 0) {
        do_arg(P, tok, n);
        return;
    }
    if (P->open_launch >= 0) { /* any other directive ends the launch's arg list */
        P->open_launch = -1;
        P->closer_line = P->line;
    }
    if (strcmp(d, "ptx") == 0) do_ptx(P, tok, n);
    else if (strcmp(d, "buffer") == 0) do_buffer(P, tok, n);
    else if (strcmp(d, "launch") == 0) do_launch(P, tok, n);
    else if (strcmp(d, "expect") == 0) do_expect(P, tok, n);
    else if (strcmp(d, "stdout") == 0) do_stdout(P, tok, n);
    else if (strcmp(d, "dump") == 0) do_dump(P, tok, n);
    else if (strcmp(d, "symbol") == 0) do_symbol(P, tok, n);
    else if (strcmp(d, "texture") == 0 || strcmp(d, "surface") == 0) do_texture(P, tok, n);
    else if (strcmp(d, "tensormap") == 0) do_tensormap(P, tok, n);
    else err(P, "unknown directive %s", q(P, d));
}

/* ---- driver --------------------------------------------------------------- */

static void free_step(lf_step *s)
{
    switch (s->kind) {
    case LF_LAUNCH:
        free(s->launch.kernel);
        for (int i = 0; i < s->launch.nargs; i++) free(s->launch.args[i].bytes);
        free(s->launch.args);
        break;
    case LF_DUMP:
        free_target(&s->dump.target);
        free(s->dump.file);
        break;
    case LF_SYMBOL_SET:
        free_target(&s->symset.target);
        free(s->symset.data);
        break;
    case LF_OBJECT:
        break;
    }
}

void lf_free(launch_file *lf)
{
    if (!lf) return;
    free(lf->path);
    free(lf->dir);
    free(lf->ptx_path);
    for (int i = 0; i < lf->nbuffers; i++) {
        free(lf->buffers[i].name);
        free(lf->buffers[i].file);
        free(lf->buffers[i].data);
    }
    free(lf->buffers);
    for (int i = 0; i < lf->nsteps; i++) free_step(&lf->steps[i]);
    free(lf->steps);
    for (int i = 0; i < lf->nexpects; i++) {
        free(lf->expects[i].name);
        free_target(&lf->expects[i].target);
        free(lf->expects[i].file);
        free(lf->expects[i].data);
    }
    free(lf->expects);
    free(lf->stdout_path);
    free(lf->stdout_data);
    for (int i = 0; i < lf->nobjects; i++) free(lf->objects[i].name);
    free(lf->objects);
    memset(lf, 0, sizeof *lf);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

void lf_set_total_cap(uint64_t bytes)
{
    lf_total_cap = bytes && bytes < LF_MAX_TOTAL_BYTES ? bytes : LF_MAX_TOTAL_BYTES;
}

int lf_parse_mem(const char *text, size_t len, const char *virtual_path, launch_file *out,
                 FILE *diag)
{
    parser P;
    memset(&P, 0, sizeof P);
    memset(out, 0, sizeof *out);
    if (!virtual_path) virtual_path = "<string>";
    P.path = virtual_path;
    P.diag = diag;
    P.lf = out;
    P.open_launch = P.last_launch = -1;
    out->path = xstrdup(virtual_path);
    out->dir = dir_of(virtual_path);
    if (!out->path || !out->dir) {
        oom(&P);
        lf_free(out);
        return P.nerr;
    }

    char *line = NULL;
    char **tok = NULL;
    size_t line_cap = 0;
    int tok_cap = 0;
    size_t pos = 0;
    while (pos < len && !P.stopped) {
        size_t end = pos;
        while (end < len && text[end] != '\n') end++;
        size_t n = end - pos;
        P.line++;
        if (n + 1 > line_cap) {
            size_t nc = n + 1 < 256 ? 256 : n + 1;
            char *nb = realloc(line, nc);
            if (!nb) { oom(&P); break; }
            line = nb;
            line_cap = nc;
        }
        memcpy(line, text + pos, n);
        line[n] = 0;
        pos = end + 1;
        /* comment, NUL bytes */
        size_t cut = n;
        for (size_t i = 0; i < n; i++)
            if (line[i] == '#' || line[i] == 0) { cut = i; break; }
        if (cut < n && line[cut] == 0) {
            err(&P, "NUL byte in line");
            continue;
        }
        line[cut] = 0;
        int nt = 0;
        for (size_t i = 0; i < cut;) {
            while (i < cut && is_blank(line[i])) line[i++] = 0;
            if (i >= cut) break;
            if (nt + 1 > tok_cap) {
                int nc = tok_cap ? tok_cap * 2 : 32;
                char **nb = realloc(tok, (size_t)nc * sizeof *tok);
                if (!nb) { oom(&P); nt = -1; break; }
                tok = nb;
                tok_cap = nc;
            }
            tok[nt++] = line + i;
            while (i < cut && !is_blank(line[i])) i++;
        }
        if (nt > 0) do_line(&P, tok, nt);
    }
    if (!P.stopped && !P.seen_ptx) {
        if (P.line == 0) P.line = 1;
        err(&P, "missing 'ptx' line");
    }
    free(line);
    free(tok);
    free(P.bad);
    free(P.obj_bad);
    if (P.nerr) {
        lf_free(out);
        return P.nerr;
    }
    return 0;
}

int lf_parse_string(const char *text, const char *virtual_path, launch_file *out, FILE *diag)
{
    return lf_parse_mem(text ? text : "", text ? strlen(text) : 0, virtual_path, out, diag);
}

int lf_parse_file(const char *path, launch_file *out, FILE *diag)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    const char *why = NULL;
    int e = 0;
    if (!f) {
        e = errno;
        why = strerror(e);
    } else {
        for (;;) {
            if (len + 65536 > cap) {
                if (cap >= LF_MAX_FILE_BYTES) { why = "file too large"; break; }
                size_t nc = cap ? cap * 2 : 65536;
                char *nb = realloc(buf, nc + 1);
                if (!nb) { why = "out of memory"; break; }
                buf = nb;
                cap = nc;
            }
            size_t got = fread(buf + len, 1, cap - len, f);
            len += got;
            if (got == 0) {
                if (ferror(f)) { e = errno; why = strerror(e); }
                break;
            }
        }
        fclose(f);
    }
    if (why) {
        if (diag) fprintf(diag, "%s:0: error: cannot read launch file: %s\n", path, why);
        free(buf);
        return 1;
    }
    int r = lf_parse_mem(buf ? buf : "", len, path, out, diag);
    free(buf);
    return r;
}
