//===- Manifest.h - The compiler's description of a kernel ------*- C++ -*-===//
//
// The manifest is the contract between the compiler and the runner: which
// entry point, which PTX, which chip, which shape and formats the kernel is
// specialised on, and how to launch it. Everything here is checked without a
// GPU so that a bad manifest fails the same way on every machine.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_MANIFEST_H
#define NVFP4_RUN_MANIFEST_H

#include "nvfp4-run/Chip.h"
#include "nvfp4-run/Json.h"
#include "nvfp4-run/TensorMaps.h"
#include "nvfp4/Support/ManifestSchema.h"
#include "nvfp4/Support/Reference.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvfp4::run {

// The manifest's enumerations are the schema's (ManifestSchema.h).
using manifest::kNumParams;
using manifest::Op;
using manifest::Param;
using manifest::ScaleElement;

/// A scale-layout conversion of `l` batches of rows x cols scales (the
/// logical, linear-side sizes; a blocked side is padded to whole atoms).
/// `from` may equal `to`: the compiler exports such copies too.
struct ConversionProblem {
  int64_t rows = 0, cols = 0, l = 1;
  ref::ScaleLayout from = ref::ScaleLayout::Linear;
  ref::ScaleLayout to = ref::ScaleLayout::Blocked128x4;
  ScaleElement element = ScaleElement::F8E4M3FN;
};

/// A quantize, quantize_global_scale or dequantize of `l` batches of
/// rows x k values of type `element` (key::Input of the quantizers,
/// key::Output of dequantize), packed with `format` scales in `layout`.
/// `twoLevel`: the kernel reads the f32 global scale (key::GlobalScale);
/// quantize_global_scale writes it and is NVFP4, linear and two-level.
struct QuantizeProblem {
  int64_t rows = 0, k = 0, l = 1;
  ref::ScaleFormat format = ref::ScaleFormat::NVFP4;
  ref::ScaleLayout layout = ref::ScaleLayout::Linear;
  ref::ElementType element = ref::ElementType::F32;
  bool twoLevel = false;
};

/// True for Quantize, QuantizeGlobalScale and Dequantize.
bool isQuantization(Op op);

struct Manifest {
  std::string path;    // the manifest file, for diagnostics
  std::string kernel;  // entry symbol in the PTX
  std::string ptxPath; // resolved against the manifest's directory
  std::string ptx;     // the PTX text (loadManifest only)
  Chip chip;
  std::string op;
  Op kind = Op::Gemv;
  /// Shape and formats of a gemv; problem.alpha is left at 1 (chosen at run
  /// time).
  ref::GemvProblem problem;
  /// Shape and layouts of a convert_scale_layout.
  ConversionProblem conversion;
  /// Shape and formats of a quantize, quantize_global_scale or dequantize.
  QuantizeProblem quantization;
  std::array<uint32_t, 3> grid{}, block{};
  uint32_t sharedBytes = 0;
  std::vector<Param> params; // kernel parameter order
  /// The tensor maps the host encodes, one per tensor-map parameter.
  std::vector<TensorMap> tensorMaps;
  /// The manifest's JSON object, compared with the kernel's signature.
  json::Json fields;

  bool takesAlpha() const;
  bool isConversion() const { return kind == Op::ConvertScaleLayout; }
  bool isQuantization() const { return run::isQuantization(kind); }
};

/// Bytes of each buffer as stored (scale padding of the blocked layout
/// included; all N vectors of b, sfb and c; sfb is 0 for 16-bit vectors,
/// which have none); their sum is what a memory-bound GEMV must move.
struct BufferSizes {
  int64_t a = 0, sfa = 0, b = 0, sfb = 0, c = 0;
  int64_t unique() const { return a + sfa + b + sfb + c; }
  /// Bytes of each parameter's buffer, indexed by Param (0 for parameters
  /// that are no gemv buffer).
  std::array<int64_t, kNumParams> byParam() const;
};
BufferSizes bufferSizes(const ref::GemvProblem &p);

/// Bytes of the source and destination of a conversion as stored; their sum
/// is what the conversion must move.
struct ConversionSizes {
  int64_t source = 0, dest = 0;
  /// Bytes of one batch of the destination.
  int64_t destBatch = 0;
  int64_t unique() const { return source + dest; }
};
ConversionSizes conversionSizes(const ConversionProblem &p);

/// Bytes of the buffers of a quantize, quantize_global_scale or dequantize
/// of `p` as stored (blocked scales with their padding; 0 for a buffer `op`
/// does not take); their sum is what the kernel must move: quantize reads
/// the input and writes data and scales, quantize_global_scale reads the
/// input, dequantize reads data and scales and writes the output; each
/// moves 4 bytes of global scale besides when it takes one.
struct QuantizeSizes {
  int64_t input = 0, data = 0, scales = 0, output = 0, globalScale = 0;
  int64_t unique() const {
    return input + data + scales + output + globalScale;
  }
};
QuantizeSizes quantizeSizes(Op op, const QuantizeProblem &p);

/// Bytes of the buffer of buffer parameter `param` of the kernel as stored
/// (0 for a parameter it does not take).
int64_t paramBytes(const Manifest &manifest, Param param);

/// Bytes a kernel must move at the least: what --bench rates it by.
int64_t uniqueBytes(const Manifest &manifest);

using manifest::name;

/// "gemv 7168x16384x1 nvfp4 linear f16" (M x K x L; N vectors and 16-bit
/// vectors follow the shape: "gemv 4096x7168x1 n=8 bf16-vector nvfp4 linear
/// f16"; " tiled-codes" at the end when a is tiled), "convert_scale_layout
/// 130x6x2 linear->blocked128x4 f8E4M3FN" (rows x cols x l), "quantize
/// 16384x7168x1 bf16 nvfp4 linear two-level", "quantize_global_scale
/// 16384x7168x1 bf16" or "dequantize 128x64x2 nvfp4 blocked128x4 f16" (rows x k
/// x l; " two-level" when it reads a global scale).
std::string describe(const Manifest &manifest);

/// Reads the fields of a parsed manifest and checks each one, the schema
/// version first. Relative PTX paths are resolved against `baseDir`. Errors
/// are "LINE:COL: message" when they concern one value, else "message".
std::optional<Manifest> parseManifest(const json::Document &doc,
                                      std::string_view baseDir,
                                      std::string &error);

/// Checks that `ptx` is what the manifest describes: it defines
/// ".entry <kernel>" with parameters matching `params` (count and types),
/// its ".target" is the manifest's chip, the entry has a ".reqntid" equal to
/// `block` (and any ".maxntid" admits it), and the kernel's signature
/// global agrees with every field of the manifest it carries. Returns an
/// empty string when it does.
std::string checkPtx(const Manifest &manifest, std::string_view ptx);

/// Reads the regular file at `path` into `contents`; false when it is no
/// regular file or cannot be read.
bool readRegularFile(const std::string &path, std::string &contents);

/// The directory part of `path` ("" for a bare file name), against which
/// the files a manifest or sequence names are resolved.
std::string directoryOf(const std::string &path);

/// `file` relative to `dir` (unchanged when absolute or `dir` is empty).
std::string joinPath(std::string_view dir, const std::string &file);

/// Reads, parses and checks the manifest at `path` and the PTX it names.
/// Errors are one line, prefixed with the manifest's path.
std::optional<Manifest> loadManifest(const std::string &path,
                                     std::string &error);

} // namespace nvfp4::run

#endif // NVFP4_RUN_MANIFEST_H
