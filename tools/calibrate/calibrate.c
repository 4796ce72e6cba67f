/* tools/calibrate/calibrate.c - measure a GPU for ptxemu's timing model.
 * A CUDA driver-API program: it reads the device's attributes, loads the
 * microbenchmark PTX it carries (bench.cu, embedded by build.sh) with
 * cuModuleLoadData, runs each benchmark and prints one measurement a line,
 *     NAME VALUE    # what was run and how VALUE follows from it
 * which fit.py turns into a .gpu configuration (doc/calibrate.md).  Timed
 * kernels measure themselves (%clock64 in SM cycles, %globaltimer in ns), so
 * the figures hold under Nsight Compute's clock control as well; launch costs
 * come from events (and, under Nsight Compute, from its own cycle counts).
 *   usage: calibrate [DEVICE_ORDINAL] > measurements.txt */
#include <cuda.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_ptx.h"   /* const char bench_ptx[] */

typedef unsigned long long u64;

static void check(CUresult r, const char *what, int line) {
  if (r == CUDA_SUCCESS) return;
  const char *s = NULL;
  cuGetErrorString(r, &s);
  fprintf(stderr, "calibrate: %s (line %d): %s\n", what, line, s ? s : "unknown error");
  exit(1);
}
#define CK(x) check((x), #x, __LINE__)

static CUmodule mod;
static CUdevice dev;
static CUdeviceptr d_out;   /* 4 u64 of results */
static int nsm;
static int quick;   /* CALIBRATE_QUICK=1: small sizes, a smoke test (under an emulator) */

static CUfunction fn(const char *name) {
  CUfunction f;
  CK(cuModuleGetFunction(&f, mod, name));
  return f;
}
static void launch(CUfunction f, unsigned grid, unsigned block, void **args) {
  CK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL));
  CK(cuCtxSynchronize());
}
static void out_reset(u64 v0, u64 v1) {
  u64 h[4] = { v0, v1, 0, 0 };
  CK(cuMemcpyHtoD(d_out, h, sizeof h));
}
static u64 out_get(int i) {
  u64 h[4];
  CK(cuMemcpyDtoH(h, d_out, sizeof h));
  return h[i];
}
static int attr(CUdevice_attribute a) {
  int v = 0;
  CK(cuDeviceGetAttribute(&v, a, dev));
  return v;
}

/* the run's SM clock in MHz: %clock64 against %globaltimer over ~20 M cycles */
static double clock_mhz(void) {
  long long cyc = quick ? 20000 : 20000000;
  void *a[] = { &d_out, &cyc };
  launch(fn("clock_rate"), 1, 1, a);
  return (double)out_get(0) / (double)out_get(1) * 1e3;
}

/* ---- pipes ---- */
static void pipe_bench(const char *pipe, int steps, void *pa, void *pb, void *ps) {
  char name[64];
  int iters = quick ? 2 : 1000;
  void *a[] = { &d_out, &iters, pa, pb, ps };
  snprintf(name, sizeof name, "lat_%s", pipe);
  CUfunction f = fn(name);
  launch(f, 1, 32, a);   /* warm the instruction cache */
  launch(f, 1, 32, a);
  double lat = (double)out_get(0) / (iters * 16.0 * steps);
  printf("lat_%-18s %8.2f  # one warp, one dependent chain of %d x 16 x %d instructions: cycles per instruction\n",
         pipe, lat, iters, steps);
  iters = quick ? 1 : 200;
  snprintf(name, sizeof name, "thr_%s", pipe);
  f = fn(name);
  launch(f, 1, 1024, a);
  launch(f, 1, 1024, a);
  double ipc = iters * 16.0 * 8 * steps * 32 / (double)out_get(0);
  printf("ipc_%-18s %8.3f  # one block of 32 warps, 8 independent chains each: warp instructions per cycle per SM\n", pipe, ipc);
}

static void mma_bench(void) {
  int iters = quick ? 1 : 200;
  unsigned seed = 0x3c003c00u;
  void *a[] = { &d_out, &iters, &seed };
  CUfunction f = fn("lat_mma");
  launch(f, 1, 32, a);
  launch(f, 1, 32, a);
  printf("lat_%-18s %8.2f  # one warp, dependent mma.sync.m16n8k16.f32.f16: cycles per mma\n", "mma", (double)out_get(0) / (iters * 16.0));
  f = fn("thr_mma");
  launch(f, 1, 1024, a);
  launch(f, 1, 1024, a);
  printf("ipc_%-18s %8.3f  # 32 warps, 4 independent accumulators each: mma.sync per cycle per SM\n", "mma",
         iters * 16.0 * 4 * 32 / (double)out_get(0));
}

static void smem_bench(void) {
  int iters = quick ? 2 : 500;
  unsigned step = 1;
  void *a[] = { &d_out, &iters, &step };
  CUfunction f = fn("lat_smem");
  launch(f, 1, 32, a);
  launch(f, 1, 32, a);
  printf("lat_%-18s %8.2f  # one warp, dependent ld.shared.u32 chase (broadcast): cycles per load\n", "smem", (double)out_get(0) / (iters * 16.0));
  f = fn("lat_smem_lanes");
  static const unsigned apart[] = { 1, 32 };   /* no bank conflict, a 32-way one */
  for (unsigned k = 0; k < 2; k++) {
    unsigned s = step = apart[k];
    launch(f, 1, 32, a);
    launch(f, 1, 32, a);
    printf("lat_smem_lanes_%-8u %8.2f  # one warp, each lane its own dependent ld.shared.u32 chase, lanes %u words apart: cycles per load\n",
           s, (double)out_get(0) / (iters * 16.0), s);
  }
  f = fn("thr_smem");
  iters = quick ? 1 : 100;
  for (unsigned s = 1; s <= 64; s *= 2) {
    step = s;
    launch(f, 1, 1024, a);
    launch(f, 1, 1024, a);
    printf("smem_stride_%-10u %8.3f  # 32 warps, independent ld.shared.u32, lane l at word l*%u: cycles per warp load per SM\n",
           s, (double)out_get(0) / (iters * 16.0 * 32), s);
  }
}

/* ---- global memory ---- */
/* every block streams over [p, p+bytes): write = 1 evicts L2 (a buffer of
 * flush_size bytes), 0 reads it into L2 */
static void stream(CUdeviceptr p, u64 bytes, int write) {
  u64 words = bytes / 4;
  void *a[] = { &p, &words, &write };
  launch(fn("stream_touch"), (unsigned)nsm * 8, 512, a);
}
/* a buffer whose writing leaves nothing of what was there before in L2 */
static u64 flush_size(u64 l2_bytes) { return quick ? 4ull << 20 : 2 * l2_bytes < (256ull << 20) ? 256ull << 20 : 2 * l2_bytes; }

static double chase(CUdeviceptr arena, u64 lines, u64 nodes, u64 stride, u64 first, int warm, int steps, int cg,
                    CUdeviceptr flush, u64 flush_bytes, CUdeviceptr touch, u64 touch_bytes) {
  void *la[] = { &arena, &lines, &nodes, &stride, &first };
  launch(fn("chain_link"), (unsigned)nsm * 4, 256, la);
  if (flush_bytes) stream(flush, flush_bytes, 1);   /* the chain leaves the caches */
  if (touch_bytes) stream(touch, touch_bytes, 0);   /* the footprint is in L2 as far as L2 holds it */
  CUdeviceptr start = arena + 128 * ((first) % lines);
  void *ca[] = { &d_out, &start, &warm, &steps, &cg };
  launch(fn("chase"), 1, 1, ca);
  return (double)out_get(0) / steps;
}

static u64 gcd64(u64 a, u64 b) { while (b) { u64 t = a % b; a = b; b = t; } return a; }
static u64 coprime(u64 want, u64 n) { while (gcd64(want, n) != 1) want++; return want; }

/* A warp request over 32 lines against one over one line: chases by one
 * lane and by 32 lanes in step (each lane on its own lines), over L2
 * sectors every SM wrote and none has read, over the same sectors walked
 * once before (the SM's near L2 partition has them: hops_l2_again_warp -
 * hops_l2_again gives l1_miss_line_cycles), and over lines the flush sent
 * to DRAM.  4 MiB: two pages, no TLB misses. */
static void hops_bench(u64 l2_bytes) {
  u64 lines = quick ? 8192 : 32768, flush_bytes = flush_size(l2_bytes);
  int steps = quick ? 16 : 512;
  CUdeviceptr arena, flush;
  CK(cuMemAlloc(&arena, lines * 128));
  CK(cuMemAlloc(&flush, flush_bytes));
  CK(cuMemsetD8(arena, 0, lines * 128));
  CK(cuMemsetD8(flush, 0, flush_bytes));
  u64 nodes = 32 * (u64)steps, stride = coprime(lines / 3 + 11, lines), first = 17;
  static const struct { const char *key; int dram, lanes, warm; const char *how; } runs[] = {
    { "hops_l2_one", 0, 1, 0, "one lane, sectors every SM wrote whole just before and none read (L2 hits)" },
    { "hops_l2_warp", 0, 32, 0, "32 lanes in step, each on its own such sectors" },
    { "hops_l2_again", 0, 1, 1, "one lane, its sectors walked once before (the near partition has them)" },
    { "hops_l2_again_warp", 0, 32, 1, "32 lanes in step, each on its own sectors walked once before" },
    { "hops_dram_one", 1, 1, 0, "one lane, lines the flush sent to DRAM" },
    { "hops_dram_warp", 1, 32, 0, "32 lanes in step, each on its own such lines" },
  };
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    void *la[] = { &arena, &lines, &nodes, &stride, &first };
    launch(fn(runs[r].dram ? "chain_link" : "chain_link_sector"), (unsigned)nsm * 4, 256, la);
    if (runs[r].dram) stream(flush, flush_bytes, 1);
    int warm = runs[r].warm;
    void *ca[] = { &d_out, &arena, &lines, &stride, &first, &steps, &warm };
    launch(fn("chase_lanes"), 1, (unsigned)runs[r].lanes, ca);
    printf("%-22s %8.2f  # ld.global.cg.u64 chase over 4 MiB, %d hops: %s; cycles per hop\n", runs[r].key,
           (double)out_get(0) / steps, steps, runs[r].how);
  }
  CK(cuMemFree(arena));
  CK(cuMemFree(flush));
}

static void memory_bench(u64 l2_bytes) {
  u64 arena_bytes = quick ? 4ull << 20 : 512ull << 20, flush_bytes = flush_size(l2_bytes);
  CUdeviceptr arena, flush;
  CK(cuMemAlloc(&arena, arena_bytes));
  CK(cuMemAlloc(&flush, flush_bytes));
  CK(cuMemsetD8(arena, 0, arena_bytes));
  CK(cuMemsetD8(flush, 0, flush_bytes));
  CUfunction ch = fn("chase");
  /* the largest L1: ask for no shared memory carveout */
  CK(cuFuncSetAttribute(ch, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 0));
  /* L1: every line of the footprint once (warm), then the chain again (timed) */
  for (u64 f = 8 << 10; f <= (quick ? 16 : 320) << 10; f += 8 << 10) {
    u64 n = f / 128;
    int steps = n < 4096 ? 4096 : (int)n;
    double c = chase(arena, n, n, coprime(n / 2 + 7, n), 0, (int)n, steps, 0, 0, 0, 0, 0);
    printf("chase_ca_%-13llu %8.2f  # ld.global.ca.u64 chase over %llu KiB (every 128-byte line, warm): cycles per hop\n",
           f, c, f >> 10);
  }
  /* L2: read the whole footprint, then 4096 hops over it with ld.global.cg */
  static const unsigned mb[] = { 1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80, 96, 128, 256 };
  for (size_t i = 0; i < sizeof mb / sizeof mb[0]; i++) {
    u64 f = (u64)mb[i] << 20, n = f / 128;
    if (f > arena_bytes) break;
    double c = chase(arena, n, 4096, coprime(n / 3 + 11, n), 17, 0, 4096, 1, 0, 0, arena, f);
    printf("chase_cg_%-13llu %8.2f  # ld.global.cg.u64 chase, 4096 hops over %u MiB read just before: cycles per hop\n", f, c, mb[i]);
  }
  /* DRAM: 4096 cold lines ~160 MiB apart (a new page each hop), caches flushed */
  {
    u64 n = arena_bytes / 128;
    double c = chase(arena, n, 4096, 1310753, 98765, 0, 4096, 1, flush, flush_bytes, 0, 0);
    printf("chase_dram             %8.2f  # ld.global.cg.u64 chase, 4096 cold lines over 512 MiB after writing %llu MiB: cycles per hop\n",
           c, flush_bytes >> 20);
  }
  /* bandwidth: L2 (a quarter of it, 50 times) and DRAM (1 GiB after the flush) */
  {
    u64 bytes = (quick ? 1 << 20 : l2_bytes / 4) / 4096 * 4096, n = bytes / 16;
    int reps = quick ? 2 : 50;
    void *a[] = { &d_out, &arena, &n, &reps };
    out_reset(~0ull, 0);
    launch(fn("bw_read"), (unsigned)nsm * 4, 512, a);
    out_reset(~0ull, 0);
    launch(fn("bw_read"), (unsigned)nsm * 4, 512, a);
    double ns = (double)(out_get(1) - out_get(0));
    printf("bw_l2_gbs              %8.1f  # %d reads of %llu KiB with ld.global.cg.v4 by %d blocks of 512: bytes per ns\n",
           (double)bytes * reps / ns, reps, bytes >> 10, nsm * 4);
  }
  CK(cuMemFree(arena));
  {
    u64 bytes = quick ? 1ull << 20 : 1ull << 30, n = bytes / 16;
    int reps = 1;
    CUdeviceptr big;
    CK(cuMemAlloc(&big, bytes));
    CK(cuMemsetD8(big, 1, bytes));
    void *a[] = { &d_out, &big, &n, &reps };
    double best = 0;
    for (int k = 0; k < 3; k++) {
      stream(flush, flush_bytes, 1);
      out_reset(~0ull, 0);
      launch(fn("bw_read"), (unsigned)nsm * 4, 512, a);
      double gbs = (double)bytes / (double)(out_get(1) - out_get(0));
      if (gbs > best) best = gbs;
    }
    printf("bw_dram_gbs            %8.1f  # 1 GiB read once with ld.global.cg.v4 by %d blocks of 512 after a flush, best of 3: bytes per ns\n",
           best, nsm * 4);
    CK(cuMemFree(big));
  }
  CK(cuMemFree(flush));
}

/* ---- atomics ---- */
static void atomic_bench(double mhz) {
  CUdeviceptr words;
  unsigned threads = (unsigned)nsm * 2 * 256;
  CK(cuMemAlloc(&words, (u64)threads * 4));
  CK(cuMemsetD8(words, 0, (u64)threads * 4));
  int iters = quick ? 2 : 100;
  void *a[] = { &d_out, &words, &iters };
  launch(fn("lat_atom"), 1, 1, a);
  launch(fn("lat_atom"), 1, 1, a);
  printf("lat_atom               %8.2f  # one thread, dependent atom.global.add.u32 on 16 words of a line: cycles per atomic\n",
         (double)out_get(0) / (iters * 16.0));
  static const unsigned masks[] = { 0, 31, 0xffffffffu };
  static const char *what[] = { "same", "line", "distinct" };
  static const char *how[] = { "every thread to one word", "lane l of every warp to word l (one line)", "every thread to its own word" };
  for (int m = 0; m < 3; m++) {
    unsigned mask = masks[m];
    iters = quick ? 1 : m == 0 ? 16 : 64;
    void *t[] = { &d_out, &words, &iters, &mask };
    out_reset(~0ull, 0);
    launch(fn("thr_atom"), (unsigned)nsm * 2, 256, t);
    out_reset(~0ull, 0);
    launch(fn("thr_atom"), (unsigned)nsm * 2, 256, t);
    double ns = (double)(out_get(1) - out_get(0)), updates = (double)threads * iters;
    char key[32];
    snprintf(key, sizeof key, "atom_%s_cycles", what[m]);
    printf("%-22s %8.4f  # red.global.add.u32, %s, %.0f updates in %.0f ns: SM cycles per update at %.0f MHz\n",
           key, ns * mhz / 1e3 / updates, how[m], updates, ns, mhz);
  }
  CK(cuMemFree(words));
}

static void barrier_bench(void) {
  int iters = quick ? 2 : 200;
  void *a[] = { &d_out, &iters };
  static const unsigned warps[] = { 1, 4, 32 };
  for (int i = 0; i < 3; i++) {
    launch(fn("bar_round"), 1, warps[i] * 32, a);
    launch(fn("bar_round"), 1, warps[i] * 32, a);
    char key[32];
    snprintf(key, sizeof key, "bar_%u_warps", warps[i]);
    printf("%-22s %8.2f  # bar.sync 0 in a loop, one block of %u warps: cycles per barrier\n",
           key, (double)out_get(0) / (iters * 16.0), warps[i]);
  }
}

/* launch costs by events: one empty block, and 256 waves of empty blocks;
 * under Nsight Compute fit.py takes these kernels' own cycle counts instead */
static void launch_bench(void) {
  CUevent e0, e1;
  CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  CUfunction one = fn("empty"), many = fn("empty_grid");
  unsigned grids[2] = { 1, (unsigned)nsm * 32 * 8 };
  CUfunction fs[2] = { one, many };
  for (int g = 0; g < 2; g++) {
    float best = 1e30f;
    for (int k = 0; k < 5; k++) {
      CK(cuEventRecord(e0, NULL));
      CK(cuLaunchKernel(fs[g], grids[g], 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
      CK(cuEventRecord(e1, NULL));
      CK(cuEventSynchronize(e1));
      float ms;
      CK(cuEventElapsedTime(&ms, e0, e1));
      if (ms < best) best = ms;
    }
    printf("%-22s %8.0f  # cuEventRecord, one launch of %u empty blocks of 32 threads, cuEventRecord: best of 5 (ns)\n",
           g ? "launch_grid_ns" : "launch_one_ns", best * 1e6, grids[g]);
  }
  printf("launch_grid_blocks     %8u  # blocks of the empty_grid launch\n", grids[1]);
  CK(cuEventDestroy(e0));
  CK(cuEventDestroy(e1));
}

int main(int argc, char **argv) {
  int ord = argc > 1 ? atoi(argv[1]) : 0;
  quick = getenv("CALIBRATE_QUICK") != NULL;
  CUcontext ctx;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, ord));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  char name[256];
  CK(cuDeviceGetName(name, sizeof name, dev));
  int drv = 0;
  CK(cuDriverGetVersion(&drv));
  printf("# calibrate: measurements of %s (driver API %d)\n", name, drv);
  printf("device_name            %s\n", name);
  nsm = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  static const struct { const char *key; CUdevice_attribute a; } attrs[] = {
    { "attr_cc_major", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR },
    { "attr_cc_minor", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR },
    { "attr_sms", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT },
    { "attr_clock_khz", CU_DEVICE_ATTRIBUTE_CLOCK_RATE },
    { "attr_mem_clock_khz", CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE },
    { "attr_bus_bits", CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH },
    { "attr_l2_bytes", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE },
    { "attr_threads_per_sm", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR },
    { "attr_blocks_per_sm", CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR },
    { "attr_threads_per_block", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK },
    { "attr_regs_per_sm", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR },
    { "attr_regs_per_block", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK },
    { "attr_shared_per_sm", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR },
    { "attr_shared_per_block_optin", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN },
    { "attr_shared_reserved_per_block", CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK },
    { "attr_warp_size", CU_DEVICE_ATTRIBUTE_WARP_SIZE },
  };
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
    printf("%-22s %8d  # cuDeviceGetAttribute\n", attrs[i].key, attr(attrs[i].a));
  size_t mem = 0;
  CK(cuDeviceTotalMem(&mem, dev));
  printf("attr_total_mem_mib     %8zu  # cuDeviceTotalMem\n", mem >> 20);
  fflush(stdout);

  CK(cuModuleLoadData(&mod, bench_ptx));
  CK(cuMemAlloc(&d_out, 4 * sizeof(u64)));
  double mhz = clock_mhz();
  printf("clock_mhz_run          %8.1f  # clock_rate: %%clock64 against %%globaltimer over 20 M cycles (the clock this run had)\n", mhz);
  fflush(stdout);

  unsigned ua = 0x9e3779b9u, ub = 0x7f4a7c15u, us = 12345;
  float fa = 0.999f, fb = 0.001f, fs = 1.5f;
  double da = 0.999, db = 0.001, ds = 1.5;
  unsigned ha = 0x3c003c00u, hb = 0, hs = 0x3e003e00u;
  const char *only = getenv("CALIBRATE_ONLY");   /* "hops": hops_bench alone */
  if (only && !strcmp(only, "hops")) {
    hops_bench((u64)attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
    CK(cuMemFree(d_out));
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    return 0;
  }
  pipe_bench("int", 2, &ua, &ub, &us);
  pipe_bench("alu", 2, &ua, &ub, &us);
  pipe_bench("fp32", 1, &fa, &fb, &fs);
  pipe_bench("fp64", 1, &da, &db, &ds);
  pipe_bench("fp16", 1, &ha, &hb, &hs);
  pipe_bench("sfu", 1, &fa, &fb, &fs);
  pipe_bench("cvt", 2, &fa, &fb, &fs);
  mma_bench();
  smem_bench();
  fflush(stdout);
  memory_bench((u64)attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  hops_bench((u64)attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  fflush(stdout);
  atomic_bench(mhz);
  barrier_bench();
  launch_bench();
  printf("clock_mhz_end          %8.1f  # clock_rate again at the end\n", clock_mhz());
  CK(cuMemFree(d_out));
  CK(cuModuleUnload(mod));
  CK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}
