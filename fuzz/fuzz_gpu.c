/* fuzz_gpu.c - libFuzzer harness: bytes -> GPU configuration text through
 * gpu_config_parse (the parser behind --gpu FILE); when it parses, a tiny
 * timed launch of a fixed kernel (shared memory, a barrier, global loads
 * and stores, a loop, an atomic) on that GPU: 2 blocks of 64 threads, at
 * most 4000 warp instructions, 2 s of wall time.  Configuration errors,
 * faults and budgets are ordinary outcomes; sanitizer reports, crashes,
 * timeouts and memory over the limit are findings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ast.h"
#include "isa/isa.h"
#include "emu/emu.h"
#include "emu/timing.h"
#include "gpu/config.h"

static char kernel_ptx[] =       /* writable: flex scans it in place */
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
  "  .shared .align 4 .b32 tile[64];\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n"
  "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mad.lo.u32 %r4, %r3, 64, %r2;\n"
  "  mul.wide.u32 %rd2, %r4, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r5, [%rd3];\n  shl.b32 %r6, %r2, 2;\n  mov.u32 %r7, tile;\n  add.u32 %r8, %r7, %r6;\n"
  "  st.shared.u32 [%r8], %r5;\n  bar.sync 0;\n  mov.u32 %r9, 0;\n"
  "LOOP:\n  ld.shared.u32 %r10, [%r8];\n  add.u32 %r5, %r5, %r10;\n  add.u32 %r9, %r9, 1;\n"
  "  setp.lt.u32 %p1, %r9, %r1;\n  @%p1 bra LOOP;\n"
  "  st.global.u32 [%rd3], %r5;\n  atom.global.add.u32 %r11, [%rd1], 1;\n  ret;\n}\n\0";   /* the lexer reads two NULs */

static FILE *devnull;
static isa_module *mod;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  devnull = fopen("/dev/null", "w");
  ptx_diag d;
  memset(&d, 0, sizeof d);
  d.path = "fuzz_gpu.ptx"; d.src = kernel_ptx; d.src_len = sizeof kernel_ptx - 2; d.out = stderr; d.max_errors = 5;
  mod = isa_assemble_ptx(kernel_ptx, sizeof kernel_ptx - 2, "fuzz_gpu.ptx", &d);
  if (!mod) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  gpu_config cfg;
  int bad = gpu_config_parse(text, "fuzz.gpu", &cfg, devnull);
  free(text);
  if (bad) return 0;
  /* what gpu_config_write prints must parse back to the same values */
  char *dump = NULL;
  size_t dlen = 0;
  FILE *mf = open_memstream(&dump, &dlen);
  if (mf) { gpu_config_write(&cfg, mf); fclose(mf); }
  gpu_config again;
  if (dump && gpu_config_parse(dump, "fuzz.gpu (written back)", &again, stderr)) abort();
  free(dump);

  emu_options eo;
  emu_default_options(&eo);
  eo.max_warp_insts = 4000;
  eo.max_seconds = 2;
  eo.resident_ctas = 2;
  eo.heap_bytes = 1u << 16;
  eo.mem_cap = 16u << 20;
  eo.printf_out = devnull;
  eo.progress = false;
  emu *e = emu_new(mod, &eo);
  if (!e) return 0;
  timing_result tr;
  memset(&tr, 0, sizeof tr);
  e->timing_cfg = &cfg;
  e->timing_out = &tr;
  uint64_t buf = emu_alloc(e, 128 * 4, "buf");
  if (buf) {
    uint8_t params[12] = {0};
    uint32_t n = 3;
    memcpy(params, &buf, 8);
    memcpy(params + 8, &n, 4);
    emu_launch l;
    memset(&l, 0, sizeof l);
    l.func = isa_find_func(mod, "k");
    l.grid[0] = 2; l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64; l.block[1] = l.block[2] = 1;
    l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
    l.params = params;
    l.param_size = sizeof params;
    emu_run(e, &l);
  }
  emu_free(e);
  return 0;
}
