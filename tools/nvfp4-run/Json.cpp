//===- Json.cpp - A small strict JSON reader ------------------------------===//

#include "nvfp4-run/Json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace nvfp4::run::json;

const Value *Value::find(std::string_view key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key)
      return &items[i];
  return nullptr;
}

const char *nvfp4::run::json::describe(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "a boolean";
  case Value::Kind::Integer:
    return "an integer";
  case Value::Kind::Number:
    return "a number";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::Array:
    return "an array";
  case Value::Kind::Object:
    return "an object";
  }
  return "a value";
}

namespace {

/// Recursive-descent parser over a byte string. Positions are counted in
/// bytes, which is what editors show for the ASCII manifests we read.
class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  std::optional<Value> parseDocument(std::string &error) {
    skipSpace();
    std::optional<Value> value = parseValue(0);
    if (value) {
      skipSpace();
      if (pos != text.size())
        fail("unexpected text after the JSON value");
    }
    if (!message.empty()) {
      error = std::to_string(errLine) + ":" + std::to_string(errColumn) + ": " +
              message;
      return std::nullopt;
    }
    return value;
  }

private:
  // Deep nesting only comes from corrupt input; bound the recursion.
  static constexpr int kMaxDepth = 128;

  std::string_view text;
  size_t pos = 0;
  int line = 1, column = 1;
  std::string message;
  int errLine = 0, errColumn = 0;

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void advance() {
    if (text[pos] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++pos;
  }

  /// Records the first error at the current position.
  std::nullopt_t fail(const std::string &what) {
    return failAt(what, line, column);
  }
  std::nullopt_t failAt(const std::string &what, int atLine, int atColumn) {
    if (message.empty()) {
      message = what;
      errLine = atLine;
      errColumn = atColumn;
    }
    return std::nullopt;
  }

  std::string describeHere() const {
    if (atEnd())
      return "end of input";
    char c = peek();
    if (c >= 0x20 && c < 0x7f)
      return std::string("'") + c + "'";
    char buf[16];
    std::snprintf(buf, sizeof(buf), "byte 0x%02x",
                  static_cast<unsigned char>(c));
    return buf;
  }

  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      advance();
  }

  bool consumeWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    for (size_t i = 0; i < word.size(); ++i)
      advance();
    return true;
  }

  std::optional<Value> parseValue(int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth));
    Value value;
    value.line = line;
    value.column = column;
    char c = peek();
    if (c == '{')
      return parseObject(std::move(value), depth);
    if (c == '[')
      return parseArray(std::move(value), depth);
    if (c == '"') {
      std::optional<std::string> s = parseString();
      if (!s)
        return std::nullopt;
      value.kind = Value::Kind::String;
      value.string = std::move(*s);
      return value;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(std::move(value));
    if (consumeWord("true")) {
      value.kind = Value::Kind::Bool;
      value.boolean = true;
      return value;
    }
    if (consumeWord("false")) {
      value.kind = Value::Kind::Bool;
      return value;
    }
    if (consumeWord("null"))
      return value;
    return fail("expected a JSON value, found " + describeHere());
  }

  std::optional<Value> parseObject(Value value, int depth) {
    value.kind = Value::Kind::Object;
    advance(); // '{'
    skipSpace();
    if (peek() == '}') {
      advance();
      return value;
    }
    while (true) {
      if (peek() != '"')
        return fail("expected a string key, found " + describeHere());
      int keyLine = line, keyColumn = column;
      std::optional<std::string> key = parseString();
      if (!key)
        return std::nullopt;
      if (value.find(*key))
        return failAt("duplicate key \"" + *key + "\"", keyLine, keyColumn);
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after object key, found " + describeHere());
      advance();
      skipSpace();
      std::optional<Value> member = parseValue(depth + 1);
      if (!member)
        return std::nullopt;
      value.keys.push_back(std::move(*key));
      value.items.push_back(std::move(*member));
      skipSpace();
      if (peek() == ',') {
        advance();
        skipSpace();
        continue;
      }
      if (peek() == '}') {
        advance();
        return value;
      }
      return fail("expected ',' or '}' in object, found " + describeHere());
    }
  }

  std::optional<Value> parseArray(Value value, int depth) {
    value.kind = Value::Kind::Array;
    advance(); // '['
    skipSpace();
    if (peek() == ']') {
      advance();
      return value;
    }
    while (true) {
      std::optional<Value> element = parseValue(depth + 1);
      if (!element)
        return std::nullopt;
      value.items.push_back(std::move(*element));
      skipSpace();
      if (peek() == ',') {
        advance();
        skipSpace();
        continue;
      }
      if (peek() == ']') {
        advance();
        return value;
      }
      return fail("expected ',' or ']' in array, found " + describeHere());
    }
  }

  static int hexDigit(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }

  /// Reads the four hex digits after "\u".
  std::optional<unsigned> parseHex4() {
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      int digit = hexDigit(peek());
      if (atEnd() || digit < 0)
        return fail("expected four hex digits after \\u");
      code = code * 16 + digit;
      advance();
    }
    return code;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::optional<std::string> parseString() {
    int startLine = line, startColumn = column;
    advance(); // '"'
    std::string out;
    while (true) {
      if (atEnd())
        return failAt("unterminated string", startLine, startColumn);
      char c = peek();
      if (c == '"') {
        advance();
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in string (escape it)");
      if (c != '\\') {
        out += c;
        advance();
        continue;
      }
      advance(); // '\\'
      char e = peek();
      if (atEnd())
        return failAt("unterminated string", startLine, startColumn);
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        advance();
        std::optional<unsigned> cp = parseHex4();
        if (!cp)
          return std::nullopt;
        // A high surrogate must pair with a following low one.
        if (*cp >= 0xD800 && *cp < 0xDC00) {
          if (!consumeWord("\\u"))
            return fail("unpaired surrogate in \\u escape");
          std::optional<unsigned> low = parseHex4();
          if (!low)
            return std::nullopt;
          if (*low < 0xDC00 || *low >= 0xE000)
            return fail("unpaired surrogate in \\u escape");
          *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
        } else if (*cp >= 0xDC00 && *cp < 0xE000) {
          return fail("unpaired surrogate in \\u escape");
        }
        appendUtf8(out, *cp);
        continue; // parseHex4 advanced past the digits
      }
      default:
        return fail("invalid escape '\\" + std::string(1, e) + "'");
      }
      advance();
    }
  }

  std::optional<Value> parseNumber(Value value) {
    size_t start = pos;
    bool isInteger = true;
    if (peek() == '-')
      advance();
    if (peek() == '0') {
      advance();
      if (peek() >= '0' && peek() <= '9')
        return fail("leading zeros are not allowed in numbers");
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        advance();
    } else {
      return fail("expected a digit, found " + describeHere());
    }
    if (peek() == '.') {
      isInteger = false;
      advance();
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("expected a digit after '.', found " + describeHere());
      while (peek() >= '0' && peek() <= '9')
        advance();
    }
    if (peek() == 'e' || peek() == 'E') {
      isInteger = false;
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("expected a digit in exponent, found " + describeHere());
      while (peek() >= '0' && peek() <= '9')
        advance();
    }
    std::string token(text.substr(start, pos - start));
    value.number = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(value.number))
      return failAt("number out of range", value.line, value.column);
    if (isInteger) {
      errno = 0;
      long long parsed = std::strtoll(token.c_str(), nullptr, 10);
      // Integers beyond int64 stay numbers; consumers asking for an
      // integer then report them as ill-typed rather than wrapping.
      if (errno != ERANGE) {
        value.kind = Value::Kind::Integer;
        value.integer = parsed;
        return value;
      }
    }
    value.kind = Value::Kind::Number;
    return value;
  }
};

} // namespace

std::optional<Value> nvfp4::run::json::parse(std::string_view text,
                                             std::string &error) {
  return Parser(text).parseDocument(error);
}

std::string nvfp4::run::json::quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}
