//===- GemvCostModel.h - default CUDA-core GEMV configuration ----*- C++
//-*-===//
//
// Chooses, per shape and chip, the launch geometry of the CUDA-core GEMV
// kernel (docs/design.md, "The cost model"): enough threads to keep the
// memory system busy, each with enough 16-byte loads in flight, K split
// across lane groups and CTAs when the rows alone are too few, and every
// slice of K long enough to amortise its reduction. Plain C++ so the unit
// tests check it without MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_GEMVCOSTMODEL_H
#define NVFP4_SUPPORT_GEMVCOSTMODEL_H

#include "nvfp4/Support/Chips.h"

#include <cstdint>

namespace nvfp4::cost {

struct GemvShape {
  int64_t m, k, l;
  int64_t blockSize; // values per scale: 16 (NVFP4) or 32 (MXFP4)
  bool tiledCodes = false; // a in the tensor-core kernel's order (tiled_codes)
};

/// The geometry of a kernel; in a request, 0 means "choose".
struct GemvGeometry {
  int64_t rowsPerThread = 0;
  int64_t lanesPerRow = 0;
  int64_t bytesPerLoad = 0;
  int64_t loadsInFlight = 0;
  int64_t splitK = 0;    // lane groups of one CTA sharing a row's K range
  int64_t ctaSplitK = 0; // CTAs sharing a row's K range
  int64_t rowsPerBlock = 0;
};

/// CTAs a row's K range may be split across at most (cta-split-k).
inline constexpr int64_t kMaxCtaSplitK = 64;

/// What the model aims for, measured on the H200 (docs/benchmarks.md).
struct Targets {
  /// Threads an SM should have: K is split across the lane groups of a CTA
  /// (a reduction in shared memory) until the launch reaches this many;
  /// splits beyond ctaSplitThreadsPerSM only while every slice keeps
  /// minStepsForExtraSplit steps (docs/design.md).
  int64_t threadsPerSM = 1024;
  /// Threads an SM must have before K is also split across CTAs: the
  /// configuration sweep (bench/suite/sweep.sh, docs/benchmarks.md) found
  /// that split paying only below about 8 warps an SM (fitted with the
  /// reduction through global memory; unchanged with the cheaper cluster
  /// reduction, item 22).
  int64_t ctaSplitThreadsPerSM = 256;
  /// Steps (loads a lane, unsplit) a row must have before K is split
  /// across CTAs at all: shorter rows are read by the CTA's own slices
  /// sooner than the partials' reduction could be paid for
  /// (docs/benchmarks.md, items 12 and 17: rows of 3-10 steps gained up to
  /// 1.2 µs without the CTA split, rows of 14 steps and more lost 0.8-3.5
  /// µs, through global memory; item 22: splitting every shape across 2,
  /// 4 or 8 CTAs of a cluster gains nothing beyond this rule).
  int64_t minStepsForCtaSplit = 12;
  /// CTAs a row's K range may be split across: a split through a cluster's
  /// shared memory holds at most a portable cluster (kMaxPortableClusterCtas),
  /// one through global memory up to 64.
  int64_t maxCtaSplitK = kMaxCtaSplitK;
  /// A slice that ends in a partial step after minOnePassSteps - 1 whole
  /// ones is read in one pass (loaded after the whole steps, the partial
  /// step costs one more round trip to memory) in kernels of at least
  /// minOnePassRows rows a thread, up to maxOnePassLoads loads a thread
  /// (rows x steps). Measured (docs/benchmarks.md, item 23): 4 rows x 2
  /// steps faster (0.931 of the time on the 24 suite kernels the rule
  /// changes); a lone partial step and 1-2 rows a thread no faster.
  int64_t minOnePassSteps = 2;
  int64_t minOnePassRows = 4;
  int64_t maxOnePassLoads = 8;
  /// Steps a slice must keep for a split that only adds threads beyond
  /// ctaSplitThreadsPerSM: shorter slices leave too little work to overlap
  /// the loads with (sweep: 5120 x 2880, 3 steps a lane, 70% unsplit and
  /// 51% split).
  int64_t minStepsForExtraSplit = 4;
  /// Threads an SM below which slices a thread reads in one round of
  /// loads (4 rows x 2 steps, maxOnePassLoads) also count as long, where
  /// the slices the launch needs would keep minStepsForExtraSplit steps:
  /// 4096 x 7168 x 1 split 4 ways instead of 2. Measured
  /// (docs/benchmarks.md, item 29): 0.92 of the time on the 24 suite
  /// kernels this changes, 0.95 on 28 kernels of random shapes it reaches;
  /// a broader form (more warps, 3-step rows) was slower on launches of
  /// about 500 threads an SM and more.
  int64_t oneRoundThreadsPerSM = 448;
  /// 16-byte loads a thread should have in flight (rows x loads-in-flight).
  /// 8 (two steps of four rows) won on some shapes of the sweep but cost up
  /// to 14 points on the largest ones in the full suite (registers).
  int64_t loadsPerThread = 4;
  /// Steps (one load per row per lane) below which a K slice's reduction
  /// costs more than the parallelism it adds.
  int64_t minStepsPerSlice = 1;
  /// Threads an SM the launch of four rows a thread must give it, else two
  /// rows a thread (and below twoRowsThreadsPerSM one): so small a launch
  /// is bound by each thread's chain of loads and decodes, not by the
  /// instructions four rows save by sharing b's decode (docs/benchmarks.md,
  /// item 20: one row a thread 3-18% faster on launches of under 128
  /// threads an SM, 10-44% slower on those of over 500).
  int64_t fourRowsThreadsPerSM = 256;
  int64_t twoRowsThreadsPerSM = 128;
  /// Threads of a CTA: ptxas allots about 70 registers a thread to the
  /// kernel at 128 (7 CTAs an SM) but about 96 at 256 (2 CTAs an SM).
  int64_t ctaThreads = 128;
  /// Bytes of a from which the kernel's index arithmetic is 32 bits wide
  /// (addresses as 32-bit offsets from 64-bit bases): 7% fewer
  /// instructions and fewer registers in 83 of the suite's 101 kernels.
  /// From 32 MiB, where kernels run several waves, that made the suite's
  /// 20 largest shapes 3% faster; smaller ones lost 4% on the mean
  /// (docs/benchmarks.md, item 19).
  int64_t minNarrowIndexBytes = int64_t(32) << 20;
  /// Fewer lanes a row than the row's loads allow (up to a warp): at least
  /// minLanesPerRow, only where that takes at least
  /// 1 / idleLaneSlotsDenominator off the row's slots (its loads rounded up
  /// to whole steps of all its lanes; idle lanes decode for nothing), and
  /// only on launches of at least fewerLanesThreadsPerSM threads an SM with
  /// a warp a row (docs/benchmarks.md, item 25: 16 lanes 4-17% faster on
  /// such launches, fewer lanes 4-42% slower on small ones and 8 lanes
  /// slower on long rows).
  int64_t minLanesPerRow = 16;
  int64_t idleLaneSlotsDenominator = 8;
  int64_t fewerLanesThreadsPerSM = 1024;
  /// Registers a thread ptxas is told it may take (.maxnreg): the most
  /// that keep every CTA of the grid resident at once, at most
  /// maxRegisterBudget; none where that is below minRegisterBudget. Any
  /// budget changes ptxas's schedule, even above the registers it would
  /// take: with one, it mostly issues a thread's loads together, early.
  /// Measured (docs/benchmarks.md, items 31 and 32): 0.962 of the time on
  /// the 324 suite kernels the rule changes (bounds 64 and 96: 0.976 on
  /// the NVFP4-linear ones, these 0.971); a few lose 5-16% where ptxas
  /// moves loads later or spills under a budget below its own choice.
  int64_t minRegisterBudget = 56;
  int64_t maxRegisterBudget = 128;
  /// Where no budget keeps the grid resident, a kernel whose CTA splits K
  /// at least minSplitForWaveBudget ways into loads of at least
  /// minWaveBudgetBytesPerLoad bytes still gets waveRegisterBudget: ptxas
  /// takes 40-64 registers for such short slices either way, and with the
  /// budget issues their loads earlier. Measured (docs/benchmarks.md, item
  /// 34): 0.949 of the time on the 32 suite kernels it changes, 0.957 on
  /// 54 random ones; 64 registers cost up to 8% on the other unresident
  /// grids, and up to 40% on 8-byte loads (which take 64-80 registers).
  int64_t minSplitForWaveBudget = 4;
  int64_t minWaveBudgetBytesPerLoad = 16;
  int64_t waveRegisterBudget = 64;
};

/// Lanes a row for a row of `chunks` loads on a large launch: the power of
/// two up to 32, at least the targets' minimum, that leaves the fewest lanes
/// idle in the row's last step (ties: the most), where that saves enough.
int64_t chooseLanesPerRow(int64_t chunks, const Targets &targets = Targets());

/// Whether the kernel of `shape` should do its index arithmetic in 32 bits
/// (where every offset fits them; the caller checks that).
bool preferNarrowIndex(const GemvShape &shape,
                       const Targets &targets = Targets());

/// `requested` with every zero field chosen for `shape` on `chip`. Fields
/// given are kept as they are (the caller checks them).
GemvGeometry chooseGemvGeometry(const GemvShape &shape, const ChipInfo &chip,
                                GemvGeometry requested,
                                const Targets &targets = Targets());

/// How a row's K range is cut: `chunks` loads of bytes-per-load bytes, in
/// `slices` ranges of `sliceChunks` (a multiple of lanes-per-row; the last
/// range may be shorter).
struct KSlicing {
  int64_t chunks, slices, sliceChunks;
  /// Whether some slice would have no chunk at all.
  bool hasEmptySlice() const { return (slices - 1) * sliceChunks >= chunks; }
  /// Whether every slice holds sliceChunks chunks.
  bool equalSlices() const { return sliceChunks * slices == chunks; }
  /// Chunks of the last, shortest slice.
  int64_t shortestSlice() const { return chunks - (slices - 1) * sliceChunks; }
  /// Whether some slice ends before its last step of `lanesPerRow` lanes
  /// is whole: the row is no whole number of steps, or the last slice is
  /// shorter than the others.
  bool endsInPartialStep(int64_t lanesPerRow) const {
    return chunks % lanesPerRow != 0 || !equalSlices();
  }
};
KSlicing sliceK(int64_t rowBytes, int64_t bytesPerLoad, int64_t lanesPerRow,
                int64_t slices);

/// Steps of each K slice (the partial last one included) when the kernel
/// should read the slice in one pass, else 0: the slicing leaves a partial
/// step, and steps, rows-per-thread and their product are within the
/// targets' one-pass bounds.
int64_t onePassSteps(const KSlicing &slicing, int64_t lanesPerRow,
                     int64_t rowsPerThread, const Targets &targets = Targets());

/// Threads a CTA of geometry `g` (every field chosen) holds, and those its
/// whole grid runs for `shape` (the kernel's grid may round the rows up to
/// 128 where it interleaves them: the model counts them unrounded).
int64_t threadsPerCta(const GemvGeometry &g);
int64_t gridThreads(const GemvShape &shape, const GemvGeometry &g);

/// The most registers a thread (.maxnreg) with which every CTA of a launch
/// of `ctas` CTAs of `ctaThreads` threads is resident on `chip` at once,
/// within the targets' bounds, or 0 where there is none.
int64_t residentGridBudget(int64_t ctas, int64_t ctaThreads,
                           const ChipInfo &chip,
                           const Targets &targets = Targets());

/// The register budget of the CUDA-core kernel, whose CTAs split K `splitK`
/// ways into loads of `bytesPerLoad` bytes: the resident grid's, else the
/// wave budget for short slices, else 0 (ptxas's own choice).
int64_t chooseRegisterBudget(int64_t ctas, int64_t ctaThreads, int64_t splitK,
                             int64_t bytesPerLoad, const ChipInfo &chip,
                             const Targets &targets = Targets());

/// The tensor-core kernel (decode=mma): a quad of lanes covers 64 bytes of
/// a row (16 bytes a lane), the MMA fragment's K layout.
inline constexpr int64_t kMmaLanesPerRow = 4;
inline constexpr int64_t kMmaBytesPerLoad = 16;
inline constexpr int64_t kMmaStepBytes = kMmaLanesPerRow * kMmaBytesPerLoad;
/// Vectors one MMA (m16n8k16) takes: N = 9..16 take two.
inline constexpr int64_t kMmaVectors = 8;
/// MMAs a K chunk of the tensor-core kernel takes for `vectors` vectors.
constexpr int64_t mmasPerChunk(int64_t vectors) {
  return vectors > kMmaVectors ? 2 : 1;
}
/// Rows one warp of the tensor-core kernel owns: its quads are 8 row
/// groups of `rowsPerThread` rows (rows-per-thread / 2 tiles of 16).
constexpr int64_t mmaWarpRows(int64_t rowsPerThread) {
  return kWarpSize / kMmaLanesPerRow * rowsPerThread;
}

/// Warps an SM the tensor-core kernel's K split aims at: what stays
/// resident at its registers (about 72 a thread with one MMA of up to 8
/// vectors: 28 warps; about 96 with two MMAs for up to 16: 20). Measured
/// on the five problem shapes (docs/benchmarks.md, "More warps for the
/// tensor-core kernel"): 28 against 16 an SM on the average was 0.78 and
/// 0.86 of the time on the two shapes whose grids it fills, the same on
/// two, 1.03 on one; 0.96 on the geometric mean of 13 more (0.81-1.10).
inline constexpr int64_t kMmaWarpsPerSm = 28;
inline constexpr int64_t kMmaTwoMmaWarpsPerSm = 20;

/// The least register budget the tensor-core kernel takes with two MMAs
/// (9-16 vectors): below it, none. Its sixteen vectors' sums and operands
/// need 86-128 registers (ptxas alone); held to the 64 of a many-CTA
/// resident grid, ptxas spills 124-208 bytes of them. Measured
/// (docs/benchmarks.md, "Register budgets that spill ..., timed"): none
/// instead of 64 took 0.68 (sixteen packed) and 0.83 (sixteen bf16) of the
/// time on 128256 x 4096 x 1; with one MMA none took 0.96-1.09x of 64's
/// time, with two and 96 (8-16 bytes spilled) 0.94-1.33x.
inline constexpr int64_t kMmaTwoMmaLeastBudget = 96;

/// The tensor-core kernel's register budget for `vectors` vectors: the
/// resident grid's (residentGridBudget), none where two MMAs would get
/// less than kMmaTwoMmaLeastBudget.
int64_t chooseMmaRegisterBudget(int64_t ctas, int64_t ctaThreads,
                                int64_t vectors, const ChipInfo &chip,
                                const Targets &targets = Targets());

/// How much better one 16-row tile a warp must fill the grid's wave
/// (waveFill of the row warps) than two for the tensor-core kernel to take
/// one: a warp of one tile decodes b for half the rows, about 1.15x the
/// instructions a row. Measured on the shape suite (docs/benchmarks.md,
/// "Filling the SMs", eight vectors): one tile took 0.85-0.97x the time of
/// two on 15 of the 16 kernels this moves (1.03x on 10240 x 8192 x 1), and
/// 1.10x on the geometric mean of the 30 other two-tile ones (0.92-1.39x).
inline constexpr double kMmaOneTileFillGain = 1.15;

/// Long rows whose warps fill the SMs unevenly (the busiest a warp more
/// than the rest) split K across two or four CTAs where that fills the wave
/// (waveFill) kMmaCtaSplitFillGain times as well and leaves each CTA at
/// least kMmaCtaSplitMinSteps steps of a row; two tiles a warp, one MMA
/// (N <= 8) and row-major codes only, as timed.
/// Measured (docs/benchmarks.md, "two or four CTAs a long row"): four
/// CTAs 0.93x on 7168 x 16384 x 1 and 0.92x on 7168 x 18432 x 1 (fill 0.85
/// -> 0.97, 128 and 144 steps); 1.03-1.13x where the fill stays (8192 x
/// 29568 x 1) or rows are short (14336 x 4096 x 1, 32 steps). With tiled
/// codes four CTAs took 1.01-1.04x the time of one on those two shapes,
/// for one to eight packed vectors and 16-bit vectors alike ("Tiled codes:
/// unclamped rows, one CTA a row").
inline constexpr double kMmaCtaSplitFillGain = 1.1;
inline constexpr int64_t kMmaCtaSplitMinSteps = 28;

/// `units` of equal work spread over `sms` SMs: their mean share against
/// the busiest SM's (1 when every SM gets as many).
double waveFill(int64_t units, int64_t sms);

/// Rows (M x L) from which one 16-bit vector takes the tensor-core kernel.
inline constexpr int64_t kMmaMinRowsOneWideVector = 3072;

/// Rows (M x L) from which three, four or five, and six or seven packed
/// vectors take the tensor-core kernel; two never do, eight or more
/// always (the CUDA-core kernel's time grows with N, the tensor-core
/// kernel's hardly, and more rows amortize its decode). Measured on 18
/// shapes (docs/benchmarks.md, "Three and four vectors", "Five to seven
/// vectors"): three vectors on the tensor cores took 0.70-0.97x the CUDA
/// cores' time from 3072 rows on (1.04x and 1.19x on 2432 x 4608 x 2 and
/// 5120 x 2880 x 1) and 1.08-1.36x below; four on the CUDA cores
/// 0.81-0.96x the tensor cores' time below 2048 rows and 1.05-1.99x from
/// 2048 on (0.96x on 5120 x 2880 x 1); five on the tensor cores 0.45-0.92x
/// from 2048 rows on and 1.02-1.26x below; six and seven 0.28-0.96x from
/// 768 rows on and 1.04-1.18x below. Three vectors also need a row of one
/// whole 64-byte step (K >= 128): on the shape suite's five shorter rows
/// they took 1.02-1.39x the CUDA cores' time ("Five to seven vectors").
inline constexpr int64_t kMmaMinRowsThreeVectors = 3072;
inline constexpr int64_t kMmaMinRowsFourVectors = 2048;
inline constexpr int64_t kMmaMinRowsSixVectors = 768;

/// Whole steps a slice from which the tensor-core kernel's slices
/// interleave (MmaSlicing::interleaved). Measured (docs/benchmarks.md,
/// "Interleaved slices"): interleaving every slice cost 3-8% on four
/// shapes of 2 steps a slice and 12% on bf16 at 4; from 8 on, 0.94 of
/// the time on the geometric mean of the shape suite's 19 such kernels
/// (0.80-1.01, n8).
inline constexpr int64_t kMmaInterleaveMinSteps = 8;

/// Whether the default decode of a gemv of `shape` and `vectors` vectors
/// (packed e2m1 or 16-bit) is the tensor-core kernel, where it applies
/// (docs/design.md).
bool preferMma(const GemvShape &shape, int64_t vectors, bool packedB);

/// How a row of the tensor-core kernel is cut: `steps` of 64 bytes, the
/// first `fullSteps` whole (the last may hold a partial 16-byte chunk or
/// none past the row), in `slices` ranges as even as whole steps allow:
/// slice s starts at step firstStep(s) = s * steps / slices, so slices
/// differ by at most one step and the last one holds the partial step.
struct MmaSlicing {
  int64_t steps, fullSteps, slices;
  int64_t firstStep(int64_t slice) const { return slice * steps / slices; }
  bool hasEmptySlice() const { return slices > steps; }
  bool hasTail() const { return fullSteps < steps; }
  /// Whether the kernel's slices interleave step by step (warp s of S
  /// reading whole steps s, s + S, ...) instead of each reading a
  /// contiguous range: from kMmaInterleaveMinSteps whole steps a slice
  /// (one slice reads its steps in order either way).
  bool interleaved() const {
    return slices > 1 && fullSteps >= kMmaInterleaveMinSteps * slices;
  }
};
MmaSlicing sliceMmaK(int64_t rowBytes, int64_t slices);

/// `requested` with every zero field chosen for the tensor-core kernel of
/// `vectors` vectors: rows-per-thread 2, 4 or 8 (two rows of each 16-row
/// tile a warp owns), cta-split-k CTAs and split-k warps of a CTA along K,
/// rows-per-block.
GemvGeometry chooseMmaGeometry(const GemvShape &shape, const ChipInfo &chip,
                               int64_t vectors, GemvGeometry requested);

/// Unique bytes a GEMV moves: a, both scale tensors as stored (blocked
/// scales padded), b and c.
int64_t gemvBytes(const GemvShape &shape, bool blockedScales,
                  int64_t outputBytes);

/// The read-once ceiling of `chip` for `bytes`, in microseconds.
double readOnceMicros(const ChipInfo &chip, int64_t bytes);

} // namespace nvfp4::cost

#endif // NVFP4_SUPPORT_GEMVCOSTMODEL_H
