#include "util/rss.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

uint64_t rss_bytes(void) {
  /* /proc/self/statm: size resident shared ... in pages; one read() keeps
   * it cheap enough for the budget checks of a running launch */
  int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[128];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  char *p = buf;
  strtoull(p, &p, 10);
  unsigned long long res = strtoull(p, NULL, 10);
  long ps = sysconf(_SC_PAGE_SIZE);
  return res * (uint64_t)(ps > 0 ? ps : 4096);
}
