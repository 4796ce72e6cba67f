/* test_arena.c -- util/arena: zeroed, aligned, lasting allocations; blocks
 * that grow with use (a small module maps little); big objects apart;
 * arena_reset keeps the largest blocks and hands out zeroed memory again. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

static int all_zero(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) if (p[i]) return 0;
  return 1;
}

START_TEST(small_use_maps_little) {
  arena *a = arena_new();
  for (int i = 0; i < 100; i++) {
    unsigned char *p = arena_alloc(a, 10);
    ck_assert_msg(((uintptr_t)p & 15) == 0, "allocation %d not 16-byte aligned", i);
    ck_assert(all_zero(p, 10));
    memset(p, 0xab, 10);
  }
  /* 1.6 KB of objects: one first block, far below the largest size */
  ck_assert_msg(a->total < (256u << 10), "1.6 KB of objects took %zu bytes of blocks", a->total);
  arena_free(a);
}
END_TEST

START_TEST(grows_and_keeps_contents) {
  arena *a = arena_new();
  enum { N = 20000, SZ = 500 };
  unsigned char **p = malloc(N * sizeof *p);
  ck_assert_ptr_nonnull(p);
  for (int i = 0; i < N; i++) {
    p[i] = arena_alloc(a, SZ);
    ck_assert(all_zero(p[i], SZ));
    memset(p[i], i & 0xff, SZ);
  }
  for (int i = 0; i < N; i++) ck_assert_msg(p[i][0] == (i & 0xff) && p[i][SZ - 1] == (i & 0xff), "object %d overwritten", i);
  /* 10 MB of objects: the blocks hold them with at most one largest block to spare */
  size_t used = (size_t)N * SZ;
  ck_assert_msg(a->total >= used && a->total <= used + (5u << 20), "%zu bytes of objects in %zu bytes of blocks", used, a->total);
  free(p);
  arena_free(a);
}
END_TEST

START_TEST(big_objects_apart) {
  arena *a = arena_new();
  unsigned char *small = arena_alloc(a, 32);
  memset(small, 7, 32);
  size_t big = (size_t)3 << 20;
  unsigned char *b = arena_alloc(a, big);
  ck_assert(all_zero(b, big));
  memset(b, 9, big);
  /* the current block stays on top: the next small object follows the first */
  unsigned char *small2 = arena_alloc(a, 32);
  ck_assert_ptr_eq(small2, small + 32);
  ck_assert(small[0] == 7 && b[big - 1] == 9);
  /* an object between a quarter of the first block and a quarter of the
   * largest takes a larger standard block, not a mapping of its own */
  unsigned char *mid = arena_alloc(a, 200u << 10);
  ck_assert(all_zero(mid, 200u << 10));
  arena_free(a);
}
END_TEST

START_TEST(reset_reuses_zeroed) {
  arena *a = arena_new();
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 3000; i++) {
      unsigned char *p = arena_alloc(a, 1000);
      ck_assert_msg(all_zero(p, 1000), "round %d object %d not zero", round, i);
      memset(p, 0xff, 1000);
    }
    char *s = arena_strndup(a, "kernel_name_that_is_long", 6);
    ck_assert_str_eq(s, "kernel");
    size_t before = a->total;
    arena_reset(a);
    /* the largest blocks are kept for the next round, the others unmapped */
    ck_assert_msg(a->total <= before && a->total > 0, "round %d: %zu bytes kept of %zu", round, a->total, before);
    if (round > 0) ck_assert_msg(before <= (8u << 20), "round %d: the same work took %zu bytes", round, before);
  }
  arena_free(a);
}
END_TEST

START_TEST(grow_copies) {
  arena *a = arena_new();
  int *v = arena_alloc(a, 4 * sizeof *v);
  for (int i = 0; i < 4; i++) v[i] = i + 1;
  v = arena_grow(a, v, 4 * sizeof *v, 100000 * sizeof *v);
  for (int i = 0; i < 4; i++) ck_assert_int_eq(v[i], i + 1);
  v[99999] = 5;
  ck_assert_int_eq(v[99999], 5);
  arena_free(a);
}
END_TEST

int main(void) {
  Suite *s = suite_create("arena");
  TCase *tc = tcase_create("arena");
  tcase_add_test(tc, small_use_maps_little);
  tcase_add_test(tc, grows_and_keeps_contents);
  tcase_add_test(tc, big_objects_apart);
  tcase_add_test(tc, reset_reuses_zeroed);
  tcase_add_test(tc, grow_copies);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
