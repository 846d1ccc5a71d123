//===- Json.cpp - Strict JSON with value positions ------------------------===//

#include "nvfp4-run/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

using namespace nvfp4::run::json;

Position Document::at(const Pointer &pointer) const {
  auto it = positions.find(pointer.to_string());
  return it == positions.end() ? Position{} : it->second;
}

const char *nvfp4::run::json::describe(const Json &value) {
  if (value.is_null())
    return "null";
  if (value.is_boolean())
    return "a boolean";
  if (value.is_number_integer())
    return "an integer";
  if (value.is_number())
    return "a number";
  if (value.is_string())
    return "a string";
  if (value.is_array())
    return "an array";
  if (value.is_object())
    return "an object";
  return "a value";
}

std::string nvfp4::run::json::shown(const Json &value, size_t limit) {
  std::string text = value.dump(-1, ' ', /*ensure_ascii=*/true,
                                Json::error_handler_t::replace);
  if (text.size() <= limit)
    return text;
  return text.substr(0, limit) + "... (" + std::to_string(text.size()) +
         " bytes)";
}

std::string nvfp4::run::json::oneOf(const std::vector<const char *> &names,
                                    const char *last) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += std::string(i == 0                  ? ""
                        : i + 1 == names.size() ? last
                                                : ", ") +
            names[i];
  return text;
}

namespace {

/// A byte iterator that counts what the parser has consumed: the SAX
/// callbacks carry no positions, but the count at each callback bounds where
/// the value ended.
class CountingIterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;

  CountingIterator(const char *p, size_t *consumed)
      : p(p), consumed(consumed) {}
  reference operator*() const { return *p; }
  CountingIterator &operator++() {
    ++p;
    ++*consumed;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator &o) const { return p == o.p; }
  bool operator!=(const CountingIterator &o) const { return p != o.p; }

private:
  const char *p;
  size_t *consumed;
};

/// Builds the DOM like nlohmann's own handler, plus positions and checks.
class Builder : public nlohmann::json_sax<Json> {
public:
  Builder(std::string_view text, const size_t &consumed, Document &doc)
      : text(text), consumed(consumed), doc(doc) {}

  std::string error;

  bool null() override { return add(nullptr); }
  bool boolean(bool value) override { return add(value); }
  bool number_integer(number_integer_t value) override { return add(value); }
  bool number_unsigned(number_unsigned_t value) override {
    // Integers beyond int64_t are numbers, not integers, to every reader.
    if (value > uint64_t(std::numeric_limits<int64_t>::max()))
      return add(static_cast<double>(value));
    return add(static_cast<int64_t>(value));
  }
  bool number_float(number_float_t value, const string_t &) override {
    if (!std::isfinite(value))
      return fail(valueStart(), "number out of range");
    return add(value);
  }
  bool string(string_t &value) override { return add(std::move(value)); }
  bool binary(binary_t &) override { // only from binary formats, not JSON
    return fail(valueStart(), "unexpected binary value");
  }

  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t &name) override {
    size_t start = valueStart();
    Frame &frame = stack.back();
    if (frame.value->contains(name))
      return fail(start, "duplicate key \"" + name + "\"");
    frame.key = name;
    return true;
  }

  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    // 406: a number beyond the double range, reported where it starts.
    if (ex.id == 406)
      return fail(valueStart(), "number out of range");
    // "[json.exception.parse_error.101] parse error at line 1, column 9:
    // syntax error ..." -> "syntax error ..."; the position is ours.
    std::string message = ex.what();
    if (size_t tag = message.find("] "); tag != std::string::npos)
      message = message.substr(tag + 2);
    if (message.rfind("parse error", 0) == 0)
      if (size_t colon = message.find(": "); colon != std::string::npos)
        message = message.substr(colon + 2);
    size_t at = position == 0 ? 0 : std::min(position, text.size() + 1) - 1;
    return fail(at, message);
  }

private:
  struct Frame {
    Json *value;
    std::string pointer;
    std::string key; // the key of the next member of an object
  };

  std::string_view text;
  const size_t &consumed;
  Document &doc;
  std::vector<Frame> stack;
  size_t lastEnd = 0; // bytes consumed at the previous callback
  size_t cursor = 0;  // position() has counted lines up to here
  Position cursorPos{1, 1};

  /// Start of the value (or key) whose callback is running: the first byte
  /// after the previous callback that is not a separator.
  size_t valueStart() {
    size_t i = lastEnd;
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
            text[i] == '\r' || text[i] == ',' || text[i] == ':'))
      ++i;
    lastEnd = consumed;
    return i;
  }

  /// Line and column of byte `offset`. Values arrive in text order, so the
  /// scan resumes where the previous one stopped (linear in the text, not
  /// quadratic in the number of values).
  Position position(size_t offset) {
    offset = std::min(offset, text.size());
    if (offset < cursor) {
      cursor = 0;
      cursorPos = {1, 1};
    }
    for (; cursor < offset; ++cursor) {
      if (text[cursor] == '\n') {
        ++cursorPos.line;
        cursorPos.column = 1;
      } else {
        ++cursorPos.column;
      }
    }
    return cursorPos;
  }

  bool fail(size_t offset, const std::string &message) {
    if (error.empty()) {
      Position pos = position(offset);
      error = std::to_string(pos.line) + ":" + std::to_string(pos.column) +
              ": " + message;
    }
    return false;
  }

  /// The JSON pointer of the value about to be added.
  std::string nextPointer() const {
    if (stack.empty())
      return "";
    const Frame &frame = stack.back();
    Pointer parent(frame.pointer);
    return (frame.value->is_array() ? parent / frame.value->size()
                                    : parent / frame.key)
        .to_string();
  }

  /// Stores `value` at its place in the DOM, starting at byte `start`;
  /// returns where it went.
  Json *place(Json value, size_t start) {
    doc.positions[nextPointer()] = position(start);
    if (stack.empty())
      return &(doc.root = std::move(value));
    Frame &frame = stack.back();
    if (!frame.value->is_array())
      return &((*frame.value)[frame.key] = std::move(value));
    frame.value->push_back(std::move(value));
    return &frame.value->back();
  }

  bool add(Json value) {
    place(std::move(value), valueStart());
    return true;
  }

  bool open(Json container) {
    size_t start = valueStart();
    if (stack.size() >= 128)
      return fail(start, "nesting deeper than 128");
    std::string pointer = nextPointer();
    stack.push_back({place(std::move(container), start), pointer, ""});
    return true;
  }

  bool close() {
    lastEnd = consumed;
    stack.pop_back();
    return true;
  }
};

} // namespace

std::optional<Document> nvfp4::run::json::parse(std::string_view text,
                                                std::string &error) {
  Document doc;
  size_t consumed = 0;
  Builder builder(text, consumed, doc);
  CountingIterator first(text.data(), &consumed);
  CountingIterator last(text.data() + text.size(), &consumed);
  bool ok = Json::sax_parse(first, last, &builder);
  if (!ok || !builder.error.empty()) {
    error = builder.error.empty() ? "1:1: invalid JSON" : builder.error;
    return std::nullopt;
  }
  return doc;
}
