//===- RunnerManifestTest.cpp - nvfp4-run: manifest fields
//------------------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/Manifest.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

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
    if (key != manifest::key::Version)
      EXPECT_EQ(manifestError(manifestText(key, "")),
                "missing field \"" + key + "\"");
}

TEST(RunnerManifest, EveryFieldTheSchemaRequiresIsTested) {
  std::vector<std::string> keys;
  for (auto &[key, value] : validFields())
    keys.push_back(key);
  std::vector<std::string> schema;
  for (const char *key : manifest::requiredKeys(manifest::Op::Gemv))
    schema.push_back(key);
  std::sort(keys.begin(), keys.end());
  std::sort(schema.begin(), schema.end());
  EXPECT_EQ(keys, schema);
}

TEST(RunnerManifest, VersionMustBeTheSchemas) {
  // Checked first: a manifest of another version may lack today's fields.
  EXPECT_EQ(manifestError("{\"kernel\": \"k\"}"),
            "the manifest has no \"version\" (this nvfp4-run reads manifest "
            "version 5; export the kernel again with the matching nvfp4-opt)");
  EXPECT_EQ(manifestError(manifestText("version", "")),
            "the manifest has no \"version\" (this nvfp4-run reads manifest "
            "version 5; export the kernel again with the matching nvfp4-opt)");
  // Version 2 manifests had no "n" and "vector"; version 3 no quantize,
  // quantize_global_scale and dequantize; version 4 no "tiled_codes" (a
  // was always row-major). Nor is the version a string or a float.
  for (const char *spelled : {"1", "2", "3", "4", "\"5\"", "5.0"})
    EXPECT_EQ(manifestError(manifestText("version", spelled)),
              std::string("18:14: unsupported manifest version ") + spelled +
                  " (this nvfp4-run reads manifest version 5; export the "
                  "kernel again with the matching nvfp4-opt)");
}

TEST(RunnerManifest, EnumerationsAreTheSchemasSpellings) {
  // The reader maps a spelling's index to the enum: the orders must agree.
  EXPECT_EQ(manifest::spellings(manifest::key::ScaleFormat),
            (std::vector<const char *>{ref::name(ref::ScaleFormat::NVFP4),
                                       ref::name(ref::ScaleFormat::MXFP4)}));
  for (const char *spelling : manifest::spellings(manifest::key::Output)) {
    Manifest m =
        parseValid(manifestText("output", "\"" + std::string(spelling) + "\""));
    EXPECT_STREQ(ref::name(m.problem.output), spelling);
  }
  for (const char *spelling : manifest::spellings(manifest::key::ScaleLayout)) {
    Manifest m = parseValid(
        manifestText("scale_layout", "\"" + std::string(spelling) + "\""));
    EXPECT_STREQ(ref::name(m.problem.layout), spelling);
  }
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
  // Grid y is the batch count, grid z 1.
  EXPECT_EQ(manifestError(manifestText("grid", "[7168, 2, 1]")),
            "12:11: \"grid\" [7168, 2, 1] does not fit the shape: y must be "
            "l = 1 and z must be 1");
  // A kernel name is a PTX identifier of bounded length, so that messages
  // quoting it stay one short line.
  EXPECT_EQ(manifestError(manifestText("kernel", "\"a\\nb\"")),
            "2:13: field \"kernel\" must be a PTX identifier of at most 1024 "
            "bytes, got \"a\\nb\"");
  std::string error = manifestError(
      manifestText("kernel", "\"" + std::string(5000, 'x') + "\""));
  EXPECT_LT(error.size(), 200u) << error;
  EXPECT_NE(error.find("(5002 bytes)"), std::string::npos) << error;
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
            "5:9: unsupported op \"gemm\" (nvfp4-run runs gemv, "
            "convert_scale_layout, quantize, quantize_global_scale and "
            "dequantize)");
}

TEST(RunnerManifest, MessagesStayOnOneLine) {
  EXPECT_EQ(manifestError(manifestText("output", "\"f1\\n6\"")),
            "11:13: unknown output \"f1\\n6\" (expected f16, bf16 or f32)");
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
            "alpha, a_tensor_map, sfa_tensor_map)");
  EXPECT_EQ(manifestError(manifestText(
                "params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\", \"a\"]")),
            "15:43: parameter \"a\" listed twice");
  EXPECT_EQ(
      manifestError(manifestText("params", "[\"a\", \"sfa\", \"b\", \"c\"]")),
      "15:13: \"params\" lacks \"sfb\" (it must list a, sfa, b, sfb, c "
      "and optionally alpha, a_tensor_map or sfa_tensor_map for e2m1 "
      "vectors)");
  EXPECT_EQ(manifestError(manifestText("params", "[\"a\", 1]")),
            "15:19: \"params\" entries must be strings, got an integer");
  EXPECT_EQ(
      manifestError(manifestText(
          "params", "[\"alpha\", \"a\", \"sfa\", \"b\", \"sfb\", \"c\"]")),
      "");
}

} // namespace
