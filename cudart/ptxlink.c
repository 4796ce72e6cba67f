/* cudart/ptxlink.c - link the PTX of a program's translation units (nvcc
 * -rdc=true) into one module, as nvlink links their code: one header, the
 * units' module-scope declarations side by side, where
 *   - a name a unit defines without linkage (static: file scope) is renamed
 *     NAME$tuN in that unit, so equal names of two units stay apart;
 *   - a .weak definition (inline functions, templates) is kept from the
 *     first unit that has it, and dropped from the others;
 *   - .extern declarations stay: the assembler resolves them against the
 *     .visible definition of another unit, before or after them.
 * Text is scanned token by token (comments and strings skipped), so only
 * identifiers are renamed. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/ptxlink.h"

typedef struct buf { char *p; size_t n, cap; } buf;

static int put(buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t nc = (b->n + n + 1) * 2;
    char *np = realloc(b->p, nc);
    if (!np) return -1;
    b->p = np;
    b->cap = nc;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
  return 0;
}

static bool id_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static bool id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Length of the comment, string or blank run at s (0 if none). */
static size_t skip_len(const char *s, const char *end) {
  if (s + 1 < end && s[0] == '/' && s[1] == '/') { const char *e = memchr(s, '\n', (size_t)(end - s)); return e ? (size_t)(e - s) : (size_t)(end - s); }
  if (s + 1 < end && s[0] == '/' && s[1] == '*') {
    for (const char *p = s + 2; p + 1 < end; p++) if (p[0] == '*' && p[1] == '/') return (size_t)(p + 2 - s);
    return (size_t)(end - s);
  }
  if (*s == '"') {
    const char *p = s + 1;
    while (p < end && *p != '"' && *p != '\n') p += *p == '\\' && p + 1 < end ? 2 : 1;
    return (size_t)(p < end && *p == '"' ? p + 1 - s : p - s);
  }
  return 0;
}

/* One module-scope statement: [start, end) up to its ';' or its body's
 * closing '}'. */
typedef struct stmt {
  const char *start, *end;
  bool header;                   /* .version / .target / .address_size        */
  bool file;                     /* .file N "path" (a line of its own)         */
  bool section;                  /* .section NAME { ... }: debug information   */
  bool weak, visible, external, defines;
  char name[256];                /* what it defines or declares               */
} stmt;

/* The next module-scope statement from *pp, or false at the end. */
static bool next_stmt(const char **pp, const char *end, stmt *st) {
  const char *p = *pp;
  memset(st, 0, sizeof *st);
  while (p < end && (isspace((unsigned char)*p) || skip_len(p, end))) p += isspace((unsigned char)*p) ? 1 : skip_len(p, end);
  if (p >= end) return false;
  st->start = p;
  int paren = 0, depth = 0;
  bool named = false, is_func = false;
  while (p < end) {
    size_t k = skip_len(p, end);
    if (k) { p += k; continue; }
    char c = *p;
    if (c == '.' && depth == 0 && p + 1 < end && isalpha((unsigned char)p[1])) {
      const char *w = p + 1;
      while (p + 1 < end && id_char((unsigned char)p[1])) p++;
      size_t n = (size_t)(p + 1 - w);
      bool hdr = (n == 7 && !memcmp(w, "version", 7)) || (n == 6 && !memcmp(w, "target", 6)) ||
                 (n == 12 && !memcmp(w, "address_size", 12));
      if (hdr || (n == 4 && !memcmp(w, "file", 4))) {
        /* header directives and .file end at the end of their line */
        const char *e = memchr(p, '\n', (size_t)(end - p));
        st->header = hdr;
        st->file = !hdr;
        st->end = e ? e + 1 : end;
        *pp = st->end;
        return true;
      }
      if (n == 7 && !memcmp(w, "section", 7)) st->section = true;
      if (n == 4 && !memcmp(w, "weak", 4)) st->weak = true;
      if (n == 7 && !memcmp(w, "visible", 7)) st->visible = true;
      if (n == 6 && !memcmp(w, "extern", 6)) st->external = true;
      if ((n == 4 && !memcmp(w, "func", 4)) || (n == 5 && !memcmp(w, "entry", 5))) is_func = true;
      p++;
      continue;
    }
    if (id_start((unsigned char)c) && c != '%' && depth == 0 && paren == 0 && !named) {
      const char *w = p;
      while (p < end && id_char((unsigned char)*p)) p++;
      size_t n = (size_t)(p - w);
      if (n < sizeof st->name) { memcpy(st->name, w, n); st->name[n] = 0; named = true; }
      continue;
    }
    if (c == '(') paren++;
    else if (c == ')') paren--;
    else if (c == '{') { if (depth == 0 && paren == 0 && is_func) st->defines = true; depth++; }
    else if (c == '}') { depth--; if (depth == 0 && (is_func || st->section) && paren == 0) { p++; break; } }
    else if (c == ';' && depth == 0 && paren == 0) {
      if (!is_func) st->defines = !st->external;
      p++;
      break;
    }
    p++;
  }
  st->end = p;
  *pp = p;
  return true;
}

/* The names a unit defines with no linkage directive (file scope). */
typedef struct names { char (*v)[256]; size_t n, cap; } names;

static bool has(const names *s, const char *n) {
  for (size_t i = 0; i < s->n; i++) if (strcmp(s->v[i], n) == 0) return true;
  return false;
}
static int add(names *s, const char *n) {
  if (has(s, n)) return 0;
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 32;
    char (*nv)[256] = realloc(s->v, nc * sizeof *nv);
    if (!nv) return -1;
    s->v = nv;
    s->cap = nc;
  }
  snprintf(s->v[s->n++], 256, "%s", n);
  return 0;
}

/* Copy [s, e) renaming the identifiers in `local` to NAME$tuN, and the
 * file numbers of .file and .loc to the unit's own (N + 1000 * unit). */
static int copy_renamed(buf *out, const char *s, const char *e, const names *local, int unit) {
  const char *p = s;
  while (p < e) {
    size_t k = skip_len(p, e);
    if (k) { if (put(out, p, k)) return -1; p += k; continue; }
    if (*p == '.' && ((e - p > 4 && !memcmp(p, ".loc", 4) && !id_char((unsigned char)p[4])) ||
                      (e - p > 5 && !memcmp(p, ".file", 5) && !id_char((unsigned char)p[5])))) {
      const char *q = p + (p[1] == 'l' ? 4 : 5);
      while (q < e && (*q == ' ' || *q == '\t')) q++;
      if (put(out, p, (size_t)(q - p))) return -1;
      char *num_end;
      unsigned long f = strtoul(q, &num_end, 10);
      if (num_end > q) {
        char nb[32];
        int m = snprintf(nb, sizeof nb, "%lu", f + 1000ul * (unsigned long)unit);
        if (put(out, nb, (size_t)m)) return -1;
        q = num_end;
      }
      p = q;
      continue;
    }
    if (id_start((unsigned char)*p) && (p == s || !(id_char((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '%'))) {
      const char *w = p;
      while (p < e && id_char((unsigned char)*p)) p++;
      size_t n = (size_t)(p - w);
      char name[256];
      if (n < sizeof name && local->n) {
        memcpy(name, w, n);
        name[n] = 0;
        if (has(local, name)) {
          char renamed[300];
          int m = snprintf(renamed, sizeof renamed, "%s$tu%d", name, unit);
          if (put(out, renamed, (size_t)m)) return -1;
          continue;
        }
      }
      if (put(out, w, n)) return -1;
      continue;
    }
    if (put(out, p, 1)) return -1;
    p++;
  }
  return 0;
}

char *ptxlink(char *const *texts, const size_t *lens, int n, size_t *outlen, char *err, size_t errlen) {
  buf out = {0};
  names weak_seen = {0};
  int version = 0;
  char target[64] = "sm_90";
  /* the header: the newest .version of the units, the first unit's .target */
  for (int i = 0; i < n; i++) {
    const char *p = texts[i], *end = texts[i] + lens[i];
    stmt st;
    while (next_stmt(&p, end, &st)) {
      if (!st.header) continue;
      int maj, min;
      if (sscanf(st.start, ".version %d.%d", &maj, &min) == 2 && maj * 10 + min > version) version = maj * 10 + min;
      if (i == 0) sscanf(st.start, ".target %63[^ \t\r\n]", target);
    }
  }
  char header[160];
  int hl = snprintf(header, sizeof header, ".version %d.%d\n.target %s\n.address_size 64\n", version / 10, version % 10, target);
  if (put(&out, header, (size_t)hl)) goto oom;
  for (int i = 0; i < n; i++) {
    const char *end = texts[i] + lens[i];
    names local = {0};
    const char *p = texts[i];
    stmt st;
    while (next_stmt(&p, end, &st))
      if (!st.header && st.defines && !st.visible && !st.weak && !st.external && st.name[0] && add(&local, st.name)) goto oom;
    p = texts[i];
    while (next_stmt(&p, end, &st)) {
      if (st.header || st.section) continue;     /* one header; no debug sections */
      if (st.weak && st.defines && st.name[0]) {
        if (has(&weak_seen, st.name)) continue;            /* the first unit's copy serves all */
        if (add(&weak_seen, st.name)) { free(local.v); goto oom; }
      }
      if (copy_renamed(&out, st.start, st.end, &local, i + 1) || put(&out, "\n", 1)) { free(local.v); goto oom; }
    }
    free(local.v);
  }
  free(weak_seen.v);
  *outlen = out.n;
  return out.p;
oom:
  free(weak_seen.v);
  free(out.p);
  snprintf(err, errlen, "out of memory linking the program's PTX");
  return NULL;
}
