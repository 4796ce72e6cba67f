/* cli/cmd_gpu.c - "ptxemu gpus" (the bundled GPU configurations) and
 * "ptxemu occupancy" (theoretical occupancy of a kernel, like the CUDA
 * occupancy calculator). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpu/config.h"
#include "util/num.h"

int cmd_gpus(int argc, char **argv) {
  bool params = false;
  const char *one = NULL;
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      puts("usage: ptxemu gpus [--params NAME]\n"
           "Lists the bundled GPU configurations; --params prints every parameter of one\n"
           "(a starting point for a configuration file of your own: ptxemu ... --gpu FILE).");
      return EXIT_OK;
    }
    if (strcmp(argv[i], "--params") == 0 && i + 1 < argc) { params = true; one = argv[++i]; }
    else if (cli_missing_value("gpus", argv[i], "--params")) return EXIT_USAGE;
    else { fprintf(stderr, "ptxemu gpus: unknown argument '%s'\n", argv[i]); return EXIT_USAGE; }
  }
  if (params) {
    gpu_config c;
    if (gpu_config_load(one, &c, stderr)) return EXIT_DATAERR;
    gpu_config_write(&c, stdout);
    return EXIT_OK;
  }
  printf("%-8s %-6s %4s %9s %8s %9s %8s %9s  %s\n", "name", "arch", "SMs", "warps/SM", "regs/SM", "smem/SM", "L2", "DRAM", "description");
  for (int i = 0; i < gpu_builtin_count(); i++) {
    gpu_config c;
    if (gpu_config_parse(gpu_builtin_text(i), gpu_builtin_name(i), &c, stderr)) return EXIT_SOFTWARE;
    char l2[16];
    if (c.l2_bytes >= (1u << 20)) snprintf(l2, sizeof l2, "%.1f MB", (double)c.l2_bytes / (1 << 20));
    else snprintf(l2, sizeof l2, "%llu KB", (unsigned long long)c.l2_bytes >> 10);
    printf("%-8s %-6s %4u %9u %8u %6u KB %8s %5u GB/s  %s\n", c.name, c.arch, c.sms, c.max_warps_per_sm, c.regs_per_sm,
           c.shared_per_sm >> 10, l2, c.dram_bandwidth_gbs, c.description);
  }
  return EXIT_OK;
}

static void occ_usage(FILE *f) {
  fputs("usage: ptxemu occupancy FILE.ptx --kernel NAME --block N [--gpu NAME|FILE] [--shared BYTES] [--regs N]\n"
        "Theoretical occupancy of the kernel on one SM and the resource that limits it.\n"
        "Registers default to ptxemu's estimate (ptxemu asm -v); --shared adds dynamic shared memory.\n", f);
}

int cmd_occupancy(int argc, char **argv) {
  const char *path = NULL, *kernel = NULL, *gpu = "h100";
  long block = 0, shared = 0, regs = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool more = i + 1 < argc;
    if (cli_is_help(a)) { occ_usage(stdout); return EXIT_OK; }
    else if (strcmp(a, "--kernel") == 0 && more) kernel = argv[++i];
    else if (strcmp(a, "--block") == 0 && more) {
      /* X, X,Y, X,Y,Z or XxYxZ; the GPU decides how many threads fit */
      static const uint64_t bmax[3] = { 65536, 65536, 65536 };
      uint32_t v[3];
      int which;
      i++;
      if (num_dims3(argv[i], bmax, v, &which) || (uint64_t)v[0] * v[1] * v[2] > 65536) {
        fprintf(stderr, "ptxemu occupancy: bad --block '%s': X, X,Y, X,Y,Z or XxYxZ, whole numbers from 1, at most 65536 threads\n", argv[i]);
        return EXIT_USAGE;
      }
      block = (long)v[0] * v[1] * v[2];
    }
    else if (strcmp(a, "--gpu") == 0 && more) gpu = argv[++i];
    else if ((strcmp(a, "--shared") == 0 || strcmp(a, "--regs") == 0) && more) {
      uint64_t v;
      bool sh = a[2] == 's';
      i++;
      if (num_u64(argv[i], 0, sh ? 1u << 30 : 1024, &v)) {
        fprintf(stderr, "ptxemu occupancy: bad %s '%s': a whole number from 0 to %u\n", a, argv[i], sh ? 1u << 30 : 1024);
        return EXIT_USAGE;
      }
      if (sh) shared = (long)v; else regs = (long)v;
    }
    else if (cli_missing_value("occupancy", a, "--kernel --block --gpu --shared --regs")) return EXIT_USAGE;
    else if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxemu occupancy: unknown option '%s'\n", a); occ_usage(stderr); return EXIT_USAGE; }
    else path = a;
  }
  if (!path || !kernel || block <= 0 || shared < 0) { occ_usage(stderr); return EXIT_USAGE; }
  gpu_config c;
  if (gpu_config_load(gpu, &c, stderr)) return EXIT_DATAERR;
  int status = EXIT_OK;
  isa_module *m = cli_load_module(path, &status);
  if (!m) return status;
  int k = isa_find_func(m, kernel);
  if (k < 0 || !m->funcs[k].is_entry) {
    fprintf(stderr, "ptxemu occupancy: no kernel '%s' in %s; kernels:", kernel, path);
    for (uint32_t i = 0; i < m->nfuncs; i++) if (m->funcs[i].is_entry) fprintf(stderr, " %s", m->funcs[i].name);
    fputc('\n', stderr);
    isa_module_free(m);
    return EXIT_DATAERR;
  }
  const isa_func *f = &m->funcs[k];
  uint32_t r = regs >= 0 ? (uint32_t)regs : f->regs_used;
  uint64_t smem64 = f->shared_bytes + (uint64_t)shared;      /* not cut to 32 bits: 2^32 + 16 is not 16 */
  uint32_t smem = f->shared_bytes > UINT32_MAX || smem64 > UINT32_MAX ? UINT32_MAX : (uint32_t)smem64;
  gpu_occupancy o;
  gpu_occupancy_calc(&c, (uint32_t)block, r, smem, &o);
  printf("kernel %s on %s (%s): %ld threads per block, %u registers per thread%s, %u bytes shared memory per block\n",
         kernel, c.name, c.arch, block, r, regs >= 0 ? "" : " (estimated)", smem);
  if (o.error && !o.active_ctas && o.warps_per_cta == 0) { printf("cannot launch: %s\n", o.error); isa_module_free(m); return EXIT_DATAERR; }
  printf("  blocks per SM limited by warps:          %u  (%u warps per block, %u per SM)\n", o.ctas_by_warps, o.warps_per_cta, c.max_warps_per_sm);
  printf("  blocks per SM limited by registers:      %u  (%u registers per warp, %u per SM)\n", o.ctas_by_regs, o.regs_per_warp, c.regs_per_sm);
  if (o.ctas_by_smem == UINT32_MAX) printf("  blocks per SM limited by shared memory:  no limit (no shared memory)\n");
  else printf("  blocks per SM limited by shared memory:  %u  (%u bytes per block with reservation, %u per SM)\n", o.ctas_by_smem, o.smem_per_cta, c.shared_per_sm);
  printf("  blocks per SM limited by the block limit: %u\n", o.ctas_by_limit);
  printf("active blocks per SM: %u, active warps: %u of %u\n", o.active_ctas, o.active_warps, c.max_warps_per_sm);
  printf("theoretical occupancy: %.1f%% (limited by %s)\n", 100.0 * o.occupancy, o.limiter);
  isa_module_free(m);
  return o.active_ctas ? EXIT_OK : EXIT_DATAERR;
}
