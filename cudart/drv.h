/* cudart/drv.h - the state behind libcuda.so.1, ptxemu's CUDA driver:
 * one emulated device per process, shared by every context, module and
 * stream, and by the runtime library built on top of it.
 *
 * Invariants:
 * - Every entry point takes drv_lock() before touching this state (the
 *   lock is recursive: host callbacks may call back in) and the library
 *   is thread-safe because of it.
 * - Work is executed when it is submitted if what it depends on is done
 *   (the stream's previous work; for the legacy default stream, the work
 *   of every blocking stream, and the other way round; events waited on),
 *   else it waits in submission order and runs as soon as it can
 *   (drv_drain).  Host functions run on threads of their own, so one that
 *   blocks holds up its stream and what depends on it, nothing else.  This
 *   is a schedule CUDA allows, deterministic whenever no host function
 *   blocks.  A stream that is being captured records its work into a graph
 *   instead (drv_submit).
 * - A kernel fault makes the context's error sticky: the launch call
 *   itself succeeds, and every later call that synchronises returns the
 *   error, as the CUDA driver does.  The fault report goes to stderr when
 *   the fault happens.
 * - Device printf output is kept until a synchronising call (or the end
 *   of the process), as CUDA flushes it.
 * - Device memory lives in the emulator's checked address space; host
 *   memory that kernels may reach (pinned, mapped, registered, managed)
 *   is mapped into it at its own address, so host and device see the same
 *   bytes at the same pointer, and nothing else of the host is reachable. */
#ifndef CUDART_DRV_H
#define CUDART_DRV_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cudart/cuda_abi.h"
#include "emu/emu.h"
#include "gpu/config.h"

#define DRV_EXPORT __attribute__((visibility("default")))

struct CUctx_st { unsigned flags; int refs; bool primary; };

struct CUmod_st {
  isa_module *m;
  int idx;                       /* the emulator's module index                  */
  struct CUfunc_st *funcs;       /* one per function of m (entries usable)       */
  struct CUmod_st *next;
};

struct CUfunc_st {
  struct CUmod_st *mod;
  int func;                      /* index in mod->m                              */
  uint32_t max_dyn_shared;       /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
  int carveout;
  uint32_t cluster[3];           /* required cluster shape set by attribute       */
  bool nonportable_cluster;
};

struct CUstream_st {
  unsigned flags;                /* CU_STREAM_NON_BLOCKING (1): no legacy ordering */
  unsigned event_refs;           /* events whose last record it holds: a destroyed
                                  * stream is freed when the last goes           */
  bool destroyed;
  int priority;
  uint64_t submitted, completed; /* work items: completed ones are a prefix     */
  uint64_t legacy_seen;          /* blocking streams: legacy work ordered before ours */
  struct CUstream_st *next_live; /* every stream, for the legacy ordering       */
  struct CUgraph_st *capture;    /* non-NULL while the stream is captured        */
  int capture_mode;
  uint64_t capture_id;
  bool capture_joined;           /* it joined another stream's capture (an event) */
  bool capture_into;             /* it captures into the program's graph (cuStreamBeginCaptureToGraph) */
  struct CUgraphNode_st **cap_deps; /* what its next captured node depends on   */
  size_t cap_ndeps;
  uint64_t id;                   /* cuStreamGetId: unique while the process lives */
};

struct CUevent_st {
  unsigned flags;
  bool recorded;                 /* its record ran                               */
  struct CUstream_st *stream;    /* the last record: done when stream->completed */
  uint64_t seq;                  /*   reaches seq                                */
  double t_ms;                   /* the device clock when it was recorded        */
  /* recorded in a capturing stream: the capture and that stream's
   * dependencies then, which a stream waiting for it depends on */
  struct CUgraph_st *cap_graph;
  uint64_t cap_id;
  struct CUgraphNode_st **cap_deps;
  size_t cap_ndeps;
};

/* A unit of stream work (what a graph node holds). */
enum drv_op_kind { OP_KERNEL, OP_MEMCPY, OP_MEMSET, OP_HOST, OP_EVENT_RECORD, OP_EMPTY, OP_GRAPH, OP_WAIT_EVENT,
                   OP_MEM_ALLOC, OP_MEM_FREE, OP_COND };
typedef struct drv_op {
  enum drv_op_kind kind;
  /* OP_KERNEL */
  struct CUfunc_st *f;
  uint32_t grid[3], block[3], cluster[3], shared;
  uint8_t *params;
  uint32_t param_size;
  bool cooperative;
  /* OP_MEMCPY / OP_MEMSET: 2-D regions (height 1 for plain copies); a
   * copy has depth slices (0 means 1) dslice and sslice bytes apart */
  uint64_t dst, src;             /* addresses as the program sees them           */
  uint64_t dpitch, spitch, width, height;
  uint64_t depth, dslice, sslice;
  uint32_t value, elem;          /* memset: value of elem bytes                  */
  /* OP_HOST */
  CUhostFn fn;
  void *user;
  /* OP_EVENT_RECORD; OP_WAIT_EVENT of a graph node (its record, found at
   * launch, gives wait_stream and wait_seq) */
  struct CUevent_st *event;
  /* OP_WAIT_EVENT: done once wait_stream->completed reaches wait_seq */
  struct CUstream_st *wait_stream;
  uint64_t wait_seq;
  /* OP_MEMCPY from pageable host memory while it had to wait: a copy */
  uint8_t *staged;
  /* OP_GRAPH (a child graph node: its own copy of the graph, expanded when
   * the graph is launched); OP_MEM_ALLOC / OP_MEM_FREE (graph memory nodes)
   * map and unmap the graph allocation at dst (drv_pool.c) */
  struct CUgraph_st *graph;
  /* OP_COND (a conditional node): its handle's condition word at dst, its
   * CUgraphConditionalNodeType in value, its bodies (drv_graph_run_cond) */
  struct CUgraph_st **bodies;
  uint32_t nbodies;
} drv_op;

typedef struct drv_state {
  bool inited;
  emu *e;
  gpu_config cfg;                /* the modelled GPU (properties; timing if on)  */
  bool timing;
  struct CUctx_st primary;
  struct CUmod_st *modules;
  CUresult sticky;               /* a kernel fault: the context is unusable      */
  FILE *printf_stream;           /* device printf, until the next synchronisation */
  char *printf_buf;
  size_t printf_len;
  double clock_ms;               /* the device clock: modelled time in timing mode */
  int launches;
  bool quiet, verbose;
  struct CUstream_st legacy;     /* the NULL / legacy default stream             */
  struct CUstream_st per_thread; /* cudaStreamPerThread                          */
  struct CUstream_st *live;      /* every stream (legacy and per_thread first)   */
  struct pending *pending;       /* work waiting for what it depends on          */
  size_t npending, cappending;
  unsigned host_running;         /* host functions on their threads              */
  uint64_t next_stream_id;
} drv_state;

extern drv_state drv;
/* --sanitize (PTXEMU_SANITIZE): device allocations and host writes into
 * them, for initcheck; nothing when no sanitizer runs. */
void drv_san_alloc(uint64_t addr, uint64_t size);
void drv_san_host_write(uint64_t addr, uint64_t size);

void drv_lock(void);
void drv_unlock(void);
/* Initialise on first use (options from PTXEMU_* variables); returns the
 * init error, if any. */
CUresult drv_init(void);
/* lock + init: the prologue of every entry point; unlock on error. */
CUresult drv_enter(void);
/* Return r after unlocking (the epilogue of every entry point). */
static inline CUresult drv_leave(CUresult r) { drv_unlock(); return r; }
/* Flush device printf output: synchronisation points call it. */
void drv_flush_printf(void);
/* A synchronising call: printf flushed; the sticky error, if any. */
CUresult drv_sync(void);

/* Run (or, while the stream is captured, record) one unit of work; queue
 * it when what it depends on is not done. */
CUresult drv_submit(CUstream s, drv_op *op);
/* The stream object a handle names (NULL: the legacy default stream). */
struct CUstream_st *drv_stream(CUstream s);
/* Run queued work whose dependencies are done, until none is left that can. */
void drv_drain(void);
/* Wait (unlocking while waiting) until stream s (NULL: every stream) has
 * done everything submitted to it so far. */
void drv_wait_stream(struct CUstream_st *s);
/* Wait until stream s has done its work up to seq. */
void drv_wait_seq(struct CUstream_st *s, uint64_t seq);
/* Execute an operation now. */
CUresult drv_execute(drv_op *op);
/* Release what an operation owns (kernel parameters). */
void drv_op_release(drv_op *op);

/* A function handle's launch checks and parameter layout. */
CUresult drv_kernel_op(struct CUfunc_st *f, const uint32_t grid[3], const uint32_t block[3], uint32_t shared,
                       void **params, void **extra, drv_op *op);
/* Add the attributes of a launch (cluster shape, cooperative) to op. */
CUresult drv_launch_attrs(drv_op *op, const CUlaunchAttribute *attrs, unsigned n);

/* Graph memory (drv_pool.c).  A graph allocation keeps its address from
 * the node that makes it to the last reference to it; it is backed
 * (mapped) while allocated, and from when its node is made until its first
 * launch, so that the nodes and copies made after it can name it.  A
 * launch allocates it; a free node, cuMemFree or cuMemFreeAsync frees it.
 * The graph allocator's physical memory (cuDeviceGetGraphMemAttribute)
 * comes in blocks of whole chunks, one for each launch, which the launch's
 * allocations share and the next launch takes once they are all freed. */
enum { DRV_GMEM_CHUNK = 32 << 20 };  /* an H200 counts 32 MiB for 64 KiB to 32 MiB */
/* (the callers hold drv_lock(), but for drv_gmem_free_now's) */
typedef struct drv_gmem_block drv_gmem_block;
/* A new graph allocation of n bytes, mapped, with no references: its
 * address (0: no memory). */
uint64_t drv_gmem_new(uint64_t n);
/* The size of the graph allocation at addr (its start), 0 if none. */
uint64_t drv_gmem_size(uint64_t addr);
/* References from nodes and executables; after the last one, an
 * allocation that is not allocated is unmapped and forgotten. */
void drv_gmem_retain(uint64_t addr);
void drv_gmem_release(uint64_t addr);
/* Whether a launch allocated it and nothing freed it since. */
bool drv_gmem_live(uint64_t addr);
/* The physical memory a launch with allocations needs (footprint bytes):
 * a free block, or a new one. */
drv_gmem_block *drv_gmem_take(uint64_t footprint);
/* A launch allocates addr (in block b) / frees it: the host's view, in
 * the order of the calls; cuda's errors for a free of what is not live. */
void drv_gmem_allocated(uint64_t addr, drv_gmem_block *b);
CUresult drv_gmem_freed(uint64_t addr);
/* The launch is accounted: its block is free again if nothing in it lives. */
void drv_gmem_settle(drv_gmem_block *b);
/* Physical memory for a launch of that footprint, kept free (cuGraphUpload). */
void drv_gmem_upload(uint64_t footprint);
/* cuMemFree of a graph allocation: CUDA_ERROR_NOT_FOUND if addr is none. */
CUresult drv_gmem_free_now(uint64_t addr);
/* Run an OP_MEM_ALLOC or OP_MEM_FREE: map or unmap dst. */
CUresult drv_gmem_run(const drv_op *op);
/* Run a conditional node: its body, the one the condition picks, or (a
 * while node) its body for as long as the condition holds (drv_graph_exec.c). */
CUresult drv_graph_run_cond(const drv_op *op);
/* Stream capture of cuMemAllocAsync / cuMemFreeAsync (drv_graph_nodes.c). */
CUresult drv_graph_capture_alloc(struct CUstream_st *s, size_t bytes, CUdeviceptr *dptr);
CUresult drv_graph_capture_free(struct CUstream_st *s, CUdeviceptr dptr);
/* Stream capture across streams (drv_graph_capture.c): an event recorded in a
 * capturing stream; a stream that waits for one. */
CUresult drv_capture_record(struct CUevent_st *e, struct CUstream_st *s);
CUresult drv_capture_wait(struct CUstream_st *s, struct CUevent_st *e, bool *done);
/* A stream goes: it leaves its capture. */
void drv_capture_leave(struct CUstream_st *s);

/* Host address or device region: the host pointer behind a device
 * address range (NULL when it is not all inside one region). */
uint8_t *drv_device_ptr(uint64_t addr, uint64_t n);
/* The bytes at addr for n bytes, device or host memory (UVA); NULL when
 * addr is neither a device range nor readable host memory. */
uint8_t *drv_any_ptr(uint64_t addr, uint64_t n);
/* Event e's last record is on stream s (which holds e's reference from
 * then on; NULL: none, the reference goes; drv_stream.c). */
void drv_event_attach(struct CUevent_st *e, struct CUstream_st *s);
/* Where a copy's endpoint lies, for its modelled time: device memory
 * (managed memory too), pinned (page-locked or registered) host memory, or
 * ordinary pageable host memory. */
enum drv_place { DRV_DEVICE, DRV_PINNED, DRV_PAGEABLE };
enum drv_place drv_place_of(uint64_t addr);
/* Memory mapped by cuMemMap (drv_vmm.c): the mapping holding p that the
 * device may access (NULL: none); its range; whether [a, a+n) lies in a
 * read-only mapping; a pointer attribute of p inside mapping m. */
typedef struct vmm_map vmm_map;
const vmm_map *drv_vmm_accessible(uint64_t p);
void drv_vmm_range(const vmm_map *m, uint64_t *base, uint64_t *size);
bool drv_vmm_readonly(uint64_t a, uint64_t n);
CUresult drv_vmm_pointer_attribute(void *data, int attr, uint64_t p, const vmm_map *m);

/* Stream work */
CUresult drv_memcpy2d(uint64_t dst, uint64_t dpitch, uint64_t src, uint64_t spitch, uint64_t width, uint64_t height,
                      CUstream s, bool async);
CUresult drv_memset2d(uint64_t dst, uint64_t pitch, uint32_t value, uint32_t elem, uint64_t width, uint64_t height,
                      CUstream s, bool async);

/* Say that fn is not supported (once per function, on stderr). */
CUresult drv_unsupported(const char *fn);
/* The message of an error code, or NULL. */
const char *drv_error_string(int code);
const char *drv_error_name(int code, bool runtime);
/* Map an emulator fault to the CUDA error a real device reports. */
CUresult drv_fault_error(const emu *e);
/* A stream handle as the program passed it: NULL and the legacy and
 * per-thread handles all mean the default stream. */
static inline bool drv_is_default_stream(CUstream s) { return !s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD; }
/* A stream handle created by cuStreamCreate and not destroyed. */
bool drv_stream_valid(CUstream s);
/* The module of a loaded image (PTX text, fatbinary or fatbin wrapper). */
CUresult drv_module_load(const void *image, size_t max_bytes, CUmodule *out);
#endif
