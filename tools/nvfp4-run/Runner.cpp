//===- Runner.cpp - Verify and time one kernel on the GPU -----------------===//

#include "nvfp4-run/Runner.h"

#include "nvfp4-run/FlushKernel.h"
#include "nvfp4-run/RunnerDetail.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::cuda;

namespace {

/// JIT error log as one line, appended to the cuModuleLoadDataEx error.
std::string oneLineLog(const std::vector<char> &log) {
  std::string text(log.data());
  std::string line;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      if (!line.empty() && line.substr(line.size() - 2) != "; ")
        line += "; ";
    } else {
      line += c;
    }
  }
  while (!line.empty() && (line.back() == ' ' || line.back() == ';'))
    line.pop_back();
  if (line.size() > 400)
    line = line.substr(0, 400) + "...";
  return line.empty() ? "" : ": " + line;
}

} // namespace

namespace nvfp4::run::detail {

std::string upload(const Driver &driver, CUdeviceptr &ptr,
                   const std::vector<uint8_t> &host) {
  CU_CHECK(cuMemAlloc, &ptr, host.size());
  CU_CHECK(cuMemcpyHtoD, ptr, host.data(), host.size());
  return "";
}

/// Allocates the buffer of `out` and records it as an output.
static std::string allocateOutput(const Driver &driver, Workload &work,
                                  Output out) {
  CU_CHECK(cuMemAlloc, &work.buffers[int(out.param)], out.bytes);
  work.outputs.push_back(std::move(out));
  return "";
}

/// Fills every output with its poison of round `round`.
std::string poisonOutputs(const Driver &driver, const Workload &work,
                          size_t round) {
  for (const Output &out : work.outputs)
    CU_CHECK(cuMemsetD8, work.pointer(out),
             out.poisons[std::min(round, out.poisons.size() - 1)], out.bytes);
  return "";
}

/// Copies every output back and checks it.
std::string checkOutputs(const Driver &driver, const Workload &work,
                         VerifyResult &result) {
  Written written;
  for (const Output &out : work.outputs) {
    written.emplace_back(out.bytes);
    CU_CHECK(cuMemcpyDtoH, written.back().data(), work.pointer(out), out.bytes);
  }
  result = work.check(written);
  return "";
}

/// Encodes each tensor map for the device address of its buffer and passes
/// a device copy of it as its parameter (the kernel reads the map through a
/// pointer). The copies go with the context, like the buffers.
std::string setUpTensorMaps(const Driver &driver, const Manifest &manifest,
                            Workload &work) {
  if (manifest.tensorMaps.empty())
    return "";
  if (!driver.cuTensorMapEncodeTiled)
    return "the CUDA driver lacks cuTensorMapEncodeTiled (driver too old?), "
           "which the tensor maps of " +
           manifest.kernel + " need";
  for (const TensorMap &map : manifest.tensorMaps) {
    const TensorMapEncode &e = map.encode;
    CUtensorMap encoded{};
    if (CUresult status = driver.cuTensorMapEncodeTiled(
            &encoded, e.dataType, e.rank,
            reinterpret_cast<void *>(work.buffers[int(map.tensor)]),
            e.dims.data(), e.strides.data(), e.box.data(),
            e.elementStrides.data(), e.interleave, e.swizzle, e.l2Promotion,
            e.oobFill))
      return std::string("tensor map \"") + name(map.param) + "\" of \"" +
             name(map.tensor) +
             "\": " + driver.describe("cuTensorMapEncodeTiled", status);
    // cuMemAlloc aligns to 256 bytes, more than the 64 a map needs.
    CUdeviceptr &copy = work.buffers[int(map.param)];
    CU_CHECK(cuMemAlloc, &copy, sizeof(encoded));
    CU_CHECK(cuMemcpyHtoD, copy, &encoded, sizeof(encoded));
  }
  return "";
}

/// Uploads every buffer of `in` the kernel reads.
static std::string uploadAll(const Driver &driver, const Manifest &manifest,
                             Workload &work, const ParamBytes &in) {
  for (Param param : inputsOf(manifest))
    if (std::string error =
            upload(driver, work.buffers[int(param)], in[int(param)]);
        !error.empty())
      return error;
  return "";
}

/// Sets up the workload of `manifest`'s op on seeded inputs.
static std::string setUp(const Driver &driver, const Manifest &manifest,
                         const RunConfig &config, Workload &work) {
  ParamBytes in;
  if (std::string error = generateInputs(manifest, config, in); !error.empty())
    return error;
  if (std::string error = uploadAll(driver, manifest, work, in); !error.empty())
    return error;
  for (Output out : outputsOf(manifest))
    if (std::string error = allocateOutput(driver, work, std::move(out));
        !error.empty())
      return error;
  work.alpha = config.alpha;
  work.uniqueBytes = uniqueBytes(manifest);
  return makeCheck(manifest, config, in, work.check);
}

std::string loadKernel(const Driver &driver, const Manifest &manifest,
                       Kernel &kernel) {
  std::vector<char> log(16384, '\0');
  int jitOptions[] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *jitValues[] = {log.data(),
                       reinterpret_cast<void *>(uintptr_t(log.size() - 1))};
  CUmodule module = nullptr;
  if (CUresult status = driver.cuModuleLoadDataEx(&module, manifest.ptx.c_str(),
                                                  2, jitOptions, jitValues))
    return driver.describe("cuModuleLoadDataEx", status) + oneLineLog(log);
  CU_CHECK(cuModuleGetFunction, &kernel.function, module,
           manifest.kernel.c_str());
  CU_CHECK(cuFuncGetAttribute, &kernel.registers, CU_FUNC_ATTRIBUTE_NUM_REGS,
           kernel.function);
  CU_CHECK(cuFuncGetAttribute, &kernel.localBytes,
           CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, kernel.function);
  // Shared memory beyond 48 KiB, static and dynamic together, must be
  // opted into per function; the opt-in names the dynamic part, and is
  // valid for any size the function can have.
  if (manifest.sharedBytes > 0)
    CU_CHECK(cuFuncSetAttribute, kernel.function,
             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
             static_cast<int>(manifest.sharedBytes));
  // Only reported: a kernel the query cannot answer for (a cluster
  // launch, say) still runs, its residency unknown.
  if (driver.cuOccupancyMaxActiveBlocksPerMultiprocessor &&
      driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &kernel.residentCtas, kernel.function,
          static_cast<int>(manifest.block[0] * manifest.block[1] *
                           manifest.block[2]),
          manifest.sharedBytes) != CUDA_SUCCESS)
    kernel.residentCtas = -1;
  return "";
}

std::string launchKernel(const Driver &driver, const Manifest &manifest,
                         CUfunction function, void **args) {
  if (CUresult status = driver.cuLaunchKernel(
          function, manifest.grid[0], manifest.grid[1], manifest.grid[2],
          manifest.block[0], manifest.block[1], manifest.block[2],
          manifest.sharedBytes, nullptr, args, nullptr))
    return driver.describe("cuLaunchKernel", status);
  return "";
}

} // namespace nvfp4::run::detail

using namespace nvfp4::run::detail;

std::string Runner::init() {
  if (CUresult status = driver.cuInit(0)) {
    if (status == CUDA_ERROR_NO_DEVICE)
      return "no CUDA device found";
    // The toolkit's stub libcuda lets programs link but not run.
    if (status == CUDA_ERROR_STUB_LIBRARY)
      return "no CUDA driver found (libcuda.so.1 is the toolkit's stub)";
    return driver.describe("cuInit", status);
  }
  int count = 0;
  CU_CHECK(cuDeviceGetCount, &count);
  if (count == 0)
    return "no CUDA device found";
  CU_CHECK(cuDeviceGet, &deviceHandle, 0);
  char name[256] = {};
  CU_CHECK(cuDeviceGetName, name, sizeof(name) - 1, deviceHandle);
  info.name = name;
  int l2 = 0;
  CU_CHECK(cuDeviceGetAttribute, &info.major,
           CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, deviceHandle);
  CU_CHECK(cuDeviceGetAttribute, &info.minor,
           CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, deviceHandle);
  CU_CHECK(cuDeviceGetAttribute, &info.multiprocessors,
           CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, deviceHandle);
  CU_CHECK(cuDeviceGetAttribute, &l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
           deviceHandle);
  info.l2Bytes = l2;
  CU_CHECK(cuDriverGetVersion, &info.driverVersion);
  return "";
}

std::string Runner::measureCopyBandwidth() {
  CUdeviceptr src = 0, dst = 0;
  CU_CHECK(cuMemAlloc, &src, kCopyBytes);
  CU_CHECK(cuMemAlloc, &dst, kCopyBytes);
  CU_CHECK(cuMemsetD8, src, 0x5A, kCopyBytes);
  std::vector<CUevent> starts(kCopyReps), stops(kCopyReps);
  for (int i = 0; i < kCopyReps; ++i) {
    CU_CHECK(cuEventCreate, &starts[i], 0);
    CU_CHECK(cuEventCreate, &stops[i], 0);
  }
  for (int i = 0; i < 3; ++i)
    CU_CHECK(cuMemcpyDtoDAsync, dst, src, kCopyBytes, nullptr);
  for (int i = 0; i < kCopyReps; ++i) {
    CU_CHECK(cuEventRecord, starts[i], nullptr);
    CU_CHECK(cuMemcpyDtoDAsync, dst, src, kCopyBytes, nullptr);
    CU_CHECK(cuEventRecord, stops[i], nullptr);
  }
  CU_CHECK(cuEventSynchronize, stops.back());
  std::vector<float> elapsed(kCopyReps);
  for (int i = 0; i < kCopyReps; ++i)
    CU_CHECK(cuEventElapsedTime, &elapsed[i], starts[i], stops[i]);
  for (int i = 0; i < kCopyReps; ++i) {
    CU_CHECK(cuEventDestroy, starts[i]);
    CU_CHECK(cuEventDestroy, stops[i]);
  }
  CU_CHECK(cuMemFree, src);
  CU_CHECK(cuMemFree, dst);
  Timing timing = summarize(elapsed);
  // A copy reads and writes every byte.
  copyBandwidth = 2.0 * kCopyBytes / (timing.medianUs * 1e3);
  return "";
}

std::string Runner::timeColdL2(const RunConfig &config,
                               const std::function<std::string()> &launchAll,
                               std::vector<float> &elapsed) {
  // Cold L2 (docs/problem.md section 4): overwrite a buffer of at least twice
  // the L2 before every launch, outside the timed interval, then (Clean) read
  // it back so that no dirty line is written back during the timed kernel
  // (FlushKernel.h says why).
  size_t flushBytes = flushBufferBytes(info.l2Bytes);
  CUdeviceptr flush = 0, sink = 0;
  CU_CHECK(cuMemAlloc, &flush, flushBytes);
  CU_CHECK(cuMemAlloc, &sink, sizeof(int));
  CUmodule flushModule = nullptr;
  CU_CHECK(cuModuleLoadDataEx, &flushModule, kL2ReadPtx, 0, nullptr, nullptr);
  CUfunction readBack = nullptr;
  CU_CHECK(cuModuleGetFunction, &readBack, flushModule, kL2ReadKernel);
  unsigned long long flushWords = flushBytes / 16;
  void *flushArgs[] = {&flush, &flushWords, &sink};
  auto flushL2 = [&](int i) -> std::string {
    CU_CHECK(cuMemsetD8Async, flush, static_cast<unsigned char>(i), flushBytes,
             nullptr);
    if (config.flush == FlushMode::Clean)
      CU_CHECK(cuLaunchKernel, readBack,
               kL2ReadCtasPerSM * info.multiprocessors, 1, 1, kL2ReadThreads, 1,
               1, 0, nullptr, flushArgs, nullptr);
    return "";
  };

  std::vector<CUevent> starts(config.reps), stops(config.reps);
  for (int i = 0; i < config.reps; ++i) {
    CU_CHECK(cuEventCreate, &starts[i], 0);
    CU_CHECK(cuEventCreate, &stops[i], 0);
  }
  constexpr int kWarmups = 10;
  for (int i = 0; i < kWarmups; ++i) {
    if (std::string error = flushL2(i); !error.empty())
      return error;
    if (std::string error = launchAll(); !error.empty())
      return error;
  }
  // The flush keeps the GPU busy while the host enqueues the launch, so the
  // start event is followed directly by the kernels. Each repetition ends
  // before the next flush is queued: with work queued behind it, a kernel
  // measured about 0.7 us longer (docs/nvfp4-run.md).
  for (int i = 0; i < config.reps; ++i) {
    if (std::string error = flushL2(i); !error.empty())
      return error;
    CU_CHECK(cuEventRecord, starts[i], nullptr);
    if (std::string error = launchAll(); !error.empty())
      return error;
    CU_CHECK(cuEventRecord, stops[i], nullptr);
    CU_CHECK(cuEventSynchronize, stops[i]);
  }
  CU_CHECK(cuCtxSynchronize);
  elapsed.assign(config.reps, 0);
  for (int i = 0; i < config.reps; ++i)
    CU_CHECK(cuEventElapsedTime, &elapsed[i], starts[i], stops[i]);
  return "";
}

std::string Runner::run(const Manifest &manifest, const RunConfig &config,
                        VerifyResult &result,
                        std::optional<BenchResult> &bench) {
  bench.reset();
  ScopedContext context(driver);
  CU_CHECK(cuCtxCreate, &context.handle, 0, deviceHandle);

  // A chain of launches (--chain) gives each launch a workload of its own,
  // generated from the same seed, so that every launch reads cold inputs.
  int chain = config.bench ? std::max(config.chain, 1) : 1;
  if (config.pdl && chain > 1 && !driver.cuLaunchKernelEx)
    return "the CUDA driver lacks cuLaunchKernelEx (driver too old?), which "
           "--pdl needs";
  std::vector<Workload> works(chain);
  for (Workload &w : works) {
    std::string setUpError = setUp(driver, manifest, config, w);
    if (setUpError.empty())
      setUpError = setUpTensorMaps(driver, manifest, w);
    if (!setUpError.empty())
      return setUpError;
  }
  Workload &work = works.front();

  Kernel kernel;
  if (std::string error = loadKernel(driver, manifest, kernel); !error.empty())
    return error;
  CUfunction function = kernel.function;

  std::vector<std::vector<void *>> args(chain);
  for (int w = 0; w < chain; ++w)
    for (Param param : manifest.params)
      args[w].push_back(
          param == Param::Alpha
              ? static_cast<void *>(&works[w].alpha)
              : static_cast<void *>(&works[w].buffers[int(param)]));
  // Launch `w` of a chain; under --pdl those after the first may start while
  // the one before still runs (they wait for it in griddepcontrol.wait).
  CUlaunchAttribute pdlAttribute;
  pdlAttribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  pdlAttribute.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig pdlConfig;
  pdlConfig.gridDimX = manifest.grid[0];
  pdlConfig.gridDimY = manifest.grid[1];
  pdlConfig.gridDimZ = manifest.grid[2];
  pdlConfig.blockDimX = manifest.block[0];
  pdlConfig.blockDimY = manifest.block[1];
  pdlConfig.blockDimZ = manifest.block[2];
  pdlConfig.sharedMemBytes = manifest.sharedBytes;
  pdlConfig.hStream = nullptr;
  pdlConfig.attrs = &pdlAttribute;
  pdlConfig.numAttrs = 1;
  auto launchOne = [&](int w) -> std::string {
    if (config.pdl && w > 0) {
      if (CUresult status = driver.cuLaunchKernelEx(&pdlConfig, function,
                                                    args[w].data(), nullptr))
        return driver.describe("cuLaunchKernelEx", status);
      return "";
    }
    return launchKernel(driver, manifest, function, args[w].data());
  };
  auto launchChain = [&]() -> std::string {
    for (int w = 0; w < chain; ++w)
      if (std::string error = launchOne(w); !error.empty())
        return error;
    return "";
  };

  for (size_t round = 0; round < work.poisonRounds(); ++round) {
    if (std::string error = poisonOutputs(driver, work, round); !error.empty())
      return error;
    if (std::string error = launchOne(0); !error.empty())
      return error;
    CU_CHECK(cuCtxSynchronize);
    if (std::string error = checkOutputs(driver, work, result); !error.empty())
      return error;
    if (!result.pass) {
      if (!config.timeFailing)
        return context.release();
      break; // timed all the same, and reported with this failure
    }
  }
  if (!config.bench)
    return context.release();

  // Every workload's output starts poisoned, so that one a launch of the
  // chain leaves unwritten fails the check after timing.
  for (Workload &w : works)
    if (std::string error = poisonOutputs(driver, w, 0); !error.empty())
      return error;

  if (copyBandwidth == 0) {
    std::string error = measureCopyBandwidth();
    if (!error.empty())
      return error;
  }

  std::vector<float> elapsed;
  if (std::string error = timeColdL2(config, launchChain, elapsed);
      !error.empty())
    return error;

  // The repeated launches must still produce the right answer (a race that
  // shows up only sometimes would otherwise go unnoticed), in every
  // workload of a chain (where a launch started too early under --pdl
  // would show).
  for (Workload &w : works) {
    VerifyResult again;
    if (std::string error = checkOutputs(driver, w, again); !error.empty())
      return error;
    if (!again.pass && result.pass) {
      result = again;
      result.afterTiming = true;
      if (!config.timeFailing)
        return context.release();
    }
  }

  BenchResult timing;
  timing.kernel = summarize(std::move(elapsed));
  timing.copyGBps = copyBandwidth;
  timing.uniqueBytes = work.uniqueBytes * chain; // the chain's, all moved
  timing.chain = chain;
  timing.pdl = config.pdl && chain > 1;
  timing.registers = kernel.registers;
  timing.localBytes = kernel.localBytes;
  timing.residentCtas = kernel.residentCtas;
  timing.gridCtas =
      int64_t(manifest.grid[0]) * manifest.grid[1] * manifest.grid[2];
  timing.multiprocessors = info.multiprocessors;
  timing.flush = config.flush;
  bench = timing;
  return context.release();
}
