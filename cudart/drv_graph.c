/* cudart/drv_graph.c - CUDA graphs: stream capture and the explicit graph
 * API.  A graph is a list of operations (drv_op) with dependencies; an
 * instantiated graph is a copy of them in a topological order, and a
 * launch runs them in that order on the stream (or records them, when the
 * stream is itself being captured). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"

struct CUgraphNode_st {
  drv_op op;
  struct CUgraph_st *graph;
  struct CUgraphNode_st **deps;
  size_t ndeps;
  size_t index;
};

struct CUgraph_st {
  struct CUgraphNode_st **nodes;
  size_t n, cap;
  struct CUgraphNode_st *last;   /* capture: the node the next one depends on */
};

struct CUgraphExec_st { drv_op *ops; struct CUgraphNode_st **nodes; size_t n; };

static uint64_t next_capture_id = 1;

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
  n->index = g->n;
  g->nodes[g->n++] = n;
  return n;
}

CUresult drv_graph_record(struct CUgraph_st *g, const drv_op *op) {
  struct CUgraphNode_st *n = add_node(g, op, g->last ? &g->last : NULL, g->last ? 1 : 0);
  if (!n) return CUDA_ERROR_OUT_OF_MEMORY;
  g->last = n;
  return CUDA_SUCCESS;
}

static void free_graph(struct CUgraph_st *g) {
  for (size_t i = 0; i < g->n; i++) {
    drv_op_release(&g->nodes[i]->op);
    free(g->nodes[i]->deps);
    free(g->nodes[i]);
  }
  free(g->nodes);
  free(g);
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
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuStreamBeginCapture(CUstream s) { return cuStreamBeginCapture_v2(s, 0); }

DRV_EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *g) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!g) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (drv_is_default_stream(s) || !s->capture) return drv_leave(CUDA_ERROR_ILLEGAL_STATE);
  *g = s->capture;
  s->capture = NULL;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuStreamIsCapturing(CUstream s, int *status) {
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  *status = drv_stream(s)->capture ? 1 : 0;   /* CU_STREAM_CAPTURE_STATUS_ACTIVE */
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream s, int *status, uint64_t *id, CUgraph *graph,
                                              const CUgraphNode **deps, const void **edges, size_t *ndeps) {
  bool on = drv_stream(s)->capture != NULL;
  if (status) *status = on;
  if (id) *id = on ? s->capture_id : 0;
  if (graph) *graph = on ? s->capture : NULL;
  if (deps) *deps = on && s->capture->last ? (const CUgraphNode *)&s->capture->last : NULL;
  if (edges) *edges = NULL;
  if (ndeps) *ndeps = on && s->capture->last ? 1 : 0;
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

DRV_EXPORT CUresult cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                            const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  uint32_t grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ }, block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
  drv_op op;
  if ((r = drv_kernel_op(p->func ? p->func : p->kern, grid, block, p->sharedMemBytes, p->kernelParams, p->extra, &op)))
    return drv_leave(r);
  r = add(out, g, deps, ndeps, &op);
  if (r) drv_op_release(&op);
  return drv_leave(r);
}

DRV_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                         const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx) {
  (void)ctx;
  if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || !p->width || !p->height)
    return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = OP_MEMSET, .dst = p->dst, .dpitch = p->height > 1 ? p->pitch : p->width * p->elementSize,
                .value = p->value, .elem = p->elementSize, .width = p->width, .height = p->height };
  drv_lock();
  CUresult r = add(out, g, deps, ndeps, &op);
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                       const CUDA_HOST_NODE_PARAMS *p) {
  if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = OP_HOST, .fn = p->fn, .user = p->userData };
  drv_lock();
  CUresult r = add(out, g, deps, ndeps, &op);
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps) {
  drv_op op = { .kind = OP_EMPTY };
  drv_lock();
  CUresult r = add(out, g, deps, ndeps, &op);
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                             CUgraph child) {
  if (!child) return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = OP_GRAPH, .graph = child };
  drv_lock();
  CUresult r = add(out, g, deps, ndeps, &op);
  drv_unlock();
  return r;
}

/* A 1-D or 2-D copy node (the runtime's cudaGraphAddMemcpyNode1D and
 * captured copies use it). */
DRV_EXPORT CUresult ptxemu_graph_add_copy(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                          uint64_t dst, uint64_t dpitch, uint64_t src, uint64_t spitch, uint64_t width,
                                          uint64_t height) {
  drv_op op = { .kind = OP_MEMCPY, .dst = dst, .src = src, .dpitch = dpitch, .spitch = spitch, .width = width, .height = height };
  drv_lock();
  CUresult r = add(out, g, deps, ndeps, &op);
  drv_unlock();
  return r;
}

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

DRV_EXPORT CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n) {
  if (!g || !n) return CUDA_ERROR_INVALID_VALUE;
  if (nodes) for (size_t i = 0; i < *n && i < g->n; i++) nodes[i] = g->nodes[i];
  else *n = g->n;
  if (nodes && *n > g->n) *n = g->n;
  return CUDA_SUCCESS;
}

/* CUgraphNodeType of a node (memory allocation and free nodes are empty
 * nodes here: their work is done when they are added) */
static int node_type(const struct CUgraphNode_st *n) {
  switch (n->op.kind) {
  case OP_KERNEL: return 0;
  case OP_MEMCPY: return 1;
  case OP_MEMSET: return 2;
  case OP_HOST: return 3;
  case OP_GRAPH: return 4;
  case OP_WAIT_EVENT: return 6;
  case OP_EVENT_RECORD: return 7;
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

/* Remove a node and the edges to and from it. */
DRV_EXPORT CUresult cuGraphDestroyNode(CUgraphNode node) {
  if (!node) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  struct CUgraph_st *g = node->graph;
  for (size_t i = 0; i < g->n; i++) {
    struct CUgraphNode_st *m = g->nodes[i];
    size_t k = 0;
    for (size_t j = 0; j < m->ndeps; j++) if (m->deps[j] != node) m->deps[k++] = m->deps[j];
    m->ndeps = k;
  }
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++) if (g->nodes[i] != node) { g->nodes[k] = g->nodes[i]; g->nodes[k]->index = k; k++; }
  g->n = k;
  if (g->last == node) g->last = NULL;
  drv_op_release(&node->op);
  free(node->deps);
  free(node);
  drv_unlock();
  return CUDA_SUCCESS;
}

/* A copy of the graph: its nodes (kernel parameters copied; a child graph
 * node names the same child) and their dependencies. */
DRV_EXPORT CUresult cuGraphClone(CUgraph *out, CUgraph g) {
  if (!out || !g) return CUDA_ERROR_INVALID_VALUE;
  struct CUgraph_st *c = calloc(1, sizeof *c);
  if (!c) return CUDA_ERROR_OUT_OF_MEMORY;
  for (size_t i = 0; i < g->n; i++) {
    drv_op op = g->nodes[i]->op;
    op.staged = NULL;
    if (op.params) {
      op.params = malloc(op.param_size ? op.param_size : 1);
      if (!op.params) { free_graph(c); return CUDA_ERROR_OUT_OF_MEMORY; }
      memcpy(op.params, g->nodes[i]->op.params, op.param_size);
    }
    if (!add_node(c, &op, NULL, 0)) { drv_op_release(&op); free_graph(c); return CUDA_ERROR_OUT_OF_MEMORY; }
  }
  for (size_t i = 0; i < g->n; i++) {
    const struct CUgraphNode_st *n = g->nodes[i];
    if (!n->ndeps) continue;
    struct CUgraphNode_st *m = c->nodes[i];
    if (!(m->deps = malloc(n->ndeps * sizeof *m->deps))) { free_graph(c); return CUDA_ERROR_OUT_OF_MEMORY; }
    for (size_t j = 0; j < n->ndeps; j++) m->deps[j] = c->nodes[n->deps[j]->index];
    m->ndeps = n->ndeps;
  }
  *out = c;
  return CUDA_SUCCESS;
}

/* The graph in Graphviz's DOT language: a node per operation, an edge per
 * dependency. */
DRV_EXPORT CUresult cuGraphDebugDotPrint(CUgraph g, const char *path, unsigned flags) {
  (void)flags;
  if (!g || !path) return CUDA_ERROR_INVALID_VALUE;
  FILE *f = fopen(path, "w");
  if (!f) return CUDA_ERROR_OPERATING_SYSTEM;
  static const char *names[] = { "kernel", "memcpy", "memset", "host", "graph", "empty", "wait_event", "event_record" };
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

DRV_EXPORT CUresult cuGraphUpload(CUgraphExec x, CUstream s) {
  (void)s;
  return x ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;   /* nothing to move: the emulator runs it from host memory */
}

/* Depth-first post-order over dependencies: a topological order; a cycle
 * is an error (CUDA rejects it at instantiation). */
static int visit(struct CUgraphNode_st *n, uint8_t *mark, drv_op *out, struct CUgraphNode_st **nodes, size_t *k) {
  if (mark[n->index] == 2) return 0;
  if (mark[n->index] == 1) return -1;
  mark[n->index] = 1;
  for (size_t i = 0; i < n->ndeps; i++) if (visit(n->deps[i], mark, out, nodes, k)) return -1;
  mark[n->index] = 2;
  drv_op op = n->op;
  if (op.kind == OP_KERNEL && op.params) {          /* the executable owns a copy */
    op.params = malloc(op.param_size ? op.param_size : 1);
    if (!op.params) return -1;
    memcpy(op.params, n->op.params, op.param_size);
  }
  nodes[*k] = n;
  out[(*k)++] = op;
  return 0;
}

static void free_exec(struct CUgraphExec_st *x) {
  for (size_t i = 0; i < x->n; i++) drv_op_release(&x->ops[i]);
  free(x->ops);
  free(x->nodes);
  free(x);
}

DRV_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph g, unsigned long long flags) {
  (void)flags;
  if (!exec || !g) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  struct CUgraphExec_st *x = calloc(1, sizeof *x);
  uint8_t *mark = calloc(g->n + 1, 1);
  if (x) { x->ops = calloc(g->n + 1, sizeof *x->ops); x->nodes = calloc(g->n + 1, sizeof *x->nodes); }
  CUresult r = CUDA_SUCCESS;
  if (!x || !mark || !x->ops || !x->nodes) r = CUDA_ERROR_OUT_OF_MEMORY;
  for (size_t i = 0; !r && i < g->n; i++) if (visit(g->nodes[i], mark, x->ops, x->nodes, &x->n)) r = CUDA_ERROR_INVALID_VALUE;
  free(mark);
  if (r) {
    if (x) free_exec(x);
    drv_unlock();
    return r;
  }
  *exec = x;
  drv_unlock();
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphInstantiate_v2(CUgraphExec *exec, CUgraph g, CUgraphNode *err_node, char *log, size_t n) {
  (void)err_node;
  if (log && n) log[0] = 0;
  return cuGraphInstantiateWithFlags(exec, g, 0);
}

/* Run a graph's operations now (a child graph node). */
CUresult drv_execute_graph(struct CUgraph_st *g) {
  struct CUgraphExec_st *x;
  CUresult r = cuGraphInstantiateWithFlags(&x, g, 0);
  if (r) return r;
  for (size_t i = 0; i < x->n && !r; i++) r = drv_execute(&x->ops[i]);
  for (size_t i = 0; i < x->n; i++) drv_op_release(&x->ops[i]);
  free(x->ops);
  free(x);
  return r;
}

DRV_EXPORT CUresult cuGraphLaunch(CUgraphExec x, CUstream s) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!x) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (drv.sticky) return drv_leave(drv.sticky);
  for (size_t i = 0; i < x->n && !r; i++) {
    drv_op op = x->ops[i];
    if (op.kind == OP_KERNEL) {      /* drv_submit releases what it is given */
      op.params = malloc(op.param_size ? op.param_size : 1);
      if (!op.params) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
      memcpy(op.params, x->ops[i].params, op.param_size);
    }
    r = drv_submit(s, &op);
  }
  return drv_leave(r);
}

DRV_EXPORT CUresult cuGraphExecDestroy(CUgraphExec x) {
  if (!x) return CUDA_ERROR_INVALID_VALUE;
  free_exec(x);
  return CUDA_SUCCESS;
}

/* New kernel parameters for a node (of a graph, or of an executable made
 * from it): the same checks as a launch. */
static CUresult kernel_op_of(const CUDA_KERNEL_NODE_PARAMS *p, drv_op *op) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  uint32_t grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ }, block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
  return drv_kernel_op(p->func ? p->func : p->kern, grid, block, p->sharedMemBytes, p->kernelParams, p->extra, op);
}

DRV_EXPORT CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!n || n->op.kind != OP_KERNEL) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  drv_op op;
  if ((r = kernel_op_of(p, &op))) return drv_leave(r);
  drv_op_release(&n->op);
  n->op = op;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!x || !n) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  for (size_t i = 0; i < x->n; i++) {
    if (x->nodes[i] != n) continue;
    if (x->ops[i].kind != OP_KERNEL) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    drv_op op;
    if ((r = kernel_op_of(p, &op))) return drv_leave(r);
    drv_op_release(&x->ops[i]);
    x->ops[i] = op;
    return drv_leave(CUDA_SUCCESS);
  }
  return drv_leave(CUDA_ERROR_INVALID_VALUE);
}

/* Update: the new graph must have the same shape; its parameters replace
 * the executable's. */
DRV_EXPORT CUresult cuGraphExecUpdate_v2(CUgraphExec x, CUgraph g, void *result) {
  if (!x || !g) return CUDA_ERROR_INVALID_VALUE;
  struct CUgraphExec_st *nx;
  CUresult r = cuGraphInstantiateWithFlags(&nx, g, 0);
  if (r) return r;
  if (nx->n != x->n) { cuGraphExecDestroy(nx); if (result) memset(result, 0, 16); return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE; }
  for (size_t i = 0; i < x->n; i++) drv_op_release(&x->ops[i]);
  free(x->ops);
  free(x->nodes);
  x->ops = nx->ops;
  x->nodes = nx->nodes;
  free(nx);
  if (result) memset(result, 0, 16);
  return CUDA_SUCCESS;
}
