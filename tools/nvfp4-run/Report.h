//===- Report.h - What nvfp4-run prints -------------------------*- C++ -*-===//
//
// Results and their text/JSON forms, kept apart from the driver code so that
// the exact output format is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_REPORT_H
#define NVFP4_RUN_REPORT_H

#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Options.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nvfp4::run {

struct VerifyResult {
  bool pass = false;
  double maxAbsError = 0, relError = 0;
  int64_t firstMismatch = -1; // flat index l * M + m into c
  int64_t nanCount = 0;
  double got = 0, expected = 0; // at firstMismatch
  uint64_t seed = 0;
  ref::Distribution dist = ref::Distribution::Full;
  float alpha = 1;
  bool afterTiming = false; // the output went wrong during --bench
};

/// Median and minimum of event timings.
struct Timing {
  double medianUs = 0, minUs = 0;
  int reps = 0;
};
/// Summarises elapsed times given in milliseconds (as cuEventElapsedTime
/// reports them); the median of an even count is the mean of the middle two.
Timing summarize(std::vector<float> elapsedMs);

struct BenchResult {
  Timing kernel;
  double copyGBps = 0; // device copy bandwidth, bytes read + written
  int64_t uniqueBytes = 0;
  int registers = -1, localBytes = -1; // from cuFuncGetAttribute
  FlushMode flush = FlushMode::Clean;

  double gbps() const { return uniqueBytes / (kernel.medianUs * 1e3); }
  double percentOfCopy() const { return 100 * gbps() / copyGBps; }
  /// Time the kernel's bytes would take at copy bandwidth.
  double floorUs() const { return uniqueBytes / (copyGBps * 1e3); }
};

/// "PASS gemv 7168x16384x1 nvfp4 linear f16: max_abs_err=..., rel_err=...
/// [seed=1 dist=full alpha=0.75 file.json]" or "FAIL ...: first mismatch at
/// l=.., m=..: got .., expected ..; ...".
std::string formatVerify(const Manifest &manifest, const VerifyResult &result);
/// "BENCH gemv ...: 21.35 us median (min 20.90 us, 200 reps), 3095 GB/s,
/// 72.5% of copy (4270 GB/s), floor 15.48 us [file.json]".
std::string formatBench(const Manifest &manifest, const BenchResult &result);
/// "COPY 1024 MiB device-to-device: 4270 GB/s (median of 20)".
std::string formatCopy(double gbps, int64_t bytes, int reps);
/// One JSON object on one line; `bench` may be null.
std::string formatJson(const Manifest &manifest, const VerifyResult &result,
                       const BenchResult *bench);
/// {"manifest": ..., "status": "error", "error": ...}
std::string formatJsonError(const std::string &manifestPath,
                            const std::string &error);

} // namespace nvfp4::run

#endif // NVFP4_RUN_REPORT_H
