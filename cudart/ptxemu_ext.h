/* cudart/ptxemu_ext.h - what libcuda.so.1 exports for its runtime library
 * beside the Driver API: one description of a texture or surface resource
 * and of its sampling, which the driver's and the runtime's descriptors are
 * both translated into (drv_texture.c, rt_texture.c); graph copy nodes that
 * keep the runtime's cudaMemcpyKind (drv_graph_nodes.c, rt_graph.c). */
#ifndef CUDART_PTXEMU_EXT_H
#define CUDART_PTXEMU_EXT_H
#include <stdint.h>
#include "cudart/cuda_abi.h"

/* kind 0: an array; 2: linear memory; 3: pitched 2-D memory */
typedef struct ptxemu_resource {
  int kind;
  CUarray array;
  uint64_t dptr, bytes, width, height, pitch;
  int format;                    /* CUarray_format of linear / pitch 2D */
  unsigned channels;
} ptxemu_resource;
typedef struct ptxemu_sampling {
  int addr[3], filter, read_normalized, srgb, normalized_coords;
  float border[4];
} ptxemu_sampling;

CUresult ptxemu_object_create(uint64_t *handle, const ptxemu_resource *res, const ptxemu_sampling *s, int surface);
CUresult ptxemu_array_info(CUarray a, uint64_t *dptr, uint64_t *pitch, uint64_t *rows, uint64_t *slices);

/* A copy node, its parameters and (x not NULL) an executable's copy of
 * them, with the runtime's kind beside (what its getter gives back). */
CUresult ptxemu_graph_copy_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                const CUDA_MEMCPY3D *p, int kind);
CUresult ptxemu_graph_copy_get(CUgraphNode n, CUDA_MEMCPY3D *p, int *kind);
CUresult ptxemu_graph_copy_set(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p, int kind);
#endif
