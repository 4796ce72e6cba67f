/* cudart/drv_vmm.c - the Driver API's virtual memory management
 * (cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess and the rest).
 *
 * A physical allocation (cuMemCreate) is a memfd: zeroed, backed by the
 * host only where it is touched, and mappable any number of times.  A
 * reserved range (cuMemAddressReserve) is a range of device addresses the
 * emulator keeps free (emu_reserve) plus a host address range of the same
 * size with nothing accessible behind it; cuMemMap maps the memfd into the
 * host range at the mapping's offset, so mappings that sit back to back are
 * contiguous host memory as they are contiguous device addresses.  The
 * device reaches a mapping only once cuMemSetAccess grants it: each run of
 * adjacent mappings with the same access is one region of the emulator
 * (rebuilt whenever a mapping or its access changes), and an address with
 * no region behind it faults in a kernel and is refused by copies, as
 * unmapped or inaccessible memory is on the GPU.  Two mappings of one
 * allocation alias the same bytes (one memfd page, two host addresses);
 * while any allocation is accessible through two of them, launches run
 * sequentially (emu->aliased; doc/parallel.md).  Semantics and error codes
 * are an H200's (driver 580), which differ from the reference in places:
 * sizes are multiples of 2 MiB (the granularity) everywhere, a mapping
 * covers its whole allocation from offset 0 (else CUDA_ERROR_NOT_SUPPORTED),
 * cuMemUnmap and cuMemSetAccess take whole mappings (cuMemUnmap of a range
 * with nothing mapped succeeds), and an address range or pointer attribute
 * of a mapping without access is not found. */
#define _GNU_SOURCE              /* memfd_create */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cudart/drv.h"
#include "util/lazymap.h"
#include "util/vec.h"

typedef struct vmm_mem {         /* the bytes: one per memfd, shared by imports  */
  dev_t dev;
  ino_t ino;
  uint64_t size;
  unsigned handles;              /* handles naming it                            */
  unsigned accessible;           /* mappings the device may access               */
  bool counted;                  /* created here: counts as device memory in use */
  uint64_t block_id;             /* CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID         */
} vmm_mem;
typedef struct vmm_handle {
  CUmemGenericAllocationHandle id;
  int fd;
  vmm_mem *mem;
  CUmemAllocationProp prop;      /* what cuMemGetAllocationPropertiesFromHandle says */
  unsigned refs;                 /* cuMemCreate / import, and each retain         */
  unsigned maps;                 /* mappings: the handle lives until both are 0   */
} vmm_handle;
typedef struct vmm_resv { uint64_t base, size; uint8_t *host; } vmm_resv;
struct vmm_map { uint64_t va, size; vmm_handle *h; int access; uint64_t buffer_id; };



#define VMM_GRANULARITY (2ull << 20)

static vmm_handle **vhandles;
static size_t nvhandles;
static uint32_t capvhandles;
static vmm_resv *vresvs;
static size_t nvresvs;
static uint32_t capvresvs;
static vmm_map *vmaps;           /* sorted by address                            */
static size_t nvmaps;
static uint32_t capvmaps;
static unsigned n_aliased;       /* vmm_mems accessible through two mappings or more */
static uint64_t vmm_serial;
static const char vmm_region_name[] = "memory mapped by cuMemMap";

static bool vmm_aligned(uint64_t v) { return (v & (VMM_GRANULARITY - 1)) == 0; }

/* Room in array *v (of *cap elements of elem bytes) for one more than n. */
static vmm_handle *vmm_handle_of(CUmemGenericAllocationHandle id) {
  for (size_t i = 0; i < nvhandles; i++) if (vhandles[i]->id == id) return vhandles[i];
  return NULL;
}
static vmm_resv *vmm_resv_of(uint64_t a) {
  for (size_t i = 0; i < nvresvs; i++) if (a >= vresvs[i].base && a - vresvs[i].base < vresvs[i].size) return &vresvs[i];
  return NULL;
}
/* The mapping holding address a, or NULL. */
static vmm_map *vmm_map_of(uint64_t a) {
  size_t lo = 0, hi = nvmaps;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (vmaps[mid].va + vmaps[mid].size <= a) lo = mid + 1; else hi = mid;
  }
  return lo < nvmaps && a >= vmaps[lo].va ? &vmaps[lo] : NULL;
}

/* A handle goes once it is released and unmapped; the memory once no
 * handle names it (mappings hold their handle). */
static void vmm_handle_maybe_free(vmm_handle *h) {
  if (h->refs || h->maps) return;
  close(h->fd);
  vmm_mem *m = h->mem;
  if (--m->handles == 0) {
    if (m->counted) drv.e->mem_used -= m->size;
    free(m);
  }
  for (size_t i = 0; i < nvhandles; i++)
    if (vhandles[i] == h) { vhandles[i] = vhandles[--nvhandles]; break; }
  free(h);
}

static vmm_handle *vmm_handle_new(int fd, vmm_mem *m, const CUmemAllocationProp *prop) {
  if (nvhandles == capvhandles && !vec_grow((void **)&vhandles, &capvhandles, sizeof *vhandles, 16)) return NULL;
  vmm_handle *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  h->id = 0x70000000ull + 16 * ++vmm_serial;        /* opaque, never 0 */
  h->fd = fd;
  h->mem = m;
  h->prop = *prop;
  h->refs = 1;
  m->handles++;
  vhandles[nvhandles++] = h;
  return h;
}

/* The device's view of reservation r: one region for each run of adjacent
 * mappings with the same access, none where there is no access. */
static void vmm_rebuild(const vmm_resv *r) {
  emu *e = drv.e;
  for (uint32_t i = e->nregions; i-- > 0;)
    if (e->regions[i].base >= r->base && e->regions[i].base - r->base < r->size) emu_free_region(e, e->regions[i].base);
  for (size_t i = 0; i < nvmaps;) {
    const vmm_map *m = &vmaps[i];
    if (m->va < r->base || m->va - r->base >= r->size || !m->access) { i++; continue; }
    size_t k = i + 1;
    while (k < nvmaps && vmaps[k].va == vmaps[k - 1].va + vmaps[k - 1].size && vmaps[k].access == m->access &&
           vmaps[k].va - r->base < r->size)
      k++;
    uint64_t end = vmaps[k - 1].va + vmaps[k - 1].size;
    if (emu_map_reserved(e, m->va, r->host + (m->va - r->base), end - m->va, vmm_region_name, m->access == CU_MEM_ACCESS_FLAGS_PROT_READ))
      fprintf(stderr, "ptxemu: internal error: cannot map 0x%llx for the device\n", (unsigned long long)m->va);
    i = k;
  }
  e->aliased = n_aliased > 0;
}

/* A mapping's access changes: the count of aliased allocations follows. */
static void vmm_set_access(vmm_map *m, int access) {
  vmm_mem *mem = m->h->mem;
  if (!m->access == !access) { m->access = access; return; }
  if (access) { if (++mem->accessible == 2) n_aliased++; }
  else if (mem->accessible-- == 2) n_aliased--;
  m->access = access;
}

DRV_EXPORT CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop, int option) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!granularity || !prop || (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
    return drv_leave(CUDA_ERROR_INVALID_VALUE);
  *granularity = VMM_GRANULARITY;        /* an H100's and H200's, whatever the properties */
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr, unsigned long long flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!ptr || flags || !size || !vmm_aligned(size) || (alignment & (alignment - 1))) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (nvresvs == capvresvs && !vec_grow((void **)&vresvs, &capvresvs, sizeof *vresvs, 16)) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  uint64_t align = alignment > VMM_GRANULARITY ? alignment : VMM_GRANULARITY;
  uint64_t base = emu_reserve(drv.e, size, align, vmm_aligned(addr) ? addr : 0);
  if (!base) {
    fprintf(stderr, "ptxemu: cuMemAddressReserve: no room for %llu bytes in the emulated device's 1 TiB of addresses\n",
            (unsigned long long)size);
    return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  }
  void *host = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (host == MAP_FAILED) { emu_unreserve(drv.e, base, size); return drv_leave(CUDA_ERROR_OUT_OF_MEMORY); }
  vresvs[nvresvs++] = (vmm_resv){ base, size, host };
  *ptr = base;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  CUresult r = drv_enter();
  if (r) return r;
  vmm_resv *v = vmm_resv_of(ptr);
  if (!v || v->base != ptr || v->size != size) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  for (size_t i = 0; i < nvmaps; i++)                    /* still mapped: unmap first */
    if (vmaps[i].va >= v->base && vmaps[i].va - v->base < v->size) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (emu_unreserve(drv.e, ptr, size)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  munmap(v->host, v->size);
  *v = vresvs[--nvresvs];
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                                unsigned long long flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!handle || !prop || flags || !size || !vmm_aligned(size) || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED ||
      prop->win32HandleMetaData || prop->allocFlags.compressionType > CU_MEM_ALLOCATION_COMP_GENERIC ||
      prop->allocFlags.reserved[0] || prop->allocFlags.reserved[1] || prop->allocFlags.reserved[2] || prop->allocFlags.reserved[3])
    return drv_leave(CUDA_ERROR_INVALID_VALUE);
  switch (prop->location.type) {
  case CU_MEM_LOCATION_TYPE_DEVICE:
    if (prop->location.id != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
    break;
  case CU_MEM_LOCATION_TYPE_HOST: case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    /* host memory behind device addresses that the host reads too: the
     * host cannot reach the emulated device's addresses */
    return drv_leave(drv_unsupported("cuMemCreate of host memory (CU_MEM_LOCATION_TYPE_HOST, HOST_NUMA)"));
  default: return drv_leave(CUDA_ERROR_INVALID_VALUE);
  }
  if (prop->requestedHandleTypes & (CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  /* fabric handles need an IMEX channel, which a machine of one GPU has not */
  if (prop->requestedHandleTypes & CU_MEM_HANDLE_TYPE_FABRIC) return drv_leave(CUDA_ERROR_NOT_PERMITTED);
  if (drv.e->mem_used + size > drv.e->opt.device_bytes) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  int fd = memfd_create("ptxemu-vmm", MFD_CLOEXEC);
  struct stat st;
  vmm_mem *m = fd < 0 ? NULL : calloc(1, sizeof *m);
  if (!m || ftruncate(fd, (off_t)size) || fstat(fd, &st)) {
    free(m);
    if (fd >= 0) close(fd);
    return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  }
  *m = (vmm_mem){ .dev = st.st_dev, .ino = st.st_ino, .size = size, .counted = true, .block_id = ++vmm_serial };
  CUmemAllocationProp p = *prop;
  p.allocFlags.usage = 0;        /* an H200 says 0 whatever the request */
  vmm_handle *h = vmm_handle_new(fd, m, &p);
  if (!h) { free(m); close(fd); return drv_leave(CUDA_ERROR_OUT_OF_MEMORY); }
  drv.e->mem_used += size;
  *handle = h->id;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  CUresult r = drv_enter();
  if (r) return r;
  vmm_handle *h = vmm_handle_of(handle);
  if (!h || !h->refs) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  h->refs--;
  vmm_handle_maybe_free(h);
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                             unsigned long long flags) {
  CUresult r = drv_enter();
  if (r) return r;
  vmm_handle *h = vmm_handle_of(handle);
  if (flags || !size || !h || !h->refs || !vmm_aligned(ptr)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (offset || size != h->mem->size) return drv_leave(CUDA_ERROR_NOT_SUPPORTED);   /* a whole allocation only */
  vmm_resv *v = vmm_resv_of(ptr);
  if (!v || size > v->size - (ptr - v->base)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  size_t at = 0;
  while (at < nvmaps && vmaps[at].va < ptr) at++;
  if ((at > 0 && vmaps[at - 1].va + vmaps[at - 1].size > ptr) || (at < nvmaps && vmaps[at].va < ptr + size))
    return drv_leave(CUDA_ERROR_INVALID_VALUE);            /* over another mapping */
  if (nvmaps == capvmaps && !vec_grow((void **)&vmaps, &capvmaps, sizeof *vmaps, 16)) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  uint8_t *host = v->host + (ptr - v->base);
  if (mmap(host, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, h->fd, 0) == MAP_FAILED)
    return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  if (size <= LAZYMAP_HUGE_MAX) madvise(host, size, MADV_HUGEPAGE);     /* where the host lets shared memory have them */
  memmove(&vmaps[at + 1], &vmaps[at], (nvmaps - at) * sizeof *vmaps);
  vmaps[at] = (vmm_map){ .va = ptr, .size = size, .h = h, .access = 0, .buffer_id = ++vmm_serial };
  nvmaps++;
  h->maps++;
  return drv_leave(CUDA_SUCCESS);          /* no access yet: nothing for the device to see */
}

DRV_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!size || !vmm_aligned(ptr) || !vmm_aligned(size) || ptr + size < ptr) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  drv_wait_stream(NULL);                   /* synchronous: work already queued finishes first */
  uint64_t end = ptr + size;
  for (size_t i = 0; i < nvmaps; i++) {    /* whole mappings only */
    const vmm_map *m = &vmaps[i];
    bool meets = m->va < end && m->va + m->size > ptr, inside = m->va >= ptr && m->va + m->size <= end;
    if (meets && !inside) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  }
  bool changed = false;
  for (size_t i = 0; i < nvmaps;) {
    vmm_map *m = &vmaps[i];
    if (m->va < ptr || m->va >= end) { i++; continue; }
    vmm_resv *v = vmm_resv_of(m->va);
    mmap(v->host + (m->va - v->base), m->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    changed |= m->access != 0;
    vmm_set_access(m, 0);
    vmm_handle *h = m->h;
    h->maps--;
    memmove(m, m + 1, (nvmaps - i - 1) * sizeof *m);
    nvmaps--;
    vmm_handle_maybe_free(h);
  }
  if (changed)
    for (size_t i = 0; i < nvresvs; i++)
      if (vresvs[i].base < end && vresvs[i].base + vresvs[i].size > ptr) vmm_rebuild(&vresvs[i]);
  return drv_leave(CUDA_SUCCESS);
}

/* The access an access descriptor list gives this device: -1 when a
 * descriptor is invalid (*err says how). */
static int vmm_access_of(const CUmemAccessDesc *desc, size_t count, CUresult *err) {
  int access = -1;
  *err = CUDA_ERROR_INVALID_VALUE;
  if (!desc || !count) return -1;
  for (size_t i = 0; i < count; i++) {
    int f = desc[i].flags;
    if (f != CU_MEM_ACCESS_FLAGS_PROT_NONE && f != CU_MEM_ACCESS_FLAGS_PROT_READ && f != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) return -1;
    switch (desc[i].location.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
      if (desc[i].location.id != 0) return -1;
      access = f;
      break;
    case CU_MEM_LOCATION_TYPE_HOST: case CU_MEM_LOCATION_TYPE_HOST_NUMA: case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
      *err = CUDA_ERROR_NOT_SUPPORTED;   /* the host's access to device memory */
      return -1;
    default: return -1;
    }
  }
  return access;
}

DRV_EXPORT CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count) {
  CUresult r = drv_enter();
  if (r) return r;
  CUresult err;
  int access = vmm_access_of(desc, count, &err);
  if (access < 0) return drv_leave(err);
  if (!size || !vmm_aligned(ptr) || !vmm_aligned(size) || ptr + size < ptr) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  /* every byte mapped, by mappings wholly inside the range */
  vmm_map *first = vmm_map_of(ptr);
  if (!first || first->va != ptr) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  size_t i0 = (size_t)(first - vmaps), i = i0;
  uint64_t at = ptr;
  while (at < ptr + size) {
    if (i >= nvmaps || vmaps[i].va != at || vmaps[i].size > ptr + size - at) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    at += vmaps[i++].size;
  }
  drv_wait_stream(NULL);                   /* synchronous, as cuMemUnmap */
  for (size_t k = i0; k < i; k++) vmm_set_access(&vmaps[k], access);
  vmm_rebuild(vmm_resv_of(ptr));
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!flags || !location) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  bool device = location->type == CU_MEM_LOCATION_TYPE_DEVICE;
  if (device && location->id != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
  if (!device && location->type != CU_MEM_LOCATION_TYPE_HOST && location->type != CU_MEM_LOCATION_TYPE_HOST_NUMA)
    return drv_leave(CUDA_ERROR_INVALID_VALUE);
  const vmm_map *m = vmm_map_of(ptr);
  *flags = m && device ? (unsigned long long)m->access : 0;      /* the host has none to device memory */
  return drv_leave(m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}

DRV_EXPORT CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr) {
  CUresult r = drv_enter();
  if (r) return r;
  vmm_map *m = vmm_map_of((uint64_t)(uintptr_t)addr);
  if (!handle || !m) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  m->h->refs++;
  *handle = m->h->id;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle) {
  CUresult r = drv_enter();
  if (r) return r;
  const vmm_handle *h = vmm_handle_of(handle);
  if (!prop || !h) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  *prop = h->prop;
  return drv_leave(CUDA_SUCCESS);
}

/* Sharing: a POSIX file descriptor is a duplicate of the memfd, so another
 * process under ptxemu that imports it maps the same bytes. */
DRV_EXPORT CUresult cuMemExportToShareableHandle(void *shareable, CUmemGenericAllocationHandle handle, int type, unsigned long long flags) {
  CUresult r = drv_enter();
  if (r) return r;
  const vmm_handle *h = vmm_handle_of(handle);
  if (!shareable || flags || !h || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ||
      !(h->prop.requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
    return drv_leave(CUDA_ERROR_INVALID_VALUE);
  int fd = dup(h->fd);
  if (fd < 0) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  *(int *)shareable = fd;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *os_handle, int type) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!handle) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (type == CU_MEM_HANDLE_TYPE_FABRIC) return drv_leave(CUDA_ERROR_NOT_PERMITTED);
  if (type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  int fd = (int)(intptr_t)os_handle;
  struct stat st;
  if (fd < 0 || fstat(fd, &st)) return drv_leave(CUDA_ERROR_UNKNOWN);      /* no such descriptor, as on an H200 */
  /* only what ptxemu exported: a memfd of its name */
  char path[64], link[64] = "";
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(path, link, sizeof link - 1);
  if (n < 0 || strncmp(link, "/memfd:ptxemu-vmm", 17) || st.st_size <= 0 || !vmm_aligned((uint64_t)st.st_size))
    return drv_leave(CUDA_ERROR_INVALID_VALUE);
  vmm_mem *m = NULL;
  for (size_t i = 0; i < nvhandles && !m; i++)
    if (vhandles[i]->mem->dev == st.st_dev && vhandles[i]->mem->ino == st.st_ino) m = vhandles[i]->mem;
  bool fresh = !m;
  if (fresh) {              /* another process's memory: it counts there */
    if (!(m = calloc(1, sizeof *m))) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
    *m = (vmm_mem){ .dev = st.st_dev, .ino = st.st_ino, .size = (uint64_t)st.st_size, .block_id = ++vmm_serial };
  }
  int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  CUmemAllocationProp p = { .type = CU_MEM_ALLOCATION_TYPE_PINNED, .location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 } };
  vmm_handle *h = own < 0 ? NULL : vmm_handle_new(own, m, &p);
  if (!h) {
    if (own >= 0) close(own);
    if (fresh) free(m);
    return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  }
  *handle = h->id;
  return drv_leave(CUDA_SUCCESS);
}

/* The accessible mapping holding p (what address ranges and pointer
 * attributes describe), or NULL. */
const vmm_map *drv_vmm_accessible(uint64_t p) {
  const vmm_map *m = vmm_map_of(p);
  return m && m->access ? m : NULL;
}

/* Whether device memory at [a, a+n) is a read-only mapping. */
bool drv_vmm_readonly(uint64_t a, uint64_t n) {
  const mem_region *r = n ? emu_region_of(drv.e, a) : NULL;
  return r && r->readonly;
}

/* cuPointerGetAttribute of an accessible mapping, as an H200 answers. */
void drv_vmm_range(const vmm_map *m, uint64_t *base, uint64_t *size) {
  *base = m->va;
  *size = m->size;
}

CUresult drv_vmm_pointer_attribute(void *data, int attr, uint64_t p, const vmm_map *m) {
  const struct emu_vrange *v = emu_reservation_of(drv.e, p);
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  switch (attr) {
  case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = NULL; break;       /* no context owns it */
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *(unsigned *)data = CU_MEMORYTYPE_DEVICE; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(uint64_t *)data = p; break;
  case CU_POINTER_ATTRIBUTE_HOST_POINTER: return CUDA_ERROR_INVALID_VALUE;   /* the host cannot reach it */
  case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: case CU_POINTER_ATTRIBUTE_IS_MANAGED: case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
  case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
    *(unsigned *)data = 0;
    break;
  case CU_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = m->buffer_id; break;    /* one per mapping */
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(uint64_t *)data = v->base; break;            /* the reservation */
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = v->size; break;
  case CU_POINTER_ATTRIBUTE_MAPPED: *(unsigned *)data = 1; break;
  case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: *(unsigned *)data = (unsigned)m->h->prop.requestedHandleTypes; break;
  case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: *(unsigned *)data = m->h->prop.allocFlags.gpuDirectRDMACapable; break;
  case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: *(unsigned *)data = (unsigned)m->access; break;
  case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: *(void **)data = NULL; break;
  case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: *(size_t *)data = m->size; break;
  case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: *(uint64_t *)data = m->va; break;
  case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: *(unsigned long long *)data = m->h->mem->block_id; break;   /* one per allocation */
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
