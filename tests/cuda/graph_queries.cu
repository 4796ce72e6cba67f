// graph_queries: an explicit graph a -> b -> c (and a -> d) built with
// CUDA 13's cudaGraphAddDependencies (edge data), read back through the
// node and edge getters, cloned, a node destroyed, printed in DOT, uploaded
// and launched; every kernel appends its digit to one number, so the
// order the graph ran in is the number.  (An H200 printed this output.)
#include <cstring>
#include <unistd.h>
#include "common.h"

__global__ void append(int *p, int v) { *p = *p * 10 + v; }

static cudaGraphNode_t kernel_node(cudaGraph_t g, int **d, int *v) {
  cudaGraphNode_t n;
  void *args[] = { d, v };
  cudaKernelNodeParams p = {};
  p.func = (void *)append;
  p.gridDim = dim3(1);
  p.blockDim = dim3(1);
  p.kernelParams = args;
  CK(cudaGraphAddKernelNode(&n, g, nullptr, 0, &p));
  return n;
}

int main() {
  int *d;
  CK(cudaMalloc(&d, sizeof(int)));
  CK(cudaMemset(d, 0, sizeof(int)));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  static int v[4] = { 1, 2, 3, 4 };
  cudaGraphNode_t c = kernel_node(g, &d, &v[2]), b = kernel_node(g, &d, &v[1]), a = kernel_node(g, &d, &v[0]);
  cudaGraphNode_t from[] = { a, b }, to[] = { b, c };
  CK(cudaGraphAddDependencies(g, from, to, nullptr, 2));
  cudaGraphNode_t dd = kernel_node(g, &d, &v[3]);
  CK(cudaGraphAddDependencies(g, &a, &dd, nullptr, 1));

  size_t nroots = 0, nedges = 0, ndeps = 0, nafter = 0;
  CK(cudaGraphGetRootNodes(g, nullptr, &nroots));
  cudaGraphNode_t root;
  size_t one = 1;
  CK(cudaGraphGetRootNodes(g, &root, &one));
  CK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &nedges));
  cudaGraphNode_t ef[8], et[8];
  cudaGraphEdgeData ed[8];
  size_t ne = 8;
  memset(ed, 0xff, sizeof ed);
  CK(cudaGraphGetEdges(g, ef, et, ed, &ne));
  int edge_ok = ne == 3, zero_data = 1;
  for (size_t i = 0; i < ne; i++) {
    edge_ok &= (ef[i] == a && (et[i] == b || et[i] == dd)) || (ef[i] == b && et[i] == c);
    zero_data &= ed[i].type == 0 && ed[i].from_port == 0 && ed[i].to_port == 0;
  }
  CK(cudaGraphNodeGetDependencies(c, nullptr, nullptr, &ndeps));
  CK(cudaGraphNodeGetDependentNodes(a, nullptr, nullptr, &nafter));
  cudaGraphNodeType type;
  CK(cudaGraphNodeGetType(a, &type));
  printf("graph_queries: %zu root (a: %s), %zu edges (%s, edge data %s), c after %zu, %zu after a, a is type %d\n", nroots,
         root == a ? "yes" : "no", nedges, edge_ok ? "as added" : "WRONG", zero_data ? "default" : "WRONG", ndeps, nafter,
         (int)type);

  cudaGraph_t g2;
  CK(cudaGraphClone(&g2, g));
  size_t n2 = 0;
  CK(cudaGraphGetNodes(g2, nullptr, &n2));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g2, 0));
  CK(cudaGraphUpload(x, 0));
  CK(cudaGraphLaunch(x, 0));
  CK(cudaDeviceSynchronize());
  int h;
  CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  // a first, b before c; d anywhere after a
  printf("graph_queries: the clone has %zu nodes and ran in order: %s\n", n2,
         h == 1234 || h == 1243 || h == 1423 ? "yes" : "NO");

  CK(cudaGraphDestroyNode(b));                     // c loses its dependency
  size_t n1 = 0, nr1 = 0;
  CK(cudaGraphGetNodes(g, nullptr, &n1));
  CK(cudaGraphGetRootNodes(g, nullptr, &nr1));
  char path[] = "/tmp/graph_queries_XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  CK(cudaGraphDebugDotPrint(g, path, 0));
  FILE *f = fopen(path, "r");
  char line[256];
  int digraph = 0;
  while (f && fgets(line, sizeof line, f)) digraph |= strstr(line, "digraph") != nullptr;
  if (f) fclose(f);
  remove(path);
  printf("graph_queries: after destroying b, %zu nodes and %zu roots; DOT file %s\n", n1, nr1, digraph ? "written" : "MISSING");
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g2));
  CK(cudaGraphDestroy(g));
  return 0;
}
