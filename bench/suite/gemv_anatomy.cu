// gemv_anatomy: what the parts of a one-vector GEMV cost (its memory
// traffic, its reduction and store, instructions after the data), under the
// protocol of nvfp4-run --bench (cold L2 before every
// repetition, events around the kernel alone, median).
//
//   gemv_anatomy [--flush clean|dirty] [--reps N] MxK...
//
// For each NVFP4-linear shape whose rows are 1 or 2 steps of 32 lanes x 16
// bytes (K = 1024 or 2048) and M a multiple of 16, kernels with the
// geometry of the generated GEMV (128 threads, 32 lanes a row, 4 rows a
// thread, every load of a thread issued before any use) read, in turn:
//   a        the matrix alone;
//   +scales  also its scales (2 bytes a 16-byte chunk), b and b's scales;
//   +store   also reduce each row across its 32 lanes and store one f16;
//   +work W  also, for each i32 word of a, W dependent rounds of a byte
//            lookup and a 4-way dot product (prmt and dp4a, the decode's
//            instructions; about 3 SASS instructions a round with the
//            copy of the lookup table, docs/benchmarks.md item 15).
//   wide     (K = 2048 only) as +scales, but each row's scales of both
//            steps in one 4-byte load (lane l holds chunks 2l and 2l+1:
//            the same bytes in half the load instructions); a is still
//            read a step at a time (lane l: chunks l and 32 + l), so the
//            scales are not those of its chunks.
//   wide a   (K = 2048 only) as wide, with a read the way those scales
//            belong to it: lane l's two 16-byte loads are chunks 2l and
//            2l + 1, 32 contiguous bytes (each load of a warp touches 32
//            sectors, half of each). wide and wide a are printed last.
// None of them computes the GEMV: the gap between "+store" and the
// generated kernel is the decode, the gap between "a" and read_once the
// geometry, and the slope in W what each instruction a byte costs once the data
// is there.
#include "decode_ops.cuh"
#include "gemv_buffers.cuh"

#include <cstring>

constexpr int kRowsPerThread = 4, kLanes = 32, kThreads = 128;
constexpr int kRowsPerCta = kThreads / kLanes * kRowsPerThread;

enum Mode { A, Scales, WideScales, WideA, Store };

template <int Steps, Mode M, int Work = 0>
__global__ void __launch_bounds__(kThreads)
    anatomy(const uint4 *a, const unsigned short *sfa, const uint4 *b,
            const unsigned short *sfb, __half *c, unsigned *sink) {
  constexpr int rowChunks = Steps * kLanes;
  int lane = threadIdx.x % kLanes;
  int firstRow =
      blockIdx.x * kRowsPerCta + threadIdx.x / kLanes * kRowsPerThread;
  uint4 v[kRowsPerThread][Steps];
  unsigned short s[kRowsPerThread][Steps];
  uint4 bv[Steps];
  unsigned short bs[Steps];
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r)
#pragma unroll
    for (int t = 0; t < Steps; ++t)
      v[r][t] = streamLoad(a + size_t(firstRow + r) * rowChunks +
                           (M == WideA ? 2 * lane + t : t * kLanes + lane));
  if constexpr (M == WideScales || M == WideA) {
    static_assert(Steps == 2, "a row's scales are 32 lanes x 4 bytes");
    auto *sfaWords = reinterpret_cast<const unsigned *>(sfa);
    unsigned sb = reinterpret_cast<const unsigned *>(sfb)[lane];
#pragma unroll
    for (int t = 0; t < Steps; ++t) {
      bv[t] = b[M == WideA ? 2 * lane + t : t * kLanes + lane];
      bs[t] = (unsigned short)(sb >> (16 * t));
    }
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
      unsigned w = sfaWords[size_t(firstRow + r) * kLanes + lane];
      s[r][0] = (unsigned short)w;
      s[r][1] = (unsigned short)(w >> 16);
    }
  } else if (M != A) {
#pragma unroll
    for (int t = 0; t < Steps; ++t) {
      bv[t] = b[t * kLanes + lane];
      bs[t] = sfb[t * kLanes + lane];
#pragma unroll
      for (int r = 0; r < kRowsPerThread; ++r)
        s[r][t] = sfa[size_t(firstRow + r) * rowChunks + t * kLanes + lane];
    }
  }
  unsigned acc[kRowsPerThread];
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) {
    acc[r] = 0;
#pragma unroll
    for (int t = 0; t < Steps; ++t) {
      acc[r] ^= v[r][t].x ^ v[r][t].y ^ v[r][t].z ^ v[r][t].w;
      for (unsigned w : {v[r][t].x, v[r][t].y, v[r][t].z, v[r][t].w}) {
        int x = int(w);
#pragma unroll
        for (int i = 0; i < Work; ++i)
          x = decodeRound(x, w);
        acc[r] += unsigned(x);
      }
      if (M != A)
        acc[r] ^= s[r][t] ^ bs[t] ^ bv[t].x ^ bv[t].y ^ bv[t].z ^ bv[t].w;
    }
  }
  if (M == Store) {
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
      float sum = float(acc[r] & 0xffff);
#pragma unroll
      for (int d = kLanes / 2; d > 0; d /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, d);
      if (lane == 0)
        c[firstRow + r] = __float2half(sum);
    }
    return;
  }
  unsigned all = 0;
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r)
    all ^= acc[r];
  if (all == 0x9e3779b9u)
    *sink = all;
}

using Kernel = void (*)(const uint4 *, const unsigned short *, const uint4 *,
                        const unsigned short *, __half *, unsigned *);

template <int Steps> std::vector<Kernel> kernelsFor() {
  std::vector<Kernel> kernels = {
      anatomy<Steps, A>,        anatomy<Steps, Scales>,
      anatomy<Steps, Store>,    anatomy<Steps, Store, 2>,
      anatomy<Steps, Store, 4>, anatomy<Steps, Store, 8>};
  if constexpr (Steps == 2) {
    kernels.push_back(anatomy<Steps, WideScales>);
    kernels.push_back(anatomy<Steps, WideA>);
  }
  return kernels;
}

int main(int argc, char **argv) {
  ShapeArgs args = parseShapeArgs(
      argc, argv, "gemv_anatomy", "M a multiple of 16 and K 1024 or 2048",
      [](long m, long k) {
        return m % kRowsPerCta == 0 && (k == 1024 || k == 2048);
      });
  bool clean = args.clean;
  int reps = args.reps;
  ColdTimer timer(clean);
  printf("# gemv_anatomy: %d SMs, flush %s, median of %d, microseconds%s\n",
         timer.smCount(), clean ? "clean" : "dirty", reps,
         args.oneAllocation ? ", one allocation" : "");
  printf("# M K bytes a +scales +store +work2 +work4 +work8 [wide wide-a]\n");
  for (const auto &shape : args.shapes) {
    long m = shape.first, k = shape.second;
    GemvBuffers buf(m, k, args.oneAllocation);
    CHECK(cudaMemset(buf.a, 1, buf.aBytes()));
    CHECK(cudaMemset(buf.sfa, 1, buf.sfaBytes()));
    std::vector<Kernel> kernels = k == 1024 ? kernelsFor<1>() : kernelsFor<2>();
    printf("%ld %ld %zu", m, k, buf.inputBytes());
    for (Kernel kernel : kernels)
      printf(" %.3f", timer.median(reps, [&] {
        kernel<<<m / kRowsPerCta, kThreads>>>(
            (const uint4 *)buf.a, (const unsigned short *)buf.sfa,
            (const uint4 *)buf.b, (const unsigned short *)buf.sfb, buf.c,
            timer.sinkWord());
      }));
    printf("\n");
    fflush(stdout);
  }
  CHECK(cudaGetLastError());
  return 0;
}
