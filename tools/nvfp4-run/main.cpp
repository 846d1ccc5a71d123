//===- main.cpp - nvfp4-run: verify and time nvfp4 kernels ----------------===//
//
// Reads the manifests first (no GPU needed, so a bad manifest fails the same
// way everywhere), then loads the CUDA driver and runs each kernel.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Report.h"
#include "nvfp4-run/Runner.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace nvfp4::run;

namespace {

void printError(const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "nvfp4-run: error: %s\n", message.c_str());
  std::fflush(stderr);
}

void printLine(const std::string &line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

/// An error that concerns one manifest: one line on stderr and, with
/// --json, an error object so that every manifest yields one object.
void reportManifestError(const Options &options, const std::string &path,
                         const std::string &message) {
  printError(message);
  if (options.json)
    printLine(formatJsonError(path, message));
}

struct Job {
  Manifest manifest;
  float alpha = 1;
};

} // namespace

int main(int argc, char **argv) {
  std::string error;
  std::optional<Options> options = parseOptions(argc, argv, error);
  if (!options) {
    printError(error);
    return 2;
  }
  if (options->help) {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }

  bool failed = false;
  std::vector<Job> jobs;
  for (const std::string &path : options->manifests) {
    std::optional<Manifest> manifest = loadManifest(path, error);
    std::optional<float> alpha;
    if (manifest) {
      error = checkShape(*options, *manifest);
      if (!error.empty())
        error = path + ": " + error;
      else if (!(alpha = chooseAlpha(*options, *manifest, error)))
        error = path + ": " + error;
    }
    if (!manifest || !alpha) {
      reportManifestError(*options, path, error);
      failed = true;
      continue;
    }
    if (options->checkOnly)
      printLine("OK " + describe(*manifest) + " " + manifest->chip.name + " [" +
                path + "]");
    jobs.push_back({std::move(*manifest), *alpha});
  }
  if (options->checkOnly || jobs.empty())
    return failed ? 1 : 0;

  cuda::Driver driver;
  if (!driver.load(error)) {
    printError(error);
    return 1;
  }
  Runner runner(driver);
  error = runner.init();
  if (!error.empty()) {
    printError(error);
    return 1;
  }
  const DeviceInfo &device = runner.device();
  if (options->bench && !options->json)
    printLine("DEVICE " + device.name + " (sm_" + std::to_string(device.major) +
              std::to_string(device.minor) + ", " +
              std::to_string(device.multiprocessors) + " SMs, L2 " +
              std::to_string(device.l2Bytes >> 20) + " MiB, driver " +
              std::to_string(device.driverVersion / 1000) + "." +
              std::to_string(device.driverVersion % 1000 / 10) + ")");

  for (const Job &job : jobs) {
    const Manifest &manifest = job.manifest;
    error =
        checkChipRunsOn(manifest.chip, device.major, device.minor, device.name);
    if (!error.empty()) {
      reportManifestError(*options, manifest.path,
                          manifest.path + ": " + error);
      failed = true;
      continue;
    }

    RunConfig config;
    config.seed = options->seed;
    config.dist = options->dist;
    config.alpha = job.alpha;
    config.rtol = options->rtol;
    config.atol = options->atol;
    config.bench = options->bench;
    config.reps = options->reps;
    config.flush = options->flush;
    bool copyKnown = runner.copyGBps() > 0;
    VerifyResult result;
    std::optional<BenchResult> bench;
    error = runner.run(manifest, config, result, bench);
    if (!error.empty()) {
      reportManifestError(*options, manifest.path,
                          manifest.path + ": " + error);
      failed = true;
      continue;
    }
    failed |= !result.pass;
    if (options->json) {
      printLine(formatJson(manifest, result, bench ? &*bench : nullptr));
      continue;
    }
    printLine(formatVerify(manifest, result));
    if (!copyKnown && runner.copyGBps() > 0)
      printLine(
          formatCopy(runner.copyGBps(), Runner::kCopyBytes, Runner::kCopyReps));
    if (bench)
      printLine(formatBench(manifest, *bench));
  }
  return failed ? 1 : 0;
}
