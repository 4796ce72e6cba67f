/* util/json.c - JSON string escaping (json.h). */
#include <stdint.h>
#include "util/json.h"

/* Length of the valid UTF-8 sequence at p, or 0 when it is not one. */
static int utf8_len(const unsigned char *p) {
  unsigned c = p[0];
  int n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
  if (c >= 0xf5) return 0;
  for (int i = 1; i < n; i++) if ((p[i] & 0xc0) != 0x80) return 0;
  /* overlong three-byte forms and surrogates; over-range four-byte forms */
  if (n == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0))) return 0;
  if (n == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))) return 0;
  return n;
}

void json_put_string(FILE *f, const char *s) {
  if (!s) { fputs("null", f); return; }
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    unsigned c = *p;
    if (c == '"' || c == '\\') { fputc('\\', f); fputc((int)c, f); p++; }
    else if (c == '\n') { fputs("\\n", f); p++; }
    else if (c == '\t') { fputs("\\t", f); p++; }
    else if (c == '\r') { fputs("\\r", f); p++; }
    else if (c < 0x20 || c == 0x7f) { fprintf(f, "\\u%04x", c); p++; }
    else if (c < 0x80) { fputc((int)c, f); p++; }
    else {
      int n = utf8_len(p);
      if (!n) { fprintf(f, "\\u%04x", c); p++; }
      else { fwrite(p, 1, (size_t)n, f); p += n; }
    }
  }
  fputc('"', f);
}
