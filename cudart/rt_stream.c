/* cudart/rt_stream.c - streams and events of the Runtime API (the driver's,
 * one for one). */
#include "cudart/rt.h"

RT_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) { return rt_from(cuStreamCreate(s, 0)); }
RT_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) { return rt_from(cuStreamCreate(s, flags)); }
RT_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int prio) {
  return rt_from(cuStreamCreateWithPriority(s, flags, prio));
}
RT_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) { return rt_from(cuStreamDestroy_v2(s)); }
RT_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) { return rt_from(cuStreamSynchronize(s)); }
RT_EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) { return rt_from(cuStreamQuery(s)); }
RT_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  return rt_from(cuStreamWaitEvent(s, e, flags));
}
RT_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags) { return rt_from(cuStreamGetFlags(s, flags)); }
RT_EXPORT cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id) { return rt_from(cuStreamGetId(s, id)); }
RT_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio) { return rt_from(cuStreamGetPriority(s, prio)); }
RT_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, CUstreamCallback cb, void *user, unsigned flags) {
  return rt_from(cuStreamAddCallback(s, cb, user, flags));
}
RT_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t s, int *d) {
  (void)s;
  if (!d) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *d = 0;
  return 0;
}
/* Memory attached to a stream is managed memory every stream sees. */
RT_EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t n, unsigned flags) {
  (void)s; (void)p; (void)n; (void)flags;
  return 0;
}

RT_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e) { return rt_from(cuEventCreate(e, 0)); }
RT_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) { return rt_from(cuEventCreate(e, flags)); }
RT_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) { return rt_from(cuEventDestroy_v2(e)); }
RT_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) { return rt_from(cuEventRecord(e, s)); }
RT_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags) {
  return rt_from(cuEventRecordWithFlags(e, s, flags));
}
RT_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) { return rt_from(cuEventQuery(e)); }
RT_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) { return rt_from(cuEventSynchronize(e)); }
RT_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  return rt_from(cuEventElapsedTime_v2(ms, a, b));
}
