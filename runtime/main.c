//===- main.c - main() of executables built by mlxc --------------*- C -*-===//
//
// Kept apart from the library so that programs embedding mlxrt can have a
// main of their own; only executables link this object.
//
//===----------------------------------------------------------------------===//

#include "mlxrt_api.h"

int main(int argc, char **argv) { return mlxrt_main(argc, argv); }
