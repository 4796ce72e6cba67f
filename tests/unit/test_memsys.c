/*
 * Unit tests for the memory hierarchy of the timing model (memmodel/):
 * the sectored cache (hits, LRU eviction, dirty sectors), DRAM row
 * buffers and activate limits, L2 write-back, partitions and atomics,
 * and the per-SM pieces of memsys (L1 policies, MSHR merging, carve-out,
 * shared-memory banks, constant broadcast, the L1's per-line rate), the
 * timelines that book shared resources out of time order, each on small
 * configurations
 * whose expected figures follow from the mechanism by hand.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpu/config.h"
#include "memmodel/cache.h"
#include "memmodel/dram.h"
#include "memmodel/l2.h"
#include "memmodel/memsys.h"
#include "memmodel/ifetch.h"
#include "memmodel/pattern_memo.h"
#include "memmodel/space.h"
#include "util/lazymap.h"
#include "util/wbuf.h"
#include "memmodel/timeline.h"
#include "emu/emu.h"
#include "emu/sched.h"
#include "emu/timing.h"

/* ---- warp buffers (util/wbuf.h) --------------------------------------------- */

static bool all_bytes_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) if (p[i]) return false;
    return true;
}

/* Local memory comes from slabs apart from the register files (a slab
 * hands out buffers one after another: a local buffer taken right after a
 * register file would follow it), zeroed when fresh and when reused. */
START_TEST(wbuf_apart_buffers_are_zeroed_and_separate)
{
    enum { N = 64, REG = 6144, LOC = 1536 };
    unsigned char *reg[N], *loc[N];
    for (int i = 0; i < N; i++) {
        reg[i] = wbuf_alloc(REG, false);
        loc[i] = wbuf_alloc_apart(LOC, true);
        ck_assert_ptr_nonnull(reg[i]);
        ck_assert_ptr_nonnull(loc[i]);
        ck_assert(all_bytes_zero(loc[i], LOC));
        memset(reg[i], 0x5a, REG);
        memset(loc[i], 0xa5, LOC);
    }
    for (int i = 0; i < N; i++) {
        ck_assert_ptr_ne(loc[i], reg[i] + REG);       /* not the register file's slab */
        for (int j = 0; j < N; j++)
            ck_assert(loc[j] + LOC <= reg[i] || reg[i] + REG <= loc[j]);
    }
    for (int i = 0; i < N; i++) wbuf_free(loc[i], LOC);
    for (int i = 0; i < N; i++) {          /* reused: zeroed again */
        unsigned char *p = wbuf_alloc_apart(LOC, true);
        ck_assert(all_bytes_zero(p, LOC));
        loc[i] = p;
    }
    for (int i = 0; i < N; i++) { wbuf_free(loc[i], LOC); wbuf_free(reg[i], REG); }
}
END_TEST

/* Freeing a buffer writes nothing into it: the local memory of a kernel
 * that never reaches it, freed at the launch's end, stays unbacked (it
 * was 12 MiB of fresh pages for the timed bench transpose).  Checked with
 * mincore on buffers of a size no other test takes, from the middle of
 * 8 MiB of them (whole pages, huge or not, that nothing touched). */
START_TEST(wbuf_free_leaves_untouched_buffers_unbacked)
{
#if !defined(__SANITIZE_ADDRESS__)
    enum { N = 2048, LOC = 4096 + 64 };
    static unsigned char *loc[N];
    for (int i = 0; i < N; i++) {
        loc[i] = wbuf_alloc_apart(LOC, false);
        ck_assert_ptr_nonnull(loc[i]);
    }
    for (int i = 0; i < N; i++) wbuf_free(loc[i], LOC);
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t mid = ((uintptr_t)loc[N / 2] + pg - 1) & ~(uintptr_t)(pg - 1);
    unsigned char in_core = 1;
    ck_assert_int_eq(mincore((void *)mid, (size_t)pg, &in_core), 0);
    ck_assert_int_eq(in_core & 1, 0);
    /* taken again without zeroing: still untouched, and zero (fresh) */
    for (int i = 0; i < N; i++) loc[i] = wbuf_alloc_apart(LOC, false);
    ck_assert_int_eq(mincore((void *)mid, (size_t)pg, &in_core), 0);
    ck_assert_int_eq(in_core & 1, 0);
    ck_assert(all_bytes_zero(loc[N / 2], LOC));
    for (int i = 0; i < N; i++) wbuf_free(loc[i], LOC);
#endif
}
END_TEST

/* ---- timeline ------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

START_TEST(timeline_in_order_is_first_come_first_served)
{
    timeline tl;
    ck_assert_int_eq(timeline_init(&tl, 4.0, 1000.0), 0);
    /* a queue: each starts when the one before it ends, or at its own time */
    const double t[] = { 0, 0, 0.5, 1, 10, 10, 30 }, want[] = { 0, 1.5, 3, 4.5, 10, 11.5, 30 };
    for (int i = 0; i < 7; i++) ck_assert(timeline_take(&tl, t[i], 1.5) == want[i]);
    timeline_free(&tl);
}
END_TEST

START_TEST(timeline_later_bookings_do_not_delay_earlier_ones)
{
    timeline tl;
    ck_assert_int_eq(timeline_init(&tl, 4.0, 100000.0), 0);
    /* a request booked for cycle 5000 first (it waited for an MSHR, say)
     * leaves the resource free before it */
    ck_assert(timeline_take(&tl, 5000, 2) == 5000);
    ck_assert(timeline_take(&tl, 100, 2) == 100);
    ck_assert(timeline_take(&tl, 100, 2) == 102);
    ck_assert(timeline_take(&tl, 5001, 2) == 5002);   /* behind the one at 5000 */
    timeline_free(&tl);
}
END_TEST

START_TEST(timeline_never_serves_faster_than_its_rate)
{
    timeline tl;
    ck_assert_int_eq(timeline_init(&tl, 21.5, 32768.0), 0);
    /* 3000 bookings of 2.7 cycles at scattered times, in no order: none
     * overlaps another, and none starts before it is requested */
    static double start[3000];
    uint64_t x = 1;
    for (int i = 0; i < 3000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        double t = 1000 + (double)(x >> 33 & 4095) + i * 0.5;
        start[i] = timeline_take(&tl, t, 2.7);
        ck_assert(start[i] >= t);
    }
    qsort(start, 3000, sizeof start[0], cmp_double);
    for (int i = 1; i < 3000; i++) ck_assert(start[i] >= start[i - 1] + 2.7 - 1e-9);
    timeline_free(&tl);
}
END_TEST

START_TEST(timeline_ring_moves_on)
{
    timeline tl;
    ck_assert_int_eq(timeline_init(&tl, 1.0, 64.0), 0);
    ck_assert_uint_eq(tl.n, 64);
    for (int i = 0; i < 64; i++) timeline_take(&tl, 0, 1);   /* cycles 0..63 sold */
    /* a booking far past the ring drops its oldest windows; a request for
     * a dropped cycle is served from the oldest window kept */
    ck_assert(timeline_take(&tl, 1000, 1) == 1000);
    ck_assert(timeline_take(&tl, 5, 1) >= 1000 - 64);
    timeline_reset(&tl);
    ck_assert(timeline_take(&tl, 5, 1) == 5);
    /* a reset clears a ring whose last booking moved it on */
    ck_assert(timeline_take(&tl, 5000, 1) == 5000);
    timeline_reset(&tl);
    ck_assert(timeline_take(&tl, 5, 1) == 5);
    /* and a fresh ring is clear without one (zeroed windows are empty) */
    timeline t2;
    ck_assert_int_eq(timeline_init(&t2, 1.0, 64.0), 0);
    for (int i = 0; i < 3; i++) ck_assert(timeline_take(&t2, 10, 1) == 10 + i);
    timeline_free(&t2);
    timeline_free(&tl);
}
END_TEST

/* A reset clears only the windows a launch can have booked (those it
 * noted, or from the oldest kept to the latest booking's end), and that is
 * every booked one: afterwards the whole ring reads empty, whether the
 * bookings were few or many, ran out of order, or moved the ring on. */
START_TEST(timeline_reset_leaves_every_window_clear)
{
    /* few bookings (the reset clears the windows it noted), many (the
     * range up to the latest booking's end), long ones over several
     * windows, rings that moved on */
    static const double spans[] = { 100, 600, 5000, 250 };
    static const int counts[] = { 1, 3, 4, 5, 40 };
    for (int round = 0; round < 80; round++) {
        timeline tl;
        ck_assert_int_eq(timeline_init(&tl, 2.0, 256.0), 0);
        uint64_t x = 11 + (uint64_t)round;
        double span = spans[round % 4];
        int nb = counts[round / 4 % 5];
        bool moved = false;
        for (int i = 0; i < nb; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            double t = (double)(x >> 33) / (double)(1ull << 31) * span;
            timeline_take(&tl, t, round >= 40 ? 3.5 + (double)(x >> 12 & 7) : 0.5 + (double)(x >> 12 & 3));
            moved |= tl.lo > 0;
        }
        if (nb == 40 && round < 40) ck_assert(moved == (span > 256));   /* both kinds are tried */
        timeline_reset(&tl);
        for (uint32_t c = 0; c < tl.n; c++) {
            ck_assert(tl.used[c] == 0);
            ck_assert_uint_eq(tl.skip[c], 0);
        }
        ck_assert(timeline_take(&tl, 3, 1) == 3);
        timeline_free(&tl);
    }
}
END_TEST

/* Members of a group (windows interleaved) book exactly as timelines of
 * their own, whatever the order the members' bookings mix in, through
 * rings that move on and resets of some members only; with the group's
 * arrays from a pool and from the heap alike. */
START_TEST(timeline_group_members_book_as_alone)
{
    enum { M = 5, N = 4000 };
    for (int pooled = 0; pooled < 2; pooled++) {
        timeline alone[M], grp[M];
        lazypool pool = { 0 };
        if (pooled) lazypool_init(&pool, timeline_group_pool_bytes(M, 3.0, 512.0), true);
        for (int k = 0; k < M; k++) ck_assert_int_eq(timeline_init(&alone[k], 3.0, 512.0), 0);
        ck_assert_int_eq(timeline_init_group(grp, sizeof *grp, M, 3.0, 512.0, pooled ? &pool : NULL), 0);
        ck_assert_uint_eq(grp[1].stride, M);
        ck_assert_uint_eq(grp[0].n, alone[0].n);
        uint64_t x = 7;
        for (int i = 0; i < N; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int k = (int)(x >> 60) % M;
            double t = (double)(x >> 35 & 1023) + i * 0.75, cost = 0.5 + (double)(x >> 20 & 7);
            if ((x >> 10 & 255) == 0) { timeline_reset(&alone[k]); timeline_reset(&grp[k]); }
            ck_assert(timeline_take(&alone[k], t, cost) == timeline_take(&grp[k], t, cost));
        }
        for (int k = 0; k < M; k++) { timeline_free(&alone[k]); timeline_free(&grp[k]); }
        lazypool_free(&pool);
    }
}
END_TEST

/* ---- cache ---------------------------------------------------------------- */

START_TEST(cache_sectors_and_lru)
{
    cache c;
    /* one set of 2 ways, 128-byte lines of 32-byte sectors */
    ck_assert_int_eq(cache_init(&c, 256, 2, 128, 32), 0);
    ck_assert_int_eq(c.sets, 1);
    ck_assert(!cache_access(&c, 0x1000, true));      /* cold */
    ck_assert(cache_access(&c, 0x1010, true));       /* same sector */
    ck_assert(!cache_access(&c, 0x1020, true));      /* same line, other sector */
    ck_assert(!cache_access(&c, 0x2000, true));      /* second way */
    ck_assert(cache_access(&c, 0x1000, true));       /* line 0x1000 is now most recent */
    ck_assert(!cache_access(&c, 0x3000, true));      /* evicts 0x2000, the LRU line */
    ck_assert(cache_access(&c, 0x1020, false));
    ck_assert(!cache_access(&c, 0x2000, false));
    cache_invalidate(&c, 0x1000);
    ck_assert(!cache_access(&c, 0x1000, false));
    cache_free(&c);
}
END_TEST

/* The LRU clock is 32 bits: when it wraps the stamps are halved, so the
 * line used last is still the last to go. */
START_TEST(cache_lru_survives_the_clock_wrapping)
{
    cache c;
    bool hit;
    ck_assert_int_eq(cache_init(&c, 256, 2, 128, 32), 0);   /* one set of two lines */
    cache_access(&c, 0x000, true);                 /* A */
    c.tick = UINT32_MAX - 1;
    cache_access(&c, 0x080, true);                 /* B, at the clock's last value */
    ck_assert(cache_access(&c, 0x000, true));      /* A again: the clock wraps */
    cache_ref(&c, 0x100, true, &hit, NULL);        /* C pushes out the older, B */
    ck_assert(!hit);
    ck_assert(cache_access(&c, 0x000, false));
    ck_assert(!cache_access(&c, 0x080, false));
    cache_free(&c);
}
END_TEST

/* A mapped cache (CACHE_MAP_WAYS ways or more) behaves as a small one. */
START_TEST(cache_mapped_lookups)
{
    cache c;
    ck_assert_int_eq(cache_init(&c, (uint64_t)CACHE_MAP_WAYS * 2 * 128, 4, 128, 32), 0);
    ck_assert_uint_ne(c.mapped, 0);
    for (uint64_t a = 0; a < (uint64_t)CACHE_MAP_WAYS * 128; a += 128) ck_assert(!cache_access(&c, a, true));
    for (uint64_t a = 0; a < (uint64_t)CACHE_MAP_WAYS * 128; a += 128) ck_assert(cache_access(&c, a, false));
    cache_reset(&c);
    ck_assert(!cache_access(&c, 0, false));
    cache_free(&c);
}
END_TEST

START_TEST(cache_dirty_eviction)
{
    cache c;
    cache_evict ev;
    bool hit;
    ck_assert_int_eq(cache_init(&c, 128, 1, 128, 32), 0);   /* one line */
    cache_line *l = cache_ref(&c, 0x40, true, &hit, &ev);
    l->dirty |= cache_sector_bit(&c, 0x40);
    l = cache_ref(&c, 0x60, true, &hit, &ev);
    l->dirty |= cache_sector_bit(&c, 0x60);
    ck_assert_int_eq(ev.dirty, 0);                 /* same line: nothing evicted */
    cache_ref(&c, 0x1000, true, &hit, &ev);
    ck_assert(!hit);
    ck_assert_uint_eq(ev.addr, 0);
    ck_assert_uint_eq(ev.dirty, (1u << 2) | (1u << 3));   /* sectors 0x40 and 0x60 */
    cache_free(&c);
}
END_TEST

/* ---- DRAM ----------------------------------------------------------------- */

static dram_params small_dram(void)
{
    dram_params p = { 1, 2, 1024, 256, 32.0, 40, 10, 500, false, 1 };
    return p;
}

START_TEST(dram_row_hit_is_faster)
{
    dram d;
    dram_params p = small_dram();
    ck_assert_int_eq(dram_init(&d, &p), 0);
    double miss = dram_access(&d, dram_channel_of(&d, 0, 0), 0, 0, false);
    ck_assert(miss > 499.0 && miss < 501.0);       /* unloaded row miss = latency */
    double hit = dram_access(&d, dram_channel_of(&d, 0, 0), 1000, 32, false) - 1000;
    ck_assert(hit > 459.0 && hit < 461.0);         /* the open row saves row_miss_cycles */
    ck_assert_uint_eq(dram_counts(&d).row_hits, 1);
    ck_assert_uint_eq(dram_counts(&d).row_misses, 1);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 64);
    dram_free(&d);
}
END_TEST

START_TEST(dram_activates_are_rate_limited)
{
    dram d;
    dram_params p = small_dram();
    ck_assert_int_eq(dram_init(&d, &p), 0);
    /* rows of different windows: each access activates; the channel allows
     * one activate per 10 cycles (and a bank one per row miss, 40), so 8
     * requests at t=0 finish at least 10 apart, the last after 70+ */
    double end[8];
    for (int i = 0; i < 8; i++) end[i] = dram_access(&d, dram_channel_of(&d, 0, 0), 0, (uint64_t)i * 1024 * 7, true);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < i; j++) ck_assert(end[i] - end[j] >= 10 - 1e-9 || end[j] - end[i] >= 10 - 1e-9);
    double last = 0;
    for (int i = 0; i < 8; i++) last = end[i] > last ? end[i] : last;
    ck_assert(last >= 500 + 70);
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 8 * 32);
    ck_assert_uint_eq(dram_counts(&d).row_misses, 8);
    dram_free(&d);
}
END_TEST

START_TEST(dram_out_of_order_requests)
{
    dram d;
    dram_params p = small_dram();
    ck_assert_int_eq(dram_init(&d, &p), 0);
    /* a request booked for cycle 3000 first does not hold up later calls
     * for earlier cycles: one shortly before it in the same row is a row
     * hit that pays the activate (it would have opened the row itself);
     * one long before it opens the row anew; neither queues behind it */
    double later = dram_access(&d, dram_channel_of(&d, 0, 0), 3000, 0, false) - 3000;
    ck_assert(later > 499.0 && later < 501.0);
    double near = dram_access(&d, dram_channel_of(&d, 0, 0), 2900, 32, false) - 2900;
    ck_assert(near > 499.0 && near < 502.0);
    ck_assert_uint_eq(dram_counts(&d).row_hits, 1);
    double early = dram_access(&d, dram_channel_of(&d, 0, 0), 0, 64, false);
    ck_assert(early > 499.0 && early < 502.0);
    ck_assert_uint_eq(dram_counts(&d).row_misses, 2);
    dram_free(&d);
}
END_TEST

START_TEST(dram_linear_channels_camp)
{
    dram lin, hashed;
    dram_params p = { 8, 4, 1024, 256, 64.0, 40, 10, 500, false, 1 };
    ck_assert_int_eq(dram_init(&lin, &p), 0);
    p.hash = true;
    ck_assert_int_eq(dram_init(&hashed, &p), 0);
    /* 64 blocks at a stride of channels * interleave_bytes (2 KiB) */
    uint32_t used_lin = 0, used_hash = 0;
    for (uint64_t i = 0; i < 64; i++) {
        used_lin |= 1u << dram_channel_of(&lin, 0, i * 2048);
        used_hash |= 1u << dram_channel_of(&hashed, 0, i * 2048);
    }
    ck_assert_uint_eq(used_lin, 1);                 /* all on channel 0: camping */
    ck_assert_uint_ge(__builtin_popcount(used_hash), 6);
    /* consecutive blocks go round the channels without the hash */
    ck_assert_uint_eq(dram_channel_of(&lin, 0, 256 * 3), 3);
    dram_free(&lin);
    dram_free(&hashed);
}
END_TEST

/* ---- L2 ------------------------------------------------------------------- */

/* An L2 of parameters p over a small DRAM. */
static void l2_over_dram(l2sys *l, dram *d, const l2_params *p)
{
    dram_params dp = small_dram();
    dp.groups = p->slices / p->partitions;         /* a channel per lane */
    dp.channels = dp.groups;
    ck_assert_int_eq(dram_init(d, &dp), 0);
    ck_assert_int_eq(l2_init(l, p, d), 0);
}

static void small_l2(l2sys *l, dram *d, uint32_t partitions, uint64_t bytes)
{
    l2_params p = { bytes, 2, 128, partitions, partitions, 512, 32.0, 1.0, 200, 220, false, 0, 0, false, 0, 0, 32, 0, 0, 0 };   /* a slice a partition */
    l2_over_dram(l, d, &p);
}

START_TEST(l2_write_back_on_eviction)
{
    l2sys l;
    dram d;
    small_l2(&l, &d, 1, 512);                      /* 4 lines in all */
    l2_access(&l, 0, 0, 0x0, L2_WRITE, 1);          /* allocate without fetching */
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 0);
    ck_assert_uint_eq(l2_hits(&l), 1);
    double r = l2_access(&l, 0, 10, 0x0, L2_READ, 1);
    ck_assert(r < 10 + 200 + 2);                   /* a hit */
    /* fill the set with other lines until the dirty one is evicted */
    for (uint64_t a = 0x10000; a < 0x10000 + 64 * 128; a += 128) l2_access(&l, 0, 20, a, L2_READ, 1);
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 32);           /* exactly its one dirty sector */
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 64 * 32);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

START_TEST(l2_cleans_beyond_dirty_ways)
{
    l2sys l;
    dram d;
    /* one slice, one set of 4 ways; at most 2 dirty lines */
    l2_params p = { 512, 4, 128, 1, 1, 512, 32.0, 1.0, 200, 220, false, 2, 0, false, 0, 0, 32, 0, 0, 0 };
    l2_over_dram(&l, &d, &p);
    l2_access(&l, 0, 0, 0x000, L2_WRITE, 1);
    l2_access(&l, 0, 1, 0x080, L2_WRITE, 1);
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 0);
    l2_access(&l, 0, 2, 0x100, L2_WRITE, 1);        /* a third dirty line: clean the oldest */
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 32);
    uint64_t hits = l2_hits(&l);
    l2_access(&l, 0, 1000, 0x000, L2_READ, 1);      /* ...which stays resident */
    ck_assert_uint_eq(l2_hits(&l), hits + 1);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 0);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* the dirty budget is the partition's, not each set's: three dirty lines
 * of one set and one of the other fit 2 a set on average; a fifth line
 * cleans the one dirty longest, whatever its set */
START_TEST(l2_dirty_budget_is_the_partitions)
{
    l2sys l;
    dram d;
    /* one slice, two sets of 4 ways (even lines: set 0), 2 dirty lines a set on average */
    l2_params p = { 1024, 4, 128, 1, 1, 512, 32.0, 1.0, 200, 220, false, 2, 0, false, 0, 0, 32, 0, 0, 0 };
    l2_over_dram(&l, &d, &p);
    l2_access(&l, 0, 0, 0x080, L2_WRITE, 1);        /* line 1, set 1: dirty first */
    l2_access(&l, 0, 1, 0x000, L2_WRITE, 1);        /* lines 0, 2, 4: set 0 */
    l2_access(&l, 0, 2, 0x100, L2_WRITE, 1);
    l2_access(&l, 0, 3, 0x200, L2_WRITE, 1);
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 0);
    l2_access(&l, 0, 4, 0x300, L2_WRITE, 1);        /* a fifth: line 1 is written back */
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 32);
    l2_access(&l, 0, 5, 0x0a0, L2_WRITE, 1);        /* line 1 again (another sector): dirty, so line 0 goes */
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 64);
    uint64_t hits = l2_hits(&l);
    l2_access(&l, 0, 1000, 0x080, L2_READ, 1);      /* both stay resident */
    l2_access(&l, 0, 1001, 0x000, L2_READ, 1);
    ck_assert_uint_eq(l2_hits(&l), hits + 2);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 0);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* fill_bytes 64: a read miss brings its sector's pair from DRAM; the pair's
 * first read needs no DRAM access of its own, yet counts as a miss */
START_TEST(l2_read_miss_fills_its_pair)
{
    l2sys l;
    dram d;
    l2_params p = { 512, 4, 128, 1, 1, 512, 32.0, 1.0, 200, 220, false, 0, 0, false, 0, 0, 64, 0, 0, 0 };
    l2_over_dram(&l, &d, &p);
    double a = l2_access(&l, 0, 0, 0x020, L2_READ, 1);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 64);
    uint64_t hits = l2_hits(&l), lookups = l2_lookups(&l);
    double b = l2_access(&l, 0, 1, 0x000, L2_READ, 1);  /* the pair: in flight with the first */
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 64);
    ck_assert_uint_eq(l2_hits(&l), hits);
    ck_assert_uint_eq(l2_lookups(&l), lookups + 1);
    ck_assert(b >= a);
    ck_assert(b < a + 100);
    l2_access(&l, 0, 2000, 0x000, L2_READ, 1);          /* now present: a hit */
    ck_assert_uint_eq(l2_hits(&l), hits + 1);
    l2_access(&l, 0, 2001, 0x040, L2_READ, 1);          /* the line's other pair: DRAM again */
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 128);
    l2_free(&l);
    dram_free(&d);
    /* fill_bytes 32: a sector alone */
    p.fill_bytes = 32;
    l2_over_dram(&l, &d, &p);
    l2_access(&l, 0, 0, 0x020, L2_READ, 1);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 32);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* Read 512-byte blocks from partition 0 until one is homed in the other
 * partition (looked up twice; a near one once); returns its address. */
static uint64_t first_far_read(l2sys *l)
{
    for (uint64_t a = 0; ; a += 512) {
        uint64_t before = l2_lookups(l);
        l2_access(l, 0, 0, a, L2_READ, 1);
        if (l2_lookups(l) - before == 2) return a;
        ck_assert_uint_eq(l2_lookups(l) - before, 1);
    }
}

START_TEST(l2_far_partition_counts_twice)
{
    l2sys l;
    dram d;
    small_l2(&l, &d, 2, 1 << 20);
    /* find an address homed in partition 1, read it from partition 0 */
    uint64_t far = first_far_read(&l);
    uint64_t hits = l2_hits(&l), lookups = l2_lookups(&l);
    l2_access(&l, 0, 5000, far, L2_READ, 1);       /* the near copy answers */
    ck_assert_uint_eq(l2_lookups(&l) - lookups, 1);
    ck_assert_uint_eq(l2_hits(&l) - hits, 1);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* a write at home leaves the far partition's copy stale: it is dropped,
 * and the far partition's next read of the sector goes home again */
START_TEST(l2_write_drops_the_far_copy)
{
    l2sys l;
    dram d;
    small_l2(&l, &d, 2, 1 << 20);
    uint64_t far = first_far_read(&l);
    l2_access(&l, 1, 5000, far, L2_WRITE, 1);      /* partition 1 is far's home */
    uint64_t hits = l2_hits(&l), lookups = l2_lookups(&l);
    l2_access(&l, 0, 10000, far, L2_READ, 1);      /* near misses, home hits */
    ck_assert_uint_eq(l2_lookups(&l) - lookups, 2);
    ck_assert_uint_eq(l2_hits(&l) - hits, 1);
    lookups = l2_lookups(&l);
    l2_access(&l, 0, 15000, far, L2_READ, 1);      /* the copy again */
    ck_assert_uint_eq(l2_lookups(&l) - lookups, 1);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* a write of part of a sector that a partition the write does not pass
 * had copied holds the home slice copy_write_cycles more; a whole-sector
 * write, or one of a sector nobody copied, does not */
START_TEST(l2_partial_write_of_a_copied_sector_takes_longer)
{
    l2sys l;
    dram d;
    l2_params p = { 1 << 20, 2, 128, 4, 2, 512, 32.0, 1.0, 200, 220, false, 0, 0, false, 0, 0, 32, 50.0, 0, 0 };
    l2_over_dram(&l, &d, &p);
    uint64_t far = first_far_read(&l);
    /* far + 32 and far + 64: the same slice; partition 0 copied neither */
    l2_write(&l, 1, 10000, far + 32, 0xf, false, NULL);   /* nobody copied it: no extra */
    double after_plain = l2_access(&l, 1, 10000, far + 64, L2_WRITE, 1);
    l2_write(&l, 1, 20000, far, 0xf, false, NULL);        /* partition 0 had a copy */
    double after_copied = l2_access(&l, 1, 20000, far + 64, L2_WRITE, 1);
    ck_assert(after_copied - 20000 >= after_plain - 10000 + 50);
    l2_access(&l, 0, 30000, far, L2_READ, 1);             /* partition 0 copies it again */
    l2_write(&l, 1, 40000, far, ~0u, false, NULL);        /* a whole sector: no extra */
    double after_whole = l2_access(&l, 1, 40000, far + 64, L2_WRITE, 1);
    ck_assert(after_whole - 40000 < after_plain - 10000 + 50);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* A read miss takes fill_bytes from DRAM, and so does an atomic's from its
 * home partition's SMs; one from the other partition takes
 * far_atomic_fill_bytes (the H100: 48 bytes a missed line on average,
 * tools/microbench/atomic_fill) */
START_TEST(l2_far_atomic_miss_reads_its_fill)
{
    l2sys l;
    dram d;
    l2_params p = { 1 << 20, 2, 128, 4, 2, 512, 32.0, 1.0, 200, 220, false, 0, 0, false, 0, 0, 64, 0, 32, 0 };
    l2_over_dram(&l, &d, &p);
    uint64_t far = first_far_read(&l);               /* homed in partition 1 (its first 64 bytes read) */
    uint64_t r0 = dram_counts(&d).read_bytes;
    ck_assert_uint_eq(r0 % 64, 0);
    l2_access(&l, 0, 10000, far + 64, L2_ATOMIC, 1);  /* from partition 0: its sector alone */
    ck_assert_uint_eq(dram_counts(&d).read_bytes, r0 + 32);
    /* a line homed in partition 1, from partition 1: the whole block */
    for (uint64_t a = far + 512; ; a += 512) {
        uint64_t before = l2_lookups(&l), rb = dram_counts(&d).read_bytes;
        l2_access(&l, 1, 30000, a, L2_ATOMIC, 1);
        if (l2_lookups(&l) - before != 1) continue;  /* (passed through partition 0: homed there) */
        ck_assert_uint_eq(dram_counts(&d).read_bytes - rb, 64);
        break;
    }
    l2_free(&l);
    dram_free(&d);
}
END_TEST

START_TEST(l2_atomics_serialise_per_slice)
{
    l2sys l;
    dram d;
    small_l2(&l, &d, 1, 1 << 20);
    l2_access(&l, 0, 0, 0x100, L2_READ, 1);         /* warm the line */
    double one = l2_access(&l, 0, 10000, 0x100, L2_ATOMIC, 1) - 10000;
    double many = l2_access(&l, 0, 20000, 0x100, L2_ATOMIC, 32) - 20000;
    ck_assert(many - one > 30.0 && many - one < 32.0);   /* 31 more lane updates of 1 cycle */
    /* back-to-back updates queue behind each other at the slice */
    double a = l2_access(&l, 0, 30000, 0x100, L2_ATOMIC, 32);
    double b = l2_access(&l, 0, 30000, 0x100, L2_ATOMIC, 32);
    ck_assert(b - a > 31.0);
    l2_free(&l);
    dram_free(&d);
    /* updates of 16-bit floats take atomic_f16_cycles each; a reduction's
     * result is when the slice performed it, lat_atomic before an atom's */
    l2_params p = { 1 << 20, 2, 128, 1, 1, 512, 32.0, 1.0, 200, 220, false, 0, 0, false, 0, 0, 32, 0, 0, 2.5 };
    l2_over_dram(&l, &d, &p);
    l2_access(&l, 0, 0, 0x100, L2_READ, 1);
    double i32 = l2_access(&l, 0, 10000, 0x100, L2_ATOMIC, 32) - 10000;
    double f16 = l2_access(&l, 0, 20000, 0x100, L2_ATOMIC, 32 | L2_F16) - 20000;
    ck_assert_double_eq_tol(f16 - i32, 32 * 1.5, 1e-9);
    double red = l2_access(&l, 0, 30000, 0x100, L2_ATOMIC, 32 | L2_NO_RETURN) - 30000;
    ck_assert_double_eq_tol(i32 - red, 220, 1e-9);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

START_TEST(l2_partial_writes_fetch_with_a_granule)
{
    /* which writes cover their granules whole */
    ck_assert(l2_write_whole(0, 0x0000f000u));      /* byte masks: any write */
    ck_assert(l2_write_whole(8, 0x0000ff00u));      /* one whole 8-byte word */
    ck_assert(!l2_write_whole(8, 0x0000f000u));     /* half of one */
    ck_assert(l2_write_whole(32, ~0u));
    ck_assert(!l2_write_whole(32, 0x00ffffffu));
    l2sys l;
    dram d;
    l2_params p = { 1 << 20, 2, 128, 4, 1, 512, 32.0, 1.0, 200, 220, false, 0, 8, false, 0, 0, 32, 0, 0, 0 };
    l2_over_dram(&l, &d, &p);
    double merged;
    /* a whole sector, or whole words: allocated without a read */
    double ack = l2_write(&l, 0, 0, 0x000, ~0u, false, &merged);
    ck_assert(merged == ack);
    l2_write(&l, 0, 0, 0x020, 0x0000ffffu, false, &merged);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 0);
    ck_assert_uint_eq(l2_hits(&l), 2);
    /* half a word of an absent sector: its read comes first (a miss) */
    ack = l2_write(&l, 0, 0, 0x040, 0x000000f0u, false, &merged);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 32);
    ck_assert_uint_eq(l2_write_fetches(&l), 1);
    ck_assert_uint_eq(l2_hits(&l), 2);
    ck_assert(merged > ack);
    /* the rest of that word: the sector is there now, no second read */
    l2_write(&l, 0, 10, 0x040, 0x0000000fu, false, &merged);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 32);
    ck_assert_uint_eq(l2_hits(&l), 3);
    /* a read of the sector waits for its fill */
    ck_assert(l2_access(&l, 0, 20, 0x040, L2_READ, 1) >= merged);
    l2_free(&l);
    p.write_granule = 12;                            /* not a power of two */
    ck_assert_int_ne(l2_init(&l, &p, &d), 0);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* The L2 takes writes in the order they were issued, but their bytes
 * arrive when the SM's write link has sent them: a line whose completing
 * write arrives later still holds byte masks until then. */
START_TEST(l2_byte_masks_count_writes_by_arrival)
{
    l2sys l;
    dram d;
    /* one slice, one set of 4 ways; byte masks for at most 2 lines */
    l2_params p = { 512, 4, 128, 1, 1, 512, 32.0, 1.0, 200, 220, false, 0, 0, true, 2, 0, 32, 0, 0, 0 };
    for (int late = 0; late < 2; late++) {
        l2_over_dram(&l, &d, &p);
        double merged, whole = late ? 1000 : 100;
        /* lines 0 and 1: 4 bytes at cycle 0, the other 28 arriving at `whole` */
        for (uint64_t a = 0x000; a <= 0x080; a += 0x080) {
            l2_write(&l, 0, 0, a, 0xfu, false, &merged);
            l2_write(&l, 0, whole, a, ~0xfu, false, &merged);
        }
        ck_assert_uint_eq(dram_counts(&d).read_bytes, 0);
        /* a third line's first bytes arrive at cycle 500: before the others
         * are whole, the oldest is read, merged and written back */
        l2_write(&l, 0, 500, 0x100, 0xfu, false, &merged);
        ck_assert_uint_eq(dram_counts(&d).read_bytes, late ? 32 : 0);
        ck_assert_uint_eq(dram_counts(&d).write_bytes, late ? 32 : 0);
        ck_assert_uint_eq(l2_write_fetches(&l), late ? 1 : 0);
        l2_free(&l);
        dram_free(&d);
    }
}
END_TEST

START_TEST(l2_byte_masks_fill_incomplete_sectors)
{
    l2sys l;
    dram d;
    /* one slice, one set of 4 ways; byte masks for at most 2 lines */
    l2_params p = { 512, 4, 128, 1, 1, 512, 32.0, 1.0, 200, 220, false, 0, 0, true, 2, 0, 32, 0, 0, 0 };
    l2_over_dram(&l, &d, &p);
    double merged;
    /* four 8-byte writes complete a sector: nothing is read */
    for (uint32_t k = 0; k < 4; k++) l2_write(&l, 0, k, 0x000, 0xffu << (8 * k), false, &merged);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 0);
    ck_assert_uint_eq(l2_write_fetches(&l), 0);
    /* a sector left at 4 bytes is read (and merged) when a read wants it */
    l2_write(&l, 0, 10, 0x020, 0xfu, false, &merged);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 0);
    uint64_t hits = l2_hits(&l);
    double r = l2_access(&l, 0, 20, 0x020, L2_READ, 1);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 32);
    ck_assert_uint_eq(l2_hits(&l), hits);               /* a miss, as the profiler counts it */
    ck_assert(r > 20 + 200 + 2);
    l2_access(&l, 0, 30, 0x020, L2_READ, 1);       /* whole now: a hit */
    ck_assert_uint_eq(l2_hits(&l), hits + 1);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 32);
    /* a third line with an incomplete sector: the oldest of the others is
     * read, merged and written back */
    l2_write(&l, 0, 40, 0x080, 0xfu, false, &merged);
    l2_write(&l, 0, 41, 0x100, 0xfu, false, &merged);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 32);
    l2_write(&l, 0, 42, 0x180, 0xfu, false, &merged);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 64);
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 32);
    ck_assert_uint_eq(l2_write_fetches(&l), 2);
    l2_free(&l);
    /* without partial_fill an incomplete sector is written back as it is */
    p.partial_fill = false;
    ck_assert_int_eq(l2_init(&l, &p, &d), 0);
    dram_reset(&d);
    l2_write(&l, 0, 0, 0x000, 0xfu, false, &merged);
    for (uint64_t a = 0x1000; a < 0x1000 + 8 * 128; a += 128) l2_access(&l, 0, 10, a, L2_READ, 1);
    ck_assert_uint_eq(dram_counts(&d).write_bytes, 32);
    ck_assert_uint_eq(dram_counts(&d).read_bytes, 8 * 32);
    l2_free(&l);
    /* a partial write occupies the slice for partial_write_cycles, a whole one for 1 */
    p.partial_write_cycles = 5;
    ck_assert_int_eq(l2_init(&l, &p, &d), 0);
    double a1 = l2_write(&l, 0, 0, 0x000, 0xfu, false, &merged), a2 = l2_write(&l, 0, 0, 0x040, ~0u, false, &merged);
    ck_assert(a2 - a1 > 4.9 && a2 - a1 < 5.1);
    double a3 = l2_write(&l, 0, 0, 0x060, ~0u, false, &merged);
    ck_assert(a3 - a2 > 0.9 && a3 - a2 < 1.1);
    /* the line's tag and byte-mask work is done once a request: a partial
     * write after another sector of its line in the same request takes a
     * whole sector's time; the next line's first pays it again */
    double b1 = l2_write(&l, 0, 0, 0x100, 0xfu, false, &merged), b2 = l2_write(&l, 0, 0, 0x120, 0xfu, true, &merged);
    ck_assert(b2 - b1 > 4.9 && b2 - b1 < 5.1);
    double b3 = l2_write(&l, 0, 0, 0x140, 0xfu, true, &merged), b4 = l2_write(&l, 0, 0, 0x180, 0xfu, false, &merged);
    ck_assert(b3 - b2 > 0.9 && b3 - b2 < 1.1);
    ck_assert(b4 - b3 > 0.9 && b4 - b3 < 1.1);
    double b5 = l2_write(&l, 0, 0, 0x1a0, 0xfu, false, &merged);
    ck_assert(b5 - b4 > 4.9 && b5 - b4 < 5.1);
    l2_free(&l);
    dram_free(&d);
}
END_TEST

/* ---- memsys --------------------------------------------------------------- */

static gpu_config cfg(const char *name)
{
    gpu_config g;
    ck_assert_int_eq(gpu_config_load(name, &g, stderr), 0);
    return g;
}

static void lanes_stride(uint64_t *a, uint64_t base, uint64_t stride)
{
    for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)i * stride;
}

START_TEST(memsys_l1_policies)
{
    uint64_t a[32];
    lanes_stride(a, 0x2f0000000000ull, 4);          /* one coalesced 128-byte request */
    /* H100: loads allocate in L1, the second load hits */
    gpu_config h = cfg("h100");
    memsys *m = memsys_new(&h, 2, 0);
    ck_assert_ptr_nonnull(m);
    uint64_t cold = memsys_global(m, 0, 0, a, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t warm = memsys_global(m, 0, 5000, a, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert_uint_eq(m->l1_lookups, 8);
    ck_assert_uint_eq(m->l1_hits, 4);
    ck_assert_uint_lt(warm, cold);
    ck_assert_uint_eq(warm, h.lat_l1);
    /* .cg bypasses L1: neither counted nor allocated */
    memsys_global(m, 1, 0, a, ~0u, 4, MS_LOAD, MS_BYPASS);
    ck_assert_uint_eq(m->l1_lookups, 8);
    memsys_free(m);
    /* Kepler: global loads skip L1, local memory and ld.global.nc do not */
    gpu_config k = cfg("kepler");
    m = memsys_new(&k, 1, 0);
    memsys_global(m, 0, 0, a, ~0u, 4, MS_LOAD, MS_CACHED);
    memsys_global(m, 0, 5000, a, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert_uint_eq(m->l1_lookups, 0);
    memsys_global(m, 0, 10000, a, ~0u, 4, MS_LOAD, MS_READONLY);
    memsys_global(m, 0, 15000, a, ~0u, 4, MS_LOAD, MS_READONLY);
    /* the first miss filled the whole 128-byte line: 3 + 4 hits */
    ck_assert_uint_eq(m->l1_lookups, 8);
    ck_assert_uint_eq(m->l1_hits, 7);
    memsys_free(m);
    /* Fermi: a miss fills the whole 128-byte line; a store invalidates it */
    gpu_config f = cfg("fermi");
    m = memsys_new(&f, 1, 0);
    memsys_global(m, 0, 0, a, 1u, 4, MS_LOAD, MS_CACHED);          /* lane 0: one sector */
    memsys_global(m, 0, 5000, a, ~0u, 4, MS_LOAD, MS_CACHED);      /* the rest came with it */
    ck_assert_uint_eq(m->l1_hits, 4);
    memsys_global(m, 0, 10000, a, 1u, 4, MS_STORE, MS_CACHED);
    memsys_global(m, 0, 15000, a, 1u, 4, MS_LOAD, MS_CACHED);
    ck_assert_uint_eq(m->l1_hits, 4);                               /* invalidated: a miss */
    memsys_free(m);
}
END_TEST

/* The SM's atomic unit (l1_atomic_cycles, the H100's 1.1) takes a request
 * a cycle a pass: a sector's same-word lanes one after another, distinct
 * words of a sector together, and a pass of several words after the
 * sector's first a cycle more (tests/microbench mb_atomic3).  A request
 * behind one of 32 passes starts when that one is done: the unit's time
 * moves by its own passes. */
static double unit_passes(const gpu_config *h, const uint64_t *a, enum ms_op op)
{
    memsys *m = memsys_new(h, 1, 0);
    ck_assert_ptr_nonnull(m);
    uint64_t same[32];
    for (int i = 0; i < 32; i++) same[i] = 0x2f0000100000ull;
    memsys_global(m, 0, 0, same, ~0u, 4, MS_RED, MS_CACHED);
    double before = m->sm[0].atom_free;
    memsys_global(m, 0, 0, a, ~0u, 4, op, MS_CACHED);
    double passes = (m->sm[0].atom_free - before) / h->l1_atomic_cycles;
    memsys_free(m);
    return passes;
}

START_TEST(memsys_atomic_unit_counts_passes)
{
    gpu_config h = cfg("h100");
    ck_assert(h.l1_atomic_cycles > 0);
    uint64_t a[32], base = 0x2f0000200000ull;
    for (int i = 0; i < 32; i++) a[i] = base;                         /* one word */
    ck_assert_double_eq_tol(unit_passes(&h, a, MS_RED), 32, 1e-9);
    for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)(i % 2) * 4;  /* two words of a sector, 16 each */
    ck_assert_double_eq_tol(unit_passes(&h, a, MS_RED), 31, 1e-9);
    for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)(i % 8) * 4;  /* eight words, 4 each */
    ck_assert_double_eq_tol(unit_passes(&h, a, MS_ATOMIC), 7, 1e-9);
    lanes_stride(a, base, 4);                                          /* a word each: 4 sectors */
    ck_assert_double_eq_tol(unit_passes(&h, a, MS_RED), 4, 1e-9);
    lanes_stride(a, base, 128);                                        /* a line each */
    ck_assert_double_eq_tol(unit_passes(&h, a, MS_RED), 32, 1e-9);
    for (int i = 0; i < 32; i++) a[i] = base;                         /* reduced in the SM first */
    ck_assert_double_eq_tol(unit_passes(&h, a, MS_ATOMIC_WARP), 1, 1e-9);
    /* a reduction's result is when the L2 performed it; an atom's old
     * value returns lat_atomic later */
    memsys *m1 = memsys_new(&h, 1, 0), *m2 = memsys_new(&h, 1, 0);
    uint64_t r = memsys_global(m1, 0, 0, a, ~0u, 4, MS_RED, MS_CACHED);
    uint64_t v = memsys_global(m2, 0, 0, a, ~0u, 4, MS_ATOMIC, MS_CACHED);
    ck_assert_uint_eq(v - r, h.lat_atomic);
    memsys_free(m1);
    memsys_free(m2);
}
END_TEST

/* Windowed mode (memsys_windowed): requests recorded in a window and served
 * at its edge in (cycle, SM) order give the latencies that serving each at
 * once, in that order, gives; L1 hits on settled lines need no edge. */
START_TEST(memsys_windowed_matches_immediate)
{
    uint64_t a[32], b[32];
    lanes_stride(a, 0x2f0000200000ull, 4);
    lanes_stride(b, 0x2f0000300000ull, 4);
    gpu_config h = cfg("h100");
    memsys *now = memsys_new(&h, 2, 0), *win = memsys_new(&h, 2, 0);
    ck_assert_ptr_nonnull(now);
    ck_assert_ptr_nonnull(win);
    /* immediately, in cycle order: SM 0's load at 3, its reload at 10 (a hit
     * on the fill in flight), SM 1's load of the same data at 5, an atomic */
    uint64_t l0 = memsys_global(now, 0, 3, a, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t l1 = memsys_global(now, 1, 5, a, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t l2 = memsys_global(now, 0, 10, a, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t l3 = memsys_global(now, 1, 12, b, 1u, 4, MS_ATOMIC, MS_CACHED);
    /* windowed, SM 1's requests recorded first: all pending until the edge */
    memsys_windowed(win, true);
    uint64_t c1 = memsys_global(win, 1, 5, a, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert(c1 == MS_PENDING);
    c1 = memsys_pend_code(win, 1);
    uint64_t c3 = memsys_global(win, 1, 12, b, 1u, 4, MS_ATOMIC, MS_CACHED);
    ck_assert(c3 == MS_PENDING);
    c3 = memsys_pend_code(win, 1);
    uint64_t c0 = memsys_global(win, 0, 3, a, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert(c0 == MS_PENDING);
    c0 = memsys_pend_code(win, 0);
    uint64_t c2 = memsys_global(win, 0, 10, a, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert(c2 == MS_PENDING);                  /* a hit, on a fill still pending */
    c2 = memsys_pend_code(win, 0);
    uint64_t both = memsys_pend_max(win, 0, c0, 7);
    ck_assert(ms_is_pending(both));
    ck_assert_int_eq(memsys_settle(win), 0);
    ck_assert_uint_eq(memsys_value(win, 0, c0) - 3, l0);
    ck_assert_uint_eq(memsys_value(win, 1, c1) - 5, l1);
    ck_assert_uint_eq(memsys_value(win, 0, c2) - 10, l2);
    ck_assert_uint_eq(memsys_value(win, 1, c3) - 12, l3);
    ck_assert_uint_eq(memsys_value(win, 0, both), 3 + l0);
    ck_assert_uint_eq(memsys_settled_max(win), 12 + l3 > 10 + l2 ? 12 + l3 : 10 + l2);
    memsys_clear(win);
    ck_assert_uint_eq(win->l1_lookups, now->l1_lookups);
    ck_assert_uint_eq(win->l1_hits, now->l1_hits);
    ck_assert_uint_eq(l2_lookups(&win->l2), l2_lookups(&now->l2));
    /* the lines were settled at the edge: a later hit needs none */
    uint64_t late_now = memsys_global(now, 0, 5000, a, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t late_win = memsys_global(win, 0, 5000, a, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert_uint_eq(late_win, late_now);
    ck_assert_uint_eq(late_win, h.lat_l1);
    memsys_free(now);
    memsys_free(win);
}
END_TEST

/* A batch served lane by lane on several threads at once (memsys_serve_part)
 * and settled and closed SM by SM, last SM first (memsys_edge_*, as the
 * domains' threads do at a window's edge), gives every value and counter
 * that serving it in one merge and settling it at once gives, with few
 * MSHRs so that SMs reuse them across lanes within a batch (the parts then
 * wait for each other). */
struct serve_arg { memsys *m; uint32_t part, n; int rc; };
static void *serve_thread(void *p)
{
    struct serve_arg *a = p;
    a->rc = memsys_serve_part(a->m, a->part, a->n);
    return NULL;
}

START_TEST(memsys_serve_parts_match_serial)
{
    enum { NSM = 6, PARTS = 3, WINDOWS = 12, CALLS = 40 };
    gpu_config h = cfg("h100");
    h.l1_mshrs = 8;
    memsys *one = memsys_new(&h, NSM, 0), *par = memsys_new(&h, NSM, 0);
    ck_assert_ptr_nonnull(one);
    ck_assert_ptr_nonnull(par);
    memsys_windowed(one, true);
    memsys_windowed(par, true);
    memsys_set_parts(par, PARTS);
    uint64_t seed = 12345, waits = 0;
    for (int w = 0; w < WINDOWS; w++) {
        uint64_t code[NSM][CALLS];
        uint32_t ncode[NSM] = { 0 };
        for (uint32_t sm = 0; w == 0 && sm < NSM; sm++) {   /* each SM's code fetch: sectors of every lane */
            memsys_code(one, sm, sm, 64 * 1024);
            memsys_code(par, sm, sm, 64 * 1024);
        }
        for (uint32_t sm = 0; sm < NSM; sm++)
            for (int c = 0; c < CALLS; c++) {
                uint64_t a[32], t = (uint64_t)w * 130 + (uint64_t)c * 3;
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                uint64_t base = 0x2f0000000000ull + ((seed >> 20) & 0x3ffffff) * 4;
                int kind = (int)(seed >> 60) % 4;
                lanes_stride(a, base, kind == 0 ? 4 : 4096 + 4);   /* coalesced, or a line per lane */
                enum ms_op op = kind == 2 ? MS_STORE : kind == 3 ? MS_ATOMIC : MS_LOAD;
                uint64_t r1 = memsys_global(one, sm, t, a, ~0u, 4, op, MS_CACHED);
                uint64_t r2 = memsys_global(par, sm, t, a, ~0u, 4, op, MS_CACHED);
                ck_assert_uint_eq(r1 == MS_PENDING, r2 == MS_PENDING);
                if (r1 == MS_PENDING) {
                    ck_assert_uint_eq(memsys_pend_code(one, sm), memsys_pend_code(par, sm));
                    code[sm][ncode[sm]++] = memsys_pend_code(one, sm);
                } else ck_assert_uint_eq(r1, r2);
            }
        ck_assert_int_eq(memsys_switch(one), 0);
        for (uint32_t sm = NSM; sm-- > 0;) ck_assert_int_eq(memsys_edge_switch(par, sm), 0);
        memsys_edge_end(par);
        for (uint32_t sm = 0; sm < NSM; sm++)
            for (uint32_t i = 0; i < par->sm[sm].old.nreq; i++) {
                const ms_req *r = &par->sm[sm].old.req[i];
                if (w % PARTS == 0 && r->kind == RQ_READ && r->slot != UINT32_MAX && !r->same_line && r->ref < i &&
                    par->sm[sm].old.req[r->ref].lane % PARTS != r->lane % PARTS) waits++;
            }
        ck_assert_int_eq(memsys_serve(one), 0);
        /* in 3 parts, then 2, then 1: any split serves the same */
        uint32_t n = PARTS - (uint32_t)w % PARTS;
        pthread_t th[PARTS];
        struct serve_arg arg[PARTS];
        for (uint32_t p = 0; p < n; p++) {
            arg[p] = (struct serve_arg){ par, p, n, 0 };
            ck_assert_int_eq(pthread_create(&th[p], NULL, serve_thread, &arg[p]), 0);
        }
        for (uint32_t p = 0; p < n; p++) { pthread_join(th[p], NULL); ck_assert_int_eq(arg[p].rc, 0); }
        memsys_publish(one);
        uint64_t most = 0;
        for (uint32_t sm = NSM; sm-- > 0;) {
            ck_assert(ncode[sm] == 0 || !memsys_known_on(par, sm, code[sm][0]));
            memsys_edge_settle(par, sm);
            uint64_t hi = memsys_settled_max_on(par, sm);
            if (hi > most) most = hi;
        }
        for (uint32_t sm = 0; sm < NSM; sm++)
            for (uint32_t i = 0; i < ncode[sm]; i++) {
                ck_assert(memsys_known(one, code[sm][i]));
                ck_assert(memsys_known_on(par, sm, code[sm][i]));
                ck_assert_uint_eq(memsys_value(par, sm, code[sm][i]), memsys_value(one, sm, code[sm][i]));
            }
        ck_assert_uint_eq(most, memsys_settled_max(one));
    }
    /* the last window's L1 counts join at the next edge */
    for (uint32_t sm = NSM; sm-- > 0;) ck_assert_int_eq(memsys_edge_switch(par, sm), 0);
    memsys_edge_end(par);
    ck_assert_uint_eq(par->l1_hits, one->l1_hits);
    ck_assert_uint_eq(par->l1_lookups, one->l1_lookups);
    ck_assert_uint_gt(one->l1_lookups, 0);
    ck_assert_uint_gt(waits, 0);                      /* the parts did wait for each other */
    ck_assert_uint_eq(l2_hits(&par->l2), l2_hits(&one->l2));
    ck_assert_uint_eq(l2_lookups(&par->l2), l2_lookups(&one->l2));
    ck_assert_uint_eq(l2_write_fetches(&par->l2), l2_write_fetches(&one->l2));
    dram_count d1 = dram_counts(&one->dram), d2 = dram_counts(&par->dram);
    ck_assert_uint_eq(d2.read_bytes, d1.read_bytes);
    ck_assert_uint_eq(d2.write_bytes, d1.write_bytes);
    ck_assert_uint_eq(d2.row_hits, d1.row_hits);
    ck_assert_uint_gt(d1.read_bytes, 0);
    memsys_free(one);
    memsys_free(par);
}
END_TEST

/* Batches (memsys_switch, memsys_serve, memsys_publish): SM 0's load is
 * closed in one batch and served while the SM makes the next, where a hit
 * on the same line (its fill being served) and the larger of the two
 * values wait for it; both take the values serving each at once gives. */
START_TEST(memsys_batches_serve_while_the_next_is_made)
{
    uint64_t a[32];
    lanes_stride(a, 0x2f0000200000ull, 4);
    gpu_config h = cfg("h100");
    memsys *now = memsys_new(&h, 1, 0), *win = memsys_new(&h, 1, 0);
    ck_assert_ptr_nonnull(now);
    ck_assert_ptr_nonnull(win);
    uint64_t l0 = memsys_global(now, 0, 3, a, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t l1 = memsys_global(now, 0, 140, a, ~0u, 4, MS_LOAD, MS_CACHED);
    memsys_windowed(win, true);
    ck_assert(memsys_global(win, 0, 3, a, ~0u, 4, MS_LOAD, MS_CACHED) == MS_PENDING);
    uint64_t c0 = memsys_pend_code(win, 0);
    ck_assert_int_eq(memsys_switch(win), 0);
    ck_assert(memsys_unserved(win));
    /* the next batch, made before the first is served: a hit on its fill */
    ck_assert(memsys_global(win, 0, 140, a, ~0u, 4, MS_LOAD, MS_CACHED) == MS_PENDING);
    uint64_t c1 = memsys_pend_code(win, 0);
    uint64_t both = memsys_pend_max(win, 0, c0, c1);
    ck_assert(c1 > c0 && both > c1);              /* a later batch's codes are larger */
    ck_assert(!memsys_known(win, c0));
    ck_assert_int_eq(memsys_serve(win), 0);
    ck_assert(!memsys_unserved(win));
    ck_assert(memsys_known(win, c0) && !memsys_known(win, c1) && !memsys_known(win, both));
    ck_assert_uint_eq(memsys_value(win, 0, c0) - 3, l0);
    ck_assert_uint_eq(memsys_value(win, 0, c1), c1);   /* its batch is not served yet */
    memsys_publish(win);
    ck_assert_int_eq(memsys_switch(win), 0);
    ck_assert_int_eq(memsys_serve(win), 0);
    memsys_publish(win);
    ck_assert_uint_eq(memsys_value(win, 0, c1) - 140, l1);
    ck_assert_uint_eq(memsys_value(win, 0, both), 140 + l1 > 3 + l0 ? 140 + l1 : 3 + l0);
    ck_assert(memsys_lost(win, c0) && !memsys_lost(win, c1));   /* the first batch was dropped at the second switch */
    /* the line was published: a later hit needs nothing served */
    ck_assert_uint_eq(memsys_global(win, 0, 5000, a, ~0u, 4, MS_LOAD, MS_CACHED), memsys_global(now, 0, 5000, a, ~0u, 4, MS_LOAD, MS_CACHED));
    memsys_free(now);
    memsys_free(win);
}
END_TEST

/* Stores whose sectors are still queued for the write link combine with
 * them when they are among the last l1_store_combine sectors queued (h100:
 * 16): 4 warps each storing 8 bytes into the same 16 sectors (lab 4's
 * column copy) make 16 link turns, not 64; two stores of 4 bytes into the
 * same 32 sectors (float_math's rows) make 64, combining nothing. */
START_TEST(memsys_stores_combine_in_the_queue)
{
    gpu_config h = cfg("h100"), off = cfg("h100");
    ck_assert_uint_eq(h.l1_store_combine, 16);
    off.l1_store_combine = 0;
    uint64_t base = 0x2f0000400000ull, a[32];
    for (int pass = 0; pass < 2; pass++) {
        memsys *m = memsys_new(pass ? &off : &h, 1, 0);
        ck_assert_ptr_nonnull(m);
        memsys_windowed(m, true);
        /* first 64 sectors elsewhere: the link is behind by 128 cycles, so
         * the 4 stores' sectors all wait in its queue */
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < 32; i++) a[i] = base + 0x200000 + (uint64_t)(32 * k + i) * 4096;
            memsys_global(m, 0, 0, a, ~0u, 4, MS_STORE, MS_CACHED);
        }
        for (int w = 0; w < 4; w++) {
            /* lanes 2i and 2i+1: the two words at 8w in line i */
            for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)(i / 2) * 4096 + 8 * w + 4 * (i % 2);
            memsys_global(m, 0, (uint64_t)w, a, ~0u, 4, MS_STORE, MS_CACHED);
        }
        ck_assert_uint_eq(m->sm[0].cur.nreq, 64 + (pass ? 64 : 16));
        ck_assert_int_eq(memsys_settle(m), 0);
        memsys_clear(m);
        /* a new window: nothing queued before it combines */
        memsys_global(m, 0, 300, a, ~0u, 4, MS_STORE, MS_CACHED);
        ck_assert_uint_eq(m->sm[0].cur.nreq, 16);
        memsys_clear(m);
        /* 4 bytes into 32 sectors, twice, the link behind: the second
         * store's sectors are 32 back, beyond the 16 */
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < 32; i++) a[i] = base + 0x200000 + (uint64_t)(32 * k + i) * 4096;
            memsys_global(m, 0, 600, a, ~0u, 4, MS_STORE, MS_CACHED);
        }
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < 32; i++) a[i] = base + 0x100000 + (uint64_t)i * 4096 + 4 * k;
            memsys_global(m, 0, 601 + (uint64_t)k, a, ~0u, 4, MS_STORE, MS_CACHED);
        }
        ck_assert_uint_eq(m->sm[0].cur.nreq, 128);
        memsys_free(m);
    }
}
END_TEST

/* A store joins the last store of its sector when that one still waited
 * for the L1 as it came, among the last l1_store_queue_join (h100: 4)
 * sectors stored: lane 0 of 8 warps storing to one word while the L1 is
 * busy makes one L2 write; the same stores when the L1 is free, 8; stores
 * to 2 lines in turn join, to 8 lines in turn do not (mb_flag). */
START_TEST(memsys_stores_join_in_the_l1_queue)
{
    gpu_config h = cfg("h100"), off = cfg("h100");
    ck_assert_uint_eq(h.l1_store_queue_join, 4);
    h.l1_store_combine = off.l1_store_combine = 0;     /* the link's queue apart */
    off.l1_store_queue_join = 0;
    uint64_t base = 0x2f0000400000ull, a[32], busy[32];
    for (int i = 0; i < 32; i++) busy[i] = base + 0x200000 + (uint64_t)i * 4096;
    for (int pass = 0; pass < 2; pass++) {
        memsys *m = memsys_new(pass ? &off : &h, 1, 0);
        ck_assert_ptr_nonnull(m);
        memsys_windowed(m, true);
        /* a load of 32 lines holds the L1 for 32 cycles: the stores queue */
        memsys_global(m, 0, 0, busy, ~0u, 4, MS_LOAD, MS_CACHED);
        uint32_t before = m->sm[0].cur.nreq;
        a[0] = base;
        for (int w = 0; w < 8; w++) memsys_global(m, 0, 1 + (uint64_t)w, a, 1u, 4, MS_STORE, MS_CACHED);
        ck_assert_uint_eq(m->sm[0].cur.nreq - before, (pass ? 8 : 1));
        /* 2 lines in turn: each store's sector was stored 2 back (the first
         * line's joins the stores above: one new write) */
        before = m->sm[0].cur.nreq;
        for (int w = 0; w < 8; w++) { a[0] = base + 128 * (uint64_t)(w % 2); memsys_global(m, 0, 10 + (uint64_t)w, a, 1u, 4, MS_STORE, MS_CACHED); }
        ck_assert_uint_eq(m->sm[0].cur.nreq - before, (pass ? 8 : 1));
        /* 8 lines in turn: 8 back, beyond the 4 */
        before = m->sm[0].cur.nreq;
        for (int w = 0; w < 16; w++) { a[0] = base + 0x1000 + 128 * (uint64_t)(w % 8); memsys_global(m, 0, 20 + (uint64_t)w, a, 1u, 4, MS_STORE, MS_CACHED); }
        ck_assert_uint_eq(m->sm[0].cur.nreq - before, 16);
        ck_assert_int_eq(memsys_settle(m), 0);
        memsys_clear(m);
        /* the L1 free: each store has left the queue before the next comes */
        before = m->sm[0].cur.nreq;
        a[0] = base;
        for (int w = 0; w < 8; w++) memsys_global(m, 0, 1000 + 10 * (uint64_t)w, a, 1u, 4, MS_STORE, MS_CACHED);
        ck_assert_uint_eq(m->sm[0].cur.nreq - before, 8);
        memsys_free(m);
    }
}
END_TEST

START_TEST(memsys_mshr_merges_misses)
{
    uint64_t a[32];
    lanes_stride(a, 0x2f0000100000ull, 4);
    gpu_config h = cfg("h100");
    memsys *m = memsys_new(&h, 1, 0);
    uint64_t first = memsys_global(m, 0, 0, a, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t lookups = l2_lookups(&m->l2);
    uint64_t second = memsys_global(m, 0, 10, a, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert_uint_eq(l2_lookups(&m->l2), lookups);       /* merged: no new L2 request */
    ck_assert_uint_ge(second + 10, first);           /* ...but waits for the same data */
    ck_assert_uint_gt(second, h.lat_l1);
    memsys_free(m);
}
END_TEST

/* A warp load of 4 whole lines (16 sectors) missing with 4 MSHRs: one a
 * sector, the sectors go 4 at a time, each four after the last returns;
 * one a line of the request (l1_mshr_lines), all four lines at once, and
 * the next request's lines wait for those MSHRs. */
START_TEST(memsys_mshr_per_line)
{
    uint64_t a[32], b[32];
    lanes_stride(a, 0x2f0000500000ull, 16);
    lanes_stride(b, 0x2f0000600000ull, 16);
    uint64_t took[2], next = 0;
    for (int lines = 0; lines < 2; lines++) {
        gpu_config h = cfg("h100");
        h.l1_mshrs = 4;
        h.l1_mshr_lines = (uint32_t)lines;
        h.l1_miss_line_cycles = 0;
        memsys *m = memsys_new(&h, 1, 0);
        ck_assert_ptr_nonnull(m);
        took[lines] = memsys_global(m, 0, 0, a, ~0u, 4, MS_LOAD, MS_CACHED);
        if (lines) next = memsys_global(m, 0, 0, b, ~0u, 4, MS_LOAD, MS_CACHED);
        ck_assert_uint_eq(m->sm[0].l1_lookups + m->l1_lookups, lines ? 32 : 16);
        memsys_free(m);
    }
    ck_assert_uint_lt(took[1], (uint64_t)cfg("h100").lat_dram + 200);
    ck_assert_uint_gt(took[0], 3 * took[1]);
    ck_assert_uint_gt(next, 2 * took[1] - 100);
    ck_assert_uint_lt(next, 3 * took[1]);
}
END_TEST

/* Shared accesses of 8 wavefronts each (4-byte words 8 apart: lanes 0, 4,
 * 8, .. share a bank): the pipe takes a wavefront a cycle and one access's
 * own come shared_replay_cycles apart.  A second access of the same warp
 * starts the cycle after the first's last wavefront (at 14: cycle 15);
 * another warp's as soon as the pipe is free (8). */
START_TEST(memsys_shared_own_wavefronts_first)
{
    uint64_t off[32];
    for (int i = 0; i < 32; i++) off[i] = (uint64_t)i * 32;
    gpu_config h = cfg("h100");
    h.shared_replay_cycles = 2;
    uint32_t wf, ideal, lat = h.lat_shared;
    for (int same = 0; same < 2; same++) {
        memsys *m = memsys_new(&h, 1, 0);
        ck_assert_ptr_nonnull(m);
        double w0 = 0, w1 = 0;
        uint64_t at, a = memsys_shared(m, 0, 0, off, ~0u, 4, &w0, &at, &wf, &ideal);
        ck_assert_uint_eq(wf, 8);
        ck_assert_uint_eq(a, lat + 14);
        uint64_t b = memsys_shared(m, 0, 0, off, ~0u, 4, same ? &w0 : &w1, &at, &wf, &ideal);
        ck_assert_uint_eq(b, (same ? 15 : 8) + lat + 14);
        memsys_free(m);
    }
}
END_TEST

/* A warp's float store at an offset of 11 words (the textbook's
 * writeSegment): 5 sectors, the first and last partly.  Fermi's ECC words
 * make the L2 read those two from DRAM; H100's byte masks do not. */
START_TEST(memsys_l1_takes_a_line_at_a_time)
{
    /* two warp loads back to back at cycle 0 (L1 hits once warm): the
     * second waits for the L1 to finish the first: at half a line a cycle,
     * 2 cycles for 4 sectors of one line, 64 for 32 scattered lines */
    uint64_t one[32], spread[32];
    lanes_stride(one, 0x2f0000200000ull, 4);
    lanes_stride(spread, 0x2f0000300000ull, 256);
    gpu_config h = cfg("h100");
    h.l1_lines_per_cycle = 0.5;
    memsys *m = memsys_new(&h, 1, 0);
    memsys_global(m, 0, 0, one, ~0u, 4, MS_LOAD, MS_CACHED);
    memsys_global(m, 0, 0, spread, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t t = 100000;                    /* warm: everything hits */
    memsys_global(m, 0, t, one, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t after_one = memsys_global(m, 0, t, one, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert_uint_eq(after_one, h.lat_l1 + 2);
    t = 200000;
    memsys_global(m, 0, t, spread, ~0u, 4, MS_LOAD, MS_CACHED);
    uint64_t after_spread = memsys_global(m, 0, t, one, ~0u, 4, MS_LOAD, MS_CACHED);
    ck_assert_uint_eq(after_spread, h.lat_l1 + 64);
    memsys_free(m);
}
END_TEST

START_TEST(memsys_misses_leave_line_after_line)
{
    /* L2 hits through .cg: a request of one line takes lat_l2 whatever
     * l1_miss_line_cycles is; one of 32 lines, the last of them leaving
     * 31 x l1_miss_line_cycles after the first */
    uint64_t one[32], spread[32];
    lanes_stride(one, 0x2f0000200000ull, 4);
    lanes_stride(spread, 0x2f0000300000ull, 256);
    uint64_t lat[2][2];
    for (int k = 0; k < 2; k++) {
        gpu_config h = cfg("h100");
        h.l1_miss_line_cycles = k ? 7 : 0;
        memsys *m = memsys_new(&h, 1, 0);
        memsys_global(m, 0, 0, one, ~0u, 4, MS_LOAD, MS_BYPASS);      /* into L2 */
        memsys_global(m, 0, 0, spread, ~0u, 4, MS_LOAD, MS_BYPASS);
        lat[k][0] = memsys_global(m, 0, 100000, one, ~0u, 4, MS_LOAD, MS_BYPASS);
        lat[k][1] = memsys_global(m, 0, 200000, spread, ~0u, 4, MS_LOAD, MS_BYPASS);
        memsys_free(m);
    }
    gpu_config h = cfg("h100");
    /* (one line's 4 sectors queue a cycle or two at its slice) */
    ck_assert(lat[0][0] >= h.lat_l2 && lat[0][0] < h.lat_l2 + 7);
    ck_assert_uint_eq(lat[1][0], lat[0][0]);
    /* (all at once, two of the 32 lines may queue at one slice; a sector
     * each, the last to leave is the last back) */
    ck_assert(lat[0][1] >= h.lat_l2 && lat[0][1] < h.lat_l2 + 31 * 7);
    ck_assert_uint_eq(lat[1][1], h.lat_l2 + 31 * 7);
}
END_TEST

START_TEST(memsys_misaligned_store_reads_partial_sectors)
{
    uint64_t a[32];
    lanes_stride(a, 0x2f0000300000ull + 44, 4);
    gpu_config f = cfg("fermi");
    memsys *m = memsys_new(&f, 1, 0);
    memsys_global(m, 0, 0, a, ~0u, 4, MS_STORE, MS_CACHED);
    ck_assert_uint_eq(l2_write_fetches(&m->l2), 2);
    ck_assert_uint_eq(dram_counts(&m->dram).read_bytes, 64);
    /* the next warp's store completes both sectors it shares: no read */
    lanes_stride(a, 0x2f0000300000ull + 44 + 128, 4);
    memsys_global(m, 0, 100, a, ~0u, 4, MS_STORE, MS_CACHED);
    ck_assert_uint_eq(l2_write_fetches(&m->l2), 3);       /* only its own last sector */
    /* aligned: none */
    lanes_stride(a, 0x2f0000400000ull, 4);
    memsys_global(m, 0, 200, a, ~0u, 4, MS_STORE, MS_CACHED);
    ck_assert_uint_eq(l2_write_fetches(&m->l2), 3);
    memsys_free(m);
    gpu_config h = cfg("h100");
    m = memsys_new(&h, 1, 0);
    lanes_stride(a, 0x2f0000300000ull + 44, 4);
    memsys_global(m, 0, 0, a, ~0u, 4, MS_STORE, MS_CACHED);
    ck_assert_uint_eq(l2_write_fetches(&m->l2), 0);
    ck_assert_uint_eq(dram_counts(&m->dram).read_bytes, 0);
    memsys_free(m);
}
END_TEST

START_TEST(memsys_carveout)
{
    gpu_config h = cfg("h100");
    /* no shared memory: the 0 KiB carve-out, all 256 KiB are L1 */
    ck_assert_uint_eq(memsys_l1_bytes(&h, 0), 262144);
    /* 40 KiB of shared: the 64 KiB carve-out */
    ck_assert_uint_eq(memsys_l1_bytes(&h, 40 * 1024), 262144 - 64 * 1024);
    /* Fermi keeps its default 48 KiB shared / 16 KiB L1 split */
    gpu_config f = cfg("fermi");
    ck_assert_uint_eq(memsys_l1_bytes(&f, 0), 16384);
}
END_TEST

START_TEST(memsys_shared_banks)
{
    uint64_t a[32];
    uint32_t ideal;
    /* 4-byte words at a stride of 2 words: lanes l and l+16 share a bank */
    lanes_stride(a, 0, 8);
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 4, 4, &ideal), 2);
    /* with 8-byte banks the 32 lanes hit 32 different banks */
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 4, 8, &ideal), 1);
    /* consecutive 4-byte words: two lanes share each 8-byte word */
    lanes_stride(a, 0, 4);
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 4, 8, &ideal), 1);
    /* 8-byte accesses, consecutive: one 256-byte wavefront in 8-byte mode,
     * two 128-byte ones with 4-byte banks */
    lanes_stride(a, 0, 8);
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 8, 8, &ideal), 1);
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 8, 4, &ideal), 2);
    /* a column of a 32x32 float tile: 32-way in either mode */
    lanes_stride(a, 0, 128);
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 4, 4, &ideal), 32);
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 4, 8, &ideal), 16);
    /* padded to 33 floats: conflict free with 4-byte banks */
    lanes_stride(a, 0, 132);
    ck_assert_uint_eq(mm_shared_wavefronts_banked(a, ~0u, 4, 4, &ideal), 1);
}
END_TEST

/* ---- the queue of waiting warps (emu/sched.h) ------------------------------ */

/* A warp held back by a busy resource waits in the resource's list, only
 * its first warp queued for the cycle the resource frees.  One that goes
 * before the first takes its place at once: the former first waits in the
 * list again and its queue entry is dropped (the queue gives the new first
 * warp alone); when the first leaves, the best of the rest is queued. */
START_TEST(sched_list_first_gives_way)
{
    sched q;
    ck_assert_int_eq(sched_init(&q, GPU_SCHED_LRR, 1, 0), 0);
    twarp tw[3];
    memset(tw, 0, sizeof tw);
    for (int i = 0; i < 3; i++) sched_add(&q, &tw[i]);          /* priorities 1, 2, 3 (lower first) */
    uint64_t free_at = 100;
    twarp *in[4];
    sched_list l = { .w = in, .cap = 4, .free_at = &free_at, .give_way = true };
    heapent he;
    ck_assert_int_eq(sched_list_join(&q, &l, &tw[2], 10, STALL_MIO_THROTTLE), 1);
    ck_assert_ptr_eq(l.head, &tw[2]);
    ck_assert_int_eq(sched_list_join(&q, &l, &tw[0], 20, STALL_MIO_THROTTLE), 1);   /* goes first */
    ck_assert_ptr_eq(l.head, &tw[0]);
    ck_assert(tw[2].queued && tw[2].wl == &l);
    ck_assert_int_eq(sched_list_join(&q, &l, &tw[1], 30, STALL_MIO_THROTTLE), 1);   /* after the first */
    ck_assert_ptr_eq(l.head, &tw[0]);
    ck_assert(sched_pop(&q, &he));
    ck_assert_ptr_eq(he.tw, &tw[0]);
    ck_assert_uint_eq(he.t, 100);
    ck_assert(!sched_pop(&q, &he));                                             /* tw[2]'s entry dropped */
    ck_assert(tw[2].queued);
    sched_list_leave(&l, &tw[0], 100);
    free_at = 150;
    ck_assert_int_eq(sched_list_pick(&q, &l, 100), 0);
    ck_assert_ptr_eq(l.head, &tw[1]);                                           /* the best of the rest */
    /* tw[0] goes first again: tw[1] gives way, and a second time it
     * cannot while its dropped entry is still queued */
    ck_assert_int_eq(sched_list_join(&q, &l, &tw[0], 120, STALL_MIO_THROTTLE), 1);
    ck_assert_ptr_eq(l.head, &tw[0]);
    ck_assert(sched_pop(&q, &he));
    ck_assert_ptr_eq(he.tw, &tw[0]);
    ck_assert_uint_eq(he.t, 150);
    sched_list_leave(&l, &tw[0], 150);
    free_at = 200;
    ck_assert_int_eq(sched_list_pick(&q, &l, 150), 0);
    ck_assert_ptr_eq(l.head, &tw[1]);
    ck_assert_int_eq(sched_list_join(&q, &l, &tw[0], 160, STALL_MIO_THROTTLE), 0);  /* queued as usual */
    ck_assert_ptr_eq(l.head, &tw[1]);
    /* the head of the queue is the stale 150 entry: dropped, the next
     * event is tw[1]'s own (a window's run is bounded by it) */
    ck_assert_uint_eq(q.nheap, 2);
    ck_assert_uint_eq(q.heap[0].t, 150);
    sched_drop_stale(&q);
    ck_assert_uint_eq(q.nheap, 1);
    ck_assert_ptr_eq(q.heap[0].tw, &tw[1]);
    ck_assert_uint_eq(q.heap[0].t, 200);
    ck_assert(sched_pop(&q, &he));
    ck_assert_ptr_eq(he.tw, &tw[1]);
    ck_assert(!sched_pop(&q, &he));
    sched_free(&q);
}
END_TEST

/* ---- the last access's pattern (memmodel/pattern_memo.h) ------------------- */

/* A pattern is the same where every active lane keeps its distance to the
 * first active one and that lane keeps its place in an aligned block;
 * inactive lanes do not count. */
START_TEST(pattern_memo_moves_by_whole_blocks)
{
    pattern_memo m = { .valid = false };
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = 0x10000 + (uint64_t)(i % 16) * 4 + (uint64_t)(i / 16) * 256;
    ck_assert(!pattern_memo_same(&m, a, ~0u, 4, 128));           /* the first: recorded */
    ck_assert(pattern_memo_same(&m, a, ~0u, 4, 128));            /* the same addresses */
    for (int i = 0; i < 32; i++) a[i] += 128 * 7;
    ck_assert(pattern_memo_same(&m, a, ~0u, 4, 128));            /* moved 7 blocks */
    ck_assert_uint_eq(m.first, 0x10000 + 128 * 7);
    for (int i = 0; i < 32; i++) a[i] += 4;
    ck_assert(!pattern_memo_same(&m, a, ~0u, 4, 128));           /* moved within the block */
    ck_assert(pattern_memo_same(&m, a, ~0u, 4, 4));              /* ... a whole 4-byte bank */
    ck_assert(!pattern_memo_same(&m, a, ~0u, 8, 4));             /* another size */
    ck_assert(pattern_memo_same(&m, a, ~0u, 8, 0));              /* 0: the same addresses only */
    for (int i = 0; i < 32; i++) a[i] += 4;
    ck_assert(!pattern_memo_same(&m, a, ~0u, 8, 0));
    a[5] += 8;
    ck_assert(!pattern_memo_same(&m, a, ~0u, 8, 4));             /* one lane moved */
    /* a partial warp: its inactive lanes may hold anything */
    uint32_t mask = 0x00ff00f0u;
    ck_assert(!pattern_memo_same(&m, a, mask, 8, 4));
    a[0] = 12345; a[31] ^= 0xfff0;
    for (int i = 0; i < 32; i++) if (mask >> i & 1) a[i] += 64;
    ck_assert(pattern_memo_same(&m, a, mask, 8, 4));
    ck_assert_uint_eq(m.first, a[4]);                            /* the first active lane's */
    ck_assert(!pattern_memo_same(&m, a, mask | 1u, 8, 4));       /* another mask */
    ck_assert(!pattern_memo_same(&m, a, 0, 8, 4));               /* no lane: never the same */
    ck_assert(!pattern_memo_same(&m, a, 0, 8, 4));
}
END_TEST

/* The geometry memsys takes from an SM's last access with the same lane
 * pattern gives every answer an access counted afresh gives: the same
 * latencies, pending codes, wavefronts and counters, for loads through
 * L1 and around it, stores, reductions, 4- to 16-byte lanes, partial
 * warps, patterns moved by whole lines, by less, and not moved. */
START_TEST(memsys_pattern_memo_is_exact)
{
    gpu_config h = cfg("h100");
    for (int windowed = 0; windowed < 2; windowed++) {
        memsys *m[2] = { memsys_new(&h, 2, 0), memsys_new(&h, 2, 0) };
        ck_assert_ptr_nonnull(m[0]);
        ck_assert_ptr_nonnull(m[1]);
        if (windowed) { memsys_windowed(m[0], true); memsys_windowed(m[1], true); }
        uint64_t rng = 777, pat[4][32], t = 10;
        for (int p = 0; p < 4; p++)
            for (int i = 0; i < 32; i++) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                pat[p][i] = p == 0 ? (uint64_t)i * 4 : p == 1 ? (uint64_t)(i % 16) * 4 + (uint64_t)(i / 16) * 1024
                          : p == 2 ? (uint64_t)i * 132 : (rng >> 40) % 4096 * 16;
            }
        uint32_t repeats = 0;
        for (int round = 0; round < 4000; round++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t r = (uint32_t)(rng >> 33), p = r % 4, sm = r >> 2 & 1, bytes = 4u << (r >> 3 & 3) % 3;
            uint32_t mask = r >> 5 & 3 ? ~0u : (r | 1u) << 3 | 1u;
            uint64_t move = (r >> 7 & 3) == 0 ? 0 : (r >> 7 & 3) == 1 ? (uint64_t)(r >> 9 & 63) * 128 : (uint64_t)(r >> 9 & 63) * 16;
            uint64_t a[32], off[32];
            /* shared: 1- to 16-byte lanes, moved by whole lanes (2-byte
             * lanes moved by 2 bytes have other bank conflicts) */
            uint32_t sbytes = 1u << (r >> 22) % 3;
            for (int i = 0; i < 32; i++) a[i] = 0x2f0000400000ull + pat[p][i] * (bytes / 4) + move;
            if (round % 3 == 1) {
                bytes = sbytes;
                mask = ~0u;
                for (int i = 0; i < 32; i++) off[i] = (pat[p % 2 + 1][i] / 4 * sbytes + (r >> 25 & 127) * sbytes) % 40000;
                uint32_t wf[2], ideal[2];
                uint64_t lat[2], at[2];
                for (int k = 0; k < 2; k++) {
                    if (k) m[k]->sm[sm].shared_geo.p.valid = false;
                    lat[k] = memsys_shared(m[k], sm, t, off, mask, bytes, NULL, &at[k], &wf[k], &ideal[k]);
                }
                ck_assert_uint_eq(lat[0], lat[1]);
                ck_assert_uint_eq(wf[0], wf[1]);
                ck_assert_uint_eq(ideal[0], ideal[1]);
                uint32_t want_ideal;
                ck_assert_uint_eq(wf[0], mm_shared_wavefronts(off, mask, bytes, &want_ideal));
                ck_assert_uint_eq(ideal[0], want_ideal);
            } else {
                enum ms_op op = r >> 15 & 1 ? MS_LOAD : r >> 16 & 1 ? MS_STORE : r >> 17 & 1 ? MS_RED : MS_LOAD;
                enum ms_path path = r >> 18 & 1 ? MS_BYPASS : MS_CACHED;
                if (op == MS_RED) bytes = 4;
                repeats += m[0]->sm[sm].global_geo.p.valid && m[0]->sm[sm].global_geo.p.mask == mask && move % 128 == 0;
                uint64_t lat[2];
                for (int k = 0; k < 2; k++) {
                    if (k) m[k]->sm[sm].global_geo.p.valid = false;
                    lat[k] = memsys_global(m[k], sm, t, a, mask, bytes, op, path);
                }
                ck_assert_uint_eq(lat[0], lat[1]);
            }
            t += r >> 20 & 15;
            if (windowed && round % 50 == 49) {
                ck_assert_int_eq(memsys_settle(m[0]), 0);
                ck_assert_int_eq(memsys_settle(m[1]), 0);
            }
        }
        ck_assert_uint_gt(repeats, 200);           /* the memo was there to be used */
        if (windowed) { ck_assert_int_eq(memsys_settle(m[0]), 0); ck_assert_int_eq(memsys_settle(m[1]), 0); }
        ck_assert_uint_eq(m[0]->l1_hits, m[1]->l1_hits);
        ck_assert_uint_eq(m[0]->l1_lookups, m[1]->l1_lookups);
        ck_assert_uint_eq(m[0]->write_sectors, m[1]->write_sectors);
        memsys_free(m[0]);
        memsys_free(m[1]);
    }
}
END_TEST

/* A sub-partition's fetch of the line its last fetch asked for, with no
 * fetch between, takes the same lines again without looking them up:
 * the answers, and the caches' state after (the answers of every fetch
 * after), are those of fetches that each look their lines up. */
START_TEST(ifetch_same_line_again_is_exact)
{
    /* L0s of 4 sets and of one (4 ways): a fetch's lines evict one
     * another's set mates, and with 5 lines in one set their own first */
    static const uint32_t l0_bytes[3] = { 2048, 512, 512 }, ahead[3] = { 4, 3, 4 };
    for (int v = 0; v < 3; v++) {
        gpu_config h = cfg("h100");
        h.icache_l0_bytes = l0_bytes[v];
        h.icache_ahead = ahead[v];
        ifetch *f[2] = { ifetch_new(&h, 2), ifetch_new(&h, 2) };
        ck_assert_ptr_nonnull(f[0]);
        ck_assert_ptr_nonnull(f[1]);
        for (int k = 0; k < 2; k++) {
            ck_assert_int_eq(ifetch_launch(f[k], 64 * 1024, 0), 0);
            ifetch_sm_start(f[k], 0);
            ifetch_sm_start(f[k], 1);
        }
        uint64_t rng = 31337, line[8] = { 0 };
        uint32_t again = 0;
        double t = 0;
        for (int n = 0; n < 20000; n++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t r = (uint32_t)(rng >> 33), sm = r & 1, sp = r >> 1 & 3;
            /* a sub-partition's fetches: mostly the line of its last or
             * the next one; now and then a jump */
            uint64_t *l = &line[sm * 4 + sp], prev = *l;
            uint32_t c = r >> 3 & 15;
            *l = c < 8 ? *l : c < 14 ? *l + 1 : (r >> 7) % 400;
            again += *l == prev;
            uint64_t addr = *l * 128 + (r >> 16 & 127);
            double a = ifetch_line(f[0], sm, sp, t, addr);
            ifetch_forget_last(f[1]);
            double b = ifetch_line(f[1], sm, sp, t, addr);
            ck_assert(a == b);
            t += r >> 20 & 7;
        }
        ck_assert_uint_gt(again, 5000);
        ifetch_free(f[0]);
        ifetch_free(f[1]);
    }
}
END_TEST

/* Brute-force references for the address counters: distinct sectors and
 * lines of every byte the active lanes touch, the most distinct words of
 * one shared-memory bank, and the most active lanes on one address. */
static uint32_t count_distinct(const uint64_t *a, uint32_t m, uint32_t bytes, unsigned shift)
{
    uint64_t seen[32 * 64];
    uint32_t n = 0;
    for (int i = 0; i < 32; i++) {
        if (!(m >> i & 1)) continue;
        for (uint64_t b = a[i]; b < a[i] + bytes; b++) {
            uint32_t j = 0;
            while (j < n && seen[j] != b >> shift) j++;
            if (j == n) seen[n++] = b >> shift;
        }
    }
    return n;
}

/* 4-byte banks, accesses of up to 4 bytes: the most distinct words a bank is asked for */
static uint32_t most_words_in_one_bank(const uint64_t *a, uint32_t m)
{
    uint32_t worst = 1;
    for (int b = 0; b < 32; b++) {
        uint32_t n = 0;
        for (int i = 0; i < 32; i++) {
            if (!(m >> i & 1) || (a[i] >> 2 & 31) != (uint64_t)b) continue;
            int j = 0;
            while (j < i && !((m >> j & 1) && a[j] >> 2 == a[i] >> 2)) j++;
            n += j == i;              /* the first lane with this word */
        }
        if (n > worst) worst = n;
    }
    return worst;
}

static uint32_t most_on_one_address(const uint64_t *a, uint32_t m)
{
    uint32_t worst = 0;
    for (int i = 0; i < 32; i++) {
        uint32_t n = 0;
        for (int j = 0; j < 32; j++) n += (m >> i & 1) && (m >> j & 1) && a[j] == a[i];
        if (n > worst) worst = n;
    }
    return worst;
}

/* The wavefronts of an 8- or 16-byte shared access by their definition
 * (coalesce.c): lanes in groups of 32 (8 bytes) or 16 (16 bytes); a group
 * takes as many wavefronts as one bank has distinct words in it, and
 * without conflicts one per 128 bytes of distinct words. */
static uint32_t wide_wavefronts(const uint64_t *a, uint32_t m, uint32_t bytes, uint32_t *ideal)
{
    uint32_t per = bytes <= 8 ? 32 : 16, nw = bytes / 4, total = 0, least = 0;
    for (uint32_t g = 0; g < 32; g += per) {
        uint64_t words[128];
        uint32_t n = 0, worst = 1;
        for (uint32_t k = g; k < g + per; k++) {
            if (!(m >> k & 1)) continue;
            for (uint32_t w = 0; w < nw; w++) {
                uint64_t x = (a[k] >> 2) + w;
                uint32_t j = 0;
                while (j < n && words[j] != x) j++;
                if (j == n) words[n++] = x;
            }
        }
        if (!n) continue;
        for (uint32_t b = 0; b < 32; b++) {
            uint32_t c = 0;
            for (uint32_t j = 0; j < n; j++) c += (words[j] & 31) == b;
            if (c > worst) worst = c;
        }
        total += worst;
        least += n > 32 ? (n + 31) / 32 : 1;
    }
    *ideal = least;
    return total;
}

/* A store's sectors sent to L2 (memsys's write_sectors, no combining
 * outside windows) are its distinct sectors, in any lane order: rising
 * (no search), falling, shuffled, strided, crossing sectors, partial. */
START_TEST(store_sectors_match_distinct)
{
    gpu_config h = cfg("h100");
    memsys *m = memsys_new(&h, 1, 0);
    ck_assert_ptr_nonnull(m);
    uint64_t rng = 4242, a[32], t = 100;
    for (int round = 0; round < 3000; round++) {
        uint32_t bytes = 4u << (round % 3), kind = (uint32_t)(round / 3) % 5, stride = bytes << (round / 15 % 5);
        for (int i = 0; i < 32; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t r = rng >> 33;
            uint64_t base = 0x2f0000400000ull;
            switch (kind) {
            case 0: a[i] = base + (uint64_t)i * stride; break;
            case 1: a[i] = base + (uint64_t)(31 - i) * stride; break;
            case 2: a[i] = base + (r % 96) * bytes; break;
            case 3: a[i] = base + (uint64_t)(i / 4) * 40 + (uint64_t)(i % 4) * bytes; break;
            default: a[i] = base + (uint64_t)i * stride + (i == 17 ? 4096 : 0) - (i > 20 ? 2048 : 0); break;
            }
        }
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t mask = round % 4 == 0 ? (uint32_t)(rng >> 32) | 1u : ~0u, sectors, lines;
        mm_sectors(a, mask, bytes, &sectors, &lines);
        uint64_t before = m->write_sectors;
        memsys_global(m, 0, t, a, mask, bytes, MS_STORE, MS_BYPASS);
        t += 1000;
        ck_assert_uint_eq(m->write_sectors - before, sectors);
    }
    memsys_free(m);
}
END_TEST

START_TEST(wide_shared_wavefronts_match_definition)
{
    /* float2/float4 a lane: in order, strided, broadcast, shuffled within
     * a tile, spread over more than 4 KB (the bitmap's window), partial */
    uint64_t rng = 99, a[32];
    for (int round = 0; round < 6000; round++) {
        uint32_t bytes = round % 2 ? 16 : 8, kind = (uint32_t)(round / 2) % 6, stride = bytes << (round / 12 % 4);
        for (int i = 0; i < 32; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t r = rng >> 33;
            switch (kind) {
            case 0: a[i] = 4096 + (uint64_t)i * bytes; break;
            case 1: a[i] = 4096 + (uint64_t)i * stride; break;
            case 2: a[i] = 4096 + (uint64_t)(i / 8) * bytes; break;
            case 3: a[i] = 4096 + (r % 256) * bytes; break;
            case 4: a[i] = (r % 4096) * bytes; break;
            default: a[i] = 4096 + (uint64_t)(31 - i) * stride + (r % 2) * 8192; break;
            }
        }
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t m = round % 3 == 0 ? ~0u : (uint32_t)(rng >> 32) | 1u;
        uint32_t ideal, want_ideal, want = wide_wavefronts(a, m, bytes, &want_ideal);
        ck_assert_uint_eq(mm_shared_wavefronts(a, m, bytes, &ideal), want);
        ck_assert_uint_eq(ideal, want_ideal);
    }
}
END_TEST

START_TEST(coalesce_counters_match_brute_force)
{
    /* in order, shuffled, colliding, crossing sectors, partial masks */
    uint64_t rng = 12345, a[32];
    for (int round = 0; round < 4000; round++) {
        uint32_t bytes = (uint32_t)1 << (round % 5);          /* 1 .. 16 */
        int kind = round / 5 % 5;
        for (int i = 0; i < 32; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t r = rng >> 33;
            switch (kind) {
            case 0: a[i] = 0x2f0000001000ull + (uint64_t)i * bytes; break;               /* coalesced */
            case 1: a[i] = 0x2f0000001000ull + (uint64_t)i * bytes * (1 + r % 3); break; /* in order, gaps */
            case 2: a[i] = 0x2f0000001000ull + (r % 64) * bytes; break;                  /* shuffled, colliding */
            case 3: a[i] = 0x2f0000001000ull + (uint64_t)i * 7 + 20; break;              /* unaligned, crossing */
            default: a[i] = 0x2f0000001000ull + (uint64_t)(31 - i) * bytes; break;       /* descending */
            }
        }
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t m = round % 3 == 0 ? ~0u : (uint32_t)(rng >> 32) | 1u;
        uint32_t sectors, lines;
        mm_sectors(a, m, bytes, &sectors, &lines);
        ck_assert_uint_eq(sectors, count_distinct(a, m, bytes, 5));
        ck_assert_uint_eq(lines, count_distinct(a, m, bytes, 7));
        ck_assert_uint_eq(mm_shared_atomic_rounds(a, m, 1), most_on_one_address(a, m));
        if (bytes <= 4) {
            uint32_t ideal;
            ck_assert_uint_eq(mm_shared_wavefronts(a, m, bytes, &ideal), most_words_in_one_bank(a, m));
            ck_assert_uint_eq(ideal, 1);
        }
    }
}
END_TEST

/* The sectors of an access with each one's lanes and bytes, as the lanes
 * of m first touch them (mm_sector_bytes), against a lane-by-lane
 * reference: coalesced warps of every width and base (its fast case), and
 * the same disturbed by one lane, a lane off, a misaligned base, a gap or
 * the reverse order (the general loop). */
static uint32_t sector_bytes_reference(const uint64_t *a, uint32_t m, uint32_t bytes, uint64_t *sec, uint32_t *lanes, uint32_t *touched)
{
    uint32_t n = 0;
    for (int i = 0; i < 32; i++) {
        if (!(m >> i & 1)) continue;
        for (uint64_t b = a[i]; b < a[i] + bytes; b++) {
            uint32_t k = 0;
            while (k < n && sec[k] != b >> 5) k++;
            if (k == n) {
                if (n == 64) continue;
                sec[n] = b >> 5; lanes[n] = 0; touched[n++] = 0;
            }
            /* a lane counts once in each sector it touches */
            if (b == a[i] || (b & 31) == 0) lanes[k]++;
            touched[k] |= 1u << (b & 31);
        }
    }
    return n;
}

START_TEST(sector_bytes_match_reference)
{
    uint64_t rng = 777, a[32];
    for (int round = 0; round < 6000; round++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t bytes = round % 7 == 6 ? 12 : (uint32_t)1 << (round % 7 % 6);     /* 1 .. 32, and 12 */
        uint64_t base = 0x2f0000000000ull + (rng >> 40) * bytes;
        for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)i * bytes;
        uint32_t m = ~0u;
        int kind = round / 7 % 6;
        int lane = (int)(rng >> 20 & 31);
        if (kind == 1) a[lane] += bytes;                          /* one lane repeats its neighbour's */
        if (kind == 2) for (int i = 0; i < 32; i++) a[i] += 1 + (rng >> 30 & 3);   /* misaligned */
        if (kind == 3) for (int i = lane; i < 32; i++) a[i] += 64;   /* a gap */
        if (kind == 4) for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)(31 - i) * bytes;
        if (kind == 5) m &= ~(1u << lane);
        uint64_t sec[64], rsec[64];
        uint32_t lanes[64], rlanes[64], touched[64], rtouched[64];
        uint32_t n = mm_sector_bytes(a, m, bytes, sec, lanes, touched);
        ck_assert_uint_eq(n, sector_bytes_reference(a, m, bytes, rsec, rlanes, rtouched));
        for (uint32_t k = 0; k < n; k++) {
            ck_assert_uint_eq(sec[k], rsec[k]);
            ck_assert_uint_eq(lanes[k], rlanes[k]);
            ck_assert_uint_eq(touched[k], rtouched[k]);
        }
    }
}
END_TEST

START_TEST(memsys_constant_broadcast)
{
    uint64_t a[32];
    gpu_config h = cfg("h100");
    memsys *m = memsys_new(&h, 1, 0);
    lanes_stride(a, 0x2f0000200000ull, 0);          /* one address: broadcast */
    memsys_const(m, 0, 0, a, ~0u, 4, 1);            /* warm the constant cache */
    uint64_t one = memsys_const(m, 0, 5000, a, ~0u, 4, 1);
    /* the next read in the same cycle waits for the port: a constant-bank
     * operand 1 cycle, an LDC ldc_cycles (whole cycles of the wait) */
    uint64_t next = memsys_const(m, 0, 5000, a, ~0u, 4, 1);
    memsys_const(m, 0, 6000, a, ~0u, 4, h.ldc_cycles);
    uint64_t next_ldc = memsys_const(m, 0, 6000, a, ~0u, 4, h.ldc_cycles);
    lanes_stride(a, 0x2f0000200000ull, 4);          /* 32 addresses: serialised */
    memsys_const(m, 0, 10000, a, ~0u, 4, 1);
    uint64_t many = memsys_const(m, 0, 20000, a, ~0u, 4, 1);
    ck_assert_uint_eq(one, h.lat_l1);
    ck_assert_uint_eq(next, h.lat_l1 + 1);
    ck_assert(h.ldc_cycles > 2);
    ck_assert_uint_eq(next_ldc, h.lat_l1 + (uint64_t)h.ldc_cycles);
    ck_assert_uint_eq(many, h.lat_l1 + 31);
    memsys_free(m);
}
END_TEST

/* The one-pass figures of a 4-byte shared atomic equal the general
 * functions' (wavefronts as for a store, rounds with contention) on
 * histogram-like, broadcast, strided and partial-warp lane patterns; a
 * misaligned address is left to the general functions. */
START_TEST(shared_atomic4_matches_general)
{
    uint64_t rng = 777, a[32];
    for (int round = 0; round < 5000; round++) {
        uint32_t bins = 1u + (uint32_t)(round % 300), stride = 4u << (round % 4);
        /* bins at 0, and elsewhere: inside one 1 KB block or across two,
         * in another block's shared memory of the cluster */
        uint64_t base = (uint64_t)(round % 11) * 388 + (round % 13 == 0 ? 1ull << CLUSTER_RANK_SHIFT : 0);
        for (int i = 0; i < 32; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t r = rng >> 33;
            a[i] = base + (round % 3 == 0 ? (r % bins) * 4 : round % 3 == 1 ? (uint64_t)i * stride : (r % bins) * stride);
        }
        uint32_t m = round % 7 == 0 ? (uint32_t)(rng >> 20) : 0xffffffffu;
        if (!m) continue;
        /* an inactive lane's address counts for nothing, wherever it lies */
        if (round % 14 == 0) for (int i = 0; i < 32; i++) if (!(m >> i & 1)) a[i] = rng * (uint64_t)(i + 1);
        uint32_t ideal, wf = mm_shared_wavefronts(a, m, 4, &ideal), wf1 = 0;
        uint32_t rounds = mm_shared_atomic_rounds(a, m, wf);
        int64_t r1 = mm_shared_atomic4(a, m, &wf1);
        ck_assert_int_eq(r1, rounds);
        ck_assert_uint_eq(wf1, wf);
    }
    a[0] = 2;
    for (int i = 1; i < 32; i++) a[i] = (uint64_t)i * 4;
    uint32_t wf1 = 99;
    ck_assert_int_eq(mm_shared_atomic4(a, 0xffffffffu, &wf1), -1);
    ck_assert_uint_eq(wf1, 99);
    ck_assert_int_eq(mm_shared_atomic4(a, 0xfffffffeu, &wf1), 1);   /* lane 0 inactive: aligned */
}
END_TEST

/* Device allocations stay inside the address map (EMU_ADDR_MAP_HI), with
 * a gap after each, never overlapping a live one; once the window's end is
 * reached, the ranges freed allocations left are handed out again, so a
 * program allocating and freeing in a loop never runs out of addresses. */
START_TEST(device_addresses_reused)
{
    emu_options o;
    emu_default_options(&o);
    emu *e = emu_new(NULL, &o);
    ck_assert_ptr_nonnull(e);
    const uint64_t big = 32ull << 30;              /* lazily backed: costs nothing */
    uint64_t keep = emu_alloc(e, 4096, "kept");
    ck_assert_uint_ge(keep, GLOBAL_BASE);
    uint64_t prev = 0;
    for (int i = 0; i < 80; i++) {                 /* 2.5 TiB in all, the window is 1 */
        uint64_t a = emu_alloc(e, big, "loop");
        ck_assert_msg(a != 0, "allocation %d failed", i);
        ck_assert_uint_ge(a, GLOBAL_BASE);
        ck_assert_uint_le(a + big, EMU_ADDR_MAP_HI);
        ck_assert(a % 256 == 0);
        ck_assert(a >= keep + 4096 + 4096 || a + big + 4096 <= keep);
        if (prev) ck_assert_int_eq(emu_free_region(e, prev), 0);
        prev = a;
    }
    /* with one 32 GiB allocation live, a second can still be placed */
    uint64_t b = emu_alloc(e, big, "second");
    ck_assert(b != 0);
    ck_assert(b + big + 4096 <= prev || b >= prev + big + 4096);
    emu_free(e);
}
END_TEST

static Suite *memsys_suite(void)
{
    Suite *s = suite_create("memsys");
    TCase *t = tcase_create("timeline");
    tcase_add_test(t, timeline_in_order_is_first_come_first_served);
    tcase_add_test(t, timeline_later_bookings_do_not_delay_earlier_ones);
    tcase_add_test(t, timeline_never_serves_faster_than_its_rate);
    tcase_add_test(t, timeline_ring_moves_on);
    tcase_add_test(t, timeline_reset_leaves_every_window_clear);
    tcase_add_test(t, timeline_group_members_book_as_alone);
    suite_add_tcase(s, t);
    t = tcase_create("cache");
    tcase_add_test(t, cache_sectors_and_lru);
    tcase_add_test(t, cache_dirty_eviction);
    tcase_add_test(t, cache_lru_survives_the_clock_wrapping);
    tcase_add_test(t, cache_mapped_lookups);
    suite_add_tcase(s, t);
    t = tcase_create("dram");
    tcase_add_test(t, dram_row_hit_is_faster);
    tcase_add_test(t, dram_activates_are_rate_limited);
    tcase_add_test(t, dram_out_of_order_requests);
    tcase_add_test(t, dram_linear_channels_camp);
    suite_add_tcase(s, t);
    t = tcase_create("l2");
    tcase_add_test(t, l2_write_back_on_eviction);
    tcase_add_test(t, l2_far_partition_counts_twice);
    tcase_add_test(t, l2_read_miss_fills_its_pair);
    tcase_add_test(t, l2_cleans_beyond_dirty_ways);
    tcase_add_test(t, l2_dirty_budget_is_the_partitions);
    tcase_add_test(t, l2_write_drops_the_far_copy);
    tcase_add_test(t, l2_partial_write_of_a_copied_sector_takes_longer);
    tcase_add_test(t, l2_far_atomic_miss_reads_its_fill);
    tcase_add_test(t, l2_atomics_serialise_per_slice);
    tcase_add_test(t, l2_partial_writes_fetch_with_a_granule);
    tcase_add_test(t, l2_byte_masks_fill_incomplete_sectors);
    tcase_add_test(t, l2_byte_masks_count_writes_by_arrival);
    suite_add_tcase(s, t);
    t = tcase_create("memsys");
    tcase_add_test(t, memsys_l1_policies);
    tcase_add_test(t, memsys_atomic_unit_counts_passes);
    tcase_add_test(t, memsys_mshr_merges_misses);
    tcase_add_test(t, memsys_mshr_per_line);
    tcase_add_test(t, memsys_shared_own_wavefronts_first);
    tcase_add_test(t, memsys_windowed_matches_immediate);
    tcase_add_test(t, wide_shared_wavefronts_match_definition);
    tcase_add_test(t, store_sectors_match_distinct);
    tcase_add_test(t, memsys_batches_serve_while_the_next_is_made);
    tcase_add_test(t, memsys_l1_takes_a_line_at_a_time);
    tcase_add_test(t, memsys_misses_leave_line_after_line);
    tcase_add_test(t, memsys_misaligned_store_reads_partial_sectors);
    tcase_add_test(t, memsys_serve_parts_match_serial);
    tcase_add_test(t, memsys_carveout);
    tcase_add_test(t, memsys_shared_banks);
    tcase_add_test(t, pattern_memo_moves_by_whole_blocks);
    tcase_add_test(t, sched_list_first_gives_way);
    tcase_add_test(t, memsys_pattern_memo_is_exact);
    tcase_add_test(t, ifetch_same_line_again_is_exact);
    tcase_add_test(t, memsys_stores_combine_in_the_queue);
    tcase_add_test(t, memsys_stores_join_in_the_l1_queue);
    tcase_add_test(t, coalesce_counters_match_brute_force);
    tcase_add_test(t, sector_bytes_match_reference);
    tcase_add_test(t, memsys_constant_broadcast);
    tcase_add_test(t, device_addresses_reused);
    tcase_add_test(t, shared_atomic4_matches_general);
    tcase_add_test(t, wbuf_apart_buffers_are_zeroed_and_separate);
    tcase_add_test(t, wbuf_free_leaves_untouched_buffers_unbacked);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(memsys_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
