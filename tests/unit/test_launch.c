/* test_launch.c -- unit tests for host/launch.[ch] and host/compare.[ch].
 *
 * Test data lives in tests/unit/data/launch/ (found through $LAUNCH_TEST_DATA,
 * -DLAUNCH_TEST_DATA_DIR, $srcdir, the folder of this source file, or the
 * current folder).  The
 * golden cases in /work/shared/golden (or $PTXEMU_GOLDEN) are parsed too when
 * present; without them that test does nothing.
 */
#define _XOPEN_SOURCE 700 /* open_memstream, realpath */
#include <check.h>
#include <dirent.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/compare.h"
#include "host/launch.h"

static char g_data[4096]; /* .../tests/unit/data/launch */

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_data(const char *dir)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/printf_hello/case.txt", dir);
    struct stat st;
    return stat(p, &st) == 0;
}

static void find_data_dir(void)
{
    const char *env = getenv("LAUNCH_TEST_DATA");
    if (env && has_data(env)) {
        snprintf(g_data, sizeof g_data, "%s", env);
        return;
    }
#ifdef LAUNCH_TEST_DATA_DIR /* -DLAUNCH_TEST_DATA_DIR='"..."' from the build */
    if (has_data(LAUNCH_TEST_DATA_DIR)) {
        snprintf(g_data, sizeof g_data, "%s", LAUNCH_TEST_DATA_DIR);
        return;
    }
#endif
    char c[4096];
    const char *srcdir = getenv("srcdir");
    if (srcdir) {
        snprintf(c, sizeof c, "%s/tests/unit/data/launch", srcdir);
        if (has_data(c)) { snprintf(g_data, sizeof g_data, "%s", c); return; }
        snprintf(c, sizeof c, "%s/data/launch", srcdir);
        if (has_data(c)) { snprintf(g_data, sizeof g_data, "%s", c); return; }
    }
    /* next to this source file */
    snprintf(c, sizeof c, "%s", __FILE__);
    char *slash = strrchr(c, '/');
    if (slash) {
        snprintf(slash, sizeof c - (size_t)(slash - c), "/data/launch");
        if (has_data(c)) { snprintf(g_data, sizeof g_data, "%s", c); return; }
    }
    const char *cands[] = {"tests/unit/data/launch", "data/launch", "unit/data/launch"};
    for (size_t i = 0; i < sizeof cands / sizeof *cands; i++)
        if (has_data(cands[i])) { snprintf(g_data, sizeof g_data, "%s", cands[i]); return; }
    g_data[0] = 0;
}

/* Parse text as if it were DATA/sub/case.txt; returns the error count and
 * the diagnostics (malloc'ed) in *diag. */
static int parse_in(const char *sub, const char *text, launch_file *lf, char **diag,
                    char *vpath, size_t vcap)
{
    snprintf(vpath, vcap, "%s/%s/case.txt", g_data, sub);
    size_t dlen = 0;
    char *dbuf = NULL;
    FILE *d = open_memstream(&dbuf, &dlen);
    ck_assert_ptr_nonnull(d);
    int r = lf_parse_string(text, vpath, lf, d);
    fclose(d);
    *diag = dbuf;
    return r;
}

/* expected: diagnostics with '@' standing for the virtual path */
static void expect_errors_at(const char *sub, const char *text, const char *expected, int line)
{
    char vpath[4400];
    launch_file lf;
    char *diag;
    int r = parse_in(sub, text, &lf, &diag, vpath, sizeof vpath);
    size_t cap = strlen(expected) * 8 + strlen(vpath) * 64 + 1;
    char *want = malloc(cap);
    ck_assert_ptr_nonnull(want);
    size_t o = 0;
    int nlines = 0;
    for (const char *p = expected; *p; p++) {
        if (*p == '@') {
            memcpy(want + o, vpath, strlen(vpath));
            o += strlen(vpath);
        } else {
            if (*p == '\n') nlines++;
            want[o++] = *p;
        }
    }
    want[o] = 0;
    ck_assert_msg(strcmp(diag, want) == 0, "test at line %d:\n--- text\n%s--- got\n%s--- want\n%s",
                  line, text, diag, want);
    ck_assert_msg(r == nlines, "test at line %d: returned %d, want %d", line, r, nlines);
    /* failure leaves an empty structure */
    ck_assert_int_eq(lf.nbuffers, 0);
    ck_assert_ptr_null(lf.buffers);
    ck_assert_ptr_null(lf.path);
    lf_free(&lf);
    free(want);
    free(diag);
}
#define EXPECT_ERRORS(text, expected) expect_errors_at("err", text, expected, __LINE__)

/* Parse text that must succeed. */
static void parse_ok_at(const char *sub, const char *text, launch_file *lf, int line)
{
    char vpath[4400];
    char *diag;
    int r = parse_in(sub, text, lf, &diag, vpath, sizeof vpath);
    ck_assert_msg(r == 0, "test at line %d: %d errors:\n%s", line, r, diag);
    ck_assert_str_eq(diag, "");
    free(diag);
}
#define PARSE_OK(text, lf) parse_ok_at("err", text, lf, __LINE__)

#define HDR "ptx k.ptx\n"
#define LAUNCH "launch k grid 1 1 1 block 1 1 1 shared 0\n"

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ======================================================================
 * Golden copies (required part) and the full golden set (optional)
 * ====================================================================== */

static void parse_data_case(const char *sub, launch_file *lf)
{
    char p[4400];
    snprintf(p, sizeof p, "%s/%s/case.txt", g_data, sub);
    char *dbuf = NULL;
    size_t dlen = 0;
    FILE *d = open_memstream(&dbuf, &dlen);
    int r = lf_parse_file(p, lf, d);
    fclose(d);
    ck_assert_msg(r == 0, "%s: %s", p, dbuf);
    free(dbuf);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

START_TEST(test_golden_copy_printf_hello)
{
    launch_file lf;
    parse_data_case("printf_hello", &lf);
    ck_assert(ends_with(lf.ptx_path, "printf_hello/kernel.ptx"));
    ck_assert_int_eq(lf.ptx_line, 2);
    ck_assert_int_eq(lf.nbuffers, 1);
    ck_assert_str_eq(lf.buffers[0].name, "word");
    ck_assert_int_eq(lf.buffers[0].init, LF_INIT_FILE);
    ck_assert_uint_eq(lf.buffers[0].size, 8);
    ck_assert_ptr_nonnull(lf.buffers[0].data);
    ck_assert_int_eq(lf.nlaunches, 2);
    ck_assert_int_eq(lf.nsteps, 2);
    ck_assert_int_eq(lf.nexpects, 0);
    for (int i = 0; i < 2; i++) {
        lf_step *s = &lf.steps[i];
        ck_assert_int_eq(s->kind, LF_LAUNCH);
        ck_assert_int_eq(s->launch.index, i);
        ck_assert_str_eq(s->launch.kernel, "hello");
        ck_assert_uint_eq(s->launch.grid[0], 1);
        ck_assert_uint_eq(s->launch.block[0], 32);
        ck_assert_uint_eq(s->launch.block[1], 1);
        ck_assert_uint_eq(s->launch.shared, 0);
        ck_assert_int_eq(s->launch.has_cluster, 0);
        ck_assert_uint_eq(s->launch.cluster[0], 1);
        ck_assert_int_eq(s->launch.nargs, 4);
        lf_arg *a = s->launch.args;
        ck_assert_int_eq(a[0].kind, LF_ARG_SCALAR);
        ck_assert_int_eq(a[0].type, LF_S32);
        ck_assert_uint_eq(a[0].size, 4);
        ck_assert_int_eq(a[1].type, LF_F32);
        ck_assert_int_eq(a[2].type, LF_U64);
        ck_assert_uint_eq(a[2].size, 8);
        ck_assert_int_eq(a[3].kind, LF_ARG_PTR);
        ck_assert_int_eq(a[3].buffer, 0);
        ck_assert_uint_eq(a[3].offset, 0);
        ck_assert_uint_eq(a[3].size, 8);
    }
    ck_assert_uint_eq(lf.steps[0].launch.args[0].value, 1);
    ck_assert_uint_eq(lf.steps[0].launch.args[1].value, 0x3fa00000);
    ck_assert_uint_eq(lf.steps[0].launch.args[2].value, 18446744073709551000ull);
    ck_assert_uint_eq(lf.steps[1].launch.args[1].value, 0xbdcccccd);
    ck_assert_uint_eq(lf.steps[1].launch.args[2].value, 12345678901234ull);
    ck_assert_int_eq(lf.steps[1].line, 9);
    ck_assert(ends_with(lf.stdout_path, "printf_hello/stdout.txt"));
    ck_assert_uint_eq(lf.stdout_size, 832);
    ck_assert(strncmp((char *)lf.stdout_data, "launch 1 thread 0:", 18) == 0);
    ck_assert_int_eq(lf.stdout_data[832], 0);
    lf_free(&lf);
    lf_free(&lf); /* idempotent */
}
END_TEST

START_TEST(test_golden_copy_others)
{
    launch_file lf;
    parse_data_case("timing_sfu", &lf);
    ck_assert_int_eq(lf.nexpects, 1);
    ck_assert_int_eq(lf.expects[0].mode, CMP_F32REL);
    ck_assert(lf.expects[0].param == 1e-5);
    ck_assert_uint_eq(lf.expects[0].size, 128);
    ck_assert_int_eq(lf.expects[0].partial, 0);
    ck_assert_int_eq(lf.expects[0].target.buffer, 0);
    ck_assert_str_eq(lf.expects[0].name, "x_final");
    ck_assert(ends_with(lf.expects[0].file, "timing_sfu/x_final.out.bin"));
    ck_assert_uint_eq(lf.steps[0].launch.args[1].value, 20000);
    lf_free(&lf);

    /* the 512 MiB zero buffer is described, not allocated */
    parse_data_case("timing_dram_latency", &lf);
    ck_assert_int_eq(lf.nbuffers, 2);
    ck_assert_uint_eq(lf.buffers[0].size, 536870912ull);
    ck_assert_int_eq(lf.buffers[0].init, LF_INIT_ZERO);
    ck_assert_ptr_null(lf.buffers[0].data);
    ck_assert_int_eq(lf.nlaunches, 2);
    ck_assert_str_eq(lf.steps[1].launch.kernel, "dram_chase");
    ck_assert_int_eq(lf.steps[1].launch.args[3].buffer, 1);
    ck_assert_int_eq(lf.expects[0].mode, CMP_EXACT);
    lf_free(&lf);

    parse_data_case("timing_launch_overhead", &lf);
    ck_assert_int_eq(lf.nlaunches, 3);
    ck_assert_int_eq(lf.steps[0].launch.nargs, 0);
    ck_assert_int_eq(lf.steps[1].launch.nargs, 0);
    ck_assert_uint_eq(lf.steps[1].launch.grid[0], 132);
    ck_assert_uint_eq(lf.steps[1].launch.block[0], 1024);
    ck_assert_int_eq(lf.steps[2].launch.nargs, 1);
    lf_free(&lf);
}
END_TEST

static const char *golden_dir(void)
{
    const char *g = getenv("PTXEMU_GOLDEN");
    return g ? g : "/work/shared/golden";
}

START_TEST(test_golden_all)
{
    const char *g = golden_dir();
    DIR *d = is_dir(g) ? opendir(g) : NULL;
    if (!d) return; /* shared/ absent: nothing to do */
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s/case.txt", g, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0) continue;
        launch_file lf;
        char *dbuf = NULL;
        size_t dlen = 0;
        FILE *df = open_memstream(&dbuf, &dlen);
        int r = lf_parse_file(p, &lf, df);
        fclose(df);
        ck_assert_msg(r == 0, "%s: %s", p, dbuf);
        ck_assert_ptr_nonnull(lf.ptx_path);
        ck_assert_int_gt(lf.nlaunches, 0);
        free(dbuf);
        lf_free(&lf);
        n++;
    }
    closedir(d);
    ck_assert_int_gt(n, 0);
}
END_TEST

START_TEST(test_extensions_case)
{
    launch_file lf;
    parse_data_case("ext", &lf);
    ck_assert_int_eq(lf.nbuffers, 6);
    ck_assert_int_eq(lf.buffers[1].init, LF_INIT_RANDOM);
    ck_assert_int_eq(lf.buffers[1].type, LF_F32);
    for (int i = 0; i < 16; i++) {
        float f = bitsf(rd32(lf.buffers[1].data + 4 * i));
        ck_assert(f >= -1.0f && f <= 1.0f);
    }
    for (int i = 0; i < 16; i++) {
        int16_t v = (int16_t)rd16(lf.buffers[2].data + 2 * i);
        ck_assert(v >= -3 && v <= 3);
    }
    ck_assert_uint_eq(rd32(lf.buffers[3].data + 0), 10);
    ck_assert_uint_eq(rd32(lf.buffers[3].data + 12), 1);
    ck_assert_uint_eq(rd16(lf.buffers[4].data + 6), 0x3e00);

    /* steps: 3 symbol sets, launch, dump, symbol set, launch, dump */
    ck_assert_int_eq(lf.nsteps, 8);
    static const enum lf_step_kind kinds[8] = {LF_SYMBOL_SET, LF_SYMBOL_SET, LF_SYMBOL_SET,
                                               LF_LAUNCH,     LF_DUMP,       LF_SYMBOL_SET,
                                               LF_LAUNCH,     LF_DUMP};
    for (int i = 0; i < 8; i++) ck_assert_int_eq(lf.steps[i].kind, kinds[i]);
    lf_symset *s0 = &lf.steps[0].symset;
    ck_assert_str_eq(s0->target.symbol, "g_scale");
    ck_assert_int_eq(s0->target.buffer, -1);
    ck_assert_int_eq(s0->fill, 0);
    ck_assert_uint_eq(s0->size, 4);
    ck_assert_uint_eq(rd32(s0->data), fbits(2.5f));
    lf_symset *s1 = &lf.steps[1].symset;
    ck_assert_uint_eq(s1->size, 8);
    ck_assert_uint_eq(rd32(s1->data + 4), 22);
    lf_symset *s2 = &lf.steps[2].symset;
    ck_assert_int_eq(s2->fill, 1);
    ck_assert_uint_eq(s2->size, 4);
    ck_assert_uint_eq(rd32(s2->data), 0xdeadbeef);
    ck_assert_uint_eq(lf.steps[5].symset.target.offset, 4);

    lf_launch *L = &lf.steps[3].launch;
    ck_assert_int_eq(L->has_cluster, 1);
    ck_assert_uint_eq(L->cluster[0], 2);
    ck_assert_uint_eq(L->shared, 1024);
    ck_assert_int_eq(L->nargs, 8);
    ck_assert_int_eq(L->args[1].buffer, 5);
    ck_assert_uint_eq(L->args[1].offset, 8);
    ck_assert_uint_eq(L->args[2].value, 0x10);
    ck_assert_uint_eq(L->args[3].value, 0xfffffff0u);
    ck_assert_uint_eq(L->args[4].value, 0x3fc00000u);
    ck_assert_uint_eq(L->args[5].value, dbits(-2e-3));
    ck_assert_int_eq(L->args[6].type, LF_F16);
    ck_assert_uint_eq(L->args[6].size, 2);
    ck_assert_uint_eq(L->args[6].value, 0x3c00);
    ck_assert_int_eq(L->args[7].kind, LF_ARG_BYTES);
    ck_assert_uint_eq(L->args[7].size, 16);
    static const uint8_t want_bytes[16] = {1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
    ck_assert_mem_eq(L->args[7].bytes, want_bytes, 16);

    lf_dump *d0 = &lf.steps[4].dump;
    ck_assert_int_eq(d0->target.buffer, 5);
    ck_assert(ends_with(d0->file, "ext/out0.bin"));
    lf_dump *d1 = &lf.steps[7].dump;
    ck_assert_int_eq(d1->target.buffer, -1);
    ck_assert_str_eq(d1->target.symbol, "g_table");

    ck_assert_int_eq(lf.nexpects, 5);
    lf_expect *e = lf.expects;
    ck_assert_int_eq(e[0].mode, CMP_F32ULP);
    ck_assert(e[0].param == 1);
    ck_assert_int_eq(e[0].partial, 0);
    ck_assert_uint_eq(e[0].size, 16);
    ck_assert_str_eq(e[1].name, "out+4");
    ck_assert_uint_eq(e[1].target.offset, 4);
    ck_assert_int_eq(e[1].partial, 1);
    ck_assert_uint_eq(e[1].size, 8);
    ck_assert_ptr_null(e[1].file);
    ck_assert_uint_eq(rd32(e[1].data + 4), 2);
    ck_assert_int_eq(e[2].mode, CMP_F32REL);
    ck_assert(isnan(bitsf(rd32(e[2].data + 4))));
    ck_assert_int_eq(e[3].target.buffer, -1);
    ck_assert_str_eq(e[3].target.symbol, "g_flags");
    ck_assert_str_eq(e[3].name, "symbol:g_flags");
    ck_assert_int_eq(e[4].partial, 0);
    ck_assert_uint_eq(e[4].size, 8);
    ck_assert_uint_eq(lf.stdout_size, 22);
    lf_free(&lf);
}
END_TEST

/* ======================================================================
 * Error messages
 * ====================================================================== */

START_TEST(test_errors_brief)
{
    /* the messages named in the brief */
    EXPECT_ERRORS(HDR "buffer a 16 zero\n" LAUNCH "arg ptr a\narg ptr c2\n",
                  "@:5: error: unknown buffer 'c2' in arg ptr\n");
    EXPECT_ERRORS(HDR "buffer a 100 file a96.bin\n",
                  "@:2: error: buffer 'a' size 100 does not match file a96.bin (96 bytes)\n");
    EXPECT_ERRORS(HDR "# comment\n\narg u32 1\n", "@:4: error: 'arg' before any 'launch'\n");
    EXPECT_ERRORS(HDR "lanch k\n", "@:2: error: unknown directive 'lanch'\n");
    EXPECT_ERRORS(HDR "buffer a 16\n",
                  "@:2: error: wrong number of tokens for 'buffer' (expected 'buffer NAME BYTES "
                  "zero|file|random|ramp|fill ...')\n");
    EXPECT_ERRORS(HDR "buffer a 16 zero please\n",
                  "@:2: error: wrong number of tokens for 'buffer' (expected 'buffer NAME BYTES "
                  "zero')\n");
    EXPECT_ERRORS(HDR "launch k grid 1 1 1 block 1 1 1 shared\n",
                  "@:2: error: wrong number of tokens for 'launch' (expected 'launch KERNEL grid "
                  "GX GY GZ block BX BY BZ shared DYN [cluster CX CY CZ]')\n");
    EXPECT_ERRORS(HDR LAUNCH "arg u32\narg u32 1 2\n",
                  "@:3: error: wrong number of tokens for 'arg' (expected 'arg TYPE VALUE')\n"
                  "@:4: error: wrong number of tokens for 'arg' (expected 'arg TYPE VALUE')\n");
    EXPECT_ERRORS(HDR "ptx\n", "@:2: error: wrong number of tokens for 'ptx' (expected 'ptx FILE')\n");
    EXPECT_ERRORS(HDR LAUNCH "arg u32 12a\narg u32 0x\narg u32 --1\narg s32 1.5\n",
                  "@:3: error: bad number '12a' for u32\n"
                  "@:4: error: bad number '0x' for u32\n"
                  "@:5: error: bad number '--1' for u32\n"
                  "@:6: error: bad number '1.5' for s32\n");
    EXPECT_ERRORS(HDR "buffer a 1k zero\n", "@:2: error: bad number '1k' for buffer size\n");
    EXPECT_ERRORS(HDR LAUNCH
                  "arg u8 256\narg s8 -129\narg s8 128\narg u32 -1\narg s32 2147483648\n"
                  "arg s32 0x100000000\narg u64 18446744073709551616\narg s64 -9223372036854775809\n"
                  "arg u16 65536\narg s16 -32769\n",
                  "@:3: error: value '256' out of range for u8\n"
                  "@:4: error: value '-129' out of range for s8\n"
                  "@:5: error: value '128' out of range for s8\n"
                  "@:6: error: value '-1' out of range for u32\n"
                  "@:7: error: value '2147483648' out of range for s32\n"
                  "@:8: error: value '0x100000000' out of range for s32\n"
                  "@:9: error: value '18446744073709551616' out of range for u64\n"
                  "@:10: error: value '-9223372036854775809' out of range for s64\n"
                  "@:11: error: value '65536' out of range for u16\n"
                  "@:12: error: value '-32769' out of range for s16\n");
    EXPECT_ERRORS(HDR LAUNCH "arg f32 1e40\narg f16 70000\narg f32 0x100000000\narg f64 1e400\n"
                  "arg f32 abc\narg f32 -0x3f800000\narg f16 0x10000\n",
                  "@:3: error: value '1e40' out of range for f32\n"
                  "@:4: error: value '70000' out of range for f16\n"
                  "@:5: error: value '0x100000000' out of range for f32\n"
                  "@:6: error: value '1e400' out of range for f64\n"
                  "@:7: error: bad f32 value 'abc'\n"
                  "@:8: error: bad f32 value '-0x3f800000'\n"
                  "@:9: error: value '0x10000' out of range for f16\n");
    EXPECT_ERRORS(HDR "buffer a 16 zero\nbuffer a 16 zero\n",
                  "@:3: error: duplicate buffer 'a' (first defined at line 2)\n");
    EXPECT_ERRORS(HDR "expect zz a96.bin exact\n", "@:2: error: unknown buffer 'zz' in expect\n");
    EXPECT_ERRORS(HDR "buffer b 16 zero\nexpect b b16.bin f33ulp 2\n",
                  "@:3: error: unknown compare mode 'f33ulp'\n");
    EXPECT_ERRORS("buffer a 16 zero\n", "@:1: error: missing 'ptx' line\n");
    EXPECT_ERRORS("buffer a 16 zero\n\n# end\n", "@:3: error: missing 'ptx' line\n");
    EXPECT_ERRORS("", "@:1: error: missing 'ptx' line\n");
}
END_TEST

START_TEST(test_errors_more)
{
    /* ptx */
    EXPECT_ERRORS(HDR HDR, "@:2: error: duplicate 'ptx' line (first at line 1)\n");
    EXPECT_ERRORS(LAUNCH HDR, "@:2: error: 'ptx' line after the first 'launch'\n");
    EXPECT_ERRORS("ptx nothere.ptx\n",
                  "@:1: error: cannot open file nothere.ptx: No such file or directory\n");
    EXPECT_ERRORS("ptx .\n", "@:1: error: cannot read file .: not a regular file\n");
    /* args must directly follow their launch */
    EXPECT_ERRORS(HDR "buffer a 16 zero\n" LAUNCH "arg ptr a\n# c\n\nbuffer b 16 zero\narg ptr b\n",
                  "@:8: error: 'arg' does not follow its 'launch' (line 7 ended the launch at line 3)\n");
    EXPECT_ERRORS(HDR LAUNCH "arg q32 1\narg ptr\n",
                  "@:3: error: unknown arg type 'q32'\n"
                  "@:4: error: wrong number of tokens for 'arg' (expected 'arg ptr NAME[+OFFSET]')\n");
    /* pointer offsets */
    EXPECT_ERRORS(HDR "buffer a 16 zero\n" LAUNCH "arg ptr a+16\narg ptr a+17\narg ptr a+x\n"
                  "arg ptr symbol:g\n",
                  "@:5: error: offset 17 is beyond the end of buffer 'a' (16 bytes) in arg ptr\n"
                  "@:6: error: bad number 'x' for offset\n"
                  "@:7: error: arg ptr needs a buffer, not 'symbol:g'\n");
    /* launch geometry */
    EXPECT_ERRORS(HDR "launch k grid 1 1 1 block 32 33 1 shared 0\n"
                  "launch k grid 0 1 1 block 1 1 65 shared 0\n"
                  "launch k grid 1 65536 1 block 1 1 1 shared 0\n"
                  "launch k grid 3 1 1 block 1 1 1 shared 0 cluster 2 1 1\n"
                  "launch k grid 1 1 1 block 1 1 1 shared 0 clusters 1 1 1\n"
                  "launch k grod 1 1 1 block 1 1 1 shared 0\n"
                  "launch 1k grid 1 1 1 block 1 1 1 shared 0\n"
                  "launch k grid 1 1 1 block 1 1 1 shared 4294967296\n",
                  "@:2: error: block 32x33x1 has 1056 threads, more than 1024\n"
                  "@:3: error: grid x '0' out of range (1 to 2147483647)\n"
                  "@:3: error: block z '65' out of range (1 to 64)\n"
                  "@:4: error: grid y '65536' out of range (1 to 65535)\n"
                  "@:5: error: grid x 3 is not a multiple of cluster x 2\n"
                  "@:6: error: malformed 'launch' line (expected 'launch KERNEL grid GX GY GZ block "
                  "BX BY BZ shared DYN [cluster CX CY CZ]')\n"
                  "@:7: error: malformed 'launch' line (expected 'launch KERNEL grid GX GY GZ block "
                  "BX BY BZ shared DYN [cluster CX CY CZ]')\n"
                  "@:8: error: bad kernel name '1k'\n"
                  "@:9: error: shared '4294967296' out of range (0 to 4294967295)\n");
    /* a bad launch line still collects its args (no cascade) */
    EXPECT_ERRORS(HDR "launch k grid 1 1\narg u32 1\narg u32 x\n",
                  "@:2: error: wrong number of tokens for 'launch' (expected 'launch KERNEL grid GX "
                  "GY GZ block BX BY BZ shared DYN [cluster CX CY CZ]')\n"
                  "@:4: error: bad number 'x' for u32\n");
    /* buffers */
    EXPECT_ERRORS(HDR "buffer 1a 16 zero\nbuffer a+b 16 zero\nbuffer a 0 zero\n"
                  "buffer b 4294967297 zero\nbuffer c 16 fake\nbuffer d 16 file nothere.bin\n",
                  "@:2: error: bad buffer name '1a'\n"
                  "@:3: error: bad buffer name 'a+b'\n"
                  "@:4: error: buffer size '0' out of range (1 to 4294967296)\n"
                  "@:5: error: buffer size '4294967297' out of range (1 to 4294967296)\n"
                  "@:6: error: unknown buffer kind 'fake' (zero, file, random, ramp, fill)\n"
                  "@:7: error: cannot open file nothere.bin: No such file or directory\n");
    EXPECT_ERRORS(HDR "buffer a 4294967296 zero\nbuffer b 4294967296 zero\nbuffer c 4294967296 zero\n"
                  "buffer d 4294967296 zero\nbuffer e 1 zero\n",
                  "@:6: error: buffer 'e' would bring all buffers to 17179869185 bytes, over the "
                  "limit of 17179869184\n");
    /* a buffer whose line had an error still exists (no cascade) */
    EXPECT_ERRORS(HDR "buffer a 100 file a96.bin\n" LAUNCH "arg ptr a+4\nexpect a a96.bin exact\n",
                  "@:2: error: buffer 'a' size 100 does not match file a96.bin (96 bytes)\n");
    /* generators */
    EXPECT_ERRORS(HDR "buffer a 10 random f32 1\nbuffer b 16 random f32 1 2 1\n"
                  "buffer c 16 random u32 -1\nbuffer d 16 ramp u32 x 1\nbuffer e 16 fill u128 0\n"
                  "buffer f 16 fill u8 256\nbuffer g 16 random f32 1 0 inf\n"
                  "buffer h 16 random s32 1 5 -5\nbuffer i 16 ramp u8 0 -9223372036854775809\n"
                  "buffer j 16 random f32 1 0\nbuffer k 16 ramp f32 0 1e999\n",
                  "@:2: error: buffer 'a' size 10 is not a multiple of 4 (f32 elements)\n"
                  "@:3: error: random range '2' > '1'\n"
                  "@:4: error: bad seed '-1' (a number from 0 to 2^64-1)\n"
                  "@:5: error: bad number 'x' for u32\n"
                  "@:6: error: unknown type 'u128'\n"
                  "@:7: error: value '256' out of range for u8\n"
                  "@:8: error: random range must be finite\n"
                  "@:9: error: random range '5' > '-5'\n"
                  "@:10: error: ramp step '-9223372036854775809' out of range (-2^63 to 2^64-1)\n"
                  "@:11: error: wrong number of tokens for 'buffer' (expected 'buffer NAME BYTES "
                  "random TYPE SEED [LO HI]')\n"
                  "@:12: error: value '1e999' out of range for f64\n");
    /* expects */
    EXPECT_ERRORS(HDR "buffer b 16 zero\nbuffer o 6 zero\n"
                  "expect b a96.bin exact\n"
                  "expect b b16.bin f32ulp\n"
                  "expect b b16.bin exact 1\n"
                  "expect b b16.bin f32rel -1\n"
                  "expect b b16.bin f32ulp 1.5\n"
                  "expect b b16.bin\n"
                  "expect b value u8 1 2 3 f32ulp 1\n"
                  "expect b+12 value u32 1 2\n"
                  "expect b value u32\n"
                  "expect b value x32 1\n"
                  "expect b nothere.bin exact\n"
                  "expect o value u16 1 f32ulp 1 2\n"
                  "expect b+20 b16.bin exact\n",
                  "@:4: error: expect 'b': file a96.bin is 96 bytes, buffer is 16 bytes\n"
                  "@:5: error: compare mode 'f32ulp' needs a parameter\n"
                  "@:6: error: compare mode 'exact' takes no parameter (got '1')\n"
                  "@:7: error: tolerance '-1' must be a finite number >= 0\n"
                  "@:8: error: bad number '1.5' for ulp count\n"
                  "@:9: error: wrong number of tokens for 'expect' (expected 'expect NAME FILE "
                  "MODE | expect NAME value TYPE V... [MODE]')\n"
                  "@:10: error: expect 'b': 3 bytes is not a multiple of the f32ulp element size (4)\n"
                  "@:11: error: expect 'b+12': 8 expected bytes at offset 12 run past the end of the "
                  "buffer (16 bytes)\n"
                  "@:12: error: no values given\n"
                  "@:13: error: unknown type 'x32'\n"
                  "@:14: error: cannot open file nothere.bin: No such file or directory\n"
                  "@:15: error: extra token '2' after compare mode 'f32ulp'\n"
                  "@:16: error: offset 20 is beyond the end of buffer 'b' (16 bytes) in expect\n");
    EXPECT_ERRORS(HDR "buffer o 6 zero\nexpect o value u16 1 2 3 f32ulp 1\n",
                  "@:3: error: expect 'o': 6 bytes is not a multiple of the f32ulp element size (4)\n");
    /* symbols, dumps, stdout */
    EXPECT_ERRORS(HDR "buffer b 16 zero\n"
                  "symbol 9g value u32 1\n"
                  "symbol g poke u32 1\n"
                  "symbol g fill u32 1 2\n"
                  "symbol g+4 fill u32 1\n"
                  "symbol g value u32\n"
                  "symbol g file nothere.bin\n"
                  "symbol symbol:g value u32 1\n"
                  "dump b+4 x.bin\n"
                  "dump zz x.bin\n"
                  "dump b\n"
                  "expect symbol:1x b16.bin exact\n",
                  "@:3: error: bad symbol name '9g'\n"
                  "@:4: error: unknown symbol action 'poke' (file, value, fill)\n"
                  "@:5: error: wrong number of tokens for 'symbol' (expected 'symbol SYM fill TYPE "
                  "VALUE')\n"
                  "@:6: error: 'symbol ... fill' covers the whole variable and takes no +OFFSET\n"
                  "@:7: error: no values given\n"
                  "@:8: error: cannot open file nothere.bin: No such file or directory\n"
                  "@:9: error: write 'symbol NAME', not 'symbol symbol:NAME'\n"
                  "@:10: error: dump takes no +OFFSET: 'b+4'\n"
                  "@:11: error: unknown buffer 'zz' in dump\n"
                  "@:12: error: wrong number of tokens for 'dump' (expected 'dump NAME FILE')\n"
                  "@:13: error: bad symbol name '1x' in expect\n");
    EXPECT_ERRORS(HDR "stdout b16.bin\nstdout b16.bin\nstdout\n",
                  "@:3: error: duplicate 'stdout' line (first at line 2)\n"
                  "@:4: error: wrong number of tokens for 'stdout' (expected 'stdout FILE')\n");
    /* bytes */
    EXPECT_ERRORS(HDR LAUNCH "arg bytes 123\narg bytes zz\narg bytes 0x\narg bytes\n",
                  "@:3: error: bad hex bytes '123' (an even number of hex digits)\n"
                  "@:4: error: bad hex bytes 'zz' (an even number of hex digits)\n"
                  "@:5: error: bad hex bytes '0x' (an even number of hex digits)\n"
                  "@:6: error: wrong number of tokens for 'arg' (expected 'arg bytes HEX [HEX ...]')\n");
    /* odd characters are escaped in messages */
    EXPECT_ERRORS(HDR "\x01\xff\\x\n", "@:2: error: unknown directive '\\x01\\xff\\x5cx'\n");
    /* errors are collected in order, several per file */
    EXPECT_ERRORS("buffer a 100 file a96.bin\narg u32 1\nlaunch k grid 1 1 1 block 1 1 1 shared 0\n"
                  "arg ptr c2\nbogus\nexpect zz a96.bin exact\n",
                  "@:1: error: buffer 'a' size 100 does not match file a96.bin (96 bytes)\n"
                  "@:2: error: 'arg' before any 'launch'\n"
                  "@:4: error: unknown buffer 'c2' in arg ptr\n"
                  "@:5: error: unknown directive 'bogus'\n"
                  "@:6: error: unknown buffer 'zz' in expect\n"
                  "@:6: error: missing 'ptx' line\n");
}
END_TEST

START_TEST(test_errors_misc)
{
    /* NUL bytes */
    char vpath[4400];
    launch_file lf;
    snprintf(vpath, sizeof vpath, "%s/err/case.txt", g_data);
    static const char text[] = "ptx k.ptx\nbuf\0fer a 16 zero\n";
    char *dbuf = NULL;
    size_t dlen = 0;
    FILE *d = open_memstream(&dbuf, &dlen);
    int r = lf_parse_mem(text, sizeof text - 1, vpath, &lf, d);
    fclose(d);
    ck_assert_int_eq(r, 1);
    ck_assert(strstr(dbuf, "case.txt:2: error: NUL byte in line\n") != NULL);
    free(dbuf);

    /* too many errors: stops after LF_MAX_ERRORS */
    size_t cap = 200 * 16 + 32;
    char *many = malloc(cap);
    size_t o = (size_t)snprintf(many, cap, HDR);
    for (int i = 0; i < 200; i++) o += (size_t)snprintf(many + o, cap - o, "bogus %d\n", i);
    dbuf = NULL;
    d = open_memstream(&dbuf, &dlen);
    r = lf_parse_string(many, vpath, &lf, d);
    fclose(d);
    ck_assert_int_eq(r, LF_MAX_ERRORS);
    int lines = 0;
    for (char *p = dbuf; *p; p++) lines += *p == '\n';
    ck_assert_int_eq(lines, LF_MAX_ERRORS + 1);
    ck_assert(strstr(dbuf, "case.txt:102: error: too many errors, giving up\n") != NULL);
    free(dbuf);
    free(many);

    /* silent mode counts all the same */
    r = lf_parse_string("bogus\nbogus\n", vpath, &lf, NULL);
    ck_assert_int_eq(r, 3);

    /* lf_parse_file on missing files and on folders */
    dbuf = NULL;
    d = open_memstream(&dbuf, &dlen);
    r = lf_parse_file("/nonexistent/case.txt", &lf, d);
    fclose(d);
    ck_assert_int_eq(r, 1);
    ck_assert_str_eq(dbuf, "/nonexistent/case.txt:0: error: cannot read launch file: No such file or "
                           "directory\n");
    free(dbuf);
    dbuf = NULL;
    d = open_memstream(&dbuf, &dlen);
    r = lf_parse_file(g_data, &lf, d);
    fclose(d);
    ck_assert_int_eq(r, 1);
    ck_assert(strstr(dbuf, "error: cannot read launch file: Is a directory") != NULL);
    free(dbuf);
    lf_free(&lf);
    lf_free(NULL);
}
END_TEST

/* ======================================================================
 * Values and generators
 * ====================================================================== */

START_TEST(test_arg_values)
{
    launch_file lf;
    PARSE_OK(HDR "buffer a 16 zero\n" LAUNCH
             "arg u8 255\narg s8 -128\narg s8 0xff\narg u16 0xFFFF\narg s16 -32768\n"
             "arg u32 4294967295\narg s32 0xffffffff\narg s32 -0x10\narg u64 0xffffffffffffffff\n"
             "arg s64 -9223372036854775808\narg s64 9223372036854775807\n"
             "arg f32 1.5\narg f32 -2e-3\narg f32 inf\narg f32 -0\narg f32 1e-50\narg f64 0.1\n"
             "arg f16 65504\narg f16 -nan\narg ptr a+0x10\narg u32 -0\narg bytes 0xAb\n"
             "arg f16 1e-9\narg f32 0x7fc00001\n",
             &lf);
    lf_arg *a = lf.steps[0].launch.args;
    ck_assert_int_eq(lf.steps[0].launch.nargs, 24);
    ck_assert_uint_eq(a[0].value, 255);
    ck_assert_uint_eq(a[1].value, 0x80);
    ck_assert_uint_eq(a[2].value, 0xff);
    ck_assert_uint_eq(a[3].value, 0xffff);
    ck_assert_uint_eq(a[4].value, 0x8000);
    ck_assert_uint_eq(a[5].value, 0xffffffffu);
    ck_assert_uint_eq(a[6].value, 0xffffffffu);
    ck_assert_uint_eq(a[7].value, 0xfffffff0u);
    ck_assert_uint_eq(a[8].value, UINT64_MAX);
    ck_assert_uint_eq(a[9].value, 0x8000000000000000ull);
    ck_assert_uint_eq(a[10].value, 0x7fffffffffffffffull);
    ck_assert_uint_eq(a[11].value, 0x3fc00000u);
    ck_assert_uint_eq(a[12].value, fbits(-2e-3f));
    ck_assert_uint_eq(a[13].value, 0x7f800000u);
    ck_assert_uint_eq(a[14].value, 0x80000000u);
    ck_assert_uint_eq(a[15].value, 0); /* underflow to zero is accepted */
    ck_assert_uint_eq(a[16].value, dbits(0.1));
    ck_assert_uint_eq(a[17].value, 0x7bff);
    ck_assert_uint_eq(a[18].value & 0x7c00, 0x7c00);
    ck_assert_uint_ne(a[18].value & 0x3ff, 0);
    ck_assert_int_eq(a[19].buffer, 0);
    ck_assert_uint_eq(a[19].offset, 16);
    ck_assert_uint_eq(a[20].value, 0);
    ck_assert_uint_eq(a[21].size, 1);
    ck_assert_uint_eq(a[21].bytes[0], 0xab);
    ck_assert_uint_eq(a[22].value, 0);
    ck_assert_uint_eq(a[23].value, 0x7fc00001u);
    for (int i = 0; i < 24; i++) ck_assert_int_eq(a[i].line, 4 + i);
    lf_free(&lf);

    /* tabs, CR LF, comments after tokens, leading blanks */
    PARSE_OK("  ptx\tk.ptx   # the module\r\n\tbuffer a 16 zero\r\n" LAUNCH "arg ptr a#x\r\n", &lf);
    ck_assert_int_eq(lf.steps[0].launch.args[0].buffer, 0);
    ck_assert_ptr_null(lf.stdout_path);
    lf_free(&lf);

    /* a file name relative to the launch file's folder, and an absolute one */
    char text[5000], abs_data[PATH_MAX];
    ck_assert_ptr_nonnull(realpath(g_data, abs_data));
    snprintf(text, sizeof text, "ptx %s/err/k.ptx\nbuffer a 16 file ../err/b16.bin\n", abs_data);
    PARSE_OK(text, &lf);
    ck_assert(ends_with(lf.buffers[0].file, "err/../err/b16.bin"));
    lf_free(&lf);
}
END_TEST

START_TEST(test_splitmix64)
{
    /* reference values of Vigna's splitmix64 */
    uint64_t s = 1234567;
    ck_assert_uint_eq(lf_splitmix64(&s), 6457827717110365317ull);
    ck_assert_uint_eq(lf_splitmix64(&s), 3203168211198807973ull);
    ck_assert_uint_eq(lf_splitmix64(&s), 9817491932198370423ull);
    s = 0;
    ck_assert_uint_eq(lf_splitmix64(&s), 0xe220a8397b1dcdafull);
}
END_TEST

START_TEST(test_generator_random)
{
    launch_file lf;
    PARSE_OK(HDR "buffer a 64 random u32 99\n"
                 "buffer b 4000 random s8 5 -3 3\n"
                 "buffer c 64 random u64 1 0 0xffffffffffffffff\n"
                 "buffer d 4000 random f32 3\n"
                 "buffer e 4000 random f64 3 -2.5 -1\n"
                 "buffer f 2000 random f16 3 -1 1\n"
                 "buffer g 800 random s64 8 -9223372036854775808 9223372036854775807\n"
                 "buffer h 16 random u16 8 7 7\n"
                 "buffer i 1000 random u8 12 250 255\n",
             &lf);
    uint64_t s = 99;
    for (int i = 0; i < 16; i++)
        ck_assert_uint_eq(rd32(lf.buffers[0].data + 4 * i), (uint32_t)lf_splitmix64(&s));
    int seen[7] = {0};
    s = 5;
    for (int i = 0; i < 4000; i++) {
        int v = (int8_t)lf.buffers[1].data[i];
        ck_assert(v >= -3 && v <= 3);
        ck_assert_int_eq(v, -3 + (int)(lf_splitmix64(&s) % 7));
        seen[v + 3] = 1;
    }
    for (int i = 0; i < 7; i++) ck_assert(seen[i]);
    s = 1;
    for (int i = 0; i < 8; i++) ck_assert_uint_eq(rd64(lf.buffers[2].data + 8 * i), lf_splitmix64(&s));
    s = 3;
    for (int i = 0; i < 1000; i++) {
        float f = bitsf(rd32(lf.buffers[3].data + 4 * i));
        ck_assert(f >= 0.0f && f <= 1.0f);
        double u = (double)(lf_splitmix64(&s) >> 11) * 0x1p-53;
        ck_assert(f == (float)u);
    }
    for (int i = 0; i < 500; i++) {
        double d;
        memcpy(&d, lf.buffers[4].data + 8 * i, 8);
        ck_assert(d >= -2.5 && d <= -1);
    }
    for (int i = 0; i < 1000; i++) {
        double h = cmp_f16_to_double(rd16(lf.buffers[5].data + 2 * i));
        ck_assert(h >= -1 && h <= 1);
    }
    s = 8; /* LO + x mod 2^64 */
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(rd64(lf.buffers[6].data + 8 * i),
                          0x8000000000000000ull + lf_splitmix64(&s));
    for (int i = 0; i < 8; i++) ck_assert_uint_eq(rd16(lf.buffers[7].data + 2 * i), 7);
    for (int i = 0; i < 1000; i++) ck_assert(lf.buffers[8].data[i] >= 250);
    lf_free(&lf);

    /* same seed, same contents; different seed, different contents */
    launch_file l2;
    PARSE_OK(HDR "buffer a 64 random u32 99\nbuffer b 64 random u32 100\n", &l2);
    PARSE_OK(HDR "buffer a 64 random u32 99\n", &lf);
    ck_assert_mem_eq(lf.buffers[0].data, l2.buffers[0].data, 64);
    ck_assert(memcmp(l2.buffers[0].data, l2.buffers[1].data, 64) != 0);
    lf_free(&lf);
    lf_free(&l2);
}
END_TEST

START_TEST(test_generator_ramp_fill)
{
    launch_file lf;
    PARSE_OK(HDR "buffer a 16 ramp u32 100 -1\n"
                 "buffer b 8 ramp u8 254 1\n"
                 "buffer c 8 ramp s16 -2 0x10\n"
                 "buffer d 16 ramp f32 0 0.5\n"
                 "buffer e 24 ramp f64 1 0.1\n"
                 "buffer f 8 ramp f16 1 0x3c00\n"
                 "buffer g 6 fill f16 1.5\n"
                 "buffer h 16 fill f64 0x3ff0000000000001\n"
                 "buffer i 3 fill s8 -1\n"
                 "buffer j 16 ramp u64 0xfffffffffffffffe 1\n"
                 "buffer k 16 ramp s64 -1 -9223372036854775808\n",
             &lf);
    static const uint32_t wa[4] = {100, 99, 98, 97};
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(rd32(lf.buffers[0].data + 4 * i), wa[i]);
    static const uint8_t wb[8] = {254, 255, 0, 1, 2, 3, 4, 5};
    ck_assert_mem_eq(lf.buffers[1].data, wb, 8);
    static const int16_t wc[4] = {-2, 14, 30, 46};
    for (int i = 0; i < 4; i++) ck_assert_int_eq((int16_t)rd16(lf.buffers[2].data + 2 * i), wc[i]);
    for (int i = 0; i < 4; i++) ck_assert(bitsf(rd32(lf.buffers[3].data + 4 * i)) == 0.5f * i);
    for (int i = 0; i < 3; i++) ck_assert_uint_eq(rd64(lf.buffers[4].data + 8 * i), dbits(1 + i * 0.1));
    static const uint16_t wf[4] = {0x3c00, 0x4000, 0x4200, 0x4400};
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(rd16(lf.buffers[5].data + 2 * i), wf[i]);
    for (int i = 0; i < 3; i++) ck_assert_uint_eq(rd16(lf.buffers[6].data + 2 * i), 0x3e00);
    for (int i = 0; i < 2; i++)
        ck_assert_uint_eq(rd64(lf.buffers[7].data + 8 * i), 0x3ff0000000000001ull);
    static const uint8_t wi[3] = {0xff, 0xff, 0xff};
    ck_assert_mem_eq(lf.buffers[8].data, wi, 3);
    ck_assert_uint_eq(rd64(lf.buffers[9].data), 0xfffffffffffffffeull);
    ck_assert_uint_eq(rd64(lf.buffers[9].data + 8), 0xffffffffffffffffull);
    ck_assert_uint_eq(rd64(lf.buffers[10].data + 8), 0x7fffffffffffffffull);
    ck_assert_int_eq(lf.buffers[6].init, LF_INIT_FILL);
    ck_assert_int_eq(lf.buffers[6].type, LF_F16);
    ck_assert_int_eq(lf.buffers[0].init, LF_INIT_RAMP);
    lf_free(&lf);
}
END_TEST

START_TEST(test_types)
{
    for (int t = 0; t < LF_TYPE_COUNT; t++) {
        ck_assert_int_eq(lf_type_from_name(lf_type_name((enum lf_type)t)), t);
        ck_assert_uint_gt(lf_type_size((enum lf_type)t), 0);
    }
    ck_assert_int_eq(lf_type_from_name("b32"), -1);
    ck_assert_uint_eq(lf_type_size(LF_F16), 2);
    ck_assert_uint_eq(lf_type_size(LF_S64), 8);
    for (int m = 0; m < CMP_MODE_COUNT; m++)
        ck_assert_int_eq(cmp_mode_from_name(cmp_mode_name((enum cmp_mode)m)), m);
    ck_assert_int_eq(cmp_mode_from_name("f32"), -1);
}
END_TEST

/* ======================================================================
 * Compare
 * ====================================================================== */

static int cmp32(const uint32_t *a, const uint32_t *e, size_t n, enum cmp_mode m, double p,
                 cmp_result *r)
{
    return cmp_buffers((const uint8_t *)a, (const uint8_t *)e, n * 4, m, p, r);
}

static char *report(const char *name, enum cmp_mode m, double p, const cmp_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cmp_report(f, name, m, p, r);
    fclose(f);
    return buf;
}

#define CHECK_REPORT(name, m, p, r, want)                 \
    do {                                                  \
        char *got_ = report(name, m, p, r);               \
        ck_assert_str_eq(got_, want);                     \
        free(got_);                                       \
    } while (0)

START_TEST(test_cmp_exact)
{
    cmp_result r;
    uint32_t a[4] = {1, 2, 3, 4}, e[4] = {1, 5, 3, 6};
    ck_assert_int_eq(cmp32(a, a, 4, CMP_EXACT, 0, &r), 1);
    CHECK_REPORT("c", CMP_EXACT, 0, &r, "c: ok (16 bytes, exact)\n");
    ck_assert_int_eq(cmp32(a, e, 4, CMP_EXACT, 0, &r), 0);
    ck_assert_uint_eq(r.first, 1);
    ck_assert_uint_eq(r.mismatches, 2);
    ck_assert_uint_eq(r.nelems, 4);
    CHECK_REPORT("c", CMP_EXACT, 0, &r,
                 "c: MISMATCH at element 1: expected 0x00000005, got 0x00000002 (2 of 4 elements "
                 "differ)\n");
    /* -0 and +0 differ in exact mode, NaN == NaN only bitwise */
    uint32_t z[1] = {0x80000000u}, pz[1] = {0};
    ck_assert_int_eq(cmp32(z, pz, 1, CMP_EXACT, 0, &r), 0);
    /* bytes when the size is not a multiple of 4 */
    uint8_t b1[6] = {1, 2, 3, 4, 5, 6}, b2[6] = {1, 2, 3, 4, 5, 7};
    ck_assert_int_eq(cmp_buffers(b1, b2, 6, CMP_EXACT, 0, &r), 0);
    ck_assert_uint_eq(r.elem_size, 1);
    ck_assert_uint_eq(r.first, 5);
    CHECK_REPORT("b", CMP_EXACT, 0, &r,
                 "b: MISMATCH at element 5: expected 0x07, got 0x06 (1 of 6 elements differ)\n");
    ck_assert_int_eq(cmp_buffers(b1, b2, 0, CMP_EXACT, 0, &r), 1);
    ck_assert_int_eq(cmp_buffers(b1, b2, 5, CMP_EXACT, 0, NULL), 1);
    /* sizes */
    ck_assert_int_eq(cmp_buffers_sized(b1, 6, b2, 5, CMP_EXACT, 0, &r), 0);
    ck_assert_int_eq(r.size_mismatch, 1);
    CHECK_REPORT("b", CMP_EXACT, 0, &r, "b: MISMATCH in size: expected 5 bytes, got 6 bytes\n");
    ck_assert_int_eq(cmp_buffers_sized(b1, 5, b2, 5, CMP_EXACT, 0, &r), 1);
    ck_assert_int_eq(r.size_mismatch, 0);
}
END_TEST

START_TEST(test_cmp_f32ulp)
{
    cmp_result r;
    /* ulp distances */
    ck_assert_uint_eq(cmp_ulp_f32(0x80000000u, 0), 0);            /* -0 vs +0 */
    ck_assert_uint_eq(cmp_ulp_f32(0x7f800000u, 0x7f7fffffu), 1);  /* inf vs max */
    ck_assert_uint_eq(cmp_ulp_f32(0xff800000u, 0xff7fffffu), 1);  /* -inf vs -max */
    ck_assert_uint_eq(cmp_ulp_f32(1, 0), 1);                      /* denorm_min vs 0 */
    ck_assert_uint_eq(cmp_ulp_f32(1, 0x80000000u), 1);            /* denorm_min vs -0 */
    ck_assert_uint_eq(cmp_ulp_f32(1, 0x80000001u), 2);            /* +-denorm_min */
    ck_assert_uint_eq(cmp_ulp_f32(0x00800000u, 0x007fffffu), 1);  /* min normal vs max denormal */
    ck_assert_uint_eq(cmp_ulp_f32(0x3f800000u, 0x3f7fffffu), 1);  /* 1 vs 1-eps/2 */
    ck_assert_uint_eq(cmp_ulp_f32(0x7f800000u, 0xff800000u), 2ull * 0x7f800000u);
    ck_assert_uint_eq(cmp_ulp_f32(0x3f800002u, 0x3f800000u), 2);

    uint32_t e[8] = {0x3f800000u, 0x80000000u, 0x7fc00000u, 0x7f7fffffu,
                     0x00000001u, 0xbf800000u, 0x7f800000u, 0x00000000u};
    uint32_t a[8] = {0x3f800002u, 0x00000000u, 0xffc00001u, 0x7f800000u,
                     0x80000001u, 0xbf800001u, 0x7f800000u, 0x80000001u};
    ck_assert_int_eq(cmp32(a, e, 8, CMP_F32ULP, 2, &r), 1);
    CHECK_REPORT("x", CMP_F32ULP, 2, &r, "x: ok (32 bytes, f32ulp 2)\n");
    ck_assert_int_eq(cmp32(a, e, 8, CMP_F32ULP, 1, &r), 0);
    ck_assert_uint_eq(r.first, 0);
    ck_assert_uint_eq(r.mismatches, 2); /* 1.0 (2 ulp) and +-denorm (2 ulp) */
    ck_assert(r.worst == 2);
    CHECK_REPORT("x", CMP_F32ULP, 1, &r,
                 "x: MISMATCH at element 0: expected 1 (0x3f800000), got 1.00000024 (0x3f800002) "
                 "(2 of 8 elements differ, max 2 ulp)\n");
    ck_assert_int_eq(cmp32(a + 1, e + 1, 1, CMP_F32ULP, 0, &r), 1); /* -0 vs +0 at 0 ulp */

    /* NaN vs number never matches, whatever N */
    uint32_t n1[1] = {0x7fc00000u}, one[1] = {0x3f800000u};
    ck_assert_int_eq(cmp32(n1, one, 1, CMP_F32ULP, 1e15, &r), 0);
    ck_assert_int_eq(cmp32(one, n1, 1, CMP_F32ULP, 1e15, &r), 0);
    ck_assert(strstr(r.expected, "nan") != NULL);
    /* signalling NaN payloads still match each other */
    uint32_t s1[1] = {0x7f800001u}, s2[1] = {0xffbfffffu};
    ck_assert_int_eq(cmp32(s1, s2, 1, CMP_F32ULP, 0, &r), 1);
    /* inf vs NaN */
    uint32_t inf[1] = {0x7f800000u};
    ck_assert_int_eq(cmp32(inf, n1, 1, CMP_F32ULP, 0, &r), 0);
    /* a 6-byte buffer: the 2-byte tail is compared exactly */
    uint8_t t1[6] = {0, 0, 0x80, 0x3f, 1, 2}, t2[6] = {0, 0, 0x80, 0x3f, 1, 3};
    ck_assert_int_eq(cmp_buffers(t1, t2, 6, CMP_F32ULP, 4, &r), 0);
    ck_assert_uint_eq(r.first, 1);
    ck_assert_uint_eq(r.nelems, 2);
    ck_assert_str_eq(r.expected, "0x01 03");
    ck_assert_str_eq(r.actual, "0x01 02");
}
END_TEST

START_TEST(test_cmp_f64_f16_bf16_ulp)
{
    cmp_result r;
    ck_assert_uint_eq(cmp_ulp_f64(0x8000000000000000ull, 0), 0);
    ck_assert_uint_eq(cmp_ulp_f64(0x7ff0000000000000ull, 0x7fefffffffffffffull), 1);
    ck_assert_uint_eq(cmp_ulp_f64(1, 0x8000000000000001ull), 2);
    ck_assert_uint_eq(cmp_ulp_f64(0xffefffffffffffffull, 0x7fefffffffffffffull),
                      2 * 0x7fefffffffffffffull); /* no overflow */
    uint64_t e[4] = {dbits(1.0), dbits(-0.0), 0x7ff8000000000000ull, 0x7ff0000000000000ull};
    uint64_t a[4] = {dbits(1.0) + 2, dbits(0.0), 0xfff0000000000001ull, 0x7fefffffffffffffull};
    ck_assert_int_eq(cmp_buffers((uint8_t *)a, (uint8_t *)e, 32, CMP_F64ULP, 2, &r), 1);
    ck_assert_int_eq(cmp_buffers((uint8_t *)a, (uint8_t *)e, 32, CMP_F64ULP, 1, &r), 0);
    ck_assert_uint_eq(r.mismatches, 1);
    CHECK_REPORT("d", CMP_F64ULP, 1, &r,
                 "d: MISMATCH at element 0: expected 1 (0x3ff0000000000000), got "
                 "1.0000000000000004 (0x3ff0000000000002) (1 of 4 elements differ, max 2 ulp)\n");

    ck_assert_uint_eq(cmp_ulp_f16(0x8000, 0), 0);
    ck_assert_uint_eq(cmp_ulp_f16(0x7c00, 0x7bff), 1);
    ck_assert_uint_eq(cmp_ulp_f16(0x0001, 0x8001), 2);
    ck_assert_uint_eq(cmp_ulp_f16(0x0400, 0x03ff), 1);
    uint16_t he[5] = {0x3c00, 0x8000, 0x7e00, 0x7c00, 0x0001};
    uint16_t ha[5] = {0x3c01, 0x0000, 0xfe01, 0x7bff, 0x0000};
    ck_assert_int_eq(cmp_buffers((uint8_t *)ha, (uint8_t *)he, 10, CMP_F16ULP, 1, &r), 1);
    ck_assert_int_eq(cmp_buffers((uint8_t *)ha, (uint8_t *)he, 10, CMP_F16ULP, 0, &r), 0);
    ck_assert_uint_eq(r.mismatches, 3);
    CHECK_REPORT("h", CMP_F16ULP, 0, &r,
                 "h: MISMATCH at element 0: expected 1 (0x3c00), got 1.001 (0x3c01) (3 of 5 "
                 "elements differ, max 1 ulp)\n");
    uint16_t hn[1] = {0x7e00}, hi[1] = {0x7c00};
    ck_assert_int_eq(cmp_buffers((uint8_t *)hn, (uint8_t *)hi, 2, CMP_F16ULP, 1000, &r), 0);

    /* bf16: NaN is exponent 0xff with a nonzero 7-bit mantissa */
    uint16_t be[3] = {0x3f80, 0x7fc0, 0x7f80};
    uint16_t ba[3] = {0x3f81, 0xff81, 0x7f7f};
    ck_assert_int_eq(cmp_buffers((uint8_t *)ba, (uint8_t *)be, 6, CMP_BF16ULP, 1, &r), 1);
    ck_assert_int_eq(cmp_buffers((uint8_t *)ba, (uint8_t *)be, 6, CMP_BF16ULP, 0, &r), 0);
    ck_assert_uint_eq(r.mismatches, 2);
    ck_assert_str_eq(r.expected, "1 (0x3f80)");
    ck_assert_str_eq(r.actual, "1.008 (0x3f81)");
}
END_TEST

START_TEST(test_cmp_rel)
{
    cmp_result r;
    float e[8] = {1000.0f, 0.0f, INFINITY, NAN, 1e-40f, -5.0f, 0.0f, 1.0f};
    float a[8] = {1000.0078125f, 1e-6f, INFINITY, -NAN, 0.0f, -5.00004f, -0.0f, 1.000009f};
    ck_assert_int_eq(cmp_buffers((uint8_t *)a, (uint8_t *)e, 32, CMP_F32REL, 1e-5, &r), 1);
    CHECK_REPORT("y", CMP_F32REL, 1e-5, &r, "y: ok (32 bytes, f32rel 1e-05)\n");
    ck_assert(r.worst > 0 && r.worst <= 1e-5);

    /* just outside the tolerance */
    float e2[1] = {1000.0f}, a2[1] = {1000.015625f};
    ck_assert_int_eq(cmp_buffers((uint8_t *)a2, (uint8_t *)e2, 4, CMP_F32REL, 1e-5, &r), 0);
    CHECK_REPORT("y", CMP_F32REL, 1e-5, &r,
                 "y: MISMATCH at element 0: expected 1000 (0x447a0000), got 1000.01562 "
                 "(0x447a0100) (1 of 1 elements differ, max rel err 1.56e-05)\n");
    /* small values use an absolute tolerance of R */
    float e3[1] = {0.0f}, a3[1] = {2e-5f};
    ck_assert_int_eq(cmp_buffers((uint8_t *)a3, (uint8_t *)e3, 4, CMP_F32REL, 1e-5, &r), 0);
    /* infinities match only themselves; NaN only NaN */
    float ei[4] = {INFINITY, INFINITY, FLT_MAX, 1.0f}, ai[4] = {-INFINITY, FLT_MAX, INFINITY, NAN};
    ck_assert_int_eq(cmp_buffers((uint8_t *)ai, (uint8_t *)ei, 16, CMP_F32REL, 1e30, &r), 0);
    ck_assert_uint_eq(r.mismatches, 4);
    float en[1] = {NAN}, an[1] = {1.0f};
    ck_assert_int_eq(cmp_buffers((uint8_t *)an, (uint8_t *)en, 4, CMP_F32REL, 1e30, &r), 0);
    /* R = 0 demands equality (but -0 == +0) */
    float ez[2] = {0.0f, 3.0f}, az[2] = {-0.0f, 3.0f};
    ck_assert_int_eq(cmp_buffers((uint8_t *)az, (uint8_t *)ez, 8, CMP_F32REL, 0, &r), 1);

    double de[3] = {1e300, -INFINITY, 1.0}, da[3] = {1.0000001e300, -INFINITY, 1.0 + 1e-9};
    ck_assert_int_eq(cmp_buffers((uint8_t *)da, (uint8_t *)de, 24, CMP_F64REL, 1e-6, &r), 1);
    ck_assert_int_eq(cmp_buffers((uint8_t *)da, (uint8_t *)de, 24, CMP_F64REL, 1e-8, &r), 0);
    ck_assert_uint_eq(r.first, 0);
    ck_assert_uint_eq(r.mismatches, 1);
}
END_TEST

START_TEST(test_cmp_set32)
{
    cmp_result r;
    uint32_t e[6] = {5, 1, 3, 3, 0xffffffffu, 0};
    uint32_t a[6] = {3, 0, 0xffffffffu, 1, 5, 3};
    ck_assert_int_eq(cmp32(a, e, 6, CMP_SET32, 0, &r), 1);
    CHECK_REPORT("s", CMP_SET32, 0, &r, "s: ok (24 bytes, set32)\n");
    /* duplicates count: {3,3} vs {3,4} */
    uint32_t a2[6] = {3, 0, 0xffffffffu, 1, 5, 4};
    ck_assert_int_eq(cmp32(a2, e, 6, CMP_SET32, 0, &r), 0);
    ck_assert_uint_eq(r.mismatches, 1);
    CHECK_REPORT("s", CMP_SET32, 0, &r,
                 "s: MISMATCH in set32: expected value 0x00000003 (3) missing, got unexpected "
                 "value 0x00000004 (4) (1 of 6 elements differ)\n");
    uint32_t a3[6] = {7, 7, 7, 7, 7, 7};
    ck_assert_int_eq(cmp32(a3, e, 6, CMP_SET32, 0, &r), 0);
    ck_assert_uint_eq(r.mismatches, 6);
    ck_assert_int_eq(cmp32(a3, a3, 0, CMP_SET32, 0, &r), 1);
    /* set32 does not reinterpret floats: -0 and +0 are different words */
    uint32_t z1[2] = {0x80000000u, 1}, z2[2] = {1, 0};
    ck_assert_int_eq(cmp32(z1, z2, 2, CMP_SET32, 0, &r), 0);
}
END_TEST

START_TEST(test_half_conversion)
{
    ck_assert_uint_eq(cmp_double_to_f16(1.5), 0x3e00);
    ck_assert_uint_eq(cmp_double_to_f16(-2.0), 0xc000);
    ck_assert_uint_eq(cmp_double_to_f16(65504.0), 0x7bff);
    ck_assert_uint_eq(cmp_double_to_f16(65519.99), 0x7bff);
    ck_assert_uint_eq(cmp_double_to_f16(65520.0), 0x7c00);
    ck_assert_uint_eq(cmp_double_to_f16(-INFINITY), 0xfc00);
    ck_assert_uint_eq(cmp_double_to_f16(0x1p-24), 0x0001);
    ck_assert_uint_eq(cmp_double_to_f16(0x1p-25), 0x0000);        /* tie to even */
    ck_assert_uint_eq(cmp_double_to_f16(0x1.8p-24), 0x0002);      /* tie to even */
    ck_assert_uint_eq(cmp_double_to_f16(0x1p-14), 0x0400);
    ck_assert_uint_eq(cmp_double_to_f16(0x1.ff8p-15), 0x03ff);    /* max subnormal */
    ck_assert_uint_eq(cmp_double_to_f16(0x1.ffcp-15), 0x0400);    /* tie, up to min normal */
    ck_assert_uint_eq(cmp_double_to_f16(-0.0), 0x8000);
    ck_assert_uint_eq(cmp_double_to_f16(0.1), 0x2e66);
    ck_assert_uint_eq(cmp_double_to_f16(1.0 + 0x1p-11), 0x3c00);  /* tie to even */
    ck_assert_uint_eq(cmp_double_to_f16(1.0 + 0x1.8p-10), 0x3c02);
    ck_assert_uint_eq(cmp_double_to_f16(2047.5), 0x6800);         /* 2048 */
    ck_assert_uint_eq(cmp_double_to_f16(NAN) & 0x7e00, 0x7e00);
    ck_assert(cmp_f16_to_double(0x0001) == 0x1p-24);
    ck_assert(cmp_f16_to_double(0x7bff) == 65504.0);
    ck_assert(cmp_f16_to_double(0x8000) == 0 && signbit(cmp_f16_to_double(0x8000)));
    ck_assert(isinf(cmp_f16_to_double(0xfc00)) && cmp_f16_to_double(0xfc00) < 0);
    ck_assert(isnan(cmp_f16_to_double(0x7c01)));
    ck_assert(cmp_bf16_to_double(0x3f80) == 1.0);
    ck_assert(cmp_bf16_to_double(0xc0a0) == -5.0);
    /* round trip of every finite half */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00) continue;
        ck_assert_uint_eq(cmp_double_to_f16(cmp_f16_to_double((uint16_t)h)), h);
    }
}
END_TEST

START_TEST(test_mode_format)
{
    char b[64];
    cmp_mode_format(CMP_F32ULP, 2, b, sizeof b);
    ck_assert_str_eq(b, "f32ulp 2");
    cmp_mode_format(CMP_F32REL, 1e-3, b, sizeof b);
    ck_assert_str_eq(b, "f32rel 0.001");
    cmp_mode_format(CMP_SET32, 0, b, sizeof b);
    ck_assert_str_eq(b, "set32");
    ck_assert_uint_eq(cmp_mode_elem_size(CMP_F64ULP), 8);
    ck_assert_uint_eq(cmp_mode_elem_size(CMP_F16ULP), 2);
    ck_assert_uint_eq(cmp_mode_elem_size(CMP_EXACT), 1);
    ck_assert_int_eq(cmp_mode_has_param(CMP_EXACT), 0);
    ck_assert_int_eq(cmp_mode_param_is_int(CMP_F32REL), 0);
}
END_TEST

/* ======================================================================
 * Robustness: random bytes, truncations, mutations (run under ASan)
 * ====================================================================== */

static uint64_t g_rng = 0x1234;
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(lf_splitmix64(&g_rng) % n) : 0; }

/* ======================================================================
 * Textures, surfaces and tensor maps
 * ====================================================================== */

START_TEST(test_objects)
{
    launch_file lf;
    PARSE_OK(HDR "buffer a 4096 zero\ntexture t a f32 1 4   # 1-D, defaults\n", &lf);
    ck_assert_int_eq(lf.nobjects, 1);
    ck_assert_int_eq(lf.nsteps, 1);
    ck_assert_int_eq(lf.steps[0].kind, LF_OBJECT);
    ck_assert_int_eq(lf.steps[0].object, 0);
    ck_assert_int_eq(lf_find_object(&lf, "t"), 0);
    ck_assert_int_eq(lf_find_object(&lf, "a"), -1);
    lf_object *o = &lf.objects[0];
    ck_assert_int_eq(o->kind, LF_OBJ_TEXTURE);
    ck_assert_str_eq(o->name, "t");
    ck_assert_int_eq(o->buffer, 0);
    ck_assert_uint_eq(o->offset, 0);
    ck_assert_int_eq(o->line, 3);
    lf_texture *t = &o->tex;
    ck_assert_int_eq(t->type, LF_F32);
    ck_assert_int_eq(t->channels, 1);
    ck_assert_int_eq(t->ndims, 1);
    ck_assert_uint_eq(t->width, 4);
    ck_assert_uint_eq(t->height, 1);
    ck_assert_uint_eq(t->depth, 1);
    ck_assert_uint_eq(t->layers, 0);
    ck_assert_uint_eq(t->pitch, 16);
    ck_assert_uint_eq(t->bytes, 16);
    for (int k = 0; k < 3; k++) ck_assert_int_eq(t->addr[k], LF_ADDR_CLAMP);
    ck_assert_int_eq(t->linear, 0);
    ck_assert_int_eq(t->normalized, 0);
    ck_assert_int_eq(t->read_normalized, 0);
    ck_assert_int_eq(t->cube, 0);
    ck_assert(t->border[0] == 0 && t->border[3] == 0);
    lf_free(&lf);

    /* one line each, every option */
    PARSE_OK(HDR "buffer a 4096 zero\nbuffer m 256 zero\n"
             "texture t2 a+16 u8 4 8 4 layers 3 addr wrap border filter linear normalized 1 "
             "read normalized border 0.5 0 0 1 srgb 1 pitch 48\n"
             "texture c a f16 2 4 4 cube layers 2\n"
             "texture tr a s16 1 2 2 2 addr mirror clamp border 1\n"
             "texture tb a f32 1 4 addr border border\n"
             "surface s a u32 1 4 2 layers 2\n"
             "tensormap tm f16 3 a+32 dims 64 8 4 strides 128 1024 box 32 4 2 elemstrides 1 2 1 "
             "swizzle 64B l2promo 128B oobfill nan into m+64\n"
             "tensormap t1 u8 1 a dims 100 box 16\n"
             "tensormap ti u16 3 a dims 8 4 4 strides 32 128 box 16 4 4 interleave 32B swizzle 32B\n"
             LAUNCH "arg texture t2\narg surface s\narg tensormap tm\narg texture tr\n",
             &lf);
    ck_assert_int_eq(lf.nobjects, 8);
    t = &lf.objects[0].tex;
    ck_assert_uint_eq(lf.objects[0].offset, 16);
    ck_assert_int_eq(t->type, LF_U8);
    ck_assert_int_eq(t->channels, 4);
    ck_assert_int_eq(t->ndims, 2);
    ck_assert_uint_eq(t->width, 8);
    ck_assert_uint_eq(t->height, 4);
    ck_assert_uint_eq(t->layers, 3);
    ck_assert_int_eq(t->addr[0], LF_ADDR_WRAP);
    ck_assert_int_eq(t->addr[1], LF_ADDR_BORDER); /* 'border' then a keyword: a mode */
    ck_assert_int_eq(t->addr[2], LF_ADDR_BORDER); /* the last mode repeats */
    ck_assert_int_eq(t->linear, 1);
    ck_assert_int_eq(t->normalized, 1);
    ck_assert_int_eq(t->read_normalized, 1);
    ck_assert_int_eq(t->srgb, 1);
    ck_assert(t->border[0] == 0.5f && t->border[1] == 0 && t->border[3] == 1.0f);
    ck_assert_uint_eq(t->pitch, 48);
    ck_assert_uint_eq(t->bytes, 48 * 11 + 32); /* 12 rows, the last one 32 bytes */
    t = &lf.objects[1].tex;
    ck_assert_int_eq(t->cube, 1);
    ck_assert_uint_eq(t->layers, 2);
    ck_assert_uint_eq(t->bytes, 4 * 4 * 4 * 12); /* 2 cubemaps of 6 faces */
    t = &lf.objects[2].tex;
    ck_assert_int_eq(t->ndims, 3);
    ck_assert_int_eq(t->addr[0], LF_ADDR_MIRROR);
    ck_assert_int_eq(t->addr[1], LF_ADDR_CLAMP);
    ck_assert_int_eq(t->addr[2], LF_ADDR_CLAMP);
    ck_assert(t->border[0] == 1.0f && t->border[3] == 1.0f); /* one value: every channel */
    t = &lf.objects[3].tex;
    ck_assert_int_eq(t->addr[0], LF_ADDR_BORDER); /* 'addr border border' at the end */
    ck_assert(t->border[0] == 0);
    ck_assert_int_eq(lf.objects[4].kind, LF_OBJ_SURFACE);
    ck_assert_uint_eq(lf.objects[4].tex.layers, 2);

    lf_object *m = &lf.objects[5];
    ck_assert_int_eq(m->kind, LF_OBJ_TENSORMAP);
    ck_assert_uint_eq(m->offset, 32);
    lf_tensormap *tm = &m->tmap;
    ck_assert_int_eq(tm->dtype, 6);
    ck_assert_int_eq(tm->rank, 3);
    ck_assert_uint_eq(tm->dim[0], 64);
    ck_assert_uint_eq(tm->dim[2], 4);
    ck_assert_uint_eq(tm->stride[0], 0);
    ck_assert_uint_eq(tm->stride[1], 128);
    ck_assert_uint_eq(tm->stride[2], 1024);
    ck_assert_uint_eq(tm->box[0], 32);
    ck_assert_uint_eq(tm->box[2], 2);
    ck_assert_uint_eq(tm->estride[1], 2);
    ck_assert_int_eq(tm->swizzle, 2);
    ck_assert_int_eq(tm->l2promo, 2);
    ck_assert_int_eq(tm->oobfill, 1);
    ck_assert_int_eq(tm->interleave, 0);
    ck_assert_int_eq(tm->into_buffer, 1);
    ck_assert_uint_eq(tm->into_offset, 64);
    tm = &lf.objects[6].tmap;
    ck_assert_int_eq(tm->rank, 1);
    ck_assert_uint_eq(tm->estride[0], 1);
    ck_assert_int_eq(tm->into_buffer, -1);
    ck_assert_int_eq(lf.objects[7].tmap.interleave, 2);
    ck_assert_uint_eq(lf_tensormap_elem_size(6), 2);
    ck_assert_uint_eq(lf_tensormap_elem_size(13), 0);

    lf_launch *L = &lf.steps[lf.nsteps - 1].launch;
    ck_assert_int_eq(L->nargs, 4);
    ck_assert_int_eq(L->args[0].kind, LF_ARG_TEXTURE);
    ck_assert_int_eq(L->args[0].object, 0);
    ck_assert_uint_eq(L->args[0].size, 8);
    ck_assert_int_eq(L->args[1].kind, LF_ARG_SURFACE);
    ck_assert_int_eq(L->args[1].object, 4);
    ck_assert_int_eq(L->args[2].kind, LF_ARG_TENSORMAP);
    ck_assert_uint_eq(L->args[2].size, 128);
    ck_assert_int_eq(L->args[3].object, 2);
    lf_free(&lf);
}
END_TEST

START_TEST(test_objects_errors)
{
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f32 1\n",
                  "@:3: error: wrong number of tokens for 'texture' (expected 'texture NAME "
                  "BUFFER[+OFF] TYPE CHANNELS WIDTH [HEIGHT [DEPTH]] [OPTION ...]')\n");
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f64 1 4\ntexture t a f32 3 4\n",
                  "@:3: error: unknown texture element type 'f64' (u8 s8 u16 s16 u32 s32 f16 f32)\n"
                  "@:4: error: duplicate name 't' (first defined at line 3)\n");
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f32 3 4\ntexture u a f32 0 4\n",
                  "@:3: error: channel count must be 1, 2 or 4 (got 3)\n"
                  "@:4: error: channel count '0' out of range (1 to 4)\n");
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f32 1 4 5 6 7\ntexture u a f32 1 0\n"
                  "texture v a f32 1 131073\ntexture w a f32 1 filter point\n",
                  "@:3: error: unknown texture option '7'\n"
                  "@:4: error: width '0' out of range (1 to 131072)\n"
                  "@:5: error: width '131073' out of range (1 to 131072)\n"
                  "@:6: error: texture 'w' needs a width\n");
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f32 1 17\ntexture u a+16 f32 1 2 2 layers 4\n",
                  "@:3: error: texture 't' needs 68 bytes from offset 0, buffer 'a' has 64\n"
                  "@:4: error: texture 'u' needs 64 bytes from offset 16, buffer 'a' has 64\n");
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f32 1 4 filter bilinear\n"
                  "texture u a u8 1 4 filter linear\ntexture v a u32 1 4 read normalized\n"
                  "texture w a f32 1 4 read float\n",
                  "@:3: error: bad filter mode 'bilinear' (point, linear)\n"
                  "@:4: error: 'filter linear' needs float results (TYPE f16/f32, or 'read normalized')\n"
                  "@:5: error: 'read normalized' needs an 8- or 16-bit integer type (not u32)\n"
                  "@:6: error: bad read mode 'float' (element, normalized)\n");
    EXPECT_ERRORS(HDR "buffer a 4096 zero\ntexture t a f32 1 4 4 4 cube\ntexture u a f32 1 4 2 cube\n"
                  "texture v a f32 1 2 2 2 layers 2\ntexture w a f32 1 4 srgb 1\n"
                  "texture x a f32 1 4 pitch 2\ntexture y a+8 f32 1 4\ntexture z zz f32 1 4\n",
                  "@:3: error: a cubemap has square faces: WIDTH HEIGHT with HEIGHT = WIDTH and no DEPTH\n"
                  "@:4: error: a cubemap has square faces: WIDTH HEIGHT with HEIGHT = WIDTH and no DEPTH\n"
                  "@:5: error: 3-D textures cannot be layered\n"
                  "@:6: error: 'srgb 1' needs TYPE u8 with 'read normalized'\n"
                  "@:7: error: pitch 2 must be at least 16 (WIDTH * 4-byte texels) and a multiple of 4\n"
                  "@:8: error: texture data must be 16-byte aligned (offset 8)\n"
                  "@:9: error: unknown buffer 'zz' in texture\n");
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f32 1 4 addr wrap border 1 2\n"
                  "texture u a f32 1 4 addr sideways\ntexture v a f32 1 4 layers\n"
                  "texture w a f32 1 4 bogus\ntexture x a f32 1 4 filter point filter linear\n"
                  "texture y a f32 1 4 normalized 2\ntexture 9z a f32 1 4\n",
                  "@:3: error: 'border' takes one value or four (r g b a), got 2\n"
                  "@:4: error: bad address mode 'sideways' (wrap, clamp, mirror, border)\n"
                  "@:5: error: texture option 'layers' needs a value\n"
                  "@:6: error: unknown texture option 'bogus'\n"
                  "@:7: error: duplicate texture option 'filter'\n"
                  "@:8: error: normalized '2' out of range (0 to 1)\n"
                  "@:9: error: bad texture name '9z'\n");
    EXPECT_ERRORS(HDR "buffer a 64 zero\nsurface s a u32 1 4 filter linear\nsurface s2 a u32 1 4 addr wrap\n",
                  "@:3: error: unknown surface option 'filter'\n"
                  "@:4: error: unknown surface option 'addr'\n");
    /* arg lines */
    EXPECT_ERRORS(HDR "buffer a 1024 zero\ntexture t a f32 1 4\nsurface s a u32 1 4\n"
                  "tensormap m u32 1 a dims 4 box 4\n" LAUNCH
                  "arg texture nothere\narg surface t\narg texture s\narg tensormap t\narg texture m\n"
                  "arg texture\narg texture t t\n",
                  "@:7: error: unknown texture 'nothere' in arg texture\n"
                  "@:8: error: 't' is a texture (line 3), not a surface\n"
                  "@:9: error: 's' is a surface (line 4), not a texture\n"
                  "@:10: error: 't' is a texture (line 3), not a tensormap\n"
                  "@:11: error: 'm' is a tensormap (line 5), not a texture\n"
                  "@:12: error: wrong number of tokens for 'arg' (expected 'arg texture NAME')\n"
                  "@:13: error: wrong number of tokens for 'arg' (expected 'arg texture NAME')\n");
    /* a bad object line: its name stays known, so using it adds no error */
    EXPECT_ERRORS(HDR "buffer a 64 zero\ntexture t a f32 1 99\n" LAUNCH "arg texture t\narg surface t\n",
                  "@:3: error: texture 't' needs 396 bytes from offset 0, buffer 'a' has 64\n");
    EXPECT_ERRORS(HDR LAUNCH "arg texture t\ntexture t a f32 1 4\n",
                  "@:3: error: unknown texture 't' in arg texture\n"
                  "@:4: error: unknown buffer 'a' in texture\n");
    /* tensor maps: cuTensorMapEncodeTiled's rules */
    EXPECT_ERRORS(HDR "buffer a 1024 zero\n"
                  "tensormap m2 u99 2 a dims 4 4 strides 16 box 4 4\n"
                  "tensormap m3 u32 6 a dims 4 4 strides 16 box 4 4\n"
                  "tensormap m4 u32 2 a+8 dims 4 4 strides 16 box 4 4\n"
                  "tensormap m5 u32 2 a dims 4 4 strides 20 box 4 4\n"
                  "tensormap m6 u32 2 a dims 4 4 strides 16 box 3 4\n"
                  "tensormap m7 u32 2 a dims 4 4 strides 16 box 257 4\n"
                  "tensormap m8 u32 2 a dims 4 strides 16 box 4 4\n"
                  "tensormap m9 u32 2 a dims 4 4 box 4 4\n"
                  "tensormap m10 u32 2 a dims 4 4 strides 16 box 64 4 swizzle 128B\n"
                  "tensormap m11 u32 2 a dims 4 4 strides 16 box 4 4 oobfill nan\n"
                  "tensormap m12 u32 2 a dims 4 4 strides 16 box 4 4 elemstrides 9 1\n",
                  "@:3: error: unknown tensormap data type 'u99' (u8 u16 u32 s32 u64 s64 f16 f32 f64 "
                  "bf16 f32ftz tf32 tf32ftz)\n"
                  "@:4: error: tensormap rank '6' out of range (1 to 5)\n"
                  "@:5: error: the tensor's global address (offset 8) must be 16-byte aligned\n"
                  "@:6: error: tensormap stride 20 is not a multiple of 16\n"
                  "@:7: error: box[0] * element size (12 bytes) must be a multiple of 16\n"
                  "@:8: error: tensormap box size '257' out of range (1 to 256)\n"
                  "@:9: error: tensormap of rank 2 needs 2 'dims' values, got 1\n"
                  "@:10: error: tensormap needs 'strides'\n"
                  "@:11: error: the inner box dimension (256 bytes) is wider than the 128B swizzle span\n"
                  "@:12: error: oobfill nan needs a floating-point data type (not u32)\n"
                  "@:13: error: tensormap element stride '9' out of range (1 to 8)\n");
    EXPECT_ERRORS(HDR "buffer a 1024 zero\n"
                  "tensormap m13 u32 2 a dims 4 4 strides 16 box 4 4 into a+32\n"
                  "tensormap m14 u32 2 a dims 4 4 strides 16 box 4 4 into a+960\n"
                  "tensormap m15 u32 3 a dims 4 4 4 strides 32 64 box 8 4 4 interleave 32B\n"
                  "tensormap m16 u32 2 a dims 4 4 strides 16 box 4 4 swizzle 256B\n"
                  "tensormap m17 u32 2 a dims 4 4 strides 16 box 4 4 frob\n"
                  "tensormap m18 u32 2 a dims 0 4 strides 16 box 4 4\n"
                  "tensormap m19 u32 2 a dims 4 4 strides 16 box 4 4 box 4 4\n"
                  "tensormap m20 u32 2 a dims 4 4 strides 16 box 4 4 interleave 16B\n"
                  "tensormap m21 u32 3 a dims 4 4 4 strides 48 64 box 4 4 4 interleave 32B swizzle 32B\n"
                  "tensormap m22 u32 2 a dims 4 4 strides 0x10000000000 box 4 4\n"
                  "tensormap m23 u32 2 a dims 4 4 strides 16 box 4 4 into b\n"
                  "tensormap m24 u32 2 a dims 4 4 strides 16 box 4 4 swizzle\n"
                  "tensormap m25 u32\n",
                  "@:3: error: a tensor map must be 64-byte aligned ('into' offset 32)\n"
                  "@:4: error: the 128-byte tensor map does not fit in buffer 'a' at offset 960\n"
                  "@:5: error: interleave 32B needs swizzle 32B\n"
                  "@:6: error: bad tensormap swizzle '256B' (none, 32B, 64B, 128B)\n"
                  "@:7: error: unknown tensormap option 'frob'\n"
                  "@:8: error: tensormap dimension '0' out of range (1 to 4294967295)\n"
                  "@:9: error: duplicate tensormap option 'box'\n"
                  "@:10: error: an interleaved tensormap needs rank 3 to 5\n"
                  "@:11: error: tensormap stride 48 is not a multiple of 32\n"
                  "@:12: error: tensormap stride '0x10000000000' out of range (0 to 1099511627775)\n"
                  "@:13: error: unknown buffer 'b' in tensormap into\n"
                  "@:14: error: tensormap option 'swizzle' needs a value\n"
                  "@:15: error: wrong number of tokens for 'tensormap' (expected 'tensormap NAME "
                  "DTYPE RANK BUFFER[+OFF] dims D0 .. strides S1 .. box B0 .. [OPTION ...]')\n");
}
END_TEST

static void check_consistent(const launch_file *lf)
{
    ck_assert_ptr_nonnull(lf->ptx_path);
    for (int i = 0; i < lf->nsteps; i++) {
        const lf_step *s = &lf->steps[i];
        if (s->kind == LF_LAUNCH) {
            ck_assert_ptr_nonnull(s->launch.kernel);
            for (int j = 0; j < s->launch.nargs; j++) {
                const lf_arg *a = &s->launch.args[j];
                if (a->kind == LF_ARG_PTR) {
                    ck_assert(a->buffer >= 0 && a->buffer < lf->nbuffers);
                    ck_assert(a->offset <= lf->buffers[a->buffer].size);
                }
                if (a->kind == LF_ARG_TEXTURE || a->kind == LF_ARG_SURFACE || a->kind == LF_ARG_TENSORMAP)
                    ck_assert(a->object >= 0 && a->object < lf->nobjects);
            }
        }
        if (s->kind == LF_OBJECT) {
            ck_assert(s->object >= 0 && s->object < lf->nobjects);
            const lf_object *o = &lf->objects[s->object];
            ck_assert(o->buffer >= 0 && o->buffer < lf->nbuffers);
            if (o->kind != LF_OBJ_TENSORMAP)
                ck_assert(o->offset + o->tex.bytes <= lf->buffers[o->buffer].size);
            else if (o->tmap.into_buffer >= 0)
                ck_assert(o->tmap.into_offset + 128 <= lf->buffers[o->tmap.into_buffer].size);
        }
    }
    for (int i = 0; i < lf->nexpects; i++) {
        const lf_expect *e = &lf->expects[i];
        if (e->target.buffer >= 0)
            ck_assert(e->target.offset + e->size <= lf->buffers[e->target.buffer].size);
        else
            ck_assert_ptr_nonnull(e->target.symbol);
        ck_assert_uint_eq(e->size % cmp_mode_elem_size(e->mode), 0);
    }
}

static void fuzz_one(const char *text, size_t len, const char *vpath, FILE *sink)
{
    launch_file lf;
    int r = lf_parse_mem(text, len, vpath, &lf, rnd(2) ? sink : NULL);
    if (r == 0) check_consistent(&lf);
    else ck_assert_int_eq(lf.nbuffers, 0);
    lf_free(&lf);
}

START_TEST(test_fuzz)
{
    char vpath[4400], p[4400];
    snprintf(vpath, sizeof vpath, "%s/ext/case.txt", g_data);
    snprintf(p, sizeof p, "%s/ext/case.txt", g_data);
    FILE *f = fopen(p, "rb");
    ck_assert_ptr_nonnull(f);
    static char base[8192];
    size_t blen = fread(base, 1, sizeof base - 1, f);
    fclose(f);
    FILE *sink = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(sink);

    static const char *const dict[] = {
        " ",  "\n", "#",     "+",      "-",      "0x",     "symbol:", "value", "nan",  "inf",
        "1e999", "-0", "0xffffffffffffffff", "18446744073709551616", "9", " arg ptr out+", " f16 ",
        " exact", " f32ulp ", " set32", "\t", "\r", "\\", "\x80", "buffer z 8 zero\n", "launch",
        "texture q z u8 4 2 ", "surface r z u16 2 2\n", "tensormap m u8 1 z dims 16 box 16 into z+0\n",
        " arg texture q\n", " arg tensormap m\n", " layers 2", " pitch 8", " addr border border 1"};
    char *buf = malloc(16384);
    ck_assert_ptr_nonnull(buf);
    for (int it = 0; it < 3000; it++) {
        size_t n = 0;
        switch (rnd(4)) {
        case 0: /* pure random bytes */
            n = rnd(300);
            for (size_t i = 0; i < n; i++) buf[i] = (char)rnd(256);
            break;
        case 1: /* truncation */
            n = rnd((uint32_t)blen + 1);
            memcpy(buf, base, n);
            break;
        default: { /* mutations */
            memcpy(buf, base, blen);
            n = blen;
            int k = 1 + (int)rnd(6);
            for (int m = 0; m < k; m++) {
                size_t at = rnd((uint32_t)n + 1);
                switch (rnd(3)) {
                case 0:
                    if (at < n) buf[at] = (char)rnd(256);
                    break;
                case 1:
                    if (at < n) { memmove(buf + at, buf + at + 1, n - at - 1); n--; }
                    break;
                default: {
                    const char *w = dict[rnd(sizeof dict / sizeof *dict)];
                    size_t wl = strlen(w);
                    if (n + wl < 16000) {
                        memmove(buf + at + wl, buf + at, n - at);
                        memcpy(buf + at, w, wl);
                        n += wl;
                    }
                }
                }
            }
        }
        }
        fuzz_one(buf, n, vpath, sink);
        /* lf_parse_string sees the text up to the first NUL */
        buf[n] = 0;
        if (it % 8 == 0) {
            launch_file lf;
            int r = lf_parse_string(buf, vpath, &lf, NULL);
            if (r == 0) check_consistent(&lf);
            lf_free(&lf);
        }
    }
    free(buf);
    fclose(sink);
}
END_TEST

static Suite *launch_suite(void)
{
    Suite *s = suite_create("launch");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_golden_copy_printf_hello);
    tcase_add_test(tc, test_golden_copy_others);
    tcase_add_test(tc, test_extensions_case);
    tcase_add_test(tc, test_errors_brief);
    tcase_add_test(tc, test_errors_more);
    tcase_add_test(tc, test_errors_misc);
    tcase_add_test(tc, test_arg_values);
    tcase_add_test(tc, test_splitmix64);
    tcase_add_test(tc, test_generator_random);
    tcase_add_test(tc, test_generator_ramp_fill);
    tcase_add_test(tc, test_types);
    tcase_add_test(tc, test_objects);
    tcase_add_test(tc, test_objects_errors);
    suite_add_tcase(s, tc);

    TCase *tg = tcase_create("golden");
    tcase_set_timeout(tg, 120);
    tcase_add_test(tg, test_golden_all);
    suite_add_tcase(s, tg);

    TCase *tcmp = tcase_create("compare");
    tcase_add_test(tcmp, test_cmp_exact);
    tcase_add_test(tcmp, test_cmp_f32ulp);
    tcase_add_test(tcmp, test_cmp_f64_f16_bf16_ulp);
    tcase_add_test(tcmp, test_cmp_rel);
    tcase_add_test(tcmp, test_cmp_set32);
    tcase_add_test(tcmp, test_half_conversion);
    tcase_add_test(tcmp, test_mode_format);
    suite_add_tcase(s, tcmp);

    TCase *tf = tcase_create("fuzz");
    tcase_set_timeout(tf, 300);
    tcase_add_test(tf, test_fuzz);
    suite_add_tcase(s, tf);
    return s;
}

int main(void)
{
    find_data_dir();
    if (!g_data[0]) {
        fprintf(stderr, "test_launch: cannot find tests/unit/data/launch "
                        "(set LAUNCH_TEST_DATA or srcdir)\n");
        return 1;
    }
    if (!is_dir(golden_dir()))
        fprintf(stderr, "test_launch: %s absent, the golden test does nothing\n", golden_dir());
    SRunner *sr = srunner_create(launch_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
