/* cudart/ptxlink.h - one module of the PTX of several translation units
 * (a program built with nvcc -rdc=true), linked as nvlink links them. */
#ifndef CUDART_PTXLINK_H
#define CUDART_PTXLINK_H
#include <stddef.h>

/* The linked PTX text of the n units (malloc'd, NUL-terminated, *outlen
 * bytes), or NULL with err. */
char *ptxlink(char *const *texts, const size_t *lens, int n, size_t *outlen, char *err, size_t errlen);
#endif
