/* util/source_file.c - see source_file.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/source_file.h"

static bool is_file(const char *p) {
  struct stat st;
  return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir (its first dlen bytes)/base in a new string; dlen 0: base alone. */
static char *join(const char *dir, size_t dlen, const char *base) {
  size_t bl = strlen(base);
  char *p = malloc(dlen + bl + 2);
  if (!p) return NULL;
  memcpy(p, dir, dlen);
  size_t o = dlen;
  if (dlen && dir[dlen - 1] != '/') p[o++] = '/';
  memcpy(p + o, base, bl + 1);
  return p;
}

/* The length of path's directory part, with its final '/'. */
static size_t dir_len(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? (size_t)(s - path) + 1 : 0;
}

/* p if it names a file (the caller keeps it), else NULL after freeing it. */
static char *keep_if_file(char *p) {
  if (is_file(p)) return p;
  free(p);
  return NULL;
}

char *src_find(const char *path, const char *source_dir, const char *const *beside, int nbeside) {
  if (!path || !*path) return NULL;
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  if (!*base) return NULL;
  char *found = NULL;
  if (source_dir && *source_dir) {
    found = keep_if_file(join(source_dir, strlen(source_dir), base));
    if (!found && path[0] != '/') found = keep_if_file(join(source_dir, strlen(source_dir), path));
  }
  if (!found) found = keep_if_file(join("", 0, path));
  for (int i = 0; i < nbeside && !found; i++)
    if (beside[i]) found = keep_if_file(join(beside[i], dir_len(beside[i]), base));
  return found;
}

char **src_read_lines(const char *path, size_t *nlines) {
  *nlines = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc((size_t)SRC_MAX_BYTES + 1);
  size_t len = buf ? fread(buf, 1, (size_t)SRC_MAX_BYTES, f) : 0;
  bool too_big = buf && len == (size_t)SRC_MAX_BYTES && fgetc(f) != EOF;
  bool failed = ferror(f);
  fclose(f);
  if (!buf || too_big || failed) { free(buf); return NULL; }
  buf[len] = 0;
  size_t n = 1;
  for (size_t i = 0; i < len; i++) n += buf[i] == '\n';
  char **lines = malloc((n + 1) * sizeof *lines);
  if (!lines) { free(buf); return NULL; }
  /* lines[0] owns the buffer */
  size_t k = 0;
  lines[k++] = buf;
  for (size_t i = 0; i < len; i++)
    if (buf[i] == '\n') { buf[i] = 0; if (i > 0 && buf[i - 1] == '\r') buf[i - 1] = 0; lines[k++] = buf + i + 1; }
  if (k > 1 && !*lines[k - 1]) k--;                 /* the final newline */
  lines[k] = NULL;
  *nlines = k;
  return lines;
}

void src_free_lines(char **lines) {
  if (lines) free(lines[0]);
  free(lines);
}
