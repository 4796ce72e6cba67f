/* util/num.h - strict numbers for command lines and input files: the whole
 * text is the number (no blanks, no trailing characters), in the range the
 * caller gives; NaN and infinities are never numbers.  Callers name the
 * option or field and the accepted range in their message. */
#ifndef UTIL_NUM_H
#define UTIL_NUM_H
#include <stdint.h>

enum { NUM_BAD_SYNTAX = -1, NUM_OUT_OF_RANGE = -2 };

/* [-](decimal | 0x hex): the sign and the magnitude; 0, NUM_BAD_SYNTAX or
 * NUM_OUT_OF_RANGE (more than 64 bits). */
int num_int(const char *s, int *neg, uint64_t *mag);
/* An unsigned whole number in [lo, hi]: decimal, 0x hex, or a decimal with
 * a fraction or exponent whose value is whole (2e9, 1.5e3); 0 or an error. */
int num_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* A signed whole number (decimal or 0x hex) in [lo, hi]; 0 or an error. */
int num_s64(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* A finite real number in [lo, hi]; 0 or an error. */
int num_f64(const char *s, double lo, double hi, double *out);
/* A byte count: a number (fractions allowed) with an optional K, M, G or T
 * (powers of 1024) and an optional B, whole and in [lo, hi]; 0 or an error. */
int num_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* "X", "X,Y", "X,Y,Z", "XxY" or "XxYxZ": up to three whole numbers, each in
 * [1, hi[i]] (missing ones are 1); 0, NUM_BAD_SYNTAX, or NUM_OUT_OF_RANGE
 * with *which the index of the bad one. */
int num_dims3(const char *s, const uint64_t hi[3], uint32_t out[3], int *which);
#endif
