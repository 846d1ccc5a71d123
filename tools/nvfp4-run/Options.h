//===- Options.h - nvfp4-run command line -----------------------*- C++ -*-===//
#ifndef NVFP4_RUN_OPTIONS_H
#define NVFP4_RUN_OPTIONS_H

#include "nvfp4-run/Manifest.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nvfp4::run {

/// How the cold-L2 flush before each timed launch leaves the L2: Clean
/// writes the flush buffer and reads it back (no write-back lands in the
/// timed kernel), Dirty only writes it (as the GPU MODE harness does).
enum class FlushMode { Clean, Dirty };

struct Options {
  std::vector<std::string> manifests;
  std::string sequence; // --sequence: a sequence file instead of manifests
  uint64_t seed = 1;
  ref::Distribution dist = ref::Distribution::Full;
  std::optional<float> alpha; // default: see chooseAlpha
  bool bench = false;
  int reps = 200;
  FlushMode flush = FlushMode::Clean;
  int chain = 1;    // launches per timed interval, each on its own inputs
  bool pdl = false; // launches 2..chain under programmatic dependent launch
  bool timeFailing = false; // time kernels whose output fails the check too
  bool json = false;
  bool checkOnly = false;   // validate manifests and PTX, no GPU
  int timeoutSeconds = 300; // per manifest; a hung kernel is killed
  double rtol = 1e-3, atol = 1e-3;
  std::optional<int64_t> m, k, l, n; // expected shape, when given
  bool help = false;
};

/// Fewest timed repetitions --bench accepts (docs/problem.md section 4).
inline constexpr int kMinBenchReps = 100;

/// Bounds of --chain.
inline constexpr int kMaxChain = 16;

/// Parses argv[1..argc). Options take their value as the next argument or
/// after '=' ("--seed 3", "--seed=3"). Returns nullopt with a one-line
/// `error` on a malformed command line.
std::optional<Options> parseOptions(int argc, const char *const *argv,
                                    std::string &error);

/// The --help text.
std::string usage();

/// Kernels are specialised on their shape: an explicit --m/--k/--l/--n that
/// differs from the manifest is an error ("kernel was built for M=..., K=...,
/// L=...; got M=..., K=..., L=...", with N when the kernel takes several
/// vectors or --n is given). For a conversion --m and --l stand for its rows
/// and batches and --k and --n are refused; for a quantize,
/// quantize_global_scale or dequantize --m stands for its rows and --n is
/// refused. Empty when consistent.
std::string checkShape(const Options &options, const Manifest &manifest);

/// The inputs --dist draws must suit the kernel: a gemv of 16-bit vectors
/// takes full only (the other distributions need packed e2m1 vectors, or
/// the any-order bound that covers those alone), and so do the quantizers,
/// whose inputs have one distribution. Empty when they do.
std::string checkInputs(const Options &options, const Manifest &manifest);

/// --pdl lets a launch start before the one it follows ends: the kernel
/// must wait for it (griddepcontrol.wait, which kernels compiled with
/// pdl=true contain). Empty when it does or without --pdl.
std::string checkPdl(const Options &options, const Manifest &manifest);

/// The alpha to run with: --alpha when given, else 0.75 for kernels that
/// take alpha (so that its handling is exercised) and 1 for kernels that do
/// not. A kernel without alpha accepts only --alpha 1.
std::optional<float> chooseAlpha(const Options &options,
                                 const Manifest &manifest, std::string &error);

inline constexpr float kDefaultAlpha = 0.75f;

const char *name(FlushMode mode);

} // namespace nvfp4::run

#endif // NVFP4_RUN_OPTIONS_H
