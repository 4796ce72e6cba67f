/* cudart/cuda_abi.h - the binary interface of NVIDIA's CUDA Driver and
 * Runtime APIs as programs compiled by nvcc call them: handle types,
 * enumeration values and structure layouts, written from the CUDA Driver
 * and Runtime API references.  Layouts must match NVIDIA's byte for byte
 * (programs read fields by offset); tests/cuda/abi_check.sh compares them
 * with the CUDA toolkit's headers when one is installed. */
#ifndef CUDART_CUDA_ABI_H
#define CUDART_CUDA_ABI_H
#include <stddef.h>
#include <stdint.h>

/* ---- errors: cudaError_t and CUresult share their numbers (errors.def) ---- */
typedef int CUresult;
typedef int cudaError_t;
enum {
#define ERR(num, rt, drv, msg) ERRNUM_##num = num,
#include "cudart/errors.def"
#undef ERR
};
enum {
  CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2, CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4, CUDA_ERROR_NO_DEVICE = 100, CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200, CUDA_ERROR_INVALID_CONTEXT = 201, CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218, CUDA_ERROR_INVALID_SOURCE = 300, CUDA_ERROR_FILE_NOT_FOUND = 301, CUDA_ERROR_OPERATING_SYSTEM = 304,
  CUDA_ERROR_INVALID_HANDLE = 400, CUDA_ERROR_ILLEGAL_STATE = 401, CUDA_ERROR_NOT_FOUND = 500, CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701, CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712, CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
  CUDA_ERROR_HARDWARE_STACK_ERROR = 714, CUDA_ERROR_ILLEGAL_INSTRUCTION = 715, CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_ADDRESS_SPACE = 717, CUDA_ERROR_INVALID_PC = 718, CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720, CUDA_ERROR_ASSERT = 710, CUDA_ERROR_NOT_PERMITTED = 800, CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
  CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903, CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904,
  CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905,
  CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908, CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910, CUDA_ERROR_INVALID_CLUSTER_SIZE = 912, CUDA_ERROR_UNKNOWN = 999
};
/* runtime-only numbers */
enum {
  cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12, cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidMemcpyDirection = 21, cudaErrorInvalidDeviceFunction = 98,
  cudaErrorInvalidResourceHandle = 400, cudaErrorSymbolNotFound = 500
};

/* ---- driver handles ---- */
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlib_st *CUlibrary;
typedef struct CUfunc_st *CUkernel;        /* a library's kernel is the function itself */
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUlinkState_st *CUlinkState;
typedef struct CUmemPool_st *CUmemoryPool;
typedef uint64_t CUtexObject;
typedef uint64_t CUsurfObject;
typedef struct CUarray_st *CUarray;
typedef struct CUuserObject_st *CUuserObject;
typedef void (*CUhostFn)(void *userData);
typedef void (*CUstreamCallback)(CUstream hStream, CUresult status, void *userData);
typedef struct { char bytes[16]; } CUuuid;

#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

/* cuLaunchKernel's extra[] keys */
#define CU_LAUNCH_PARAM_END ((void *)0x00)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

typedef union CUlaunchAttributeValue {
  char pad[64];
  struct { unsigned x, y, z; } clusterDim;
  int cooperative;
  int priority;
} CUlaunchAttributeValue;
typedef struct CUlaunchAttribute {
  int id;
  char pad[4];
  CUlaunchAttributeValue value;
} CUlaunchAttribute;
enum { CU_LAUNCH_ATTRIBUTE_IGNORE = 0, CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
       CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5, CU_LAUNCH_ATTRIBUTE_PRIORITY = 8 };
typedef struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
} CUlaunchConfig;

/* CUfunction_attribute */
enum {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3, CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_PTX_VERSION = 5, CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
  CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
  CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15
};

/* CUdevice_attribute (cudaDeviceAttr has the same numbers) */
enum {
  ATTR_MAX_THREADS_PER_BLOCK = 1, ATTR_MAX_BLOCK_DIM_X = 2, ATTR_MAX_BLOCK_DIM_Y = 3, ATTR_MAX_BLOCK_DIM_Z = 4,
  ATTR_MAX_GRID_DIM_X = 5, ATTR_MAX_GRID_DIM_Y = 6, ATTR_MAX_GRID_DIM_Z = 7, ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  ATTR_TOTAL_CONSTANT_MEMORY = 9, ATTR_WARP_SIZE = 10, ATTR_MAX_PITCH = 11, ATTR_MAX_REGISTERS_PER_BLOCK = 12,
  ATTR_CLOCK_RATE = 13, ATTR_TEXTURE_ALIGNMENT = 14, ATTR_GPU_OVERLAP = 15, ATTR_MULTIPROCESSOR_COUNT = 16,
  ATTR_KERNEL_EXEC_TIMEOUT = 17, ATTR_INTEGRATED = 18, ATTR_CAN_MAP_HOST_MEMORY = 19, ATTR_COMPUTE_MODE = 20,
  ATTR_TEXTURE1D_WIDTH = 21, ATTR_TEXTURE2D_WIDTH = 22, ATTR_TEXTURE2D_HEIGHT = 23, ATTR_TEXTURE3D_WIDTH = 24,
  ATTR_TEXTURE3D_HEIGHT = 25, ATTR_TEXTURE3D_DEPTH = 26, ATTR_TEXTURE2D_LAYERED_WIDTH = 27,
  ATTR_TEXTURE2D_LAYERED_HEIGHT = 28, ATTR_TEXTURE2D_LAYERED_LAYERS = 29, ATTR_SURFACE_ALIGNMENT = 30,
  ATTR_CONCURRENT_KERNELS = 31, ATTR_ECC_ENABLED = 32, ATTR_PCI_BUS_ID = 33, ATTR_PCI_DEVICE_ID = 34,
  ATTR_TCC_DRIVER = 35, ATTR_MEMORY_CLOCK_RATE = 36, ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37, ATTR_L2_CACHE_SIZE = 38,
  ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 39, ATTR_ASYNC_ENGINE_COUNT = 40, ATTR_UNIFIED_ADDRESSING = 41,
  ATTR_TEXTURE1D_LAYERED_WIDTH = 42, ATTR_TEXTURE1D_LAYERED_LAYERS = 43, ATTR_PCI_DOMAIN_ID = 50,
  ATTR_TEXTURE_PITCH_ALIGNMENT = 51, ATTR_TEXTURECUBEMAP_WIDTH = 52, ATTR_SURFACE1D_WIDTH = 55,
  ATTR_SURFACE2D_WIDTH = 56, ATTR_SURFACE2D_HEIGHT = 57, ATTR_SURFACE3D_WIDTH = 58, ATTR_SURFACE3D_HEIGHT = 59,
  ATTR_SURFACE3D_DEPTH = 60, ATTR_TEXTURE1D_LINEAR_WIDTH = 69, ATTR_TEXTURE2D_LINEAR_WIDTH = 70,
  ATTR_TEXTURE2D_LINEAR_HEIGHT = 71, ATTR_TEXTURE2D_LINEAR_PITCH = 72, ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
  ATTR_COMPUTE_CAPABILITY_MINOR = 76, ATTR_STREAM_PRIORITIES_SUPPORTED = 78, ATTR_GLOBAL_L1_CACHE_SUPPORTED = 79,
  ATTR_LOCAL_L1_CACHE_SUPPORTED = 80, ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  ATTR_MAX_REGISTERS_PER_MULTIPROCESSOR = 82, ATTR_MANAGED_MEMORY = 83, ATTR_MULTI_GPU_BOARD = 84,
  ATTR_MULTI_GPU_BOARD_GROUP_ID = 85, ATTR_HOST_NATIVE_ATOMIC_SUPPORTED = 86,
  ATTR_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO = 87, ATTR_PAGEABLE_MEMORY_ACCESS = 88,
  ATTR_CONCURRENT_MANAGED_ACCESS = 89, ATTR_COMPUTE_PREEMPTION_SUPPORTED = 90,
  ATTR_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM = 91, ATTR_COOPERATIVE_LAUNCH = 95,
  ATTR_COOPERATIVE_MULTI_DEVICE_LAUNCH = 96, ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  ATTR_CAN_FLUSH_REMOTE_WRITES = 98, ATTR_HOST_REGISTER_SUPPORTED = 99,
  ATTR_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES = 100, ATTR_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST = 101,
  ATTR_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 102, ATTR_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 103,
  ATTR_MAX_BLOCKS_PER_MULTIPROCESSOR = 106, ATTR_GENERIC_COMPRESSION_SUPPORTED = 107, ATTR_MAX_PERSISTING_L2_CACHE_SIZE = 108,
  ATTR_MAX_ACCESS_POLICY_WINDOW_SIZE = 109, ATTR_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED = 110,
  ATTR_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
  ATTR_READ_ONLY_HOST_REGISTER_SUPPORTED = 113, ATTR_MEMORY_POOLS_SUPPORTED = 115,
  ATTR_CLUSTER_LAUNCH = 120, ATTR_UNIFIED_FUNCTION_POINTERS = 125, ATTR_HANDLE_TYPE_FABRIC_SUPPORTED = 128
};

/* cuPointerGetAttribute */
enum { CU_POINTER_ATTRIBUTE_CONTEXT = 1, CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2, CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
       CU_POINTER_ATTRIBUTE_HOST_POINTER = 4, CU_POINTER_ATTRIBUTE_IS_MANAGED = 8, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
       CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6, CU_POINTER_ATTRIBUTE_BUFFER_ID = 7, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
       CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11, CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12, CU_POINTER_ATTRIBUTE_MAPPED = 13,
       CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES = 14, CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
       CU_POINTER_ATTRIBUTE_ACCESS_FLAGS = 16, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE = 17, CU_POINTER_ATTRIBUTE_MAPPING_SIZE = 18,
       CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR = 19, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID = 20,
       CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE = 21 };
enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };

/* cudaMemcpyKind */
enum { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
       cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
/* cudaMemoryType (cudaPointerAttributes.type) */
enum { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };

/* ---- runtime structures ---- */
typedef struct dim3 { unsigned x, y, z; } dim3;

typedef struct cudaPointerAttributes {
  int type;                /* cudaMemoryType */
  int device;
  void *devicePointer;
  void *hostPointer;
  long reserved[8];
} cudaPointerAttributes;

typedef struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
      preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight,
      requiredClusterDepth, clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
  int reserved[16];
} cudaFuncAttributes;

typedef struct cudaLaunchAttributeValue { char pad[64]; } cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute {
  int id;
  char pad[4];
  CUlaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_t {
  dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  CUstream stream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
} cudaLaunchConfig_t;

/* cudaDeviceProp of CUDA 13 (cudaGetDeviceProperties): 1008 bytes. */
typedef struct cudaDeviceProp {
  char name[256];
  CUuuid uuid;
  char luid[8];
  unsigned luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int multiProcessorCount, integrated, canMapHostMemory, maxTexture1D, maxTexture1DMipmap, maxTexture2D[2],
      maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3],
      maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2], maxSurface1D,
      maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap,
      maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
      unifiedAddressing, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor,
      streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,
      pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
      cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor,
      accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
      timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers,
      deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
  unsigned gpuPciDeviceID, gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
} cudaDeviceProp;

/* cudaDeviceProp of CUDA 12 (cudaGetDeviceProperties_v2, libcudart.so.12):
 * 1032 bytes.  CUDA 13 dropped clockRate, deviceOverlap,
 * kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear,
 * memoryClockRate, singleToDoublePrecisionPerfRatio and
 * cooperativeMultiDeviceLaunch, and put NUMA fields in the reserved tail. */
typedef struct cudaDeviceProp12 {
  char name[256];
  CUuuid uuid;
  char luid[8];
  unsigned luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode,
      maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear, maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3],
      maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2],
      maxTexture2DLayered[3], maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3],
      maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
      unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize,
      maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,
      singleToDoublePrecisionPerfRatio, pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported,
      canUseHostPointerForRegisteredMem, cooperativeLaunch, cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor,
      accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
      timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers, reserved2[2],
      reserved1[1], reserved[60];
} cudaDeviceProp12;

/* cudaMemLocation / CUmemLocation: where memory is (a device, the host, a
 * NUMA node); CUDA 13 passes it by value where CUDA 12 passed a device. */
typedef struct cudaMemLocation { int type, id; } cudaMemLocation;
typedef cudaMemLocation CUmemLocation;
enum { CU_MEM_LOCATION_TYPE_INVALID = 0, CU_MEM_LOCATION_TYPE_DEVICE = 1, CU_MEM_LOCATION_TYPE_HOST = 2,
       CU_MEM_LOCATION_TYPE_HOST_NUMA = 3, CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 4 };

/* ---- virtual memory management: physical allocations (cuMemCreate),
 * mapped into reserved address ranges (cuMemAddressReserve, cuMemMap) ---- */
typedef unsigned long long CUmemGenericAllocationHandle;
typedef struct CUmemAllocationProp {
  int type;                      /* CU_MEM_ALLOCATION_TYPE_*                      */
  int requestedHandleTypes;      /* CU_MEM_HANDLE_TYPE_* bits: exportable as      */
  CUmemLocation location;
  void *win32HandleMetaData;     /* Windows only: NULL elsewhere                  */
  struct {
    unsigned char compressionType;        /* CU_MEM_ALLOCATION_COMP_*             */
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;                 /* CU_MEM_CREATE_USAGE_* bits           */
    unsigned char reserved[4];
  } allocFlags;
} CUmemAllocationProp;
/* who may access a mapped range, and how (CU_MEM_ACCESS_FLAGS_PROT_*) */
typedef struct CUmemAccessDesc { CUmemLocation location; int flags; } CUmemAccessDesc;
enum { CU_MEM_ALLOCATION_TYPE_INVALID = 0, CU_MEM_ALLOCATION_TYPE_PINNED = 1, CU_MEM_ALLOCATION_TYPE_MANAGED = 2 };
enum { CU_MEM_HANDLE_TYPE_NONE = 0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 1, CU_MEM_HANDLE_TYPE_WIN32 = 2,
       CU_MEM_HANDLE_TYPE_WIN32_KMT = 4, CU_MEM_HANDLE_TYPE_FABRIC = 8 };
enum { CU_MEM_ACCESS_FLAGS_PROT_NONE = 0, CU_MEM_ACCESS_FLAGS_PROT_READ = 1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3 };
enum { CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 1 };
enum { CU_MEM_ALLOCATION_COMP_NONE = 0, CU_MEM_ALLOCATION_COMP_GENERIC = 1 };

/* ---- graph node parameters ---- */
/* CUDA_KERNEL_NODE_PARAMS (its _v2: CUDA 12 added kern and ctx) */
typedef struct CUDA_KERNEL_NODE_PARAMS {
  CUfunction func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void **kernelParams;
  void **extra;
  CUkernel kern;
  CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS;
typedef struct CUDA_MEMSET_NODE_PARAMS {
  CUdeviceptr dst;
  size_t pitch;
  unsigned value, elementSize;
  size_t width, height;
} CUDA_MEMSET_NODE_PARAMS;
typedef struct CUDA_HOST_NODE_PARAMS { CUhostFn fn; void *userData; } CUDA_HOST_NODE_PARAMS;
/* a 3-D copy: x in bytes; an array side ignores its pitch and height */
typedef struct CUDA_MEMCPY3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;             /* CU_MEMORYTYPE_* */
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D;
typedef struct CUDA_MEM_ALLOC_NODE_PARAMS {
  char poolProps[88];            /* CUmemPoolProps */
  const void *accessDescs;       /* CUmemAccessDesc[accessDescCount], 12 bytes each */
  size_t accessDescCount, bytesize;
  CUdeviceptr dptr;              /* out */
} CUDA_MEM_ALLOC_NODE_PARAMS;

/* CUgraphNodeParams (cuGraphAddNode): a node's type and its parameters;
 * the bytes past the type's member must be zero.  The runtime's
 * cudaGraphNodeParams has the same frame (its kernel and copy members
 * differ). */
typedef struct CUDA_MEMCPY_NODE_PARAMS { int flags, reserved; CUcontext copyCtx; CUDA_MEMCPY3D copyParams; } CUDA_MEMCPY_NODE_PARAMS;
typedef struct CUDA_CHILD_GRAPH_NODE_PARAMS { CUgraph graph; int ownership; } CUDA_CHILD_GRAPH_NODE_PARAMS;
/* a conditional node: its handle, CUgraphConditionalNodeType, its bodies
 * (phGraph_out: the node's array of size graphs) */
typedef struct CUDA_CONDITIONAL_NODE_PARAMS {
  uint64_t handle;
  int type;
  unsigned size;
  CUgraph *phGraph_out;
  CUcontext ctx;
} CUDA_CONDITIONAL_NODE_PARAMS;
typedef struct CUgraphNodeParams {
  int type;                      /* CUgraphNodeType */
  int reserved0[3];
  union {
    long long reserved1[29];
    CUDA_KERNEL_NODE_PARAMS kernel;
    CUDA_MEMCPY_NODE_PARAMS memcpy;
    CUDA_MEMSET_NODE_PARAMS memset;  /* then its context (CUDA_MEMSET_NODE_PARAMS_v2) */
    CUDA_HOST_NODE_PARAMS host;
    CUDA_CHILD_GRAPH_NODE_PARAMS graph;
    CUevent event;                   /* wait and record nodes */
    CUDA_MEM_ALLOC_NODE_PARAMS alloc;
    CUdeviceptr free;
    CUDA_CONDITIONAL_NODE_PARAMS conditional;
  };
  long long reserved2;
} CUgraphNodeParams;
/* CUDA_GRAPH_INSTANTIATE_PARAMS, the runtime's cudaGraphInstantiateParams too */
typedef struct CUDA_GRAPH_INSTANTIATE_PARAMS {
  uint64_t flags;
  CUstream hUploadStream;
  CUgraphNode hErrNode_out;
  int result_out;                /* CUgraphInstantiateResult */
} CUDA_GRAPH_INSTANTIATE_PARAMS;

/* the runtime's */
typedef struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim, blockDim;
  unsigned sharedMemBytes;
  void **kernelParams;
  void **extra;
} cudaKernelNodeParams;
typedef struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned value, elementSize;
  size_t width, height;
} cudaMemsetParams;
typedef struct cudaHostNodeParams { CUhostFn fn; void *userData; } cudaHostNodeParams;
typedef struct cudaMemAllocNodeParams {
  char poolProps[88];            /* cudaMemPoolProps */
  const void *accessDescs;       /* cudaMemAccessDesc[accessDescCount] */
  size_t accessDescCount, bytesize;
  void *dptr;                    /* out */
} cudaMemAllocNodeParams;
typedef struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; } cudaPitchedPtr;
typedef struct cudaExtent { size_t width, height, depth; } cudaExtent;
typedef struct cudaPos { size_t x, y, z; } cudaPos;
typedef struct cudaMemcpy3DParms {
  CUarray srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  CUarray dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  int kind;                      /* cudaMemcpyKind */
} cudaMemcpy3DParms;

/* CUgraphEdgeData / cudaGraphEdgeData (CUDA 12.3 on): ports and a type, all
 * zero for a plain dependency, the only kind ptxemu's graphs keep. */
typedef struct CUgraphEdgeData { unsigned char from_port, to_port, type, reserved[5]; } CUgraphEdgeData;

#endif
