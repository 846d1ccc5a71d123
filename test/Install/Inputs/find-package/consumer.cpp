// Registers the installed nvfp4 dialect and counts its operations.
#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::nvfp4::NVFP4Dialect>();
  mlir::MLIRContext context(registry);
  auto *dialect = context.getOrLoadDialect<mlir::nvfp4::NVFP4Dialect>();
  unsigned ops = 0;
  for (mlir::RegisteredOperationName name : context.getRegisteredOperations())
    if (&name.getDialect() == dialect)
      ++ops;
  llvm::outs() << "dialect " << dialect->getNamespace() << ": " << ops
               << " ops\n";
  return ops == 0;
}
