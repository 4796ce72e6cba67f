/* cudart/drv_stream.c - cuStream*, cuEvent*, host functions and context
 * synchronisation over the ordered work of drv_queue.c.  The device clock
 * that events read is the modelled time in timing mode. */
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"

static bool stream_ok(CUstream s) { return drv_stream_valid(s); }

DRV_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!s || flags > 1) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  struct CUstream_st *n = calloc(1, sizeof *n);
  if (!n) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  n->flags = flags;
  n->id = drv.next_stream_id++;
  n->next_live = drv.live;
  drv.live = n;
  *s = n;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int priority) {
  CUresult r = cuStreamCreate(s, flags);
  if (!r) (*s)->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
  return r;
}

/* Events keep the stream of their last record (what waiting for them, or
 * timing them, asks): a destroyed stream stays, invalid for the program,
 * until no event refers to it. */
static void stream_unref(struct CUstream_st *s) {
  if (--s->event_refs == 0 && s->destroyed) free(s);
}

void drv_event_attach(struct CUevent_st *e, struct CUstream_st *s) {
  if (e->stream == s) return;
  if (e->stream && !drv_is_default_stream(e->stream)) stream_unref(e->stream);
  e->stream = s;
  if (!drv_is_default_stream(s)) s->event_refs++;
}

DRV_EXPORT CUresult cuStreamDestroy_v2(CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (drv_is_default_stream(s) || !drv_stream_valid(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  drv_wait_stream(s);            /* its work still runs, as CUDA lets it */
  drv_capture_leave(s);          /* (a stream that joined a capture may go) */
  for (struct CUstream_st **p = &drv.live; *p; p = &(*p)->next_live)
    if (*p == s) { *p = s->next_live; break; }
  if (s->event_refs) s->destroyed = true;
  else free(s);
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuStreamSynchronize(CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!stream_ok(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  struct CUstream_st *st = drv_stream(s);
  if (st->capture) return drv_leave(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  drv_wait_stream(st);
  drv_flush_printf();
  return drv_leave(drv.sticky);
}

DRV_EXPORT CUresult cuStreamQuery(CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!stream_ok(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  drv_drain();
  if (drv.sticky) return drv_leave(drv.sticky);
  struct CUstream_st *st = drv_stream(s);
  return drv_leave(st->completed == st->submitted ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY);
}

DRV_EXPORT CUresult cuStreamGetFlags(CUstream s, unsigned *flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = drv_stream(s)->flags;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuStreamGetId(CUstream s, unsigned long long *id) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!id) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (!stream_ok(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  *id = drv_stream(s)->id;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuStreamGetPriority(CUstream s, int *priority) {
  if (!priority) return CUDA_ERROR_INVALID_VALUE;
  *priority = drv_stream(s)->priority;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e || !stream_ok(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  (void)flags;
  bool captured;                 /* an event of a capture: s joins it */
  if ((r = drv_capture_wait(drv_stream(s), e, &captured)) || captured) return drv_leave(r);
  if (!e->stream) return drv_leave(CUDA_SUCCESS);   /* never recorded: nothing to wait for */
  drv_op op = { .kind = OP_WAIT_EVENT, .wait_stream = e->stream, .wait_seq = e->seq };
  if (drv_stream(s)->capture) op.kind = OP_EMPTY;
  return drv_leave(drv_submit(s, &op));
}

DRV_EXPORT CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *user) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!fn) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (drv.sticky) return drv_leave(drv.sticky);
  drv_op op = { .kind = OP_HOST, .fn = fn, .user = user };
  return drv_leave(drv_submit(s, &op));
}

/* cuStreamAddCallback's callback gets the stream and a status. */
typedef struct callback { CUstreamCallback cb; CUstream s; void *user; } callback;
static void run_callback(void *p) {
  callback *c = p;
  c->cb(c->s, drv.sticky, c->user);
  free(c);
}

DRV_EXPORT CUresult cuStreamAddCallback(CUstream s, CUstreamCallback cb, void *user, unsigned flags) {
  if (!cb || flags) return CUDA_ERROR_INVALID_VALUE;
  callback *c = malloc(sizeof *c);
  if (!c) return CUDA_ERROR_OUT_OF_MEMORY;
  *c = (callback){ cb, s, user };
  CUresult r = drv_enter();
  if (r) { free(c); return r; }
  drv_op op = { .kind = OP_HOST, .fn = run_callback, .user = c };
  /* unlike host functions, callbacks run (with the error) after a fault */
  if (drv.sticky && !drv_stream(s)->capture) { run_callback(c); return drv_leave(CUDA_SUCCESS); }
  r = drv_submit(s, &op);
  return drv_leave(r);
}

/* ---- events ---- */

DRV_EXPORT CUresult cuEventCreate(CUevent *e, unsigned flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e || flags > 0xf) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  struct CUevent_st *n = calloc(1, sizeof *n);
  if (!n) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  n->flags = flags;
  *e = n;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuEventDestroy_v2(CUevent e) {
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  drv_lock();
  /* a record still queued would write into it: let it run first */
  if (e->stream) drv_wait_seq(e->stream, e->seq);
  drv_event_attach(e, NULL);
  free(e->cap_deps);
  free(e);
  drv_unlock();
  return CUDA_SUCCESS;
}

/* In a capturing stream a record makes no node: the event stands for
 * what was captured so far, for streams that wait for it (drv_graph_capture.c);
 * CU_EVENT_RECORD_EXTERNAL (1) makes a record node instead. */
static CUresult record(CUevent e, CUstream s, unsigned flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e || !stream_ok(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  struct CUstream_st *st = drv_stream(s);
  if (st->capture && !(flags & 1)) return drv_leave(drv_capture_record(e, st));
  if (!st->capture) {            /* no longer an event of a capture */
    free(e->cap_deps);
    e->cap_deps = NULL;
    e->cap_ndeps = 0;
    e->cap_graph = NULL;
  }
  drv_op op = { .kind = OP_EVENT_RECORD, .event = e };
  return drv_leave(drv_submit(s, &op));
}
DRV_EXPORT CUresult cuEventRecord(CUevent e, CUstream s) { return record(e, s, 0); }
DRV_EXPORT CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags) { return record(e, s, flags); }

DRV_EXPORT CUresult cuEventQuery(CUevent e) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  drv_drain();
  if (drv.sticky) return drv_leave(drv.sticky);
  return drv_leave(!e->stream || e->stream->completed >= e->seq ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY);
}

DRV_EXPORT CUresult cuEventSynchronize(CUevent e) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if (e->stream) drv_wait_seq(e->stream, e->seq);
  drv_flush_printf();
  return drv_leave(drv.sticky);
}

DRV_EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!ms) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (!a || !b) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if ((a->flags | b->flags) & 2) return drv_leave(CUDA_ERROR_INVALID_HANDLE);   /* CU_EVENT_DISABLE_TIMING */
  if (!a->stream || !b->stream) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  drv_drain();
  if (drv.sticky) return drv_leave(drv.sticky);
  if (!a->recorded || !b->recorded || a->stream->completed < a->seq || b->stream->completed < b->seq)
    return drv_leave(CUDA_ERROR_NOT_READY);
  *ms = (float)(b->t_ms - a->t_ms);
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { return cuEventElapsedTime_v2(ms, a, b); }

/* ---- contexts ---- */

DRV_EXPORT CUresult cuCtxSynchronize(void) {
  CUresult r = drv_enter();
  if (r) return r;
  return drv_leave(drv_sync());
}

/* The shared-memory bank mode (CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE 0,
 * FOUR_BYTE 1, EIGHT_BYTE 2): Kepler's 8-byte banks take 4- or 8-byte
 * addressing; a GPU with 4-byte banks keeps them, as CUDA does.  Launches
 * already queued run in the mode they were queued in (an implicit sync). */
DRV_EXPORT CUresult cuCtxSetSharedMemConfig(int config) {
  CUresult r = drv_enter();
  if (r) return r;
  if (config < 0 || config > 2) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  drv_wait_stream(NULL);
  gpu_config_set_bank_mode(&drv.cfg, config == 0 ? 0 : config == 1 ? 4 : 8);
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuCtxGetSharedMemConfig(int *config) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!config) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  *config = drv.cfg.shared_bank_mode == 8 ? 2 : 1;
  return drv_leave(CUDA_SUCCESS);
}
