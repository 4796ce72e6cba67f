/* gpu/config.c - parse GPU configuration files (see config.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/config.h"
#include "util/num.h"

extern const char *const gpu_builtin_configs[][2];   /* builtin_configs.c: {name, text} */
extern const int gpu_builtin_nconfigs;

enum kind { K_U32, K_U64, K_STR, K_LIST, K_DBL };
/* def: the value of a parameter a file leaves out (NULL: it is required) */
typedef struct param { const char *name; enum kind kind; size_t off, size; uint64_t lo, hi; const char *def; } param;

#define U32(f, lo, hi) { #f, K_U32, offsetof(gpu_config, f), 0, lo, hi, NULL }
#define DBL(f, lo, hi) { #f, K_DBL, offsetof(gpu_config, f), 0, lo, hi, NULL }
#define STR(f) { #f, K_STR, offsetof(gpu_config, f), sizeof ((gpu_config *)0)->f, 0, 0, NULL }
#define OPT_U32(f, lo, hi, d) { #f, K_U32, offsetof(gpu_config, f), 0, lo, hi, d }
#define OPT_DBL(f, lo, hi, d) { #f, K_DBL, offsetof(gpu_config, f), 0, lo, hi, d }
#define OPT_STR(f, d) { #f, K_STR, offsetof(gpu_config, f), sizeof ((gpu_config *)0)->f, 0, 0, d }
static const param params[] = {
  STR(name), STR(description), STR(arch), STR(dram),
  U32(sms, 1, 1024), U32(sub_partitions, 1, 8), U32(clock_mhz, 1, 10000),
  U32(max_threads_per_sm, 32, 65536), U32(max_warps_per_sm, 1, 2048), U32(max_ctas_per_sm, 1, 1024),
  U32(max_threads_per_cta, 32, 65536), U32(regs_per_sm, 1024, 1u << 24), U32(max_regs_per_thread, 16, 1024),
  U32(reg_alloc_unit, 1, 4096), U32(shared_per_sm, 0, 1u << 30), U32(shared_per_cta, 0, 1u << 30),
  U32(shared_reserved_per_cta, 0, 1u << 20), U32(shared_alloc_unit, 1, 65536),
  { "shared_carveouts_kb", K_LIST, offsetof(gpu_config, carveouts_kb), 0, 0, 1u << 20, NULL },
  U32(shared_banks, 1, 128), U32(shared_bank_bytes, 1, 16),
  U32(l1_bytes, 0, 1u << 30), U32(l1_line_bytes, 1, 4096), U32(l1_sector_bytes, 1, 4096),
  { "l2_bytes", K_U64, offsetof(gpu_config, l2_bytes), 0, 0, 1ull << 40, NULL },
  U32(l2_slices, 1, 4096), U32(dram_bandwidth_gbs, 1, 1000000),
  U32(lat_int, 1, 10000), U32(lat_fp32, 1, 10000), U32(lat_fp16, 1, 10000), U32(lat_fp64, 1, 10000),
  U32(lat_sfu, 1, 10000), U32(lat_cvt, 1, 10000), U32(lat_branch, 1, 10000), U32(lat_tensor, 1, 10000),
  U32(lat_shared, 1, 10000), U32(lat_l1, 1, 10000), U32(lat_l2, 1, 100000), U32(lat_dram, 1, 100000),
  U32(lat_atomic, 1, 100000),
  U32(ii_int, 1, 1000), U32(ii_fp32, 1, 1000), U32(ii_fp16, 1, 1000), U32(ii_fp64, 1, 1000), U32(ii_sfu, 1, 1000),
  U32(ii_lsu, 1, 1000), U32(ii_tensor, 1, 1000),
  U32(l1_assoc, 1, 1024), U32(l2_assoc, 1, 1024),
  U32(l1_caches_global, 0, 1), U32(l1_store_allocate, 0, 1), U32(l1_fill_bytes, 32, 4096), U32(l1_mshrs, 1, 65536),
  U32(l1_sectors_per_cycle, 1, 64), U32(readonly_cache_bytes, 0, 1u << 24), U32(const_cache_bytes, 64, 1u << 24),
  U32(l2_partitions, 1, 64), U32(l2_interleave_bytes, 32, 1u << 20), U32(l2_slice_bytes_per_cycle, 1, 4096), U32(partition_hash, 0, 1), U32(l2_dirty_ways, 1, 1024),
  DBL(l2_atomic_cycles, 0, 1000), U32(l2_launch_sectors, 0, 1u << 24),
  U32(dram_channels, 1, 4096), U32(dram_banks, 1, 1024), U32(dram_row_bytes, 32, 1u << 20),
  U32(dram_interleave_bytes, 32, 1u << 20), U32(dram_row_miss_cycles, 0, 100000), U32(dram_activate_cycles, 0, 100000),
  U32(dram_launch_bytes, 0, 1u << 24),
  U32(barrier_cycles, 0, 100000), U32(launch_cycles, 0, 10000000), U32(cta_launch_cycles, 0, 100000), OPT_U32(cta_retire_cycles, 0, 100000, "0"),
  /* the SM block: optional, so older configuration files keep working */
  OPT_STR(scheduler, "gto"), OPT_U32(sched_active_warps, 1, 64, "4"), OPT_U32(reg_banks, 1, 32, "2"),
  OPT_U32(reg_bank_ports, 1, 8, "1"),
  OPT_U32(fetch_cycles, 0, 1000, "0"), OPT_U32(branch_cycles, 0, 1000, "0"), OPT_U32(reconverge_cycles, 0, 1000, "0"),
  OPT_U32(membar_cycles, 0, 100000, "0"), OPT_U32(gpcs, 1, 1024, "1"), OPT_U32(imc_miss_cycles, 0, 100000, "0"), OPT_DBL(imc_miss_sm_cycles, 0, 1000, "0"), OPT_DBL(ldc_cycles, 0, 1000, "0"), OPT_U32(ldc_mio_hold, 0, 10000, "0"),
  OPT_U32(cluster_arrive_cycles, 0, 100000, "0"), OPT_U32(cluster_barrier_cycles, 0, 100000, "0"), OPT_DBL(bar_arrive_cycles, 0, 1000, "0"), OPT_U32(split_cycles, 0, 1000, "0"), OPT_U32(reconverge_refill_cycles, 0, 1000, "0"), OPT_U32(lat_dsmem, 0, 100000, "0"), OPT_U32(lat_dsmem_own, 0, 100000, "0"), OPT_DBL(tma_bytes_per_cycle, 0, 4096, "0"), OPT_U32(lat_tma, 0, 100000, "0"),
  OPT_U32(mio_queue, 0, 4096, "0"), OPT_U32(mio_warp_interval, 0, 1000, "0"), OPT_U32(lat_s2r, 0, 10000, "0"), OPT_U32(lat_pred, 0, 10000, "0"), OPT_U32(lat_cross_pipe, 0, 1000, "0"), OPT_U32(static_stalls, 0, 1, "0"), OPT_U32(branch_stall, 0, 1000, "0"), OPT_DBL(s2r_cycles, 0, 1000, "0"), OPT_U32(ldc_s2r_mio, 0, 1, "0"), OPT_U32(fold_imm_banks, 0, 1, "0"), OPT_U32(imm_in_register, 0, 1, "0"), OPT_U32(joins_at_bsync, 0, 1, "0"), OPT_U32(hoist_predicates, 0, 1000, "1000"), OPT_U32(three_input_alu, 0, 1, "0"), OPT_U32(static_pipe_ii, 0, 1, "0"), OPT_U32(imc_desc, 0, 1, "0"), OPT_U32(iter_read_wait, 0, 1, "0"), OPT_U32(ldc_at_use, 0, 1, "0"), OPT_U32(ldc_stack, 0, 1, "0"), OPT_U32(hoist_invariants, 0, 1, "0"), OPT_U32(lg_queue, 0, 4096, "0"), OPT_U32(sfu_denorm_cycles, 0, 1000, "0"), OPT_U32(call_cycles, 0, 100000, "0"), OPT_U32(ret_cycles, 0, 100000, "0"), OPT_U32(call_sass, 0, 1000, "0"), OPT_U32(ret_sass, 0, 1000, "0"), OPT_U32(ii_tensor_f64, 0, 1000, "0"), OPT_U32(lat_tensor_work, 0, 10000, "0"),
  OPT_U32(ifconvert_max_insns, 0, 1000, "0"), OPT_U32(ifconvert_else_max_insns, 0, 1000, "0"), OPT_U32(ifconvert_schedule, 0, 1, "0"), OPT_U32(unroll_factor, 1, 64, "1"), OPT_U32(unroll_max_insns, 0, 100000, "0"), OPT_DBL(unroll_load_cost, 0, 1, "1"), OPT_U32(hoist_regs, 0, 255, "0"), OPT_U32(fuse_bytes, 0, 16, "0"), OPT_U32(ptxas_regs, 0, 255, "0"), OPT_U32(ptxas_ahead_regs, 0, 255, "0"), OPT_U32(combine_ops, 0, 1, "0"), OPT_U32(ptxas_sink, 0, 1, "0"), OPT_U32(printf_cycles, 0, 10000000, "0"),
  OPT_STR(issue_order, "scheduled"), OPT_U32(l2_write_bytes_per_cycle, 1, 4096, "128"), OPT_DBL(l2_write_line_cycles, 0, 1000, "0"),
  OPT_U32(insn_bytes, 4, 32, "16"), OPT_U32(icache_l0_bytes, 0, 1u << 24, "0"), OPT_U32(icache_l1_bytes, 128, 1u << 24, "131072"),
  OPT_U32(icache_l1_cycles, 0, 100000, "0"), OPT_U32(icache_l2_cycles, 0, 100000, "0"), OPT_U32(icache_dram_cycles, 0, 100000, "0"),
  OPT_U32(icache_launch_bytes, 0, 1u << 24, "0"),
  OPT_U32(icache_launch_cycles, 0, 100000, "0"), OPT_DBL(icache_launch_sm_cycles, 0, 1000, "0"), OPT_U32(icache_ahead, 0, 64, "0"),
  /* optional memory parameters (their defaults keep older files' behaviour) */
  OPT_U32(l2_write_granule_bytes, 0, 32, "0"), OPT_DBL(l1_lines_per_cycle, 0, 64, "0"), OPT_DBL(l1_hit_lines_per_cycle, 0, 64, "0"), OPT_U32(l1_data_banks, 0, 1, "0"), OPT_DBL(l1_request_cycles, 0, 64, "0"), OPT_U32(lsu_port, 0, 1, "0"), OPT_U32(l1_shared_pipe, 0, 1, "0"), OPT_U32(store_drain, 0, 2, "0"), OPT_DBL(l1_accept_cycles, 0, 64, "0"), OPT_U32(l1_store_buffer_bytes, 0, 1u << 20, "0"), OPT_U32(l1_store_combine, 0, 512, "0"),
  OPT_U32(l1_store_queue_join, 0, 512, "0"),
  OPT_U32(ii_imul, 0, 1000, "0"),
  OPT_U32(l2_partial_fill, 0, 1, "0"), OPT_U32(l2_partial_ways, 0, 1024, "0"), OPT_DBL(l2_partial_write_cycles, 0, 1000, "0"), OPT_DBL(l2_copy_write_cycles, 0, 1000, "0"), OPT_DBL(l1_miss_line_cycles, 0, 1000, "0"), OPT_DBL(l2_miss_sector_cycles, 0, 1000, "0"), OPT_U32(l1_mshr_lines, 0, 1, "0"),
  OPT_U32(l2_fill_bytes, 32, 128, "32"), OPT_U32(l2_far_atomic_fill_bytes, 0, 128, "0"),
  OPT_DBL(l1_atomic_cycles, 0, 1000, "0"), OPT_U32(atomics_in_flight, 0, 65536, "0"), OPT_U32(atomics_unacked, 0, 65536, "0"), OPT_DBL(l2_atomic_f16_cycles, 0, 1000, "0"),
  /* what the GPU's profiler defines (ptxemu-trace(5)); bank addressing mode */
  OPT_STR(metric_set, "ncu"), OPT_U32(shared_bank_mode, 0, 16, "0"), OPT_DBL(shared_replay_cycles, 0, 64, "0"),
  /* copies between host and device (0: not modelled) */
  OPT_DBL(host_link_gbs, 0, 100000, "0"), OPT_DBL(host_pageable_gbs, 0, 100000, "0"), OPT_DBL(copy_latency_us, 0, 100000, "0"),
};

const char *const gpu_metric_set_names[GPU_METRICS_COUNT] = { "ncu", "nvprof" };

int gpu_config_set_bank_mode(gpu_config *c, uint32_t bytes) {
  if (!bytes) bytes = c->shared_bank_mode_default;
  if (bytes != 4 && bytes != 8) return -1;
  if (bytes > c->shared_bank_bytes) return -1;
  c->shared_bank_mode = bytes;
  return 0;
}

const char *const gpu_sched_names[GPU_SCHED_COUNT] = { "gto", "lrr", "two_level" };

int gpu_sched_from_name(const char *name) {
  for (int i = 0; i < GPU_SCHED_COUNT; i++) if (strcmp(gpu_sched_names[i], name) == 0) return i;
  return -1;
}

int gpu_config_set_scheduler(gpu_config *c, const char *name) {
  int p = gpu_sched_from_name(name);
  if (p < 0) return -1;
  c->sched_policy = (uint32_t)p;
  snprintf(c->scheduler, sizeof c->scheduler, "%s", gpu_sched_names[p]);
  return 0;
}
int gpu_issue_order_from_name(const char *name) {
  return strcmp(name, "scheduled") == 0 ? 1 : strcmp(name, "ptx") == 0 ? 0 : -1;
}

int gpu_config_set_issue_order(gpu_config *c, const char *name) {
  int r = gpu_issue_order_from_name(name);
  if (r < 0) return -1;
  if (name != c->issue_order) snprintf(c->issue_order, sizeof c->issue_order, "%s", name);
  c->reorder = (uint32_t)r;
  return 0;
}
#define NPARAMS (sizeof params / sizeof params[0])

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
  return s;
}

static size_t param_index(const char *name) {
  size_t k = 0;
  while (k < NPARAMS && strcmp(params[k].name, name) != 0) k++;
  return k;
}

/* Where a message points: a line of the file (mark > 0), a --set
 * (mark < 0: sets[-mark - 1]), or the file as a whole (0). */
static void where(FILE *err, const char *path, int mark, const char *const *sets) {
  if (mark > 0) fprintf(err, "%s:%d: error: ", path, mark);
  else if (mark < 0) fprintf(err, "ptxemu: --set %s: error: ", sets[-mark - 1]);
  else fprintf(err, "%s: error: ", path);
}

/* One "name = value" (comment and blanks gone, s modified): set it in c.
 * seen[k] keeps the mark of what set parameter k; a --set may replace a
 * file's value but not another --set's.  0, or 1 with a message. */
static int parse_line(char *s, const char *path, int mark, const char *const *sets, gpu_config *c, int *seen, FILE *err) {
  char *eq = strchr(s, '=');
  if (!eq) { where(err, path, mark, sets); fprintf(err, "expected 'name = value'\n"); return 1; }
  *eq = 0;
  char *key = trim(s), *val = trim(eq + 1);
  size_t k = param_index(key);
  if (k == NPARAMS) { where(err, path, mark, sets); fprintf(err, "unknown parameter '%s'\n", key); return 1; }
  if (seen[k] && (mark > 0 || seen[k] < 0)) { where(err, path, mark, sets); fprintf(err, "'%s' set twice\n", key); return 1; }
  seen[k] = mark;
  const param *pr = &params[k];
  char *base = (char *)c + pr->off;
  if (pr->kind == K_STR) {
    if (!*val || strlen(val) >= pr->size) { where(err, path, mark, sets); fprintf(err, "'%s' must be 1 to %zu characters\n", key, pr->size - 1); return 1; }
    strcpy(base, val);
  } else if (pr->kind == K_LIST) {
    uint32_t cnt = 0;
    for (char *save = NULL, *tok = strtok_r(val, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      char *t = trim(tok);
      uint64_t v;
      if (num_u64(t, 0, pr->hi, &v) || cnt == GPU_MAX_CARVEOUTS) { where(err, path, mark, sets); fprintf(err, "bad list value '%s' for '%s'\n", t, key); return 1; }
      c->carveouts_kb[cnt++] = (uint32_t)v;
    }
    c->ncarveouts = cnt;
  } else if (pr->kind == K_DBL) {
    double v;
    if (num_f64(val, (double)pr->lo, (double)pr->hi, &v)) {
      where(err, path, mark, sets);
      fprintf(err, "'%s' must be a number from %llu to %llu, got '%s'\n", key, (unsigned long long)pr->lo, (unsigned long long)pr->hi, val);
      return 1;
    }
    *(double *)base = v;
  } else {
    /* decimal, or hex with 0x (a leading zero is not octal here) */
    uint64_t v;
    if (num_u64(val, pr->lo, pr->hi, &v)) {
      where(err, path, mark, sets);
      fprintf(err, "'%s' must be a whole number from %llu to %llu, got '%s'\n", key, (unsigned long long)pr->lo, (unsigned long long)pr->hi, val);
      return 1;
    }
    if (pr->kind == K_U64) *(uint64_t *)base = v;
    else *(uint32_t *)base = (uint32_t)v;
  }
  return 0;
}

/* The file's lines, then the overrides, then defaults and the checks that
 * relate parameters (which see the overridden values). */
static int parse_with(const char *text, const char *path, const char *const *sets, int nsets, gpu_config *c, FILE *err) {
  memset(c, 0, sizeof *c);
  int seen[NPARAMS] = {0};           /* the mark (line, or -1 - index of the --set) that set each parameter */
  int errors = 0, line = 0;
  char buf[512];
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    line++;
    if (n >= sizeof buf) { fprintf(err, "%s:%d: error: line too long\n", path, line); errors++; }
    else {
      memcpy(buf, p, n);
      buf[n] = 0;
      char *hash = strchr(buf, '#');
      if (hash) *hash = 0;
      char *s = trim(buf);
      if (*s) errors += parse_line(s, path, line, sets, c, seen, err);
    }
    p += n + (nl ? 1 : 0);
  }
  for (int i = 0; i < nsets; i++) {
    size_t n = strlen(sets[i]);
    if (n >= sizeof buf || strchr(sets[i], '\n')) { where(err, path, -1 - i, sets); fprintf(err, "too long, or more than one line\n"); errors++; continue; }
    memcpy(buf, sets[i], n + 1);
    errors += parse_line(trim(buf), path, -1 - i, sets, c, seen, err);
  }
  /* a missing parameter has no line; the checks below point at the line of the value they reject */
  for (size_t k = 0; k < NPARAMS; k++) {
    if (seen[k]) continue;
    const param *pr = &params[k];
    if (!pr->def) { fprintf(err, "%s: error: missing parameter '%s'\n", path, pr->name); errors++; }
    else if (pr->kind == K_STR) strcpy((char *)c + pr->off, pr->def);
    else if (pr->kind == K_DBL) *(double *)((char *)c + pr->off) = strtod(pr->def, NULL);
    else *(uint32_t *)((char *)c + pr->off) = (uint32_t)strtoul(pr->def, NULL, 10);
  }
  /* (a configuration without it: a split costs what a path switch does) */
  if (!seen[param_index("split_cycles")]) c->split_cycles = c->reconverge_cycles;
#define AT(name) where(err, path, seen[param_index(name)], sets)
  int sp = gpu_sched_from_name(c->scheduler);
  if (!errors && sp < 0) { AT("scheduler"); fprintf(err, "scheduler must be gto, lrr or two_level, got '%s'\n", c->scheduler); errors++; }
  c->sched_policy = sp < 0 ? 0 : (uint32_t)sp;
  if (!errors && gpu_config_set_issue_order(c, c->issue_order)) {
    AT("issue_order");
    fprintf(err, "issue_order must be scheduled or ptx, got '%s'\n", c->issue_order);
    errors++;
  }
  c->metrics = GPU_METRICS_COUNT;
  for (int i = 0; i < GPU_METRICS_COUNT; i++) if (strcmp(c->metric_set, gpu_metric_set_names[i]) == 0) c->metrics = (uint32_t)i;
  if (!errors && c->metrics == GPU_METRICS_COUNT) {
    AT("metric_set"); fprintf(err, "metric_set must be ncu or nvprof, got '%s'\n", c->metric_set);
    errors++;
  }
  if (!c->shared_bank_mode) c->shared_bank_mode = c->shared_bank_bytes;
  if (!errors && (c->shared_bank_mode > c->shared_bank_bytes || c->shared_bank_bytes % c->shared_bank_mode ||
                  (c->shared_bank_mode & (c->shared_bank_mode - 1)))) {
    AT("shared_bank_mode"); fprintf(err, "shared_bank_mode must be a power of two dividing shared_bank_bytes\n");
    errors++;
  }
  c->shared_bank_mode_default = c->shared_bank_mode;
  if (!errors && c->gpcs > c->sms) { AT("gpcs"); fprintf(err, "more gpcs than sms\n"); errors++; }
  char tail = 0;
  if (!errors && (sscanf(c->arch, "sm_%u%c", &c->sm_version, &tail) < 1 || (tail && tail != 'a' && tail != 'f'))) { AT("arch"); fprintf(err, "arch must look like sm_90\n"); errors++; }
  if (!errors && (c->l1_line_bytes % c->l1_sector_bytes || c->l1_line_bytes / c->l1_sector_bytes > 32 || c->l1_sector_bytes != 32)) {
    AT("l1_sector_bytes");
    fprintf(err, "caches need 32-byte sectors and at most 32 sectors per line\n");
    errors++;
  }
  if (!errors && (c->l1_fill_bytes % 32 || c->l1_fill_bytes > c->l1_line_bytes)) {
    AT("l1_fill_bytes");
    fprintf(err, "l1_fill_bytes must be whole sectors of one line\n");
    errors++;
  }
  if (!errors && ((c->l2_fill_bytes & (c->l2_fill_bytes - 1)) || c->l2_fill_bytes > c->l1_line_bytes)) {
    AT("l2_fill_bytes");
    fprintf(err, "l2_fill_bytes must be a power of two of at most a line\n");
    errors++;
  }
  if (!errors && ((c->l2_far_atomic_fill_bytes & (c->l2_far_atomic_fill_bytes - 1)) || c->l2_far_atomic_fill_bytes > c->l1_line_bytes)) {
    AT("l2_far_atomic_fill_bytes");
    fprintf(err, "l2_far_atomic_fill_bytes must be 0 or a power of two of at most a line\n");
    errors++;
  }
  if (!errors && c->l2_slices % c->l2_partitions) {
    AT("l2_partitions");
    fprintf(err, "l2_slices must divide evenly over l2_partitions\n");
    errors++;
  }
  if (!errors && ((c->l2_interleave_bytes & (c->l2_interleave_bytes - 1)) || c->l2_interleave_bytes % c->l1_line_bytes)) {
    AT("l2_interleave_bytes");
    fprintf(err, "l2_interleave_bytes must be a power of two and a multiple of l1_line_bytes\n");
    errors++;
  }
  if (!errors && (c->l2_write_granule_bytes & (c->l2_write_granule_bytes - 1))) {
    AT("l2_write_granule_bytes");
    fprintf(err, "l2_write_granule_bytes must be 0 or a power of two up to 32\n");
    errors++;
  }
  if (!errors && c->max_warps_per_sm * 32 < c->max_threads_per_sm) { AT("max_threads_per_sm"); fprintf(err, "max_threads_per_sm exceeds max_warps_per_sm * 32\n"); errors++; }
#undef AT
  return errors ? -1 : 0;
}

int gpu_config_parse(const char *text, const char *path, gpu_config *c, FILE *err) {
  return parse_with(text, path, NULL, 0, c, err);
}

int gpu_param_known(const char *name) { return param_index(name) < NPARAMS; }

int gpu_config_get(const gpu_config *c, const char *name, char *buf, size_t n) {
  size_t k = param_index(name);
  if (k == NPARAMS) return -1;
  const param *pr = &params[k];
  const char *base = (const char *)c + pr->off;
  if (pr->kind == K_STR) snprintf(buf, n, "%s", base);
  else if (pr->kind == K_U64) snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)base);
  else if (pr->kind == K_U32) snprintf(buf, n, "%u", *(const uint32_t *)base);
  else if (pr->kind == K_DBL) snprintf(buf, n, "%g", *(const double *)base);
  else {
    size_t k2 = 0;
    if (n) buf[0] = 0;
    for (uint32_t i = 0; i < c->ncarveouts && k2 < n; i++)
      k2 += (size_t)snprintf(buf + k2, n - k2, "%s%u", i ? "," : "", c->carveouts_kb[i]);
  }
  return 0;
}

int gpu_builtin_count(void) { return gpu_builtin_nconfigs; }
const char *gpu_builtin_name(int i) { return gpu_builtin_configs[i][0]; }
const char *gpu_builtin_text(int i) { return gpu_builtin_configs[i][1]; }

int gpu_config_load(const char *name, gpu_config *c, FILE *err) { return gpu_config_load_set(name, NULL, 0, c, err); }

int gpu_config_load_set(const char *name, const char *const *sets, int nsets, gpu_config *c, FILE *err) {
  for (int i = 0; i < gpu_builtin_nconfigs; i++)
    if (strcmp(gpu_builtin_configs[i][0], name) == 0) {
      char path[64];
      snprintf(path, sizeof path, "<builtin>/%s.gpu", name);
      return parse_with(gpu_builtin_configs[i][1], path, sets, nsets, c, err);
    }
  FILE *f = fopen(name, "rb");
  if (!f) {
    fprintf(err, "ptxemu: no GPU configuration '%s' (bundled:", name);
    for (int i = 0; i < gpu_builtin_nconfigs; i++) fprintf(err, " %s", gpu_builtin_configs[i][0]);
    fprintf(err, "; or give a file path)\n");
    return -1;
  }
  char *text = malloc(1 << 20);
  size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
  bool unread = ferror(f) || (n == (1 << 20) - 1 && fgetc(f) != EOF);   /* a directory; over 1 MiB */
  fclose(f);
  if (!text) return -1;
  text[n] = 0;
  if (unread) { fprintf(err, "%s: error: cannot read the GPU configuration (a regular file of at most 1 MiB)\n", name); free(text); return -1; }
  if (strlen(text) != n) {            /* the parser would stop at the NUL: say so */
    int line = 1;
    for (const char *q = text; *q; q++) line += *q == '\n';
    fprintf(err, "%s:%d: error: NUL byte\n", name, line);
    free(text);
    return -1;
  }
  int rc = parse_with(text, name, sets, nsets, c, err);
  free(text);
  return rc;
}

void gpu_config_write(const gpu_config *c, FILE *out) {
  for (size_t k = 0; k < NPARAMS; k++) {
    const param *pr = &params[k];
    const char *base = (const char *)c + pr->off;
    fprintf(out, "%s = ", pr->name);
    if (pr->kind == K_STR) fputs(base, out);
    else if (pr->kind == K_U64) fprintf(out, "%llu", (unsigned long long)*(const uint64_t *)base);
    else if (pr->kind == K_U32) fprintf(out, "%u", *(const uint32_t *)base);
    else if (pr->kind == K_DBL) fprintf(out, "%g", *(const double *)base);
    else for (uint32_t i = 0; i < c->ncarveouts; i++) fprintf(out, "%s%u", i ? "," : "", c->carveouts_kb[i]);
    fputc('\n', out);
  }
}

static uint32_t round_up(uint32_t x, uint32_t u) { return u ? (x + u - 1) / u * u : x; }

void gpu_occupancy_calc(const gpu_config *c, uint32_t threads, uint32_t regs, uint32_t smem, gpu_occupancy *o) {
  memset(o, 0, sizeof *o);
  if (threads == 0 || threads > c->max_threads_per_cta) { o->error = "more threads per block than the GPU allows"; return; }
  if (regs > c->max_regs_per_thread) { o->error = "more registers per thread than the GPU allows"; return; }
  if (smem > c->shared_per_cta) { o->error = "more shared memory per block than the GPU allows"; return; }
  o->warps_per_cta = (threads + 31) / 32;
  o->regs_per_warp = round_up((regs ? regs : 1) * 32, c->reg_alloc_unit);
  o->smem_per_cta = smem ? round_up(smem + c->shared_reserved_per_cta, c->shared_alloc_unit) : c->shared_reserved_per_cta;
  o->ctas_by_warps = c->max_warps_per_sm / o->warps_per_cta;
  /* registers are split evenly over the sub-partitions, so whole warps must fit in one */
  uint32_t part = c->regs_per_sm / c->sub_partitions;
  uint32_t warps_by_regs = (part / o->regs_per_warp) * c->sub_partitions;
  o->ctas_by_regs = warps_by_regs / o->warps_per_cta;
  o->ctas_by_smem = o->smem_per_cta ? c->shared_per_sm / o->smem_per_cta : UINT32_MAX;   /* no shared memory: no limit */
  o->ctas_by_limit = c->max_ctas_per_sm;
  uint32_t a = o->ctas_by_warps;
  o->limiter = "warps";
  if (o->ctas_by_regs < a) { a = o->ctas_by_regs; o->limiter = "registers"; }
  if (o->ctas_by_smem < a) { a = o->ctas_by_smem; o->limiter = "shared memory"; }
  if (o->ctas_by_limit < a) { a = o->ctas_by_limit; o->limiter = "blocks per SM"; }
  o->active_ctas = a;
  o->active_warps = a * o->warps_per_cta;
  o->occupancy = (double)o->active_warps / c->max_warps_per_sm;
  if (!a) o->error = o->limiter;
}
