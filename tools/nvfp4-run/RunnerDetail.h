//===- RunnerDetail.h - What the runs of kernels share ---------*- C++ -*-===//
//
// The pieces of Runner.cpp that a sequence run (SequenceRunner.cpp) uses
// too: the context, the workload of one kernel and its launch. Internal to
// nvfp4-run.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_RUNNERDETAIL_H
#define NVFP4_RUN_RUNNERDETAIL_H

#include "nvfp4-run/Checks.h"
#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Manifest.h"

#include <array>
#include <string>
#include <vector>

/// Returns "CALL: error string (NAME = n)" from the enclosing function when
/// a driver call fails.
#define CU_CHECK(call, ...)                                                    \
  do {                                                                         \
    if (CUresult status_ = driver.call(__VA_ARGS__))                           \
      return driver.describe(#call, status_);                                  \
  } while (false)

namespace nvfp4::run::detail {

using namespace nvfp4::run::cuda;

/// Owns a context for one manifest. Destroying it frees every allocation,
/// module and event made in it, so that error paths need no cleanup code.
class ScopedContext {
public:
  explicit ScopedContext(const Driver &driver) : driver(driver) {}
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;
  // Only reached with a live handle after an error was already reported, so
  // a failure to destroy adds nothing worth printing.
  ~ScopedContext() {
    if (handle)
      driver.cuCtxDestroy(handle);
  }

  /// Destroys the context on the success path, where failure is reported.
  std::string release() {
    CUcontext context = handle;
    handle = nullptr;
    CU_CHECK(cuCtxDestroy, context);
    return "";
  }

  CUcontext handle = nullptr;

private:
  const Driver &driver;
};

/// What one kernel needs to be launched, checked and rated; set up per op,
/// then launched, verified and timed by the same code.
struct Workload {
  std::array<CUdeviceptr, kNumParams> buffers{}; // indexed by Param
  float alpha = 1;
  std::vector<Output> outputs;
  int64_t uniqueBytes = 0;
  Check check;

  CUdeviceptr pointer(const Output &out) const {
    return buffers[int(out.param)];
  }
  /// Verifying launches: one per fill of the longest poison list.
  size_t poisonRounds() const {
    size_t rounds = 0;
    for (const Output &out : outputs)
      rounds = std::max(rounds, out.poisons.size());
    return rounds;
  }
};

/// Allocates `ptr` and copies `host` into it.
std::string upload(const Driver &driver, CUdeviceptr &ptr,
                   const std::vector<uint8_t> &host);
/// Fills every output with its poison of round `round`.
std::string poisonOutputs(const Driver &driver, const Workload &work,
                          size_t round);
/// Copies every output back and checks it.
std::string checkOutputs(const Driver &driver, const Workload &work,
                         VerifyResult &result);
/// Encodes the tensor maps of `manifest` for the buffers of `work`.
std::string setUpTensorMaps(const Driver &driver, const Manifest &manifest,
                            Workload &work);

/// A loaded kernel and what the driver says of it.
struct Kernel {
  CUfunction function = nullptr;
  int registers = -1, localBytes = -1;
  int residentCtas = -1; // CTAs an SM holds at once; -1 when unknown
};
/// JIT-compiles the manifest's PTX (its log quoted on failure) and gets the
/// kernel, with the shared memory it needs opted into.
std::string loadKernel(const Driver &driver, const Manifest &manifest,
                       Kernel &kernel);
/// Launches the kernel with the manifest's grid, block and shared memory.
std::string launchKernel(const Driver &driver, const Manifest &manifest,
                         CUfunction function, void **args);

} // namespace nvfp4::run::detail

#endif // NVFP4_RUN_RUNNERDETAIL_H
