//===- ManifestSchema.cpp - The kernel manifest contract ------------------===//

#include "nvfp4/Support/ManifestSchema.h"

#include "nvfp4/Support/Reference.h"

#include <algorithm>

using namespace nvfp4;
using namespace nvfp4::manifest;

const char *manifest::name(Op op) {
  switch (op) {
  case Op::Gemv:
    return "gemv";
  case Op::ConvertScaleLayout:
    return "convert_scale_layout";
  case Op::Quantize:
    return "quantize";
  case Op::QuantizeGlobalScale:
    return "quantize_global_scale";
  case Op::Dequantize:
    return "dequantize";
  }
  return "?";
}

const char *manifest::name(Param param) {
  switch (param) {
  case Param::A:
    return "a";
  case Param::SFA:
    return "sfa";
  case Param::B:
    return "b";
  case Param::SFB:
    return "sfb";
  case Param::C:
    return "c";
  case Param::Alpha:
    return "alpha";
  case Param::Source:
    return "source";
  case Param::Dest:
    return "dest";
  case Param::ATensorMap:
    return "a_tensor_map";
  case Param::SFATensorMap:
    return "sfa_tensor_map";
  case Param::Input:
    return "input";
  case Param::Data:
    return "data";
  case Param::Scales:
    return "scales";
  case Param::GlobalScale:
    return "global_scale";
  case Param::Output:
    return "output";
  }
  return "?";
}

bool manifest::isBuffer(Param param) {
  return param != Param::Alpha && !isTensorMap(param);
}

bool manifest::isTensorMap(Param param) {
  return param == Param::ATensorMap || param == Param::SFATensorMap;
}

int64_t manifest::elementBytes(MapDataType type) {
  switch (type) {
  case MapDataType::UInt8:
    return 1;
  case MapDataType::UInt16:
    return 2;
  case MapDataType::UInt32:
    return 4;
  case MapDataType::UInt64:
    return 8;
  }
  return 0;
}

int64_t manifest::swizzleBytes(MapSwizzle swizzle) {
  switch (swizzle) {
  case MapSwizzle::None:
    return 0;
  case MapSwizzle::B32:
    return 32;
  case MapSwizzle::B64:
    return 64;
  case MapSwizzle::B128:
    return 128;
  }
  return 0;
}

const char *manifest::name(ScaleElement element) {
  return element == ScaleElement::F8E4M3FN ? "f8E4M3FN" : "f8E8M0FNU";
}

std::vector<const char *> manifest::requiredKeys(Op op) {
  std::vector<const char *> keys = {key::Version, key::Kernel, key::Ptx,
                                    key::Chip,    key::Op,     key::L};
  switch (op) {
  case Op::Gemv:
    keys.insert(keys.end(), {key::M, key::K, key::N, key::ScaleFormat,
                             key::ScaleLayout, key::Output, key::Vector});
    break;
  case Op::ConvertScaleLayout:
    keys.insert(keys.end(),
                {key::Rows, key::Cols, key::From, key::To, key::Element});
    break;
  case Op::Quantize:
    keys.insert(keys.end(), {key::Rows, key::K, key::ScaleFormat,
                             key::ScaleLayout, key::Input, key::GlobalScale});
    break;
  case Op::QuantizeGlobalScale:
    keys.insert(keys.end(), {key::Rows, key::K, key::Input});
    break;
  case Op::Dequantize:
    keys.insert(keys.end(), {key::Rows, key::K, key::ScaleFormat,
                             key::ScaleLayout, key::Output, key::GlobalScale});
    break;
  }
  keys.insert(keys.end(),
              {key::Grid, key::Block, key::SharedBytes, key::Params});
  return keys;
}

std::vector<const char *> manifest::tensorMapKeys() {
  namespace k = map_key;
  return {k::Param, k::Tensor,         k::DataType, k::Dims,        k::Strides,
          k::Box,   k::ElementStrides, k::Swizzle,  k::L2Promotion, k::OobFill};
}

std::vector<const char *> manifest::optionalKeys(Op op) {
  if (op == Op::Gemv)
    return {key::TensorMaps, key::Sums, key::TiledCodes};
  return {};
}

ParamSet manifest::params(Op op, ref::VectorElement vector, bool twoLevel) {
  switch (op) {
  case Op::Gemv:
    break;
  case Op::ConvertScaleLayout:
    return {{Param::Source, Param::Dest}, {}};
  case Op::QuantizeGlobalScale:
    return {{Param::Input, Param::GlobalScale}, {}};
  case Op::Quantize:
  case Op::Dequantize: {
    // In the order of the op's operands.
    ParamSet set;
    if (op == Op::Quantize)
      set.required = {Param::Input, Param::Data, Param::Scales};
    else
      set.required = {Param::Data, Param::Scales, Param::Output};
    if (twoLevel)
      set.required.push_back(Param::GlobalScale);
    return set;
  }
  }
  ParamSet set = {{Param::A, Param::SFA, Param::B, Param::SFB, Param::C},
                  {Param::Alpha, Param::ATensorMap, Param::SFATensorMap}};
  // 16-bit vectors carry no scales.
  if (vector != ref::VectorElement::E2M1)
    set.required.erase(
        std::find(set.required.begin(), set.required.end(), Param::SFB));
  return set;
}

std::vector<const char *> manifest::spellings(std::string_view k) {
  using ref::ElementType;
  using ref::ScaleFormat;
  using ref::ScaleLayout;
  if (k == key::Op)
    return {name(Op::Gemv), name(Op::ConvertScaleLayout), name(Op::Quantize),
            name(Op::QuantizeGlobalScale), name(Op::Dequantize)};
  if (k == key::ScaleFormat)
    return {ref::name(ScaleFormat::NVFP4), ref::name(ScaleFormat::MXFP4)};
  if (k == key::ScaleLayout || k == key::From || k == key::To)
    return {ref::name(ScaleLayout::Linear),
            ref::name(ScaleLayout::Blocked128x4)};
  if (k == key::Output || k == key::Input)
    return {ref::name(ElementType::F16), ref::name(ElementType::BF16),
            ref::name(ElementType::F32)};
  if (k == key::Vector)
    return {ref::name(ref::VectorElement::E2M1),
            ref::name(ref::VectorElement::F16),
            ref::name(ref::VectorElement::BF16)};
  if (k == key::Element)
    return {name(ScaleElement::F8E4M3FN), name(ScaleElement::F8E8M0FNU)};
  if (k == key::Sums)
    return {ref::name(ref::GemvSums::Units),
            ref::name(ref::GemvSums::Products)};
  if (k == map_key::DataType)
    return {"uint8", "uint16", "uint32", "uint64"};
  if (k == map_key::Swizzle)
    return {"none", "32b", "64b", "128b"};
  if (k == map_key::L2Promotion)
    return {"none", "64b", "128b", "256b"};
  if (k == map_key::OobFill)
    return {"zero", "nan"};
  return {};
}

std::string manifest::signatureSymbol(std::string_view kernel) {
  return "nvfp4_signature_" + std::string(kernel);
}

std::vector<const char *> manifest::signatureKeys(Op op) {
  std::vector<const char *> keys;
  // The kernel name is the signature's symbol (signatureSymbol), not one of
  // its fields, so that identical kernels carry identical bytes and merge
  // (nvfp4-dedup-kernels).
  for (const char *k : requiredKeys(op))
    if (std::string_view(k) != key::Ptx &&
        std::string_view(k) != key::Version &&
        std::string_view(k) != key::Kernel)
      keys.push_back(k);
  for (const char *k : optionalKeys(op))
    keys.push_back(k);
  return keys;
}

bool manifest::writes(Op op, Param param) {
  switch (op) {
  case Op::Gemv:
    return param == Param::C;
  case Op::ConvertScaleLayout:
    return param == Param::Dest;
  case Op::Quantize:
    return param == Param::Data || param == Param::Scales;
  case Op::QuantizeGlobalScale:
    return param == Param::GlobalScale;
  case Op::Dequantize:
    return param == Param::Output;
  }
  return false;
}

std::string manifest::sequenceFileName(std::string_view prefix,
                                       std::string_view function) {
  return std::string(prefix) + std::string(function) + kSequenceSuffix;
}

bool manifest::isSequenceFile(std::string_view path) {
  std::string_view suffix = kSequenceSuffix;
  return path.size() >= suffix.size() &&
         path.substr(path.size() - suffix.size()) == suffix;
}
