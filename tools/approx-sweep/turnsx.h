/* tools/approx-sweep/turnsx.h - an f32 input of sin/cos.approx whose angle
 * in turns, FMUL.RZ(x, 1/2pi), truncated to 25 fraction bits is W (the
 * quadrant in bits 24-23, the table index u below): the MUFU.SIN/COS unit
 * sees only W (measured), so these inputs dump its whole table.  Where no
 * f32 x gives W (their products are coarser than 2^-25 from x = 2 up) the
 * nearest is returned; turns_w tells which W an input gives. */
#include <math.h>
#include "emu/fp.h"

static inline uint32_t turns_w(uint32_t x) {
  double t = fp_f32_val(fp32_mul_dir(x & 0x7FFFFFFFu, 0x3E22F983u, FP_RZ, 0, 0));
  return (uint32_t)floor((t - trunc(t)) * 0x1p25);
}
static inline uint32_t turns_x(uint32_t w) {
  double c = fp_f32_val(0x3E22F983u);
  uint32_t x = fp_f32_bits((float)((w + 0.5) * 0x1p-25 / c));
  for (int i = 0; i < 16 && turns_w(x) > w && x > 0; i++) x--;
  for (int i = 0; i < 16 && turns_w(x) < w; i++) x++;
  return x;
}
