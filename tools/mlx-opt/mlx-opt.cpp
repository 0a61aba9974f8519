//===- mlx-opt.cpp - the mlxc pass driver ---------------------------------===//

#include "tools/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlxc::registerAllDialects(registry);
  mlxc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mlxc pass driver\n", registry));
}
