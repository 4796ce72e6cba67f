// tests/exec/mma_h100_runner.cpp - runs launch files (the subset gen_mma.py writes:
// ptx, buffer zero/file, launch, arg ptr[+OFF]/u32/u64, expect) on a real GPU through the
// CUDA driver API and writes every buffer named by an expect line to OUTDIR/<case>/<buffer>.bin.
// This is how mma_h100.launch was captured, and how the expectations of gen_mma.py were
// checked against an H100:
//   nvcc -O1 -o runner mma_h100_runner.cpp -lcuda
//   ./runner DIR OUTDIR mma_f16 mma_fp8 ...      (case names = launch files in DIR)
// then compare OUTDIR/<case>/out.bin with DIR/mma_data/<case>.out.bin.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <map>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

static FILE *logf;
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = 0; cuGetErrorString(r_, &s_); \
  fprintf(logf, "%s: %s failed: %s\n", cname.c_str(), #x, s_ ? s_ : "?"); fflush(logf); ok = false; } } while (0)

static std::vector<char> slurp(const std::string &p) {
  std::ifstream f(p, std::ios::binary); return std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

struct Buf { size_t size; std::vector<char> init; CUdeviceptr d = 0; bool out = false; };

int main(int argc, char **argv) {
  std::string dir = argv[1], out = argv[2];
  logf = fopen((out + "/log.txt").c_str(), "w");
  cuInit(0);
  CUdevice dev; cuDeviceGet(&dev, 0);
  char name[256]; cuDeviceGetName(name, 256, dev); fprintf(logf, "device %s\n", name);
  for (int ai = 3; ai < argc; ai++) {
    std::string cname = argv[ai];
    std::string lf = dir + "/" + cname + ".launch";
    bool ok = true;
    CUcontext ctx; CK(cuCtxCreate(&ctx, NULL, 0, dev));
    if (!ok) continue;
    CUmodule mod = 0;
    std::map<std::string, Buf> bufs;
    std::vector<std::string> order;
    std::ifstream in(lf);
    std::string line;
    std::vector<std::string> pend;
    std::vector<std::vector<std::string>> args;
    auto flush_launch = [&]() {
      if (pend.empty() || !ok) { pend.clear(); args.clear(); return; }
      CUfunction f;
      CK(cuModuleGetFunction(&f, mod, pend[1].c_str()));
      if (ok) {
        std::vector<uint64_t> store(args.size());
        std::vector<void *> ptrs(args.size());
        for (size_t i = 0; i < args.size(); i++) {
          const std::string &t = args[i][1], &v = args[i][2];
          if (t == "ptr") {
            std::string n = v; uint64_t off = 0; size_t pl = v.find('+');
            if (pl != std::string::npos) { n = v.substr(0, pl); off = strtoull(v.c_str() + pl + 1, 0, 0); }
            store[i] = bufs[n].d + off;
          } else store[i] = strtoull(v.c_str(), 0, 0);
          ptrs[i] = &store[i];
        }
        unsigned g = atoi(pend[3].c_str()), b = atoi(pend[7].c_str()), sh = atoi(pend[11].c_str());
        CK(cuLaunchKernel(f, g, 1, 1, b, 1, 1, sh, 0, ptrs.data(), 0));
        CK(cuCtxSynchronize());
        fprintf(logf, "%s: launch %s %s\n", cname.c_str(), pend[1].c_str(), ok ? "ok" : "FAILED");
      }
      pend.clear(); args.clear();
    };
    while (std::getline(in, line)) {
      size_t h = line.find('#'); if (h != std::string::npos) line = line.substr(0, h);
      std::istringstream ss(line); std::vector<std::string> t; std::string w; while (ss >> w) t.push_back(w);
      if (t.empty()) continue;
      if (t[0] == "arg") { args.push_back(t); continue; }
      flush_launch();
      if (t[0] == "ptx") {
        std::vector<char> src = slurp(dir + "/" + t[1]); src.push_back(0);
        static char elog[65536]; elog[0] = 0;
        CUjit_option o[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *ov[2] = {elog, (void *)(uintptr_t)sizeof elog};
        CK(cuModuleLoadDataEx(&mod, src.data(), 2, o, ov));
        if (!ok) { fprintf(logf, "%s: jit log: %s\n", cname.c_str(), elog); break; }
      } else if (t[0] == "buffer") {
        Buf bf; bf.size = strtoull(t[2].c_str(), 0, 0);
        if (t[3] == "file") bf.init = slurp(dir + "/" + t[4]);
        else bf.init.assign(bf.size, 0);
        if (bf.init.size() < bf.size) bf.init.resize(bf.size, 0);
        CK(cuMemAlloc(&bf.d, bf.size ? bf.size : 1));
        CK(cuMemcpyHtoD(bf.d, bf.init.data(), bf.size));
        bufs[t[1]] = bf; order.push_back(t[1]);
      } else if (t[0] == "launch") {
        pend = t;
      } else if (t[0] == "expect") {
        std::string n = t[1]; size_t pl = n.find('+'); if (pl != std::string::npos) n = n.substr(0, pl);
        if (bufs.count(n)) bufs[n].out = true;
      }
    }
    flush_launch();
    std::string od = out + "/" + cname; mkdir(od.c_str(), 0755);
    for (auto &n : order) {
      Buf &bf = bufs[n];
      if (!bf.out) continue;
      std::vector<char> host(bf.size);
      CUresult r = cuMemcpyDtoH(host.data(), bf.d, bf.size);
      if (r != CUDA_SUCCESS) { fprintf(logf, "%s: copy back %s failed\n", cname.c_str(), n.c_str()); continue; }
      FILE *f = fopen((od + "/" + n + ".bin").c_str(), "wb"); fwrite(host.data(), 1, bf.size, f); fclose(f);
    }
    fprintf(logf, "%s: done %s\n", cname.c_str(), ok ? "ok" : "WITH ERRORS"); fflush(logf);
    cuCtxDestroy(ctx);
  }
  fclose(logf);
  return 0;
}
