//===- Manifest.cpp - The compiler's description of a kernel --------------===//
//
// Byte counts, names and loading; the fields are read in ManifestReader.cpp
// and the PTX is checked in PtxCheck.cpp.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/Manifest.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace nvfp4;
using namespace nvfp4::run;

bool Manifest::takesAlpha() const {
  for (Param param : params)
    if (param == Param::Alpha)
      return true;
  return false;
}

BufferSizes nvfp4::run::bufferSizes(const ref::GemvProblem &p) {
  int64_t scaleCols = p.k / ref::blockSize(p.format);
  BufferSizes sizes;
  sizes.a = p.l * p.m * (p.k / 2);
  sizes.sfa = p.l * ref::scaleBatchBytes(p.layout, p.m, scaleCols);
  sizes.b = p.l * ref::vectorBatchBytes(p);
  sizes.sfb = p.l * ref::vectorScaleBatchBytes(p); // 0: no sfb (16-bit b)
  sizes.c = p.l * p.n * p.m * ref::elementBytes(p.output);
  return sizes;
}

std::array<int64_t, kNumParams> BufferSizes::byParam() const {
  std::array<int64_t, kNumParams> bytes{};
  bytes[int(Param::A)] = a;
  bytes[int(Param::SFA)] = sfa;
  bytes[int(Param::B)] = b;
  bytes[int(Param::SFB)] = sfb;
  bytes[int(Param::C)] = c;
  return bytes;
}

ConversionSizes nvfp4::run::conversionSizes(const ConversionProblem &p) {
  ConversionSizes sizes;
  sizes.source = p.l * ref::scaleBatchBytes(p.from, p.rows, p.cols);
  sizes.destBatch = ref::scaleBatchBytes(p.to, p.rows, p.cols);
  sizes.dest = p.l * sizes.destBatch;
  return sizes;
}

bool nvfp4::run::isQuantization(Op op) {
  return op == Op::Quantize || op == Op::QuantizeGlobalScale ||
         op == Op::Dequantize;
}

QuantizeSizes nvfp4::run::quantizeSizes(Op op, const QuantizeProblem &p) {
  QuantizeSizes sizes;
  int64_t values = p.l * p.rows * p.k * ref::elementBytes(p.element);
  if (op == Op::Dequantize)
    sizes.output = values;
  else
    sizes.input = values;
  if (op != Op::QuantizeGlobalScale) {
    int64_t scaleCols = p.k / ref::blockSize(p.format);
    sizes.data = p.l * p.rows * (p.k / 2);
    sizes.scales = p.l * ref::scaleBatchBytes(p.layout, p.rows, scaleCols);
  }
  if (p.twoLevel)
    sizes.globalScale = sizeof(float);
  return sizes;
}

int64_t nvfp4::run::paramBytes(const Manifest &manifest, Param param) {
  if (manifest.isConversion()) {
    ConversionSizes sizes = conversionSizes(manifest.conversion);
    return param == Param::Source ? sizes.source
           : param == Param::Dest ? sizes.dest
                                  : 0;
  }
  if (manifest.isQuantization()) {
    QuantizeSizes sizes = quantizeSizes(manifest.kind, manifest.quantization);
    switch (param) {
    case Param::Input:
      return sizes.input;
    case Param::Data:
      return sizes.data;
    case Param::Scales:
      return sizes.scales;
    case Param::Output:
      return sizes.output;
    case Param::GlobalScale:
      return sizes.globalScale;
    default:
      return 0;
    }
  }
  return bufferSizes(manifest.problem).byParam()[int(param)];
}

int64_t nvfp4::run::uniqueBytes(const Manifest &manifest) {
  if (manifest.isConversion())
    return conversionSizes(manifest.conversion).unique();
  if (manifest.isQuantization())
    return quantizeSizes(manifest.kind, manifest.quantization).unique();
  return bufferSizes(manifest.problem).unique();
}

namespace {
std::string describeQuantization(const Manifest &manifest) {
  const QuantizeProblem &q = manifest.quantization;
  std::string text = manifest.op + " " + std::to_string(q.rows) + "x" +
                     std::to_string(q.k) + "x" + std::to_string(q.l);
  if (manifest.kind == Op::QuantizeGlobalScale)
    return text + " " + name(q.element);
  std::string packed = std::string(name(q.format)) + " " + name(q.layout);
  // The values are named on their side: before the packed form for a
  // quantize, after it for a dequantize.
  text += manifest.kind == Op::Quantize
              ? " " + std::string(name(q.element)) + " " + packed
              : " " + packed + " " + name(q.element);
  return q.twoLevel ? text + " two-level" : text;
}
} // namespace

std::string nvfp4::run::describe(const Manifest &manifest) {
  if (manifest.isConversion()) {
    const ConversionProblem &c = manifest.conversion;
    return manifest.op + " " + std::to_string(c.rows) + "x" +
           std::to_string(c.cols) + "x" + std::to_string(c.l) + " " +
           name(c.from) + "->" + name(c.to) + " " + name(c.element);
  }
  if (manifest.isQuantization())
    return describeQuantization(manifest);
  // The one-vector e2m1 gemv keeps the spelling it had before gemv took N
  // vectors and 16-bit vectors.
  const ref::GemvProblem &p = manifest.problem;
  std::string vectors;
  if (p.n != 1)
    vectors += " n=" + std::to_string(p.n);
  if (p.vector != ref::VectorElement::E2M1)
    vectors += std::string(" ") + ref::name(p.vector) + "-vector";
  return manifest.op + " " + std::to_string(p.m) + "x" + std::to_string(p.k) +
         "x" + std::to_string(p.l) + vectors + " " + name(p.format) + " " +
         name(p.layout) + " " + name(p.output) +
         (p.tiledCodes ? " tiled-codes" : "");
}

namespace {
/// "a directory", "a FIFO", ... for a path that exists but is no regular
/// file; "" otherwise (a missing file is reported when it is read).
std::string notRegularFile(const std::string &path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode))
    return "";
  if (S_ISDIR(info.st_mode))
    return "a directory";
  if (S_ISFIFO(info.st_mode))
    return "a FIFO";
  if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode))
    return "a device";
  if (S_ISSOCK(info.st_mode))
    return "a socket";
  return "not a regular file";
}
} // namespace

bool nvfp4::run::readRegularFile(const std::string &path,
                                 std::string &contents) {
  // Only regular files are read: a FIFO would block, a directory is no
  // manifest.
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return false;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  contents = buffer.str();
  return !in.bad();
}

std::string nvfp4::run::directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == 0)
    return "/";
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::optional<Manifest> nvfp4::run::loadManifest(const std::string &path,
                                                 std::string &error) {
  std::string text;
  if (std::string what = notRegularFile(path); !what.empty()) {
    error = path + ": " + what + ", not a manifest file";
    return std::nullopt;
  }
  if (!readRegularFile(path, text)) {
    error = path + ": cannot read the manifest";
    return std::nullopt;
  }
  std::optional<json::Document> doc = json::parse(text, error);
  if (!doc) {
    error = path + ":" + error;
    return std::nullopt;
  }
  std::optional<Manifest> manifest =
      parseManifest(*doc, directoryOf(path), error);
  if (!manifest) {
    // Located errors start with a digit ("3:14: ..."); keep "path:3:14:".
    bool located = !error.empty() && error[0] >= '0' && error[0] <= '9';
    error = path + (located ? ":" : ": ") + error;
    return std::nullopt;
  }
  manifest->path = path;
  if (std::string what = notRegularFile(manifest->ptxPath); !what.empty()) {
    error = path + ": PTX file " + manifest->ptxPath + " is " + what +
            ", not a regular file";
    return std::nullopt;
  }
  if (!readRegularFile(manifest->ptxPath, manifest->ptx)) {
    error = path + ": PTX file " + manifest->ptxPath + " not found";
    return std::nullopt;
  }
  error = checkPtx(*manifest, manifest->ptx);
  if (!error.empty()) {
    error = path + ": " + error;
    return std::nullopt;
  }
  return manifest;
}
