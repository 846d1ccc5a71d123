//===- Json.h - Strict JSON with value positions ----------------*- C++ -*-===//
//
// Manifests are parsed with nlohmann-json. Its DOM forgets where a value was
// and keeps the last of two duplicate keys, so parsing goes through a SAX
// handler that builds the same DOM, records the line and column of every
// value (so that a bad field is reported where it is) and rejects duplicate
// keys.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_JSON_H
#define NVFP4_RUN_JSON_H

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvfp4::run::json {

using Json = nlohmann::json;
using Pointer = Json::json_pointer;

/// 1-based line and column (in bytes) of a value's first character.
struct Position {
  int line = 0, column = 0;
};

/// A parsed document and where each of its values starts.
struct Document {
  Json root;
  std::map<std::string, Position> positions; // by JSON pointer string

  /// Position of the value at `pointer` ({0, 0} when there is none).
  Position at(const Pointer &pointer) const;
};

/// Parses one JSON document strictly (RFC 8259: no comments, no trailing
/// commas; duplicate keys, nesting deeper than 128 and numbers beyond the
/// double range are rejected too). Integers that do not fit int64_t become
/// floating-point numbers. On failure returns nullopt and sets `error` to
/// "LINE:COL: message".
std::optional<Document> parse(std::string_view text, std::string &error);

/// `value` as JSON text on one line (ASCII; bytes that are not UTF-8 as
/// U+FFFD), cut after `limit` bytes, for messages.
std::string shown(const Json &value, size_t limit = 64);

/// Name of a value's type for diagnostics ("an integer", "a string", ...).
const char *describe(const Json &value);

/// "a, b or c" (with `last` between the last two), for messages.
std::string oneOf(const std::vector<const char *> &names,
                  const char *last = " or ");

} // namespace nvfp4::run::json

#endif // NVFP4_RUN_JSON_H
