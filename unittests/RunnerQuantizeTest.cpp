//===- RunnerQuantizeTest.cpp - nvfp4-run: quantize and dequantize --------===//
//
// The manifests of quantize, quantize_global_scale and dequantize (every
// key, its spelling and its checks), their byte counts, names, options and
// reports, and their runs through the fake driver: a kernel that writes
// the reference passes, one wrong or unwritten byte of any output fails.
//
//===----------------------------------------------------------------------===//

#include "RunnerFakeDriver.h"
#include "RunnerTestUtil.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Runner.h"
#include "nvfp4/Support/Formats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

/// A valid manifest of `op`, one field a line: 130 x 64 x 2 bf16 values
/// (f16 for dequantize), nvfp4, linear, two-level.
Fields quantizeFields(Op op) {
  Fields fields = {{"kernel", "\"nvfp4_q\""},
                   {"ptx", "\"q.ptx\""},
                   {"chip", "\"sm_90a\""},
                   {"op", "\"" + std::string(name(op)) + "\""},
                   {"rows", "130"},
                   {"k", "64"},
                   {"l", "2"}};
  if (op == Op::Quantize)
    fields.insert(fields.end(), {{"scale_format", "\"nvfp4\""},
                                 {"scale_layout", "\"linear\""},
                                 {"input", "\"bf16\""},
                                 {"global_scale", "true"}});
  else if (op == Op::QuantizeGlobalScale)
    fields.push_back({"input", "\"bf16\""});
  else
    fields.insert(fields.end(), {{"scale_format", "\"nvfp4\""},
                                 {"scale_layout", "\"linear\""},
                                 {"output", "\"f16\""},
                                 {"global_scale", "true"}});
  const char *params =
      op == Op::Quantize ? "[\"input\", \"data\", \"scales\", \"global_scale\"]"
      : op == Op::QuantizeGlobalScale
          ? "[\"input\", \"global_scale\"]"
          : "[\"data\", \"scales\", \"output\", \"global_scale\"]";
  fields.insert(
      fields.end(),
      {{"grid", op == Op::QuantizeGlobalScale ? "[1, 1, 1]" : "[3, 2, 1]"},
       {"block", "[128, 1, 1]"},
       {"shared_bytes", "0"},
       {"params", params},
       {"version", std::to_string(manifest::kVersion)}});
  return fields;
}

/// `fields` with each of `changes` applied (an empty value removes the key).
Fields changed(Fields fields, const Fields &changes) {
  for (const auto &change : changes) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const auto &f) {
      return f.first == change.first;
    });
    EXPECT_NE(it, fields.end()) << change.first;
    if (it != fields.end())
      it->second = change.second;
  }
  fields.erase(std::remove_if(fields.begin(), fields.end(),
                              [](const auto &f) { return f.second.empty(); }),
               fields.end());
  return fields;
}

std::string text(Op op, const Fields &changes = {}) {
  return objectText(changed(quantizeFields(op), changes), "", "");
}

Manifest quantizeManifest(Op op, const Fields &changes = {}) {
  Manifest m = parseValid(text(op, changes));
  m.path = "out/q.json";
  return m;
}

/// The PTX of the valid manifest of `op`: its parameters, all .u64.
std::string quantizePtx(Op op) {
  size_t params = op == Op::QuantizeGlobalScale ? 2 : 4;
  std::string ptx = ".version 8.8\n.target sm_90a\n.address_size 64\n\n"
                    ".visible .entry nvfp4_q(\n";
  for (size_t i = 0; i < params; ++i)
    ptx += "\t.param .u64 nvfp4_q_param_" + std::to_string(i) +
           (i + 1 < params ? ",\n" : "\n");
  return ptx + ")\n.reqntid 128, 1, 1\n{\n\tret;\n}\n" +
         signatureGlobal(quantizeFields(op), "nvfp4_q");
}

constexpr Op kOps[] = {Op::Quantize, Op::QuantizeGlobalScale, Op::Dequantize};

TEST(RunnerQuantizeManifest, ReadsEveryField) {
  Manifest m = quantizeManifest(Op::Quantize);
  EXPECT_EQ(m.kind, Op::Quantize);
  EXPECT_TRUE(m.isQuantization());
  EXPECT_FALSE(m.isConversion());
  EXPECT_EQ(m.quantization.rows, 130);
  EXPECT_EQ(m.quantization.k, 64);
  EXPECT_EQ(m.quantization.l, 2);
  EXPECT_EQ(m.quantization.format, ref::ScaleFormat::NVFP4);
  EXPECT_EQ(m.quantization.layout, ref::ScaleLayout::Linear);
  EXPECT_EQ(m.quantization.element, ref::ElementType::BF16);
  EXPECT_TRUE(m.quantization.twoLevel);
  EXPECT_EQ(m.params, (std::vector<Param>{Param::Input, Param::Data,
                                          Param::Scales, Param::GlobalScale}));
  EXPECT_FALSE(m.takesAlpha());
  EXPECT_EQ(describe(m), "quantize 130x64x2 bf16 nvfp4 linear two-level");

  m = quantizeManifest(Op::Quantize,
                       {{"scale_format", "\"mxfp4\""},
                        {"scale_layout", "\"blocked128x4\""},
                        {"input", "\"f32\""},
                        {"global_scale", "false"},
                        {"params", "[\"scales\", \"data\", \"input\"]"}});
  EXPECT_EQ(m.quantization.format, ref::ScaleFormat::MXFP4);
  EXPECT_EQ(m.quantization.layout, ref::ScaleLayout::Blocked128x4);
  EXPECT_EQ(m.quantization.element, ref::ElementType::F32);
  EXPECT_FALSE(m.quantization.twoLevel);
  EXPECT_EQ(m.params,
            (std::vector<Param>{Param::Scales, Param::Data, Param::Input}));
  EXPECT_EQ(describe(m), "quantize 130x64x2 f32 mxfp4 blocked128x4");

  m = quantizeManifest(Op::QuantizeGlobalScale);
  EXPECT_EQ(m.kind, Op::QuantizeGlobalScale);
  EXPECT_EQ(m.quantization.element, ref::ElementType::BF16);
  // The first half of a two-level NVFP4 quantization.
  EXPECT_EQ(m.quantization.format, ref::ScaleFormat::NVFP4);
  EXPECT_TRUE(m.quantization.twoLevel);
  EXPECT_EQ(m.params, (std::vector<Param>{Param::Input, Param::GlobalScale}));
  EXPECT_EQ(describe(m), "quantize_global_scale 130x64x2 bf16");

  m = quantizeManifest(Op::Dequantize);
  EXPECT_EQ(m.kind, Op::Dequantize);
  EXPECT_EQ(m.quantization.element, ref::ElementType::F16);
  EXPECT_TRUE(m.quantization.twoLevel);
  EXPECT_EQ(m.params, (std::vector<Param>{Param::Data, Param::Scales,
                                          Param::Output, Param::GlobalScale}));
  EXPECT_EQ(describe(m), "dequantize 130x64x2 nvfp4 linear f16 two-level");
  m = quantizeManifest(Op::Dequantize,
                       {{"scale_layout", "\"blocked128x4\""},
                        {"global_scale", "false"},
                        {"params", "[\"data\", \"scales\", \"output\"]"}});
  EXPECT_EQ(describe(m), "dequantize 130x64x2 nvfp4 blocked128x4 f16");
}

TEST(RunnerQuantizeManifest, EveryFieldIsRequired) {
  for (Op op : kOps) {
    std::vector<std::string> keys;
    for (auto &[key, value] : quantizeFields(op)) {
      keys.push_back(key);
      if (key != manifest::key::Version)
        EXPECT_EQ(manifestError(text(op, {{key, ""}})),
                  "missing field \"" + key + "\"")
            << name(op);
    }
    std::vector<std::string> schema;
    for (const char *key : manifest::requiredKeys(op))
      schema.push_back(key);
    std::sort(keys.begin(), keys.end());
    std::sort(schema.begin(), schema.end());
    EXPECT_EQ(keys, schema) << name(op);
    EXPECT_EQ(manifestError(text(op)), "") << name(op);
  }
}

TEST(RunnerQuantizeManifest, RejectsBadValues) {
  EXPECT_EQ(manifestError(text(Op::Quantize, {{"rows", "0"}})),
            "6:11: field \"rows\" must be in [1, 2147483648], got 0");
  EXPECT_EQ(manifestError(text(Op::Dequantize, {{"l", "0"}})),
            "8:8: field \"l\" must be in [1, 2147483648], got 0");
  EXPECT_EQ(manifestError(text(Op::Quantize, {{"scale_format", "\"nvfp8\""}})),
            "9:19: unknown scale_format \"nvfp8\" (expected nvfp4 or mxfp4)");
  EXPECT_EQ(
      manifestError(text(Op::Dequantize, {{"scale_layout", "\"blocked\""}})),
      "10:19: unknown scale_layout \"blocked\" (expected linear or "
      "blocked128x4)");
  EXPECT_EQ(manifestError(text(Op::Quantize, {{"input", "\"f8\""}})),
            "11:12: unknown input \"f8\" (expected f16, bf16 or f32)");
  EXPECT_EQ(
      manifestError(text(Op::QuantizeGlobalScale, {{"input", "\"e2m1\""}})),
      "9:12: unknown input \"e2m1\" (expected f16, bf16 or f32)");
  EXPECT_EQ(manifestError(text(Op::Dequantize, {{"output", "\"f64\""}})),
            "11:13: unknown output \"f64\" (expected f16, bf16 or f32)");
  EXPECT_EQ(manifestError(text(Op::Quantize, {{"global_scale", "1"}})),
            "12:19: field \"global_scale\" must be a boolean, got an integer");
  EXPECT_EQ(manifestError(text(Op::Dequantize, {{"global_scale", "\"yes\""}})),
            "12:19: field \"global_scale\" must be a boolean, got a string");
}

TEST(RunnerQuantizeManifest, KIsWholeBlocks) {
  EXPECT_EQ(manifestError(text(Op::Quantize, {{"k", "24"}})),
            "7:8: k = 24 is not a multiple of the nvfp4 block size 16");
  EXPECT_EQ(
      manifestError(text(Op::Dequantize, {{"scale_format", "\"mxfp4\""},
                                          {"global_scale", "false"},
                                          {"k", "48"},
                                          {"params", "[\"data\", \"scales\", "
                                                     "\"output\"]"}})),
      "7:8: k = 48 is not a multiple of the mxfp4 block size 32");
  // The global scale covers the blocks its quantize will make.
  EXPECT_EQ(manifestError(text(Op::QuantizeGlobalScale, {{"k", "24"}})),
            "7:8: k = 24 is not a multiple of the nvfp4 block size 16");
  EXPECT_EQ(manifestError(text(Op::QuantizeGlobalScale, {{"k", "16"}})), "");
  EXPECT_EQ(manifestError(
                text(Op::Quantize, {{"rows", "2147483648"}, {"k", "1024"}})),
            "shape 2147483648x1024x2 is too large");
}

TEST(RunnerQuantizeManifest, Mxfp4IsSingleLevel) {
  for (Op op : {Op::Quantize, Op::Dequantize})
    EXPECT_EQ(manifestError(text(op, {{"scale_format", "\"mxfp4\""}})),
              "12:19: \"global_scale\" is true, but mxfp4 is single-level "
              "(only nvfp4 takes a global scale)")
        << name(op);
}

TEST(RunnerQuantizeManifest, ParamsAreTheSchemas) {
  // Each op's parameters, for both values of global_scale.
  for (Op op : kOps)
    for (bool twoLevel : {false, true}) {
      if (op == Op::QuantizeGlobalScale && !twoLevel)
        continue;
      std::vector<Param> params =
          manifest::params(op, ref::VectorElement::E2M1, twoLevel).required;
      std::string list;
      for (Param param : params)
        list +=
            std::string(list.empty() ? "[" : ", ") + "\"" + name(param) + "\"";
      Fields changes = {{"params", list + "]"}};
      if (op != Op::QuantizeGlobalScale)
        changes.push_back({"global_scale", twoLevel ? "true" : "false"});
      EXPECT_EQ(quantizeManifest(op, changes).params, params);
    }
  EXPECT_EQ(
      manifestError(text(Op::Quantize,
                         {{"params", "[\"input\", \"data\", \"scales\"]"}})),
      "16:13: \"params\" lacks \"global_scale\" (it must list input, data, "
      "scales and global_scale when \"global_scale\" is true)");
  EXPECT_EQ(manifestError(text(Op::Dequantize, {{"global_scale", "false"}})),
            "16:42: parameter \"global_scale\" is listed, but a single-level "
            "dequantize has none (\"global_scale\" is false)");
  EXPECT_EQ(manifestError(
                text(Op::Dequantize, {{"global_scale", "false"},
                                      {"params", "[\"data\", \"scales\"]"}})),
            "16:13: \"params\" lacks \"output\" (it must list data, scales "
            "and output)");
  EXPECT_EQ(manifestError(text(Op::QuantizeGlobalScale,
                               {{"params", "[\"input\", \"data\"]"}})),
            "13:23: unknown parameter \"data\" (expected input, "
            "global_scale)");
  EXPECT_EQ(
      manifestError(text(Op::QuantizeGlobalScale, {{"params", "[\"input\"]"}})),
      "13:13: \"params\" lacks \"global_scale\" (it must list input and "
      "global_scale)");
  EXPECT_EQ(
      manifestError(text(
          Op::Quantize,
          {{"params", "[\"input\", \"data\", \"scales\", \"global_scale\", "
                      "\"alpha\"]"}})),
      "16:57: unknown parameter \"alpha\" (expected input, data, scales, "
      "global_scale)");
}

TEST(RunnerQuantizeManifest, GridRowsAreBatches) {
  EXPECT_EQ(manifestError(text(Op::Quantize, {{"grid", "[3, 1, 1]"}})),
            "13:11: \"grid\" [3, 1, 1] does not fit the shape: y must be l = "
            "2 and z must be 1");
  EXPECT_EQ(manifestError(text(Op::Dequantize, {{"grid", "[3, 2, 2]"}})),
            "13:11: \"grid\" [3, 2, 2] does not fit the shape: y must be l = "
            "2 and z must be 1");
  // The global scale reduces over every batch however it is launched.
  EXPECT_EQ(
      manifestError(text(Op::QuantizeGlobalScale, {{"grid", "[8, 4, 1]"}})),
      "");
}

TEST(RunnerQuantizeManifest, ChecksThePtx) {
  for (Op op : kOps)
    EXPECT_EQ(checkPtx(quantizeManifest(op), quantizePtx(op)), "") << name(op);
  EXPECT_EQ(checkPtx(quantizeManifest(Op::Quantize, {{"input", "\"f32\""}}),
                     quantizePtx(Op::Quantize)),
            "manifest does not match the PTX: \"input\" is \"f32\" in the "
            "manifest, but nvfp4_q was built for \"bf16\"");
  EXPECT_EQ(checkPtx(quantizeManifest(Op::Dequantize, {{"k", "32"}}),
                     quantizePtx(Op::Dequantize)),
            "manifest does not match the PTX: \"k\" is 32 in the manifest, "
            "but nvfp4_q was built for 64");
  // A single-level manifest for a two-level kernel: the signature's
  // global_scale differs (and so does the parameter count).
  std::string error = checkPtx(
      quantizeManifest(Op::Quantize,
                       {{"global_scale", "false"},
                        {"params", "[\"input\", \"data\", \"scales\"]"}}),
      quantizePtx(Op::Quantize));
  EXPECT_NE(error, "");
}

TEST(RunnerQuantizeBytes, WhatEachOpMoves) {
  Manifest m = quantizeManifest(Op::Quantize);
  QuantizeSizes sizes = quantizeSizes(m.kind, m.quantization);
  EXPECT_EQ(sizes.input, 2 * 130 * 64 * 2); // bf16
  EXPECT_EQ(sizes.data, 2 * 130 * 32);
  EXPECT_EQ(sizes.scales, 2 * 130 * 4);
  EXPECT_EQ(sizes.output, 0);
  EXPECT_EQ(sizes.globalScale, 4); // read
  EXPECT_EQ(uniqueBytes(m), 33280 + 8320 + 1040 + 4);

  // Blocked scales with their padding: 2 atom rows of one atom column.
  m = quantizeManifest(Op::Quantize,
                       {{"scale_layout", "\"blocked128x4\""},
                        {"input", "\"f32\""},
                        {"global_scale", "false"},
                        {"params", "[\"input\", \"data\", \"scales\"]"}});
  sizes = quantizeSizes(m.kind, m.quantization);
  EXPECT_EQ(sizes.input, 2 * 130 * 64 * 4);
  EXPECT_EQ(sizes.scales, 2 * 2 * 512);
  EXPECT_EQ(sizes.globalScale, 0);
  EXPECT_EQ(uniqueBytes(m), 66560 + 8320 + 2048);

  m = quantizeManifest(Op::QuantizeGlobalScale);
  sizes = quantizeSizes(m.kind, m.quantization);
  EXPECT_EQ(sizes.data + sizes.scales + sizes.output, 0);
  EXPECT_EQ(uniqueBytes(m), 33280 + 4); // written

  m = quantizeManifest(Op::Dequantize, {{"scale_format", "\"mxfp4\""},
                                        {"output", "\"f32\""},
                                        {"global_scale", "false"},
                                        {"params", "[\"data\", \"scales\", "
                                                   "\"output\"]"}});
  sizes = quantizeSizes(m.kind, m.quantization);
  EXPECT_EQ(sizes.input, 0);
  EXPECT_EQ(sizes.output, 2 * 130 * 64 * 4);
  EXPECT_EQ(sizes.scales, 2 * 130 * 2);
  EXPECT_EQ(uniqueBytes(m), 66560 + 8320 + 520);
}

TEST(RunnerQuantizeOptions, ShapeAndDistribution) {
  Manifest m = quantizeManifest(Op::Quantize);
  Options o;
  EXPECT_EQ(checkShape(o, m), "");
  o.m = 130;
  o.k = 64;
  o.l = 2;
  EXPECT_EQ(checkShape(o, m), "");
  o.k = 128;
  EXPECT_EQ(checkShape(o, m),
            "kernel was built for rows=130, K=64, L=2; got rows=130, K=128, "
            "L=2");
  o = Options();
  o.n = 1;
  EXPECT_EQ(checkShape(o, quantizeManifest(Op::Dequantize)),
            "--n does not apply to dequantize (rows=130, K=64, L=2)");

  for (Op op : kOps) {
    Manifest m = quantizeManifest(op);
    o = Options();
    EXPECT_EQ(checkInputs(o, m), "");
    o.dist = ref::Distribution::Extreme;
    EXPECT_EQ(checkInputs(o, m),
              std::string("--dist extreme does not apply to ") + name(op) +
                  ", whose inputs have one distribution (use --dist full, "
                  "the default)");
    std::string error;
    EXPECT_EQ(chooseAlpha(Options(), m, error), 1.0f);
  }
}

TEST(RunnerQuantizeReport, VerifyLines) {
  Manifest m = quantizeManifest(Op::Quantize);
  VerifyResult r;
  r.pass = true;
  r.compared = 9360;
  r.seed = 3;
  EXPECT_EQ(formatVerify(m, r), "PASS quantize 130x64x2 bf16 nvfp4 linear "
                                "two-level: 9360 bytes exact [seed=3 q.json]");
  r.pass = false;
  r.buffer = Param::Data;
  r.firstMismatch = 32 * 131 + 5; // batch 1, row 1, elements 10 and 11
  r.got = 0xFF;
  r.expected = 0x3C;
  r.mismatches = 2;
  EXPECT_EQ(formatVerify(m, r),
            "FAIL quantize 130x64x2 bf16 nvfp4 linear two-level: first "
            "mismatch at data byte 4197 (l=1, row 1, k=10): got 0xff, "
            "expected 0x3c; 2 of 9360 bytes differ [seed=3 q.json]");
  r.buffer = Param::Scales;
  r.firstMismatch = 520 + 4 * 129 + 3;
  EXPECT_NE(formatVerify(m, r).find("first mismatch at scales byte 1039 "
                                    "(l=1, row 129, col 3)"),
            std::string::npos)
      << formatVerify(m, r);
  m = quantizeManifest(Op::Quantize, {{"scale_layout", "\"blocked128x4\""}});
  r.firstMismatch = 512 + 4; // atom row 1, line 0: row 128 + 32
  r.afterTiming = true;
  EXPECT_NE(formatVerify(m, r).find("(after timing): first mismatch at "
                                    "scales byte 516 (l=0, padding)"),
            std::string::npos)
      << formatVerify(m, r);

  m = quantizeManifest(Op::QuantizeGlobalScale);
  r = VerifyResult();
  r.pass = true;
  r.got = r.expected = 2688;
  EXPECT_EQ(formatVerify(m, r), "PASS quantize_global_scale 130x64x2 bf16: "
                                "global_scale 2688 exact [seed=0 q.json]");
  r.pass = false;
  r.got = std::nan("");
  r.expected = 0.3333333432674408;
  EXPECT_EQ(formatVerify(m, r),
            "FAIL quantize_global_scale 130x64x2 bf16: global_scale nan, "
            "expected 0.333333343 [seed=0 q.json]");

  m = quantizeManifest(Op::Dequantize);
  r = VerifyResult();
  r.pass = true;
  r.compared = 16640;
  EXPECT_EQ(formatVerify(m, r),
            "PASS dequantize 130x64x2 nvfp4 linear f16 two-level: 16640 "
            "values correctly rounded [seed=0 q.json]");
  r.pass = false;
  r.firstMismatch = 64 * 131 + 5;
  r.got = 1.5;
  r.expected = 1.75;
  r.nanCount = 2;
  EXPECT_EQ(formatVerify(m, r),
            "FAIL dequantize 130x64x2 nvfp4 linear f16 two-level: first "
            "mismatch at l=1, row=1, k=5: got 1.5, expected 1.75; 2 NaN "
            "outputs; not correctly rounded [seed=0 q.json]");
}

TEST(RunnerQuantizeReport, JsonObjectsParseBack) {
  auto parsed = [](const std::string &line) {
    std::string error;
    std::optional<json::Document> doc = json::parse(line, error);
    EXPECT_TRUE(doc) << error;
    return doc ? doc->root : json::Json();
  };
  Manifest m = quantizeManifest(Op::Quantize);
  VerifyResult r;
  r.buffer = Param::Data;
  r.firstMismatch = 32 * 131 + 5;
  r.got = 0xFF;
  r.expected = 0x3C;
  r.mismatches = 2;
  r.compared = 9360;
  json::Json v = parsed(formatJson(m, r, nullptr));
  EXPECT_EQ(v.at("op"), "quantize");
  EXPECT_EQ(v.at("rows"), 130);
  EXPECT_EQ(v.at("k"), 64);
  EXPECT_EQ(v.at("input"), "bf16");
  EXPECT_EQ(v.at("global_scale"), true);
  EXPECT_EQ(v.at("status"), "fail");
  EXPECT_EQ(v.at("mismatches"), 2);
  EXPECT_FALSE(v.contains("dist"));
  EXPECT_EQ(v.at("first_mismatch"),
            json::Json::parse(R"({"buffer": "data", "l": 1, "row": 1,
                                  "k": 10, "got": 255, "expected": 60})"));
  r.buffer = Param::Scales;
  r.firstMismatch = 520 + 4 * 129 + 3;
  v = parsed(formatJson(m, r, nullptr));
  EXPECT_EQ(v.at("first_mismatch").at("buffer"), "scales");
  EXPECT_EQ(v.at("first_mismatch").at("row"), 129);
  EXPECT_EQ(v.at("first_mismatch").at("col"), 3);

  m = quantizeManifest(Op::QuantizeGlobalScale);
  r = VerifyResult();
  r.got = std::nan("");
  r.expected = 2688;
  v = parsed(formatJson(m, r, nullptr));
  EXPECT_FALSE(v.contains("scale_format"));
  EXPECT_FALSE(v.contains("global_scale"));
  EXPECT_EQ(v.at("got"), nullptr);
  EXPECT_EQ(v.at("expected"), 2688);

  m = quantizeManifest(Op::Dequantize);
  r = VerifyResult();
  r.buffer = Param::Output;
  r.firstMismatch = 64 * 131 + 5;
  r.got = 1.5;
  r.expected = 1.75;
  r.nanCount = 2;
  r.compared = 16640;
  BenchResult b;
  b.uniqueBytes = uniqueBytes(m);
  v = parsed(formatJson(m, r, &b));
  EXPECT_EQ(v.at("output"), "f16");
  EXPECT_EQ(v.at("nan_count"), 2);
  EXPECT_EQ(v.at("first_mismatch"),
            json::Json::parse(R"({"buffer": "output", "l": 1, "row": 1,
                                  "k": 5, "got": 1.5, "expected": 1.75})"));
  EXPECT_EQ(v.at("bench").at("unique_bytes"), 33280 + 8320 + 1040 + 4);
}

//===----------------------------------------------------------------------===//
// Runs through the fake driver
//===----------------------------------------------------------------------===//

/// Element `i` of `type` values as a float.
float readValue(ref::ElementType type, const uint8_t *values, int64_t i) {
  return static_cast<float>(ref::readOutput(type, values, i));
}

float readFloat(const uint8_t *bytes) {
  float value;
  std::memcpy(&value, bytes, sizeof(float));
  return value;
}

/// A kernel computing the reference from the buffers it is passed, in the
/// manifest's parameter order; `damage` then changes what it wrote (the
/// written buffers by Param) to make it wrong.
struct QuantizeKernel {
  explicit QuantizeKernel(const Manifest &manifest) : manifest(manifest) {}

  const Manifest &manifest;
  std::function<void(std::array<uint8_t *, kNumParams> &)> damage;
  /// The global scale a two-level quantize or a dequantize read.
  float readGlobalScale = 0;

  void operator()(void **params) {
    std::array<uint8_t *, kNumParams> buffers{};
    for (size_t i = 0; i < manifest.params.size(); ++i)
      buffers[int(manifest.params[i])] =
          host(*static_cast<CUdeviceptr *>(params[i]));
    const QuantizeProblem &q = manifest.quantization;
    if (q.twoLevel && manifest.kind != Op::QuantizeGlobalScale)
      readGlobalScale = readFloat(buffers[int(Param::GlobalScale)]);
    if (manifest.kind == Op::Dequantize)
      dequantize(q, buffers);
    else
      quantize(q, buffers);
    if (damage)
      damage(buffers);
  }

  void quantize(const QuantizeProblem &q,
                std::array<uint8_t *, kNumParams> &buffers) {
    std::vector<float> x(q.l * q.rows * q.k);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = readValue(q.element, buffers[int(Param::Input)], i);
    // The reference recomputes the global scale a two-level quantize reads;
    // the test checks that the runner passed that one.
    ref::Quantized out = ref::quantize(q.format, q.layout, q.twoLevel, x.data(),
                                       q.rows, q.k, q.l);
    if (manifest.kind == Op::QuantizeGlobalScale) {
      std::memcpy(buffers[int(Param::GlobalScale)], &out.globalScale, 4);
      return;
    }
    std::memcpy(buffers[int(Param::Data)], out.data.data(), out.data.size());
    std::memcpy(buffers[int(Param::Scales)], out.scales.data(),
                out.scales.size());
  }

  void dequantize(const QuantizeProblem &q,
                  std::array<uint8_t *, kNumParams> &buffers) {
    float gs = q.twoLevel ? readGlobalScale : 1.0f;
    std::vector<uint8_t> out = ref::roundOutput(
        q.element,
        ref::dequantize(q.format, q.layout, buffers[int(Param::Data)],
                        buffers[int(Param::Scales)], gs, q.rows, q.k, q.l));
    std::memcpy(buffers[int(Param::Output)], out.data(), out.size());
  }
};

class RunnerQuantizeFake : public testing::Test {
protected:
  void SetUp() override { device = &fake; }
  void TearDown() override { device = nullptr; }

  /// Runs `manifest` with `kernel` (with --bench and a chain of `chain`
  /// when `chain` > 0); returns the runner's error.
  std::string run(const Manifest &manifest, QuantizeKernel &kernel,
                  VerifyResult &result, int chain = 0) {
    fake.kernel = [&](void **params) { kernel(params); };
    fake.pointerParams.assign(manifest.params.size(), true);
    RunConfig config;
    config.seed = 5;
    config.bench = chain > 0;
    config.reps = 2;
    config.chain = std::max(chain, 1);
    Runner runner(driver);
    runner.setCopyGBps(1000);
    return runner.run(manifest, config, result, timing);
  }

  FakeDevice fake;
  Driver driver = fakeDriver();
  std::optional<BenchResult> timing;
};

/// The manifests the fake runs cover: every layout, format, element type
/// and level of each op.
std::vector<Manifest> runManifests() {
  std::vector<Manifest> all;
  for (const char *layout : {"\"linear\"", "\"blocked128x4\""})
    for (const char *element : {"\"f32\"", "\"f16\"", "\"bf16\""}) {
      all.push_back(quantizeManifest(
          Op::Quantize, {{"scale_layout", layout}, {"input", element}}));
      all.push_back(quantizeManifest(
          Op::Quantize, {{"scale_format", "\"mxfp4\""},
                         {"scale_layout", layout},
                         {"input", element},
                         {"global_scale", "false"},
                         {"params", "[\"input\", \"data\", \"scales\"]"}}));
      all.push_back(quantizeManifest(
          Op::Dequantize, {{"scale_layout", layout}, {"output", element}}));
      all.push_back(quantizeManifest(
          Op::Dequantize, {{"scale_format", "\"mxfp4\""},
                           {"scale_layout", layout},
                           {"output", element},
                           {"global_scale", "false"},
                           {"params", "[\"data\", \"scales\", \"output\"]"}}));
    }
  for (const char *element : {"\"f32\"", "\"f16\"", "\"bf16\""})
    all.push_back(
        quantizeManifest(Op::QuantizeGlobalScale, {{"input", element}}));
  return all;
}

TEST_F(RunnerQuantizeFake, TheReferencePasses) {
  for (const Manifest &m : runManifests()) {
    QuantizeKernel kernel(m);
    VerifyResult result;
    fake.launches = 0;
    fake.allocations.clear();
    ASSERT_EQ(run(m, kernel, result), "") << describe(m);
    EXPECT_TRUE(result.pass) << formatVerify(m, result);
    // One verifying launch per fill of the outputs (0xFF, then 0x00).
    EXPECT_EQ(fake.launches, 2) << describe(m);
    // Inputs first, then outputs, each of the bytes the manifest implies.
    QuantizeSizes sizes = quantizeSizes(m.kind, m.quantization);
    std::vector<size_t> want;
    const QuantizeProblem &q = m.quantization;
    if (m.kind == Op::Quantize)
      want = {size_t(sizes.input)};
    if (m.kind == Op::Dequantize)
      want = {size_t(sizes.data), size_t(sizes.scales)};
    if (m.kind == Op::QuantizeGlobalScale)
      want = {size_t(sizes.input), 4};
    else if (q.twoLevel)
      want.push_back(4);
    if (m.kind == Op::Quantize)
      want.insert(want.end(), {size_t(sizes.data), size_t(sizes.scales)});
    if (m.kind == Op::Dequantize)
      want.push_back(size_t(sizes.output));
    EXPECT_EQ(fake.allocations, want) << describe(m);
  }
}

TEST_F(RunnerQuantizeFake, TheKernelReadsTheReferenceGlobalScale) {
  Manifest m = quantizeManifest(Op::Quantize);
  QuantizeKernel kernel(m);
  VerifyResult result;
  ASSERT_EQ(run(m, kernel, result), "");
  ASSERT_TRUE(result.pass) << formatVerify(m, result);
  const QuantizeProblem &q = m.quantization;
  ref::QuantizeInputs in = ref::generateQuantizeInputs(
      q.element, q.format, q.rows, q.k, q.l, /*seed=*/5);
  float gs = ref::quantize(q.format, q.layout, true, in.values.data(), q.rows,
                           q.k, q.l)
                 .globalScale;
  EXPECT_EQ(kernel.readGlobalScale, gs);
  EXPECT_NE(gs, 1.0f);

  m = quantizeManifest(Op::Dequantize);
  QuantizeKernel dequantizer(m);
  ASSERT_EQ(run(m, dequantizer, result), "");
  ASSERT_TRUE(result.pass) << formatVerify(m, result);
  EXPECT_EQ(dequantizer.readGlobalScale,
            ref::generateDequantizeInputs(q.format, q.layout, true, q.rows, q.k,
                                          q.l, 5)
                .globalScale);
}

TEST_F(RunnerQuantizeFake, OneWrongByteOfDataOrScalesFails) {
  for (const char *layout : {"\"linear\"", "\"blocked128x4\""}) {
    Manifest m = quantizeManifest(Op::Quantize, {{"scale_layout", layout}});
    QuantizeSizes sizes = quantizeSizes(m.kind, m.quantization);
    for (Param param : {Param::Data, Param::Scales}) {
      QuantizeKernel kernel(m);
      int64_t at = (param == Param::Data ? sizes.data : sizes.scales) - 600;
      kernel.damage = [&](std::array<uint8_t *, kNumParams> &buffers) {
        buffers[int(param)][at] ^= 0x10;
      };
      VerifyResult result;
      ASSERT_EQ(run(m, kernel, result), "");
      EXPECT_FALSE(result.pass);
      EXPECT_EQ(result.buffer, param);
      EXPECT_EQ(result.firstMismatch, at);
      EXPECT_EQ(result.mismatches, 1);
      EXPECT_EQ(result.compared, sizes.data + sizes.scales);
      EXPECT_EQ(int(result.got) ^ int(result.expected), 0x10);
      EXPECT_NE(formatVerify(m, result).find(std::string("first mismatch at ") +
                                             name(param) + " byte"),
                std::string::npos)
          << formatVerify(m, result);
    }
  }
}

/// The data and scales the runner expects of `m` (seed 5).
ref::Quantized expectedQuantize(const Manifest &m) {
  const QuantizeProblem &q = m.quantization;
  ref::QuantizeInputs in = ref::generateQuantizeInputs(
      q.element, q.format, q.rows, q.k, q.l, /*seed=*/5);
  return ref::quantize(q.format, q.layout, q.twoLevel, in.values.data(), q.rows,
                       q.k, q.l);
}

TEST_F(RunnerQuantizeFake, UnwrittenOutputsFail) {
  // A kernel that leaves `count` bytes of `param` at `at` as the runner
  // filled them: 0xFF before the first verifying launch, 0x00 before the
  // second.
  int launch = 0;
  auto leaveUnwritten = [&launch](Param param, int64_t at, int64_t count) {
    return [&launch, param, at,
            count](std::array<uint8_t *, kNumParams> &buffers) {
      std::memset(buffers[int(param)] + at, ++launch == 1 ? 0xFF : 0x00, count);
    };
  };
  // The padding of blocked scales, expected zero: the first fill fails.
  // The last 16 bytes of the last atom are rows 159 to 255.
  Manifest m =
      quantizeManifest(Op::Quantize, {{"scale_layout", "\"blocked128x4\""}});
  QuantizeSizes sizes = quantizeSizes(m.kind, m.quantization);
  QuantizeKernel kernel(m);
  kernel.damage = leaveUnwritten(Param::Scales, sizes.scales - 16, 16);
  VerifyResult result;
  ASSERT_EQ(run(m, kernel, result), "");
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(launch, 1);
  EXPECT_EQ(result.buffer, Param::Scales);
  EXPECT_EQ(result.mismatches, 16);
  EXPECT_NE(formatVerify(m, result).find("padding"), std::string::npos)
      << formatVerify(m, result);

  // A data byte expected to be 0xFF (codes -6, -6) matches the first fill:
  // the second fails it.
  m = quantizeManifest(Op::Quantize);
  std::vector<uint8_t> data = expectedQuantize(m).data;
  int64_t at = std::find(data.begin(), data.end(), 0xFF) - data.begin();
  ASSERT_LT(at, int64_t(data.size()));
  QuantizeKernel second(m);
  second.damage = leaveUnwritten(Param::Data, at, 1);
  launch = 0;
  ASSERT_EQ(run(m, second, result), "");
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(launch, 2);
  EXPECT_EQ(result.buffer, Param::Data);
  EXPECT_EQ(result.firstMismatch, at);
  EXPECT_EQ(result.got, 0x00);
  EXPECT_EQ(result.expected, 0xFF);
}

TEST_F(RunnerQuantizeFake, GlobalScaleMustBeExact) {
  Manifest m = quantizeManifest(Op::QuantizeGlobalScale);
  // One ulp off.
  QuantizeKernel kernel(m);
  kernel.damage = [](std::array<uint8_t *, kNumParams> &buffers) {
    buffers[int(Param::GlobalScale)][0] ^= 1;
  };
  VerifyResult result;
  ASSERT_EQ(run(m, kernel, result), "");
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.buffer, Param::GlobalScale);
  EXPECT_NE(result.got, result.expected);
  EXPECT_NE(formatVerify(m, result).find("FAIL quantize_global_scale"),
            std::string::npos);
  // Never written: NaN, then +0.
  for (uint8_t fill : {0xFF, 0x00}) {
    QuantizeKernel unwritten(m);
    int launch = 0;
    unwritten.damage = [&](std::array<uint8_t *, kNumParams> &buffers) {
      if (++launch == (fill == 0xFF ? 1 : 2))
        std::memset(buffers[int(Param::GlobalScale)], fill, 4);
    };
    ASSERT_EQ(run(m, unwritten, result), "");
    EXPECT_FALSE(result.pass);
    EXPECT_EQ(launch, fill == 0xFF ? 1 : 2);
    EXPECT_TRUE(fill == 0xFF ? std::isnan(result.got) : result.got == 0);
  }
}

TEST_F(RunnerQuantizeFake, DequantizeMustBeCorrectlyRounded) {
  for (const char *output : {"\"f32\"", "\"f16\"", "\"bf16\""}) {
    // Enough scales (16384) that some are NaN.
    Manifest m = quantizeManifest(
        Op::Dequantize, {{"rows", "512"}, {"k", "256"}, {"output", output}});
    const QuantizeProblem &q = m.quantization;
    int64_t bytes = ref::elementBytes(q.element);
    ref::DequantizeInputs in = ref::generateDequantizeInputs(
        q.format, q.layout, q.twoLevel, q.rows, q.k, q.l, /*seed=*/5);
    std::vector<double> want =
        ref::dequantize(q.format, q.layout, in.data.data(), in.scales.data(),
                        in.globalScale, q.rows, q.k, q.l);
    // The last bit of the last element that is a number flipped: one unit
    // in the last place off.
    int64_t at = int64_t(want.size()) - 1;
    while (std::isnan(want[at]))
      --at;
    QuantizeKernel kernel(m);
    kernel.damage = [&](std::array<uint8_t *, kNumParams> &buffers) {
      buffers[int(Param::Output)][at * bytes] ^= 1;
    };
    VerifyResult result;
    ASSERT_EQ(run(m, kernel, result), "");
    EXPECT_FALSE(result.pass) << output;
    EXPECT_EQ(result.firstMismatch, at) << output;
    EXPECT_EQ(result.buffer, Param::Output);

    // An element left unwritten where the reference is NaN survives the
    // NaN fill, not the zero fill.
    int64_t nan = std::find_if(want.begin(), want.end(),
                               [](double v) { return std::isnan(v); }) -
                  want.begin();
    ASSERT_LT(nan, int64_t(want.size()));
    QuantizeKernel unwritten(m);
    int launch = 0;
    unwritten.damage = [&](std::array<uint8_t *, kNumParams> &buffers) {
      std::memset(buffers[int(Param::Output)] + nan * bytes,
                  ++launch == 1 ? 0xFF : 0x00, bytes);
    };
    ASSERT_EQ(run(m, unwritten, result), "");
    EXPECT_FALSE(result.pass) << output;
    EXPECT_EQ(launch, 2);
    EXPECT_EQ(result.firstMismatch, nan) << output;
  }
}

TEST_F(RunnerQuantizeFake, ChainsVerifyEveryOutputAfterTiming) {
  Manifest m = quantizeManifest(Op::Quantize);
  QuantizeKernel kernel(m);
  VerifyResult result;
  ASSERT_EQ(run(m, kernel, result, /*chain=*/3), "");
  EXPECT_TRUE(result.pass) << formatVerify(m, result);
  ASSERT_TRUE(timing);
  EXPECT_EQ(timing->uniqueBytes, 3 * uniqueBytes(m));
  // Two verifying launches, then 10 warm-up and 2 timed chains of 3.
  EXPECT_EQ(fake.launches, 2 + 12 * 3);

  // The last workload's scales never written during timing: caught after.
  int launch = 0;
  kernel.damage = [&](std::array<uint8_t *, kNumParams> &buffers) {
    if (++launch > 2 && (launch - 3) % 3 == 2)
      std::memset(buffers[int(Param::Scales)], 0xFF,
                  quantizeSizes(m.kind, m.quantization).scales);
  };
  ASSERT_EQ(run(m, kernel, result, /*chain=*/3), "");
  EXPECT_FALSE(result.pass);
  EXPECT_TRUE(result.afterTiming);
  EXPECT_EQ(result.buffer, Param::Scales);
  EXPECT_FALSE(timing);
}

} // namespace
