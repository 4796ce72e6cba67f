/* cudart/drv_pool.c - memory pools (cuMemPool*, stream-ordered allocation)
 * and graph memory (the allocations of graph memory nodes, drv.h).
 * Work runs in order (drv_queue.c), so an allocation made at the call is
 * one its stream sees in order; a pool keeps its attributes and counts the
 * bytes allocated from it (UsedMemCurrent/High, as CUDA reports them).
 * Stream-ordered calls on a capturing stream make graph memory nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"
#include "util/vec.h"

struct CUmemPool_st {
  uint64_t threshold;            /* CU_MEMPOOL_ATTR_RELEASE_THRESHOLD            */
  int reuse[3];                  /* the three reuse policies (1 .. 3)             */
  uint64_t used, used_high;
  struct CUmemPool_st *next;
};

enum { POOL_REUSE_FOLLOW_EVENT = 1, POOL_REUSE_OPPORTUNISTIC = 2, POOL_REUSE_INTERNAL = 3, POOL_RELEASE_THRESHOLD = 4,
       POOL_RESERVED_CURRENT = 5, POOL_RESERVED_HIGH = 6, POOL_USED_CURRENT = 7, POOL_USED_HIGH = 8 };

static struct CUmemPool_st default_pool = { .reuse = { 1, 1, 1 } };
static struct CUmemPool_st *current_pool = &default_pool;
static struct CUmemPool_st *pools = &default_pool;
/* which pool each stream-ordered allocation came from */
typedef struct pool_alloc { uint64_t p, size; struct CUmemPool_st *pool; } pool_alloc;
static pool_alloc *pallocs;
static size_t npallocs, cappallocs;

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr dptr);

static bool valid(struct CUmemPool_st *p) {
  for (struct CUmemPool_st *q = pools; q; q = q->next) if (q == p) return true;
  return false;
}

DRV_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice d) {
  if (!pool) return CUDA_ERROR_INVALID_VALUE;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  *pool = &default_pool;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice d) {
  if (!pool) return CUDA_ERROR_INVALID_VALUE;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  *pool = current_pool;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuDeviceSetMemPool(CUdevice d, CUmemoryPool pool) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  drv_lock();
  CUresult r = valid(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r) current_pool = pool;
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuMemPoolCreate(CUmemoryPool *pool, const void *props) {
  if (!pool || !props) return CUDA_ERROR_INVALID_VALUE;
  struct CUmemPool_st *p = calloc(1, sizeof *p);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
  drv_lock();
  p->next = pools;
  pools = p;
  drv_unlock();
  *pool = p;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  drv_lock();
  CUresult r = CUDA_ERROR_INVALID_VALUE;
  if (pool != &default_pool)
    for (struct CUmemPool_st **q = &pools; *q; q = &(*q)->next)
      if (*q == pool) { *q = pool->next; r = CUDA_SUCCESS; break; }
  if (!r) {
    if (current_pool == pool) current_pool = &default_pool;
    for (size_t i = 0; i < npallocs; i++) if (pallocs[i].pool == pool) pallocs[i].pool = NULL;
    free(pool);
  }
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, int attr, void *value) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  CUresult r = valid(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r) switch (attr) {
  case POOL_REUSE_FOLLOW_EVENT: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL:
    pool->reuse[attr - 1] = *(int *)value != 0; break;
  case POOL_RELEASE_THRESHOLD: memcpy(&pool->threshold, value, 8); break;
  case POOL_RESERVED_HIGH: case POOL_USED_HIGH:   /* only resetting to 0 is allowed */
    { uint64_t v; memcpy(&v, value, 8); if (v) r = CUDA_ERROR_INVALID_VALUE; else pool->used_high = pool->used; }
    break;
  default: r = CUDA_ERROR_INVALID_VALUE;
  }
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, int attr, void *value) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  CUresult r = valid(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  if (!r) switch (attr) {
  case POOL_REUSE_FOLLOW_EVENT: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL:
    *(int *)value = pool->reuse[attr - 1]; break;
  case POOL_RELEASE_THRESHOLD: memcpy(value, &pool->threshold, 8); break;
  case POOL_RESERVED_CURRENT: case POOL_USED_CURRENT: memcpy(value, &pool->used, 8); break;
  case POOL_RESERVED_HIGH: case POOL_USED_HIGH: memcpy(value, &pool->used_high, 8); break;
  default: r = CUDA_ERROR_INVALID_VALUE;
  }
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep) {
  (void)keep;
  drv_lock();
  CUresult r = valid(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  drv_unlock();
  return r;
}

/* Access from the one device is always read-write. */
DRV_EXPORT CUresult cuMemPoolSetAccess(CUmemoryPool pool, const void *map, size_t count) {
  (void)map; (void)count;
  return pool ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
DRV_EXPORT CUresult cuMemPoolGetAccess(int *flags, CUmemoryPool pool, const void *location) {
  (void)location;
  if (!flags || !pool) return CUDA_ERROR_INVALID_VALUE;
  *flags = 3;                    /* CU_MEM_ACCESS_FLAGS_PROT_READWRITE */
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytes, CUmemoryPool pool, CUstream s) {
  drv_lock();
  if (!valid(pool) || !dptr) { drv_unlock(); return CUDA_ERROR_INVALID_VALUE; }
  /* captured: an allocation node (the graph allocator's, whatever the pool) */
  if (drv_init() == 0 && drv_stream(s)->capture) {
    CUresult r = drv_graph_capture_alloc(drv_stream(s), bytes, dptr);
    drv_unlock();
    return r;
  }
  CUresult r = cuMemAlloc_v2(dptr, bytes);
  if (!r && npallocs == cappallocs) {
    size_t nc = cappallocs ? cappallocs * 2 : 64;
    pool_alloc *np = realloc(pallocs, nc * sizeof *np);
    if (np) { pallocs = np; cappallocs = nc; }
  }
  if (!r && npallocs < cappallocs) {
    pallocs[npallocs++] = (pool_alloc){ *dptr, bytes, pool };
    pool->used += bytes;
    if (pool->used > pool->used_high) pool->used_high = pool->used;
  }
  drv_unlock();
  return r;
}

DRV_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, CUstream s) {
  return cuMemAllocFromPoolAsync(dptr, bytes, current_pool, s);
}

DRV_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream s) {
  drv_lock();
  /* captured: a free node, of a graph allocation only */
  if (drv_init() == 0 && drv_stream(s)->capture) {
    CUresult r = drv_graph_capture_free(drv_stream(s), dptr);
    drv_unlock();
    return r;
  }
  /* a graph allocation: freed now for the host, unmapped in stream order */
  if (drv_gmem_size(dptr)) {
    CUresult r = drv_gmem_freed(dptr);
    drv_op op = { .kind = OP_MEM_FREE, .dst = dptr };
    if (!r) r = drv_submit(s, &op);
    drv_unlock();
    return r;
  }
  for (size_t i = 0; i < npallocs; i++)
    if (pallocs[i].p == dptr) {
      if (pallocs[i].pool) pallocs[i].pool->used -= pallocs[i].size;
      pallocs[i] = pallocs[--npallocs];
      break;
    }
  drv_unlock();
  return cuMemFree_v2(dptr);
}

/* ---- graph memory ---- */

struct drv_gmem_block {
  uint64_t size;
  unsigned live;                 /* allocations of its launch not freed yet      */
  bool busy;                     /* a launch is being accounted in it            */
  struct drv_gmem_block *next;
};

typedef struct gmem {
  uint64_t addr, size;
  unsigned refs;                 /* nodes and executables that name it           */
  bool mapped, live;
  drv_gmem_block *block;         /* a live one's physical memory                 */
  char name[64];                 /* what fault reports call its region           */
} gmem;

static gmem **gmems;
static size_t ngmems;
static uint32_t capgmems;
static unsigned gmem_serial;
static drv_gmem_block *blocks;
/* the graph allocator's physical memory (all of it counts as used too, as
 * on an H200) and the high-water marks */
static uint64_t reserved, used_high, reserved_high;

static gmem *gmem_of(uint64_t addr) {
  for (size_t i = 0; addr && i < ngmems; i++) if (gmems[i]->addr == addr) return gmems[i];
  return NULL;
}

static void unmap(gmem *m) {
  if (m->mapped) emu_free_region(drv.e, m->addr);
  m->mapped = false;
}

/* Forget m once nothing names it, holds it or still has it mapped. */
static void gmem_drop(gmem *m) {
  if (m->refs || m->live || m->mapped) return;
  for (size_t i = 0; i < ngmems; i++)
    if (gmems[i] == m) { gmems[i] = gmems[--ngmems]; break; }
  free(m);
}

uint64_t drv_gmem_new(uint64_t n) {
  if (ngmems == capgmems && !vec_grow((void **)&gmems, &capgmems, sizeof *gmems, 16)) return 0;
  gmem *m = calloc(1, sizeof *m);
  if (!m) return 0;
  snprintf(m->name, sizeof m->name, "graph allocation #%u (%llu bytes)", ++gmem_serial, (unsigned long long)n);
  m->addr = emu_alloc(drv.e, n ? n : 1, m->name);
  if (!m->addr) { free(m); return 0; }
  m->size = n;
  m->mapped = true;
  drv_san_alloc(m->addr, n);
  gmems[ngmems++] = m;
  return m->addr;
}

uint64_t drv_gmem_size(uint64_t addr) {
  drv_lock();
  gmem *m = gmem_of(addr);
  uint64_t n = m ? m->size : 0;
  drv_unlock();
  return n;
}

void drv_gmem_retain(uint64_t addr) {
  gmem *m = gmem_of(addr);
  if (m) m->refs++;
}

/* After the last reference an allocation no launch holds is unmapped. */
void drv_gmem_release(uint64_t addr) {
  gmem *m = gmem_of(addr);
  if (!m || !m->refs || --m->refs) return;
  if (!m->live) unmap(m);
  gmem_drop(m);
}

bool drv_gmem_live(uint64_t addr) {
  gmem *m = gmem_of(addr);
  return m && m->live;
}

static void grow(uint64_t n) {
  reserved += n;
  if (reserved > reserved_high) reserved_high = reserved;
  if (reserved > used_high) used_high = reserved;
}

/* The smallest free block of at least n bytes, else a new one. */
static drv_gmem_block *block_for(uint64_t n) {
  drv_gmem_block *best = NULL;
  for (drv_gmem_block *b = blocks; b; b = b->next)
    if (!b->live && !b->busy && b->size >= n && (!best || b->size < best->size)) best = b;
  if (best) return best;
  if (!(best = calloc(1, sizeof *best))) return NULL;
  best->size = n;
  best->next = blocks;
  blocks = best;
  grow(n);
  return best;
}

drv_gmem_block *drv_gmem_take(uint64_t footprint) {
  drv_gmem_block *b = footprint ? block_for(footprint) : NULL;
  if (b) b->busy = true;
  return b;
}

void drv_gmem_upload(uint64_t footprint) {
  if (footprint) block_for(footprint);
}

void drv_gmem_allocated(uint64_t addr, drv_gmem_block *b) {
  gmem *m = gmem_of(addr);
  if (!m || m->live) return;
  m->live = true;
  m->block = b;
  if (b) b->live++;
}

CUresult drv_gmem_freed(uint64_t addr) {
  drv_lock();
  gmem *m = gmem_of(addr);
  if (!m || !m->live) { drv_unlock(); return CUDA_ERROR_INVALID_VALUE; }
  m->live = false;
  if (m->block) m->block->live--;
  m->block = NULL;
  gmem_drop(m);
  drv_unlock();
  return CUDA_SUCCESS;
}

void drv_gmem_settle(drv_gmem_block *b) {
  if (b) b->busy = false;
}

/* cudaFree: after the work queued so far, as a synchronous free. */
CUresult drv_gmem_free_now(uint64_t addr) {
  drv_lock();
  if (!gmem_of(addr)) { drv_unlock(); return CUDA_ERROR_NOT_FOUND; }
  drv_wait_stream(NULL);
  CUresult r = drv_gmem_freed(addr);
  gmem *m = r ? NULL : gmem_of(addr);
  if (m) {
    unmap(m);
    gmem_drop(m);
  }
  drv_unlock();
  return r;
}

CUresult drv_gmem_run(const drv_op *op) {
  gmem *m = gmem_of(op->dst);
  if (!m) return CUDA_SUCCESS;
  if (op->kind == OP_MEM_FREE) {
    unmap(m);
    gmem_drop(m);
    return CUDA_SUCCESS;
  }
  if (m->mapped) return CUDA_SUCCESS;
  if (!emu_alloc_at(drv.e, m->addr, m->size ? m->size : 1, m->name)) {
    fprintf(stderr, "ptxemu: out of device memory for %s\n", m->name);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  m->mapped = true;
  drv_san_alloc(m->addr, m->size);
  return CUDA_SUCCESS;
}

/* Free blocks go back: what no allocation lives in. */
DRV_EXPORT CUresult cuDeviceGraphMemTrim(CUdevice d) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  drv_lock();
  for (drv_gmem_block **p = &blocks; *p;) {
    drv_gmem_block *b = *p;
    if (b->live || b->busy) { p = &b->next; continue; }
    *p = b->next;
    reserved -= b->size;
    free(b);
  }
  drv_unlock();
  return CUDA_SUCCESS;
}

enum { GMEM_USED_CURRENT, GMEM_USED_HIGH, GMEM_RESERVED_CURRENT, GMEM_RESERVED_HIGH };

DRV_EXPORT CUresult cuDeviceGetGraphMemAttribute(CUdevice d, int attr, void *value) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  uint64_t v = attr == GMEM_USED_HIGH ? used_high : attr == GMEM_RESERVED_HIGH ? reserved_high : reserved;
  drv_unlock();
  if (attr < GMEM_USED_CURRENT || attr > GMEM_RESERVED_HIGH) return CUDA_ERROR_INVALID_VALUE;
  memcpy(value, &v, sizeof v);
  return CUDA_SUCCESS;
}

/* Only the high-water marks may be set, and only to 0: they start again
 * from the current amount. */
DRV_EXPORT CUresult cuDeviceSetGraphMemAttribute(CUdevice d, int attr, void *value) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  uint64_t v;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  memcpy(&v, value, sizeof v);
  if (v || (attr != GMEM_USED_HIGH && attr != GMEM_RESERVED_HIGH)) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  if (attr == GMEM_USED_HIGH) used_high = reserved;
  else reserved_high = reserved;
  drv_unlock();
  return CUDA_SUCCESS;
}
