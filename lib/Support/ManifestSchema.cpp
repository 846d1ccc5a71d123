//===- ManifestSchema.cpp - The kernel manifest contract ------------------===//

#include "nvfp4/Support/ManifestSchema.h"

#include "nvfp4/Support/Reference.h"

using namespace nvfp4;
using namespace nvfp4::manifest;

const char *manifest::name(Op op) {
  return op == Op::Gemv ? "gemv" : "convert_scale_layout";
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
  }
  return "?";
}

const char *manifest::name(ScaleElement element) {
  return element == ScaleElement::F8E4M3FN ? "f8E4M3FN" : "f8E8M0FNU";
}

std::vector<const char *> manifest::requiredKeys(Op op) {
  std::vector<const char *> keys = {key::Version, key::Kernel, key::Ptx,
                                    key::Chip,    key::Op,     key::L};
  if (op == Op::Gemv)
    keys.insert(keys.end(), {key::M, key::K, key::ScaleFormat, key::ScaleLayout,
                             key::Output});
  else
    keys.insert(keys.end(),
                {key::Rows, key::Cols, key::From, key::To, key::Element});
  keys.insert(keys.end(),
              {key::Grid, key::Block, key::SharedBytes, key::Params});
  return keys;
}

ParamSet manifest::params(Op op) {
  if (op == Op::ConvertScaleLayout)
    return {{Param::Source, Param::Dest}, {}};
  return {{Param::A, Param::SFA, Param::B, Param::SFB, Param::C},
          {Param::Alpha}};
}

std::vector<const char *> manifest::spellings(std::string_view k) {
  using ref::ElementType;
  using ref::ScaleFormat;
  using ref::ScaleLayout;
  if (k == key::Op)
    return {name(Op::Gemv), name(Op::ConvertScaleLayout)};
  if (k == key::ScaleFormat)
    return {ref::name(ScaleFormat::NVFP4), ref::name(ScaleFormat::MXFP4)};
  if (k == key::ScaleLayout || k == key::From || k == key::To)
    return {ref::name(ScaleLayout::Linear),
            ref::name(ScaleLayout::Blocked128x4)};
  if (k == key::Output)
    return {ref::name(ElementType::F16), ref::name(ElementType::BF16),
            ref::name(ElementType::F32)};
  if (k == key::Element)
    return {name(ScaleElement::F8E4M3FN), name(ScaleElement::F8E8M0FNU)};
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
  return keys;
}
