// mma_bulk_probe: the tensor-core GEMV of eight NVFP4 vectors (linear
// scales) fed several ways, to time whether copies into shared memory, which
// hold bytes in flight without registers, bring it to the one-vector
// kernel's pace (docs/benchmarks.md, "Copies into shared memory for the
// tensor-core kernel, probed"), and whether sharing b's decode among
// warps pays for the synchronisation.
//
//   nvcc -O3 -gencode arch=compute_90a,code=sm_90a -I include \
//       -o mma_bulk_probe bench/suite/mma_bulk_probe.cu \
//       lib/Support/Formats.cpp -lcuda
//   mma_bulk_probe [--flush clean|dirty] [--reps N] MxK...
//
// Every kernel computes what decode=mma computes for N = 8 (docs/design.md):
// a warp owns 32 rows (two tiles of 16), lane (g, t) decodes 16 bytes of
// rows g, g + 8, g + 16, g + 24 and of vector g each 64-byte step into f16
// pairs times their scales (value x scale x 2^-7), eight m16n8k16 MMAs a
// tile a step; a CTA's warps split K and add their sums in shared memory.
//   registers  (as the compiler's kernel) each lane loads its step's bytes
//              with 16-byte global loads; warp s of S takes steps s, s + S...
//   bulk U/D   each warp streams its rows through D stages of U steps in
//              its own part of shared memory: lane r copies row r of a (64 U
//              bytes) and of its scales (8 U bytes), lanes 0-15 the eight
//              vectors and their scales, with cp.async.bulk (one instruction
//              a row, completion on the stage's mbarrier); warp s of S takes
//              stages s, s + S, ...; lanes read their fragments from shared
//              memory (rows padded by 16 bytes: no bank conflict).
//   tma U/D    the same stages filled by tensor-map boxes, one instruction
//              of one lane for a's 32 rows, one for the vectors (two each
//              for U = 4: a box row is at most 128 bytes), and from U = 2
//              one each for their scales; the boxes are swizzled (64 or
//              128-byte rows) so that the lanes' reads meet no bank
//              conflict.
//   group W/D  groups of W warps share each stage of W steps (warp w
//              decodes step w), with a full and an empty mbarrier a stage.
//   -nodecode  (registers, tma 1-4/2) the loaded words folded into one sum
//              instead of the decode: the feed's own pace, not checked.
//   sharedb R  no copies, but b's decode shared: a CTA holds R groups of
//              32 rows times S slices of K, and the R warps of a slice
//              decode a quarter (R = 4) or half (R = 2) of b's operands
//              each, exchanged through shared memory at a named barrier
//              of the slice every step.
// With U = 1 a row's scales (8 bytes) are under the 16 a copy takes: they
// come from global memory, loaded a stage ahead. The eight vectors are
// copies of one, so every column must equal the float64 reference of that
// vector (random codes, scales of 0 .. 1.875, NaN-poisoned output); kernels
// that fail are not timed, and the status is 1.
//
// Each kernel spells out its own loop: helpers shared among them moved
// ptxas's register allocation (the register kernel from 74 to 79 registers
// and up to 28% slower), and docs/benchmarks.md times this code.
#include "gemv_buffers.cuh"

#include <cuda.h>

#include <cstdint>

namespace {

constexpr int kRows = 32, kVectors = 8, kStepBytes = 64;

__device__ __forceinline__ unsigned hmul2(unsigned x, unsigned s) {
  __half2 r = __hmul2(*reinterpret_cast<__half2 *>(&x),
                      *reinterpret_cast<__half2 *>(&s));
  return *reinterpret_cast<unsigned *>(&r);
}

/// The splats of a chunk's two scales (its first and second 8 bytes)
/// times 2^7: a decoded code is its value times 2^-14.
__device__ __forceinline__ void scaleSplats(unsigned short scales,
                                            unsigned split[2]) {
  unsigned s2;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(s2) : "h"(scales));
  __half2 s = __hmul2(*reinterpret_cast<__half2 *>(&s2),
                      __half2(__float2half(128.f), __float2half(128.f)));
  __half2 lo = __low2half2(s), hi = __high2half2(s);
  split[0] = *reinterpret_cast<unsigned *>(&lo);
  split[1] = *reinterpret_cast<unsigned *>(&hi);
}

/// The four operand pairs of the 8 codes of `x` times the scale splat
/// `sc`.
__device__ __forceinline__ void wordOperands(unsigned x, unsigned sc,
                                             unsigned out[4]) {
  unsigned low = ((x << 1) & 0x0E0E0E0Eu) | ((x << 4) & 0x80808080u);
  unsigned high = ((x >> 3) & 0x0E0E0E0Eu) | (x & 0x80808080u);
  out[0] = hmul2(__byte_perm(low, 0, 0x1404), sc);
  out[1] = hmul2(__byte_perm(low, 0, 0x3424), sc);
  out[2] = hmul2(__byte_perm(high, 0, 0x1404), sc);
  out[3] = hmul2(__byte_perm(high, 0, 0x3424), sc);
}

/// The 16 operand pairs of 16 bytes of codes and their two scales, each
/// value times its scale times 2^-7 (docs/design.md, decode=mma).
__device__ __forceinline__ void operands(uint4 v, unsigned short scales,
                                         unsigned out[16]) {
  unsigned split[2];
  scaleSplats(scales, split);
  unsigned words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int w = 0; w < 4; ++w)
    wordOperands(words[w], split[w / 2], out + 4 * w);
}

__device__ __forceinline__ void mma(float d[4], unsigned a0, unsigned a1,
                                    unsigned a2, unsigned a3, unsigned b0,
                                    unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

/// One step with b's operands decoded already.
__device__ __forceinline__ void stepWith(const uint4 av[4],
                                         const unsigned short as[4],
                                         const unsigned bo[16],
                                         float acc[2][4]) {
#pragma unroll
  for (int tile = 0; tile < 2; ++tile) {
    unsigned top[16], bottom[16];
    operands(av[2 * tile], as[2 * tile], top);
    operands(av[2 * tile + 1], as[2 * tile + 1], bottom);
#pragma unroll
    for (int m = 0; m < 8; ++m)
      mma(acc[tile], top[2 * m], bottom[2 * m], top[2 * m + 1],
          bottom[2 * m + 1], bo[2 * m], bo[2 * m + 1]);
  }
}

/// One step: a's 16 bytes of the lane's four rows and b's of vector g.
__device__ __forceinline__ void step(const uint4 av[4],
                                     const unsigned short as[4], uint4 bv,
                                     unsigned short bs, float acc[2][4]) {
  unsigned bo[16];
  operands(bv, bs, bo);
  stepWith(av, as, bo, acc);
}

/// step(), or with Decode false only a fold of the loaded words into one
/// sum (wrong sums: the copies' pace without the decode).
template <bool Decode>
__device__ __forceinline__ void work(const uint4 av[4],
                                     const unsigned short as[4], uint4 bv,
                                     unsigned short bs, float acc[2][4]) {
  if (Decode) {
    step(av, as, bv, bs, acc);
    return;
  }
  unsigned x = bv.x ^ bv.y ^ bv.z ^ bv.w ^ bs;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    x ^= av[i].x ^ av[i].y ^ av[i].z ^ av[i].w ^ as[i];
  acc[0][0] += __uint_as_float(x & 0x3FFFFFFFu);
}

/// Row of a of lane row i (0..3): tiles of 16, rows g and g + 8.
__device__ __forceinline__ int laneRow(int i, int g) {
  return 16 * (i / 2) + 8 * (i % 2) + g;
}

/// Adds the CTA's warps' sums in order and stores c[vector][row] (f16).
__device__ void reduceAndStore(float acc[2][4], float *partials, __half *c,
                               long m, long row0) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int tile = 0; tile < 2; ++tile)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      int row = 16 * tile + g + 8 * (e / 2), vector = 2 * t + e % 2;
      partials[(warp * kRows + row) * kVectors + vector] = acc[tile][e];
    }
  __syncthreads();
  for (int i = threadIdx.x; i < kRows * kVectors; i += blockDim.x) {
    float sum = 0;
    for (int w = 0; w < int(blockDim.x / 32); ++w)
      sum += partials[w * kRows * kVectors + i];
    // Both operands were decoded times 2^-7.
    c[(i % kVectors) * m + row0 + i / kVectors] = __float2half(sum * 16384.f);
  }
}

template <bool Decode = true>
__global__ void
registersKernel(const unsigned char *a, const unsigned char *sfa,
                const unsigned char *b, const unsigned char *sfb, __half *c,
                long m, long k) {
  __shared__ float partials[32 * kRows * kVectors];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  int g = lane / 4, t = lane % 4;
  long row0 = long(blockIdx.x) * kRows, rowBytes = k / 2, scaleRow = k / 16;
  float acc[2][4] = {};
  for (long s = warp; s < rowBytes / kStepBytes; s += warps) {
    long byte = s * kStepBytes + 16 * t;
    uint4 av[4];
    unsigned short as[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      long row = row0 + laneRow(i, g);
      av[i] = streamLoad((const uint4 *)(a + row * rowBytes + byte));
      as[i] = *(const unsigned short *)(sfa + row * scaleRow + byte / 8);
    }
    uint4 bv = *(const uint4 *)(b + g * rowBytes + byte);
    unsigned short bs =
        *(const unsigned short *)(sfb + g * scaleRow + byte / 8);
    work<Decode>(av, as, bv, bs, acc);
  }
  reduceAndStore(acc, partials, c, m, row0);
}

/// b's operands decoded once for R row groups: a CTA holds R groups of 32
/// rows times S slices of K (warp r S + s); the R warps of slice s each
/// decode 4 / R of the lane's four words of b into shared memory (two
/// buffers), meet at a named barrier of the slice, and read all 16
/// operands back. Sums are added per row group in slice order.
template <int R>
__global__ void sharedBKernel(const unsigned char *a, const unsigned char *sfa,
                              const unsigned char *b, const unsigned char *sfb,
                              __half *c, long m, long k) {
  constexpr int kMaxSlices = 8;
  // The two buffers of b's operands, then the partial sums.
  __shared__ uint4 scratch[2 * kMaxSlices * 32 * 4];
  auto decoded = reinterpret_cast<uint4(*)[kMaxSlices][32][4]>(scratch);
  static_assert(sizeof(scratch) >= 4 * kMaxSlices * kRows * kVectors * 4,
                "partials of four row groups fit");
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int slices = blockDim.x / 32 / R, s = warp % slices, r = warp / slices;
  int g = lane / 4, t = lane % 4;
  long row0 = (long(blockIdx.x) * R + r) * kRows, rowBytes = k / 2,
       scaleRow = k / 16;
  float acc[2][4] = {};
  int j = 0;
  for (long st = s; st < rowBytes / kStepBytes; st += slices, ++j) {
    long byte = st * kStepBytes + 16 * t;
    uint4 av[4];
    unsigned short as[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      long row = row0 + laneRow(i, g);
      av[i] = streamLoad((const uint4 *)(a + row * rowBytes + byte));
      as[i] = *(const unsigned short *)(sfa + row * scaleRow + byte / 8);
    }
    uint4 bv = *(const uint4 *)(b + g * rowBytes + byte);
    unsigned short bs =
        *(const unsigned short *)(sfb + g * scaleRow + byte / 8);
    unsigned split[2], words[4] = {bv.x, bv.y, bv.z, bv.w};
    scaleSplats(bs, split);
    uint4 *slot = decoded[j % 2][s][lane];
    // This warp's 4 / R words (r is the same for the whole warp).
#pragma unroll
    for (int q = 0; q < 4; ++q)
      if (q * R / 4 == r) {
        unsigned mine[4];
        wordOperands(words[q], split[q / 2], mine);
        slot[q] = make_uint4(mine[0], mine[1], mine[2], mine[3]);
      }
    asm volatile("bar.sync %0, %1;" ::"r"(1 + s), "r"(32 * R) : "memory");
    unsigned bo[16];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      uint4 v = slot[q];
      bo[4 * q] = v.x, bo[4 * q + 1] = v.y, bo[4 * q + 2] = v.z,
             bo[4 * q + 3] = v.w;
    }
    stepWith(av, as, bo, acc);
  }
  __syncthreads();
  float *partials = reinterpret_cast<float *>(scratch);
#pragma unroll
  for (int tile = 0; tile < 2; ++tile)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      int row = 16 * tile + g + 8 * (e / 2), vector = 2 * t + e % 2;
      partials[(warp * kRows + row) * kVectors + vector] = acc[tile][e];
    }
  __syncthreads();
  for (int i = threadIdx.x; i < R * kRows * kVectors; i += blockDim.x) {
    int group = i / (kRows * kVectors), at = i % (kRows * kVectors);
    float sum = 0;
    for (int w = 0; w < slices; ++w)
      sum += partials[((group * slices + w) * kRows) * kVectors + at];
    long row = (long(blockIdx.x) * R + group) * kRows + at / kVectors;
    c[(at % kVectors) * m + row] = __float2half(sum * 16384.f);
  }
}

__device__ __forceinline__ unsigned sharedAddress(const void *p) {
  return unsigned(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void waitParity(unsigned bar, unsigned parity) {
  unsigned done;
  do
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 "
                 "p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
  while (!done);
}

/// Scale pairs of the lane's four rows and of vector g at 64-byte step
/// `step` (global memory: U = 1 stages carry no scales).
__device__ __forceinline__ void loadScalePairs(const unsigned char *sfa,
                                               const unsigned char *sfb,
                                               long row0, long scaleRow,
                                               long step, unsigned short as[4],
                                               unsigned short &bs) {
  int g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
  long col = step * 8 + 2 * t;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    as[i] = *(const unsigned short *)(sfa + (row0 + laneRow(i, g)) * scaleRow +
                                      col);
  bs = *(const unsigned short *)(sfb + g * scaleRow + col);
}

/// Bytes of one stage of one warp: 40 rows of codes (32 of a, 8 vectors)
/// padded by 16 bytes, then their 40 rows of scales.
/// With one step a stage a row's scales are 8 bytes, under the 16 a bulk
/// copy takes: they are loaded from global memory, a stage ahead.
template <int U> struct Stage {
  static constexpr bool kGlobalScales = U == 1;
  static constexpr int kCodeStride = kStepBytes * U + 16;
  static constexpr int kScaleBytes = kGlobalScales ? 0 : 8 * U;
  static constexpr int kBytes = 40 * kCodeStride + 40 * kScaleBytes;
  static constexpr int kCopied = 40 * (kStepBytes * U + kScaleBytes);
};

template <int U, int D>
__global__ void bulkKernel(const unsigned char *a, const unsigned char *sfa,
                           const unsigned char *b, const unsigned char *sfb,
                           __half *c, long m, long k) {
  extern __shared__ __align__(16) unsigned char smem[];
  using S = Stage<U>;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  int g = lane / 4, t = lane % 4;
  long row0 = long(blockIdx.x) * kRows, rowBytes = k / 2, scaleRow = k / 16;
  unsigned char *stages = smem + size_t(warp) * D * S::kBytes;
  uint64_t *bars =
      (uint64_t *)(smem + size_t(warps) * D * S::kBytes) + warp * D;
  float *partials = (float *)(bars + (warps - warp) * D);
  if (lane == 0)
    for (int i = 0; i < D; ++i)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
          sharedAddress(bars + i)));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncwarp();
  long total = rowBytes / (kStepBytes * U);
  int count = warp < total ? int((total - 1 - warp) / warps + 1) : 0;
  auto issue = [&](int j) {
    int slot = j % D;
    unsigned bar = sharedAddress(bars + slot);
    unsigned char *st = stages + slot * S::kBytes;
    long stage = warp + long(j) * warps;
    long byte = stage * kStepBytes * U, col = stage * S::kScaleBytes;
    if (lane == 0)
      asm volatile(
          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
          "r"(S::kCopied)
          : "memory");
    __syncwarp();
    auto copy = [&](unsigned char *dst, const unsigned char *src, int bytes) {
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_"
                   "tx::bytes [%0], [%1], %2, [%3];" ::"r"(sharedAddress(dst)),
                   "l"(src), "r"(bytes), "r"(bar)
                   : "memory");
    };
    copy(st + lane * S::kCodeStride, a + (row0 + lane) * rowBytes + byte,
         kStepBytes * U);
    if (!S::kGlobalScales)
      copy(st + 40 * S::kCodeStride + lane * S::kScaleBytes,
           sfa + (row0 + lane) * scaleRow + col, S::kScaleBytes);
    if (lane < kVectors)
      copy(st + (kRows + lane) * S::kCodeStride, b + lane * rowBytes + byte,
           kStepBytes * U);
    else if (lane < 2 * kVectors && !S::kGlobalScales)
      copy(st + 40 * S::kCodeStride + (kRows + lane - 8) * S::kScaleBytes,
           sfb + (lane - 8) * scaleRow + col, S::kScaleBytes);
  };
  for (int j = 0; j < D && j < count; ++j)
    issue(j);
  float acc[2][4] = {};
  unsigned short nextAs[4], nextBs;
  auto loadScales = [&](int j) {
    loadScalePairs(sfa, sfb, row0, scaleRow, warp + long(j) * warps, nextAs,
                   nextBs);
  };
  if (S::kGlobalScales && count > 0)
    loadScales(0);
  for (int j = 0; j < count; ++j) {
    unsigned short stageAs[4], stageBs = nextBs;
#pragma unroll
    for (int i = 0; i < 4; ++i)
      stageAs[i] = nextAs[i];
    if (S::kGlobalScales && j + 1 < count)
      loadScales(j + 1);
    int slot = j % D;
    waitParity(sharedAddress(bars + slot), (j / D) & 1);
    const unsigned char *st = stages + slot * S::kBytes;
    const unsigned char *scales = st + 40 * S::kCodeStride;
#pragma unroll
    for (int u = 0; u < U; ++u) {
      int byte = u * kStepBytes + 16 * t;
      uint4 av[4];
      unsigned short as[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int row = laneRow(i, g);
        av[i] = *(const uint4 *)(st + row * S::kCodeStride + byte);
        as[i] = S::kGlobalScales
                    ? stageAs[i]
                    : *(const unsigned short *)(scales + row * S::kScaleBytes +
                                                byte / 8);
      }
      uint4 bv = *(const uint4 *)(st + (kRows + g) * S::kCodeStride + byte);
      unsigned short bs =
          S::kGlobalScales
              ? stageBs
              : *(const unsigned short *)(scales +
                                          (kRows + g) * S::kScaleBytes +
                                          byte / 8);
      step(av, as, bv, bs, acc);
    }
    // The reads of this stage before the copy engine writes it again.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp();
    if (j + D < count)
      issue(j + D);
  }
  reduceAndStore(acc, partials, c, m, row0);
}

/// Tensor-map boxes instead: one copy a stage for a's 32 rows (64 U bytes
/// each, swizzled so that the lanes' reads meet no bank conflict), one for
/// the eight vectors, and for U = 2 one each for their scales (a box row is
/// at least 16 bytes: with U = 1 the scales come from global memory).
template <int U> struct TmaStage {
  static_assert(U == 1 || U == 2 || U == 4, "64, 128 or 2 x 128-byte rows");
  static constexpr bool kGlobalScales = U == 1;
  static constexpr int kRowBytes = kStepBytes * U, kAlign = U == 1 ? 512 : 1024;
  /// A box row is at most the 128 bytes of the swizzle: U = 4 takes two
  /// boxes an operand, side by side in K.
  static constexpr int kBoxBytes = U == 1 ? 64 : 128;
  static constexpr int kBoxes = kRowBytes / kBoxBytes;
  static constexpr int kA = 0, kB = kRows * kRowBytes;
  static constexpr int kSfa = kB + kVectors * kRowBytes;
  static constexpr int kSfb = kSfa + (kGlobalScales ? 0 : kRows * 8 * U);
  static constexpr int kEnd = kSfb + (kGlobalScales ? 0 : kVectors * 8 * U);
  static constexpr int kBytes = (kEnd + kAlign - 1) / kAlign * kAlign;
  /// Offset of 16-byte chunk c of row r of a region of `rows` rows: chunk
  /// bits XOR the row bits the 64-byte (U = 1) or 128-byte swizzle takes.
  __device__ static int at(int rows, int r, int c) {
    constexpr int boxChunks = kBoxBytes / 16;
    int swizzle = U == 1 ? (r >> 1) & 3 : r & 7;
    return c / boxChunks * rows * kBoxBytes + r * kBoxBytes +
           16 * ((c % boxChunks) ^ swizzle);
  }
};

__device__ __forceinline__ void tmaLoad(unsigned dst, const CUtensorMap *map,
                                        int x, int y, unsigned bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
               "l"(map), "r"(x), "r"(y), "r"(bar)
               : "memory");
}

template <int U, int D, bool Decode = true>
__global__ void tmaKernel(const __grid_constant__ CUtensorMap aMap,
                          const __grid_constant__ CUtensorMap sfaMap,
                          const __grid_constant__ CUtensorMap bMap,
                          const __grid_constant__ CUtensorMap sfbMap,
                          const unsigned char *sfa, const unsigned char *sfb,
                          __half *c, long m, long k) {
  extern __shared__ __align__(1024) unsigned char smemRaw[];
  using S = TmaStage<U>;
  unsigned char *smem =
      smemRaw + ((1024 - sharedAddress(smemRaw) % 1024) % 1024);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  int g = lane / 4, t = lane % 4;
  long row0 = long(blockIdx.x) * kRows, scaleRow = k / 16;
  unsigned char *stages = smem + size_t(warp) * D * S::kBytes;
  uint64_t *bars =
      (uint64_t *)(smem + size_t(warps) * D * S::kBytes) + warp * D;
  float *partials = (float *)(bars + (warps - warp) * D);
  if (lane == 0)
    for (int i = 0; i < D; ++i)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
          sharedAddress(bars + i)));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncwarp();
  long total = k / 2 / S::kRowBytes;
  int count = warp < total ? int((total - 1 - warp) / warps + 1) : 0;
  auto issue = [&](int j) {
    if (lane != 0)
      return;
    int slot = j % D;
    unsigned bar = sharedAddress(bars + slot);
    unsigned st = sharedAddress(stages + slot * S::kBytes);
    int stage = warp + j * warps;
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
        "r"(S::kEnd)
        : "memory");
    for (int box = 0; box < S::kBoxes; ++box) {
      int x = stage * S::kRowBytes + box * S::kBoxBytes;
      tmaLoad(st + S::kA + box * kRows * S::kBoxBytes, &aMap, x, int(row0),
              bar);
      tmaLoad(st + S::kB + box * kVectors * S::kBoxBytes, &bMap, x, 0, bar);
    }
    if (!S::kGlobalScales) {
      tmaLoad(st + S::kSfa, &sfaMap, stage * 8 * U, int(row0), bar);
      tmaLoad(st + S::kSfb, &sfbMap, stage * 8 * U, 0, bar);
    }
  };
  for (int j = 0; j < D && j < count; ++j)
    issue(j);
  float acc[2][4] = {};
  unsigned short nextAs[4], nextBs;
  auto loadScales = [&](int j) {
    loadScalePairs(sfa, sfb, row0, scaleRow, warp + long(j) * warps, nextAs,
                   nextBs);
  };
  if (S::kGlobalScales && count > 0)
    loadScales(0);
  for (int j = 0; j < count; ++j) {
    unsigned short stageAs[4], stageBs = nextBs;
#pragma unroll
    for (int i = 0; i < 4; ++i)
      stageAs[i] = nextAs[i];
    if (S::kGlobalScales && j + 1 < count)
      loadScales(j + 1);
    int slot = j % D;
    waitParity(sharedAddress(bars + slot), (j / D) & 1);
    const unsigned char *st = stages + slot * S::kBytes;
#pragma unroll
    for (int u = 0; u < U; ++u) {
      int chunk = 4 * u + t;
      uint4 av[4];
      unsigned short as[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int row = laneRow(i, g);
        av[i] = *(const uint4 *)(st + S::kA + S::at(kRows, row, chunk));
        as[i] = S::kGlobalScales
                    ? stageAs[i]
                    : *(const unsigned short *)(st + S::kSfa + row * 8 * U +
                                                2 * chunk);
      }
      uint4 bv = *(const uint4 *)(st + S::kB + S::at(kVectors, g, chunk));
      unsigned short bs =
          S::kGlobalScales
              ? stageBs
              : *(const unsigned short *)(st + S::kSfb + g * 8 * U + 2 * chunk);
      work<Decode>(av, as, bv, bs, acc);
    }
    // The reads of this stage before the copy engine writes it again.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp();
    if (j + D < count)
      issue(j + D);
  }
  reduceAndStore(acc, partials, c, m, row0);
}

/// Groups of W warps share each stage: a stage holds W steps of the 32
/// rows (64 W bytes a row, the boxes of TmaStage<W>), warp w of a group
/// decodes step w of it. A stage has a full barrier (the copies) and an
/// empty one (one arrival a warp); lane 0 of the group's first warp
/// refills the slot of the stage before the one it is about to wait for,
/// once every warp of the group has released it. Group q of G takes stages
/// q, q + G, ...
template <int W, int D>
__global__ void groupKernel(const __grid_constant__ CUtensorMap aMap,
                            const __grid_constant__ CUtensorMap sfaMap,
                            const __grid_constant__ CUtensorMap bMap,
                            const __grid_constant__ CUtensorMap sfbMap,
                            __half *c, long m, long k) {
  extern __shared__ __align__(1024) unsigned char smemRaw[];
  using S = TmaStage<W>;
  unsigned char *smem =
      smemRaw + ((1024 - sharedAddress(smemRaw) % 1024) % 1024);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int groups = blockDim.x / 32 / W, group = warp / W, w = warp % W;
  int g = lane / 4, t = lane % 4;
  long row0 = long(blockIdx.x) * kRows;
  unsigned char *stages = smem + size_t(group) * D * S::kBytes;
  uint64_t *full =
      (uint64_t *)(smem + size_t(groups) * D * S::kBytes) + group * 2 * D;
  uint64_t *empty = full + D;
  float *partials = (float *)(full + (groups - group) * 2 * D);
  bool producer = w == 0 && lane == 0;
  if (producer)
    for (int i = 0; i < D; ++i) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
          sharedAddress(full + i)));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
                       sharedAddress(empty + i)),
                   "r"(W));
    }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
  long total = k / 2 / S::kRowBytes;
  int count = group < total ? int((total - 1 - group) / groups + 1) : 0;
  auto issue = [&](int j) {
    int slot = j % D;
    unsigned bar = sharedAddress(full + slot);
    unsigned st = sharedAddress(stages + slot * S::kBytes);
    int stage = group + j * groups;
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
        "r"(S::kEnd)
        : "memory");
    for (int box = 0; box < S::kBoxes; ++box) {
      int x = stage * S::kRowBytes + box * S::kBoxBytes;
      tmaLoad(st + S::kA + box * kRows * S::kBoxBytes, &aMap, x, int(row0),
              bar);
      tmaLoad(st + S::kB + box * kVectors * S::kBoxBytes, &bMap, x, 0, bar);
    }
    tmaLoad(st + S::kSfa, &sfaMap, stage * 8 * W, int(row0), bar);
    tmaLoad(st + S::kSfb, &sfbMap, stage * 8 * W, 0, bar);
  };
  if (producer)
    for (int j = 0; j < D && j < count; ++j)
      issue(j);
  float acc[2][4] = {};
  for (int j = 0; j < count; ++j) {
    if (producer && j > 0 && j - 1 + D < count) {
      waitParity(sharedAddress(empty + (j - 1) % D), ((j - 1) / D) & 1);
      issue(j - 1 + D);
    }
    int slot = j % D;
    waitParity(sharedAddress(full + slot), (j / D) & 1);
    const unsigned char *st = stages + slot * S::kBytes;
    int chunk = 4 * w + t;
    uint4 av[4];
    unsigned short as[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      int row = laneRow(i, g);
      av[i] = *(const uint4 *)(st + S::kA + S::at(kRows, row, chunk));
      as[i] = *(const unsigned short *)(st + S::kSfa + row * 8 * W + 2 * chunk);
    }
    uint4 bv = *(const uint4 *)(st + S::kB + S::at(kVectors, g, chunk));
    unsigned short bs =
        *(const unsigned short *)(st + S::kSfb + g * 8 * W + 2 * chunk);
    step(av, as, bv, bs, acc);
    // The reads of this stage before the copy engine writes it again.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp();
    if (lane == 0)
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                       sharedAddress(empty + slot))
                   : "memory");
  }
  reduceAndStore(acc, partials, c, m, row0);
}

template <int W, int D> size_t groupShared(int warps) {
  return 1024 + size_t(warps / W) * D * (TmaStage<W>::kBytes + 16) +
         size_t(warps) * kRows * kVectors * 4;
}

template <int U, int D> size_t tmaShared(int warps) {
  return 1024 + size_t(warps) * D * TmaStage<U>::kBytes +
         size_t(warps) * D * 8 + size_t(warps) * kRows * kVectors * 4;
}

/// A 2-D tensor map of `rows` rows of `rowBytes` bytes, boxes of `boxRows`
/// x `boxBytes`.
CUtensorMap tensorMap(const void *base, long rows, long rowBytes, int boxRows,
                      int boxBytes, CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  cuuint64_t dims[2] = {cuuint64_t(rowBytes), cuuint64_t(rows)};
  cuuint64_t strides[1] = {cuuint64_t(rowBytes)};
  cuuint32_t box[2] = {cuuint32_t(boxBytes), cuuint32_t(boxRows)};
  cuuint32_t elementStrides[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<void *>(base), dims,
      strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "cuTensorMapEncodeTiled: error %d\n", int(r));
    exit(1);
  }
  return map;
}

template <int U, int D> size_t bulkShared(int warps) {
  return size_t(warps) * D * Stage<U>::kBytes + size_t(warps) * D * 8 +
         size_t(warps) * kRows * kVectors * 4;
}

} // namespace

int main(int argc, char **argv) {
  ShapeArgs args = parseShapeArgs(
      argc, argv, "mma_bulk_probe",
      "M a multiple of 32 and K a multiple of 1024",
      [](long m, long k) { return m % kRows == 0 && k % 1024 == 0; });
  ColdTimer timer(args.clean);
  printf("# mma_bulk_probe: %d SMs, flush %s, median of %d, seed 1, 8 "
         "vectors\n",
         timer.smCount(), args.clean ? "clean" : "dirty", args.reps);
  printf("# M K kernel warps-a-CTA bytes verified max-error microseconds\n");
  int status = 0;
  for (const auto &shape : args.shapes) {
    long m = shape.first, k = shape.second;
    GemvBuffers buf(m, k, args.oneAllocation);
    ProbeInputs inputs(buf);
    const RandomGemv &in = inputs.in;
    const std::vector<double> &ref = inputs.ref, &bound = inputs.bound;
    // Eight copies of the vector and its scales, and an output per vector.
    unsigned char *b8, *sfb8;
    __half *c8;
    CHECK(cudaMalloc(&b8, kVectors * buf.bBytes()));
    CHECK(cudaMalloc(&sfb8, kVectors * buf.sfbBytes()));
    CHECK(cudaMalloc(&c8, kVectors * m * sizeof(__half)));
    for (int v = 0; v < kVectors; ++v) {
      CHECK(cudaMemcpy(b8 + v * buf.bBytes(), in.b.data(), buf.bBytes(),
                       cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(sfb8 + v * buf.sfbBytes(), in.sfb.data(), buf.sfbBytes(),
                       cudaMemcpyHostToDevice));
    }
    // Kernels without the decode compute wrong sums: timed, not checked.
    auto measure = [&](const char *name, int warps, auto launch,
                       bool checked = true) {
      CHECK(cudaMemset(c8, 0xff, kVectors * m * sizeof(__half)));
      launch();
      CHECK(cudaDeviceSynchronize());
      std::vector<__half> hc(kVectors * m);
      CHECK(cudaMemcpy(hc.data(), c8, hc.size() * sizeof(__half),
                       cudaMemcpyDeviceToHost));
      double worst = 0;
      bool ok = true;
      for (long i = 0; i < kVectors * m; ++i) {
        long r = i % m;
        double got = __half2float(hc[i]), err = std::fabs(got - ref[r]);
        // Products exact, K f32 additions, one f16 rounding.
        double tol = std::ldexp(double(k + 2), -23) * bound[r] +
                     std::ldexp(std::fabs(ref[r]), -10) + std::ldexp(1.0, -24);
        ok = ok && err <= tol; // NaN fails
        worst = std::isnan(err) ? INFINITY : std::max(worst, err / tol);
      }
      if (!checked) {
        printf("%ld %ld %s %d %zu unchecked -", m, k, name, warps,
               buf.inputBytes());
        ok = true;
      } else {
        printf("%ld %ld %s %d %zu %s %.3g", m, k, name, warps, buf.inputBytes(),
               ok ? "pass" : "FAIL", worst);
      }
      if (ok)
        printf(" %.3f", timer.median(args.reps, launch));
      printf("\n");
      fflush(stdout);
      status |= !ok;
    };
    long steps = k / 2 / kStepBytes;
    for (int warps : {4, 8, 14}) {
      if (warps > steps)
        continue;
      measure("registers", warps, [&] {
        registersKernel<<<m / kRows, 32 * warps>>>(buf.a, buf.sfa, b8, sfb8, c8,
                                                   m, k);
      });
      measure(
          "registers-nodecode", warps,
          [&] {
            registersKernel<false>
                <<<m / kRows, 32 * warps>>>(buf.a, buf.sfa, b8, sfb8, c8, m, k);
          },
          false);
    }
    auto withSharedB = [&](auto kernel, int r, const char *name, int slices) {
      // 16 warps a CTA at most: 80 registers a thread still launch.
      if (m % (kRows * r) || slices > steps || r * slices > 16)
        return;
      measure(name, r * slices, [&] {
        kernel<<<m / (kRows * r), 32 * r * slices>>>(buf.a, buf.sfa, b8, sfb8,
                                                     c8, m, k);
      });
    };
    for (int slices : {2, 4, 7, 8}) {
      withSharedB(sharedBKernel<2>, 2, "sharedb2", slices);
      withSharedB(sharedBKernel<4>, 4, "sharedb4", slices);
    }
    auto bulk = [&](auto kernel, const char *name, int warps, size_t smem) {
      if (smem > 227 * 1024)
        return;
      CHECK(cudaFuncSetAttribute(
          kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      measure(name, warps, [&] {
        kernel<<<m / kRows, 32 * warps, smem>>>(buf.a, buf.sfa, b8, sfb8, c8, m,
                                                k);
      });
    };
    for (int warps : {8, 14}) {
      bulk(bulkKernel<1, 2>, "bulk1/2", warps, bulkShared<1, 2>(warps));
      bulk(bulkKernel<1, 3>, "bulk1/3", warps, bulkShared<1, 3>(warps));
      bulk(bulkKernel<2, 2>, "bulk2/2", warps, bulkShared<2, 2>(warps));
      bulk(bulkKernel<2, 3>, "bulk2/3", warps, bulkShared<2, 3>(warps));
      bulk(bulkKernel<4, 2>, "bulk4/2", warps, bulkShared<4, 2>(warps));
    }
    auto viaTma = [&](auto kernel, auto u, const char *name, int warps,
                      size_t smem, bool checked = true) {
      constexpr int U = decltype(u)::value;
      if (smem > 227 * 1024 || (k / 2) % (kStepBytes * U))
        return;
      CUtensorMapSwizzle swizzle =
          U == 1 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B;
      int box = TmaStage<U>::kBoxBytes;
      CUtensorMap aMap = tensorMap(buf.a, m, k / 2, kRows, box, swizzle);
      CUtensorMap bMap = tensorMap(b8, kVectors, k / 2, kVectors, box, swizzle);
      // U = 1 reads its scales from global memory: any valid box will do.
      int scaleBox = U == 1 ? 16 : 8 * U;
      CUtensorMap sfaMap = tensorMap(buf.sfa, m, k / 16, kRows, scaleBox,
                                     CU_TENSOR_MAP_SWIZZLE_NONE);
      CUtensorMap sfbMap = tensorMap(sfb8, kVectors, k / 16, kVectors, scaleBox,
                                     CU_TENSOR_MAP_SWIZZLE_NONE);
      CHECK(cudaFuncSetAttribute(
          kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      measure(
          name, warps,
          [&] {
            kernel<<<m / kRows, 32 * warps, smem>>>(aMap, sfaMap, bMap, sfbMap,
                                                    buf.sfa, sfb8, c8, m, k);
          },
          checked);
    };
    using One = std::integral_constant<int, 1>;
    using Two = std::integral_constant<int, 2>;
    using Four = std::integral_constant<int, 4>;
    auto viaGroups = [&](auto kernel, auto wc, const char *name, int warps,
                         size_t smem) {
      constexpr int W = decltype(wc)::value;
      if (smem > 227 * 1024 || warps % W || (k / 2) % (kStepBytes * W))
        return;
      int box = TmaStage<W>::kBoxBytes;
      CUtensorMap aMap =
          tensorMap(buf.a, m, k / 2, kRows, box, CU_TENSOR_MAP_SWIZZLE_128B);
      CUtensorMap bMap = tensorMap(b8, kVectors, k / 2, kVectors, box,
                                   CU_TENSOR_MAP_SWIZZLE_128B);
      CUtensorMap sfaMap = tensorMap(buf.sfa, m, k / 16, kRows, 8 * W,
                                     CU_TENSOR_MAP_SWIZZLE_NONE);
      CUtensorMap sfbMap = tensorMap(sfb8, kVectors, k / 16, kVectors, 8 * W,
                                     CU_TENSOR_MAP_SWIZZLE_NONE);
      CHECK(cudaFuncSetAttribute(
          kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      measure(name, warps, [&] {
        kernel<<<m / kRows, 32 * warps, smem>>>(aMap, sfaMap, bMap, sfbMap, c8,
                                                m, k);
      });
    };
    for (int warps : {4, 8, 12, 16}) {
      viaGroups(groupKernel<2, 3>, Two(), "group2/3", warps,
                groupShared<2, 3>(warps));
      viaGroups(groupKernel<2, 4>, Two(), "group2/4", warps,
                groupShared<2, 4>(warps));
      viaGroups(groupKernel<4, 2>, Four(), "group4/2", warps,
                groupShared<4, 2>(warps));
      viaGroups(groupKernel<4, 3>, Four(), "group4/3", warps,
                groupShared<4, 3>(warps));
    }
    for (int warps : {4, 6, 8, 12, 14}) {
      viaTma(tmaKernel<1, 2>, One(), "tma1/2", warps, tmaShared<1, 2>(warps));
      viaTma(tmaKernel<1, 3>, One(), "tma1/3", warps, tmaShared<1, 3>(warps));
      viaTma(tmaKernel<1, 4>, One(), "tma1/4", warps, tmaShared<1, 4>(warps));
      viaTma(tmaKernel<2, 2>, Two(), "tma2/2", warps, tmaShared<2, 2>(warps));
      viaTma(tmaKernel<2, 3>, Two(), "tma2/3", warps, tmaShared<2, 3>(warps));
      viaTma(tmaKernel<4, 2>, Four(), "tma4/2", warps, tmaShared<4, 2>(warps));
      viaTma(tmaKernel<1, 2, false>, One(), "tma1/2-nodecode", warps,
             tmaShared<1, 2>(warps), false);
      viaTma(tmaKernel<2, 2, false>, Two(), "tma2/2-nodecode", warps,
             tmaShared<2, 2>(warps), false);
      viaTma(tmaKernel<4, 2, false>, Four(), "tma4/2-nodecode", warps,
             tmaShared<4, 2>(warps), false);
    }
    CHECK(cudaFree(b8));
    CHECK(cudaFree(sfb8));
    CHECK(cudaFree(c8));
  }
  CHECK(cudaGetLastError());
  return status;
}
