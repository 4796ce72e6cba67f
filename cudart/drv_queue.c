/* cudart/drv_queue.c - the order of stream work (drv.h): each unit of work
 * depends on its stream's previous one, on the legacy default stream's
 * work (or, for the legacy stream, on every blocking stream's), and on
 * the events it waits for.  Work runs at once when that is all done, else
 * it waits in submission order until it is; host functions run on their
 * own threads. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"

typedef struct dep { struct CUstream_st *s; uint64_t seq; } dep;
typedef struct pending {
  drv_op op;
  struct CUstream_st *s;
  uint64_t seq;                  /* the op's number in its stream              */
  dep *deps;
  size_t ndeps;
} pending;

void drv_wait_done(void);        /* drv_state.c: wait for a host function, unlocked */
void drv_signal_done(void);

struct CUstream_st *drv_stream(CUstream s) {
  if (!s || s == CU_STREAM_LEGACY) return &drv.legacy;
  if (s == CU_STREAM_PER_THREAD) return &drv.per_thread;
  return s;
}

bool drv_stream_valid(CUstream s) {
  if (drv_is_default_stream(s)) return true;
  for (struct CUstream_st *t = drv.live; t; t = t->next_live) if (t == s) return true;
  return false;
}

static bool blocking(const struct CUstream_st *s) { return s != &drv.legacy && !(s->flags & 1); }

static bool runnable(const pending *p) {
  if (p->s->completed != p->seq - 1) return false;
  for (size_t i = 0; i < p->ndeps; i++) if (p->deps[i].s->completed < p->deps[i].seq) return false;
  return true;
}

static void complete(struct CUstream_st *s) { s->completed++; }

typedef struct host_call { drv_op op; struct CUstream_st *s; } host_call;

static void *host_thread(void *arg) {
  host_call *h = arg;
  h->op.fn(h->op.user);
  drv_lock();
  complete(h->s);
  drv.host_running--;
  drv_drain();
  drv_signal_done();
  drv_unlock();
  free(h);
  return NULL;
}

/* Run p's work; its stream's count moves on when it is done. */
static void run(pending *p) {
  if (p->op.kind == OP_HOST && !drv.sticky) {
    host_call *h = malloc(sizeof *h);
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (h) *h = (host_call){ p->op, p->s };
    if (h && pthread_create(&t, &a, host_thread, h) == 0) {
      drv.host_running++;
      pthread_attr_destroy(&a);
      drv_flush_printf();
      return;
    }
    pthread_attr_destroy(&a);
    free(h);
    p->op.fn(p->op.user);        /* no thread to be had: run it here */
    complete(p->s);
    return;
  }
  if (p->op.kind != OP_WAIT_EVENT) drv_execute(&p->op);
  drv_op_release(&p->op);
  complete(p->s);
}

void drv_drain(void) {
  bool progress = true;
  while (progress && drv.npending) {
    progress = false;
    for (size_t i = 0; i < drv.npending; i++) {
      if (!runnable(&drv.pending[i])) continue;
      pending p = drv.pending[i];
      memmove(&drv.pending[i], &drv.pending[i + 1], (drv.npending - i - 1) * sizeof *drv.pending);
      drv.npending--;
      run(&p);
      free(p.deps);
      progress = true;
      break;                     /* the earliest runnable one first, always */
    }
  }
}

static int add_dep(dep **deps, size_t *n, struct CUstream_st *s, uint64_t seq) {
  if (!seq) return 0;
  dep *nd = realloc(*deps, (*n + 1) * sizeof *nd);
  if (!nd) return -1;
  *deps = nd;
  nd[(*n)++] = (dep){ s, seq };
  return 0;
}

/* Host bytes a queued copy reads, taken now: the program may change its
 * pageable memory once the call returns. */
static int stage(drv_op *op) {
  if (op->kind != OP_MEMCPY || drv_device_ptr(op->src, op->width)) return 0;
  uint64_t depth = op->depth ? op->depth : 1, n = op->width * op->height * depth;
  uint8_t *b = malloc(n ? n : 1);
  if (!b) return -1;
  for (uint64_t z = 0; z < depth; z++)
    for (uint64_t r = 0; r < op->height; r++) {
      const uint8_t *src = drv_any_ptr(op->src + z * op->sslice + r * op->spitch, op->width);
      if (!src) { free(b); return -1; }
      memcpy(b + (z * op->height + r) * op->width, src, op->width);
    }
  op->staged = b;
  op->src = (uint64_t)(uintptr_t)b;
  op->spitch = op->width;
  op->sslice = op->width * op->height;
  return 0;
}

CUresult drv_graph_record(struct CUstream_st *s, const drv_op *op);

CUresult drv_submit(CUstream handle, drv_op *op) {
  struct CUstream_st *s = drv_stream(handle);
  if (s->capture) {
    CUresult r = drv_graph_record(s, op);   /* the graph owns op's parameters now */
    if (r) drv_op_release(op);
    return r;
  }
  if (drv.npending == drv.cappending) {
    size_t nc = drv.cappending ? drv.cappending * 2 : 16;
    pending *np = realloc(drv.pending, nc * sizeof *np);
    if (!np) { drv_op_release(op); return CUDA_ERROR_OUT_OF_MEMORY; }
    drv.pending = np;
    drv.cappending = nc;
  }
  pending p = { .op = *op, .s = s, .seq = s->submitted + 1 };
  int bad = 0;
  if (s == &drv.legacy) {
    for (struct CUstream_st *t = drv.live; t; t = t->next_live)
      if (blocking(t)) bad |= add_dep(&p.deps, &p.ndeps, t, t->submitted);
  } else if (blocking(s)) {
    bad |= add_dep(&p.deps, &p.ndeps, &drv.legacy, drv.legacy.submitted);
  }
  if (op->kind == OP_WAIT_EVENT) bad |= add_dep(&p.deps, &p.ndeps, op->wait_stream, op->wait_seq);
  if (bad) { free(p.deps); drv_op_release(op); return CUDA_ERROR_OUT_OF_MEMORY; }
  s->submitted++;
  if (op->kind == OP_EVENT_RECORD) { drv_event_attach(op->event, s); op->event->seq = p.seq; }
  drv.pending[drv.npending++] = p;
  drv_drain();
  /* still waiting: take the host bytes it copies */
  for (size_t i = 0; i < drv.npending; i++)
    if (drv.pending[i].s == s && drv.pending[i].seq == p.seq && stage(&drv.pending[i].op)) return CUDA_ERROR_OUT_OF_MEMORY;
  return CUDA_SUCCESS;
}

static bool stream_done(const struct CUstream_st *s) { return s->completed == s->submitted; }

static bool all_done(void) {
  for (struct CUstream_st *t = drv.live; t; t = t->next_live) if (!stream_done(t)) return false;
  return true;
}

/* Nothing left to wait for but nothing can run: cannot happen (work only
 * depends on earlier work), but never hang on it. */
static bool stuck(void) {
  if (drv.host_running) return false;
  fprintf(stderr, "ptxemu: internal error: stream work that can never run\n");
  return true;
}

void drv_wait_stream(struct CUstream_st *s) {
  for (;;) {
    drv_drain();
    if (s ? stream_done(s) : all_done()) return;
    if (stuck()) return;
    drv_wait_done();
  }
}

void drv_wait_seq(struct CUstream_st *s, uint64_t seq) {
  for (;;) {
    drv_drain();
    if (s->completed >= seq) return;
    if (stuck()) return;
    drv_wait_done();
  }
}
