//===- Json.h - A small strict JSON reader for manifests --------*- C++ -*-===//
//
// Manifests are written by the compiler and read here; a strict parser with
// line/column diagnostics keeps the contract between the two honest without
// pulling in a JSON library (the runner must build with a bare toolchain).
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_JSON_H
#define NVFP4_RUN_JSON_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvfp4::run::json {

/// One JSON value with the position it started at (1-based), so that
/// consumers can point at the offending value in their own diagnostics.
struct Value {
  enum class Kind { Null, Bool, Integer, Number, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  int64_t integer = 0; // Kind::Integer only
  double number = 0;   // Kind::Integer and Kind::Number
  std::string string;
  /// Array elements, or object member values (parallel to `keys`).
  std::vector<Value> items;
  std::vector<std::string> keys; // Kind::Object only, in source order
  int line = 0, column = 0;

  bool isInteger() const { return kind == Kind::Integer; }
  bool isNumber() const {
    return kind == Kind::Integer || kind == Kind::Number;
  }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  /// Member `key` of an object, or null when absent (or not an object).
  const Value *find(std::string_view key) const;
};

/// Name of a kind for diagnostics ("an integer", "a string", ...).
const char *describe(Value::Kind kind);

/// Parses one JSON document (RFC 8259: no comments, no trailing commas,
/// duplicate object keys rejected). On failure returns nullopt and sets
/// `error` to "LINE:COL: message".
std::optional<Value> parse(std::string_view text, std::string &error);

/// `text` as a JSON string literal, quotes included.
std::string quote(std::string_view text);

} // namespace nvfp4::run::json

#endif // NVFP4_RUN_JSON_H
