//===- RunnerJsonTest.cpp - nvfp4-run: strict JSON with positions ---------===//
//
// nlohmann-json parses; these tests pin what the runner adds: positions of
// values, duplicate keys, the depth and range limits, and located errors.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/Json.h"

#include <gtest/gtest.h>

using namespace nvfp4::run;

namespace {

/// The error of parsing `text`, or "" when it parses.
std::string jsonError(const std::string &text) {
  std::string error;
  std::optional<json::Document> doc = json::parse(text, error);
  return doc ? "" : error;
}

TEST(RunnerJson, ParsesEveryKind) {
  std::string error;
  std::optional<json::Document> doc = json::parse(
      "{\"s\": \"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\", \"i\": -42,\n"
      " \"n\": 1.5e3, \"t\": true, \"f\": false, \"z\": null,\n"
      " \"a\": [1, [2], {}], \"big\": 123456789012}",
      error);
  ASSERT_TRUE(doc) << error;
  const json::Json &v = doc->root;
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v.size(), 8u);
  EXPECT_EQ(v["s"], "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(json::describe(v["i"]), std::string("an integer"));
  EXPECT_EQ(v["i"].get<int64_t>(), -42);
  EXPECT_EQ(json::describe(v["n"]), std::string("a number"));
  EXPECT_DOUBLE_EQ(v["n"].get<double>(), 1500.0);
  EXPECT_EQ(json::describe(v["t"]), std::string("a boolean"));
  EXPECT_EQ(v["f"], false);
  EXPECT_EQ(json::describe(v["z"]), std::string("null"));
  EXPECT_EQ(json::describe(v["a"]), std::string("an array"));
  EXPECT_EQ(json::describe(v["a"][2]), std::string("an object"));
  EXPECT_EQ(v["a"][1][0], 2);
  EXPECT_EQ(v["big"].get<int64_t>(), 123456789012);
  EXPECT_FALSE(v.contains("missing"));
}

TEST(RunnerJson, RecordsWhereEveryValueStarts) {
  std::string error;
  std::optional<json::Document> doc = json::parse(
      "{\"a\": {\"b\": [1, {\"c\": 2}]},\n  \"d\" :  \"x\", \"e\": -1.5e3,\n"
      "\"f\": [true,null]}",
      error);
  ASSERT_TRUE(doc) << error;
  auto at = [&](const char *pointer) {
    json::Position pos = doc->at(json::Pointer(pointer));
    return std::to_string(pos.line) + ":" + std::to_string(pos.column);
  };
  EXPECT_EQ(at(""), "1:1");
  EXPECT_EQ(at("/a"), "1:7");
  EXPECT_EQ(at("/a/b"), "1:13");
  EXPECT_EQ(at("/a/b/0"), "1:14");
  EXPECT_EQ(at("/a/b/1"), "1:17");
  EXPECT_EQ(at("/a/b/1/c"), "1:23");
  EXPECT_EQ(at("/d"), "2:10");
  EXPECT_EQ(at("/e"), "2:20");
  EXPECT_EQ(at("/f/0"), "3:7");
  EXPECT_EQ(at("/f/1"), "3:12");
  EXPECT_EQ(at("/missing"), "0:0");
}

TEST(RunnerJson, IntegersBeyondInt64StayNumbers) {
  std::string error;
  std::optional<json::Document> doc =
      json::parse("[9223372036854775808, 1.0, 9223372036854775807]", error);
  ASSERT_TRUE(doc) << error;
  EXPECT_EQ(json::describe(doc->root[0]), std::string("a number"));
  EXPECT_EQ(json::describe(doc->root[1]), std::string("a number"));
  EXPECT_EQ(json::describe(doc->root[2]), std::string("an integer"));
}

TEST(RunnerJson, ReportsLineAndColumn) {
  // The runner's own checks.
  EXPECT_EQ(jsonError("{\"a\": 1, \"a\": 2}"), "1:10: duplicate key \"a\"");
  EXPECT_EQ(jsonError("{\"a\": {\"b\": 1,\n \"b\": 2}}"),
            "2:2: duplicate key \"b\"");
  EXPECT_EQ(jsonError("[1e999]"), "1:2: number out of range");
  EXPECT_EQ(jsonError(std::string(200, '[') + std::string(200, ']')),
            "1:129: nesting deeper than 128");
  // The library's syntax errors, at the offending character.
  EXPECT_EQ(jsonError(""), "1:1: syntax error while parsing value - "
                           "unexpected end of input; expected '[', '{', or a "
                           "literal");
  EXPECT_EQ(jsonError("{\"a\": 1,}"),
            "1:9: syntax error while parsing object key - unexpected '}'; "
            "expected string literal");
  EXPECT_EQ(jsonError("[1, 2,]"),
            "1:7: syntax error while parsing value - unexpected ']'; "
            "expected '[', '{', or a literal");
  EXPECT_EQ(jsonError("{\n  \"a\" 1\n}"),
            "2:7: syntax error while parsing object separator - unexpected "
            "number literal; expected ':'");
  EXPECT_EQ(jsonError("{\n  \"a\": 1\n  \"b\": 2\n}"),
            "3:5: syntax error while parsing object - unexpected string "
            "literal; expected '}'");
  EXPECT_EQ(jsonError("[01]"), "1:3: syntax error while parsing array - "
                               "unexpected number literal; expected ']'");
  EXPECT_EQ(jsonError("[1.]"),
            "1:4: syntax error while parsing value - invalid number; "
            "expected digit after '.'; last read: '1.]'");
  EXPECT_EQ(jsonError("{} x"),
            "1:4: syntax error while parsing value - invalid literal; last "
            "read: '{} x'; expected end of input");
  EXPECT_EQ(jsonError("\"\\ud800\""),
            "1:8: syntax error while parsing value - invalid string: "
            "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF; "
            "last read: '\"\\ud800\"'");
  // Strict: no comments, no unescaped control characters.
  EXPECT_EQ(jsonError("[1] // comment").substr(0, 4), "1:5:");
  EXPECT_EQ(jsonError("\"a\tb\"").substr(0, 4), "1:3:");
  EXPECT_EQ(jsonError("\n  \"abc").substr(0, 4), "2:7:");
}

} // namespace
