/* host/grade.c - grading output of "ptxemu check" (grade.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "host/compare.h"
#include "host/grade.h"
#include "util/json.h"

int grade_format_from_name(const char *name) {
  if (strcmp(name, "text") == 0) return GRADE_TEXT;
  if (strcmp(name, "json") == 0) return GRADE_JSON;
  if (strcmp(name, "tap") == 0) return GRADE_TAP;
  return -1;
}

grade_item *grade_add(grade_run *g, const char *name, int line) {
  if (g->nitems == g->cap) {
    int cap = g->cap ? g->cap * 2 : 8;
    grade_item *n = realloc(g->items, (size_t)cap * sizeof *n);
    if (!n) return NULL;
    g->items = n;
    g->cap = cap;
  }
  grade_item *it = &g->items[g->nitems];
  memset(it, 0, sizeof *it);
  it->name = strdup(name ? name : "?");
  if (!it->name) return NULL;
  it->line = line;
  it->index = -1;
  g->nitems++;
  return it;
}

static uint64_t load_le(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = v << 8 | p[i];
  return v;
}

void grade_format_elem(const char *type, const uint8_t *p, char *val, size_t nval, char *bits, size_t nbits) {
  size_t n = type[1] == '8' ? 1 : strstr(type, "16") ? 2 : strstr(type, "32") ? 4 : 8;
  uint64_t b = load_le(p, n);
  snprintf(bits, nbits, "0x%0*" PRIx64, (int)(2 * n), b);
  if (type[0] == 'u') snprintf(val, nval, "%" PRIu64, b);
  else if (type[0] == 's') {
    int64_t s = n == 8 ? (int64_t)b : (int64_t)(b ^ (1ull << (8 * n - 1))) - (int64_t)(1ull << (8 * n - 1));
    snprintf(val, nval, "%" PRId64, s);
  } else {
    double d;
    int digits = 17;
    if (strcmp(type, "f16") == 0) { d = cmp_f16_to_double((uint16_t)b); digits = 5; }
    else if (strcmp(type, "bf16") == 0) { d = cmp_bf16_to_double((uint16_t)b); digits = 4; }
    else if (n == 4) { float f; uint32_t u = (uint32_t)b; memcpy(&f, &u, 4); d = f; digits = 9; }
    else memcpy(&d, &b, 8);
    if (isnan(d)) snprintf(val, nval, "nan");
    else if (isinf(d)) snprintf(val, nval, d < 0 ? "-inf" : "inf");
    else snprintf(val, nval, "%.*g", digits, d);
  }
}

void grade_free(grade_run *g) {
  for (int i = 0; i < g->nitems; i++) { free(g->items[i].name); free(g->items[i].message); }
  free(g->items);
  free(g->fault);
  g->items = NULL;
  g->fault = NULL;
  g->nitems = g->cap = 0;
}

/* Whether v is a number as JSON spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool json_number(const char *v) {
  const char *p = v;
  if (*p == '-') p++;
  if (*p == '0') p++;
  else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
  else return false;
  if (*p == '.') {
    p++;
    if (!(*p >= '0' && *p <= '9')) return false;
    while (*p >= '0' && *p <= '9') p++;
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!(*p >= '0' && *p <= '9')) return false;
    while (*p >= '0' && *p <= '9') p++;
  }
  return !*p;
}

/* A typed value as a JSON value: a number, else a string (nan, inf, the
 * hex words of set32: JSON has no such numbers). */
static void json_value(FILE *f, const char *v) {
  if (!*v) fputs("null", f);
  else if (json_number(v)) fputs(v, f);
  else json_put_string(f, v);
}

static void write_json(FILE *f, const grade_run *g) {
  int passed = 0;
  for (int i = 0; i < g->nitems; i++) passed += g->items[i].pass;
  fputs("{\n  \"tool\": \"ptxemu check\",\n  \"input\": ", f);
  json_put_string(f, g->input);
  fprintf(f, ",\n  \"exit_status\": %d,\n  \"passed\": %d,\n  \"failed\": %d,\n", g->status, passed, g->nitems - passed);
  fputs("  \"run\": {\n    \"mode\": ", f);
  json_put_string(f, g->gpu[0] ? "timing" : "functional");
  fputs(", \"gpu\": ", f);
  json_put_string(f, g->gpu[0] ? g->gpu : NULL);
  fprintf(f, ",\n    \"launches\": %" PRIu64 ", \"inst_executed\": %" PRIu64 ", \"thread_inst_executed\": %" PRIu64 ",\n",
          g->launches, g->inst_executed, g->thread_inst_executed);
  fputs("    \"cycles\": ", f);
  if (g->gpu[0]) fprintf(f, "%" PRIu64, g->cycles); else fputs("null", f);
  fprintf(f, ", \"wall_seconds\": %.6f,\n    \"fault\": ", g->wall_seconds);
  json_put_string(f, g->fault);
  fputs("\n  },\n  \"results\": [", f);
  for (int i = 0; i < g->nitems; i++) {
    const grade_item *it = &g->items[i];
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    json_put_string(f, it->name);
    fprintf(f, ", \"line\": %d, \"pass\": %s, \"compared\": %s, \"mode\": ", it->line, it->pass ? "true" : "false",
            it->compared ? "true" : "false");
    json_put_string(f, it->mode[0] ? it->mode : NULL);
    fputs(", \"type\": ", f);
    json_put_string(f, it->type[0] ? it->type : NULL);
    fprintf(f, ", \"bytes\": %zu, \"elements\": %zu, \"mismatches\": %zu", it->bytes, it->elements, it->mismatches);
    if (it->index >= 0) {
      fprintf(f, ",\n     \"first_mismatch\": {\"index\": %lld, \"expected\": ", it->index);
      json_value(f, it->expected);
      fputs(", \"actual\": ", f);
      json_value(f, it->actual);
      fputs(", \"expected_bits\": ", f);
      json_put_string(f, it->expected_bits[0] ? it->expected_bits : NULL);
      fputs(", \"actual_bits\": ", f);
      json_put_string(f, it->actual_bits[0] ? it->actual_bits : NULL);
      fputc('}', f);
    }
    fputs(",\n     \"message\": ", f);
    json_put_string(f, it->message);
    fputc('}', f);
  }
  fputs(g->nitems ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* A TAP description may not hold '#' (it starts a directive) nor a newline. */
static void tap_desc(FILE *f, const char *s) {
  for (; *s; s++) fputc(*s == '#' || *s == '\n' || *s == '\r' ? '_' : *s, f);
}

static void write_tap(FILE *f, const grade_run *g) {
  fprintf(f, "TAP version 13\n1..%d\n", g->nitems);   /* 13: what most harnesses (prove) read; 14 adds nothing used here */
  for (int i = 0; i < g->nitems; i++) {
    const grade_item *it = &g->items[i];
    fprintf(f, "%sok %d - ", it->pass ? "" : "not ", i + 1);
    tap_desc(f, it->name);
    fputc('\n', f);
    if (it->pass) continue;
    /* YAML diagnostics; strings in JSON quoting, which YAML reads too */
    fputs("  ---\n  message: ", f);
    json_put_string(f, it->message ? it->message : "");
    fprintf(f, "\n  line: %d\n", it->line);
    if (it->mode[0]) { fputs("  mode: ", f); json_put_string(f, it->mode); fputc('\n', f); }
    if (it->index >= 0) {
      fprintf(f, "  index: %lld\n  type: %s\n  expected: ", it->index, it->type);
      json_put_string(f, it->expected);
      fputs("\n  actual: ", f);
      json_put_string(f, it->actual);
      fprintf(f, "\n  mismatches: %zu\n  elements: %zu\n", it->mismatches, it->elements);
    }
    fputs("  ...\n", f);
  }
  fprintf(f, "# exit status %d; %" PRIu64 " launches, %" PRIu64 " warp instructions", g->status, g->launches, g->inst_executed);
  if (g->gpu[0]) fprintf(f, ", %" PRIu64 " cycles on %s", g->cycles, g->gpu);
  fprintf(f, "; %.3f s of emulator wall time\n", g->wall_seconds);
  if (g->fault) {
    fputs("# ", f);
    for (const char *p = g->fault; *p; p++) { fputc(*p, f); if (*p == '\n' && p[1]) fputs("# ", f); }
    if (g->fault[0] && g->fault[strlen(g->fault) - 1] != '\n') fputc('\n', f);
  }
  if (g->status != 0 && g->status != 1) fprintf(f, "Bail out! the run ended with exit status %d\n", g->status);
}

void grade_write(FILE *f, const grade_run *g, enum grade_format fmt) {
  if (fmt == GRADE_JSON) write_json(f, g);
  else if (fmt == GRADE_TAP) write_tap(f, g);
}
