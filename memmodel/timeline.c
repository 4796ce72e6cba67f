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

size_t timeline_pool_bytes(double width, double horizon) {
  if (!(width > 0)) return 0;
  size_t n = timeline_windows(width, horizon);
  return lazypool_bytes(n * sizeof(double)) + lazypool_bytes(n * sizeof(uint32_t));
}

int timeline_init_in(timeline *tl, double width, double horizon, lazypool *p) {
  memset(tl, 0, sizeof *tl);
  if (!(width > 0)) return -1;
  uint32_t n = timeline_windows(width, horizon);
  width = clamp_width(width, horizon);
  tl->n = n;
  tl->width = width;
  /* zeroed memory is an empty ring: touched (backed) window by window */
  void *used, *skip;
  if ((tl->pooled = lazypool_take2(p, n * sizeof *tl->used, &used, n * sizeof *tl->skip, &skip))) {
    tl->used = used;
    tl->skip = skip;
    return 0;
  }
  tl->used = calloc(n, sizeof *tl->used);
  tl->skip = calloc(n, sizeof *tl->skip);
  return tl->used && tl->skip ? 0 : -1;
}

int timeline_init(timeline *tl, double width, double horizon) { return timeline_init_in(tl, width, horizon, NULL); }

void timeline_free(timeline *tl) {
  if (!tl->pooled) {
    free(tl->used);
    free(tl->skip);
  }
  tl->used = NULL;
  tl->skip = NULL;
}

/* skip[i] holds the distance less one, so that zeroed windows are empty */
static void clear(timeline *tl, uint32_t i) { tl->used[i] = 0; tl->skip[i] = 0; }

static void clear_all(timeline *tl) {
  for (uint32_t i = 0; i < tl->n; i++) clear(tl, i);
  tl->lo = 0;
  tl->tail = 0;
}

/* (a ring nothing was booked in since is still all clear) */
void timeline_reset(timeline *tl) {
  if (tl->booked) clear_all(tl);
  tl->booked = false;
}

/* Window w's slot, making w part of the ring by dropping the oldest ones. */
static uint32_t slot(timeline *tl, uint64_t w) {
  if (w >= tl->lo + tl->n) {
    uint64_t lo = w - tl->n + 1;
    if (lo - tl->lo >= tl->n) clear_all(tl);
    else for (uint64_t i = tl->lo; i < lo; i++) clear(tl, (uint32_t)(i & (tl->n - 1)));
    tl->lo = lo;
  }
  return (uint32_t)(w & (tl->n - 1));
}

static int full(const timeline *tl, uint32_t i) { return tl->used[i] >= tl->width; }

/* The first window from w on with room.  A full window's skip leads to a
 * later window that had room when it was set; the walk shortens the paths
 * it takes (windows only fill, so a skip never passes a window with room). */
static uint64_t first_room(timeline *tl, uint64_t w) {
  uint32_t i = slot(tl, w);
  while (full(tl, i)) {
    uint64_t nx = w + tl->skip[i] + 1;
    if (nx < tl->lo + tl->n) {
      uint32_t j = (uint32_t)(nx & (tl->n - 1));
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
  uint32_t i;
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
    if (end <= tl->width) { tl->used[i] = end; break; }
    uint64_t k = 1;
    for (double rest = end - tl->width; rest > 0 && k < tl->n / 2; rest -= tl->width, k++)
      if (tl->used[slot(tl, w + k)] != 0) break;   /* (w stays in the ring: k < n) */
    bool fits = end - tl->width <= (double)(k - 1) * tl->width;
    tl->used[i] = tl->width;
    if (fits) {
      double rest = end - tl->width;
      for (uint64_t m = 1; rest > 0; m++, rest -= tl->width) tl->used[slot(tl, w + m)] = rest < tl->width ? rest : tl->width;
      break;
    }
    w++;                           /* too little room left here: try further on */
  }
  if (start + cost > tl->tail) tl->tail = start + cost;
  return start;
}
