//===- Chips.h - the chips nvfp4 compiles for and what they offer -*- C++
//-*-===//
//
// The one table of chip facts the compiler uses: which targets exist, the
// PTX feature level they need, what they support and the sizes the cost
// model plans with. A new chip is one row here (docs/design.md lists the
// places a new chip touches beyond it). Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_CHIPS_H
#define NVFP4_SUPPORT_CHIPS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace nvfp4 {

/// Threads of a warp, on every chip the compiler targets.
inline constexpr int64_t kWarpSize = 32;
/// Threads a CTA holds at most, on every chip the compiler targets.
inline constexpr int64_t kMaxCtaThreads = 1024;
/// CTAs a thread-block cluster holds on every chip of the table without
/// the non-portable opt-in (sm_90 and later).
inline constexpr int64_t kMaxPortableClusterCtas = 8;
/// Registers a thread is allotted in multiples of, on every chip the
/// compiler targets (a warp's registers come in units of 256).
inline constexpr int64_t kRegisterAllocationUnit = 8;
/// Sub-partitions of an SM, each with a quarter of its register file and
/// the warps given to it in turn: the sub-partition with the most warps
/// bounds what an SM holds (two CTAs of 11 warps give 6 warps to two of
/// them, which at 88 registers a thread need 16896 of their 16384: the
/// H200 holds one such CTA an SM, docs/benchmarks.md).
inline constexpr int64_t kSmSubPartitions = 4;
/// Shared memory one CTA may use on sm_90a and sm_100a (227 KiB; a kernel
/// declares at most 48 KiB statically, the rest is dynamic and opted into
/// at launch).
inline constexpr int64_t kMaxCtaSharedBytes = 227 * 1024;
inline constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
/// Bytes of an mbarrier object in shared memory (PTX: an aligned .b64).
inline constexpr int64_t kMbarrierBytes = 8;
/// A cache line of L1 and L2 (one L2 request for the bytes a warp's load
/// reads of it) and the sectors it is filled by, on every chip the
/// compiler targets.
inline constexpr int64_t kCacheLineBytes = 128;
inline constexpr int64_t kSectorBytes = 32;

struct ChipInfo {
  std::string_view name;        // PTX target, e.g. "sm_90a"
  std::string_view ptxFeatures; // NVVM target features
  int64_t smCount;              // SMs of the part the defaults are tuned on
  int64_t maxThreadsPerSM;
  int64_t registersPerSM; // 32-bit registers
  bool e2m1Convert;       // cvt.rn.f16x2.e2m1x2
  bool tcgen05;           // Blackwell tensor cores
  /// Read-once ceiling of one isolated kernel streaming `bytes` once (cold
  /// L2): `fixedMicros + bytes / bytesPerMicro`. Measured on the H200
  /// (docs/problem.md); the B200 row scales it by its datasheet bandwidth.
  double fixedMicros;
  double bytesPerMicro;
};

/// Every chip nvfp4 compiles for. PTX 8.8 covers both targets (and the
/// tcgen05 instructions of sm_100a).
inline constexpr ChipInfo kChips[] = {
    {"sm_90a", "+ptx88", 132, 2048, 65536, false, false, 3.9, 4.6e6},
    {"sm_100a", "+ptx88", 148, 2048, 65536, true, true, 3.9, 7.2e6},
};

/// The chip named `name`, or null when nvfp4 does not compile for it.
inline const ChipInfo *findChip(std::string_view name) {
  for (const ChipInfo &chip : kChips)
    if (chip.name == name)
      return &chip;
  return nullptr;
}

/// "sm_90a or sm_100a": the known chips, for diagnostics.
inline std::string knownChipNames() {
  std::string names;
  for (size_t i = 0; i < std::size(kChips); ++i) {
    if (i)
      names += i + 1 == std::size(kChips) ? " or " : ", ";
    names += kChips[i].name;
  }
  return names;
}

} // namespace nvfp4

#endif // NVFP4_SUPPORT_CHIPS_H
