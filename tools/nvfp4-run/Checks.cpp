//===- Checks.cpp - Inputs and verification of each op
//---------------------===//

#include "nvfp4-run/Checks.h"

#include "nvfp4-run/Runner.h"
#include "nvfp4/Support/GemvBound.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>

using namespace nvfp4;
using namespace nvfp4::run;

namespace {

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

/// The bytes of an f32.
std::vector<uint8_t> floatBytes(float value) {
  std::vector<uint8_t> bytes(sizeof(float));
  std::memcpy(bytes.data(), &value, sizeof(float));
  return bytes;
}

/// The f32 in `bytes` (4 of them).
float readFloat(const std::vector<uint8_t> &bytes) {
  float value = 0;
  std::memcpy(&value, bytes.data(), std::min(bytes.size(), sizeof(float)));
  return value;
}

/// The values a quantizer reads, as f32 (exact: f16 and bf16 widen).
std::vector<float> quantizerValues(const QuantizeProblem &p,
                                   const std::vector<uint8_t> &stored) {
  std::vector<float> values(stored.size() / ref::elementBytes(p.element));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(
        ref::readOutput(p.element, stored.data(), static_cast<int64_t>(i)));
  return values;
}

/// The sizes of `got` against those the manifest implies: "" when equal.
std::string sizeMismatch(const char *what, size_t got, int64_t want) {
  if (int64_t(got) == want)
    return "";
  return "the reference made " + std::to_string(got) + " bytes of " + what +
         ", expected " + std::to_string(want);
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

std::vector<uint8_t> poisonsOf(Op op) {
  switch (op) {
  case Op::Gemv:
    // All-ones bytes are NaN in f16, bf16 and f32: an element the kernel
    // does not write cannot pass.
    return {0xFF};
  case Op::Dequantize:
    // NaN scales make NaN outputs, which an unwritten NaN fill would match:
    // a zero fill catches those.
    return {0xFF, 0x00};
  case Op::QuantizeGlobalScale:
    // NaN and +0 are no global scale: both fills fail when left unwritten.
  case Op::ConvertScaleLayout:
  case Op::Quantize:
    return kBytePoisons;
  }
  return kBytePoisons;
}

std::string generateGemv(const Manifest &manifest, const RunConfig &config,
                         ParamBytes &in) {
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
  in[int(Param::A)] = ref::storedCodes(problem, inputs.a.data());
  in[int(Param::SFA)] = std::move(inputs.sfa);
  in[int(Param::B)] = std::move(inputs.b);
  in[int(Param::SFB)] = std::move(inputs.sfb);
  return "";
}

/// Compares the kernel's output with the float64 reference; where the
/// kernel's f32 evaluation leaves the f32 range, and everywhere for the
/// extreme inputs (whose cancellations exceed any fixed tolerance) and for
/// kernels that sum products (the tensor cores: their roundings exceed
/// atol on cancelling rows), with what that evaluation gives
/// (docs/numerics.md sections 11 and 12).
Check gemvCheck(const Manifest &manifest, const RunConfig &config,
                const ParamBytes &in) {
  ref::GemvProblem problem = manifest.problem;
  problem.alpha = config.alpha;
  auto kept = std::make_shared<ref::GemvInputs>();
  // The reference reads a row-major.
  kept->a = ref::rowMajorCodes(problem, in[int(Param::A)].data());
  kept->sfa = in[int(Param::SFA)];
  kept->b = in[int(Param::B)];
  kept->sfb = in[int(Param::SFB)];
  std::vector<double> expected =
      ref::gemvExact(problem, kept->a.data(), kept->sfa.data(), kept->b.data(),
                     kept->sfb.data());
  return [problem, config, kept,
          expected = std::move(expected)](const Written &out) {
    ref::Comparison comparison = ref::compareAnyOrderGemv(
        problem, kept->a.data(), kept->sfa.data(), kept->b.data(),
        kept->sfb.data(), out[0].data(), expected, config.rtol, config.atol,
        /*everyElement=*/config.dist == ref::Distribution::Extreme ||
            problem.sums == ref::GemvSums::Products || config.everyElement);
    VerifyResult result =
        fromComparison(comparison, problem.output, out[0], expected);
    result.seed = config.seed;
    result.dist = config.dist;
    result.alpha = config.alpha;
    return result;
  };
}

std::string generateConversion(const Manifest &manifest,
                               const RunConfig &config, ParamBytes &in) {
  const ConversionProblem &p = manifest.conversion;
  std::vector<uint8_t> source =
      randomBytes(conversionSizes(p).source, config.seed);
  if (p.from == ref::ScaleLayout::Blocked128x4 && p.from == p.to) {
    // A blocked-to-blocked copy may copy the padding or zero it; with zero
    // source padding both are right (and unwritten padding still fails).
    std::vector<uint8_t> linear = ref::convertScaleLayout(
        p.from, ref::ScaleLayout::Linear, source.data(), p.rows, p.cols, p.l);
    source = ref::convertScaleLayout(ref::ScaleLayout::Linear, p.to,
                                     linear.data(), p.rows, p.cols, p.l);
  }
  in[int(Param::Source)] = std::move(source);
  return "";
}

std::string conversionCheck(const Manifest &manifest, const RunConfig &config,
                            const ParamBytes &in, Check &check) {
  const ConversionProblem &p = manifest.conversion;
  ConversionSizes sizes = conversionSizes(p);
  std::vector<uint8_t> expected = ref::convertScaleLayout(
      p.from, p.to, in[int(Param::Source)].data(), p.rows, p.cols, p.l);
  if (int64_t(expected.size()) != sizes.dest)
    return "the reference converted to " + std::to_string(expected.size()) +
           " bytes, expected " + std::to_string(sizes.dest);
  uint64_t seed = config.seed;
  check = [seed, expected = std::move(expected)](const Written &out) {
    VerifyResult result = compareBytes(out[0], expected);
    result.seed = seed;
    return result;
  };
  return "";
}

std::string generateQuantize(const Manifest &manifest, const RunConfig &config,
                             ParamBytes &in) {
  const QuantizeProblem &p = manifest.quantization;
  QuantizeSizes sizes = quantizeSizes(manifest.kind, p);
  ref::QuantizeInputs values = ref::generateQuantizeInputs(
      p.element, p.format, p.rows, p.k, p.l, config.seed);
  if (std::string error =
          sizeMismatch("input", values.stored.size(), sizes.input);
      !error.empty())
    return error;
  // A two-level quantize reads the global scale the reference chose.
  if (manifest.kind == Op::Quantize && p.twoLevel)
    in[int(Param::GlobalScale)] =
        floatBytes(ref::quantize(p.format, p.layout, /*twoLevel=*/true,
                                 values.values.data(), p.rows, p.k, p.l)
                       .globalScale);
  in[int(Param::Input)] = std::move(values.stored);
  return "";
}

std::string quantizeCheck(const Manifest &manifest, const RunConfig &config,
                          const ParamBytes &in, Check &check) {
  const QuantizeProblem &p = manifest.quantization;
  QuantizeSizes sizes = quantizeSizes(Op::Quantize, p);
  std::vector<float> values = quantizerValues(p, in[int(Param::Input)]);
  auto want = std::make_shared<ref::Quantized>(ref::quantize(
      p.format, p.layout, p.twoLevel, values.data(), p.rows, p.k, p.l));
  for (std::string error :
       {sizeMismatch("data", want->data.size(), sizes.data),
        sizeMismatch("scales", want->scales.size(), sizes.scales)})
    if (!error.empty())
      return error;
  // The reference chooses its global scale; the kernel must have read that
  // one for the two to be compared.
  if (p.twoLevel &&
      in[int(Param::GlobalScale)] != floatBytes(want->globalScale))
    return "the global scale the kernel read (" +
           std::to_string(readFloat(in[int(Param::GlobalScale)])) +
           ") is not the reference's (" + std::to_string(want->globalScale) +
           ")";
  uint64_t seed = config.seed;
  check = [seed, want](const Written &out) {
    // Both buffers counted; the first mismatch is data's, else scales'.
    VerifyResult data = compareBytes(out[0], want->data);
    VerifyResult scales = compareBytes(out[1], want->scales);
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

Check globalScaleCheck(const Manifest &manifest, const RunConfig &config,
                       const ParamBytes &in) {
  const QuantizeProblem &p = manifest.quantization;
  std::vector<float> values = quantizerValues(p, in[int(Param::Input)]);
  float want = ref::quantize(ref::ScaleFormat::NVFP4, ref::ScaleLayout::Linear,
                             /*twoLevel=*/true, values.data(), p.rows, p.k, p.l)
                   .globalScale;
  uint64_t seed = config.seed;
  return [seed, want](const Written &out) {
    VerifyResult result = compareBytes(out[0], floatBytes(want));
    // One value: its place and its bits are the whole story.
    result.buffer = Param::GlobalScale;
    result.got = readFloat(out[0]);
    result.expected = want;
    result.seed = seed;
    return result;
  };
}

std::string generateDequantize(const Manifest &manifest,
                               const RunConfig &config, ParamBytes &in) {
  const QuantizeProblem &p = manifest.quantization;
  QuantizeSizes sizes = quantizeSizes(Op::Dequantize, p);
  ref::DequantizeInputs values = ref::generateDequantizeInputs(
      p.format, p.layout, p.twoLevel, p.rows, p.k, p.l, config.seed);
  for (std::string error :
       {sizeMismatch("data", values.data.size(), sizes.data),
        sizeMismatch("scales", values.scales.size(), sizes.scales)})
    if (!error.empty())
      return error;
  in[int(Param::Data)] = std::move(values.data);
  in[int(Param::Scales)] = std::move(values.scales);
  if (p.twoLevel)
    in[int(Param::GlobalScale)] = floatBytes(values.globalScale);
  return "";
}

Check dequantizeCheck(const Manifest &manifest, const RunConfig &config,
                      const ParamBytes &in) {
  const QuantizeProblem &p = manifest.quantization;
  float globalScale =
      p.twoLevel ? readFloat(in[int(Param::GlobalScale)]) : 1.0f;
  std::vector<double> expected = ref::dequantize(
      p.format, p.layout, in[int(Param::Data)].data(),
      in[int(Param::Scales)].data(), globalScale, p.rows, p.k, p.l);
  ref::ElementType type = p.element;
  uint64_t seed = config.seed;
  return [seed, type, expected = std::move(expected)](const Written &out) {
    // Correctly rounded once: exactly the rounded reference.
    VerifyResult result =
        fromComparison(ref::compare(type, out[0].data(), expected, 0, 0), type,
                       out[0], expected);
    result.buffer = Param::Output;
    result.seed = seed;
    return result;
  };
}

/// The parameters `manifest`'s kernel takes that `pred` accepts, in the
/// enum's order (data before scales, a before sfa), whatever the params
/// order.
template <typename Pred>
std::vector<Param> takenParams(const Manifest &manifest, Pred pred) {
  std::vector<Param> taken;
  for (int i = 0; i < kNumParams; ++i)
    if (Param param = Param(i);
        pred(param) && std::find(manifest.params.begin(), manifest.params.end(),
                                 param) != manifest.params.end())
      taken.push_back(param);
  return taken;
}

} // namespace

std::vector<Output> run::outputsOf(const Manifest &manifest) {
  std::vector<Output> outputs;
  for (Param param : takenParams(manifest, [&](Param p) {
         return manifest::writes(manifest.kind, p);
       }))
    outputs.push_back(
        {param, size_t(paramBytes(manifest, param)), poisonsOf(manifest.kind)});
  return outputs;
}

std::vector<Param> run::inputsOf(const Manifest &manifest) {
  return takenParams(manifest, [&](Param p) {
    return manifest::isBuffer(p) && !manifest::writes(manifest.kind, p);
  });
}

std::string run::generateInputs(const Manifest &manifest,
                                const RunConfig &config, ParamBytes &in) {
  switch (manifest.kind) {
  case Op::Gemv:
    return generateGemv(manifest, config, in);
  case Op::ConvertScaleLayout:
    return generateConversion(manifest, config, in);
  case Op::Quantize:
  case Op::QuantizeGlobalScale:
    return generateQuantize(manifest, config, in);
  case Op::Dequantize:
    return generateDequantize(manifest, config, in);
  }
  return "unknown op";
}

std::string run::makeCheck(const Manifest &manifest, const RunConfig &config,
                           const ParamBytes &in, Check &check) {
  switch (manifest.kind) {
  case Op::Gemv:
    check = gemvCheck(manifest, config, in);
    return "";
  case Op::ConvertScaleLayout:
    return conversionCheck(manifest, config, in, check);
  case Op::Quantize:
    return quantizeCheck(manifest, config, in, check);
  case Op::QuantizeGlobalScale:
    check = globalScaleCheck(manifest, config, in);
    return "";
  case Op::Dequantize:
    check = dequantizeCheck(manifest, config, in);
    return "";
  }
  return "unknown op";
}
