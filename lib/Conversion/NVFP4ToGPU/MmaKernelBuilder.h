//===- MmaKernelBuilder.h - the tensor-core GEMV's builder ------*- C++ -*-===//
//
// The state and steps of one tensor-core (decode=mma) GEMV kernel body (the
// design is in MmaKernel.cpp's header): MmaKernel.cpp holds the thread
// roles, the loads, the K loop and the kernel's outline, MmaOperands.cpp the
// decode of codes and scales into MMA operands and the MMAs,
// MmaKernelStages.cpp the cp.async stages of async-copy-stages,
// MmaKernelReduce.cpp the sums' reduction across slices and CTAs and their
// stores.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_MMAKERNELBUILDER_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_MMAKERNELBUILDER_H

#include "GemvKernel.h"

#include "nvfp4/Conversion/Common/IndexValue.h"
#include "nvfp4/Support/GemvCostModel.h"
#include "nvfp4/Support/Reference.h"

namespace mlir::nvfp4 {

/// Builds the body of one tensor-core GEMV kernel: the members hold what
/// the kernel's outline sets up (its arguments, shared buffers, thread
/// roles), the methods emit its parts.
struct MmaBuilder {
  /// An operand is value * scale * 2^kOperandExp: every product of an e2m1
  /// value and an e4m3 scale (at most 6 significant bits) is then an f16 or
  /// bf16 between 2^-17 and 21.
  static constexpr int kOperandExp = ::nvfp4::ref::kMmaOperandExp;
  static constexpr int64_t kTileRows = 16;

  MmaBuilder(OpBuilder &b, Location loc, GemvOp op, const KernelConfig &cfg)
      : b(b), loc(loc), op(op), cfg(cfg),
        slicing(
            ::nvfp4::cost::sliceMmaK(rowBytes(), cfg.splitK * cfg.ctaSplitK)) {}

  OpBuilder &b;
  Location loc;
  GemvOp op;
  const KernelConfig &cfg;
  ::nvfp4::cost::MmaSlicing slicing;
  Value a, sfa, vec, sfb, c, alpha, partials;
  Value aFlat; // tiled codes: a as [L, M * K/2]
  // cta-split-k: the partials of every CTA of a row block, the row blocks'
  // arrival counters, and the workgroup flag "this CTA came last".
  Value workspace, counters, lastFlag;
  // slice: this warp's K slice within its CTA; kSlice: within the row
  // (ctaSlice x split-k + slice).
  Value batch, rowBlock, ctaSlice, threadId, laneGroup, quadLane, slice, kSlice;
  // async-copy-stages: the CTA's dynamic shared memory (ptr<3>), and this
  // lane's first code slot and first word slot in its warp's stage 0.
  Value smem, laneCodes, laneWords;
  // Per tile, rows g and g + 8: their indices (possibly past M), the
  // clamped ones loads use, and their place in the CTA's row block.
  SmallVector<Value> rowIds, rows, rowsInBlock;
  // quad-pairs: the rows of the lane 4 apart (quad g ^ 1), clamped.
  SmallVector<Value> partnerRows;
  Value oddQuad;      // i1: g is odd
  Value vectorIds[2]; // vector g and g + 8, clamped to N - 1
  // quad-pairs: vectors g ^ 1 and (g ^ 1) + 8, clamped.
  Value partnerVectorIds[2];

  int64_t rowBytes() { return op.getA().getType().getDimSize(2); }
  int64_t numRows() { return op.getA().getType().getDimSize(1); }
  int64_t vectors() { return op.getNumVectors(); }
  int64_t tiles() { return cfg.rowsPerThread / 2; }
  int64_t halves() { return ::nvfp4::cost::mmasPerChunk(vectors()); }
  bool packed() { return op.hasPackedB(); }
  Value idx(int64_t v) { return IV::index(b, loc, v); }

  //--- MmaOperands.cpp ------------------------------------------------===//

  /// The MMA's operands: bf16 for b of bf16 values, else f16.
  bool bf16() {
    return !packed() && op.getB().getType().getElementType().isBF16();
  }
  Type operandType();
  Type pairType();
  Value zeroPairs(VectorType type);
  Type accType();
  Value asPair(Value word);
  SmallVector<Value> decodeWord(Value x);
  SmallVector<Value> decodeWordBF16(Value x);
  SmallVector<Value> repairValues(ArrayRef<Value> words);
  std::pair<Value, Value> decodeScales(Value bytes);
  Value mma(ArrayRef<Value> aPairs, ArrayRef<Value> bPairs, Value acc);

  //--- MmaKernel.cpp: a step's loads ----------------------------------===//

  /// Where one lane's chunk of a step lies: `bytes[h]` is the row offset of
  /// its half h (8 bytes, one block), `valid[h]` whether that half is in
  /// the row (null: always). Whole steps load 16 bytes at bytes[0].
  struct Chunk {
    Value bytes[2];
    Value valid[2];
    Value cols[2];
    bool whole;
  };

  /// What one step loads, undecoded.
  struct StepLoads {
    Chunk chunk;
    SmallVector<SmallVector<Value>> aWords; // per row of rows
    SmallVector<Value> aScales;             // per row, vector<2xi8>
    SmallVector<SmallVector<Value>> bWords; // per vector half
    SmallVector<Value> bScales;             // per vector half (packed)
  };

  Value loadScaleBytes(Value scales, bool isVector, Value row,
                       ArrayRef<Value> cols, bool paired);
  IV chunkByte(Value step);
  Chunk wholeChunk(Value step);
  Chunk tailChunk();
  /// Whether a chunk's 16 bytes are 16-byte aligned in every row: rows of
  /// an odd number of 8-byte blocks start 8 bytes off every other row.
  bool alignedChunks() {
    return rowBytes() % ::nvfp4::cost::kMmaBytesPerLoad == 0;
  }
  SmallVector<Value> loadCodes(Value memref, SmallVector<Value> prefix,
                               const Chunk &ch, bool streaming);
  SmallVector<Value> vectorPrefix(Value vector);
  /// The memref a's codes load from and the indices of byte `byte` of
  /// `row`: a itself, or for tiled codes its batches as flat byte runs
  /// (aFlat), indexed by the tiled offset.
  Value codeMemref() { return aFlat ? aFlat : a; }
  SmallVector<Value> codeIndices(Value row, Value byte);
  /// The loads of step `ch`; a's words are `codes` and packed b's
  /// `bCodes` where given.
  StepLoads loadStep(const Chunk &ch, ArrayRef<SmallVector<Value>> codes = {},
                     ArrayRef<SmallVector<Value>> bCodes = {});
  /// Words per row (a row of a, or a vector).
  using RowWords = SmallVector<SmallVector<Value>>;
  /// The words of two steps.
  struct WordPair {
    RowWords first, second;
  };
  WordPair loadCodePair(Value memref, ArrayRef<SmallVector<Value>> evenRows,
                        ArrayRef<SmallVector<Value>> oddRows, const Chunk &c0,
                        const Chunk &c1, bool streaming);
  SmallVector<Value> buildPairedStepLoop(function_ref<IV(IV)> stepOf,
                                         Value count, ArrayRef<Value> acc);

  //--- MmaOperands.cpp: a step's MMAs ---------------------------------===//

  SmallVector<Value> scaledOperands(ArrayRef<Value> words, Value scaleBytes,
                                    const Chunk &ch);
  SmallVector<Value> maskHalves(SmallVector<Value> operands, const Chunk &ch);
  SmallVector<Value> computeStep(const StepLoads &s, ArrayRef<Value> acc);

  //--- MmaKernel.cpp: the K loop and the outline ----------------------===//

  SmallVector<Value> buildStepLoop(function_ref<IV(IV)> stepOf, Value count,
                                   int64_t group, ArrayRef<Value> acc);
  void build(Value blockX, Value tid0);

  //--- MmaKernelStages.cpp --------------------------------------------===//

  int64_t stages() { return cfg.asyncCopyStages; }
  /// Whether lanes of vector g + 8 h >= N need vector N - 1's stage slots:
  /// they read the copying lane's (copies of one address from several lanes
  /// of a warp made the kernel 5-13x slower on the H200).
  bool sharesVectorSlots(int64_t h) {
    return vectors() < ::nvfp4::cost::kMmaVectors * (h + 1);
  }
  bool sharesAnySlots() { return sharesVectorSlots(halves() - 1); }
  MmaStageLayout stageLayout() { return mmaStageLayout(op, cfg); }
  int64_t warpsPerCta() { return cfg.threads() / ::nvfp4::kWarpSize; }
  Value i32(IV x);
  Value sharedAt(Value base, Value byteOffset);
  IV slotOffset(Value slot);
  Value codeSlot(Value slotOff, int64_t i);
  Value wordSlot(Value slotOff, int64_t w);
  void copyAsync(Value dst, Value src, int64_t bytes);
  void copyCodes(Value dst, Value memref, SmallVector<Value> indices);
  IV pairInWord();
  void copyScaleWord(Value dst, Value scales, bool isVector, Value row,
                     Value col);
  void issueStageCopies(Value step, Value slot);
  SmallVector<Value> readCodeSlot(Value slotOff, int64_t i);
  Value readScalePair(Value slotOff, int64_t w);
  StepLoads readStage(Value step, Value slot);
  SmallVector<Value> buildAsyncStepLoop(Value first, Value count,
                                        ArrayRef<Value> acc);

  //--- MmaKernelReduce.cpp --------------------------------------------===//

  Value partialSlot(int64_t i, Value vector);
  SmallVector<Value> outputIndices(Value row, Value vector,
                                   Value slice = Value());
  void storeSums(ArrayRef<Value> acc);
};

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_MMAKERNELBUILDER_H
