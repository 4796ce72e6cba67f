/* cudart/rt_graph.c - CUDA graphs in the Runtime API: stream capture and
 * the explicit graph calls, over the driver's graphs.  Node parameters are
 * translated where the runtime's layouts differ from the driver's (kernels
 * are named by their host function, copies by pointers and positions). */
#include <string.h>
#include "cudart/ptxemu_ext.h"
#include "cudart/rt.h"

/* the driver's (drv_graph*.c) */
CUresult cuGraphAddKernelNode_v2(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_KERNEL_NODE_PARAMS *);
CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *);
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *);
CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *);
CUresult cuGraphKernelNodeGetAttribute(CUgraphNode, int, CUlaunchAttributeValue *);
CUresult cuGraphKernelNodeSetAttribute(CUgraphNode, int, const CUlaunchAttributeValue *);
CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode, CUgraphNode);
CUresult cuGraphAddMemsetNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_MEMSET_NODE_PARAMS *, CUcontext);
CUresult cuGraphMemsetNodeGetParams(CUgraphNode, CUDA_MEMSET_NODE_PARAMS *);
CUresult cuGraphMemsetNodeSetParams(CUgraphNode, const CUDA_MEMSET_NODE_PARAMS *);
CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_MEMSET_NODE_PARAMS *, CUcontext);
CUresult cuGraphAddHostNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_HOST_NODE_PARAMS *);
CUresult cuGraphHostNodeGetParams(CUgraphNode, CUDA_HOST_NODE_PARAMS *);
CUresult cuGraphHostNodeSetParams(CUgraphNode, const CUDA_HOST_NODE_PARAMS *);
CUresult cuGraphExecHostNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_HOST_NODE_PARAMS *);
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode, CUgraph *);
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec, CUgraphNode, CUgraph);
CUresult cuGraphAddMemAllocNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUDA_MEM_ALLOC_NODE_PARAMS *);
CUresult cuGraphAddMemFreeNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUdeviceptr);
CUresult cuGraphMemAllocNodeGetParams(CUgraphNode, CUDA_MEM_ALLOC_NODE_PARAMS *);
CUresult cuGraphMemFreeNodeGetParams(CUgraphNode, CUdeviceptr *);
CUresult cuGraphAddEventRecordNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUevent);
CUresult cuGraphAddEventWaitNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUevent);
CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode, CUevent *);
CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode, CUevent);
CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode, CUevent *);
CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode, CUevent);
CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec, CUgraphNode, CUevent);
CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec, CUgraphNode, CUevent);
CUresult cuGraphNodeSetEnabled(CUgraphExec, CUgraphNode, unsigned);
CUresult cuGraphNodeGetEnabled(CUgraphExec, CUgraphNode, unsigned *);
CUresult cuGraphExecGetFlags(CUgraphExec, unsigned long long *);
CUresult cuGraphNodeGetType(CUgraphNode, int *);
CUresult cuGraphGetRootNodes(CUgraph, CUgraphNode *, size_t *);
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode, CUgraphNode *, void *, size_t *);
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode, CUgraphNode *, void *, size_t *);
CUresult cuGraphAddDependencies_v2(CUgraph, const CUgraphNode *, const CUgraphNode *, const void *, size_t);
CUresult cuGraphRemoveDependencies_v2(CUgraph, const CUgraphNode *, const CUgraphNode *, const void *, size_t);
CUresult cuGraphGetEdges_v2(CUgraph, CUgraphNode *, CUgraphNode *, void *, size_t *);
CUresult cuGraphDestroyNode(CUgraphNode);
CUresult cuGraphClone(CUgraph *, CUgraph);
CUresult cuGraphDebugDotPrint(CUgraph, const char *, unsigned);
CUresult cuGraphUpload(CUgraphExec, CUstream);
CUresult cuUserObjectCreate(CUuserObject *, void *, CUhostFn, unsigned, unsigned);
CUresult cuUserObjectRetain(CUuserObject, unsigned);
CUresult cuUserObjectRelease(CUuserObject, unsigned);
CUresult cuGraphRetainUserObject(CUgraph, CUuserObject, unsigned, unsigned);
CUresult cuGraphReleaseUserObject(CUgraph, CUuserObject, unsigned);
CUresult cuDeviceGetGraphMemAttribute(CUdevice, int, void *);
CUresult cuDeviceSetGraphMemAttribute(CUdevice, int, void *);
CUresult cuDeviceGraphMemTrim(CUdevice);
CUresult cuGraphAddNode_v2(CUgraphNode *, CUgraph, const CUgraphNode *, const CUgraphEdgeData *, size_t, CUgraphNodeParams *);
CUresult cuGraphNodeSetParams(CUgraphNode, CUgraphNodeParams *);
CUresult cuGraphExecNodeSetParams(CUgraphExec, CUgraphNode, CUgraphNodeParams *);
CUresult cuGraphInstantiateWithParams(CUgraphExec *, CUgraph, CUDA_GRAPH_INSTANTIATE_PARAMS *);
CUresult cuGraphConditionalHandleCreate(uint64_t *, CUgraph, CUcontext, unsigned, unsigned);

static uint64_t u(const void *p) { return (uint64_t)(uintptr_t)p; }

RT_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode) { return rt_from(cuStreamBeginCapture_v2(s, mode)); }
CUresult cuStreamUpdateCaptureDependencies_v2(CUstream, CUgraphNode *, const void *, size_t, unsigned);
RT_EXPORT RT_ABI13 cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, CUgraphNode *nodes, const void *edges, size_t n,
                                                                   unsigned flags) {
  return rt_from(cuStreamUpdateCaptureDependencies_v2(s, nodes, edges, n, flags));
}
CUresult cuStreamBeginCaptureToGraph(CUstream, CUgraph, const CUgraphNode *, const void *, size_t, int);
RT_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, CUgraph g, const CUgraphNode *deps, const void *edges, size_t n,
                                                    int mode) {
  return rt_from(cuStreamBeginCaptureToGraph(s, g, deps, edges, n, mode));
}
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
RT_EXPORT cudaError_t cudaGraphExecGetFlags(CUgraphExec x, unsigned long long *flags) {
  return rt_from(cuGraphExecGetFlags(x, flags));
}
RT_EXPORT cudaError_t cudaGraphLaunch(CUgraphExec x, cudaStream_t s) { return rt_from(cuGraphLaunch(x, s)); }
RT_EXPORT cudaError_t cudaGraphExecDestroy(CUgraphExec x) { return rt_from(cuGraphExecDestroy(x)); }
RT_EXPORT cudaError_t cudaGraphExecUpdate(CUgraphExec x, CUgraph g, void *info) { return rt_from(cuGraphExecUpdate_v2(x, g, info)); }
RT_EXPORT cudaError_t cudaGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n) { return rt_from(cuGraphGetNodes(g, nodes, n)); }

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
/* an edge named with other data is removed all the same, as on an H200 */
RT_EXPORT cudaError_t cudaGraphRemoveDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                                     const void *edges, size_t n) {
  return rt_from(cuGraphRemoveDependencies_v2(g, from, to, edges, n));
}
RT_EXPORT RT_ABI13 cudaError_t cudaGraphRemoveDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                                           const void *edges, size_t n) {
  return cudaGraphRemoveDependencies_v2(g, from, to, edges, n);
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

/* ---- kernel nodes ---- */

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

/* the kernel named by the host function it was registered with */
RT_EXPORT cudaError_t cudaGraphKernelNodeGetParams(CUgraphNode n, cudaKernelNodeParams *p) {
  CUDA_KERNEL_NODE_PARAMS k;
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUresult r = cuGraphKernelNodeGetParams_v2(n, &k);
  if (r) return rt_from(r);
  *p = (cudaKernelNodeParams){ (void *)rt_func_host(k.func), { k.gridDimX, k.gridDimY, k.gridDimZ },
                               { k.blockDimX, k.blockDimY, k.blockDimZ }, k.sharedMemBytes, k.kernelParams, k.extra };
  return 0;
}

RT_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(CUgraphExec x, CUgraphNode n, const cudaKernelNodeParams *p) {
  CUDA_KERNEL_NODE_PARAMS k;
  cudaError_t e = kernel_params(p, &k);
  return e ? e : rt_from(cuGraphExecKernelNodeSetParams_v2(x, n, &k));
}

/* cudaKernelNodeAttrID and cudaKernelNodeAttrValue are the driver's */
RT_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(CUgraphNode n, int id, CUlaunchAttributeValue *v) {
  return rt_from(cuGraphKernelNodeGetAttribute(n, id, v));
}
RT_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(CUgraphNode n, int id, const CUlaunchAttributeValue *v) {
  return rt_from(cuGraphKernelNodeSetAttribute(n, id, v));
}
RT_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src) {
  return rt_from(cuGraphKernelNodeCopyAttributes(dst, src));
}

/* ---- memset, host, child graph, event and memory nodes ---- */

static CUDA_MEMSET_NODE_PARAMS memset_params(const cudaMemsetParams *p) {
  return (CUDA_MEMSET_NODE_PARAMS){ u(p->dst), p->pitch, p->value, p->elementSize, p->width, p->height };
}

RT_EXPORT cudaError_t cudaGraphAddMemsetNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                             const cudaMemsetParams *p) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUDA_MEMSET_NODE_PARAMS m = memset_params(p);
  return rt_from(cuGraphAddMemsetNode(n, g, deps, nd, &m, NULL));
}
RT_EXPORT cudaError_t cudaGraphMemsetNodeGetParams(CUgraphNode n, cudaMemsetParams *p) {
  CUDA_MEMSET_NODE_PARAMS m;
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUresult r = cuGraphMemsetNodeGetParams(n, &m);
  if (!r) *p = (cudaMemsetParams){ (void *)(uintptr_t)m.dst, m.pitch, m.value, m.elementSize, m.width, m.height };
  return rt_from(r);
}
RT_EXPORT cudaError_t cudaGraphMemsetNodeSetParams(CUgraphNode n, const cudaMemsetParams *p) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUDA_MEMSET_NODE_PARAMS m = memset_params(p);
  return rt_from(cuGraphMemsetNodeSetParams(n, &m));
}
RT_EXPORT cudaError_t cudaGraphExecMemsetNodeSetParams(CUgraphExec x, CUgraphNode n, const cudaMemsetParams *p) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUDA_MEMSET_NODE_PARAMS m = memset_params(p);
  return rt_from(cuGraphExecMemsetNodeSetParams(x, n, &m, NULL));
}

/* cudaHostNodeParams has the driver's layout */
RT_EXPORT cudaError_t cudaGraphAddHostNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                           const cudaHostNodeParams *p) {
  return rt_from(cuGraphAddHostNode(n, g, deps, nd, (const CUDA_HOST_NODE_PARAMS *)p));
}
RT_EXPORT cudaError_t cudaGraphHostNodeGetParams(CUgraphNode n, cudaHostNodeParams *p) {
  return rt_from(cuGraphHostNodeGetParams(n, (CUDA_HOST_NODE_PARAMS *)p));
}
RT_EXPORT cudaError_t cudaGraphHostNodeSetParams(CUgraphNode n, const cudaHostNodeParams *p) {
  return rt_from(cuGraphHostNodeSetParams(n, (const CUDA_HOST_NODE_PARAMS *)p));
}
RT_EXPORT cudaError_t cudaGraphExecHostNodeSetParams(CUgraphExec x, CUgraphNode n, const cudaHostNodeParams *p) {
  return rt_from(cuGraphExecHostNodeSetParams(x, n, (const CUDA_HOST_NODE_PARAMS *)p));
}

RT_EXPORT cudaError_t cudaGraphAddChildGraphNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, CUgraph child) {
  return rt_from(cuGraphAddChildGraphNode(n, g, deps, nd, child));
}
RT_EXPORT cudaError_t cudaGraphChildGraphNodeGetGraph(CUgraphNode n, CUgraph *g) {
  return rt_from(cuGraphChildGraphNodeGetGraph(n, g));
}
RT_EXPORT cudaError_t cudaGraphExecChildGraphNodeSetParams(CUgraphExec x, CUgraphNode n, CUgraph child) {
  return rt_from(cuGraphExecChildGraphNodeSetParams(x, n, child));
}

RT_EXPORT cudaError_t cudaGraphAddEventRecordNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, CUevent e) {
  return rt_from(cuGraphAddEventRecordNode(n, g, deps, nd, e));
}
RT_EXPORT cudaError_t cudaGraphAddEventWaitNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, CUevent e) {
  return rt_from(cuGraphAddEventWaitNode(n, g, deps, nd, e));
}
RT_EXPORT cudaError_t cudaGraphEventRecordNodeGetEvent(CUgraphNode n, CUevent *e) {
  return rt_from(cuGraphEventRecordNodeGetEvent(n, e));
}
RT_EXPORT cudaError_t cudaGraphEventRecordNodeSetEvent(CUgraphNode n, CUevent e) {
  return rt_from(cuGraphEventRecordNodeSetEvent(n, e));
}
RT_EXPORT cudaError_t cudaGraphEventWaitNodeGetEvent(CUgraphNode n, CUevent *e) { return rt_from(cuGraphEventWaitNodeGetEvent(n, e)); }
RT_EXPORT cudaError_t cudaGraphEventWaitNodeSetEvent(CUgraphNode n, CUevent e) { return rt_from(cuGraphEventWaitNodeSetEvent(n, e)); }
RT_EXPORT cudaError_t cudaGraphExecEventRecordNodeSetEvent(CUgraphExec x, CUgraphNode n, CUevent e) {
  return rt_from(cuGraphExecEventRecordNodeSetEvent(x, n, e));
}
RT_EXPORT cudaError_t cudaGraphExecEventWaitNodeSetEvent(CUgraphExec x, CUgraphNode n, CUevent e) {
  return rt_from(cuGraphExecEventWaitNodeSetEvent(x, n, e));
}

RT_EXPORT cudaError_t cudaGraphNodeSetEnabled(CUgraphExec x, CUgraphNode n, unsigned on) {
  return rt_from(cuGraphNodeSetEnabled(x, n, on));
}
RT_EXPORT cudaError_t cudaGraphNodeGetEnabled(CUgraphExec x, CUgraphNode n, unsigned *on) {
  return rt_from(cuGraphNodeGetEnabled(x, n, on));
}

static CUDA_MEM_ALLOC_NODE_PARAMS alloc_params(const cudaMemAllocNodeParams *p) {
  CUDA_MEM_ALLOC_NODE_PARAMS a = { .accessDescs = p->accessDescs, .accessDescCount = p->accessDescCount,
                                   .bytesize = p->bytesize, .dptr = u(p->dptr) };
  memcpy(a.poolProps, p->poolProps, sizeof a.poolProps);
  return a;
}
static void alloc_params_out(const CUDA_MEM_ALLOC_NODE_PARAMS *a, cudaMemAllocNodeParams *p) {
  memcpy(p->poolProps, a->poolProps, sizeof p->poolProps);
  p->accessDescs = a->accessDescs;
  p->accessDescCount = a->accessDescCount;
  p->bytesize = a->bytesize;
  p->dptr = (void *)(uintptr_t)a->dptr;
}

RT_EXPORT cudaError_t cudaGraphAddMemAllocNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                               cudaMemAllocNodeParams *p) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUDA_MEM_ALLOC_NODE_PARAMS a = alloc_params(p);
  CUresult r = cuGraphAddMemAllocNode(n, g, deps, nd, &a);
  if (!r) p->dptr = (void *)(uintptr_t)a.dptr;
  return rt_from(r);
}
RT_EXPORT cudaError_t cudaGraphAddMemFreeNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, void *dptr) {
  return rt_from(cuGraphAddMemFreeNode(n, g, deps, nd, u(dptr)));
}
RT_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(CUgraphNode n, cudaMemAllocNodeParams *p) {
  CUDA_MEM_ALLOC_NODE_PARAMS a;
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUresult r = cuGraphMemAllocNodeGetParams(n, &a);
  if (!r) alloc_params_out(&a, p);
  return rt_from(r);
}
RT_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(CUgraphNode n, void *dptr) {
  return rt_from(cuGraphMemFreeNodeGetParams(n, dptr));
}

/* the graph allocator's memory (cudaGraphMemAttributeType is the driver's) */
RT_EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value) {
  return rt_from(cuDeviceGetGraphMemAttribute(device, attr, value));
}
RT_EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value) {
  return rt_from(cuDeviceSetGraphMemAttribute(device, attr, value));
}
RT_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device) { return rt_from(cuDeviceGraphMemTrim(device)); }

/* ---- copy nodes ---- */

/* Where an array takes part, widths and x positions count its elements
 * (both sides', as cudaMemcpy3D), else bytes: the unit in bytes. */
static cudaError_t copy_unit(CUarray src, CUarray dst, uint64_t *unit) {
  uint64_t base, pitch, rows, slices;
  *unit = 1;
  CUarray a = src ? src : dst;
  return a ? rt_array_layout(a, &base, &pitch, &rows, &slices, unit) : 0;
}

/* The driver's description of a runtime copy (the runtime keeps its kind
 * beside): a pointer is unified memory, its pitch and ysize the driver's
 * pitch and height (xsize has no place: a getter gives 0, as CUDA's). */
static cudaError_t copy_desc(const cudaMemcpy3DParms *p, CUDA_MEMCPY3D *c) {
  uint64_t unit;
  if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr)) return CUDA_ERROR_INVALID_VALUE;
  if (p->kind < 0 || p->kind > 4) return cudaErrorInvalidMemcpyDirection;
  cudaError_t e = copy_unit(p->srcArray, p->dstArray, &unit);
  if (e) return e;
  *c = (CUDA_MEMCPY3D){
    .srcXInBytes = p->srcPos.x * unit, .srcY = p->srcPos.y, .srcZ = p->srcPos.z,
    .srcMemoryType = p->srcArray ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_UNIFIED, .srcDevice = u(p->srcPtr.ptr),
    .srcArray = p->srcArray, .srcPitch = p->srcPtr.pitch, .srcHeight = p->srcPtr.ysize,
    .dstXInBytes = p->dstPos.x * unit, .dstY = p->dstPos.y, .dstZ = p->dstPos.z,
    .dstMemoryType = p->dstArray ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_UNIFIED, .dstDevice = u(p->dstPtr.ptr),
    .dstArray = p->dstArray, .dstPitch = p->dstPtr.pitch, .dstHeight = p->dstPtr.ysize,
    .WidthInBytes = p->extent.width * unit, .Height = p->extent.height, .Depth = p->extent.depth };
  return 0;
}

/* count bytes in one row: pitches and heights 0, as CUDA keeps a 1-D copy */
static CUDA_MEMCPY3D copy_1d(void *dst, const void *src, size_t count) {
  return (CUDA_MEMCPY3D){ .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = u(src),
                          .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = u(dst),
                          .WidthInBytes = count, .Height = 1, .Depth = 1 };
}

static void *side_ptr(int type, const void *host, CUdeviceptr dev) {
  return type == CU_MEMORYTYPE_HOST ? (void *)host : type == CU_MEMORYTYPE_ARRAY ? NULL : (void *)(uintptr_t)dev;
}

RT_EXPORT cudaError_t cudaGraphAddMemcpyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                             const cudaMemcpy3DParms *p) {
  CUDA_MEMCPY3D c;
  cudaError_t e = copy_desc(p, &c);
  return e ? rt_error(e) : rt_from(ptxemu_graph_copy_node(n, g, deps, nd, &c, p->kind));
}
RT_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, void *dst,
                                               const void *src, size_t count, int kind) {
  if (kind < 0 || kind > 4) return rt_error(cudaErrorInvalidMemcpyDirection);
  CUDA_MEMCPY3D c = copy_1d(dst, src, count);
  return rt_from(ptxemu_graph_copy_node(n, g, deps, nd, &c, kind));
}

RT_EXPORT cudaError_t cudaGraphMemcpyNodeGetParams(CUgraphNode n, cudaMemcpy3DParms *p) {
  CUDA_MEMCPY3D c;
  int kind;
  uint64_t unit;
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUresult r = ptxemu_graph_copy_get(n, &c, &kind);
  if (r) return rt_from(r);
  cudaError_t e = copy_unit(c.srcArray, c.dstArray, &unit);
  if (e) return rt_error(e);
  *p = (cudaMemcpy3DParms){
    .srcArray = c.srcArray, .srcPos = { c.srcXInBytes / unit, c.srcY, c.srcZ },
    .srcPtr = { side_ptr(c.srcMemoryType, c.srcHost, c.srcDevice), c.srcPitch, 0, c.srcHeight },
    .dstArray = c.dstArray, .dstPos = { c.dstXInBytes / unit, c.dstY, c.dstZ },
    .dstPtr = { side_ptr(c.dstMemoryType, c.dstHost, c.dstDevice), c.dstPitch, 0, c.dstHeight },
    .extent = { c.WidthInBytes / unit, c.Height, c.Depth }, .kind = kind };
  return 0;
}

/* a copy's new parameters, for the node (x NULL) or the executable's copy */
static cudaError_t set_copy(CUgraphExec x, CUgraphNode n, const cudaMemcpy3DParms *p) {
  CUDA_MEMCPY3D c;
  cudaError_t e = copy_desc(p, &c);
  return e ? rt_error(e) : rt_from(ptxemu_graph_copy_set(x, n, &c, p->kind));
}
static cudaError_t set_copy_1d(CUgraphExec x, CUgraphNode n, void *dst, const void *src, size_t count, int kind) {
  if (kind < 0 || kind > 4) return rt_error(cudaErrorInvalidMemcpyDirection);
  CUDA_MEMCPY3D c = copy_1d(dst, src, count);
  return rt_from(ptxemu_graph_copy_set(x, n, &c, kind));
}
RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams(CUgraphNode n, const cudaMemcpy3DParms *p) { return set_copy(NULL, n, p); }
RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode n, const cudaMemcpy3DParms *p) {
  return x ? set_copy(x, n, p) : rt_error(CUDA_ERROR_INVALID_VALUE);
}
RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams1D(CUgraphNode n, void *dst, const void *src, size_t count, int kind) {
  return set_copy_1d(NULL, n, dst, src, count, kind);
}
RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(CUgraphExec x, CUgraphNode n, void *dst, const void *src,
                                                         size_t count, int kind) {
  return x ? set_copy_1d(x, n, dst, src, count, kind) : rt_error(CUDA_ERROR_INVALID_VALUE);
}

/* A 1-D copy to (to) or from a __device__ or __constant__ variable: the
 * checks of cudaMemcpyToSymbol / FromSymbol. */
static cudaError_t symbol_copy(bool to, void *host, const void *symbol, size_t count, size_t off, int kind, CUDA_MEMCPY3D *c) {
  CUdeviceptr d;
  size_t size;
  cudaError_t e = rt_var_find(symbol, &d, &size);
  if (e) return e;
  if (off > size || count > size - off) return CUDA_ERROR_INVALID_VALUE;
  if (kind == cudaMemcpyHostToHost || kind == (to ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice) || kind < 0 || kind > 4)
    return cudaErrorInvalidMemcpyDirection;
  void *dev = (void *)(uintptr_t)(d + off);
  *c = to ? copy_1d(dev, host, count) : copy_1d(host, dev, count);
  return 0;
}

RT_EXPORT cudaError_t cudaGraphAddMemcpyNodeToSymbol(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                                     const void *symbol, const void *src, size_t count, size_t off, int kind) {
  CUDA_MEMCPY3D c;
  cudaError_t e = symbol_copy(true, (void *)src, symbol, count, off, kind, &c);
  return e ? rt_error(e) : rt_from(ptxemu_graph_copy_node(n, g, deps, nd, &c, kind));
}
RT_EXPORT cudaError_t cudaGraphAddMemcpyNodeFromSymbol(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd,
                                                       void *dst, const void *symbol, size_t count, size_t off, int kind) {
  CUDA_MEMCPY3D c;
  cudaError_t e = symbol_copy(false, dst, symbol, count, off, kind, &c);
  return e ? rt_error(e) : rt_from(ptxemu_graph_copy_node(n, g, deps, nd, &c, kind));
}
static cudaError_t set_symbol_copy(CUgraphExec x, CUgraphNode n, bool to, void *host, const void *symbol, size_t count,
                                   size_t off, int kind) {
  CUDA_MEMCPY3D c;
  cudaError_t e = symbol_copy(to, host, symbol, count, off, kind, &c);
  return e ? rt_error(e) : rt_from(ptxemu_graph_copy_set(x, n, &c, kind));
}
RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(CUgraphNode n, const void *symbol, const void *src, size_t count,
                                                           size_t off, int kind) {
  return set_symbol_copy(NULL, n, true, (void *)src, symbol, count, off, kind);
}
RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(CUgraphNode n, void *dst, const void *symbol, size_t count,
                                                             size_t off, int kind) {
  return set_symbol_copy(NULL, n, false, dst, symbol, count, off, kind);
}
RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(CUgraphExec x, CUgraphNode n, const void *symbol,
                                                               const void *src, size_t count, size_t off, int kind) {
  return x ? set_symbol_copy(x, n, true, (void *)src, symbol, count, off, kind) : rt_error(CUDA_ERROR_INVALID_VALUE);
}
RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(CUgraphExec x, CUgraphNode n, void *dst, const void *symbol,
                                                                 size_t count, size_t off, int kind) {
  return x ? set_symbol_copy(x, n, false, dst, symbol, count, off, kind) : rt_error(CUDA_ERROR_INVALID_VALUE);
}

/* ---- user objects ---- */

RT_EXPORT cudaError_t cudaUserObjectCreate(CUuserObject *o, void *ptr, CUhostFn destroy, unsigned refs, unsigned flags) {
  return rt_from(cuUserObjectCreate(o, ptr, destroy, refs, flags));
}
RT_EXPORT cudaError_t cudaUserObjectRetain(CUuserObject o, unsigned count) { return rt_from(cuUserObjectRetain(o, count)); }
RT_EXPORT cudaError_t cudaUserObjectRelease(CUuserObject o, unsigned count) { return rt_from(cuUserObjectRelease(o, count)); }
RT_EXPORT cudaError_t cudaGraphRetainUserObject(CUgraph g, CUuserObject o, unsigned count, unsigned flags) {
  return rt_from(cuGraphRetainUserObject(g, o, count, flags));
}
RT_EXPORT cudaError_t cudaGraphReleaseUserObject(CUgraph g, CUuserObject o, unsigned count) {
  return rt_from(cuGraphReleaseUserObject(g, o, count));
}

/* ---- nodes of any kind: cudaGraphAddNode and the generic setters ---- */

/* cudaGraphNodeParams: the driver's frame, with the runtime's kernel and
 * copy members (a copy keeps its cudaMemcpyKind, so it goes through the
 * runtime's copy nodes; the rest through the driver's cuGraphAddNode). */
typedef struct rt_copy_node { int flags, reserved[3]; cudaMemcpy3DParms copyParams; } rt_copy_node;
typedef struct rt_node_params {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    cudaKernelNodeParams kernel;
    rt_copy_node memcpy;
    cudaMemAllocNodeParams alloc;
    struct { uint64_t handle; int type; unsigned size; CUgraph *phGraph_out; } conditional;
  };
  long long reserved2;
} rt_node_params;

enum { T_KERNEL, T_MEMCPY, T_MEMSET, T_HOST, T_GRAPH, T_EMPTY, T_WAIT, T_RECORD, T_SEM_SIGNAL, T_SEM_WAIT,
       T_MEM_ALLOC, T_MEM_FREE, T_CONDITIONAL = 13 };

/* the bytes of the runtime's member of each type (-1: no such type) */
static long rt_member_bytes(int type) {
  switch (type) {
  case T_KERNEL: return sizeof(cudaKernelNodeParams);
  case T_MEMCPY: return sizeof(rt_copy_node);
  case T_MEMSET: return sizeof(cudaMemsetParams);
  case T_HOST: return sizeof(cudaHostNodeParams);
  case T_GRAPH: return sizeof(CUDA_CHILD_GRAPH_NODE_PARAMS);
  case T_EMPTY: return 0;
  case T_WAIT: case T_RECORD: case T_MEM_FREE: return sizeof(void *);
  case T_MEM_ALLOC: return sizeof(cudaMemAllocNodeParams);
  case T_CONDITIONAL: return sizeof(((rt_node_params *)0)->conditional);
  case T_SEM_SIGNAL: case T_SEM_WAIT: return 29 * 8;
  default: return -1;
  }
}

/* A known type, the reserved bytes and those past its member zero. */
static cudaError_t rt_check(const rt_node_params *p) {
  long n = p ? rt_member_bytes(p->type) : -1;
  if (n < 0 || p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2) return CUDA_ERROR_INVALID_VALUE;
  const unsigned char *b = (const unsigned char *)p->reserved1;
  for (size_t i = (size_t)n; i < sizeof p->reserved1; i++) if (b[i]) return CUDA_ERROR_INVALID_VALUE;
  if (p->type == T_MEMCPY && (p->memcpy.flags || p->memcpy.reserved[0] || p->memcpy.reserved[1] || p->memcpy.reserved[2]))
    return CUDA_ERROR_INVALID_VALUE;
  return 0;
}

/* The driver's parameters (not for copies): the kernel named by its
 * driver function, the other members as they are. */
static cudaError_t to_driver(const rt_node_params *p, CUgraphNodeParams *d) {
  memset(d, 0, sizeof *d);
  d->type = p->type;
  if (p->type == T_KERNEL) return kernel_params(&p->kernel, &d->kernel);
  memcpy(d->reserved1, p->reserved1, (size_t)rt_member_bytes(p->type));
  return 0;
}

RT_EXPORT cudaError_t cudaGraphAddNode_v2(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, const void *edges, size_t nd,
                                          rt_node_params *p) {
  CUgraphNodeParams d;
  cudaError_t e = rt_check(p);
  if (e) return rt_error(e);
  if (!default_edges(edges, nd))
    return p->type == T_KERNEL ? rt_unsupported("graph edges with data (programmatic dependent launch)")
                               : rt_error(CUDA_ERROR_INVALID_VALUE);
  if (p->type == T_MEMCPY) return cudaGraphAddMemcpyNode(n, g, deps, nd, &p->memcpy.copyParams);
  if ((e = to_driver(p, &d))) return rt_error(e);
  CUresult r = cuGraphAddNode_v2(n, g, deps, NULL, nd, &d);
  if (!r && p->type == T_MEM_ALLOC) p->alloc.dptr = (void *)(uintptr_t)d.alloc.dptr;   /* out */
  if (!r && p->type == T_CONDITIONAL) p->conditional.phGraph_out = d.conditional.phGraph_out;
  return rt_from(r);
}
RT_EXPORT RT_ABI13 cudaError_t cudaGraphAddNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, const void *edges,
                                                size_t nd, rt_node_params *p) {
  return cudaGraphAddNode_v2(n, g, deps, edges, nd, p);
}

/* The new parameters of a node (x NULL) or of the executable's copy. */
static cudaError_t set_params(CUgraphExec x, CUgraphNode n, rt_node_params *p) {
  CUgraphNodeParams d;
  int type = -1;
  cudaError_t e = rt_check(p);
  if (e) return rt_error(e);
  if (p->type == T_MEMCPY) {
    if (!n || cuGraphNodeGetType(n, &type) || type != T_MEMCPY) return rt_error(CUDA_ERROR_INVALID_VALUE);
    return set_copy(x, n, &p->memcpy.copyParams);
  }
  if ((e = to_driver(p, &d))) return rt_error(e);
  return rt_from(x ? cuGraphExecNodeSetParams(x, n, &d) : cuGraphNodeSetParams(n, &d));
}
RT_EXPORT cudaError_t cudaGraphNodeSetParams(CUgraphNode n, rt_node_params *p) { return set_params(NULL, n, p); }
RT_EXPORT cudaError_t cudaGraphExecNodeSetParams(CUgraphExec x, CUgraphNode n, rt_node_params *p) {
  return x ? set_params(x, n, p) : rt_error(CUDA_ERROR_INVALID_VALUE);
}

/* cudaGraphInstantiateParams has the driver's layout */
RT_EXPORT cudaError_t cudaGraphInstantiateWithParams(CUgraphExec *x, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p) {
  return rt_from(cuGraphInstantiateWithParams(x, g, p));
}

RT_EXPORT cudaError_t cudaGraphConditionalHandleCreate(uint64_t *h, CUgraph g, unsigned dflt, unsigned flags) {
  return rt_from(cuGraphConditionalHandleCreate(h, g, NULL, dflt, flags));
}
