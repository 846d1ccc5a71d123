//===- Tcgen05Plan.h - layout arithmetic of the tcgen05 GEMV kernel -*- C++
//-*-===//
//
// Everything the tcgen05 GEMV kernel computes from indices, in one place: the
// shared-memory map of its stage ring, the tensor-memory columns, the
// descriptors, the pipeline's slot/phase schedule, which global bytes each
// thread copies where, and the tensor maps and boxes of the tensor copies
// (whose bytes land where the threads' copies would put them). Plain C++17,
// header-only, no MLIR.
//
// The per-thread copy formulas are templates over the index type `V`: the
// lowering instantiates them with a wrapper whose operators build `arith` ops
// on run-time values (thread id, stage, batch, row tile), and
// unittests/Tcgen05LoweringTest.cpp instantiates them with int64_t to run the
// whole data movement of the kernel on the host against the reference GEMV.
// One definition therefore serves the IR and its test.
//
// Templates use only `+ - * / %` with int64_t operands on either side, and
// `vmin`, `vclamp` and `vconst`, which the IR wrapper provides for its own
// type (found by argument-dependent lookup). All values are non-negative except
// inside the clamps.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_TCGEN05PLAN_H
#define NVFP4_SUPPORT_TCGEN05PLAN_H

#include "nvfp4/Support/Chips.h"
#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ScaleLayout.h"
#include "nvfp4/Support/Tcgen05Descriptors.h"
#include "nvfp4/Support/TensorMap.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace nvfp4::tcgen05::plan {

inline int64_t vmin(int64_t a, int64_t b) { return std::min(a, b); }
inline int64_t vclamp(int64_t x, int64_t lo, int64_t hi) {
  return std::min(std::max(x, lo), hi);
}
/// The constant `c` as a value of the index type of `like`.
inline int64_t vconst(int64_t /*like*/, int64_t c) { return c; }

/// Rows of A a CTA owns: the M of one cta_group::1 MMA.
inline constexpr int64_t kTileRows = 128;
/// One thread per row: four warps, warp w reading TMEM lanes 32w..32w+31.
inline constexpr int64_t kThreads = 128;
/// The vectors are B of the MMA, padded to the MMA's N: the smallest N of
/// the instruction (8) for up to 8 vectors, 16 for 9 to 16 (rows N.. zero).
inline constexpr int64_t kMmaN = 8;
/// A stage covers one 128x4 scale atom column: 4 scale columns of K.
inline constexpr int64_t kScaleColsPerStage = layout::kAtomCols;
inline constexpr int64_t kAtomBytes = layout::kAtomBytes;
inline constexpr int64_t kMaxStages = 8;

/// A global-to-shared copy: `bytes` (cp.async cp-size) to shared offset `dst`
/// (from the dynamic shared-memory base) from byte `src` of a tensor, of
/// which the first `srcBytes` are read and the rest zero-filled.
template <class V> struct Copy {
  V src;
  V dst;
  V srcBytes;
};

/// One byte of a scale read with an ordinary load (linear scales whose rows
/// are not 4-byte aligned): `valid` is 1 or 0 (0: store zero).
template <class V> struct ByteCopy {
  V src;
  V dst;
  V valid;
};

struct GemvPlan {
  int64_t m = 0, k = 0, l = 1;
  bool mxfp4 = false;   ///< MXFP4 (block32, ue8m0) instead of NVFP4
  bool blocked = false; ///< blocked128x4 scale layout instead of linear
  int64_t stages = 4;   ///< shared-memory (and scale TMEM) ring slots
  /// Copy with the tensor memory accelerator where the shape allows
  /// (tmaA(), tmaSfa()); the rest is copied by the threads.
  bool tma = true;
  /// N, the right-hand vectors of a batch (b [L, N, K/2], c [L, N, M]); 1
  /// for the one-vector form.
  int64_t vectors = 1;

  /// The plan of an M x K x L problem.
  static GemvPlan of(int64_t m, int64_t k, int64_t l, bool mxfp4, bool blocked,
                     int64_t stages, bool tma = true) {
    GemvPlan p;
    p.m = m;
    p.k = k;
    p.l = l;
    p.mxfp4 = mxfp4;
    p.blocked = blocked;
    p.stages = stages;
    p.tma = tma;
    return p;
  }
  /// The same plan for `n` vectors.
  GemvPlan withVectors(int64_t n) const {
    GemvPlan p = *this;
    p.vectors = n;
    return p;
  }

  //--- Problem -------------------------------------------------------------//
  int64_t block() const { return mxfp4 ? 32 : 16; }
  ScaleVec scaleVec() const {
    return mxfp4 ? ScaleVec::Block32 : ScaleVec::Block16;
  }
  int64_t rowBytes() const { return k / 2; }
  int64_t scaleCols() const { return k / block(); }
  int64_t rowTiles() const { return layout::ceilDiv(m, kTileRows); }
  /// Scale-column blocks of 4, i.e. atoms per row block (blocked layout).
  int64_t colBlocks() const { return layout::colBlocks(scaleCols()); }

  //--- Stages ---------------------------------------------------------------//
  /// K values of one stage: one scale atom column (64 NVFP4, 128 MXFP4).
  int64_t stageK() const { return kScaleColsPerStage * block(); }
  int64_t stageRowBytes() const { return stageK() / 2; }
  /// The MMA's N: 8 for up to 8 vectors, else 16 (cta_group::1 takes N a
  /// multiple of 8); B rows and D columns past `vectors` are padding.
  int64_t mmaN() const { return vectors <= kMmaN ? kMmaN : 2 * kMmaN; }
  /// K64 MMAs a stage issues (1 NVFP4, 2 MXFP4).
  int64_t mmasPerStage() const { return stageK() / kMmaK; }
  int64_t kStages() const { return colBlocks(); }
  /// The last stage reads past K (its data is zero-filled).
  bool hasKTail() const { return k % stageK() != 0; }
  /// The last stage has fewer than 4 scale columns.
  bool hasScaleTail() const { return scaleCols() % kScaleColsPerStage != 0; }
  /// Linear scale rows start 4-byte aligned: cp.async of 4 bytes works.
  bool linearScalesAligned() const { return scaleCols() % 4 == 0; }
  /// Stages loaded ahead of the one being multiplied.
  int64_t prefetch() const { return stages - 1; }

  //--- Copies of a and b ----------------------------------------------------//
  /// cp.async size for a and b: rows are 16-byte aligned when K % 32 == 0,
  /// 8-byte aligned otherwise (K is a multiple of 16).
  int64_t chunkBytes() const { return rowBytes() % 16 == 0 ? 16 : 8; }
  int64_t aChunksPerRow() const { return stageRowBytes() / chunkBytes(); }
  int64_t aChunksPerThread() const {
    return kTileRows * aChunksPerRow() / kThreads;
  }
  /// Chunks of one vector's row of B a stage copies.
  int64_t bChunks() const { return stageRowBytes() / chunkBytes(); }
  /// Threads 0..bCopyThreads-1 copy B: thread t chunk t % bChunks() of
  /// vector t / bChunks() (at most 16 x 8 = 128 threads).
  int64_t bCopyThreads() const { return vectors * bChunks(); }
  /// The thread that copies the scales of vector 0; vector v's are copied
  /// by thread sfbThread() + v (after the B threads where they fit).
  int64_t sfbThread() const {
    return std::min(bCopyThreads(), kThreads - vectors);
  }

  //--- Shared memory --------------------------------------------------------//
  /// A and B tiles: 32-byte swizzled K-major, one 256-byte aligned slab of
  /// rows x 32 bytes per K64 step.
  KMajorFp4Sw32Tile aTile() const {
    return {uint32_t(kTileRows), static_cast<uint32_t>(stageK())};
  }
  KMajorFp4Sw32Tile bTile() const {
    return {uint32_t(mmaN()), static_cast<uint32_t>(stageK())};
  }
  int64_t aTileBytes() const { return kTileRows * stageRowBytes(); }
  int64_t bTileBytes() const { return mmaN() * stageRowBytes(); }
  // Offsets inside a slot. A and B start on the swizzle period (256 bytes;
  // the dynamic shared memory is 1024-byte aligned), the rest 16-byte
  // aligned.
  int64_t aOffset() const { return 0; }
  int64_t bOffset() const { return aTileBytes(); }
  int64_t sfaOffset() const { return bOffset() + bTileBytes(); }
  int64_t sfbOffset() const { return sfaOffset() + kAtomBytes; }
  int64_t slotBytes() const { return sfbOffset() + kAtomBytes; }
  /// Bytes of the ring (zeroed at kernel start).
  int64_t ringBytes() const { return stages * slotBytes(); }
  /// One mbarrier per slot, completed by the tcgen05.commit of its MMAs.
  int64_t barrierOffset(int64_t slot) const {
    return ringBytes() + kMbarrierBytes * slot;
  }
  /// With tensor copies, one more mbarrier per slot: "full", completed
  /// when the slot's tensor copies have written all their bytes.
  int64_t fullBarrierOffset(int64_t slot) const {
    return barrierOffset(stages + slot);
  }
  int64_t barrierCount() const { return usesTma() ? 2 * stages : stages; }
  /// Where tcgen05.alloc writes the tensor-memory address.
  int64_t tmemSlotOffset() const { return barrierOffset(barrierCount()); }
  /// NVFP4 with several vectors: a word whose bit n the sfb threads set
  /// (atomic OR) when a scale of vector n is negative (checksScaleSigns()).
  bool hasVectorSignMask() const { return !mxfp4 && vectors > 1; }
  int64_t vectorSignMaskOffset() const { return tmemSlotOffset() + 4; }
  int64_t sharedBytes() const {
    return (tmemSlotOffset() + 4 + (hasVectorSignMask() ? 4 : 0) + 15) / 16 *
           16;
  }

  //--- Tensor memory --------------------------------------------------------//
  /// D[128 x mmaN] f32: lane = row, column n = vector n.
  int64_t dColumn() const { return 0; }
  /// Each slot has its own scale columns, so a tcgen05.cp for stage s + S
  /// never overwrites scales the MMA of stage s may still read.
  int64_t sfaColumn(int64_t slot) const {
    return mmaN() +
           static_cast<int64_t>(scaleAtomColumn(static_cast<uint32_t>(slot)));
  }
  int64_t sfbColumn(int64_t slot) const { return sfaColumn(stages + slot); }
  template <class V> V sfaColumnOf(V slot) const {
    return slot * int64_t(kScaleCopyColumns) + mmaN();
  }
  template <class V> V sfbColumnOf(V slot) const {
    return (slot + stages) * int64_t(kScaleCopyColumns) + mmaN();
  }
  int64_t tmemColumns() const { return sfaColumn(2 * stages); }
  int64_t tmemAllocColumns() const {
    return tcgen05::tmemAllocColumns(static_cast<uint32_t>(tmemColumns()));
  }

  //--- Descriptors ----------------------------------------------------------//
  /// Instruction descriptor of MMA `step` (0..mmasPerStage-1) of a stage.
  uint32_t instrDesc(int64_t step) const {
    uint32_t s = static_cast<uint32_t>(step);
    uint32_t n = static_cast<uint32_t>(mmaN());
    return mxfp4
               ? mxfp4InstrDesc(kTileRows, n, stepScaleId(s, ScaleVec::Block32))
                     .encode()
               : nvfp4InstrDesc(kTileRows, n).encode();
  }
  /// Shared-memory descriptors without their start-address field; the
  /// kernel ORs matrixDescriptorEncode(address) into bits 0-13.
  uint64_t aDescConstant() const {
    return aTile().descriptor(0, 0).encodeWithoutStart();
  }
  uint64_t bDescConstant() const {
    return bTile().descriptor(0, 0).encodeWithoutStart();
  }
  uint64_t scaleCopyDescConstant() const {
    return scaleAtomCopyDesc(0).encodeWithoutStart();
  }
  /// Offsets (from the slot start) of the operands of MMA `step`.
  int64_t aStepOffset(int64_t step) const {
    return aOffset() + aTile().kStepOffset(static_cast<uint32_t>(step));
  }
  int64_t bStepOffset(int64_t step) const {
    return bOffset() + bTile().kStepOffset(static_cast<uint32_t>(step));
  }

  //--- Tensor-memory-accelerator copies -------------------------------------//
  // One thread issues them; the slot's full barrier counts their bytes and
  // every thread waits on it. Each map's box lands exactly where the
  // per-thread copies would put the bytes.
  /// Bytes of a box row of A: one K64 slab row, the 32-byte swizzle span.
  static constexpr int64_t kABoxRowBytes = kMmaKBytes;
  /// A by tensor copies: rows a multiple of 16 bytes (the map's strides)
  /// and at least one box row wide (a box may not exceed the tensor).
  bool tmaA() const {
    return tma && rowBytes() % tensormap::kStrideBytes == 0 &&
           rowBytes() >= kABoxRowBytes;
  }
  /// Blocked sfa by tensor copies of whole atoms, unless the last atom has
  /// padding columns: those must read as zero (memory need not hold finite
  /// scales there), which a copy of the stored atom does not give.
  bool tmaSfa() const { return tma && blocked && !hasScaleTail(); }
  bool usesTma() const { return tmaA() || tmaSfa(); }
  /// Rows of A's box: a row tile, or all of A when it is shorter.
  int64_t aBoxRows() const { return std::min(kTileRows, m); }
  /// A's boxes a stage copies: one per K64 slab.
  int64_t aBoxesPerStage() const { return mmasPerStage(); }
  /// a as [L][M][K/2] bytes; a box is aBoxRows() rows of one 32-byte slab
  /// row, swizzled as aTile() (KMajorFp4Sw32Tile is what the 32-byte
  /// swizzle writes); rows and K past the tensor are zero-filled.
  tensormap::TiledMap aMap() const {
    tensormap::TiledMap map;
    map.param = manifest::Param::ATensorMap;
    map.tensor = manifest::Param::A;
    map.dataType = manifest::MapDataType::UInt8;
    map.dims = {rowBytes(), m, l};
    map.strides = {rowBytes(), m * rowBytes()};
    map.box = {kABoxRowBytes, aBoxRows(), 1};
    map.swizzle = manifest::MapSwizzle::B32;
    map.l2Promotion = manifest::MapL2Promotion::B256;
    map.oobFill = manifest::MapOobFill::Zero;
    return map;
  }
  /// Blocked sfa as [L][row tiles][column blocks][128] 4-byte words: a box
  /// is one 512-byte atom, copied verbatim.
  tensormap::TiledMap sfaMap() const {
    tensormap::TiledMap map;
    map.param = manifest::Param::SFATensorMap;
    map.tensor = manifest::Param::SFA;
    map.dataType = manifest::MapDataType::UInt32;
    int64_t words = kAtomBytes / 4;
    map.dims = {words, colBlocks(), rowTiles(), l};
    map.strides = {kAtomBytes, colBlocks() * kAtomBytes,
                   rowTiles() * colBlocks() * kAtomBytes};
    map.box = {words, 1, 1, 1};
    map.swizzle = manifest::MapSwizzle::None;
    map.l2Promotion = manifest::MapL2Promotion::B256;
    map.oobFill = manifest::MapOobFill::Zero;
    return map;
  }
  /// The maps the kernel takes, in parameter order.
  std::vector<tensormap::TiledMap> tensorMaps() const {
    std::vector<tensormap::TiledMap> maps;
    if (tmaA())
      maps.push_back(aMap());
    if (tmaSfa())
      maps.push_back(sfaMap());
    return maps;
  }
  /// Bytes the tensor copies of one stage write: the full barrier's count.
  int64_t tmaStageBytes() const {
    return (tmaA() ? aBoxesPerStage() * aMap().boxBytes() : 0) +
           (tmaSfa() ? sfaMap().boxBytes() : 0);
  }
  /// One tensor copy: the box's coordinates, innermost first (as many as
  /// the map's rank, the rest 0), and the shared offset it lands at.
  template <class V> struct TensorCopy {
    V coords[4];
    V dst;
  };
  /// Box `box` (0..aBoxesPerStage-1) of A for `stage`, into `slot`.
  template <class V>
  TensorCopy<V> aTensorCopy(int64_t box, V stage, V slot, V batch,
                            V rowTile) const {
    return {{stage * stageRowBytes() + box * kABoxRowBytes, rowTile * kTileRows,
             batch, vconst(batch, 0)},
            slot * slotBytes() + aOffset() + box * aTile().slabBytes()};
  }
  /// The sfa atom of `stage`, into `slot`.
  template <class V>
  TensorCopy<V> sfaTensorCopy(V stage, V slot, V batch, V rowTile) const {
    return {{vconst(batch, 0), stage, rowTile, batch},
            slot * slotBytes() + sfaOffset()};
  }

  //--- Scale signs ----------------------------------------------------------//
  // The MMA reads NVFP4 scales as ue4m3 (no sign), the dialect's e4m3fn
  // scales have one. The kernel does not multiply with a negative scale: a
  // row whose scales, or whose vector's scales, have a sign bit set gets
  // NaN (docs/tcgen05.md): output c[l, n, m] is NaN when a scale of row m
  // or of vector n is negative. One vector: the stage barrier ORs the
  // vector's check into every thread; several: hasVectorSignMask(). ue8m0
  // has no sign bit.
  bool checksScaleSigns() const { return !mxfp4; }
  static constexpr uint32_t kScaleSignBits = 0x80808080u;
  /// The word of row `t` in the slot's sfa atom: thread t staged it itself.
  template <class V> V sfaWordOffset(V t, V slot) const {
    return slot * slotBytes() + sfaOffset() + layout::atomWordOffset(t);
  }
  /// The scale word of vector 0 in the slot (staged by sfbThread()).
  template <class V> V sfbWordOffset(V slot) const {
    return slot * slotBytes() + sfbOffset();
  }
  /// The scale word of vector `vec` (staged by sfbThread() + vec): row vec
  /// of the slot's sfb atom.
  template <class V> V sfbWordOffset(V vec, V slot) const {
    if (vectors == 1)
      return sfbWordOffset(slot);
    return slot * slotBytes() + sfbOffset() + layout::atomWordOffset(vec);
  }
  /// Scale columns (from the slot's region) MMA `step` reads.
  int64_t scaleStepColumn(int64_t step) const {
    return tcgen05::scaleStepColumn(static_cast<uint32_t>(step), scaleVec());
  }

  //--- Pipeline schedule ----------------------------------------------------//
  // Stage s lives in slot s % stages. Iteration s (stages >= 2) waits for
  // its copies, issues the MMAs of stage s, then refills the slot of stage
  // s - 1 with stage s + prefetch() once the MMAs of s - 1 completed.
  template <class V> V slotOf(V stage) const { return stage % stages; }
  /// Phase parity of the slot barrier's completion for `stage`.
  template <class V> V parityOf(V stage) const { return (stage / stages) % 2; }
  template <class V> V barrierOffsetOf(V slot) const {
    return slot * kMbarrierBytes + ringBytes();
  }

  /// Checks the configuration; `why` explains a failure.
  bool isValid(std::string *why = nullptr) const {
    auto fail = [&](const std::string &message) {
      if (why)
        *why = message;
      return false;
    };
    if (m < 1 || l < 1 || k < 1)
      return fail("M, K and L must be positive");
    if (k % block() != 0)
      return fail("K must be a multiple of the scale block size");
    if (l > 65535)
      return fail("L is the grid's y dimension: at most 65535");
    if (vectors < 1 || vectors > formats::kMaxGemvVectors)
      return fail("N must be in [1, " +
                  std::to_string(formats::kMaxGemvVectors) + "]");
    if (stages < 1 || stages > kMaxStages)
      return fail("stages must be in [1, 8]");
    if (sharedBytes() > kMaxCtaSharedBytes)
      return fail("the stage ring does not fit in shared memory");
    if (tmemAllocColumns() == 0)
      return fail("the stage ring does not fit in tensor memory");
    return true;
  }

  //--- Which threads copy what (the kernel branches on these) ---------------//
  // A: every thread, aChunksPerThread() chunks. B: threads t <
  // bCopyThreads(). sfb: threads sfbThread() + v for v < vectors, byte by
  // byte when sfbBytes(). sfa: thread t
  // always stages the four scales of row t (so it can check their signs
  // without waiting for other threads):
  enum class SfaStaging {
    LinearWords, ///< one 4-byte cp.async from the linear row
    LinearBytes, ///< the same with byte loads and stores (unaligned rows)
    BlockedWords ///< one 4-byte cp.async of the row's word of the atom; the
                 ///< padding columns of the last atom are zero-filled
  };
  SfaStaging sfaStaging() const {
    if (blocked)
      return SfaStaging::BlockedWords;
    return linearScalesAligned() ? SfaStaging::LinearWords
                                 : SfaStaging::LinearBytes;
  }
  bool sfbBytes() const { return !blocked && !linearScalesAligned(); }

  //--- Per-thread copies (templates over the index type) --------------------//

  /// Chunk `i` (0..aChunksPerThread-1) of thread `t` of stage `stage` of A,
  /// into `slot`. Consecutive threads take consecutive chunks of a row, so
  /// a warp reads whole 32-byte sectors; rows past M re-read row M - 1 (their
  /// results are never stored). src is a byte offset into `a`.
  template <class V>
  Copy<V> aCopy(V t, int64_t i, V stage, V slot, V batch, V rowTile) const {
    int64_t chunk = chunkBytes();
    V q = t + i * kThreads;
    V r = q / aChunksPerRow();
    V cc = q % aChunksPerRow();
    V row = vmin(rowTile * kTileRows + r, m - 1);
    V kByte = stage * stageRowBytes() + cc * chunk;
    V src = (batch * m + row) * rowBytes() + vmin(kByte, rowBytes() - chunk);
    V srcBytes = vclamp(rowBytes() - kByte, 0, chunk);
    V dst = slot * slotBytes() + aOffset() +
            KMajorFp4Sw32Tile::byteOffset(r, cc * chunk, aTile().slabBytes());
    return {src, dst, srcBytes};
  }

  /// The chunk of B copied by thread `t` < bCopyThreads(): chunk t %
  /// bChunks() of vector t / bChunks() (row 0 with one vector), to row
  /// vector of the B tile; src is a byte offset into `b`. B rows past the
  /// vectors are never written: they keep the ring's zeros.
  template <class V> Copy<V> bCopy(V t, V stage, V slot, V batch) const {
    int64_t chunk = chunkBytes();
    if (vectors == 1) {
      V kByte = stage * stageRowBytes() + t * chunk;
      V src = batch * rowBytes() + vmin(kByte, rowBytes() - chunk);
      V srcBytes = vclamp(rowBytes() - kByte, 0, chunk);
      V dst = slot * slotBytes() + bOffset() +
              KMajorFp4Sw32Tile::byteOffset(vconst(t, 0), t * chunk,
                                            bTile().slabBytes());
      return {src, dst, srcBytes};
    }
    V vec = t / bChunks();
    V cc = t % bChunks();
    V kByte = stage * stageRowBytes() + cc * chunk;
    V src =
        (batch * vectors + vec) * rowBytes() + vmin(kByte, rowBytes() - chunk);
    V srcBytes = vclamp(rowBytes() - kByte, 0, chunk);
    V dst = slot * slotBytes() + bOffset() +
            KMajorFp4Sw32Tile::byteOffset(vec, cc * chunk, bTile().slabBytes());
    return {src, dst, srcBytes};
  }

  /// Linear sfa with 4-byte aligned rows: thread `t` copies the 4 scales of
  /// its row for `stage` straight to their blocked position in the atom
  /// (the linear-to-blocked conversion is the destination address).
  template <class V>
  Copy<V> sfaLinearCopy(V t, V stage, V slot, V batch, V rowTile) const {
    V row = vmin(rowTile * kTileRows + t, m - 1);
    V src = (batch * m + row) * scaleCols() + stage * kScaleColsPerStage;
    V dst = slot * slotBytes() + sfaOffset() + layout::atomWordOffset(t);
    return {src, dst, vconst(t, kScaleColsPerStage)};
  }

  /// Linear sfa whose rows are not 4-byte aligned: byte `e` (0..3) of the
  /// word of thread `t`, loaded and stored one by one.
  template <class V>
  ByteCopy<V> sfaLinearByte(V t, int64_t e, V stage, V slot, V batch,
                            V rowTile) const {
    V row = vmin(rowTile * kTileRows + t, m - 1);
    V col = stage * kScaleColsPerStage + e;
    V src = (batch * m + row) * scaleCols() + vmin(col, scaleCols() - 1);
    V dst = slot * slotBytes() + sfaOffset() + layout::atomWordOffset(t) + e;
    return {src, dst, vclamp(scaleCols() - col, 0, 1)};
  }

  /// Start of the atom (row block `rowTile`, column block `stage`) of a
  /// blocked sfa batch.
  template <class V> V sfaAtomStart(V stage, V batch, V rowTile) const {
    return ((batch * rowTiles() + rowTile) * colBlocks() + stage) * kAtomBytes;
  }
  /// Blocked sfa: thread `t` copies its row's word of the atom. On the last
  /// stage with fewer than 4 scale columns the padding columns are
  /// zero-filled: their bytes in memory need not be finite scales (NaN x 0
  /// would be NaN).
  template <class V>
  Copy<V> sfaBlockedWord(V t, V stage, V slot, V batch, V rowTile) const {
    V word = layout::atomWordOffset(t);
    return {sfaAtomStart(stage, batch, rowTile) + word,
            slot * slotBytes() + sfaOffset() + word,
            vclamp(scaleCols() - stage * kScaleColsPerStage, 0,
                   kScaleColsPerStage)};
  }

  /// The vector's scales for `stage` (row 0 of its atom, bytes 0-3), copied
  /// by thread sfbThread(). Linear needs 4-byte aligned rows.
  template <class V> Copy<V> sfbCopy(V stage, V slot, V batch) const {
    V col = stage * kScaleColsPerStage;
    V src = blocked ? (batch * colBlocks() + stage) * kAtomBytes
                    : batch * scaleCols() + col;
    return {src, slot * slotBytes() + sfbOffset(),
            vclamp(scaleCols() - col, 0, kScaleColsPerStage)};
  }
  /// The scales of vector `vec` for `stage`, copied by thread sfbThread() +
  /// vec to row vec of the slot's sfb atom (the position tcgen05.cp and the
  /// MMA give B row vec): from the linear row vec of the batch's [N, K/B]
  /// matrix, or row vec's word of the batch's one-row-block blocked atom.
  /// The atom's rows past the vectors keep the ring's zeros.
  template <class V> Copy<V> sfbCopy(V vec, V stage, V slot, V batch) const {
    if (vectors == 1)
      return sfbCopy(stage, slot, batch);
    V col = stage * kScaleColsPerStage;
    V word = layout::atomWordOffset(vec);
    V src = blocked ? (batch * colBlocks() + stage) * kAtomBytes + word
                    : (batch * vectors + vec) * scaleCols() + col;
    return {src, slot * slotBytes() + sfbOffset() + word,
            vclamp(scaleCols() - col, 0, kScaleColsPerStage)};
  }
  /// Linear sfb whose rows are not 4-byte aligned: byte `e` of the word.
  template <class V>
  ByteCopy<V> sfbLinearByte(int64_t e, V stage, V slot, V batch) const {
    V col = stage * kScaleColsPerStage + e;
    return {batch * scaleCols() + vmin(col, scaleCols() - 1),
            slot * slotBytes() + sfbOffset() + e,
            vclamp(scaleCols() - col, 0, 1)};
  }
  /// The same for vector `vec`.
  template <class V>
  ByteCopy<V> sfbLinearByte(V vec, int64_t e, V stage, V slot, V batch) const {
    if (vectors == 1)
      return sfbLinearByte(e, stage, slot, batch);
    V col = stage * kScaleColsPerStage + e;
    return {(batch * vectors + vec) * scaleCols() + vmin(col, scaleCols() - 1),
            slot * slotBytes() + sfbOffset() + layout::atomWordOffset(vec) + e,
            vclamp(scaleCols() - col, 0, 1)};
  }

  //--- Epilogue -------------------------------------------------------------//
  /// TMEM address (relative to the allocation) thread `t`'s warp passes to
  /// tcgen05.ld.32x32b: lanes 32w.., column dColumn(); the thread receives
  /// lane t, i.e. row t of the tile.
  template <class V> V resultTmemOffset(V t) const {
    return (t / kWarpSize) * (kWarpSize * 65536) + dColumn();
  }
  /// The same for vector `vec`'s column of D.
  template <class V> V resultTmemOffset(V t, int64_t vec) const {
    if (vec == 0)
      return resultTmemOffset(t);
    return (t / kWarpSize) * (kWarpSize * 65536) + (dColumn() + vec);
  }
};

} // namespace nvfp4::tcgen05::plan

#endif // NVFP4_SUPPORT_TCGEN05PLAN_H
