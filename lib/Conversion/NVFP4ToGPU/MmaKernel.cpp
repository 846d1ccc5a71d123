//===- MmaKernel.cpp - the tensor-core (mma.sync) GEMV kernel body --------===//
//
// decode=mma. A warp owns rows-per-thread / 2 tiles of 16 rows of one batch
// and computes them against up to 8 vectors per m16n8k16 MMA (f16
// operands, bf16 for b of bf16 values; f32 accumulators; two MMAs for up
// to 16 vectors). Lane (g, t) = (lane / 4, lane % 4) loads, at each step
// of 64 bytes, the 16 bytes at 16 t of rows g and g + 8 of every tile and
// of vector g: the four lanes of a quad read 64 consecutive bytes. It
// decodes them into pairs,
// each value times its block scale (exact, docs/numerics.md section 11),
// and hands them to the MMAs as they are: an MMA sums its K positions in no
// particular order, so a lane may bring any 4 values of a row to each MMA
// as long as its B fragment brings the same 4 of the vector. K is cut into
// split-k slices of whole steps, one per warp of a CTA (partials added in
// shared memory in slice order; long slices interleave step by step), and with
// cta-split-k across CTAs too (the last CTA of a row block adds their sums from
// a global workspace in CTA order); a row's last step may be partial
// (predicated, with loads clamped to the row). With async-copy-stages, a
// lane copies its bytes of each whole step (cp.async) into its own slots of
// its warp's stages in dynamic shared memory, stages - 1 steps ahead of the
// step it decodes, so that loads stay in flight during the MMAs without
// registers to hold them. A lane waits for its own copies; lanes of the
// vectors past N read the slots of b of the lane that copied vector N - 1,
// after a warp barrier.
//
//===----------------------------------------------------------------------===//

#include "GemvKernel.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/GemvOutlining.h"
#include "nvfp4/Conversion/Common/IndexValue.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"
#include "nvfp4/Support/GemvCostModel.h"
#include "nvfp4/Support/Reference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

namespace cost = ::nvfp4::cost;

// An operand is value * scale * 2^kOperandExp: every product of an e2m1
// value and an e4m3 scale (at most 6 significant bits) is then an f16 or
// bf16 between 2^-17 and 21. A decoded code is its value times 2^-14 in
// f16 (2^-126 in bf16, b of bf16 values): f16's (bf16's) subnormal 2^-15
// (2^-127) is e2m1's 0.5, and the scale brings the rest.
constexpr int kOperandExp = ::nvfp4::ref::kMmaOperandExp;
constexpr int kF16DecodeExp = -14, kBF16DecodeExp = -126;
constexpr int64_t kTileRows = 16;
using cost::kMmaVectors;
// prmt selectors: bytes 0 and 1 (2 and 3) of the first word into the high
// bytes of an f16 pair, zero bytes from the second into the low ones.
constexpr int64_t kHighBytes01 = 0x1404, kHighBytes23 = 0x3424;

struct MmaBuilder {
  MmaBuilder(OpBuilder &b, Location loc, GemvOp op, const KernelConfig &cfg)
      : b(b), loc(loc), op(op), cfg(cfg),
        slicing(cost::sliceMmaK(rowBytes(), cfg.splitK * cfg.ctaSplitK)) {}

  OpBuilder &b;
  Location loc;
  GemvOp op;
  const KernelConfig &cfg;
  cost::MmaSlicing slicing;
  Value a, sfa, vec, sfb, c, alpha, partials;
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
  Value vectorIds[2]; // vector g and g + 8, clamped to N - 1

  int64_t rowBytes() { return op.getA().getType().getDimSize(2); }
  int64_t numRows() { return op.getA().getType().getDimSize(1); }
  int64_t vectors() { return op.getNumVectors(); }
  int64_t tiles() { return cfg.rowsPerThread / 2; }
  int64_t halves() { return vectors() > kMmaVectors ? 2 : 1; }
  bool packed() { return op.hasPackedB(); }

  /// The MMA's operands: bf16 for b of bf16 values, else f16.
  bool bf16() {
    return !packed() && op.getB().getType().getElementType().isBF16();
  }
  Type operandType() {
    return bf16() ? Type(b.getBF16Type()) : Type(b.getF16Type());
  }
  Type pairType() { return VectorType::get({2}, operandType()); }
  Value zeroPairs(VectorType type) {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, b.getFloatAttr(operandType(), 0.0)));
  }
  Type accType() { return VectorType::get({2, 2}, b.getF32Type()); }
  Value idx(int64_t v) { return IV::index(b, loc, v); }

  /// The operand pair of an i32's bits.
  Value asPair(Value word) {
    return LLVM::BitcastOp::create(b, loc, pairType(), word);
  }

  /// The four f16 pairs of the 8 codes of `word`, each value times 2^-14:
  /// a code's sign goes to bit 15 and its exponent and mantissa bits to
  /// 11..9, so e2m1's subnormal 0.5 lands on f16's subnormal 2^-15. The high
  /// bytes are built for the four low nibbles at once, then for the high
  /// ones, and spread into pairs over zero low bytes. The pairs hold values
  /// (0, 2), (4, 6), (1, 3), (5, 7) of the word; B's are paired alike.
  SmallVector<Value> decodeWord(Value x) {
    if (bf16())
      return decodeWordBF16(x);
    ScalarOps o{b, loc};
    Value lowNibbles =
        o.ori(o.andi(o.shl(x, 1), 0x0E0E0E0E), o.andi(o.shl(x, 4), 0x80808080));
    Value highNibbles =
        o.ori(o.andi(o.shr(x, 3), 0x0E0E0E0E), o.andi(x, 0x80808080));
    SmallVector<Value> pairs;
    for (Value bytes : {lowNibbles, highNibbles})
      for (int64_t selector : {kHighBytes01, kHighBytes23})
        pairs.push_back(
            asPair(buildPermute(b, loc, bytes, o.i32(0), o.i32(selector))));
    return pairs;
  }

  /// The four bf16 pairs of the 8 codes of `word`, each value times
  /// 2^-126: code i and i + 4 in pair i, a code's sign to bit 15 of its
  /// half and its exponent and mantissa bits to 8..6 (across the half's
  /// bytes, so no byte permute: shifts and masks).
  SmallVector<Value> decodeWordBF16(Value x) {
    ScalarOps o{b, loc};
    auto shift = [&](int64_t by) {
      return by > 0 ? o.shl(x, by) : by < 0 ? o.shr(x, -by) : x;
    };
    SmallVector<Value> pairs;
    for (int64_t i = 0; i < 4; ++i)
      pairs.push_back(asPair(o.ori(o.andi(shift(6 - 4 * i), 0x01C001C0),
                                   o.andi(shift(12 - 4 * i), 0x80008000))));
    return pairs;
  }

  /// 16-bit values of b in the order decodeWord gives a's codes, from 8
  /// values in four words of pairs: (0, 2), (4, 6), (1, 3), (5, 7) for
  /// f16, (0, 4), (1, 5), (2, 6), (3, 7) for bf16.
  SmallVector<Value> repairValues(ArrayRef<Value> words) {
    SmallVector<Value> p;
    for (Value w : words)
      p.push_back(asPair(w));
    auto pick = [&](Value x, Value y, int64_t i, int64_t step) {
      return vector::ShuffleOp::create(b, loc, x, y,
                                       ArrayRef<int64_t>{i, i + step});
    };
    if (bf16())
      return {pick(p[0], p[2], 0, 2), pick(p[0], p[2], 1, 2),
              pick(p[1], p[3], 0, 2), pick(p[1], p[3], 1, 2)};
    return {pick(p[0], p[1], 0, 2), pick(p[2], p[3], 0, 2),
            pick(p[0], p[1], 1, 2), pick(p[2], p[3], 1, 2)};
  }

  /// Both scales of a chunk (vector<2xi8>: its first and second 8 bytes)
  /// as splats of the operand type, times 2^(kOperandExp - the decode's
  /// exponent). cvt.rn.f16x2.e4m3x2 is exact, NaN included; bf16 scales
  /// go through f32 (times 2^119, past f16's range), exact as well.
  std::pair<Value, Value> decodeScales(Value bytes) {
    Type f8 = b.getType<Float8E4M3FNType>();
    auto f16Pair = VectorType::get({2}, b.getF16Type());
    Value pair = NVVM::ConvertF8x2ToF16x2Op::create(b, loc, f16Pair, bytes,
                                                    /*relu=*/false, f8);
    auto bias = [&](VectorType type, int exponent) {
      return arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(type,
                                 b.getFloatAttr(type.getElementType(),
                                                std::ldexp(1.0, exponent))));
    };
    if (bf16()) {
      auto f32Pair = VectorType::get({2}, b.getF32Type());
      pair = arith::ExtFOp::create(b, loc, f32Pair, pair);
      pair = arith::MulFOp::create(b, loc, pair,
                                   bias(f32Pair, kOperandExp - kBF16DecodeExp));
      pair = arith::TruncFOp::create(b, loc, pairType(), pair);
    } else {
      pair = arith::MulFOp::create(b, loc, pair,
                                   bias(f16Pair, kOperandExp - kF16DecodeExp));
    }
    auto splat = [&](int64_t i) {
      return vector::ShuffleOp::create(b, loc, pair, pair,
                                       ArrayRef<int64_t>{i, i});
    };
    return {splat(0), splat(1)};
  }

  /// The scale bytes of columns `cols` (two) of `row` of `scales` (row 0
  /// for a vector's), as vector<2xi8>; one 16-bit load when paired.
  Value loadScaleBytes(Value scales, bool isVector, Value row,
                       ArrayRef<Value> cols, bool paired) {
    auto bytesType = VectorType::get({2}, b.getI8Type());
    if (paired) {
      return buildLoadScaleBytes(b, loc, scales,
                                 buildScaleIndices(b, loc, op.getLayout(),
                                                   isVector, batch, row,
                                                   cols[0]),
                                 2);
    }
    SmallVector<Value> bits;
    for (Value col : cols)
      bits.push_back(
          buildLoadScaleBits(b, loc, scales,
                             buildScaleIndices(b, loc, op.getLayout(), isVector,
                                               batch, row, col)));
    return vector::FromElementsOp::create(b, loc, bytesType, bits);
  }

  /// Where one lane's chunk of a step lies: `bytes[h]` is the row offset of
  /// its half h (8 bytes, one block), `valid[h]` whether that half is in
  /// the row (null: always). Whole steps load 16 bytes at bytes[0].
  struct Chunk {
    Value bytes[2];
    Value valid[2];
    Value cols[2];
    bool whole;
  };

  /// Row offset of this lane's 16 bytes at step `step`.
  IV chunkByte(Value step) {
    return (IV(b, loc, step) * cost::kMmaLanesPerRow + IV(b, loc, quadLane)) *
           cost::kMmaBytesPerLoad;
  }

  Chunk wholeChunk(Value step) {
    Chunk ch;
    IV byte = chunkByte(step);
    ch.bytes[0] = byte;
    ch.bytes[1] = byte + 8;
    ch.cols[0] = byte / 8;
    ch.cols[1] = byte / 8 + 1;
    ch.valid[0] = ch.valid[1] = Value();
    ch.whole = true;
    return ch;
  }

  /// The row's last, partial step: halves past the row load its last 8
  /// bytes (valid memory) and count as zero.
  Chunk tailChunk() {
    Chunk ch;
    IV byte = chunkByte(idx(slicing.fullSteps));
    for (int64_t h = 0; h < 2; ++h) {
      IV half = byte + 8 * h;
      ch.valid[h] = vult(half, rowBytes() - 7);
      ch.bytes[h] = vmin(half, rowBytes() - 8);
      ch.cols[h] = IV(b, loc, ch.bytes[h]) / 8;
    }
    ch.whole = false;
    return ch;
  }

  /// Whether a chunk's 16 bytes are 16-byte aligned in every row: rows of
  /// an odd number of 8-byte blocks start 8 bytes off every other row.
  bool alignedChunks() { return rowBytes() % cost::kMmaBytesPerLoad == 0; }

  /// The i32 words of a's (or packed b's) 16 bytes of `chunk`.
  SmallVector<Value> loadCodes(Value memref, SmallVector<Value> prefix,
                               const Chunk &ch, bool streaming) {
    auto at = [&](Value byte) {
      SmallVector<Value> indices = prefix;
      indices.push_back(byte);
      return indices;
    };
    if (ch.whole && alignedChunks())
      return loadWords(b, loc, memref, at(ch.bytes[0]), 16, streaming);
    SmallVector<Value> words =
        loadWords(b, loc, memref, at(ch.bytes[0]), 8, streaming);
    words.append(loadWords(b, loc, memref, at(ch.bytes[1]), 8, streaming));
    return words;
  }

  /// What one step loads, undecoded.
  struct StepLoads {
    Chunk chunk;
    SmallVector<SmallVector<Value>> aWords; // per row of rows
    SmallVector<Value> aScales;             // per row, vector<2xi8>
    SmallVector<SmallVector<Value>> bWords; // per vector half
    SmallVector<Value> bScales;             // per vector half (packed)
  };

  SmallVector<Value> vectorPrefix(Value vector) {
    if (!op.hasVectorDim())
      return {batch};
    return {batch, vector};
  }

  StepLoads loadStep(const Chunk &ch) {
    StepLoads s;
    s.chunk = ch;
    bool paired = ch.whole && chunkScalesAdjacent(op, cost::kMmaBytesPerLoad);
    for (Value row : rows) {
      s.aWords.push_back(loadCodes(a, {batch, row}, ch, cfg.cacheHints));
      s.aScales.push_back(loadScaleBytes(sfa, false, row, ch.cols, paired));
    }
    for (int64_t h = 0; h < halves(); ++h) {
      Value v = vectorIds[h];
      if (packed()) {
        s.bWords.push_back(loadCodes(vec, vectorPrefix(v), ch, false));
        // N vectors' scales are a matrix of N rows; one vector's a row.
        s.bScales.push_back(
            op.hasVectorDim()
                ? loadScaleBytes(sfb, false, v, ch.cols, paired)
                : loadScaleBytes(sfb, true, idx(0), ch.cols, paired));
        continue;
      }
      // 16-bit b: the chunk's 32 values, 8 a load (clamped like a's halves).
      SmallVector<Value> words;
      for (int64_t h8 = 0; h8 < 2; ++h8)
        for (int64_t q = 0; q < 2; ++q) {
          SmallVector<Value> indices = vectorPrefix(v);
          indices.push_back(IV(b, loc, ch.bytes[h8]) * 2 + 8 * q);
          words.append(loadWords(b, loc, vec, indices, 16, false));
        }
      s.bWords.push_back(words);
    }
    return s;
  }

  /// The MMA operands of 16 bytes of codes with their two scales: per word,
  /// its four pairs times the scale of its half (zero where the half is
  /// not in the row).
  SmallVector<Value> scaledOperands(ArrayRef<Value> words, Value scaleBytes,
                                    const Chunk &ch) {
    auto [s0, s1] = decodeScales(scaleBytes);
    SmallVector<Value> out;
    for (auto [w, word] : llvm::enumerate(words))
      for (Value pair : decodeWord(word))
        out.push_back(arith::MulFOp::create(b, loc, pair, w < 2 ? s0 : s1));
    return maskHalves(out, ch);
  }

  SmallVector<Value> maskHalves(SmallVector<Value> operands, const Chunk &ch) {
    if (ch.whole)
      return operands;
    Value zero = zeroPairs(cast<VectorType>(pairType()));
    // Operand i comes from word i / 4, of half i / 8.
    for (size_t i = 0; i < operands.size(); ++i)
      operands[i] =
          arith::SelectOp::create(b, loc, ch.valid[i / 8], operands[i], zero);
    return operands;
  }

  /// `acc` (vector<2x2xf32>) plus the m16n8k16 MMA of the A and B
  /// fragments `aPairs` (4) and `bPairs` (2) of operand pairs: f16 through
  /// nvgpu.mma.sync; bf16, which it does not lower, as nvvm.mma.sync with
  /// the pairs as i32.
  Value mma(ArrayRef<Value> aPairs, ArrayRef<Value> bPairs, Value acc) {
    if (!bf16()) {
      auto fragment = [&](ArrayRef<Value> pairs) {
        auto type = VectorType::get({int64_t(pairs.size()), 2}, b.getF16Type());
        Value f = zeroPairs(type);
        for (auto [i, p] : llvm::enumerate(pairs))
          f = vector::InsertOp::create(b, loc, p, f, int64_t(i));
        return f;
      };
      return nvgpu::MmaSyncOp::create(b, loc, fragment(aPairs),
                                      fragment(bPairs), acc,
                                      ArrayRef<int64_t>{16, 8, 16});
    }
    auto bits = [&](ArrayRef<Value> pairs) {
      SmallVector<Value> words;
      for (Value p : pairs)
        words.push_back(
            LLVM::BitcastOp::create(b, loc, b.getI32Type(), p).getResult());
      return words;
    };
    SmallVector<Value> c;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        c.push_back(
            vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j}));
    Type f32 = b.getF32Type();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
    Value d =
        NVVM::MmaOp::create(b, loc, resultType, bits(aPairs), bits(bPairs), c,
                            {16, 8, 16}, std::nullopt, std::nullopt,
                            std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                                          NVVM::MMATypes::bf16},
                            std::array<NVVM::MMALayout, 2>{
                                NVVM::MMALayout::row, NVVM::MMALayout::col});
    SmallVector<Value> elements;
    for (int64_t e = 0; e < 4; ++e)
      elements.push_back(LLVM::ExtractValueOp::create(b, loc, d, e));
    return vector::FromElementsOp::create(b, loc, accType(), elements);
  }

  /// acc[r * halves + h] plus one step's MMAs.
  SmallVector<Value> computeStep(const StepLoads &s, ArrayRef<Value> acc) {
    SmallVector<SmallVector<Value>> aOps, bOps;
    for (auto [words, scales] : llvm::zip(s.aWords, s.aScales))
      aOps.push_back(scaledOperands(words, scales, s.chunk));
    for (int64_t h = 0; h < halves(); ++h) {
      if (packed()) {
        bOps.push_back(scaledOperands(s.bWords[h], s.bScales[h], s.chunk));
        continue;
      }
      SmallVector<Value> ops;
      for (int64_t w = 0; w < 4; ++w)
        ops.append(repairValues(ArrayRef<Value>(s.bWords[h]).slice(4 * w, 4)));
      bOps.push_back(maskHalves(ops, s.chunk));
    }
    SmallVector<Value> out(acc);
    // Operands 2m and 2m + 1 of a row are one MMA's K positions.
    for (int64_t m = 0; m < 8; ++m)
      for (int64_t r = 0; r < tiles(); ++r) {
        ArrayRef<Value> top = aOps[2 * r], bottom = aOps[2 * r + 1];
        for (int64_t h = 0; h < halves(); ++h) {
          Value &sum = out[r * halves() + h];
          sum = mma(
              {top[2 * m], bottom[2 * m], top[2 * m + 1], bottom[2 * m + 1]},
              {bOps[h][2 * m], bOps[h][2 * m + 1]}, sum);
        }
      }
    return out;
  }

  /// `count` whole steps of this warp, the j-th at `stepOf(j)`, `group`
  /// steps' loads issued before any of them is decoded.
  SmallVector<Value> buildStepLoop(function_ref<IV(IV)> stepOf, Value count,
                                   int64_t group, ArrayRef<Value> acc) {
    IV groups = IV(b, loc, count) / group;
    auto loop = scf::ForOp::create(b, loc, idx(0), groups, idx(1), acc);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      IV base = IV(b, loc, loop.getInductionVar()) * group;
      SmallVector<StepLoads, 1> loads;
      for (int64_t u = 0; u < group; ++u)
        loads.push_back(loadStep(wholeChunk(stepOf(base + u))));
      SmallVector<Value> sums(loop.getRegionIterArgs());
      for (const StepLoads &s : loads)
        sums = computeStep(s, sums);
      scf::YieldOp::create(b, loc, sums);
    }
    SmallVector<Value> sums(loop.getResults());
    if (group == 1)
      return sums;
    IV done = groups * group;
    return buildStepLoop([&](IV j) { return stepOf(done + j); },
                         IV(b, loc, count) - done, 1, sums);
  }

  //--- async-copy-stages ----------------------------------------------===//

  int64_t stages() { return cfg.asyncCopyStages; }
  /// Whether lanes of vector g + 8 h >= N need vector N - 1's stage slots:
  /// they read the copying lane's (copies of one address from several lanes
  /// of a warp made the kernel 5-13x slower on the H200).
  bool sharesVectorSlots(int64_t h) {
    return vectors() < kMmaVectors * (h + 1);
  }
  bool sharesAnySlots() { return sharesVectorSlots(halves() - 1); }
  MmaStageLayout stageLayout() { return mmaStageLayout(op, cfg); }
  int64_t warpsPerCta() { return cfg.threads() / ::nvfp4::kWarpSize; }

  Value i32(IV x) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), x);
  }
  Value sharedAt(Value base, Value byteOffset) {
    return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                               ValueRange{byteOffset});
  }
  /// Byte offset of stage `slot` from the warp's stage 0.
  IV slotOffset(Value slot) {
    return IV(b, loc, slot) * (warpsPerCta() * stageLayout().bytes());
  }
  Value codeSlot(Value slotOff, int64_t i) {
    return sharedAt(laneCodes,
                    i32(IV(b, loc, slotOff) + MmaStageLayout::codeSlot(i)));
  }
  Value wordSlot(Value slotOff, int64_t w) {
    return sharedAt(laneWords,
                    i32(IV(b, loc, slotOff) + stageLayout().wordSlot(w) -
                        stageLayout().wordSlot(0)));
  }

  /// cp.async of `bytes` at the generic address `src` (global memory) into
  /// `dst`; cp.async.cg (L2 only) exists for 16-byte copies alone.
  void copyAsync(Value dst, Value src, int64_t bytes) {
    Value global = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), src);
    NVVM::CpAsyncOp::create(
        b, loc, dst, global, b.getI32IntegerAttr(bytes),
        NVVM::LoadCacheModifierKindAttr::get(
            b.getContext(), bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                        : NVVM::LoadCacheModifierKind::CA),
        /*cpSize=*/Value());
  }

  /// The 16 bytes of codes at `indices` (row offset last) of `memref`: one
  /// copy where rows keep them aligned, else two of 8 bytes.
  void copyCodes(Value dst, Value memref, SmallVector<Value> indices) {
    if (alignedChunks()) {
      copyAsync(dst, elementPointer(b, loc, memref, indices), 16);
      return;
    }
    for (int64_t h = 0; h < 2; ++h) {
      SmallVector<Value> at = indices;
      at.back() = IV(b, loc, at.back()) + 8 * h;
      copyAsync(sharedAt(dst, i32(IV::index(b, loc, 8 * h))),
                elementPointer(b, loc, memref, at), 8);
    }
  }

  /// Byte of a lane's scale pair in its 4-byte word: columns 2 t and 2 t + 1
  /// sit at 2 t mod 4 in both layouts (blocked: column mod 4; linear: rows
  /// of a multiple of 4 columns and steps of 8, resolveMmaStages), so the
  /// pair never straddles a word.
  IV pairInWord() { return (IV(b, loc, quadLane) % 2) * 2; }

  /// The aligned 4-byte word that holds the scale pair of columns `col`,
  /// `col` + 1 of `row`.
  void copyScaleWord(Value dst, Value scales, bool isVector, Value row,
                     Value col) {
    Value pair = elementPointer(
        b, loc, scales,
        buildScaleIndices(b, loc, op.getLayout(), isVector, batch, row, col));
    Value back = arith::SubIOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0),
        arith::IndexCastOp::create(b, loc, b.getI64Type(), pairInWord()));
    copyAsync(dst,
              LLVM::GEPOp::create(b, loc, pair.getType(), b.getI8Type(), pair,
                                  ValueRange{back}),
              MmaStageLayout::kWordBytes);
  }

  /// Copies this lane's bytes of whole step `step` into stage `slot` and
  /// commits them as one group.
  void issueStageCopies(Value step, Value slot) {
    Chunk ch = wholeChunk(step);
    IV off = slotOffset(slot);
    int64_t code = 0, word = 0;
    for (Value row : rows) {
      copyCodes(codeSlot(off, code++), a, {batch, row, ch.bytes[0]});
      copyScaleWord(wordSlot(off, word++), sfa, false, row, ch.cols[0]);
    }
    for (int64_t h = 0; h < halves(); ++h) {
      Value v = vectorIds[h];
      SmallVector<Value> at = vectorPrefix(v);
      // Only the lanes of vector g + 8 h < N copy; the others read theirs.
      std::optional<OpBuilder::InsertionGuard> guard;
      if (sharesVectorSlots(h)) {
        auto ifOp = scf::IfOp::create(
            b, loc, vult(IV(b, loc, laneGroup) + kMmaVectors * h, vectors()),
            /*withElseRegion=*/false);
        guard.emplace(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
      }
      if (packed()) {
        at.push_back(ch.bytes[0]);
        copyCodes(codeSlot(off, code++), vec, at);
        if (op.hasVectorDim())
          copyScaleWord(wordSlot(off, word++), sfb, false, v, ch.cols[0]);
        else
          copyScaleWord(wordSlot(off, word++), sfb, true, idx(0), ch.cols[0]);
        continue;
      }
      // 16-bit b: the chunk's 32 values, as loadStep reads them.
      for (int64_t h8 = 0; h8 < 2; ++h8)
        for (int64_t q = 0; q < 2; ++q) {
          SmallVector<Value> indices = at;
          indices.push_back(IV(b, loc, ch.bytes[h8]) * 2 + 8 * q);
          copyAsync(codeSlot(off, code++), elementPointer(b, loc, vec, indices),
                    16);
        }
    }
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  SmallVector<Value> readCodeSlot(Value slotOff, int64_t i) {
    auto type = VectorType::get({4}, b.getI32Type());
    Value v = LLVM::LoadOp::create(b, loc, type, codeSlot(slotOff, i),
                                   /*alignment=*/16);
    SmallVector<Value> words;
    for (int64_t w = 0; w < 4; ++w)
      words.push_back(vector::ExtractOp::create(b, loc, v, w));
    return words;
  }

  /// The scale pair in word slot `w` (pairInWord).
  Value readScalePair(Value slotOff, int64_t w) {
    Value at = sharedAt(wordSlot(slotOff, w), i32(pairInWord()));
    Value bits =
        LLVM::LoadOp::create(b, loc, b.getI16Type(), at, /*alignment=*/2);
    return LLVM::BitcastOp::create(b, loc, VectorType::get({2}, b.getI8Type()),
                                   bits);
  }

  /// A step's loads, read back from stage `slot`.
  StepLoads readStage(Value step, Value slot) {
    StepLoads s;
    s.chunk = wholeChunk(step);
    IV off = slotOffset(slot);
    int64_t code = 0, word = 0;
    for (size_t r = 0; r < rows.size(); ++r) {
      s.aWords.push_back(readCodeSlot(off, code++));
      s.aScales.push_back(readScalePair(off, word++));
    }
    for (int64_t h = 0; h < halves(); ++h) {
      // The slots of the lane that copied vector g + 8 h: g clamped alike.
      IV lanes =
          (IV(b, loc, vectorIds[h]) - kMmaVectors * h - IV(b, loc, laneGroup)) *
          cost::kMmaLanesPerRow;
      IV codes =
          sharesVectorSlots(h) ? off + lanes * MmaStageLayout::kCodeBytes : off;
      IV words =
          sharesVectorSlots(h) ? off + lanes * MmaStageLayout::kWordBytes : off;
      SmallVector<Value> bWords;
      for (int64_t i = 0; i < (packed() ? 1 : 4); ++i)
        llvm::append_range(bWords, readCodeSlot(codes, code++));
      s.bWords.push_back(bWords);
      if (packed())
        s.bScales.push_back(readScalePair(words, word++));
    }
    return s;
  }

  /// Whole steps [first, first + count) of this warp's slice through the
  /// stages: stages - 1 steps copied ahead; step j's copies target the
  /// slot step j - 1 was read from. Past the slice's last step the copies
  /// repeat it (they stay inside the warp's own bytes; nobody reads them).
  SmallVector<Value> buildAsyncStepLoop(Value first, Value count,
                                        ArrayRef<Value> acc) {
    int64_t ahead = stages() - 1;
    IV last = IV(b, loc, first) + IV(b, loc, count) - 1;
    auto stepAt = [&](IV j) {
      return arith::MinSIOp::create(b, loc, IV(b, loc, first) + j, last)
          .getResult();
    };
    for (int64_t i = 0; i < ahead; ++i)
      issueStageCopies(stepAt(IV::index(b, loc, i)), idx(i));
    auto loop = scf::ForOp::create(b, loc, idx(0), count, idx(1), acc);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      IV j(b, loc, loop.getInductionVar());
      // At most ahead - 1 groups pending: step j's has landed.
      NVVM::CpAsyncWaitGroupOp::create(b, loc, ahead - 1);
      // Lanes read other lanes' copies of b: after all of them landed.
      if (sharesAnySlots())
        NVVM::SyncWarpOp::create(b, loc,
                                 arith::ConstantIntOp::create(b, loc, -1, 32));
      StepLoads s = readStage(IV(b, loc, first) + j, j % stages());
      issueStageCopies(stepAt(j + ahead), (j + ahead) % stages());
      scf::YieldOp::create(
          b, loc, computeStep(s, SmallVector<Value>(loop.getRegionIterArgs())));
    }
    // No copy may still write shared memory when the warp moves on.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
    return SmallVector<Value>(loop.getResults());
  }

  /// Slot of this lane's sum of row rowsInBlock[i] and vector `vector` in
  /// the split-k partials.
  Value partialSlot(int64_t i, Value vector) {
    return IV(b, loc, rowsInBlock[i]) * vectors() + IV(b, loc, vector);
  }

  void build(Value blockX, Value tid0) {
    threadId = tid0;
    // The CTAs of one row block are adjacent, so they run at the same time
    // and the last of them waits little.
    rowBlock = blockX;
    ctaSlice = idx(0);
    if (cfg.ctaSplitK > 1) {
      rowBlock = IV(b, loc, blockX) / cfg.ctaSplitK;
      ctaSlice = IV(b, loc, blockX) % cfg.ctaSplitK;
    }
    if (cfg.pdl) {
      NVVM::GriddepcontrolOp::create(
          b, loc, NVVM::GridDepActionKind::launch_dependents);
      NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
    }
    IV tid(b, loc, threadId);
    IV warp = tid / 32, lane = tid % 32;
    IV g = lane / cost::kMmaLanesPerRow;
    laneGroup = g;
    quadLane = lane % cost::kMmaLanesPerRow;
    int64_t rowWarps = cfg.rowsPerBlock / cost::mmaWarpRows(cfg.rowsPerThread);
    IV warpRow = warp % rowWarps;
    slice = warp / rowWarps;
    kSlice = IV(b, loc, ctaSlice) * cfg.splitK + IV(b, loc, slice);
    for (int64_t r = 0; r < tiles(); ++r)
      for (int64_t i = 0; i < 2; ++i) {
        IV inBlock =
            warpRow * (kTileRows * tiles()) + g + kTileRows * r + 8 * i;
        rowsInBlock.push_back(inBlock);
        IV row = IV(b, loc, rowBlock) * cfg.rowsPerBlock + inBlock;
        rowIds.push_back(row);
        // Rows past M read the last row and store nothing.
        rows.push_back(cfg.rowOffsets ? Value(row) : vminu(row, numRows() - 1));
      }
    for (int64_t h = 0; h < halves(); ++h)
      vectorIds[h] = vminu(g + kMmaVectors * h, vectors() - 1);

    Value zero = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(cast<ShapedType>(accType()),
                               b.getF32FloatAttr(0.0f)));
    SmallVector<Value> acc(tiles() * halves(), zero);
    // This warp's whole steps: [first(s), min(first(s + 1), fullSteps)).
    auto firstStep = [&](IV s) { return s * slicing.steps / slicing.slices; };
    IV lo = firstStep(IV(b, loc, kSlice));
    Value count;
    if (slicing.slices == 1)
      count = idx(slicing.fullSteps);
    else {
      IV end = vmin(firstStep(IV(b, loc, kSlice) + 1), slicing.fullSteps);
      count = arith::SubIOp::create(
          b, loc, arith::MaxUIOp::create(b, loc, end, lo), lo);
    }
    if (stages()) {
      IV stage0 = warp * stageLayout().bytes();
      laneCodes =
          sharedAt(smem, i32(stage0 + lane * MmaStageLayout::kCodeBytes));
      laneWords = sharedAt(smem, i32(stage0 + stageLayout().wordSlot(0) +
                                     lane * MmaStageLayout::kWordBytes));
    }
    if (slicing.fullSteps > 0 && stages()) {
      acc = buildAsyncStepLoop(lo, count, acc);
    } else if (slicing.fullSteps > 0 && slicing.interleaved()) {
      // Long slices interleave: warp s of S takes whole steps s, s + S, ...,
      // so that a CTA's warps read adjacent chunks of their rows at about
      // the same time.
      // Its count: ceil((fullSteps - s) / S).
      int64_t slices = slicing.slices;
      IV s(b, loc, kSlice);
      IV interleavedCount =
          (IV(b, loc, idx(slicing.fullSteps + slices - 1)) - s) / slices;
      acc = buildStepLoop([&](IV j) { return s + j * slices; },
                          interleavedCount, cfg.loadsInFlight, acc);
    } else if (slicing.fullSteps > 0) {
      acc = buildStepLoop([&](IV j) { return IV(b, loc, lo) + j; }, count,
                          cfg.loadsInFlight, acc);
    }
    if (slicing.hasTail()) {
      Value owns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         kSlice, idx(slicing.slices - 1));
      auto ifOp = scf::IfOp::create(b, loc, TypeRange(ValueRange(acc)), owns,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(b, loc, computeStep(loadStep(tailChunk()), acc));
        b.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(b, loc, acc);
      }
      acc = SmallVector<Value>(ifOp.getResults());
    }
    storeSums(acc);
  }

  /// c's indices (or the workspace's after `slice`) of a sum.
  SmallVector<Value> outputIndices(Value row, Value vector,
                                   Value slice = Value()) {
    SmallVector<Value> indices;
    if (slice)
      indices.push_back(slice);
    indices.push_back(batch);
    if (op.hasVectorDim())
      indices.push_back(vector);
    indices.push_back(row);
    return indices;
  }

  /// Adds the slices' partials (split-k, then cta-split-k: the last CTA of
  /// a row block adds every CTA's in order) and stores alpha times each sum
  /// of a row below M and a vector below N, undoing the operands' scaling
  /// first (a power of two: exact).
  void storeSums(ArrayRef<Value> acc) {
    OpBuilder::InsertionGuard guard(b);
    ScalarOps o{b, loc};
    int exponent = -kOperandExp * (packed() ? 2 : 1);
    Value unscale = o.f32(std::ldexp(1.0f, exponent));
    Type outType = op.getC().getType().getElementType();
    // C fragment: element (i, j) is row g + 8 i, column 2 t + j.
    struct Sum {
      int64_t row; // index into rows / rowIds
      Value vector;
      Value value;
    };
    SmallVector<Sum> sums;
    for (int64_t r = 0; r < tiles(); ++r)
      for (int64_t h = 0; h < halves(); ++h)
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < 2; ++j) {
            Value vector = IV(b, loc, quadLane) * 2 + (j + kMmaVectors * h);
            Value v = vector::ExtractOp::create(b, loc, acc[r * halves() + h],
                                                ArrayRef<int64_t>{i, j});
            sums.push_back({2 * r + i, vector, v});
          }
    auto isVector = [&](const Sum &s) {
      return vult(IV(b, loc, s.vector), vectors());
    };
    // Parks a partial sum where `cond` holds.
    auto park = [&](Value cond, Value value, Value memref, ValueRange indices) {
      auto ifOp = scf::IfOp::create(b, loc, cond, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(b, loc, value, memref, indices);
    };
    Value keep = arith::ConstantIntOp::create(b, loc, 1, 1);
    if (cfg.splitK > 1) {
      for (const Sum &s : sums)
        park(isVector(s), s.value, partials,
             ValueRange{slice, partialSlot(s.row, s.vector)});
      gpu::BarrierOp::create(b, loc);
      keep = vult(IV(b, loc, slice), 1);
      // Slice 0 adds the others in order; its own loads stay in range.
      for (Sum &s : sums) {
        Value slot = vminu(IV(b, loc, partialSlot(s.row, s.vector)),
                           cfg.rowsPerBlock * vectors() - 1);
        for (int64_t k = 1; k < cfg.splitK; ++k)
          s.value = arith::AddFOp::create(
              b, loc, s.value,
              memref::LoadOp::create(b, loc, partials,
                                     ValueRange{idx(k), slot}));
      }
    }
    auto stored = [&](const Sum &s) {
      return arith::AndIOp::create(
          b, loc, keep,
          arith::AndIOp::create(b, loc, isVector(s),
                                vult(IV(b, loc, rowIds[s.row]), numRows())));
    };
    if (cfg.ctaSplitK > 1) {
      for (const Sum &s : sums)
        park(stored(s), s.value, workspace,
             outputIndices(rowIds[s.row], s.vector, ctaSlice));
      Value isLast =
          arriveAtCtaSplit(b, loc, counters, ValueRange{batch, rowBlock},
                           lastFlag, threadId, cfg.ctaSplitK);
      auto ifLast = scf::IfOp::create(b, loc, isLast, false);
      b.setInsertionPointToStart(ifLast.thenBlock());
      NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
      // Rows past M and vectors past N read valid partials, unstored.
      for (Sum &s : sums) {
        Value vector = vminu(IV(b, loc, s.vector), vectors() - 1);
        s.value = Value();
        for (int64_t k = 0; k < cfg.ctaSplitK; ++k) {
          Value part = loadCoherent(b, loc, workspace,
                                    outputIndices(rows[s.row], vector, idx(k)));
          s.value = k ? arith::AddFOp::create(b, loc, s.value, part) : part;
        }
      }
    }
    for (const Sum &s : sums) {
      auto ifOp = scf::IfOp::create(b, loc, stored(s), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value result = arith::MulFOp::create(b, loc, s.value, unscale);
      if (alpha)
        result = arith::MulFOp::create(b, loc, result, alpha);
      if (outType != b.getF32Type())
        result = arith::TruncFOp::create(b, loc, outType, result);
      memref::StoreOp::create(b, loc, result, c,
                              outputIndices(rowIds[s.row], s.vector));
    }
    if (cfg.ctaSplitK > 1)
      resetCtaSplit(b, loc, counters, ValueRange{batch, rowBlock}, threadId);
  }
};

} // namespace

void mlir::nvfp4::buildMmaGemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel,
                                         GemvOp op, const KernelConfig &cfg) {
  Location loc = op.getLoc();
  auto addShared = [&](ArrayRef<int64_t> shape, Type element) {
    auto workgroup = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    return kernel.addWorkgroupAttribution(
        MemRefType::get(shape, element, MemRefLayoutAttrInterface(), workgroup),
        loc);
  };
  Value partials, lastFlag;
  if (cfg.splitK > 1)
    partials = addShared({cfg.splitK, cfg.rowsPerBlock * op.getNumVectors()},
                         b.getF32Type());
  if (cfg.ctaSplitK > 1)
    lastFlag = addShared({1}, b.getI32Type());
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  MmaBuilder mb(b, loc, op, cfg);
  mb.a = entry.getArgument(0);
  mb.sfa = entry.getArgument(1);
  mb.vec = entry.getArgument(2);
  unsigned next = 3;
  if (op.getSfb())
    mb.sfb = entry.getArgument(next++);
  mb.c = entry.getArgument(next++);
  if (op.getAlpha())
    mb.alpha = entry.getArgument(next);
  mb.partials = partials;
  mb.lastFlag = lastFlag;
  if (cfg.ctaSplitK > 1)
    std::tie(mb.workspace, mb.counters) = splitKGlobals(b, kernel, op, cfg);
  if (cfg.asyncCopyStages)
    mb.smem = dynamicSharedMemory(b, loc, kernel, "__nvfp4_mma_stages",
                                  /*alignment=*/16);
  mb.batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  mb.build(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
           gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  gpu::ReturnOp::create(b, loc);
}
