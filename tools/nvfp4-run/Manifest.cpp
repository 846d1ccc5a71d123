//===- Manifest.cpp - The compiler's description of a kernel --------------===//

#include "nvfp4-run/Manifest.h"

#include "nvfp4/Support/ScaleLayout.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

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
  sizes.b = p.l * (p.k / 2);
  sizes.sfb = p.l * ref::scaleBatchBytes(p.layout, 1, scaleCols);
  sizes.c = p.l * p.m * ref::elementBytes(p.output);
  return sizes;
}

ConversionSizes nvfp4::run::conversionSizes(const ConversionProblem &p) {
  ConversionSizes sizes;
  sizes.source = p.l * ref::scaleBatchBytes(p.from, p.rows, p.cols);
  sizes.destBatch = ref::scaleBatchBytes(p.to, p.rows, p.cols);
  sizes.dest = p.l * sizes.destBatch;
  return sizes;
}

int64_t nvfp4::run::uniqueBytes(const Manifest &manifest) {
  return manifest.isConversion() ? conversionSizes(manifest.conversion).unique()
                                 : bufferSizes(manifest.problem).unique();
}

const char *nvfp4::run::name(Param param) {
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

const char *nvfp4::run::name(ScaleElement element) {
  return element == ScaleElement::F8E4M3FN ? "f8E4M3FN" : "f8E8M0FNU";
}

std::string nvfp4::run::describe(const Manifest &manifest) {
  if (manifest.isConversion()) {
    const ConversionProblem &c = manifest.conversion;
    return manifest.op + " " + std::to_string(c.rows) + "x" +
           std::to_string(c.cols) + "x" + std::to_string(c.l) + " " +
           name(c.from) + "->" + name(c.to) + " " + name(c.element);
  }
  const ref::GemvProblem &p = manifest.problem;
  return manifest.op + " " + std::to_string(p.m) + "x" + std::to_string(p.k) +
         "x" + std::to_string(p.l) + " " + name(p.format) + " " +
         name(p.layout) + " " + name(p.output);
}

//===----------------------------------------------------------------------===//
// Reading fields
//===----------------------------------------------------------------------===//

namespace {

std::string at(const json::Value &value, const std::string &message) {
  return std::to_string(value.line) + ":" + std::to_string(value.column) +
         ": " + message;
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

/// Reads the manifest's fields one by one; the first error wins.
class FieldReader {
public:
  FieldReader(const json::Value &root, std::string &error)
      : root(root), error(error) {}

  bool failed() const { return !error.empty(); }

  const json::Value *require(const char *key, json::Value::Kind kind,
                             const char *what) {
    if (failed())
      return nullptr;
    const json::Value *value = root.find(key);
    if (!value) {
      error = "missing field " + quoted(key);
      return nullptr;
    }
    bool ok = value->kind == kind ||
              (kind == json::Value::Kind::Number && value->isNumber());
    if (!ok) {
      error = at(*value, "field " + quoted(key) + " must be " + what +
                             ", got " + json::describe(value->kind));
      return nullptr;
    }
    return value;
  }

  std::string string(const char *key) {
    const json::Value *value =
        require(key, json::Value::Kind::String, "a string");
    if (value && value->string.empty())
      error = at(*value, "field " + quoted(key) + " must not be empty");
    return value && !failed() ? value->string : "";
  }

  int64_t integer(const char *key, int64_t min, int64_t max) {
    const json::Value *value =
        require(key, json::Value::Kind::Integer, "an integer");
    if (!value)
      return 0;
    checkRange(*value, key, min, max);
    return value->integer;
  }

  std::array<uint32_t, 3> dims(const char *key, int64_t max) {
    std::array<uint32_t, 3> result{};
    const json::Value *value =
        require(key, json::Value::Kind::Array, "an array of 3 integers");
    if (!value)
      return result;
    if (value->items.size() != 3) {
      error = at(*value, "field " + quoted(key) +
                             " must be an array of 3 integers, got " +
                             std::to_string(value->items.size()) + " elements");
      return result;
    }
    for (size_t i = 0; i < 3 && !failed(); ++i) {
      const json::Value &item = value->items[i];
      std::string element = std::string(key) + "[" + std::to_string(i) + "]";
      if (!item.isInteger()) {
        error = at(item, quoted(element) + " must be an integer, got " +
                             json::describe(item.kind));
        return result;
      }
      checkRange(item, element.c_str(), 1, max);
      result[i] = static_cast<uint32_t>(item.integer);
    }
    return result;
  }

  /// One of `names` (matched exactly); returns its index.
  size_t choice(const char *key, std::initializer_list<const char *> names) {
    const json::Value *value =
        require(key, json::Value::Kind::String, "a string");
    if (!value)
      return 0;
    size_t index = 0;
    std::string expected;
    for (const char *candidate : names) {
      if (value->string == candidate)
        return index;
      expected += (index ? (index + 1 == names.size() ? " or " : ", ") : "");
      expected += candidate;
      ++index;
    }
    error =
        at(*value, "unknown " + std::string(key) + " " + quoted(value->string) +
                       " (expected " + expected + ")");
    return 0;
  }

private:
  const json::Value &root;
  std::string &error;

  void checkRange(const json::Value &value, const char *key, int64_t min,
                  int64_t max) {
    if (failed() || (value.integer >= min && value.integer <= max))
      return;
    error = at(value, "field " + quoted(key) + " must be in [" +
                          std::to_string(min) + ", " + std::to_string(max) +
                          "], got " + std::to_string(value.integer));
  }
};

/// The parameters a kernel of `kind` takes: `required` must all be listed,
/// `optional` may be.
struct ParamSet {
  std::vector<Param> required, optional;
  const char *expected; // for "unknown parameter" errors
  const char *mustList; // for "lacks" errors
};

ParamSet paramSet(Op kind) {
  if (kind == Op::ConvertScaleLayout)
    return {
        {Param::Source, Param::Dest}, {}, "source, dest", "source and dest"};
  return {{Param::A, Param::SFA, Param::B, Param::SFB, Param::C},
          {Param::Alpha},
          "a, sfa, b, sfb, c, alpha",
          "a, sfa, b, sfb, c and optionally alpha"};
}

/// Reads "params": a permutation of the op's required parameters, with any
/// of its optional ones (a gemv's alpha).
std::vector<Param> readParams(FieldReader &reader, Op kind,
                              std::string &error) {
  std::vector<Param> params;
  const json::Value *list = reader.require("params", json::Value::Kind::Array,
                                           "an array of parameter names");
  if (!list)
    return params;
  ParamSet set = paramSet(kind);
  std::vector<Param> all = set.required;
  all.insert(all.end(), set.optional.begin(), set.optional.end());
  for (const json::Value &item : list->items) {
    if (!item.isString()) {
      error = at(item, "\"params\" entries must be strings, got " +
                           std::string(json::describe(item.kind)));
      return params;
    }
    const Param *found = nullptr;
    for (const Param &param : all)
      if (item.string == name(param))
        found = &param;
    if (!found) {
      error = at(item, "unknown parameter " + quoted(item.string) +
                           " (expected " + set.expected + ")");
      return params;
    }
    for (Param seen : params)
      if (seen == *found) {
        error = at(item, "parameter " + quoted(item.string) + " listed twice");
        return params;
      }
    params.push_back(*found);
  }
  for (Param param : set.required) {
    bool present = false;
    for (Param seen : params)
      present |= seen == param;
    if (!present) {
      error = at(*list, "\"params\" lacks " + quoted(name(param)) +
                            " (it must list " + set.mustList + ")");
      return params;
    }
  }
  return params;
}

/// Reads the shape and formats of a gemv.
bool readGemv(const json::Value &root, FieldReader &reader, ref::GemvProblem &p,
              std::string &error) {
  // Dimensions beyond 2^31 would overflow the products below and the
  // kernels' 32-bit index arithmetic alike.
  constexpr int64_t kMaxDim = int64_t(1) << 31;
  p.m = reader.integer("m", 1, kMaxDim);
  p.k = reader.integer("k", 1, kMaxDim);
  p.l = reader.integer("l", 1, kMaxDim);
  p.format = reader.choice("scale_format", {"nvfp4", "mxfp4"}) == 0
                 ? ref::ScaleFormat::NVFP4
                 : ref::ScaleFormat::MXFP4;
  p.layout = reader.choice("scale_layout", {"linear", "blocked128x4"}) == 0
                 ? ref::ScaleLayout::Linear
                 : ref::ScaleLayout::Blocked128x4;
  static const ref::ElementType outputs[] = {
      ref::ElementType::F16, ref::ElementType::BF16, ref::ElementType::F32};
  p.output = outputs[reader.choice("output", {"f16", "bf16", "f32"})];
  if (reader.failed())
    return false;

  int64_t block = ref::blockSize(p.format);
  if (p.k % block != 0) {
    error = at(*root.find("k"),
               "k = " + std::to_string(p.k) + " is not a multiple of the " +
                   name(p.format) + " block size " + std::to_string(block));
    return false;
  }
  // Keep every buffer well inside what one device allocation can be.
  if (double(p.l) * double(p.m) * double(p.k) / 2 > double(int64_t(1) << 40)) {
    error = "shape " + std::to_string(p.m) + "x" + std::to_string(p.k) + "x" +
            std::to_string(p.l) + " is too large";
    return false;
  }
  return true;
}

/// Reads the shape and layouts of a convert_scale_layout.
bool readConversion(const json::Value &root, FieldReader &reader,
                    ConversionProblem &c, std::string &error) {
  // Dimensions beyond 2^31 would overflow the products below and the
  // kernels' 32-bit index arithmetic alike.
  constexpr int64_t kMaxDim = int64_t(1) << 31;
  c.rows = reader.integer("rows", 1, kMaxDim);
  c.cols = reader.integer("cols", 1, kMaxDim);
  c.l = reader.integer("l", 1, kMaxDim);
  c.from = reader.choice("from", {"linear", "blocked128x4"}) == 0
               ? ref::ScaleLayout::Linear
               : ref::ScaleLayout::Blocked128x4;
  c.to = reader.choice("to", {"linear", "blocked128x4"}) == 0
             ? ref::ScaleLayout::Linear
             : ref::ScaleLayout::Blocked128x4;
  c.element = reader.choice("element", {"f8E4M3FN", "f8E8M0FNU"}) == 0
                  ? ScaleElement::F8E4M3FN
                  : ScaleElement::F8E8M0FNU;
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

std::string joinPath(std::string_view dir, const std::string &file) {
  if (file.empty() || file[0] == '/' || dir.empty() || dir == ".")
    return file;
  std::string joined(dir);
  if (joined.back() != '/')
    joined += '/';
  return joined + file;
}

} // namespace

std::optional<Manifest> nvfp4::run::parseManifest(const json::Value &root,
                                                  std::string_view baseDir,
                                                  std::string &error) {
  error.clear();
  if (!root.isObject()) {
    error = at(root, "a manifest must be a JSON object, got " +
                         std::string(json::describe(root.kind)));
    return std::nullopt;
  }
  // Keys other than the ones read here are ignored, so the compiler may
  // record extra metadata (pipeline options, register counts, ...).
  FieldReader reader(root, error);
  Manifest manifest;
  manifest.kernel = reader.string("kernel");
  std::string ptx = reader.string("ptx");
  manifest.ptxPath = joinPath(baseDir, ptx);

  std::string chipName = reader.string("chip");
  if (!reader.failed()) {
    std::optional<Chip> chip = parseChip(chipName);
    if (!chip) {
      error = at(*root.find("chip"),
                 "unknown chip " + quoted(chipName) +
                     " (expected sm_<major><minor> with an optional a or f, "
                     "e.g. sm_90a)");
      return std::nullopt;
    }
    manifest.chip = *chip;
  }

  manifest.op = reader.string("op");
  if (!reader.failed()) {
    if (manifest.op == "convert_scale_layout") {
      manifest.kind = Op::ConvertScaleLayout;
    } else if (manifest.op != "gemv") {
      error = at(*root.find("op"),
                 "unsupported op " + quoted(manifest.op) +
                     " (nvfp4-run runs gemv and convert_scale_layout)");
      return std::nullopt;
    }
  }
  if (reader.failed())
    return std::nullopt;

  if (manifest.isConversion()) {
    if (!readConversion(root, reader, manifest.conversion, error))
      return std::nullopt;
  } else if (!readGemv(root, reader, manifest.problem, error)) {
    return std::nullopt;
  }

  manifest.grid = reader.dims("grid", (int64_t(1) << 31) - 1);
  manifest.block = reader.dims("block", 1024);
  manifest.sharedBytes =
      static_cast<uint32_t>(reader.integer("shared_bytes", 0, 1 << 30));
  if (reader.failed())
    return std::nullopt;
  const std::array<uint32_t, 3> &b = manifest.block;
  if (uint64_t(b[0]) * b[1] * b[2] > 1024) {
    error = at(*root.find("block"),
               "\"block\" has " + std::to_string(uint64_t(b[0]) * b[1] * b[2]) +
                   " threads; at most 1024 are allowed");
    return std::nullopt;
  }
  if (manifest.grid[1] > 65535 || manifest.grid[2] > 65535) {
    error = at(*root.find("grid"), "\"grid\" y and z must be at most 65535");
    return std::nullopt;
  }

  manifest.params = readParams(reader, manifest.kind, error);
  if (!error.empty())
    return std::nullopt;
  return manifest;
}

//===----------------------------------------------------------------------===//
// Checking the PTX
//===----------------------------------------------------------------------===//

namespace {

/// PTX with comments blanked out, so that directives in comments are not
/// mistaken for real ones.
std::string stripComments(std::string_view ptx) {
  std::string out(ptx);
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '/' && out[i + 1] == '/') {
      for (; i < out.size() && out[i] != '\n'; ++i)
        out[i] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i)
        if (out[i] != '\n')
          out[i] = ' ';
      --i;
    }
  }
  return out;
}

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Position of directive `word` (".entry", ".target") as a whole token at
/// or after `from`, or npos.
size_t findDirective(const std::string &ptx, std::string_view word,
                     size_t from) {
  for (size_t pos = ptx.find(word, from); pos != std::string::npos;
       pos = ptx.find(word, pos + 1)) {
    bool startOk = pos == 0 || !isIdentChar(ptx[pos - 1]);
    size_t end = pos + word.size();
    bool endOk = end >= ptx.size() || !isIdentChar(ptx[end]);
    if (startOk && endOk)
      return pos;
  }
  return std::string::npos;
}

std::vector<std::string> splitTokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string current;
  for (char c : text) {
    if (isSpace(c) || c == ',') {
      if (!current.empty())
        tokens.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty())
    tokens.push_back(std::move(current));
  return tokens;
}

/// The type of one ".param" declaration (".u64", ".f32", ...), or "" when it
/// is not a scalar (e.g. an aggregate ".b8 x[16]").
std::string paramType(std::string_view decl) {
  std::vector<std::string> tokens = splitTokens(decl);
  if (tokens.empty() || tokens[0] != ".param" || tokens.size() < 3 ||
      tokens.back().find('[') != std::string::npos)
    return "";
  return tokens[1];
}

std::string checkParamTypes(const Manifest &manifest, std::string_view list) {
  std::vector<std::string> decls;
  std::string current;
  for (char c : list) {
    if (c == ',') {
      decls.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!splitTokens(current).empty() || !decls.empty())
    decls.push_back(current);

  if (decls.size() != manifest.params.size())
    return ".entry " + manifest.kernel + " takes " +
           std::to_string(decls.size()) + " parameters, the manifest lists " +
           std::to_string(manifest.params.size());
  for (size_t i = 0; i < decls.size(); ++i) {
    Param param = manifest.params[i];
    std::string type = paramType(decls[i]);
    bool ok = param == Param::Alpha
                  ? type == ".f32" || type == ".b32"
                  : type == ".u64" || type == ".b64" || type == ".s64";
    if (!ok)
      return "parameter " + std::to_string(i) + " (" + name(param) +
             ") of .entry " + manifest.kernel + " is " +
             (type.empty() ? std::string("not a scalar") : type) +
             ", expected " + (param == Param::Alpha ? ".f32" : ".u64");
  }
  return "";
}

/// The dimensions after directive `word` (".reqntid 128, 1, 1"); missing
/// trailing dimensions are 1. Nullopt when the directive is absent.
std::optional<std::array<uint32_t, 3>> readDims(std::string_view directives,
                                                std::string_view word) {
  size_t pos = directives.find(word);
  if (pos == std::string::npos)
    return std::nullopt;
  std::vector<std::string> tokens =
      splitTokens(directives.substr(pos + word.size()));
  std::array<uint32_t, 3> dims = {1, 1, 1};
  for (size_t i = 0; i < 3 && i < tokens.size(); ++i) {
    if (tokens[i].empty() || tokens[i][0] < '0' || tokens[i][0] > '9')
      break;
    dims[i] =
        static_cast<uint32_t>(std::strtoul(tokens[i].c_str(), nullptr, 10));
  }
  return dims;
}

std::string show(const std::array<uint32_t, 3> &d) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
         std::to_string(d[2]) + "]";
}

/// Checks ".reqntid" and ".maxntid" among the entry's performance directives
/// (between its parameter list and its body) against the launch block: the
/// driver would refuse the launch with a less helpful message.
std::string checkBlockDirectives(const Manifest &manifest,
                                 std::string_view directives) {
  const std::array<uint32_t, 3> &block = manifest.block;
  if (auto required = readDims(directives, ".reqntid"))
    if (*required != block)
      return ".entry " + manifest.kernel + " requires block " +
             show(*required) + ", the manifest says " + show(block);
  if (auto max = readDims(directives, ".maxntid")) {
    uint64_t limit = uint64_t((*max)[0]) * (*max)[1] * (*max)[2];
    if (uint64_t(block[0]) * block[1] * block[2] > limit)
      return ".entry " + manifest.kernel + " allows at most " +
             std::to_string(limit) +
             " threads a block (.maxntid), the "
             "manifest's block " +
             show(block) + " has " +
             std::to_string(uint64_t(block[0]) * block[1] * block[2]);
  }
  return "";
}

} // namespace

std::string nvfp4::run::checkPtx(const Manifest &manifest,
                                 std::string_view ptxText) {
  const std::string prefix = "manifest does not match the PTX: ";
  std::string ptx = stripComments(ptxText);

  size_t target = findDirective(ptx, ".target", 0);
  if (target == std::string::npos)
    return prefix + manifest.ptxPath + " has no .target directive";
  size_t lineEnd = ptx.find('\n', target);
  std::vector<std::string> targets = splitTokens(
      std::string_view(ptx).substr(target + 7, lineEnd - (target + 7)));
  std::string ptxChip = targets.empty() ? "" : targets[0];
  if (ptxChip != manifest.chip.name)
    return prefix + manifest.ptxPath + " targets " + ptxChip +
           ", the manifest says " + manifest.chip.name;

  // Find ".entry <kernel>" followed by its parameter list.
  for (size_t entry = findDirective(ptx, ".entry", 0);
       entry != std::string::npos;
       entry = findDirective(ptx, ".entry", entry + 1)) {
    size_t pos = entry + 6;
    while (pos < ptx.size() && isSpace(ptx[pos]))
      ++pos;
    size_t nameEnd = pos;
    while (nameEnd < ptx.size() && isIdentChar(ptx[nameEnd]))
      ++nameEnd;
    if (ptx.compare(pos, nameEnd - pos, manifest.kernel) != 0 ||
        nameEnd - pos != manifest.kernel.size())
      continue;
    while (nameEnd < ptx.size() && isSpace(ptx[nameEnd]))
      ++nameEnd;
    std::string_view list;
    size_t afterList = nameEnd;
    if (nameEnd < ptx.size() && ptx[nameEnd] == '(') {
      size_t close = ptx.find(')', nameEnd);
      if (close == std::string::npos)
        return prefix + "unterminated parameter list of .entry " +
               manifest.kernel;
      list = std::string_view(ptx).substr(nameEnd + 1, close - nameEnd - 1);
      afterList = close + 1;
    }
    std::string error = checkParamTypes(manifest, list);
    if (error.empty()) {
      size_t body = ptx.find('{', afterList);
      error = checkBlockDirectives(
          manifest, std::string_view(ptx).substr(afterList, body - afterList));
    }
    return error.empty() ? "" : prefix + error;
  }
  return prefix + manifest.ptxPath + " has no .entry " + manifest.kernel;
}

std::optional<Manifest> nvfp4::run::loadManifest(const std::string &path,
                                                 std::string &error) {
  auto readFile = [](const std::string &file, std::string &contents) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
      return false;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    contents = buffer.str();
    return !in.bad();
  };

  std::string text;
  if (!readFile(path, text)) {
    error = path + ": cannot read the manifest";
    return std::nullopt;
  }
  std::optional<json::Value> root = json::parse(text, error);
  if (!root) {
    error = path + ":" + error;
    return std::nullopt;
  }
  size_t slash = path.rfind('/');
  std::string baseDir = slash == std::string::npos ? "" : path.substr(0, slash);
  if (slash == 0)
    baseDir = "/";
  std::optional<Manifest> manifest = parseManifest(*root, baseDir, error);
  if (!manifest) {
    // Located errors start with a digit ("3:14: ..."); keep "path:3:14:".
    bool located = !error.empty() && error[0] >= '0' && error[0] <= '9';
    error = path + (located ? ":" : ": ") + error;
    return std::nullopt;
  }
  manifest->path = path;
  if (!readFile(manifest->ptxPath, manifest->ptx)) {
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
