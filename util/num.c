/* util/num.c - strict number parsing (see num.h).  strtod and strtoul
 * alone accept leading blanks, signs on unsigned values (wrapping them),
 * "nan", "inf" and overflow clamped to the largest value: each of those
 * let a typo switch a limit off, so they are rejected here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util/num.h"

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int num_int(const char *s, int *neg, uint64_t *mag) {
  *neg = 0;
  *mag = 0;
  if (*s == '-') { *neg = 1; s++; }
  uint64_t v = 0;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s += 2;
    if (!*s) return NUM_BAD_SYNTAX;
    for (; *s; s++) {
      int h = hexval((unsigned char)*s);
      if (h < 0) return NUM_BAD_SYNTAX;
      if (v >> 60) return NUM_OUT_OF_RANGE;
      v = v << 4 | (uint64_t)h;
    }
  } else {
    if (!*s) return NUM_BAD_SYNTAX;
    for (; *s; s++) {
      if (*s < '0' || *s > '9') return NUM_BAD_SYNTAX;
      unsigned d = (unsigned)(*s - '0');
      if (v > (UINT64_MAX - d) / 10) return NUM_OUT_OF_RANGE;
      v = v * 10 + d;
    }
  }
  *mag = v;
  return 0;
}

/* Only digits, one '.', and an exponent: what strtod may read here (it
 * would also take blanks, signs, hex floats, "nan" and "inf"). */
static int plain_decimal(const char *s, size_t n) {
  size_t i = 0, digits = 0;
  while (i < n && s[i] >= '0' && s[i] <= '9') { i++; digits++; }
  if (i < n && s[i] == '.') { i++; while (i < n && s[i] >= '0' && s[i] <= '9') { i++; digits++; } }
  if (!digits) return 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    size_t e0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    if (i == e0) return 0;
  }
  return i == n;
}

/* A plain decimal of n characters -> a finite double; 0 or an error. */
static int decimal(const char *s, size_t n, double *out) {
  if (!n || n > 400 || !plain_decimal(s, n)) return NUM_BAD_SYNTAX;
  char buf[402];
  memcpy(buf, s, n);
  buf[n] = 0;
  double v = strtod(buf, NULL);
  if (!isfinite(v)) return NUM_OUT_OF_RANGE;
  *out = v;
  return 0;
}

int num_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  int neg;
  uint64_t v;
  int rc = num_int(s, &neg, &v);
  if (rc == NUM_BAD_SYNTAX && *s != '-') {
    double d;
    rc = decimal(s, strlen(s), &d);
    if (rc) return rc;
    if (d != floor(d)) return NUM_BAD_SYNTAX;
    if (d >= 18446744073709551616.0) return NUM_OUT_OF_RANGE;
    v = (uint64_t)d;
  }
  if (rc) return rc;
  if (neg && v) return NUM_OUT_OF_RANGE;
  if (v < lo || v > hi) return NUM_OUT_OF_RANGE;
  *out = v;
  return 0;
}

int num_s64(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  int neg;
  uint64_t v;
  int rc = num_int(s, &neg, &v);
  if (rc) return rc;
  if (v > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) return NUM_OUT_OF_RANGE;
  int64_t x = neg ? (int64_t)(0 - v) : (int64_t)v;
  if (x < lo || x > hi) return NUM_OUT_OF_RANGE;
  *out = x;
  return 0;
}

int num_f64(const char *s, double lo, double hi, double *out) {
  const char *p = *s == '-' ? s + 1 : s;
  double v;
  int rc = decimal(p, strlen(p), &v);
  if (rc) return rc;
  if (p != s) v = -v;
  if (!(v >= lo && v <= hi)) return NUM_OUT_OF_RANGE;
  *out = v;
  return 0;
}

int num_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  size_t n = strlen(s);
  if (n && (s[n - 1] == 'B' || s[n - 1] == 'b')) n--;
  double mul = 1;
  if (n) switch (s[n - 1]) {
  case 'k': case 'K': mul = 1024.0; n--; break;
  case 'm': case 'M': mul = 1024.0 * 1024; n--; break;
  case 'g': case 'G': mul = 1024.0 * 1024 * 1024; n--; break;
  case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; n--; break;
  }
  double v;
  int rc = decimal(s, n, &v);
  if (rc) return rc;
  v *= mul;
  if (v != floor(v)) return NUM_BAD_SYNTAX;
  if (v >= 18446744073709551616.0 || (uint64_t)v < lo || (uint64_t)v > hi) return NUM_OUT_OF_RANGE;
  *out = (uint64_t)v;
  return 0;
}

int num_dims3(const char *s, const uint64_t hi[3], uint32_t out[3], int *which) {
  char sep = strchr(s, ',') ? ',' : 'x';
  *which = 0;
  out[0] = out[1] = out[2] = 1;
  for (int d = 0; d < 3; d++) {
    const char *e = strchr(s, sep);
    size_t n = e ? (size_t)(e - s) : strlen(s);
    char buf[32];
    if (!n || n >= sizeof buf) return NUM_BAD_SYNTAX;
    memcpy(buf, s, n);
    buf[n] = 0;
    uint64_t v;
    int neg;
    int rc = num_int(buf, &neg, &v);
    if (rc == 0 && (neg || v < 1 || v > hi[d])) rc = NUM_OUT_OF_RANGE;
    if (rc) { *which = d; return rc; }
    out[d] = (uint32_t)v;
    if (!e) return 0;
    s = e + 1;
  }
  return NUM_BAD_SYNTAX;            /* a fourth value */
}
