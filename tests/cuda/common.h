// common.h - shared by the CUDA evidence programs: a check macro that names
// the failing call and the error, then exits with status 1 (mismatch).
#ifndef CUDA_TEST_COMMON_H
#define CUDA_TEST_COMMON_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                              \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,             \
             cudaGetErrorName(e_));                                           \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

// Counts failed checks; a program prints what failed and returns 1 if any.
static int failures = 0;
static inline void expect(bool ok, const char *what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    failures++;
  }
}
#endif
