/* fuzz_emu.c - libFuzzer harness: bytes -> PTX module; if it assembles, run
 * every kernel once with a tiny launch: 1 block of 32 threads, parameters
 * zero-filled except 8-byte ones, which point at a zeroed 4 KiB buffer;
 * at most 20000 warp instructions per launch.  Faults and the budget limit
 * are ordinary outcomes; only sanitizer reports and crashes count. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ast.h"
#include "isa/isa.h"
#include "emu/emu.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!devnull) devnull = fopen("/dev/null", "w");
  if (size > 1 << 14) return 0;
  char *buf = malloc(size + 2);
  if (!buf) return 0;
  memcpy(buf, data, size);
  buf[size] = buf[size + 1] = 0;
  ptx_diag d;
  memset(&d, 0, sizeof d);
  d.path = "fuzz.ptx"; d.src = buf; d.src_len = size; d.out = devnull; d.max_errors = 20;
  isa_module *m = isa_assemble_ptx(buf, size, "fuzz.ptx", &d);
  free(buf);
  if (!m) return 0;

  emu_options eo;
  emu_default_options(&eo);
  eo.max_warp_insts = 20000;
  eo.resident_ctas = 1;
  eo.heap_bytes = 1u << 20;
  eo.mem_cap = 64u << 20;
  eo.printf_out = devnull;
  eo.counters = true;
  eo.progress = false;
  emu *e = emu_new(m, &eo);
  if (!e) { isa_module_free(m); return 0; }
  uint64_t bufaddr = emu_alloc(e, 4096, "buf");
  for (uint32_t fi = 0; fi < m->nfuncs && bufaddr; fi++) {
    const isa_func *k = &m->funcs[fi];
    if (!k->is_entry || !k->has_body) continue;
    uint64_t psize = 0;
    for (uint32_t i = 0; i < k->nparams; i++) {
      const isa_sym *s = &k->syms[k->nrets + i];
      if (s->offset + s->size > psize) psize = s->offset + s->size;
    }
    if (psize > 1 << 16) continue;
    uint8_t *params = calloc(1, psize ? psize : 1);
    if (!params) break;
    for (uint32_t i = 0; i < k->nparams; i++) {
      const isa_sym *s = &k->syms[k->nrets + i];
      if (s->size == 8) memcpy(params + s->offset, &bufaddr, 8);
    }
    memset(emu_host_ptr(e, bufaddr, 4096), 0, 4096);
    emu_launch l;
    memset(&l, 0, sizeof l);
    l.func = (int)fi;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 32; l.block[1] = l.block[2] = 1;
    l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
    l.params = params;
    l.param_size = (uint32_t)psize;
    emu_run(e, &l);
    free(params);
  }
  emu_free(e);
  isa_module_free(m);
  return 0;
}
