//===- RunnerConversionTest.cpp - nvfp4-run: scale-layout conversions
//-------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

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
          {"params", "[\"source\", \"dest\"]"},
          {"version", std::to_string(manifest::kVersion)}};
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

const std::string kConversionPtx = R"(
.version 8.8
.target sm_90a
.address_size 64

.visible .entry nvfp4_convert(
	.param .u64 .ptr .align 1 nvfp4_convert_param_0,
	.param .u64 .ptr .align 1 nvfp4_convert_param_1
)
.reqntid 256, 1, 1
{
	ret;
}
)" + signatureGlobal(conversionFields(), "nvfp4_convert");

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
  // 780 linear destination bytes a batch: 4 CTAs of 256 threads.
  text = replaced(text, "[8, 2, 1]", "[4, 2, 1]");
  m = conversionManifest(text);
  EXPECT_EQ(m.conversion.from, ref::ScaleLayout::Blocked128x4);
  EXPECT_EQ(m.conversion.to, ref::ScaleLayout::Linear);
  EXPECT_EQ(m.conversion.element, ScaleElement::F8E8M0FNU);
  EXPECT_EQ(m.params, (std::vector<Param>{Param::Dest, Param::Source}));
  EXPECT_EQ(describe(m),
            "convert_scale_layout 130x6x2 blocked128x4->linear f8E8M0FNU");
  // The compiler also exports same-layout conversions (copies).
  EXPECT_EQ(manifestError(replaced(conversionText("to", "\"linear\""),
                                   "[8, 2, 1]", "[4, 2, 1]")),
            "");
}

TEST(RunnerConversion, EveryFieldIsRequired) {
  std::vector<std::string> keys;
  for (auto &[key, value] : conversionFields()) {
    keys.push_back(key);
    if (key != manifest::key::Version)
      EXPECT_EQ(manifestError(conversionText(key, "")),
                "missing field \"" + key + "\"");
  }
  std::vector<std::string> schema;
  for (const char *key :
       manifest::requiredKeys(manifest::Op::ConvertScaleLayout))
    schema.push_back(key);
  std::sort(keys.begin(), keys.end());
  std::sort(schema.begin(), schema.end());
  EXPECT_EQ(keys, schema);
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
            "alpha, a_tensor_map, sfa_tensor_map)");
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
  std::string wideText = conversionText("block", "[512, 1, 1]");
  wideText = replaced(wideText, "[8, 2, 1]", "[4, 2, 1]");
  EXPECT_EQ(checkPtx(conversionManifest(wideText), kConversionPtx),
            "manifest does not match the PTX: .entry nvfp4_convert requires "
            "block [256, 1, 1], the manifest says [512, 1, 1]");
  // Rows, columns, batches, layouts and the element are in the signature.
  EXPECT_EQ(
      checkPtx(conversionManifest(conversionText("element", "\"f8E8M0FNU\"")),
               kConversionPtx),
      "manifest does not match the PTX: \"element\" is \"f8E8M0FNU\" "
      "in the manifest, but nvfp4_convert was built for \"f8E4M3FN\"");
  EXPECT_EQ(
      checkPtx(conversionManifest(conversionText("cols", "5")), kConversionPtx),
      "manifest does not match the PTX: \"cols\" is 5 in the manifest, but "
      "nvfp4_convert was built for 6");
}

TEST(RunnerConversion, GridMustFitTheShape) {
  // 130 x 6 scales into blocked128x4: 2048 bytes a batch, 8 CTAs of 256.
  EXPECT_EQ(manifestError(conversionText("grid", "[9, 2, 1]")),
            "12:11: \"grid\" [9, 2, 1] and \"block\" [256, 1, 1] do not fit "
            "the shape: 2048 destination bytes a batch take one thread a "
            "byte");
  // 130 x 8 scales: a thread a word (layout::conversionBytesPerThread), the
  // same 2048 bytes in 2 CTAs.
  std::string words =
      replaced(conversionText("cols", "8"), "[8, 2, 1]", "[2, 2, 1]");
  EXPECT_EQ(conversionManifest(words).conversion.cols, 8);
  EXPECT_EQ(manifestError(replaced(words, "[2, 2, 1]", "[8, 2, 1]")),
            "12:11: \"grid\" [8, 2, 1] and \"block\" [256, 1, 1] do not fit "
            "the shape: 2048 destination bytes a batch take one thread a "
            "word");
  EXPECT_EQ(manifestError(conversionText("grid", "[8, 1, 1]")),
            "12:11: \"grid\" [8, 1, 1] does not fit the shape: y must be l = "
            "2 and z must be 1");
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
  o = Options();
  o.n = 1;
  EXPECT_EQ(checkShape(o, m), "--n does not apply to convert_scale_layout "
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
  std::optional<json::Document> doc = json::parse(formatJson(m, r, &b), error);
  ASSERT_TRUE(doc) << error;
  const json::Json *v = &doc->root;
  EXPECT_EQ(v->at("op"), "convert_scale_layout");
  EXPECT_EQ(v->at("rows"), 130);
  EXPECT_EQ(v->at("cols"), 6);
  EXPECT_EQ(v->at("l"), 2);
  EXPECT_EQ(v->at("from"), "linear");
  EXPECT_EQ(v->at("to"), "blocked128x4");
  EXPECT_EQ(v->at("element"), "f8E4M3FN");
  EXPECT_EQ(v->at("status"), "fail");
  EXPECT_EQ(v->at("mismatches"), 12);
  EXPECT_EQ(v->at("compared"), 4096);
  EXPECT_FALSE(v->contains("m"));
  EXPECT_FALSE(v->contains("alpha"));
  const json::Json *mismatch =
      v->contains("first_mismatch") ? &v->at("first_mismatch") : nullptr;
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->at("l"), 1);
  EXPECT_EQ(mismatch->at("offset"), 17);
  EXPECT_EQ(mismatch->at("row"), 1);
  EXPECT_EQ(mismatch->at("col"), 1);
  EXPECT_EQ(mismatch->at("got"), 255);
  EXPECT_EQ(mismatch->at("expected"), 60);
  EXPECT_EQ(v->at("bench").at("unique_bytes"), 5656);

  r.firstMismatch = 1540;
  doc = json::parse(formatJson(m, r, nullptr), error);
  ASSERT_TRUE(doc) << error;
  v = &doc->root;
  EXPECT_EQ(v->at("first_mismatch").at("row"), nullptr);
  EXPECT_FALSE(v->contains("bench"));
}

} // namespace
