// e4m3_mma_probe: a one-vector NVFP4 GEMV (linear scales, f16 output) whose
// decode goes through mma.sync with e4m3 operands, written by hand to decide
// whether the compiler should generate it (docs/benchmarks.md, "What bounds
// it": on sm_90 the instruction is emulated, so it should not).
//
//   nvcc -O3 -arch=sm_90a -I include -o e4m3_mma_probe \
//       bench/suite/e4m3_mma_probe.cu lib/Support/Formats.cpp
//   e4m3_mma_probe [--flush clean|dirty] [--reps N] MxK...
//
// An e2m1 code c is the e4m3 byte ((c & 7) << 2) | ((c & 8) << 4) times
// 2^6, so a word of eight codes becomes two words of e4m3 bytes in 7
// integer operations (even codes, odd codes: a permutation of K that b
// shares). mma.sync m16n8k32 e4m3 with f32 accumulators then sums the
// products; the 8 columns of its B operand keep the 8 NVFP4 blocks of a
// quad's 64 bytes apart (block 2q of quad lane q in column q, block 2q + 1
// in column 4 + q; b is zero elsewhere), so every sum is one block's exact
// dot product, scaled afterwards by sfa x sfb like the generated dp4a
// kernel's. The CTA's warps split K. Each kernel is checked against a
// float64 host reference (seeded codes and scales over their whole range,
// outputs poisoned first) and timed under the protocol of nvfp4-run --bench.
#include "decode_ops.cuh"
#include "gemv_buffers.cuh"

#include <cmath>
#include <cstring>
#include <random>

__device__ __forceinline__ void mma(float (&d)[4], uint2 aRow, uint2 aRow8,
                                    uint2 b) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(aRow.x), "r"(aRow8.x), "r"(aRow.y), "r"(aRow8.y), "r"(b.x),
                 "r"(b.y));
}

/// The two f32 scales at bytes `sel` (two byte indices of an 8-byte word).
__device__ __forceinline__ float2 scalePair(uint2 bytes, unsigned sel) {
  unsigned pair = __byte_perm(bytes.x, bytes.y, sel);
  return e4m3PairToFloat2((unsigned short)(pair & 0xffff));
}

/// Steps: 64-byte steps a warp walks; Warps: warps of a CTA splitting K;
/// Tiles: 16-row tiles a warp owns (b is decoded once for all of them).
template <int Steps, int Warps, int Tiles>
__global__ void __launch_bounds__(Warps * 32)
    gemvE4M3(const uint4 *a, const uint2 *sfa, const uint4 *b, const uint2 *sfb,
             __half *c, float alpha) {
  constexpr int rowSteps = Steps * Warps, rows = 16 * Tiles;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int g = lane / 4, q = lane % 4;
  int firstStep = warp * Steps;
  // Row g of the CTA's first tile, at this warp's first step.
  const uint4 *aBase =
      a + (size_t(blockIdx.x) * rows + g) * rowSteps * 4 + firstStep * 4 + q;
  const uint2 *sBase =
      sfa + (size_t(blockIdx.x) * rows + g) * rowSteps + firstStep;
  uint4 aw[Steps][Tiles][2];
  uint2 sa[Steps][Tiles][2], sb[Steps];
  uint4 bw[Steps];
#pragma unroll
  for (int s = 0; s < Steps; ++s)
#pragma unroll
    for (int t = 0; t < Tiles; ++t)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        aw[s][t][h] =
            streamLoad(aBase + (16 * t + 8 * h) * rowSteps * 4 + 4 * s);
#pragma unroll
  for (int s = 0; s < Steps; ++s) {
    bw[s] = b[(firstStep + s) * 4 + q];
    sb[s] = sfb[firstStep + s];
#pragma unroll
    for (int t = 0; t < Tiles; ++t)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        sa[s][t][h] = sBase[(16 * t + 8 * h) * rowSteps + s];
  }
  // Column 2q and 2q + 1 of the accumulators hold these blocks.
  auto block = [](int col) { return col < 4 ? 2 * col : 2 * (col - 4) + 1; };
  unsigned sel = block(2 * q) | block(2 * q + 1) << 4;
  unsigned keepFirst = g == q ? ~0u : 0u, keepSecond = g == 4 + q ? ~0u : 0u;
  float acc[Tiles][2] = {};
#pragma unroll
  for (int s = 0; s < Steps; ++s) {
    uint2 bOperand[4];
    unsigned bWords[4] = {bw[s].x, bw[s].y, bw[s].z, bw[s].w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      uint2 bi = toE4M3(bWords[i]);
      unsigned keep = i < 2 ? keepFirst : keepSecond;
      bOperand[i] = {bi.x & keep, bi.y & keep};
    }
    float2 fb = scalePair(sb[s], sel);
#pragma unroll
    for (int t = 0; t < Tiles; ++t) {
      float d[4] = {0, 0, 0, 0};
      const uint4 &r0 = aw[s][t][0], &r8 = aw[s][t][1];
      unsigned words[4] = {r0.x, r0.y, r0.z, r0.w};
      unsigned words8[4] = {r8.x, r8.y, r8.z, r8.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
        mma(d, toE4M3(words[i]), toE4M3(words8[i]), bOperand[i]);
      float2 fa = scalePair(sa[s][t][0], sel);
      float2 fa8 = scalePair(sa[s][t][1], sel);
      // Products of two e4m3 scales and dots of 16 products are exact.
      acc[t][0] = fmaf(d[0], fa.x * fb.x, acc[t][0]);
      acc[t][0] = fmaf(d[1], fa.y * fb.y, acc[t][0]);
      acc[t][1] = fmaf(d[2], fa8.x * fb.x, acc[t][1]);
      acc[t][1] = fmaf(d[3], fa8.y * fb.y, acc[t][1]);
    }
  }
  __shared__ float partial[Warps][rows];
#pragma unroll
  for (int t = 0; t < Tiles; ++t)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float v = acc[t][h];
      v += __shfl_xor_sync(0xffffffffu, v, 1);
      v += __shfl_xor_sync(0xffffffffu, v, 2);
      if (q == 0)
        partial[warp][16 * t + 8 * h + g] = v;
    }
  __syncthreads();
  if (threadIdx.x < rows) {
    float sum = 0;
    for (int w = 0; w < Warps; ++w)
      sum += partial[w][threadIdx.x];
    // The e4m3 operands were 2^-6 times the values.
    c[blockIdx.x * rows + threadIdx.x] = __float2half_rn(alpha * 4096.0f * sum);
  }
}

using Kernel = void (*)(const uint4 *, const uint2 *, const uint4 *,
                        const uint2 *, __half *, float);

int main(int argc, char **argv) {
  ShapeArgs args = parseShapeArgs(
      argc, argv, "e4m3_mma_probe",
      "M a multiple of 32 and K 1024, 2048 or 4096", [](long m, long k) {
        return m % 32 == 0 && (k == 1024 || k == 2048 || k == 4096);
      });
  bool clean = args.clean;
  int reps = args.reps;
  ColdTimer timer(clean);
  const unsigned seed = 20261201;
  printf("# e4m3_mma_probe: %d SMs, flush %s, median of %d, seed %u\n",
         timer.smCount(), clean ? "clean" : "dirty", reps, seed);
  printf("# M K variant microseconds max_error/bound status\n");
  int status = 0;
  for (const auto &shape : args.shapes) {
    long m = shape.first, k = shape.second;
    GemvBuffers buf(m, k);
    // Codes of every value; scales 2^-6..2^2 (e4m3 exponents 1..9).
    std::mt19937 rng(seed);
    RandomGemv in(buf, rng, [](std::mt19937 &r) {
      return (unsigned char)((1 + r() % 9) << 3 | (r() & 7));
    });
    float alpha = 0.75f;
    // The reference and the bound of its f16 result, row by row: half an
    // f16 ulp of the result, plus the f32 sums' error.
    std::vector<double> want, magnitude, bound(m);
    in.reference(m, k, want, magnitude);
    for (long r = 0; r < m; ++r) {
      want[r] *= alpha;
      bound[r] = std::fabs(want[r]) * 1e-3 + alpha * magnitude[r] * 1e-6;
    }
    // Each lane loads 8 chunks of a, as the generated one-pass kernels'
    // threads do: 16-row tiles with the CTA's warps splitting K, or
    // 32-row ones (b decoded once for two tiles) with twice the warps.
    struct Variant {
      const char *name;
      Kernel kernel;
      int threads, rowsPerCta;
    };
    std::vector<Variant> variants =
        k == 1024 ? std::vector<Variant>{{"1tile", gemvE4M3<2, 4, 1>, 128, 16},
                                         {"2tiles", gemvE4M3<1, 8, 2>, 256, 32}}
        : k == 2048
            ? std::vector<Variant>{{"1tile", gemvE4M3<4, 4, 1>, 128, 16},
                                   {"2tiles", gemvE4M3<2, 8, 2>, 256, 32}}
            : std::vector<Variant>{{"1tile", gemvE4M3<4, 8, 1>, 256, 16},
                                   {"2tiles", gemvE4M3<2, 16, 2>, 512, 32}};
    for (const Variant &v : variants) {
      auto launch = [&] {
        v.kernel<<<m / v.rowsPerCta, v.threads>>>(
            (const uint4 *)buf.a, (const uint2 *)buf.sfa, (const uint4 *)buf.b,
            (const uint2 *)buf.sfb, buf.c, alpha);
      };
      std::vector<__half> hc = poisonedRun(buf, launch);
      double worst = 0;
      for (long r = 0; r < m; ++r) {
        double got = __half2float(hc[r]);
        worst = std::max(worst, std::isnan(got) ? 1e30
                                                : std::fabs(got - want[r]) /
                                                      (bound[r] + 1e-30));
      }
      bool pass = worst <= 1;
      status |= !pass;
      printf("%ld %ld %s %.3f %.3g %s\n", m, k, v.name,
             timer.median(reps, launch), worst, pass ? "pass" : "FAIL");
    }
    fflush(stdout);
  }
  CHECK(cudaGetLastError());
  return status;
}
