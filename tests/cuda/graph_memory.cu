// graph_memory: graph memory nodes as CUDA's "graph memory nodes" define
// them.  The graph allocator's footprint (cudaDeviceGetGraphMemAttribute:
// used and reserved memory, their high-water marks, their reset, trimming);
// allocations that outlive their graph (a relaunch refused until they are
// freed, by cudaFree or cudaFreeAsync, then allocated again; automatic free
// on launch; an executable destroyed); an address freed by a free node and
// taken again by an allocation ordered after it; stream capture across two
// streams joined by events (cudaMallocAsync and cudaFreeAsync become
// allocation and free nodes); and the generic node calls (cudaGraphAddNode,
// cudaGraphNodeSetParams, cudaGraphExecNodeSetParams,
// cudaGraphInstantiateWithParams), with conditional nodes (if, if/else,
// while, switch) whose condition a kernel sets.  Values are read back; no
// addresses or timings are printed.  (An H200 printed this output.)
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>
#include "common.h"

__global__ void fill(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}
__global__ void add(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}
__global__ void count_down(cudaGraphConditionalHandle h, int *counter) {
  int v = --*counter;
  cudaGraphSetConditional(h, v > 0);
}
__global__ void set_cond(cudaGraphConditionalHandle h, unsigned v) { cudaGraphSetConditional(h, v); }

static const size_t MiB = 1 << 20;

static const char *name(cudaError_t e) {
  cudaGetLastError();  // expected failures leave no error behind
  return cudaGetErrorName(e);
}
static const char *yes(bool b) { return b ? "yes" : "no"; }

// the graph allocator's four counters, in KiB
static void footprint(const char *what) {
  unsigned long long v[4];
  for (int a = 0; a < 4; a++) CK(cudaDeviceGetGraphMemAttribute(0, (cudaGraphMemAttributeType)a, &v[a]));
  printf("graph_memory: %s: used %llu KiB (high %llu), reserved %llu KiB (high %llu)\n", what, v[0] >> 10, v[1] >> 10,
         v[2] >> 10, v[3] >> 10);
}

// The parameters of an allocation, memset or kernel node, as the node
// calls take them (P) or as cudaGraphNodeParams holds them (its V2 members).
template <class P = cudaMemAllocNodeParams> static P alloc_params(size_t bytes) {
  P p = {};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = bytes;
  return p;
}

template <class P> static P memset_params(int *d, unsigned value, size_t n) {
  P p = {};
  p.dst = d;
  p.value = value;
  p.elementSize = 4;
  p.width = n;
  p.height = 1;
  return p;
}

template <class P = cudaKernelNodeParams> static P kernel_params(void *func, void **args, unsigned grid, unsigned block) {
  P p = {};
  p.func = func;
  p.gridDim = dim3(grid);
  p.blockDim = dim3(block);
  p.kernelParams = args;
  return p;
}

// A graph: allocate `bytes`, fill the first n ints with base + i, copy 4 of
// them (from index 5) to h, and (if freed) free the allocation.
struct alloc_graph {
  cudaGraph_t g;
  int *d;
  int n, base;
  void *args[3];
};
static void make_alloc_graph(alloc_graph *a, size_t bytes, int base, int *h, bool freed) {
  CK(cudaGraphCreate(&a->g, 0));
  cudaMemAllocNodeParams ap = alloc_params(bytes);
  cudaGraphNode_t an, kn, cn, fn;
  CK(cudaGraphAddMemAllocNode(&an, a->g, nullptr, 0, &ap));
  a->d = (int *)ap.dptr;
  a->n = 1024;
  a->base = base;
  a->args[0] = &a->d;
  a->args[1] = &a->n;
  a->args[2] = &a->base;
  cudaKernelNodeParams kp = kernel_params((void *)fill, a->args, 4, 256);
  CK(cudaGraphAddKernelNode(&kn, a->g, &an, 1, &kp));
  CK(cudaGraphAddMemcpyNode1D(&cn, a->g, &kn, 1, h, a->d + 5, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  if (freed) CK(cudaGraphAddMemFreeNode(&fn, a->g, &cn, 1, a->d));
}

static void show(const int *h, const char *what) {
  printf("graph_memory: %s: %d %d %d %d\n", what, h[0], h[1], h[2], h[3]);
}

// ---- 1. the footprint of graphs that allocate and free ----
static void allocate_and_free(cudaStream_t s, int *h) {
  footprint("start");
  alloc_graph a, b;
  make_alloc_graph(&a, MiB, 100, h, true);
  make_alloc_graph(&b, MiB, 200, h, true);
  cudaGraphExec_t xa, xb;
  CK(cudaGraphInstantiate(&xa, a.g, 0));
  CK(cudaGraphInstantiate(&xb, b.g, 0));
  footprint("two graphs instantiated");
  CK(cudaGraphLaunch(xa, s));
  CK(cudaStreamSynchronize(s));
  show(h, "first graph, launch 1");
  footprint("first graph launched");
  CK(cudaGraphLaunch(xa, s));
  CK(cudaStreamSynchronize(s));
  footprint("first graph launched again");
  CK(cudaGraphLaunch(xb, s));
  CK(cudaStreamSynchronize(s));
  show(h, "second graph");
  printf("graph_memory: the two graphs' addresses differ: %s\n", yes(a.d != b.d));
  footprint("second graph launched after the first");
  CK(cudaGraphExecDestroy(xb));
  footprint("second executable destroyed");
  CK(cudaDeviceGraphMemTrim(0));
  footprint("trimmed");
  CK(cudaGraphLaunch(xa, s));
  CK(cudaStreamSynchronize(s));
  show(h, "first graph after the trim");
  footprint("first graph launched after the trim");
  CK(cudaGraphExecDestroy(xa));
  CK(cudaGraphDestroy(a.g));
  CK(cudaGraphDestroy(b.g));
  CK(cudaDeviceGraphMemTrim(0));
  footprint("executables destroyed, trimmed");
  unsigned long long zero = 0, five = 5, v = 0;
  CK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  CK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
  footprint("high-water marks reset");
  printf("graph_memory: set the used high-water mark to 5: %s\n",
         name(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &five)));
  printf("graph_memory: set the used memory: %s\n",
         name(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero)));
  printf("graph_memory: set the reserved memory: %s\n",
         name(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &zero)));
  printf("graph_memory: get attribute 4: %s\n", name(cudaDeviceGetGraphMemAttribute(0, (cudaGraphMemAttributeType)4, &v)));
  printf("graph_memory: get on device 1: %s\n", name(cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemCurrent, &v)));
  printf("graph_memory: set on device 1: %s\n", name(cudaDeviceSetGraphMemAttribute(1, cudaGraphMemAttrUsedMemHigh, &zero)));
  printf("graph_memory: trim device 1: %s\n", name(cudaDeviceGraphMemTrim(1)));
}

// ---- 2. allocations the graph does not free ----
static void unfreed(cudaStream_t s, int *h) {
  alloc_graph a;
  make_alloc_graph(&a, 3 * MiB, 300, h, false);
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, a.g, 0));
  CK(cudaGraphLaunch(x, s));
  CK(cudaStreamSynchronize(s));
  show(h, "unfreed, launch 1");
  footprint("3 MiB unfreed");
  int v = -1;
  CK(cudaMemcpy(&v, a.d + 1000, sizeof v, cudaMemcpyDeviceToHost));
  printf("graph_memory: the allocation after the launch holds %d\n", v);
  printf("graph_memory: launch while the allocation is live: %s\n", name(cudaGraphLaunch(x, s)));
  CK(cudaDeviceGraphMemTrim(0));
  footprint("trimmed while it is live");
  printf("graph_memory: cudaFree: %s\n", name(cudaFree(a.d)));
  footprint("after cudaFree");
  printf("graph_memory: cudaFree again: %s\n", name(cudaFree(a.d)));
  CK(cudaDeviceGraphMemTrim(0));
  footprint("trimmed after cudaFree");
  printf("graph_memory: launch after cudaFree: %s\n", name(cudaGraphLaunch(x, s)));
  CK(cudaStreamSynchronize(s));
  show(h, "unfreed, launch 2");
  footprint("allocated again");
  printf("graph_memory: cudaFreeAsync: %s\n", name(cudaFreeAsync(a.d, s)));
  CK(cudaStreamSynchronize(s));
  printf("graph_memory: launch after cudaFreeAsync: %s\n", name(cudaGraphLaunch(x, s)));
  CK(cudaStreamSynchronize(s));
  show(h, "unfreed, launch 3");
  // the executable goes, the allocation stays
  CK(cudaGraphExecDestroy(x));
  v = -1;
  CK(cudaMemcpy(&v, a.d + 1000, sizeof v, cudaMemcpyDeviceToHost));
  printf("graph_memory: after the executable is destroyed the allocation holds %d\n", v);
  footprint("executable destroyed, allocation live");
  printf("graph_memory: cudaFree after the executable is destroyed: %s\n", name(cudaFree(a.d)));
  CK(cudaDeviceGraphMemTrim(0));
  footprint("freed, trimmed");

  // one executable of a graph with memory nodes at a time
  cudaGraphExec_t x2;
  CK(cudaGraphInstantiate(&x, a.g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  printf("graph_memory: a second executable of the graph: %s\n", name(cudaGraphInstantiate(&x2, a.g, 0)));
  cudaGraph_t c;
  printf("graph_memory: clone the graph: %s\n", name(cudaGraphClone(&c, a.g)));
  // automatic free on launch: each launch frees what the last allocated
  for (int i = 1; i <= 3; i++) {
    printf("graph_memory: auto-free launch %d: %s\n", i, name(cudaGraphLaunch(x, s)));
    CK(cudaStreamSynchronize(s));
  }
  show(h, "auto-free launches");
  footprint("auto-free launched 3 times");
  CK(cudaFree(a.d));
  CK(cudaGraphExecDestroy(x));

  // free nodes for what no allocation node of the graph returned
  int *m;
  CK(cudaMalloc(&m, 64));
  cudaGraph_t g;
  cudaGraphNode_t an, f1, f2, f3;
  CK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = alloc_params(MiB);
  CK(cudaGraphAddMemAllocNode(&an, g, nullptr, 0, &ap));
  printf("graph_memory: free node for cudaMalloc memory: %s\n", name(cudaGraphAddMemFreeNode(&f1, g, &an, 1, m)));
  CK(cudaGraphAddMemFreeNode(&f2, g, &an, 1, ap.dptr));
  printf("graph_memory: a second free node for the allocation: %s\n", name(cudaGraphAddMemFreeNode(&f3, g, &f2, 1, ap.dptr)));
  printf("graph_memory: free node for the middle of the allocation: %s\n",
         name(cudaGraphAddMemFreeNode(&f3, g, &an, 1, (char *)ap.dptr + 256)));
  ap = alloc_params(0);
  printf("graph_memory: allocation of 0 bytes: %s\n", name(cudaGraphAddMemAllocNode(&f3, g, nullptr, 0, &ap)));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(a.g));
  CK(cudaFree(m));
  CK(cudaDeviceGraphMemTrim(0));
}

// ---- 3. an address freed in a graph is taken again ----
static void address_reuse(cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphNode_t a, fa, b, fb, c, fc;
  CK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams p = alloc_params(MiB);
  CK(cudaGraphAddMemAllocNode(&a, g, nullptr, 0, &p));
  void *pa = p.dptr;
  CK(cudaGraphAddMemFreeNode(&fa, g, &a, 1, pa));
  CK(cudaGraphAddMemAllocNode(&b, g, &fa, 1, &p));
  void *pb = p.dptr;
  CK(cudaGraphAddMemAllocNode(&c, g, nullptr, 0, &p));   // not ordered after the free
  void *pc = p.dptr;
  CK(cudaGraphAddMemFreeNode(&fb, g, &b, 1, pb));
  CK(cudaGraphAddMemFreeNode(&fc, g, &c, 1, pc));
  printf("graph_memory: allocation after the free node takes its address: %s; one beside it: %s\n", yes(pa == pb),
         yes(pa == pc || pb == pc));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaGraphLaunch(x, s));
  CK(cudaStreamSynchronize(s));
  footprint("reuse graph launched");
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
  CK(cudaDeviceGraphMemTrim(0));
}

// ---- 4. stream capture over two streams ----
static void capture(cudaStream_t s, int *h) {
  cudaStream_t s1, s2;
  cudaEvent_t done, join;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CK(cudaEventCreate(&done));
  CK(cudaEventCreate(&join));
  const int n = 1024;
  int *d;
  cudaGraph_t g;
  CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CK(cudaMallocAsync(&d, n * sizeof(int), s1));
  fill<<<n / 256, 256, 0, s1>>>(d, n, 400);
  CK(cudaMemcpyAsync(h, d + 5, 4 * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CK(cudaEventRecord(done, s1));
  cudaStreamCaptureStatus st;
  CK(cudaStreamIsCapturing(s2, &st));
  printf("graph_memory: second stream capturing before the wait: %d\n", (int)st);
  CK(cudaStreamWaitEvent(s2, done, 0));   // s2 joins the capture
  unsigned long long id1 = 0, id2 = 0;
  size_t ndeps = 0;
  CK(cudaStreamGetCaptureInfo(s1, &st, &id1));
  CK(cudaStreamGetCaptureInfo(s2, &st, &id2, nullptr, nullptr, nullptr, &ndeps));
  printf("graph_memory: second stream after the wait: capturing %d, same capture %s, %zu dependency\n", (int)st,
         yes(id1 == id2), ndeps);
  CK(cudaFreeAsync(d, s2));                // a free node
  CK(cudaEventRecord(join, s2));
  CK(cudaStreamWaitEvent(s1, join, 0));   // joined back
  CK(cudaStreamEndCapture(s1, &g));
  CK(cudaStreamIsCapturing(s2, &st));
  printf("graph_memory: second stream capturing after the end: %d\n", (int)st);
  size_t nn = 0, ne = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nn));
  std::vector<cudaGraphNode_t> nodes(nn), from(16), to(16);
  CK(cudaGraphGetNodes(g, nodes.data(), &nn));
  printf("graph_memory: captured node types:");
  for (size_t i = 0; i < nn; i++) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(nodes[i], &t));
    printf(" %d", (int)t);
  }
  ne = from.size();
  CK(cudaGraphGetEdges(g, from.data(), to.data(), nullptr, &ne));
  std::vector<std::pair<int, int>> edges;
  for (size_t i = 0; i < ne; i++) {
    int f = (int)(std::find(nodes.begin(), nodes.end(), from[i]) - nodes.begin());
    int t = (int)(std::find(nodes.begin(), nodes.end(), to[i]) - nodes.begin());
    edges.push_back({ f, t });
  }
  std::sort(edges.begin(), edges.end());
  printf("; edges:");
  for (auto &e : edges) printf(" %d->%d", e.first, e.second);
  printf("\n");
  cudaMemAllocNodeParams q = {};
  void *freed = nullptr;
  for (auto nd : nodes) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(nd, &t));
    if (t == cudaGraphNodeTypeMemAlloc) CK(cudaGraphMemAllocNodeGetParams(nd, &q));
    if (t == cudaGraphNodeTypeMemFree) CK(cudaGraphMemFreeNodeGetParams(nd, &freed));
  }
  printf("graph_memory: captured allocation: %zu bytes, address %s; free node's address %s\n", q.bytesize,
         yes(q.dptr == d), yes(freed == d));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  for (int i = 1; i <= 2; i++) {
    memset(h, 0, 4 * sizeof(int));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    show(h, i == 1 ? "captured graph, launch 1" : "captured graph, launch 2");
  }
  footprint("captured graph launched");
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // a captured allocation that the graph does not free: freed after it
  CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CK(cudaMallocAsync(&d, n * sizeof(int), s1));
  fill<<<n / 256, 256, 0, s1>>>(d, n, 500);
  CK(cudaStreamEndCapture(s1, &g));
  CK(cudaGraphInstantiate(&x, g, 0));
  for (int i = 1; i <= 2; i++) {
    CK(cudaGraphLaunch(x, s));
    CK(cudaMemcpyAsync(h, d + 5, 4 * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(d, s));
    CK(cudaStreamSynchronize(s));
    show(h, i == 1 ? "captured, unfreed, launch 1" : "captured, unfreed, launch 2");
  }
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
  CK(cudaDeviceGraphMemTrim(0));
  footprint("after the captures, trimmed");
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaEventDestroy(done));
  CK(cudaEventDestroy(join));
}

// ---- 5. nodes of any kind: cudaGraphAddNode and the generic setters ----
// all bytes zero but the type, as cudaGraphAddNode asks
static cudaGraphNodeParams params(cudaGraphNodeType t) {
  cudaGraphNodeParams p = { t };
  return p;
}

static int host_calls;
static void CUDART_CB host_fn(void *p) { host_calls += *(int *)p; }

static void generic_nodes(cudaStream_t s, int *h) {
  cudaGraph_t g, child;
  CK(cudaGraphCreate(&g, 0));
  CK(cudaGraphCreate(&child, 0));
  const int n = 256;
  int *d;
  cudaGraphNode_t an, mn, kn, cn, fn, hn, en, rn, wn, gn, ck, bad;
  cudaGraphNodeParams p = params(cudaGraphNodeTypeEmpty);

  p = params(cudaGraphNodeTypeMemAlloc);
  p.alloc = alloc_params<decltype(p.alloc)>(n * sizeof(int));
  CK(cudaGraphAddNode(&an, g, nullptr, nullptr, 0, &p));
  d = (int *)p.alloc.dptr;
  printf("graph_memory: generic allocation node returns an address: %s\n", yes(d != nullptr));

  p = params(cudaGraphNodeTypeMemset);
  p.memset = memset_params<decltype(p.memset)>(d, 7, n);
  CK(cudaGraphAddNode(&mn, g, &an, nullptr, 1, &p));

  int v = 10, nn = n;
  void *args[] = { &d, &nn, &v };
  p = params(cudaGraphNodeTypeKernel);
  p.kernel = kernel_params<decltype(p.kernel)>((void *)add, args, n / 64, 64);
  CK(cudaGraphAddNode(&kn, g, &mn, nullptr, 1, &p));

  // the child graph adds 100 to d[0..3]
  int v2 = 100, four = 4;
  void *cargs[] = { &d, &four, &v2 };
  p.kernel = kernel_params<decltype(p.kernel)>((void *)add, cargs, 1, 4);
  CK(cudaGraphAddNode(&ck, child, nullptr, nullptr, 0, &p));
  p = params(cudaGraphNodeTypeGraph);
  p.graph.graph = child;
  CK(cudaGraphAddNode(&gn, g, &kn, nullptr, 1, &p));

  p = params(cudaGraphNodeTypeMemcpy);
  p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(d, n * sizeof(int), n, 1);
  p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(h, n * sizeof(int), n, 1);
  p.memcpy.copyParams.extent = make_cudaExtent(8 * sizeof(int), 1, 1);
  p.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
  CK(cudaGraphAddNode(&cn, g, &gn, nullptr, 1, &p));

  p = params(cudaGraphNodeTypeMemFree);
  p.free.dptr = d;
  CK(cudaGraphAddNode(&fn, g, &cn, nullptr, 1, &p));

  int one = 1, ten = 10;
  p = params(cudaGraphNodeTypeHost);
  p.host.fn = host_fn;
  p.host.userData = &one;
  CK(cudaGraphAddNode(&hn, g, &fn, nullptr, 1, &p));

  p = params(cudaGraphNodeTypeEmpty);
  CK(cudaGraphAddNode(&en, g, &hn, nullptr, 1, &p));

  cudaEvent_t ev;
  CK(cudaEventCreate(&ev));
  p = params(cudaGraphNodeTypeEventRecord);
  p.eventRecord.event = ev;
  CK(cudaGraphAddNode(&rn, g, &en, nullptr, 1, &p));
  p = params(cudaGraphNodeTypeWaitEvent);
  p.eventWait.event = ev;
  CK(cudaGraphAddNode(&wn, g, &rn, nullptr, 1, &p));

  size_t count = 0;
  CK(cudaGraphGetNodes(g, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  CK(cudaGraphGetNodes(g, nodes.data(), &count));
  printf("graph_memory: generic node types:");
  for (auto nd : nodes) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(nd, &t));
    printf(" %d", (int)t);
  }
  printf("\n");

  // errors: an unknown type, bytes past the union member not zero, a node type mismatch on set
  p = params((cudaGraphNodeType)12);
  printf("graph_memory: add a node of type 12: %s\n", name(cudaGraphAddNode(&bad, g, nullptr, nullptr, 0, &p)));
  p = params(cudaGraphNodeTypeEmpty);
  p.reserved0[0] = 1;
  printf("graph_memory: add with reserved bytes set: %s\n", name(cudaGraphAddNode(&bad, g, nullptr, nullptr, 0, &p)));
  p = params(cudaGraphNodeTypeHost);
  printf("graph_memory: add a host node without a function: %s\n", name(cudaGraphAddNode(&bad, g, nullptr, nullptr, 0, &p)));

  cudaGraphInstantiateParams ip = {};
  ip.result_out = (cudaGraphInstantiateResult)77;
  ip.errNode_out = (cudaGraphNode_t)&ip;
  cudaGraphExec_t x;
  CK(cudaGraphInstantiateWithParams(&x, g, &ip));
  printf("graph_memory: instantiate with params: result %d, error node %s\n", (int)ip.result_out, ip.errNode_out ? "set" : "NULL");
  unsigned long long flags = 99;
  CK(cudaGraphExecGetFlags(x, &flags));
  printf("graph_memory: its flags: %llu\n", flags);
  memset(h, 0, 8 * sizeof(int));
  CK(cudaGraphLaunch(x, s));
  CK(cudaStreamSynchronize(s));
  printf("graph_memory: generic graph: %d %d %d %d %d %d %d %d, host calls %d\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6],
         h[7], host_calls);

  // the executable's nodes change, the graph's stay
  v = 1000;
  p = params(cudaGraphNodeTypeKernel);
  p.kernel = kernel_params<decltype(p.kernel)>((void *)add, args, n / 64, 64);
  CK(cudaGraphExecNodeSetParams(x, kn, &p));
  p = params(cudaGraphNodeTypeHost);
  p.host.fn = host_fn;
  p.host.userData = &ten;
  CK(cudaGraphExecNodeSetParams(x, hn, &p));
  p = params(cudaGraphNodeTypeMemset);
  p.memset = memset_params<decltype(p.memset)>(d, 8, n);
  CK(cudaGraphExecNodeSetParams(x, mn, &p));
  memset(h, 0, 8 * sizeof(int));
  CK(cudaGraphLaunch(x, s));
  CK(cudaStreamSynchronize(s));
  printf("graph_memory: executable updated: %d %d %d %d %d %d %d %d, host calls %d\n", h[0], h[1], h[2], h[3], h[4], h[5],
         h[6], h[7], host_calls);
  p = params(cudaGraphNodeTypeMemFree);
  p.free.dptr = d;
  printf("graph_memory: exec set on a free node: %s\n", name(cudaGraphExecNodeSetParams(x, fn, &p)));
  p = params(cudaGraphNodeTypeEmpty);
  printf("graph_memory: exec set of another type: %s\n", name(cudaGraphExecNodeSetParams(x, kn, &p)));
  CK(cudaGraphExecDestroy(x));

  // the graph's own nodes change
  v = 20;
  p = params(cudaGraphNodeTypeKernel);
  p.kernel = kernel_params<decltype(p.kernel)>((void *)add, args, n / 64, 64);
  CK(cudaGraphNodeSetParams(kn, &p));
  p = params(cudaGraphNodeTypeHost);
  p.host.fn = host_fn;
  p.host.userData = &ten;
  CK(cudaGraphNodeSetParams(hn, &p));
  p = params(cudaGraphNodeTypeMemAlloc);
  p.alloc = alloc_params<decltype(p.alloc)>(n * sizeof(int));
  printf("graph_memory: set on an allocation node: %s\n", name(cudaGraphNodeSetParams(an, &p)));
  p = params(cudaGraphNodeTypeEmpty);
  printf("graph_memory: set of another type: %s\n", name(cudaGraphNodeSetParams(kn, &p)));
  p = params(cudaGraphNodeTypeEmpty);
  printf("graph_memory: set on an empty node: %s\n", name(cudaGraphNodeSetParams(en, &p)));

  memset(&ip, 0, sizeof ip);
  ip.flags = cudaGraphInstantiateFlagUpload | cudaGraphInstantiateFlagAutoFreeOnLaunch;
  ip.uploadStream = s;
  CK(cudaGraphInstantiateWithParams(&x, g, &ip));
  CK(cudaGraphExecGetFlags(x, &flags));
  printf("graph_memory: instantiate with upload and auto-free: result %d, flags %llu\n", (int)ip.result_out, flags);
  memset(h, 0, 8 * sizeof(int));
  CK(cudaGraphLaunch(x, s));
  CK(cudaStreamSynchronize(s));
  printf("graph_memory: graph's nodes set: %d %d %d %d %d %d %d %d, host calls %d\n", h[0], h[1], h[2], h[3], h[4], h[5],
         h[6], h[7], host_calls);
  memset(&ip, 0, sizeof ip);
  cudaGraphExec_t x2;
  printf("graph_memory: a second executable with params: %s, result %d\n", name(cudaGraphInstantiateWithParams(&x2, g, &ip)),
         (int)ip.result_out);
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(child));
  CK(cudaEventDestroy(ev));
  CK(cudaDeviceGraphMemTrim(0));
  footprint("end");
}

// ---- 6. conditional nodes ----
// a conditional node of g after dep (if any); its bodies in body[]
static cudaGraphNode_t cond_node(cudaGraph_t g, cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                                 unsigned size, const cudaGraphNode_t *dep, cudaGraph_t *body) {
  cudaGraphNodeParams p = params(cudaGraphNodeTypeConditional);
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t n;
  CK(cudaGraphAddNode(&n, g, dep, nullptr, dep ? 1 : 0, &p));
  for (unsigned i = 0; i < size; i++) body[i] = p.conditional.phGraph_out[i];
  return n;
}

// a kernel node of g adding v to d[0..3], after dep (if any)
static cudaGraphNode_t add_node(cudaGraph_t g, int *d, int v, const cudaGraphNode_t *dep) {
  int n = 4;
  void *args[] = { &d, &n, &v };
  cudaKernelNodeParams kp = kernel_params((void *)add, args, 1, 4);
  cudaGraphNode_t k;
  CK(cudaGraphAddKernelNode(&k, g, dep, dep ? 1 : 0, &kp));
  return k;
}

static int launch_read(cudaGraphExec_t x, cudaStream_t s, int *d, int *h) {
  CK(cudaGraphLaunch(x, s));
  CK(cudaMemcpyAsync(h, d, sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  return *h;
}

static void conditionals(cudaStream_t s, int *h) {
  int *d, *counter;
  CK(cudaMalloc(&d, 4 * sizeof(int)));
  CK(cudaMalloc(&counter, sizeof(int)));
  cudaGraph_t g, body[3], c;
  cudaGraphExec_t x, x2;
  cudaGraphConditionalHandle hd;

  // if, its condition 1 at the start of each launch
  CK(cudaMemsetAsync(d, 0, 4 * sizeof(int), s));
  CK(cudaGraphCreate(&g, 0));
  CK(cudaGraphConditionalHandleCreate(&hd, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNode_t cn = cond_node(g, hd, cudaGraphCondTypeIf, 1, nullptr, body);
  add_node(body[0], d, 1, nullptr);
  cudaGraphNodeType t;
  CK(cudaGraphNodeGetType(cn, &t));
  CK(cudaGraphInstantiate(&x, g, 0));
  int i1 = launch_read(x, s, d, h);
  int i2 = launch_read(x, s, d, h);
  printf("graph_memory: if node (type %d), condition 1 by default: %d, again: %d\n", (int)t, i1, i2);
  printf("graph_memory: clone a graph with a conditional node: %s\n", name(cudaGraphClone(&c, g)));
  printf("graph_memory: a second executable of it: %s\n", name(cudaGraphInstantiate(&x2, g, 0)));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // if/else: a kernel before it sets the condition
  CK(cudaMemsetAsync(d, 0, 4 * sizeof(int), s));
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle hc;
  CK(cudaGraphConditionalHandleCreate(&hc, g, 0, 0));
  unsigned zero = 0, one = 1;
  void *sargs[] = { &hc, &zero };
  cudaKernelNodeParams sp = kernel_params((void *)set_cond, sargs, 1, 1);
  cudaGraphNode_t sn;
  CK(cudaGraphAddKernelNode(&sn, g, nullptr, 0, &sp));
  cond_node(g, hc, cudaGraphCondTypeIf, 2, &sn, body);
  add_node(body[0], d, 1, nullptr);
  add_node(body[1], d, 2, nullptr);
  CK(cudaGraphInstantiate(&x, g, 0));
  int v0 = launch_read(x, s, d, h);
  sargs[1] = &one;
  CK(cudaGraphExecKernelNodeSetParams(x, sn, &sp));
  printf("graph_memory: if/else node, condition 0: %d, then 1: %d\n", v0, launch_read(x, s, d, h));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // while: its body counts down and says whether to go on
  CK(cudaMemsetAsync(d, 0, 4 * sizeof(int), s));
  int five = 5, three = 3;
  CK(cudaMemcpyAsync(counter, &five, sizeof(int), cudaMemcpyHostToDevice, s));
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle hw;
  CK(cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
  cond_node(g, hw, cudaGraphCondTypeWhile, 1, nullptr, body);
  cudaGraphNode_t k = add_node(body[0], d, 1, nullptr);
  void *cargs[] = { &hw, &counter };
  cudaKernelNodeParams cp = kernel_params((void *)count_down, cargs, 1, 1);
  CK(cudaGraphAddKernelNode(&sn, body[0], &k, 1, &cp));
  CK(cudaGraphInstantiate(&x, g, 0));
  int w1 = launch_read(x, s, d, h);
  CK(cudaMemcpyAsync(counter, &three, sizeof(int), cudaMemcpyHostToDevice, s));
  int w2 = launch_read(x, s, d, h);
  CK(cudaMemcpyAsync(h + 1, counter, sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  printf("graph_memory: while node from 5: %d, then from 3: %d, counter %d\n", w1, w2, h[1]);
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // switch: body 2 by default; a value past the bodies runs none
  CK(cudaMemsetAsync(d, 0, 4 * sizeof(int), s));
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle hs;
  CK(cudaGraphConditionalHandleCreate(&hs, g, 2, cudaGraphCondAssignDefault));
  cond_node(g, hs, cudaGraphCondTypeSwitch, 3, nullptr, body);
  for (int i = 0; i < 3; i++) add_node(body[i], d, 10 * (i + 1), nullptr);
  CK(cudaGraphInstantiate(&x, g, 0));
  int s1 = launch_read(x, s, d, h);
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphCreate(&g, 0));
  CK(cudaGraphConditionalHandleCreate(&hs, g, 0, 0));
  unsigned seven = 7;
  void *vargs[] = { &hs, &seven };
  sp = kernel_params((void *)set_cond, vargs, 1, 1);
  CK(cudaGraphAddKernelNode(&sn, g, nullptr, 0, &sp));
  cond_node(g, hs, cudaGraphCondTypeSwitch, 3, &sn, body);
  for (int i = 0; i < 3; i++) add_node(body[i], d, 100 * (i + 1), nullptr);
  CK(cudaGraphInstantiate(&x, g, 0));
  printf("graph_memory: switch node, condition 2: %d, then 7: %d\n", s1, launch_read(x, s, d, h));
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // what is refused
  CK(cudaGraphCreate(&g, 0));
  CK(cudaGraphCreate(&c, 0));
  cudaGraphConditionalHandle ho;
  printf("graph_memory: a handle with flags 2: %s\n", name(cudaGraphConditionalHandleCreate(&hd, g, 0, 2)));
  CK(cudaGraphConditionalHandleCreate(&hd, g, 0, 0));
  CK(cudaGraphConditionalHandleCreate(&ho, c, 0, 0));
  cudaGraphNodeParams p = params(cudaGraphNodeTypeConditional);
  p.conditional.handle = hd;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 3;
  printf("graph_memory: an if node with 3 bodies: %s\n", name(cudaGraphAddNode(&cn, g, nullptr, nullptr, 0, &p)));
  p.conditional.type = cudaGraphCondTypeWhile;
  p.conditional.size = 2;
  printf("graph_memory: a while node with 2 bodies: %s\n", name(cudaGraphAddNode(&cn, g, nullptr, nullptr, 0, &p)));
  p.conditional.handle = ho;
  p.conditional.size = 1;
  printf("graph_memory: a node with another graph's handle: %s\n", name(cudaGraphAddNode(&cn, g, nullptr, nullptr, 0, &p)));
  add_node(g, d, 1, nullptr);
  printf("graph_memory: instantiate with a handle no node uses: %s\n", name(cudaGraphInstantiate(&x, g, 0)));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(c));
  CK(cudaFree(d));
  CK(cudaFree(counter));
}

int main() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *h;
  CK(cudaMallocHost(&h, 256 * sizeof(int)));
  allocate_and_free(s, h);
  unfreed(s, h);
  address_reuse(s);
  capture(s, h);
  generic_nodes(s, h);
  conditionals(s, h);
  CK(cudaFreeHost(h));
  CK(cudaStreamDestroy(s));
  return 0;
}
