/* test_fatbin.c -- unit tests for cudart/fatbin.[ch] (nvcc's fatbinaries).
 *
 * Test data: tests/unit/data/fatbin/ (made by its make.sh with nvcc 13.0),
 * found through $FATBIN_TEST_DATA, -DFATBIN_TEST_DATA_DIR, $srcdir, or the
 * current folder.  Images are copied into buffers of exactly their size so
 * that the sanitizer build catches any read past the end.
 */
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cudart/fatbin.h"

static char g_data[4096];

static int has_data(const char *dir)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/sm90.fatbin", dir);
    struct stat st;
    return stat(p, &st) == 0;
}

static void find_data_dir(void)
{
    const char *c[6] = {getenv("FATBIN_TEST_DATA"), NULL, NULL, "tests/unit/data/fatbin", "data/fatbin", NULL};
#ifdef FATBIN_TEST_DATA_DIR
    c[1] = FATBIN_TEST_DATA_DIR;
#endif
    static char s[4200];
    if (getenv("srcdir")) {
        snprintf(s, sizeof s, "%s/tests/unit/data/fatbin", getenv("srcdir"));
        c[2] = s;
    }
    for (int i = 0; i < 6; i++)
        if (c[i] && has_data(c[i])) { snprintf(g_data, sizeof g_data, "%s", c[i]); return; }
    fprintf(stderr, "test_fatbin: tests/unit/data/fatbin not found (set FATBIN_TEST_DATA)\n");
    exit(1);
}

static char *path_of(const char *name)
{
    static char p[4400];
    snprintf(p, sizeof p, "%s/%s", g_data, name);
    return p;
}

/* the file in a malloc'd buffer of exactly its size */
static uint8_t *load(const char *name, uint64_t *len)
{
    FILE *f = fopen(path_of(name), "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path_of(name));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    ck_assert(b != NULL);
    ck_assert_int_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (uint64_t)n;
    return b;
}

static void wr32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void wr64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

/* PTX chosen for target from file; fails the test on error */
static char *ptx_of(const char *name, unsigned target, unsigned *arch)
{
    uint64_t n, len;
    uint8_t *img = load(name, &n);
    char *ptx, err[512];
    int r = fatbin_select_ptx(img, n, target, &ptx, &len, arch, err, sizeof err);
    ck_assert_msg(r == 0, "%s for sm_%u: %s", name, target, err);
    ck_assert_uint_eq(strlen(ptx), len);
    free(img);
    return ptx;
}

/* the error of selecting PTX for target from file */
static void ptx_error(const char *name, unsigned target, char *err, size_t errlen)
{
    uint64_t n, len = 7;
    uint8_t *img = load(name, &n);
    char *ptx = (char *)1;
    int r = fatbin_select_ptx(img, n, target, &ptx, &len, NULL, err, errlen);
    ck_assert_msg(r == -1, "%s for sm_%u: selected PTX", name, target);
    ck_assert_ptr_null(ptx);
    free(img);
}

#define ASSERT_HAS(s, sub) ck_assert_msg(strstr((s), (sub)) != NULL, "'%s' not in: %s", (sub), (s))

START_TEST(test_parse_default)
{
    uint64_t n;
    uint8_t *img = load("sm90.fatbin", &n);
    char err[256];
    fatbin_entry e[4];
    ck_assert_uint_eq(fatbin_size(img, n), n);
    ck_assert_int_eq(fatbin_parse(img, n, NULL, 0, err, sizeof err), 2);
    ck_assert_int_eq(fatbin_parse(img, n, e, 4, err, sizeof err), 2);
    ck_assert_int_eq(e[0].kind, FATBIN_ELF);
    ck_assert_uint_eq(e[0].arch, 90);
    ck_assert(!e[0].compressed && !e[0].arch_specific);
    ck_assert_mem_eq(e[0].payload, "\x7f" "ELF", 4);
    ck_assert_uint_eq(e[0].offset, 16);
    ck_assert_int_eq(e[1].kind, FATBIN_PTX);
    ck_assert_uint_eq(e[1].arch, 90);
    ck_assert(e[1].compressed);
    ck_assert_int_eq(e[1].compression, FATBIN_COMP_ZSTD);
    ck_assert_uint_eq(e[1].version_major, 9); /* PTX ISA 9.0 (CUDA 13) */
    ck_assert_uint_eq(e[1].version_minor, 0);
    ck_assert_mem_eq(e[1].payload, "\x28\xb5\x2f\xfd", 4); /* a Zstandard frame */
    ck_assert_ptr_null(e[1].name);
    ck_assert_uint_eq(e[1].options_len, 0);
    /* a wrapper that does not know the size: the header decides */
    ck_assert_int_eq(fatbin_parse(img, FATBIN_SIZE_UNKNOWN, e, 4, err, sizeof err), 2);
    free(img);
}
END_TEST

/* the compressed PTX (Zstandard, LZ4) is exactly the text stored uncompressed */
START_TEST(test_decompress_matches_uncompressed)
{
    unsigned a1, a2, a3;
    char *zstd = ptx_of("sm90.fatbin", 90, &a1);
    char *plain = ptx_of("sm90_nocompress.fatbin", 90, &a2);
    char *lz4 = ptx_of("sm90_lz4.fatbin", 90, &a3);
    ck_assert_uint_eq(a1, 90);
    ck_assert_uint_eq(a2, 90);
    ck_assert_uint_eq(a3, 90);
    ck_assert_str_eq(zstd, plain);
    ck_assert_str_eq(lz4, plain);
    ASSERT_HAS(plain, ".target sm_90\n");
    ASSERT_HAS(plain, ".visible .entry _Z3addPfPKfi(");
    ck_assert(strlen(plain) > 700);
    free(zstd);
    free(plain);
    free(lz4);

    /* the lz4 file really is LZ4 */
    uint64_t n;
    uint8_t *img = load("sm90_lz4.fatbin", &n);
    fatbin_entry e[4];
    char err[256];
    ck_assert_int_eq(fatbin_parse(img, n, e, 4, err, sizeof err), 2);
    ck_assert_int_eq(e[1].compression, FATBIN_COMP_LZ4);
    free(img);
}
END_TEST

/* -Xfatbin -compress-all: the SASS ELF decompresses to the uncompressed one */
START_TEST(test_compressed_elf)
{
    uint64_t n1, n2;
    uint8_t *all = load("sm90_all.fatbin", &n1), *def = load("sm90.fatbin", &n2);
    fatbin_entry a[4], d[4];
    char err[256];
    ck_assert_int_eq(fatbin_parse(all, n1, a, 4, err, sizeof err), 2);
    ck_assert_int_eq(fatbin_parse(def, n2, d, 4, err, sizeof err), 2);
    ck_assert_int_eq(a[0].kind, FATBIN_ELF);
    ck_assert(a[0].compressed && !d[0].compressed);
    uint8_t *x, *y;
    uint64_t lx, ly;
    ck_assert_int_eq(fatbin_entry_data(&a[0], &x, &lx, err, sizeof err), 0);
    ck_assert_int_eq(fatbin_entry_data(&d[0], &y, &ly, err, sizeof err), 0);
    ck_assert_uint_eq(lx, ly);
    ck_assert_uint_eq(lx, a[0].uncompressed_size);
    ck_assert_mem_eq(x, y, (size_t)lx);
    ck_assert_uint_eq(x[lx], 0);
    free(x);
    free(y);
    free(all);
    free(def);
}
END_TEST

/* compute_80 PTX + sm_90 SASS + compute_90 PTX: the highest not above the target */
START_TEST(test_select_multi)
{
    unsigned arch;
    char *p;
    p = ptx_of("multi.fatbin", 90, &arch);
    ck_assert_uint_eq(arch, 90);
    ASSERT_HAS(p, ".target sm_90\n");
    char *q = ptx_of("multi_nocompress.fatbin", 90, &arch);
    ck_assert_str_eq(p, q);
    free(p);
    free(q);
    for (unsigned t = 80; t <= 89; t++) {
        p = ptx_of("multi.fatbin", t, &arch);
        ck_assert_uint_eq(arch, 80);
        ASSERT_HAS(p, ".target sm_80\n");
        q = ptx_of("multi_nocompress.fatbin", t, &arch);
        ck_assert_str_eq(p, q);
        free(p);
        free(q);
    }
    p = ptx_of("multi.fatbin", 120, &arch); /* newer GPUs run older PTX */
    ck_assert_uint_eq(arch, 90);
    free(p);
    char err[512];
    ptx_error("multi.fatbin", 75, err, sizeof err);
    ASSERT_HAS(err, "PTX (compute_80, compute_90) cannot run on the modelled sm_75");
    ASSERT_HAS(err, "-gencode arch=compute_75,code=compute_75");
}
END_TEST

/* -arch=sm_90a: compute_90, sm_90a, compute_90a */
START_TEST(test_select_arch_specific)
{
    uint64_t n;
    uint8_t *img = load("sm90a.fatbin", &n);
    fatbin_entry e[4];
    char err[256];
    ck_assert_int_eq(fatbin_parse(img, n, e, 4, err, sizeof err), 3);
    ck_assert(e[0].kind == FATBIN_PTX && !e[0].arch_specific);
    ck_assert(e[1].kind == FATBIN_ELF && e[1].arch_specific);
    ck_assert(e[2].kind == FATBIN_PTX && e[2].arch_specific);
    ck_assert_int_eq(fatbin_pick_ptx(e, 3, 90, err, sizeof err), 2); /* 90a on sm_90 */
    ck_assert_int_eq(fatbin_pick_ptx(e, 3, 100, err, sizeof err), 0); /* 90a never elsewhere */
    ck_assert_int_eq(fatbin_pick_ptx(e, 1, 90, err, sizeof err), 0);
    ck_assert_int_eq(fatbin_pick_ptx(e + 2, 1, 100, err, sizeof err), -1);
    ASSERT_HAS(err, "compute_90a");
    free(img);
    unsigned arch;
    char *p = ptx_of("sm90a.fatbin", 90, &arch);
    ASSERT_HAS(p, ".target sm_90a\n");
    free(p);
    p = ptx_of("sm90a.fatbin", 100, &arch);
    ASSERT_HAS(p, ".target sm_90\n");
    free(p);
}
END_TEST

START_TEST(test_select_errors)
{
    char err[512];
    ptx_error("sass_only.fatbin", 90, err, sizeof err);
    ASSERT_HAS(err, "only SASS (sm_90) and no PTX");
    ASSERT_HAS(err, "-arch=sm_90");
    ASSERT_HAS(err, "-gencode arch=compute_90,code=compute_90");
    ptx_error("ptx100.fatbin", 90, err, sizeof err);
    ASSERT_HAS(err, "PTX (compute_100) cannot run on the modelled sm_90");
    ASSERT_HAS(err, "-gencode arch=compute_90,code=compute_90");
    unsigned arch;
    char *p = ptx_of("ptx100.fatbin", 100, &arch);
    ck_assert_uint_eq(arch, 100);
    free(p);
    fatbin_entry none;
    ck_assert_int_eq(fatbin_pick_ptx(&none, 0, 90, err, sizeof err), -1);
    ASSERT_HAS(err, "no entries");
}
END_TEST

/* -G: the source name and ptxas options stored in the entry headers */
START_TEST(test_name_and_options)
{
    uint64_t n;
    uint8_t *img = load("debug.fatbin", &n);
    fatbin_entry e[4];
    char err[256];
    ck_assert_int_eq(fatbin_parse(img, n, e, 4, err, sizeof err), 2);
    for (int i = 0; i < 2; i++) {
        ck_assert(e[i].debug);
        ck_assert_uint_eq(e[i].name_len, 6);
        ck_assert_mem_eq(e[i].name, "add.cu", 6);
    }
    ck_assert_int_eq(e[1].kind, FATBIN_PTX);
    const char *opt = " -g --dont-merge-basicblocks --return-at-end "; /* as stored */
    ck_assert_uint_eq(e[1].options_len, strlen(opt));
    ck_assert_mem_eq(e[1].options, opt, strlen(opt));
    free(img);
    char *p = ptx_of("debug.fatbin", 90, NULL);
    ASSERT_HAS(p, ".loc");
    free(p);
}
END_TEST

/* several fatbins back to back, with zero padding between them */
START_TEST(test_section)
{
    uint64_t n1, n2;
    uint8_t *a = load("sm90.fatbin", &n1), *b = load("multi.fatbin", &n2);
    uint64_t n = n1 + 8 + n2;
    uint8_t *s = calloc(1, (size_t)n);
    memcpy(s, a, (size_t)n1);
    memcpy(s + n1 + 8, b, (size_t)n2);
    fatbin_entry e[8];
    char err[256];
    ck_assert_int_eq(fatbin_parse_section(s, n, e, 8, err, sizeof err), 5);
    ck_assert_int_eq(e[1].container, 0);
    ck_assert_int_eq(e[2].container, 1);
    ck_assert_uint_eq(e[2].offset, n1 + 8 + 16);
    ck_assert_uint_eq(e[2].arch, 80);
    /* the first container alone */
    ck_assert_int_eq(fatbin_parse(s, n, e, 8, err, sizeof err), 2);
    /* junk instead of padding */
    s[n1 + 3] = 0x55;
    ck_assert_int_eq(fatbin_parse_section(s, n, e, 8, err, sizeof err), -1);
    ASSERT_HAS(err, "not a fatbinary");
    /* the second one cut short */
    s[n1 + 3] = 0;
    ck_assert_int_eq(fatbin_parse_section(s, n - 1, e, 8, err, sizeof err), -1);
    ASSERT_HAS(err, "fatbinary 1 at offset");
    ASSERT_HAS(err, "truncated");
    ck_assert_int_eq(fatbin_parse_section(NULL, 0, e, 8, err, sizeof err), 0);
    free(s);
    free(a);
    free(b);
}
END_TEST

START_TEST(test_wrapper)
{
    uint64_t n;
    uint8_t *img = load("sm90.fatbin", &n);
    struct { uint32_t magic, version; const void *data; void *more; } w = {0x466243b1u, 1, img, NULL};
    ck_assert_ptr_eq(fatbin_from_wrapper(&w), img);
    w.version = 2;
    ck_assert_ptr_eq(fatbin_from_wrapper(&w), img);
    w.version = 3;
    ck_assert_ptr_null(fatbin_from_wrapper(&w));
    w.version = 1;
    w.magic = 0x466243b2u;
    ck_assert_ptr_null(fatbin_from_wrapper(&w));
    w.magic = 0x466243b1u;
    static const uint8_t notfb[16] = {1, 2, 3, 4};
    w.data = notfb;
    ck_assert_ptr_null(fatbin_from_wrapper(&w));
    w.data = NULL;
    ck_assert_ptr_null(fatbin_from_wrapper(&w));
    ck_assert_ptr_null(fatbin_from_wrapper(NULL));
    free(img);
}
END_TEST

/* Run everything on an image: parse, every entry's data, PTX selection.
   Returns whether parsing succeeded. */
static int exercise(const uint8_t *img, uint64_t n, char *err, size_t errlen)
{
    fatbin_entry e[16];
    int k = fatbin_parse(img, n, e, 16, err, errlen);
    if (k < 0) return 0;
    for (int i = 0; i < k && i < 16; i++) {
        uint8_t *d;
        uint64_t len;
        if (fatbin_entry_data(&e[i], &d, &len, err, errlen) == 0) {
            ck_assert_uint_le(len, e[i].uncompressed_size);
            free(d);
        }
    }
    char *ptx;
    uint64_t len;
    if (fatbin_select_ptx(img, n, 90, &ptx, &len, NULL, err, errlen) == 0) {
        ck_assert_uint_eq(strlen(ptx), len);
        free(ptx);
    }
    return 1;
}

/* every length short of the whole image is refused; nothing is read beyond it */
START_TEST(test_truncated)
{
    const char *files[] = {"sm90.fatbin", "debug.fatbin", "ptx100.fatbin"};
    for (size_t f = 0; f < 3; f++) {
        uint64_t n;
        uint8_t *img = load(files[f], &n);
        char err[256];
        for (uint64_t len = 0; len < n; len++) {
            uint8_t *cut = malloc(len ? (size_t)len : 1);
            memcpy(cut, img, (size_t)len);
            ck_assert_msg(!exercise(cut, len, err, sizeof err), "%s cut to %lu parsed", files[f],
                          (unsigned long)len);
            free(cut);
        }
        ck_assert(exercise(img, n, err, sizeof err));
        free(img);
    }
}
END_TEST

/* expect the modified image to fail with a message containing want */
static void expect_fail(const uint8_t *img, uint64_t n, const char *want, int line)
{
    char err[512] = "";
    uint8_t *copy = malloc((size_t)n);
    memcpy(copy, img, (size_t)n);
    fatbin_entry e[16];
    int k = fatbin_parse(copy, n, e, 16, err, sizeof err);
    if (k >= 0) { /* parse may pass: then decompression must fail */
        char *ptx;
        uint64_t len;
        int r = fatbin_select_ptx(copy, n, 90, &ptx, &len, NULL, err, sizeof err);
        ck_assert_msg(r == -1, "line %d: accepted", line);
    }
    ck_assert_msg(strstr(err, want) != NULL, "line %d: '%s' not in: %s", line, want, err);
    free(copy);
}

/* each header field out of range: a message, no out-of-bounds read */
START_TEST(test_corrupt_fields)
{
    uint64_t n;
    uint8_t *img = load("sm90.fatbin", &n);
    uint8_t *m = malloc((size_t)n);
    const uint64_t ptxe = 16 + 64 + 3840; /* the PTX entry (after the ELF one) */
#define RESET() memcpy(m, img, (size_t)n)
    RESET(); wr32(m, 0xBA55ED51u); expect_fail(m, n, "not a fatbinary", __LINE__);
    RESET(); wr16(m + 4, 2); expect_fail(m, n, "version 2", __LINE__);
    RESET(); wr16(m + 6, 15); expect_fail(m, n, "header size 15", __LINE__);
    RESET(); wr16(m + 6, 0xffff); expect_fail(m, n, "truncated", __LINE__);
    RESET(); wr64(m + 8, n - 15); expect_fail(m, n, "truncated", __LINE__);
    RESET(); wr64(m + 8, UINT64_MAX); expect_fail(m, n, "truncated", __LINE__);
    RESET(); wr64(m + 8, n - 16 - 1); expect_fail(m, n, "entry 1", __LINE__);
    RESET(); wr64(m + 8, 8); expect_fail(m, n, "entry 0 truncated", __LINE__);
    for (int which = 0; which < 2; which++) {
        uint64_t at = which ? ptxe : 16;
        RESET(); wr32(m + at + 4, 63); expect_fail(m, n, "header size 63", __LINE__);
        RESET(); wr32(m + at + 4, 0); expect_fail(m, n, "header size 0", __LINE__);
        RESET(); wr32(m + at + 4, UINT32_MAX); expect_fail(m, n, "header size", __LINE__);
        RESET(); wr64(m + at + 8, UINT64_MAX); expect_fail(m, n, "payload of", __LINE__);
        RESET(); wr64(m + at + 8, n); expect_fail(m, n, "payload of", __LINE__);
        RESET(); wr32(m + at + 32, 75); wr32(m + at + 36, 10); expect_fail(m, n, "the name at 75+10", __LINE__);
        RESET(); wr32(m + at + 32, UINT32_MAX); wr32(m + at + 36, 2); expect_fail(m, n, "the name", __LINE__);
        RESET(); wr32(m + at + 20, 76); expect_fail(m, n, "options descriptor at 76", __LINE__);
        RESET(); wr32(m + at + 20, UINT32_MAX); expect_fail(m, n, "options descriptor", __LINE__);
        RESET(); wr64(m + at + 40, 0x11 | 0x2000 | 0x8000); expect_fail(m, n, "both LZ4 and Zstandard", __LINE__);
    }
    /* the PTX entry's compression fields */
    RESET(); wr32(m + ptxe + 16, 377); expect_fail(m, n, "compressed size 377 exceeds", __LINE__);
    RESET(); wr32(m + ptxe + 0x44, 9); /* options (at 72) 9 bytes long, past the 80-byte header */
    expect_fail(m, n, "the options at 72+9", __LINE__);
    RESET(); wr64(m + ptxe + 56, 801); expect_fail(m, n, "more than the 801 bytes", __LINE__);
    RESET(); wr64(m + ptxe + 56, 803); expect_fail(m, n, "decompressed to 802 bytes, the entry declares 803", __LINE__);
    RESET(); wr64(m + ptxe + 56, 0); expect_fail(m, n, "more than the 0 bytes", __LINE__);
    RESET(); wr64(m + ptxe + 56, UINT64_MAX); expect_fail(m, n, "exceeds the limit", __LINE__);
    RESET(); wr64(m + ptxe + 56, (uint64_t)1 << 30); expect_fail(m, n, "declares 1073741824", __LINE__);
    RESET(); wr32(m + ptxe + 16, 300); expect_fail(m, n, "truncated", __LINE__);
    RESET(); wr32(m + ptxe + 16, 0); expect_fail(m, n, "truncated", __LINE__);
    RESET(); m[ptxe + 80] ^= 0xff; expect_fail(m, n, "corrupt compressed data", __LINE__);
    RESET(); wr64(m + ptxe + 40, 0x11 | 0x2000); expect_fail(m, n, "LZ4 entry", __LINE__);
    free(m);
    free(img);

    /* LZ4: a declared size beyond what the block can hold */
    img = load("sm90_lz4.fatbin", &n);
    m = malloc((size_t)n);
    RESET(); wr64(m + ptxe + 56, 1000000); expect_fail(m, n, "cannot decompress to 1000000", __LINE__);
    RESET(); wr64(m + ptxe + 56, 900); expect_fail(m, n, "LZ4 entry: ", __LINE__);
    RESET(); wr64(m + ptxe + 56, 700); expect_fail(m, n, "LZ4 entry: corrupt", __LINE__);
#undef RESET
    free(m);
    free(img);
}
END_TEST

/* every byte flipped a few ways: whatever the outcome, no crash or bad read */
START_TEST(test_byte_flips)
{
    const char *files[] = {"sm90.fatbin", "sm90_lz4.fatbin", "debug.fatbin", "sm90_all.fatbin"};
    static const uint8_t xors[] = {0x01, 0x80, 0xff};
    for (size_t f = 0; f < 4; f++) {
        uint64_t n;
        uint8_t *img = load(files[f], &n);
        uint8_t *m = malloc((size_t)n);
        char err[512];
        int ok = 0;
        for (uint64_t i = 0; i < n; i++)
            for (size_t x = 0; x < sizeof xors; x++) {
                memcpy(m, img, (size_t)n);
                m[i] ^= xors[x];
                ok += exercise(m, n, err, sizeof err);
            }
        ck_assert(ok > 0);
        free(m);
        free(img);
    }
}
END_TEST

START_TEST(test_scan_elf)
{
    fatbin_elf_info in;
    char err[512];
    ck_assert_int_eq(fatbin_scan_elf(path_of("app_shared"), 90, &in, err, sizeof err), 0);
    ck_assert(in.has_nv_fatbin && !in.has_relfatbin);
    ck_assert_int_eq(in.containers, 3); /* the device-link stub and one per unit */
    ck_assert_int_eq(in.ptx_entries, 2);
    ck_assert_int_eq(in.elf_entries, 3);
    ck_assert_uint_eq(in.ptx_arch_max, 90);
    ck_assert_uint_eq(in.ptx_usable_arch, 90);
    ck_assert_int_eq(in.cudart, FATBIN_CUDART_SHARED);
    ck_assert_str_eq(in.cudart_needed, "libcudart.so.13");
    ck_assert_int_eq(in.problem, FATBIN_ELF_OK);
    ck_assert_str_eq(in.message, "");

    ck_assert_int_eq(fatbin_scan_elf(path_of("app_shared"), 80, &in, err, sizeof err), 0);
    ck_assert_int_eq(in.problem, FATBIN_ELF_PTX_TOO_NEW);
    ASSERT_HAS(in.message, "app_shared: ");
    ASSERT_HAS(in.message, "compute_90");
    ASSERT_HAS(in.message, "-gencode arch=compute_80,code=compute_80");

    ck_assert_int_eq(fatbin_scan_elf(path_of("app_rdc"), 90, &in, err, sizeof err), 0);
    ck_assert(in.has_nv_fatbin && in.has_relfatbin);
    ck_assert_int_eq(in.ptx_entries, 2); /* in __nv_relfatbin */
    ck_assert_int_eq(in.problem, FATBIN_ELF_OK);
    ck_assert_int_eq(in.cudart, FATBIN_CUDART_SHARED);

    ck_assert_int_eq(fatbin_scan_elf(path_of("app_sass"), 90, &in, err, sizeof err), 0);
    ck_assert_int_eq(in.ptx_entries, 0);
    ck_assert_uint_eq(in.sass_arch_max, 90);
    ck_assert_int_eq(in.problem, FATBIN_ELF_NO_PTX);
    ASSERT_HAS(in.message, "only SASS (sm_90)");
    ASSERT_HAS(in.message, "-gencode arch=compute_90,code=compute_90");

    const char *stubs[] = {"static_stub", "static_stub_stripped"};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(fatbin_scan_elf(path_of(stubs[i]), 90, &in, err, sizeof err), 0);
        ck_assert_int_eq(in.cudart, FATBIN_CUDART_STATIC);
        ck_assert_int_eq(in.problem, FATBIN_ELF_STATIC_CUDART);
        ck_assert_int_eq(in.ptx_entries, 1);
        ASSERT_HAS(in.message, "rebuild with -cudart shared");
    }

    ck_assert_int_eq(fatbin_scan_elf(path_of("add.cu"), 90, &in, err, sizeof err), -1);
    ASSERT_HAS(err, "not an ELF file");
    ck_assert_int_eq(fatbin_scan_elf(path_of("no-such-file"), 90, &in, err, sizeof err), -1);
    ASSERT_HAS(err, "No such file");
    ck_assert_int_eq(fatbin_scan_elf(g_data, 90, &in, err, sizeof err), -1);
    ASSERT_HAS(err, "not a regular file");
}
END_TEST

/* an ELF file cut or with its section table damaged: errors, no bad reads */
START_TEST(test_scan_elf_corrupt)
{
    uint64_t n;
    uint8_t *img = load("app_shared", &n);
    char tmp[] = "/tmp/ptxemu-test-fatbin-XXXXXX";
    int fd = mkstemp(tmp);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    fatbin_elf_info in;
    char err[512];
    uint64_t shoff;
    memcpy(&shoff, img + 0x28, 8);
    /* lengths: inside the headers, inside the fatbin, inside the table */
    const uint64_t cuts[] = {0, 4, 63, 64, 0x1700, 0x2000, shoff + 10, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        ck_assert(freopen(tmp, "wb", f) != NULL);
        fwrite(img, 1, (size_t)cuts[i], f);
        fflush(f);
        ck_assert_int_eq(fatbin_scan_elf(tmp, 90, &in, err, sizeof err), -1);
    }
    /* every byte of the ELF header and of the section table flipped */
    uint8_t *m = malloc((size_t)n);
    for (uint64_t i = 0; i < n; i++) {
        if (i >= 64 && i < shoff) i = shoff;
        memcpy(m, img, (size_t)n);
        m[i] ^= 0xa5;
        ck_assert(freopen(tmp, "wb", f) != NULL);
        fwrite(m, 1, (size_t)n, f);
        fflush(f);
        (void)fatbin_scan_elf(tmp, 90, &in, err, sizeof err);
    }
    fclose(f);
    remove(tmp);
    free(m);
    free(img);
}
END_TEST

static Suite *fatbin_suite(void)
{
    Suite *s = suite_create("fatbin");
    TCase *tc = tcase_create("fatbin");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_parse_default);
    tcase_add_test(tc, test_decompress_matches_uncompressed);
    tcase_add_test(tc, test_compressed_elf);
    tcase_add_test(tc, test_select_multi);
    tcase_add_test(tc, test_select_arch_specific);
    tcase_add_test(tc, test_select_errors);
    tcase_add_test(tc, test_name_and_options);
    tcase_add_test(tc, test_section);
    tcase_add_test(tc, test_wrapper);
    tcase_add_test(tc, test_truncated);
    tcase_add_test(tc, test_corrupt_fields);
    tcase_add_test(tc, test_byte_flips);
    tcase_add_test(tc, test_scan_elf);
    tcase_add_test(tc, test_scan_elf_corrupt);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    find_data_dir();
    SRunner *sr = srunner_create(fatbin_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
