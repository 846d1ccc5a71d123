//===- Tcgen05LoweringTest.cpp - the tcgen05 GEMV kernel's arithmetic -----===//
//
// The tcgen05 lowering (lib/Conversion/NVFP4ToTcgen05) takes every address,
// descriptor, TMEM column and pipeline slot from Tcgen05Plan.h, whose index
// formulas are templates: the lowering instantiates them with IR values, this
// test with int64_t. Besides checking the plan against the typed encoders of
// Tcgen05Descriptors.h and ScaleLayout.h, the test runs the kernel's whole
// data movement on the host (KernelModel): the zeroing of the stage ring, every
// thread's cp.async (with its zero-fill) or byte copy, the pipeline's order of
// copies, MMAs and mbarrier waits, tcgen05.cp.32x128b.warpx4 driven by the
// encoded copy descriptor, the MMA's operand fetch through the encoded shared
// memory and instruction descriptors, its scale reads from tensor memory, and
// the epilogue's tcgen05.ld lane mapping. The results must equal the float64
// reference GEMV exactly. The hardware models are the ISA's text as
// docs/tcgen05.md describes it; they are not checked against a Blackwell GPU.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Tcgen05Plan.h"
#include "nvfp4/Support/Tcgen05Problem.h"

#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace nvfp4;
using namespace nvfp4::tcgen05;
using plan::GemvPlan;

namespace {

// The per-thread copies everywhere; Tcgen05TmaTest shows that the tensor
// copies the kernel uses where the shape allows land the same bytes.
GemvPlan makePlan(int64_t m, int64_t k, int64_t l, bool mxfp4, bool blocked,
                  int64_t stages) {
  return GemvPlan::of(m, k, l, mxfp4, blocked, stages, /*tma=*/false);
}

std::string describe(const GemvPlan &p) {
  std::ostringstream os;
  os << p.m << "x" << p.k << "x" << p.l << (p.mxfp4 ? " mxfp4" : " nvfp4")
     << (p.blocked ? " blocked" : " linear") << " stages=" << p.stages
     << " N=" << p.vectors;
  return os.str();
}

//===----------------------------------------------------------------------===//
// The plan against the encoders
//===----------------------------------------------------------------------===//

TEST(Tcgen05PlanTest, InstructionDescriptors) {
  GemvPlan nv = makePlan(128, 64, 1, false, false, 4);
  EXPECT_EQ(nv.instrDesc(0), 0x08020480u); // 134349952
  EXPECT_EQ(nv.mmasPerStage(), 1);
  std::string why;
  EXPECT_TRUE(BlockScaledInstrDesc::decode(nv.instrDesc(0))
                  .isValid({Mxf4Kind::Mxf4Nvf4, ScaleVec::Block16, 1}, &why))
      << why;

  GemvPlan mx = makePlan(128, 128, 1, true, false, 4);
  ASSERT_EQ(mx.mmasPerStage(), 2);
  for (int64_t step = 0; step < 2; ++step) {
    BlockScaledInstrDesc d = BlockScaledInstrDesc::decode(mx.instrDesc(step));
    EXPECT_EQ(d.scaleType, ScaleType::UE8M0);
    EXPECT_EQ(d.sfaId, 2 * step);
    EXPECT_EQ(d.sfbId, 2 * step);
    EXPECT_EQ(d.m, 128u);
    EXPECT_EQ(d.n, 8u);
    EXPECT_TRUE(d.isValid({Mxf4Kind::Mxf4, ScaleVec::Block32, 1}, &why)) << why;
  }
  // ue8m0 at bit 23, SFB_ID at bits 4-5, SFA_ID at bits 29-30.
  EXPECT_EQ(mx.instrDesc(0), 0x08020480u | (1u << 23));
  EXPECT_EQ(mx.instrDesc(1), 0x08020480u | (1u << 23) | (2u << 4) | (2u << 29));
}

TEST(Tcgen05PlanTest, SharedMemoryDescriptors) {
  for (bool mxfp4 : {false, true}) {
    GemvPlan p = makePlan(256, 1024, 1, mxfp4, false, 4);
    // 32-byte swizzle: SBO = 8 rows x 32 bytes, LBO unused (16, field 1).
    for (uint64_t constant : {p.aDescConstant(), p.bDescConstant()}) {
      SmemDesc d = SmemDesc::decode(constant);
      EXPECT_EQ(d.startAddress, 0u);
      EXPECT_EQ(d.lbo, 16u);
      EXPECT_EQ(d.sbo, 256u);
      EXPECT_EQ(d.swizzle, Swizzle::B32);
      EXPECT_EQ(d.baseOffset, 0u);
      EXPECT_TRUE(SmemDesc::hasValidFixedBits(constant));
      EXPECT_TRUE(d.isValid());
    }
    // One 16-byte column: LBO = SBO, so either reading of the two fields
    // gives the same rows.
    SmemDesc s = SmemDesc::decode(p.scaleCopyDescConstant());
    EXPECT_EQ(s.sbo, 128u);
    EXPECT_EQ(s.lbo, 128u);
    // Each MMA's operands start on a swizzle atom (base offset 0).
    for (int64_t step = 0; step < p.mmasPerStage(); ++step) {
      EXPECT_EQ(p.aStepOffset(step) % KMajorFp4Sw32Tile::kAlignment, 0);
      EXPECT_EQ(p.bStepOffset(step) % KMajorFp4Sw32Tile::kAlignment, 0);
    }
    EXPECT_EQ(p.slotBytes() % KMajorFp4Sw32Tile::kAlignment, 0);
    // The step offsets are what KMajorFp4Sw32Tile::descriptor adds.
    for (int64_t step = 0; step < p.mmasPerStage(); ++step) {
      EXPECT_EQ(uint32_t(p.aStepOffset(step)),
                p.aTile().descriptor(0, uint32_t(step)).startAddress);
      EXPECT_EQ(uint32_t(p.bStepOffset(step) - p.bOffset()),
                p.bTile().descriptor(0, uint32_t(step)).startAddress);
    }
  }
  // Worked out from the ISA table: swizzle 6 in bits 61-63, bit 46, SBO
  // 256 >> 4 = 16 in bits 32-45, LBO 16 >> 4 = 1 in bits 16-29.
  EXPECT_EQ(makePlan(128, 64, 1, false, false, 1).aDescConstant(),
            (6ull << 61) | (1ull << 46) | (16ull << 32) | (1ull << 16));
  EXPECT_EQ(makePlan(128, 64, 1, false, false, 1).scaleCopyDescConstant(),
            (1ull << 46) | (8ull << 32) | (8ull << 16));
}

TEST(Tcgen05PlanTest, SharedAndTensorMemoryMaps) {
  GemvPlan p = makePlan(7168, 2048, 4, false, true, 4);
  EXPECT_EQ(p.slotBytes(), 4096 + 256 + 512 + 512);
  EXPECT_EQ(p.sharedBytes(), 21552);
  EXPECT_EQ(p.tmemColumns(), 40);
  EXPECT_EQ(p.tmemAllocColumns(), 64);
  EXPECT_EQ(makePlan(7168, 2048, 4, false, true, 3).tmemAllocColumns(), 32);
  GemvPlan mx = makePlan(4096, 7168, 8, true, false, 4);
  EXPECT_EQ(mx.slotBytes(), 8192 + 512 + 512 + 512);
  EXPECT_EQ(mx.sharedBytes(), 4 * 9728 + 32 + 16);
  for (int64_t stages = 1; stages <= plan::kMaxStages; ++stages) {
    for (bool mxfp4 : {false, true}) {
      GemvPlan q = makePlan(128, 4096, 1, mxfp4, false, stages);
      std::string why;
      EXPECT_TRUE(q.isValid(&why)) << why;
      // Every region 16-byte aligned (descriptors and 16-byte cp.async),
      // mbarriers 8-byte aligned, nothing overlapping.
      for (int64_t off : {q.aOffset(), q.bOffset(), q.sfaOffset(),
                          q.sfbOffset(), q.slotBytes()})
        EXPECT_EQ(off % 16, 0);
      EXPECT_EQ(q.barrierOffset(0) % 8, 0);
      EXPECT_GE(q.tmemSlotOffset(), q.barrierOffset(stages - 1) + 8);
      EXPECT_LE(q.tmemSlotOffset() + 4, q.sharedBytes());
      // D, then the sfa columns, then the sfb columns of every slot.
      std::set<int64_t> columns;
      for (int64_t c = 0; c < plan::kMmaN; ++c)
        columns.insert(q.dColumn() + c);
      for (int64_t slot = 0; slot < stages; ++slot) {
        EXPECT_EQ(q.sfaColumnOf<int64_t>(slot), q.sfaColumn(slot));
        EXPECT_EQ(q.sfbColumnOf<int64_t>(slot), q.sfbColumn(slot));
        for (int64_t c = 0; c < 4; ++c) {
          EXPECT_TRUE(columns.insert(q.sfaColumn(slot) + c).second);
          EXPECT_TRUE(columns.insert(q.sfbColumn(slot) + c).second);
        }
      }
      EXPECT_LE(*columns.rbegin(), q.tmemAllocColumns() - 1);
    }
  }
  std::string why;
  EXPECT_FALSE(makePlan(128, 64, 1, false, false, 9).isValid(&why));
  EXPECT_FALSE(makePlan(128, 40, 1, false, false, 2).isValid(&why));
  EXPECT_FALSE(makePlan(128, 48, 1, true, false, 2).isValid(&why));
}

TEST(Tcgen05PlanTest, CopiesLandWhereTheTileLayoutSays) {
  for (int64_t k : {16, 48, 64, 1024}) {
    for (bool mxfp4 : {false, true}) {
      if (k % (mxfp4 ? 32 : 16))
        continue;
      GemvPlan p = makePlan(128, k, 1, mxfp4, false, 2);
      KMajorFp4Sw32Tile tile = p.aTile();
      for (int64_t t = 0; t < plan::kThreads; ++t) {
        for (int64_t i = 0; i < p.aChunksPerThread(); ++i) {
          plan::Copy<int64_t> c = p.aCopy<int64_t>(t, i, 0, 1, 0, 0);
          int64_t q = t + i * plan::kThreads;
          int64_t row = q / p.aChunksPerRow();
          int64_t kElem = 2 * (q % p.aChunksPerRow()) * p.chunkBytes();
          EXPECT_EQ(c.dst, p.slotBytes() + tile.elementOffset(uint32_t(row),
                                                              uint32_t(kElem)));
          // Chunks past K re-read the row's last chunk and zero-fill.
          EXPECT_EQ(c.src,
                    row * p.rowBytes() +
                        std::min(kElem / 2, p.rowBytes() - p.chunkBytes()));
          EXPECT_EQ(c.srcBytes, kElem / 2 < p.rowBytes() ? p.chunkBytes() : 0);
        }
      }
      for (int64_t t = 0; t < p.bChunks(); ++t) {
        plan::Copy<int64_t> c = p.bCopy<int64_t>(t, 0, 0, 0);
        EXPECT_EQ(c.dst,
                  p.bOffset() + p.bTile().elementOffset(
                                    0, uint32_t(2 * t * p.chunkBytes())));
      }
    }
  }
  // A row's scale word sits where the blocked layout puts scale (row, 0..3).
  for (int64_t r = 0; r < 128; ++r)
    for (int64_t j = 0; j < 4; ++j)
      EXPECT_EQ(layout::atomWordOffset<int64_t>(r) + j,
                layout::blockedOffset(r, j, 4));
}

TEST(Tcgen05PlanTest, EpilogueLanes) {
  GemvPlan p = makePlan(128, 64, 1, false, false, 2);
  for (int64_t t = 0; t < plan::kThreads; ++t) {
    int64_t offset = p.resultTmemOffset<int64_t>(t);
    // Warp w addresses lanes 32w..; 32x32b gives thread t lane base + t%32.
    EXPECT_EQ(tmemLane(uint32_t(offset)), uint32_t(t / 32 * 32));
    EXPECT_EQ(tmemLane(uint32_t(offset)) + t % 32, uint32_t(t));
    EXPECT_EQ(tmemColumn(uint32_t(offset)), uint32_t(p.dColumn()));
  }
}

//===----------------------------------------------------------------------===//
// A host model of the kernel
//===----------------------------------------------------------------------===//

/// Runs the data movement and MMAs of one CTA (batch, row tile) as the
/// kernel orders them, with a shared-memory start address `smemBase`.
class KernelModel {
public:
  KernelModel(const GemvPlan &p, const ref::GemvInputs &in, float alpha,
              uint32_t smemBase)
      : p(p), in(in), alpha(alpha), smemBase(smemBase) {}

  /// c[batch][vector][row] for the rows of the tile (NaN-free unless the
  /// inputs are). Failures are reported through gtest.
  void run(int64_t batch, int64_t rowTile, std::vector<double> &c) {
    this->batch = batch;
    this->rowTile = rowTile;
    smem.assign(p.sharedBytes(), 0xA5); // garbage before the kernel runs
    tmem.assign(kTmemLanes * p.tmemAllocColumns(), 0xDEADBEEF);
    for (auto &row : d)
      for (double &v : row)
        v = std::numeric_limits<double>::quiet_NaN();
    owner.assign(p.stages, -1);
    released.assign(p.stages, true);
    committed.clear();
    waited.clear();
    commits.assign(p.stages, 0);
    negative.assign(plan::kThreads, false);
    vectorNegative.assign(p.vectors, false);

    zeroRing();
    int64_t n = p.kStages();
    if (p.stages == 1) {
      for (int64_t j = 0; j < n; ++j) {
        if (j >= 1)
          waitMma(j - 1);
        copyStage(j, 0);
        issueMma(j, 0);
      }
    } else {
      int64_t ahead = p.prefetch();
      for (int64_t s = 0; s < ahead && s < n; ++s)
        copyStage(s, s);
      for (int64_t j = 0; j < n; ++j) {
        issueMma(j, p.slotOf<int64_t>(j));
        int64_t next = j + ahead;
        if (next < n) {
          if (j >= 1)
            waitMma(j - 1);
          copyStage(next, p.slotOf<int64_t>(next));
        }
      }
    }
    waitMma(n - 1);
    // Every MMA must have been waited for, directly or through a later one
    // (commits complete in order).
    for (int64_t j = 0; j < n; ++j)
      EXPECT_TRUE(committed.count(j)) << "stage " << j << " never issued";

    for (int64_t vec = 0; vec < p.vectors; ++vec)
      for (int64_t t = 0; t < plan::kThreads; ++t) {
        uint32_t addr = uint32_t(p.resultTmemOffset<int64_t>(t, vec));
        uint32_t lane = tmemLane(addr) + uint32_t(t % 32);
        uint32_t column = tmemColumn(addr);
        ASSERT_EQ(column, uint32_t(vec));
        int64_t row = rowTile * plan::kTileRows + t;
        // The epilogue's sign rule: NaN for a row that met a negative
        // scale of its own or of the vector.
        if (row < p.m)
          c[(batch * p.vectors + vec) * p.m + row] =
              negative[t] || vectorNegative[vec]
                  ? std::numeric_limits<double>::quiet_NaN()
                  : double(alpha) * d[lane][column];
      }
    // The padding rows of B (N = vectors..mmaN-1) must multiply to exactly
    // zero.
    for (int64_t r = 0; r < plan::kTileRows; ++r)
      for (int64_t nn = p.vectors; nn < p.mmaN(); ++nn)
        if (!std::isnan(d[r][nn]))
          EXPECT_EQ(d[r][nn], 0.0) << "row " << r << " column " << nn;
  }

private:
  const GemvPlan &p;
  const ref::GemvInputs &in;
  float alpha;
  uint32_t smemBase;
  int64_t batch = 0, rowTile = 0;
  std::vector<uint8_t> smem;
  std::vector<uint32_t> tmem; // [lane][column]
  double d[plan::kTileRows][2 * plan::kMmaN];
  std::vector<int64_t> owner; // stage whose data a slot holds
  std::vector<bool> released; // its MMAs are known complete
  std::set<int64_t> committed, waited;
  std::vector<int64_t> commits;     // tcgen05.commit arrivals per slot barrier
  std::vector<bool> negative;       // a thread's sign flag (its row's scales)
  std::vector<bool> vectorNegative; // a vector's (barrier OR, or mask bit)

  uint32_t &cell(uint32_t lane, uint32_t column) {
    EXPECT_LT(column, uint32_t(p.tmemAllocColumns()));
    return tmem[lane * p.tmemAllocColumns() + column];
  }

  void zeroRing() {
    int64_t perPass = plan::kThreads * 16;
    for (int64_t pass = 0; pass * perPass < p.ringBytes(); ++pass)
      for (int64_t t = 0; t < plan::kThreads; ++t) {
        int64_t off = pass * perPass + t * 16;
        if (off < p.ringBytes())
          std::memset(&smem[off], 0, 16);
      }
  }

  /// cp.async: `bytes` bytes to shared `dst`, the first `srcBytes` from
  /// `tensor[src..]`, the rest zero. Checks alignment and bounds.
  void cpAsync(const std::vector<uint8_t> &tensor, const plan::Copy<int64_t> &c,
               int64_t bytes, std::vector<int> &written) {
    ASSERT_TRUE(bytes == 4 || bytes == 8 || bytes == 16);
    EXPECT_EQ(c.dst % bytes, 0);
    EXPECT_EQ((smemBase + c.dst) % bytes, 0u);
    EXPECT_EQ(c.src % bytes, 0) << "misaligned global source";
    ASSERT_GE(c.srcBytes, 0);
    ASSERT_LE(c.srcBytes, bytes);
    ASSERT_GE(c.src, 0);
    ASSERT_LE(c.src + bytes, int64_t(tensor.size()))
        << "source outside the tensor";
    ASSERT_LE(c.dst + bytes, p.ringBytes());
    for (int64_t i = 0; i < bytes; ++i) {
      smem[c.dst + i] = i < c.srcBytes ? tensor[c.src + i] : 0;
      ++written[c.dst + i];
    }
  }
  void byteCopy(const std::vector<uint8_t> &tensor,
                const plan::ByteCopy<int64_t> &c, std::vector<int> &written) {
    ASSERT_GE(c.src, 0);
    ASSERT_LT(c.src, int64_t(tensor.size()));
    smem[c.dst] = c.valid ? tensor[c.src] : 0;
    ++written[c.dst];
  }

  void copyStage(int64_t stage, int64_t slot) {
    ASSERT_TRUE(released[slot])
        << "stage " << stage << " overwrites slot " << slot << " of stage "
        << owner[slot] << " before its MMAs completed";
    owner[slot] = stage;
    released[slot] = false;
    std::vector<int> written(p.ringBytes(), 0);
    for (int64_t t = 0; t < plan::kThreads; ++t) {
      for (int64_t i = 0; i < p.aChunksPerThread(); ++i)
        cpAsync(in.a, p.aCopy<int64_t>(t, i, stage, slot, batch, rowTile),
                p.chunkBytes(), written);
      if (t < p.bCopyThreads())
        cpAsync(in.b, p.bCopy<int64_t>(t, stage, slot, batch), p.chunkBytes(),
                written);
      switch (p.sfaStaging()) {
      case GemvPlan::SfaStaging::LinearWords:
        cpAsync(in.sfa,
                p.sfaLinearCopy<int64_t>(t, stage, slot, batch, rowTile), 4,
                written);
        break;
      case GemvPlan::SfaStaging::LinearBytes:
        for (int64_t e = 0; e < 4; ++e)
          byteCopy(in.sfa,
                   p.sfaLinearByte<int64_t>(t, e, stage, slot, batch, rowTile),
                   written);
        break;
      case GemvPlan::SfaStaging::BlockedWords:
        cpAsync(in.sfa,
                p.sfaBlockedWord<int64_t>(t, stage, slot, batch, rowTile), 4,
                written);
        break;
      }
      int64_t vec = t - p.sfbThread();
      if (vec >= 0 && vec < p.vectors) {
        if (p.sfbBytes())
          for (int64_t e = 0; e < 4; ++e)
            byteCopy(in.sfb,
                     p.sfbLinearByte<int64_t>(vec, e, stage, slot, batch),
                     written);
        else
          cpAsync(in.sfb, p.sfbCopy<int64_t>(vec, stage, slot, batch), 4,
                  written);
      }
    }
    // The sign check: thread t reads row t's word (its own copy), thread
    // sfbThread + v vector v's word; the barrier ORs the latter into all.
    if (p.checksScaleSigns()) {
      auto word = [&](int64_t offset) {
        uint32_t w;
        std::memcpy(&w, &smem[offset], 4);
        return w & GemvPlan::kScaleSignBits;
      };
      for (int64_t vec = 0; vec < p.vectors; ++vec)
        if (word(p.sfbWordOffset<int64_t>(vec, slot)) != 0)
          vectorNegative[vec] = true;
      for (int64_t t = 0; t < plan::kThreads; ++t)
        if (word(p.sfaWordOffset<int64_t>(t, slot)))
          negative[t] = true;
    }
    // Exactly the A tile, rows 0..N-1 of B, the sfa atom and the words of
    // rows 0..N-1 of the sfb atom are written, each byte once.
    std::set<int64_t> bBytes, sfbBytes;
    for (int64_t vec = 0; vec < p.vectors; ++vec) {
      for (int64_t kk = 0; kk < p.stageK(); kk += 2)
        bBytes.insert(p.bTile().elementOffset(uint32_t(vec), uint32_t(kk)));
      for (int64_t e = 0; e < 4; ++e)
        sfbBytes.insert(layout::atomWordOffset<int64_t>(vec) + e);
    }
    int64_t base = slot * p.slotBytes();
    for (int64_t off = 0; off < p.ringBytes(); ++off) {
      int64_t rel = off - base;
      bool expected = false;
      if (rel >= 0 && rel < p.slotBytes()) {
        if (rel < p.bOffset() || (rel >= p.sfaOffset() && rel < p.sfbOffset()))
          expected = true;
        else if (rel >= p.sfbOffset())
          expected = sfbBytes.count(rel - p.sfbOffset()) != 0;
        else
          expected = bBytes.count(rel - p.bOffset()) != 0;
      }
      ASSERT_EQ(written[off], expected ? 1 : 0)
          << "stage " << stage << " slot " << slot << " offset " << off;
    }
  }

  /// tcgen05.cp.cta_group::1.32x128b.warpx4 [taddr], desc.
  void copyScales(uint32_t column, uint64_t desc) {
    SmemDesc s = SmemDesc::decode(desc);
    ASSERT_TRUE(SmemDesc::hasValidFixedBits(desc));
    ASSERT_EQ(s.swizzle, Swizzle::None);
    for (uint32_t lane = 0; lane < kScaleCopyLanes; ++lane) {
      uint32_t rowStart = s.startAddress + (lane / kCoreMatrixRows) * s.sbo +
                          (lane % kCoreMatrixRows) * kCoreMatrixRowBytes;
      for (uint32_t c = 0; c < kScaleCopyColumns; ++c) {
        uint32_t word;
        std::memcpy(&word, &smem[rowStart - smemBase + 4 * c], 4);
        for (uint32_t part = 0; part < 4; ++part)
          cell(part * kLanePartition + lane, column + c) = word;
      }
    }
  }

  static double e2m1(const std::vector<uint8_t> &s, uint32_t byteAddr,
                     bool high) {
    uint8_t byte = s[byteAddr];
    return formats::decodeE2M1(high ? byte >> 4 : byte & 0xF);
  }

  void issueMma(int64_t stage, int64_t slot) {
    ASSERT_EQ(owner[slot], stage)
        << "slot " << slot << " does not hold stage " << stage;
    ref::ScaleFormat format =
        p.mxfp4 ? ref::ScaleFormat::MXFP4 : ref::ScaleFormat::NVFP4;
    uint32_t slotAddr = smemBase + uint32_t(slot * p.slotBytes());
    auto encoded = [&](uint64_t constant, int64_t offset) {
      return constant | matrixDescriptorEncode(slotAddr + uint32_t(offset));
    };
    copyScales(uint32_t(p.sfaColumnOf<int64_t>(slot)),
               encoded(p.scaleCopyDescConstant(), p.sfaOffset()));
    copyScales(uint32_t(p.sfbColumnOf<int64_t>(slot)),
               encoded(p.scaleCopyDescConstant(), p.sfbOffset()));
    for (int64_t step = 0; step < p.mmasPerStage(); ++step) {
      SmemDesc a =
          SmemDesc::decode(encoded(p.aDescConstant(), p.aStepOffset(step)));
      SmemDesc b =
          SmemDesc::decode(encoded(p.bDescConstant(), p.bStepOffset(step)));
      BlockScaledInstrDesc id = BlockScaledInstrDesc::decode(p.instrDesc(step));
      ASSERT_EQ(id.m, 128u);
      ASSERT_EQ(id.n, uint32_t(p.mmaN()));
      ASSERT_EQ(id.n, p.vectors <= 8 ? 8u : 16u);
      ASSERT_EQ(id.scaleType, p.mxfp4 ? ScaleType::UE8M0 : ScaleType::UE4M3);
      bool enableInputD = stage != 0 || step != 0;
      uint32_t sfaCol =
          uint32_t(p.sfaColumnOf<int64_t>(slot) + p.scaleStepColumn(step));
      uint32_t sfbCol =
          uint32_t(p.sfbColumnOf<int64_t>(slot) + p.scaleStepColumn(step));
      int64_t blocks = kMmaK / p.block();
      // 32-byte swizzled K-major: rows 32 bytes apart, 8-row groups SBO
      // apart, K halves 16 bytes apart, then address bit 4 ^= bit 7.
      ASSERT_EQ(a.swizzle, Swizzle::B32);
      ASSERT_EQ(b.swizzle, Swizzle::B32);
      auto fetch = [&](const SmemDesc &desc, uint32_t row, uint32_t k) {
        uint32_t addr = desc.startAddress + (row / 8) * desc.sbo +
                        (row % 8) * 32 + (k / 32) * 16 + (k % 32) / 2;
        addr ^= ((addr >> 7) & 1) << 4;
        return e2m1(smem, addr - smemBase, k % 2 == 1);
      };
      for (uint32_t r = 0; r < plan::kTileRows; ++r) {
        for (uint32_t nn = 0; nn < uint32_t(p.mmaN()); ++nn) {
          double sum = 0;
          for (int64_t blk = 0; blk < blocks; ++blk) {
            // Row r's scales: lane r (its partition's copy), column + r/32,
            // byte ID + block; B's column nn likewise.
            uint32_t wa = cell(r, sfaCol + r / 32);
            uint32_t wb = cell(nn, sfbCol + nn / 32);
            uint8_t sa = uint8_t(wa >> (8 * (id.sfaId + blk)));
            uint8_t sb = uint8_t(wb >> (8 * (id.sfbId + blk)));
            double dot = 0;
            for (int64_t e = 0; e < p.block(); ++e) {
              uint32_t k = uint32_t(blk * p.block() + e);
              dot += fetch(a, r, k) * fetch(b, nn, k);
            }
            sum += ref::decodeScale(format, sa) * ref::decodeScale(format, sb) *
                   dot;
          }
          d[r][nn] = (enableInputD ? d[r][nn] : 0.0) + sum;
        }
      }
    }
    committed.insert(stage);
    ++commits[slot];
  }

  void waitMma(int64_t stage) {
    ASSERT_TRUE(committed.count(stage)) << "waiting for an unissued stage";
    // mbarrier.try_wait.parity on the slot's barrier: the wait is for
    // completion number stage / stages of that barrier, and only works if
    // no later completion of the same barrier has been committed (the
    // parity would then be ambiguous).
    int64_t slot = p.slotOf<int64_t>(stage);
    int64_t phase = stage / p.stages;
    EXPECT_EQ(p.parityOf<int64_t>(stage), phase % 2);
    EXPECT_EQ(p.barrierOffsetOf<int64_t>(slot), p.barrierOffset(slot));
    EXPECT_EQ(commits[slot], phase + 1)
        << "waiting for stage " << stage << " on a barrier committed "
        << commits[slot] << " times";
    // Commits of one thread complete in order: every earlier stage is done.
    for (int64_t s = 0; s <= stage; ++s) {
      waited.insert(s);
      int64_t slot = p.slotOf<int64_t>(s);
      if (owner[slot] == s)
        released[slot] = true;
    }
  }
};

/// Blocked scales: bytes of the padding (rows >= M, columns >= K/B) become
/// NaN codes, which the kernel must never multiply with real data.
void poisonBlockedPadding(const GemvPlan &p, std::vector<uint8_t> &scales,
                          int64_t rows) {
  uint8_t nan = p.mxfp4 ? 0xFF : 0x7F;
  int64_t cols = p.scaleCols();
  int64_t rb = layout::rowBlocks(rows), cb = layout::colBlocks(cols);
  for (int64_t l = 0; l < p.l; ++l)
    for (int64_t r = 0; r < rb * 128; ++r)
      for (int64_t c = 0; c < cb * 4; ++c)
        if (r >= rows || c >= cols)
          scales[l * rb * cb * 512 + layout::blockedOffset(r, c, cols)] = nan;
}

/// NVFP4 scales with the sign bit set at random (about one in 300 of a,
/// one in 97 of b), and whether each output c[l][n][m] meets one: of row
/// m or of vector n.
std::vector<bool> makeSomeScalesNegative(const GemvPlan &p,
                                         const ref::GemvProblem &problem,
                                         ref::GemvInputs &in, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int64_t cols = p.scaleCols();
  std::vector<bool> outNegative(p.l * p.vectors * p.m, false);
  for (int64_t l = 0; l < p.l; ++l) {
    std::vector<bool> vector(p.vectors, false);
    for (int64_t v = 0; v < p.vectors; ++v)
      for (int64_t c = 0; c < cols; ++c) {
        int64_t at = l * ref::scaleBatchBytes(problem.layout, p.vectors, cols) +
                     ref::scaleOffset(problem.layout, v, c, cols);
        if (rng() % 97 == 0) {
          in.sfb[at] |= 0x80;
          vector[v] = true;
        }
      }
    for (int64_t r = 0; r < p.m; ++r) {
      bool row = false;
      for (int64_t c = 0; c < cols; ++c)
        if (rng() % 300 == 0) {
          in.sfa[l * ref::scaleBatchBytes(problem.layout, p.m, cols) +
                 ref::scaleOffset(problem.layout, r, c, cols)] |= 0x80;
          row = true;
        }
      for (int64_t v = 0; v < p.vectors; ++v)
        outNegative[(l * p.vectors + v) * p.m + r] = row || vector[v];
    }
  }
  return outNegative;
}

void checkAgainstReference(const GemvPlan &p, uint64_t seed,
                           uint32_t smemBase = 0, bool negativeScales = false) {
  SCOPED_TRACE(describe(p));
  std::string why;
  ASSERT_TRUE(p.isValid(&why)) << why;
  ref::GemvProblem problem = gemvProblemOf(p);
  problem.alpha = 0.75f;
  ref::GemvInputs in =
      ref::generateGemvInputs(problem, ref::Distribution::Full, seed);
  if (p.blocked) {
    poisonBlockedPadding(p, in.sfa, p.m);
    poisonBlockedPadding(p, in.sfb, p.vectors);
  }
  std::vector<bool> outNegative(p.l * p.vectors * p.m, false);
  if (negativeScales)
    outNegative = makeSomeScalesNegative(p, problem, in, seed);
  std::vector<double> want = ref::gemvExact(problem, in.a.data(), in.sfa.data(),
                                            in.b.data(), in.sfb.data());
  std::vector<double> got(p.l * p.vectors * p.m,
                          std::numeric_limits<double>::quiet_NaN());
  KernelModel model(p, in, problem.alpha, smemBase);
  for (int64_t l = 0; l < p.l; ++l)
    for (int64_t tile = 0; tile < p.rowTiles(); ++tile) {
      model.run(l, tile, got);
      if (::testing::Test::HasFatalFailure())
        return;
    }
  // Products of e2m1 values and scales of the generated range are exact in
  // float64 and so are their sums: the model must match bit for bit.
  // Rows that met a negative scale must be NaN (the tcgen05 kernel's rule;
  // the reference and the CUDA-core kernels use the signed value).
  int64_t mismatches = 0, nanRows = 0;
  for (int64_t i = 0; i < p.l * p.vectors * p.m; ++i) {
    int64_t l = i / (p.vectors * p.m), vec = i / p.m % p.vectors, r = i % p.m;
    bool negative = outNegative[i];
    bool ok = negative ? std::isnan(got[i]) : got[i] == want[i];
    nanRows += negative;
    if (!ok && mismatches++ < 5)
      ADD_FAILURE() << "c[" << l << "][" << vec << "][" << r << "] = " << got[i]
                    << (negative ? ", a negative scale: want NaN"
                                 : ", reference ")
                    << want[i];
  }
  EXPECT_EQ(mismatches, 0);
  if (negativeScales)
    EXPECT_GT(nanRows, 0) << "no row met a negative scale: a vacuous test";
}

struct Shape {
  int64_t m, k, l;
};

TEST(Tcgen05KernelModelTest, NVFP4) {
  // K tails of 16..48 values, unaligned linear scale rows (K/16 % 4 != 0),
  // 8-byte copies (K/2 % 16 != 0), M not a multiple of 128, several batches.
  const Shape shapes[] = {{128, 64, 1},  {128, 16, 1},   {200, 80, 2},
                          {130, 96, 1},  {256, 1024, 2}, {384, 7168 / 8, 2},
                          {128, 208, 1}, {64, 512, 3}};
  uint64_t seed = 1;
  for (const Shape &s : shapes)
    for (bool blocked : {false, true})
      for (int64_t stages : {1, 2, 3, 4})
        checkAgainstReference(makePlan(s.m, s.k, s.l, false, blocked, stages),
                              seed++);
}

TEST(Tcgen05KernelModelTest, MXFP4) {
  // Stages of 128 values: K = 96 and 160 leave a half-empty last stage.
  const Shape shapes[] = {{128, 128, 1}, {128, 32, 1},   {200, 96, 2},
                          {128, 160, 1}, {256, 2048, 2}, {130, 224, 1}};
  uint64_t seed = 100;
  for (const Shape &s : shapes)
    for (bool blocked : {false, true})
      for (int64_t stages : {1, 2, 4})
        checkAgainstReference(makePlan(s.m, s.k, s.l, true, blocked, stages),
                              seed++);
}

TEST(Tcgen05KernelModelTest, BenchmarkShapesOneTile) {
  // The example shapes' K with a single row tile (M = 128) keeps the model
  // fast; the per-tile arithmetic does not depend on M beyond the clamps.
  for (int64_t k : {16384, 7168, 2048})
    for (bool blocked : {false, true})
      checkAgainstReference(makePlan(128, k, 2, false, blocked, 4), k);
  checkAgainstReference(makePlan(128, 7168, 1, true, false, 4), 7);
}

TEST(Tcgen05KernelModelTest, NegativeScalesGiveNaNRows) {
  // NVFP4 only (ue8m0 has no sign). Both layouts, a scale tail, unaligned
  // linear rows, several batches; some rows must stay finite.
  const Shape shapes[] = {{200, 1024, 2}, {130, 80, 3}, {256, 208, 2}};
  uint64_t seed = 300;
  for (const Shape &s : shapes)
    for (bool blocked : {false, true})
      for (int64_t stages : {1, 3})
        checkAgainstReference(makePlan(s.m, s.k, s.l, false, blocked, stages),
                              seed++, /*smemBase=*/0,
                              /*negativeScales=*/true);
}

TEST(Tcgen05KernelModelTest, Vectors) {
  // N vectors: the MMA's N is 8 up to 8 vectors, 16 above; B rows and sfb
  // atom rows past N are padding (NaN codes in blocked sfb padding rows).
  // Both formats and layouts, 16- and 8-byte copies (NVFP4 K = 80 with
  // N = 16 takes 64 threads for B), scale tails and unaligned linear scale
  // rows, 1 and 3 slots.
  const Shape shapes[] = {{200, 80, 2}, {128, 1024, 1}, {130, 224, 2}};
  uint64_t seed = 500;
  for (int64_t n : {1, 2, 7, 8, 9, 16})
    for (const Shape &s : shapes)
      for (bool mxfp4 : {false, true}) {
        if (s.k % (mxfp4 ? 32 : 16))
          continue;
        for (bool blocked : {false, true})
          for (int64_t stages : {1, 3})
            checkAgainstReference(
                makePlan(s.m, s.k, s.l, mxfp4, blocked, stages).withVectors(n),
                seed++);
      }
}

TEST(Tcgen05KernelModelTest, VectorsWithNegativeScales) {
  // A negative NVFP4 scale of row r gives NaN in row r of every vector; one
  // of vector n gives NaN in every row of vector n of the batch (the mask
  // word), and the other vectors keep their values.
  uint64_t seed = 700;
  for (int64_t n : {2, 9, 16})
    for (bool blocked : {false, true})
      checkAgainstReference(
          makePlan(200, 1024, 3, false, blocked, 2).withVectors(n), seed++,
          /*smemBase=*/0, /*negativeScales=*/true);
}

TEST(Tcgen05PlanTest, VectorShapes) {
  for (bool mxfp4 : {false, true})
    for (int64_t k : {mxfp4 ? int64_t(96) : int64_t(80), int64_t(1024)})
      for (int64_t n = 1; n <= formats::kMaxGemvVectors; ++n) {
        GemvPlan p = makePlan(128, k, 1, mxfp4, false, 4).withVectors(n);
        std::string why;
        ASSERT_TRUE(p.isValid(&why)) << why;
        EXPECT_EQ(p.mmaN(), n <= 8 ? 8 : 16);
        BlockScaledInstrDesc id = BlockScaledInstrDesc::decode(p.instrDesc(0));
        EXPECT_EQ(id.n, uint32_t(p.mmaN()));
        EXPECT_EQ(p.bTileBytes(), p.mmaN() * p.stageRowBytes());
        // B and sfb copies fit in the CTA, one vector's sfb a thread.
        EXPECT_LE(p.bCopyThreads(), plan::kThreads);
        EXPECT_GE(p.sfbThread(), 0);
        EXPECT_LE(p.sfbThread() + n, plan::kThreads);
        // D's columns, then the scale columns.
        EXPECT_EQ(p.sfaColumn(0), p.mmaN());
        EXPECT_LE(p.tmemColumns(), p.tmemAllocColumns());
        for (int64_t t = 0; t < p.bCopyThreads(); ++t) {
          plan::Copy<int64_t> c = p.bCopy<int64_t>(t, 0, 0, 0);
          int64_t vec = t / p.bChunks(), cc = t % p.bChunks();
          EXPECT_EQ(c.dst,
                    p.bOffset() +
                        p.bTile().elementOffset(
                            uint32_t(vec), uint32_t(2 * cc * p.chunkBytes())));
          // Chunks past K re-read the row's last chunk (zero-filled).
          EXPECT_EQ(c.src, vec * p.rowBytes() +
                               std::min(cc * p.chunkBytes(),
                                        p.rowBytes() - p.chunkBytes()));
        }
        for (int64_t t = 0; t < plan::kThreads; ++t)
          EXPECT_EQ(p.resultTmemOffset<int64_t>(t, n - 1),
                    p.resultTmemOffset<int64_t>(t) + n - 1);
      }
  std::string why;
  EXPECT_FALSE(makePlan(128, 64, 1, false, false, 2).withVectors(0).isValid());
  EXPECT_FALSE(
      makePlan(128, 64, 1, false, false, 2).withVectors(17).isValid(&why));
}

TEST(Tcgen05KernelModelTest, ManyStagesAndShortK) {
  // More ring slots than stages, and a non-zero shared-memory base.
  for (int64_t stages : {5, 8})
    for (int64_t k : {64, 192, 1024})
      checkAgainstReference(makePlan(128, k, 1, false, false, stages), k,
                            /*smemBase=*/1024);
}

} // namespace
