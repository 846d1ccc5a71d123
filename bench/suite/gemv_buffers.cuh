// The device buffers of a one-batch NVFP4 GEMV with linear scales, M x K,
// for the suite's stand-alone CUDA tools (gemv_anatomy, e4m3_mma_probe).
#ifndef NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH
#define NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH

#include "cold_timer.cuh"

#include <cuda_fp16.h>

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

#endif // NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH
