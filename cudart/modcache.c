/* cudart/modcache.c - the on-disk cache of assembled modules (modcache.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "cudart/modcache.h"
#include "ptx/ast.h"

static unsigned hits, misses;

void modcache_counts(unsigned *h, unsigned *m) { *h = hits; *m = misses; }

/* Two independent 64-bit FNV-1a hashes: 128 bits name an entry. */
static void hash128(const char *s, size_t n, uint64_t out[2]) {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (size_t i = 0; i < n; i++) {
    a = (a ^ (uint8_t)s[i]) * 0x100000001b3ull;
    b = (b ^ (uint8_t)s[i]) * 0x100000001b3ull;
    b ^= b >> 29;
  }
  const char *v = PACKAGE_VERSION __DATE__ __TIME__;   /* another build: another key */
  for (; *v; v++) a = (a ^ (uint8_t)*v) * 0x100000001b3ull;
  out[0] = a;
  out[1] = b;
}

/* The cache folder, created if needed; NULL when off or unusable. */
static const char *cache_dir(void) {
  static char dir[4096];
  static int state;              /* 0 unknown, 1 usable, -1 not */
  if (state) return state > 0 ? dir : NULL;
  state = -1;
  const char *env = getenv("PTXEMU_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (env && strcmp(env, "off") == 0) return NULL;
  if (env && *env) snprintf(dir, sizeof dir, "%s", env);
  else if (xdg && *xdg) snprintf(dir, sizeof dir, "%s/ptxemu", xdg);
  else if (home && *home) snprintf(dir, sizeof dir, "%s/.cache/ptxemu", home);
  else return NULL;
  /* create the folder and its parents */
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') { *p = 0; mkdir(dir, 0777); *p = '/'; }
  if (mkdir(dir, 0777) && errno != EEXIST) return NULL;
  if (access(dir, W_OK | X_OK)) return NULL;
  state = 1;
  return dir;
}

static int write_all(const char *path, const char *data, size_t n) {
  char tmp[4300];
  snprintf(tmp, sizeof tmp, "%.4200s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  int ok = fwrite(data, 1, n, f) == n;
  if (fclose(f)) ok = 0;
  if (ok && rename(tmp, path)) ok = 0;
  if (!ok) remove(tmp);
  return ok ? 0 : -1;
}

isa_module *modcache_load(char *text, size_t len, const char *origin) {
  const char *dir = cache_dir();
  char ptx_path[4200], obj_path[4200];
  const char *path = origin;
  if (dir) {
    uint64_t h[2];
    hash128(text, len, h);
    snprintf(ptx_path, sizeof ptx_path, "%s/%016llx%016llx.ptx", dir, (unsigned long long)h[0], (unsigned long long)h[1]);
    snprintf(obj_path, sizeof obj_path, "%s/%016llx%016llx.pxo", dir, (unsigned long long)h[0], (unsigned long long)h[1]);
    struct stat st;
    if (stat(ptx_path, &st) || (size_t)st.st_size != len) write_all(ptx_path, text, len);
    if (stat(ptx_path, &st) == 0) path = ptx_path;
    char err[256];
    isa_module *m = stat(obj_path, &st) == 0 ? isa_read_object(obj_path, err, sizeof err) : NULL;
    if (m) {
      hits++;
      m->path = arena_strndup(m->arena, path, strlen(path));
      return m;
    }
  }
  misses++;
  char *name = strdup(path);      /* the module keeps it */
  if (!name) return NULL;
  ptx_diag diag = { .path = name, .src = text, .src_len = len, .out = stderr, .max_errors = 100 };
  isa_module *m = isa_assemble_ptx(text, len, name, &diag);
  if (!m) {
    fprintf(stderr, "%s: %u error%s in the program's PTX\n", name, diag.errors, diag.errors == 1 ? "" : "s");
    free(name);
    return NULL;
  }
  m->path = arena_strndup(m->arena, name, strlen(name));
  free(name);
  if (dir) {
    char err[256];
    isa_write_object(m, obj_path, err, sizeof err);   /* a cache: failing to write it is no error */
  }
  return m;
}
