/* cli/sweep_spec.c - the SPEC of a sweep (ptxemu-sweep(1)): directives one
 * a line, expanded into points (workloads x GPUs x the grid or the listed
 * points x repetitions); each point's GPU configuration is checked here,
 * so a mistake shows before anything runs.  Input is untrusted: sizes are
 * bounded and every value is checked for what it becomes later (a column
 * name, an argument, a word of a job script). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/sweep.h"
#include "gpu/config.h"
#include "util/num.h"

typedef struct ctx { sweep_spec *s; const char *path; int line, errors; FILE *err; } ctx;

static int fail(ctx *c, const char *fmt, const char *a, const char *b) {
  fprintf(c->err, "%s:%d: error: ", c->path, c->line);
  fprintf(c->err, fmt, a, b);
  fputc('\n', c->err);
  c->errors++;
  return -1;
}

/* room for element n: 4 at first, doubled at each power of two (in the arena) */
static void *grow(arena *a, void *p, int n, size_t elem) {
  if (n == 0) return arena_alloc(a, elem * 4);
  if (n < 4 || (n & (n - 1))) return p;
  return arena_grow(a, p, elem * (size_t)n, elem * (size_t)n * 2);
}
#define PUSH(a, arr, n, v) do { (arr) = grow((a), (arr), (n), sizeof *(arr)); (arr)[(n)++] = (v); } while (0)

/* Split a line into words at blanks; "..." and '...' quote (no escapes). */
static int words(ctx *c, char *s, char **w) {
  int n = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '#') break;
    if (n == SWEEP_MAX_WORDS) return fail(c, "more than %s words on a line%s", "256", "");
    char *out = s, *start = s;
    while (*s && *s != ' ' && *s != '\t') {
      if (*s == '"' || *s == '\'') {
        char q = *s++;
        while (*s && *s != q) *out++ = *s++;
        if (!*s) return fail(c, "unterminated %s quote%s", q == '"' ? "double" : "single", "");
        s++;
      } else *out++ = *s++;
    }
    bool end = !*s;
    *out = 0;
    w[n++] = start;
    if (!end) s++;
    if (end) break;
  }
  return n;
}

/* Values become arguments, SQL text and job-script words: printable, no ';'. */
static int check_value(ctx *c, const char *what, const char *v) {
  size_t n = strlen(v);
  if (!n || n > SWEEP_MAX_VALUE) return fail(c, "%s must be 1 to 200 characters%s", what, "");
  for (const char *p = v; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == ';') return fail(c, "%s '%s' holds a control character or ';'", what, v);
  return 0;
}

/* A value as the configuration reads it: a size with a K, M, G or T suffix
 * (which configuration files do not take) becomes its number of bytes. */
static const char *norm(sweep_spec *s, const char *v) {
  uint64_t x;
  size_t n = strlen(v);
  if (n > 1 && strchr("KMGT", v[n - 1]) && num_size(v, 0, 1ull << 50, &x) == 0) {
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)x);
    return arena_strndup(s->a, b, strlen(b));
  }
  return arena_strndup(s->a, v, n);
}

static int check_name(ctx *c, const char *v) {
  size_t n = strlen(v);
  if (!n || n > 64) return fail(c, "a workload name must be 1 to 64 characters, got '%s'%s", v, "");
  for (const char *p = v; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
      return fail(c, "a workload name is letters, digits, '_', '-' and '.', got '%s'%s", v, "");
  return 0;
}

static const char *path_from_base(ctx *c, const char *p) {
  if (p[0] == '/') return arena_strndup(c->s->a, p, strlen(p));
  size_t n = strlen(c->s->base) + strlen(p) + 2;
  char *r = arena_alloc(c->s->a, n);
  snprintf(r, n, "%s/%s", c->s->base, p);
  return r;
}

static int col_index(const sweep_spec *s, const char *name) {
  for (int i = 0; i < s->ncols; i++) if (strcmp(s->cols[i], name) == 0) return i;
  return -1;
}

/* A configuration's message about one override, without its "ptxemu:
 * --set X: " prefix, after our file:line. */
static int config_check(ctx *c, const char *gpu, const char *const *sets, int n, const char *what) {
  char *msg = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&msg, &len);
  if (!m) return fail(c, "out of memory%s%s", "", "");
  gpu_config g;
  int rc = gpu_config_load_set(gpu, sets, n, &g, m);
  fclose(m);
  if (rc) {
    char *e = strstr(msg, "error: ");
    char *nl = strchr(e ? e : msg, '\n');
    if (nl) *nl = 0;
    fail(c, "%s: %s", what, e ? e + 7 : strncmp(msg, "ptxemu: ", 8) == 0 ? msg + 8 : msg);
  }
  free(msg);
  return rc ? -1 : 0;
}

typedef struct axis { int col; const char **v; int n, line; } axis;
typedef struct pdef { const char **v; int line; } pdef;       /* values per column */

/* "LO..HI" [+STEP | *FACTOR]: whole numbers (K/M/G/T suffixes) */
static int range(ctx *c, axis *ax, const char *r, const char *step) {
  const char *dots = strstr(r, "..");
  char lo_s[64];
  uint64_t lo, hi, st = 1;
  bool mul = false;
  if (!dots || (size_t)(dots - r) >= sizeof lo_s) return fail(c, "bad range '%s': LO..HI%s", r, "");
  memcpy(lo_s, r, (size_t)(dots - r));
  lo_s[dots - r] = 0;
  if (num_size(lo_s, 0, 1ull << 50, &lo) || num_size(dots + 2, 0, 1ull << 50, &hi) || lo > hi)
    return fail(c, "bad range '%s': LO..HI, whole numbers (K, M, G, T allowed) from 0 to 2^50, LO <= HI%s", r, "");
  if (step) {
    mul = step[0] == '*';
    if ((step[0] != '+' && step[0] != '*') || num_size(step + 1, mul ? 2 : 1, 1ull << 50, &st))
      return fail(c, "bad step '%s': +N (N >= 1) or *N (N >= 2)%s", step, "");
  }
  for (uint64_t v = lo; v <= hi; v = mul ? v * st : v + st) {
    if (ax->n == 4096) return fail(c, "range '%s' has more than 4096 values%s", r, "");
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    PUSH(c->s->a, ax->v, ax->n, arena_strndup(c->s->a, b, strlen(b)));
    if ((mul && (v == 0 || v > hi / st)) || (!mul && v > hi - st)) break;
  }
  return 0;
}

/* NAME=VALUE words into a per-column vector (new columns allowed when add). */
static int assignments(ctx *c, char **w, int n, const char ***vals, const char **gpu, bool add) {
  sweep_spec *s = c->s;
  for (int i = 0; i < n; i++) {
    char *eq = strchr(w[i], '=');
    if (!eq || eq == w[i]) return fail(c, "expected NAME=VALUE, got '%s'%s", w[i], "");
    *eq = 0;
    const char *name = w[i], *val = eq + 1;
    if (check_value(c, "a value", val)) return -1;
    if (gpu && strcmp(name, "gpu") == 0) { *gpu = arena_strndup(s->a, val, strlen(val)); continue; }
    if (!gpu_param_known(name)) return fail(c, "unknown parameter '%s'%s", name, "");
    int k = col_index(s, name);
    if (k < 0 && !add) return fail(c, "'%s' is not a swept parameter%s", name, "");
    if (k < 0) {
      if (s->ncols == SWEEP_MAX_COLS) return fail(c, "more than %s swept parameters%s", "64", "");
      PUSH(s->a, s->cols, s->ncols, arena_strndup(s->a, name, strlen(name)));
      k = s->ncols - 1;                /* *vals has room for SWEEP_MAX_COLS */
    }
    if ((*vals)[k]) return fail(c, "'%s' given twice%s", name, "");
    (*vals)[k] = norm(s, val);
  }
  return 0;
}

static char *key_of(sweep_spec *s, const sweep_point *p) {
  char *k = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&k, &n);
  if (!f) return NULL;
  fprintf(f, "workload=%s gpu=%s", s->w[p->workload].name, s->gpus[p->gpu]);
  for (int i = 0; i < s->ncols; i++)
    if (s->combos[p->combo].values[i]) fprintf(f, " %s=%s", s->cols[i], s->combos[p->combo].values[i]);
  fprintf(f, " rep=%d", p->rep);
  fclose(f);
  char *r = arena_strndup(s->a, k, n);
  free(k);
  return r;
}

int sweep_point_sets(const sweep_spec *s, const sweep_point *p, const char ***out) {
  const char **v = arena_alloc(s->a, sizeof *v * (size_t)(s->nfixed + s->ncols + 1));
  int n = 0;
  for (int i = 0; i < s->nfixed; i++) v[n++] = s->fixed[i];
  for (int i = 0; i < s->ncols; i++) {
    const char *x = s->combos[p->combo].values[i];
    if (!x) continue;
    size_t l = strlen(s->cols[i]) + strlen(x) + 2;
    char *a = arena_alloc(s->a, l);
    snprintf(a, l, "%s=%s", s->cols[i], x);
    v[n++] = a;
  }
  *out = v;
  return n;
}

static int once(ctx *c, int *seen, const char *d) {
  if (*seen) { char l[16]; snprintf(l, sizeof l, "%d", *seen); return fail(c, "'%s' given twice (first on line %s)", d, l); }
  *seen = c->line;
  return 0;
}

int sweep_spec_parse(sweep_spec *s, const char *text, const char *path, const char *base, const sweep_overrides *ov, FILE *err) {
  memset(s, 0, sizeof *s);
  s->a = arena_new();
  s->path = arena_strndup(s->a, path, strlen(path));
  s->base = arena_strndup(s->a, base, strlen(base));
  s->repeat = 1;
  ctx c = { s, path, 0, 0, err };
  axis *axes = NULL;
  int naxes = 0, npdefs = 0, seen_repeat = 0, seen_sec = 0, seen_mem = 0, seen_trace = 0, seen_base = 0, seen_gpu = 0;
  pdef *pdefs = NULL;
  const char **baseline = NULL, *base_gpu = NULL;
  char line[SWEEP_MAX_LINE + 1], *w[SWEEP_MAX_WORDS];
  for (const char *p = text; *p && c.errors < 20;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    c.line++;
    p += n + (nl != NULL);
    if (n > SWEEP_MAX_LINE) { fail(&c, "line longer than %s characters%s", "4096", ""); continue; }
    memcpy(line, p - n - (nl != NULL), n);
    line[n] = 0;
    if (n && line[n - 1] == '\r') line[n - 1] = 0;
    int nw = words(&c, line, w);
    if (nw <= 0) continue;
    const char *d = w[0];
    if (strcmp(d, "launch") == 0 || strcmp(d, "exec") == 0) {
      bool ex = d[0] == 'e';
      if (nw < 3 || (!ex && nw != 3)) { fail(&c, ex ? "expected 'exec NAME PROGRAM [ARG...]'%s%s" : "expected 'launch NAME FILE'%s%s", "", ""); continue; }
      if (check_name(&c, w[1])) continue;
      bool dup = false;
      for (int i = 0; i < s->nw; i++) dup |= strcmp(s->w[i].name, w[1]) == 0;
      if (dup) { fail(&c, "workload '%s' named twice%s", w[1], ""); continue; }
      const char **av = arena_alloc(s->a, sizeof *av * (size_t)nw);
      bool okw = true;
      for (int i = 2; i < nw && okw; i++) okw = check_value(&c, "a word", w[i]) == 0;
      if (!okw) continue;
      for (int i = 2; i < nw; i++) av[i - 2] = (i == 2 && (!ex || strchr(w[i], '/'))) ? path_from_base(&c, w[i]) : arena_strndup(s->a, w[i], strlen(w[i]));
      sweep_workload wl = { arena_strndup(s->a, w[1], strlen(w[1])), ex, av, nw - 2, c.line };
      if (s->nw == 1024) { fail(&c, "more than %s workloads%s", "1024", ""); continue; }
      PUSH(s->a, s->w, s->nw, wl);
    } else if (strcmp(d, "gpu") == 0) {
      if (once(&c, &seen_gpu, d)) continue;
      if (nw < 2) { fail(&c, "expected 'gpu NAME|FILE...'%s%s", "", ""); continue; }
      for (int i = 1; i < nw; i++) {
        if (check_value(&c, "a GPU", w[i])) break;
        const char *g = strchr(w[i], '/') || strstr(w[i], ".gpu") ? path_from_base(&c, w[i]) : arena_strndup(s->a, w[i], strlen(w[i]));
        if (config_check(&c, g, NULL, 0, w[i])) break;
        PUSH(s->a, s->gpus, s->ngpus, g);
      }
    } else if (strcmp(d, "param") == 0) {
      if (nw < 3) { fail(&c, "expected 'param NAME VALUE...' or 'param NAME LO..HI [+STEP|*FACTOR]'%s%s", "", ""); continue; }
      if (!gpu_param_known(w[1])) { fail(&c, "unknown parameter '%s'%s", w[1], ""); continue; }
      if (col_index(s, w[1]) >= 0) { fail(&c, "'%s' swept twice%s", w[1], ""); continue; }
      if (npdefs) { fail(&c, "param lines (a grid) and point lines do not mix%s%s", "", ""); continue; }
      if (s->ncols == SWEEP_MAX_COLS) { fail(&c, "more than %s swept parameters%s", "64", ""); continue; }
      axis ax = { s->ncols, NULL, 0, c.line };
      /* values and ranges ("LO..HI" [+STEP|*FACTOR]) mixed */
      bool okv = true;
      for (int i = 2; i < nw && okv; i++) {
        size_t before = (size_t)ax.n;
        if (strstr(w[i], "..")) {
          const char *step = i + 1 < nw && (w[i + 1][0] == '+' || w[i + 1][0] == '*') ? w[++i] : NULL;
          okv = range(&c, &ax, w[i - (step != NULL)], step) == 0;
        } else if ((okv = check_value(&c, "a value", w[i]) == 0)) PUSH(s->a, ax.v, ax.n, norm(s, w[i]));
        for (int j = (int)before; j < ax.n && okv; j++)
          for (int k = 0; k < j && okv; k++)
            if (strcmp(ax.v[j], ax.v[k]) == 0) okv = fail(&c, "value '%s' listed twice%s", ax.v[j], "") == 0;
      }
      if (!okv) continue;
      /* each value on its own, on the first GPU named so far (or h100) */
      for (int i = 0; i < ax.n && okv; i++) {
        char set[SWEEP_MAX_VALUE * 2 + 2];
        snprintf(set, sizeof set, "%s=%s", w[1], ax.v[i]);
        const char *sp = set;
        okv = config_check(&c, s->ngpus ? s->gpus[0] : "h100", &sp, 1, w[1]) == 0;
      }
      if (!okv) continue;
      PUSH(s->a, s->cols, s->ncols, arena_strndup(s->a, w[1], strlen(w[1])));
      PUSH(s->a, axes, naxes, ax);
    } else if (strcmp(d, "point") == 0) {
      if (naxes) { fail(&c, "param lines (a grid) and point lines do not mix%s%s", "", ""); continue; }
      if (nw < 2) { fail(&c, "expected 'point NAME=VALUE...'%s%s", "", ""); continue; }
      pdef pd = { arena_alloc(s->a, sizeof *pd.v * SWEEP_MAX_COLS), c.line };
      if (assignments(&c, w + 1, nw - 1, &pd.v, NULL, true)) continue;
      if (npdefs == SWEEP_MAX_POINTS) { fail(&c, "too many points%s%s", "", ""); continue; }
      PUSH(s->a, pdefs, npdefs, pd);
    } else if (strcmp(d, "set") == 0) {
      for (int i = 1; i < nw; i++) {
        char *eq = strchr(w[i], '=');
        if (!eq || eq == w[i]) { fail(&c, "expected NAME=VALUE, got '%s'%s", w[i], ""); break; }
        if (check_value(&c, "a value", eq + 1)) break;
        const char *v = norm(s, eq + 1);
        size_t l = (size_t)(eq - w[i]) + strlen(v) + 2;
        char *sp = arena_alloc(s->a, l);
        snprintf(sp, l, "%.*s=%s", (int)(eq - w[i]), w[i], v);
        const char *cs = sp;
        if (config_check(&c, s->ngpus ? s->gpus[0] : "h100", &cs, 1, "set")) break;
        if (s->nfixed == 256) { fail(&c, "more than %s set values%s", "256", ""); break; }
        PUSH(s->a, s->fixed, s->nfixed, sp);
      }
      if (nw < 2) fail(&c, "expected 'set NAME=VALUE...'%s%s", "", "");
    } else if (strcmp(d, "baseline") == 0) {
      if (once(&c, &seen_base, d)) continue;
      if (nw < 2) { fail(&c, "expected 'baseline NAME=VALUE...'%s%s", "", ""); continue; }
      baseline = arena_alloc(s->a, sizeof *baseline * SWEEP_MAX_COLS);
      if (assignments(&c, w + 1, nw - 1, &baseline, &base_gpu, false)) baseline = NULL;
    } else if (strcmp(d, "repeat") == 0) {
      uint64_t v;
      if (once(&c, &seen_repeat, d)) continue;
      if (nw != 2 || num_u64(w[1], 1, 1000, &v)) { fail(&c, "expected 'repeat N', N from 1 to 1000%s%s", "", ""); continue; }
      s->repeat = (int)v;
    } else if (strcmp(d, "max-seconds") == 0) {
      if (once(&c, &seen_sec, d)) continue;
      if (nw != 2 || num_f64(w[1], 0.001, 1e7, &s->max_seconds)) fail(&c, "expected 'max-seconds S', S from 0.001 to 1e7%s%s", "", "");
    } else if (strcmp(d, "max-memory") == 0) {
      if (once(&c, &seen_mem, d)) continue;
      if (nw != 2 || num_size(w[1], 1u << 20, 1ull << 44, &s->max_memory)) fail(&c, "expected 'max-memory SIZE', from 1M to 16T%s%s", "", "");
    } else if (strcmp(d, "trace") == 0) {
      if (once(&c, &seen_trace, d)) continue;
      if (nw != 2 || (strcmp(w[1], "launch") && strcmp(w[1], "warp") && strcmp(w[1], "mem") && strcmp(w[1], "all"))) { fail(&c, "expected 'trace LEVEL': launch, warp, mem or all%s%s", "", ""); continue; }
      s->trace_level = arena_strndup(s->a, w[1], strlen(w[1]));
    } else fail(&c, "unknown directive '%s' (launch, exec, gpu, param, point, set, baseline, repeat, max-seconds, max-memory, trace)%s", d, "");
  }
  if (c.errors) return -1;
  if (ov && ov->repeat) s->repeat = ov->repeat;
  if (ov && ov->max_seconds > 0) s->max_seconds = ov->max_seconds;
  if (ov && ov->max_memory) s->max_memory = ov->max_memory;
  c.line = 0;
  if (!s->nw) { fprintf(err, "%s: error: no workload (a 'launch' or 'exec' line)\n", path); return -1; }
  if (!s->ngpus) PUSH(s->a, s->gpus, s->ngpus, "h100");
  /* the combos: the listed points, or the grid (the last axis varies fastest) */
  uint64_t ncombo = 1;
  if (npdefs) ncombo = (uint64_t)npdefs;
  else for (int i = 0; i < naxes && ncombo <= SWEEP_MAX_POINTS; i++) ncombo *= (uint64_t)axes[i].n;
  uint64_t total = ncombo * (uint64_t)s->nw * (uint64_t)s->ngpus * (uint64_t)s->repeat;
  if (total > SWEEP_MAX_POINTS) { fprintf(err, "%s: error: %llu points, more than %d\n", path, (unsigned long long)total, SWEEP_MAX_POINTS); return -1; }
  s->combos = arena_alloc(s->a, sizeof *s->combos * ncombo);
  s->ncombos = (int)ncombo;
  for (int k = 0; k < s->ncombos; k++) {
    const char **v = arena_alloc(s->a, sizeof *v * (size_t)(s->ncols + 1));
    if (npdefs) memcpy(v, pdefs[k].v, sizeof *v * (size_t)s->ncols);
    else for (int i = naxes - 1, r = k; i >= 0; r /= axes[i].n, i--) v[axes[i].col] = axes[i].v[r % axes[i].n];
    s->combos[k].values = v;
  }
  /* every combination on every GPU must be a valid configuration (parameters relate: gpcs <= sms) */
  for (int g = 0; g < s->ngpus; g++)
    for (int k = 0; k < s->ncombos; k++) {
      sweep_point pt = { 0, g, k, 0, false, NULL };
      const char **sets;
      int n = sweep_point_sets(s, &pt, &sets);
      c.line = npdefs ? pdefs[k].line : naxes ? axes[naxes - 1].line : 1;
      char what[1024];
      size_t wl = (size_t)snprintf(what, sizeof what, "on %s, the point", s->gpus[g]);
      for (int i = 0; i < n && wl < sizeof what; i++) wl += (size_t)snprintf(what + wl, sizeof what - wl, " %s", sets[i]);
      if (config_check(&c, s->gpus[g], sets, n, what)) return -1;
    }
  /* the baseline: one combination (and GPU) per workload */
  int base_combo = 0, base_gpu_i = 0;
  if (baseline) {
    c.line = seen_base;
    int found = -1, count = 0;
    for (int k = 0; k < s->ncombos; k++) {
      bool m = true;
      for (int i = 0; i < s->ncols && m; i++) m = !baseline[i] || (s->combos[k].values[i] && strcmp(baseline[i], s->combos[k].values[i]) == 0);
      if (m) { count++; if (found < 0) found = k; }
    }
    if (base_gpu) {
      base_gpu_i = -1;
      for (int g = 0; g < s->ngpus; g++) if (strcmp(s->gpus[g], base_gpu) == 0 || strstr(s->gpus[g], base_gpu)) { base_gpu_i = g; break; }
      if (base_gpu_i < 0) return fail(&c, "the baseline's gpu '%s' is not one of the sweep's%s", base_gpu, "");
    }
    if (found < 0) return fail(&c, "the baseline matches no point%s%s", "", "");
    if (count > 1) { char b[16]; snprintf(b, sizeof b, "%d", count); return fail(&c, "the baseline matches %s points: name more parameters%s", b, ""); }
    base_combo = found;
  }
  s->points = arena_alloc(s->a, sizeof *s->points * (size_t)total);
  for (int wl = 0; wl < s->nw; wl++)
    for (int g = 0; g < s->ngpus; g++)
      for (int k = 0; k < s->ncombos; k++)
        for (int r = 0; r < s->repeat; r++) {
          sweep_point *p = &s->points[s->npoints++];
          *p = (sweep_point){ wl, g, k, r, k == base_combo && g == base_gpu_i, NULL };
          p->key = key_of(s, p);
          if (!p->key) { fprintf(err, "ptxemu sweep: out of memory\n"); return -1; }
        }
  return 0;
}

int sweep_spec_load(sweep_spec *s, const char *path, const char *base, const sweep_overrides *ov, char **text_out) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "ptxemu sweep: cannot read '%s': %s\n", path, strerror(errno)); return EXIT_NOINPUT; }
  char *text = malloc(SWEEP_MAX_SPEC + 1);
  size_t n = text ? fread(text, 1, SWEEP_MAX_SPEC + 1, f) : 0;
  bool bad = ferror(f);
  fclose(f);
  if (!text) return EXIT_SOFTWARE;
  if (bad) { fprintf(stderr, "ptxemu sweep: cannot read '%s' (a regular file)\n", path); free(text); return EXIT_NOINPUT; }
  if (n > SWEEP_MAX_SPEC) { fprintf(stderr, "%s: error: larger than 1 MiB\n", path); free(text); return EXIT_DATAERR; }
  text[n] = 0;
  if (strlen(text) != n) { fprintf(stderr, "%s: error: NUL byte\n", path); free(text); return EXIT_DATAERR; }
  char dir[PATH_MAX];
  if (!base) {
    /* relative paths start at the SPEC's folder */
    char *rp = realpath(path, NULL);
    if (!rp) { free(text); return EXIT_NOINPUT; }
    char *slash = strrchr(rp, '/');
    snprintf(dir, sizeof dir, "%.*s", slash == rp ? 1 : (int)(slash - rp), rp);
    free(rp);
    base = dir;
  }
  int rc = sweep_spec_parse(s, text, path, base, ov, stderr);
  if (rc) sweep_spec_free(s);
  if (text_out && !rc) *text_out = text;
  else free(text);
  return rc ? EXIT_DATAERR : 0;
}

void sweep_spec_free(sweep_spec *s) {
  if (s->a) arena_free(s->a);
  memset(s, 0, sizeof *s);
}
