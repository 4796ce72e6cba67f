/* cudart/drv_graph_nodes.c - the nodes of explicit graphs (drv_graph.c's
 * invariants): kernel, memset, host, child graph, event, memory and copy
 * nodes, their getters and setters, and cuGraphAddNode with the generic
 * node parameters. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/drv_graph.h"
#include "cudart/ptxemu_ext.h"
#include "util/vec.h"

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
CUresult graph_kernel_op_of(const struct CUgraphNode_st *n, const CUDA_KERNEL_NODE_PARAMS *p, drv_op *op,
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
  if ((r = graph_kernel_op_of(NULL, p, &op, base))) return drv_leave(r);
  r = graph_add(out, g, deps, ndeps, &op);
  if (r) drv_op_release(&op);
  else (*out)->via_extra = p->extra != NULL;   /* extra wins over kernelParams, as in a launch */
  return drv_leave(r);
}

DRV_EXPORT CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p) {
  if (!graph_of_kind(n, OP_KERNEL)) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  drv_op op;
  uint32_t base[3];
  if ((r = graph_kernel_op_of(n, p, &op, base))) return drv_leave(r);
  set_kernel(n, &op, base, p->extra != NULL);
  return drv_leave(CUDA_SUCCESS);
}

/* The parameters as CUDA hands them out: kernelParams (a pointer to each
 * parameter's bytes in the node's copy) or extra (the whole buffer),
 * whichever they were set with; valid until they change. */
DRV_EXPORT CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS *p) {
  if (!graph_of_kind(n, OP_KERNEL) || !p) return CUDA_ERROR_INVALID_VALUE;
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
  if (!graph_of_kind(n, OP_KERNEL) || !v || !node_attr(id, false, NULL)) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  if (n->attrs) *v = n->attrs[id];
  else memset(v, 0, sizeof *v);
  drv_unlock();
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphKernelNodeSetAttribute(CUgraphNode n, int id, const CUlaunchAttributeValue *v) {
  if (!graph_of_kind(n, OP_KERNEL) || !v || !node_attr(id, true, v)) return CUDA_ERROR_INVALID_VALUE;
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
  if (!graph_of_kind(dst, OP_KERNEL) || !graph_of_kind(src, OP_KERNEL)) return CUDA_ERROR_INVALID_VALUE;
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

CUresult graph_memset_op(const CUDA_MEMSET_NODE_PARAMS *p, drv_op *op) {
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
  CUresult r = graph_memset_op(p, &op);
  if (!r) r = graph_add_locked(out, g, deps, ndeps, &op);
  if (!r) (*out)->set.memset = *p;
  return r;
}

DRV_EXPORT CUresult cuGraphMemsetNodeGetParams(CUgraphNode n, CUDA_MEMSET_NODE_PARAMS *p) {
  if (!graph_of_kind(n, OP_MEMSET) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = n->set.memset;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphMemsetNodeSetParams(CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS *p) {
  drv_op op;
  if (!graph_of_kind(n, OP_MEMSET)) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = graph_memset_op(p, &op);
  if (r) return r;
  n->op = op;
  n->set.memset = *p;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                       const CUDA_HOST_NODE_PARAMS *p) {
  if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = OP_HOST, .fn = p->fn, .user = p->userData };
  return graph_add_locked(out, g, deps, ndeps, &op);
}

DRV_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode n, CUDA_HOST_NODE_PARAMS *p) {
  if (!graph_of_kind(n, OP_HOST) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = (CUDA_HOST_NODE_PARAMS){ n->op.fn, n->op.user };
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphHostNodeSetParams(CUgraphNode n, const CUDA_HOST_NODE_PARAMS *p) {
  if (!graph_of_kind(n, OP_HOST) || !p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  n->op.fn = p->fn;
  n->op.user = p->userData;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps) {
  drv_op op = { .kind = OP_EMPTY };
  return graph_add_locked(out, g, deps, ndeps, &op);
}

/* Whether g has conditional nodes (child graphs cannot). */
bool graph_has_cond(const struct CUgraph_st *g) {
  for (size_t i = 0; i < g->n; i++) if (g->nodes[i]->op.kind == OP_COND) return true;
  return false;
}

bool graph_has_memory_nodes(const struct CUgraph_st *g) {
  for (size_t i = 0; i < g->n; i++) {
    enum drv_op_kind k = g->nodes[i]->op.kind;
    if (k == OP_MEM_ALLOC || k == OP_MEM_FREE || (k == OP_GRAPH && graph_has_memory_nodes(g->nodes[i]->op.graph))) return true;
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
  if ((!move && graph_has_memory_nodes(child)) || graph_has_cond(child)) { drv_unlock(); return CUDA_ERROR_NOT_SUPPORTED; }
  drv_op op = { .kind = OP_GRAPH, .graph = move ? child : graph_clone_graph(child) };
  CUresult r = op.graph ? graph_add(out, g, deps, ndeps, &op) : CUDA_ERROR_OUT_OF_MEMORY;
  if (r && op.graph && !move) graph_free_graph(op.graph);
  drv_unlock();
  graph_run_dying();
  return r;
}
DRV_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                             CUgraph child) {
  return add_child(out, g, deps, ndeps, child, false);
}

DRV_EXPORT CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode n, CUgraph *g) {
  if (!graph_of_kind(n, OP_GRAPH) || !g) return CUDA_ERROR_INVALID_VALUE;
  *g = n->op.graph;
  return CUDA_SUCCESS;
}

static CUresult add_event_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUevent e,
                               enum drv_op_kind kind) {
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  drv_op op = { .kind = kind, .event = e };
  return graph_add_locked(out, g, deps, ndeps, &op);
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
  if (!graph_of_kind(n, kind) || !e) return CUDA_ERROR_INVALID_VALUE;
  *e = n->op.event;
  return CUDA_SUCCESS;
}
static CUresult set_event(CUgraphNode n, CUevent e, enum drv_op_kind kind) {
  if (!graph_of_kind(n, kind) || !e) return CUDA_ERROR_INVALID_VALUE;
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
      if (f->op.kind == OP_MEM_FREE && f->op.dst == a->op.dst && graph_before_any(g, f, deps, ndeps)) freed++;
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
  const void *access = p->accessDescCount ? graph_dup_bytes(p->accessDescs, p->accessDescCount * 12) : NULL;
  drv_op op = { .kind = OP_MEM_ALLOC, .dst = d, .width = p->bytesize };
  struct CUgraphNode_st *n = p->accessDescCount && !access ? NULL : graph_add_node(g, &op, deps, ndeps);
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
  return drv_leave(graph_add(out, g, deps, ndeps, &op));
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
  return graph_set_deps(s, &n, 1);
}

/* cuMemFreeAsync on a capturing stream: a free node, of a graph
 * allocation only (an error that leaves the capture as it was). */
CUresult drv_graph_capture_free(struct CUstream_st *s, CUdeviceptr dptr) {
  CUresult r = free_ok(s->capture, dptr);
  drv_op op = { .kind = OP_MEM_FREE, .dst = dptr };
  return r ? r : graph_record(s, &op, NULL);
}

DRV_EXPORT CUresult cuGraphMemAllocNodeGetParams(CUgraphNode n, CUDA_MEM_ALLOC_NODE_PARAMS *p) {
  if (!graph_of_kind(n, OP_MEM_ALLOC) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = n->set.alloc;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode n, CUdeviceptr *dptr) {
  if (!graph_of_kind(n, OP_MEM_FREE) || !dptr) return CUDA_ERROR_INVALID_VALUE;
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

CUresult graph_copy_op(const CUDA_MEMCPY3D *p, drv_op *op) {
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
  if (!(r = graph_copy_op(p, &op)) && !(r = graph_add(out, g, deps, ndeps, &op))) {
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
  if (!graph_of_kind(n, OP_MEMCPY) || !p) return CUDA_ERROR_INVALID_VALUE;
  *p = n->set.copy;
  if (kind) *kind = n->copy_kind;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode n, CUDA_MEMCPY3D *p) { return ptxemu_graph_copy_get(n, p, NULL); }


/* New copy parameters for a node, or (x not NULL) for the executable's copy
 * of it. */
DRV_EXPORT CUresult ptxemu_graph_copy_set(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p, int kind) {
  if (!graph_of_kind(n, OP_MEMCPY)) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  if (x) return drv_leave(graph_exec_copy_set(x, n, p));
  drv_op op;
  if (!(r = graph_copy_op(p, &op))) {
    n->op = op;
    n->set.copy = *p;
    n->copy_kind = kind;
  }
  return drv_leave(r);
}
DRV_EXPORT CUresult cuGraphMemcpyNodeSetParams(CUgraphNode n, const CUDA_MEMCPY3D *p) {
  return ptxemu_graph_copy_set(NULL, n, p, n ? n->copy_kind : 4);
}

/* ---- nodes of any kind: cuGraphAddNode and the generic setters ---- */

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
CUresult graph_check_params(const CUgraphNodeParams *p) {
  long n = p ? member_bytes(p->type) : -1;
  if (n < 0 || p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2) return CUDA_ERROR_INVALID_VALUE;
  const unsigned char *u = (const unsigned char *)p->reserved1;
  for (size_t i = (size_t)n; i < sizeof p->reserved1; i++) if (u[i]) return CUDA_ERROR_INVALID_VALUE;
  if (p->type == NODE_MEMCPY && (p->memcpy.flags || p->memcpy.reserved)) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult graph_unsupported_type(int type) {
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
  CUresult r = graph_check_params(p);
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
  case NODE_CONDITIONAL: return graph_add_cond(out, g, deps, ndeps, &p->conditional);
  default: return graph_unsupported_type(p->type);
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
  struct CUgraph_st *c = graph_has_memory_nodes(child) ? NULL : graph_clone_graph(child);
  CUresult r = c ? CUDA_SUCCESS : graph_has_memory_nodes(child) ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_OUT_OF_MEMORY;
  if (c) {
    graph_free_graph(n->op.graph);
    n->op.graph = c;
  }
  drv_unlock();
  graph_run_dying();
  return r;
}

/* The type must be the node's; memory nodes keep theirs (CUDA's rule). */
DRV_EXPORT CUresult cuGraphNodeSetParams(CUgraphNode n, CUgraphNodeParams *p) {
  CUresult r = graph_check_params(p);
  if (r) return r;
  if (!n || p->type != graph_node_type(n)) return CUDA_ERROR_INVALID_VALUE;
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
  default: return graph_unsupported_type(p->type);
  }
}
