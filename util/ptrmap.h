/* util/ptrmap.h - open-addressing map from pointers (interned strings) to
 * 32-bit values.  PTRMAP_ABSENT as a value means "not there", which lets
 * scoped tables undo an insertion without deleting. */
#ifndef UTIL_PTRMAP_H
#define UTIL_PTRMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PTRMAP_ABSENT UINT32_MAX

typedef struct ptrmap { const void **keys; uint32_t *vals; size_t cap, count; } ptrmap;

void ptrmap_init(ptrmap *m);
void ptrmap_fini(ptrmap *m);
void ptrmap_clear(ptrmap *m);
/* Value for key, or PTRMAP_ABSENT. */
uint32_t ptrmap_get(const ptrmap *m, const void *key);
/* Set key to val; returns the previous value (PTRMAP_ABSENT if none). */
uint32_t ptrmap_put(ptrmap *m, const void *key, uint32_t val);
#endif
