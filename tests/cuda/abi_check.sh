#!/bin/sh
# The structures of cudart/cuda_abi.h have NVIDIA's layouts: every field's
# offset and every size, compared with the CUDA toolkit's headers (cuda.h,
# cuda_runtime_api.h) in two small programs.  Skipped (77) without them.
. "$srcdir/tests/lib.sh"
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda/include/cuda_runtime_api.h" ] || { echo "SKIP: no CUDA headers under $cuda"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# field lists: STRUCT FIELD...
fields='
cudaDeviceProp name uuid luid totalGlobalMem sharedMemPerBlock regsPerBlock warpSize memPitch maxThreadsPerBlock maxThreadsDim maxGridSize totalConstMem major minor textureAlignment multiProcessorCount canMapHostMemory maxTexture2D surfaceAlignment concurrentKernels ECCEnabled asyncEngineCount unifiedAddressing memoryBusWidth l2CacheSize maxThreadsPerMultiProcessor sharedMemPerMultiprocessor regsPerMultiprocessor managedMemory concurrentManagedAccess cooperativeLaunch sharedMemPerBlockOptin maxBlocksPerMultiProcessor reservedSharedMemPerBlock memoryPoolsSupported clusterLaunch hostNumaMultinodeIpcSupported reserved
cudaPointerAttributes type device devicePointer hostPointer
cudaFuncAttributes sharedSizeBytes constSizeBytes localSizeBytes maxThreadsPerBlock numRegs ptxVersion binaryVersion maxDynamicSharedSizeBytes preferredShmemCarveout requiredClusterWidth nonPortableClusterSizeAllowed reserved
cudaLaunchConfig_t gridDim blockDim dynamicSmemBytes stream attrs numAttrs
cudaLaunchAttribute id val
CUlaunchConfig gridDimX blockDimZ sharedMemBytes hStream attrs numAttrs
CUlaunchAttribute id value
CUgraphEdgeData from_port to_port type reserved
CUDA_KERNEL_NODE_PARAMS func gridDimX blockDimZ sharedMemBytes kernelParams extra kern ctx
CUDA_MEMSET_NODE_PARAMS dst pitch value elementSize width height
CUDA_HOST_NODE_PARAMS fn userData
CUDA_MEMCPY3D srcXInBytes srcY srcZ srcLOD srcMemoryType srcHost srcDevice srcArray reserved0 srcPitch srcHeight dstXInBytes dstY dstZ dstLOD dstMemoryType dstHost dstDevice dstArray reserved1 dstPitch dstHeight WidthInBytes Height Depth
CUDA_MEM_ALLOC_NODE_PARAMS poolProps accessDescs accessDescCount bytesize dptr
cudaKernelNodeParams func gridDim blockDim sharedMemBytes kernelParams extra
cudaMemsetParams dst pitch value elementSize width height
cudaHostNodeParams fn userData
cudaPitchedPtr ptr pitch xsize ysize
cudaMemcpy3DParms srcArray srcPos srcPtr dstArray dstPos dstPtr extent kind
cudaMemAllocNodeParams poolProps accessDescs accessDescCount bytesize dptr
CUmemLocation type id
CUmemAllocationProp type requestedHandleTypes location win32HandleMetaData allocFlags allocFlags.compressionType allocFlags.gpuDirectRDMACapable allocFlags.usage allocFlags.reserved
CUmemAccessDesc location flags
'
gen() {   # gen HEADER-INCLUDES -> a program printing "STRUCT FIELD OFFSET" and sizes
  echo "#include <stdio.h>"
  echo "#include <stddef.h>"
  echo "$1"
  echo "int main(void) {"
  echo "$fields" | while read -r s rest; do
    [ -n "$s" ] || continue
    t=$s; case $s in cuda*) [ "$s" = cudaLaunchConfig_t ] || [ "$s" = cudaLaunchAttribute ] || t="struct $s";; esac
    # printf, not echo: dash's echo would turn the \n into a line break
    printf '  printf("%s size %%zu\\n", sizeof(%s));\n' "$s" "$t"
    for f in $rest; do printf '  printf("%s %s %%zu\\n", offsetof(%s, %s));\n' "$s" "$f" "$t" "$f"; done
  done
  echo "  return 0; }"
}
gen '#include <cuda.h>
#include <cuda_runtime_api.h>' > "$tmp/nv.c"
gen '#include "cudart/cuda_abi.h"' > "$tmp/ours.c"
${CC:-cc} -I"$cuda/include" -o "$tmp/nv" "$tmp/nv.c" || { bad "compiling against NVIDIA's headers"; finish; }
${CC:-cc} -I"$srcdir" -o "$tmp/ours" "$tmp/ours.c" || { bad "compiling against cudart/cuda_abi.h"; finish; }
"$tmp/nv" > "$tmp/nv.txt"; "$tmp/ours" > "$tmp/ours.txt"
if cmp -s "$tmp/nv.txt" "$tmp/ours.txt"; then ok; else bad "layouts differ"; diff "$tmp/nv.txt" "$tmp/ours.txt" | head -20; fi
finish
