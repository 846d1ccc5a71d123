//===- ManifestReader.cpp - Reading and checking manifest fields ----------===//
//
// Field names, enumeration spellings, parameters and the version come from
// the schema (nvfp4/Support/ManifestSchema.h) that the compiler writes with.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/Manifest.h"

#include "nvfp4/Support/CodeLayout.h"
#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ScaleLayout.h"

#include <algorithm>

using namespace nvfp4;
using namespace nvfp4::run;
namespace key = nvfp4::manifest::key;
using json::Json;
using json::oneOf;
using json::Pointer;
using json::shown;

namespace {

/// `s` as a JSON string, so that a control character in a value cannot
/// break the one-line message, cut to its first 64 bytes.
std::string inQuotes(std::string_view s) { return shown(Json(std::string(s))); }

/// A PTX identifier: a letter followed by letters, digits, `_` and `$`, or
/// `_`, `$` or `%` followed by at least one of those.
bool isPtxIdentifier(std::string_view s) {
  auto alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  auto follow = [&](char c) {
    return alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '$';
  };
  if (s.empty() ||
      !(alpha(s[0]) ||
        ((s[0] == '_' || s[0] == '$' || s[0] == '%') && s.size() > 1)))
    return false;
  return std::all_of(s.begin() + 1, s.end(), follow);
}

/// Reads the manifest's fields one by one; the first error wins.
class FieldReader {
public:
  FieldReader(const json::Document &doc, std::string &error)
      : doc(doc), error(error) {}

  bool failed() const { return !error.empty(); }

  /// "LINE:COL: message" at the value `pointer` names.
  void failAt(const Pointer &pointer, const std::string &message) {
    json::Position pos = doc.at(pointer);
    error = std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " +
            message;
  }

  const Json *find(const char *name) const {
    auto it = doc.root.find(name);
    return it == doc.root.end() ? nullptr : &*it;
  }

  /// Member `name`, which must exist and satisfy `isKind`.
  const Json *require(const char *name, bool (Json::*isKind)() const noexcept,
                      const char *what) {
    if (failed())
      return nullptr;
    const Json *value = find(name);
    if (!value) {
      error = "missing field " + inQuotes(name);
      return nullptr;
    }
    if (!((*value).*isKind)()) {
      failAt(Pointer("/" + std::string(name)),
             "field " + inQuotes(name) + " must be " + what + ", got " +
                 json::describe(*value));
      return nullptr;
    }
    return value;
  }

  std::string string(const char *name) {
    const Json *value = require(name, &Json::is_string, "a string");
    if (value && value->get_ref<const std::string &>().empty())
      failAt(Pointer("/" + std::string(name)),
             "field " + inQuotes(name) + " must not be empty");
    return value && !failed() ? value->get<std::string>() : "";
  }

  int64_t integer(const char *name, int64_t min, int64_t max) {
    const Json *value = require(name, &Json::is_number_integer, "an integer");
    if (!value)
      return 0;
    checkRange(Pointer("/" + std::string(name)), *value, name, min, max);
    return value->get<int64_t>();
  }

  bool boolean(const char *name) {
    const Json *value = require(name, &Json::is_boolean, "a boolean");
    return value && value->get<bool>();
  }

  std::array<uint32_t, 3> dims(const char *name, int64_t max) {
    std::array<uint32_t, 3> result{};
    const Json *value =
        require(name, &Json::is_array, "an array of 3 integers");
    if (!value)
      return result;
    Pointer at("/" + std::string(name));
    if (value->size() != 3) {
      failAt(at, "field " + inQuotes(name) +
                     " must be an array of 3 integers, got " +
                     std::to_string(value->size()) + " elements");
      return result;
    }
    for (size_t i = 0; i < 3 && !failed(); ++i) {
      const Json &item = (*value)[i];
      std::string element = std::string(name) + "[" + std::to_string(i) + "]";
      if (!item.is_number_integer()) {
        failAt(at / i, inQuotes(element) + " must be an integer, got " +
                           json::describe(item));
        return result;
      }
      checkRange(at / i, item, element.c_str(), 1, max);
      result[i] = static_cast<uint32_t>(item.get<int64_t>());
    }
    return result;
  }

  /// One of the schema's spellings of `name`; returns its index.
  size_t choice(const char *name) {
    const Json *value = require(name, &Json::is_string, "a string");
    if (!value)
      return 0;
    std::vector<const char *> names = manifest::spellings(name);
    const std::string &text = value->get_ref<const std::string &>();
    for (size_t i = 0; i < names.size(); ++i)
      if (text == names[i])
        return i;
    failAt(Pointer("/" + std::string(name)),
           "unknown " + std::string(name) + " " + inQuotes(text) +
               " (expected " + oneOf(names) + ")");
    return 0;
  }

private:
  const json::Document &doc;
  std::string &error;

  void checkRange(const Pointer &at, const Json &value, const char *name,
                  int64_t min, int64_t max) {
    int64_t v = value.get<int64_t>();
    if (failed() || (v >= min && v <= max))
      return;
    failAt(at, "field " + inQuotes(name) + " must be in [" +
                   std::to_string(min) + ", " + std::to_string(max) +
                   "], got " + std::to_string(v));
  }
};

/// The manifest must carry exactly the schema version this reader knows: a
/// manifest of another version may mean other things by the same keys.
bool readVersion(FieldReader &reader, std::string &error) {
  const std::string want = "this nvfp4-run reads manifest version " +
                           std::to_string(manifest::kVersion) +
                           "; export the kernel again with the matching "
                           "nvfp4-opt";
  const Json *value = reader.find(key::Version);
  if (!value) {
    error = "the manifest has no \"version\" (" + want + ")";
    return false;
  }
  if (!value->is_number_integer() ||
      value->get<int64_t>() != manifest::kVersion) {
    reader.failAt(Pointer("/" + std::string(key::Version)),
                  "unsupported manifest version " + shown(*value) + " (" +
                      want + ")");
    return false;
  }
  return true;
}

/// Why an op of `kind` that takes some parameter in other variants lacks it
/// in this one: "a gemv of f16 vectors has none" (sfb), "a single-level
/// quantize has none" (global_scale).
std::string lacksParameter(Op kind, ref::VectorElement vector) {
  if (kind == Op::Gemv)
    return std::string("a gemv of ") + ref::name(vector) + " vectors has none";
  return std::string("a single-level ") + name(kind) + " has none (\"" +
         key::GlobalScale + "\" is false)";
}

/// Reads "params": a permutation of the op's required parameters, with any
/// of its optional ones (a gemv's alpha).
std::vector<Param> readParams(FieldReader &reader, Op kind,
                              ref::VectorElement vector, bool twoLevel) {
  std::vector<Param> params;
  const Json *list = reader.require(key::Params, &Json::is_array,
                                    "an array of parameter names");
  if (!list)
    return params;
  manifest::ParamSet set = manifest::params(kind, vector, twoLevel);
  // The parameters the op takes in other variants (a gemv's sfb, the
  // global scale of a two-level quantization).
  manifest::ParamSet any =
      manifest::params(kind, ref::VectorElement::E2M1, /*twoLevel=*/true);
  std::vector<Param> all = set.required;
  all.insert(all.end(), set.optional.begin(), set.optional.end());
  std::vector<const char *> allNames, requiredNames;
  for (Param param : all)
    allNames.push_back(name(param));
  for (Param param : set.required)
    requiredNames.push_back(name(param));
  // "a, sfa, b, sfb, c and optionally alpha, a_tensor_map or
  // sfa_tensor_map", "source and dest".
  std::vector<const char *> optionalNames;
  for (Param param : set.optional)
    optionalNames.push_back(name(param));
  std::string mustList =
      oneOf(requiredNames, set.optional.empty() ? " and " : ", ");
  if (!optionalNames.empty())
    mustList += " and optionally " + oneOf(optionalNames);

  Pointer at("/" + std::string(key::Params));
  for (size_t i = 0; i < list->size(); ++i) {
    const Json &item = (*list)[i];
    if (!item.is_string()) {
      reader.failAt(at / i, "\"params\" entries must be strings, got " +
                                std::string(json::describe(item)));
      return params;
    }
    const std::string &text = item.get_ref<const std::string &>();
    const Param *found = nullptr;
    for (const Param &param : all)
      if (text == name(param))
        found = &param;
    bool otherVariant =
        std::any_of(any.required.begin(), any.required.end(),
                    [&](Param param) { return text == name(param); });
    if (!found && otherVariant) {
      reader.failAt(at / i, "parameter " + inQuotes(text) + " is listed, but " +
                                lacksParameter(kind, vector));
      return params;
    }
    if (!found) {
      reader.failAt(at / i, "unknown parameter " + inQuotes(text) +
                                " (expected " + oneOf(allNames, ", ") + ")");
      return params;
    }
    for (Param seen : params)
      if (seen == *found) {
        reader.failAt(at / i, "parameter " + inQuotes(text) + " listed twice");
        return params;
      }
    params.push_back(*found);
  }
  // The variant the list depends on.
  std::string variant;
  if (kind == Op::Gemv)
    variant = std::string(" for ") + ref::name(vector) + " vectors";
  else if ((kind == Op::Quantize || kind == Op::Dequantize) && twoLevel)
    variant = std::string(" when \"") + key::GlobalScale + "\" is true";
  for (Param param : set.required) {
    bool present = false;
    for (Param seen : params)
      present |= seen == param;
    if (!present) {
      reader.failAt(at, "\"params\" lacks " + inQuotes(name(param)) +
                            " (it must list " + mustList + variant + ")");
      return params;
    }
  }
  return params;
}

// Longest kernel name and PTX path accepted (a name is echoed in messages).
constexpr size_t kMaxName = 1024;
constexpr size_t kMaxPath = 4096;

// Dimensions beyond 2^31 would overflow the byte counts and the kernels'
// 32-bit index arithmetic alike.
constexpr int64_t kMaxDim = int64_t(1) << 31;

/// Reads the shape and formats of a gemv.
bool readGemv(FieldReader &reader, ref::GemvProblem &p, std::string &error) {
  p.m = reader.integer(key::M, 1, kMaxDim);
  p.k = reader.integer(key::K, 1, kMaxDim);
  p.l = reader.integer(key::L, 1, kMaxDim);
  p.format = static_cast<ref::ScaleFormat>(reader.choice(key::ScaleFormat));
  p.layout = static_cast<ref::ScaleLayout>(reader.choice(key::ScaleLayout));
  p.output = static_cast<ref::ElementType>(reader.choice(key::Output));
  p.n = reader.integer(key::N, 1, formats::kMaxGemvVectors);
  p.vector = static_cast<ref::VectorElement>(reader.choice(key::Vector));
  if (reader.failed())
    return false;

  int64_t block = ref::blockSize(p.format);
  if (p.k % block != 0) {
    reader.failAt(Pointer("/" + std::string(key::K)),
                  "k = " + std::to_string(p.k) + " is not a multiple of the " +
                      name(p.format) + " block size " + std::to_string(block));
    return false;
  }
  // Keep every buffer well inside what one device allocation can be: a, b
  // (16-bit vectors take 4 times the bytes of packed ones) and c.
  double vectorBytes = p.vector == ref::VectorElement::E2M1 ? 0.5 : 2;
  if (double(p.l) * double(p.k) *
              std::max(double(p.m) / 2, double(p.n) * vectorBytes) >
          double(int64_t(1) << 40) ||
      double(p.l) * double(p.n) * double(p.m) * ref::elementBytes(p.output) >
          double(int64_t(1) << 40)) {
    error = "shape " + std::to_string(p.m) + "x" + std::to_string(p.k) + "x" +
            std::to_string(p.l) +
            (p.n == 1 ? "" : " with n = " + std::to_string(p.n)) +
            " is too large";
    return false;
  }
  return true;
}

/// Reads the shape and layouts of a convert_scale_layout.
bool readConversion(FieldReader &reader, ConversionProblem &c,
                    std::string &error) {
  c.rows = reader.integer(key::Rows, 1, kMaxDim);
  c.cols = reader.integer(key::Cols, 1, kMaxDim);
  c.l = reader.integer(key::L, 1, kMaxDim);
  c.from = static_cast<ref::ScaleLayout>(reader.choice(key::From));
  c.to = static_cast<ref::ScaleLayout>(reader.choice(key::To));
  c.element = static_cast<ScaleElement>(reader.choice(key::Element));
  if (reader.failed())
    return false;
  // Keep both buffers well inside what one device allocation can be (the
  // blocked side is the larger, by its padding).
  double padded = double(c.l) * layout::paddedRows(c.rows) *
                  double(layout::paddedCols(c.cols));
  if (padded > double(int64_t(1) << 40)) {
    error = "shape " + std::to_string(c.rows) + "x" + std::to_string(c.cols) +
            "x" + std::to_string(c.l) + " is too large";
    return false;
  }
  return true;
}

/// Reads the shape and formats of a quantize, quantize_global_scale or
/// dequantize.
bool readQuantization(FieldReader &reader, Op kind, QuantizeProblem &q,
                      std::string &error) {
  q.rows = reader.integer(key::Rows, 1, kMaxDim);
  q.k = reader.integer(key::K, 1, kMaxDim);
  q.l = reader.integer(key::L, 1, kMaxDim);
  if (kind == Op::QuantizeGlobalScale) {
    // The first half of a two-level NVFP4 quantization.
    q.format = ref::ScaleFormat::NVFP4;
    q.layout = ref::ScaleLayout::Linear;
    q.twoLevel = true;
  } else {
    q.format = static_cast<ref::ScaleFormat>(reader.choice(key::ScaleFormat));
    q.layout = static_cast<ref::ScaleLayout>(reader.choice(key::ScaleLayout));
  }
  q.element = static_cast<ref::ElementType>(
      reader.choice(kind == Op::Dequantize ? key::Output : key::Input));
  if (kind != Op::QuantizeGlobalScale)
    q.twoLevel = reader.boolean(key::GlobalScale);
  if (reader.failed())
    return false;

  if (q.twoLevel && q.format != ref::ScaleFormat::NVFP4) {
    reader.failAt(Pointer("/" + std::string(key::GlobalScale)),
                  std::string("\"") + key::GlobalScale + "\" is true, but " +
                      name(q.format) +
                      " is single-level (only nvfp4 takes a global scale)");
    return false;
  }
  // quantize_global_scale covers what its quantize will: whole NVFP4 blocks.
  int64_t block = ref::blockSize(q.format);
  if (q.k % block != 0) {
    reader.failAt(Pointer("/" + std::string(key::K)),
                  "k = " + std::to_string(q.k) + " is not a multiple of the " +
                      name(q.format) + " block size " + std::to_string(block));
    return false;
  }
  // Keep the values (the largest buffer) well inside what one device
  // allocation can be.
  if (double(q.l) * double(q.rows) * double(q.k) *
          ref::elementBytes(q.element) >
      double(int64_t(1) << 40)) {
    error = "shape " + std::to_string(q.rows) + "x" + std::to_string(q.k) +
            "x" + std::to_string(q.l) + " is too large";
    return false;
  }
  return true;
}

std::string show(const std::array<uint32_t, 3> &d) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
         std::to_string(d[2]) + "]";
}

} // namespace

std::string nvfp4::run::joinPath(std::string_view dir,
                                 const std::string &file) {
  if (file.empty() || file[0] == '/' || dir.empty() || dir == ".")
    return file;
  std::string joined(dir);
  if (joined.back() != '/')
    joined += '/';
  return joined + file;
}

std::optional<Manifest> nvfp4::run::parseManifest(const json::Document &doc,
                                                  std::string_view baseDir,
                                                  std::string &error) {
  error.clear();
  FieldReader reader(doc, error);
  if (!doc.root.is_object()) {
    reader.failAt(Pointer(), "a manifest must be a JSON object, got " +
                                 std::string(json::describe(doc.root)));
    return std::nullopt;
  }
  if (!readVersion(reader, error))
    return std::nullopt;
  // Keys other than the schema's are ignored, so the compiler may record
  // extra metadata (pipeline options, register counts, ...).
  Manifest manifest;
  manifest.kernel = reader.string(key::Kernel);
  if (!reader.failed() && (manifest.kernel.size() > kMaxName ||
                           !isPtxIdentifier(manifest.kernel))) {
    reader.failAt(Pointer("/" + std::string(key::Kernel)),
                  "field \"kernel\" must be a PTX identifier of at most " +
                      std::to_string(kMaxName) + " bytes, got " +
                      inQuotes(manifest.kernel));
    return std::nullopt;
  }
  std::string ptx = reader.string(key::Ptx);
  if (!reader.failed() &&
      (ptx.size() > kMaxPath || std::any_of(ptx.begin(), ptx.end(), [](char c) {
         return (unsigned char)c < 0x20;
       }))) {
    reader.failAt(
        Pointer("/" + std::string(key::Ptx)),
        "field \"ptx\" must be a path of at most " + std::to_string(kMaxPath) +
            " bytes without control characters, got " + inQuotes(ptx));
    return std::nullopt;
  }
  manifest.ptxPath = joinPath(baseDir, ptx);

  std::string chipName = reader.string(key::Chip);
  if (!reader.failed()) {
    std::optional<Chip> chip = parseChip(chipName);
    if (!chip) {
      reader.failAt(Pointer("/" + std::string(key::Chip)),
                    "unknown chip " + inQuotes(chipName) +
                        " (expected sm_<major><minor> with an optional a or "
                        "f, e.g. sm_90a)");
      return std::nullopt;
    }
    manifest.chip = *chip;
  }

  manifest.op = reader.string(key::Op);
  if (!reader.failed()) {
    std::vector<const char *> ops = manifest::spellings(key::Op);
    auto known = std::find(ops.begin(), ops.end(), manifest.op);
    if (known == ops.end()) {
      reader.failAt(Pointer("/" + std::string(key::Op)),
                    "unsupported op " + inQuotes(manifest.op) +
                        " (nvfp4-run runs " + oneOf(ops, " and ") + ")");
      return std::nullopt;
    }
    manifest.kind = static_cast<Op>(known - ops.begin());
  }
  if (reader.failed())
    return std::nullopt;

  if (manifest.isConversion()) {
    if (!readConversion(reader, manifest.conversion, error))
      return std::nullopt;
  } else if (manifest.isQuantization()) {
    if (!readQuantization(reader, manifest.kind, manifest.quantization, error))
      return std::nullopt;
  } else if (!readGemv(reader, manifest.problem, error)) {
    return std::nullopt;
  }

  manifest.grid = reader.dims(key::Grid, (int64_t(1) << 31) - 1);
  manifest.block = reader.dims(key::Block, 1024);
  manifest.sharedBytes =
      static_cast<uint32_t>(reader.integer(key::SharedBytes, 0, 1 << 30));
  if (reader.failed())
    return std::nullopt;
  const std::array<uint32_t, 3> &b = manifest.block;
  if (uint64_t(b[0]) * b[1] * b[2] > 1024) {
    reader.failAt(Pointer("/" + std::string(key::Block)),
                  "\"block\" has " +
                      std::to_string(uint64_t(b[0]) * b[1] * b[2]) +
                      " threads; at most 1024 are allowed");
    return std::nullopt;
  }
  if (manifest.grid[1] > 65535 || manifest.grid[2] > 65535) {
    reader.failAt(Pointer("/" + std::string(key::Grid)),
                  "\"grid\" y and z must be at most 65535");
    return std::nullopt;
  }
  // Every kernel runs one batch per CTA row: grid y is L, grid z is 1. The
  // global scale is one reduction over all batches, launched as the
  // compiler sees fit.
  int64_t l = manifest.isConversion()     ? manifest.conversion.l
              : manifest.isQuantization() ? manifest.quantization.l
                                          : manifest.problem.l;
  if (manifest.kind != Op::QuantizeGlobalScale &&
      (manifest.grid[1] != l || manifest.grid[2] != 1)) {
    reader.failAt(Pointer("/" + std::string(key::Grid)),
                  "\"grid\" " + show(manifest.grid) +
                      " does not fit the shape: y must be l = " +
                      std::to_string(l) + " and z must be 1");
    return std::nullopt;
  }
  if (manifest.isConversion()) {
    // One thread per destination word (or byte) of a batch, in whole
    // blocks.
    int64_t width = layout::conversionBytesPerThread(manifest.conversion.cols);
    int64_t needed = conversionSizes(manifest.conversion).destBatch / width;
    int64_t threads = int64_t(manifest.grid[0]) * manifest.block[0];
    if (manifest.block[1] != 1 || manifest.block[2] != 1 || threads < needed ||
        threads - needed >= int64_t(manifest.block[0])) {
      reader.failAt(Pointer("/" + std::string(key::Grid)),
                    "\"grid\" " + show(manifest.grid) + " and \"block\" " +
                        show(manifest.block) + " do not fit the shape: " +
                        std::to_string(needed * width) +
                        " destination bytes a batch take one thread a " +
                        (width == 1 ? "byte" : "word"));
      return std::nullopt;
    }
  }

  manifest.params =
      readParams(reader, manifest.kind, manifest.problem.vector,
                 manifest.isQuantization() && manifest.quantization.twoLevel);
  if (reader.failed())
    return std::nullopt;
  // Only a gemv has key::TensorMaps; other ops ignore it like any key
  // outside their schema.
  if (manifest.kind == Op::Gemv) {
    if (doc.root.contains(key::Sums)) {
      manifest.problem.sums =
          static_cast<ref::GemvSums>(reader.choice(key::Sums));
      if (reader.failed())
        return std::nullopt;
    }
    if (doc.root.contains(key::TiledCodes)) {
      manifest.problem.tiledCodes = reader.boolean(key::TiledCodes);
      if (reader.failed())
        return std::nullopt;
      const ref::GemvProblem &p = manifest.problem;
      if (p.tiledCodes && !codes::tileable(p.m, p.k / 2)) {
        reader.failAt(Pointer("/" + std::string(key::TiledCodes)),
                      "tiled codes need m a multiple of " +
                          std::to_string(codes::kTileRows) +
                          " and k a multiple of " +
                          std::to_string(2 * codes::kStepRowBytes));
        return std::nullopt;
      }
    }
    std::optional<std::vector<TensorMap>> maps = readTensorMaps(
        doc, manifest.params, bufferSizes(manifest.problem).byParam(), error);
    if (!maps)
      return std::nullopt;
    manifest.tensorMaps = std::move(*maps);
  }
  manifest.fields = doc.root;
  return manifest;
}
