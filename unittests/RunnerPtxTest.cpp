//===- RunnerPtxTest.cpp - nvfp4-run: manifest against PTX
//------------------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/Manifest.h"

#include <gtest/gtest.h>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

TEST(RunnerPtx, AcceptsAMatchingEntry) {
  EXPECT_EQ(ptxError(parseValid()), "");
  // .reqntid with one dimension means y = z = 1.
  EXPECT_EQ(ptxError(parseValid(), replaced(kPtx, "128, 1, 1", "128")), "");
}

TEST(RunnerPtx, RequiresReqntid) {
  // Without .reqntid the block could not be checked: a kernel built for
  // 128 threads would run with 256.
  EXPECT_EQ(ptxError(parseValid(), replaced(kPtx, ".reqntid 128, 1, 1", "")),
            "manifest does not match the PTX: .entry nvfp4_gemv_kernel has no "
            ".reqntid, so its block size cannot be checked");
}

TEST(RunnerPtx, ChecksTheSignature) {
  // Every field the signature carries must agree with the manifest.
  struct Edit {
    const char *key, *value, *message;
  };
  for (Edit e : std::vector<Edit>{
           {"m", "4096",
            "\"m\" is 4096 in the manifest, but "
            "nvfp4_gemv_kernel was built for 7168"},
           {"k", "8192",
            "\"k\" is 8192 in the manifest, but "
            "nvfp4_gemv_kernel was built for 16384"},
           {"scale_format", "\"mxfp4\"",
            "\"scale_format\" is \"mxfp4\" in the manifest, but "
            "nvfp4_gemv_kernel was built for \"nvfp4\""},
           {"scale_layout", "\"blocked128x4\"",
            "\"scale_layout\" is \"blocked128x4\" in the manifest, but "
            "nvfp4_gemv_kernel was built for \"linear\""},
           {"output", "\"f32\"",
            "\"output\" is \"f32\" in the manifest, but nvfp4_gemv_kernel "
            "was built for \"f16\""},
           {"grid", "[100, 1, 1]",
            "\"grid\" is [100,1,1] in the manifest, but nvfp4_gemv_kernel "
            "was built for [7168,1,1]"},
           {"params", "[\"sfa\", \"a\", \"b\", \"sfb\", \"c\", \"alpha\"]",
            "\"params\" is [\"sfa\",\"a\",\"b\",\"sfb\",\"c\",\"alpha\"] "
            "in the manifest, but nvfp4_gemv_kernel was built for "
            "[\"a\",\"sfa\",\"b\",\"sfb\",\"c\",\"alpha\"]"}})
    EXPECT_EQ(ptxError(parseValid(manifestText(e.key, e.value))),
              std::string("manifest does not match the PTX: ") + e.message);
  // No signature, or one that is not JSON.
  EXPECT_EQ(ptxError(parseValid(), kPtxText),
            "manifest does not match the PTX: dir/gemv.ptx has no signature "
            "of nvfp4_gemv_kernel (global "
            "nvfp4_signature_nvfp4_gemv_kernel), so its shape and formats "
            "cannot be checked");
  EXPECT_EQ(ptxError(parseValid(), replaced(kPtx, "= {123, ", "= {124, ")),
            "manifest does not match the PTX: the signature of "
            "nvfp4_gemv_kernel in dir/gemv.ptx is not a JSON object");
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
  // A .maxntid beside .reqntid (which ptxas refuses) is checked too.
  std::string ptx = replaced(kPtx, ".reqntid 128, 1, 1",
                             ".reqntid 512, 1, 1\n.maxntid 256, 1, 1");
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
  EXPECT_EQ(error, dir + "/bad.json:3:1: syntax error while parsing object "
                         "key - unexpected '}'; expected string literal");

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

} // namespace
