// The device buffers of a one-batch NVFP4 GEMV with linear scales, M x K,
// for the suite's stand-alone CUDA tools (gemv_anatomy, e4m3_mma_probe).
#ifndef NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH
#define NVFP4_BENCH_SUITE_GEMV_BUFFERS_CUH

#include "cold_timer.cuh"

#include <cuda_fp16.h>

/// a (two e2m1 codes a byte), sfa (one e4m3 scale a 16 values), b, sfb and
/// the f16 output c, allocated on construction and freed with the object.
struct GemvBuffers {
  long m, k;
  unsigned char *a, *sfa, *b, *sfb;
  __half *c;

  GemvBuffers(long m, long k) : m(m), k(k) {
    CHECK(cudaMalloc(&a, aBytes()));
    CHECK(cudaMalloc(&sfa, sfaBytes()));
    CHECK(cudaMalloc(&b, bBytes()));
    CHECK(cudaMalloc(&sfb, sfbBytes()));
    CHECK(cudaMalloc(&c, m * sizeof(__half)));
  }
  ~GemvBuffers() {
    for (void *p : {(void *)a, (void *)sfa, (void *)b, (void *)sfb, (void *)c})
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
