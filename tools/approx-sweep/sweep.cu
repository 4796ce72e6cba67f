// tools/approx-sweep/sweep.cu - compares every .approx unary instruction of
// the H100 with ptxemu's model (emu/fp_approx.c) over all of its inputs.
//
//   sweep all                     every f32 form over all 2^32 inputs, every
//                                 16-bit form over all 2^16, every x2 form over
//                                 all 2^32 (against the scalar form, lane-wise)
//   sweep only NAME...            the same for the named forms
//   sweep dump LIST FILE          hardware outputs of the ranges in LIST
//                                 ("NAME LO COUNT STRIDE" a line), as int32
//                                 differences from the model, to FILE
//   sweep undump LIST FILE OUTDIR (no GPU) rebuilds the raw outputs from a dump
//   sweep model NAME HEX...       (no GPU) prints the model's results
//   sweep turns DIR               sin/cos.approx of an input for every 25-bit angle in
//                                 turns (turnsx.h): DIR/{sin,cos}_qQ.u32, the outputs
//                                 for the 2^23 angles of quadrant Q (fit_trig.c)
//   sweep chain N STEPS           x = ex2.approx.ftz(sin.approx(x)) STEPS times from N
//                                 starting points, on the GPU and in the model
// Output of "all": one line per form (inputs that differ, the largest
// difference in ulps, a histogram), blocks.txt (a 64-bit hash of the hardware's
// outputs and the count of differing inputs per block of 2^20 inputs) and
// samples.txt (the first two differing inputs of each block).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <thread>
#include <vector>
#include <atomic>
#include <string>
extern "C" {
#include "emu/fp.h"
}
#include "tools/approx-sweep/turnsx.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

enum { K_F32, K_H16, K_X2 };
struct form { const char *name; int kind; int fn; int ftz; int bf; int scalar; };
// scalar: for an x2 form, the index of its 16-bit scalar form
static const form forms[] = {
  {"sin.approx.f32", K_F32, FPA_SIN, 0, 0, 0},       {"sin.approx.ftz.f32", K_F32, FPA_SIN, 1, 0, 0},
  {"cos.approx.f32", K_F32, FPA_COS, 0, 0, 0},       {"cos.approx.ftz.f32", K_F32, FPA_COS, 1, 0, 0},
  {"ex2.approx.f32", K_F32, FPA_EX2, 0, 0, 0},       {"ex2.approx.ftz.f32", K_F32, FPA_EX2, 1, 0, 0},
  {"lg2.approx.f32", K_F32, FPA_LG2, 0, 0, 0},       {"lg2.approx.ftz.f32", K_F32, FPA_LG2, 1, 0, 0},
  {"rcp.approx.f32", K_F32, FPA_RCP, 0, 0, 0},       {"rcp.approx.ftz.f32", K_F32, FPA_RCP, 1, 0, 0},
  {"rsqrt.approx.f32", K_F32, FPA_RSQRT, 0, 0, 0},   {"rsqrt.approx.ftz.f32", K_F32, FPA_RSQRT, 1, 0, 0},
  {"sqrt.approx.f32", K_F32, FPA_SQRT, 0, 0, 0},     {"sqrt.approx.ftz.f32", K_F32, FPA_SQRT, 1, 0, 0},
  {"tanh.approx.f32", K_F32, FPA_TANH, 0, 0, 0},
  {"ex2.approx.f16", K_H16, FPA_EX2, 0, 0, 0},       {"ex2.approx.ftz.bf16", K_H16, FPA_EX2, 1, 1, 0},
  {"tanh.approx.f16", K_H16, FPA_TANH, 0, 0, 0},     {"tanh.approx.bf16", K_H16, FPA_TANH, 0, 1, 0},
  {"ex2.approx.f16x2", K_X2, FPA_EX2, 0, 0, 15},     {"ex2.approx.ftz.bf16x2", K_X2, FPA_EX2, 1, 1, 16},
  {"tanh.approx.f16x2", K_X2, FPA_TANH, 0, 0, 17},   {"tanh.approx.bf16x2", K_X2, FPA_TANH, 0, 1, 18},
};
enum { NFORMS = sizeof forms / sizeof forms[0] };

template <int F> __device__ __forceinline__ uint32_t hw(uint32_t a) {
  uint32_t r; unsigned short h, ha = (unsigned short)a;
#define A32(s) asm volatile(s " %0, %1;" : "=r"(r) : "r"(a)); return r
#define A16(s) asm volatile(s " %0, %1;" : "=h"(h) : "h"(ha)); return h
  switch (F) {
  case 0: A32("sin.approx.f32");   case 1: A32("sin.approx.ftz.f32");
  case 2: A32("cos.approx.f32");   case 3: A32("cos.approx.ftz.f32");
  case 4: A32("ex2.approx.f32");   case 5: A32("ex2.approx.ftz.f32");
  case 6: A32("lg2.approx.f32");   case 7: A32("lg2.approx.ftz.f32");
  case 8: A32("rcp.approx.f32");   case 9: A32("rcp.approx.ftz.f32");
  case 10: A32("rsqrt.approx.f32"); case 11: A32("rsqrt.approx.ftz.f32");
  case 12: A32("sqrt.approx.f32");  case 13: A32("sqrt.approx.ftz.f32");
  case 14: A32("tanh.approx.f32");
  case 15: A16("ex2.approx.f16");  case 16: A16("ex2.approx.ftz.bf16");
  case 17: A16("tanh.approx.f16"); case 18: A16("tanh.approx.bf16");
  case 19: A32("ex2.approx.f16x2"); case 20: A32("ex2.approx.ftz.bf16x2");
  case 21: A32("tanh.approx.f16x2"); case 22: A32("tanh.approx.bf16x2");
  }
  return 0;
}
template <int F> __global__ void kern(uint32_t lo, uint32_t stride, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hw<F>(lo + i * stride);
}
template <int F> __global__ void kern_arr(const uint32_t *in, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hw<F>(in[i]);
}
// x2 forms: compare with the scalar form's table, lane by lane, on the GPU
template <int F> __global__ void kern_x2(uint32_t lo, const uint16_t *tab, unsigned long long *bad,
                                         uint32_t *first) {
  uint32_t a = lo + blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t r = hw<F>(a);
  uint32_t want = tab[a & 0xFFFF] | (uint32_t)tab[a >> 16] << 16;
  if (r != want) { if (atomicAdd(bad, 1ull) < 16) first[atomicAdd(first, 1u) % 16 + 1] = a; }
}
// the dependent chain of issue 16: x = ex2.approx.ftz(sin.approx(x)), STEPS times
__global__ void kchain(uint32_t *x, int steps) {
  uint32_t v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 0; i < steps; i++) {
    asm volatile("sin.approx.f32 %0, %0;" : "+r"(v));
    asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(v));
  }
  x[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
typedef void (*kfn)(uint32_t, uint32_t, uint32_t, uint32_t *);
static const kfn kerns[] = {kern<0>, kern<1>, kern<2>, kern<3>, kern<4>, kern<5>, kern<6>, kern<7>, kern<8>,
  kern<9>, kern<10>, kern<11>, kern<12>, kern<13>, kern<14>, kern<15>, kern<16>, kern<17>, kern<18>,
  kern<19>, kern<20>, kern<21>, kern<22>};
typedef void (*kx2)(uint32_t, const uint16_t *, unsigned long long *, uint32_t *);
static const kx2 kx2s[] = {kern_x2<19>, kern_x2<20>, kern_x2<21>, kern_x2<22>};

static uint32_t model(int f, uint32_t a) {
  const form &F = forms[f];
  if (F.kind == K_F32) return fp_approx_f32(F.fn, a, F.ftz);
  return fp_approx_h(F.fn, F.bf, (uint16_t)a);
}
// distance in units in the last place between two results (NaNs: 0 if equal bits)
static int64_t key32(uint32_t x) { return (x >> 31) ? -(int64_t)(x & 0x7FFFFFFFu) : (int64_t)x; }
static int64_t key16(uint32_t x) { return (x >> 15 & 1) ? -(int64_t)(x & 0x7FFFu) : (int64_t)(x & 0x7FFFu); }
static int64_t ulps(int kind, uint32_t a, uint32_t b) {
  if (a == b) return 0;
  int64_t d = kind == K_F32 ? key32(a) - key32(b) : key16(a) - key16(b);
  return d < 0 ? -d : d;
}
static int bucket(int64_t d) {
  return d == 1 ? 0 : d == 2 ? 1 : d <= 4 ? 2 : d <= 16 ? 3 : d <= 256 ? 4 : 5;
}
static const char *bnames[] = {"1", "2", "3-4", "5-16", "17-256", ">256"};

static uint64_t mix(uint64_t h, uint32_t v) { h ^= v; h *= 0x100000001B3ull; h ^= h >> 29; return h; }

static int find_form(const char *s) {
  for (int i = 0; i < NFORMS; i++) if (!strcmp(forms[i].name, s)) return i;
  fprintf(stderr, "sweep: unknown form %s\n", s); exit(64);
}

struct stats { uint64_t bad, hist[6]; int64_t maxd; uint32_t maxd_at; };

static void sweep_one(int f, FILE *blk, FILE *smp, uint32_t *dbuf, uint32_t *hbuf, unsigned nthr) {
  const form &F = forms[f];
  stats S; memset(&S, 0, sizeof S);
  if (F.kind == K_X2) {
    // the scalar form's hardware table
    uint32_t *t32; uint16_t *tab;
    CK(cudaMalloc(&tab, 65536 * 2));
    kerns[F.scalar]<<<256, 256>>>(0, 1, 65536, dbuf);
    CK(cudaMemcpy(hbuf, dbuf, 65536 * 4, cudaMemcpyDeviceToHost));
    t32 = hbuf; std::vector<uint16_t> h(65536); for (int i = 0; i < 65536; i++) h[i] = (uint16_t)t32[i];
    CK(cudaMemcpy(tab, h.data(), 65536 * 2, cudaMemcpyHostToDevice));
    unsigned long long *bad; uint32_t *first;
    CK(cudaMalloc(&bad, 8)); CK(cudaMalloc(&first, 17 * 4));
    CK(cudaMemset(bad, 0, 8)); CK(cudaMemset(first, 0, 17 * 4));
    for (uint64_t lo = 0; lo < (1ull << 32); lo += 1u << 28)
      kx2s[f - 19]<<<(1u << 28) / 256, 256>>>((uint32_t)lo, tab, bad, first);
    CK(cudaDeviceSynchronize());
    unsigned long long nb; uint32_t fr[17];
    CK(cudaMemcpy(&nb, bad, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(fr, first, 68, cudaMemcpyDeviceToHost));
    printf("%-24s %10llu of 2^32 lane pairs differ from the scalar form applied lane-wise%s\n", F.name, nb,
           nb ? "" : " (none)");
    for (unsigned i = 0; i < nb && i < 16; i++) fprintf(smp, "%s %08x x2-differs\n", F.name, fr[i + 1]);
    cudaFree(tab); cudaFree(bad); cudaFree(first);
    return;
  }
  uint64_t total = F.kind == K_H16 ? 65536 : 1ull << 32, chunk = 1u << 28;
  if (chunk > total) chunk = total;
  for (uint64_t lo = 0; lo < total; lo += chunk) {
    kerns[f]<<<(unsigned)((chunk + 255) / 256), 256>>>((uint32_t)lo, 1, (uint32_t)chunk, dbuf);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hbuf, dbuf, chunk * 4, cudaMemcpyDeviceToHost));
    uint64_t bs = F.kind == K_H16 ? 65536 : 1u << 20, nblk = chunk / bs;
    std::vector<stats> ts(nthr);
    std::vector<uint64_t> bh(nblk), bb(nblk);
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> samples(nthr);
    std::vector<std::thread> th;
    for (unsigned t = 0; t < nthr; t++)
      th.emplace_back([&, t] {
        stats &s = ts[t]; memset(&s, 0, sizeof s);
        for (uint64_t b = t; b < nblk; b += nthr) {
          uint64_t h = 0xCBF29CE484222325ull, nb = 0;
          for (uint64_t i = b * bs; i < (b + 1) * bs; i++) {
            uint32_t a = (uint32_t)(lo + i), r = hbuf[i];
            h = mix(h, r);
            uint32_t m = model(f, a);
            if (m != r) {
              int64_t d = ulps(F.kind, r, m);
              nb++; s.hist[bucket(d)]++;
              if (d > s.maxd) { s.maxd = d; s.maxd_at = a; }
              if (nb <= 2) samples[t].push_back({a, r});     /* the first two of each block */
            }
          }
          bh[b] = h; bb[b] = nb; s.bad += nb;
        }
      });
    for (auto &x : th) x.join();
    for (auto &s : ts) {
      S.bad += s.bad; for (int k = 0; k < 6; k++) S.hist[k] += s.hist[k];
      if (s.maxd > S.maxd) { S.maxd = s.maxd; S.maxd_at = s.maxd_at; }
    }
    for (uint64_t b = 0; b < nblk; b++) fprintf(blk, "%s %08llx %016llx %llu\n", F.name,
      (unsigned long long)(lo + b * bs), (unsigned long long)bh[b], (unsigned long long)bb[b]);
    for (auto &v : samples) for (auto &p : v) fprintf(smp, "%s %08x hw %08x model %08x\n", F.name, p.first, p.second, model(f, p.first));
  }
  printf("%-24s %10llu of %s differ", F.name, (unsigned long long)S.bad, F.kind == K_H16 ? "2^16" : "2^32");
  if (S.bad) {
    printf(", at most %lld ulp (input %08x); by ulps:", (long long)S.maxd, S.maxd_at);
    for (int k = 0; k < 6; k++) if (S.hist[k]) printf(" %s:%llu", bnames[k], (unsigned long long)S.hist[k]);
  }
  printf("\n"); fflush(stdout);
}

struct range { int f; uint32_t lo, n, stride; };
static std::vector<range> read_list(const char *path) {
  FILE *fp = fopen(path, "r"); if (!fp) { perror(path); exit(66); }
  std::vector<range> v; char nm[64]; unsigned lo, n, st;
  while (fscanf(fp, "%63s %x %x %x", nm, &lo, &n, &st) == 4) v.push_back({find_form(nm), lo, n, st});
  fclose(fp); return v;
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: sweep all | only NAME... | dump LIST FILE | undump LIST FILE DIR | model NAME HEX... | chain N STEPS\n"); return 64; }
  unsigned nthr = std::thread::hardware_concurrency(); if (!nthr) nthr = 4;
  std::string mode = argv[1];
  if (mode == "model") {
    int f = find_form(argv[2]);
    for (int i = 3; i < argc; i++) { uint32_t a = strtoul(argv[i], 0, 16); printf("%08x -> %08x\n", a, model(f, a)); }
    return 0;
  }
  if (mode == "undump") {
    std::vector<range> L = read_list(argv[2]);
    FILE *in = fopen(argv[3], "rb"); if (!in) { perror(argv[3]); return 66; }
    for (auto &r : L) {
      std::vector<int32_t> d(r.n); std::vector<uint32_t> o(r.n);
      if (fread(d.data(), 4, r.n, in) != r.n) { fprintf(stderr, "short dump\n"); return 65; }
      uint64_t h = 0xCBF29CE484222325ull, want;
      for (uint32_t i = 0; i < r.n; i++) { o[i] = model(r.f, r.lo + i * r.stride) + (uint32_t)d[i]; h = mix(h, o[i]); }
      if (fread(&want, 8, 1, in) != 1) return 65;
      char p[512]; snprintf(p, sizeof p, "%s/%s_%08x_%x_%x.u32", argv[4], forms[r.f].name, r.lo, r.n, r.stride);
      FILE *o2 = fopen(p, "wb"); fwrite(o.data(), 4, r.n, o2); fclose(o2);
      printf("%s %s\n", p, h == want ? "ok" : "HASH MISMATCH");
    }
    return 0;
  }
  uint32_t *dbuf, *hbuf;
  CK(cudaMalloc(&dbuf, (1ull << 28) * 4));
  CK(cudaMallocHost(&hbuf, (1ull << 28) * 4));
  if (mode == "chain") {                 // chain N STEPS: N starting points 0.5 + i * 2^-12
    int n = atoi(argv[2]), steps = atoi(argv[3]);
    std::vector<uint32_t> x0(n), hwv(n);
    for (int i = 0; i < n; i++) { float f = 0.5f + (float)i * 0x1p-12f; memcpy(&x0[i], &f, 4); }
    CK(cudaMemcpy(dbuf, x0.data(), n * 4, cudaMemcpyHostToDevice));
    kchain<<<n / 128, 128>>>(dbuf, steps);
    CK(cudaMemcpy(hwv.data(), dbuf, n * 4, cudaMemcpyDeviceToHost));
    int same = 0; int64_t worst = 0;
    for (int i = 0; i < n; i++) {
      uint32_t v = x0[i];
      for (int k = 0; k < steps; k++) v = fp_approx_f32(FPA_EX2, fp_approx_f32(FPA_SIN, v, 0), 1);
      int64_t d = ulps(K_F32, v, hwv[i]);
      same += d == 0; if (d > worst) worst = d;
      if (i < 4) printf("chain x0=%08x: H100 %08x model %08x\n", x0[i], hwv[i], v);
    }
    printf("chain of %d steps from %d starting points: %d end on the H100's value, the others up to %lld ulp away\n",
           steps, n, same, (long long)worst);
    return 0;
  }
  if (mode == "turns") {                 // turns DIR: the sin/cos unit's response to every angle
    const uint32_t N = 1u << 23;
    std::vector<uint32_t> xs(N), out(N);
    uint32_t *din; CK(cudaMalloc(&din, N * 4));
    for (int q = 0; q < 4; q++) {
      for (uint32_t u = 0; u < N; u++) xs[u] = turns_x((uint32_t)q << 23 | u);
      CK(cudaMemcpy(din, xs.data(), N * 4, cudaMemcpyHostToDevice));
      for (int c = 0; c < 2; c++) {
        if (c) kern_arr<2><<<N / 256, 256>>>(din, N, dbuf); else kern_arr<0><<<N / 256, 256>>>(din, N, dbuf);
        CK(cudaMemcpy(out.data(), dbuf, N * 4, cudaMemcpyDeviceToHost));
        uint64_t nb = 0;
        for (uint32_t u = 0; u < N; u++) nb += out[u] != model(c ? 2 : 0, xs[u]);
        char p[512]; snprintf(p, sizeof p, "%s/%s_q%d.u32", argv[2], c ? "cos" : "sin", q);
        FILE *o = fopen(p, "wb"); if (!o) { perror(p); return 73; }
        fwrite(out.data(), 4, N, o); fclose(o);
        printf("%s: %llu differ from the model\n", p, (unsigned long long)nb);
      }
    }
    return 0;
  }
  if (mode == "dump") {
    std::vector<range> L = read_list(argv[2]);
    FILE *o = fopen(argv[3], "wb"); if (!o) { perror(argv[3]); return 73; }
    for (auto &r : L) {
      std::vector<int32_t> d(r.n); uint64_t h = 0xCBF29CE484222325ull;
      for (uint32_t done = 0; done < r.n; done += 1u << 28) {
        uint32_t n = r.n - done < (1u << 28) ? r.n - done : 1u << 28;
        kerns[r.f]<<<(n + 255) / 256, 256>>>(r.lo + done * r.stride, r.stride, n, dbuf);
        CK(cudaMemcpy(hbuf, dbuf, (size_t)n * 4, cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < n; i++) { d[done + i] = (int32_t)(hbuf[i] - model(r.f, r.lo + (done + i) * r.stride)); h = mix(h, hbuf[i]); }
      }
      fwrite(d.data(), 4, r.n, o); fwrite(&h, 8, 1, o);
    }
    fclose(o); return 0;
  }
  std::vector<int> todo;
  if (mode == "all") for (int i = 0; i < NFORMS; i++) todo.push_back(i);
  else for (int i = 2; i < argc; i++) todo.push_back(find_form(argv[i]));
  FILE *blk = fopen(getenv("SWEEP_BLOCKS") ? getenv("SWEEP_BLOCKS") : "blocks.txt", "w");
  FILE *smp = fopen(getenv("SWEEP_SAMPLES") ? getenv("SWEEP_SAMPLES") : "samples.txt", "w");
  for (int f : todo) sweep_one(f, blk, smp, dbuf, hbuf, nthr);
  fclose(blk); fclose(smp);
  return 0;
}
