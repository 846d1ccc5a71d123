//===- SequenceRunner.cpp - Run the kernels of one host function ----------===//
//
// The launches of a sequence run in order on one device buffer per function
// argument. Each is checked after it ran against the reference computed from
// the bytes it read, so a kernel that reads what an earlier one wrote is
// checked on those bytes, and a wrong byte is blamed on the launch that
// wrote it.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/Runner.h"
#include "nvfp4-run/RunnerDetail.h"

#include <map>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::detail;

namespace {

/// The device buffers of a sequence, by function argument.
using Buffers = std::map<int64_t, CUdeviceptr>;

/// The configuration of one launch: a kernel without alpha computes with 1.
RunConfig launchConfig(const RunConfig &config, const Manifest &manifest) {
  RunConfig own = config;
  if (!manifest.takesAlpha())
    own.alpha = 1;
  return own;
}

/// Fills each input of the sequence from the seeded generator of the first
/// launch that reads it.
std::string uploadInputs(const Driver &driver, const Sequence &sequence,
                         const RunConfig &config, const Buffers &buffers) {
  std::map<size_t, ParamBytes> generated; // by launch
  for (auto [arg, index] : sequenceInputs(sequence)) {
    const SequenceLaunch &launch = sequence.launches[index];
    auto it = generated.find(index);
    if (it == generated.end()) {
      ParamBytes in;
      if (std::string error = generateInputs(
              launch.manifest, launchConfig(config, launch.manifest), in);
          !error.empty())
        return describeLaunch(sequence, index) + ": " + error;
      it = generated.emplace(index, std::move(in)).first;
    }
    for (Param param : inputsOf(launch.manifest))
      if (launch.bufferOf(param) == arg) {
        const std::vector<uint8_t> &bytes = it->second[int(param)];
        CU_CHECK(cuMemcpyHtoD, buffers.at(arg), bytes.data(), bytes.size());
        break;
      }
  }
  return "";
}

/// The workload of launch `index`: its params bound to the shared buffers,
/// its outputs, its tensor maps.
std::string bindLaunch(const Driver &driver, const SequenceLaunch &launch,
                       const RunConfig &config, const Buffers &buffers,
                       Workload &work) {
  for (Param param : launch.manifest.params)
    if (manifest::isBuffer(param))
      work.buffers[int(param)] = buffers.at(launch.bufferOf(param));
  work.alpha = launchConfig(config, launch.manifest).alpha;
  work.outputs = outputsOf(launch.manifest);
  work.uniqueBytes = uniqueBytes(launch.manifest);
  return setUpTensorMaps(driver, launch.manifest, work);
}

/// Copies back what the launch read and builds its check from those bytes
/// (a gemv held to the any-order bound on every element: RunConfig).
std::string checkFromDevice(const Driver &driver, const Manifest &manifest,
                            const RunConfig &config, Workload &work) {
  ParamBytes in;
  for (Param param : inputsOf(manifest)) {
    std::vector<uint8_t> &bytes = in[int(param)];
    bytes.resize(paramBytes(manifest, param));
    CU_CHECK(cuMemcpyDtoH, bytes.data(), work.buffers[int(param)],
             bytes.size());
  }
  RunConfig own = launchConfig(config, manifest);
  own.everyElement = true;
  return makeCheck(manifest, own, in, work.check);
}

/// Checks what the launch wrote against what it read.
std::string verifyLaunch(const Driver &driver, const Manifest &manifest,
                         const RunConfig &config, Workload &work,
                         VerifyResult &result) {
  if (std::string error = checkFromDevice(driver, manifest, config, work);
      !error.empty())
    return error;
  return checkOutputs(driver, work, result);
}

} // namespace

std::string Runner::runSequence(const Sequence &sequence,
                                const RunConfig &config,
                                std::vector<VerifyResult> &results,
                                std::optional<BenchResult> &bench) {
  results.clear();
  bench.reset();
  ScopedContext context(driver);
  CU_CHECK(cuCtxCreate, &context.handle, 0, deviceHandle);

  Buffers buffers;
  for (auto [arg, bytes] : sequence.buffers)
    CU_CHECK(cuMemAlloc, &buffers[arg], bytes);
  if (std::string error = uploadInputs(driver, sequence, config, buffers);
      !error.empty())
    return error;

  size_t count = sequence.launches.size();
  std::vector<Workload> works(count);
  std::vector<Kernel> kernels(count);
  std::vector<std::vector<void *>> args(count);
  for (size_t i = 0; i < count; ++i) {
    const Manifest &manifest = sequence.launches[i].manifest;
    std::string error =
        bindLaunch(driver, sequence.launches[i], config, buffers, works[i]);
    if (error.empty())
      error = loadKernel(driver, manifest, kernels[i]);
    if (!error.empty())
      return describeLaunch(sequence, i) + ": " + error;
    for (Param param : manifest.params)
      args[i].push_back(
          param == Param::Alpha
              ? static_cast<void *>(&works[i].alpha)
              : static_cast<void *>(&works[i].buffers[int(param)]));
  }
  auto launch = [&](size_t i) {
    return launchKernel(driver, sequence.launches[i].manifest,
                        kernels[i].function, args[i].data());
  };

  // Each launch is checked before the next one reads what it wrote, on
  // every poison of its outputs.
  for (size_t i = 0; i < count; ++i) {
    const Manifest &manifest = sequence.launches[i].manifest;
    VerifyResult result;
    for (size_t round = 0; round < works[i].poisonRounds(); ++round) {
      if (std::string error = poisonOutputs(driver, works[i], round);
          !error.empty())
        return error;
      if (std::string error = launch(i); !error.empty())
        return describeLaunch(sequence, i) + ": " + error;
      CU_CHECK(cuCtxSynchronize);
      if (std::string error =
              verifyLaunch(driver, manifest, config, works[i], result);
          !error.empty())
        return describeLaunch(sequence, i) + ": " + error;
      if (!result.pass)
        break;
    }
    results.push_back(result);
    // The launches after a failure would read its wrong output (and are
    // run, to be timed, only under --time-failing).
    if (!result.pass && !config.timeFailing)
      return context.release();
  }
  if (!config.bench)
    return context.release();

  // Every output starts poisoned, so that one a launch leaves unwritten
  // fails the check after timing.
  for (const Workload &work : works)
    if (std::string error = poisonOutputs(driver, work, 0); !error.empty())
      return error;
  if (copyBandwidth == 0)
    if (std::string error = measureCopyBandwidth(); !error.empty())
      return error;
  std::vector<float> elapsed;
  if (std::string error = timeColdL2(
          config,
          [&]() -> std::string {
            for (size_t i = 0; i < count; ++i)
              if (std::string error = launch(i); !error.empty())
                return error;
            return "";
          },
          elapsed);
      !error.empty())
    return error;

  // Every launch must still be right after the repetitions.
  int64_t uniqueBytes = 0;
  for (size_t i = 0; i < count; ++i) {
    VerifyResult again;
    if (std::string error = verifyLaunch(driver, sequence.launches[i].manifest,
                                         config, works[i], again);
        !error.empty())
      return describeLaunch(sequence, i) + ": " + error;
    if (!again.pass && results[i].pass) {
      again.afterTiming = true;
      results[i] = again;
      if (!config.timeFailing)
        return context.release();
    }
    uniqueBytes += works[i].uniqueBytes;
  }
  BenchResult timing;
  timing.kernel = summarize(std::move(elapsed));
  timing.copyGBps = copyBandwidth;
  timing.uniqueBytes = uniqueBytes;
  timing.flush = config.flush;
  bench = timing;
  return context.release();
}
