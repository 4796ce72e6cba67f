/* cudart/modcache.h - assemble a program's PTX once: assembled modules are
 * kept as objects (.pxo) in a cache folder, keyed by a hash of the PTX text
 * and of ptxemu's version, beside the PTX itself (so fault reports and
 * diagnostics name a file a person can open).  The folder is PTXEMU_CACHE,
 * else $XDG_CACHE_HOME/ptxemu, else ~/.cache/ptxemu; PTXEMU_CACHE=off
 * turns the cache off.  An entry that cannot be read is assembled again. */
#ifndef CUDART_MODCACHE_H
#define CUDART_MODCACHE_H
#include <stddef.h>
#include "isa/isa.h"

/* The module of text[0..len) (text[len] and text[len+1] are NUL); origin
 * names it in messages when there is no cache.  NULL after diagnostics on
 * stderr. */
isa_module *modcache_load(char *text, size_t len, const char *origin);
/* Cache hits and misses so far (ptxemu exec -v reports them). */
void modcache_counts(unsigned *hits, unsigned *misses);
#endif
