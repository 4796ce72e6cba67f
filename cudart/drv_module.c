/* cudart/drv_module.c - cuModule*, cuFunc*, cuLibrary*, cuLink*: modules
 * from PTX text or fatbinaries, assembled once and kept in an on-disk
 * cache keyed by the PTX's hash (modcache.c), so a program's second run
 * starts at once. */
#include <stdlib.h>
#include <string.h>
#include "cudart/cubin.h"
#include "cudart/drv.h"
#include "cudart/fatbin.h"
#include "cudart/modcache.h"
#include "cudart/ptxlink.h"
#include "ptx/ast.h"

static unsigned target_sm(void) { return drv.cfg.sm_version; }

/* Assemble PTX text (NUL-terminated, len bytes) into a module. */
static CUresult module_from_ptx(char *text, size_t len, const char *origin, CUmodule *out) {
  isa_module *m = modcache_load(text, len, origin);
  if (!m) return CUDA_ERROR_INVALID_PTX;           /* diagnostics printed */
  struct CUmod_st *mod = calloc(1, sizeof *mod);
  if (mod) mod->funcs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *mod->funcs);
  if (!mod || !mod->funcs) { free(mod); isa_module_free(m); return CUDA_ERROR_OUT_OF_MEMORY; }
  mod->m = m;
  mod->idx = emu_module_add(drv.e, m);
  if (mod->idx < 0) { free(mod->funcs); free(mod); isa_module_free(m); return CUDA_ERROR_OUT_OF_MEMORY; }
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    mod->funcs[i].mod = mod;
    mod->funcs[i].func = (int)i;
    mod->funcs[i].max_dyn_shared = 48 * 1024;
    mod->funcs[i].carveout = -1;
  }
  mod->next = drv.modules;
  drv.modules = mod;
  *out = mod;
  return CUDA_SUCCESS;
}

/* The registers ptxas gave each kernel, from the fatbinary's SASS for the
 * modelled GPU's architecture when it carries one (nvcc -arch=sm_90 embeds
 * it beside the PTX): numRegs, occupancy and the timing model's resident
 * blocks are then the hardware's, where ptxemu's own estimate from the
 * PTX's liveness can be several registers off. */
static void set_regs(const char *name, unsigned regs, void *user) {
  isa_module *m = user;
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (m->funcs[i].has_body && strcmp(m->funcs[i].name, name) == 0) { m->funcs[i].regs_used = regs ? regs : 1; break; }
}

static void regs_from_sass(const void *fatbin, uint64_t max_bytes, isa_module *m) {
  fatbin_entry ent[64];
  char err[256];
  int n = fatbin_parse(fatbin, max_bytes, ent, 64, err, sizeof err);
  for (int i = 0; i < n && i < 64; i++) {
    if (ent[i].kind != FATBIN_ELF || ent[i].arch != target_sm() || ent[i].family_specific) continue;
    uint8_t *elf;
    uint64_t len;
    if (fatbin_entry_data(&ent[i], &elf, &len, err, sizeof err)) continue;
    cubin_regcounts(elf, len, set_regs, m);
    free(elf);
  }
}

/* Whether a unit is CUDA's device runtime (libcudadevrt, linked into
 * programs that launch kernels from kernels): its calls are the emulator's
 * own, and its PTX is for another architecture anyway. */
static bool is_device_runtime(const void *fatbin) {
  fatbin_entry ent[64];
  char err[256];
  int n = fatbin_parse(fatbin, FATBIN_SIZE_UNKNOWN, ent, 64, err, sizeof err);
  for (int i = 0; i < n; i++) {
    if (ent[i].kind != FATBIN_PTX) continue;
    uint8_t *text;
    uint64_t len;
    if (fatbin_entry_data(&ent[i], &text, &len, err, sizeof err)) continue;
    bool yes = strstr((char *)text, "__cudaCDP2LaunchDeviceV2(") && strstr((char *)text, ".visible .func");
    free(text);
    if (yes) return true;
  }
  return false;
}

/* A program built with -rdc=true registers the device-linked image (a v2
 * wrapper) whose last field lists its units' relocatable fatbinaries, in
 * a NULL-terminated array: their PTX, linked (ptxlink.c), is the module. */
static CUresult load_linked(const uint8_t *wrapper, CUmodule *out) {
  const void *const *units;
  memcpy(&units, wrapper + 16, sizeof units);
  if (!units) { fprintf(stderr, "ptxemu: a device-linked fatbinary without its units\n"); return CUDA_ERROR_INVALID_IMAGE; }
  char *texts[256];
  size_t lens[256];
  int n = 0;
  CUresult r = CUDA_SUCCESS;
  char err[600];
  for (; units[n] && !r; n++) {
    if (n == 256) { fprintf(stderr, "ptxemu: more than 256 translation units\n"); r = CUDA_ERROR_NOT_SUPPORTED; break; }
    uint64_t len;
    unsigned arch;
    if (is_device_runtime(units[n])) { units++; n--; continue; }
    if (fatbin_select_ptx(units[n], FATBIN_SIZE_UNKNOWN, target_sm(), &texts[n], &len, &arch, err, sizeof err)) {
      fprintf(stderr, "ptxemu: translation unit %d of the program: %s\n", n + 1, err);
      r = CUDA_ERROR_NO_BINARY_FOR_GPU;
      break;
    }
    lens[n] = (size_t)len;
  }
  if (!r) {
    size_t len;
    char *linked = ptxlink(texts, lens, n, &len, err, sizeof err);
    if (!linked) { fprintf(stderr, "ptxemu: %s\n", err); r = CUDA_ERROR_OUT_OF_MEMORY; }
    else {
      char *t = realloc(linked, len + 2);
      if (t) {
        t[len] = t[len + 1] = 0;
        r = module_from_ptx(t, len, "linked PTX of the program's units", out);
        free(t);
        const void *linked_sass = fatbin_from_wrapper(wrapper);   /* the device link's cubin */
        if (!r && linked_sass) regs_from_sass(linked_sass, FATBIN_SIZE_UNKNOWN, (*out)->m);
      }
      else { free(linked); r = CUDA_ERROR_OUT_OF_MEMORY; }
    }
  }
  for (int i = 0; i < n; i++) free(texts[i]);
  return r;
}

CUresult drv_module_load(const void *image, size_t max_bytes, CUmodule *out) {
  if (!image || !out) return CUDA_ERROR_INVALID_VALUE;
  const uint8_t *b = image;
  uint32_t magic;
  memcpy(&magic, b, 4);
  char err[600];
  if (magic == FATBIN_WRAPPER_MAGIC) {
    uint32_t version;
    memcpy(&version, b + 4, 4);
    if (version == 2) return load_linked(b, out);
    image = fatbin_from_wrapper(image);
    if (!image) { fprintf(stderr, "ptxemu: a fatbinary wrapper that does not point to a fatbinary\n"); return CUDA_ERROR_INVALID_IMAGE; }
    max_bytes = FATBIN_SIZE_UNKNOWN;
    memcpy(&magic, image, 4);
  }
  if (magic == FATBIN_MAGIC) {
    char *ptx;
    uint64_t len;
    unsigned arch;
    if (fatbin_select_ptx(image, max_bytes, target_sm(), &ptx, &len, &arch, err, sizeof err)) {
      fprintf(stderr, "ptxemu: %s\n", err);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    char origin[64];
    snprintf(origin, sizeof origin, "fatbin PTX (compute_%u)", arch);
    CUresult r = module_from_ptx(ptx, len, origin, out);
    free(ptx);
    if (!r) regs_from_sass(image, max_bytes, (*out)->m);
    return r;
  }
  if (b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
    fprintf(stderr, "ptxemu: a cubin (SASS) cannot run on ptxemu, which executes PTX: build it with PTX "
                    "(nvcc -arch=sm_90 embeds PTX; or -gencode arch=compute_90,code=compute_90)\n");
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  /* PTX text, NUL-terminated */
  size_t len = strnlen(image, max_bytes == FATBIN_SIZE_UNKNOWN ? (size_t)1 << 30 : max_bytes);
  char *text = malloc(len + 2);
  if (!text) return CUDA_ERROR_OUT_OF_MEMORY;
  memcpy(text, image, len);
  text[len] = text[len + 1] = 0;
  CUresult r = module_from_ptx(text, len, "PTX given to cuModuleLoadData", out);
  free(text);
  return r;
}

DRV_EXPORT CUresult cuModuleLoadData(CUmodule *mod, const void *image) {
  CUresult r = drv_enter();
  if (r) return r;
  drv_flush_printf();
  return drv_leave(drv_module_load(image, FATBIN_SIZE_UNKNOWN, mod));
}
DRV_EXPORT CUresult cuModuleLoadDataEx(CUmodule *mod, const void *image, unsigned n, int *opts, void **vals) {
  (void)n; (void)opts; (void)vals;     /* JIT options only tune the compiler */
  return cuModuleLoadData(mod, image);
}
DRV_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *mod, const void *fatbin) { return cuModuleLoadData(mod, fatbin); }

DRV_EXPORT CUresult cuModuleLoad(CUmodule *mod, const char *path) {
  CUresult r = drv_enter();
  if (r) return r;
  size_t len;
  char *text = path ? ptx_read_file(path, &len) : NULL;
  if (!text) return drv_leave(CUDA_ERROR_FILE_NOT_FOUND);
  r = drv_module_load(text, len + 1, mod);
  free(text);
  return drv_leave(r);
}

DRV_EXPORT CUresult cuModuleUnload(CUmodule mod) {
  CUresult r = drv_enter();
  if (r) return r;
  drv_flush_printf();
  /* the emulator keeps the module's variables (their addresses stay
   * unique); its functions are not found any more */
  for (struct CUmod_st **p = &drv.modules; *p; p = &(*p)->next)
    if (*p == mod) { *p = mod->next; return drv_leave(CUDA_SUCCESS); }
  return drv_leave(CUDA_ERROR_INVALID_HANDLE);
}

static bool module_valid(CUmodule mod) {
  for (struct CUmod_st *m = drv.modules; m; m = m->next) if (m == mod) return true;
  return false;
}

DRV_EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!f || !name) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (!module_valid(mod)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  int k = isa_find_func(mod->m, name);
  if (k < 0 || !mod->m->funcs[k].is_entry) return drv_leave(CUDA_ERROR_NOT_FOUND);
  *f = &mod->funcs[k];
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule mod, const char *name) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!name) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (!module_valid(mod)) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  emu_module_select(drv.e, mod->idx);
  uint64_t size = 0, a = emu_symbol_addr(drv.e, name, &size);
  if (!a) return drv_leave(CUDA_ERROR_NOT_FOUND);
  if (dptr) *dptr = a;
  if (bytes) *bytes = size;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuModuleGetFunctionCount(unsigned *count, CUmodule mod) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!count || !module_valid(mod)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  unsigned n = 0;
  for (uint32_t i = 0; i < mod->m->nfuncs; i++) n += mod->m->funcs[i].is_entry;
  *count = n;
  return drv_leave(CUDA_SUCCESS);
}

/* ---- libraries (CUDA 12+): a library is a module, a kernel a function ---- */

DRV_EXPORT CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, void *jo, void *jv, unsigned nj, void *lo,
                                      void *lv, unsigned nl) {
  (void)jo; (void)jv; (void)nj; (void)lo; (void)lv; (void)nl;
  return cuModuleLoadData((CUmodule *)lib, code);
}
DRV_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary *lib, const char *path, void *jo, void *jv, unsigned nj, void *lo,
                                          void *lv, unsigned nl) {
  (void)jo; (void)jv; (void)nj; (void)lo; (void)lv; (void)nl;
  return cuModuleLoad((CUmodule *)lib, path);
}
DRV_EXPORT CUresult cuLibraryUnload(CUlibrary lib) { return cuModuleUnload((CUmodule)lib); }
DRV_EXPORT CUresult cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name) {
  return cuModuleGetFunction((CUfunction *)k, (CUmodule)lib, name);
}
DRV_EXPORT CUresult cuLibraryGetModule(CUmodule *mod, CUlibrary lib) {
  if (!mod) return CUDA_ERROR_INVALID_VALUE;
  *mod = (CUmodule)lib;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name) {
  return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)lib, name);
}
DRV_EXPORT CUresult cuKernelGetFunction(CUfunction *f, CUkernel k) {
  if (!f || !k) return CUDA_ERROR_INVALID_VALUE;
  *f = k;
  return CUDA_SUCCESS;
}

/* ---- function attributes ---- */

/* Largest block the kernel can launch with (its .maxntid/.reqntid, the
 * register file). */
static int max_threads(const struct CUfunc_st *f) {
  const isa_func *k = &f->mod->m->funcs[f->func];
  uint32_t n = drv.cfg.max_threads_per_cta;
  if (k->perf.n_maxntid) {
    uint32_t p = 1;
    for (int i = 0; i < k->perf.n_maxntid; i++) p *= k->perf.maxntid[i] ? k->perf.maxntid[i] : 1;
    if (p < n) n = p;
  }
  if (k->perf.n_reqntid) {
    uint32_t p = 1;
    for (int i = 0; i < k->perf.n_reqntid; i++) p *= k->perf.reqntid[i] ? k->perf.reqntid[i] : 1;
    if (p < n) n = p;
  }
  uint32_t regs = k->regs_used ? k->regs_used : 1;
  uint32_t unit = drv.cfg.reg_alloc_unit ? drv.cfg.reg_alloc_unit : 256;
  uint32_t per_warp = (regs * 32 + unit - 1) / unit * unit;
  uint32_t warps = drv.cfg.regs_per_sm / per_warp;
  if (warps * 32 < n) n = warps * 32;
  return (int)n;
}

static size_t const_bytes(const isa_module *m) {
  size_t n = 0;
  for (uint32_t i = 0; i < m->nsyms; i++) if (m->syms[i].space == PTX_SPACE_CONST) n += m->syms[i].size;
  return n;
}

DRV_EXPORT CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!v || !f) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  const isa_func *k = &f->mod->m->funcs[f->func];
  switch (attr) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = max_threads(f); break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *v = (int)k->shared_bytes; break;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *v = (int)const_bytes(f->mod->m); break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *v = (int)k->local_bytes; break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS: *v = (int)k->regs_used; break;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION: *v = (int)f->mod->m->version; break;
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *v = (int)drv.cfg.sm_version; break;
  case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *v = 0; break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *v = (int)f->max_dyn_shared; break;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *v = f->carveout; break;
  case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *v = k->perf.explicitcluster && !k->perf.n_reqnctapercluster; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: {
    int d = attr - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH;
    *v = k->perf.n_reqnctapercluster > d ? (int)k->perf.reqnctapercluster[d] : (int)f->cluster[d];
    break;
  }
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *v = f->nonportable_cluster; break;
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *v = 0; break;
  default: return drv_leave(CUDA_ERROR_INVALID_VALUE);
  }
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuFuncSetAttribute(CUfunction f, int attr, int v) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!f) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
  const isa_func *k = &f->mod->m->funcs[f->func];
  switch (attr) {
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    if (v < 0 || (uint64_t)v + k->shared_bytes > drv.cfg.shared_per_cta) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    f->max_dyn_shared = (uint32_t)v;
    break;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    if (v < -1 || v > 100) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    f->carveout = v;
    break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    if (v < 0 || v > 16) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    f->cluster[attr - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] = (uint32_t)v;
    break;
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: f->nonportable_cluster = v != 0; break;
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: break;
  default: return drv_leave(CUDA_ERROR_INVALID_VALUE);
  }
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuFuncSetCacheConfig(CUfunction f, int config) {
  if (!f || config < 0 || config > 3) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;      /* a preference: the model's carveout is the GPU's */
}
DRV_EXPORT CUresult cuFuncSetSharedMemConfig(CUfunction f, int config) {
  if (!f || config < 0 || config > 2) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuFuncGetName(const char **name, CUfunction f) {
  if (!name || !f) return CUDA_ERROR_INVALID_VALUE;
  *name = f->mod->m->funcs[f->func].name;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuFuncGetModule(CUmodule *mod, CUfunction f) {
  if (!mod || !f) return CUDA_ERROR_INVALID_VALUE;
  *mod = f->mod;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuKernelGetAttribute(int *v, int attr, CUkernel k, CUdevice d) {
  (void)d;
  return cuFuncGetAttribute(v, attr, k);
}
DRV_EXPORT CUresult cuKernelSetAttribute(int attr, int v, CUkernel k, CUdevice d) {
  (void)d;
  return cuFuncSetAttribute(k, attr, v);
}
DRV_EXPORT CUresult cuKernelSetCacheConfig(CUkernel k, int config, CUdevice d) {
  (void)d;
  return cuFuncSetCacheConfig(k, config);
}
DRV_EXPORT CUresult cuKernelGetName(const char **name, CUkernel k) { return cuFuncGetName(name, k); }

/* ---- occupancy (gpu/config.c's calculator) ---- */

static CUresult occupancy(struct CUfunc_st *f, int block, size_t dyn, int *blocks) {
  if (!f || block <= 0 || !blocks) return CUDA_ERROR_INVALID_VALUE;
  const isa_func *k = &f->mod->m->funcs[f->func];
  if (block > max_threads(f)) { *blocks = 0; return CUDA_SUCCESS; }
  gpu_occupancy o;
  gpu_occupancy_calc(&drv.cfg, (uint32_t)block, k->regs_used, (uint32_t)(k->shared_bytes + dyn), &o);
  *blocks = o.error ? 0 : (int)o.active_ctas;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int block, size_t dyn) {
  CUresult r = drv_enter();
  if (r) return r;
  return drv_leave(occupancy(f, block, dyn, blocks));
}
DRV_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, CUfunction f, int block,
                                                                         size_t dyn, unsigned flags) {
  (void)flags;
  return cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block, dyn);
}

typedef size_t (*CUoccupancyB2DSize)(int block);

/* The block size with the most resident threads per SM (the largest such
 * size on a tie, as the CUDA occupancy calculator chooses). */
DRV_EXPORT CUresult ptxemu_occupancy_best(int *grid, int *block, CUfunction f, CUoccupancyB2DSize dyn_of, size_t dyn,
                                          int limit) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!grid || !block || !f) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  int maxb = max_threads(f);
  if (limit > 0 && limit < maxb) maxb = limit;
  int best = 0, best_threads = -1, best_blocks = 0;
  for (int b = maxb / 32 * 32; b >= 32; b -= 32) {
    int n;
    occupancy(f, b, dyn_of ? dyn_of(b) : dyn, &n);
    if (n * b > best_threads) { best_threads = n * b; best = b; best_blocks = n; }
  }
  if (!best) { best = maxb; occupancy(f, best, dyn_of ? dyn_of(best) : dyn, &best_blocks); }
  *block = best;
  *grid = best_blocks * (int)drv.cfg.sms;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *grid, int *block, CUfunction f, CUoccupancyB2DSize dyn_of,
                                                     size_t dyn, int limit) {
  return ptxemu_occupancy_best(grid, block, f, dyn_of, dyn, limit);
}
DRV_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block, CUfunction f,
                                                              CUoccupancyB2DSize dyn_of, size_t dyn, int limit,
                                                              unsigned flags) {
  (void)flags;
  return ptxemu_occupancy_best(grid, block, f, dyn_of, dyn, limit);
}
DRV_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dyn, CUfunction f, int blocks, int block) {
  if (!dyn || !f || blocks <= 0 || block <= 0) return CUDA_ERROR_INVALID_VALUE;
  const isa_func *k = &f->mod->m->funcs[f->func];
  uint64_t per = drv.cfg.shared_per_sm / (uint32_t)blocks;
  if (per > drv.cfg.shared_per_cta) per = drv.cfg.shared_per_cta;
  per = per > drv.cfg.shared_reserved_per_cta ? per - drv.cfg.shared_reserved_per_cta : 0;
  *dyn = per > k->shared_bytes ? per - k->shared_bytes : 0;
  return CUDA_SUCCESS;
}

/* ---- cuLink*: JIT linking of PTX; the "cubin" it completes is the
 * linked PTX itself, which cuModuleLoadData accepts ---- */

struct CUlinkState_st { char **texts; size_t *lens; int n; char *out; };
enum { CU_JIT_INPUT_CUBIN = 0, CU_JIT_INPUT_PTX = 1, CU_JIT_INPUT_FATBINARY = 2, CU_JIT_INPUT_OBJECT = 3,
       CU_JIT_INPUT_LIBRARY = 4 };

DRV_EXPORT CUresult cuLinkCreate_v2(unsigned nopts, int *opts, void **vals, CUlinkState *state) {
  (void)nopts; (void)opts; (void)vals;
  if (!state) return CUDA_ERROR_INVALID_VALUE;
  *state = calloc(1, sizeof **state);
  return *state ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

DRV_EXPORT CUresult cuLinkAddData_v2(CUlinkState st, int type, void *data, size_t size, const char *name, unsigned nopts,
                                     int *opts, void **vals) {
  (void)name; (void)nopts; (void)opts; (void)vals;
  if (!st || !data) return CUDA_ERROR_INVALID_VALUE;
  char *text = NULL;
  uint64_t len = 0;
  if (type == CU_JIT_INPUT_PTX) {
    len = strnlen(data, size);
    text = malloc(len + 1);
    if (text) { memcpy(text, data, len); text[len] = 0; }
  } else if (type == CU_JIT_INPUT_FATBINARY) {
    char err[600];
    unsigned arch;
    if (fatbin_select_ptx(data, size, target_sm(), &text, &len, &arch, err, sizeof err)) {
      fprintf(stderr, "ptxemu: cuLinkAddData: %s\n", err);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
  } else {
    return drv_unsupported("cuLinkAddData of a cubin, object or library (ptxemu links PTX)");
  }
  if (!text) return CUDA_ERROR_OUT_OF_MEMORY;
  char **nt = realloc(st->texts, (size_t)(st->n + 1) * sizeof *nt);
  size_t *nl = nt ? realloc(st->lens, (size_t)(st->n + 1) * sizeof *nl) : NULL;
  if (nt) st->texts = nt;
  if (!nt || !nl) { free(text); return CUDA_ERROR_OUT_OF_MEMORY; }
  st->lens = nl;
  st->texts[st->n] = text;
  st->lens[st->n++] = (size_t)len;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuLinkAddFile_v2(CUlinkState st, int type, const char *path, unsigned nopts, int *opts, void **vals) {
  size_t len;
  char *data = path ? ptx_read_file(path, &len) : NULL;
  if (!data) return CUDA_ERROR_FILE_NOT_FOUND;
  CUresult r = cuLinkAddData_v2(st, type, data, len, path, nopts, opts, vals);
  free(data);
  return r;
}

DRV_EXPORT CUresult cuLinkComplete(CUlinkState st, void **image, size_t *size) {
  if (!st || !image || !st->n) return CUDA_ERROR_INVALID_VALUE;
  char err[256];
  size_t len;
  free(st->out);
  st->out = ptxlink(st->texts, st->lens, st->n, &len, err, sizeof err);
  if (!st->out) { fprintf(stderr, "ptxemu: %s\n", err); return CUDA_ERROR_OUT_OF_MEMORY; }
  *image = st->out;
  if (size) *size = len + 1;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuLinkDestroy(CUlinkState st) {
  if (!st) return CUDA_ERROR_INVALID_VALUE;
  for (int i = 0; i < st->n; i++) free(st->texts[i]);
  free(st->texts);
  free(st->lens);
  free(st->out);
  free(st);
  return CUDA_SUCCESS;
}
