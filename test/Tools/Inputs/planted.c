// Code an attacker plants in the compile cache: were it ever linked, every
// run of the executable would say so.
#include <stdio.h>

__attribute__((constructor)) static void planted(void) {
  puts("PLANTED CODE RAN");
}
