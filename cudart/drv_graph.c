/* cudart/drv_graph.c - CUDA graphs: stream capture and the explicit graph
 * API.  A graph is a list of operations (drv_op) with dependencies; an
 * instantiated graph is a copy of them in a topological order, and a
 * launch runs them in that order on the stream (or records them, when the
 * stream is itself being captured).
 *
 * Invariants:
 * - A node owns what its operation points to: kernel parameters, and for a
 *   child graph node a graph of its own (a clone of the one it was given).
 *   An executable owns copies of both, so it outlives its graph.
 * - A node keeps its parameters as they were set (memset, copy, memory
 *   allocation, kernel attributes): the getters return those, the
 *   operation is what runs.
 * - User objects hold references from the program, graphs and
 *   executables; the destructor runs when the last goes, on the thread that
 *   released it, once the call has unlocked (CUDA runs it on a thread of
 *   its own, later: any schedule of that kind is allowed). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"
#include "cudart/ptxemu_ext.h"
#include "util/vec.h"

/* ---- user objects ---- */

struct CUuserObject_st {
  void *ptr;
  CUhostFn destroy;
  unsigned refs;
  struct CUuserObject_st *next_dying;
};
typedef struct uref { struct CUuserObject_st *o; unsigned count; } uref;
typedef struct urefs { uref *v; size_t n; } urefs;   /* the references a graph or an executable holds */

static struct CUuserObject_st *dying, **dying_tail = &dying;

static void uobj_release(struct CUuserObject_st *o, unsigned count) {
  o->refs -= count;
  if (o->refs) return;
  o->next_dying = NULL;                /* its destructor runs once the call unlocks */
  *dying_tail = o;
  dying_tail = &o->next_dying;
}

/* Run the destructors of objects whose last reference went, in that order,
 * unlocked: a destructor may take the program's own locks. */
static void run_dying(void) {
  drv_lock();
  struct CUuserObject_st *o = dying;
  dying = NULL;
  dying_tail = &dying;
  drv_unlock();
  while (o) {
    struct CUuserObject_st *next = o->next_dying;
    o->destroy(o->ptr);
    free(o);
    o = next;
  }
}

/* count more references to o in list r (new ones: the caller counts them) */
static CUresult refs_add(urefs *r, struct CUuserObject_st *o, unsigned count) {
  for (size_t i = 0; i < r->n; i++)
    if (r->v[i].o == o) { r->v[i].count += count; return CUDA_SUCCESS; }
  uref *nv = realloc(r->v, (r->n + 1) * sizeof *nv);
  if (!nv) return CUDA_ERROR_OUT_OF_MEMORY;
  r->v = nv;
  r->v[r->n++] = (uref){ o, count };
  return CUDA_SUCCESS;
}

/* to gets references of its own to what from holds */
static CUresult refs_copy(urefs *to, const urefs *from) {
  for (size_t i = 0; i < from->n; i++) {
    if (refs_add(to, from->v[i].o, from->v[i].count)) return CUDA_ERROR_OUT_OF_MEMORY;
    from->v[i].o->refs += from->v[i].count;
  }
  return CUDA_SUCCESS;
}

static void refs_release(urefs *r) {
  for (size_t i = 0; i < r->n; i++) uobj_release(r->v[i].o, r->v[i].count);
  free(r->v);
  r->v = NULL;
  r->n = 0;
}

/* ---- graphs and nodes ---- */

enum { ATTRS = 17 };                 /* CUlaunchAttributeID values a node may keep: 0 .. 16 */

struct CUgraphNode_st {
  drv_op op;
  struct CUgraph_st *graph;
  struct CUgraphNode_st **deps;
  size_t ndeps;
  size_t index;
  union {                            /* the parameters as they were set */
    CUDA_MEMSET_NODE_PARAMS memset;  /* OP_MEMSET */
    CUDA_MEMCPY3D copy;              /* OP_MEMCPY */
    CUDA_MEM_ALLOC_NODE_PARAMS alloc;/* OP_MEM_ALLOC (accessDescs: the node's copy) */
  } set;
  int copy_kind;                     /* OP_MEMCPY: the runtime's cudaMemcpyKind */
  /* OP_KERNEL */
  void **argv;                       /* kernelParams handed out: into op.params */
  void *extra[5];                    /* extra handed out, when it was set so */
  size_t extra_size;
  bool via_extra;
  CUlaunchAttributeValue *attrs;     /* [ATTRS], NULL until one is set */
  uint32_t base_cluster[3];          /* the launch's own shape, before attributes */
  bool base_cooperative;
};

/* A conditional handle: the address of its condition word (device memory
 * that cudaGraphSetConditional writes), the value a launch may start with. */
typedef struct cond { uint64_t addr; unsigned dflt; bool assign; } cond;

struct CUgraph_st {
  struct CUgraphNode_st **nodes;
  size_t n, cap;
  urefs refs;
  struct CUgraphExec_st *mem_exec;  /* with memory or conditional nodes: its one executable */
  cond *conds;                      /* the conditional handles made for it */
  size_t nconds;
};

struct CUgraphExec_st {
  drv_op *ops;
  struct CUgraphNode_st **nodes; /* the node each op was made from */
  uint8_t *off;                  /* disabled (cuGraphNodeSetEnabled) */
  size_t n;
  unsigned long long flags;
  urefs refs;
  struct CUstream_st *last;      /* its latest launch: done when last reaches last_seq */
  uint64_t last_seq;
  uint64_t footprint;            /* the graph allocator's memory a launch takes  */
  struct CUgraph_st *mem_graph;  /* the graph with memory nodes it was made from */
  cond *conds;                   /* handles whose value each launch sets first   */
  size_t nconds;
};

static uint64_t next_capture_id = 1;

static void free_graph(struct CUgraph_st *g);
static struct CUgraph_st *clone_graph(const struct CUgraph_st *g);

/* What the getters give for an operation nobody set parameters of (a
 * captured one). */
static void init_set(struct CUgraphNode_st *n) {
  const drv_op *op = &n->op;
  switch (op->kind) {
  case OP_MEMSET:
    n->set.memset = (CUDA_MEMSET_NODE_PARAMS){ op->dst, op->dpitch, op->value, op->elem, op->width, op->height };
    break;
  case OP_MEMCPY:
    n->set.copy = (CUDA_MEMCPY3D){ .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = op->src, .srcPitch = op->spitch,
                                   .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = op->dst, .dstPitch = op->dpitch,
                                   .WidthInBytes = op->width, .Height = op->height, .Depth = 1 };
    n->copy_kind = 4;              /* cudaMemcpyDefault */
    break;
  case OP_KERNEL:
    memcpy(n->base_cluster, op->cluster, sizeof n->base_cluster);
    n->base_cooperative = op->cooperative;
    break;
  default: break;
  }
}

static struct CUgraphNode_st *add_node(struct CUgraph_st *g, const drv_op *op, struct CUgraphNode_st *const *deps,
                                       size_t ndeps) {
  if (g->n == g->cap) {
    size_t nc = g->cap ? g->cap * 2 : 16;
    struct CUgraphNode_st **nn = realloc(g->nodes, nc * sizeof *nn);
    if (!nn) return NULL;
    g->nodes = nn;
    g->cap = nc;
  }
  struct CUgraphNode_st *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->op = *op;
  n->graph = g;
  if (ndeps) {
    n->deps = malloc(ndeps * sizeof *n->deps);
    if (!n->deps) { free(n); return NULL; }
    memcpy(n->deps, deps, ndeps * sizeof *n->deps);
    n->ndeps = ndeps;
  }
  init_set(n);
  if (op->kind == OP_MEM_ALLOC) drv_gmem_retain(op->dst);
  n->index = g->n;
  g->nodes[g->n++] = n;
  return n;
}

/* ---- the dependencies of capturing streams ---- */

/* s's next captured node depends on nodes[0..n) alone. */
static CUresult set_deps(struct CUstream_st *s, struct CUgraphNode_st *const *nodes, size_t n) {
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
static CUresult record(struct CUstream_st *s, const drv_op *op, struct CUgraphNode_st **out) {
  struct CUgraphNode_st *n = add_node(s->capture, op, s->cap_deps, s->cap_ndeps);
  if (!n) return CUDA_ERROR_OUT_OF_MEMORY;
  if (out) *out = n;
  return set_deps(s, &n, 1);
}
CUresult drv_graph_record(struct CUstream_st *s, const drv_op *op) { return record(s, op, NULL); }

/* Release what a node owns: its operation's parameters, its child graph,
 * the parameters handed out. */
static void free_bodies(drv_op *op) {
  for (uint32_t i = 0; op->bodies && i < op->nbodies; i++) if (op->bodies[i]) free_graph(op->bodies[i]);
  free(op->bodies);
  op->bodies = NULL;
}

/* op (a copy) gets bodies of its own: clones of those it names. */
static CUresult clone_bodies(drv_op *op) {
  struct CUgraph_st **from = op->bodies;
  if (!(op->bodies = calloc(op->nbodies + 1, sizeof *op->bodies))) return CUDA_ERROR_OUT_OF_MEMORY;
  for (uint32_t i = 0; i < op->nbodies; i++)
    if (!(op->bodies[i] = clone_graph(from[i]))) return CUDA_ERROR_OUT_OF_MEMORY;
  return CUDA_SUCCESS;
}

static void free_node(struct CUgraphNode_st *n) {
  if (n->op.kind == OP_GRAPH && n->op.graph) free_graph(n->op.graph);
  if (n->op.kind == OP_COND) free_bodies(&n->op);
  if (n->op.kind == OP_MEM_ALLOC) {
    free((void *)n->set.alloc.accessDescs);
    drv_gmem_release(n->op.dst);
  }
  drv_op_release(&n->op);
  free(n->argv);
  free(n->attrs);
  free(n->deps);
  free(n);
}

static void free_graph(struct CUgraph_st *g) {
  if (g->mem_exec) g->mem_exec->mem_graph = NULL;
  for (size_t i = 0; i < g->n; i++) free_node(g->nodes[i]);
  free(g->nodes);
  free(g->conds);
  refs_release(&g->refs);
  free(g);
}

static void *dup_bytes(const void *p, size_t n) {
  void *c = malloc(n ? n : 1);
  if (c && n) memcpy(c, p, n);
  return c;
}

/* to (a fresh node) gets its own copy of what from owns. */
static CUresult copy_node(struct CUgraphNode_st *to, const struct CUgraphNode_st *from) {
  to->set = from->set;
  to->copy_kind = from->copy_kind;
  to->via_extra = from->via_extra;
  memcpy(to->base_cluster, from->base_cluster, sizeof to->base_cluster);
  to->base_cooperative = from->base_cooperative;
  to->op.params = NULL;
  to->op.graph = NULL;
  if (to->op.kind == OP_MEM_ALLOC) to->set.alloc.accessDescs = NULL;
  if (from->op.kind == OP_COND && clone_bodies(&to->op)) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->op.params && !(to->op.params = dup_bytes(from->op.params, from->op.param_size))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->attrs && !(to->attrs = dup_bytes(from->attrs, ATTRS * sizeof *from->attrs))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->op.kind == OP_GRAPH && !(to->op.graph = clone_graph(from->op.graph))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->op.kind == OP_MEM_ALLOC && from->set.alloc.accessDescCount &&
      !(to->set.alloc.accessDescs = dup_bytes(from->set.alloc.accessDescs, from->set.alloc.accessDescCount * 12)))
    return CUDA_ERROR_OUT_OF_MEMORY;
  return CUDA_SUCCESS;
}

/* A copy of the graph: its nodes (what they own copied, a child graph
 * node's graph too), their dependencies and its user object references. */
static struct CUgraph_st *clone_graph(const struct CUgraph_st *g) {
  struct CUgraph_st *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  for (size_t i = 0; i < g->n; i++) {
    drv_op op = g->nodes[i]->op;
    op.staged = NULL;
    struct CUgraphNode_st *m = add_node(c, &op, NULL, 0);
    if (!m) { free_graph(c); return NULL; }
    if (copy_node(m, g->nodes[i])) { free_graph(c); return NULL; }
  }
  for (size_t i = 0; i < g->n; i++) {
    const struct CUgraphNode_st *n = g->nodes[i];
    if (!n->ndeps) continue;
    struct CUgraphNode_st *m = c->nodes[i];
    if (!(m->deps = malloc(n->ndeps * sizeof *m->deps))) { free_graph(c); return NULL; }
    for (size_t j = 0; j < n->ndeps; j++) m->deps[j] = c->nodes[n->deps[j]->index];
    m->ndeps = n->ndeps;
  }
  if (refs_copy(&c->refs, &g->refs)) { free_graph(c); return NULL; }
  if (g->nconds && !(c->conds = dup_bytes(g->conds, g->nconds * sizeof *g->conds))) { free_graph(c); return NULL; }
  c->nconds = g->nconds;
  return c;
}

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
  s->capture_id = next_capture_id++;
  s->capture_joined = false;
  set_deps(s, NULL, 0);
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
  return drv_leave(flags ? set_deps(s, nodes, n) : add_deps(s, nodes, n));
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
  r = set_deps(s, deps, n);
  if (r) return drv_leave(r);
  s->capture = g;
  s->capture_mode = mode;
  s->capture_id = next_capture_id++;
  s->capture_joined = false;
  s->capture_into = true;
  return drv_leave(CUDA_SUCCESS);
}

void drv_capture_leave(struct CUstream_st *s) {
  s->capture = NULL;
  s->capture_joined = false;
  s->capture_into = false;
  set_deps(s, NULL, 0);
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
static bool before_any(const struct CUgraph_st *g, const struct CUgraphNode_st *a, struct CUgraphNode_st *const *deps,
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
      if (!before_any(s->capture, t->cap_deps[i], s->cap_deps, s->cap_ndeps)) return false;
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
  if (!ok && !into) free_graph(c);
  r = ok ? CUDA_SUCCESS : CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  drv_leave(r);
  run_dying();
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
  CUresult r = set_deps(s, e->cap_deps, e->cap_ndeps);
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

/* ---- explicit graphs ---- */

DRV_EXPORT CUresult cuGraphCreate(CUgraph *g, unsigned flags) {
  if (!g || flags) return CUDA_ERROR_INVALID_VALUE;
  *g = calloc(1, sizeof **g);
  return *g ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

DRV_EXPORT CUresult cuGraphDestroy(CUgraph g) {
  if (!g) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  free_graph(g);
  drv_unlock();
  run_dying();
  return CUDA_SUCCESS;
}

static CUresult add(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, const drv_op *op) {
  if (!out || !g || (ndeps && !deps)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < ndeps; i++) if (!deps[i] || deps[i]->graph != g) return CUDA_ERROR_INVALID_VALUE;
  struct CUgraphNode_st *n = add_node(g, op, deps, ndeps);
  if (!n) return CUDA_ERROR_OUT_OF_MEMORY;
  *out = n;
  return CUDA_SUCCESS;
}

/* add() under the lock */
static CUresult add_locked(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, const drv_op *op) {
  drv_lock();
  CUresult r = add(out, g, deps, ndeps, op);
  drv_unlock();
  return r;
}

/* node n if it is of kind k, else NULL */
static struct CUgraphNode_st *of_kind(CUgraphNode n, enum drv_op_kind k) { return n && n->op.kind == k ? n : NULL; }

/* ---- kernel nodes ---- */

/* The attributes that change how a kernel runs (cluster shape,
 * cooperative), from node n onto op over the launch's own. */
static CUresult apply_attrs(const struct CUgraphNode_st *n, const uint32_t base[3], bool base_coop, drv_op *op) {
  memcpy(op->cluster, base, sizeof op->cluster);
  op->cooperative = base_coop;
  if (!n || !n->attrs) return CUDA_SUCCESS;
  CUlaunchAttribute a[2];
  memset(a, 0, sizeof a);
  unsigned k = 0;
  const CUlaunchAttributeValue *c = &n->attrs[CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION];
  if (c->clusterDim.x || c->clusterDim.y || c->clusterDim.z) {   /* (0, 0, 0): none set */
    a[k].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a[k++].value = *c;
  }
  if (n->attrs[CU_LAUNCH_ATTRIBUTE_COOPERATIVE].cooperative) {
    a[k].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    a[k++].value = n->attrs[CU_LAUNCH_ATTRIBUTE_COOPERATIVE];
  }
  return drv_launch_attrs(op, a, k);
}

/* New kernel parameters for node n (of a graph, or of an executable made
 * from it; NULL: a new node): the same checks as a launch, then n's
 * attributes.  base: the cluster shape of the launch alone. */
static CUresult kernel_op_of(const struct CUgraphNode_st *n, const CUDA_KERNEL_NODE_PARAMS *p, drv_op *op,
                             uint32_t base[3]) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  uint32_t grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ }, block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
  CUresult r = drv_kernel_op(p->func ? p->func : p->kern, grid, block, p->sharedMemBytes, p->kernelParams, p->extra, op);
  if (r) return r;
  memcpy(base, op->cluster, 3 * sizeof *base);
  if ((r = apply_attrs(n, base, false, op))) drv_op_release(op);
  return r;
}

/* A kernel node's new operation; what was handed out of the old goes. */
static void set_kernel(struct CUgraphNode_st *n, const drv_op *op, const uint32_t base[3], bool via_extra) {
  drv_op_release(&n->op);
  n->op = *op;
  memcpy(n->base_cluster, base, sizeof n->base_cluster);
  n->base_cooperative = false;
  free(n->argv);
  n->argv = NULL;
  n->via_extra = via_extra;
}

DRV_EXPORT CUresult cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                            const CUDA_KERNEL_NODE_PARAMS *p) {
  CUresult r = drv_enter();
  if (r) return r;
  drv_op op;
  uint32_t base[3];
  if ((r = kernel_op_of(NULL, p, &op, base))) return drv_leave(r);
  r = add(out, g, deps, ndeps, &op);
  if (r) drv_op_release(&op);
  else (*out)->via_extra = p->extra != NULL;   /* extra wins over kernelParams, as in a launch */
  return drv_leave(r);
}

DRV_EXPORT CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!of_kind(n, OP_KERNEL)) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  drv_op op;
  uint32_t base[3];
  if ((r = kernel_op_of(n, p, &op, base))) return drv_leave(r);
  set_kernel(n, &op, base, p->extra != NULL);
  return drv_leave(CUDA_SUCCESS);
}

/* The parameters as CUDA hands them out: kernelParams (a pointer to each
 * parameter's bytes in the node's copy) or extra (the whole buffer),
 * whichever they were set with; valid until they change. */
DRV_EXPORT CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS *p) {
  if (!of_kind(n, OP_KERNEL) || !p) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  const isa_func *k = &n->op.f->mod->m->funcs[n->op.f->func];
  if (!n->via_extra && !n->argv) {
    if (!(n->argv = calloc(k->nparams + 1, sizeof *n->argv))) { drv_unlock(); return CUDA_ERROR_OUT_OF_MEMORY; }
    for (uint32_t i = 0; i < k->nparams; i++) n->argv[i] = n->op.params + k->syms[k->nrets + i].offset;
  }
  n->extra_size = n->op.param_size;
  void *extra[5] = { CU_LAUNCH_PARAM_BUFFER_POINTER, n->op.params, CU_LAUNCH_PARAM_BUFFER_SIZE, &n->extra_size,
                     CU_LAUNCH_PARAM_END };
  memcpy(n->extra, extra, sizeof extra);
  *p = (CUDA_KERNEL_NODE_PARAMS){ n->op.f, n->op.grid[0], n->op.grid[1], n->op.grid[2], n->op.block[0], n->op.block[1],
                                  n->op.block[2], n->op.shared, n->via_extra ? NULL : n->argv,
                                  n->via_extra ? n->extra : NULL, NULL, NULL };
  drv_unlock();
  return CUDA_SUCCESS;
}

/* CUDA 11's layout: the same without kern and ctx */
DRV_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                         const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS v2 = { 0 };
  memcpy(&v2, p, offsetof(CUDA_KERNEL_NODE_PARAMS, kern));
  return cuGraphAddKernelNode_v2(out, g, deps, ndeps, &v2);
}
DRV_EXPORT CUresult cuGraphKernelNodeSetParams(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS v2 = { 0 };
  memcpy(&v2, p, offsetof(CUDA_KERNEL_NODE_PARAMS, kern));
  return cuGraphKernelNodeSetParams_v2(n, &v2);
}
DRV_EXPORT CUresult cuGraphKernelNodeGetParams(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS *p) {
  CUDA_KERNEL_NODE_PARAMS v2;
  CUresult r = p ? cuGraphKernelNodeGetParams_v2(n, &v2) : CUDA_ERROR_INVALID_VALUE;
  if (!r) memcpy(p, &v2, offsetof(CUDA_KERNEL_NODE_PARAMS, kern));
  return r;
}

/* Kernel node attributes (CUlaunchAttributeID): kept as set, (0, 0, 0)
 * and zeros before; the cluster shape and cooperative change the launch,
 * the others (priority, access policy window, ...) nothing here. */
static bool node_attr(int id, bool setting, const CUlaunchAttributeValue *v) {
  switch (id) {
  case 1: case 2: case 4: case 5: case 8: case 9: case 10: case 11: case 14: case 16: return true;
  case 13: return !setting || !v->pad[0];   /* device-updatable nodes: not supported (set to 0 only) */
  default: return false;
  }
}

DRV_EXPORT CUresult cuGraphKernelNodeGetAttribute(CUgraphNode n, int id, CUlaunchAttributeValue *v) {
  if (!of_kind(n, OP_KERNEL) || !v || !node_attr(id, false, NULL)) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  if (n->attrs) *v = n->attrs[id];
  else memset(v, 0, sizeof *v);
  drv_unlock();
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphKernelNodeSetAttribute(CUgraphNode n, int id, const CUlaunchAttributeValue *v) {
  if (!of_kind(n, OP_KERNEL) || !v || !node_attr(id, true, v)) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  if (!n->attrs && !(n->attrs = calloc(ATTRS, sizeof *n->attrs))) { drv_unlock(); return CUDA_ERROR_OUT_OF_MEMORY; }
  CUlaunchAttributeValue old = n->attrs[id];
  n->attrs[id] = *v;
  drv_op op = n->op;
  CUresult r = apply_attrs(n, n->base_cluster, n->base_cooperative, &op);
  if (r) n->attrs[id] = old;       /* a cluster shape the grid cannot take */
  else { memcpy(n->op.cluster, op.cluster, sizeof op.cluster); n->op.cooperative = op.cooperative; }
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src) {
  if (!of_kind(dst, OP_KERNEL) || !of_kind(src, OP_KERNEL)) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  CUresult r = CUDA_SUCCESS;
  for (int id = 0; id < ATTRS && !r; id++) {
    CUlaunchAttributeValue v;
    memset(&v, 0, sizeof v);
    if (src->attrs) v = src->attrs[id];
    if (node_attr(id, true, &v) && (src->attrs || dst->attrs)) r = cuGraphKernelNodeSetAttribute(dst, id, &v);
  }
  drv_unlock();
  return r;
}

/* ---- memset, host, child graph, event and memory nodes ---- */

static CUresult memset_op(const CUDA_MEMSET_NODE_PARAMS *p, drv_op *op) {
  if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || !p->width || !p->height)
    return CUDA_ERROR_INVALID_VALUE;
  uint64_t row = p->width * p->elementSize;
  if (p->height > 1 && p->pitch < row) return CUDA_ERROR_INVALID_VALUE;
  *op = (drv_op){ .kind = OP_MEMSET, .dst = p->dst, .dpitch = p->height > 1 ? p->pitch : row, .value = p->value,
                  .elem = p->elementSize, .width = p->width, .height = p->height };
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                         const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx) {
  (void)ctx;
  drv_op op;
  CUresult r = memset_op(p, &op);
  if (!r) r = add_locked(out, g, deps, ndeps, &op);
  if (!r) (*out)->set.memset = *p;
  return r;
}

DRV_EXPORT CUresult cuGraphMemsetNodeGetParams(CUgraphNode n, CUDA_MEMSET_NODE_PARAMS *p) {
  if (!of_kind(n, OP_MEMSET) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = n->set.memset;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphMemsetNodeSetParams(CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS *p) {
  drv_op op;
  if (!of_kind(n, OP_MEMSET)) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = memset_op(p, &op);
  if (r) return r;
  n->op = op;
  n->set.memset = *p;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                       const CUDA_HOST_NODE_PARAMS *p) {
  if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = OP_HOST, .fn = p->fn, .user = p->userData };
  return add_locked(out, g, deps, ndeps, &op);
}

DRV_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode n, CUDA_HOST_NODE_PARAMS *p) {
  if (!of_kind(n, OP_HOST) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = (CUDA_HOST_NODE_PARAMS){ n->op.fn, n->op.user };
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphHostNodeSetParams(CUgraphNode n, const CUDA_HOST_NODE_PARAMS *p) {
  if (!of_kind(n, OP_HOST) || !p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  n->op.fn = p->fn;
  n->op.user = p->userData;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps) {
  drv_op op = { .kind = OP_EMPTY };
  return add_locked(out, g, deps, ndeps, &op);
}

/* Whether g has conditional nodes (child graphs cannot). */
static bool has_cond(const struct CUgraph_st *g) {
  for (size_t i = 0; i < g->n; i++) if (g->nodes[i]->op.kind == OP_COND) return true;
  return false;
}

static bool has_memory_nodes(const struct CUgraph_st *g) {
  for (size_t i = 0; i < g->n; i++) {
    enum drv_op_kind k = g->nodes[i]->op.kind;
    if (k == OP_MEM_ALLOC || k == OP_MEM_FREE || (k == OP_GRAPH && has_memory_nodes(g->nodes[i]->op.graph))) return true;
  }
  return false;
}

/* The node embeds a clone of child (CUDA's rule), so child may change or
 * go; a child with memory nodes is refused, as CUDA does (an H200 says
 * not supported), unless the node takes child itself (move: cuGraphAddNode's
 * CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE). */
static CUresult add_child(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUgraph child, bool move) {
  if (!child || !out || child == g) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  if ((!move && has_memory_nodes(child)) || has_cond(child)) { drv_unlock(); return CUDA_ERROR_NOT_SUPPORTED; }
  drv_op op = { .kind = OP_GRAPH, .graph = move ? child : clone_graph(child) };
  CUresult r = op.graph ? add(out, g, deps, ndeps, &op) : CUDA_ERROR_OUT_OF_MEMORY;
  if (r && op.graph && !move) free_graph(op.graph);
  drv_unlock();
  run_dying();
  return r;
}
DRV_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                             CUgraph child) {
  return add_child(out, g, deps, ndeps, child, false);
}

DRV_EXPORT CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode n, CUgraph *g) {
  if (!of_kind(n, OP_GRAPH) || !g) return CUDA_ERROR_INVALID_VALUE;
  *g = n->op.graph;
  return CUDA_SUCCESS;
}

static CUresult add_event_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUevent e,
                               enum drv_op_kind kind) {
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = kind, .event = e };
  return add_locked(out, g, deps, ndeps, &op);
}
DRV_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                              CUevent e) {
  return add_event_node(out, g, deps, ndeps, e, OP_EVENT_RECORD);
}
/* waits for the event's latest record when the graph is launched */
DRV_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                            CUevent e) {
  return add_event_node(out, g, deps, ndeps, e, OP_WAIT_EVENT);
}

static CUresult get_event(CUgraphNode n, CUevent *e, enum drv_op_kind kind) {
  if (!of_kind(n, kind) || !e) return CUDA_ERROR_INVALID_VALUE;
  *e = n->op.event;
  return CUDA_SUCCESS;
}
static CUresult set_event(CUgraphNode n, CUevent e, enum drv_op_kind kind) {
  if (!of_kind(n, kind) || !e) return CUDA_ERROR_INVALID_VALUE;
  n->op.event = e;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode n, CUevent *e) { return get_event(n, e, OP_EVENT_RECORD); }
DRV_EXPORT CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode n, CUevent e) { return set_event(n, e, OP_EVENT_RECORD); }
DRV_EXPORT CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode n, CUevent *e) { return get_event(n, e, OP_WAIT_EVENT); }
DRV_EXPORT CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode n, CUevent e) { return set_event(n, e, OP_WAIT_EVENT); }

/* ---- memory nodes ---- */

/* How many of g's allocation (k OP_MEM_ALLOC) or free nodes name addr. */
static size_t count_nodes(const struct CUgraph_st *g, enum drv_op_kind k, uint64_t addr) {
  size_t c = 0;
  for (size_t i = 0; i < g->n; i++) c += g->nodes[i]->op.kind == k && g->nodes[i]->op.dst == addr;
  return c;
}

/* An address of g's allocations that a new one of n bytes after deps may
 * take: every allocation of g at it is freed before deps (first fit, in
 * the order they were made, as an H200 chooses); 0 if none. */
static uint64_t free_address(const struct CUgraph_st *g, struct CUgraphNode_st *const *deps, size_t ndeps, uint64_t n) {
  for (size_t i = 0; i < g->n; i++) {
    const struct CUgraphNode_st *a = g->nodes[i];
    if (a->op.kind != OP_MEM_ALLOC || drv_gmem_size(a->op.dst) < n) continue;
    size_t j = 0;
    while (j < i && !(g->nodes[j]->op.kind == OP_MEM_ALLOC && g->nodes[j]->op.dst == a->op.dst)) j++;
    if (j < i) continue;           /* its address was looked at already */
    size_t freed = 0;
    for (size_t k = 0; k < g->n; k++) {
      const struct CUgraphNode_st *f = g->nodes[k];
      if (f->op.kind == OP_MEM_FREE && f->op.dst == a->op.dst && before_any(g, f, deps, ndeps)) freed++;
    }
    if (freed && freed == count_nodes(g, OP_MEM_ALLOC, a->op.dst)) return a->op.dst;
  }
  return 0;
}

/* An allocation node of g after deps (p: its parameters, dptr set): a
 * freed address of g's, or a new one. */
static CUresult alloc_node(struct CUgraphNode_st **out, struct CUgraph_st *g, struct CUgraphNode_st *const *deps,
                           size_t ndeps, CUDA_MEM_ALLOC_NODE_PARAMS *p) {
  if (!p || !p->bytesize || (p->accessDescCount && !p->accessDescs)) return CUDA_ERROR_INVALID_VALUE;
  uint64_t d = free_address(g, deps, ndeps, p->bytesize);
  bool fresh = !d;
  if (fresh && !(d = drv_gmem_new(p->bytesize))) return CUDA_ERROR_OUT_OF_MEMORY;
  const void *access = p->accessDescCount ? dup_bytes(p->accessDescs, p->accessDescCount * 12) : NULL;
  drv_op op = { .kind = OP_MEM_ALLOC, .dst = d, .width = p->bytesize };
  struct CUgraphNode_st *n = p->accessDescCount && !access ? NULL : add_node(g, &op, deps, ndeps);
  if (!n) {
    free((void *)access);
    if (fresh) { drv_gmem_retain(d); drv_gmem_release(d); }   /* forgotten */
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  p->dptr = d;
  n->set.alloc = *p;
  n->set.alloc.accessDescs = access;
  *out = n;
  return CUDA_SUCCESS;
}

/* A free node may name the start of a graph allocation that g frees fewer
 * times than it allocates it, or that another graph allocates and g does
 * not free yet. */
static CUresult free_ok(const struct CUgraph_st *g, uint64_t d) {
  if (!d || !drv_gmem_size(d)) return CUDA_ERROR_INVALID_VALUE;
  size_t allocs = count_nodes(g, OP_MEM_ALLOC, d), frees = count_nodes(g, OP_MEM_FREE, d);
  return (allocs ? frees < allocs : !frees) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The address is fixed for every launch of the graph, as CUDA promises;
 * each launch allocates it again (drv_gmem_launch). */
DRV_EXPORT CUresult cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                           CUDA_MEM_ALLOC_NODE_PARAMS *p) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!out || !g || (ndeps && !deps)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  for (size_t i = 0; i < ndeps; i++) if (!deps[i] || deps[i]->graph != g) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  return drv_leave(alloc_node(out, g, deps, ndeps, p));
}

DRV_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                          CUdeviceptr dptr) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!g || (r = free_ok(g, dptr))) return drv_leave(r ? r : CUDA_ERROR_INVALID_VALUE);
  drv_op op = { .kind = OP_MEM_FREE, .dst = dptr };
  return drv_leave(add(out, g, deps, ndeps, &op));
}

/* cuMemAllocAsync on a capturing stream: an allocation node (device
 * memory of the one device, as the default pool gives). */
CUresult drv_graph_capture_alloc(struct CUstream_st *s, size_t bytes, CUdeviceptr *dptr) {
  CUDA_MEM_ALLOC_NODE_PARAMS p = { .bytesize = bytes };
  int props[4] = { 1, 0, 1, 0 };   /* pinned, no handle types, on the device, device 0 */
  memcpy(p.poolProps, props, sizeof props);
  struct CUgraphNode_st *n;
  CUresult r = alloc_node(&n, s->capture, s->cap_deps, s->cap_ndeps, &p);
  if (r) return r;
  *dptr = p.dptr;
  return set_deps(s, &n, 1);
}

/* cuMemFreeAsync on a capturing stream: a free node, of a graph
 * allocation only (an error that leaves the capture as it was). */
CUresult drv_graph_capture_free(struct CUstream_st *s, CUdeviceptr dptr) {
  CUresult r = free_ok(s->capture, dptr);
  drv_op op = { .kind = OP_MEM_FREE, .dst = dptr };
  return r ? r : record(s, &op, NULL);
}

DRV_EXPORT CUresult cuGraphMemAllocNodeGetParams(CUgraphNode n, CUDA_MEM_ALLOC_NODE_PARAMS *p) {
  if (!of_kind(n, OP_MEM_ALLOC) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = n->set.alloc;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode n, CUdeviceptr *dptr) {
  if (!of_kind(n, OP_MEM_FREE) || !dptr) return CUDA_ERROR_INVALID_VALUE;
  *dptr = n->op.dst;
  return CUDA_SUCCESS;
}

/* ---- copy nodes ---- */

/* One side of a 3-D copy: where its (0, 0, 0) lies, its row pitch and rows
 * a slice (0: as many as the copy has). */
typedef struct side { uint64_t base, pitch, rows; } side;

static CUresult side_of(int type, const void *host, CUdeviceptr dev, CUarray a, size_t pitch, size_t height, side *o) {
  uint64_t slices;
  switch (type) {
  case CU_MEMORYTYPE_HOST: *o = (side){ (uint64_t)(uintptr_t)host, pitch, height }; return CUDA_SUCCESS;
  case CU_MEMORYTYPE_DEVICE: case CU_MEMORYTYPE_UNIFIED: *o = (side){ dev, pitch, height }; return CUDA_SUCCESS;
  case CU_MEMORYTYPE_ARRAY: return ptxemu_array_info(a, &o->base, &o->pitch, &o->rows, &slices) ? CUDA_ERROR_INVALID_VALUE : 0;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
}

/* The address of (x, y, z) of side o in a copy of h rows a slice, its row
 * pitch and slice bytes (a pitch of 0: rows of w bytes, as 1-D copies give
 * it); false when the block from there is not all memory. */
static bool place(const side *o, size_t x, size_t y, size_t z, uint64_t w, uint64_t h, uint64_t d, uint64_t *at,
                  uint64_t *pitch, uint64_t *slice) {
  uint64_t p = o->pitch ? o->pitch : w, rows = o->rows ? o->rows : h, off, ext;
  if ((h > 1 || d > 1) && p < w) return false;
  if (__builtin_mul_overflow(p, rows, slice) || __builtin_mul_overflow(z, *slice, &off) ||
      __builtin_add_overflow(off, y * p + x, &off) || __builtin_add_overflow(o->base, off, at))
    return false;
  if (__builtin_mul_overflow(d - 1, *slice, &ext) || __builtin_add_overflow(ext, (h - 1) * p + w, &ext)) return false;
  *pitch = p;
  return drv_any_ptr(*at, ext) != NULL;
}

static CUresult copy_op(const CUDA_MEMCPY3D *p, drv_op *op) {
  side s, d;
  if (!p || !p->WidthInBytes) return CUDA_ERROR_INVALID_VALUE;
  if (side_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcHeight, &s) ||
      side_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight, &d))
    return CUDA_ERROR_INVALID_VALUE;
  uint64_t w = p->WidthInBytes, h = p->Height ? p->Height : 1, depth = p->Depth ? p->Depth : 1;
  *op = (drv_op){ .kind = OP_MEMCPY, .width = w, .height = h, .depth = depth };
  if (!place(&s, p->srcXInBytes, p->srcY, p->srcZ, w, h, depth, &op->src, &op->spitch, &op->sslice) ||
      !place(&d, p->dstXInBytes, p->dstY, p->dstZ, w, h, depth, &op->dst, &op->dpitch, &op->dslice))
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

/* A copy node with the runtime's cudaMemcpyKind beside (what its getter
 * gives back; the driver's own nodes say cudaMemcpyDefault). */
DRV_EXPORT CUresult ptxemu_graph_copy_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                           const CUDA_MEMCPY3D *p, int kind) {
  drv_op op;
  CUresult r = drv_enter();
  if (r) return r;
  if (!(r = copy_op(p, &op)) && !(r = add(out, g, deps, ndeps, &op))) {
    (*out)->set.copy = *p;
    (*out)->copy_kind = kind;
  }
  return drv_leave(r);
}
DRV_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                         const CUDA_MEMCPY3D *p, CUcontext ctx) {
  (void)ctx;
  return ptxemu_graph_copy_node(out, g, deps, ndeps, p, 4);
}

DRV_EXPORT CUresult ptxemu_graph_copy_get(CUgraphNode n, CUDA_MEMCPY3D *p, int *kind) {
  if (!of_kind(n, OP_MEMCPY) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = n->set.copy;
  if (kind) *kind = n->copy_kind;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode n, CUDA_MEMCPY3D *p) { return ptxemu_graph_copy_get(n, p, NULL); }

static CUresult exec_copy_set(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p);

/* New copy parameters for a node, or (x not NULL) for the executable's copy
 * of it. */
DRV_EXPORT CUresult ptxemu_graph_copy_set(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p, int kind) {
  if (!of_kind(n, OP_MEMCPY)) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  if (x) return drv_leave(exec_copy_set(x, n, p));
  drv_op op;
  if (!(r = copy_op(p, &op))) {
    n->op = op;
    n->set.copy = *p;
    n->copy_kind = kind;
  }
  return drv_leave(r);
}
DRV_EXPORT CUresult cuGraphMemcpyNodeSetParams(CUgraphNode n, const CUDA_MEMCPY3D *p) {
  return ptxemu_graph_copy_set(NULL, n, p, n ? n->copy_kind : 4);
}

/* ---- dependencies and queries ---- */

DRV_EXPORT CUresult cuGraphAddDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                              const void *edges, size_t n) {
  (void)edges;
  if (!g || (n && (!from || !to))) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < n; i++) {
    struct CUgraphNode_st *t = to[i];
    struct CUgraphNode_st **nd = realloc(t->deps, (t->ndeps + 1) * sizeof *nd);
    if (!nd) return CUDA_ERROR_OUT_OF_MEMORY;
    t->deps = nd;
    t->deps[t->ndeps++] = from[i];
  }
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
  return cuGraphAddDependencies_v2(g, from, to, NULL, n);
}

/* where from is among to's dependencies, or -1 */
static long dep_index(const struct CUgraphNode_st *to, const struct CUgraphNode_st *from) {
  for (size_t j = 0; j < to->ndeps; j++) if (to->deps[j] == from) return (long)j;
  return -1;
}

/* Every edge named must exist, or none is removed.  Edge data is not
 * compared (ptxemu keeps none; an H200 removes a plain edge named with
 * other data without an error). */
DRV_EXPORT CUresult cuGraphRemoveDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                                 const void *edges, size_t n) {
  (void)edges;
  if (!g || (n && (!from || !to))) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  for (size_t i = 0; i < n; i++)
    if (!from[i] || !to[i] || from[i]->graph != g || to[i]->graph != g || dep_index(to[i], from[i]) < 0) {
      drv_unlock();
      return CUDA_ERROR_INVALID_VALUE;
    }
  for (size_t i = 0; i < n; i++) {
    long j = dep_index(to[i], from[i]);
    if (j < 0) continue;           /* named twice */
    struct CUgraphNode_st *t = to[i];
    memmove(&t->deps[j], &t->deps[j + 1], (t->ndeps - (size_t)j - 1) * sizeof *t->deps);
    t->ndeps--;
  }
  drv_unlock();
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphRemoveDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
  return cuGraphRemoveDependencies_v2(g, from, to, NULL, n);
}

DRV_EXPORT CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n) {
  if (!g || !n) return CUDA_ERROR_INVALID_VALUE;
  if (nodes) for (size_t i = 0; i < *n && i < g->n; i++) nodes[i] = g->nodes[i];
  else *n = g->n;
  if (nodes && *n > g->n) *n = g->n;
  return CUDA_SUCCESS;
}

/* CUgraphNodeType of a node */
static int node_type(const struct CUgraphNode_st *n) {
  switch (n->op.kind) {
  case OP_KERNEL: return 0;
  case OP_MEMCPY: return 1;
  case OP_MEMSET: return 2;
  case OP_HOST: return 3;
  case OP_GRAPH: return 4;
  case OP_WAIT_EVENT: return 6;
  case OP_EVENT_RECORD: return 7;
  case OP_MEM_ALLOC: return 10;
  case OP_MEM_FREE: return 11;
  case OP_COND: return 13;
  default: return 5;
  }
}
DRV_EXPORT CUresult cuGraphNodeGetType(CUgraphNode n, int *type) {
  if (!n || !type) return CUDA_ERROR_INVALID_VALUE;
  *type = node_type(n);
  return CUDA_SUCCESS;
}
/* Up to *n of the list (the count alone when out is NULL), as CUDA's
 * getters: *n becomes how many there are, or how many were written. */
static void give(struct CUgraphNode_st *const *list, size_t count, CUgraphNode *out, size_t *n) {
  if (!out) { *n = count; return; }
  size_t k = count < *n ? count : *n;
  for (size_t i = 0; i < k; i++) out[i] = list[i];
  *n = k;
}

DRV_EXPORT CUresult cuGraphGetRootNodes(CUgraph g, CUgraphNode *roots, size_t *n) {
  if (!g || !n) return CUDA_ERROR_INVALID_VALUE;
  size_t k = 0;
  struct CUgraphNode_st **list = malloc((g->n ? g->n : 1) * sizeof *list);
  if (!list) return CUDA_ERROR_OUT_OF_MEMORY;
  for (size_t i = 0; i < g->n; i++) if (!g->nodes[i]->ndeps) list[k++] = g->nodes[i];
  give(list, k, roots, n);
  free(list);
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphNodeGetDependencies_v2(CUgraphNode node, CUgraphNode *deps, void *edges, size_t *n) {
  if (!node || !n) return CUDA_ERROR_INVALID_VALUE;
  give(node->deps, node->ndeps, deps, n);
  if (deps && edges) memset(edges, 0, *n * sizeof(CUgraphEdgeData));   /* default edges */
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *deps, size_t *n) {
  return cuGraphNodeGetDependencies_v2(node, deps, NULL, n);
}

DRV_EXPORT CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode node, CUgraphNode *out, void *edges, size_t *n) {
  if (!node || !n) return CUDA_ERROR_INVALID_VALUE;
  struct CUgraph_st *g = node->graph;
  struct CUgraphNode_st **list = malloc((g->n ? g->n : 1) * sizeof *list);
  if (!list) return CUDA_ERROR_OUT_OF_MEMORY;
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++)
    for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
      if (g->nodes[i]->deps[j] == node) { list[k++] = g->nodes[i]; break; }
  give(list, k, out, n);
  if (out && edges) memset(edges, 0, *n * sizeof(CUgraphEdgeData));   /* default edges */
  free(list);
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *out, size_t *n) {
  return cuGraphNodeGetDependentNodes_v2(node, out, NULL, n);
}

/* Every dependency as an edge (from, to); edge data, where asked, is the
 * default (ptxemu's graphs have no other kind). */
DRV_EXPORT CUresult cuGraphGetEdges_v2(CUgraph g, CUgraphNode *from, CUgraphNode *to, void *edges, size_t *n) {
  if (!g || !n || (!from) != (!to)) return CUDA_ERROR_INVALID_VALUE;
  size_t count = 0, k = 0;
  for (size_t i = 0; i < g->n; i++) count += g->nodes[i]->ndeps;
  if (!from) { *n = count; return CUDA_SUCCESS; }
  for (size_t i = 0; i < g->n && k < *n; i++)
    for (size_t j = 0; j < g->nodes[i]->ndeps && k < *n; j++, k++) {
      from[k] = g->nodes[i]->deps[j];
      to[k] = g->nodes[i];
    }
  if (edges) memset(edges, 0, k * sizeof(CUgraphEdgeData));    /* default edges */
  *n = k;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n) {
  return cuGraphGetEdges_v2(g, from, to, NULL, n);
}

/* Remove a node and the edges to and from it (not in a graph with memory
 * nodes, as CUDA). */
DRV_EXPORT CUresult cuGraphDestroyNode(CUgraphNode node) {
  if (!node) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  struct CUgraph_st *g = node->graph;
  if (has_memory_nodes(g)) { drv_unlock(); return CUDA_ERROR_NOT_SUPPORTED; }
  for (size_t i = 0; i < g->n; i++) {
    struct CUgraphNode_st *m = g->nodes[i];
    size_t k = 0;
    for (size_t j = 0; j < m->ndeps; j++) if (m->deps[j] != node) m->deps[k++] = m->deps[j];
    m->ndeps = k;
  }
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++) if (g->nodes[i] != node) { g->nodes[k] = g->nodes[i]; g->nodes[k]->index = k; k++; }
  g->n = k;
  for (struct CUstream_st *t = drv.live; t; t = t->next_live) {   /* a capture's dependencies */
    size_t m = 0;
    for (size_t j = 0; t->capture == g && j < t->cap_ndeps; j++) if (t->cap_deps[j] != node) t->cap_deps[m++] = t->cap_deps[j];
    if (t->capture == g) t->cap_ndeps = m;
  }
  free_node(node);
  drv_unlock();
  run_dying();
  return CUDA_SUCCESS;
}

/* A copy of the graph: its nodes (kernel parameters copied; a child graph
 * node's graph cloned too), their dependencies and its user objects'
 * references. */
DRV_EXPORT CUresult cuGraphClone(CUgraph *out, CUgraph g) {
  if (!out || !g) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  if (has_memory_nodes(g) || has_cond(g)) { drv_unlock(); return CUDA_ERROR_NOT_SUPPORTED; }   /* as CUDA */
  *out = clone_graph(g);
  drv_unlock();
  return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* The graph in Graphviz's DOT language: a node per operation, an edge per
 * dependency. */
DRV_EXPORT CUresult cuGraphDebugDotPrint(CUgraph g, const char *path, unsigned flags) {
  (void)flags;
  if (!g || !path) return CUDA_ERROR_INVALID_VALUE;
  FILE *f = fopen(path, "w");
  if (!f) return CUDA_ERROR_OPERATING_SYSTEM;
  static const char *names[] = { "kernel", "memcpy", "memset", "host", "graph", "empty", "wait_event", "event_record",
                                 "ext_semas_signal", "ext_semas_wait", "mem_alloc", "mem_free", "batch_mem_op",
                                 "conditional" };
  fprintf(f, "digraph ptxemu_graph {\n");
  for (size_t i = 0; i < g->n; i++) {
    const struct CUgraphNode_st *n = g->nodes[i];
    int t = node_type(n);
    fprintf(f, "  node%zu [label=\"%zu: %s", i, i, names[t]);
    if (n->op.kind == OP_KERNEL)
      fprintf(f, " %s <<<(%u,%u,%u),(%u,%u,%u)>>>", n->op.f ? n->op.f->mod->m->funcs[n->op.f->func].name : "?", n->op.grid[0], n->op.grid[1],
              n->op.grid[2], n->op.block[0], n->op.block[1], n->op.block[2]);
    else if (n->op.kind == OP_MEMCPY || n->op.kind == OP_MEMSET)
      fprintf(f, " %llu x %llu bytes", (unsigned long long)n->op.width, (unsigned long long)n->op.height);
    fprintf(f, "\"];\n");
  }
  for (size_t i = 0; i < g->n; i++)
    for (size_t j = 0; j < g->nodes[i]->ndeps; j++) fprintf(f, "  node%zu -> node%zu;\n", g->nodes[i]->deps[j]->index, i);
  fprintf(f, "}\n");
  return fclose(f) ? CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS;
}

/* Nothing to move (the emulator runs a graph from host memory), but the
 * graph allocator's memory for a launch is set aside, as CUDA does. */
DRV_EXPORT CUresult cuGraphUpload(CUgraphExec x, CUstream s) {
  (void)s;
  if (!x) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  drv_gmem_upload(x->footprint);
  drv_unlock();
  return CUDA_SUCCESS;
}

/* ---- executable graphs ---- */

/* Depth-first post-order over dependencies: a topological order; a cycle
 * is an error (CUDA rejects it at instantiation). */
static int visit(struct CUgraphNode_st *n, uint8_t *mark, struct CUgraphNode_st **order, size_t *k) {
  if (mark[n->index] == 2) return 0;
  if (mark[n->index] == 1) return -1;
  mark[n->index] = 1;
  for (size_t i = 0; i < n->ndeps; i++) if (visit(n->deps[i], mark, order, k)) return -1;
  mark[n->index] = 2;
  order[(*k)++] = n;
  return 0;
}

/* g's nodes in the order they run (NULL with *r on error) */
static struct CUgraphNode_st **run_order(const struct CUgraph_st *g, CUresult *r) {
  uint8_t *mark = calloc(g->n + 1, 1);
  struct CUgraphNode_st **order = calloc(g->n + 1, sizeof *order);
  size_t k = 0;
  *r = mark && order ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  for (size_t i = 0; !*r && i < g->n; i++) if (visit(g->nodes[i], mark, order, &k)) *r = CUDA_ERROR_INVALID_VALUE;
  free(mark);
  if (*r) { free(order); return NULL; }
  return order;
}

/* The executable's copy of an operation: its own kernel parameters and
 * child graph. */
static CUresult exec_op_copy(drv_op *to, const drv_op *from) {
  *to = *from;
  to->staged = NULL;
  to->params = NULL;
  to->graph = NULL;
  if (from->kind == OP_MEM_ALLOC) drv_gmem_retain(from->dst);
  if (from->kind == OP_COND) return clone_bodies(to);
  if (from->kind == OP_KERNEL && !(to->params = dup_bytes(from->params, from->param_size))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->kind == OP_GRAPH && !(to->graph = clone_graph(from->graph))) return CUDA_ERROR_OUT_OF_MEMORY;
  return CUDA_SUCCESS;
}

static void exec_op_release(drv_op *op) {
  if (op->kind == OP_GRAPH && op->graph) free_graph(op->graph);
  if (op->kind == OP_MEM_ALLOC) drv_gmem_release(op->dst);
  if (op->kind == OP_COND) free_bodies(op);
  op->kind = OP_EMPTY;
  op->graph = NULL;
  drv_op_release(op);
}

/* Wait for the executable's latest launch: what it is made of may go then. */
static void exec_quiesce(struct CUgraphExec_st *x) {
  if (x->last && drv_stream_valid(x->last) && x->last->completed < x->last_seq) drv_wait_seq(x->last, x->last_seq);
}

static void free_exec(struct CUgraphExec_st *x) {
  if (x->mem_graph) x->mem_graph->mem_exec = NULL;
  free(x->conds);
  for (size_t i = 0; i < x->n; i++) exec_op_release(&x->ops[i]);
  free(x->ops);
  free(x->nodes);
  free(x->off);
  refs_release(&x->refs);
  free(x);
}

enum { INSTANTIATE_AUTO_FREE = 1, INSTANTIATE_UPLOAD = 2, INSTANTIATE_DEVICE_LAUNCH = 4, INSTANTIATE_USE_NODE_PRIORITY = 8 };

/* The memory operations of a launch in the order they run: an
 * executable's, with its child graphs' in their place. */
typedef struct memops { const drv_op **v; uint32_t n, cap; } memops;

static CUresult memops_add(memops *m, const drv_op *op) {
  CUresult r = CUDA_SUCCESS;
  if (op->kind == OP_GRAPH) {
    struct CUgraphNode_st **order = run_order(op->graph, &r);
    for (size_t i = 0; order && !r && i < op->graph->n; i++) r = memops_add(m, &order[i]->op);
    free(order);
    return r;
  }
  if (op->kind != OP_MEM_ALLOC && op->kind != OP_MEM_FREE) return r;
  return VEC_APPEND(m->v, m->n, m->cap, op) ? CUDA_ERROR_OUT_OF_MEMORY : r;
}

static CUresult exec_memops(const struct CUgraphExec_st *x, memops *m) {
  CUresult r = CUDA_SUCCESS;
  for (size_t i = 0; !r && i < x->n; i++) r = memops_add(m, &x->ops[i]);
  return r;
}

/* The graph allocator's memory one launch takes: the most its allocations
 * hold at once, in whole chunks (0: it allocates nothing). */
static uint64_t footprint(const memops *m) {
  uint8_t *freed = calloc(m->n + 1, 1);
  uint64_t now = 0, most = 0;
  for (size_t i = 0; freed && i < m->n; i++) {
    const drv_op *op = m->v[i];
    if (op->kind == OP_MEM_ALLOC) {
      now += op->width;
      if (now > most) most = now;
      continue;
    }
    for (size_t j = i; j-- > 0;)   /* the latest allocation at its address */
      if (m->v[j]->kind == OP_MEM_ALLOC && m->v[j]->dst == op->dst && !freed[j]) {
        freed[j] = 1;
        now -= m->v[j]->width;
        break;
      }
  }
  free(freed);
  return (most + DRV_GMEM_CHUNK - 1) / DRV_GMEM_CHUNK * DRV_GMEM_CHUNK;
}

/* The host's view of a launch's allocations and frees: refused while an
 * allocation of an earlier launch lives, unless the executable frees them
 * on launch (first, in stream order). */
static CUresult launch_memory(struct CUgraphExec_st *x, CUstream s) {
  memops m = { 0 };
  CUresult r = exec_memops(x, &m);
  for (size_t i = 0; !r && i < m.n; i++)
    if (m.v[i]->kind == OP_MEM_ALLOC && drv_gmem_live(m.v[i]->dst) && !(x->flags & INSTANTIATE_AUTO_FREE))
      r = CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; !r && i < m.n; i++) {
    drv_op op = { .kind = OP_MEM_FREE, .dst = m.v[i]->dst };
    if (m.v[i]->kind == OP_MEM_ALLOC && drv_gmem_live(op.dst) && !(r = drv_gmem_freed(op.dst))) r = drv_submit(s, &op);
  }
  if (!r && m.n) {
    drv_gmem_block *b = drv_gmem_take(x->footprint);
    for (size_t i = 0; i < m.n; i++)
      if (m.v[i]->kind == OP_MEM_ALLOC) drv_gmem_allocated(m.v[i]->dst, b);
      else drv_gmem_freed(m.v[i]->dst);
    drv_gmem_settle(b);
  }
  free(m.v);
  return r;
}

/* ---- conditional nodes ---- */

enum { COND_IF, COND_WHILE, COND_SWITCH };

/* every handle made, for conditional nodes of any graph (an H200 takes
 * another graph's handle) */
static uint64_t *handles;
static size_t nhandles;

/* What CUDA lets a body hold: kernels, copies, memsets, empty nodes, child
 * graphs and conditional nodes. */
static bool body_ok(const struct CUgraph_st *g) {
  for (size_t i = 0; i < g->n; i++) {
    const drv_op *op = &g->nodes[i]->op;
    bool ok = op->kind == OP_KERNEL || op->kind == OP_MEMCPY || op->kind == OP_MEMSET || op->kind == OP_EMPTY ||
              op->kind == OP_COND || (op->kind == OP_GRAPH && body_ok(op->graph));
    for (uint32_t b = 0; ok && op->kind == OP_COND && b < op->nbodies; b++) ok = body_ok(op->bodies[b]);
    if (!ok) return false;
  }
  return true;
}

/* A graph with handles made for it has a conditional node (an H200
 * refuses it otherwise, but takes it when the node uses another graph's
 * handle), in g and in the bodies, whose contents are allowed. */
static CUresult check_conds(const struct CUgraph_st *g) {
  if (g->nconds && !has_cond(g)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < g->n; i++) {
    const drv_op *op = &g->nodes[i]->op;
    for (uint32_t b = 0; op->kind == OP_COND && b < op->nbodies; b++)
      if (!body_ok(op->bodies[b]) || check_conds(op->bodies[b])) return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

/* Conditions that each launch starts from their default value
 * (CU_GRAPH_COND_ASSIGN_DEFAULT): a memset first, in stream order. */
static CUresult assign_defaults(const cond *c, size_t n, CUstream s) {
  CUresult r = CUDA_SUCCESS;
  for (size_t i = 0; !r && i < n; i++) {
    if (!c[i].assign) continue;
    drv_op op = { .kind = OP_MEMSET, .dst = c[i].addr, .dpitch = 4, .value = c[i].dflt, .elem = 4, .width = 1, .height = 1 };
    r = drv_submit(s, &op);
  }
  return r;
}

/* A body runs now, in its stream's place: what it may hold runs at once
 * (the handles made for it start from their default first). */
static CUresult run_now(struct CUgraph_st *g) {
  CUresult r;
  for (size_t i = 0; i < g->nconds; i++) {
    uint8_t *p = g->conds[i].assign ? drv_device_ptr(g->conds[i].addr, 4) : NULL;
    if (p) memcpy(p, &g->conds[i].dflt, 4);
  }
  struct CUgraphNode_st **order = run_order(g, &r);
  for (size_t i = 0; order && !r && i < g->n; i++) {
    drv_op *op = &order[i]->op;
    r = op->kind == OP_GRAPH ? run_now(op->graph) : drv_execute(op);
  }
  free(order);
  return r;
}

CUresult drv_graph_run_cond(const drv_op *op) {
  for (;;) {
    const uint8_t *p = drv_device_ptr(op->dst, 4);
    uint32_t v;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    memcpy(&v, p, sizeof v);
    struct CUgraph_st *body = op->value == COND_SWITCH ? (v < op->nbodies ? op->bodies[v] : NULL)
                              : v                       ? op->bodies[0]
                              : op->value == COND_IF && op->nbodies > 1 ? op->bodies[1] : NULL;
    if (!body) return CUDA_SUCCESS;
    CUresult r = run_now(body);
    if (r || drv.sticky || op->value != COND_WHILE) return r;
  }
}

/* A handle is the address of a condition word in device memory, which
 * cudaGraphSetConditional writes (emu/builtins.c); the words stay for
 * the process (executables outlive their graph). */
DRV_EXPORT CUresult cuGraphConditionalHandleCreate(uint64_t *out, CUgraph g, CUcontext ctx, unsigned dflt, unsigned flags) {
  (void)ctx;
  if (!out || !g || flags > 1) return CUDA_ERROR_INVALID_VALUE;   /* CU_GRAPH_COND_ASSIGN_DEFAULT or nothing */
  CUresult r = drv_enter();
  if (r) return r;
  cond *nc = realloc(g->conds, (g->nconds + 1) * sizeof *nc);
  if (nc) g->conds = nc;
  uint64_t *nh = nc ? realloc(handles, (nhandles + 1) * sizeof *nh) : NULL;
  if (nh) handles = nh;
  uint64_t a = nh ? emu_alloc(drv.e, 4, "conditional handle") : 0;
  if (!a) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  handles[nhandles++] = a;
  memcpy(drv_device_ptr(a, 4), &dflt, 4);
  g->conds[g->nconds++] = (cond){ a, dflt, flags == 1 };
  *out = a;
  return drv_leave(CUDA_SUCCESS);
}

/* A conditional node: its bodies, empty graphs the node owns, in
 * p->phGraph_out. */
static CUresult add_cond(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUDA_CONDITIONAL_NODE_PARAMS *p) {
  if (!g || !out) return CUDA_ERROR_INVALID_VALUE;
  bool sized = p->type == COND_IF ? p->size == 1 || p->size == 2
               : p->type == COND_WHILE ? p->size == 1 : p->type == COND_SWITCH && p->size >= 1 && p->size <= 65536;
  size_t h = 0;
  drv_lock();
  while (h < nhandles && handles[h] != p->handle) h++;
  drv_unlock();
  if (!sized || h == nhandles) return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = OP_COND, .dst = p->handle, .value = (uint32_t)p->type, .nbodies = p->size };
  CUresult r = (op.bodies = calloc(p->size + 1, sizeof *op.bodies)) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  for (uint32_t i = 0; !r && i < p->size; i++) if (!(op.bodies[i] = calloc(1, sizeof **op.bodies))) r = CUDA_ERROR_OUT_OF_MEMORY;
  drv_lock();
  if (!r) r = add(out, g, deps, ndeps, &op);
  drv_unlock();
  if (r) free_bodies(&op);
  else p->phGraph_out = op.bodies;
  return r;
}

static CUresult instantiate(struct CUgraphExec_st **exec, struct CUgraph_st *g, unsigned long long flags) {
  CUresult r;
  struct CUgraphNode_st **order = run_order(g, &r);
  if (!order) return r;
  struct CUgraphExec_st *x = calloc(1, sizeof *x);
  if (x) {
    x->ops = calloc(g->n + 1, sizeof *x->ops);
    x->nodes = calloc(g->n + 1, sizeof *x->nodes);
    x->off = calloc(g->n + 1, 1);
  }
  r = x && x->ops && x->nodes && x->off ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  for (size_t i = 0; !r && i < g->n; i++, x->n++) {
    x->nodes[i] = order[i];
    r = exec_op_copy(&x->ops[i], &order[i]->op);
  }
  if (!r) r = refs_copy(&x->refs, &g->refs);
  free(order);
  memops m = { 0 };
  if (!r && !(r = exec_memops(x, &m))) x->footprint = footprint(&m);
  free(m.v);
  if (!r) r = check_conds(g);
  if (!r && g->nconds && !(x->conds = dup_bytes(g->conds, g->nconds * sizeof *g->conds))) r = CUDA_ERROR_OUT_OF_MEMORY;
  if (!r) x->nconds = g->nconds;
  if (r) {
    if (x) free_exec(x);
    return r;
  }
  /* what cuGraphExecGetFlags gives back: an H200 leaves out node priority too */
  x->flags = flags & ~(unsigned long long)(INSTANTIATE_UPLOAD | INSTANTIATE_USE_NODE_PRIORITY);
  *exec = x;
  return CUDA_SUCCESS;
}

/* A graph with memory or conditional nodes has one executable at a time
 * (CUDA's rule). */
DRV_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph g, unsigned long long flags) {
  if (!exec || !g) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  bool one = has_memory_nodes(g) || has_cond(g);
  r = one && g->mem_exec ? CUDA_ERROR_NOT_SUPPORTED : instantiate(exec, g, flags);
  if (!r && one) {
    g->mem_exec = *exec;
    (*exec)->mem_graph = g;
  }
  drv_unlock();
  run_dying();
  return r;
}
DRV_EXPORT CUresult cuGraphInstantiate_v2(CUgraphExec *exec, CUgraph g, CUgraphNode *err_node, char *log, size_t n) {
  (void)err_node;
  if (log && n) log[0] = 0;
  return cuGraphInstantiateWithFlags(exec, g, 0);
}

DRV_EXPORT CUresult cuGraphExecGetFlags(CUgraphExec x, unsigned long long *flags) {
  if (!x || !flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = x->flags;
  return CUDA_SUCCESS;
}

static CUresult submit_graph(CUstream s, const struct CUgraph_st *g);

/* Submit one operation of a launched graph: a child graph's operations in
 * its place; an event wait for the event's latest record (none yet:
 * nothing to wait for). */
static CUresult submit_op(CUstream s, const drv_op *from) {
  drv_op op = *from;
  switch (op.kind) {
  case OP_GRAPH: return submit_graph(s, op.graph);
  case OP_WAIT_EVENT:
    if (!op.event->stream) return CUDA_SUCCESS;
    op.wait_stream = op.event->stream;
    op.wait_seq = op.event->seq;
    break;
  case OP_KERNEL:                  /* drv_submit releases what it is given */
    if (!(op.params = dup_bytes(from->params, from->param_size))) return CUDA_ERROR_OUT_OF_MEMORY;
    break;
  default: break;
  }
  return drv_submit(s, &op);
}

static CUresult submit_graph(CUstream s, const struct CUgraph_st *g) {
  CUresult r;
  struct CUgraphNode_st **order = run_order(g, &r);
  for (size_t i = 0; order && i < g->n && !r; i++) r = submit_op(s, &order[i]->op);
  free(order);
  return r;
}

DRV_EXPORT CUresult cuGraphLaunch(CUgraphExec x, CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!x) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (drv.sticky) return drv_leave(drv.sticky);
  struct CUstream_st *st = drv_stream(s);
  if (!st->capture && (r = launch_memory(x, s))) return drv_leave(r);
  r = assign_defaults(x->conds, x->nconds, s);
  /* a disabled node is an empty one, which in-order work can skip */
  for (size_t i = 0; i < x->n && !r; i++) if (!x->off[i]) r = submit_op(s, &x->ops[i]);
  if (!st->capture) {
    x->last = st;
    x->last_seq = st->submitted;
  }
  return drv_leave(r);
}

/* The references it holds go once its launches are done, as in CUDA. */
DRV_EXPORT CUresult cuGraphExecDestroy(CUgraphExec x) {
  if (!x) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  exec_quiesce(x);
  free_exec(x);
  drv_unlock();
  run_dying();
  return CUDA_SUCCESS;
}

/* The executable's operation made from node n, if it is of kind k. */
static drv_op *exec_op(struct CUgraphExec_st *x, const struct CUgraphNode_st *n, enum drv_op_kind k) {
  if (!x || !n) return NULL;
  for (size_t i = 0; i < x->n; i++) if (x->nodes[i] == n) return x->ops[i].kind == k ? &x->ops[i] : NULL;
  return NULL;
}

DRV_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  CUresult r = drv_enter();
  if (r) return r;
  drv_op *op = exec_op(x, n, OP_KERNEL), nop;
  uint32_t base[3];
  if (!op) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if ((r = kernel_op_of(n, p, &nop, base))) return drv_leave(r);
  drv_op_release(op);
  *op = nop;
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuGraphExecKernelNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS v2 = { 0 };
  memcpy(&v2, p, offsetof(CUDA_KERNEL_NODE_PARAMS, kern));
  return cuGraphExecKernelNodeSetParams_v2(x, n, &v2);
}

DRV_EXPORT CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS *p,
                                                   CUcontext ctx) {
  (void)ctx;
  drv_lock();
  drv_op *op = exec_op(x, n, OP_MEMSET), nop;
  CUresult r = op ? memset_op(p, &nop) : CUDA_ERROR_INVALID_VALUE;
  if (!r) *op = nop;
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuGraphExecHostNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_HOST_NODE_PARAMS *p) {
  drv_lock();
  drv_op *op = exec_op(x, n, OP_HOST);
  CUresult r = op && p && p->fn ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r) { op->fn = p->fn; op->user = p->userData; }
  drv_unlock();
  return r;
}

/* CUDA updates only 1-D copies in an executable: both the old and the new
 * must be one row. */
static CUresult exec_copy_set(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p) {
  drv_op *op = exec_op(x, n, OP_MEMCPY), nop;
  if (!op || op->height > 1 || op->depth > 1) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = copy_op(p, &nop);
  if (r) return r;
  if (nop.height > 1 || nop.depth > 1) return CUDA_ERROR_INVALID_VALUE;
  *op = nop;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p, CUcontext ctx) {
  (void)ctx;
  drv_lock();
  CUresult r = exec_copy_set(x, n, p);
  drv_unlock();
  return r;
}

static CUresult exec_set_event(CUgraphExec x, CUgraphNode n, CUevent e, enum drv_op_kind k) {
  drv_lock();
  drv_op *op = exec_op(x, n, k);
  CUresult r = op && e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r) op->event = e;
  drv_unlock();
  return r;
}
DRV_EXPORT CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec x, CUgraphNode n, CUevent e) {
  return exec_set_event(x, n, e, OP_EVENT_RECORD);
}
DRV_EXPORT CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec x, CUgraphNode n, CUevent e) {
  return exec_set_event(x, n, e, OP_WAIT_EVENT);
}

/* Whether two graphs have the same nodes (kinds, in the order they were
 * added) and edges: what an update may change in an executable is
 * parameters alone. */
static bool same_shape(const struct CUgraph_st *a, const struct CUgraph_st *b) {
  if (a->n != b->n) return false;
  for (size_t i = 0; i < a->n; i++) {
    const struct CUgraphNode_st *p = a->nodes[i], *q = b->nodes[i];
    if (node_type(p) != node_type(q) || p->ndeps != q->ndeps) return false;
    for (size_t j = 0; j < p->ndeps; j++) if (p->deps[j]->index != q->deps[j]->index) return false;
    if (p->op.kind == OP_GRAPH && !same_shape(p->op.graph, q->op.graph)) return false;
  }
  return true;
}

/* The child graph node runs child's parameters from now on (a copy of
 * child, which must have the shape of the node's graph). */
DRV_EXPORT CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec x, CUgraphNode n, CUgraph child) {
  drv_lock();
  drv_op *op = exec_op(x, n, OP_GRAPH);
  CUresult r = op && child ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r && !same_shape(op->graph, child)) r = CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  struct CUgraph_st *c = r ? NULL : clone_graph(child);
  if (!r && !c) r = CUDA_ERROR_OUT_OF_MEMORY;
  if (!r) {
    exec_quiesce(x);               /* its references go after the launches that use them */
    free_graph(op->graph);
    op->graph = c;
  }
  drv_unlock();
  run_dying();
  return r;
}

/* A disabled kernel, copy or memset node runs as an empty node. */
static CUresult enabled_at(struct CUgraphExec_st *x, const struct CUgraphNode_st *n, size_t *at) {
  if (!x || !n) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < x->n; i++) {
    if (x->nodes[i] != n) continue;
    enum drv_op_kind k = x->ops[i].kind;
    if (k != OP_KERNEL && k != OP_MEMCPY && k != OP_MEMSET) return CUDA_ERROR_INVALID_VALUE;
    *at = i;
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}
DRV_EXPORT CUresult cuGraphNodeSetEnabled(CUgraphExec x, CUgraphNode n, unsigned on) {
  size_t i;
  drv_lock();
  CUresult r = enabled_at(x, n, &i);
  if (!r) x->off[i] = !on;
  drv_unlock();
  return r;
}
DRV_EXPORT CUresult cuGraphNodeGetEnabled(CUgraphExec x, CUgraphNode n, unsigned *on) {
  size_t i;
  if (!on) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  CUresult r = enabled_at(x, n, &i);
  if (!r) *on = !x->off[i];
  drv_unlock();
  return r;
}

/* Update: the new graph must have the same shape (as many operations, of
 * the same kinds in the same order); its parameters replace the
 * executable's.  Nodes are still named by the graph it was instantiated
 * from, and stay enabled or disabled. */
DRV_EXPORT CUresult cuGraphExecUpdate_v2(CUgraphExec x, CUgraph g, void *result) {
  if (!x || !g) return CUDA_ERROR_INVALID_VALUE;
  if (result) memset(result, 0, 16);
  drv_lock();
  struct CUgraphExec_st *nx;
  CUresult r = instantiate(&nx, g, x->flags);
  bool same = !r && nx->n == x->n;
  for (size_t i = 0; same && i < x->n; i++) same = nx->ops[i].kind == x->ops[i].kind;
  if (!r && !same) {
    free_exec(nx);
    r = CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  }
  if (!r) {
    exec_quiesce(x);
    drv_op *ops = x->ops;
    urefs refs = x->refs;
    x->ops = nx->ops;
    x->refs = nx->refs;
    x->footprint = nx->footprint;
    nx->ops = ops;
    nx->refs = refs;
    free_exec(nx);
  }
  drv_unlock();
  run_dying();
  return r;
}

/* ---- nodes of any kind: cuGraphAddNode and the generic setters ---- */

enum { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_GRAPH, NODE_EMPTY, NODE_WAIT_EVENT, NODE_EVENT_RECORD,
       NODE_SEM_SIGNAL, NODE_SEM_WAIT, NODE_MEM_ALLOC, NODE_MEM_FREE, NODE_MEM_OP, NODE_CONDITIONAL };

/* The bytes of a type's member of CUgraphNodeParams (-1: no such type;
 * the whole union for the types ptxemu has no nodes of). */
static long member_bytes(int type) {
  switch (type) {
  case NODE_KERNEL: return sizeof(CUDA_KERNEL_NODE_PARAMS);
  case NODE_MEMCPY: return sizeof(CUDA_MEMCPY_NODE_PARAMS);
  case NODE_MEMSET: return sizeof(CUDA_MEMSET_NODE_PARAMS) + sizeof(CUcontext);
  case NODE_HOST: return sizeof(CUDA_HOST_NODE_PARAMS);
  case NODE_GRAPH: return sizeof(CUDA_CHILD_GRAPH_NODE_PARAMS);
  case NODE_EMPTY: return 0;
  case NODE_WAIT_EVENT: case NODE_EVENT_RECORD: return sizeof(CUevent);
  case NODE_MEM_ALLOC: return sizeof(CUDA_MEM_ALLOC_NODE_PARAMS);
  case NODE_MEM_FREE: return sizeof(CUdeviceptr);
  case NODE_CONDITIONAL: return sizeof(CUDA_CONDITIONAL_NODE_PARAMS);
  case NODE_SEM_SIGNAL: case NODE_SEM_WAIT: case NODE_MEM_OP: return 29 * 8;
  default: return -1;
  }
}

/* A known type, and every byte CUDA reserves zero (an H200 refuses the
 * others with CUDA_ERROR_INVALID_VALUE). */
static CUresult check_params(const CUgraphNodeParams *p) {
  long n = p ? member_bytes(p->type) : -1;
  if (n < 0 || p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2) return CUDA_ERROR_INVALID_VALUE;
  const unsigned char *u = (const unsigned char *)p->reserved1;
  for (size_t i = (size_t)n; i < sizeof p->reserved1; i++) if (u[i]) return CUDA_ERROR_INVALID_VALUE;
  if (p->type == NODE_MEMCPY && (p->memcpy.flags || p->memcpy.reserved)) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

static CUresult unsupported_type(int type) {
  return drv_unsupported(type == NODE_CONDITIONAL ? "changing a conditional node"
                         : type == NODE_MEM_OP    ? "batch memory operation nodes"
                                                  : "external semaphore nodes");
}

static bool default_edge(const CUgraphEdgeData *e) {
  return !e->from_port && !e->to_port && !e->type && !e->reserved[0] && !e->reserved[1] && !e->reserved[2] &&
         !e->reserved[3] && !e->reserved[4];
}

DRV_EXPORT CUresult cuGraphAddNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges,
                                      size_t ndeps, CUgraphNodeParams *p) {
  CUresult r = check_params(p);
  if (r) return r;
  for (size_t i = 0; edges && i < ndeps; i++)   /* programmatic edges join kernels only */
    if (!default_edge(&edges[i]))
      return p->type == NODE_KERNEL ? drv_unsupported("graph edges with data (programmatic dependent launch)")
                                    : CUDA_ERROR_INVALID_VALUE;
  switch (p->type) {
  case NODE_KERNEL: return cuGraphAddKernelNode_v2(out, g, deps, ndeps, &p->kernel);
  case NODE_MEMCPY: return cuGraphAddMemcpyNode(out, g, deps, ndeps, &p->memcpy.copyParams, NULL);
  case NODE_MEMSET: return cuGraphAddMemsetNode(out, g, deps, ndeps, &p->memset, NULL);
  case NODE_HOST: return cuGraphAddHostNode(out, g, deps, ndeps, &p->host);
  case NODE_GRAPH:
    if ((unsigned)p->graph.ownership > 1) return CUDA_ERROR_INVALID_VALUE;
    return add_child(out, g, deps, ndeps, p->graph.graph, p->graph.ownership == 1);
  case NODE_EMPTY: return cuGraphAddEmptyNode(out, g, deps, ndeps);
  case NODE_WAIT_EVENT: return cuGraphAddEventWaitNode(out, g, deps, ndeps, p->event);
  case NODE_EVENT_RECORD: return cuGraphAddEventRecordNode(out, g, deps, ndeps, p->event);
  case NODE_MEM_ALLOC: return cuGraphAddMemAllocNode(out, g, deps, ndeps, &p->alloc);
  case NODE_MEM_FREE: return cuGraphAddMemFreeNode(out, g, deps, ndeps, p->free);
  case NODE_CONDITIONAL: return add_cond(out, g, deps, ndeps, &p->conditional);
  default: return unsupported_type(p->type);
  }
}
/* CUDA 12.2's, without edge data */
DRV_EXPORT CUresult cuGraphAddNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUgraphNodeParams *p) {
  return cuGraphAddNode_v2(out, g, deps, NULL, ndeps, p);
}

/* A child graph node of a graph runs a clone of child from now on. */
static CUresult set_child(CUgraphNode n, CUgraph child) {
  if (!child) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  struct CUgraph_st *c = has_memory_nodes(child) ? NULL : clone_graph(child);
  CUresult r = c ? CUDA_SUCCESS : has_memory_nodes(child) ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_OUT_OF_MEMORY;
  if (c) {
    free_graph(n->op.graph);
    n->op.graph = c;
  }
  drv_unlock();
  run_dying();
  return r;
}

/* The type must be the node's; memory nodes keep theirs (CUDA's rule). */
DRV_EXPORT CUresult cuGraphNodeSetParams(CUgraphNode n, CUgraphNodeParams *p) {
  CUresult r = check_params(p);
  if (r) return r;
  if (!n || p->type != node_type(n)) return CUDA_ERROR_INVALID_VALUE;
  switch (p->type) {
  case NODE_KERNEL: return cuGraphKernelNodeSetParams_v2(n, &p->kernel);
  case NODE_MEMCPY: return ptxemu_graph_copy_set(NULL, n, &p->memcpy.copyParams, 4);
  case NODE_MEMSET: return cuGraphMemsetNodeSetParams(n, &p->memset);
  case NODE_HOST: return cuGraphHostNodeSetParams(n, &p->host);
  case NODE_GRAPH: return set_child(n, p->graph.graph);
  case NODE_EMPTY: return CUDA_SUCCESS;
  case NODE_WAIT_EVENT: return cuGraphEventWaitNodeSetEvent(n, p->event);
  case NODE_EVENT_RECORD: return cuGraphEventRecordNodeSetEvent(n, p->event);
  case NODE_MEM_ALLOC: case NODE_MEM_FREE: return CUDA_ERROR_NOT_SUPPORTED;
  default: return unsupported_type(p->type);
  }
}

/* What each type's own exec setter allows (memory nodes: nothing). */
DRV_EXPORT CUresult cuGraphExecNodeSetParams(CUgraphExec x, CUgraphNode n, CUgraphNodeParams *p) {
  CUresult r = check_params(p);
  if (r) return r;
  if (!x || !n || p->type != node_type(n)) return CUDA_ERROR_INVALID_VALUE;
  switch (p->type) {
  case NODE_KERNEL: return cuGraphExecKernelNodeSetParams_v2(x, n, &p->kernel);
  case NODE_MEMCPY: return ptxemu_graph_copy_set(x, n, &p->memcpy.copyParams, 4);
  case NODE_MEMSET: return cuGraphExecMemsetNodeSetParams(x, n, &p->memset, NULL);
  case NODE_HOST: return cuGraphExecHostNodeSetParams(x, n, &p->host);
  case NODE_GRAPH: return cuGraphExecChildGraphNodeSetParams(x, n, p->graph.graph);
  case NODE_EMPTY: return exec_op(x, n, OP_EMPTY) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  case NODE_WAIT_EVENT: return cuGraphExecEventWaitNodeSetEvent(x, n, p->event);
  case NODE_EVENT_RECORD: return cuGraphExecEventRecordNodeSetEvent(x, n, p->event);
  case NODE_MEM_ALLOC: case NODE_MEM_FREE: return CUDA_ERROR_NOT_SUPPORTED;
  default: return unsupported_type(p->type);
  }
}

/* Known flags only, not auto-free with device launch; an upload if asked.
 * The results are written on success only (an H200 leaves them as they
 * were when it refuses a graph). */
DRV_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec *exec, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p) {
  if (!p || (p->flags & ~(uint64_t)15) ||
      ((p->flags & INSTANTIATE_AUTO_FREE) && (p->flags & INSTANTIATE_DEVICE_LAUNCH)))
    return CUDA_ERROR_INVALID_VALUE;
  CUresult r = cuGraphInstantiateWithFlags(exec, g, p->flags);
  if (!r && (p->flags & INSTANTIATE_UPLOAD)) r = cuGraphUpload(*exec, p->hUploadStream);
  if (r) return r;
  p->hErrNode_out = NULL;
  p->result_out = 0;             /* CUDA_GRAPH_INSTANTIATE_SUCCESS */
  return CUDA_SUCCESS;
}

/* ---- user objects ---- */

DRV_EXPORT CUresult cuUserObjectCreate(CUuserObject *out, void *ptr, CUhostFn destroy, unsigned refs, unsigned flags) {
  if (!out || !destroy || !refs || refs > INT_MAX || flags != 1) return CUDA_ERROR_INVALID_VALUE;  /* NO_DESTRUCTOR_SYNC */
  struct CUuserObject_st *o = calloc(1, sizeof *o);
  if (!o) return CUDA_ERROR_OUT_OF_MEMORY;
  *o = (struct CUuserObject_st){ ptr, destroy, refs, NULL };
  *out = o;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuUserObjectRetain(CUuserObject o, unsigned count) {
  if (!o || !count || count > INT_MAX) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  o->refs += count;
  drv_unlock();
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuUserObjectRelease(CUuserObject o, unsigned count) {
  if (!o || !count || count > INT_MAX) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  CUresult r = count <= o->refs ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r) uobj_release(o, count);
  drv_unlock();
  run_dying();
  return r;
}

/* New references owned by the graph, or (CU_GRAPH_USER_OBJECT_MOVE) the
 * caller's moved to it. */
DRV_EXPORT CUresult cuGraphRetainUserObject(CUgraph g, CUuserObject o, unsigned count, unsigned flags) {
  if (!g || !o || !count || count > INT_MAX || (flags & ~1u)) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  CUresult r = refs_add(&g->refs, o, count);
  if (!r && !(flags & 1)) o->refs += count;
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuGraphReleaseUserObject(CUgraph g, CUuserObject o, unsigned count) {
  if (!g || !o || !count || count > INT_MAX) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  CUresult r = CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < g->refs.n; i++) {
    uref *u = &g->refs.v[i];
    if (u->o != o || u->count < count) continue;
    u->count -= count;
    if (!u->count) g->refs.v[i] = g->refs.v[--g->refs.n];
    uobj_release(o, count);
    r = CUDA_SUCCESS;
    break;
  }
  drv_unlock();
  run_dying();
  return r;
}
