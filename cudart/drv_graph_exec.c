/* cudart/drv_graph_exec.c - executable graphs (drv_graph.c's invariants):
 * instantiation in a topological order, launches on a stream (their
 * memory nodes' allocations and conditional nodes' bodies), and the
 * updates of an executable's nodes. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/drv_graph.h"
#include "cudart/ptxemu_ext.h"
#include "util/vec.h"

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
  if (from->kind == OP_COND) return graph_clone_bodies(to);
  if (from->kind == OP_KERNEL && !(to->params = graph_dup_bytes(from->params, from->param_size))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->kind == OP_GRAPH && !(to->graph = graph_clone_graph(from->graph))) return CUDA_ERROR_OUT_OF_MEMORY;
  return CUDA_SUCCESS;
}

static void exec_op_release(drv_op *op) {
  if (op->kind == OP_GRAPH && op->graph) graph_free_graph(op->graph);
  if (op->kind == OP_MEM_ALLOC) drv_gmem_release(op->dst);
  if (op->kind == OP_COND) graph_free_bodies(op);
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
  graph_refs_release(&x->refs);
  free(x);
}


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
  if (g->nconds && !graph_has_cond(g)) return CUDA_ERROR_INVALID_VALUE;
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
CUresult graph_add_cond(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUDA_CONDITIONAL_NODE_PARAMS *p) {
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
  if (!r) r = graph_add(out, g, deps, ndeps, &op);
  drv_unlock();
  if (r) graph_free_bodies(&op);
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
  if (!r) r = graph_refs_copy(&x->refs, &g->refs);
  free(order);
  memops m = { 0 };
  if (!r && !(r = exec_memops(x, &m))) x->footprint = footprint(&m);
  free(m.v);
  if (!r) r = check_conds(g);
  if (!r && g->nconds && !(x->conds = graph_dup_bytes(g->conds, g->nconds * sizeof *g->conds))) r = CUDA_ERROR_OUT_OF_MEMORY;
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
  bool one = graph_has_memory_nodes(g) || graph_has_cond(g);
  r = one && g->mem_exec ? CUDA_ERROR_NOT_SUPPORTED : instantiate(exec, g, flags);
  if (!r && one) {
    g->mem_exec = *exec;
    (*exec)->mem_graph = g;
  }
  drv_unlock();
  graph_run_dying();
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
 * its place; an event wait for the event's latest graph_record (none yet:
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
    if (!(op.params = graph_dup_bytes(from->params, from->param_size))) return CUDA_ERROR_OUT_OF_MEMORY;
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
  graph_run_dying();
  return CUDA_SUCCESS;
}

/* The executable's operation made from node n, if it is of kind k. */
drv_op *graph_exec_op(struct CUgraphExec_st *x, const struct CUgraphNode_st *n, enum drv_op_kind k) {
  if (!x || !n) return NULL;
  for (size_t i = 0; i < x->n; i++) if (x->nodes[i] == n) return x->ops[i].kind == k ? &x->ops[i] : NULL;
  return NULL;
}

DRV_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  CUresult r = drv_enter();
  if (r) return r;
  drv_op *op = graph_exec_op(x, n, OP_KERNEL), nop;
  uint32_t base[3];
  if (!op) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if ((r = graph_kernel_op_of(n, p, &nop, base))) return drv_leave(r);
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
  drv_op *op = graph_exec_op(x, n, OP_MEMSET), nop;
  CUresult r = op ? graph_memset_op(p, &nop) : CUDA_ERROR_INVALID_VALUE;
  if (!r) *op = nop;
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuGraphExecHostNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_HOST_NODE_PARAMS *p) {
  drv_lock();
  drv_op *op = graph_exec_op(x, n, OP_HOST);
  CUresult r = op && p && p->fn ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r) { op->fn = p->fn; op->user = p->userData; }
  drv_unlock();
  return r;
}

/* CUDA updates only 1-D copies in an executable: both the old and the new
 * must be one row. */
CUresult graph_exec_copy_set(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p) {
  drv_op *op = graph_exec_op(x, n, OP_MEMCPY), nop;
  if (!op || op->height > 1 || op->depth > 1) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = graph_copy_op(p, &nop);
  if (r) return r;
  if (nop.height > 1 || nop.depth > 1) return CUDA_ERROR_INVALID_VALUE;
  *op = nop;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p, CUcontext ctx) {
  (void)ctx;
  drv_lock();
  CUresult r = graph_exec_copy_set(x, n, p);
  drv_unlock();
  return r;
}

static CUresult exec_set_event(CUgraphExec x, CUgraphNode n, CUevent e, enum drv_op_kind k) {
  drv_lock();
  drv_op *op = graph_exec_op(x, n, k);
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
    if (graph_node_type(p) != graph_node_type(q) || p->ndeps != q->ndeps) return false;
    for (size_t j = 0; j < p->ndeps; j++) if (p->deps[j]->index != q->deps[j]->index) return false;
    if (p->op.kind == OP_GRAPH && !same_shape(p->op.graph, q->op.graph)) return false;
  }
  return true;
}

/* The child graph node runs child's parameters from now on (a copy of
 * child, which must have the shape of the node's graph). */
DRV_EXPORT CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec x, CUgraphNode n, CUgraph child) {
  drv_lock();
  drv_op *op = graph_exec_op(x, n, OP_GRAPH);
  CUresult r = op && child ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r && !same_shape(op->graph, child)) r = CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  struct CUgraph_st *c = r ? NULL : graph_clone_graph(child);
  if (!r && !c) r = CUDA_ERROR_OUT_OF_MEMORY;
  if (!r) {
    exec_quiesce(x);               /* its references go after the launches that use them */
    graph_free_graph(op->graph);
    op->graph = c;
  }
  drv_unlock();
  graph_run_dying();
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
  graph_run_dying();
  return r;
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

/* What each type's own exec setter allows (memory nodes: nothing). */
DRV_EXPORT CUresult cuGraphExecNodeSetParams(CUgraphExec x, CUgraphNode n, CUgraphNodeParams *p) {
  CUresult r = graph_check_params(p);
  if (r) return r;
  if (!x || !n || p->type != graph_node_type(n)) return CUDA_ERROR_INVALID_VALUE;
  switch (p->type) {
  case NODE_KERNEL: return cuGraphExecKernelNodeSetParams_v2(x, n, &p->kernel);
  case NODE_MEMCPY: return ptxemu_graph_copy_set(x, n, &p->memcpy.copyParams, 4);
  case NODE_MEMSET: return cuGraphExecMemsetNodeSetParams(x, n, &p->memset, NULL);
  case NODE_HOST: return cuGraphExecHostNodeSetParams(x, n, &p->host);
  case NODE_GRAPH: return cuGraphExecChildGraphNodeSetParams(x, n, p->graph.graph);
  case NODE_EMPTY: return graph_exec_op(x, n, OP_EMPTY) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  case NODE_WAIT_EVENT: return cuGraphExecEventWaitNodeSetEvent(x, n, p->event);
  case NODE_EVENT_RECORD: return cuGraphExecEventRecordNodeSetEvent(x, n, p->event);
  case NODE_MEM_ALLOC: case NODE_MEM_FREE: return CUDA_ERROR_NOT_SUPPORTED;
  default: return graph_unsupported_type(p->type);
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
