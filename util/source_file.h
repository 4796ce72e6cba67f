/* util/source_file.h - finding and reading a program's source file (the
 * CUDA file a PTX .file directive names) for the report, `stats
 * --by-cuda-line` and the debugger, with one search order for all. */
#ifndef PTXEMU_UTIL_SOURCE_FILE_H
#define PTXEMU_UTIL_SOURCE_FILE_H
#include <stddef.h>

/* The file a .file path names, searched in this order (the first that
 * exists wins; any argument but path may be NULL):
 *   1. source_dir/<last component of path>, then source_dir/<path> when
 *      path is relative: a directory the user named beats what the
 *      compiler recorded, which may be a stale or foreign path;
 *   2. path itself;
 *   3. beside each of the files in beside[0..nbeside) (the PTX file, the
 *      trace), by the last component.
 * Returns a new string (free it) or NULL. */
char *src_find(const char *path, const char *source_dir, const char *const *beside, int nbeside);

/* The lines of a text file of at most SRC_MAX_BYTES: lines[k] is line
 * k + 1 (no line terminator, "\r\n" too), NULL terminated, *nlines of
 * them; free with src_free_lines.  NULL when it cannot be read or is
 * larger. */
#define SRC_MAX_BYTES (16l << 20)
char **src_read_lines(const char *path, size_t *nlines);
void src_free_lines(char **lines);
#endif
