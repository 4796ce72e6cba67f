// streams_events: two streams with pinned memory and cudaMemcpyAsync, copies
// of one chunk overlapping kernels of another; events (record, synchronize,
// elapsed time), cudaStreamWaitEvent across streams, cudaStreamQuery, the
// legacy default stream's implicit ordering, and cudaLaunchHostFunc.
#include <atomic>
#include <chrono>
#include <thread>
#include "common.h"

__global__ void square_plus(const int *in, int *out, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i] + add;
}
__global__ void slow_fill(int *p, int n, int v) {  // long enough to race with
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = v;
  for (int k = 0; k < 200; k++) x = (x * 3 + 1) % 1000003;  // busy work
  p[i] = v + (x < 0);  // x never goes negative
}
__global__ void scale_add(int *p, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * mul + add;
}

static std::atomic<int> gate{0};      // host function blocks until set
static std::atomic<int> host_fn_saw{-1};
struct HostCheck { const int *data; int n; };
static void CUDART_CB check_copied(void *arg) {  // runs after the D2H copy
  HostCheck *h = (HostCheck *)arg;
  int ok = 1;
  for (int i = 0; i < h->n; i++) ok &= h->data[i] == i * i + 1;
  host_fn_saw = ok;
}
static void CUDART_CB wait_gate(void *) {
  for (int t = 0; t < 5000 && !gate.load(); t++)  // at most 5 s
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

int main() {
  const int chunks = 4, n = 2048, total = chunks * n;
  cudaStream_t s[2];
  CK(cudaStreamCreate(&s[0]));
  CK(cudaStreamCreate(&s[1]));
  int *hin, *hout, *din, *dout;
  CK(cudaMallocHost(&hin, total * sizeof(int)));
  CK(cudaMallocHost(&hout, total * sizeof(int)));
  CK(cudaMalloc(&din, total * sizeof(int)));
  CK(cudaMalloc(&dout, total * sizeof(int)));
  for (int i = 0; i < total; i++) { hin[i] = i; hout[i] = -1; }

  // 1. chunked pipeline over two streams, timed with events
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  CK(cudaEventRecord(start, 0));
  for (int c = 0; c < chunks; c++) {
    cudaStream_t st = s[c % 2];
    size_t off = (size_t)c * n;
    CK(cudaMemcpyAsync(din + off, hin + off, n * sizeof(int), cudaMemcpyHostToDevice, st));
    square_plus<<<(n + 255) / 256, 256, 0, st>>>(din + off, dout + off, n, 1);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(hout + off, dout + off, n * sizeof(int), cudaMemcpyDeviceToHost, st));
  }
  HostCheck hc = {hout, n};  // chunk 0 was copied back in s[0]
  CK(cudaLaunchHostFunc(s[0], check_copied, &hc));
  CK(cudaEventRecord(stop, 0));  // legacy stream: after both streams' work
  CK(cudaEventSynchronize(stop));
  CK(cudaEventQuery(stop));
  float ms = -1.0f;
  CK(cudaEventElapsedTime(&ms, start, stop));
  expect(ms >= 0.0f, "cudaEventElapsedTime >= 0");
  int bad = 0;
  for (int i = 0; i < total; i++) bad += hout[i] != i * i + 1;
  expect(bad == 0, "pipelined results");
  expect(host_fn_saw == 1, "host function ran after the copy it follows");
  printf("streams_events: %d chunks over 2 streams ok, elapsed time non-negative\n", chunks);

  // 2. s[1] waits for an event recorded in s[0] after a slow kernel
  cudaEvent_t filled;
  CK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
  slow_fill<<<(total + 127) / 128, 128, 0, s[0]>>>(din, total, 5);
  CK(cudaEventRecord(filled, s[0]));
  CK(cudaStreamWaitEvent(s[1], filled, 0));
  scale_add<<<(total + 255) / 256, 256, 0, s[1]>>>(din, total, 3, 1);
  CK(cudaMemcpyAsync(hout, din, total * sizeof(int), cudaMemcpyDeviceToHost, s[1]));
  CK(cudaStreamSynchronize(s[1]));
  CK(cudaStreamQuery(s[1]));  // idle stream: cudaSuccess
  bad = 0;
  for (int i = 0; i < total; i++) bad += hout[i] != 16;
  expect(bad == 0, "cudaStreamWaitEvent ordering");
  printf("streams_events: cudaStreamWaitEvent orders s1 after s0\n");

  // 3. legacy default stream: s0 -> NULL stream -> s1 without explicit waits
  slow_fill<<<(total + 127) / 128, 128, 0, s[0]>>>(din, total, 2);
  scale_add<<<(total + 255) / 256, 256>>>(din, total, 10, 0);      // waits for s0
  scale_add<<<(total + 255) / 256, 256, 0, s[1]>>>(din, total, 1, 7);  // waits for NULL
  CK(cudaMemcpyAsync(hout, din, total * sizeof(int), cudaMemcpyDeviceToHost, s[1]));
  CK(cudaStreamSynchronize(s[1]));
  bad = 0;
  for (int i = 0; i < total; i++) bad += hout[i] != 27;
  expect(bad == 0, "legacy default stream ordering");
  printf("streams_events: legacy default stream orders s0 -> null -> s1\n");

  // 4. a stream blocked in a host function is not ready until released
  CK(cudaLaunchHostFunc(s[0], wait_gate, nullptr));
  cudaError_t q = cudaStreamQuery(s[0]);
  expect(q == cudaErrorNotReady, "cudaStreamQuery of a blocked stream");
  gate = 1;
  CK(cudaStreamSynchronize(s[0]));
  expect(cudaStreamQuery(s[0]) == cudaSuccess, "cudaStreamQuery after sync");
  printf("streams_events: cudaStreamQuery %s while blocked, cudaSuccess after\n",
         cudaGetErrorName(q));

  CK(cudaEventDestroy(start)); CK(cudaEventDestroy(stop)); CK(cudaEventDestroy(filled));
  CK(cudaStreamDestroy(s[0])); CK(cudaStreamDestroy(s[1]));
  CK(cudaFreeHost(hin)); CK(cudaFreeHost(hout));
  CK(cudaFree(din)); CK(cudaFree(dout));
  if (failures) return 1;
  printf("streams_events: ok\n");
  return 0;
}
