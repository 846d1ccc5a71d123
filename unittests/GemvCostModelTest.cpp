//===- GemvCostModelTest.cpp - per-shape GEMV kernel geometry -------------===//
//
// The cost model must give every shape a launch that can work (a legal CTA,
// every chunk of K in exactly one slice, no empty slice) and that uses the
// GPU: a row of any K gets a full warp when it has 32 loads, and small M is
// spread over CTAs by splitting K.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/GemvCostModel.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace nvfp4;
using namespace nvfp4::cost;

namespace {

const ChipInfo &h200() { return *findChip("sm_90a"); }

/// Every chunk of a row lies in exactly one slice, and no slice is empty.
void expectSlicesCover(int64_t rowBytes, const GemvGeometry &g) {
  KSlicing s =
      sliceK(rowBytes, g.bytesPerLoad, g.lanesPerRow, g.splitK * g.ctaSplitK);
  EXPECT_FALSE(s.hasEmptySlice());
  EXPECT_EQ(s.sliceChunks % g.lanesPerRow, 0);
  std::vector<int> seen(s.chunks, 0);
  for (int64_t j = 0; j < s.slices; ++j)
    for (int64_t c = j * s.sliceChunks;
         c < std::min((j + 1) * s.sliceChunks, s.chunks); ++c)
      ++seen[c];
  for (int64_t c = 0; c < s.chunks; ++c)
    ASSERT_EQ(seen[c], 1) << "chunk " << c;
}

void expectLegal(const GemvShape &shape, const GemvGeometry &g) {
  SCOPED_TRACE(::testing::Message()
               << shape.m << "x" << shape.k << "x" << shape.l);
  int64_t rowBytes = shape.k / 2;
  EXPECT_TRUE(g.bytesPerLoad == 8 || g.bytesPerLoad == 16);
  EXPECT_EQ(rowBytes % g.bytesPerLoad, 0);
  EXPECT_GE(g.lanesPerRow, 1);
  EXPECT_LE(g.lanesPerRow, 32);
  EXPECT_EQ(g.lanesPerRow & (g.lanesPerRow - 1), 0);
  EXPECT_GE(g.rowsPerThread, 1);
  EXPECT_LE(g.rowsPerThread, 8);
  EXPECT_GE(g.loadsInFlight, 1);
  EXPECT_LE(g.loadsInFlight, 8);
  EXPECT_EQ(g.rowsPerBlock % g.rowsPerThread, 0);
  EXPECT_EQ(threadsPerCta(g) % 32, 0);
  EXPECT_GE(threadsPerCta(g), 32);
  EXPECT_LE(threadsPerCta(g), 1024);
  EXPECT_GE(g.ctaSplitK, 1);
  EXPECT_LE(g.ctaSplitK, 64);
  expectSlicesCover(rowBytes, g);
}

/// M log-uniform in 1..32768, K a multiple of 16 log-uniform up to about
/// 32768, L in 1..8.
GemvShape randomShape(std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int64_t m = std::max<int64_t>(1, int64_t(std::exp(unit(rng) * 10.4)));
  int64_t k = 16 * std::max<int64_t>(1, int64_t(std::exp(unit(rng) * 7.6)));
  int64_t l = 1 + int64_t(unit(rng) * 8);
  return {m, k, l, 16};
}

TEST(GemvCostModel, EveryRandomShapeGetsALegalGeometry) {
  unsigned seed = 20261130;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    GemvShape shape = randomShape(rng);
    int64_t m = shape.m, k = shape.k, l = shape.l;
    expectLegal(shape, chooseGemvGeometry(shape, h200(), {}));
    if (k % 32 == 0) {
      GemvShape mx{m, k, l, 32};
      expectLegal(mx, chooseGemvGeometry(mx, h200(), {}));
    }
  }
  SUCCEED() << "seed " << seed;
}

TEST(GemvCostModel, RowsOfAnyKGetAWholeWarp) {
  // K = 2880: 1440 bytes, 90 loads of 16 bytes. Lanes once had to divide
  // the row and got 2.
  GemvGeometry g = chooseGemvGeometry({5120, 2880, 1, 16}, h200(), {});
  EXPECT_EQ(g.lanesPerRow, 32);
  EXPECT_EQ(g.bytesPerLoad, 16);
  // K = 16 * odd: rows are only 8-byte aligned.
  g = chooseGemvGeometry({4096, 4112, 1, 16}, h200(), {});
  EXPECT_EQ(g.bytesPerLoad, 8);
  EXPECT_EQ(g.lanesPerRow, 32);
  // A row of 2 loads cannot use more than 2 lanes.
  g = chooseGemvGeometry({4096, 64, 1, 16}, h200(), {});
  EXPECT_EQ(g.lanesPerRow, 2);
}

TEST(GemvCostModel, FewerLanesWhereTheLastStepLeavesManyIdle) {
  // 48 loads a row: 32 lanes fill 48 of 64 slots, 16 lanes all 48.
  EXPECT_EQ(chooseLanesPerRow(48), 16);
  // 103: 16 lanes fill 103 of 112 slots, 32 of 128: an eighth saved.
  EXPECT_EQ(chooseLanesPerRow(103), 16);
  // 90 (K = 2880): 96 slots with 32 lanes or 16; 168: 192 or 176, less
  // than an eighth.
  EXPECT_EQ(chooseLanesPerRow(90), 32);
  EXPECT_EQ(chooseLanesPerRow(168), 32);
  // 21: 16 lanes (21 of 32) is all a row of 21 loads gets; 8 lanes (24
  // slots) are under the minimum.
  EXPECT_EQ(chooseLanesPerRow(21), 16);
  EXPECT_EQ(chooseLanesPerRow(5), 4);
  // The minimum and the saving are targets: 8 lanes take 21 (24 slots)
  // and 53 (56 of 64); a quarter keeps 53 on a warp but not 48.
  Targets eight;
  eight.minLanesPerRow = 8;
  EXPECT_EQ(chooseLanesPerRow(21, eight), 8);
  EXPECT_EQ(chooseLanesPerRow(53, eight), 8);
  Targets quarter = eight;
  quarter.idleLaneSlotsDenominator = 4;
  EXPECT_EQ(chooseLanesPerRow(53, quarter), 32);
  EXPECT_EQ(chooseLanesPerRow(48, quarter), 16);
}

TEST(GemvCostModel, FewerLanesOnlyOnLargeLaunches) {
  // DeepSeek V3 q_b, K = 1536 (48 loads a row): 6144 row groups of a warp,
  // 1489 threads an SM.
  EXPECT_EQ(chooseGemvGeometry({24576, 1536, 1, 16}, h200(), {}).lanesPerRow,
            16);
  // The same rows on 4096 rows: under 1024 threads an SM, a warp a row.
  EXPECT_EQ(chooseGemvGeometry({4096, 1536, 1, 16}, h200(), {}).lanesPerRow,
            32);
  Targets any;
  any.fewerLanesThreadsPerSM = 0;
  EXPECT_EQ(
      chooseGemvGeometry({4096, 1536, 1, 16}, h200(), {}, any).lanesPerRow, 16);
  // Given lanes stay.
  GemvGeometry given;
  given.lanesPerRow = 32;
  EXPECT_EQ(chooseGemvGeometry({24576, 1536, 1, 16}, h200(), given).lanesPerRow,
            32);
}

TEST(GemvCostModel, SmallMWithLongRowsSplitsKAcrossCtas) {
  // 19 x 13840 x 6: 30 row groups for 132 SMs and rows of 14 steps: K is
  // split across CTAs until the launch has the threads the memory system
  // wants (or every slice is one step).
  GemvShape shape{19, 13840, 6, 16};
  GemvGeometry g = chooseGemvGeometry(shape, h200(), {});
  int64_t ctas = (19 + g.rowsPerBlock - 1) / g.rowsPerBlock * 6 * g.ctaSplitK;
  EXPECT_GT(g.ctaSplitK, 1);
  EXPECT_GE(ctas * threadsPerCta(g), 5 * 6 * 32 * 4);
}

TEST(GemvCostModel, SmallMWithShortRowsSplitsKWithinTheCta) {
  // 576 x 7168: 144 warps for 132 SMs, but rows of 7 steps are read by the
  // CTA's own slices sooner than partials could go through global memory.
  GemvGeometry g = chooseGemvGeometry({576, 7168, 1, 16}, h200(), {});
  EXPECT_EQ(g.ctaSplitK, 1);
  EXPECT_EQ(g.splitK, 4);
  // 11 steps a row: still within the CTA; 12: across CTAs as well.
  EXPECT_EQ(chooseGemvGeometry({16, 11264, 1, 16}, h200(), {}).ctaSplitK, 1);
  EXPECT_GT(chooseGemvGeometry({16, 12288, 1, 16}, h200(), {}).ctaSplitK, 1);
}

TEST(GemvCostModel, CtaSplitStaysWithinMaxCtaSplitK) {
  // One row of K = 32768 read by 2 lanes: 512 steps, so only the bound on
  // the CTAs (a portable cluster's 8 where the partials meet in a cluster)
  // stops the split across CTAs.
  GemvGeometry twoLanes;
  twoLanes.lanesPerRow = 2;
  Targets cluster;
  cluster.maxCtaSplitK = 8;
  EXPECT_EQ(chooseGemvGeometry({1, 32768, 1, 16}, h200(), twoLanes, cluster)
                .ctaSplitK,
            8);
  EXPECT_GT(chooseGemvGeometry({1, 32768, 1, 16}, h200(), twoLanes).ctaSplitK,
            8);
  // A given split is kept even past the bound (the caller checks it).
  GemvGeometry given = twoLanes;
  given.ctaSplitK = 12;
  EXPECT_EQ(
      chooseGemvGeometry({1, 32768, 1, 16}, h200(), given, cluster).ctaSplitK,
      12);
}

TEST(GemvCostModel, OnePassForFewLoadsWithAPartialStep) {
  // K = 2880: 90 loads a row, 32 lanes: 2 whole steps and a partial one.
  // Two slices of 45 loads: 2 steps each, the second partial in both:
  // 8 loads at 4 rows a thread.
  KSlicing two = sliceK(1440, 16, 32, 2);
  EXPECT_EQ(onePassSteps(two, 32, 4), 2);
  // Fewer rows a thread (small launches) keep the partial step apart.
  EXPECT_EQ(onePassSteps(two, 32, 2), 0);
  // 3 steps at 4 rows: 12 loads.
  EXPECT_EQ(onePassSteps(sliceK(1440, 16, 32, 1), 32, 4), 0);
  // A lone partial step (3 slices of 30 loads): nothing follows a whole one.
  EXPECT_EQ(onePassSteps(sliceK(1440, 16, 32, 3), 32, 4), 0);
  // K = 4096: 128 loads in 2 slices of 2 whole steps: nothing to gain.
  EXPECT_EQ(onePassSteps(sliceK(2048, 16, 32, 2), 32, 4), 0);
  // Whole steps in the row but not in every slice (3 slices of 2 steps,
  // the last one short).
  EXPECT_EQ(onePassSteps(sliceK(2560, 16, 32, 3), 32, 4), 2);
  Targets wider;
  wider.minOnePassRows = 1;
  wider.maxOnePassLoads = 12;
  EXPECT_EQ(onePassSteps(two, 32, 2, wider), 2);
  EXPECT_EQ(onePassSteps(sliceK(1440, 16, 32, 1), 32, 4, wider), 3);
}

TEST(GemvCostModel, LargeShapesAreNotSplit) {
  GemvGeometry g = chooseGemvGeometry({4096, 7168, 8, 16}, h200(), {});
  EXPECT_EQ(g.splitK * g.ctaSplitK, 1);
  EXPECT_EQ(g.rowsPerThread, 4);
}

TEST(GemvCostModel, LongRowsSplitWithinTheCta) {
  // 1792 row groups of 32 lanes are a quarter of SMs x 1024 threads: K is
  // split within the CTA (16 steps a lane, 4 a slice), not across CTAs.
  GemvGeometry g = chooseGemvGeometry({7168, 16384, 1, 16}, h200(), {});
  EXPECT_EQ(g.splitK, 4);
  EXPECT_EQ(g.ctaSplitK, 1);
}

TEST(GemvCostModel, ShortRowsWithEnoughThreadsAreNotSplit) {
  // 5120 x 2880: 3 steps a lane and 1280 row groups, above the threads a
  // CTA split needs; a split would only add slices shorter than 4 steps.
  GemvGeometry g = chooseGemvGeometry({5120, 2880, 1, 16}, h200(), {});
  EXPECT_EQ(g.splitK * g.ctaSplitK, 1);
}

TEST(GemvCostModel, ExtraSplitIntoOneRoundSlices) {
  // 4096 x 7168: 7 steps a lane, 1024 row groups (248 threads an SM): the
  // 2 slices the launch needs take a thread 4 rounds of loads; 4 slices
  // of 2 steps (4 rows x 2 loads a thread) take one.
  GemvGeometry g = chooseGemvGeometry({4096, 7168, 1, 16}, h200(), {});
  EXPECT_EQ(g.rowsPerThread, 4);
  EXPECT_EQ(g.splitK, 4);
  EXPECT_EQ(g.ctaSplitK, 1);
  // 4608 x 3584: 4 steps, 1152 row groups, no split needed: 4 slices.
  EXPECT_EQ(chooseGemvGeometry({4608, 3584, 1, 16}, h200(), {}).splitK, 4);
  // 8192 x 3584: the same rows on 496 threads an SM: not split.
  EXPECT_EQ(chooseGemvGeometry({8192, 3584, 1, 16}, h200(), {}).splitK, 1);
  // 4096 x 4096: the 2 slices needed are 2 steps long already.
  EXPECT_EQ(chooseGemvGeometry({4096, 4096, 1, 16}, h200(), {}).splitK, 2);
  // 5120 x 2880: 3 steps, fewer than minStepsForExtraSplit.
  EXPECT_EQ(chooseGemvGeometry({5120, 2880, 1, 16}, h200(), {}).splitK, 1);
  Targets never;
  never.oneRoundThreadsPerSM = 0;
  EXPECT_EQ(chooseGemvGeometry({4096, 7168, 1, 16}, h200(), {}, never).splitK,
            2);
  EXPECT_EQ(chooseGemvGeometry({4608, 3584, 1, 16}, h200(), {}, never).splitK,
            1);
}

TEST(GemvCostModel, RegisterBudgetKeepsTheGridResident) {
  // 4608 x 3584 x 1: 1152 CTAs of 128 threads, 9 an SM: 65536 / 1152
  // registers a thread, down to a multiple of 8.
  EXPECT_EQ(residentGridBudget(1152, 128, h200()), 56);
  EXPECT_EQ(residentGridBudget(132 * 5, 128, h200()), 96);
  // Small launches: at most 128.
  EXPECT_EQ(residentGridBudget(36, 128, h200()), 128);
  EXPECT_EQ(residentGridBudget(1, 1024, h200()), 64);
  // Warps an SM that its 4 sub-partitions cannot share evenly: 2 CTAs of
  // 11 warps give 6 to two of them, 16384 / (6 x 32) = 85 registers;
  // 7 CTAs of 3 warps likewise (not 65536 / 672 = 97).
  EXPECT_EQ(residentGridBudget(160, 352, h200()), 80);
  EXPECT_EQ(residentGridBudget(896, 96, h200()), 80);
  // 9 CTAs an SM: 56; 10 leave 51 registers, under the 56 a budget needs.
  EXPECT_EQ(residentGridBudget(132 * 9, 128, h200()), 56);
  EXPECT_EQ(residentGridBudget(132 * 9 + 1, 128, h200()), 0);
  // More than one wave of threads: none.
  EXPECT_EQ(residentGridBudget(132 * 17, 128, h200()), 0);
  // The bounds are the targets'.
  Targets wide;
  wide.maxRegisterBudget = 255;
  wide.minRegisterBudget = 24;
  EXPECT_EQ(residentGridBudget(36, 128, h200(), wide), 255);
  EXPECT_EQ(residentGridBudget(132 * 10, 128, h200(), wide), 48);
  // The CUDA-core kernel's budget is the resident grid's where there is one.
  EXPECT_EQ(chooseRegisterBudget(1152, 128, 4, 16, h200()), 56);
  EXPECT_EQ(chooseRegisterBudget(132 * 5, 128, 1, 8, h200()), 96);
}

TEST(GemvCostModel, MmaRegisterBudgetLeavesTwoMmasRoom) {
  // 1002 CTAs of 128 threads, 8 an SM: 64 registers, the resident grid's
  // for up to eight vectors; none for more (two MMAs need 96).
  EXPECT_EQ(chooseMmaRegisterBudget(1002, 128, 8, h200()), 64);
  EXPECT_EQ(chooseMmaRegisterBudget(1002, 128, 1, h200()), 64);
  EXPECT_EQ(chooseMmaRegisterBudget(1002, 128, 9, h200()), 0);
  EXPECT_EQ(chooseMmaRegisterBudget(1002, 128, 16, h200()), 0);
  // 96 and more stand for two MMAs; no resident grid stays none.
  EXPECT_EQ(chooseMmaRegisterBudget(132 * 5, 128, 16, h200()), 96);
  EXPECT_EQ(chooseMmaRegisterBudget(36, 128, 16, h200()), 128);
  EXPECT_EQ(chooseMmaRegisterBudget(132 * 17, 128, 16, h200()), 0);
}

TEST(GemvCostModel, UnresidentGridsBudgetOnlyShortSlices) {
  // 5376 x 4096 x 1: 1344 CTAs whose 4 warps split K into 16-byte loads:
  // no budget keeps them resident, the split still gets the wave budget;
  // 2 slices, or 8-byte loads (64-80 registers of their own), do not.
  EXPECT_EQ(chooseRegisterBudget(1344, 128, 4, 16, h200()), 64);
  EXPECT_EQ(chooseRegisterBudget(1344, 128, 2, 16, h200()), 0);
  EXPECT_EQ(chooseRegisterBudget(1344, 128, 4, 8, h200()), 0);
  EXPECT_EQ(residentGridBudget(1344, 128, h200()), 0);
  // Beyond one wave of threads likewise.
  EXPECT_EQ(chooseRegisterBudget(132 * 17, 128, 8, 16, h200()), 64);
  Targets other;
  other.minSplitForWaveBudget = 2;
  other.minWaveBudgetBytesPerLoad = 8;
  other.waveRegisterBudget = 72;
  EXPECT_EQ(chooseRegisterBudget(1344, 128, 2, 8, h200(), other), 72);
}

TEST(GemvCostModel, SmallLaunchesTakeFewerRowsAThread) {
  // 16 x 7776 x 1 at four rows a thread: 4 CTAs of 128 threads for 132 SMs,
  // each thread decoding 8 loads in turn; one row a thread gives 16 CTAs.
  GemvShape tiny{16, 7776, 1, 16};
  GemvGeometry g = chooseGemvGeometry(tiny, h200(), {});
  EXPECT_EQ(g.rowsPerThread, 1);
  EXPECT_EQ(gridThreads(tiny, g), 16 * 4 * 32);
  // 576 x 7168 x 1: 140 threads an SM at four rows, two rows a thread.
  EXPECT_EQ(chooseGemvGeometry({576, 7168, 1, 16}, h200(), {}).rowsPerThread,
            2);
  // 3072 x 3072 x 1: 372 threads an SM, enough for four rows.
  EXPECT_EQ(chooseGemvGeometry({3072, 3072, 1, 16}, h200(), {}).rowsPerThread,
            4);
  // The thresholds are the model's: with none, four rows everywhere.
  Targets always4;
  always4.fourRowsThreadsPerSM = 0;
  EXPECT_EQ(chooseGemvGeometry(tiny, h200(), {}, always4).rowsPerThread, 4);
  // 16 rows a CTA given: one row a thread would need 2048 threads a CTA
  // (K split 4 ways in it), so four rows stay.
  GemvGeometry req;
  req.rowsPerBlock = 16;
  g = chooseGemvGeometry(tiny, h200(), req);
  EXPECT_EQ(g.rowsPerThread, 4);
  expectLegal(tiny, g);
  // 4 rows a CTA given: one row a thread fits (512 threads).
  req.rowsPerBlock = 4;
  g = chooseGemvGeometry(tiny, h200(), req);
  EXPECT_EQ(g.rowsPerThread, 1);
  expectLegal(tiny, g);
}

TEST(GemvCostModel, GivenFieldsAreKept) {
  GemvGeometry req;
  req.rowsPerThread = 2;
  req.lanesPerRow = 8;
  req.splitK = 2;
  req.ctaSplitK = 3;
  req.loadsInFlight = 5;
  GemvGeometry g = chooseGemvGeometry({1000, 8192, 2, 16}, h200(), req);
  EXPECT_EQ(g.rowsPerThread, 2);
  EXPECT_EQ(g.lanesPerRow, 8);
  EXPECT_EQ(g.splitK, 2);
  EXPECT_EQ(g.ctaSplitK, 3);
  EXPECT_EQ(g.loadsInFlight, 5);
}

/// A tensor-core geometry the kernel accepts: 2, 4 or 8 rows a lane, whole
/// warps a CTA (at most 32), every 64-byte step of a row in one slice.
void expectLegalMma(const GemvShape &shape, const GemvGeometry &g) {
  SCOPED_TRACE(testing::Message()
               << shape.m << "x" << shape.k << "x" << shape.l);
  EXPECT_TRUE(g.rowsPerThread == 2 || g.rowsPerThread == 4 ||
              g.rowsPerThread == 8);
  EXPECT_EQ(g.lanesPerRow, kMmaLanesPerRow);
  EXPECT_EQ(g.bytesPerLoad, kMmaBytesPerLoad);
  EXPECT_GE(g.ctaSplitK, 1);
  EXPECT_LE(g.ctaSplitK, kMaxCtaSplitK);
  EXPECT_EQ(g.rowsPerBlock % (8 * g.rowsPerThread), 0);
  EXPECT_EQ(threadsPerCta(g) % 32, 0);
  EXPECT_LE(threadsPerCta(g), 1024);
  MmaSlicing s = sliceMmaK(shape.k / 2, g.splitK * g.ctaSplitK);
  EXPECT_FALSE(s.hasEmptySlice());
  // Slices cover the row and differ by at most one step.
  EXPECT_EQ(s.firstStep(0), 0);
  EXPECT_EQ(s.firstStep(s.slices), s.steps);
  for (int64_t i = 0; i < s.slices; ++i) {
    int64_t size = s.firstStep(i + 1) - s.firstStep(i);
    EXPECT_GE(size, s.steps / s.slices);
    EXPECT_LE(size, (s.steps + s.slices - 1) / s.slices);
  }
}

TEST(GemvCostModel, EveryRandomShapeGetsALegalMmaGeometry) {
  unsigned seed = 20261201;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    GemvShape shape = randomShape(rng);
    int64_t n = 1 + int64_t(rng() % 16);
    expectLegalMma(shape, chooseMmaGeometry(shape, h200(), n, {}));
  }
  SUCCEED() << "seed " << seed;
}

TEST(GemvCostModel, NarrowIndexFromThirtyTwoMebibytesOfA) {
  // a holds L x M x K / 2 bytes.
  EXPECT_TRUE(preferNarrowIndex({8192, 8192, 1, 16}));   // 32 MiB
  EXPECT_FALSE(preferNarrowIndex({8191, 8192, 1, 16}));  // just under
  EXPECT_TRUE(preferNarrowIndex({4096, 2048, 8, 16}));   // 32 MiB in 8 batches
  EXPECT_FALSE(preferNarrowIndex({16384, 2048, 1, 32})); // 16 MiB
  Targets lower;
  lower.minNarrowIndexBytes = 1;
  EXPECT_TRUE(preferNarrowIndex({1, 16, 1, 16}, lower));
}

TEST(GemvCostModel, MmaSlicesAndTails) {
  // K = 80: 40 bytes, no whole step; K = 1040: 8 whole steps and 8 bytes.
  MmaSlicing s = sliceMmaK(40, 1);
  EXPECT_EQ(s.steps, 1);
  EXPECT_EQ(s.fullSteps, 0);
  EXPECT_TRUE(s.hasTail());
  s = sliceMmaK(520, 5);
  EXPECT_EQ(s.steps, 9);
  EXPECT_EQ(s.fullSteps, 8);
  EXPECT_FALSE(s.hasEmptySlice());
  EXPECT_EQ(s.firstStep(1), 1);
  // 9 steps in 5 slices: 1, 2, 2, 2, 2 (the last with the partial step).
  std::vector<int64_t> sizes;
  for (int64_t i = 0; i < s.slices; ++i)
    sizes.push_back(s.firstStep(i + 1) - s.firstStep(i));
  EXPECT_EQ(sizes, (std::vector<int64_t>{1, 2, 2, 2, 2}));
  EXPECT_EQ(s.firstStep(s.slices), s.steps);
  EXPECT_FALSE(sliceMmaK(520, 8).hasEmptySlice()); // 1 or 2 steps a slice
  EXPECT_FALSE(sliceMmaK(520, 9).hasEmptySlice());
  EXPECT_TRUE(sliceMmaK(520, 10).hasEmptySlice());
  EXPECT_FALSE(sliceMmaK(8192, 16).hasTail());
}

TEST(GemvCostModel, LongMmaSlicesInterleave) {
  // 7168 x 16384 in 14 slices: 128 whole steps, 9.1 a slice.
  EXPECT_TRUE(sliceMmaK(8192, 14).interleaved());
  // From kMmaInterleaveMinSteps whole steps a slice on, not one step less.
  int64_t steps = kMmaInterleaveMinSteps * 3;
  EXPECT_TRUE(sliceMmaK(steps * kMmaStepBytes, 3).interleaved());
  EXPECT_FALSE(sliceMmaK(steps * kMmaStepBytes - 1, 3).interleaved());
  // 256 x 7168 in 28 slices: 2 steps a slice stay contiguous; one slice
  // has nothing to interleave with.
  EXPECT_FALSE(sliceMmaK(3584, 28).interleaved());
  EXPECT_FALSE(sliceMmaK(8192, 1).interleaved());
}

TEST(GemvCostModel, MmaSpreadsSmallMOverTheSms) {
  // 4096 x 7168: 128 warps of 32 rows, far below 16 an SM: K is split.
  GemvGeometry g = chooseMmaGeometry({4096, 7168, 1, 16}, h200(), 8, {});
  int64_t warps =
      (4096 + 8 * g.rowsPerThread - 1) / (8 * g.rowsPerThread) * g.splitK;
  EXPECT_GE(warps, h200().smCount * 8);
  // Many rows need no split.
  g = chooseMmaGeometry({65536, 4096, 4, 16}, h200(), 8, {});
  EXPECT_EQ(g.splitK, 1);
  // Given fields are kept.
  GemvGeometry req;
  req.rowsPerThread = 8;
  req.splitK = 3;
  g = chooseMmaGeometry({4096, 7168, 1, 16}, h200(), 2, req);
  EXPECT_EQ(g.rowsPerThread, 8);
  EXPECT_EQ(g.splitK, 3);
}

TEST(GemvCostModel, MmaGeometryFillsTheSms) {
  // One tile a warp where it fills the wave (waveFill of the row warps)
  // kMmaOneTileFillGain times as well as two (N <= 8); K across CTAs where
  // the row warps leave SMs idle, as long as a CTA of kMmaWarpsPerSm warps
  // gets two steps each, or where two or four CTAs a long row fill the wave
  // kMmaCtaSplitFillGain times as well; then K across a CTA's warps: the SM
  // with the most row warps (ceil(row warps / SMs)) times the split, at most
  // kMmaWarpsPerSm (28) with one MMA, 20 with two.
  struct Case {
    GemvShape shape;
    int64_t vectors, rowsPerThread, ctaSplitK, splitK;
  };
  for (const Case &c : {
           // 896 warps of 32 rows: 7 an SM, 4 slices of 4 steps.
           Case{{7168, 2048, 4, 16}, 8, 4, 1, 4},
           // 256 warps of 16 rows: 2 an SM, 14 slices of 4 steps.
           Case{{4096, 7168, 1, 16}, 8, 2, 1, 14},
           // 224 warps against 448 of one tile: 0.85 of the wave either
           // way; 128 steps: four CTAs a row fill 0.97 of it (896 warps, 7
           // an SM), 1.14x; 4 slices of 8 steps.
           Case{{7168, 16384, 1, 16}, 4, 4, 4, 4},
           // Two MMAs (N > 8): one CTA a row, 20 warps an SM, 10 slices.
           Case{{7168, 16384, 1, 16}, 16, 4, 1, 10},
           // 168 warps of two tiles fill 0.64 of the wave, 336 of one
           // 0.85: one tile, and so one CTA a row.
           Case{{5376, 21504, 1, 16}, 8, 2, 1, 9},
           // 256 warps fill 0.97 already.
           Case{{8192, 29568, 1, 16}, 8, 4, 1, 14},
           // One tile a warp (224 warps, 0.85) keeps one CTA a row: the
           // split across CTAs was timed at two tiles only.
           Case{{3584, 14336, 1, 16}, 8, 2, 1, 14},
           // 1024 warps: 8 an SM, 3 slices.
           Case{{4096, 7168, 8, 16}, 8, 4, 1, 3},
           // 16 steps: two a slice at most 8 slices.
           Case{{7168, 2048, 1, 16}, 8, 4, 1, 8},
           // 160 warps of two tiles fill 0.61 of a two-SM wave, 320 of one
           // fill 0.81 of a three-SM one: 1.33x; 9 slices.
           Case{{5120, 2880, 1, 16}, 8, 2, 1, 9},
           // Two MMAs keep two tiles.
           Case{{5120, 2880, 1, 16}, 16, 4, 1, 10},
           // 320 against 640 warps: 0.81 -> 0.97, 1.20x.
           Case{{10240, 8192, 1, 16}, 4, 2, 1, 5},
           // 448 against 896: 0.85 -> 0.97, 1.14x: under the one-tile
           // gain; 32 steps are too few for two CTAs a row.
           Case{{14336, 4096, 1, 16}, 8, 4, 1, 7},
           // 21 warps of rows, 155 steps: 2 CTAs of 28 warps a row.
           Case{{333, 19728, 1, 16}, 8, 2, 2, 28},
           // 4 warps of rows, 252 steps: 4 CTAs a row; 6 of 20 warps with
           // two MMAs.
           Case{{2, 32192, 4, 16}, 8, 2, 4, 28},
           Case{{2, 32192, 4, 16}, 16, 4, 6, 20},
           // 44 warps of rows: at most 3 CTAs a row fit the SMs.
           Case{{172, 30976, 4, 16}, 8, 2, 3, 28},
           // 112 steps give two CTAs 56 each, 111 do not.
           Case{{16, 14336, 1, 16}, 8, 2, 2, 28},
           Case{{16, 14208, 1, 16}, 8, 2, 1, 28},
       }) {
    SCOPED_TRACE(testing::Message() << c.shape.m << "x" << c.shape.k << "x"
                                    << c.shape.l << " n" << c.vectors);
    GemvGeometry g = chooseMmaGeometry(c.shape, h200(), c.vectors, {});
    EXPECT_EQ(g.rowsPerThread, c.rowsPerThread);
    EXPECT_EQ(g.ctaSplitK, c.ctaSplitK);
    EXPECT_EQ(g.splitK, c.splitK);
    EXPECT_FALSE(
        sliceMmaK(c.shape.k / 2, g.splitK * g.ctaSplitK).hasEmptySlice());
  }
  EXPECT_DOUBLE_EQ(waveFill(264, 132), 1.0);
  EXPECT_DOUBLE_EQ(waveFill(160, 132), 160.0 / 264);
  EXPECT_DOUBLE_EQ(waveFill(66, 132), 0.5);
  GemvGeometry req;
  req.ctaSplitK = 1;
  EXPECT_EQ(chooseMmaGeometry({333, 19728, 1, 16}, h200(), 8, req).ctaSplitK,
            1);
  // Long rows that fill the SMs unevenly: four CTAs a row for row-major
  // codes, one for tiled ones (timed slower split).
  for (int64_t n : {1, 8}) {
    EXPECT_EQ(chooseMmaGeometry({7168, 16384, 1, 16}, h200(), n, {}).ctaSplitK,
              4);
    EXPECT_EQ(
        chooseMmaGeometry({7168, 16384, 1, 16, true}, h200(), n, {}).ctaSplitK,
        1);
  }
}

TEST(GemvCostModel, MmaIsTheDefaultForSeveralVectors) {
  const GemvShape large{7168, 16384, 1, 16}, small{1024, 4096, 2, 16};
  for (const GemvShape &shape : {large, small}) {
    EXPECT_FALSE(preferMma(shape, 1, true));
    EXPECT_FALSE(preferMma(shape, 2, true));
    EXPECT_TRUE(preferMma(shape, 4, true));
    EXPECT_TRUE(preferMma(shape, 5, true));
    EXPECT_TRUE(preferMma(shape, 16, true));
    // 16-bit b: from two vectors on.
    EXPECT_TRUE(preferMma(shape, 2, false));
    EXPECT_TRUE(preferMma(shape, 16, false));
  }
  // One 16-bit vector: from kMmaMinRowsOneWideVector rows (M x L) on.
  EXPECT_TRUE(preferMma(large, 1, false));
  EXPECT_FALSE(preferMma(small, 1, false));
  EXPECT_TRUE(preferMma({1024, 4096, 3, 16}, 1, false));
  EXPECT_FALSE(preferMma({3071, 4096, 1, 16}, 1, false));
}

TEST(GemvCostModel, FewPackedVectorsTakeMmaFromEnoughRows) {
  // Three vectors from kMmaMinRowsThreeVectors rows (M x L) on, four and
  // five from kMmaMinRowsFourVectors, six and seven from
  // kMmaMinRowsSixVectors; eight and more on any number of rows.
  EXPECT_TRUE(preferMma({3072, 3072, 1, 16}, 3, true));
  EXPECT_TRUE(preferMma({1536, 1536, 2, 16}, 3, true));
  EXPECT_FALSE(preferMma({3071, 3072, 1, 16}, 3, true));
  EXPECT_FALSE(preferMma({2048, 8192, 1, 16}, 3, true));
  // Three vectors need a whole 64-byte step a row.
  EXPECT_TRUE(preferMma({9882, 128, 1, 16}, 3, true));
  EXPECT_FALSE(preferMma({9882, 112, 1, 16}, 3, true));
  EXPECT_TRUE(preferMma({2048, 8192, 1, 16}, 4, true));
  EXPECT_TRUE(preferMma({1024, 4096, 2, 16}, 4, true));
  EXPECT_FALSE(preferMma({2047, 4096, 1, 16}, 4, true));
  EXPECT_FALSE(preferMma({256, 7168, 1, 16}, 4, true));
  EXPECT_FALSE(preferMma({256, 7168, 1, 16}, 5, true));
  EXPECT_TRUE(preferMma({1024, 4096, 2, 16}, 5, true));
  EXPECT_FALSE(preferMma({2047, 4096, 1, 16}, 5, true));
  EXPECT_TRUE(preferMma({384, 7168, 2, 16}, 6, true));
  EXPECT_TRUE(preferMma({768, 4096, 1, 16}, 7, true));
  EXPECT_FALSE(preferMma({767, 4096, 1, 16}, 7, true));
  EXPECT_FALSE(preferMma({256, 7168, 1, 16}, 6, true));
  EXPECT_TRUE(preferMma({256, 7168, 1, 16}, 8, true));
  EXPECT_TRUE(preferMma({1, 64, 1, 16}, 8, true));
  EXPECT_FALSE(preferMma({32768, 7168, 1, 16}, 2, true));
}

TEST(GemvCostModel, BytesAndCeiling) {
  // docs/problem.md: 7168 x 16384 x 1 moves 66.1 MB (linear, f16 out).
  GemvShape shape{7168, 16384, 1, 16};
  int64_t bytes = gemvBytes(shape, /*blockedScales=*/false, 2);
  EXPECT_EQ(bytes, 7168 * 8192 + 7168 * 1024 + 8192 + 1024 + 7168 * 2);
  // Blocked scales are padded to whole 128 x 4 atoms.
  EXPECT_EQ(gemvBytes({130, 64, 1, 16}, true, 2) -
                gemvBytes({130, 64, 1, 16}, false, 2),
            (256 * 4 - 130 * 4) + (128 * 4 - 4));
  EXPECT_NEAR(readOnceMicros(h200(), 4600000), 3.9 + 1.0, 1e-9);
}

} // namespace
