//===- RunnerFakeDriverTest.cpp - nvfp4-run's runner without a GPU --------===//
//
// Runner::run through a stand-in driver whose device memory is host memory
// and whose "kernel" is the float64 reference: what the runner allocates,
// fills and binds for a manifest (only the buffers its params list), and
// that it verifies every one of the L x N x M outputs.
//
//===----------------------------------------------------------------------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Runner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::cuda;
using namespace nvfp4::run::test;

namespace {

constexpr CUresult kInvalidValue = 1; // CUDA_ERROR_INVALID_VALUE

/// The stand-in device: allocations in host memory, keyed by address.
struct FakeDevice {
  std::map<CUdeviceptr, std::unique_ptr<std::vector<uint8_t>>> memory;
  std::vector<size_t> allocations; // sizes, in order
  /// The kernel: called with the launch's parameter array.
  std::function<void(void **)> kernel;
  int launches = 0;
};
FakeDevice *device = nullptr;

uint8_t *host(CUdeviceptr ptr) { return reinterpret_cast<uint8_t *>(ptr); }

Driver fakeDriver() {
  Driver d;
  d.cuCtxCreate = [](CUcontext *context, unsigned, CUdevice) {
    *context = reinterpret_cast<CUcontext>(device);
    return CUDA_SUCCESS;
  };
  d.cuCtxDestroy = [](CUcontext) {
    device->memory.clear();
    return CUDA_SUCCESS;
  };
  d.cuCtxSynchronize = [] { return CUDA_SUCCESS; };
  d.cuMemAlloc = [](CUdeviceptr *ptr, size_t bytes) {
    // As the driver: an allocation of 0 bytes is an invalid value.
    if (bytes == 0)
      return kInvalidValue;
    auto buffer = std::make_unique<std::vector<uint8_t>>(bytes);
    *ptr = reinterpret_cast<CUdeviceptr>(buffer->data());
    device->memory[*ptr] = std::move(buffer);
    device->allocations.push_back(bytes);
    return CUDA_SUCCESS;
  };
  d.cuMemFree = [](CUdeviceptr ptr) {
    device->memory.erase(ptr);
    return CUDA_SUCCESS;
  };
  d.cuMemcpyHtoD = [](CUdeviceptr dst, const void *src, size_t bytes) {
    std::memcpy(host(dst), src, bytes);
    return CUDA_SUCCESS;
  };
  d.cuMemcpyDtoH = [](void *dst, CUdeviceptr src, size_t bytes) {
    std::memcpy(dst, host(src), bytes);
    return CUDA_SUCCESS;
  };
  d.cuMemsetD8 = [](CUdeviceptr dst, unsigned char value, size_t count) {
    std::memset(host(dst), value, count);
    return CUDA_SUCCESS;
  };
  d.cuModuleLoadDataEx = [](CUmodule *module, const void *, unsigned, int *,
                            void **) {
    *module = nullptr;
    return CUDA_SUCCESS;
  };
  d.cuModuleGetFunction = [](CUfunction *function, CUmodule, const char *) {
    *function = nullptr;
    return CUDA_SUCCESS;
  };
  d.cuFuncGetAttribute = [](int *value, int, CUfunction) {
    *value = 0;
    return CUDA_SUCCESS;
  };
  d.cuLaunchKernel = [](CUfunction, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, CUstream, void **params,
                        void **) {
    ++device->launches;
    device->kernel(params);
    return CUDA_SUCCESS;
  };
  d.cuGetErrorString = [](CUresult, const char **text) {
    *text = "fake error";
    return CUDA_SUCCESS;
  };
  d.cuGetErrorName = [](CUresult, const char **text) {
    *text = "CUDA_ERROR_FAKE";
    return CUDA_SUCCESS;
  };
  return d;
}

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

} // namespace
