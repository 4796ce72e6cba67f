/* cudart/rt.h - libcudart.so.13, ptxemu's CUDA Runtime API, built on its
 * driver (libcuda.so.1): what nvcc's host code registers (fatbinaries,
 * kernels, variables) and the runtime's own state (the last error, the
 * launch configuration stack).
 *
 * Invariants:
 * - Every runtime call returns what the driver call it becomes returns,
 *   mapped to the runtime's code (the numbers are shared), and records a
 *   failure as the thread's last error (cudaGetLastError).
 * - A registered fatbinary is loaded when one of its kernels or variables
 *   is first used (CUDA's lazy loading), once.
 * - Kernels and variables are found by the host address nvcc registered
 *   them with (the stub function, the shadow variable). */
#ifndef CUDART_RT_H
#define CUDART_RT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cudart/cuda_abi.h"

#define RT_EXPORT __attribute__((visibility("default")))
/* An entry point with CUDA 13's signature where CUDA 12's differs:
 * libcudart.so.12 links its own definition over it (rt_abi12.c). */
#define RT_ABI13 __attribute__((weak))
typedef CUstream cudaStream_t;
typedef CUevent cudaEvent_t;

typedef struct rt_fatbin {
  const void *wrapper;           /* what __cudaRegisterFatBinary got              */
  CUmodule mod;
  CUresult err;                  /* the load's error, once tried                  */
  bool tried;
  struct rt_fatbin *next;
} rt_fatbin;

typedef struct rt_func {
  const void *host;              /* the host stub's address                       */
  rt_fatbin *fb;
  char *name;                    /* the kernel's (mangled) name                    */
  CUfunction f;                  /* once loaded                                   */
} rt_func;

typedef struct rt_var {
  const void *host;              /* the shadow variable (or &pointer, managed)    */
  rt_fatbin *fb;
  char *name;
  size_t size;
  bool managed;
  void **managed_ptr;            /* managed: the host pointer nvcc's code reads  */
  CUdeviceptr dptr;              /* once loaded                                   */
  bool resolved;
} rt_var;

/* Record e as the calling thread's last error (unless success); returns e. */
cudaError_t rt_error(cudaError_t e);
/* The runtime's code for a driver result. */
static inline cudaError_t rt_from(CUresult r) { return rt_error(r); }
/* Report an unsupported call (rt_stubs.c calls it too). */
int rt_unsupported(const char *fn);
/* Where array a's texels lie (rt_texture.c): its device address, row pitch
 * (bytes), rows a slice, slices and bytes an element (all channels). */
cudaError_t rt_array_layout(CUarray a, uint64_t *base, uint64_t *pitch, uint64_t *rows, uint64_t *slices, uint64_t *elem);
/* The kernel registered with host address host, loaded; NULL with *err. */
rt_func *rt_func_find(const void *host, cudaError_t *err);
/* The host function a kernel was registered with (what the runtime calls
 * the kernel); f itself for a kernel not registered (the driver's). */
const void *rt_func_host(CUfunction f);
/* cudaGetDeviceProperties in CUDA 13's layout (rt_device.c). */
cudaError_t rt_device_props(cudaDeviceProp *p, int d);
/* The device address and size of the variable registered at host. */
cudaError_t rt_var_find(const void *host, CUdeviceptr *dptr, size_t *size);

/* ---- the driver calls the runtime is built on ---- */
CUresult cuInit(unsigned);
CUresult cuModuleLoadData(CUmodule *, const void *);
CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *, size_t *, CUmodule, const char *);
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                        void **, void **);
CUresult cuLaunchKernelEx(const CUlaunchConfig *, CUfunction, void **, void **);
CUresult cuLaunchCooperativeKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   CUstream, void **);
CUresult cuMemAlloc_v2(CUdeviceptr *, size_t);
CUresult cuMemAllocPitch_v2(CUdeviceptr *, size_t *, size_t, size_t, unsigned);
CUresult cuMemFree_v2(CUdeviceptr);
CUresult cuMemAllocHost_v2(void **, size_t);
CUresult cuMemHostAlloc(void **, size_t, unsigned);
CUresult cuMemFreeHost(void *);
CUresult cuMemHostRegister_v2(void *, size_t, unsigned);
CUresult cuMemHostUnregister(void *);
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *, void *, unsigned);
CUresult cuMemHostGetFlags(unsigned *, void *);
CUresult cuMemAllocManaged(CUdeviceptr *, size_t, unsigned);
CUresult cuMemGetInfo_v2(size_t *, size_t *);
CUresult ptxemu_memcpy2d(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, CUstream, int);
CUresult ptxemu_memset2d(uint64_t, uint64_t, uint32_t, uint32_t, uint64_t, uint64_t, CUstream, int);
int ptxemu_is_device(uint64_t, uint64_t);
CUresult ptxemu_host_view(uint64_t, uint64_t, void **);
CUresult ptxemu_pointer_info(uint64_t, int *, uint64_t *, uint64_t *, bool *);
CUresult cuCtxSynchronize(void);
CUresult cuCtxSetSharedMemConfig(int);
CUresult cuCtxGetSharedMemConfig(int *);
CUresult cuStreamCreate(CUstream *, unsigned);
CUresult cuStreamCreateWithPriority(CUstream *, unsigned, int);
CUresult cuStreamDestroy_v2(CUstream);
CUresult cuStreamSynchronize(CUstream);
CUresult cuStreamQuery(CUstream);
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned);
CUresult cuStreamGetFlags(CUstream, unsigned *);
CUresult cuStreamGetId(CUstream, unsigned long long *);
CUresult cuStreamGetPriority(CUstream, int *);
CUresult cuCtxGetStreamPriorityRange(int *, int *);
CUresult cuLaunchHostFunc(CUstream, CUhostFn, void *);
CUresult cuStreamAddCallback(CUstream, CUstreamCallback, void *, unsigned);
CUresult cuEventCreate(CUevent *, unsigned);
CUresult cuEventDestroy_v2(CUevent);
CUresult cuEventRecord(CUevent, CUstream);
CUresult cuEventRecordWithFlags(CUevent, CUstream, unsigned);
CUresult cuEventQuery(CUevent);
CUresult cuEventSynchronize(CUevent);
CUresult cuEventElapsedTime_v2(float *, CUevent, CUevent);
CUresult cuFuncGetAttribute(int *, int, CUfunction);
CUresult cuFuncSetAttribute(CUfunction, int, int);
CUresult cuFuncSetCacheConfig(CUfunction, int);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *, CUfunction, int, size_t);
CUresult ptxemu_occupancy_best(int *, int *, CUfunction, size_t (*)(int), size_t, int);
CUresult ptxemu_device_attribute(int *, int);
CUresult cuDeviceGetName(char *, int, CUdevice);
CUresult cuDeviceTotalMem_v2(size_t *, CUdevice);
CUresult cuCtxSetLimit(int, size_t);
CUresult cuCtxGetLimit(size_t *, int);
CUresult cuDevicePrimaryCtxReset_v2(CUdevice);
const char *ptxemu_error_name(int);
const char *ptxemu_error_string(int);
CUresult cuStreamBeginCapture_v2(CUstream, int);
CUresult cuStreamEndCapture(CUstream, CUgraph *);
CUresult cuStreamIsCapturing(CUstream, int *);
CUresult cuGraphCreate(CUgraph *, unsigned);
CUresult cuGraphDestroy(CUgraph);
CUresult cuGraphInstantiateWithFlags(CUgraphExec *, CUgraph, unsigned long long);
CUresult cuGraphLaunch(CUgraphExec, CUstream);
CUresult cuGraphExecDestroy(CUgraphExec);
CUresult cuGraphAddEmptyNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t);
CUresult cuGraphAddChildGraphNode(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUgraph);
CUresult cuGraphAddDependencies(CUgraph, const CUgraphNode *, const CUgraphNode *, size_t);
CUresult cuGraphGetNodes(CUgraph, CUgraphNode *, size_t *);
CUresult cuGraphExecUpdate_v2(CUgraphExec, CUgraph, void *);
#endif
