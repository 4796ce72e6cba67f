// graph_params: the parameters of graph nodes read back and changed, in
// the graph and in an executable made from it: kernel (with attributes),
// memset, host, memcpy (1-D, 3-D, to and from a symbol), child graph,
// memory allocation and free, event record and wait nodes; nodes disabled
// and enabled again, dependencies removed, instantiation flags, stream ids,
// and user objects whose destructors run when the last reference goes
// (from the caller, a graph, or an executable graph).  Every failure the
// program provokes prints its error's name.  (An H200 printed this output.)
#include <atomic>
#include <cstring>
#include <unistd.h>
#include <cuda.h>  // CU_LAUNCH_PARAM_* for a kernel node's extra
#include "common.h"

__global__ void add(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}
__device__ int sym[8];

static const char *name(cudaError_t e) {
  cudaGetLastError();  // expected failures leave no error behind
  return cudaGetErrorName(e);
}
static const char *yes(bool b) { return b ? "yes" : "no"; }

static void show(const int *h, int n, const char *what) {
  printf("graph_params: %s:", what);
  for (int i = 0; i < n; i++) printf(" %d", h[i]);
  printf("\n");
}

static cudaKernelNodeParams kernel_params(void **args, unsigned grid, unsigned block) {
  cudaKernelNodeParams p = {};
  p.func = (void *)add;
  p.gridDim = dim3(grid);
  p.blockDim = dim3(block);
  p.kernelParams = args;
  return p;
}

// ---- 1. kernel nodes ----
static void kernel_nodes(int *d) {
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  int n = 4, v = 3;
  void *args[] = { &d, &n, &v };
  cudaKernelNodeParams p = kernel_params(args, 2, 2);
  p.sharedMemBytes = 16;
  cudaGraphNode_t k, e;
  CK(cudaGraphAddKernelNode(&k, g, nullptr, 0, &p));
  CK(cudaGraphAddEmptyNode(&e, g, &k, 1));
  v = 99;  // the node keeps a copy of the arguments
  cudaKernelNodeParams q;
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphKernelNodeGetParams(k, &q));
  printf("graph_params: kernel node: func %s, grid (%u,%u,%u), block (%u,%u,%u), shared %u, args copied %s, n %d, v %d, "
         "extra %s\n",
         yes(q.func == (void *)add), q.gridDim.x, q.gridDim.y, q.gridDim.z, q.blockDim.x, q.blockDim.y, q.blockDim.z,
         q.sharedMemBytes, yes(q.kernelParams && q.kernelParams != args), *(int *)q.kernelParams[1],
         *(int *)q.kernelParams[2], q.extra ? "set" : "NULL");
  v = 5;
  p.gridDim = dim3(1);
  p.blockDim = dim3(4);
  CK(cudaGraphKernelNodeSetParams(k, &p));
  CK(cudaGraphKernelNodeGetParams(k, &q));
  printf("graph_params: kernel node after set: grid %u, block %u, v %d\n", q.gridDim.x, q.blockDim.x, *(int *)q.kernelParams[2]);
  // parameters in one buffer (extra) instead of kernelParams
  struct { int *p; int n, v; } buf = { d, 4, 6 };
  size_t size = sizeof buf;
  void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END };
  p.kernelParams = nullptr;
  p.extra = extra;
  CK(cudaGraphKernelNodeSetParams(k, &p));
  CK(cudaGraphKernelNodeGetParams(k, &q));
  printf("graph_params: kernel node set with extra: kernelParams %s, extra %s\n", q.kernelParams ? "set" : "NULL",
         q.extra ? "set" : "NULL");
  printf("graph_params: kernel get on an empty node: %s\n", name(cudaGraphKernelNodeGetParams(e, &q)));
  printf("graph_params: kernel get into NULL: %s\n", name(cudaGraphKernelNodeGetParams(k, nullptr)));
  CK(cudaMemset(d, 0, 4 * sizeof(int)));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  int h[4];
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  show(h, 4, "kernel node with extra ran");
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // a kernel captured from a stream names the kernel's host function
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add<<<1, 4, 0, s>>>(d, 4, 7);
  CK(cudaStreamEndCapture(s, &g));
  size_t nn = 1;
  CK(cudaGraphGetNodes(g, &k, &nn));
  CK(cudaGraphKernelNodeGetParams(k, &q));
  printf("graph_params: captured kernel: func %s, block %u, v %d\n", yes(q.func == (void *)add), q.blockDim.x,
         *(int *)q.kernelParams[2]);
  CK(cudaGraphDestroy(g));
  CK(cudaStreamDestroy(s));
}

// ---- 2. kernel node attributes ----
static void kernel_attributes(int *d) {
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  int n = 4, v = 1;
  void *args[] = { &d, &n, &v };
  cudaKernelNodeParams p = kernel_params(args, 4, 1);
  cudaGraphNode_t k1, k2, e;
  CK(cudaGraphAddKernelNode(&k1, g, nullptr, 0, &p));
  CK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &p));
  CK(cudaGraphAddEmptyNode(&e, g, &k2, 1));
  cudaKernelNodeAttrValue a;
  memset(&a, 0x5a, sizeof a);
  CK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributePriority, &a));
  printf("graph_params: attributes of a new node: priority %d", a.priority);
  memset(&a, 0x5a, sizeof a);
  CK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributeClusterDimension, &a));
  printf(", cluster (%u,%u,%u)", a.clusterDim.x, a.clusterDim.y, a.clusterDim.z);
  memset(&a, 0x5a, sizeof a);
  CK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributeCooperative, &a));
  printf(", cooperative %d", a.cooperative);
  memset(&a, 0x5a, sizeof a);
  CK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributeAccessPolicyWindow, &a));
  printf(", window %zu bytes\n", a.accessPolicyWindow.num_bytes);

  memset(&a, 0, sizeof a);
  a.priority = -1;
  CK(cudaGraphKernelNodeSetAttribute(k1, cudaKernelNodeAttributePriority, &a));
  memset(&a, 0, sizeof a);
  a.clusterDim.x = 2;
  a.clusterDim.y = 1;
  a.clusterDim.z = 1;
  CK(cudaGraphKernelNodeSetAttribute(k1, cudaKernelNodeAttributeClusterDimension, &a));
  memset(&a, 0, sizeof a);
  a.accessPolicyWindow.base_ptr = d;
  a.accessPolicyWindow.num_bytes = 256;
  a.accessPolicyWindow.hitRatio = 0.5f;
  a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CK(cudaGraphKernelNodeSetAttribute(k1, cudaKernelNodeAttributeAccessPolicyWindow, &a));
  CK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributePriority, &a));
  printf("graph_params: attributes set: priority %d", a.priority);
  CK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributeClusterDimension, &a));
  printf(", cluster (%u,%u,%u)", a.clusterDim.x, a.clusterDim.y, a.clusterDim.z);
  CK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributeAccessPolicyWindow, &a));
  printf(", window base %s, %zu bytes, hit ratio %.2f, hit %d, miss %d\n", yes(a.accessPolicyWindow.base_ptr == d),
         a.accessPolicyWindow.num_bytes, a.accessPolicyWindow.hitRatio, (int)a.accessPolicyWindow.hitProp,
         (int)a.accessPolicyWindow.missProp);
  CK(cudaGraphKernelNodeCopyAttributes(k2, k1));
  CK(cudaGraphKernelNodeGetAttribute(k2, cudaKernelNodeAttributePriority, &a));
  printf("graph_params: attributes copied: priority %d", a.priority);
  CK(cudaGraphKernelNodeGetAttribute(k2, cudaKernelNodeAttributeClusterDimension, &a));
  printf(", cluster (%u,%u,%u)", a.clusterDim.x, a.clusterDim.y, a.clusterDim.z);
  CK(cudaGraphKernelNodeGetAttribute(k2, cudaKernelNodeAttributeAccessPolicyWindow, &a));
  printf(", window %zu bytes\n", a.accessPolicyWindow.num_bytes);
  printf("graph_params: attribute of an empty node: %s\n",
         name(cudaGraphKernelNodeGetAttribute(e, cudaKernelNodeAttributePriority, &a)));
  printf("graph_params: attribute copied from an empty node: %s\n", name(cudaGraphKernelNodeCopyAttributes(k2, e)));
  CK(cudaMemset(d, 0, 4 * sizeof(int)));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  int h[4];
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  show(h, 4, "two kernels with attributes ran");
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
}

// ---- 3. memset nodes ----
static void memset_nodes(int *d) {
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaMemsetParams m = {};
  m.dst = d;
  m.value = 0x11;
  m.elementSize = 4;
  m.width = 4;
  m.height = 1;
  cudaGraphNode_t ms, e;
  CK(cudaGraphAddMemsetNode(&ms, g, nullptr, 0, &m));
  CK(cudaGraphAddEmptyNode(&e, g, &ms, 1));
  cudaMemsetParams q;
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemsetNodeGetParams(ms, &q));
  printf("graph_params: memset node: dst %s, pitch %zu, value 0x%x, element %u, width %zu, height %zu\n",
         yes(q.dst == d), q.pitch, q.value, q.elementSize, q.width, q.height);
  m.value = 0x22;
  m.width = 2;
  CK(cudaGraphMemsetNodeSetParams(ms, &m));
  CK(cudaGraphMemsetNodeGetParams(ms, &q));
  printf("graph_params: memset node after set: value 0x%x, width %zu\n", q.value, q.width);
  cudaMemsetParams bad = m;
  bad.elementSize = 3;
  printf("graph_params: memset set with 3-byte elements: %s\n", name(cudaGraphMemsetNodeSetParams(ms, &bad)));
  printf("graph_params: memset get on an empty node: %s\n", name(cudaGraphMemsetNodeGetParams(e, &q)));
  CK(cudaMemset(d, 0, 4 * sizeof(int)));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  int h[4];
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  show(h, 4, "memset launch 1");
  m.value = 0x33;
  m.width = 3;
  CK(cudaGraphExecMemsetNodeSetParams(x, ms, &m));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  show(h, 4, "memset launch 2 (exec updated)");
  CK(cudaGraphMemsetNodeGetParams(ms, &q));
  printf("graph_params: the graph's memset node still has value 0x%x\n", q.value);
  printf("graph_params: exec memset set on an empty node: %s\n", name(cudaGraphExecMemsetNodeSetParams(x, e, &m)));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
}

// ---- 4. host nodes ----
static char host_log[64];
static void host_a(void *p) { strcat(host_log, (const char *)p); strcat(host_log, "a"); }
static void host_b(void *p) { strcat(host_log, (const char *)p); strcat(host_log, "b"); }
static void host_c(void *p) { strcat(host_log, (const char *)p); strcat(host_log, "c"); }

static void host_nodes() {
  static char one[] = "1", two[] = "2", three[] = "3";
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaHostNodeParams hp = { host_a, one };
  cudaGraphNode_t hn, e;
  CK(cudaGraphAddHostNode(&hn, g, nullptr, 0, &hp));
  CK(cudaGraphAddEmptyNode(&e, g, &hn, 1));
  cudaHostNodeParams q = {};
  CK(cudaGraphHostNodeGetParams(hn, &q));
  printf("graph_params: host node: fn %s, userData %s\n", yes(q.fn == host_a), yes(q.userData == one));
  hp = { host_b, two };
  CK(cudaGraphHostNodeSetParams(hn, &hp));
  CK(cudaGraphHostNodeGetParams(hn, &q));
  printf("graph_params: host node after set: fn %s, userData %s\n", yes(q.fn == host_b), yes(q.userData == two));
  cudaHostNodeParams none = { nullptr, two };
  printf("graph_params: host set with no function: %s\n", name(cudaGraphHostNodeSetParams(hn, &none)));
  printf("graph_params: host get on an empty node: %s\n", name(cudaGraphHostNodeGetParams(e, &q)));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  hp = { host_c, three };
  CK(cudaGraphExecHostNodeSetParams(x, hn, &hp));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  printf("graph_params: host launches 1 and 2 (exec updated): %s\n", host_log);
  printf("graph_params: exec host set on an empty node: %s\n", name(cudaGraphExecHostNodeSetParams(x, e, &hp)));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
}

// ---- 5. memcpy nodes ----
static void print_copy(const char *what, const cudaMemcpy3DParms &q, const void *src, const void *dst) {
  printf("graph_params: %s: src %s pos (%zu,%zu,%zu) pitch %zu xsize %zu ysize %zu, dst %s pos (%zu,%zu,%zu) pitch %zu "
         "xsize %zu ysize %zu, extent (%zu,%zu,%zu), kind %d, arrays %s\n",
         what, yes(q.srcPtr.ptr == src), q.srcPos.x, q.srcPos.y, q.srcPos.z, q.srcPtr.pitch, q.srcPtr.xsize, q.srcPtr.ysize,
         yes(q.dstPtr.ptr == dst), q.dstPos.x, q.dstPos.y, q.dstPos.z, q.dstPtr.pitch, q.dstPtr.xsize, q.dstPtr.ysize,
         q.extent.width, q.extent.height, q.extent.depth, (int)q.kind, q.srcArray || q.dstArray ? "set" : "NULL");
}

static void memcpy_nodes(int *d) {
  int *h, *h2;
  CK(cudaMallocHost(&h, 64 * sizeof(int)));
  CK(cudaMallocHost(&h2, 64 * sizeof(int)));
  for (int i = 0; i < 64; i++) h[i] = 100 + i;
  int *d2;
  CK(cudaMalloc(&d2, 64 * sizeof(int)));
  CK(cudaMemset(d, 0, 64 * sizeof(int)));
  CK(cudaMemset(d2, 0, 64 * sizeof(int)));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  // 1-D: h[0..3] -> d[0..3]
  cudaGraphNode_t c1, c3, c4, e;
  CK(cudaGraphAddMemcpyNode1D(&c1, g, nullptr, 0, d, h, 4 * sizeof(int), cudaMemcpyHostToDevice));
  cudaMemcpy3DParms q;
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemcpyNodeGetParams(c1, &q));
  print_copy("1-D copy node", q, h, d);
  // 3-D: a 2x2x2 block of ints from a 4x4x4 host array at (1,1,1) to a 4x4x2 device array at (0,2,0)
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(h, 4 * sizeof(int), 4, 4);
  p.srcPos = make_cudaPos(1 * sizeof(int), 1, 1);
  p.dstPtr = make_cudaPitchedPtr(d2, 4 * sizeof(int), 4, 4);
  p.dstPos = make_cudaPos(0, 2, 0);
  p.extent = make_cudaExtent(2 * sizeof(int), 2, 2);
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaGraphAddMemcpyNode(&c3, g, &c1, 1, &p));
  CK(cudaGraphAddEmptyNode(&e, g, &c3, 1));
  CK(cudaGraphAddMemcpyNode1D(&c4, g, nullptr, 0, d2 + 48, h, 4 * sizeof(int), cudaMemcpyHostToDevice));
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemcpyNodeGetParams(c3, &q));
  print_copy("3-D copy node", q, h, d2);
  // the 1-D node now copies h[8..15] -> d[4..11]
  CK(cudaGraphMemcpyNodeSetParams1D(c1, d + 4, h + 8, 8 * sizeof(int), cudaMemcpyHostToDevice));
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemcpyNodeGetParams(c1, &q));
  print_copy("1-D copy node after set", q, h + 8, d + 4);
  printf("graph_params: memcpy get on an empty node: %s\n", name(cudaGraphMemcpyNodeGetParams(e, &q)));
  printf("graph_params: memcpy set on an empty node: %s\n", name(cudaGraphMemcpyNodeSetParams(e, &p)));
  printf("graph_params: memcpy set 1-D on an empty node: %s\n",
         name(cudaGraphMemcpyNodeSetParams1D(e, d, h, 4, cudaMemcpyHostToDevice)));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  CK(cudaMemcpy(h2, d, 12 * sizeof(int), cudaMemcpyDeviceToHost));
  show(h2, 12, "memcpy launch 1, d[0..11]");
  CK(cudaMemcpy(h2, d2, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  show(h2, 32, "memcpy launch 1, the 3-D block");
  CK(cudaMemcpy(h2, d2 + 48, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  show(h2, 4, "memcpy launch 1, d2[48..51]");
  // exec updates: the 1-D copy moves h[20..23] -> d2[40..43]; the other
  // 1-D copy, given as a 3-D one, h[30..33] -> d2[52..55]; the 3-D copy's
  // destination moves to d at (2,0,1)
  CK(cudaGraphExecMemcpyNodeSetParams1D(x, c1, d2 + 40, h + 20, 4 * sizeof(int), cudaMemcpyHostToDevice));
  cudaMemcpy3DParms p1 = {};
  p1.srcPtr = make_cudaPitchedPtr(h + 30, 4 * sizeof(int), 4 * sizeof(int), 1);
  p1.dstPtr = make_cudaPitchedPtr(d2 + 52, 4 * sizeof(int), 4 * sizeof(int), 1);
  p1.extent = make_cudaExtent(4 * sizeof(int), 1, 1);
  p1.kind = cudaMemcpyHostToDevice;
  CK(cudaGraphExecMemcpyNodeSetParams(x, c4, &p1));
  p.dstPtr = make_cudaPitchedPtr(d, 4 * sizeof(int), 4, 4);
  p.dstPos = make_cudaPos(2 * sizeof(int), 0, 1);
  printf("graph_params: exec update of the 3-D copy: %s\n", name(cudaGraphExecMemcpyNodeSetParams(x, c3, &p)));
  CK(cudaMemset(d, 0, 64 * sizeof(int)));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  CK(cudaMemcpy(h2, d2 + 40, 16 * sizeof(int), cudaMemcpyDeviceToHost));
  show(h2, 16, "memcpy launch 2 (exec updated), d2[40..55]");
  CK(cudaMemcpy(h2, d, 48 * sizeof(int), cudaMemcpyDeviceToHost));
  show(h2, 48, "memcpy launch 2 (exec updated), d[0..47]");
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemcpyNodeGetParams(c1, &q));
  print_copy("the graph's 1-D node after the exec update", q, h + 8, d + 4);
  printf("graph_params: exec memcpy set on an empty node: %s\n", name(cudaGraphExecMemcpyNodeSetParams(x, e, &p)));
  printf("graph_params: exec memcpy set 1-D on an empty node: %s\n",
         name(cudaGraphExecMemcpyNodeSetParams1D(x, e, d, h, 4, cudaMemcpyHostToDevice)));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // to and from a symbol: h[0..3] -> sym[2..5], sym[0..7] -> h2
  int zero[8] = {};
  CK(cudaMemcpyToSymbol(sym, zero, sizeof zero));
  CK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t ts, fs;
  CK(cudaGraphAddMemcpyNodeToSymbol(&ts, g, nullptr, 0, sym, h, 4 * sizeof(int), 2 * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaGraphAddMemcpyNodeFromSymbol(&fs, g, &ts, 1, h2, sym, 8 * sizeof(int), 0, cudaMemcpyDeviceToHost));
  void *symaddr;
  CK(cudaGetSymbolAddress(&symaddr, sym));
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemcpyNodeGetParams(ts, &q));
  print_copy("copy-to-symbol node", q, h, (char *)symaddr + 2 * sizeof(int));
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemcpyNodeGetParams(fs, &q));
  print_copy("copy-from-symbol node", q, symaddr, h2);
  int dummy = 0;
  printf("graph_params: copy to a host variable as a symbol: %s\n",
         name(cudaGraphAddMemcpyNodeToSymbol(&e, g, nullptr, 0, &dummy, h, 4, 0, cudaMemcpyHostToDevice)));
  printf("graph_params: copy past the symbol's end: %s\n",
         name(cudaGraphAddMemcpyNodeFromSymbol(&e, g, nullptr, 0, h2, sym, 8 * sizeof(int), 4, cudaMemcpyDeviceToHost)));
  memset(h2, 0xff, 8 * sizeof(int));
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  show(h2, 8, "symbol copies ran, sym[0..7]");
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
  CK(cudaFree(d2));
  CK(cudaFreeHost(h));
  CK(cudaFreeHost(h2));
}

// ---- 6. child graphs ----
static cudaGraph_t memset_graph(int *d, unsigned value, int nodes) {
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaMemsetParams m = {};
  m.dst = d;
  m.value = value;
  m.elementSize = 4;
  m.width = 4;
  m.height = 1;
  cudaGraphNode_t prev = nullptr, n;
  for (int i = 0; i < nodes; i++) {
    CK(cudaGraphAddMemsetNode(&n, g, prev ? &prev : nullptr, prev ? 1 : 0, &m));
    prev = n;
  }
  return g;
}

static void child_graphs(int *d) {
  cudaGraph_t child = memset_graph(d, 7, 1), g, inner;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t cn, e;
  CK(cudaGraphAddChildGraphNode(&cn, g, nullptr, 0, child));
  CK(cudaGraphAddEmptyNode(&e, g, &cn, 1));
  CK(cudaGraphChildGraphNodeGetGraph(cn, &inner));
  size_t count = 0;
  CK(cudaGraphGetNodes(inner, nullptr, &count));
  printf("graph_params: child node's graph: a clone %s, %zu node\n", yes(inner != child), count);
  CK(cudaGraphDestroy(child));  // the node has its own copy
  // a change to the embedded graph is the node's
  cudaGraphNode_t in;
  count = 1;
  CK(cudaGraphGetNodes(inner, &in, &count));
  cudaMemsetParams m = {};
  CK(cudaGraphMemsetNodeGetParams(in, &m));
  m.value = 8;
  CK(cudaGraphMemsetNodeSetParams(in, &m));
  printf("graph_params: child graph of an empty node: %s\n", name(cudaGraphChildGraphNodeGetGraph(e, &inner)));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  int h[4];
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  show(h, 4, "child graph launch 1");
  cudaGraph_t same = memset_graph(d, 9, 1), other = memset_graph(d, 10, 2);
  CK(cudaGraphExecChildGraphNodeSetParams(x, cn, same));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaStreamSynchronize(0));
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  show(h, 4, "child graph launch 2 (exec updated)");
  printf("graph_params: exec child update with another shape: %s\n", name(cudaGraphExecChildGraphNodeSetParams(x, cn, other)));
  printf("graph_params: exec child update of an empty node: %s\n", name(cudaGraphExecChildGraphNodeSetParams(x, e, same)));
  CK(cudaGraphDestroy(same));
  CK(cudaGraphDestroy(other));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
}

// ---- 7. memory allocation and free nodes ----
static void memory_nodes() {
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 1 << 16;
  cudaGraphNode_t an, fn;
  CK(cudaGraphAddMemAllocNode(&an, g, nullptr, 0, &ap));
  CK(cudaGraphAddMemFreeNode(&fn, g, &an, 1, ap.dptr));
  cudaMemAllocNodeParams q;
  memset(&q, 0x5a, sizeof q);
  CK(cudaGraphMemAllocNodeGetParams(an, &q));
  printf("graph_params: allocation node: %zu bytes, address %s, type %d, location %d/%d, handles %d, %zu access descs\n",
         q.bytesize, yes(q.dptr == ap.dptr), (int)q.poolProps.allocType, (int)q.poolProps.location.type,
         q.poolProps.location.id, (int)q.poolProps.handleTypes, q.accessDescCount);
  void *freed = nullptr;
  CK(cudaGraphMemFreeNodeGetParams(fn, &freed));
  cudaGraphNodeType ta, tf;
  CK(cudaGraphNodeGetType(an, &ta));
  CK(cudaGraphNodeGetType(fn, &tf));
  printf("graph_params: free node: address %s; node types %d and %d\n", yes(freed == ap.dptr), (int)ta, (int)tf);
  printf("graph_params: allocation params of a free node: %s\n", name(cudaGraphMemAllocNodeGetParams(fn, &q)));
  printf("graph_params: free params of an allocation node: %s\n", name(cudaGraphMemFreeNodeGetParams(an, &freed)));
  CK(cudaGraphDestroy(g));
}

// ---- 8. event record and wait nodes ----
static void event_nodes(int *d) {
  cudaEvent_t e1, e2, e3, w;
  CK(cudaEventCreate(&e1));
  CK(cudaEventCreate(&e2));
  CK(cudaEventCreate(&e3));
  CK(cudaEventCreate(&w));
  cudaStream_t s1, s2;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  // producer: record e1, d[0..3] += 5, record w
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  int n = 4, v = 5;
  void *args[] = { &d, &n, &v };
  cudaKernelNodeParams kp = kernel_params(args, 1, 4);
  cudaGraphNode_t r1, k, r2;
  CK(cudaGraphAddEventRecordNode(&r1, g, nullptr, 0, e1));
  CK(cudaGraphAddKernelNode(&k, g, &r1, 1, &kp));
  CK(cudaGraphAddEventRecordNode(&r2, g, &k, 1, e2));
  cudaEvent_t got;
  CK(cudaGraphEventRecordNodeGetEvent(r2, &got));
  printf("graph_params: record node's event: %s\n", yes(got == e2));
  CK(cudaGraphEventRecordNodeSetEvent(r2, w));
  CK(cudaGraphEventRecordNodeGetEvent(r2, &got));
  printf("graph_params: record node's event after set: %s\n", yes(got == w));
  printf("graph_params: record event of a kernel node: %s\n", name(cudaGraphEventRecordNodeGetEvent(k, &got)));
  printf("graph_params: wait event of a record node: %s\n", name(cudaGraphEventWaitNodeGetEvent(r1, &got)));
  cudaGraphNode_t none;
  printf("graph_params: record node with no event: %s\n", name(cudaGraphAddEventRecordNode(&none, g, &k, 1, nullptr)));
  // consumer: wait for w, copy d -> h
  int *h;
  CK(cudaMallocHost(&h, 4 * sizeof(int)));
  cudaGraph_t g2;
  CK(cudaGraphCreate(&g2, 0));
  cudaGraphNode_t wn, c;
  CK(cudaGraphAddEventWaitNode(&wn, g2, nullptr, 0, e3));
  CK(cudaGraphEventWaitNodeGetEvent(wn, &got));
  printf("graph_params: wait node's event: %s\n", yes(got == e3));
  CK(cudaGraphEventWaitNodeSetEvent(wn, w));
  CK(cudaGraphEventWaitNodeGetEvent(wn, &got));
  printf("graph_params: wait node's event after set: %s\n", yes(got == w));
  printf("graph_params: set the wait event of a record node: %s\n", name(cudaGraphEventWaitNodeSetEvent(r1, w)));
  CK(cudaGraphAddMemcpyNode1D(&c, g2, &wn, 1, h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  cudaGraphNodeType t1, t2;
  CK(cudaGraphNodeGetType(r1, &t1));
  CK(cudaGraphNodeGetType(wn, &t2));
  printf("graph_params: node types: record %d, wait %d\n", (int)t1, (int)t2);
  CK(cudaMemset(d, 0, 4 * sizeof(int)));
  cudaGraphExec_t x, x2;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphInstantiate(&x2, g2, 0));
  float ms;
  printf("graph_params: elapsed time before any launch: %s\n", name(cudaEventElapsedTime(&ms, e1, w)));
  CK(cudaGraphLaunch(x, s1));
  CK(cudaGraphLaunch(x2, s2));
  CK(cudaStreamSynchronize(s2));
  show(h, 4, "consumer after producer launch 1");
  CK(cudaStreamSynchronize(s1));
  printf("graph_params: e1 to w after launch 1: %s, e1 to e2: %s\n", name(cudaEventElapsedTime(&ms, e1, w)),
         name(cudaEventElapsedTime(&ms, e1, e2)));
  // the executable's record node records e2 from now on; its wait node waits for e2
  CK(cudaGraphExecEventRecordNodeSetEvent(x, r2, e2));
  CK(cudaGraphExecEventWaitNodeSetEvent(x2, wn, e2));
  printf("graph_params: exec record event set on a kernel node: %s\n", name(cudaGraphExecEventRecordNodeSetEvent(x, k, e2)));
  printf("graph_params: exec wait event set on a record node: %s\n", name(cudaGraphExecEventWaitNodeSetEvent(x, r1, e2)));
  CK(cudaGraphLaunch(x, s1));
  CK(cudaGraphLaunch(x2, s2));
  CK(cudaStreamSynchronize(s2));
  show(h, 4, "consumer after producer launch 2 (exec updated)");
  CK(cudaStreamSynchronize(s1));
  printf("graph_params: e1 to e2 after launch 2: %s\n", name(cudaEventElapsedTime(&ms, e1, e2)));
  CK(cudaGraphEventRecordNodeGetEvent(r2, &got));
  printf("graph_params: the graph's record node still has w: %s\n", yes(got == w));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphExecDestroy(x2));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(g2));
  CK(cudaFreeHost(h));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaEventDestroy(e1));
  CK(cudaEventDestroy(e2));
  CK(cudaEventDestroy(e3));
  CK(cudaEventDestroy(w));
}

// ---- 9. disabled nodes ----
static int host_runs;
static void count_run(void *) { host_runs++; }

static void disabled_nodes(int *d) {
  int *h;
  CK(cudaMallocHost(&h, 4 * sizeof(int)));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaMemsetParams m = {};
  m.dst = d;
  m.value = 1;
  m.elementSize = 4;
  m.width = 4;
  m.height = 1;
  int n = 4, v = 10;
  void *args[] = { &d, &n, &v };
  cudaKernelNodeParams kp = kernel_params(args, 1, 4);
  cudaHostNodeParams hp = { count_run, nullptr };
  cudaGraphNode_t ms, k, c, hn;
  CK(cudaGraphAddMemsetNode(&ms, g, nullptr, 0, &m));
  CK(cudaGraphAddKernelNode(&k, g, &ms, 1, &kp));
  CK(cudaGraphAddMemcpyNode1D(&c, g, &k, 1, h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaGraphAddHostNode(&hn, g, &c, 1, &hp));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  unsigned on = 7;
  CK(cudaGraphNodeGetEnabled(x, k, &on));
  printf("graph_params: a kernel node is enabled: %u\n", on);
  struct { unsigned kernel, copy, memset; } steps[] = { { 1, 1, 1 }, { 0, 1, 1 }, { 0, 0, 1 }, { 1, 1, 0 }, { 1, 1, 1 } };
  CK(cudaMemset(d, 0, 4 * sizeof(int)));
  for (auto &st : steps) {
    CK(cudaGraphNodeSetEnabled(x, k, st.kernel));
    CK(cudaGraphNodeSetEnabled(x, c, st.copy));
    CK(cudaGraphNodeSetEnabled(x, ms, st.memset));
    unsigned ek, ec, em;
    CK(cudaGraphNodeGetEnabled(x, k, &ek));
    CK(cudaGraphNodeGetEnabled(x, c, &ec));
    CK(cudaGraphNodeGetEnabled(x, ms, &em));
    for (int i = 0; i < 4; i++) h[i] = -1;
    CK(cudaGraphLaunch(x, 0));
    CK(cudaStreamSynchronize(0));
    char what[64];
    snprintf(what, sizeof what, "enabled kernel %u copy %u memset %u", ek, ec, em);
    show(h, 4, what);
  }
  printf("graph_params: host node ran %d times\n", host_runs);
  printf("graph_params: disable a host node: %s\n", name(cudaGraphNodeSetEnabled(x, hn, 0)));
  printf("graph_params: enabled state into NULL: %s\n", name(cudaGraphNodeGetEnabled(x, k, nullptr)));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
  CK(cudaFreeHost(h));
}

// ---- 10. dependencies, instantiation flags, stream ids ----
static void graph_misc() {
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t a, b, c;
  CK(cudaGraphAddEmptyNode(&a, g, nullptr, 0));
  CK(cudaGraphAddEmptyNode(&b, g, &a, 1));
  CK(cudaGraphAddEmptyNode(&c, g, &a, 1));
  CK(cudaGraphRemoveDependencies(g, &a, &b, nullptr, 1));
  size_t roots = 0, edges = 0;
  CK(cudaGraphGetRootNodes(g, nullptr, &roots));
  CK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  printf("graph_params: after removing a->b: %zu roots, %zu edge\n", roots, edges);
  printf("graph_params: remove a->b again: %s\n", name(cudaGraphRemoveDependencies(g, &a, &b, nullptr, 1)));
  cudaGraphEdgeData ed = {};
  ed.type = cudaGraphDependencyTypeProgrammatic;
  printf("graph_params: remove a->c with other edge data: %s\n", name(cudaGraphRemoveDependencies(g, &a, &c, &ed, 1)));
  CK(cudaGraphRemoveDependencies(g, nullptr, nullptr, nullptr, 0));

  cudaGraphExec_t x;
  unsigned long long flags = 77;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphExecGetFlags(x, &flags));
  printf("graph_params: exec flags: %llu", flags);
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUseNodePriority));
  CK(cudaGraphExecGetFlags(x, &flags));
  printf(", then %llu\n", flags);
  printf("graph_params: exec flags into NULL: %s\n", name(cudaGraphExecGetFlags(x, nullptr)));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  cudaStream_t s1, s2;
  CK(cudaStreamCreate(&s1));
  CK(cudaStreamCreate(&s2));
  unsigned long long i1, i1b, i2, i0, ileg, ipt;
  CK(cudaStreamGetId(s1, &i1));
  CK(cudaStreamGetId(s1, &i1b));
  CK(cudaStreamGetId(s2, &i2));
  CK(cudaStreamGetId(0, &i0));
  CK(cudaStreamGetId(cudaStreamLegacy, &ileg));
  CK(cudaStreamGetId(cudaStreamPerThread, &ipt));
  printf("graph_params: stream ids: stable %s, distinct %s, NULL is the legacy stream %s, per-thread differs %s\n",
         yes(i1 == i1b), yes(i1 != i2 && i1 != i0 && i2 != i0), yes(i0 == ileg), yes(ipt != ileg));
  printf("graph_params: stream id into NULL: %s\n", name(cudaStreamGetId(s1, nullptr)));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
}

// ---- 11. user objects ----
static std::atomic<int> ndestroyed;
static char destroyed[16];
static void destroy(void *p) {
  int i = ndestroyed.fetch_add(1);
  if (i < 15) destroyed[i] = *(const char *)p;
}
// destructors run on a thread of CUDA's, later: wait for the nth
static void after(const char *what, int n) {
  for (int i = 0; i < 5000 && ndestroyed.load() < n; i++) usleep(1000);
  usleep(20000);
  printf("graph_params: user objects, after %s: destroyed \"%s\"\n", what, destroyed);
}

static void user_objects(int *d) {
  static char A = 'A', B = 'B', C = 'C', D = 'D', E = 'E', F = 'F';
  cudaUserObject_t a, b, c, dd, e;
  CK(cudaUserObjectCreate(&a, &A, destroy, 2, cudaUserObjectNoDestructorSync));
  CK(cudaUserObjectRelease(a, 1));
  after("releasing 1 of A's 2", 0);
  CK(cudaUserObjectRetain(a, 2));
  CK(cudaUserObjectRelease(a, 3));
  after("retaining 2 and releasing 3 of A's", 1);

  // B: its reference moves to a graph; the executable keeps its own
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  int n = 4, v = 1;
  void *args[] = { &d, &n, &v };
  cudaKernelNodeParams kp = kernel_params(args, 1, 4);
  cudaGraphNode_t k;
  CK(cudaGraphAddKernelNode(&k, g, nullptr, 0, &kp));
  CK(cudaUserObjectCreate(&b, &B, destroy, 1, cudaUserObjectNoDestructorSync));
  CK(cudaGraphRetainUserObject(g, b, 1, cudaGraphUserObjectMove));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphDestroy(g));
  after("destroying B's graph (its executable lives)", 1);
  CK(cudaGraphLaunch(x, 0));
  CK(cudaGraphExecDestroy(x));
  CK(cudaStreamSynchronize(0));
  after("destroying B's executable", 2);

  // C: two references of a graph's, released one by one
  CK(cudaGraphCreate(&g, 0));
  CK(cudaUserObjectCreate(&c, &C, destroy, 1, cudaUserObjectNoDestructorSync));
  CK(cudaGraphRetainUserObject(g, c, 2, 0));
  CK(cudaUserObjectRelease(c, 1));
  CK(cudaGraphReleaseUserObject(g, c, 1));
  after("the graph releases 1 of C's 2", 2);
  CK(cudaGraphReleaseUserObject(g, c, 1));
  after("the graph releases C's last", 3);

  // D: a clone of the graph has references of its own; E: a child graph's
  CK(cudaUserObjectCreate(&dd, &D, destroy, 1, cudaUserObjectNoDestructorSync));
  CK(cudaGraphRetainUserObject(g, dd, 1, cudaGraphUserObjectMove));
  cudaGraph_t clone, parent, child;
  CK(cudaGraphClone(&clone, g));
  CK(cudaGraphDestroy(g));
  after("destroying D's graph (its clone lives)", 3);
  CK(cudaGraphDestroy(clone));
  after("destroying D's clone", 4);
  CK(cudaGraphCreate(&child, 0));
  CK(cudaGraphCreate(&parent, 0));
  CK(cudaUserObjectCreate(&e, &E, destroy, 1, cudaUserObjectNoDestructorSync));
  CK(cudaGraphRetainUserObject(child, e, 1, cudaGraphUserObjectMove));
  cudaGraphNode_t cn;
  CK(cudaGraphAddChildGraphNode(&cn, parent, nullptr, 0, child));
  CK(cudaGraphDestroy(child));
  after("destroying E's graph (a parent embeds a copy)", 4);
  CK(cudaGraphInstantiate(&x, parent, 0));
  CK(cudaGraphDestroy(parent));
  after("destroying the parent (its executable lives)", 4);
  CK(cudaGraphExecDestroy(x));
  after("destroying the parent's executable", 5);

  cudaUserObject_t bad, f;
  printf("graph_params: user object with no references: %s\n",
         name(cudaUserObjectCreate(&bad, &A, destroy, 0, cudaUserObjectNoDestructorSync)));
  printf("graph_params: user object without flags: %s\n", name(cudaUserObjectCreate(&bad, &A, destroy, 1, 0)));
  printf("graph_params: user object with no destructor: %s\n",
         name(cudaUserObjectCreate(&bad, &A, nullptr, 1, cudaUserObjectNoDestructorSync)));
  CK(cudaUserObjectCreate(&f, &F, destroy, 1, cudaUserObjectNoDestructorSync));
  CK(cudaGraphCreate(&g, 0));
  printf("graph_params: a graph retains 0 references: %s\n", name(cudaGraphRetainUserObject(g, f, 0, 0)));
  printf("graph_params: a graph releases 0 references: %s\n", name(cudaGraphReleaseUserObject(g, f, 0)));
  printf("graph_params: the caller releases 0 references: %s\n", name(cudaUserObjectRelease(f, 0)));
  CK(cudaGraphDestroy(g));
  CK(cudaUserObjectRelease(f, 1));
  after("releasing F", 6);
}

int main() {
  int *d;
  CK(cudaMalloc(&d, 64 * sizeof(int)));
  kernel_nodes(d);
  kernel_attributes(d);
  memset_nodes(d);
  host_nodes();
  memcpy_nodes(d);
  child_graphs(d);
  memory_nodes();
  event_nodes(d);
  disabled_nodes(d);
  graph_misc();
  user_objects(d);
  CK(cudaFree(d));
  CK(cudaDeviceSynchronize());
  printf("graph_params: done\n");
  return 0;
}
