/* Calls a graph compiled with mlxc --emit=lib through its header. */
#include "mlp.h"
#include <stdio.h>
int main(void) {
  static float x[8 * 64], w1[256 * 64], b1[256], w2[10 * 256], b2[10],
      y[8 * 10];
  for (int i = 0; i < 8 * 64; ++i)
    x[i] = (float)(i % 7) * 0.1f;
  for (int i = 0; i < 256 * 64; ++i)
    w1[i] = (float)((i % 5) - 2) * 0.01f;
  for (int i = 0; i < 10 * 256; ++i)
    w2[i] = (float)((i % 3) - 1) * 0.01f;
  for (int i = 0; i < 256; ++i)
    b1[i] = 0.1f;
  for (int i = 0; i < 10; ++i)
    b2[i] = (float)i;
  mlxc_mlp(x, w1, b1, w2, b2, y);
  for (int i = 0; i < 8 * 10; ++i)
    printf("%.7g\n", y[i]);
  return 0;
}
