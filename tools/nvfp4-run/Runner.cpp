//===- Runner.cpp - Verify and time one kernel on the GPU -----------------===//

#include "nvfp4-run/Runner.h"

#include "nvfp4-run/FlushKernel.h"
#include "nvfp4/Support/GemvBound.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <utility>
#include <vector>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::cuda;

/// Returns "CALL: error string (NAME = n)" from the enclosing function when
/// a driver call fails.
#define CU_CHECK(call, ...)                                                    \
  do {                                                                         \
    if (CUresult status_ = driver.call(__VA_ARGS__))                           \
      return driver.describe(#call, status_);                                  \
  } while (false)

namespace {

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

/// The result of ref::compare (or compareAnyOrderGemv) of `out`, `type`
/// elements, against `expected`, with the first mismatch located.
VerifyResult fromComparison(const ref::Comparison &comparison,
                            ref::ElementType type,
                            const std::vector<uint8_t> &out,
                            const std::vector<double> &expected) {
  VerifyResult result;
  result.pass = comparison.ok();
  result.maxAbsError = comparison.maxAbsError;
  result.relError = comparison.relError;
  result.firstMismatch = comparison.firstMismatch;
  result.nanCount = comparison.nanCount;
  result.compared = static_cast<int64_t>(expected.size());
  // Point at the first NaN when only NaNs failed, so the line says where.
  if (!result.pass && result.firstMismatch < 0) {
    for (size_t i = 0; i < expected.size(); ++i) {
      if (std::isnan(ref::readOutput(type, out.data(), i)) &&
          !std::isnan(expected[i])) {
        result.firstMismatch = static_cast<int64_t>(i);
        break;
      }
    }
  }
  if (result.firstMismatch >= 0) {
    result.got = ref::readOutput(type, out.data(), result.firstMismatch);
    result.expected = expected[result.firstMismatch];
  }
  return result;
}

/// Compares the kernel's output with the float64 reference; where the
/// kernel's f32 evaluation leaves the f32 range, and everywhere for the
/// extreme inputs (whose cancellations exceed any fixed tolerance), with
/// what that evaluation gives (docs/numerics.md sections 11 and 12).
VerifyResult checkOutput(const ref::GemvProblem &problem,
                         const RunConfig &config, const ref::GemvInputs &in,
                         const std::vector<uint8_t> &out,
                         const std::vector<double> &expected) {
  ref::Comparison comparison = ref::compareAnyOrderGemv(
      problem, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data(),
      out.data(), expected, config.rtol, config.atol,
      /*everyElement=*/config.dist == ref::Distribution::Extreme);
  VerifyResult result =
      fromComparison(comparison, problem.output, out, expected);
  result.seed = config.seed;
  result.dist = config.dist;
  result.alpha = config.alpha;
  return result;
}

/// A buffer the kernel writes.
struct Output {
  Param param;
  size_t bytes = 0;
  /// Fills before the verifying launches, the i-th before launch i (the
  /// last one again when the list is shorter than another output's). A
  /// byte the kernel does not write keeps its fill, which must then fail.
  std::vector<uint8_t> poisons;
};

/// What the kernel wrote, one byte vector per output, in Workload::outputs
/// order.
using Written = std::vector<std::vector<uint8_t>>;

/// What one kernel needs to be launched, checked and rated; set up per op,
/// then launched, verified and timed by the same code.
struct Workload {
  std::array<CUdeviceptr, kNumParams> buffers{}; // indexed by Param
  float alpha = 1;
  std::vector<Output> outputs;
  int64_t uniqueBytes = 0;
  std::function<VerifyResult(const Written &)> check;

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

std::string upload(const Driver &driver, CUdeviceptr &ptr,
                   const std::vector<uint8_t> &host) {
  CU_CHECK(cuMemAlloc, &ptr, host.size());
  CU_CHECK(cuMemcpyHtoD, ptr, host.data(), host.size());
  return "";
}

/// Allocates the buffer of `out` and records it as an output.
std::string allocateOutput(const Driver &driver, Workload &work, Output out) {
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

/// The bytes of an f32.
std::vector<uint8_t> floatBytes(float value) {
  std::vector<uint8_t> bytes(sizeof(float));
  std::memcpy(bytes.data(), &value, sizeof(float));
  return bytes;
}

std::string setUpGemv(const Driver &driver, const Manifest &manifest,
                      const RunConfig &config, Workload &work) {
  ref::GemvProblem problem = manifest.problem;
  problem.alpha = config.alpha;
  ref::GemvInputs inputs =
      ref::generateGemvInputs(problem, config.dist, config.seed);
  BufferSizes sizes = bufferSizes(problem);
  if (int64_t(inputs.a.size()) != sizes.a ||
      int64_t(inputs.sfa.size()) != sizes.sfa ||
      int64_t(inputs.b.size()) != sizes.b ||
      int64_t(inputs.sfb.size()) != sizes.sfb)
    return "the reference generated inputs of unexpected sizes (a " +
           std::to_string(inputs.a.size()) + ", sfa " +
           std::to_string(inputs.sfa.size()) + ", b " +
           std::to_string(inputs.b.size()) + ", sfb " +
           std::to_string(inputs.sfb.size()) + " bytes)";

  struct Upload {
    Param param;
    const std::vector<uint8_t> *host;
  } uploads[] = {{Param::A, &inputs.a},
                 {Param::SFA, &inputs.sfa},
                 {Param::B, &inputs.b},
                 {Param::SFB, &inputs.sfb}};
  // Only what the kernel takes: a gemv of 16-bit vectors has no sfb.
  for (const Upload &u : uploads)
    if (std::find(manifest.params.begin(), manifest.params.end(), u.param) !=
        manifest.params.end())
      if (std::string error =
              upload(driver, work.buffers[int(u.param)], *u.host);
          !error.empty())
        return error;
  // All-ones bytes are NaN in f16, bf16 and f32: an element the kernel
  // does not write cannot pass.
  if (std::string error =
          allocateOutput(driver, work, {Param::C, size_t(sizes.c), {0xFF}});
      !error.empty())
    return error;
  work.alpha = config.alpha;
  work.uniqueBytes = sizes.unique();
  std::vector<double> expected =
      ref::gemvExact(problem, inputs.a.data(), inputs.sfa.data(),
                     inputs.b.data(), inputs.sfb.data());
  auto kept = std::make_shared<const ref::GemvInputs>(std::move(inputs));
  work.check = [problem, config, kept,
                expected = std::move(expected)](const Written &out) {
    return checkOutput(problem, config, *kept, out[0], expected);
  };
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

/// Uniform random bytes, all 256 values: a conversion moves bytes without
/// reading them. The padding of a blocked source is filled too, so that a
/// kernel copying it into the destination is caught.
std::vector<uint8_t> randomBytes(int64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> bytes(count);
  for (int64_t i = 0; i < count; i += 8) {
    uint64_t word = rng();
    for (int64_t j = i; j < std::min(count, i + 8); ++j, word >>= 8)
      bytes[j] = static_cast<uint8_t>(word);
  }
  return bytes;
}

/// Fills of a byte buffer whose every byte value is a valid result: no
/// single fill catches every byte left unwritten, so 0xFF catches unwritten
/// bytes expected to be 0 (padding, say), 0x00 those expected to be 0xFF.
const std::vector<uint8_t> kBytePoisons = {0xFF, 0x00};

std::string setUpConversion(const Driver &driver, const Manifest &manifest,
                            const RunConfig &config, Workload &work) {
  const ConversionProblem &p = manifest.conversion;
  ConversionSizes sizes = conversionSizes(p);
  std::vector<uint8_t> source = randomBytes(sizes.source, config.seed);
  if (p.from == ref::ScaleLayout::Blocked128x4 && p.from == p.to) {
    // A blocked-to-blocked copy may copy the padding or zero it; with zero
    // source padding both are right (and unwritten padding still fails).
    std::vector<uint8_t> linear = ref::convertScaleLayout(
        p.from, ref::ScaleLayout::Linear, source.data(), p.rows, p.cols, p.l);
    source = ref::convertScaleLayout(ref::ScaleLayout::Linear, p.to,
                                     linear.data(), p.rows, p.cols, p.l);
  }
  if (std::string error =
          upload(driver, work.buffers[int(Param::Source)], source);
      !error.empty())
    return error;
  if (std::string error = allocateOutput(
          driver, work, {Param::Dest, size_t(sizes.dest), kBytePoisons});
      !error.empty())
    return error;
  work.uniqueBytes = sizes.unique();
  std::vector<uint8_t> expected =
      ref::convertScaleLayout(p.from, p.to, source.data(), p.rows, p.cols, p.l);
  if (int64_t(expected.size()) != sizes.dest)
    return "the reference converted to " + std::to_string(expected.size()) +
           " bytes, expected " + std::to_string(sizes.dest);
  uint64_t seed = config.seed;
  work.check = [seed, expected = std::move(expected)](const Written &out) {
    VerifyResult result = compareBytes(out[0], expected);
    result.seed = seed;
    return result;
  };
  return "";
}

/// The buffers a kernel reads, each with its parameter.
using Inputs = std::vector<std::pair<Param, const std::vector<uint8_t> *>>;

/// Uploads every one of `inputs`.
std::string uploadAll(const Driver &driver, Workload &work,
                      const Inputs &inputs) {
  for (auto [param, host] : inputs)
    if (std::string error = upload(driver, work.buffers[int(param)], *host);
        !error.empty())
      return error;
  return "";
}

/// The sizes of `got` against those the manifest implies: "" when equal.
std::string sizeMismatch(const char *what, size_t got, int64_t want) {
  if (int64_t(got) == want)
    return "";
  return "the reference made " + std::to_string(got) + " bytes of " + what +
         ", expected " + std::to_string(want);
}

std::string setUpQuantize(const Driver &driver, const Manifest &manifest,
                          const RunConfig &config, Workload &work) {
  const QuantizeProblem &p = manifest.quantization;
  QuantizeSizes sizes = quantizeSizes(Op::Quantize, p);
  ref::QuantizeInputs in = ref::generateQuantizeInputs(
      p.element, p.format, p.rows, p.k, p.l, config.seed);
  ref::Quantized want = ref::quantize(p.format, p.layout, p.twoLevel,
                                      in.values.data(), p.rows, p.k, p.l);
  for (std::string error :
       {sizeMismatch("input", in.stored.size(), sizes.input),
        sizeMismatch("data", want.data.size(), sizes.data),
        sizeMismatch("scales", want.scales.size(), sizes.scales)})
    if (!error.empty())
      return error;
  // A two-level quantize reads the global scale the reference chose.
  std::vector<uint8_t> gs = floatBytes(want.globalScale);
  Inputs inputs = {{Param::Input, &in.stored}};
  if (p.twoLevel)
    inputs.push_back({Param::GlobalScale, &gs});
  if (std::string error = uploadAll(driver, work, inputs); !error.empty())
    return error;
  for (Output out : {Output{Param::Data, size_t(sizes.data), kBytePoisons},
                     Output{Param::Scales, size_t(sizes.scales), kBytePoisons}})
    if (std::string error = allocateOutput(driver, work, std::move(out));
        !error.empty())
      return error;
  work.uniqueBytes = sizes.unique();
  auto kept = std::make_shared<const ref::Quantized>(std::move(want));
  uint64_t seed = config.seed;
  work.check = [seed, kept](const Written &out) {
    // Both buffers counted; the first mismatch is data's, else scales'.
    VerifyResult data = compareBytes(out[0], kept->data);
    VerifyResult scales = compareBytes(out[1], kept->scales);
    VerifyResult result = data.pass ? scales : data;
    result.buffer = data.pass ? Param::Scales : Param::Data;
    result.pass = data.pass && scales.pass;
    result.mismatches = data.mismatches + scales.mismatches;
    result.compared = data.compared + scales.compared;
    result.seed = seed;
    return result;
  };
  return "";
}

std::string setUpGlobalScale(const Driver &driver, const Manifest &manifest,
                             const RunConfig &config, Workload &work) {
  const QuantizeProblem &p = manifest.quantization;
  QuantizeSizes sizes = quantizeSizes(Op::QuantizeGlobalScale, p);
  ref::QuantizeInputs in = ref::generateQuantizeInputs(
      p.element, p.format, p.rows, p.k, p.l, config.seed);
  if (std::string error = sizeMismatch("input", in.stored.size(), sizes.input);
      !error.empty())
    return error;
  float want =
      ref::quantize(ref::ScaleFormat::NVFP4, ref::ScaleLayout::Linear,
                    /*twoLevel=*/true, in.values.data(), p.rows, p.k, p.l)
          .globalScale;
  if (std::string error = uploadAll(driver, work, {{Param::Input, &in.stored}});
      !error.empty())
    return error;
  // NaN and +0 are no global scale: both fills fail when left unwritten.
  if (std::string error = allocateOutput(
          driver, work,
          {Param::GlobalScale, size_t(sizes.globalScale), kBytePoisons});
      !error.empty())
    return error;
  work.uniqueBytes = sizes.unique();
  uint64_t seed = config.seed;
  work.check = [seed, want](const Written &out) {
    VerifyResult result = compareBytes(out[0], floatBytes(want));
    float got;
    std::memcpy(&got, out[0].data(), sizeof(float));
    // One value: its place and its bits are the whole story.
    result.buffer = Param::GlobalScale;
    result.got = got;
    result.expected = want;
    result.seed = seed;
    return result;
  };
  return "";
}

std::string setUpDequantize(const Driver &driver, const Manifest &manifest,
                            const RunConfig &config, Workload &work) {
  const QuantizeProblem &p = manifest.quantization;
  QuantizeSizes sizes = quantizeSizes(Op::Dequantize, p);
  ref::DequantizeInputs in = ref::generateDequantizeInputs(
      p.format, p.layout, p.twoLevel, p.rows, p.k, p.l, config.seed);
  for (std::string error :
       {sizeMismatch("data", in.data.size(), sizes.data),
        sizeMismatch("scales", in.scales.size(), sizes.scales)})
    if (!error.empty())
      return error;
  std::vector<uint8_t> gs = floatBytes(in.globalScale);
  Inputs inputs = {{Param::Data, &in.data}, {Param::Scales, &in.scales}};
  if (p.twoLevel)
    inputs.push_back({Param::GlobalScale, &gs});
  if (std::string error = uploadAll(driver, work, inputs); !error.empty())
    return error;
  // NaN scales make NaN outputs, which an unwritten NaN fill would match:
  // a zero fill catches those.
  if (std::string error = allocateOutput(
          driver, work, {Param::Output, size_t(sizes.output), {0xFF, 0x00}});
      !error.empty())
    return error;
  work.uniqueBytes = sizes.unique();
  std::vector<double> expected =
      ref::dequantize(p.format, p.layout, in.data.data(), in.scales.data(),
                      in.globalScale, p.rows, p.k, p.l);
  ref::ElementType type = p.element;
  uint64_t seed = config.seed;
  work.check = [seed, type,
                expected = std::move(expected)](const Written &out) {
    // Correctly rounded once: exactly the rounded reference.
    VerifyResult result =
        fromComparison(ref::compare(type, out[0].data(), expected, 0, 0), type,
                       out[0], expected);
    result.buffer = Param::Output;
    result.seed = seed;
    return result;
  };
  return "";
}

/// Sets up the workload of `manifest`'s op.
std::string setUp(const Driver &driver, const Manifest &manifest,
                  const RunConfig &config, Workload &work) {
  switch (manifest.kind) {
  case Op::Gemv:
    return setUpGemv(driver, manifest, config, work);
  case Op::ConvertScaleLayout:
    return setUpConversion(driver, manifest, config, work);
  case Op::Quantize:
    return setUpQuantize(driver, manifest, config, work);
  case Op::QuantizeGlobalScale:
    return setUpGlobalScale(driver, manifest, config, work);
  case Op::Dequantize:
    return setUpDequantize(driver, manifest, config, work);
  }
  return "unknown op";
}

} // namespace

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

  std::vector<char> log(16384, '\0');
  int jitOptions[] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *jitValues[] = {log.data(),
                       reinterpret_cast<void *>(uintptr_t(log.size() - 1))};
  CUmodule module = nullptr;
  if (CUresult status = driver.cuModuleLoadDataEx(&module, manifest.ptx.c_str(),
                                                  2, jitOptions, jitValues))
    return driver.describe("cuModuleLoadDataEx", status) + oneLineLog(log);
  CUfunction function = nullptr;
  CU_CHECK(cuModuleGetFunction, &function, module, manifest.kernel.c_str());
  int registers = -1, localBytes = -1;
  CU_CHECK(cuFuncGetAttribute, &registers, CU_FUNC_ATTRIBUTE_NUM_REGS,
           function);
  CU_CHECK(cuFuncGetAttribute, &localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
           function);
  // Dynamic shared memory beyond 48 KiB must be opted into per function.
  if (manifest.sharedBytes > 48 * 1024)
    CU_CHECK(cuFuncSetAttribute, function,
             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
             static_cast<int>(manifest.sharedBytes));

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
    if (CUresult status = driver.cuLaunchKernel(
            function, manifest.grid[0], manifest.grid[1], manifest.grid[2],
            manifest.block[0], manifest.block[1], manifest.block[2],
            manifest.sharedBytes, nullptr, args[w].data(), nullptr))
      return driver.describe("cuLaunchKernel", status);
    return "";
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
    if (!result.pass)
      return context.release();
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

  // Cold L2 (docs/problem.md section 4): overwrite a buffer of at least twice
  // the L2 before every launch, outside the timed interval, then (Clean) read
  // it back so that no dirty line is written back during the timed kernel
  // (FlushKernel.h says why).
  size_t flushBytes = std::max<int64_t>(2 * info.l2Bytes, int64_t(128) << 20);
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
      CU_CHECK(cuLaunchKernel, readBack, 8 * info.multiprocessors, 1, 1, 512, 1,
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
    if (std::string error = launchChain(); !error.empty())
      return error;
  }
  // Everything is queued back to back: the flush keeps the GPU busy while
  // the host enqueues the launch, so the start event is followed directly
  // by the kernel and the interval holds the kernel alone.
  for (int i = 0; i < config.reps; ++i) {
    if (std::string error = flushL2(i); !error.empty())
      return error;
    CU_CHECK(cuEventRecord, starts[i], nullptr);
    if (std::string error = launchChain(); !error.empty())
      return error;
    CU_CHECK(cuEventRecord, stops[i], nullptr);
  }
  CU_CHECK(cuEventSynchronize, stops.back());
  CU_CHECK(cuCtxSynchronize);
  std::vector<float> elapsed(config.reps);
  for (int i = 0; i < config.reps; ++i)
    CU_CHECK(cuEventElapsedTime, &elapsed[i], starts[i], stops[i]);

  // The repeated launches must still produce the right answer (a race that
  // shows up only sometimes would otherwise go unnoticed), in every
  // workload of a chain (where a launch started too early under --pdl
  // would show).
  for (Workload &w : works) {
    VerifyResult again;
    if (std::string error = checkOutputs(driver, w, again); !error.empty())
      return error;
    if (!again.pass) {
      result = again;
      result.afterTiming = true;
      return context.release();
    }
  }

  BenchResult timing;
  timing.kernel = summarize(std::move(elapsed));
  timing.copyGBps = copyBandwidth;
  timing.uniqueBytes = work.uniqueBytes * chain; // the chain's, all moved
  timing.chain = chain;
  timing.pdl = config.pdl && chain > 1;
  timing.registers = registers;
  timing.localBytes = localBytes;
  timing.flush = config.flush;
  bench = timing;
  return context.release();
}
