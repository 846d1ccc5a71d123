//===- RunnerVectorsTest.cpp - nvfp4-run: N vectors, 16-bit vectors -------===//
//
// Manifests of a gemv on N right-hand vectors and on 16-bit vectors (keys
// "n" and "vector"): what the reader accepts and refuses, the buffers the
// runner allocates and rates, and how the reports name them.
//
//===----------------------------------------------------------------------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Report.h"
#include "nvfp4/Support/Formats.h"

#include <gtest/gtest.h>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

const char *const kWithSfb =
    "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\", \"alpha\"]";
const char *const kWithoutSfb = "[\"a\", \"sfa\", \"b\", \"c\", \"alpha\"]";

/// The valid manifest's fields for `n` vectors of `vector`, with the
/// parameters such a kernel takes (sfb for e2m1 only).
std::vector<std::pair<std::string, std::string>>
vectorFields(int64_t n, ref::VectorElement vector) {
  auto fields = validFields();
  for (auto &[key, value] : fields) {
    if (key == manifest::key::N)
      value = std::to_string(n);
    else if (key == manifest::key::Vector)
      value = "\"" + std::string(ref::name(vector)) + "\"";
    else if (key == manifest::key::Params)
      value = vector == ref::VectorElement::E2M1 ? kWithSfb : kWithoutSfb;
  }
  return fields;
}

std::string vectorText(int64_t n, ref::VectorElement vector,
                       const std::string &key = "",
                       const std::string &value = "") {
  return objectText(vectorFields(n, vector), key, value);
}

constexpr ref::VectorElement kVectors[] = {ref::VectorElement::E2M1,
                                           ref::VectorElement::F16,
                                           ref::VectorElement::BF16};

TEST(RunnerVectors, ReadsNAndVector) {
  for (int64_t n : {1, 8, 16})
    for (ref::VectorElement vector : kVectors) {
      SCOPED_TRACE(std::to_string(n) + " " + ref::name(vector));
      Manifest m = parseValid(vectorText(n, vector));
      EXPECT_EQ(m.problem.n, n);
      EXPECT_EQ(m.problem.vector, vector);
      std::vector<Param> params = {Param::A,   Param::SFA, Param::B,
                                   Param::SFB, Param::C,   Param::Alpha};
      if (vector != ref::VectorElement::E2M1)
        params.erase(params.begin() + 3);
      EXPECT_EQ(m.params, params);
      // The signature carries n and vector like every other field; a kernel
      // of 16-bit vectors takes no sfb.
      std::string ptx = kPtxText;
      if (vector != ref::VectorElement::E2M1)
        ptx = replaced(ptx, "\t.param .u64 nvfp4_gemv_kernel_param_3,\n", "");
      EXPECT_EQ(ptxError(m, ptx + signatureGlobal(vectorFields(n, vector),
                                                  "nvfp4_gemv_kernel")),
                "");
    }
}

TEST(RunnerVectors, VectorSpellingsAreTheReferences) {
  // The reader maps a spelling's index to the enum: the orders must agree.
  std::vector<const char *> spellings =
      manifest::spellings(manifest::key::Vector);
  ASSERT_EQ(spellings.size(), 3u);
  for (size_t i = 0; i < spellings.size(); ++i)
    EXPECT_STREQ(spellings[i], ref::name(kVectors[i]));
}

TEST(RunnerVectors, SchemaParamsFollowTheVector) {
  using manifest::params;
  EXPECT_EQ(params(Op::Gemv).required,
            (std::vector<Param>{Param::A, Param::SFA, Param::B, Param::SFB,
                                Param::C}));
  for (ref::VectorElement vector :
       {ref::VectorElement::F16, ref::VectorElement::BF16}) {
    EXPECT_EQ(params(Op::Gemv, vector).required,
              (std::vector<Param>{Param::A, Param::SFA, Param::B, Param::C}));
    EXPECT_EQ(params(Op::Gemv, vector).optional, params(Op::Gemv).optional);
  }
}

TEST(RunnerVectors, DescribesNAndVector) {
  auto described = [](int64_t n, ref::VectorElement vector) {
    return describe(parseValid(vectorText(n, vector)));
  };
  // One e2m1 vector keeps the spelling it always had.
  EXPECT_EQ(described(1, ref::VectorElement::E2M1),
            "gemv 7168x16384x1 nvfp4 linear f16");
  EXPECT_EQ(described(8, ref::VectorElement::E2M1),
            "gemv 7168x16384x1 n=8 nvfp4 linear f16");
  EXPECT_EQ(described(1, ref::VectorElement::BF16),
            "gemv 7168x16384x1 bf16-vector nvfp4 linear f16");
  EXPECT_EQ(described(16, ref::VectorElement::F16),
            "gemv 7168x16384x1 n=16 f16-vector nvfp4 linear f16");
}

TEST(RunnerVectors, RefusesNOutOfRange) {
  const auto e2m1 = ref::VectorElement::E2M1;
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "n", "0")),
            "16:8: field \"n\" must be in [1, 16], got 0");
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "n", "17")),
            "16:8: field \"n\" must be in [1, 16], got 17");
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "n", "-1")),
            "16:8: field \"n\" must be in [1, 16], got -1");
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "n", "\"8\"")),
            "16:8: field \"n\" must be an integer, got a string");
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "n", "")), "missing field \"n\"");
  // The range is the dialect's.
  EXPECT_EQ(manifestError(vectorText(formats::kMaxGemvVectors, e2m1)), "");
}

TEST(RunnerVectors, RefusesUnknownVectors) {
  const auto e2m1 = ref::VectorElement::E2M1;
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "vector", "\"f32\"")),
            "17:13: unknown vector \"f32\" (expected e2m1, f16 or bf16)");
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "vector", "\"E2M1\"")),
            "17:13: unknown vector \"E2M1\" (expected e2m1, f16 or bf16)");
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "vector", "2")),
            "17:13: field \"vector\" must be a string, got an integer");
  EXPECT_EQ(manifestError(vectorText(1, e2m1, "vector", "")),
            "missing field \"vector\"");
}

TEST(RunnerVectors, SfbExactlyForE2M1) {
  // sfb listed for 16-bit vectors, which have no scales.
  EXPECT_EQ(manifestError(
                vectorText(8, ref::VectorElement::BF16, "params", kWithSfb)),
            "15:31: parameter \"sfb\" is listed, but a gemv of bf16 vectors "
            "has none");
  EXPECT_EQ(
      manifestError(vectorText(1, ref::VectorElement::F16, "params", kWithSfb)),
      "15:31: parameter \"sfb\" is listed, but a gemv of f16 vectors has "
      "none");
  // sfb missing for e2m1 vectors.
  EXPECT_EQ(manifestError(
                vectorText(8, ref::VectorElement::E2M1, "params", kWithoutSfb)),
            "15:13: \"params\" lacks \"sfb\" (it must list a, sfa, b, sfb, c "
            "and optionally alpha, a_tensor_map or sfa_tensor_map for e2m1 "
            "vectors)");
  // 16-bit vectors still need the others.
  EXPECT_EQ(manifestError(vectorText(1, ref::VectorElement::BF16, "params",
                                     "[\"a\", \"sfa\", \"c\"]")),
            "15:13: \"params\" lacks \"b\" (it must list a, sfa, b, c and "
            "optionally alpha, a_tensor_map or sfa_tensor_map for bf16 "
            "vectors)");
}

TEST(RunnerVectors, SignatureMustAgreeOnNAndVector) {
  // A manifest edited to another N or vector is refused against the PTX
  // of a one-vector e2m1 kernel.
  Manifest m = parseValid(vectorText(8, ref::VectorElement::E2M1));
  std::string error = ptxError(m);
  EXPECT_NE(error.find("\"n\""), std::string::npos) << error;
  m = parseValid(vectorText(1, ref::VectorElement::BF16));
  error = ptxError(m);
  EXPECT_NE(error.find("manifest does not match the PTX"), std::string::npos)
      << error;
}

TEST(RunnerVectors, RefusesTooLargeVectorShapes) {
  // 16 bf16 vectors of K = 2^31 in 2^10 batches: 2^46 bytes of b, though a
  // and c would fit.
  std::string text = vectorText(16, ref::VectorElement::BF16, "m", "1");
  text = replaced(text, "16384", "2147483648");
  text = replaced(text, "\"l\": 1", "\"l\": 1024");
  text = replaced(text, "[7168, 1, 1]", "[1, 1024, 1]");
  EXPECT_EQ(manifestError(text), "shape 1x2147483648x1024 with n = 16 is too "
                                 "large");
  // The same shape on one vector of packed e2m1 fits.
  text = replaced(text, "\"n\": 16", "\"n\": 1");
  text = replaced(text, "\"bf16\"", "\"e2m1\"");
  text = replaced(text, kWithoutSfb, kWithSfb);
  EXPECT_EQ(manifestError(text), "");
}

TEST(RunnerVectors, BufferSizesCountEveryVector) {
  ref::GemvProblem p;
  p.m = 4096;
  p.k = 7168;
  p.l = 2;
  p.n = 8;
  BufferSizes sizes = bufferSizes(p);
  EXPECT_EQ(sizes.a, 2 * 4096 * 3584);
  EXPECT_EQ(sizes.sfa, 2 * 4096 * 448);
  EXPECT_EQ(sizes.b, 2 * 8 * 3584);
  EXPECT_EQ(sizes.sfb, 2 * 8 * 448);
  EXPECT_EQ(sizes.c, 2 * 8 * 4096 * 2);
  EXPECT_EQ(sizes.unique(),
            sizes.a + sizes.sfa + sizes.b + sizes.sfb + sizes.c);
  // Blocked: the 8 vectors' scales share one 128-row atom row.
  p.layout = ref::ScaleLayout::Blocked128x4;
  EXPECT_EQ(bufferSizes(p).sfb, 2 * 1 * 112 * 512);
  // 16-bit vectors: two bytes a value, no sfb.
  p.layout = ref::ScaleLayout::Linear;
  p.n = 16;
  p.vector = ref::VectorElement::BF16;
  p.output = ref::ElementType::F32;
  sizes = bufferSizes(p);
  EXPECT_EQ(sizes.b, 2 * 16 * 7168 * 2);
  EXPECT_EQ(sizes.sfb, 0);
  EXPECT_EQ(sizes.byParam()[int(Param::SFB)], 0);
  EXPECT_EQ(sizes.c, 2 * 16 * 4096 * 4);
  // The same as the reference's own byte counts and inputs.
  EXPECT_EQ(sizes.b, p.l * ref::vectorBatchBytes(p));
  p.m = 40;
  p.k = 64;
  for (ref::VectorElement vector : kVectors) {
    p.vector = vector;
    ref::GemvInputs in = ref::generateGemvInputs(p, ref::Distribution::Full, 1);
    sizes = bufferSizes(p);
    EXPECT_EQ(int64_t(in.b.size()), sizes.b);
    EXPECT_EQ(int64_t(in.sfb.size()), sizes.sfb);
  }
}

TEST(RunnerVectors, BenchRatesEveryVector) {
  Manifest m = parseValid(vectorText(4, ref::VectorElement::F16));
  // 7168 x 16384 x 1: a, sfa, 4 f16 vectors, c of 4 x 7168 f16.
  EXPECT_EQ(uniqueBytes(m),
            7168 * 8192 + 7168 * 1024 + 4 * 16384 * 2 + 4 * 7168 * 2);
}

TEST(RunnerVectors, InputsSuit16BitVectors) {
  Options options;
  Manifest e2m1 = parseValid(vectorText(8, ref::VectorElement::E2M1));
  Manifest bf16 = parseValid(vectorText(8, ref::VectorElement::BF16));
  for (ref::Distribution dist : ref::kDistributions) {
    options.dist = dist;
    EXPECT_EQ(checkInputs(options, e2m1), "");
    if (dist == ref::Distribution::Full || dist == ref::Distribution::Extreme)
      EXPECT_EQ(checkInputs(options, bf16), "");
    else
      EXPECT_EQ(checkInputs(options, bf16),
                std::string("--dist ") + ref::name(dist) +
                    " needs e2m1 vectors; kernel nvfp4_gemv_kernel takes "
                    "bf16 vectors (use --dist full or extreme)");
  }
}

TEST(RunnerVectors, ReportsNameTheVector) {
  Manifest m = parseValid(vectorText(8, ref::VectorElement::BF16));
  m.path = "out/v.json";
  VerifyResult r;
  r.pass = false;
  // c is [L][N][M]: element (l 0, n 3, m 17).
  r.firstMismatch = 3 * 7168 + 17;
  r.got = 1.5;
  r.expected = 2.25;
  r.seed = 2;
  EXPECT_EQ(formatVerify(m, r),
            "FAIL gemv 7168x16384x1 n=8 bf16-vector nvfp4 linear f16: first "
            "mismatch at l=0, n=3, m=17: got 1.5, expected 2.25; "
            "max_abs_err=0.000e+00, rel_err=0.000e+00 [seed=2 dist=full "
            "alpha=1 v.json]");
  std::string error;
  std::optional<json::Document> doc =
      json::parse(formatJson(m, r, nullptr), error);
  ASSERT_TRUE(doc) << error;
  EXPECT_EQ(doc->root.at("n"), 8);
  EXPECT_EQ(doc->root.at("vector"), "bf16");
  EXPECT_EQ(doc->root.at("first_mismatch").at("l"), 0);
  EXPECT_EQ(doc->root.at("first_mismatch").at("n"), 3);
  EXPECT_EQ(doc->root.at("first_mismatch").at("m"), 17);
  doc = json::parse(formatJsonChecked(m), error);
  ASSERT_TRUE(doc) << error;
  EXPECT_EQ(doc->root.at("n"), 8);
  EXPECT_EQ(doc->root.at("vector"), "bf16");
  // One vector: the text stays as it was, the JSON says n 0.
  m = parseValid();
  r.firstMismatch = 7168 + 17;
  EXPECT_NE(formatVerify(m, r).find("first mismatch at l=1, m=17:"),
            std::string::npos);
  doc = json::parse(formatJson(m, r, nullptr), error);
  ASSERT_TRUE(doc) << error;
  EXPECT_EQ(doc->root.at("n"), 1);
  EXPECT_EQ(doc->root.at("vector"), "e2m1");
  EXPECT_EQ(doc->root.at("first_mismatch").at("l"), 1);
  EXPECT_EQ(doc->root.at("first_mismatch").at("n"), 0);
}

} // namespace
