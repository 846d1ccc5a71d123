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
#include "nvfp4-run/Subprocess.h"

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

/// Runs one manifest in the current (child) process. Returns 0 on a pass, 1
/// on a failure or error, kFatal when CUDA is unusable.
int runJob(const Options &options, const Job &job, const SharedState &state,
           int reportFd) {
  std::string error;
  cuda::Driver driver;
  if (!driver.load(error)) {
    printError(error);
    return kFatal;
  }
  Runner runner(driver);
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

  const Manifest &manifest = job.manifest;
  error =
      checkChipRunsOn(manifest.chip, device.major, device.minor, device.name);
  if (!error.empty()) {
    reportManifestError(options, manifest.path, error);
    return 1;
  }

  RunConfig config;
  config.seed = options.seed;
  config.dist = options.dist;
  config.alpha = job.alpha;
  config.rtol = options.rtol;
  config.atol = options.atol;
  config.bench = options.bench;
  config.reps = options.reps;
  config.flush = options.flush;
  config.chain = options.chain;
  config.pdl = options.pdl;
  runner.setCopyGBps(state.copyGBps);
  VerifyResult result;
  std::optional<BenchResult> bench;
  error = runner.run(manifest, config, result, bench);
  if (!error.empty()) {
    reportManifestError(options, manifest.path, error);
    return 1;
  }
  bool measuredCopy = state.copyGBps == 0 && runner.copyGBps() > 0;
  if (measuredCopy) {
    char value[64];
    std::snprintf(value, sizeof(value), "copy %.17g", runner.copyGBps());
    sendMessage(reportFd, value);
  }
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
  if (options->checkOnly)
    return failed ? 1 : 0;

  SharedState state;
  for (const Job &job : jobs) {
    ChildResult child = runInChild(
        [&](int reportFd) { return runJob(*options, job, state, reportFd); },
        options->timeoutSeconds);
    readMessages(child.messages, state);
    const std::string &path = job.manifest.path;
    switch (child.kind) {
    case ChildResult::Kind::Exited:
      if (child.code == kFatal)
        return 1;
      failed |= child.code != 0;
      continue;
    case ChildResult::Kind::TimedOut:
      reportManifestError(*options, path,
                          "stopped after " +
                              std::to_string(options->timeoutSeconds) +
                              " s (kernel hung?)");
      break;
    case ChildResult::Kind::Signaled:
      reportManifestError(*options, path,
                          "the run died of signal " +
                              std::to_string(child.code));
      break;
    case ChildResult::Kind::ForkFailed:
      printError("cannot start a child process");
      return 1;
    }
    failed = true;
  }
  return failed ? 1 : 0;
}
