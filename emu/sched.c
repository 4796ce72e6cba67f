/* emu/sched.c - warp-scheduler policies and the queue of waiting warps
 * (see sched.h). */
#include <stdlib.h>
#include <string.h>
#include "emu/sched.h"
#include "emu/timing.h"
#include "gpu/config.h"

void sched_init_part(sched *s, int policy, sched_sp *sp, uint32_t active_limit) {
  memset(s, 0, sizeof *s);
  s->policy = policy;
  s->active_limit = active_limit ? active_limit : 1;
  s->sp = sp;
}

int sched_init(sched *s, int policy, uint32_t nsp_total, uint32_t active_limit) {
  sched_init_part(s, policy, calloc_lines(nsp_total, sizeof *s->sp), active_limit);
  s->own_sp = true;
  return s->sp ? 0 : -1;
}

void sched_free(sched *s) {
  free(s->heap);
  if (s->own_sp) free(s->sp);
  memset(s, 0, sizeof *s);
}

void sched_add(sched *s, twarp *tw) { tw->age = tw->stamp = ++s->counter; }

/* (inline in this file's loops: a list's pick asks it of every warp) */
static inline uint64_t priority_of(const sched *s, const twarp *tw) {
  if (s->policy == GPU_SCHED_GTO) return s->sp[tw->spi].greedy == tw ? 0 : tw->age;
  return tw->stamp;
}

uint64_t sched_priority(const sched *s, const twarp *tw) { return priority_of(s, tw); }

/* Order (cycle, priority) as one 128-bit key: the comparisons in the
 * heap's sift compile without branches (a pop's child choices are
 * unpredictable, and the queue runs once per issued instruction). */
__extension__ typedef unsigned __int128 hkey;
static inline hkey key_of(const heapent *h) { return (hkey)h->t << 64 | h->prio; }

int sched_push(sched *s, twarp *tw, uint64_t t) {
  /* one entry more than the heap holds: pop_top's sentinel */
  if (s->nheap + 1 >= s->capheap) {
    uint32_t nc = s->capheap ? s->capheap * 2 : 1024;
    heapent *nh = realloc(s->heap, nc * sizeof *nh);
    if (!nh) return -1;
    s->heap = nh;
    s->capheap = nc;
  }
  uint32_t i = s->nheap++;
  heapent e = { t, priority_of(s, tw), tw };
  hkey k = key_of(&e);
  while (i && k < key_of(&s->heap[(i - 1) / 2])) { s->heap[i] = s->heap[(i - 1) / 2]; i = (i - 1) / 2; }
  s->heap[i] = e;
  tw->queued = true;
  tw->key = tw->elig = t;
  tw->key_prio = e.prio;
  return 0;
}

static inline __attribute__((always_inline)) heapent pop_top(sched *s) {
  heapent *h = s->heap, top = h[0], last = h[--s->nheap];
  uint32_t n = s->nheap, i = 0;
  /* a sentinel after the last entry: a lone left child needs no test */
  h[n] = (heapent){ UINT64_MAX, UINT64_MAX, NULL };
  hkey lk = key_of(&last);
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n) break;
    c += key_of(&h[c + 1]) < key_of(&h[c]);
    if (!(key_of(&h[c]) < lk)) break;
    h[i] = h[c];
    i = c;
  }
  if (n) h[i] = last;
  return top;
}

/* The entry of a list's first warp another warp took the place of
 * (sched_list_join): it waits in the list again, without an event.  (An
 * entry of the warp's own with the same key is the same place in the
 * order: dropping either is the same.) */
static bool stale(const heapent *h) { return h->tw->stale && h->t == h->tw->stale_t && h->prio == h->tw->stale_prio; }

void sched_drop_stale_at_head(sched *s) {
  while (s->nheap && stale(&s->heap[0])) {
    s->heap[0].tw->stale = false;
    pop_top(s);
  }
}

bool sched_pop(sched *s, heapent *out) {
  while (s->nheap) {
    heapent h = pop_top(s);
    if (__builtin_expect(stale(&h), 0)) { h.tw->stale = false; continue; }
    /* gto: a warp queued as the greedy one that has lost that place since
     * goes back with its age (priorities are fixed when queued) */
    if (s->policy == GPU_SCHED_GTO && h.prio == 0 && s->sp[h.tw->spi].greedy != h.tw) {
      if (sched_push(s, h.tw, h.t)) { *out = h; h.tw->queued = false; return true; }
      continue;
    }
    h.tw->queued = false;
    *out = h;
    return true;
  }
  return false;
}

bool sched_admit_wait(sched *s, twarp *tw, uint64_t now) {
  sched_sp *p = &s->sp[tw->spi];
  if (p->nactive < s->active_limit && !p->phead) { tw->active = true; p->nactive++; return true; }
  /* wait in arrival order; counted as queued so nobody requeues it */
  tw->parked = true;
  tw->parked_at = now;
  tw->queued = true;
  tw->next_parked = NULL;
  if (p->ptail) p->ptail->next_parked = tw; else p->phead = tw;
  p->ptail = tw;
  return false;
}

void sched_issued(sched *s, twarp *tw) {
  s->sp[tw->spi].greedy = tw;
  tw->stamp = ++s->counter;
}

int sched_leave(sched *s, twarp *tw, uint64_t now) {
  if (s->policy != GPU_SCHED_TWO_LEVEL || !tw->active) return 0;
  sched_sp *p = &s->sp[tw->spi];
  tw->active = false;
  p->nactive--;
  twarp *n = p->phead;
  if (!n) return 0;
  p->phead = n->next_parked;
  if (!p->phead) p->ptail = NULL;
  n->parked = false;
  n->active = true;
  /* it was ready, the scheduler held it back */
  twarp_note_wait(n, STALL_NOT_SELECTED, now - n->parked_at);
  p->nactive++;
  return sched_push(s, n, now);
}

int sched_list_pick(sched *s, sched_list *l, uint64_t now) {
  if (l->head || !l->n) return 0;
  twarp *best = l->w[0];
  uint64_t bp = priority_of(s, best);
  for (uint32_t i = 1; i < l->n; i++) {
    uint64_t p = priority_of(s, l->w[i]);
    if (p < bp) { bp = p; best = l->w[i]; }
  }
  l->head = best;
  return sched_push(s, best, *l->free_at > now ? *l->free_at : now);
}

int sched_list_join(sched *s, sched_list *l, twarp *tw, uint64_t now, int why) {
  if (l->n == l->cap) return 0;
  if (l->head && priority_of(s, tw) < priority_of(s, l->head)) {
    if (!l->give_way) return 0;
    /* it goes before the head: it is the one to try when the resource
     * frees, and the head waits in the list again, its queue entry stale
     * (dropped when it comes up).  Queued beside the head instead, it
     * would try first and the head would then try, find the resource
     * taken and wait again: two events more.  (Where the head, so
     * trying, would find the scheduler busy beyond the resource's next
     * free cycle, that try counted the wait until then as not_selected;
     * waiting in the list it is the resource's.)  One stale entry a warp
     * at most. */
    twarp *h = l->head;
    if (h->stale) return 0;
    h->stale = true;
    h->stale_t = h->key;
    h->stale_prio = h->key_prio;
    l->head = NULL;
  }
  l->w[l->n++] = tw;
  tw->wl = l;
  tw->wl_since = now;
  tw->wl_why = (uint8_t)why;
  tw->queued = true;
  tw->elig = *l->free_at;
  return sched_list_pick(s, l, now) ? -1 : 1;
}

void sched_list_leave(sched_list *l, twarp *tw, uint64_t now) {
  for (uint32_t i = 0; i < l->n; i++)
    if (l->w[i] == tw) { l->w[i] = l->w[--l->n]; break; }
  l->head = NULL;
  tw->wl = NULL;
  twarp_note_throttle(tw, tw->wl_why, now - tw->wl_since, l->share);
}
