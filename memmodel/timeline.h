/* memmodel/timeline.h - a shared resource (an L2 slice's data path, a DRAM
 * channel's bus, a bank) booked by requests that arrive out of time order.
 *
 * The memory system computes a request's whole path when its warp issues,
 * so a request that first waits (for an MSHR, say) books the L2 and DRAM
 * at a later cycle than requests of other SMs booked after it.  A single
 * "free from" cycle per resource would make those present requests queue
 * behind the future one, their own MSHRs would then free late, and the
 * delay feeds on itself (a streaming kernel fell to a tenth of the DRAM
 * bandwidth).  A timeline instead keeps how much service each window of
 * `width` cycles has sold: a request takes the first window at or after
 * its own cycle that has room, so it waits for work booked in its window
 * before it, not for work booked later in time, whatever the order of the
 * calls.  Within a window bookings queue first come, first served (a
 * request booked after a later one in the same window waits for it, at
 * most a window's worth), so the resource never serves more than its rate.
 *
 * Invariants: windows are numbered from cycle 0; the ring holds windows
 * lo .. lo + n - 1 (n a power of two); a window's `used` is at most width
 * between calls (the excess moves on to the next window); a request for a
 * cycle before window lo is served as if at window lo.  Requests that
 * arrive in time order are served first come, first served exactly. */
#ifndef MEMMODEL_TIMELINE_H
#define MEMMODEL_TIMELINE_H
#include <stdbool.h>
#include <stdint.h>
#include "util/lazymap.h"

typedef struct timeline {
  double *used;                    /* how far into each window it is sold, cycles */
  uint32_t *skip;                  /* full windows: how far on to look for room, less one */
  uint32_t n;                      /* windows in the ring, a power of two */
  uint32_t stride;                 /* window i at used[i * stride] (a group's members interleave) */
  double width;                    /* cycles per window */
  uint64_t lo;                     /* the oldest window the ring holds */
  double tail;                     /* the end of the latest booking */
  bool booked;                     /* anything booked since the last reset */
  bool owns;                       /* used and skip are its own allocations (not a pool's) */
  uint32_t nnoted;                 /* windows first written since the last reset (counts on past TIMELINE_NOTED) */
  uint64_t noted[4];               /* the first of them: all a reset must clear while nnoted <= 4 */
} timeline;
#define TIMELINE_NOTED 4u

/* How far, in cycles, the memory system's timelines look ahead of the
 * oldest booking they keep: longer queues than that are not modelled. */
#define TIMELINE_HORIZON 32768.0
/* The most windows a timeline keeps (12 bytes each). */
#define TIMELINE_MAX_WINDOWS 8192u

/* A timeline covering about `horizon` cycles in windows of `width`. */
int timeline_init(timeline *tl, double width, double horizon);
/* Timelines of one shape whose windows interleave: window i of member k
 * lies at [i * count + k]; member k is step bytes after member k - 1 (the
 * same field of consecutive array elements).  A memory system books its channels' or banks'
 * windows of about the same time one after another, so those share host
 * cache lines, and a launch of a few thousand cycles backs only the first
 * windows of each member instead of a page or more of each ring. */
int timeline_init_group(timeline *first, size_t step, uint32_t count, double width, double horizon, lazypool *p);
/* The bytes timeline_init_group(count members, width, horizon) takes from a pool. */
size_t timeline_group_pool_bytes(uint32_t count, double width, double horizon);
/* The windows such a timeline keeps (each takes TIMELINE_WINDOW_BYTES). */
uint32_t timeline_windows(double width, double horizon);
#define TIMELINE_WINDOW_BYTES (sizeof(double) + sizeof(uint32_t))
void timeline_free(timeline *tl);
void timeline_reset(timeline *tl);
/* Book `cost` cycles of service for a request ready at cycle t; returns the
 * cycle its service starts. */
double timeline_take(timeline *tl, double t, double cost);
#endif
