//===- QuantizeCheck.cpp - nvfp4-sim-check: the quantizer kernels ---------===//
//
// quantize and dequantize kernels on seeded inputs (ref::generateQuantize-
// Inputs, ref::generateDequantizeInputs) against the reference: the bytes
// of data and scales and the bits of the global scale exactly, dequantized
// values correctly rounded. Outputs start as `fill` (the caller alternates
// 0xFF and 0x00), so a byte left unwritten fails under one fill or the
// other, whatever its expected value.
//
//===----------------------------------------------------------------------===//

#include "SimCheck.h"

#include <cstring>

using namespace nvfp4;
using namespace nvfp4::simcheck;

namespace {

std::string caseName(const SimKernel &kernel, uint64_t seed) {
  return strf("%-20s %-42s seed %llu", kernel.variant, kernel.spec,
              (unsigned long long)seed);
}

/// Appends "NAME: N of M bytes wrong, first at I: 0xGG, expected 0xEE;"
/// when `got` differs from `want`.
bool sameBytes(const char *name, const std::vector<uint8_t> &got,
               const std::vector<uint8_t> &want, std::string &detail) {
  int64_t wrong = 0, first = -1;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && wrong++ == 0)
      first = static_cast<int64_t>(i);
  if (!wrong)
    return true;
  detail += strf(" %s: %lld of %zu bytes wrong, first at %lld: 0x%02x, "
                 "expected 0x%02x;",
                 name, (long long)wrong, got.size(), (long long)first,
                 got[first], want[first]);
  return false;
}

int64_t scaleBytes(const SimKernel &kernel) {
  return kernel.l *
         ref::scaleBatchBytes(kernel.layout, kernel.m,
                              kernel.k / ref::blockSize(kernel.format));
}

std::vector<uint8_t> floatBytes(float value) {
  std::vector<uint8_t> bytes(sizeof(float));
  std::memcpy(bytes.data(), &value, sizeof(float));
  return bytes;
}

} // namespace

void nvfp4::simcheck::checkQuantize(Stats &stats, const SimKernel &kernel,
                                    uint64_t seed, uint8_t fill) {
  int64_t rows = kernel.m, k = kernel.k, l = kernel.l;
  ref::QuantizeInputs in = ref::generateQuantizeInputs(
      kernel.output, kernel.format, rows, k, l, seed);
  ref::Quantized want =
      ref::quantize(kernel.format, kernel.layout, kernel.twoLevel,
                    in.values.data(), rows, k, l);
  Guarded input(in.stored), data(l * rows * (k / 2), fill),
      scales(scaleBytes(kernel), fill), gs(sizeof(float), fill);
  if (kernel.twoLevel)
    kernel.quantizeGs(input.data(), data.data(), scales.data(), gs.data());
  else
    kernel.quantize(input.data(), data.data(), scales.data());

  std::vector<uint8_t> gotData = data.contents();
  if (stats.corrupt)
    gotData[seed % gotData.size()] ^= 0x01;
  std::string detail;
  bool ok = simulationOk(detail);
  ok &= sameBytes("data", gotData, want.data, detail);
  ok &= sameBytes("scales", scales.contents(), want.scales, detail);
  if (kernel.twoLevel)
    ok &= sameBytes("global scale", gs.contents(), floatBytes(want.globalScale),
                    detail);
  if (!input.guardsIntact() || !data.guardsIntact() || !scales.guardsIntact() ||
      !gs.guardsIntact()) {
    detail += " write out of bounds;";
    ok = false;
  }
  if (input.contents() != in.stored) {
    detail += " input modified;";
    ok = false;
  }
  stats.report(ok, caseName(kernel, seed), detail);
}

void nvfp4::simcheck::checkDequantize(Stats &stats, const SimKernel &kernel,
                                      uint64_t seed, uint8_t fill) {
  int64_t rows = kernel.m, k = kernel.k, l = kernel.l;
  ref::DequantizeInputs in = ref::generateDequantizeInputs(
      kernel.format, kernel.layout, kernel.twoLevel, rows, k, l, seed);
  std::vector<double> want =
      ref::dequantize(kernel.format, kernel.layout, in.data.data(),
                      in.scales.data(), in.globalScale, rows, k, l);
  Guarded data(in.data), scales(in.scales),
      out(l * rows * k * ref::elementBytes(kernel.output), fill),
      gs(floatBytes(in.globalScale));
  if (kernel.twoLevel)
    kernel.quantizeGs(data.data(), scales.data(), out.data(), gs.data());
  else
    kernel.quantize(data.data(), scales.data(), out.data());

  std::vector<uint8_t> got = out.contents();
  if (stats.corrupt) {
    // A high exponent bit of one element.
    int64_t bytes = ref::elementBytes(kernel.output);
    got[(seed % (got.size() / bytes)) * bytes + bytes - 1] ^= 0x40;
  }
  std::string detail;
  bool ok = simulationOk(detail);
  ref::Comparison cmp = ref::compare(kernel.output, got.data(), want, 0, 0);
  if (!cmp.ok()) {
    int64_t i = std::max<int64_t>(cmp.firstMismatch, 0);
    detail += strf(" %lld NaN; element %lld is %.9g, reference %.17g;",
                   (long long)cmp.nanCount, (long long)i,
                   ref::readOutput(kernel.output, got.data(), i), want[i]);
    ok = false;
  }
  if (!data.guardsIntact() || !scales.guardsIntact() || !out.guardsIntact() ||
      !gs.guardsIntact()) {
    detail += " write out of bounds;";
    ok = false;
  }
  if (data.contents() != in.data || scales.contents() != in.scales) {
    detail += " input modified;";
    ok = false;
  }
  stats.report(ok, caseName(kernel, seed), detail);
}
