//===- RunnerFakeDriverTest.cpp - nvfp4-run's runner without a GPU --------===//
//
// Runner::run through a stand-in driver whose device memory is host memory
// and whose "kernel" is the float64 reference: what the runner allocates,
// fills and binds for a manifest (only the buffers its params list), and
// that it verifies every one of the L x N x M outputs.
//
//===----------------------------------------------------------------------===//

#include "RunnerFakeDriver.h"
#include "RunnerTestUtil.h"
#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Runner.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::cuda;
using namespace nvfp4::run::test;

namespace {

/// A manifest of `n` `vector` vectors of a small shape (40 x 64 x 2).
Manifest smallManifest(int64_t n, ref::VectorElement vector,
                       ref::ScaleLayout layout = ref::ScaleLayout::Linear) {
  auto fields = validFields();
  for (auto &[key, value] : fields) {
    if (key == "m")
      value = "40";
    else if (key == "k")
      value = "64";
    else if (key == "l")
      value = "2";
    else if (key == "grid")
      value = "[10, 2, 1]";
    else if (key == "n")
      value = std::to_string(n);
    else if (key == "vector")
      value = "\"" + std::string(ref::name(vector)) + "\"";
    else if (key == "scale_layout")
      value = "\"" + std::string(ref::name(layout)) + "\"";
    else if (key == "params" && vector != ref::VectorElement::E2M1)
      value = "[\"a\", \"sfa\", \"b\", \"c\", \"alpha\"]";
  }
  Manifest m = parseValid(objectText(fields, "", ""));
  m.path = "fake.json";
  return m;
}

/// A kernel that computes the reference from the buffers it is passed, in
/// the manifest's parameter order, and records what it was passed;
/// `skipVector` (batch, vector) leaves that vector's outputs unwritten.
struct ReferenceKernel {
  explicit ReferenceKernel(const Manifest &manifest,
                           std::pair<int64_t, int64_t> skipVector = {-1, -1})
      : manifest(manifest), skipVector(skipVector) {}

  const Manifest &manifest;
  std::pair<int64_t, int64_t> skipVector;
  std::vector<Param> seen;
  float alpha = 0;
  /// Reads a row by row even where the manifest says its codes are tiled.
  bool ignoreTiling = false;

  void operator()(void **params) {
    ref::GemvProblem p = manifest.problem;
    std::array<const uint8_t *, kNumParams> buffers{};
    seen.clear();
    for (size_t i = 0; i < manifest.params.size(); ++i) {
      Param param = manifest.params[i];
      seen.push_back(param);
      if (param == Param::Alpha)
        alpha = *static_cast<float *>(params[i]);
      else
        buffers[int(param)] = host(*static_cast<CUdeviceptr *>(params[i]));
    }
    p.alpha = alpha;
    p.tiledCodes = p.tiledCodes && !ignoreTiling;
    std::vector<uint8_t> rowMajor =
        ref::rowMajorCodes(p, buffers[int(Param::A)]);
    buffers[int(Param::A)] = rowMajor.data();
    std::vector<double> exact =
        ref::gemvExact(p, buffers[int(Param::A)], buffers[int(Param::SFA)],
                       buffers[int(Param::B)], buffers[int(Param::SFB)]);
    std::vector<uint8_t> out = ref::roundOutput(p.output, exact);
    uint8_t *c = const_cast<uint8_t *>(buffers[int(Param::C)]);
    int64_t bytes = ref::elementBytes(p.output);
    for (int64_t l = 0; l < p.l; ++l)
      for (int64_t v = 0; v < p.n; ++v) {
        if (std::make_pair(l, v) == skipVector)
          continue;
        int64_t at = (l * p.n + v) * p.m * bytes;
        std::memcpy(c + at, out.data() + at, p.m * bytes);
      }
  }
};

class RunnerFakeDriver : public testing::Test {
protected:
  void SetUp() override { device = &fake; }
  void TearDown() override { device = nullptr; }

  /// Runs `manifest` with `kernel`; returns the runner's error.
  std::string run(const Manifest &manifest, ReferenceKernel &kernel,
                  VerifyResult &result, RunConfig config = {}) {
    fake.kernel = [&](void **params) { kernel(params); };
    config.alpha = 0.75f;
    std::optional<BenchResult> bench;
    return Runner(driver).run(manifest, config, result, bench);
  }

  /// Runs `manifest` with --bench (2 reps) and a chain of `chain`.
  std::string bench(const Manifest &manifest,
                    std::function<void(void **)> kernel, VerifyResult &result,
                    std::optional<BenchResult> &timing, int chain, bool pdl,
                    bool timeFailing = false) {
    fake.kernel = std::move(kernel);
    fake.pointerParams.clear();
    for (Param param : manifest.params)
      fake.pointerParams.push_back(param != Param::Alpha);
    RunConfig config;
    config.alpha = 0.75f;
    config.bench = true;
    config.reps = 2;
    config.chain = chain;
    config.pdl = pdl;
    config.timeFailing = timeFailing;
    Runner runner(driver);
    runner.setCopyGBps(1000); // no copy measurement
    return runner.run(manifest, config, result, timing);
  }

  FakeDevice fake;
  Driver driver = fakeDriver();
};

TEST_F(RunnerFakeDriver, OneE2M1VectorAsBefore) {
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  ASSERT_EQ(run(m, kernel, result), "");
  EXPECT_TRUE(result.pass) << formatVerify(m, result);
  BufferSizes sizes = bufferSizes(m.problem);
  EXPECT_EQ(
      fake.allocations,
      (std::vector<size_t>{size_t(sizes.a), size_t(sizes.sfa), size_t(sizes.b),
                           size_t(sizes.sfb), size_t(sizes.c)}));
  EXPECT_EQ(kernel.seen, m.params);
  EXPECT_EQ(kernel.alpha, 0.75f);
  EXPECT_EQ(fake.launches, 1);
}

TEST_F(RunnerFakeDriver, TiledCodesReachTheKernelTiled) {
  Manifest m = smallManifest(8, ref::VectorElement::E2M1);
  // Two steps a row (with one, the tiled order is the row-major one).
  m.problem.m = 48;
  m.problem.k = 256;
  m.problem.tiledCodes = true;
  ReferenceKernel tiled(m);
  VerifyResult result;
  ASSERT_EQ(run(m, tiled, result), "");
  EXPECT_TRUE(result.pass) << formatVerify(m, result);
  // A kernel that reads the tiled buffer row by row computes with other
  // codes, and the check says so.
  ReferenceKernel rows(m);
  rows.ignoreTiling = true;
  ASSERT_EQ(run(m, rows, result), "");
  EXPECT_FALSE(result.pass);
}

TEST_F(RunnerFakeDriver, SixteenBitVectorsHaveNoSfb) {
  for (ref::VectorElement vector :
       {ref::VectorElement::F16, ref::VectorElement::BF16}) {
    Manifest m = smallManifest(8, vector);
    ReferenceKernel kernel(m);
    VerifyResult result;
    fake.allocations.clear();
    ASSERT_EQ(run(m, kernel, result), "");
    EXPECT_TRUE(result.pass) << formatVerify(m, result);
    // a, sfa, b of 8 x 64 16-bit values a batch, c of 8 x 40 a batch; no
    // sfb buffer (an allocation of 0 bytes would have failed).
    EXPECT_EQ(fake.allocations,
              (std::vector<size_t>{2 * 40 * 32, 2 * 40 * 4, 2 * 8 * 64 * 2,
                                   2 * 8 * 40 * 2}));
    EXPECT_EQ(kernel.seen, (std::vector<Param>{Param::A, Param::SFA, Param::B,
                                               Param::C, Param::Alpha}));
  }
}

TEST_F(RunnerFakeDriver, E2M1VectorsWithTheirScales) {
  for (ref::ScaleLayout layout :
       {ref::ScaleLayout::Linear, ref::ScaleLayout::Blocked128x4})
    for (ref::Distribution dist : ref::kDistributions) {
      Manifest m = smallManifest(16, ref::VectorElement::E2M1, layout);
      ReferenceKernel kernel(m);
      VerifyResult result;
      fake.allocations.clear();
      RunConfig config;
      config.dist = dist;
      ASSERT_EQ(run(m, kernel, result, config), "");
      EXPECT_TRUE(result.pass) << formatVerify(m, result);
      BufferSizes sizes = bufferSizes(m.problem);
      EXPECT_EQ(fake.allocations,
                (std::vector<size_t>{size_t(sizes.a), size_t(sizes.sfa),
                                     size_t(sizes.b), size_t(sizes.sfb),
                                     size_t(sizes.c)}));
      EXPECT_EQ(sizes.c, 2 * 16 * 40 * 2);
    }
}

TEST_F(RunnerFakeDriver, EveryVectorIsVerified) {
  // The last vector of the last batch left unwritten keeps the NaN poison.
  for (ref::VectorElement vector :
       {ref::VectorElement::E2M1, ref::VectorElement::BF16}) {
    Manifest m = smallManifest(8, vector);
    ReferenceKernel kernel(m, {1, 7});
    VerifyResult result;
    ASSERT_EQ(run(m, kernel, result), "");
    EXPECT_FALSE(result.pass);
    EXPECT_EQ(result.firstMismatch, (1 * 8 + 7) * 40);
    EXPECT_EQ(result.nanCount, 40);
    std::string line = formatVerify(m, result);
    EXPECT_TRUE(std::isnan(result.got));
    EXPECT_NE(line.find("first mismatch at l=1, n=7, m=0: got "),
              std::string::npos)
        << line;
  }
}

/// The launches of --bench with a chain of 3: one verifying launch per
/// poison, then 10 warm-up chains and 2 timed chains.
constexpr int kChain = 3, kBenchChains = 10 + 2;

TEST_F(RunnerFakeDriver, ChainLaunchesEachOnItsOwnWorkload) {
  Manifest m = smallManifest(2, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  std::optional<BenchResult> timing;
  ASSERT_EQ(bench(m, std::ref(kernel), result, timing, kChain, false), "");
  EXPECT_TRUE(result.pass) << formatVerify(m, result);
  ASSERT_TRUE(timing);
  EXPECT_EQ(timing->chain, kChain);
  EXPECT_FALSE(timing->pdl);
  EXPECT_EQ(timing->uniqueBytes, kChain * bufferSizes(m.problem).unique());
  EXPECT_EQ(timing->kernel.reps, 2);
  ASSERT_EQ(fake.records.size(), size_t(1 + kBenchChains * kChain));
  // Every chain launches workloads 0, 1, 2 in order: the first verified one,
  // then two more, no buffer shared between them.
  std::vector<std::vector<CUdeviceptr>> workloads;
  for (int w = 0; w < kChain; ++w)
    workloads.push_back(fake.records[1 + w].buffers);
  EXPECT_EQ(workloads[0], fake.records[0].buffers);
  std::set<CUdeviceptr> distinct;
  for (const auto &buffers : workloads) {
    EXPECT_EQ(buffers.size(), size_t(5)); // a, sfa, b, sfb, c
    distinct.insert(buffers.begin(), buffers.end());
  }
  EXPECT_EQ(distinct.size(), size_t(kChain * 5));
  for (size_t i = 1; i < fake.records.size(); ++i) {
    const LaunchRecord &r = fake.records[i];
    EXPECT_EQ(r.buffers, workloads[(i - 1) % kChain]) << i;
    EXPECT_FALSE(r.ex) << i; // no --pdl: plain launches
    EXPECT_EQ(r.dims, (std::array<unsigned, 6>{10, 2, 1, 128, 1, 1})) << i;
  }
  // The report names the chain.
  std::string line = formatBench(m, *timing);
  EXPECT_NE(line.find("[chain=3 fake.json]"), std::string::npos) << line;
}

TEST_F(RunnerFakeDriver, PdlLaunchesTheRestOfTheChainWithTheAttribute) {
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  std::optional<BenchResult> timing;
  ASSERT_EQ(bench(m, std::ref(kernel), result, timing, kChain, true), "");
  EXPECT_TRUE(result.pass) << formatVerify(m, result);
  ASSERT_TRUE(timing);
  EXPECT_TRUE(timing->pdl);
  ASSERT_EQ(fake.records.size(), size_t(1 + kBenchChains * kChain));
  EXPECT_FALSE(fake.records[0].ex); // the verifying launch
  for (size_t i = 1; i < fake.records.size(); ++i) {
    const LaunchRecord &r = fake.records[i];
    bool first = (i - 1) % kChain == 0;
    EXPECT_EQ(r.ex, !first) << i;
    if (first)
      continue;
    EXPECT_EQ(r.numAttrs, 1u) << i;
    EXPECT_EQ(r.attrId, 6) << i;
    EXPECT_EQ(r.attrValue, 1) << i;
    EXPECT_EQ(r.dims, (std::array<unsigned, 6>{10, 2, 1, 128, 1, 1})) << i;
    EXPECT_EQ(r.buffers, fake.records[1 + (i - 1) % kChain].buffers) << i;
  }
  std::string line = formatBench(m, *timing);
  EXPECT_NE(line.find("[chain=3 pdl fake.json]"), std::string::npos) << line;
  std::string json = formatJson(m, result, &*timing);
  EXPECT_NE(json.find("\"chain\":3"), std::string::npos) << json;
  EXPECT_NE(json.find("\"pdl\":true"), std::string::npos) << json;
}

TEST_F(RunnerFakeDriver, ChainOfOneReportsAsBefore) {
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  std::optional<BenchResult> timing;
  ASSERT_EQ(bench(m, std::ref(kernel), result, timing, 1, false), "");
  ASSERT_TRUE(timing);
  EXPECT_EQ(timing->chain, 1);
  EXPECT_EQ(timing->uniqueBytes, bufferSizes(m.problem).unique());
  EXPECT_EQ(fake.records.size(), size_t(1 + 10 + 2));
  for (const LaunchRecord &r : fake.records)
    EXPECT_EQ(r.buffers, fake.records[0].buffers);
  std::string line = formatBench(m, *timing);
  EXPECT_NE(line.find(" [fake.json]"), std::string::npos) << line;
  std::string json = formatJson(m, result, &*timing);
  EXPECT_EQ(json.find("chain"), std::string::npos) << json;
  EXPECT_EQ(json.find("pdl"), std::string::npos) << json;
}

/// A kernel's static and dynamic shared memory together may pass 48 KiB
/// with the dynamic part under it (decode=mma's stages of 46080 bytes next
/// to 4096 of split-k partials failed to launch without the opt-in).
TEST_F(RunnerFakeDriver, DynamicSharedMemoryIsOptedInto) {
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  ASSERT_EQ(run(m, kernel, result), "");
  EXPECT_EQ(fake.dynamicSharedOptIn, -1); // none asked, none opted into
  m.sharedBytes = 46080;
  ASSERT_EQ(run(m, kernel, result), "");
  EXPECT_TRUE(result.pass);
  EXPECT_EQ(fake.dynamicSharedOptIn, 46080);
}

TEST_F(RunnerFakeDriver, BenchReportsTheGridsRoundsOfResidentCtas) {
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  std::optional<BenchResult> timing;
  fake.residentCtas = 3;
  ASSERT_EQ(bench(m, std::ref(kernel), result, timing, 1, false), "");
  ASSERT_TRUE(timing);
  EXPECT_EQ(fake.occupancyBlockSize, 128); // the manifest's CTA
  EXPECT_EQ(timing->residentCtas, 3);
  EXPECT_EQ(timing->gridCtas, 10 * 2);
  // Without init() the device's SMs are unknown, and so are the waves.
  EXPECT_TRUE(std::isnan(timing->waves()));
  std::string json = formatJson(m, result, &*timing);
  EXPECT_NE(json.find("\"resident_ctas\":3,\"waves\":null"), std::string::npos)
      << json;

  // A query the driver cannot answer leaves the run as it was.
  fake.residentCtas = -1;
  timing.reset();
  ASSERT_EQ(bench(m, std::ref(kernel), result, timing, 1, false), "");
  ASSERT_TRUE(timing);
  EXPECT_TRUE(result.pass);
  EXPECT_EQ(timing->residentCtas, -1);
  json = formatJson(m, result, &*timing);
  EXPECT_NE(json.find("\"resident_ctas\":null,\"waves\":null"),
            std::string::npos)
      << json;
}

/// Each timed repetition (flush, event, the chain's launches, event) is
/// waited for before the next flush is queued: a kernel with work queued
/// behind it measures longer (docs/nvfp4-run.md, "Timing protocol").
TEST_F(RunnerFakeDriver, EachRepetitionEndsBeforeTheNextFlush) {
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  std::optional<BenchResult> timing;
  ASSERT_EQ(bench(m, std::ref(kernel), result, timing, 2, false), "");
  ASSERT_TRUE(timing);
  // 10 warm-up chains, then the 2 timed ones.
  std::string warmups;
  for (int i = 0; i < 10; ++i)
    warmups += "FLL";
  EXPECT_NE(fake.trace.find(warmups + "FELLESFELLES"), std::string::npos)
      << fake.trace;
}

TEST_F(RunnerFakeDriver, PdlNeedsCuLaunchKernelEx) {
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  driver.cuLaunchKernelEx = nullptr;
  VerifyResult result;
  std::optional<BenchResult> timing;
  EXPECT_EQ(bench(m, std::ref(kernel), result, timing, kChain, true),
            "the CUDA driver lacks cuLaunchKernelEx (driver too old?), which "
            "--pdl needs");
  EXPECT_EQ(fake.launches, 0);
}

TEST_F(RunnerFakeDriver, EveryWorkloadIsVerifiedAfterTiming) {
  // A kernel that never writes the last workload's output (as a launch that
  // started too early might not): the verifying launch (workload 0) passes,
  // the check after timing must not, and fails under --time-failing too,
  // which then keeps the timing.
  for (bool pdl : {false, true})
    for (bool timeFailing : {false, true}) {
      Manifest m = smallManifest(1, ref::VectorElement::E2M1);
      ReferenceKernel kernel(m);
      int launch = 0;
      auto skipLast = [&](void **params) {
        if (launch++ == 0 || (launch - 2) % kChain != kChain - 1)
          kernel(params);
      };
      VerifyResult result;
      std::optional<BenchResult> timing;
      fake.records.clear();
      ASSERT_EQ(bench(m, skipLast, result, timing, kChain, pdl, timeFailing),
                "");
      EXPECT_EQ(launch, 1 + kBenchChains * kChain);
      EXPECT_FALSE(result.pass);
      EXPECT_TRUE(result.afterTiming);
      EXPECT_EQ(bool(timing), timeFailing);
      // Left with its poison: every output is NaN.
      EXPECT_EQ(result.nanCount, 2 * 40);
      EXPECT_NE(formatVerify(m, result).find("FAIL gemv"), std::string::npos);
    }
  // Without the skip, all pass.
  Manifest m = smallManifest(1, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m);
  VerifyResult result;
  std::optional<BenchResult> timing;
  ASSERT_EQ(bench(m, std::ref(kernel), result, timing, kChain, true), "");
  EXPECT_TRUE(result.pass);
  EXPECT_TRUE(timing);
}

TEST_F(RunnerFakeDriver, TimeFailingTimesAWrongKernelThatStillFails) {
  // A kernel that leaves a vector unwritten fails before timing: not timed,
  // unless --time-failing asks; then timed and still failed, with the
  // check before timing's result.
  Manifest m = smallManifest(8, ref::VectorElement::E2M1);
  ReferenceKernel kernel(m, {1, 7});
  for (bool timeFailing : {false, true}) {
    VerifyResult result;
    std::optional<BenchResult> timing;
    fake.launches = 0;
    ASSERT_EQ(bench(m, std::ref(kernel), result, timing, /*chain=*/1,
                    /*pdl=*/false, timeFailing),
              "");
    EXPECT_FALSE(result.pass);
    EXPECT_FALSE(result.afterTiming);
    EXPECT_EQ(result.nanCount, 40);
    EXPECT_EQ(bool(timing), timeFailing);
    EXPECT_EQ(fake.launches > 1, timeFailing);
  }
}

TEST(RunnerCudaDriver, LaunchStructsMatchCudaH) {
  // cuda.h: CUlaunchAttribute_st is { CUlaunchAttributeID id; char pad[8 -
  // sizeof(id)]; CUlaunchAttributeValue value; } with a 64-byte union.
  EXPECT_EQ(sizeof(CUlaunchAttribute), 72u);
  EXPECT_EQ(offsetof(CUlaunchAttribute, value), 8u);
  CUlaunchAttribute a;
  EXPECT_EQ(a.id, 0);
  EXPECT_EQ(a.value.programmaticStreamSerializationAllowed, 0);
  EXPECT_EQ(sizeof(CUlaunchConfig), 56u);
  EXPECT_EQ(offsetof(CUlaunchConfig, gridDimX), 0u);
  EXPECT_EQ(offsetof(CUlaunchConfig, blockDimZ), 20u);
  EXPECT_EQ(offsetof(CUlaunchConfig, sharedMemBytes), 24u);
  EXPECT_EQ(offsetof(CUlaunchConfig, hStream), 32u);
  EXPECT_EQ(offsetof(CUlaunchConfig, attrs), 40u);
  EXPECT_EQ(offsetof(CUlaunchConfig, numAttrs), 48u);
  EXPECT_EQ(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, 6);
}

} // namespace
