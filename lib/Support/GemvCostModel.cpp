//===- GemvCostModel.cpp - default CUDA-core GEMV configuration -----------===//

#include "nvfp4/Support/GemvCostModel.h"

#include "nvfp4/Support/ScaleLayout.h"

#include <algorithm>
#include <optional>
#include <tuple>

using namespace nvfp4;
using namespace nvfp4::cost;
using layout::ceilDiv;

namespace {
int64_t pow2Floor(int64_t x) {
  int64_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}
int64_t pow2Ceil(int64_t x) {
  int64_t p = 1;
  while (p < x)
    p *= 2;
  return p;
}
/// A warp a row when the row has at least 32 loads, so a warp's loads are
/// 512 contiguous bytes; else as many lanes as the row has loads.
int64_t widestLanes(int64_t chunks) {
  return std::min<int64_t>(32, pow2Floor(chunks));
}
/// Whether a thread of `rows` rows has every load of `steps` steps of them
/// in flight at once: the one-pass bounds.
bool readsInOneRound(int64_t rows, int64_t steps, const Targets &targets) {
  return rows >= targets.minOnePassRows &&
         rows * steps <= targets.maxOnePassLoads;
}
} // namespace

double nvfp4::cost::waveFill(int64_t units, int64_t sms) {
  return double(units) / double(sms * ceilDiv(units, sms));
}

int64_t nvfp4::cost::chooseLanesPerRow(int64_t chunks, const Targets &targets) {
  // Fewer lanes where the row's last step would leave enough of them idle.
  int64_t widest = widestLanes(chunks);
  auto slots = [&](int64_t lanes) { return ceilDiv(chunks, lanes) * lanes; };
  int64_t best = widest;
  for (int64_t lanes = widest / 2; lanes >= targets.minLanesPerRow; lanes /= 2)
    if (slots(lanes) < slots(best))
      best = lanes;
  return slots(best) * targets.idleLaneSlotsDenominator <=
                 slots(widest) * (targets.idleLaneSlotsDenominator - 1)
             ? best
             : widest;
}

KSlicing nvfp4::cost::sliceK(int64_t rowBytes, int64_t bytesPerLoad,
                             int64_t lanesPerRow, int64_t slices) {
  KSlicing s;
  s.chunks = rowBytes / bytesPerLoad;
  s.slices = slices;
  s.sliceChunks = ceilDiv(ceilDiv(s.chunks, slices), lanesPerRow) * lanesPerRow;
  return s;
}

GemvGeometry nvfp4::cost::chooseGemvGeometry(const GemvShape &shape,
                                             const ChipInfo &chip,
                                             GemvGeometry g,
                                             const Targets &targets) {
  int64_t rowBytes = shape.k / 2;
  // Rows are 16-byte aligned when K is a multiple of 32.
  if (!g.bytesPerLoad)
    g.bytesPerLoad = rowBytes % 16 == 0 ? 16 : 8;
  int64_t chunks = std::max<int64_t>(rowBytes / g.bytesPerLoad, 1);
  // Four rows share one decode of b (fewer when there are fewer rows),
  // unless that leaves the SMs so few threads that each thread's chain of
  // loads and decodes sets the time.
  if (!g.rowsPerThread) {
    GemvGeometry four = g;
    four.rowsPerThread = std::min<int64_t>(4, shape.m);
    four = chooseGemvGeometry(shape, chip, four, targets);
    int64_t perSM = gridThreads(shape, four) / chip.smCount;
    if (perSM >= targets.fourRowsThreadsPerSM)
      return four;
    GemvGeometry fewer = g;
    fewer.rowsPerThread = perSM >= targets.twoRowsThreadsPerSM
                              ? std::min<int64_t>(2, shape.m)
                              : 1;
    fewer = chooseGemvGeometry(shape, chip, fewer, targets);
    // Rows a CTA the caller gave may hold too many threads at fewer rows a
    // thread.
    return threadsPerCta(fewer) <= kMaxCtaThreads ? fewer : four;
  }
  if (!g.lanesPerRow) {
    // Fewer lanes only on launches large enough to be bound by the
    // instructions the idle lanes waste; a small one is bound by each
    // thread's chain, which more steps a lane lengthen.
    int64_t widest = widestLanes(chunks);
    int64_t perSM =
        ceilDiv(shape.m, g.rowsPerThread) * shape.l * widest / chip.smCount;
    g.lanesPerRow = perSM >= targets.fewerLanesThreadsPerSM
                        ? chooseLanesPerRow(chunks, targets)
                        : widest;
  }
  if (!g.loadsInFlight)
    g.loadsInFlight = std::clamp<int64_t>(
        ceilDiv(targets.loadsPerThread, g.rowsPerThread), 1, 8);

  // Split K until the launch has the threads the memory system wants.
  // Slices needed to reach ctaSplitThreadsPerSM may cost a split across
  // CTAs and may be short; those beyond it, up to threadsPerSM, are only
  // worth a split within the CTA into slices of minStepsForExtraSplit steps.
  int64_t rowThreads =
      ceilDiv(shape.m, g.rowsPerThread) * shape.l * g.lanesPerRow;
  auto slicesFor = [&](int64_t threadsPerSM) {
    return std::max<int64_t>(ceilDiv(chip.smCount * threadsPerSM, rowThreads),
                             1);
  };
  int64_t needSlices = slicesFor(targets.ctaSplitThreadsPerSM);
  int64_t wantSlices = slicesFor(targets.threadsPerSM);
  int64_t steps = ceilDiv(chunks, g.lanesPerRow);
  int64_t maxSlices = std::max<int64_t>(steps / targets.minStepsPerSlice, 1);
  int64_t maxInCta = std::max<int64_t>(
      std::min<int64_t>(16, targets.ctaThreads / g.lanesPerRow), 1);
  // On a launch of few warps whose slices would take a thread several
  // rounds of loads, slices it reads in one round count as long: the split
  // shortens each thread's chain of round trips and adds warps.
  bool fewWarpsLongSlices =
      rowThreads < chip.smCount * targets.oneRoundThreadsPerSM &&
      ceilDiv(steps, needSlices) >= targets.minStepsForExtraSplit;
  auto oneRound = [&](int64_t total) {
    return fewWarpsLongSlices &&
           readsInOneRound(g.rowsPerThread, ceilDiv(steps, total), targets);
  };
  if (!g.splitK || !g.ctaSplitK) {
    // Order of preference: reach needSlices (else the most slices there
    // can be); the fewest CTAs per row range; then, within the CTA, the
    // fewest slices that reach wantSlices with long slices, else the most
    // long slices, else the fewest slices.
    auto key = [&](int64_t total, int64_t c) {
      if (total < needSlices)
        return std::make_tuple(1, -total, c, 0, int64_t(0));
      bool longSlices =
          steps >= targets.minStepsForExtraSplit * total || oneRound(total);
      if (longSlices && total >= wantSlices)
        return std::make_tuple(0, c, int64_t(0), 0, total);
      if (longSlices)
        return std::make_tuple(0, c, int64_t(0), 1, -total);
      return std::make_tuple(0, c, int64_t(0), 2, total);
    };
    std::optional<decltype(key(0, 0))> best;
    int64_t givenS = g.splitK, givenC = g.ctaSplitK;
    for (int64_t s = 1; s <= std::max(maxInCta, givenS); s *= 2) {
      if (givenS && s != givenS)
        continue;
      for (int64_t c = 1; c <= std::max(targets.maxCtaSplitK, givenC); ++c) {
        if (givenC ? c != givenC : c > 1 && steps < targets.minStepsForCtaSplit)
          continue;
        int64_t total = s * c;
        if (total > maxSlices ||
            sliceK(rowBytes, g.bytesPerLoad, g.lanesPerRow, total)
                .hasEmptySlice())
          continue;
        if (!best || key(total, c) < *best) {
          best = key(total, c);
          g.splitK = s;
          g.ctaSplitK = c;
        }
      }
    }
    if (!best) { // only what was given, even if it cannot work
      g.splitK = std::max<int64_t>(g.splitK, 1);
      g.ctaSplitK = std::max<int64_t>(g.ctaSplitK, 1);
    }
  }
  if (!g.rowsPerBlock) {
    int64_t perRowGroup = g.lanesPerRow * g.splitK;
    int64_t groups = std::max<int64_t>(targets.ctaThreads / perRowGroup, 1);
    groups = std::min(groups, pow2Ceil(ceilDiv(shape.m, g.rowsPerThread)));
    // A CTA is at least one warp.
    groups = std::max(groups, ceilDiv(32, perRowGroup));
    g.rowsPerBlock = groups * g.rowsPerThread;
  }
  return g;
}

int64_t nvfp4::cost::onePassSteps(const KSlicing &slicing, int64_t lanesPerRow,
                                  int64_t rowsPerThread,
                                  const Targets &targets) {
  int64_t steps = ceilDiv(slicing.sliceChunks, lanesPerRow);
  return slicing.endsInPartialStep(lanesPerRow) &&
                 steps >= targets.minOnePassSteps &&
                 readsInOneRound(rowsPerThread, steps, targets)
             ? steps
             : 0;
}

int64_t nvfp4::cost::threadsPerCta(const GemvGeometry &g) {
  return g.rowsPerBlock / g.rowsPerThread * g.lanesPerRow * g.splitK;
}

int64_t nvfp4::cost::gridThreads(const GemvShape &shape,
                                 const GemvGeometry &g) {
  return ceilDiv(shape.m, g.rowsPerBlock) * shape.l * g.ctaSplitK *
         threadsPerCta(g);
}

int64_t nvfp4::cost::residentGridBudget(int64_t ctas, int64_t ctaThreads,
                                        const ChipInfo &chip,
                                        const Targets &targets) {
  int64_t residentThreads = ceilDiv(ctas, chip.smCount) * ctaThreads;
  if (residentThreads > chip.maxThreadsPerSM)
    return 0;
  // The sub-partition that gets the most warps bounds them all.
  int64_t residentWarps =
      ceilDiv(ctas, chip.smCount) * ceilDiv(ctaThreads, kWarpSize);
  int64_t partitionThreads =
      ceilDiv(residentWarps, kSmSubPartitions) * kWarpSize;
  int64_t budget = chip.registersPerSM / kSmSubPartitions / partitionThreads /
                   kRegisterAllocationUnit * kRegisterAllocationUnit;
  budget = std::min(budget, targets.maxRegisterBudget);
  return budget >= targets.minRegisterBudget ? budget : 0;
}

int64_t nvfp4::cost::chooseRegisterBudget(int64_t ctas, int64_t ctaThreads,
                                          int64_t splitK, int64_t bytesPerLoad,
                                          const ChipInfo &chip,
                                          const Targets &targets) {
  if (int64_t budget = residentGridBudget(ctas, ctaThreads, chip, targets))
    return budget;
  bool shortSlices = splitK >= targets.minSplitForWaveBudget &&
                     bytesPerLoad >= targets.minWaveBudgetBytesPerLoad;
  return shortSlices ? targets.waveRegisterBudget : 0;
}

int64_t nvfp4::cost::chooseMmaRegisterBudget(int64_t ctas, int64_t ctaThreads,
                                             int64_t vectors,
                                             const ChipInfo &chip,
                                             const Targets &targets) {
  int64_t budget = residentGridBudget(ctas, ctaThreads, chip, targets);
  return mmasPerChunk(vectors) == 2 && budget < kMmaTwoMmaLeastBudget ? 0
                                                                      : budget;
}

bool nvfp4::cost::preferNarrowIndex(const GemvShape &shape,
                                    const Targets &targets) {
  return shape.l * shape.m * (shape.k / 2) >= targets.minNarrowIndexBytes;
}

bool nvfp4::cost::preferMma(const GemvShape &shape, int64_t vectors,
                            bool packedB) {
  // The tensor-core kernel's time hardly depends on N; the CUDA-core one's
  // grows with it. Measured on the five shapes of docs/problem.md
  // (docs/benchmarks.md): packed b, the CUDA cores win at N = 2 (1.03-1.36x
  // the one-vector time against 1.08-1.51x), the tensor cores at N = 8;
  // three to seven vectors from a number of rows on
  // (kMmaMinRowsThreeVectors, kMmaMinRowsFourVectors for four and five,
  // kMmaMinRowsSixVectors for six and seven); 16-bit b, the
  // tensor cores from N = 2 on (1.2-5.1x faster at N = 2, 4.4-40x at N =
  // 16). One 16-bit vector, on 18 shapes: the tensor cores take 0.94 (f16)
  // and 0.96 (bf16) of the time on the geometric mean of the 12 from 3072
  // rows (M x L) on (0.84-1.02x, but 1.21-1.32x on 5120 x 2880 x 1),
  // 1.05-1.30x on the six below.
  int64_t rows = shape.m * shape.l;
  if (!packedB)
    return vectors >= 2 || rows >= kMmaMinRowsOneWideVector;
  if (vectors <= 2)
    return false;
  if (vectors == 3)
    return rows >= kMmaMinRowsThreeVectors && shape.k / 2 >= kMmaStepBytes;
  if (vectors <= 5)
    return rows >= kMmaMinRowsFourVectors;
  if (vectors <= 7)
    return rows >= kMmaMinRowsSixVectors;
  return true;
}

MmaSlicing nvfp4::cost::sliceMmaK(int64_t rowBytes, int64_t slices) {
  MmaSlicing s;
  s.steps = ceilDiv(rowBytes, kMmaStepBytes);
  s.fullSteps = rowBytes / kMmaStepBytes;
  s.slices = slices;
  return s;
}

GemvGeometry nvfp4::cost::chooseMmaGeometry(const GemvShape &shape,
                                            const ChipInfo &chip,
                                            int64_t vectors, GemvGeometry g) {
  g.lanesPerRow = kMmaLanesPerRow;
  g.bytesPerLoad = kMmaBytesPerLoad;
  if (!g.loadsInFlight)
    g.loadsInFlight = 1;
  // Warps of rows over the grid's batches.
  auto warpsOfRows = [&](int64_t rowsPerThread) {
    return ceilDiv(shape.m, mmaWarpRows(rowsPerThread)) * shape.l;
  };
  // Two 16-row tiles a warp (4 rows a lane: 64 bytes of a in flight and b
  // decoded once for them) unless that leaves SMs without a warp or one
  // tile a warp fills the busiest SMs' share of the grid enough better.
  if (!g.rowsPerThread) {
    int64_t ctaSlices = std::max<int64_t>(1, g.ctaSplitK);
    int64_t twoTiles = warpsOfRows(4) * ctaSlices;
    bool oneTileFills = waveFill(warpsOfRows(2) * ctaSlices, chip.smCount) >=
                        kMmaOneTileFillGain * waveFill(twoTiles, chip.smCount);
    g.rowsPerThread = mmasPerChunk(vectors) == 2 ||
                              (twoTiles >= chip.smCount && !oneTileFills)
                          ? 4
                          : 2;
  }
  int64_t steps = sliceMmaK(shape.k / 2, 1).steps;
  int64_t warpsPerSm =
      mmasPerChunk(vectors) == 2 ? kMmaTwoMmaWarpsPerSm : kMmaWarpsPerSm;
  if (!g.ctaSplitK) {
    // Split K across CTAs where the rows leave SMs idle, as far as each
    // CTA's part of a row still gives a CTA of warpsPerSm warps two steps
    // each.
    int64_t oneCtaWarps = warpsOfRows(g.rowsPerThread);
    g.ctaSplitK = std::clamp<int64_t>(
        std::min(chip.smCount / oneCtaWarps, steps / (2 * warpsPerSm)), 1,
        kMaxCtaSplitK);
    // Or, for long rows of two tiles a warp that fill the SMs unevenly,
    // where two or four CTAs a row fill the wave enough better; row-major
    // codes only, as timed (kMmaCtaSplitFillGain).
    if (g.ctaSplitK == 1 && oneCtaWarps >= chip.smCount &&
        g.rowsPerThread == 4 && mmasPerChunk(vectors) == 1 &&
        !shape.tiledCodes) {
      double enough =
          kMmaCtaSplitFillGain * waveFill(oneCtaWarps, chip.smCount);
      double best = 0;
      for (int64_t split : {2, 4}) {
        double fill = waveFill(oneCtaWarps * split, chip.smCount);
        if (steps / split >= kMmaCtaSplitMinSteps && fill >= enough &&
            fill > best) {
          g.ctaSplitK = split;
          best = fill;
        }
      }
    }
  }
  // Warps a K slice of the grid (a CTA slice of cta-split-k counts as rows).
  int64_t rowWarps = warpsOfRows(g.rowsPerThread) * g.ctaSplitK;
  if (!g.splitK) {
    // Split K across the warps of a CTA until each SM holds about as many
    // warps as stay resident (the SM with the most row warps counts),
    // keeping two steps a slice and no slice empty.
    int64_t split =
        std::clamp<int64_t>(warpsPerSm / ceilDiv(rowWarps, chip.smCount), 1,
                            kMaxCtaThreads / kWarpSize);
    split = std::min(split, std::max<int64_t>(1, steps / 2 / g.ctaSplitK));
    while (split > 1 &&
           sliceMmaK(shape.k / 2, split * g.ctaSplitK).hasEmptySlice())
      --split;
    g.splitK = split;
  }
  if (!g.rowsPerBlock) {
    // Four warps a CTA where the rows allow.
    int64_t warpRows = mmaWarpRows(g.rowsPerThread);
    int64_t rowWarpsPerCta = std::max<int64_t>(1, 4 / g.splitK);
    rowWarpsPerCta = std::min(rowWarpsPerCta, ceilDiv(shape.m, warpRows));
    g.rowsPerBlock = rowWarpsPerCta * warpRows;
  }
  return g;
}

int64_t nvfp4::cost::gemvBytes(const GemvShape &shape, bool blockedScales,
                               int64_t outputBytes) {
  int64_t cols = shape.k / shape.blockSize;
  int64_t sfa =
      blockedScales ? layout::blockedBatchBytes(shape.m, cols) : shape.m * cols;
  int64_t sfb = blockedScales ? layout::blockedBatchBytes(1, cols) : cols;
  return shape.l * (shape.m * shape.k / 2 + sfa + shape.k / 2 + sfb +
                    shape.m * outputBytes);
}

double nvfp4::cost::readOnceMicros(const ChipInfo &chip, int64_t bytes) {
  return chip.fixedMicros + double(bytes) / chip.bytesPerMicro;
}
