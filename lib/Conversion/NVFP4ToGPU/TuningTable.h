//===- TuningTable.h - per-kernel options a tuning run chose ----*- C++ -*-===//
//
// A tuning table (docs/design.md, "Tuning tables") names gemv kernels and,
// for each, values of the options the cost model would otherwise choose. It
// is written by bench/suite/tune.py from timings on a GPU and read by
// convert-nvfp4-to-gpu's `tuning-table` option.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CONVERSION_NVFP4TOGPU_TUNINGTABLE_H
#define NVFP4_CONVERSION_NVFP4TOGPU_TUNINGTABLE_H

#include "nvfp4/Conversion/Passes.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::nvfp4 {

class TuningTable {
public:
  /// Reads the table at `path` for kernels of `chip`; an error at `loc`
  /// (the module's) when it cannot be read or is not a valid table.
  static FailureOr<TuningTable> load(Location loc, StringRef path,
                                     StringRef chip);

  /// `options` with the values the table gives for `kernel` in the options
  /// `options` leaves to the cost model (0); `options` when the table does
  /// not name `kernel`.
  ConvertNVFP4ToGPUOptions apply(StringRef kernel,
                                 ConvertNVFP4ToGPUOptions options) const;

private:
  /// Kernel name -> (option index in the tunable list, value) pairs.
  llvm::StringMap<SmallVector<std::pair<unsigned, int64_t>>> kernels;
};

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TOGPU_TUNINGTABLE_H
