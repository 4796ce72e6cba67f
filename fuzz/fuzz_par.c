/* fuzz_par.c - libFuzzer harness, differential: bytes -> a launch shape and
 * a PTX module; if it assembles, each of its first two kernels runs on
 * several blocks that share one buffer, once with the sequential scheduler
 * (threads 1) and once on worker threads (3), and everything a user sees
 * must be the same (doc/parallel.md: "results, device printf output,
 * --stats, traces and fault reports are identical for every N"): the
 * buffer's bytes, the counters, the warp instructions, the fault (kind,
 * place, message), the printf output, and in timing mode the cycles and
 * the timing result.  A difference aborts.
 *
 * Input: byte 0 picks the grid (2..17 blocks in x, 1 or 2 in y), byte 1
 * the block (32..256 threads) and timing mode (one input in four: the
 * built-in h100); bytes 2..9 fill 4-byte parameters and seed the buffer's
 * contents; the rest is PTX.  8-byte parameters point into the 16 KiB
 * buffer (the k-th 8-byte parameter at k * 1 KiB), 4-byte ones take
 * values from the seed bytes.  At most 20000 warp instructions a launch:
 * the budget, like a fault, is an ordinary outcome, but it must be reached
 * the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ast.h"
#include "isa/isa.h"
#include "emu/emu.h"
#include "emu/timing.h"
#include "gpu/config.h"

enum { BUF = 16 << 10 };

typedef struct outcome {
  int rc;
  uint8_t buf[BUF];
  emu_stats stats;
  uint64_t warp_insts;
  emu_fault fault;
  timing_result tr;
  char *out;
  size_t outlen;
} outcome;

static gpu_config h100;
static int have_h100 = -1;

static void run_once(isa_module *m, uint32_t fi, const emu_launch *shape, const uint8_t *seed, bool timed, uint32_t threads, outcome *o) {
  memset(o, 0, sizeof *o);
  o->rc = -2;
  FILE *out = open_memstream(&o->out, &o->outlen);
  if (!out) return;
  emu_options eo;
  emu_default_options(&eo);
  eo.max_warp_insts = 20000;
  eo.heap_bytes = 1u << 20;
  eo.mem_cap = 64u << 20;
  eo.printf_out = out;
  eo.counters = true;
  eo.progress = false;
  eo.threads = threads;
  emu *e = emu_new(m, &eo);
  if (!e) { fclose(out); return; }
  if (timed) {
    e->timing_cfg = &h100;
    e->timing_out = &o->tr;
  }
  uint64_t base = emu_alloc(e, BUF, "buf");
  const isa_func *k = &m->funcs[fi];
  uint64_t psize = 0;
  for (uint32_t i = 0; i < k->nparams; i++) {
    const isa_sym *s = &k->syms[k->nrets + i];
    if (s->offset + s->size > psize) psize = s->offset + s->size;
  }
  uint8_t *params = psize <= (1 << 16) ? calloc(1, psize ? psize : 1) : NULL;
  if (base && params) {
    uint8_t *b = emu_host_ptr(e, base, BUF);
    /* the buffer's words: small values, some repeated, from the seed */
    for (uint32_t i = 0; i < BUF / 4; i++) {
      uint32_t v = (uint32_t)seed[i % 8] * (i + 1) % 61;
      memcpy(b + 4 * i, &v, 4);
    }
    uint32_t n8 = 0;
    for (uint32_t i = 0; i < k->nparams; i++) {
      const isa_sym *s = &k->syms[k->nrets + i];
      if (s->size == 8) { uint64_t a = base + (uint64_t)(n8++ % 16) * 1024; memcpy(params + s->offset, &a, 8); }
      else if (s->size == 4) { uint32_t v = (uint32_t)seed[i % 8] % 67; memcpy(params + s->offset, &v, 4); }
    }
    emu_launch l = *shape;
    l.func = (int)fi;
    l.params = params;
    l.param_size = (uint32_t)psize;
    o->rc = emu_run(e, &l);
    memcpy(o->buf, b, BUF);
    o->stats = e->stats;
    o->warp_insts = e->warp_insts;
    o->fault = e->fault;
  }
  free(params);
  emu_free(e);
  fclose(out);
}

static void differ(const char *what, uint32_t fi) {
  fprintf(stderr, "fuzz_par: kernel %u: %s differs between --threads 1 and --threads 3\n", fi, what);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 10 || size > 1 << 14) return 0;
  if (have_h100 < 0) {
    have_h100 = 0;
    for (int i = 0; i < gpu_builtin_count(); i++)
      if (!strcmp(gpu_builtin_name(i), "h100")) have_h100 = gpu_config_parse(gpu_builtin_text(i), "h100.gpu", &h100, stderr) == 0;
  }
  emu_launch shape;
  memset(&shape, 0, sizeof shape);
  shape.grid[0] = 2 + data[0] % 16;
  shape.grid[1] = 1 + (data[0] >> 4 & 1);
  shape.grid[2] = 1;
  shape.block[0] = 32u << (data[1] % 4);
  shape.block[1] = shape.block[2] = 1;
  shape.cluster[0] = shape.cluster[1] = shape.cluster[2] = 1;
  bool timed = have_h100 > 0 && (data[1] >> 2 & 3) == 0;
  const uint8_t *seed = data + 2;
  size_t n = size - 10;
  char *src = malloc(n + 2);
  if (!src) return 0;
  memcpy(src, data + 10, n);
  src[n] = src[n + 1] = 0;
  FILE *devnull = fopen("/dev/null", "w");
  ptx_diag d;
  memset(&d, 0, sizeof d);
  d.path = "fuzz.ptx"; d.src = src; d.src_len = n; d.out = devnull; d.max_errors = 20;
  isa_module *m = isa_assemble_ptx(src, n, "fuzz.ptx", &d);
  free(src);
  if (devnull) fclose(devnull);
  if (!m) return 0;
  static outcome a, b;
  uint32_t kernels = 0;
  for (uint32_t fi = 0; fi < m->nfuncs && kernels < 2; fi++) {
    const isa_func *k = &m->funcs[fi];
    if (!k->is_entry || !k->has_body) continue;
    kernels++;
    run_once(m, fi, &shape, seed, timed, 1, &a);
    run_once(m, fi, &shape, seed, timed, 3, &b);
    if (a.rc != b.rc) differ("the launch's status", fi);
    if (memcmp(a.buf, b.buf, BUF)) differ("the buffer", fi);
    if (memcmp(&a.stats, &b.stats, sizeof a.stats)) differ("the counters", fi);
    if (a.warp_insts != b.warp_insts) differ("the warp instruction count", fi);
    if (a.fault.kind != b.fault.kind || a.fault.pc != b.fault.pc || a.fault.lane != b.fault.lane ||
        memcmp(a.fault.cta, b.fault.cta, sizeof a.fault.cta) || memcmp(a.fault.tid, b.fault.tid, sizeof a.fault.tid) ||
        a.fault.addr != b.fault.addr || strcmp(a.fault.msg, b.fault.msg))
      differ("the fault", fi);
    if (a.outlen != b.outlen || (a.outlen && memcmp(a.out, b.out, a.outlen))) differ("the printf output", fi);
    if (timed && memcmp(&a.tr, &b.tr, sizeof a.tr)) differ("the timing result", fi);
    free(a.out);
    free(b.out);
  }
  isa_module_free(m);
  return 0;
}
