// The device buffers of a one-batch NVFP4 GEMV with linear scales, M x K,
// for the suite's stand-alone CUDA tools (gemv_anatomy, walk_anatomy and the
// MMA probes), and the self-checking probes' random inputs and reference.
#ifndef NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH
#define NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH

#include "cold_timer.cuh"

#include "../../include/nvfp4/Support/Formats.h"

#include <cuda_fp16.h>

#include <cmath>
#include <random>
#include <vector>

/// a (two e2m1 codes a byte), sfa (one e4m3 scale a 16 values), b, sfb and
/// the f16 output c, allocated on construction (one allocation each, or
/// consecutive 256-byte aligned parts of one) and freed with the object.
struct GemvBuffers {
  long m, k;
  unsigned char *a, *sfa, *b, *sfb;
  __half *c;
  std::vector<void *> allocations;

  GemvBuffers(long m, long k, bool oneAllocation = false) : m(m), k(k) {
    size_t sizes[] = {aBytes(), sfaBytes(), bBytes(), sfbBytes(),
                      m * sizeof(__half)};
    void **parts[] = {(void **)&a, (void **)&sfa, (void **)&b, (void **)&sfb,
                      (void **)&c};
    size_t total = 0;
    for (size_t bytes : sizes)
      total += (bytes + 255) / 256 * 256;
    unsigned char *pool = nullptr;
    if (oneAllocation) {
      CHECK(cudaMalloc(&pool, total));
      allocations.push_back(pool);
    }
    for (int i = 0; i < 5; ++i) {
      if (!oneAllocation) {
        CHECK(cudaMalloc(parts[i], sizes[i]));
        allocations.push_back(*parts[i]);
        continue;
      }
      *parts[i] = pool;
      pool += (sizes[i] + 255) / 256 * 256;
    }
  }
  ~GemvBuffers() {
    for (void *p : allocations)
      CHECK(cudaFree(p));
  }
  GemvBuffers(const GemvBuffers &) = delete;
  GemvBuffers &operator=(const GemvBuffers &) = delete;

  size_t bBytes() const { return size_t(k) / 2; }
  size_t sfbBytes() const { return size_t(k) / 16; }
  size_t aBytes() const { return size_t(m) * bBytes(); }
  size_t sfaBytes() const { return size_t(m) * sfbBytes(); }
  /// What a GEMV reads.
  size_t inputBytes() const {
    return aBytes() + sfaBytes() + bBytes() + sfbBytes();
  }
};

/// Seeded random inputs of a self-checking tool, on the host and copied to
/// the device: every e2m1 code (a byte of random bits), scales from
/// `scale(rng)`; and the float64 reference of each row, which decodes with
/// the project's own decoders (a tool that calls it links
/// lib/Support/Formats.cpp).
struct RandomGemv {
  std::vector<unsigned char> a, sfa, b, sfb;

  template <class Scale>
  RandomGemv(const GemvBuffers &buf, std::mt19937 &rng, Scale scale)
      : a(buf.aBytes()), sfa(buf.sfaBytes()), b(buf.bBytes()),
        sfb(buf.sfbBytes()) {
    for (auto *codes : {&a, &b})
      for (auto &x : *codes)
        x = (unsigned char)rng();
    for (auto *scales : {&sfa, &sfb})
      for (auto &x : *scales)
        x = scale(rng);
    CHECK(cudaMemcpy(buf.a, a.data(), a.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(buf.sfa, sfa.data(), sfa.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(buf.b, b.data(), b.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(buf.sfb, sfb.data(), sfb.size(), cudaMemcpyHostToDevice));
  }

  /// Row r's exact value and the sum of its products' magnitudes (each
  /// times its block's scales), the scale of its rounding errors.
  void reference(long m, long k, std::vector<double> &value,
                 std::vector<double> &magnitude) const {
    using nvfp4::formats::decodeE2M1, nvfp4::formats::decodeE4M3FN;
    value.assign(m, 0.0);
    magnitude.assign(m, 0.0);
    for (long r = 0; r < m; ++r)
      for (long block = 0; block < k / 16; ++block) {
        double dot = 0, size = 0;
        for (long i = block * 16; i < block * 16 + 16; ++i) {
          double p = decodeE2M1(a[(r * k + i) / 2] >> (4 * (i % 2)) & 15) *
                     decodeE2M1(b[i / 2] >> (4 * (i % 2)) & 15);
          dot += p;
          size += std::fabs(p);
        }
        double s =
            decodeE4M3FN(sfa[r * k / 16 + block]) * decodeE4M3FN(sfb[block]);
        value[r] += s * dot;
        magnitude[r] += std::fabs(s) * size;
      }
  }
};

/// The inputs of a self-checking probe's shape: seed 1, scales of
/// 0 .. 1.875 (exponent fields 0..7: f16 outputs stay finite), and each
/// row's float64 reference (`ref`) and the scale of its rounding errors
/// (`bound`).
struct ProbeInputs {
  std::mt19937 rng{1};
  RandomGemv in;
  std::vector<double> ref, bound;

  explicit ProbeInputs(const GemvBuffers &buf)
      : in(buf, rng, [](std::mt19937 &r) { return r() % 0x40; }) {
    in.reference(buf.m, buf.k, ref, bound);
  }
};

/// The output of one run of `launch` whose output was NaN before it.
template <class Launch>
std::vector<__half> poisonedRun(const GemvBuffers &buf, Launch launch) {
  CHECK(cudaMemset(buf.c, 0xff, buf.m * sizeof(__half)));
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<__half> c(buf.m);
  CHECK(cudaMemcpy(c.data(), buf.c, c.size() * sizeof(__half),
                   cudaMemcpyDeviceToHost));
  return c;
}

#endif // NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH
