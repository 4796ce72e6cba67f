/* cudart/drv_graph.h - what the parts of the graph API share (private to
 * drv_graph.c, drv_graph_capture.c, drv_graph_nodes.c, drv_graph_exec.c):
 * the graph, node and executable structures and the helpers more than one
 * part calls.  The invariants are drv_graph.c's. */
#ifndef CUDART_DRV_GRAPH_H
#define CUDART_DRV_GRAPH_H
#include "cudart/drv.h"


typedef struct uref { struct CUuserObject_st *o; unsigned count; } uref;
typedef struct urefs { uref *v; size_t n; } urefs;   /* the references a graph or an executable holds */


enum { ATTRS = 17 };                 /* CUlaunchAttributeID values a node may keep: 0 .. 16 */

struct CUgraphNode_st {
  drv_op op;
  struct CUgraph_st *graph;
  struct CUgraphNode_st **deps;
  size_t ndeps;
  size_t index;
  union {                            /* the parameters as they were set */
    CUDA_MEMSET_NODE_PARAMS memset;  /* OP_MEMSET */
    CUDA_MEMCPY3D copy;              /* OP_MEMCPY */
    CUDA_MEM_ALLOC_NODE_PARAMS alloc;/* OP_MEM_ALLOC (accessDescs: the node's copy) */
  } set;
  int copy_kind;                     /* OP_MEMCPY: the runtime's cudaMemcpyKind */
  /* OP_KERNEL */
  void **argv;                       /* kernelParams handed out: into op.params */
  void *extra[5];                    /* extra handed out, when it was set so */
  size_t extra_size;
  bool via_extra;
  CUlaunchAttributeValue *attrs;     /* [ATTRS], NULL until one is set */
  uint32_t base_cluster[3];          /* the launch's own shape, before attributes */
  bool base_cooperative;
};

/* A conditional handle: the address of its condition word (device memory
 * that cudaGraphSetConditional writes), the value a launch may start with. */
typedef struct cond { uint64_t addr; unsigned dflt; bool assign; } cond;

struct CUgraph_st {
  struct CUgraphNode_st **nodes;
  size_t n, cap;
  urefs refs;
  struct CUgraphExec_st *mem_exec;  /* with memory or conditional nodes: its one executable */
  cond *conds;                      /* the conditional handles made for it */
  size_t nconds;
};

struct CUgraphExec_st {
  drv_op *ops;
  struct CUgraphNode_st **nodes; /* the node each op was made from */
  uint8_t *off;                  /* disabled (cuGraphNodeSetEnabled) */
  size_t n;
  unsigned long long flags;
  urefs refs;
  struct CUstream_st *last;      /* its latest launch: done when last reaches last_seq */
  uint64_t last_seq;
  uint64_t footprint;            /* the graph allocator's memory a launch takes  */
  struct CUgraph_st *mem_graph;  /* the graph with memory nodes it was made from */
  cond *conds;                   /* handles whose value each launch sets first   */
  size_t nconds;
};

/* CUgraphNodeType */
enum { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_GRAPH, NODE_EMPTY, NODE_WAIT_EVENT, NODE_EVENT_RECORD,
       NODE_SEM_SIGNAL, NODE_SEM_WAIT, NODE_MEM_ALLOC, NODE_MEM_FREE, NODE_MEM_OP, NODE_CONDITIONAL };

enum { INSTANTIATE_AUTO_FREE = 1, INSTANTIATE_UPLOAD = 2, INSTANTIATE_DEVICE_LAUNCH = 4, INSTANTIATE_USE_NODE_PRIORITY = 8 };

/* the next capture's id (cuStreamGetCaptureInfo) */
extern uint64_t graph_next_capture_id;

/* drv_graph.c: user objects' references, graphs, nodes and their copies, explicit graphs' nodes, node types */
void graph_run_dying(void);
CUresult graph_refs_copy(urefs *to, const urefs *from);
void graph_refs_release(urefs *r);
void graph_free_graph(struct CUgraph_st *g);
struct CUgraph_st *graph_clone_graph(const struct CUgraph_st *g);
struct CUgraphNode_st *graph_add_node(struct CUgraph_st *g, const drv_op *op, struct CUgraphNode_st *const *deps,
                                       size_t ndeps);
void graph_free_bodies(drv_op *op);
CUresult graph_clone_bodies(drv_op *op);
void *graph_dup_bytes(const void *p, size_t n);
CUresult graph_add(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, const drv_op *op);
CUresult graph_add_locked(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, const drv_op *op);
struct CUgraphNode_st *graph_of_kind(CUgraphNode n, enum drv_op_kind k);
int graph_node_type(const struct CUgraphNode_st *n);

/* drv_graph_capture.c: the dependencies of a capturing stream's next node */
CUresult graph_set_deps(struct CUstream_st *s, struct CUgraphNode_st *const *nodes, size_t n);
CUresult graph_record(struct CUstream_st *s, const drv_op *op, struct CUgraphNode_st **out);
bool graph_before_any(const struct CUgraph_st *g, const struct CUgraphNode_st *a, struct CUgraphNode_st *const *deps,
                       size_t n);

/* drv_graph_nodes.c: what nodes' parameters make and hold, cuGraphAddNode's checks */
bool graph_has_cond(const struct CUgraph_st *g);
bool graph_has_memory_nodes(const struct CUgraph_st *g);
CUresult graph_kernel_op_of(const struct CUgraphNode_st *n, const CUDA_KERNEL_NODE_PARAMS *p, drv_op *op,
                             uint32_t base[3]);
CUresult graph_memset_op(const CUDA_MEMSET_NODE_PARAMS *p, drv_op *op);
CUresult graph_copy_op(const CUDA_MEMCPY3D *p, drv_op *op);
CUresult graph_check_params(const CUgraphNodeParams *p);
CUresult graph_unsupported_type(int type);

/* drv_graph_exec.c: conditional nodes, an executable's copy of a node's operation */
CUresult graph_exec_copy_set(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p);
CUresult graph_add_cond(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUDA_CONDITIONAL_NODE_PARAMS *p);
drv_op *graph_exec_op(struct CUgraphExec_st *x, const struct CUgraphNode_st *n, enum drv_op_kind k);

#endif
