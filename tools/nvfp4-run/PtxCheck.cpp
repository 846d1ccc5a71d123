//===- PtxCheck.cpp - Does the PTX match its manifest? --------------------===//
//
// A light scan of the PTX text (no PTX parser): enough to catch a manifest
// and a kernel that went out of step before the driver refuses the launch
// with a less helpful message.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/Manifest.h"

#include <cstdlib>

using namespace nvfp4;
using namespace nvfp4::run;

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
  std::optional<std::array<uint32_t, 3>> required =
      readDims(directives, ".reqntid");
  if (!required)
    return ".entry " + manifest.kernel +
           " has no .reqntid, so its block size cannot be checked";
  if (*required != block)
    return ".entry " + manifest.kernel + " requires block " + show(*required) +
           ", the manifest says " + show(block);
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

/// The bytes of the initializer of global `symbol` ("= {103, 101, ...}"),
/// or nullopt when there is no such global or it is not a byte list.
std::optional<std::string> readByteArray(const std::string &ptx,
                                         const std::string &symbol) {
  for (size_t pos = ptx.find(symbol); pos != std::string::npos;
       pos = ptx.find(symbol, pos + 1)) {
    size_t end = pos + symbol.size();
    if ((pos > 0 && isIdentChar(ptx[pos - 1])) || end >= ptx.size() ||
        ptx[end] != '[')
      continue;
    size_t open = ptx.find('{', end), semi = ptx.find(';', end);
    if (open == std::string::npos || open > semi)
      return std::nullopt;
    size_t close = ptx.find('}', open);
    if (close == std::string::npos)
      return std::nullopt;
    std::string bytes;
    for (const std::string &token : splitTokens(
             std::string_view(ptx).substr(open + 1, close - open - 1))) {
      char *rest = nullptr;
      unsigned long value = std::strtoul(token.c_str(), &rest, 10);
      if (token.empty() || *rest != 0 || value > 255)
        return std::nullopt;
      bytes += static_cast<char>(value);
    }
    // A C string: the terminating zero is not part of the text.
    if (!bytes.empty() && bytes.back() == 0)
      bytes.pop_back();
    return bytes;
  }
  return std::nullopt;
}

/// Moves `a` and `b`, two values that differ, to the first differing member
/// of two objects with the same keys, or to the first differing element of
/// two arrays of one length when both elements are objects, and so on
/// inwards; appends each step to `path` ("tensor_maps[0].box").
void narrowDifference(const json::Json *&a, const json::Json *&b,
                      std::string &path) {
  for (;;) {
    if (a->is_object() && b->is_object() && a->size() == b->size()) {
      const json::Json *nextA = nullptr, *nextB = nullptr;
      std::string step;
      for (const auto &item : a->items()) {
        auto other = b->find(item.key());
        if (other == b->end())
          return; // other keys: the objects differ as a whole
        if (!nextA && item.value() != *other) {
          nextA = &item.value();
          nextB = &*other;
          step = "." + item.key();
        }
      }
      if (!nextA)
        return;
      a = nextA;
      b = nextB;
      path += step;
    } else if (a->is_array() && b->is_array() && a->size() == b->size()) {
      size_t i = 0;
      while (i < a->size() && (*a)[i] == (*b)[i])
        ++i;
      if (i == a->size() || !(*a)[i].is_object() || !(*b)[i].is_object())
        return;
      a = &(*a)[i];
      b = &(*b)[i];
      path += "[" + std::to_string(i) + "]";
    } else {
      return;
    }
  }
}

/// Compares the manifest's fields with the signature the compiler embedded.
std::string checkSignature(const Manifest &manifest, const std::string &ptx) {
  std::string symbol = manifest::signatureSymbol(manifest.kernel);
  std::optional<std::string> text = readByteArray(ptx, symbol);
  if (!text)
    return manifest.ptxPath + " has no signature of " + manifest.kernel +
           " (global " + symbol +
           "), so its shape and formats cannot be checked";
  std::string error;
  std::optional<json::Document> signature = json::parse(*text, error);
  if (!signature || !signature->root.is_object())
    return "the signature of " + manifest.kernel + " in " + manifest.ptxPath +
           " is not a JSON object";
  for (const char *key : manifest::signatureKeys(manifest.kind)) {
    auto built = signature->root.find(key);
    auto said = manifest.fields.find(key);
    // Only optional keys can be absent from the manifest; either side
    // lacking what the other has is a mismatch.
    if (built == signature->root.end() && said == manifest.fields.end())
      continue;
    if (built == signature->root.end())
      return "the signature of " + manifest.kernel + " lacks \"" + key + "\"";
    if (said == manifest.fields.end())
      return "the manifest has no \"" + std::string(key) + "\", but " +
             manifest.kernel + " was built with " + json::shown(*built);
    if (*built != *said) {
      // Name the innermost differing field of a list of objects (a tensor
      // map's "box"), which a message cut to 64 bytes would hide.
      std::string path = key;
      const json::Json *a = &*said, *b = &*built;
      narrowDifference(a, b, path);
      return "\"" + path + "\" is " + json::shown(*a) +
             " in the manifest, but " + manifest.kernel + " was built for " +
             json::shown(*b);
    }
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
    if (error.empty())
      error = checkSignature(manifest, ptx);
    return error.empty() ? "" : prefix + error;
  }
  return prefix + manifest.ptxPath + " has no .entry " + manifest.kernel;
}
