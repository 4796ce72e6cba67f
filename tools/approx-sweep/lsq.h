/* tools/approx-sweep/lsq.h - the least-squares quadratic that seeds each
 * segment's search for the hardware's coefficients (fit_datapath, fit_trig,
 * fit_tanh): c[0..2] of c0 + c1 t + c2 t^2 closest to y[x] over
 * x = x0 .. n-1, t = x / n. */
#ifndef APPROX_SWEEP_LSQ_H
#define APPROX_SWEEP_LSQ_H
#include <stdint.h>
static void lsq_quad(const double *y, uint32_t x0, uint32_t n, double *c) {
  double m[3][4] = {{0}};
  for (uint32_t x = x0; x < n; x++) {
    double t = (double)x / n, p[3] = {1, t, t * t};
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) m[i][j] += p[i] * p[j];
      m[i][3] += p[i] * y[x];
    }
  }
  for (int i = 0; i < 3; i++)
    for (int k = i + 1; k < 3; k++) {
      double f = m[k][i] / m[i][i];
      for (int j = i; j < 4; j++) m[k][j] -= f * m[i][j];
    }
  for (int i = 2; i >= 0; i--) {
    double v = m[i][3];
    for (int j = i + 1; j < 3; j++) v -= m[i][j] * c[j];
    c[i] = v / m[i][i];
  }
}
#endif
