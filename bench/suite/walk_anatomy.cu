// walk_anatomy: what the parts of a GEMV that walks its rows step by step
// cost, under the protocol of nvfp4-run --bench (cold L2 before every
// repetition, events around the kernel alone, median).
//
//   walk_anatomy [--split 1|2|4] [--flush clean|dirty] [--reps N] MxK...
//
// For NVFP4-linear shapes (K a multiple of 1024: whole steps of 32 lanes x
// 16 bytes), kernels with the geometry of the generated step loop (128
// threads, 32 lanes a row, 4 rows a thread, S warps of a CTA each a
// contiguous slice of the row's steps, the next step's loads issued before
// the current step's work) read, in turn:
//   a          the matrix alone;
//   +scales    also its scales (2 bytes a chunk), b and b's scales;
//   +work W    also, for each i32 word of a, W dependent rounds of a byte
//              lookup and a 4-way dot product (prmt and dp4a, the decode's
//              instructions), W = 2, 4, 8;
//   +work 4, 2 steps   as +work 4 with two steps of loads in flight.
// None of them computes the GEMV (docs/benchmarks.md, "What bounds it"):
// the gap between "+scales" and the read-once ceiling is the walk's, the
// slope in W what the work after the data costs.
#include "decode_ops.cuh"
#include "gemv_buffers.cuh"

constexpr int kRowsPerThread = 4, kLanes = 32, kThreads = 128;

template <int Work>
__device__ __forceinline__ unsigned work(uint4 v, uint4 bv, unsigned acc) {
  for (unsigned w : {v.x ^ bv.x, v.y ^ bv.y, v.z ^ bv.z, v.w ^ bv.w}) {
    int x = int(w);
#pragma unroll
    for (int i = 0; i < Work; ++i)
      x = decodeRound(x, w);
    acc += unsigned(x);
  }
  return acc;
}

template <bool Scales, int Work, int InFlight>
__global__ void __launch_bounds__(kThreads)
    walk(const uint4 *a, const unsigned short *sfa, const uint4 *b,
         const unsigned short *sfb, int rowChunks, int split, unsigned *sink) {
  constexpr int R = kRowsPerThread;
  int warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  int slice = warp % split, group = warp / split;
  int firstRow = blockIdx.x * (kThreads / kLanes / split * R) + group * R;
  int steps = rowChunks / kLanes, perSlice = (steps + split - 1) / split;
  int first = slice * perSlice, end = min(steps, first + perSlice);
  struct Step {
    uint4 v[R], bv;
    unsigned short s[R], bs;
  } buf[InFlight];
  auto load = [&](int step, Step &into) {
    int chunk = step * kLanes + lane;
#pragma unroll
    for (int r = 0; r < R; ++r)
      into.v[r] = streamLoad(a + size_t(firstRow + r) * rowChunks + chunk);
    if (Scales) {
      into.bv = b[chunk];
      into.bs = sfb[chunk];
#pragma unroll
      for (int r = 0; r < R; ++r)
        into.s[r] = sfa[size_t(firstRow + r) * rowChunks + chunk];
    }
  };
#pragma unroll
  for (int j = 0; j < InFlight; ++j)
    if (first + j < end)
      load(first + j, buf[j]);
  unsigned acc = 0;
  for (int step = first; step < end; step += InFlight) {
#pragma unroll
    for (int j = 0; j < InFlight; ++j) {
      if (step + j >= end)
        continue;
      Step &cur = buf[j];
      uint4 bv = Scales ? cur.bv : make_uint4(0, 0, 0, 0);
#pragma unroll
      for (int r = 0; r < R; ++r) {
        acc = work<Work>(cur.v[r], bv, acc);
        if (Scales)
          acc ^= cur.s[r] ^ cur.bs;
      }
      if (step + j + InFlight < end)
        load(step + j + InFlight, buf[j]);
    }
  }
  if (acc == 0x9e3779b9u)
    *sink = acc;
}

using Kernel = void (*)(const uint4 *, const unsigned short *, const uint4 *,
                        const unsigned short *, int, int, unsigned *);

int main(int argc, char **argv) {
  OwnOption split{"--split", {1, 2, 4}, 4};
  ShapeArgs args = parseShapeArgs(
      argc, argv, "walk_anatomy",
      "K a multiple of 1024 and M of the CTA's rows (16 / split)",
      [&](long m, long k) {
        return k % 1024 == 0 && m % (16 / split.value) == 0;
      },
      &split);
  int rowsPerCta = kThreads / kLanes / split.value * kRowsPerThread;
  ColdTimer timer(args.clean);
  printf("# walk_anatomy: %d SMs, flush %s, median of %d, microseconds, "
         "split %d\n",
         timer.smCount(), args.clean ? "clean" : "dirty", args.reps,
         split.value);
  printf("# M K bytes a +scales +work2 +work4 +work8 +work4,2steps\n");
  Kernel kernels[] = {walk<false, 0, 1>, walk<true, 0, 1>, walk<true, 2, 1>,
                      walk<true, 4, 1>,  walk<true, 8, 1>, walk<true, 4, 2>};
  for (const auto &shape : args.shapes) {
    long m = shape.first, k = shape.second;
    GemvBuffers buf(m, k, args.oneAllocation);
    CHECK(cudaMemset(buf.a, 1, buf.aBytes()));
    CHECK(cudaMemset(buf.sfa, 1, buf.sfaBytes()));
    CHECK(cudaMemset(buf.b, 1, buf.bBytes()));
    CHECK(cudaMemset(buf.sfb, 1, buf.sfbBytes()));
    printf("%ld %ld %zu", m, k, buf.inputBytes());
    for (Kernel kernel : kernels)
      printf(" %.3f", timer.median(args.reps, [&] {
        kernel<<<m / rowsPerCta, kThreads>>>(
            (const uint4 *)buf.a, (const unsigned short *)buf.sfa,
            (const uint4 *)buf.b, (const unsigned short *)buf.sfb, int(k / 32),
            split.value, timer.sinkWord());
      }));
    printf("\n");
    fflush(stdout);
  }
  CHECK(cudaGetLastError());
  return 0;
}
