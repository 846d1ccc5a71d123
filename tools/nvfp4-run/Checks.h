//===- Checks.h - Inputs and verification of each op ------------*- C++ -*-===//
//
// The one home of each op's verification, kept apart from the driver: which
// buffers a kernel writes (and the fills that catch bytes left unwritten),
// its seeded inputs, and the check of its outputs against the float64
// reference computed from the inputs it read, whether generated here or
// written by an earlier kernel of a sequence.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_CHECKS_H
#define NVFP4_RUN_CHECKS_H

#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Report.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nvfp4::run {

struct RunConfig;

/// Host bytes of each buffer parameter, indexed by Param (empty for those
/// the kernel does not read).
using ParamBytes = std::array<std::vector<uint8_t>, kNumParams>;

/// A buffer the kernel writes.
struct Output {
  Param param;
  size_t bytes = 0;
  /// Fills before the verifying launches, the i-th before launch i (the
  /// last one again when the list is shorter than another output's). A
  /// byte the kernel does not write keeps its fill, which must then fail.
  std::vector<uint8_t> poisons;
};

/// What the kernel wrote, one byte vector per output, in outputsOf order.
using Written = std::vector<std::vector<uint8_t>>;
using Check = std::function<VerifyResult(const Written &)>;

/// The buffers `manifest`'s kernel writes (manifest::writes), in the order
/// of Param (data before scales): the order its check takes them in.
std::vector<Output> outputsOf(const Manifest &manifest);

/// The buffers the kernel reads, in the order of Param.
std::vector<Param> inputsOf(const Manifest &manifest);

/// Fills `in` with the seeded inputs of every buffer the kernel reads.
/// Returns a one-line error when the reference made buffers of unexpected
/// sizes.
std::string generateInputs(const Manifest &manifest, const RunConfig &config,
                           ParamBytes &in);

/// Sets `check` to the verification of the kernel's outputs against the
/// reference computed from `in`, the bytes of the buffers it read. Returns
/// a one-line error when `in` cannot be checked against (a two-level
/// quantize given a global scale other than the reference's).
std::string makeCheck(const Manifest &manifest, const RunConfig &config,
                      const ParamBytes &in, Check &check);

} // namespace nvfp4::run

#endif // NVFP4_RUN_CHECKS_H
