//===- RunnerSequenceTest.cpp - nvfp4-run: the kernels of a function ------===//
//
// Sequence files (parsing and their checks), which buffers a kernel reads
// and writes, and a quantize followed by the gemv that reads its output, run
// through the fake driver: each launch is checked against what it read.
//
//===----------------------------------------------------------------------===//

#include "RunnerFakeDriver.h"
#include "RunnerTestUtil.h"
#include "nvfp4-run/Checks.h"
#include "nvfp4-run/Runner.h"
#include "nvfp4-run/Sequence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

/// Quantizes 2 bf16 vectors of 64 values to NVFP4 (linear scales).
Fields quantizeFields() {
  return {{"kernel", "\"nvfp4_q\""},
          {"ptx", "\"q.ptx\""},
          {"chip", "\"sm_90a\""},
          {"op", "\"quantize\""},
          {"rows", "2"},
          {"k", "64"},
          {"l", "1"},
          {"scale_format", "\"nvfp4\""},
          {"scale_layout", "\"linear\""},
          {"input", "\"bf16\""},
          {"global_scale", "false"},
          {"grid", "[1, 1, 1]"},
          {"block", "[128, 1, 1]"},
          {"shared_bytes", "0"},
          {"params", "[\"input\", \"data\", \"scales\"]"},
          {"version", std::to_string(manifest::kVersion)}};
}

/// Multiplies a 128 x 64 NVFP4 matrix by those 2 vectors into bf16.
Fields gemvFields() {
  Fields fields = validFields();
  for (auto &[key, value] : fields) {
    if (key == "m")
      value = "128";
    if (key == "k")
      value = "64";
    if (key == "n")
      value = "2";
    if (key == "output")
      value = "\"bf16\"";
    if (key == "grid")
      value = "[128, 1, 1]";
  }
  return fields;
}

std::string quantizePtx() {
  return std::string(".version 8.8\n.target sm_90a\n.address_size 64\n\n"
                     ".visible .entry nvfp4_q(\n"
                     "\t.param .u64 nvfp4_q_param_0,\n"
                     "\t.param .u64 nvfp4_q_param_1,\n"
                     "\t.param .u64 nvfp4_q_param_2\n"
                     ")\n.reqntid 128, 1, 1\n{\n\tret;\n}\n") +
         signatureGlobal(quantizeFields(), "nvfp4_q");
}

/// Buffers of the function: x, xq, xs, w, ws, y (bytes), then alpha.
const char *const kBuffers = R"([{"arg": 0, "bytes": 256},
    {"arg": 1, "bytes": 64}, {"arg": 2, "bytes": 8},
    {"arg": 3, "bytes": 4096}, {"arg": 4, "bytes": 512},
    {"arg": 5, "bytes": 512}])";
const char *const kLaunches = R"([
    {"manifest": "q.json", "args": [{"arg": 0}, {"arg": 1}, {"arg": 2}]},
    {"manifest": "g.json", "args": [{"arg": 3}, {"arg": 4}, {"arg": 1},
                                    {"arg": 2}, {"arg": 5},
                                    {"arg": 6, "scalar": true}]}])";

Fields sequenceFields() {
  return {{"version", std::to_string(manifest::kSequenceVersion)},
          {"function", "\"decode_step\""},
          {"buffers", kBuffers},
          {"launches", kLaunches}};
}

/// Writes both manifests with their PTX and the sequence (with `key` set to
/// `value`, removed when empty) into the scratch directory; returns the
/// sequence's path.
std::string writeSequence(const std::string &key = "",
                          const std::string &value = "") {
  std::string dir = scratchDir();
  writeFile(dir + "/q.json", objectText(quantizeFields(), "", ""));
  writeFile(dir + "/q.ptx", quantizePtx());
  writeFile(dir + "/g.json", objectText(gemvFields(), "", ""));
  writeFile(dir + "/gemv.ptx",
            kPtxText + signatureGlobal(gemvFields(), "nvfp4_gemv_kernel"));
  writeFile(dir + "/s.sequence.json", objectText(sequenceFields(), key, value));
  return dir + "/s.sequence.json";
}

std::string sequenceError(const std::string &key, const std::string &value) {
  std::string path = writeSequence(key, value), error;
  EXPECT_FALSE(loadSequence(path, error));
  // The message without the scratch directory.
  std::string dir = scratchDir() + "/";
  for (size_t at; (at = error.find(dir)) != std::string::npos;)
    error.erase(at, dir.size());
  return error;
}

TEST(RunnerSequence, ReadsASequence) {
  std::string error;
  std::optional<Sequence> s = loadSequence(writeSequence(), error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->function, "decode_step");
  EXPECT_EQ(s->buffers.size(), 6u);
  EXPECT_EQ(s->buffers.at(3), 4096);
  ASSERT_EQ(s->launches.size(), 2u);
  EXPECT_EQ(s->launches[0].manifest.kind, Op::Quantize);
  EXPECT_EQ(s->launches[1].manifest.kind, Op::Gemv);
  EXPECT_EQ(s->launches[1].bufferOf(Param::B), 1);
  EXPECT_EQ(s->launches[1].bufferOf(Param::SFB), 2);
  EXPECT_TRUE(s->launches[1].args[5].scalar);
  // x is the quantize's input; w and ws the gemv's; xq and xs are written
  // by the quantize before the gemv reads them, y is only written.
  EXPECT_EQ(sequenceInputs(*s),
            (std::map<int64_t, size_t>{{0, 0}, {3, 1}, {4, 1}}));
  EXPECT_EQ(describeLaunch(*s, 1), "launch 2 (" + scratchDir() + "/g.json)");
}

TEST(RunnerSequence, RejectsBadSequences) {
  EXPECT_EQ(sequenceError("launches", ""),
            "s.sequence.json: missing key \"launches\"");
  EXPECT_EQ(sequenceError("version", "99"),
            "s.sequence.json: sequence version 99 is not supported (this "
            "nvfp4-run reads version 1)");
  EXPECT_EQ(sequenceError("launches", "[]"), "s.sequence.json: no launches");
  EXPECT_EQ(
      sequenceError("launches", R"([{"manifest": "absent.json", "args": []}])"),
      "s.sequence.json: launches[0]: absent.json: cannot read the manifest");
  // The quantize's data is 64 bytes.
  EXPECT_EQ(sequenceError("buffers", R"([{"arg": 0, "bytes": 256},
      {"arg": 1, "bytes": 63}, {"arg": 2, "bytes": 8}])"),
            "s.sequence.json: launches[0] (q.json): param \"data\": argument "
            "1 has 63 bytes, the kernel expects 64");
  EXPECT_EQ(sequenceError("launches", R"([{"manifest": "q.json",
      "args": [{"arg": 0}, {"arg": 1}]}])"),
            "s.sequence.json: launches[0] (q.json): 2 args for 3 kernel "
            "params");
  EXPECT_EQ(sequenceError("launches", R"([{"manifest": "q.json",
      "args": [{"arg": 0}, {"arg": 1}, {"arg": 9}]}])"),
            "s.sequence.json: launches[0] (q.json): param \"scales\": "
            "argument 9 is not among the buffers");
  EXPECT_EQ(sequenceError("launches", R"([{"manifest": "q.json",
      "args": [{"arg": 0}, {"arg": 1}, {"arg": 2, "scalar": true}]}])"),
            "s.sequence.json: launches[0] (q.json): param \"scales\" is a "
            "buffer, not a scalar");
  EXPECT_EQ(sequenceError("launches", R"([{"manifest": "q.json",
      "args": [{"arg": 0}, {"arg": 1}, {}]}])"),
            "s.sequence.json: launches[0] (q.json): args[2]: missing key "
            "\"arg\"");
  EXPECT_EQ(sequenceError("buffers", R"([{"arg": 0, "bytes": 256},
      {"arg": 0, "bytes": 256}])"),
            "s.sequence.json: buffers[1]: argument 0 listed twice");
}

TEST(RunnerSequence, WhatEachOpWrites) {
  using manifest::writes;
  for (int i = 0; i < kNumParams; ++i) {
    Param p = Param(i);
    EXPECT_EQ(writes(Op::Gemv, p), p == Param::C) << name(p);
    EXPECT_EQ(writes(Op::ConvertScaleLayout, p), p == Param::Dest);
    EXPECT_EQ(writes(Op::Quantize, p), p == Param::Data || p == Param::Scales);
    EXPECT_EQ(writes(Op::QuantizeGlobalScale, p), p == Param::GlobalScale);
    EXPECT_EQ(writes(Op::Dequantize, p), p == Param::Output);
  }
  Manifest q = parseValid(objectText(quantizeFields(), "", ""));
  EXPECT_EQ(inputsOf(q), std::vector<Param>{Param::Input});
  std::vector<Output> outputs = outputsOf(q);
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].param, Param::Data);
  EXPECT_EQ(outputs[0].bytes, 64u);
  EXPECT_EQ(outputs[1].param, Param::Scales);
  EXPECT_EQ(outputs[1].bytes, 8u);
  // Whatever order the params are listed in.
  Manifest swapped = parseValid(objectText(
      quantizeFields(), "params", "[\"scales\", \"input\", \"data\"]"));
  EXPECT_EQ(outputsOf(swapped)[0].param, Param::Data);
  Manifest g = parseValid(objectText(gemvFields(), "", ""));
  EXPECT_EQ(inputsOf(g),
            (std::vector<Param>{Param::A, Param::SFA, Param::B, Param::SFB}));
  ASSERT_EQ(outputsOf(g).size(), 1u);
  EXPECT_EQ(outputsOf(g)[0].param, Param::C);
}

/// The kernels of the sequence on the fake device: the quantize writes the
/// reference of what it read (one byte changed with `damage`), the gemv
/// the reference of what it read (or, with `generatedVectors`, of the
/// vectors the gemv's own generator makes instead of the quantize's).
struct Kernels {
  const Sequence &sequence;
  bool damage = false, generatedVectors = false;
  int quantizeLaunches = 0, gemvLaunches = 0;

  static uint8_t *buffer(void **params, size_t i) {
    return host(*static_cast<CUdeviceptr *>(params[i]));
  }

  void quantize(void **params) {
    ++quantizeLaunches;
    const QuantizeProblem &q = sequence.launches[0].manifest.quantization;
    std::vector<float> x(q.rows * q.k);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(ref::readOutput(q.element, buffer(params, 0), i));
    ref::Quantized out =
        ref::quantize(q.format, q.layout, false, x.data(), q.rows, q.k, q.l);
    if (damage)
      out.data[17] ^= 0x10;
    std::memcpy(buffer(params, 1), out.data.data(), out.data.size());
    std::memcpy(buffer(params, 2), out.scales.data(), out.scales.size());
  }

  void gemv(void **params) {
    ++gemvLaunches;
    ref::GemvProblem p = sequence.launches[1].manifest.problem;
    p.alpha = *static_cast<float *>(params[5]);
    std::vector<uint8_t> b(buffer(params, 2), buffer(params, 2) + 64);
    std::vector<uint8_t> sfb(buffer(params, 3), buffer(params, 3) + 8);
    if (generatedVectors) {
      ref::GemvInputs own =
          ref::generateGemvInputs(p, ref::Distribution::Full, 5);
      b = own.b;
      sfb = own.sfb;
    }
    std::vector<uint8_t> c = ref::roundOutput(
        p.output, ref::gemvExact(p, buffer(params, 0), buffer(params, 1),
                                 b.data(), sfb.data()));
    std::memcpy(buffer(params, 4), c.data(), c.size());
  }
};

Kernels *kernels = nullptr;
CUfunction const kQuantizeFunction = reinterpret_cast<CUfunction>(uintptr_t(2));

class RunnerSequenceFake : public testing::Test {
protected:
  void SetUp() override {
    device = &fake;
    std::string error;
    std::optional<Sequence> loaded = loadSequence(writeSequence(), error);
    ASSERT_TRUE(loaded) << error;
    sequence = std::move(*loaded);
    // Two kernels: the function handle tells them apart.
    driver.cuModuleGetFunction = [](CUfunction *function, CUmodule,
                                    const char *name) {
      std::string kernel = name;
      *function = kernel == kL2ReadKernel ? kFlushFunction
                  : kernel == "nvfp4_q"   ? kQuantizeFunction
                                          : nullptr;
      return CUDA_SUCCESS;
    };
    driver.cuLaunchKernel = [](CUfunction function, unsigned, unsigned,
                               unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void **params, void **) {
      if (function == kFlushFunction)
        return CUDA_SUCCESS;
      if (function == kQuantizeFunction)
        kernels->quantize(params);
      else
        kernels->gemv(params);
      return CUDA_SUCCESS;
    };
  }
  void TearDown() override {
    device = nullptr;
    kernels = nullptr;
  }

  std::string run(Kernels &k, std::vector<VerifyResult> &results,
                  bool bench = false, bool timeFailing = false) {
    kernels = &k;
    RunConfig config;
    config.seed = 5;
    config.alpha = 0.75f;
    config.bench = bench;
    config.timeFailing = timeFailing;
    config.reps = 2;
    Runner runner(driver);
    runner.setCopyGBps(1000);
    return runner.runSequence(sequence, config, results, timing);
  }

  FakeDevice fake;
  Driver driver = fakeDriver();
  Sequence sequence;
  std::optional<BenchResult> timing;
};

TEST_F(RunnerSequenceFake, TheReferencePasses) {
  Kernels k{sequence};
  std::vector<VerifyResult> results;
  ASSERT_EQ(run(k, results), "");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].pass)
      << formatVerify(sequence.launches[0].manifest, results[0]);
  EXPECT_TRUE(results[1].pass)
      << formatVerify(sequence.launches[1].manifest, results[1]);
  // One verifying launch per fill of each launch's outputs.
  EXPECT_EQ(k.quantizeLaunches, 2);
  EXPECT_EQ(k.gemvLaunches, 1);
  // One allocation per buffer of the function.
  EXPECT_EQ(fake.allocations,
            (std::vector<size_t>{256, 64, 8, 4096, 512, 512}));
  EXPECT_FALSE(timing);
}

TEST_F(RunnerSequenceFake, AWrongByteIsBlamedOnTheLaunchThatWroteIt) {
  Kernels k{sequence};
  k.damage = true;
  std::vector<VerifyResult> results;
  ASSERT_EQ(run(k, results), "");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].pass);
  EXPECT_EQ(results[0].buffer, Param::Data);
  EXPECT_EQ(results[0].firstMismatch, 17);
  EXPECT_EQ(k.gemvLaunches, 0);
}

TEST_F(RunnerSequenceFake, TheGemvIsCheckedOnWhatTheQuantizeWrote) {
  Kernels k{sequence};
  k.generatedVectors = true;
  std::vector<VerifyResult> results;
  ASSERT_EQ(run(k, results), "");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].pass);
  EXPECT_FALSE(results[1].pass);
}

TEST_F(RunnerSequenceFake, BenchTimesTheWholeSequence) {
  Kernels k{sequence};
  std::vector<VerifyResult> results;
  ASSERT_EQ(run(k, results, /*bench=*/true), "");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].pass && results[1].pass);
  ASSERT_TRUE(timing);
  EXPECT_EQ(timing->kernel.reps, 2);
  EXPECT_EQ(timing->uniqueBytes,
            uniqueBytes(sequence.launches[0].manifest) +
                uniqueBytes(sequence.launches[1].manifest));
  // 2 + 1 verifying, then 10 warm-ups and 2 timed of both.
  EXPECT_EQ(k.quantizeLaunches, 2 + 12);
  EXPECT_EQ(k.gemvLaunches, 1 + 12);
}

TEST_F(RunnerSequenceFake, AFailureAfterTimingIsReported) {
  Kernels k{sequence};
  std::vector<VerifyResult> results;
  // The quantize goes wrong once the verifying launches are over.
  driver.cuEventRecord = [](CUevent, CUstream) {
    kernels->damage = true;
    return CUDA_SUCCESS;
  };
  ASSERT_EQ(run(k, results, /*bench=*/true), "");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].pass);
  EXPECT_TRUE(results[0].afterTiming);
  EXPECT_FALSE(timing);
  // Under --time-failing the failure stays, with the timing.
  k.damage = false;
  results.clear();
  ASSERT_EQ(run(k, results, /*bench=*/true, /*timeFailing=*/true), "");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].pass);
  EXPECT_TRUE(results[0].afterTiming);
  EXPECT_TRUE(timing);
}

TEST_F(RunnerSequenceFake, TimeFailingTimesASequenceThatStillFails) {
  // A wrong quantize: without --time-failing the gemv never runs; with it
  // the gemv runs on the wrong output, both are timed, the quantize fails.
  Kernels k{sequence};
  k.damage = true;
  std::vector<VerifyResult> results;
  ASSERT_EQ(run(k, results, /*bench=*/true, /*timeFailing=*/true), "");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].pass);
  EXPECT_FALSE(results[0].afterTiming);
  ASSERT_TRUE(timing);
  EXPECT_EQ(timing->kernel.reps, 2);
  EXPECT_EQ(k.gemvLaunches, 1 + 12);
}

} // namespace

namespace {
TEST(RunnerSequence, SequenceFileNames) {
  EXPECT_EQ(manifest::sequenceFileName("p_", "decode_step"),
            "p_decode_step.sequence.json");
  EXPECT_TRUE(manifest::isSequenceFile("out/decode_step.sequence.json"));
  EXPECT_FALSE(manifest::isSequenceFile("out/decode_step.json"));
  EXPECT_FALSE(manifest::isSequenceFile("sequence.json"));
}
} // namespace

namespace {
TEST(RunnerSequence, ReportLines) {
  std::string error;
  std::optional<Sequence> s = loadSequence(writeSequence(), error);
  ASSERT_TRUE(s) << error;
  VerifyResult pass, fail;
  pass.pass = true;
  EXPECT_EQ(formatSequence(*s, {pass, pass}),
            "PASS sequence decode_step: 2 launches [s.sequence.json]");
  EXPECT_EQ(formatSequence(*s, {fail}),
            "FAIL sequence decode_step: launch 1 of 2 failed (quantize "
            "2x64x1 bf16 nvfp4 linear) [s.sequence.json]");
  EXPECT_EQ(formatJsonSequence(*s, {pass, fail}, nullptr),
            "{\"sequence\":\"" + s->path +
                "\",\"function\":\"decode_step\",\"launches\":2,"
                "\"failed_launch\":2,\"status\":\"fail\"}");
  EXPECT_EQ(formatSequenceChecked(*s),
            "OK sequence decode_step: 2 launches [" + s->path + "]");
  EXPECT_EQ(formatJsonSequenceChecked(*s),
            "{\"sequence\":\"" + s->path +
                "\",\"function\":\"decode_step\",\"launches\":2,"
                "\"status\":\"ok\"}");
  BenchResult bench;
  bench.kernel = {10, 9, 200};
  bench.copyGBps = 1000;
  bench.uniqueBytes = 5000000;
  EXPECT_EQ(formatSequenceBench(*s, bench),
            "BENCH sequence decode_step: 10.00 us median (min 9.00 us, 200 "
            "reps), 500 GB/s, 50.0% of copy (1000 GB/s), floor 5.00 us "
            "[s.sequence.json]");
}
} // namespace

namespace {
TEST(RunnerSequence, ALaunchRewritingAnEarlierInputIsFound) {
  std::string error;
  std::optional<Sequence> s = loadSequence(writeSequence(), error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(rewrittenInput(*s), "");
  // A second quantize writes xq and xs again after the gemv read them.
  s = loadSequence(writeSequence("launches", R"([
    {"manifest": "q.json", "args": [{"arg": 0}, {"arg": 1}, {"arg": 2}]},
    {"manifest": "g.json", "args": [{"arg": 3}, {"arg": 4}, {"arg": 1},
                                    {"arg": 2}, {"arg": 5},
                                    {"arg": 6, "scalar": true}]},
    {"manifest": "q.json", "args": [{"arg": 0}, {"arg": 1}, {"arg": 2}]}])"),
                   error);
  ASSERT_TRUE(s) << error;
  std::string dir = scratchDir();
  EXPECT_EQ(rewrittenInput(*s),
            "launch 3 (" + dir +
                "/q.json) writes argument 1, which launch 2 (" + dir +
                "/g.json) read: its timed repetitions would read other "
                "inputs");
}
} // namespace
