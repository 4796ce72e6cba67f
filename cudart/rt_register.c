/* cudart/rt_register.c - what nvcc's generated host code calls before main
 * and around each <<<>>> launch: fatbinary, kernel and variable
 * registration, lazy module loading, the launch configuration stack. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/rt.h"

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_fatbin *fatbins;
static rt_func *funcs;
static size_t nfuncs, capfuncs;
static rt_var *vars;
static size_t nvars, capvars;

static __thread cudaError_t last_error;

cudaError_t rt_error(cudaError_t e) {
  if (e) last_error = e;
  return e;
}

int rt_unsupported(const char *fn) {
  fprintf(stderr, "ptxemu: %s is not supported by ptxemu's CUDA runtime (returning cudaErrorNotSupported)\n", fn);
  return rt_error(CUDA_ERROR_NOT_SUPPORTED);
}

RT_EXPORT cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = 0;
  return e;
}
RT_EXPORT cudaError_t cudaPeekAtLastError(void) { return last_error; }

RT_EXPORT const char *cudaGetErrorName(cudaError_t e) {
  const char *s = ptxemu_error_name(e);
  return s ? s : "unrecognized error code";
}
RT_EXPORT const char *cudaGetErrorString(cudaError_t e) {
  const char *s = ptxemu_error_string(e);
  return s ? s : "unrecognized error code";
}

/* ---- registration ---- */

RT_EXPORT void **__cudaRegisterFatBinary(void *wrapper) {
  rt_fatbin *fb = calloc(1, sizeof *fb);
  if (!fb) { fprintf(stderr, "ptxemu: out of memory registering a fatbinary\n"); abort(); }
  fb->wrapper = wrapper;
  pthread_mutex_lock(&reg_lock);
  fb->next = fatbins;
  fatbins = fb;
  pthread_mutex_unlock(&reg_lock);
  return (void **)fb;
}

RT_EXPORT void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

RT_EXPORT void __cudaUnregisterFatBinary(void **handle) {
  (void)handle;   /* at exit: modules stay until the process ends */
}

RT_EXPORT void __cudaRegisterFunction(void **handle, const char *host, char *dev, const char *name, int limit,
                                      void *tid, void *bid, void *bdim, void *gdim, int *wsize) {
  (void)dev; (void)limit; (void)tid; (void)bid; (void)bdim; (void)gdim; (void)wsize;
  pthread_mutex_lock(&reg_lock);
  if (nfuncs == capfuncs) {
    size_t nc = capfuncs ? capfuncs * 2 : 64;
    rt_func *nf = realloc(funcs, nc * sizeof *nf);
    if (!nf) { fprintf(stderr, "ptxemu: out of memory registering kernels\n"); abort(); }
    funcs = nf;
    capfuncs = nc;
  }
  funcs[nfuncs++] = (rt_func){ .host = host, .fb = (rt_fatbin *)handle, .name = strdup(name) };
  pthread_mutex_unlock(&reg_lock);
}

static void add_var(void **handle, const void *host, const char *name, size_t size, bool managed) {
  pthread_mutex_lock(&reg_lock);
  if (nvars == capvars) {
    size_t nc = capvars ? capvars * 2 : 64;
    rt_var *nv = realloc(vars, nc * sizeof *nv);
    if (!nv) { fprintf(stderr, "ptxemu: out of memory registering variables\n"); abort(); }
    vars = nv;
    capvars = nc;
  }
  vars[nvars++] = (rt_var){ .host = host, .fb = (rt_fatbin *)handle, .name = strdup(name), .size = size,
                            .managed = managed, .managed_ptr = managed ? (void **)host : NULL };
  pthread_mutex_unlock(&reg_lock);
}

RT_EXPORT void __cudaRegisterVar(void **handle, char *host, char *dev, const char *name, int ext, size_t size,
                                 int constant, int global) {
  (void)dev; (void)ext; (void)constant; (void)global;
  add_var(handle, host, name, size, false);
}

RT_EXPORT void __cudaRegisterManagedVar(void **handle, void **host_ptr, char *dev, const char *name, int ext,
                                        size_t size, int constant, int global) {
  (void)dev; (void)ext; (void)constant; (void)global;
  add_var(handle, host_ptr, name, size, true);
}

RT_EXPORT void __cudaRegisterTexture(void **handle, const void *ref, const void **dev, const char *name, int dim,
                                     int norm, int ext) {
  (void)handle; (void)ref; (void)dev; (void)dim; (void)norm; (void)ext;
  fprintf(stderr, "ptxemu: texture reference '%s' (the texture reference API) is not supported; use texture objects\n", name);
}
RT_EXPORT void __cudaRegisterSurface(void **handle, const void *ref, const void **dev, const char *name, int dim,
                                     int ext) {
  (void)handle; (void)ref; (void)dev; (void)dim; (void)ext;
  fprintf(stderr, "ptxemu: surface reference '%s' (the surface reference API) is not supported; use surface objects\n", name);
}
RT_EXPORT void __cudaRegisterHostVar(void **handle, const char *name, char *host, size_t size) {
  (void)handle; (void)host; (void)size;
  fprintf(stderr, "ptxemu: host variable '%s' registration is not supported\n", name);
}

/* Load fb's module (once); its managed variables then point at their
 * bytes. */
static CUresult load(rt_fatbin *fb) {
  if (fb->tried) return fb->err;
  fb->tried = true;
  fb->err = cuModuleLoadData(&fb->mod, fb->wrapper);
  if (fb->err) return fb->err;
  for (size_t i = 0; i < nvars; i++) {
    rt_var *v = &vars[i];
    if (v->fb != fb || !v->managed) continue;
    size_t size;
    void *host;
    if (cuModuleGetGlobal_v2(&v->dptr, &size, fb->mod, v->name) == 0 && ptxemu_host_view(v->dptr, size, &host) == 0) {
      v->resolved = true;
      *v->managed_ptr = host;
    }
  }
  return CUDA_SUCCESS;
}

/* nvcc's code calls this before using a module's managed variables. */
RT_EXPORT char __cudaInitModule(void **handle) {
  pthread_mutex_lock(&reg_lock);
  CUresult r = load((rt_fatbin *)handle);
  pthread_mutex_unlock(&reg_lock);
  return r == 0;
}

rt_func *rt_func_find(const void *host, cudaError_t *err) {
  pthread_mutex_lock(&reg_lock);
  rt_func *f = NULL;
  for (size_t i = 0; i < nfuncs; i++) if (funcs[i].host == host) { f = &funcs[i]; break; }
  /* a cudaKernel_t from __cudaGetKernel is the entry itself */
  if (!f && nfuncs && (const rt_func *)host >= funcs && (const rt_func *)host < funcs + nfuncs) f = (rt_func *)host;
  if (!f) { pthread_mutex_unlock(&reg_lock); *err = cudaErrorInvalidDeviceFunction; return NULL; }
  if (!f->f) {
    CUresult r = load(f->fb);
    if (!r) r = cuModuleGetFunction(&f->f, f->fb->mod, f->name);
    if (r) {
      pthread_mutex_unlock(&reg_lock);
      *err = r == CUDA_ERROR_NO_BINARY_FOR_GPU ? 209 /* cudaErrorNoKernelImageForDevice */ : r;
      return NULL;
    }
  }
  pthread_mutex_unlock(&reg_lock);
  return f;
}

const void *rt_func_host(CUfunction f) {
  pthread_mutex_lock(&reg_lock);
  const void *host = f;
  for (size_t i = 0; i < nfuncs; i++) if (funcs[i].f == f) { host = funcs[i].host; break; }
  pthread_mutex_unlock(&reg_lock);
  return host;
}

cudaError_t rt_var_find(const void *host, CUdeviceptr *dptr, size_t *size) {
  pthread_mutex_lock(&reg_lock);
  rt_var *v = NULL;
  for (size_t i = 0; i < nvars; i++) if (vars[i].host == host) { v = &vars[i]; break; }
  if (!v) { pthread_mutex_unlock(&reg_lock); return cudaErrorInvalidSymbol; }
  if (!v->resolved) {
    CUresult r = load(v->fb);
    size_t s;
    if (!r) r = cuModuleGetGlobal_v2(&v->dptr, &s, v->fb->mod, v->name);
    if (r) { pthread_mutex_unlock(&reg_lock); return r == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidSymbol : r; }
    v->resolved = true;
  }
  *dptr = v->dptr;
  if (size) *size = v->size;
  pthread_mutex_unlock(&reg_lock);
  return 0;
}

RT_EXPORT cudaError_t __cudaGetKernel(void **kernel, const void *host) {
  cudaError_t e = 0;
  rt_func *f = rt_func_find(host, &e);
  if (kernel) *kernel = f;
  return rt_error(e);
}

/* ---- <<<grid, block, shared, stream>>> ---- */

typedef struct call_config { dim3 grid, block; size_t shared; cudaStream_t stream; } call_config;
static __thread call_config config_stack[16];
static __thread int config_depth;

RT_EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
  if (config_depth == 16) return 1;
  config_stack[config_depth++] = (call_config){ grid, block, shared, stream };
  return 0;
}

RT_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, cudaStream_t *stream) {
  if (!config_depth) return rt_error(cudaErrorInvalidConfiguration);
  call_config *c = &config_stack[--config_depth];
  *grid = c->grid;
  *block = c->block;
  *shared = c->shared;
  *stream = c->stream;
  return 0;
}
