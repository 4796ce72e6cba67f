/* util/outfile.h - every output file of ptxemu goes through here.
 *
 * A regular file (or a new one) is written under a temporary name next to
 * it and renamed over it when complete, so a reader never sees half of it.
 * A symbolic link is followed: the file it points to is replaced, the link
 * stays.  Anything else (a device such as /dev/null or /dev/stdout, a FIFO)
 * is written in place: renaming over it would replace a device node with a
 * regular file.  Every write, flush and close is checked. */
#ifndef UTIL_OUTFILE_H
#define UTIL_OUTFILE_H
#include <stddef.h>
#include <stdio.h>

typedef struct outfile {
  FILE *f;                 /* write here between open and close             */
  char *path;              /* the file written (a link's target)            */
  char *tmp;               /* the temporary name; NULL: written in place    */
  int err;                 /* errno of the first failure                    */
} outfile;

/* Open path for writing ("wb"); 0, or -1 with errno set (nothing created). */
int outfile_open(outfile *o, const char *path);
/* Finish: flush, close, rename into place.  commit false (or an earlier
 * write error) removes the temporary file.  0, or -1 with errno set. */
int outfile_close(outfile *o, int commit);
/* The whole file in one call: 0, or -1 with errno set. */
int outfile_write(const char *path, const void *data, size_t n);
/* Check a stream the program did not open (stdout): flush it and report a
 * write error.  0, or -1 with errno set. */
int outfile_check_stream(FILE *f);
#endif
