/* cudart/drv_proc.c - cuGetProcAddress: the address of a driver entry
 * point by name, for the version of the API the caller was built for
 * (NAME_v2 where the call has one, else NAME; per-thread-stream variants
 * with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include "cudart/drv.h"

enum { CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2 };
enum { CU_GET_PROC_ADDRESS_SUCCESS = 0, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1 };

/* This library's own handle (not another library's symbol of that name). */
static void *self(void) {
  static void *h;
  if (!h) {
    Dl_info info;
    if (dladdr((void *)self, &info) && info.dli_fname) h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }
  return h;
}

DRV_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags, int *status) {
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  *pfn = NULL;
  void *h = self();
  if (!h) return CUDA_ERROR_NOT_FOUND;
  const char *suffix = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? "_ptsz" : "";
  /* newer versions first; cuCtxCreate's _v4 takes other arguments and
   * belongs to callers built for 12.5 or later */
  static const char *const vers[] = { "_v4", "_v3", "_v2", "" };
  for (size_t i = 0; i < sizeof vers / sizeof *vers && !*pfn; i++) {
    if (strcmp(vers[i], "_v4") == 0 && version < 12050) continue;
    char name[256];
    snprintf(name, sizeof name, "%s%s%s", symbol, vers[i], suffix);
    *pfn = dlsym(h, name);
    if (!*pfn && *suffix) {
      snprintf(name, sizeof name, "%s%s", symbol, vers[i]);
      *pfn = dlsym(h, name);
    }
  }
  if (status) *status = *pfn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

DRV_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}

/* NVIDIA's closed libraries (cuBLAS, cuFFT, cuSPARSE, cuDNN, ...) reach the
 * driver through private tables and carry machine code (SASS) rather than
 * PTX: neither exists here.  Say so once, naming the library that asked,
 * instead of a bare "not supported" that leaves the user guessing. */
DRV_EXPORT CUresult cuGetExportTable(const void **table, const CUuuid *id) {
  (void)id;
  if (table) *table = NULL;
  static int said;
  if (!said) {
    said = 1;
    Dl_info info;
    const char *who = dladdr(__builtin_return_address(0), &info) && info.dli_fname ? info.dli_fname : "a library";
    const char *base = strrchr(who, '/');
    fprintf(stderr, "ptxemu: %s asked for NVIDIA's private driver interface (cuGetExportTable): NVIDIA's closed libraries "
            "(cuBLAS, cuFFT, cuRAND, cuSPARSE, cuDNN, ...) need it and ship GPU machine code (SASS) instead of PTX, so they cannot run "
            "on ptxemu; write the kernels yourself, or build an open library from source with nvcc\n", base ? base + 1 : who);
  }
  return CUDA_ERROR_NOT_SUPPORTED;
}
