/* tools/approx-sweep/rawfiles.h - reads the raw H100 outputs that `sweep
 * undump` writes (RAWDIR/NAME_LO_COUNT_STRIDE.u32: COUNT little-endian words,
 * the results for the inputs LO, LO + STRIDE, ...) and names their form. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "emu/fp.h"

struct raw { char name[64]; uint32_t lo, count, stride; uint32_t *out; int fn, ftz, h16, bf; };

static int raw_form(struct raw *r) {
  static const struct { const char *p; int fn; } fns[] = {
    {"sin.", FPA_SIN}, {"cos.", FPA_COS}, {"ex2.", FPA_EX2}, {"lg2.", FPA_LG2}, {"rcp.", FPA_RCP},
    {"rsqrt.", FPA_RSQRT}, {"sqrt.", FPA_SQRT}, {"tanh.", FPA_TANH}};
  r->fn = -1;
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
    if (!strncmp(r->name, fns[i].p, strlen(fns[i].p))) r->fn = fns[i].fn;
  r->ftz = strstr(r->name, ".ftz.") != NULL;
  r->bf = strstr(r->name, ".bf16") != NULL;
  r->h16 = r->bf || strstr(r->name, ".f16") != NULL;
  size_t n = strlen(r->name);
  return r->fn >= 0 && !(n > 2 && !strcmp(r->name + n - 2, "x2"));      /* not the f16x2 forms */
}
/* Every raw file of DIR, sorted by name; returns the count. */
static int raw_load(const char *dir, struct raw **out) {
  DIR *d = opendir(dir);
  if (!d) { perror(dir); exit(66); }
  struct dirent *e;
  int n = 0;
  struct raw *v = NULL;
  while ((e = readdir(d))) {
    struct raw r;
    memset(&r, 0, sizeof r);
    char *us = strchr(e->d_name, '_');
    if (!us || !strstr(e->d_name, ".u32") || (size_t)(us - e->d_name) >= sizeof r.name) continue;
    memcpy(r.name, e->d_name, (size_t)(us - e->d_name));
    if (sscanf(us, "_%x_%x_%x.u32", &r.lo, &r.count, &r.stride) != 3 || !raw_form(&r)) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    r.out = malloc((size_t)r.count * 4);
    if (!f || !r.out || fread(r.out, 4, r.count, f) != r.count) { fprintf(stderr, "%s: cannot read\n", path); exit(66); }
    fclose(f);
    v = realloc(v, (size_t)(n + 1) * sizeof *v);
    v[n++] = r;
  }
  closedir(d);
  for (int i = 1; i < n; i++)          /* insertion sort by name, then LO */
    for (int j = i; j > 0 && (strcmp(v[j - 1].name, v[j].name) > 0 ||
                              (!strcmp(v[j - 1].name, v[j].name) && v[j - 1].lo > v[j].lo)); j--) {
      struct raw t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
    }
  *out = v;
  return n;
}
static inline uint32_t raw_model(const struct raw *r, uint32_t a) {
  return r->h16 ? fp_approx_h(r->fn, r->bf, (uint16_t)a) : fp_approx_f32(r->fn, a, r->ftz);
}
/* The inputs of R where the model differs from the hardware. */
static uint64_t raw_diffs(const struct raw *r) {
  uint64_t bad = 0;
  for (uint32_t i = 0; i < r->count; i++) {
    uint32_t a = r->lo + i * r->stride, w = r->h16 ? r->out[i] & 0xFFFFu : r->out[i];
    bad += raw_model(r, a) != w;
  }
  return bad;
}
