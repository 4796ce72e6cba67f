/* cudart/drv_stream.c - cuStream*, cuEvent*, host functions and context
 * synchronisation.  Work runs when it is submitted (drv.h), so a stream
 * is always idle when asked and an event is complete once recorded; the
 * device clock that events read is the modelled time in timing mode. */
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"

static bool stream_ok(CUstream s) { return drv_is_default_stream(s) || s != NULL; }

DRV_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!s || flags > 1) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  struct CUstream_st *n = calloc(1, sizeof *n);
  if (!n) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  n->flags = flags;
  *s = n;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int priority) {
  CUresult r = cuStreamCreate(s, flags);
  if (!r) (*s)->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
  return r;
}

DRV_EXPORT CUresult cuStreamDestroy_v2(CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (drv_is_default_stream(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  free(s);
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuStreamSynchronize(CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!stream_ok(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if (!drv_is_default_stream(s) && s->capture) return drv_leave(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  return drv_leave(drv_sync());
}

DRV_EXPORT CUresult cuStreamQuery(CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  return drv_leave(drv.sticky);
}

DRV_EXPORT CUresult cuStreamGetFlags(CUstream s, unsigned *flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = drv_is_default_stream(s) ? 0 : s->flags;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuStreamGetPriority(CUstream s, int *priority) {
  if (!priority) return CUDA_ERROR_INVALID_VALUE;
  *priority = drv_is_default_stream(s) ? 0 : s->priority;
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
  if (!drv_is_default_stream(s) && s->capture) {
    drv_op op = { .kind = OP_EMPTY };
    return drv_leave(drv_submit(s, &op));
  }
  return drv_leave(drv.sticky);   /* the event's work has run already */
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
  if (drv.sticky && (drv_is_default_stream(s) || !s->capture)) { run_callback(c); return drv_leave(CUDA_SUCCESS); }
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
  free(e);
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e || !stream_ok(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  drv_op op = { .kind = OP_EVENT_RECORD, .event = e };
  return drv_leave(drv_submit(s, &op));
}
DRV_EXPORT CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags) {
  (void)flags;
  return cuEventRecord(e, s);
}

DRV_EXPORT CUresult cuEventQuery(CUevent e) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  return drv_leave(drv.sticky);
}

DRV_EXPORT CUresult cuEventSynchronize(CUevent e) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!e) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  return drv_leave(drv_sync());
}

DRV_EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!ms) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (!a || !b) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if ((a->flags | b->flags) & 2) return drv_leave(CUDA_ERROR_INVALID_HANDLE);   /* CU_EVENT_DISABLE_TIMING */
  if (!a->recorded || !b->recorded) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if (drv.sticky) return drv_leave(drv.sticky);
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
