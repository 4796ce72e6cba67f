// Every lane of a warp takes a global spin lock in turn (independent thread
// scheduling: the lane holding the lock must progress while the others spin).
extern "C" __global__ void spinlock(int *lock, int *count, int *order) {
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) {
      int k = *(volatile int *)count;
      order[k] = threadIdx.x + blockIdx.x * blockDim.x;
      *(volatile int *)count = k + 1;
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    } else {
      __nanosleep(32);
    }
  }
}
