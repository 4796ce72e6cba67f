/* host/session.c - play a launch file on the emulator, like the host
 * program of a CUDA application: allocate and fill buffers, launch kernels
 * with their arguments, dump, and compare the expected results. */
#define _GNU_SOURCE                      /* fopencookie */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "host/session.h"
#include "host/launch.h"
#include "host/launcher.h"
#include "host/grade.h"
#include "emu/emu.h"
#include "emu/texobj.h"
#include "emu/timing.h"
#include "gpu/config.h"
#include "util/demangle.h"
#include "util/outfile.h"

#define SESSION_MAX_DYN_SHARED 232448u

static const char *const lf_type_ptx[] = { "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f32", "f64" };

/* Write a file whole (util/outfile.h: a regular file is replaced at once,
 * a device or FIFO written in place). */
int session_write_file(const char *path, const void *data, size_t n) {
  return outfile_write(path, data, n);
}

static void list_kernels(const isa_module *m, FILE *out) {
  fputs("    kernels in the module:", out);
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    if (!m->funcs[i].is_entry) continue;
    char dm[1024];
    const char *shown = demangle_or_self(m->funcs[i].name, dm, sizeof dm);
    /* a C++ kernel by its PTX name, which a launch file uses, and as written in C++ */
    if (shown != m->funcs[i].name) fprintf(out, " %s (%s)", m->funcs[i].name, shown);
    else fprintf(out, " %s", m->funcs[i].name);
  }
  fputc('\n', out);
}

/* ---- textures, surfaces and tensor maps (launch-file objects) ---- */

typedef struct session_objs {
  uint64_t *handle;              /* per object: texture/surface handle            */
  uint8_t (*map)[128];           /* per object: tensor-map bytes                  */
} session_objs;

/* Create object oi (its line executes); 0 or an exit status, error printed. */
static int make_object(emu *e, const launch_file *lf, int line, int oi, const uint64_t *bufaddr, session_objs *so) {
  const lf_object *o = &lf->objects[oi];
  if (o->kind == LF_OBJ_TENSORMAP) {
    const lf_tensormap *t = &o->tmap;
    emu_tmapdesc d = { .addr = bufaddr[o->buffer] + o->offset, .dtype = t->dtype, .rank = t->rank,
                       .interleave = t->interleave, .swizzle = t->swizzle, .l2promo = t->l2promo, .oobfill = t->oobfill };
    for (int i = 0; i < 5; i++) { d.dim[i] = t->dim[i]; d.stride[i] = t->stride[i]; d.box[i] = t->box[i]; d.estride[i] = t->estride[i]; }
    d.im2col = t->im2col;
    d.channels = t->channels;
    d.pixels = t->pixels;
    for (int i = 0; i < 3; i++) { d.lower[i] = t->lower[i]; d.upper[i] = t->upper[i]; }
    emu_tensormap_encode(so->map[oi], &d);
    if (t->into_buffer >= 0) memcpy(emu_host_ptr(e, bufaddr[t->into_buffer] + t->into_offset, 128), so->map[oi], 128);
    return 0;
  }
  static const uint8_t fmt[LF_TYPE_COUNT] = { [LF_U8] = TEXFMT_U8, [LF_S8] = TEXFMT_S8, [LF_U16] = TEXFMT_U16,
    [LF_S16] = TEXFMT_S16, [LF_U32] = TEXFMT_U32, [LF_S32] = TEXFMT_S32, [LF_F16] = TEXFMT_F16, [LF_F32] = TEXFMT_F32 };
  const lf_texture *t = &o->tex;
  emu_texdesc d = { .surface = o->kind == LF_OBJ_SURFACE, .addr = bufaddr[o->buffer] + o->offset, .fmt = fmt[t->type],
                    .channels = (uint8_t)t->channels, .ndims = (uint8_t)t->ndims, .cube = t->cube, .width = t->width,
                    .height = t->height, .depth = t->depth, .layers = t->layers, .pitch = t->pitch, .linear = t->linear,
                    .normalized_coords = t->normalized, .read_normalized = t->read_normalized, .srgb = t->srgb };
  for (int i = 0; i < 3; i++) d.addr_mode[i] = (uint8_t)t->addr[i];
  for (int i = 0; i < 4; i++) d.border[i] = t->border[i];
  so->handle[oi] = emu_texture_create(e, &d);
  if (!so->handle[oi]) { fprintf(stderr, "%s:%d: error: out of memory\n", lf->path, line); return 70; }
  if (emu_texture_bind(e, o->name, so->handle[oi]) < 0) {
    fprintf(stderr, "%s:%d: error: '%s' in %s is not a .%s variable\n", lf->path, line, o->name, lf->ptx_path,
            d.surface ? "surfref" : "texref");
    return 65;
  }
  return 0;
}

/* Kernel parameter bytes from the arg lines; 0 or an error printed. */
static int build_params(const launch_file *lf, const lf_launch *L, int line, const isa_func *k, uint64_t *bufaddr,
                        const session_objs *so, uint8_t **out, uint32_t *outlen) {
  uint64_t size = 0;
  for (uint32_t i = 0; i < k->nparams; i++) {
    const isa_sym *s = &k->syms[k->nrets + i];
    if (s->offset + s->size > size) size = s->offset + s->size;
  }
  if ((uint32_t)L->nargs != k->nparams) {
    fprintf(stderr, "%s:%d: error: kernel '%s' takes %u parameter%s, the launch gives %d\n", lf->path, line, k->name,
            k->nparams, k->nparams == 1 ? "" : "s", L->nargs);
    for (uint32_t i = 0; i < k->nparams; i++) {
      const isa_sym *s = &k->syms[k->nrets + i];
      fprintf(stderr, "    parameter %u: %s (.%s, %llu bytes)\n", i + 1, s->name, ptx_type_names[s->type], (unsigned long long)s->size);
    }
    return -1;
  }
  uint8_t *p = calloc(1, size ? size : 1);
  if (!p) return -1;
  for (int i = 0; i < L->nargs; i++) {
    const lf_arg *a = &L->args[i];
    const isa_sym *s = &k->syms[k->nrets + (uint32_t)i];
    uint64_t v = 0;
    size_t n;
    const uint8_t *src = (const uint8_t *)&v;
    if (a->kind == LF_ARG_PTR) { v = bufaddr[a->buffer] + a->offset; n = 8; }
    else if (a->kind == LF_ARG_BYTES) { src = a->bytes; n = a->size; }
    else if (a->kind == LF_ARG_TEXTURE || a->kind == LF_ARG_SURFACE) { v = so->handle[a->object]; n = 8; }
    else if (a->kind == LF_ARG_TENSORMAP) { src = so->map[a->object]; n = 128; }
    else { v = a->value; n = a->size; }
    if (n != s->size) {
      fprintf(stderr, "%s:%d: error: parameter %d of '%s' ('%s') is .%s%s (%llu bytes), the arg gives %s (%zu bytes)\n",
              lf->path, a->line, i + 1, k->name, s->name, ptx_type_names[s->type], s->ndims ? "[]" : "",
              (unsigned long long)s->size, a->kind == LF_ARG_PTR ? "a pointer" : a->kind == LF_ARG_BYTES ? "bytes"
              : a->kind == LF_ARG_TEXTURE ? "a texture" : a->kind == LF_ARG_SURFACE ? "a surface"
              : a->kind == LF_ARG_TENSORMAP ? "a tensor map" : lf_type_ptx[a->type], n);
      free(p);
      return -1;
    }
    memcpy(p + s->offset, src, n);
  }
  *out = p;
  *outlen = (uint32_t)size;
  return 0;
}

/* Host pointer and size of a buffer or symbol target. */
static uint8_t *target_ptr(emu *e, const launch_file *lf, const lf_target *t, const uint64_t *bufaddr, uint64_t *size) {
  if (t->buffer >= 0) {
    *size = lf->buffers[t->buffer].size - t->offset;
    return emu_host_ptr(e, bufaddr[t->buffer] + t->offset, *size);
  }
  uint64_t ssize;
  uint64_t a = emu_symbol_addr(e, t->symbol, &ssize);
  if (!a || t->offset > ssize) return NULL;
  *size = ssize - t->offset;
  return emu_host_ptr(e, a + t->offset, *size);
}

static int play(launch_file *lfp, const session_opts *o, isa_module *(*load)(const char *, int *));

int session_run(const char *path, const session_opts *o, isa_module *(*load)(const char *, int *)) {
  launch_file lf;
  FILE *probe = fopen(path, "r");
  if (!probe) { fprintf(stderr, "ptxemu: cannot read '%s'\n", path); return 66; }
  fclose(probe);
  lf_set_total_cap(o->mem_cap ? o->mem_cap : emu_default_mem_cap());
  if (lf_parse_file(path, &lf, stderr)) return 65;
  return play(&lf, o, load);
}

int session_run_text(const char *text, const char *virtual_path, const session_opts *o, isa_module *(*load)(const char *, int *)) {
  launch_file lf;
  lf_set_total_cap(o->mem_cap ? o->mem_cap : emu_default_mem_cap());
  if (lf_parse_string(text, virtual_path, &lf, stderr)) return 65;
  return play(&lf, o, load);
}

/* check: device printf output is compared with the expected bytes as it
 * streams, so no copy of it is kept, however much a kernel prints. */
typedef struct out_cmp { const char *want; size_t nwant, n, diff; bool differs; } out_cmp;

static ssize_t out_cmp_write(void *cookie, const char *buf, size_t n) {
  out_cmp *c = cookie;
  for (size_t i = 0; i < n && !c->differs; i++)
    if (c->n + i >= c->nwant || buf[i] != c->want[c->n + i]) { c->differs = true; c->diff = c->n + i; }
  c->n += n;
  return (ssize_t)n;
}

/* The element type mismatches of x are shown in, and its size: the float
 * type of a float mode, else the type of x's value list or buffer, else
 * 32-bit words (bytes for a size that is not a multiple of 4), as
 * cmp_report shows them. */
static const char *expect_type(const lf_expect *x, size_t *es) {
  switch (x->mode) {
  case CMP_F32ULP: case CMP_F32REL: *es = 4; return "f32";
  case CMP_F64ULP: case CMP_F64REL: *es = 8; return "f64";
  case CMP_F16ULP: *es = 2; return "f16";
  case CMP_BF16ULP: *es = 2; return "bf16";
  case CMP_SET32:
    *es = 4;
    return x->type >= 0 && lf_type_size((enum lf_type)x->type) == 4 ? lf_type_name((enum lf_type)x->type) : "u32";
  default: break;
  }
  if (x->type >= 0 && x->size % lf_type_size((enum lf_type)x->type) == 0) {
    *es = lf_type_size((enum lf_type)x->type);
    return lf_type_name((enum lf_type)x->type);
  }
  *es = x->size % 4 ? 1 : 4;
  return *es == 4 ? "u32" : "u8";
}

/* Compare one expect against the n bytes at p (NULL: no such variable);
 * prints its line (or adds its grading item). Returns whether it matched. */
static bool check_expect(const lf_expect *x, const uint8_t *p, uint64_t n, const session_opts *o) {
  char *line = NULL;
  size_t linelen;
  FILE *lf = open_memstream(&line, &linelen);
  if (!lf) { fprintf(stderr, "ptxemu: out of memory\n"); return false; }
  grade_item *it = o->grade ? grade_add(o->grade, x->name, x->line) : NULL;
  size_t es;
  const char *type = expect_type(x, &es);
  if (it) {
    it->compared = true;
    cmp_mode_format(x->mode, x->param, it->mode, sizeof it->mode);
    snprintf(it->type, sizeof it->type, "%s", type);
    it->bytes = x->size;
  }
  if (!p || (x->partial && x->size > n)) {
    if (!p) fprintf(lf, "%s: MISMATCH: no such variable", x->name);
    else fprintf(lf, "%s: MISMATCH: expected %zu bytes, the target holds %llu", x->name, x->size, (unsigned long long)n);
    fclose(lf);
    if (it) it->message = line;
    else { if (line) puts(line); free(line); }
    return false;
  }
  cmp_result r;
  int ok = x->partial ? cmp_buffers(p, x->data, x->size, x->mode, x->param, &r)
                      : cmp_buffers_sized(p, n, x->data, x->size, x->mode, x->param, &r);
  size_t first = r.first, count = r.mismatches, nelems = r.nelems;
  bool typed = !ok && !r.size_mismatch && x->mode == CMP_EXACT && x->type >= 0 && strcmp(type, "u8") && strcmp(type, "u32");
  if (typed) {
    /* an exact compare of a typed expect: elements of its type, not words */
    first = SIZE_MAX;
    count = 0;
    nelems = x->size / es;
    for (size_t k = 0; k < nelems; k++)
      if (memcmp(p + k * es, x->data + k * es, es)) { if (first == SIZE_MAX) first = k; count++; }
  }
  char ev[96] = "", av[96] = "", eb[24] = "", ab[24] = "";
  bool have = !ok && !r.size_mismatch && x->mode != CMP_SET32 && first != SIZE_MAX && (first + 1) * es <= x->size;
  if (have) {
    grade_format_elem(type, x->data + first * es, ev, sizeof ev, eb, sizeof eb);
    grade_format_elem(type, p + first * es, av, sizeof av, ab, sizeof ab);
  }
  if (typed && have)
    fprintf(lf, "%s: MISMATCH at element %zu: expected %s (%s), got %s (%s) (%zu of %zu %s elements differ)\n",
            x->name, first, ev, eb, av, ab, count, nelems, type);
  else cmp_report(lf, x->name, x->mode, x->param, &r);
  fclose(lf);
  if (!line) { fprintf(stderr, "ptxemu: out of memory\n"); return false; }
  line[strcspn(line, "\n")] = 0;
  if (it) {
    it->pass = ok;
    it->elements = nelems;
    it->mismatches = ok ? 0 : count;
    if (!ok && !r.size_mismatch && first != SIZE_MAX) {
      it->index = (long long)first;
      if (have) {
        memcpy(it->expected, ev, sizeof ev); memcpy(it->actual, av, sizeof av);
        memcpy(it->expected_bits, eb, sizeof eb); memcpy(it->actual_bits, ab, sizeof ab);
      } else if (x->mode == CMP_SET32) {
        /* set32 reports words as "0xHEX (N)": shown in the type like the others */
        const char *rs[2] = { r.expected, r.actual };
        char *val[2] = { it->expected, it->actual }, *bits[2] = { it->expected_bits, it->actual_bits };
        for (int k = 0; k < 2; k++) {
          char *end;
          unsigned long long w = strtoull(rs[k], &end, 16);
          if (end == rs[k] || w > 0xffffffffull) { snprintf(val[k], sizeof it->expected, "%s", rs[k]); continue; }
          uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
          grade_format_elem(type, b, val[k], sizeof it->expected, bits[k], sizeof it->expected_bits);
        }
      } else {
        snprintf(it->expected, sizeof it->expected, "%s", r.expected);
        snprintf(it->actual, sizeof it->actual, "%s", r.actual);
      }
    }
    it->message = line;
  } else {
    if (!o->quiet || !ok) puts(line);
    free(line);
  }
  return ok;
}

uint32_t session_default_threads(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > SESSION_MAX_THREADS ? SESSION_MAX_THREADS : (uint32_t)n;
}

static int play(launch_file *lfp, const session_opts *o, isa_module *(*load)(const char *, int *)) {
  launch_file lf = *lfp;
  int status = 0;
  isa_module *m = load(lf.ptx_path, &status);
  if (!m) { lf_free(&lf); return status; }
  emu_options eo;
  emu_default_options(&eo);
  if (o->max_insts) eo.max_warp_insts = o->max_insts;
  if (o->max_seconds > 0) eo.max_seconds = o->max_seconds;
  if (o->mem_cap) eo.mem_cap = o->mem_cap;
  /* sector and bank counters cost time: only when someone reads them */
  eo.counters = o->stats_path || o->observer || o->launch_done || o->gpu;
  eo.progress = !o->quiet && isatty(2);
  eo.strict_async = o->strict_async;
  eo.threads = o->threads ? o->threads : session_default_threads();
  out_cmp pcmp = { (const char *)lf.stdout_data, lf.stdout_size, 0, 0, false };
  FILE *pstream = NULL;
  /* grading output owns stdout: device printf goes to stderr */
  if (o->grade && !lf.stdout_path) eo.printf_out = stderr;
  if (o->compare && lf.stdout_path) {
    pstream = fopencookie(&pcmp, "w", (cookie_io_functions_t){ .write = out_cmp_write });
    if (!pstream) { fprintf(stderr, "ptxemu: out of memory\n"); isa_module_free(m); lf_free(&lf); return 70; }
    eo.printf_out = pstream;
  }
  gpu_config gpuc, *gcfg = NULL;
  timing_result tres;
  memset(&tres, 0, sizeof tres);
  if (o->gpu) {
    if (gpu_config_load_set(o->gpu, o->sets, o->nsets, &gpuc, stderr)) { isa_module_free(m); lf_free(&lf); if (pstream) fclose(pstream); return 65; }
    if (o->sched) gpu_config_set_scheduler(&gpuc, o->sched);   /* checked by the command line */
    if (o->issue_order) gpu_config_set_issue_order(&gpuc, o->issue_order);
    gcfg = &gpuc;
    if (o->grade) snprintf(o->grade->gpu, sizeof o->grade->gpu, "%s", gpuc.name);
  }
  emu *e = emu_new(m, &eo);
  if (!e) {
    /* the module's .global and .const variables, beyond the device memory cap (a limit), or no host memory */
    uint64_t vars = 0;
    for (uint32_t i = 0; i < m->nsyms && vars < (1ull << 62); i++)   /* each at most 2^48: no wrap */
      if (m->syms[i].space == PTX_SPACE_GLOBAL || m->syms[i].space == PTX_SPACE_CONST) vars += m->syms[i].size;
    int limit = vars + eo.heap_bytes > eo.mem_cap;
    if (limit)
      fprintf(stderr, "%s: error: the module's variables need %llu bytes of device memory, more than the cap of %llu (--max-memory)\n",
              lf.ptx_path, (unsigned long long)vars, (unsigned long long)eo.mem_cap);
    else fprintf(stderr, "ptxemu: cannot set up the device (memory)\n");
    isa_module_free(m); lf_free(&lf); return limit ? 4 : 70;
  }
  e->obs = o->observer;
  e->timing_cfg = gcfg;
  e->timing_out = &tres;
  uint64_t *bufaddr = calloc((size_t)lf.nbuffers + 1, sizeof *bufaddr);
  session_objs so = { calloc((size_t)lf.nobjects + 1, sizeof *so.handle), calloc((size_t)lf.nobjects + 1, sizeof *so.map) };
  if (!so.handle || !so.map) status = 70;
  for (int i = 0; i < lf.nbuffers && !status; i++) {
    const lf_buffer *b = &lf.buffers[i];
    bufaddr[i] = emu_alloc(e, b->size, b->name);
    if (!bufaddr[i]) { fprintf(stderr, "%s:%d: error: cannot allocate %llu bytes for '%s' (device memory cap)\n", lf.path, b->line, (unsigned long long)b->size, b->name); status = 4; break; }
    if (b->data) memcpy(emu_host_ptr(e, bufaddr[i], b->size), b->data, b->size);
    if (o->buffer_alloc) o->buffer_alloc(o->observer_ctx, bufaddr[i], b->size, b->init != LF_INIT_UNDEF);
  }
  FILE *stats = NULL;
  outfile statsf;
  if (!status && o->stats_path) {
    if (outfile_open(&statsf, o->stats_path)) { fprintf(stderr, "ptxemu: cannot write '%s': %s\n", o->stats_path, strerror(errno)); status = 73; }
    else stats = statsf.f;
  }
  if (stats && gcfg) host_stats_header(stats, gcfg, o->sets, o->nsets);
  host_launcher hl = { .o = o, .stats = stats, .gcfg = gcfg, .tres = &tres };
  for (int si = 0; si < lf.nsteps && !status; si++) {
    const lf_step *st = &lf.steps[si];
    if (st->kind == LF_LAUNCH) {
      const lf_launch *L = &st->launch;
      int k = isa_find_func(m, L->kernel);
      if (k < 0 || !m->funcs[k].is_entry) {
        fprintf(stderr, "%s:%d: error: no kernel '%s' in %s\n", lf.path, st->line, L->kernel, lf.ptx_path);
        list_kernels(m, stderr);
        status = 65;
        break;
      }
      uint32_t csize = L->cluster[0] * L->cluster[1] * L->cluster[2];
      if (L->shared > SESSION_MAX_DYN_SHARED || csize > 16) {
        fprintf(stderr, "%s:%d: error: %s\n", lf.path, st->line, csize > 16 ? "clusters hold at most 16 blocks"
                : "dynamic shared memory above 232448 bytes (227 KiB, the most a block can have)");
        status = 65;
        break;
      }
      /* static shared memory is checked here too, with the launch's line:
       * the block's total against the GPU's per-block figure */
      uint64_t sshared = emu_static_shared(m, k), smax = gcfg ? gcfg->shared_per_cta : EMU_MAX_SHARED_PER_BLOCK;
      if (sshared > smax || sshared + L->shared > smax) {
        if (sshared == UINT64_MAX)
          fprintf(stderr, "%s:%d: error: kernel '%s' declares more than 2^48 bytes of static shared memory\n", lf.path, st->line, L->kernel);
        else
          fprintf(stderr, "%s:%d: error: kernel '%s' needs %llu bytes of static shared memory (and %u dynamic), more than the %llu bytes a block can have on %s\n",
                  lf.path, st->line, L->kernel, (unsigned long long)sshared, L->shared, (unsigned long long)smax, gcfg ? gcfg->name : "h100");
        status = 65;
        break;
      }
      emu_launch el = { .func = k, .dyn_shared = L->shared };
      memcpy(el.grid, L->grid, sizeof el.grid);
      memcpy(el.block, L->block, sizeof el.block);
      memcpy(el.cluster, L->cluster, sizeof el.cluster);
      uint8_t *params = NULL;
      if (build_params(&lf, L, st->line, &m->funcs[k], bufaddr, &so, &params, &el.param_size)) { status = 65; break; }
      el.params = params;
      char where[64 + 4096];
      snprintf(where, sizeof where, "%s:%d", lf.path, st->line);
      int rc = host_launch(&hl, e, &el, L->index, L->kernel, where);
      free(params);
      if (rc) status = rc;
    } else if (st->kind == LF_DUMP) {
      uint64_t n;
      uint8_t *p = target_ptr(e, &lf, &st->dump.target, bufaddr, &n);
      if (!p) { fprintf(stderr, "%s:%d: error: no such symbol '%s'\n", lf.path, st->line, st->dump.target.symbol); status = 65; break; }
      if (session_write_file(st->dump.file, p, n)) { fprintf(stderr, "%s:%d: error: cannot write '%s': %s\n", lf.path, st->line, st->dump.file, strerror(errno)); status = 73; }
    } else if (st->kind == LF_SYMBOL_SET) {
      uint64_t n;
      uint8_t *p = target_ptr(e, &lf, &st->symset.target, bufaddr, &n);
      if (!p) { fprintf(stderr, "%s:%d: error: no module variable '%s' in %s\n", lf.path, st->line, st->symset.target.symbol, lf.ptx_path); status = 65; break; }
      if (st->symset.fill) {
        if (!st->symset.size || n % st->symset.size) { fprintf(stderr, "%s:%d: error: '%s' (%llu bytes) is not a whole number of fill elements\n", lf.path, st->line, st->symset.target.symbol, (unsigned long long)n); status = 65; break; }
        for (uint64_t off = 0; off < n; off += st->symset.size) memcpy(p + off, st->symset.data, st->symset.size);
      } else {
        if (st->symset.size > n) { fprintf(stderr, "%s:%d: error: %zu bytes do not fit in '%s' (%llu bytes)\n", lf.path, st->line, st->symset.size, st->symset.target.symbol, (unsigned long long)n); status = 65; break; }
        memcpy(p, st->symset.data, st->symset.size);
      }
    } else if (st->kind == LF_OBJECT) {
      status = make_object(e, &lf, st->line, st->object, bufaddr, &so);
    }
  }
  /* the counters of the launches that ran, even after a fault */
  if (stats && outfile_close(&statsf, 1)) {
    fprintf(stderr, "ptxemu: cannot write '%s': %s\n", o->stats_path, strerror(errno));
    if (!status) status = 73;
  }
  if (pstream) fclose(pstream);
  /* outputs and comparisons reflect the state after the last step that ran */
  int mismatches = 0;
  if (o->out_dir && status != 65) {
    mkdir(o->out_dir, 0777);
    for (int i = 0; i < lf.nexpects; i++) {
      const lf_expect *x = &lf.expects[i];
      if (x->target.buffer < 0) continue;
      const lf_buffer *b = &lf.buffers[x->target.buffer];
      size_t plen = strlen(o->out_dir) + strlen(b->name) + 8;
      char *p = malloc(plen);
      snprintf(p, plen, "%s/%s.bin", o->out_dir, b->name);
      if (session_write_file(p, emu_host_ptr(e, bufaddr[x->target.buffer], b->size), b->size)) { fprintf(stderr, "ptxemu: cannot write '%s': %s\n", p, strerror(errno)); status = 73; }
      free(p);
    }
  }
  if (o->compare && status == 0) {
    for (int i = 0; i < lf.nexpects; i++) {
      const lf_expect *x = &lf.expects[i];
      uint64_t n;
      uint8_t *p = target_ptr(e, &lf, &x->target, bufaddr, &n);
      if (!check_expect(x, p, n, o)) mismatches++;
    }
    if (lf.stdout_path) {
      bool ok = !pcmp.differs && pcmp.n == lf.stdout_size;
      char line[192];
      if (ok) snprintf(line, sizeof line, "stdout: ok (%zu bytes)", pcmp.n);
      else {
        size_t k = pcmp.differs ? pcmp.diff : pcmp.n < lf.stdout_size ? pcmp.n : lf.stdout_size;
        snprintf(line, sizeof line, "stdout: MISMATCH at byte %zu (expected %zu bytes, got %zu)", k, lf.stdout_size, pcmp.n);
        mismatches++;
      }
      grade_item *it = o->grade ? grade_add(o->grade, "stdout", 0) : NULL;
      if (it) {
        it->compared = true;
        it->pass = ok;
        it->bytes = pcmp.n;
        it->message = strdup(line);
      } else if (!o->grade && (!ok || !o->quiet)) puts(line);
    }
  } else if (o->compare && o->grade) {
    /* the run stopped: every expect is a failure the grader can list */
    for (int i = 0; i < lf.nexpects; i++) {
      grade_item *it = grade_add(o->grade, lf.expects[i].name, lf.expects[i].line);
      if (it && asprintf(&it->message, "%s: not compared: the run stopped with exit status %d", lf.expects[i].name, status) < 0)
        it->message = NULL;
    }
    if (lf.stdout_path) {
      grade_item *it = grade_add(o->grade, "stdout", 0);
      if (it && asprintf(&it->message, "stdout: not compared: the run stopped with exit status %d", status) < 0) it->message = NULL;
    }
  }
  free(bufaddr);
  free(so.handle);
  free(so.map);
  emu_textures_free(e);
  emu_free(e);
  isa_module_free(m);
  lf_free(&lf);
  if (status) return status;
  return mismatches ? 1 : 0;
}
