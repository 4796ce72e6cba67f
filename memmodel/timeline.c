/* memmodel/timeline.c - out-of-order bookings of a resource (see timeline.h). */
#include <stdlib.h>
#include <string.h>
#include "memmodel/timeline.h"

/* At most TIMELINE_MAX_WINDOWS windows, whatever the rate: a resource so
 * fast that its windows would be narrower gets wider ones (bookings queue
 * within a window for at most its width), so memory does not grow with a
 * configuration's clock or bandwidth. */
static double clamp_width(double width, double horizon) {
  return width * TIMELINE_MAX_WINDOWS < horizon ? horizon / TIMELINE_MAX_WINDOWS : width;
}

uint32_t timeline_windows(double width, double horizon) {
  width = clamp_width(width, horizon);
  uint32_t n = 16;
  while (n < TIMELINE_MAX_WINDOWS && n * width < horizon) n <<= 1;
  return n;
}

size_t timeline_group_pool_bytes(uint32_t count, double width, double horizon) {
  if (!(width > 0)) return 0;
  size_t n = (size_t)timeline_windows(width, horizon) * count;
  return lazypool_bytes(n * sizeof(double)) + lazypool_bytes(n * sizeof(uint32_t));
}

/* Member k of a group: step bytes after member k - 1 (a field of an array's elements). */
static timeline *member(timeline *first, size_t step, uint32_t k) { return (timeline *)((char *)first + (size_t)k * step); }

int timeline_init_group(timeline *first, size_t step, uint32_t count, double width, double horizon, lazypool *p) {
  if (!count) return 0;
  for (uint32_t k = 0; k < count; k++) memset(member(first, step, k), 0, sizeof *first);
  if (!(width > 0)) return -1;
  uint32_t n = timeline_windows(width, horizon);
  width = clamp_width(width, horizon);
  size_t cells = (size_t)n * count;
  /* zeroed memory is an empty ring: touched (backed) window by window */
  void *used, *skip;
  bool own = !lazypool_take2(p, cells * sizeof(double), &used, cells * sizeof(uint32_t), &skip);
  if (own) {
    used = calloc(cells, sizeof(double));
    skip = calloc(cells, sizeof(uint32_t));
    if (!used || !skip) { free(used); free(skip); return -1; }
  }
  for (uint32_t k = 0; k < count; k++) {
    timeline *tl = member(first, step, k);
    tl->n = n;
    tl->width = width;
    tl->stride = count;
    tl->used = (double *)used + k;
    tl->skip = (uint32_t *)skip + k;
    tl->owns = own && k == 0;      /* the first member frees the group's arrays */
  }
  return 0;
}

int timeline_init(timeline *tl, double width, double horizon) {
  return timeline_init_group(tl, sizeof *tl, 1, width, horizon, NULL);
}

void timeline_free(timeline *tl) {
  if (tl->owns) {
    free(tl->used);
    free(tl->skip);
  }
  tl->used = NULL;
  tl->skip = NULL;
}

/* skip[c] holds the distance less one, so that zeroed windows are empty */
static void clear(timeline *tl, size_t c) { tl->used[c] = 0; tl->skip[c] = 0; }

/* Where window w's ring slot lies in used[] and skip[] */
static size_t cell(const timeline *tl, uint64_t w) { return (size_t)(w & (tl->n - 1)) * tl->stride; }

static void clear_all(timeline *tl) {
  for (uint32_t i = 0; i < tl->n; i++) clear(tl, cell(tl, i));
  tl->lo = 0;
  tl->tail = 0;
  tl->nnoted = 0;
}

/* Window w's cell c is about to be written: noted where it is empty until
 * now.  A cell holds something only after such a write, so while few are
 * noted a reset clears just those (a DRAM bank booked a few times in a
 * launch of thousands of windows). */
static void note(timeline *tl, uint64_t w, size_t c) {
  if (tl->used[c] != 0 || tl->nnoted > TIMELINE_NOTED) return;
  if (tl->nnoted < TIMELINE_NOTED) tl->noted[tl->nnoted] = w;
  tl->nnoted++;
}

/* A ring nothing was booked in since is still all clear.  Otherwise the
 * windows noted, while they are few; else only windows lo .. tail's can
 * hold bookings (slot clears those it drops below lo, and no booking ends
 * past tail).  The rest stay untouched: a pool's timelines are backed only
 * where a launch booked them. */
void timeline_reset(timeline *tl) {
  if (tl->booked) {
    uint64_t top = (uint64_t)(tl->tail / tl->width);
    if (tl->nnoted <= TIMELINE_NOTED) for (uint32_t k = 0; k < tl->nnoted; k++) clear(tl, cell(tl, tl->noted[k]));
    else if (top >= tl->lo + tl->n - 1) clear_all(tl);
    else for (uint64_t w = tl->lo; w <= top; w++) clear(tl, cell(tl, w));
    tl->lo = 0;
    tl->tail = 0;
    tl->nnoted = 0;
  }
  tl->booked = false;
}

/* Window w's cell, making w part of the ring by dropping the oldest ones. */
static size_t slot(timeline *tl, uint64_t w) {
  if (w >= tl->lo + tl->n) {
    uint64_t lo = w - tl->n + 1;
    if (lo - tl->lo >= tl->n) clear_all(tl);
    else for (uint64_t i = tl->lo; i < lo; i++) clear(tl, cell(tl, i));
    tl->lo = lo;
  }
  return cell(tl, w);
}

static int full(const timeline *tl, size_t c) { return tl->used[c] >= tl->width; }

/* The first window from w on with room.  A full window's skip leads to a
 * later window that had room when it was set; the walk shortens the paths
 * it takes (windows only fill, so a skip never passes a window with room). */
static uint64_t first_room(timeline *tl, uint64_t w) {
  size_t i = slot(tl, w);
  while (full(tl, i)) {
    uint64_t nx = w + tl->skip[i] + 1;
    if (nx < tl->lo + tl->n) {
      size_t j = cell(tl, nx);
      if (full(tl, j) && nx + tl->skip[j] + 1 - w < tl->n) tl->skip[i] = (uint32_t)(nx + tl->skip[j] - w);
    }
    w = nx;
    i = slot(tl, w);
  }
  return w;
}

double timeline_take(timeline *tl, double t, double cost) {
  uint64_t w = t > 0 ? (uint64_t)(t / tl->width) : 0;
  if (w < tl->lo) w = tl->lo;
  tl->booked = true;
  double start;
  size_t i;
  for (;;) {
    /* the first window from t's with room; in time order (nothing booked
     * after t) that is t's own */
    if (t < tl->tail) w = first_room(tl, w);
    i = slot(tl, w);
    double base = (double)w * tl->width, open = base + tl->used[i];
    start = t > open ? t : open;
    /* within a window bookings queue one after another; one that runs past
     * the window's end goes on into the next ones only while they are empty */
    double end = start - base + cost;
    if (end <= tl->width) {
      note(tl, w, i);
      tl->used[i] = end;
      break;
    }
    uint64_t k = 1;
    for (double rest = end - tl->width; rest > 0 && k < tl->n / 2; rest -= tl->width, k++)
      if (tl->used[slot(tl, w + k)] != 0) break;   /* (w stays in the ring: k < n) */
    bool fits = end - tl->width <= (double)(k - 1) * tl->width;
    note(tl, w, i);
    tl->used[i] = tl->width;
    if (fits) {
      double rest = end - tl->width;
      for (uint64_t m = 1; rest > 0; m++, rest -= tl->width) {
        size_t c = slot(tl, w + m);
        note(tl, w + m, c);      /* (empty: the loop above found them so) */
        tl->used[c] = rest < tl->width ? rest : tl->width;
      }
      break;
    }
    w++;                           /* too little room left here: try further on */
  }
  if (start + cost > tl->tail) tl->tail = start + cost;
  return start;
}
