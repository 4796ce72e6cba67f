// Capture into a graph the program made (cudaStreamBeginCaptureToGraph)
// after one of its nodes, and a capture's dependencies changed by hand
// (cudaStreamUpdateCaptureDependencies, set and add): the order the
// resulting graph runs its kernels in is read back from their effects.
#include "common.h"

__global__ void step(int *v, int k) { *v = *v * 10 + k; }

static const char *type_name(cudaGraphNodeType t) {
  switch (t) {
  case cudaGraphNodeTypeKernel: return "kernel";
  case cudaGraphNodeTypeEmpty: return "empty";
  default: return "other";
  }
}

int main() {
  int *v;
  CK(cudaMallocManaged(&v, sizeof *v));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  // a node made by hand: v = v * 10 + 1
  cudaKernelNodeParams p = {};
  int *arg0 = v, k1 = 1;
  void *args[] = {&arg0, &k1};
  p.func = (void *)step;
  p.gridDim = dim3(1);
  p.blockDim = dim3(1);
  p.kernelParams = args;
  cudaGraphNode_t first;
  CK(cudaGraphAddKernelNode(&first, g, nullptr, 0, &p));
  // captured after it: 2, then (dependencies set to the first node) 3, then 4 after both 2's and 3's branch
  CK(cudaStreamBeginCaptureToGraph(s, g, &first, nullptr, 1, cudaStreamCaptureModeGlobal));
  step<<<1, 1, 0, s>>>(v, 2);
  cudaStreamCaptureStatus st;
  const cudaGraphNode_t *deps;
  size_t nd;
  CK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr, &nd));
  cudaGraphNode_t two = nd == 1 ? deps[0] : nullptr;
  printf("capturing into the graph: status %d, %zu dependency\n", (int)st, nd);
  CK(cudaStreamUpdateCaptureDependencies(s, &first, nullptr, 1, cudaStreamSetCaptureDependencies));
  step<<<1, 1, 0, s>>>(v, 3);
  CK(cudaStreamUpdateCaptureDependencies(s, &two, nullptr, 1, cudaStreamAddCaptureDependencies));
  CK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr, &nd));
  printf("after set and add: %zu dependencies\n", nd);
  step<<<1, 1, 0, s>>>(v, 4);
  CK(cudaStreamEndCapture(s, nullptr));   // the graph is the program's already
  cudaError_t e = cudaStreamUpdateCaptureDependencies(s, &first, nullptr, 1, cudaStreamSetCaptureDependencies);
  printf("updating a stream not capturing: %s\n", cudaGetErrorName(e));
  size_t n = 0;
  CK(cudaGraphGetNodes(g, nullptr, &n));
  printf("nodes: %zu\n", n);
  cudaGraphNode_t nodes[8];
  CK(cudaGraphGetNodes(g, nodes, &n));
  for (size_t i = 0; i < n; i++) {
    cudaGraphNodeType t;
    size_t ndeps = 0;
    CK(cudaGraphNodeGetType(nodes[i], &t));
    CK(cudaGraphNodeGetDependencies(nodes[i], nullptr, nullptr, &ndeps));
    printf("  %s with %zu dependencies\n", type_name(t), ndeps);
  }
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  *v = 0;
  CK(cudaGraphLaunch(x, s));
  CK(cudaStreamSynchronize(s));
  // 1 first; 2 and 3 both after it, in either order; 4 last
  printf("value %s (1, then 2 and 3 in some order, then 4)\n", *v == 1234 || *v == 1324 ? "ok" : "wrong");
  return 0;
}
