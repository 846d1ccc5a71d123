// wgmma_probe: a one-vector NVFP4 GEMV (linear scales) whose products run
// on Hopper's warpgroup tensor cores, to count and time a decode of 9
// integer operations a word of a (docs/benchmarks.md, "What bounds it").
//
//   nvcc -O3 -gencode arch=compute_90a,code=sm_90a -I include -o wgmma_probe \
//       bench/suite/wgmma_probe.cu lib/Support/Formats.cpp
//   (-arch=sm_90a also emits compute_90 PTX, which has no wgmma)
//   wgmma_probe [--warpgroups 1|2|4] [--flush clean|dirty] [--reps N] MxK...
//
// M a multiple of 64, K of 128 x steps a group x warpgroups up to 16384
// (steps of 128 values, four loaded ahead: -DWGMMA_PROBE_STEPS_PER_GROUP=N
// builds other depths, -DWGMMA_PROBE_MMA_IN_FLIGHT=1 waits for each step's
// MMAs before the next step's). A CTA owns 64 rows; each of its warpgroups
// (default 4) an equal slice of K, their sums added in order through shared
// memory. Every e2m1 code maps onto an e4m3 byte by bit moves (toE4M3,
// decode_ops.cuh), four codes of a word at once: the low nibbles of its
// bytes make one register of A, the high nibbles another.
// wgmma.mma_async m64n8k32 e4m3 takes A from those registers and B from shared
// memory, where the CTA has laid b out (while a's first steps are in flight)
// so that column j of B holds only the values of NVFP4 block j of the step:
// after a step's four MMAs, accumulator (row, j) is block j's exact dot
// product, and each thread scales its four by sfa * sfb in f32. Lane (g, t)
// of warp w reads rows 16 w + g and 16 w + g + 8, bytes 16 t .. 16 t + 15 of
// each 64-byte step; the four lanes of a quad read the step's 64 bytes. A
// step's registers take the step four ahead once it is decoded.
//
// It checks every row against a float64 reference (random codes, scales of
// 0 .. 1.875, NaN-poisoned output) and times the kernels that verify; its
// status is 1 when one does not. Measured on the H200 in docs/benchmarks.md
// (item 36).
#include "decode_ops.cuh"
#include "gemv_buffers.cuh"

#include <cmath>
#include <random>

constexpr int kWarpgroupThreads = 128, kMaxWarpgroups = 4, kRowsPerCta = 64;
#ifndef WGMMA_PROBE_STEPS_PER_GROUP
#define WGMMA_PROBE_STEPS_PER_GROUP 4
#endif
#ifndef WGMMA_PROBE_MMA_IN_FLIGHT
#define WGMMA_PROBE_MMA_IN_FLIGHT 2
#endif
constexpr int kStepsPerGroup = WGMMA_PROBE_STEPS_PER_GROUP;
// Steps whose MMAs may run at once: 1 waits for each step's before the next.
constexpr int kMmaInFlight = WGMMA_PROBE_MMA_IN_FLIGHT;
static_assert(kMmaInFlight == 1 || kMmaInFlight == 2, "1 or 2 steps");
static_assert(kStepsPerGroup % kMmaInFlight == 0, "whole sets a group");
// One k32 chunk's B (K 32 x N 8, e4m3): two 8 x 16-byte core matrices.
constexpr int kChunkBytes = 256, kStepBTileBytes = 4 * kChunkBytes;

// A k32 chunk's B descriptor, no swizzle: the two core matrices along K
// 128 bytes apart (leading offset), the next 8 columns 256 bytes on (stride
// offset; N is 8, so unused). Measured: the reading with the two swapped
// faults on the H200 (docs/benchmarks.md, item 36).
constexpr uint32_t kLeadingOffset = 128, kStrideOffset = 256;

__device__ __forceinline__ uint64_t descriptor(const void *smem) {
  uint64_t addr = uint64_t(__cvta_generic_to_shared(smem));
  return ((addr & 0x3FFFF) >> 4) | (uint64_t(kLeadingOffset >> 4) << 16) |
         (uint64_t(kStrideOffset >> 4) << 32);
}

__device__ __forceinline__ void mma(float (&d)[4], uint32_t a0, uint32_t a1,
                                    uint32_t a2, uint32_t a3, uint64_t desc,
                                    int accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc),
                 "r"(accumulate));
}

// Waits until at most Pending groups of MMAs are in flight; no read of
// acc (the accumulators of a finished group) may move above the wait.
template <int Pending>
__device__ __forceinline__ void waitForMmas(float (&acc)[4]) {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
  asm volatile(""
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]),
                 "+f"(acc[3])::"memory");
}

struct Step {
  uint4 row0, row1;
  unsigned short scale0, scale1, vectorScale;
};

__global__ void __launch_bounds__(kMaxWarpgroups *kWarpgroupThreads)
    gemv(const uint4 *a, const unsigned short *sfa, const uint32_t *b,
         const unsigned short *sfb, __half *c, int k) {
  extern __shared__ __align__(128) unsigned char bTiles[];
  __shared__ float partials[kMaxWarpgroups][kRowsPerCta];
  int steps = k / 128, rowChunks = k / 32, scaleRow = k / 32;

  // Warpgroup wg takes the wg-th of equal slices of the steps.
  int warpgroup = threadIdx.x / kWarpgroupThreads;
  int perSlice = steps / (blockDim.x / kWarpgroupThreads);
  int begin = warpgroup * perSlice;
  int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  int rowInCta = threadIdx.x % kWarpgroupThreads / 32 * 16 + g;
  size_t row0 = size_t(blockIdx.x) * kRowsPerCta + rowInCta;
  size_t row1 = row0 + 8;
  // Steps are counted from the slice's first (pointers moved there).
  const uint4 *a0 = a + row0 * rowChunks + 4 * begin + t,
              *a1 = a + row1 * rowChunks + 4 * begin + t;
  const unsigned short *s0 = sfa + row0 * scaleRow + 4 * begin + t,
                       *s1 = sfa + row1 * scaleRow + 4 * begin + t,
                       *sv = sfb + 4 * begin + t;
  auto load = [&](int s, Step &into) {
    into.row0 = streamLoad(a0 + 4 * s);
    into.row1 = streamLoad(a1 + 4 * s);
    into.scale0 = s0[4 * s];
    into.scale1 = s1[4 * s];
    into.vectorScale = sv[4 * s];
  };
  // a's first steps are in flight while the CTA lays out B.
  Step ring[kStepsPerGroup];
#pragma unroll
  for (int j = 0; j < kStepsPerGroup; ++j)
    load(j, ring[j]);

  // B: for step s and chunk q, lane position t's codes sit at k positions
  // 4t..4t+3 (low nibbles) and 16+4t..16+4t+3 (high) of column 2t + q / 2.
  auto *words = reinterpret_cast<uint32_t *>(bTiles);
  for (int i = threadIdx.x; i < steps * kStepBTileBytes / 4; i += blockDim.x)
    words[i] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < steps * 16; i += blockDim.x) {
    int s = i / 16, q = i / 4 % 4, t = i % 4, column = 2 * t + q / 2;
    uint2 codes = toE4M3(b[16 * s + 4 * t + q]);
    unsigned char *tile = bTiles + s * kStepBTileBytes + q * kChunkBytes;
    *reinterpret_cast<uint32_t *>(tile + column * 16 + 4 * t) = codes.x;
    *reinterpret_cast<uint32_t *>(tile + 128 + column * 16 + 4 * t) = codes.y;
  }
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  const unsigned char *sliceTiles = bTiles + begin * kStepBTileBytes;

  // With two steps' MMAs in flight, step j's operands and accumulators
  // (set j % 2) stay untouched until step j + 1 has waited for them. The
  // last step of a group waits for its own: a wait that spans the loop's
  // back edge makes ptxas serialize every wgmma (its warning C7514).
  uint2 c0[kMmaInFlight][4], c1[kMmaInFlight][4];
  float d[kMmaInFlight][4] = {};
  unsigned short pending[3]; // scales of the step in flight
  float sum0 = 0, sum1 = 0;
  // Adds a finished step's accumulators, scaled by its scales.
  auto retire = [&](float(&acc)[4], const unsigned short(&sc)[3]) {
    // Accumulator (row g, column 2t + i) is block 2t + i of this lane's
    // 16 bytes: the blocks of its own scale bytes.
    float2 sa0 = e4m3PairToFloat2(sc[0]), sa1 = e4m3PairToFloat2(sc[1]),
           sb = e4m3PairToFloat2(sc[2]);
    sum0 += acc[0] * (sa0.x * sb.x) + acc[1] * (sa0.y * sb.y);
    sum1 += acc[2] * (sa1.x * sb.x) + acc[3] * (sa1.y * sb.y);
  };
  for (int first = 0; first < perSlice; first += kStepsPerGroup) {
#pragma unroll
    for (int j = 0; j < kStepsPerGroup; ++j) {
      constexpr int kSets = kMmaInFlight;
      const int p = j % kSets, prev = (j + kSets - 1) % kSets;
      Step &st = ring[j];
      uint32_t r0[4] = {st.row0.x, st.row0.y, st.row0.z, st.row0.w};
      uint32_t r1[4] = {st.row1.x, st.row1.y, st.row1.z, st.row1.w};
      // Every operand decoded before the first MMA: registers an MMA
      // reads may not change until it has completed.
#pragma unroll
      for (int q = 0; q < 4; ++q)
        c0[p][q] = toE4M3(r0[q]), c1[p][q] = toE4M3(r1[q]);
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int q = 0; q < 4; ++q)
        mma(d[p], c0[p][q].x, c1[p][q].x, c0[p][q].y, c1[p][q].y,
            descriptor(sliceTiles + (first + j) * kStepBTileBytes +
                       q * kChunkBytes),
            q);
      asm volatile("wgmma.commit_group.sync.aligned;");
      unsigned short scales[3] = {st.scale0, st.scale1, st.vectorScale};
      // The step kStepsPerGroup ahead takes this one's registers.
      if (first + kStepsPerGroup + j < perSlice)
        load(first + kStepsPerGroup + j, st);
      if constexpr (kSets == 1) {
        waitForMmas<0>(d[p]);
        retire(d[p], scales);
      } else {
        waitForMmas<1>(d[prev]);
        if (j > 0)
          retire(d[prev], pending);
        for (int i = 0; i < 3; ++i)
          pending[i] = scales[i];
        if (j == kStepsPerGroup - 1) {
          waitForMmas<0>(d[p]);
          retire(d[p], pending);
        }
      }
    }
  }
  for (int m = 1; m < 4; m *= 2) {
    sum0 += __shfl_xor_sync(0xffffffffu, sum0, m);
    sum1 += __shfl_xor_sync(0xffffffffu, sum1, m);
  }
  if (t == 0) {
    partials[warpgroup][rowInCta] = sum0;
    partials[warpgroup][rowInCta + 8] = sum1;
  }
  __syncthreads();
  if (threadIdx.x < kRowsPerCta) {
    float sum = 0;
    for (int w = 0; w < int(blockDim.x / kWarpgroupThreads); ++w)
      sum += partials[w][threadIdx.x];
    // Both operands were decoded times 2^-6.
    c[size_t(blockIdx.x) * kRowsPerCta + threadIdx.x] =
        __float2half(sum * 4096.0f);
  }
}

int main(int argc, char **argv) {
  OwnOption warpgroups{"--warpgroups", {1, 2, 4}, kMaxWarpgroups};
  ShapeArgs args = parseShapeArgs(
      argc, argv, "wgmma_probe",
      kStepsPerGroup == 4
          ? "M a multiple of 64 and K a multiple of 512 x warpgroups up to "
            "16384"
          : "M a multiple of 64 and K a multiple of 128 x "
            "WGMMA_PROBE_STEPS_PER_GROUP x warpgroups up to 16384",
      [&](long m, long k) {
        // Whole groups of steps in every slice.
        return m % kRowsPerCta == 0 &&
               k % (128 * kStepsPerGroup * warpgroups.value) == 0 && k <= 16384;
      },
      &warpgroups);
  ColdTimer timer(args.clean);
  CHECK(cudaFuncSetAttribute(gemv, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             16384 / 128 * kStepBTileBytes));
  printf("# wgmma_probe: %d SMs, flush %s, median of %d, seed 1, %d "
         "warpgroups a CTA\n",
         timer.smCount(), args.clean ? "clean" : "dirty", args.reps,
         warpgroups.value);
  printf("# M K bytes verified max-error microseconds\n");
  int status = 0;
  for (const auto &shape : args.shapes) {
    long m = shape.first, k = shape.second;
    GemvBuffers buf(m, k, args.oneAllocation);
    ProbeInputs inputs(buf);
    const std::vector<double> &ref = inputs.ref, &bound = inputs.bound;
    size_t smem = size_t(k / 128) * kStepBTileBytes;
    auto launch = [&] {
      gemv<<<m / kRowsPerCta, warpgroups.value * kWarpgroupThreads, smem>>>(
          (const uint4 *)buf.a, (const unsigned short *)buf.sfa,
          (const uint32_t *)buf.b, (const unsigned short *)buf.sfb, buf.c,
          int(k));
    };
    std::vector<__half> hc = poisonedRun(buf, launch);
    double worst = 0;
    bool ok = true;
    for (long r = 0; r < m; ++r) {
      double got = __half2float(hc[r]), err = std::fabs(got - ref[r]);
      // Exact block dots, one f32 rounding a product and a sum of the
      // k / 16 blocks, then one f16 rounding.
      double tol = std::ldexp(double(k / 16 + 2), -23) * bound[r] +
                   std::ldexp(std::fabs(ref[r]), -10) + std::ldexp(1.0, -24);
      ok = ok && err <= tol; // NaN fails
      worst = std::isnan(err) ? INFINITY : std::max(worst, err / tol);
    }
    printf("%ld %ld %zu %s %.3g", m, k, buf.inputBytes(), ok ? "pass" : "FAIL",
           worst);
    if (ok)
      printf(" %.3f", timer.median(args.reps, launch));
    printf("\n");
    fflush(stdout);
    status |= !ok;
  }
  CHECK(cudaGetLastError());
  return status;
}
