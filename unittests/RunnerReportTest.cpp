//===- RunnerReportTest.cpp - nvfp4-run: byte counts and output
//-------------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/Report.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

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
  // An infinity where the reference has the other one (edge inputs).
  r.afterTiming = false;
  r.nanCount = 0;
  r.got = -INFINITY;
  r.expected = 1e6;
  r.dist = ref::Distribution::Overflow;
  EXPECT_EQ(formatVerify(reportManifest(), r),
            "FAIL gemv 7168x16384x1 nvfp4 linear f16: first mismatch at l=0, "
            "m=3: got -inf, expected 1e+06; max_abs_err=inf, "
            "rel_err=2.011e-04 [seed=2 dist=overflow alpha=0.75 "
            "bench_gemv.json]");
  r.dist = ref::Distribution::Cancel;
  EXPECT_NE(formatVerify(reportManifest(), r).find("dist=cancel"),
            std::string::npos);
  r.dist = ref::Distribution::Extreme;
  EXPECT_NE(formatVerify(reportManifest(), r).find("dist=extreme"),
            std::string::npos);
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
  b.residentCtas = 8;
  b.gridCtas = 1320;
  b.multiprocessors = 132;

  // One line, keys in the documented order, 6 significant digits.
  std::string text = formatJson(reportManifest(), r, &b);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(text.rfind("{\"manifest\":\"out/bench_gemv.json\",\"kernel\":", 0),
            0u);
  EXPECT_NE(text.find("\"gbps\":3304.19,"), std::string::npos) << text;
  std::string error;
  std::optional<json::Document> doc = json::parse(text, error);
  ASSERT_TRUE(doc) << error;
  const json::Json *v = &doc->root;
  EXPECT_EQ(v->at("manifest"), "out/bench_gemv.json");
  EXPECT_EQ(v->at("kernel"), "nvfp4_gemv_kernel");
  EXPECT_EQ(v->at("chip"), "sm_90a");
  EXPECT_EQ(v->at("m"), 7168);
  EXPECT_EQ(v->at("scale_layout"), "linear");
  EXPECT_EQ(v->at("status"), "fail");
  EXPECT_EQ(v->at("seed"), 9);
  EXPECT_EQ(v->at("dist"), "full");
  EXPECT_EQ(v->at("max_abs_err"), nullptr);
  const json::Json *mismatch =
      v->contains("first_mismatch") ? &v->at("first_mismatch") : nullptr;
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->at("l"), 2);
  EXPECT_EQ(mismatch->at("m"), 5);
  EXPECT_EQ(mismatch->at("got"), nullptr);
  EXPECT_DOUBLE_EQ(mismatch->at("expected").get<double>(), -3.5);
  const json::Json *bench = v->contains("bench") ? &v->at("bench") : nullptr;
  ASSERT_TRUE(bench);
  EXPECT_DOUBLE_EQ(bench->at("median_us").get<double>(), 20);
  EXPECT_EQ(bench->at("unique_bytes"), 66083840);
  EXPECT_NEAR(bench->at("gbps").get<double>(), 3304.19, 0.01);
  EXPECT_NEAR(bench->at("pct_of_copy").get<double>(), 82.6, 0.01);
  EXPECT_EQ(bench->at("registers"), 40);
  EXPECT_EQ(bench->at("resident_ctas"), 8);
  EXPECT_DOUBLE_EQ(bench->at("waves").get<double>(), 1.25); // 1320 / (8 x 132)
  EXPECT_EQ(bench->at("flush"), "clean");

  // Every distribution under its own name.
  for (ref::Distribution d : ref::kDistributions) {
    r.dist = d;
    doc = json::parse(formatJson(reportManifest(), r, nullptr), error);
    ASSERT_TRUE(doc) << error;
    EXPECT_EQ(doc->root.at("dist"), ref::name(d));
  }

  doc = json::parse(formatJsonError("a \"b\".json", "x: bad"), error);
  ASSERT_TRUE(doc) << error;
  v = &doc->root;
  EXPECT_EQ(v->at("manifest"), "a \"b\".json");
  EXPECT_EQ(v->at("status"), "error");
  EXPECT_EQ(v->at("error"), "x: bad");
}

} // namespace
