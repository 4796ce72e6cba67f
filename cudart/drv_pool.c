/* cudart/drv_pool.c - memory pools (cuMemPool*, stream-ordered allocation).
 * Work runs in order (drv_queue.c), so an allocation made at the call is
 * one its stream sees in order; a pool keeps its attributes and counts the
 * bytes allocated from it (UsedMemCurrent/High, as CUDA reports them). */
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"

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
  (void)s;
  drv_lock();
  if (!valid(pool)) { drv_unlock(); return CUDA_ERROR_INVALID_VALUE; }
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
  /* captured into a graph: the memory must outlive every launch of it */
  if (drv_init() == 0 && drv_stream(s)->capture) { drv_unlock(); return CUDA_SUCCESS; }
  for (size_t i = 0; i < npallocs; i++)
    if (pallocs[i].p == dptr) {
      if (pallocs[i].pool) pallocs[i].pool->used -= pallocs[i].size;
      pallocs[i] = pallocs[--npallocs];
      break;
    }
  drv_unlock();
  return cuMemFree_v2(dptr);
}
