// graphs: a graph made by stream capture (memcpy, memset, kernels, memcpy
// back), instantiated once and launched twice with new input in between;
// and a graph built explicitly with cudaGraphAddKernelNode (two dependent
// kernels), whose instance gets new kernel parameters.
#include "common.h"

__global__ void affine(int *v, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * mul + add;
}
__global__ void add_vec(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

int main() {
  const int n = 1500, bytes = n * sizeof(int), blocks = (n + 255) / 256;
  int *hin, *hout, *d, *z;
  CK(cudaMallocHost(&hin, bytes));
  CK(cudaMallocHost(&hout, bytes));
  CK(cudaMalloc(&d, bytes));
  CK(cudaMalloc(&z, bytes));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // 1. capture: hin -> d, z = 0x01010101 bytes, d = d*2+3, d += z, d -> hout
  cudaGraph_t g;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaMemcpyAsync(d, hin, bytes, cudaMemcpyHostToDevice, s));
  CK(cudaMemsetAsync(z, 1, bytes, s));
  affine<<<blocks, 256, 0, s>>>(d, n, 2, 3);
  add_vec<<<blocks, 256, 0, s>>>(d, z, n);
  CK(cudaMemcpyAsync(hout, d, bytes, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamEndCapture(s, &g));
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  printf("graphs: captured graph has %zu nodes\n", nodes);
  expect(nodes == 5, "five captured nodes");
  cudaGraphExec_t ge;
  CK(cudaGraphInstantiate(&ge, g, 0));
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < n; i++) { hin[i] = i + 1000 * round; hout[i] = -1; }
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hout[i] != (i + 1000 * round) * 2 + 3 + 0x01010101;
    expect(bad == 0, "captured graph results");
    printf("graphs: captured graph launch %d: %s\n", round + 1, bad ? "wrong" : "ok");
  }

  // 2. explicit graph: affine(d, *5, +1) -> add_vec(d, z); then d*5+1 -> d*7+2
  cudaGraph_t eg;
  CK(cudaGraphCreate(&eg, 0));
  int nn = n, mul = 5, add = 1;
  void *a_args[] = {&d, &nn, &mul, &add};
  void *v_args[] = {&d, &z, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)affine;
  kp.gridDim = dim3(blocks);
  kp.blockDim = dim3(256);
  kp.kernelParams = a_args;
  cudaGraphNode_t na, nv;
  CK(cudaGraphAddKernelNode(&na, eg, nullptr, 0, &kp));
  cudaKernelNodeParams kv = kp;
  kv.func = (void *)add_vec;
  kv.kernelParams = v_args;
  CK(cudaGraphAddKernelNode(&nv, eg, &na, 1, &kv));
  cudaGraphExec_t ege;
  CK(cudaGraphInstantiate(&ege, eg, 0));
  for (int i = 0; i < n; i++) hin[i] = i;
  CK(cudaMemcpy(d, hin, bytes, cudaMemcpyHostToDevice));
  CK(cudaGraphLaunch(ege, s));
  mul = 7; add = 2;  // parameters are copied at set-params time, not at launch
  CK(cudaGraphExecKernelNodeSetParams(ege, na, &kp));
  CK(cudaGraphLaunch(ege, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(hout, d, bytes, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int v = (i * 5 + 1) + 0x01010101;
    bad += hout[i] != (v * 7 + 2) + 0x01010101;
  }
  expect(bad == 0, "explicit graph, launched twice with updated parameters");
  printf("graphs: explicit graph with 2 kernel nodes, updated and relaunched: %s\n", bad ? "wrong" : "ok");

  CK(cudaGraphExecDestroy(ge)); CK(cudaGraphExecDestroy(ege));
  CK(cudaGraphDestroy(g)); CK(cudaGraphDestroy(eg));
  CK(cudaStreamDestroy(s));
  cudaFreeHost(hin); cudaFreeHost(hout); cudaFree(d); cudaFree(z);
  if (failures) return 1;
  printf("graphs: ok\n");
  return 0;
}
