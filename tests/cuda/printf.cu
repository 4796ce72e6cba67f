// printf: device printf from several blocks and warps.  CUDA prints the
// device's buffer at synchronisation points, in no fixed order across
// threads, so the program sends stdout to a file around the kernel, checks
// that every line is there after cudaDeviceSynchronize, and prints them sorted.
#include <algorithm>
#include <string>
#include <vector>
#include <unistd.h>
#include "common.h"

__global__ void hello(int rounds) {
  // thread 0 and thread 32 (a second warp) of each block print
  if (threadIdx.x % 32 == 0)
    for (int r = 0; r < rounds; r++)
      printf("block %d warp %d round %d value %.2f hex %x\n", blockIdx.x, threadIdx.x / 32, r,
             blockIdx.x + r * 0.25, 0xabc0 + blockIdx.x);
}

int main() {
  const int blocks = 4, warps = 2, rounds = 3;
  fflush(stdout);
  int saved = dup(1);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 1);  // the device printf output lands in tmp
  hello<<<blocks, 32 * warps>>>(rounds);
  cudaError_t e = cudaDeviceSynchronize();
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  CK(e);

  std::vector<std::string> lines;
  char buf[256];
  rewind(tmp);
  while (fgets(buf, sizeof buf, tmp)) lines.push_back(buf);
  fclose(tmp);
  std::sort(lines.begin(), lines.end());
  std::vector<std::string> want;
  for (int b = 0; b < blocks; b++)
    for (int w = 0; w < warps; w++)
      for (int r = 0; r < rounds; r++) {
        snprintf(buf, sizeof buf, "block %d warp %d round %d value %.2f hex %x\n", b, w, r,
                 b + r * 0.25, 0xabc0 + b);
        want.push_back(buf);
      }
  std::sort(want.begin(), want.end());
  for (auto &l : lines) fputs(l.c_str(), stdout);
  if (lines != want) {
    printf("printf: %zu lines, expected %zu (or different text)\n", lines.size(), want.size());
    return 1;
  }
  printf("printf: %zu lines from %d blocks ok\n", lines.size(), blocks);
  return 0;
}
