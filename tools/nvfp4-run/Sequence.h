//===- Sequence.h - The kernels of one host function, in order --*- C++ -*-===//
//
// A sequence file (ManifestSchema.h) lists the launches of one host function
// in program order and the function arguments they share. nvfp4-run
// --sequence runs them in that order on one device buffer per argument, so
// that a kernel reads what the one before wrote, and checks each against the
// reference computed from the inputs it actually read.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_SEQUENCE_H
#define NVFP4_RUN_SEQUENCE_H

#include "nvfp4-run/Json.h"
#include "nvfp4-run/Manifest.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvfp4::run {

/// What a kernel parameter is bound to: a function argument (a buffer, or
/// with `scalar` the f32 alpha), or with `tensorMap` the map the runner
/// encodes for the buffer it describes.
struct SequenceArg {
  int64_t arg = -1;
  bool scalar = false, tensorMap = false;
};

struct SequenceLaunch {
  Manifest manifest;
  /// One per manifest.params entry, in that order.
  std::vector<SequenceArg> args;

  /// The function argument bound to buffer parameter `param` (-1 if none).
  int64_t bufferOf(Param param) const;
};

struct Sequence {
  std::string path; // the sequence file, for diagnostics
  std::string function;
  std::map<int64_t, int64_t> buffers; // function argument -> bytes
  std::vector<SequenceLaunch> launches;
};

/// Reads the fields of a parsed sequence, loads each manifest it names
/// (loadManifest; relative paths against `baseDir`) and checks that every
/// launch binds each of its manifest's params, each buffer to an argument of
/// the size the kernel expects. Errors are one line.
std::optional<Sequence> parseSequence(const json::Document &doc,
                                      std::string_view baseDir,
                                      std::string &error);

/// Reads and parses the sequence file at `path`. Errors are one line,
/// prefixed with the path.
std::optional<Sequence> loadSequence(const std::string &path,
                                     std::string &error);

/// For each buffer some launch reads before any launch writes it (an input
/// of the sequence), the index of the first launch that reads it: that
/// kernel's seeded generator fills it.
std::map<int64_t, size_t> sequenceInputs(const Sequence &sequence);

/// "" unless a launch writes a buffer an earlier launch read: each timed
/// repetition then feeds the earlier launch other inputs than the ones it
/// was verified on, so --bench cannot re-verify it; then a one-line reason.
std::string rewrittenInput(const Sequence &sequence);

/// The launch's description in messages: "launch 2 (gemv.json)".
std::string describeLaunch(const Sequence &sequence, size_t index);

} // namespace nvfp4::run

#endif // NVFP4_RUN_SEQUENCE_H
