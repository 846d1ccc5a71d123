//===- RunnerTest.cpp - nvfp4-run without a GPU ---------------------------===//
//
// Everything nvfp4-run decides before it touches the driver: the JSON reader,
// manifest and PTX checks, the command line, the chip rule, the byte counts
// behind the bandwidth figures, and the exact output lines.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/Chip.h"
#include "nvfp4-run/Json.h"
#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Report.h"
#include "nvfp4-run/Subprocess.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace nvfp4;
using namespace nvfp4::run;

namespace {

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// The error of parsing `text`, or "" when it parses.
std::string jsonError(const std::string &text) {
  std::string error;
  std::optional<json::Value> value = json::parse(text, error);
  return value ? "" : error;
}

TEST(RunnerJson, ParsesEveryKind) {
  std::string error;
  std::optional<json::Value> v = json::parse(
      "{\"s\": \"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\", \"i\": -42,\n"
      " \"n\": 1.5e3, \"t\": true, \"f\": false, \"z\": null,\n"
      " \"a\": [1, [2], {}], \"big\": 123456789012}",
      error);
  ASSERT_TRUE(v) << error;
  ASSERT_TRUE(v->isObject());
  EXPECT_EQ(v->keys.size(), 8u);
  EXPECT_EQ(v->find("s")->string, "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(v->find("i")->isInteger());
  EXPECT_EQ(v->find("i")->integer, -42);
  EXPECT_FALSE(v->find("n")->isInteger());
  EXPECT_TRUE(v->find("n")->isNumber());
  EXPECT_DOUBLE_EQ(v->find("n")->number, 1500.0);
  EXPECT_TRUE(v->find("t")->boolean);
  EXPECT_EQ(v->find("f")->kind, json::Value::Kind::Bool);
  EXPECT_FALSE(v->find("f")->boolean);
  EXPECT_EQ(v->find("z")->kind, json::Value::Kind::Null);
  EXPECT_EQ(v->find("a")->items.size(), 3u);
  EXPECT_EQ(v->find("a")->items[1].items[0].integer, 2);
  EXPECT_EQ(v->find("big")->integer, 123456789012);
  EXPECT_EQ(v->find("missing"), nullptr);
  // Positions are 1-based line and column of the value's first character.
  EXPECT_EQ(v->find("n")->line, 2);
  EXPECT_EQ(v->find("n")->column, 7);
}

TEST(RunnerJson, IntegersBeyondInt64StayNumbers) {
  std::string error;
  std::optional<json::Value> v =
      json::parse("[9223372036854775808, 1.0]", error);
  ASSERT_TRUE(v) << error;
  EXPECT_FALSE(v->items[0].isInteger());
  EXPECT_FALSE(v->items[1].isInteger());
}

TEST(RunnerJson, ReportsLineAndColumn) {
  EXPECT_EQ(jsonError(""), "1:1: expected a JSON value, found end of input");
  EXPECT_EQ(jsonError("{\"a\": 1,}"), "1:9: expected a string key, found '}'");
  EXPECT_EQ(jsonError("[1, 2,]"), "1:7: expected a JSON value, found ']'");
  EXPECT_EQ(jsonError("{\n  \"a\" 1\n}"),
            "2:7: expected ':' after object key, found '1'");
  EXPECT_EQ(jsonError("{\n  \"a\": 1\n  \"b\": 2\n}"),
            "3:3: expected ',' or '}' in object, found '\"'");
  EXPECT_EQ(jsonError("[1 2]"), "1:4: expected ',' or ']' in array, found '2'");
  EXPECT_EQ(jsonError("\n  \"abc"), "2:3: unterminated string");
  EXPECT_EQ(jsonError("[01]"), "1:3: leading zeros are not allowed in numbers");
  EXPECT_EQ(jsonError("[1.]"), "1:4: expected a digit after '.', found ']'");
  EXPECT_EQ(jsonError("[1e]"), "1:4: expected a digit in exponent, found ']'");
  EXPECT_EQ(jsonError("[-]"), "1:3: expected a digit, found ']'");
  EXPECT_EQ(jsonError("{\"a\": 1, \"a\": 2}"), "1:10: duplicate key \"a\"");
  EXPECT_EQ(jsonError("{} x"), "1:4: unexpected text after the JSON value");
  EXPECT_EQ(jsonError("\"a\tb\""),
            "1:3: control character in string (escape it)");
  EXPECT_EQ(jsonError("\"\\x\""), "1:3: invalid escape '\\x'");
  EXPECT_EQ(jsonError("\"\\u12g4\""),
            "1:6: expected four hex digits after \\u");
  EXPECT_EQ(jsonError("\"\\ud800\""), "1:8: unpaired surrogate in \\u escape");
  EXPECT_EQ(jsonError("tru"), "1:1: expected a JSON value, found 't'");
  EXPECT_EQ(jsonError("[1] // comment"),
            "1:5: unexpected text after the JSON value");
  EXPECT_EQ(jsonError("[1e999]"), "1:2: number out of range");
  EXPECT_EQ(jsonError(std::string(200, '[') + std::string(200, ']')),
            "1:130: nesting deeper than 128");
}

TEST(RunnerJson, QuoteEscapes) {
  EXPECT_EQ(json::quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  std::string error;
  std::optional<json::Value> back =
      json::parse(json::quote("x\t\"y\"\\"), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->string, "x\t\"y\"\\");
}

//===----------------------------------------------------------------------===//
// Manifests
//===----------------------------------------------------------------------===//

/// One manifest field a line, so that tests can replace a line by key.
std::vector<std::pair<std::string, std::string>> validFields() {
  return {{"kernel", "\"nvfp4_gemv_kernel\""},
          {"ptx", "\"gemv.ptx\""},
          {"chip", "\"sm_90a\""},
          {"op", "\"gemv\""},
          {"m", "7168"},
          {"k", "16384"},
          {"l", "1"},
          {"scale_format", "\"nvfp4\""},
          {"scale_layout", "\"linear\""},
          {"output", "\"f16\""},
          {"grid", "[7168, 1, 1]"},
          {"block", "[128, 1, 1]"},
          {"shared_bytes", "0"},
          {"params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\", \"alpha\"]"}};
}

/// A JSON object of `fields` with `key` set to `value` (removed when empty).
std::string
objectText(const std::vector<std::pair<std::string, std::string>> &fields,
           const std::string &key, const std::string &value) {
  std::string text = "{\n";
  bool first = true;
  for (auto &[k, v] : fields) {
    std::string field = k == key ? value : v;
    if (field.empty())
      continue;
    text += std::string(first ? "" : ",\n") + "  \"" + k + "\": " + field;
    first = false;
  }
  return text + "\n}\n";
}

/// The valid manifest with `key` set to `value` (removed when empty).
std::string manifestText(const std::string &key = "",
                         const std::string &value = "") {
  return objectText(validFields(), key, value);
}

/// The error of reading a manifest (JSON and fields, not the PTX).
std::string manifestError(const std::string &text) {
  std::string error;
  std::optional<json::Value> root = json::parse(text, error);
  if (!root)
    return "json: " + error;
  std::optional<Manifest> manifest = parseManifest(*root, "dir", error);
  return manifest ? "" : error;
}

Manifest parseValid(const std::string &text = manifestText()) {
  std::string error;
  std::optional<json::Value> root = json::parse(text, error);
  EXPECT_TRUE(root) << error;
  std::optional<Manifest> manifest = parseManifest(*root, "dir", error);
  EXPECT_TRUE(manifest) << error;
  return manifest ? *manifest : Manifest();
}

TEST(RunnerManifest, ReadsEveryField) {
  Manifest m = parseValid();
  EXPECT_EQ(m.kernel, "nvfp4_gemv_kernel");
  EXPECT_EQ(m.ptxPath, "dir/gemv.ptx");
  EXPECT_EQ(m.chip.name, "sm_90a");
  EXPECT_EQ(m.op, "gemv");
  EXPECT_EQ(m.problem.m, 7168);
  EXPECT_EQ(m.problem.k, 16384);
  EXPECT_EQ(m.problem.l, 1);
  EXPECT_EQ(m.problem.format, ref::ScaleFormat::NVFP4);
  EXPECT_EQ(m.problem.layout, ref::ScaleLayout::Linear);
  EXPECT_EQ(m.problem.output, ref::ElementType::F16);
  EXPECT_EQ(m.grid, (std::array<uint32_t, 3>{7168, 1, 1}));
  EXPECT_EQ(m.block, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(m.sharedBytes, 0u);
  EXPECT_EQ(m.params, (std::vector<Param>{Param::A, Param::SFA, Param::B,
                                          Param::SFB, Param::C, Param::Alpha}));
  EXPECT_TRUE(m.takesAlpha());
  EXPECT_EQ(describe(m), "gemv 7168x16384x1 nvfp4 linear f16");
}

TEST(RunnerManifest, ReadsOtherFormatsAndOrders) {
  std::string text = manifestText("scale_format", "\"mxfp4\"");
  size_t pos = text.find("\"linear\"");
  text.replace(pos, 8, "\"blocked128x4\"");
  pos = text.find("\"f16\"");
  text.replace(pos, 5, "\"bf16\"");
  pos = text.find("[\"a\"");
  text.replace(pos, text.find(']', pos) - pos + 1,
               "[\"c\", \"b\", \"a\", \"sfb\", \"sfa\"]");
  pos = text.find("\"gemv.ptx\"");
  text.replace(pos, 10, "\"/abs/k.ptx\"");
  Manifest m = parseValid(text);
  EXPECT_EQ(m.problem.format, ref::ScaleFormat::MXFP4);
  EXPECT_EQ(m.problem.layout, ref::ScaleLayout::Blocked128x4);
  EXPECT_EQ(m.problem.output, ref::ElementType::BF16);
  EXPECT_EQ(m.ptxPath, "/abs/k.ptx");
  EXPECT_FALSE(m.takesAlpha());
  EXPECT_EQ(m.params, (std::vector<Param>{Param::C, Param::B, Param::A,
                                          Param::SFB, Param::SFA}));
  EXPECT_EQ(describe(m), "gemv 7168x16384x1 mxfp4 blocked128x4 bf16");
  EXPECT_EQ(parseValid(manifestText("output", "\"f32\"")).problem.output,
            ref::ElementType::F32);
}

TEST(RunnerManifest, IgnoresUnknownKeys) {
  std::string text = manifestText();
  text.insert(2, "  \"pipeline\": {\"any\": [1, 2]},\n");
  EXPECT_EQ(manifestError(text), "");
}

TEST(RunnerManifest, EveryFieldIsRequired) {
  for (auto &[key, value] : validFields())
    EXPECT_EQ(manifestError(manifestText(key, "")),
              "missing field \"" + key + "\"");
}

TEST(RunnerManifest, RejectsIllTypedFields) {
  EXPECT_EQ(manifestError("[1]"),
            "1:1: a manifest must be a JSON object, got an array");
  EXPECT_EQ(manifestError(manifestText("kernel", "42")),
            "2:13: field \"kernel\" must be a string, got an integer");
  EXPECT_EQ(manifestError(manifestText("ptx", "\"\"")),
            "3:10: field \"ptx\" must not be empty");
  EXPECT_EQ(manifestError(manifestText("m", "\"7168\"")),
            "6:8: field \"m\" must be an integer, got a string");
  EXPECT_EQ(manifestError(manifestText("m", "7168.0")),
            "6:8: field \"m\" must be an integer, got a number");
  EXPECT_EQ(manifestError(manifestText("l", "0")),
            "8:8: field \"l\" must be in [1, 2147483648], got 0");
  EXPECT_EQ(manifestError(manifestText("k", "-16")),
            "7:8: field \"k\" must be in [1, 2147483648], got -16");
  EXPECT_EQ(manifestError(manifestText("grid", "[1, 1]")),
            "12:11: field \"grid\" must be an array of 3 integers, got 2 "
            "elements");
  EXPECT_EQ(manifestError(manifestText("grid", "{}")),
            "12:11: field \"grid\" must be an array of 3 integers, got an "
            "object");
  EXPECT_EQ(manifestError(manifestText("grid", "[1, true, 1]")),
            "12:15: \"grid[1]\" must be an integer, got a boolean");
  EXPECT_EQ(manifestError(manifestText("block", "[0, 1, 1]")),
            "13:13: field \"block[0]\" must be in [1, 1024], got 0");
  EXPECT_EQ(manifestError(manifestText("block", "[512, 4, 1]")),
            "13:12: \"block\" has 2048 threads; at most 1024 are allowed");
  EXPECT_EQ(manifestError(manifestText("grid", "[1, 70000, 1]")),
            "12:11: \"grid\" y and z must be at most 65535");
  EXPECT_EQ(manifestError(manifestText("shared_bytes", "-1")),
            "14:19: field \"shared_bytes\" must be in [0, 1073741824], got -1");
  EXPECT_EQ(manifestError(manifestText("params", "\"a\"")),
            "15:13: field \"params\" must be an array of parameter names, got "
            "a string");
  std::string huge = manifestText("m", "100000");
  huge.replace(huge.find("16384"), 5, "2147483648");
  EXPECT_EQ(manifestError(huge), "shape 100000x2147483648x1 is too large");
}

TEST(RunnerManifest, RejectsUnknownValues) {
  EXPECT_EQ(manifestError(manifestText("scale_format", "\"nvfp8\"")),
            "9:19: unknown scale_format \"nvfp8\" (expected nvfp4 or mxfp4)");
  EXPECT_EQ(manifestError(manifestText("scale_layout", "\"swizzled\"")),
            "10:19: unknown scale_layout \"swizzled\" (expected linear or "
            "blocked128x4)");
  EXPECT_EQ(manifestError(manifestText("output", "\"f8\"")),
            "11:13: unknown output \"f8\" (expected f16, bf16 or f32)");
  EXPECT_EQ(manifestError(manifestText("chip", "\"gfx942\"")),
            "4:11: unknown chip \"gfx942\" (expected sm_<major><minor> with "
            "an optional a or f, e.g. sm_90a)");
  EXPECT_EQ(manifestError(manifestText("op", "\"gemm\"")),
            "5:9: unsupported op \"gemm\" (nvfp4-run runs gemv and "
            "convert_scale_layout)");
}

TEST(RunnerManifest, KMustBeAMultipleOfTheBlockSize) {
  EXPECT_EQ(manifestError(manifestText("k", "1000")),
            "7:8: k = 1000 is not a multiple of the nvfp4 block size 16");
  EXPECT_EQ(manifestError(manifestText("k", "1008")), "");
  std::string mx = manifestText("scale_format", "\"mxfp4\"");
  EXPECT_EQ(manifestError(mx.replace(mx.find("16384"), 5, "1008")),
            "7:8: k = 1008 is not a multiple of the mxfp4 block size 32");
}

TEST(RunnerManifest, ParamsMustBeAPermutation) {
  EXPECT_EQ(manifestError(manifestText(
                "params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"d\"]")),
            "15:38: unknown parameter \"d\" (expected a, sfa, b, sfb, c, "
            "alpha)");
  EXPECT_EQ(manifestError(manifestText(
                "params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\", \"a\"]")),
            "15:43: parameter \"a\" listed twice");
  EXPECT_EQ(
      manifestError(manifestText("params", "[\"a\", \"sfa\", \"b\", \"c\"]")),
      "15:13: \"params\" lacks \"sfb\" (it must list a, sfa, b, sfb, c "
      "and optionally alpha)");
  EXPECT_EQ(manifestError(manifestText("params", "[\"a\", 1]")),
            "15:19: \"params\" entries must be strings, got an integer");
  EXPECT_EQ(
      manifestError(manifestText(
          "params", "[\"alpha\", \"a\", \"sfa\", \"b\", \"sfb\", \"c\"]")),
      "");
}

//===----------------------------------------------------------------------===//
// PTX checks
//===----------------------------------------------------------------------===//

const char *const kPtx = R"(//
// Generated by LLVM NVPTX Back-End
// .entry nvfp4_gemv_kernel_commented(
//

.version 8.8
.target sm_90a
.address_size 64

.visible .entry nvfp4_gemv_kernel_2(
	.param .u64 p0
)
{
	ret;
}

	// .globl	nvfp4_gemv_kernel
.visible .entry nvfp4_gemv_kernel(
	.param .u64 .ptr .global .align 16 nvfp4_gemv_kernel_param_0,
	.param .u64 nvfp4_gemv_kernel_param_1,
	.param .u64 nvfp4_gemv_kernel_param_2,
	.param .u64 nvfp4_gemv_kernel_param_3,
	.param .u64 nvfp4_gemv_kernel_param_4,
	.param .f32 nvfp4_gemv_kernel_param_5
)
.reqntid 128, 1, 1
{
	ret;
}
)";

std::string ptxError(const Manifest &manifest, std::string ptx = kPtx) {
  return checkPtx(manifest, ptx);
}

std::string replaced(std::string text, const std::string &from,
                     const std::string &to) {
  size_t pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return pos == std::string::npos ? text : text.replace(pos, from.size(), to);
}

TEST(RunnerPtx, AcceptsAMatchingEntry) {
  EXPECT_EQ(ptxError(parseValid()), "");
  // Without .reqntid any block goes.
  Manifest m = parseValid(manifestText("block", "[256, 1, 1]"));
  EXPECT_EQ(ptxError(m, replaced(kPtx, ".reqntid 128, 1, 1", "")), "");
  // .reqntid with one dimension means y = z = 1.
  EXPECT_EQ(ptxError(parseValid(), replaced(kPtx, "128, 1, 1", "128")), "");
}

TEST(RunnerPtx, RejectsAMissingEntry) {
  Manifest m = parseValid();
  m.kernel = "nvfp4_gemv";
  EXPECT_EQ(ptxError(m), "manifest does not match the PTX: dir/gemv.ptx has "
                         "no .entry nvfp4_gemv");
  // A name in a comment does not count.
  m.kernel = "nvfp4_gemv_kernel_commented";
  EXPECT_EQ(ptxError(m), "manifest does not match the PTX: dir/gemv.ptx has "
                         "no .entry nvfp4_gemv_kernel_commented");
  // Prefixes of another entry's name do not count either.
  EXPECT_EQ(ptxError(parseValid(), replaced(kPtx, "entry nvfp4_gemv_kernel(",
                                            "entry nvfp4_gemv_kernel_3(")),
            "manifest does not match the PTX: dir/gemv.ptx has no .entry "
            "nvfp4_gemv_kernel");
}

TEST(RunnerPtx, RejectsAnotherTarget) {
  Manifest m = parseValid(manifestText("chip", "\"sm_100a\""));
  EXPECT_EQ(ptxError(m), "manifest does not match the PTX: dir/gemv.ptx "
                         "targets sm_90a, the manifest says sm_100a");
  EXPECT_EQ(ptxError(parseValid(), replaced(kPtx, ".target sm_90a", "")),
            "manifest does not match the PTX: dir/gemv.ptx has no .target "
            "directive");
  EXPECT_EQ(ptxError(parseValid(),
                     replaced(kPtx, ".target sm_90a", ".target sm_90a, debug")),
            "");
}

TEST(RunnerPtx, RejectsMismatchedParameters) {
  Manifest m = parseValid(
      manifestText("params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\"]"));
  EXPECT_EQ(ptxError(m), "manifest does not match the PTX: .entry "
                         "nvfp4_gemv_kernel takes 6 parameters, the manifest "
                         "lists 5");
  m = parseValid(manifestText(
      "params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"alpha\", \"c\"]"));
  EXPECT_EQ(ptxError(m), "manifest does not match the PTX: parameter 4 "
                         "(alpha) of .entry nvfp4_gemv_kernel is .u64, "
                         "expected .f32");
  EXPECT_EQ(
      ptxError(parseValid(), replaced(kPtx, ".param .f32", ".param .u64")),
      "manifest does not match the PTX: parameter 5 (alpha) of .entry "
      "nvfp4_gemv_kernel is .u64, expected .f32");
  EXPECT_EQ(ptxError(parseValid(),
                     replaced(kPtx, ".param .u64 nvfp4_gemv_kernel_param_1",
                              ".param .align 8 .b8 s[16]")),
            "manifest does not match the PTX: parameter 1 (sfa) of .entry "
            "nvfp4_gemv_kernel is not a scalar, expected .u64");
}

TEST(RunnerPtx, ChecksMaxntid) {
  std::string ptx = replaced(kPtx, ".reqntid 128, 1, 1", ".maxntid 256, 1, 1");
  EXPECT_EQ(ptxError(parseValid(), ptx), "");
  EXPECT_EQ(ptxError(parseValid(manifestText("block", "[16, 16, 1]")), ptx),
            "");
  EXPECT_EQ(ptxError(parseValid(manifestText("block", "[512, 1, 1]")), ptx),
            "manifest does not match the PTX: .entry nvfp4_gemv_kernel allows "
            "at most 256 threads a block (.maxntid), the manifest's block "
            "[512, 1, 1] has 512");
}

TEST(RunnerPtx, RejectsAnotherBlock) {
  Manifest m = parseValid(manifestText("block", "[256, 1, 1]"));
  EXPECT_EQ(ptxError(m), "manifest does not match the PTX: .entry "
                         "nvfp4_gemv_kernel requires block [128, 1, 1], the "
                         "manifest says [256, 1, 1]");
}

/// A scratch directory for loadManifest tests.
std::string scratchDir() {
  std::string dir = testing::TempDir() + "nvfp4-run-test";
  std::string command = "mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  return dir;
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

TEST(RunnerPtx, LoadsManifestAndPtxFromDisk) {
  std::string dir = scratchDir();
  writeFile(dir + "/ok.json", manifestText());
  writeFile(dir + "/gemv.ptx", kPtx);
  std::string error;
  std::optional<Manifest> m = loadManifest(dir + "/ok.json", error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->path, dir + "/ok.json");
  EXPECT_EQ(m->ptxPath, dir + "/gemv.ptx");
  EXPECT_EQ(m->ptx, kPtx);

  writeFile(dir + "/noptx.json", manifestText("ptx", "\"absent.ptx\""));
  EXPECT_FALSE(loadManifest(dir + "/noptx.json", error));
  EXPECT_EQ(error,
            dir + "/noptx.json: PTX file " + dir + "/absent.ptx not found");

  EXPECT_FALSE(loadManifest(dir + "/none.json", error));
  EXPECT_EQ(error, dir + "/none.json: cannot read the manifest");

  writeFile(dir + "/bad.json", "{\n  \"kernel\": 1,\n}");
  EXPECT_FALSE(loadManifest(dir + "/bad.json", error));
  EXPECT_EQ(error, dir + "/bad.json:3:1: expected a string key, found '}'");

  writeFile(dir + "/badk.json", manifestText("k", "17"));
  EXPECT_FALSE(loadManifest(dir + "/badk.json", error));
  EXPECT_EQ(error, dir + "/badk.json:7:8: k = 17 is not a multiple of the "
                         "nvfp4 block size 16");

  writeFile(dir + "/other.json", manifestText("chip", "\"sm_100a\""));
  EXPECT_FALSE(loadManifest(dir + "/other.json", error));
  EXPECT_EQ(error, dir +
                       "/other.json: manifest does not match the PTX: " + dir +
                       "/gemv.ptx targets sm_90a, the manifest says "
                       "sm_100a");
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

std::optional<Options> parseArgs(std::vector<const char *> args,
                                 std::string &error) {
  args.insert(args.begin(), "nvfp4-run");
  return parseOptions(static_cast<int>(args.size()), args.data(), error);
}

std::string optionsError(std::vector<const char *> args) {
  std::string error;
  return parseArgs(std::move(args), error) ? "" : error;
}

TEST(RunnerOptions, Defaults) {
  std::string error;
  std::optional<Options> o = parseArgs({"a.json"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->manifests, std::vector<std::string>{"a.json"});
  EXPECT_EQ(o->seed, 1u);
  EXPECT_EQ(o->dist, ref::Distribution::Full);
  EXPECT_FALSE(o->alpha);
  EXPECT_FALSE(o->bench);
  EXPECT_EQ(o->reps, 200);
  EXPECT_EQ(o->flush, FlushMode::Clean);
  EXPECT_EQ(o->timeoutSeconds, 300);
  EXPECT_FALSE(o->json);
  EXPECT_FALSE(o->checkOnly);
  EXPECT_DOUBLE_EQ(o->rtol, 1e-3);
  EXPECT_DOUBLE_EQ(o->atol, 1e-3);
  EXPECT_FALSE(o->m || o->k || o->l);
}

TEST(RunnerOptions, ReadsEveryOption) {
  std::string error;
  std::optional<Options> o = parseArgs(
      {"a.json",   "--seed",     "7",      "--dist=weak", "--alpha", "-0.5",
       "--bench",  "--reps=150", "--json", "b.json",      "--rtol",  "2e-3",
       "--atol=0", "--m",        "7168",   "--k=16384",   "--l",     "2",
       "--check",  "--flush",    "dirty",  "--timeout=20"},
      error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->manifests, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_EQ(o->seed, 7u);
  EXPECT_EQ(o->dist, ref::Distribution::Weak);
  EXPECT_EQ(o->alpha, -0.5f);
  EXPECT_TRUE(o->bench);
  EXPECT_EQ(o->reps, 150);
  EXPECT_EQ(o->flush, FlushMode::Dirty);
  EXPECT_EQ(o->timeoutSeconds, 20);
  EXPECT_TRUE(o->json);
  EXPECT_TRUE(o->checkOnly);
  EXPECT_DOUBLE_EQ(o->rtol, 2e-3);
  EXPECT_DOUBLE_EQ(o->atol, 0);
  EXPECT_EQ(o->m, 7168);
  EXPECT_EQ(o->k, 16384);
  EXPECT_EQ(o->l, 2);

  o = parseArgs({"--help"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_TRUE(o->help);
  EXPECT_NE(usage().find("usage: nvfp4-run MANIFEST..."), std::string::npos);
}

TEST(RunnerOptions, RejectsMalformedCommandLines) {
  EXPECT_EQ(optionsError({}), "no manifest given (see --help)");
  EXPECT_EQ(optionsError({"a.json", "--fast"}),
            "unknown option --fast (see --help)");
  EXPECT_EQ(optionsError({"a.json", "--seed"}), "option --seed needs a value");
  EXPECT_EQ(optionsError({"a.json", "--seed", "-1"}),
            "option --seed needs a non-negative integer, got '-1'");
  EXPECT_EQ(optionsError({"a.json", "--seed", "12x"}),
            "option --seed needs a non-negative integer, got '12x'");
  EXPECT_EQ(optionsError({"a.json", "--dist", "normal"}),
            "option --dist needs full or weak, got 'normal'");
  EXPECT_EQ(optionsError({"a.json", "--alpha", "nan"}),
            "option --alpha needs a finite number, got 'nan'");
  EXPECT_EQ(optionsError({"a.json", "--alpha", "1e39"}),
            "option --alpha needs a finite number, got '1e39'");
  EXPECT_EQ(optionsError({"a.json", "--timeout", "0"}),
            "option --timeout needs an integer in [1, 86400], got '0'");
  EXPECT_EQ(optionsError({"a.json", "--flush", "none"}),
            "option --flush needs clean or dirty, got 'none'");
  EXPECT_EQ(optionsError({"a.json", "--rtol", "-1"}),
            "option --rtol needs a non-negative number, got '-1'");
  EXPECT_EQ(optionsError({"a.json", "--reps", "0"}),
            "option --reps needs an integer in [1, 100000], got '0'");
  EXPECT_EQ(optionsError({"a.json", "--m", "0"}),
            "option --m needs a positive integer, got '0'");
  EXPECT_EQ(optionsError({"a.json", "--bench=yes"}),
            "option --bench takes no value");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--reps", "99"}),
            "--bench needs --reps of at least 100, got 99");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--reps", "100"}), "");
  EXPECT_EQ(optionsError({"a.json", "--reps", "5"}), "");
}

TEST(RunnerOptions, ShapeMustMatchTheManifest) {
  Manifest m = parseValid();
  Options o;
  EXPECT_EQ(checkShape(o, m), "");
  o.m = 7168;
  o.k = 16384;
  o.l = 1;
  EXPECT_EQ(checkShape(o, m), "");
  o.k = 7168;
  EXPECT_EQ(checkShape(o, m), "kernel was built for M=7168, K=16384, L=1; "
                              "got M=7168, K=7168, L=1");
  o = Options();
  o.l = 8;
  EXPECT_EQ(checkShape(o, m), "kernel was built for M=7168, K=16384, L=1; "
                              "got M=7168, K=16384, L=8");
}

TEST(RunnerOptions, AlphaDefaultsToANonTrivialValue) {
  std::string error;
  Manifest withAlpha = parseValid();
  Manifest without = parseValid(
      manifestText("params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\"]"));
  Options o;
  EXPECT_EQ(chooseAlpha(o, withAlpha, error), 0.75f);
  EXPECT_EQ(chooseAlpha(o, without, error), 1.0f);
  o.alpha = 2.0f;
  EXPECT_EQ(chooseAlpha(o, withAlpha, error), 2.0f);
  EXPECT_FALSE(chooseAlpha(o, without, error));
  EXPECT_EQ(error, "kernel nvfp4_gemv_kernel takes no alpha parameter; "
                   "--alpha must be 1");
  o.alpha = 1.0f;
  EXPECT_EQ(chooseAlpha(o, without, error), 1.0f);
}

//===----------------------------------------------------------------------===//
// Chips
//===----------------------------------------------------------------------===//

TEST(RunnerChip, ParsesTargets) {
  std::optional<Chip> c = parseChip("sm_100a");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->major, 10);
  EXPECT_EQ(c->minor, 0);
  EXPECT_EQ(c->suffix, 'a');
  c = parseChip("sm_89");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->major, 8);
  EXPECT_EQ(c->minor, 9);
  EXPECT_EQ(c->suffix, 0);
  c = parseChip("sm_103f");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->minor, 3);
  EXPECT_EQ(c->suffix, 'f');
  for (const char *bad : {"sm_", "sm_9", "sm_90b", "sm90a", "compute_90a",
                          "sm_a", "sm_090", "sm_12345"})
    EXPECT_FALSE(parseChip(bad)) << bad;
}

std::string runsOn(const char *chip, int major, int minor,
                   const char *device = "GPU") {
  return checkChipRunsOn(*parseChip(chip), major, minor, device);
}

TEST(RunnerChip, ArchSpecificNeedsTheExactChip) {
  EXPECT_EQ(runsOn("sm_100a", 9, 0, "NVIDIA H200"),
            "kernel built for sm_100a cannot run on NVIDIA H200 (sm_90)");
  EXPECT_EQ(runsOn("sm_90a", 9, 0), "");
  EXPECT_EQ(runsOn("sm_90a", 10, 0),
            "kernel built for sm_90a cannot run on GPU (sm_100)");
  EXPECT_EQ(runsOn("sm_100a", 10, 3),
            "kernel built for sm_100a cannot run on GPU (sm_103)");
}

TEST(RunnerChip, PlainTargetsRunForward) {
  EXPECT_EQ(runsOn("sm_90", 10, 0), "");
  EXPECT_EQ(runsOn("sm_90", 9, 0), "");
  EXPECT_EQ(runsOn("sm_80", 8, 9), "");
  EXPECT_EQ(runsOn("sm_100", 9, 0),
            "kernel built for sm_100 cannot run on GPU (sm_90)");
  EXPECT_EQ(runsOn("sm_89", 8, 6),
            "kernel built for sm_89 cannot run on GPU (sm_86)");
}

TEST(RunnerChip, FamilyTargetsRunWithinTheFamily) {
  EXPECT_EQ(runsOn("sm_100f", 10, 3), "");
  EXPECT_EQ(runsOn("sm_103f", 10, 0),
            "kernel built for sm_103f cannot run on GPU (sm_100)");
  EXPECT_EQ(runsOn("sm_100f", 12, 0),
            "kernel built for sm_100f cannot run on GPU (sm_120)");
}

//===----------------------------------------------------------------------===//
// Byte counts and reports
//===----------------------------------------------------------------------===//

TEST(RunnerBytes, BenchmarkShapeMatchesTheSpecTable) {
  // 7168x16384x1, NVFP4 (one e4m3 scale per 16 values), linear, f16 output,
  // counted from the storage of docs/problem.md section 1.
  const int64_t m = 7168, k = 16384;
  const int64_t a = m * k / 2, sfa = m * (k / 16), b = k / 2, sfb = k / 16,
                c = m * 2;
  ref::GemvProblem p;
  p.m = m;
  p.k = k;
  p.l = 1;
  BufferSizes sizes = bufferSizes(p);
  EXPECT_EQ(sizes.a, a);
  EXPECT_EQ(sizes.sfa, sfa);
  EXPECT_EQ(sizes.b, b);
  EXPECT_EQ(sizes.sfb, sfb);
  EXPECT_EQ(sizes.c, c);
  EXPECT_EQ(sizes.unique(), 66083840);
  EXPECT_NEAR(sizes.unique() / 1e6, 66.1, 0.05);
  // The floor at the copy bandwidth of docs/problem.md: 15.5 us.
  BenchResult bench;
  bench.uniqueBytes = sizes.unique();
  bench.copyGBps = 4270;
  EXPECT_NEAR(bench.floorUs(), 15.5, 0.05);
}

TEST(RunnerBytes, BlockedScalesCountTheirPadding) {
  ref::GemvProblem p;
  p.m = 4096;
  p.k = 7168;
  p.l = 8;
  p.layout = ref::ScaleLayout::Blocked128x4;
  p.output = ref::ElementType::F32;
  BufferSizes sizes = bufferSizes(p);
  // 448 scale columns = 112 atoms across; 32 atom rows for sfa, one for sfb.
  EXPECT_EQ(sizes.sfa, 8 * 32 * 112 * 512);
  EXPECT_EQ(sizes.sfb, 8 * 1 * 112 * 512);
  EXPECT_EQ(sizes.c, 8 * 4096 * 4);
  p.format = ref::ScaleFormat::MXFP4;
  p.layout = ref::ScaleLayout::Linear;
  p.m = 100;
  p.k = 96;
  p.l = 3;
  sizes = bufferSizes(p);
  EXPECT_EQ(sizes.a, 3 * 100 * 48);
  EXPECT_EQ(sizes.sfa, 3 * 100 * 3);
  EXPECT_EQ(sizes.b, 3 * 48);
  EXPECT_EQ(sizes.sfb, 3 * 3);
}

TEST(RunnerReport, SummarizesTimings) {
  Timing t = summarize({3.0f, 1.0f, 2.0f});
  EXPECT_DOUBLE_EQ(t.medianUs, 2000);
  EXPECT_DOUBLE_EQ(t.minUs, 1000);
  EXPECT_EQ(t.reps, 3);
  t = summarize({0.004f, 0.001f, 0.003f, 0.002f});
  EXPECT_NEAR(t.medianUs, 2.5, 1e-6);
  EXPECT_NEAR(t.minUs, 1.0, 1e-6);
  EXPECT_EQ(summarize({}).reps, 0);
}

Manifest reportManifest() {
  Manifest m = parseValid();
  m.path = "out/bench_gemv.json";
  return m;
}

TEST(RunnerReport, FormatsVerifyLines) {
  VerifyResult r;
  r.pass = true;
  r.maxAbsError = 3.0517578125e-05;
  r.relError = 2.011e-4;
  r.seed = 1;
  r.alpha = 0.75f;
  EXPECT_EQ(formatVerify(reportManifest(), r),
            "PASS gemv 7168x16384x1 nvfp4 linear f16: max_abs_err=3.052e-05, "
            "rel_err=2.011e-04 [seed=1 dist=full alpha=0.75 "
            "bench_gemv.json]");
  r.pass = false;
  r.firstMismatch = 7168 + 17;
  r.got = 1.5;
  r.expected = 2.25;
  r.seed = 2;
  r.dist = ref::Distribution::Weak;
  EXPECT_EQ(formatVerify(reportManifest(), r),
            "FAIL gemv 7168x16384x1 nvfp4 linear f16: first mismatch at l=1, "
            "m=17: got 1.5, expected 2.25; max_abs_err=3.052e-05, "
            "rel_err=2.011e-04 [seed=2 dist=weak alpha=0.75 "
            "bench_gemv.json]");
  r.firstMismatch = 3;
  r.got = NAN;
  r.nanCount = 5;
  r.afterTiming = true;
  r.maxAbsError = INFINITY;
  EXPECT_EQ(formatVerify(reportManifest(), r),
            "FAIL gemv 7168x16384x1 nvfp4 linear f16 (after timing): first "
            "mismatch at l=0, m=3: got nan, expected 2.25; 5 NaN outputs; "
            "max_abs_err=inf, rel_err=2.011e-04 [seed=2 dist=weak "
            "alpha=0.75 bench_gemv.json]");
}

TEST(RunnerReport, FormatsBenchAndCopyLines) {
  BenchResult b;
  b.kernel.medianUs = 21.345;
  b.kernel.minUs = 20.9;
  b.kernel.reps = 200;
  b.uniqueBytes = 66083840;
  b.copyGBps = 4270;
  EXPECT_EQ(formatBench(reportManifest(), b),
            "BENCH gemv 7168x16384x1 nvfp4 linear f16: 21.34 us median (min "
            "20.90 us, 200 reps), 3096 GB/s, 72.5% of copy (4270 GB/s), "
            "floor 15.48 us [bench_gemv.json]");
  b.flush = FlushMode::Dirty;
  EXPECT_EQ(formatBench(reportManifest(), b),
            "BENCH gemv 7168x16384x1 nvfp4 linear f16: 21.34 us median (min "
            "20.90 us, 200 reps), 3096 GB/s, 72.5% of copy (4270 GB/s), "
            "floor 15.48 us [flush=dirty bench_gemv.json]");
  EXPECT_EQ(formatCopy(4270.4, int64_t(1) << 30, 20),
            "COPY 1024 MiB device-to-device: 4270 GB/s (median of 20)");
}

TEST(RunnerReport, JsonObjectsParseBack) {
  VerifyResult r;
  r.pass = false;
  r.firstMismatch = 7168 * 2 + 5;
  r.got = NAN;
  r.expected = -3.5;
  r.nanCount = 1;
  r.maxAbsError = INFINITY;
  r.seed = 9;
  r.alpha = 0.75f;
  BenchResult b;
  b.kernel.medianUs = 20;
  b.kernel.minUs = 19;
  b.kernel.reps = 100;
  b.uniqueBytes = 66083840;
  b.copyGBps = 4000;
  b.registers = 40;
  b.localBytes = 0;

  std::string error;
  std::optional<json::Value> v =
      json::parse(formatJson(reportManifest(), r, &b), error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->find("manifest")->string, "out/bench_gemv.json");
  EXPECT_EQ(v->find("kernel")->string, "nvfp4_gemv_kernel");
  EXPECT_EQ(v->find("chip")->string, "sm_90a");
  EXPECT_EQ(v->find("m")->integer, 7168);
  EXPECT_EQ(v->find("scale_layout")->string, "linear");
  EXPECT_EQ(v->find("status")->string, "fail");
  EXPECT_EQ(v->find("seed")->integer, 9);
  EXPECT_EQ(v->find("max_abs_err")->kind, json::Value::Kind::Null);
  const json::Value *mismatch = v->find("first_mismatch");
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->find("l")->integer, 2);
  EXPECT_EQ(mismatch->find("m")->integer, 5);
  EXPECT_EQ(mismatch->find("got")->kind, json::Value::Kind::Null);
  EXPECT_DOUBLE_EQ(mismatch->find("expected")->number, -3.5);
  const json::Value *bench = v->find("bench");
  ASSERT_TRUE(bench);
  EXPECT_DOUBLE_EQ(bench->find("median_us")->number, 20);
  EXPECT_EQ(bench->find("unique_bytes")->integer, 66083840);
  EXPECT_NEAR(bench->find("gbps")->number, 3304.19, 0.01);
  EXPECT_NEAR(bench->find("pct_of_copy")->number, 82.6, 0.01);
  EXPECT_EQ(bench->find("registers")->integer, 40);
  EXPECT_EQ(bench->find("flush")->string, "clean");

  v = json::parse(formatJsonError("a \"b\".json", "x: bad"), error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->find("manifest")->string, "a \"b\".json");
  EXPECT_EQ(v->find("status")->string, "error");
  EXPECT_EQ(v->find("error")->string, "x: bad");
}

//===----------------------------------------------------------------------===//
// Scale-layout conversions
//===----------------------------------------------------------------------===//

/// A valid convert_scale_layout manifest, one field a line.
std::vector<std::pair<std::string, std::string>> conversionFields() {
  return {{"kernel", "\"nvfp4_convert\""},
          {"ptx", "\"convert.ptx\""},
          {"chip", "\"sm_90a\""},
          {"op", "\"convert_scale_layout\""},
          {"rows", "130"},
          {"cols", "6"},
          {"l", "2"},
          {"from", "\"linear\""},
          {"to", "\"blocked128x4\""},
          {"element", "\"f8E4M3FN\""},
          {"grid", "[8, 2, 1]"},
          {"block", "[256, 1, 1]"},
          {"shared_bytes", "0"},
          {"params", "[\"source\", \"dest\"]"}};
}

/// The valid conversion manifest with `key` set to `value` (removed when
/// empty).
std::string conversionText(const std::string &key = "",
                           const std::string &value = "") {
  return objectText(conversionFields(), key, value);
}

Manifest conversionManifest(const std::string &text = conversionText()) {
  Manifest m = parseValid(text);
  m.path = "out/conv.json";
  return m;
}

const char *const kConversionPtx = R"(
.version 8.8
.target sm_90a
.address_size 64

.visible .entry nvfp4_convert(
	.param .u64 .ptr .align 1 nvfp4_convert_param_0,
	.param .u64 .ptr .align 1 nvfp4_convert_param_1
)
.maxntid 256, 1, 1
{
	ret;
}
)";

TEST(RunnerConversion, ReadsEveryField) {
  Manifest m = conversionManifest();
  EXPECT_EQ(m.kernel, "nvfp4_convert");
  EXPECT_EQ(m.ptxPath, "dir/convert.ptx");
  EXPECT_EQ(m.op, "convert_scale_layout");
  EXPECT_TRUE(m.isConversion());
  EXPECT_EQ(m.conversion.rows, 130);
  EXPECT_EQ(m.conversion.cols, 6);
  EXPECT_EQ(m.conversion.l, 2);
  EXPECT_EQ(m.conversion.from, ref::ScaleLayout::Linear);
  EXPECT_EQ(m.conversion.to, ref::ScaleLayout::Blocked128x4);
  EXPECT_EQ(m.conversion.element, ScaleElement::F8E4M3FN);
  EXPECT_EQ(m.grid, (std::array<uint32_t, 3>{8, 2, 1}));
  EXPECT_EQ(m.block, (std::array<uint32_t, 3>{256, 1, 1}));
  EXPECT_EQ(m.params, (std::vector<Param>{Param::Source, Param::Dest}));
  EXPECT_FALSE(m.takesAlpha());
  EXPECT_EQ(describe(m),
            "convert_scale_layout 130x6x2 linear->blocked128x4 f8E4M3FN");
  EXPECT_FALSE(parseValid().isConversion());

  std::string text = conversionText("from", "\"blocked128x4\"");
  text = replaced(text, "\"to\": \"blocked128x4\"", "\"to\": \"linear\"");
  text = replaced(text, "f8E4M3FN", "f8E8M0FNU");
  text = replaced(text, "[\"source\", \"dest\"]", "[\"dest\", \"source\"]");
  m = conversionManifest(text);
  EXPECT_EQ(m.conversion.from, ref::ScaleLayout::Blocked128x4);
  EXPECT_EQ(m.conversion.to, ref::ScaleLayout::Linear);
  EXPECT_EQ(m.conversion.element, ScaleElement::F8E8M0FNU);
  EXPECT_EQ(m.params, (std::vector<Param>{Param::Dest, Param::Source}));
  EXPECT_EQ(describe(m),
            "convert_scale_layout 130x6x2 blocked128x4->linear f8E8M0FNU");
  // The compiler also exports same-layout conversions (copies).
  EXPECT_EQ(manifestError(conversionText("to", "\"linear\"")), "");
}

TEST(RunnerConversion, EveryFieldIsRequired) {
  for (auto &[key, value] : conversionFields())
    EXPECT_EQ(manifestError(conversionText(key, "")),
              "missing field \"" + key + "\"");
  // The gemv fields are not asked for.
  EXPECT_EQ(manifestError(conversionText()), "");
}

TEST(RunnerConversion, RejectsBadValues) {
  EXPECT_EQ(manifestError(conversionText("rows", "0")),
            "6:11: field \"rows\" must be in [1, 2147483648], got 0");
  EXPECT_EQ(manifestError(conversionText("cols", "\"6\"")),
            "7:11: field \"cols\" must be an integer, got a string");
  EXPECT_EQ(manifestError(conversionText("from", "\"swizzled\"")),
            "9:11: unknown from \"swizzled\" (expected linear or "
            "blocked128x4)");
  EXPECT_EQ(manifestError(conversionText("to", "\"blocked32x4\"")),
            "10:9: unknown to \"blocked32x4\" (expected linear or "
            "blocked128x4)");
  EXPECT_EQ(manifestError(conversionText("element", "\"f8E5M2\"")),
            "11:14: unknown element \"f8E5M2\" (expected f8E4M3FN or "
            "f8E8M0FNU)");
  std::string huge = conversionText("rows", "2147483648");
  EXPECT_EQ(manifestError(replaced(huge, "\"cols\": 6", "\"cols\": 1024")),
            "shape 2147483648x1024x2 is too large");
}

TEST(RunnerConversion, ParamsMustBeSourceAndDest) {
  EXPECT_EQ(manifestError(conversionText("params", "[\"source\", \"c\"]")),
            "15:24: unknown parameter \"c\" (expected source, dest)");
  EXPECT_EQ(manifestError(
                conversionText("params", "[\"source\", \"dest\", \"alpha\"]")),
            "15:32: unknown parameter \"alpha\" (expected source, dest)");
  EXPECT_EQ(manifestError(conversionText("params", "[\"source\"]")),
            "15:13: \"params\" lacks \"dest\" (it must list source and dest)");
  EXPECT_EQ(manifestError(
                conversionText("params", "[\"source\", \"dest\", \"source\"]")),
            "15:32: parameter \"source\" listed twice");
  // A gemv does not take a conversion's parameters.
  EXPECT_EQ(manifestError(manifestText(
                "params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"dest\"]")),
            "15:38: unknown parameter \"dest\" (expected a, sfa, b, sfb, c, "
            "alpha)");
}

TEST(RunnerConversion, ChecksThePtxEntry) {
  Manifest m = conversionManifest();
  EXPECT_EQ(checkPtx(m, kConversionPtx), "");
  EXPECT_EQ(
      checkPtx(m,
               replaced(kConversionPtx,
                        ",\n\t.param .u64 .ptr .align 1 nvfp4_convert_param_1",
                        "")),
      "manifest does not match the PTX: .entry nvfp4_convert takes 1 "
      "parameters, the manifest lists 2");
  EXPECT_EQ(checkPtx(m, replaced(kConversionPtx,
                                 ".u64 .ptr .align 1 nvfp4_convert_param_1",
                                 ".f32 nvfp4_convert_param_1")),
            "manifest does not match the PTX: parameter 1 (dest) of .entry "
            "nvfp4_convert is .f32, expected .u64");
  Manifest wide = conversionManifest(conversionText("block", "[512, 1, 1]"));
  EXPECT_NE(checkPtx(wide, kConversionPtx).find(".maxntid"), std::string::npos);
}

TEST(RunnerConversion, ShapeOptionsAreRowsAndBatches) {
  Manifest m = conversionManifest();
  Options o;
  EXPECT_EQ(checkShape(o, m), "");
  o.m = 130;
  o.l = 2;
  EXPECT_EQ(checkShape(o, m), "");
  o.l = 4;
  EXPECT_EQ(checkShape(o, m),
            "kernel was built for rows=130, L=2; got rows=130, L=4");
  o = Options();
  o.k = 96;
  EXPECT_EQ(checkShape(o, m), "--k does not apply to convert_scale_layout "
                              "(rows=130, cols=6, L=2)");
  std::string error;
  EXPECT_EQ(chooseAlpha(Options(), m, error), 1.0f);
}

TEST(RunnerBytes, ConversionsMoveSourceAndDestination) {
  Manifest m = conversionManifest();
  ConversionSizes sizes = conversionSizes(m.conversion);
  // 130 rows -> 2 atom rows, 6 columns -> 2 atom columns, 512 bytes each.
  EXPECT_EQ(sizes.source, 2 * 130 * 6);
  EXPECT_EQ(sizes.destBatch, 2 * 2 * 512);
  EXPECT_EQ(sizes.dest, 2 * 2 * 2 * 512);
  EXPECT_EQ(sizes.unique(), 1560 + 4096);
  EXPECT_EQ(uniqueBytes(m), 1560 + 4096);

  std::swap(m.conversion.from, m.conversion.to);
  sizes = conversionSizes(m.conversion);
  EXPECT_EQ(sizes.source, 4096);
  EXPECT_EQ(sizes.dest, 1560);
  EXPECT_EQ(sizes.destBatch, 780);
  EXPECT_EQ(uniqueBytes(m), 1560 + 4096);

  // A gemv manifest still counts its five buffers.
  Manifest gemv = parseValid();
  EXPECT_EQ(uniqueBytes(gemv), bufferSizes(gemv.problem).unique());

  ConversionProblem exact;
  exact.rows = 256;
  exact.cols = 8;
  exact.l = 3;
  sizes = conversionSizes(exact);
  EXPECT_EQ(sizes.source, 3 * 256 * 8);
  EXPECT_EQ(sizes.dest, 3 * 256 * 8); // no padding
}

TEST(RunnerConversion, ComparesBytesExactly) {
  std::vector<uint8_t> expected = {1, 2, 3, 0xFF, 5};
  VerifyResult r = compareBytes(expected, expected);
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.firstMismatch, -1);
  EXPECT_EQ(r.compared, 5);
  std::vector<uint8_t> got = {1, 2, 0, 0xFF, 6};
  r = compareBytes(got, expected);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.firstMismatch, 2);
  EXPECT_EQ(r.got, 0);
  EXPECT_EQ(r.expected, 3);
  EXPECT_EQ(r.mismatches, 2);
  r = compareBytes({1, 2}, expected);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.firstMismatch, 2);
  EXPECT_EQ(r.mismatches, 3);
}

TEST(RunnerConversion, FormatsVerifyLines) {
  Manifest m = conversionManifest();
  VerifyResult r;
  r.pass = true;
  r.compared = 4096;
  r.seed = 3;
  EXPECT_EQ(formatVerify(m, r),
            "PASS convert_scale_layout 130x6x2 linear->blocked128x4 "
            "f8E4M3FN: 4096 bytes exact [seed=3 conv.json]");
  r.pass = false;
  r.mismatches = 12;
  // Batch 1, atom 0, line 1, lane group 0, column 1: scale (1, 1).
  r.firstMismatch = 2048 + 17;
  r.got = 0xFF;
  r.expected = 0x3C;
  EXPECT_EQ(formatVerify(m, r),
            "FAIL convert_scale_layout 130x6x2 linear->blocked128x4 "
            "f8E4M3FN: first mismatch at l=1, offset=17 (row 1, col 1): got "
            "0xff, expected 0x3c; 12 of 4096 bytes differ [seed=3 "
            "conv.json]");
  // Atom (1, 1) starts at 1536; offset 4 in it is row 128 + 32, col 4.
  r.firstMismatch = 1536 + 4;
  r.afterTiming = true;
  EXPECT_EQ(formatVerify(m, r),
            "FAIL convert_scale_layout 130x6x2 linear->blocked128x4 "
            "f8E4M3FN (after timing): first mismatch at l=0, offset=1540 "
            "(padding): got 0xff, expected 0x3c; 12 of 4096 bytes differ "
            "[seed=3 conv.json]");
  r.firstMismatch = 1536 + 16 + 1;
  r.afterTiming = false;
  EXPECT_NE(formatVerify(m, r).find("offset=1553 (row 129, col 5)"),
            std::string::npos);

  std::swap(m.conversion.from, m.conversion.to);
  r.compared = 1560;
  r.firstMismatch = 780 + 6 * 129 + 5;
  EXPECT_EQ(formatVerify(m, r),
            "FAIL convert_scale_layout 130x6x2 blocked128x4->linear "
            "f8E4M3FN: first mismatch at l=1, offset=779 (row 129, col 5): "
            "got 0xff, expected 0x3c; 12 of 1560 bytes differ [seed=3 "
            "conv.json]");
}

TEST(RunnerConversion, JsonObjectsParseBack) {
  Manifest m = conversionManifest();
  VerifyResult r;
  r.firstMismatch = 2048 + 17;
  r.got = 0xFF;
  r.expected = 0x3C;
  r.mismatches = 12;
  r.compared = 4096;
  r.seed = 3;
  BenchResult b;
  b.kernel.medianUs = 2;
  b.kernel.minUs = 1.9;
  b.kernel.reps = 100;
  b.uniqueBytes = uniqueBytes(m);
  b.copyGBps = 4000;

  std::string error;
  std::optional<json::Value> v = json::parse(formatJson(m, r, &b), error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->find("op")->string, "convert_scale_layout");
  EXPECT_EQ(v->find("rows")->integer, 130);
  EXPECT_EQ(v->find("cols")->integer, 6);
  EXPECT_EQ(v->find("l")->integer, 2);
  EXPECT_EQ(v->find("from")->string, "linear");
  EXPECT_EQ(v->find("to")->string, "blocked128x4");
  EXPECT_EQ(v->find("element")->string, "f8E4M3FN");
  EXPECT_EQ(v->find("status")->string, "fail");
  EXPECT_EQ(v->find("mismatches")->integer, 12);
  EXPECT_EQ(v->find("compared")->integer, 4096);
  EXPECT_FALSE(v->find("m"));
  EXPECT_FALSE(v->find("alpha"));
  const json::Value *mismatch = v->find("first_mismatch");
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->find("l")->integer, 1);
  EXPECT_EQ(mismatch->find("offset")->integer, 17);
  EXPECT_EQ(mismatch->find("row")->integer, 1);
  EXPECT_EQ(mismatch->find("col")->integer, 1);
  EXPECT_EQ(mismatch->find("got")->integer, 255);
  EXPECT_EQ(mismatch->find("expected")->integer, 60);
  EXPECT_EQ(v->find("bench")->find("unique_bytes")->integer, 5656);

  r.firstMismatch = 1540;
  v = json::parse(formatJson(m, r, nullptr), error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->find("first_mismatch")->find("row")->kind,
            json::Value::Kind::Null);
  EXPECT_FALSE(v->find("bench"));
}

//===----------------------------------------------------------------------===//
// Child processes
//===----------------------------------------------------------------------===//

TEST(RunnerSubprocess, ReportsExitCodeAndMessages) {
  ChildResult r = runInChild(
      [](int fd) {
        EXPECT_EQ(write(fd, "copy 4270\n", 10), 10);
        return 3;
      },
      10);
  EXPECT_EQ(r.kind, ChildResult::Kind::Exited);
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.messages, "copy 4270\n");
  r = runInChild([](int) { return 0; }, 10);
  EXPECT_EQ(r.kind, ChildResult::Kind::Exited);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.messages, "");
}

TEST(RunnerSubprocess, ReportsCrashesAndHangs) {
  ChildResult r = runInChild(
      [](int) {
        std::raise(SIGTERM);
        return 0;
      },
      10);
  EXPECT_EQ(r.kind, ChildResult::Kind::Signaled);
  EXPECT_EQ(r.code, SIGTERM);

  auto start = std::chrono::steady_clock::now();
  r = runInChild(
      [](int) {
        pause();
        return 0;
      },
      1);
  EXPECT_EQ(r.kind, ChildResult::Kind::TimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

} // namespace
