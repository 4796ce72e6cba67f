/* cudart/drv_graph_capture.c - stream capture (drv_graph.c's invariants):
 * work submitted to a capturing stream becomes nodes of its graph, each
 * after the nodes the stream's next work depends on; streams that wait on
 * an event recorded in a capture join it, and the capture ends when every
 * joined stream has come back to the origin stream. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/drv_graph.h"
#include "cudart/ptxemu_ext.h"
#include "util/vec.h"

/* ---- the dependencies of capturing streams ---- */

/* s's next captured node depends on nodes[0..n) alone. */
CUresult graph_set_deps(struct CUstream_st *s, struct CUgraphNode_st *const *nodes, size_t n) {
  struct CUgraphNode_st **v = n ? malloc(n * sizeof *v) : NULL;
  if (n && !v) return CUDA_ERROR_OUT_OF_MEMORY;
  if (n) memcpy(v, nodes, n * sizeof *v);
  free(s->cap_deps);
  s->cap_deps = v;
  s->cap_ndeps = n;
  return CUDA_SUCCESS;
}

/* ... and on nodes[0..n) besides (a join). */
static CUresult add_deps(struct CUstream_st *s, struct CUgraphNode_st *const *nodes, size_t n) {
  struct CUgraphNode_st **v = realloc(s->cap_deps, (s->cap_ndeps + n + 1) * sizeof *v);
  if (!v) return CUDA_ERROR_OUT_OF_MEMORY;
  s->cap_deps = v;
  for (size_t i = 0; i < n; i++) {
    size_t j = 0;
    while (j < s->cap_ndeps && v[j] != nodes[i]) j++;
    if (j == s->cap_ndeps) v[s->cap_ndeps++] = nodes[i];
  }
  return CUDA_SUCCESS;
}

/* A node captured from s: after s's dependencies, the one s's next depends on. */
CUresult graph_record(struct CUstream_st *s, const drv_op *op, struct CUgraphNode_st **out) {
  struct CUgraphNode_st *n = graph_add_node(s->capture, op, s->cap_deps, s->cap_ndeps);
  if (!n) return CUDA_ERROR_OUT_OF_MEMORY;
  if (out) *out = n;
  return graph_set_deps(s, &n, 1);
}
CUresult drv_graph_record(struct CUstream_st *s, const drv_op *op) { return graph_record(s, op, NULL); }

/* Release what a node owns: its operation's parameters, its child graph,
 * the parameters handed out. */
/* ---- capture ---- */

DRV_EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, int mode) {
  CUresult r = drv_enter();
  if (r) return r;
  if (drv_is_default_stream(s)) return drv_leave(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  if (!drv_stream_valid(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if (s->capture) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  s->capture = calloc(1, sizeof *s->capture);
  if (!s->capture) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  s->capture_mode = mode;
  s->capture_id = graph_next_capture_id++;
  s->capture_joined = false;
  graph_set_deps(s, NULL, 0);
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuStreamBeginCapture(CUstream s) { return cuStreamBeginCapture_v2(s, 0); }

/* The dependencies of s's next captured node: nodes[0..n) of its capture's
 * graph instead of its own (flags 1, CU_STREAM_SET_CAPTURE_DEPENDENCIES)
 * or besides them (0, ADD). */
DRV_EXPORT CUresult cuStreamUpdateCaptureDependencies_v2(CUstream s, CUgraphNode *nodes, const void *edges, size_t n, unsigned flags) {
  (void)edges;
  CUresult r = drv_enter();
  if (r) return r;
  if (drv_is_default_stream(s) || !drv_stream_valid(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if (!s->capture) return drv_leave(CUDA_ERROR_ILLEGAL_STATE);
  if ((n && !nodes) || flags > 1) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  for (size_t i = 0; i < n; i++) if (!nodes[i] || nodes[i]->graph != s->capture) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  return drv_leave(flags ? graph_set_deps(s, nodes, n) : add_deps(s, nodes, n));
}
DRV_EXPORT CUresult cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode *nodes, size_t n, unsigned flags) {
  return cuStreamUpdateCaptureDependencies_v2(s, nodes, NULL, n, flags);
}

/* Capture into a graph the program made: the stream's work joins g after
 * nodes deps[0..n) (edge data: plain dependencies, as everywhere here);
 * ending the capture gives g back, and a capture that fails leaves g with
 * what it had captured (it remains the program's to destroy). */
DRV_EXPORT CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps, const void *edges, size_t n,
                                                int mode) {
  (void)edges;
  CUresult r = drv_enter();
  if (r) return r;
  if (drv_is_default_stream(s)) return drv_leave(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  if (!drv_stream_valid(s)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  if (!g || (n && !deps) || s->capture) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  for (size_t i = 0; i < n; i++) if (!deps[i] || deps[i]->graph != g) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  r = graph_set_deps(s, deps, n);
  if (r) return drv_leave(r);
  s->capture = g;
  s->capture_mode = mode;
  s->capture_id = graph_next_capture_id++;
  s->capture_joined = false;
  s->capture_into = true;
  return drv_leave(CUDA_SUCCESS);
}

void drv_capture_leave(struct CUstream_st *s) {
  s->capture = NULL;
  s->capture_joined = false;
  s->capture_into = false;
  graph_set_deps(s, NULL, 0);
}

/* Whether node a is n or one of n's ancestors (mark: g->n bytes, zeroed). */
static bool before(const struct CUgraphNode_st *a, const struct CUgraphNode_st *n, uint8_t *mark) {
  if (a == n) return true;
  if (mark[n->index]) return false;
  mark[n->index] = 1;
  for (size_t i = 0; i < n->ndeps; i++) if (before(a, n->deps[i], mark)) return true;
  return false;
}

/* Whether node a is one of deps or comes before one of them. */
bool graph_before_any(const struct CUgraph_st *g, const struct CUgraphNode_st *a, struct CUgraphNode_st *const *deps,
                       size_t n) {
  uint8_t *mark = calloc(g->n + 1, 1);
  bool yes = false;
  for (size_t i = 0; mark && !yes && i < n; i++) yes = before(a, deps[i], mark);
  free(mark);
  return yes;
}

/* Every stream that joined s's capture came back to s: what it captured
 * last is before what s would capture next. */
static bool joined(const struct CUstream_st *s) {
  for (const struct CUstream_st *t = drv.live; t; t = t->next_live) {
    if (t == s || t->capture != s->capture) continue;
    for (size_t i = 0; i < t->cap_ndeps; i++)
      if (!graph_before_any(s->capture, t->cap_deps[i], s->cap_deps, s->cap_ndeps)) return false;
  }
  return true;
}

/* The capture ends for s and every stream that joined it; work a stream
 * left unjoined voids the graph (an H200 says the capture was
 * invalidated). */
DRV_EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *g) {
  CUresult r = drv_enter();
  if (r) return r;
  if (drv_is_default_stream(s) || !s->capture) return drv_leave(g ? CUDA_ERROR_ILLEGAL_STATE : CUDA_ERROR_INVALID_VALUE);
  if (!g && !s->capture_into) return drv_leave(CUDA_ERROR_INVALID_VALUE);   /* (the program has its graph already) */
  if (s->capture_joined) return drv_leave(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
  struct CUgraph_st *c = s->capture;
  bool ok = joined(s), into = s->capture_into;
  for (struct CUstream_st *t = drv.live; t; t = t->next_live) if (t->capture == c) drv_capture_leave(t);
  if (g) *g = ok ? c : NULL;
  if (!ok && !into) graph_free_graph(c);
  r = ok ? CUDA_SUCCESS : CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  drv_leave(r);
  graph_run_dying();
  return r;
}

/* An event recorded in a capturing stream stands for what the stream has
 * captured so far: no node (CUDA makes none either). */
CUresult drv_capture_record(struct CUevent_st *e, struct CUstream_st *s) {
  struct CUgraphNode_st **v = s->cap_ndeps ? malloc(s->cap_ndeps * sizeof *v) : NULL;
  if (s->cap_ndeps && !v) return CUDA_ERROR_OUT_OF_MEMORY;
  if (v) memcpy(v, s->cap_deps, s->cap_ndeps * sizeof *v);
  free(e->cap_deps);
  e->cap_deps = v;
  e->cap_ndeps = s->cap_ndeps;
  e->cap_graph = s->capture;
  e->cap_id = s->capture_id;
  return CUDA_SUCCESS;
}

/* Whether e was recorded in a capture still going on. */
static bool capture_event(const struct CUevent_st *e) {
  if (!e->cap_graph) return false;
  for (const struct CUstream_st *t = drv.live; t; t = t->next_live)
    if (t->capture == e->cap_graph && t->capture_id == e->cap_id) return true;
  return false;
}

/* A stream waiting for an event of a capture joins the capture (fork) or
 * depends on what the event stood for (join); *done says whether e was
 * one. */
CUresult drv_capture_wait(struct CUstream_st *s, struct CUevent_st *e, bool *done) {
  *done = capture_event(e);
  if (!*done) return CUDA_SUCCESS;
  if (s->capture == e->cap_graph) return add_deps(s, e->cap_deps, e->cap_ndeps);
  if (s->capture) return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
  CUresult r = graph_set_deps(s, e->cap_deps, e->cap_ndeps);
  if (r) return r;
  s->capture = e->cap_graph;
  s->capture_id = e->cap_id;
  s->capture_joined = true;
  for (const struct CUstream_st *t = drv.live; t; t = t->next_live)
    if (t->capture == s->capture && !t->capture_joined) s->capture_mode = t->capture_mode;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuStreamIsCapturing(CUstream s, int *status) {
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  *status = drv_stream(s)->capture ? 1 : 0;   /* CU_STREAM_CAPTURE_STATUS_ACTIVE */
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream s, int *status, uint64_t *id, CUgraph *graph,
                                              const CUgraphNode **deps, const void **edges, size_t *ndeps) {
  const struct CUstream_st *st = drv_stream(s);
  bool on = st->capture != NULL;
  if (status) *status = on;
  if (id) *id = on ? st->capture_id : 0;
  if (graph) *graph = on ? st->capture : NULL;
  if (deps) *deps = on && st->cap_ndeps ? (const CUgraphNode *)st->cap_deps : NULL;
  if (edges) *edges = NULL;
  if (ndeps) *ndeps = on ? st->cap_ndeps : 0;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuStreamGetCaptureInfo_v2(CUstream s, int *status, uint64_t *id, CUgraph *graph,
                                              const CUgraphNode **deps, size_t *ndeps) {
  return cuStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, ndeps);
}
