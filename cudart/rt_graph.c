/* cudart/rt_graph.c - CUDA graphs in the Runtime API: stream capture and
 * the explicit graph calls, over the driver's graphs. */
#include <string.h>
#include "cudart/rt.h"

CUresult cuGraphAddKernelNode_v2(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_KERNEL_NODE_PARAMS *);
CUresult cuGraphAddMemsetNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_MEMSET_NODE_PARAMS *, CUcontext);
CUresult cuGraphAddHostNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_HOST_NODE_PARAMS *);
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *);
CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *);

/* The driver's parameters of runtime kernel-node parameters. */
static cudaError_t kernel_params(const cudaKernelNodeParams *p, CUDA_KERNEL_NODE_PARAMS *k) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  cudaError_t e = 0;
  rt_func *f = rt_func_find(p->func, &e);
  if (!f) return rt_error(e);
  *k = (CUDA_KERNEL_NODE_PARAMS){ f->f, p->gridDim.x, p->gridDim.y, p->gridDim.z, p->blockDim.x, p->blockDim.y,
                                  p->blockDim.z, p->sharedMemBytes, p->kernelParams, p->extra, NULL, NULL };
  return 0;
}

RT_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode) { return rt_from(cuStreamBeginCapture_v2(s, mode)); }
RT_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t s, CUgraph *g) { return rt_from(cuStreamEndCapture(s, g)); }
RT_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status) { return rt_from(cuStreamIsCapturing(s, status)); }

RT_EXPORT cudaError_t cudaGraphCreate(CUgraph *g, unsigned flags) { return rt_from(cuGraphCreate(g, flags)); }
RT_EXPORT cudaError_t cudaGraphDestroy(CUgraph g) { return rt_from(cuGraphDestroy(g)); }
RT_EXPORT cudaError_t cudaGraphInstantiate(CUgraphExec *x, CUgraph g, unsigned long long flags) {
  return rt_from(cuGraphInstantiateWithFlags(x, g, flags));
}
RT_EXPORT cudaError_t cudaGraphInstantiateWithFlags(CUgraphExec *x, CUgraph g, unsigned long long flags) {
  return rt_from(cuGraphInstantiateWithFlags(x, g, flags));
}
RT_EXPORT cudaError_t cudaGraphLaunch(CUgraphExec x, cudaStream_t s) { return rt_from(cuGraphLaunch(x, s)); }
RT_EXPORT cudaError_t cudaGraphExecDestroy(CUgraphExec x) { return rt_from(cuGraphExecDestroy(x)); }
RT_EXPORT cudaError_t cudaGraphExecUpdate(CUgraphExec x, CUgraph g, void *info) { return rt_from(cuGraphExecUpdate_v2(x, g, info)); }
RT_EXPORT cudaError_t cudaGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n) { return rt_from(cuGraphGetNodes(g, nodes, n)); }

/* the driver's (drv_graph.c) */
CUresult cuGraphNodeGetType(CUgraphNode, int *);
CUresult cuGraphGetRootNodes(CUgraph, CUgraphNode *, size_t *);
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode, CUgraphNode *, void *, size_t *);
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode, CUgraphNode *, void *, size_t *);
CUresult cuGraphDestroyNode(CUgraphNode);
CUresult cuGraphClone(CUgraph *, CUgraph);
CUresult cuGraphDebugDotPrint(CUgraph, const char *, unsigned);
CUresult cuGraphUpload(CUgraphExec, CUstream);
RT_EXPORT cudaError_t cudaGraphNodeGetType(CUgraphNode n, int *type) { return rt_from(cuGraphNodeGetType(n, type)); }
RT_EXPORT cudaError_t cudaGraphGetRootNodes(CUgraph g, CUgraphNode *roots, size_t *n) { return rt_from(cuGraphGetRootNodes(g, roots, n)); }
RT_EXPORT RT_ABI13 cudaError_t cudaGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *deps, void *edges, size_t *n) {
  return rt_from(cuGraphNodeGetDependencies_v2(node, deps, edges, n));
}
RT_EXPORT cudaError_t cudaGraphNodeGetDependencies_v2(CUgraphNode node, CUgraphNode *deps, void *edges, size_t *n) {
  return rt_from(cuGraphNodeGetDependencies_v2(node, deps, edges, n));
}
RT_EXPORT RT_ABI13 cudaError_t cudaGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *out, void *edges, size_t *n) {
  return rt_from(cuGraphNodeGetDependentNodes_v2(node, out, edges, n));
}
RT_EXPORT cudaError_t cudaGraphNodeGetDependentNodes_v2(CUgraphNode node, CUgraphNode *out, void *edges, size_t *n) {
  return rt_from(cuGraphNodeGetDependentNodes_v2(node, out, edges, n));
}
RT_EXPORT cudaError_t cudaGraphDestroyNode(CUgraphNode n) { return rt_from(cuGraphDestroyNode(n)); }
RT_EXPORT cudaError_t cudaGraphClone(CUgraph *out, CUgraph g) { return rt_from(cuGraphClone(out, g)); }
RT_EXPORT cudaError_t cudaGraphDebugDotPrint(CUgraph g, const char *path, unsigned flags) {
  return rt_from(cuGraphDebugDotPrint(g, path, flags));
}
RT_EXPORT cudaError_t cudaGraphUpload(CUgraphExec x, cudaStream_t s) { return rt_from(cuGraphUpload(x, s)); }
/* Calls whose signature CUDA 13 changed (edge data added): these are
 * CUDA 13's, and CUDA 12.3-12.9's NAME_v2; libcudart.so.12 defines the
 * plain names with CUDA 12's signatures over them (rt_abi12.c).  Edge data
 * other than the default (programmatic dependent launch ports) is not
 * supported; what the getters give is the default. */
CUresult cuGraphAddDependencies_v2(CUgraph, const CUgraphNode *, const CUgraphNode *, const void *, size_t);
CUresult cuGraphGetEdges_v2(CUgraph, CUgraphNode *, CUgraphNode *, void *, size_t *);
static bool default_edges(const void *edges, size_t n) {
  const unsigned char *b = edges;
  for (size_t i = 0; edges && i < n * sizeof(CUgraphEdgeData); i++) if (b[i]) return false;
  return true;
}
RT_EXPORT cudaError_t cudaGraphAddDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                                  const void *edges, size_t n) {
  if (!default_edges(edges, n)) return rt_unsupported("graph edges with data (programmatic dependent launch)");
  return rt_from(cuGraphAddDependencies_v2(g, from, to, NULL, n));
}
RT_EXPORT RT_ABI13 cudaError_t cudaGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                                        const void *edges, size_t n) {
  return cudaGraphAddDependencies_v2(g, from, to, edges, n);
}
RT_EXPORT cudaError_t cudaGraphGetEdges_v2(CUgraph g, CUgraphNode *from, CUgraphNode *to, void *edges, size_t *n) {
  return rt_from(cuGraphGetEdges_v2(g, from, to, edges, n));
}
RT_EXPORT RT_ABI13 cudaError_t cudaGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, void *edges, size_t *n) {
  return cudaGraphGetEdges_v2(g, from, to, edges, n);
}
RT_EXPORT cudaError_t cudaGraphAddEmptyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd) {
  return rt_from(cuGraphAddEmptyNode(n, g, deps, nd));
}
RT_EXPORT cudaError_t cudaGraphAddChildGraphNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, CUgraph child) {
  return rt_from(cuGraphAddChildGraphNode(n, g, deps, nd, child));
}

RT_EXPORT cudaError_t cudaGraphAddKernelNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                             const cudaKernelNodeParams *p) {
  CUDA_KERNEL_NODE_PARAMS k;
  cudaError_t e = kernel_params(p, &k);
  return e ? e : rt_from(cuGraphAddKernelNode_v2(n, g, deps, nd, &k));
}

RT_EXPORT cudaError_t cudaGraphKernelNodeSetParams(CUgraphNode n, const cudaKernelNodeParams *p) {
  CUDA_KERNEL_NODE_PARAMS k;
  cudaError_t e = kernel_params(p, &k);
  return e ? e : rt_from(cuGraphKernelNodeSetParams_v2(n, &k));
}

RT_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(CUgraphExec x, CUgraphNode n, const cudaKernelNodeParams *p) {
  CUDA_KERNEL_NODE_PARAMS k;
  cudaError_t e = kernel_params(p, &k);
  return e ? e : rt_from(cuGraphExecKernelNodeSetParams_v2(x, n, &k));
}

RT_EXPORT cudaError_t cudaGraphAddMemsetNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                             const cudaMemsetParams *p) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUDA_MEMSET_NODE_PARAMS m = { (uint64_t)(uintptr_t)p->dst, p->pitch, p->value, p->elementSize, p->width, p->height };
  return rt_from(cuGraphAddMemsetNode(n, g, deps, nd, &m, NULL));
}

RT_EXPORT cudaError_t cudaGraphAddHostNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                           const cudaHostNodeParams *p) {
  return rt_from(cuGraphAddHostNode(n, g, deps, nd, (const CUDA_HOST_NODE_PARAMS *)p));
}

RT_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, void *dst,
                                               const void *src, size_t count, int kind) {
  (void)kind;
  return rt_from(ptxemu_graph_add_copy(n, g, deps, nd, (uint64_t)(uintptr_t)dst, count, (uint64_t)(uintptr_t)src, count,
                                       count, 1));
}

/* ---- copy and memory nodes ---- */

/* A copy of pitched memory: one 2-D copy per slice (a child graph when
 * there are several). */
RT_EXPORT cudaError_t cudaGraphAddMemcpyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                             const cudaMemcpy3DParms *p) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (p->srcArray || p->dstArray) return rt_unsupported("cudaGraphAddMemcpyNode with CUDA arrays");
  size_t depth = p->extent.depth ? p->extent.depth : 1;
  CUgraph into = g;
  const CUgraphNode *d = deps;
  size_t ndeps = nd;
  CUgraph child = NULL;
  if (depth > 1) {
    CUresult r = cuGraphCreate(&child, 0);
    if (r) return rt_from(r);
    into = child;
  }
  for (size_t z = 0; z < depth; z++) {
    uint64_t src = (uint64_t)(uintptr_t)p->srcPtr.ptr +
                   ((p->srcPos.z + z) * p->srcPtr.ysize + p->srcPos.y) * p->srcPtr.pitch + p->srcPos.x;
    uint64_t dst = (uint64_t)(uintptr_t)p->dstPtr.ptr +
                   ((p->dstPos.z + z) * p->dstPtr.ysize + p->dstPos.y) * p->dstPtr.pitch + p->dstPos.x;
    CUgraphNode slice;
    CUresult r = ptxemu_graph_add_copy(depth > 1 ? &slice : n, into, depth > 1 ? NULL : d, depth > 1 ? 0 : ndeps, dst,
                                       p->dstPtr.pitch, src, p->srcPtr.pitch, p->extent.width,
                                       p->extent.height ? p->extent.height : 1);
    if (r) return rt_from(r);
  }
  return depth > 1 ? rt_from(cuGraphAddChildGraphNode(n, g, deps, nd, child)) : 0;
}

typedef struct {
  char poolProps[88];
  const void *accessDescs;
  size_t accessDescCount, bytesize;
  void *dptr;                    /* out: the allocation, valid while the graph lives */
} rt_mem_alloc_node;
CUresult cuMemAllocAsync(CUdeviceptr *, size_t, CUstream);

/* The allocation is made when the node is: its address is fixed for every
 * launch of the graph, as CUDA promises; a free node frees nothing (the
 * memory lives until the program ends). */
RT_EXPORT cudaError_t cudaGraphAddMemAllocNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                               rt_mem_alloc_node *p) {
  if (!p || !p->bytesize) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr d = 0;
  CUresult r = cuMemAllocAsync(&d, p->bytesize, NULL);
  if (r) return rt_from(r);
  p->dptr = (void *)(uintptr_t)d;
  return rt_from(cuGraphAddEmptyNode(n, g, deps, nd));
}

RT_EXPORT cudaError_t cudaGraphAddMemFreeNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, void *dptr) {
  if (!dptr) return rt_error(CUDA_ERROR_INVALID_VALUE);
  return rt_from(cuGraphAddEmptyNode(n, g, deps, nd));
}
