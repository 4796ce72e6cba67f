/* cudart/drv_graph.c - CUDA graphs: graphs, their nodes and dependencies,
 * user objects.  The other parts: stream capture (drv_graph_capture.c),
 * the kinds of nodes (drv_graph_nodes.c), executables (drv_graph_exec.c);
 * what they share: drv_graph.h.  A graph is a list of operations (drv_op)
 * with dependencies; an instantiated graph is a copy of them in a
 * topological order, and a launch runs them in that order on the stream
 * (or records them, when the stream is itself being captured).
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
#include "cudart/drv_graph.h"
#include "cudart/ptxemu_ext.h"
#include "util/vec.h"

/* ---- user objects ---- */

struct CUuserObject_st {
  void *ptr;
  CUhostFn destroy;
  unsigned refs;
  struct CUuserObject_st *next_dying;
};

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
void graph_run_dying(void) {
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
CUresult graph_refs_copy(urefs *to, const urefs *from) {
  for (size_t i = 0; i < from->n; i++) {
    if (refs_add(to, from->v[i].o, from->v[i].count)) return CUDA_ERROR_OUT_OF_MEMORY;
    from->v[i].o->refs += from->v[i].count;
  }
  return CUDA_SUCCESS;
}

void graph_refs_release(urefs *r) {
  for (size_t i = 0; i < r->n; i++) uobj_release(r->v[i].o, r->v[i].count);
  free(r->v);
  r->v = NULL;
  r->n = 0;
}


uint64_t graph_next_capture_id = 1;


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

struct CUgraphNode_st *graph_add_node(struct CUgraph_st *g, const drv_op *op, struct CUgraphNode_st *const *deps,
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

void graph_free_bodies(drv_op *op) {
  for (uint32_t i = 0; op->bodies && i < op->nbodies; i++) if (op->bodies[i]) graph_free_graph(op->bodies[i]);
  free(op->bodies);
  op->bodies = NULL;
}

/* op (a copy) gets bodies of its own: clones of those it names. */
CUresult graph_clone_bodies(drv_op *op) {
  struct CUgraph_st **from = op->bodies;
  if (!(op->bodies = calloc(op->nbodies + 1, sizeof *op->bodies))) return CUDA_ERROR_OUT_OF_MEMORY;
  for (uint32_t i = 0; i < op->nbodies; i++)
    if (!(op->bodies[i] = graph_clone_graph(from[i]))) return CUDA_ERROR_OUT_OF_MEMORY;
  return CUDA_SUCCESS;
}

static void free_node(struct CUgraphNode_st *n) {
  if (n->op.kind == OP_GRAPH && n->op.graph) graph_free_graph(n->op.graph);
  if (n->op.kind == OP_COND) graph_free_bodies(&n->op);
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

void graph_free_graph(struct CUgraph_st *g) {
  if (g->mem_exec) g->mem_exec->mem_graph = NULL;
  for (size_t i = 0; i < g->n; i++) free_node(g->nodes[i]);
  free(g->nodes);
  free(g->conds);
  graph_refs_release(&g->refs);
  free(g);
}

void *graph_dup_bytes(const void *p, size_t n) {
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
  if (from->op.kind == OP_COND && graph_clone_bodies(&to->op)) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->op.params && !(to->op.params = graph_dup_bytes(from->op.params, from->op.param_size))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->attrs && !(to->attrs = graph_dup_bytes(from->attrs, ATTRS * sizeof *from->attrs))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->op.kind == OP_GRAPH && !(to->op.graph = graph_clone_graph(from->op.graph))) return CUDA_ERROR_OUT_OF_MEMORY;
  if (from->op.kind == OP_MEM_ALLOC && from->set.alloc.accessDescCount &&
      !(to->set.alloc.accessDescs = graph_dup_bytes(from->set.alloc.accessDescs, from->set.alloc.accessDescCount * 12)))
    return CUDA_ERROR_OUT_OF_MEMORY;
  return CUDA_SUCCESS;
}

/* A copy of the graph: its nodes (what they own copied, a child graph
 * node's graph too), their dependencies and its user object references. */
struct CUgraph_st *graph_clone_graph(const struct CUgraph_st *g) {
  struct CUgraph_st *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  for (size_t i = 0; i < g->n; i++) {
    drv_op op = g->nodes[i]->op;
    op.staged = NULL;
    struct CUgraphNode_st *m = graph_add_node(c, &op, NULL, 0);
    if (!m) { graph_free_graph(c); return NULL; }
    if (copy_node(m, g->nodes[i])) { graph_free_graph(c); return NULL; }
  }
  for (size_t i = 0; i < g->n; i++) {
    const struct CUgraphNode_st *n = g->nodes[i];
    if (!n->ndeps) continue;
    struct CUgraphNode_st *m = c->nodes[i];
    if (!(m->deps = malloc(n->ndeps * sizeof *m->deps))) { graph_free_graph(c); return NULL; }
    for (size_t j = 0; j < n->ndeps; j++) m->deps[j] = c->nodes[n->deps[j]->index];
    m->ndeps = n->ndeps;
  }
  if (graph_refs_copy(&c->refs, &g->refs)) { graph_free_graph(c); return NULL; }
  if (g->nconds && !(c->conds = graph_dup_bytes(g->conds, g->nconds * sizeof *g->conds))) { graph_free_graph(c); return NULL; }
  c->nconds = g->nconds;
  return c;
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
  graph_free_graph(g);
  drv_unlock();
  graph_run_dying();
  return CUDA_SUCCESS;
}

CUresult graph_add(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, const drv_op *op) {
  if (!out || !g || (ndeps && !deps)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < ndeps; i++) if (!deps[i] || deps[i]->graph != g) return CUDA_ERROR_INVALID_VALUE;
  struct CUgraphNode_st *n = graph_add_node(g, op, deps, ndeps);
  if (!n) return CUDA_ERROR_OUT_OF_MEMORY;
  *out = n;
  return CUDA_SUCCESS;
}

/* graph_add() under the lock */
CUresult graph_add_locked(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, const drv_op *op) {
  drv_lock();
  CUresult r = graph_add(out, g, deps, ndeps, op);
  drv_unlock();
  return r;
}

/* node n if it is of kind k, else NULL */
struct CUgraphNode_st *graph_of_kind(CUgraphNode n, enum drv_op_kind k) { return n && n->op.kind == k ? n : NULL; }

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
int graph_node_type(const struct CUgraphNode_st *n) {
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
  *type = graph_node_type(n);
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
  if (graph_has_memory_nodes(g)) { drv_unlock(); return CUDA_ERROR_NOT_SUPPORTED; }
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
  graph_run_dying();
  return CUDA_SUCCESS;
}

/* A copy of the graph: its nodes (kernel parameters copied; a child graph
 * node's graph cloned too), their dependencies and its user objects'
 * references. */
DRV_EXPORT CUresult cuGraphClone(CUgraph *out, CUgraph g) {
  if (!out || !g) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  if (graph_has_memory_nodes(g) || graph_has_cond(g)) { drv_unlock(); return CUDA_ERROR_NOT_SUPPORTED; }   /* as CUDA */
  *out = graph_clone_graph(g);
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
    int t = graph_node_type(n);
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
  graph_run_dying();
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
  graph_run_dying();
  return r;
}
