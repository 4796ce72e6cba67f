/* cudart/rt_abi12.c - the Runtime API calls whose signature CUDA 13 changed,
 * with CUDA 12's: linked into libcudart.so.12 only, over the CUDA 13
 * definitions (RT_ABI13) the other files give.  CUDA 12.3-12.9 programs
 * that want edge data call NAME_v2, which both libraries define. */
#include "cudart/rt.h"

cudaError_t cudaGraphAddDependencies_v2(CUgraph, const CUgraphNode *, const CUgraphNode *, const void *, size_t);
cudaError_t cudaGraphGetEdges_v2(CUgraph, CUgraphNode *, CUgraphNode *, void *, size_t *);
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode, CUgraphNode *, void *, size_t *);
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode, CUgraphNode *, void *, size_t *);

RT_EXPORT cudaError_t cudaGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
  return cudaGraphAddDependencies_v2(g, from, to, NULL, n);
}
RT_EXPORT cudaError_t cudaGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n) {
  return cudaGraphGetEdges_v2(g, from, to, NULL, n);
}
RT_EXPORT cudaError_t cudaGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *deps, size_t *n) {
  return rt_from(cuGraphNodeGetDependencies_v2(node, deps, NULL, n));
}
RT_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *out, size_t *n) {
  return rt_from(cuGraphNodeGetDependentNodes_v2(node, out, NULL, n));
}
