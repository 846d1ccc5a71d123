//===- main.cpp - nvfp4-run: verify and time nvfp4 kernels ----------------===//
//
// Reads every manifest first (no GPU needed, so a bad manifest fails the same
// way everywhere), then runs each kernel in a child process of its own
// (Subprocess.h says why). The parent never touches CUDA.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Report.h"
#include "nvfp4-run/Runner.h"
#include "nvfp4-run/Sequence.h"
#include "nvfp4-run/Subprocess.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

using namespace nvfp4::run;

namespace {

/// Exit status of a child that could not reach the device at all (no
/// driver, no device): the parent stops there, so the error prints once.
constexpr int kFatal = 3;

/// An error stays one line of bounded length whatever it quotes (a path
/// given on the command line, say): control characters are escaped and a
/// message beyond 4096 bytes is cut.
std::string oneLine(const std::string &message) {
  constexpr size_t kMaxBytes = 4096;
  std::string out;
  for (unsigned char c : message.substr(0, kMaxBytes)) {
    if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      out += escaped;
    } else {
      out += char(c);
    }
  }
  if (message.size() > kMaxBytes)
    out += "... (" + std::to_string(message.size()) + " bytes)";
  return out;
}

void printError(const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "nvfp4-run: error: %s\n", oneLine(message).c_str());
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
  printError(path + ": " + message);
  if (options.json)
    printLine(formatJsonError(path, path + ": " + message));
}

struct Job {
  Manifest manifest;
  float alpha = 1;
};

/// What one child learnt that the next ones reuse.
struct SharedState {
  double copyGBps = 0;
  bool devicePrinted = false;
};

void sendMessage(int fd, const std::string &message) {
  std::string line = message + "\n";
  ssize_t unused = write(fd, line.data(), line.size());
  (void)unused; // a lost message only costs a second measurement
}

void readMessages(const std::string &messages, SharedState &state) {
  size_t start = 0;
  while (start < messages.size()) {
    size_t end = messages.find('\n', start);
    std::string line = messages.substr(start, end - start);
    if (line == "device")
      state.devicePrinted = true;
    else if (line.rfind("copy ", 0) == 0)
      state.copyGBps = std::strtod(line.c_str() + 5, nullptr);
    start = end == std::string::npos ? messages.size() : end + 1;
  }
}

/// Loads the driver and initialises the runner in the current (child)
/// process; prints the device line once under --bench. Returns 0, or kFatal
/// when CUDA is unusable.
int startDevice(const Options &options, cuda::Driver &driver, Runner &runner,
                const SharedState &state, int reportFd) {
  std::string error;
  if (!driver.load(error)) {
    printError(error);
    return kFatal;
  }
  error = runner.init();
  if (!error.empty()) {
    printError(error);
    return kFatal;
  }
  const DeviceInfo &device = runner.device();
  if (options.bench && !options.json && !state.devicePrinted) {
    printLine("DEVICE " + device.name + " (sm_" + std::to_string(device.major) +
              std::to_string(device.minor) + ", " +
              std::to_string(device.multiprocessors) + " SMs, L2 " +
              std::to_string(device.l2Bytes >> 20) + " MiB, driver " +
              std::to_string(device.driverVersion / 1000) + "." +
              std::to_string(device.driverVersion % 1000 / 10) + ")");
    sendMessage(reportFd, "device");
  }
  runner.setCopyGBps(state.copyGBps);
  return 0;
}

/// The run's configuration from the command line.
RunConfig runConfig(const Options &options, float alpha) {
  RunConfig config;
  config.seed = options.seed;
  config.dist = options.dist;
  config.alpha = alpha;
  config.rtol = options.rtol;
  config.atol = options.atol;
  config.bench = options.bench;
  config.reps = options.reps;
  config.flush = options.flush;
  config.chain = options.chain;
  config.pdl = options.pdl;
  config.timeFailing = options.timeFailing;
  return config;
}

/// Passes a bandwidth measured in this child on to the next ones; true
/// when there was one (its line is then printed).
bool shareCopyBandwidth(const Runner &runner, const SharedState &state,
                        int reportFd) {
  if (state.copyGBps != 0 || runner.copyGBps() == 0)
    return false;
  char value[64];
  std::snprintf(value, sizeof(value), "copy %.17g", runner.copyGBps());
  sendMessage(reportFd, value);
  return true;
}

/// Runs one manifest in the current (child) process. Returns 0 on a pass, 1
/// on a failure or error, kFatal when CUDA is unusable.
int runJob(const Options &options, const Job &job, const SharedState &state,
           int reportFd) {
  cuda::Driver driver;
  Runner runner(driver);
  if (int status = startDevice(options, driver, runner, state, reportFd))
    return status;
  const DeviceInfo &device = runner.device();
  const Manifest &manifest = job.manifest;
  std::string error =
      checkChipRunsOn(manifest.chip, device.major, device.minor, device.name);
  if (!error.empty()) {
    reportManifestError(options, manifest.path, error);
    return 1;
  }

  RunConfig config = runConfig(options, job.alpha);
  VerifyResult result;
  std::optional<BenchResult> bench;
  error = runner.run(manifest, config, result, bench);
  if (!error.empty()) {
    reportManifestError(options, manifest.path, error);
    return 1;
  }
  bool measuredCopy = shareCopyBandwidth(runner, state, reportFd);
  if (options.json) {
    printLine(formatJson(manifest, result, bench ? &*bench : nullptr));
  } else {
    printLine(formatVerify(manifest, result));
    if (measuredCopy)
      printLine(
          formatCopy(runner.copyGBps(), Runner::kCopyBytes, Runner::kCopyReps));
    if (bench)
      printLine(formatBench(manifest, *bench));
  }
  return result.pass ? 0 : 1;
}

/// Runs a sequence in the current (child) process: one line a launch that
/// ran, then the sequence's. Returns as runJob.
int runSequenceJob(const Options &options, const Sequence &sequence,
                   float alpha, const SharedState &state, int reportFd) {
  cuda::Driver driver;
  Runner runner(driver);
  if (int status = startDevice(options, driver, runner, state, reportFd))
    return status;
  const DeviceInfo &device = runner.device();
  for (const SequenceLaunch &launch : sequence.launches)
    if (std::string error = checkChipRunsOn(launch.manifest.chip, device.major,
                                            device.minor, device.name);
        !error.empty()) {
      reportManifestError(options, launch.manifest.path, error);
      return 1;
    }
  std::vector<VerifyResult> results;
  std::optional<BenchResult> bench;
  if (std::string error = runner.runSequence(
          sequence, runConfig(options, alpha), results, bench);
      !error.empty()) {
    reportManifestError(options, sequence.path, error);
    return 1;
  }
  bool measuredCopy = shareCopyBandwidth(runner, state, reportFd);
  bool pass = results.size() == sequence.launches.size();
  for (size_t i = 0; i < results.size(); ++i) {
    const Manifest &manifest = sequence.launches[i].manifest;
    printLine(options.json ? formatJson(manifest, results[i], nullptr)
                           : formatVerify(manifest, results[i]));
    pass &= results[i].pass;
  }
  if (options.json) {
    printLine(formatJsonSequence(sequence, results, bench ? &*bench : nullptr));
  } else {
    printLine(formatSequence(sequence, results));
    if (measuredCopy)
      printLine(
          formatCopy(runner.copyGBps(), Runner::kCopyBytes, Runner::kCopyReps));
    if (bench)
      printLine(formatSequenceBench(sequence, *bench));
  }
  return pass ? 0 : 1;
}

/// Reports how a child ended when it did not exit on its own; true when
/// the run must stop (CUDA unusable, or no child could be started).
bool reportChild(const Options &options, const std::string &path,
                 const ChildResult &child, bool &failed) {
  switch (child.kind) {
  case ChildResult::Kind::Exited:
    failed |= child.code != 0;
    return child.code == kFatal;
  case ChildResult::Kind::TimedOut:
    reportManifestError(options, path,
                        "stopped after " +
                            std::to_string(options.timeoutSeconds) +
                            " s (kernel hung?)");
    break;
  case ChildResult::Kind::Signaled:
    reportManifestError(options, path,
                        "the run died of signal " + std::to_string(child.code));
    break;
  case ChildResult::Kind::ForkFailed:
    printError("cannot start a child process");
    failed = true;
    return true;
  }
  failed = true;
  return false;
}

/// --sequence: loads and checks the sequence and its manifests, then runs
/// it in a child process. Returns the exit status.
int runSequenceFile(const Options &options) {
  std::string error;
  std::optional<Sequence> sequence = loadSequence(options.sequence, error);
  if (!sequence) {
    printError(error);
    if (options.json)
      printLine(formatJsonError(options.sequence, error));
    return 1;
  }
  for (const SequenceLaunch &launch : sequence->launches)
    if (error = checkInputs(options, launch.manifest); !error.empty()) {
      reportManifestError(options, launch.manifest.path, error);
      return 1;
    }
  // The alpha of the launches that take one (those without compute with
  // 1); when none does, --alpha is refused as for one such kernel.
  auto takesAlpha =
      std::find_if(sequence->launches.begin(), sequence->launches.end(),
                   [](const SequenceLaunch &launch) {
                     return launch.manifest.takesAlpha();
                   });
  const Manifest &rated = takesAlpha != sequence->launches.end()
                              ? takesAlpha->manifest
                              : sequence->launches.front().manifest;
  std::optional<float> alpha = chooseAlpha(options, rated, error);
  if (!alpha) {
    reportManifestError(options, rated.path, error);
    return 1;
  }
  if (options.bench)
    if (error = rewrittenInput(*sequence); !error.empty()) {
      reportManifestError(options, sequence->path, "--bench: " + error);
      return 1;
    }
  if (options.checkOnly) {
    printLine(options.json ? formatJsonSequenceChecked(*sequence)
                           : formatSequenceChecked(*sequence));
    return 0;
  }
  SharedState state;
  ChildResult child = runInChild(
      [&](int reportFd) {
        return runSequenceJob(options, *sequence, *alpha, state, reportFd);
      },
      options.timeoutSeconds);
  bool failed = false;
  reportChild(options, sequence->path, child, failed);
  return failed ? 1 : 0;
}

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
  if (!options->sequence.empty())
    return runSequenceFile(*options);

  bool failed = false;
  std::vector<Job> jobs;
  size_t sequenceFiles = 0;
  for (const std::string &path : options->manifests) {
    // An export directory's *.json holds its sequence files too.
    if (nvfp4::manifest::isSequenceFile(path)) {
      ++sequenceFiles;
      continue;
    }
    std::optional<Manifest> manifest = loadManifest(path, error);
    if (!manifest) {
      printError(error);
      if (options->json)
        printLine(formatJsonError(path, error));
      failed = true;
      continue;
    }
    std::optional<float> alpha;
    error = checkShape(*options, *manifest);
    if (error.empty())
      error = checkInputs(*options, *manifest);
    if (error.empty())
      error = checkPdl(*options, *manifest);
    if (error.empty())
      alpha = chooseAlpha(*options, *manifest, error);
    if (!alpha) {
      reportManifestError(*options, path, error);
      failed = true;
      continue;
    }
    if (options->checkOnly)
      printLine(options->json ? formatJsonChecked(*manifest)
                              : "OK " + describe(*manifest) + " " +
                                    manifest->chip.name + " [" + path + "]");
    jobs.push_back({std::move(*manifest), *alpha});
  }
  if (sequenceFiles == options->manifests.size()) {
    printError(options->manifests.front() +
               " is a sequence file: run it with --sequence");
    return 1;
  }
  if (options->checkOnly)
    return failed ? 1 : 0;

  SharedState state;
  for (const Job &job : jobs) {
    ChildResult child = runInChild(
        [&](int reportFd) { return runJob(*options, job, state, reportFd); },
        options->timeoutSeconds);
    readMessages(child.messages, state);
    if (reportChild(*options, job.manifest.path, child, failed))
      return 1;
  }
  return failed ? 1 : 0;
}
