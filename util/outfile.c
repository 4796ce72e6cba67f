/* util/outfile.c - output files: a temporary name and a rename for regular
 * files, in place for devices and FIFOs, links followed (see outfile.h). */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "util/outfile.h"

/* The file a chain of symbolic links ends at (malloc'd), or a copy of path
 * when it is not a link; NULL with errno on failure.  A dangling link
 * resolves to where it points, so the rename creates that file. */
static char *resolve(const char *path) {
  char *cur = strdup(path);
  for (int hops = 0; cur; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
    if (hops == 40) { free(cur); errno = ELOOP; return NULL; }
    char target[PATH_MAX];
    ssize_t n = readlink(cur, target, sizeof target - 1);
    if (n < 0) { free(cur); return NULL; }
    target[n] = 0;
    char *next;
    const char *slash = strrchr(cur, '/');
    if (target[0] == '/' || !slash) next = strdup(target);
    else {                                   /* relative to the link's folder */
      size_t d = (size_t)(slash - cur) + 1;
      next = malloc(d + (size_t)n + 1);
      if (next) { memcpy(next, cur, d); memcpy(next + d, target, (size_t)n + 1); }
    }
    free(cur);
    cur = next;
  }
  errno = ENOMEM;
  return NULL;
}

int outfile_open(outfile *o, const char *path) {
  memset(o, 0, sizeof *o);
  struct stat st;
  bool exists = stat(path, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) { errno = EISDIR; return -1; }
  /* /dev/stdout, /dev/fd/N, /proc/self/fd/N: the stream the caller was
   * given, which may be a file that others still write through: in place */
  bool special = strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
  o->path = exists && (special || !S_ISREG(st.st_mode)) ? strdup(path) : exists ? realpath(path, NULL) : resolve(path);
  if (!o->path) return -1;
  if (exists && (special || !S_ISREG(st.st_mode))) {
    o->f = fopen(o->path, "wb");             /* a device or FIFO: in place */
  } else {
    size_t n = strlen(o->path);
    o->tmp = malloc(n + 16);
    if (!o->tmp) { free(o->path); o->path = NULL; errno = ENOMEM; return -1; }
    snprintf(o->tmp, n + 16, "%s.tmp%u~", o->path, (unsigned)getpid() % 100000u);
    o->f = fopen(o->tmp, "wb");
    int e = errno;
    if (!o->f && (e == EACCES || e == EROFS || e == EPERM) && access(o->path, W_OK) == 0) {
      /* a writable file in a folder we may not create files in: in place */
      free(o->tmp);
      o->tmp = NULL;
      o->f = fopen(o->path, "wb");
    } else errno = e;
  }
  if (!o->f) {
    int e = errno;
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    errno = e;
    return -1;
  }
  return 0;
}

int outfile_close(outfile *o, int commit) {
  if (!o->f) { errno = o->err ? o->err : EBADF; return -1; }
  int err = 0;
  if (fflush(o->f) != 0 || ferror(o->f)) err = errno ? errno : EIO;
  if (fclose(o->f) != 0 && !err) err = errno ? errno : EIO;
  o->f = NULL;
  if (!err && !commit) err = ECANCELED;
  if (o->tmp) {
    if (!err && rename(o->tmp, o->path) != 0) err = errno;
    if (err) remove(o->tmp);
  }
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
  o->err = err;
  errno = err;
  return err ? -1 : 0;
}

int outfile_write(const char *path, const void *data, size_t n) {
  outfile o;
  if (outfile_open(&o, path)) return -1;
  errno = 0;
  int ok = fwrite(data, 1, n, o.f) == n;
  int e = errno;
  if (outfile_close(&o, ok) == 0) return 0;
  if (!ok && e) errno = e;
  return -1;
}

int outfile_check_stream(FILE *f) {
  errno = 0;
  if (fflush(f) != 0 || ferror(f)) { if (!errno) errno = EIO; return -1; }
  return 0;
}
