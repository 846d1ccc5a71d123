//===- Chip.h - PTX target names and what they run on -----------*- C++ -*-===//
//
// A kernel is only run where the driver could load it: refusing early gives
// one clear line instead of a JIT error deep inside cuModuleLoadDataEx.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_CHIP_H
#define NVFP4_RUN_CHIP_H

#include <optional>
#include <string>
#include <string_view>

namespace nvfp4::run {

/// A PTX target such as sm_90, sm_90a or sm_100f.
struct Chip {
  int major = 0, minor = 0;
  /// 0 for a plain target, 'a' for architecture-specific ("sm_90a"), 'f'
  /// for family-specific ("sm_100f").
  char suffix = 0;
  std::string name;
};

/// Parses "sm_<digits>[a|f]"; the last digit is the minor version.
std::optional<Chip> parseChip(std::string_view name);

/// Whether a kernel built for `chip` runs on a device of compute capability
/// major.minor: sm_XYa needs exactly X.Y, sm_XYf the same major and a minor
/// of at least Y, plain sm_XY any capability >= X.Y (PTX is forward
/// compatible). Returns an empty string when it runs, else the reason, e.g.
/// "kernel built for sm_100a cannot run on NVIDIA H200 (sm_90)".
std::string checkChipRunsOn(const Chip &chip, int major, int minor,
                            std::string_view deviceName);

} // namespace nvfp4::run

#endif // NVFP4_RUN_CHIP_H
