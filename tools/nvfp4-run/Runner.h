//===- Runner.h - Verify and time one kernel on the GPU ---------*- C++ -*-===//
#ifndef NVFP4_RUN_RUNNER_H
#define NVFP4_RUN_RUNNER_H

#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Report.h"
#include "nvfp4-run/Sequence.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nvfp4::run {

struct RunConfig {
  uint64_t seed = 1;
  ref::Distribution dist = ref::Distribution::Full;
  float alpha = 1;
  double rtol = 1e-3, atol = 1e-3;
  bool bench = false;
  int reps = 200;
  FlushMode flush = FlushMode::Clean;
  int chain = 1;    // launches per timed interval, each on its own workload
  bool pdl = false; // launches 2..chain with programmatic dependent launch
  /// Times a kernel whose output fails the check as well (a deliberately
  /// altered kernel); its result still fails.
  bool timeFailing = false;
  /// Holds every gemv element to the f32 any-order bound, as for Extreme
  /// inputs: a launch of a sequence may read another launch's outputs,
  /// which no distribution of known tolerance describes.
  bool everyElement = false;
};

struct DeviceInfo {
  std::string name;
  int major = 0, minor = 0;
  int multiprocessors = 0;
  int64_t l2Bytes = 0;
  int driverVersion = 0; // e.g. 13000
};

/// Runs kernels on device 0, each in a context of its own whose destruction
/// frees everything the run allocated. (A faulting kernel still poisons the
/// whole process, hence one process a manifest: Subprocess.h.)
class Runner {
public:
  explicit Runner(const cuda::Driver &driver) : driver(driver) {}

  /// cuInit and device queries. Errors are one line.
  std::string init();
  const DeviceInfo &device() const { return info; }

  /// Verifies the kernel; with config.bench and a pass, also times it
  /// (docs/problem.md section 4) into `bench`. Returns a one-line error when a
  /// CUDA call fails, else "" with `result` filled in.
  std::string run(const Manifest &manifest, const RunConfig &config,
                  VerifyResult &result, std::optional<BenchResult> &bench);

  /// Runs the launches of `sequence` in order on shared buffers and
  /// verifies each against the reference computed from the inputs it read
  /// (SequenceRunner.cpp); `results` gets one entry per launch run, up to
  /// the first that fails. With config.bench and every launch passing, also
  /// times the whole sequence into `bench`. Returns a one-line error when a
  /// CUDA call fails or a check cannot be made.
  std::string runSequence(const Sequence &sequence, const RunConfig &config,
                          std::vector<VerifyResult> &results,
                          std::optional<BenchResult> &bench);

  /// Device copy bandwidth (bytes read + written per second / 1e9), measured
  /// once in the first --bench run; 0 until then.
  double copyGBps() const { return copyBandwidth; }
  /// Reuses a bandwidth measured earlier in this run (by another process).
  void setCopyGBps(double gbps) { copyBandwidth = gbps; }
  static constexpr int64_t kCopyBytes = int64_t(1) << 30;
  static constexpr int kCopyReps = 20;

private:
  const cuda::Driver &driver;
  cuda::CUdevice deviceHandle = 0;
  DeviceInfo info;
  double copyBandwidth = 0;

  std::string measureCopyBandwidth();
  /// Times config.reps calls of `launchAll` (one interval each, the L2
  /// cold before each; docs/problem.md section 4) into `elapsed`, in ms.
  std::string timeColdL2(const RunConfig &config,
                         const std::function<std::string()> &launchAll,
                         std::vector<float> &elapsed);
};

} // namespace nvfp4::run

#endif // NVFP4_RUN_RUNNER_H
