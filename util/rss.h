/* util/rss.h - the process's resident host memory: device memory is mapped
 * lazily, so what a launch costs the host is what it touched, and the
 * --max-memory cap is checked against this. */
#ifndef UTIL_RSS_H
#define UTIL_RSS_H
#include <stdint.h>

/* Resident bytes of this process, or 0 where the system does not say. */
uint64_t rss_bytes(void);
#endif
