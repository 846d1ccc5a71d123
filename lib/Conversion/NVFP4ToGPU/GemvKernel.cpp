//===- GemvKernel.cpp - the CUDA-core GEMV kernel body --------------------===//
//
// A CTA owns rows-per-block rows of one batch (grid: row blocks x
// cta-split-k, L). Groups of lanes-per-row threads share rows-per-thread
// rows; at each step a thread loads bytes-per-load bytes of each of its rows
// at the same K offset, so the vector b (and its scales) is loaded and
// decoded once for all of them. Consecutive lanes read consecutive chunks: a
// warp's loads are coalesced. A row's chunks are cut into split-k x
// cta-split-k slices of whole steps (the last slice may be shorter, and its
// last step partial: lanes past the row's end load a valid chunk and discard
// it). After the K loop the lanes of a group combine their sums with
// shuffles, the slices of a CTA theirs through shared memory, and with
// cta-split-k the CTAs of a row block theirs through a workspace global to
// the kernel's module: the last CTA to finish (a counter per row block) adds
// the partials in slice order, so every run gives the same bits.
//
//===----------------------------------------------------------------------===//

#include "GemvKernel.h"
#include "TmaCopy.h"
#include "UnitDot.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/IndexValue.h"
#include "nvfp4/Conversion/Common/TensorMapIR.h"
#include "nvfp4/Support/GemvCostModel.h"
#include "nvfp4/Support/ScaleLayout.h"
#include "nvfp4/Support/TensorMap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;

/// Generic `!llvm.ptr` to `memref[indices]`, for loads no memref op
/// expresses (inline PTX, atomic orderings).
static Value elementPointer(OpBuilder &b, Location loc, Value memref,
                            ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  IV linear = IV::index(b, loc, offset);
  for (auto [i, index] : llvm::enumerate(indices))
    linear = linear + IV(b, loc, index) * strides[i];
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  linear = linear * elementBytes;
  IV base(b, loc,
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
  Value addr =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), base + linear);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
}

/// Loads `bytes` (8 or 16) bytes at `memref[indices]` (of any element
/// type) as i32 words. With `streaming`, the load takes the read-only path
/// without allocating in L1 (the matrix is read exactly once); PTX has no
/// MLIR op for that hint.
SmallVector<Value> mlir::nvfp4::loadWords(OpBuilder &b, Location loc,
                                          Value memref, ValueRange indices,
                                          int64_t bytes, bool streaming) {
  int64_t count = bytes / 4;
  SmallVector<Value> words;
  if (!streaming) {
    Type element = cast<MemRefType>(memref.getType()).getElementType();
    auto vecType =
        VectorType::get({bytes * 8 / element.getIntOrFloatBitWidth()}, element);
    Value v =
        vector::LoadOp::create(b, loc, vecType, memref, indices,
                               /*nontemporal=*/false, llvm::MaybeAlign(bytes));
    Value w = vector::BitCastOp::create(
        b, loc, VectorType::get({count}, b.getI32Type()), v);
    for (int64_t i = 0; i < count; ++i)
      words.push_back(vector::ExtractOp::create(b, loc, w, i));
    return words;
  }
  Value ptr = elementPointer(b, loc, memref, indices);
  SmallVector<Type> fields(count, b.getI32Type());
  auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  std::string regs, constraints;
  for (int64_t i = 0; i < count; ++i) {
    regs += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=r,";
  }
  std::string asmText = "ld.global.nc.L1::no_allocate.v" +
                        std::to_string(count) + ".u32 {" + regs + "}, [$" +
                        std::to_string(count) + "];";
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, structType, ValueRange{ptr}, asmText, constraints + "l",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  for (int64_t i = 0; i < count; ++i)
    words.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0),
                                                 ArrayRef<int64_t>{i}));
  return words;
}

bool mlir::nvfp4::chunkScalesAdjacent(GemvOp op, int64_t bytesPerLoad) {
  if (op.getFormat() != ScaleFormat::NVFP4 || bytesPerLoad != 16)
    return false;
  int64_t cols =
      op.getA().getType().getDimSize(2) * 2 / getBlockSize(op.getFormat());
  return op.getLayout() == ScaleLayout::Blocked128x4 || cols % 2 == 0;
}

namespace {

struct KernelBuilder {
  KernelBuilder(OpBuilder &b, Location loc, GemvOp op, const KernelConfig &cfg)
      : b(b), loc(loc), op(op), cfg(cfg) {}

  OpBuilder &b;
  Location loc;
  GemvOp op;
  const KernelConfig &cfg;
  Value a, sfa, vec, sfb, c, alpha;
  Value batch, lane, slice;
  Value sliceChunk; // first chunk of this thread's K slice
  Value rowBlock;   // this CTA's row block
  Value ctaSlice;   // this CTA's K slice (cta-split-k > 1)
  Value workspace;  // [cta-split-k, L, M] f32 partials (cta-split-k > 1)
  Value counters;   // [L, row blocks] i32 arrivals (cta-split-k > 1)
  Value lastFlag;   // workgroup i32: this CTA finishes its row block
  SmallVector<Value> rowIds; // this thread's rows, possibly past M
  Value partials;    // workgroup buffer [split-k, rows-per-block] when split
  Value preparedVec; // workgroup buffer of b prepared for dp4a, if shared
  Value stages;      // workgroup buffer of a's async copies, if any
  Value tmaMap;      // tensor map of a (tma)
  Value barriers;    // full, then empty mbarriers of the stages (tma)
  Value rowInBlock;  // this thread's first row in the CTA's row block
  Value threadId;    // thread index in the CTA (x)
  SmallVector<Value> rows; // clamped row indices, one per rows-per-thread

  int64_t rowBytes() { return op.getA().getType().getDimSize(2); }
  /// N, and whether b is packed e2m1 (else 16-bit values, no scales).
  int64_t vectors() { return op.getNumVectors(); }
  bool packedVector() { return op.hasPackedB(); }
  /// i32 words of b a step loads per vector: 16-bit values take four
  /// times the bytes of e2m1 codes.
  int64_t vectorStepWords() {
    return packedVector() ? cfg.bytesPerLoad / 4 : cfg.bytesPerLoad;
  }
  /// Indices of b's element `element` of vector `v`.
  SmallVector<Value> vectorIndices(int64_t v, Value element) {
    if (!op.hasVectorDim())
      return {batch, element};
    return {batch, IV::index(b, loc, v), element};
  }
  /// Indices of c's element of vector `v`, row `row`.
  SmallVector<Value> outputIndices(int64_t v, Value row) {
    if (!op.hasVectorDim())
      return {batch, row};
    return {batch, IV::index(b, loc, v), row};
  }
  int64_t numRows() { return op.getA().getType().getDimSize(1); }
  int64_t chunks() { return rowBytes() / cfg.bytesPerLoad; }
  ScaleFormat format() { return op.getFormat(); }

  /// Scale column of the 8-byte unit at byte `kByte` of a row.
  Value unitColumn(Value kByte) {
    return IV(b, loc, kByte) * 2 / getBlockSize(format());
  }

  /// Two NVFP4 scales of one 16-byte load are adjacent in both layouts (the
  /// column is even, and a 4-column group of the blocked layout holds both):
  /// they can be loaded as one 16-bit word and converted together.
  bool pairedScales() { return chunkScalesAdjacent(op, cfg.bytesPerLoad); }

  /// The two f32 values of two adjacent e4m3 scales (`bytes`: vector<2xi8>,
  /// element 0 first). cvt.rn.f16x2.e4m3x2 (sm_89 and later) is exact, NaN
  /// included.
  SmallVector<Value> decodeScalePair(Value bytes, Type f8) {
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, VectorType::get({2}, b.getF16Type()), bytes,
        /*relu=*/false, f8);
    Value wide = arith::ExtFOp::create(
        b, loc, VectorType::get({2}, b.getF32Type()), halves);
    return {vector::ExtractOp::create(b, loc, wide, 0),
            vector::ExtractOp::create(b, loc, wide, 1)};
  }

  /// The undecoded scales of every unit of the load at byte `kByte` of
  /// `row` (row 0 for the vector's scales): one pair of f8 when paired,
  /// else one i8 a unit. Kept apart from the decode so that a loop can
  /// carry them a step ahead.
  SmallVector<Value> loadUnitScaleBits(Value scales, bool isVector, Value row,
                                       Value kByte) {
    if (pairedScales()) {
      SmallVector<Value> indices = buildScaleIndices(
          b, loc, op.getLayout(), isVector, batch, row, unitColumn(kByte));
      Type f8 = cast<MemRefType>(scales.getType()).getElementType();
      return {vector::LoadOp::create(
          b, loc, VectorType::get({2}, f8), scales, indices,
          /*nontemporal=*/false, llvm::MaybeAlign(2))};
    }
    SmallVector<Value> bits;
    for (int64_t unit = 0; unit < cfg.bytesPerLoad / 8; ++unit) {
      Value col = unitColumn(IV(b, loc, kByte) + 8 * unit);
      bits.push_back(
          buildLoadScaleBits(b, loc, scales,
                             buildScaleIndices(b, loc, op.getLayout(), isVector,
                                               batch, row, col)));
    }
    return bits;
  }

  /// f32 scales of every unit from loadUnitScaleBits' values.
  SmallVector<Value> decodeUnitScales(ArrayRef<Value> bits) {
    if (pairedScales()) {
      auto pairType = cast<VectorType>(bits[0].getType());
      Value bytes = arith::BitcastOp::create(
          b, loc, VectorType::get({2}, b.getI8Type()), bits[0]);
      return decodeScalePair(bytes, pairType.getElementType());
    }
    SmallVector<Value> values;
    for (Value unitBits : bits)
      values.push_back(buildDecodeScale(b, loc, unitBits, format()));
    return values;
  }

  /// With interleaved rows the four rows' scales of this load sit in one
  /// 16-byte line of a blocked atom (row i in word i, the load's two
  /// columns in the low or high half of each word): one load instead of
  /// four, each of which would touch a different atom per lane pair.
  Value loadInterleavedScaleLine(Value kByte) {
    namespace lay = ::nvfp4::layout;
    Value col = unitColumn(kByte);
    // Rows are below the padded row count, so the line is always in bounds
    // (the clamp of `rows` is for a, not for the padded scales).
    IV row(b, loc, rowIds[0]);
    Value line = lay::atomWordOffset(row);
    SmallVector<Value> indices = {batch, row / lay::kAtomRows,
                                  IV(b, loc, col) / lay::kAtomCols, line};
    Type f8 = cast<MemRefType>(sfa.getType()).getElementType();
    return vector::LoadOp::create(
        b, loc, VectorType::get({lay::kLineBytes}, f8), sfa, indices,
        /*nontemporal=*/false, llvm::MaybeAlign(lay::kLineBytes));
  }

  /// Every row's f32 scales from the line of loadInterleavedScaleLine.
  SmallVector<SmallVector<Value>> decodeInterleavedScales(Value bytes,
                                                          Value kByte) {
    namespace lay = ::nvfp4::layout;
    Value col = unitColumn(kByte);
    Type f8 = cast<VectorType>(bytes.getType()).getElementType();
    Value words = vector::BitCastOp::create(
        b, loc, VectorType::get({4}, b.getI32Type()),
        arith::BitcastOp::create(
            b, loc, VectorType::get({lay::kLineBytes}, b.getI8Type()), bytes));
    // The load's first column is even: byte 0 or 2 of each word.
    Value shift = arith::IndexCastOp::create(
        b, loc, b.getI32Type(), IV(b, loc, col) % lay::kAtomCols * 8);
    SmallVector<SmallVector<Value>> scales;
    for (int64_t r = 0; r < cfg.rowsPerThread; ++r) {
      Value word = vector::ExtractOp::create(b, loc, words, r);
      Value pair = arith::TruncIOp::create(
          b, loc, b.getI16Type(), arith::ShRUIOp::create(b, loc, word, shift));
      Value pairBytes = LLVM::BitcastOp::create(
          b, loc, VectorType::get({2}, b.getI8Type()), pair);
      scales.push_back(decodeScalePair(pairBytes, f8));
    }
    return scales;
  }

  /// Word offset in the prepared vector of unit `unit` of chunk `chunk`:
  /// units are stored in planes (unit 0 of every chunk, then unit 1), so
  /// the lanes of a warp, at consecutive chunks, read consecutive 16 bytes
  /// (no bank conflict).
  Value preparedOffset(Value chunk, int64_t unit) {
    return (IV(b, loc, chunk) + unit * chunks()) * kPreparedWordsPerUnit;
  }

  /// Decodes the whole vector b of this batch once per CTA into shared
  /// memory, so the K loop only loads the prepared words instead of redoing
  /// the decode in every row group. Each thread takes a fixed number of
  /// chunks (clamped to the last one: a repeated chunk stores the same
  /// words again) and issues all their loads before decoding any, so the
  /// prologue costs one load latency.
  void buildSharedVectorPrologue() {
    int64_t perThread = ::nvfp4::layout::ceilDiv(chunks(), cfg.threads());
    SmallVector<Value> chunkIds;
    SmallVector<SmallVector<Value>> loaded;
    for (int64_t i = 0; i < perThread; ++i) {
      Value chunk =
          vmin(IV(b, loc, threadId) + i * cfg.threads(), chunks() - 1);
      chunkIds.push_back(chunk);
      loaded.push_back(loadWords(b, loc, vec,
                                 {batch, IV(b, loc, chunk) * cfg.bytesPerLoad},
                                 cfg.bytesPerLoad, false));
    }
    auto unitType = VectorType::get({kPreparedWordsPerUnit}, b.getI32Type());
    for (auto [chunk, words] : llvm::zip(chunkIds, loaded))
      for (int64_t unit = 0; unit < cfg.bytesPerLoad / 8; ++unit) {
        SmallVector<Value> prepared = buildPrepareUnit(
            b, loc, cfg.decode, ArrayRef<Value>(words).slice(2 * unit, 2));
        vector::StoreOp::create(
            b, loc, vector::FromElementsOp::create(b, loc, unitType, prepared),
            preparedVec, {preparedOffset(chunk, unit)}, /*nontemporal=*/false,
            llvm::MaybeAlign(4 * kPreparedWordsPerUnit));
      }
    gpu::BarrierOp::create(b, loc);
  }

  /// The prepared words of unit `unit` of the load at byte `kByte`.
  SmallVector<Value> loadPreparedUnit(Value kByte, int64_t unit) {
    Value v = vector::LoadOp::create(
        b, loc, VectorType::get({kPreparedWordsPerUnit}, b.getI32Type()),
        preparedVec,
        {preparedOffset(IV(b, loc, kByte) / cfg.bytesPerLoad, unit)},
        /*nontemporal=*/false, llvm::MaybeAlign(4 * kPreparedWordsPerUnit));
    SmallVector<Value> words;
    for (int64_t i = 0; i < kPreparedWordsPerUnit; ++i)
      words.push_back(vector::ExtractOp::create(b, loc, v, i));
    return words;
  }

  /// Byte offset in a row of this lane's load at step `step` of its slice;
  /// with `clamp`, a chunk past the row's end becomes the last one (valid
  /// memory whose contribution the caller discards).
  Value stepByte(Value step, bool clamp = false) {
    IV chunk = IV(b, loc, sliceChunk) + IV(b, loc, step) * cfg.lanesPerRow +
               IV(b, loc, lane);
    if (clamp)
      chunk = vmin(chunk, chunks() - 1);
    return chunk * cfg.bytesPerLoad;
  }

  /// Issues the loads of a for steps [first, first + count): for each step,
  /// each row, bytes-per-load / 4 words, flattened in that order.
  SmallVector<Value> loadSteps(Value first, int64_t count, bool clamp = false) {
    SmallVector<Value> words;
    for (int64_t u = 0; u < count; ++u) {
      Value k = stepByte(IV(b, loc, first) + u, clamp);
      for (Value row : rows)
        llvm::append_range(words, loadWords(b, loc, a, {batch, row, k},
                                            cfg.bytesPerLoad, cfg.cacheHints));
    }
    return words;
  }

  /// The global loads of one step besides a, undecoded: each vector's words
  /// of b (unless b is prepared in shared memory), then each vector's scale
  /// bits (packed b), then a's (one line, or each row's bits).
  SmallVector<Value> loadStepOperands(Value kByte) {
    SmallVector<Value> operands;
    if (!preparedVec)
      for (int64_t v = 0; v < vectors(); ++v) {
        if (packedVector()) {
          llvm::append_range(operands,
                             loadWords(b, loc, vec, vectorIndices(v, kByte),
                                       cfg.bytesPerLoad, false));
          continue;
        }
        // Two 16-bit values a byte of a, loaded 16 bytes at a time.
        Value first = IV(b, loc, kByte) * 2;
        for (int64_t part = 0; part < cfg.bytesPerLoad / 4; ++part)
          llvm::append_range(
              operands,
              loadWords(b, loc, vec,
                        vectorIndices(v, IV(b, loc, first) + 8 * part), 16,
                        false));
      }
    if (packedVector())
      for (int64_t v = 0; v < vectors(); ++v)
        llvm::append_range(
            operands,
            op.hasVectorDim()
                ? loadUnitScaleBits(sfb, false, IV::index(b, loc, v), kByte)
                : loadUnitScaleBits(sfb, true, IV::index(b, loc, 0), kByte));
    if (cfg.interleaveRows) {
      operands.push_back(loadInterleavedScaleLine(kByte));
      return operands;
    }
    for (Value row : rows)
      llvm::append_range(operands, loadUnitScaleBits(sfa, false, row, kByte));
    return operands;
  }

  /// acc[r * N + v] += one step's contribution of row r and vector v: the
  /// words of a (each row's bytes-per-load / 4) and the operands of
  /// loadStepOperands(kByte).
  SmallVector<Value> computeStep(Value kByte, ArrayRef<Value> operands,
                                 ArrayRef<Value> aWords, ArrayRef<Value> acc) {
    int64_t wordsPerLoad = cfg.bytesPerLoad / 4;
    int64_t scaleBits = pairedScales() ? 1 : cfg.bytesPerLoad / 8;
    int64_t n = vectors();
    ArrayRef<Value> rest = operands;
    ArrayRef<Value> bWords;
    if (!preparedVec) {
      bWords = rest.take_front(n * vectorStepWords());
      rest = rest.drop_front(n * vectorStepWords());
    }
    SmallVector<SmallVector<Value>> sbs;
    if (packedVector())
      for (int64_t v = 0; v < n; ++v) {
        sbs.push_back(decodeUnitScales(rest.take_front(scaleBits)));
        rest = rest.drop_front(scaleBits);
      }
    SmallVector<SmallVector<Value>> sas;
    if (cfg.interleaveRows)
      sas = decodeInterleavedScales(rest.front(), kByte);
    else
      for (size_t r = 0; r < rows.size(); ++r)
        sas.push_back(decodeUnitScales(rest.slice(r * scaleBits, scaleBits)));
    SmallVector<Value> result(acc.begin(), acc.end());
    // (dot * sa) is exact, so the fma rounds once, as dot * (sa * sb) would;
    // but two large ue8m0 scales never meet in an overflowing product that
    // a zero dot would turn into NaN. 16-bit b has no scale: one fma.
    auto accumulate = [&](size_t r, int64_t v, int64_t unit, Value dot) {
      Value &sum = result[r * n + v];
      if (!packedVector()) {
        sum = math::FmaOp::create(b, loc, dot, sas[r][unit], sum);
        return;
      }
      Value scaled = arith::MulFOp::create(b, loc, dot, sas[r][unit]);
      sum = math::FmaOp::create(b, loc, scaled, sbs[v][unit], sum);
    };
    int64_t unitWords = vectorStepWords() / (cfg.bytesPerLoad / 8);
    for (int64_t unit = 0; unit < cfg.bytesPerLoad / 8; ++unit) {
      auto vectorUnit = [&](int64_t v) {
        if (preparedVec)
          return loadPreparedUnit(kByte, unit);
        ArrayRef<Value> words =
            bWords.slice(v * vectorStepWords() + unit * unitWords, unitWords);
        if (!packedVector())
          return buildWideVectorUnit(
              b, loc, cast<MemRefType>(vec.getType()).getElementType(), words);
        return buildPrepareUnit(b, loc, cfg.decode, words);
      };
      auto aUnit = [&](size_t r) {
        return aWords.slice(r * wordsPerLoad + 2 * unit, 2);
      };
      if (n == 1 && packedVector()) {
        // One vector: each row's decode feeds its one dot directly.
        SmallVector<Value> prepared = vectorUnit(0);
        for (size_t r = 0; r < rows.size(); ++r)
          accumulate(r, 0, unit,
                     buildUnitDot(b, loc, cfg.decode, aUnit(r), prepared));
        continue;
      }
      // Several vectors (or 16-bit values): a's unit is decoded once and
      // used by every vector.
      SmallVector<SmallVector<Value>> preparedRows;
      for (size_t r = 0; r < rows.size(); ++r)
        preparedRows.push_back(buildPrepareUnit(b, loc, cfg.decode, aUnit(r)));
      for (int64_t v = 0; v < n; ++v) {
        SmallVector<Value> prepared = vectorUnit(v);
        for (size_t r = 0; r < rows.size(); ++r)
          accumulate(r, v, unit,
                     buildPreparedUnitDot(b, loc, cfg.decode, preparedRows[r],
                                          prepared));
      }
    }
    return result;
  }

  /// The sums plus the contribution of steps [first, first + count) of K,
  /// whose words of a were loaded by loadSteps.
  SmallVector<Value> computeSteps(Value first, int64_t count,
                                  ArrayRef<Value> aWords, ArrayRef<Value> acc,
                                  bool clamp = false) {
    int64_t stepWords = rows.size() * cfg.bytesPerLoad / 4;
    SmallVector<Value> result(acc.begin(), acc.end());
    for (int64_t u = 0; u < count; ++u) {
      Value kByte = stepByte(IV(b, loc, first) + u, clamp);
      result = computeStep(kByte, loadStepOperands(kByte),
                           aWords.slice(u * stepWords, stepWords), result);
    }
    return result;
  }

  /// Steps [0, groups * group) of this thread's slice, `groups` a dynamic
  /// count. With prefetching, the loop carries the words of the next group,
  /// loaded before the current group's decode, so a thread's loads stay in
  /// flight while it computes.
  SmallVector<Value> buildGroupLoop(Value groups, int64_t group,
                                    ArrayRef<Value> acc,
                                    ArrayRef<Value> firstWords) {
    int64_t numAcc = acc.size();
    Value zero = IV::index(b, loc, 0), one = IV::index(b, loc, 1);
    if (!cfg.prefetch) {
      auto loop = scf::ForOp::create(
          b, loc, zero, groups, one, acc,
          [&](OpBuilder &nb, Location, Value g, ValueRange iter) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            Value first = IV(b, loc, g) * group;
            scf::YieldOp::create(b, loc,
                                 computeSteps(first, group,
                                              loadSteps(first, group),
                                              SmallVector<Value>(iter)));
          });
      return SmallVector<Value>(loop.getResults());
    }
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, groups, zero);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(ValueRange(acc)), any,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, acc);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> init(acc.begin(), acc.end());
    llvm::append_range(init, firstWords.empty() ? loadSteps(zero, group)
                                                : firstWords);
    auto loop = scf::ForOp::create(
        b, loc, one, groups, one, init,
        [&](OpBuilder &nb, Location, Value g, ValueRange iter) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          SmallVector<Value> carried(iter);
          SmallVector<Value> next = loadSteps(IV(b, loc, g) * group, group);
          Value previous = (IV(b, loc, g) - 1) * group;
          SmallVector<Value> out = computeSteps(
              previous, group, ArrayRef<Value>(carried).drop_front(numAcc),
              ArrayRef<Value>(carried).take_front(numAcc));
          llvm::append_range(out, next);
          scf::YieldOp::create(b, loc, out);
        });
    SmallVector<Value> carried(loop.getResults());
    Value last = (IV(b, loc, groups) - 1) * group;
    scf::YieldOp::create(
        b, loc,
        computeSteps(last, group, ArrayRef<Value>(carried).drop_front(numAcc),
                     ArrayRef<Value>(carried).take_front(numAcc)));
    return SmallVector<Value>(ifOp.getResults());
  }

  /// Offset in `stages` of this thread's copy of row `r` in stage `slot`:
  /// the threads of a CTA fill consecutive 16 (or 8) bytes, so neither the
  /// copies nor the reads conflict on a bank.
  Value stageOffset(Value slot, int64_t r) {
    return ((IV(b, loc, slot) * cfg.rowsPerThread + r) * cfg.threads() +
            IV(b, loc, threadId)) *
           cfg.bytesPerLoad;
  }

  /// Copies step `step` of this thread's rows into stage step % stages and
  /// closes the copies in one group. Steps past the slice's whole steps
  /// copy clamped, valid chunks that nobody reads.
  Value issueStageCopies(Value step) {
    auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
    Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
    Value k = stepByte(step, /*clamp=*/true);
    SmallVector<Value> tokens;
    for (auto [r, row] : llvm::enumerate(rows))
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          b, loc, tokenType, stages, {stageOffset(slot, r)}, a, {batch, row, k},
          b.getIndexAttr(cfg.bytesPerLoad),
          /*srcElements=*/Value(),
          // cp.async.cg (L2 only) exists for 16-byte copies alone.
          cfg.bytesPerLoad == 16 ? b.getUnitAttr() : UnitAttr()));
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
  }

  /// Appends the i32 words of a loaded chunk (a vector of bytes-per-load
  /// bytes, of any element type).
  void appendWords(Value chunk, SmallVectorImpl<Value> &words) {
    Value w = vector::BitCastOp::create(
        b, loc, VectorType::get({cfg.bytesPerLoad / 4}, b.getI32Type()), chunk);
    for (int64_t i = 0; i < cfg.bytesPerLoad / 4; ++i)
      words.push_back(vector::ExtractOp::create(b, loc, w, i));
  }

  /// The words of a of stage `slot`, for computeSteps.
  SmallVector<Value> readStage(Value slot) {
    SmallVector<Value> words;
    for (int64_t r = 0; r < cfg.rowsPerThread; ++r) {
      Value bytes = vector::LoadOp::create(
          b, loc, VectorType::get({cfg.bytesPerLoad}, b.getI8Type()), stages,
          {stageOffset(slot, r)}, /*nontemporal=*/false,
          llvm::MaybeAlign(cfg.bytesPerLoad));
      appendWords(bytes, words);
    }
    return words;
  }

  /// Whole steps [0, full) through async-copy-stages stages of shared
  /// memory: stages - 1 steps are in flight while one is decoded, and the
  /// bytes in flight hold no registers. Each thread reads only what it
  /// copied, so waiting for its own copy groups is the only synchronisation.
  SmallVector<Value> buildAsyncStepLoop(Value full, ArrayRef<Value> acc) {
    int64_t ahead = cfg.asyncCopyStages - 1;
    for (int64_t i = 0; i < ahead; ++i)
      issueStageCopies(IV::index(b, loc, i));
    auto loop = scf::ForOp::create(
        b, loc, IV::index(b, loc, 0), full, IV::index(b, loc, 1), acc,
        [&](OpBuilder &nb, Location, Value step, ValueRange iter) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value group = issueStageCopies(IV(b, loc, step) + ahead);
          // At most `ahead` groups still pending: this step's has landed.
          nvgpu::DeviceAsyncWaitOp::create(b, loc, group,
                                           b.getI32IntegerAttr(ahead));
          Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
          scf::YieldOp::create(
              b, loc,
              computeSteps(step, 1, readStage(slot), SmallVector<Value>(iter)));
        });
    // Drain the copies nobody reads before the kernel ends.
    Value none = nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ValueRange{});
    nvgpu::DeviceAsyncWaitOp::create(b, loc, none, b.getI32IntegerAttr(0));
    return SmallVector<Value>(loop.getResults());
  }

  /// First chunk of K slice `q` of this CTA.
  Value ctaSliceChunk(int64_t q, int64_t sliceChunks) {
    IV global = IV::index(b, loc, q);
    if (ctaSlice)
      global = IV(b, loc, ctaSlice) * cfg.splitK + q;
    return global * sliceChunks;
  }

  /// Copies step `step` of every K slice of the CTA's rows, a box of
  /// rows-per-block x lanes-per-row chunks each, into stage step % stages;
  /// the stage's full barrier expects all their bytes. Boxes past the row's
  /// end or M are filled with zeros by the copy, and chunks past a slice
  /// belong to the next one: both are read by nobody.
  void issueTmaStage(Value step, int64_t sliceChunks) {
    Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
    SmallVector<int64_t> boxShape = tmaBoxShape(op, cfg);
    int64_t boxBytes = boxShape[1] * boxShape[2] * tmaElementBytes();
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, loc, barriers, IV::index(b, loc, cfg.splitK * boxBytes), slot,
        /*predicate=*/Value());
    for (int64_t q = 0; q < cfg.splitK; ++q) {
      // Coordinates innermost first, a's row in 8-byte elements.
      IV chunk = IV(b, loc, ctaSliceChunk(q, sliceChunks)) +
                 IV(b, loc, step) * cfg.lanesPerRow;
      Value kElement = chunk * (cfg.bytesPerLoad / tmaElementBytes());
      Value firstRow = IV(b, loc, rowBlock) * cfg.rowsPerBlock;
      Value box = IV(b, loc, slot) * cfg.splitK + q;
      auto view = memref::SubViewOp::create(
          b, loc, stages,
          ArrayRef<OpFoldResult>{box, b.getIndexAttr(0), b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(boxShape[1]),
                                 b.getIndexAttr(boxShape[2])},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                                 b.getIndexAttr(1)});
      nvgpu::TmaAsyncLoadOp::create(b, loc, view, barriers, tmaMap,
                                    ValueRange{kElement, firstRow, batch}, slot,
                                    /*multicastMask=*/Value(),
                                    /*predicate=*/Value());
    }
  }

  /// The words of this thread's rows in stage `slot` of the tma boxes.
  SmallVector<Value> readTmaStage(Value slot) {
    SmallVector<Value> words;
    Value box = IV(b, loc, slot) * cfg.splitK + IV(b, loc, slice);
    Value column = IV(b, loc, lane) * (cfg.bytesPerLoad / tmaElementBytes());
    for (int64_t r = 0; r < cfg.rowsPerThread; ++r) {
      Value row = IV(b, loc, rowInBlock) + r;
      Value pair = vector::LoadOp::create(
          b, loc,
          VectorType::get({cfg.bytesPerLoad / tmaElementBytes()},
                          b.getIntegerType(8 * tmaElementBytes())),
          stages, ValueRange{box, row, column});
      appendWords(pair, words);
    }
    return words;
  }

  /// The i1 parity of use `step / stages` of a stage's barrier, minus
  /// `before` uses.
  Value useParity(Value step, int64_t before = 0) {
    IV use = IV(b, loc, step) / cfg.asyncCopyStages - before;
    return arith::TruncIOp::create(
        b, loc, b.getI1Type(),
        arith::IndexCastOp::create(b, loc, b.getI64Type(), use % 2));
  }

  void waitBarrier(Value index, Value parity) {
    nvgpu::MBarrierTryWaitParityOp::create(
        b, loc, barriers, parity, IV::index(b, loc, kTryWaitTicks), index);
  }

  /// The barrier that says stage `slot` is free again (after the full ones).
  Value emptyBarrier(Value slot) {
    return IV(b, loc, slot) + cfg.asyncCopyStages;
  }

  /// The producer warp's first thread: fills every stage, then refills
  /// each as soon as all consumer warps have released it.
  void buildTmaProducer(int64_t steps, int64_t sliceChunks) {
    nvgpu::TmaPrefetchOp::create(b, loc, tmaMap, /*predicate=*/Value());
    for (int64_t i = 0; i < std::min(cfg.asyncCopyStages, steps); ++i)
      issueTmaStage(IV::index(b, loc, i), sliceChunks);
    scf::ForOp::create(
        b, loc, IV::index(b, loc, cfg.asyncCopyStages),
        IV::index(b, loc, steps), IV::index(b, loc, 1), ValueRange{},
        [&](OpBuilder &nb, Location, Value step, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
          waitBarrier(emptyBarrier(slot), useParity(step, /*before=*/1));
          issueTmaStage(step, sliceChunks);
          scf::YieldOp::create(b, loc);
        });
  }

  /// Whole steps [0, full) with a's stages filled by tensor-memory-
  /// accelerator copies. A producer warp past the consumer threads issues
  /// the copies; each consumer waits on a stage's full barrier (phase
  /// parity: which use of the stage), decodes it and, once its warp is
  /// done, releases the stage through the stage's empty barrier, so no
  /// consumer waits for another. b's words and the scales of the next step
  /// are loaded before the wait: they are in flight while this step
  /// decodes. All consumers walk the longest slice's steps (every warp
  /// releases every stage); a shorter slice's threads skip the decode of
  /// steps past their own. Returns the consumers' sums (zeros in the
  /// producer warp, which goes on to the CTA barriers after the loop but
  /// stores nothing).
  SmallVector<Value> buildTmaStepLoop(Value full, ArrayRef<Value> acc,
                                      int64_t sliceChunks, bool equalSlices) {
    int64_t steps = sliceChunks / cfg.lanesPerRow;
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, IV::index(b, loc, 0));
    for (int64_t s = 0; s < cfg.asyncCopyStages; ++s) {
      nvgpu::MBarrierInitOp::create(b, loc, barriers, IV::index(b, loc, 1),
                                    IV::index(b, loc, s), first);
      nvgpu::MBarrierInitOp::create(
          b, loc, barriers,
          IV::index(b, loc, cfg.threads() / ::nvfp4::kWarpSize),
          emptyBarrier(IV::index(b, loc, s)), first);
    }
    // The initialised barriers must be visible to the copy engine and to
    // every thread before anyone uses them.
    NVVM::FenceMbarrierInitOp::create(b, loc);
    gpu::BarrierOp::create(b, loc);
    Value consumer =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, threadId,
                              IV::index(b, loc, cfg.threads()));
    auto split = scf::IfOp::create(b, loc, TypeRange(ValueRange(acc)), consumer,
                                   /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(split.elseBlock());
      Value issuer =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                                IV::index(b, loc, cfg.threads()));
      auto ifIssuer = scf::IfOp::create(b, loc, issuer, false);
      b.setInsertionPointToStart(ifIssuer.thenBlock());
      buildTmaProducer(steps, sliceChunks);
      b.setInsertionPointAfter(ifIssuer);
      scf::YieldOp::create(b, loc, acc);
    }
    b.setInsertionPointToStart(split.thenBlock());
    int64_t numAcc = acc.size();
    SmallVector<Value> init(acc.begin(), acc.end());
    llvm::append_range(init, loadStepOperands(stepByte(IV::index(b, loc, 0),
                                                       /*clamp=*/true)));
    Value warpLeader = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        IV(b, loc, threadId) % ::nvfp4::kWarpSize, IV::index(b, loc, 0));
    auto loop = scf::ForOp::create(
        b, loc, IV::index(b, loc, 0), IV::index(b, loc, steps),
        IV::index(b, loc, 1), init,
        [&](OpBuilder &nb, Location, Value step, ValueRange iter) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          SmallVector<Value> sums(iter.take_front(numAcc));
          SmallVector<Value> operands(iter.drop_front(numAcc));
          SmallVector<Value> next =
              loadStepOperands(stepByte(IV(b, loc, step) + 1, /*clamp=*/true));
          Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
          waitBarrier(slot, useParity(step));
          auto compute = [&]() {
            return computeStep(stepByte(step), operands, readTmaStage(slot),
                               sums);
          };
          SmallVector<Value> out;
          if (equalSlices) {
            out = compute();
          } else {
            Value mine = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, step, full);
            auto ifOp = scf::IfOp::create(b, loc, TypeRange(ValueRange(sums)),
                                          mine, /*withElseRegion=*/true);
            OpBuilder::InsertionGuard inner(b);
            b.setInsertionPointToStart(ifOp.thenBlock());
            scf::YieldOp::create(b, loc, compute());
            b.setInsertionPointToStart(ifOp.elseBlock());
            scf::YieldOp::create(b, loc, sums);
            out = SmallVector<Value>(ifOp.getResults());
          }
          // The stage is overwritten by the async proxy (the copy engine):
          // this thread's generic-proxy reads of it must be ordered before
          // that. Without the fence the H200 computed wrong sums now and
          // then (7 of 104 verifications of large shapes failed).
          NVVM::FenceProxyOp::create(
              b, loc, NVVM::ProxyKind::async_shared,
              NVVM::SharedSpaceAttr::get(b.getContext(),
                                         NVVM::SharedSpace::shared_cta));
          // The warp's reads are done before its leader releases the stage
          // (the arrive is a release).
          NVVM::SyncWarpOp::create(
              b, loc, arith::ConstantIntOp::create(b, loc, -1, 32));
          auto release =
              scf::IfOp::create(b, loc, warpLeader, /*withElseRegion=*/false);
          {
            OpBuilder::InsertionGuard inner(b);
            b.setInsertionPointToStart(release.thenBlock());
            nvgpu::MBarrierArriveOp::create(
                b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), barriers,
                emptyBarrier(slot));
          }
          llvm::append_range(out, next);
          scf::YieldOp::create(b, loc, out);
        });
    scf::YieldOp::create(b, loc,
                         ValueRange(loop.getResults()).take_front(numAcc));
    b.setInsertionPointAfter(split);
    return SmallVector<Value>(split.getResults());
  }

  /// Single steps [lo, hi) of this thread's slice.
  SmallVector<Value> buildSingleSteps(Value lo, Value hi, ArrayRef<Value> acc) {
    auto loop = scf::ForOp::create(
        b, loc, lo, hi, IV::index(b, loc, 1), acc,
        [&](OpBuilder &nb, Location, Value s, ValueRange iter) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(
              b, loc,
              computeSteps(s, 1, loadSteps(s, 1), SmallVector<Value>(iter)));
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// The slice's last, partial step (`tail` lanes of it hold chunks of the
  /// row): the others load the row's last chunk and keep their sums.
  SmallVector<Value> buildTailStep(Value step, Value tail,
                                   ArrayRef<Value> acc) {
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, tail,
                                      IV::index(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(ValueRange(acc)), any,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, acc);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> updated = computeSteps(
        step, 1, loadSteps(step, 1, /*clamp=*/true), acc, /*clamp=*/true);
    Value valid =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, tail);
    for (auto [r, v] : llvm::enumerate(updated))
      v = arith::SelectOp::create(b, loc, valid, v, acc[r]);
    scf::YieldOp::create(b, loc, updated);
    return SmallVector<Value>(ifOp.getResults());
  }

  void build() {
    // The next kernel may launch now: its CTAs find SMs as this grid's
    // finish, and its own wait keeps it from reading what this one writes.
    if (cfg.pdl)
      NVVM::GriddepcontrolOp::create(
          b, loc, NVVM::GridDepActionKind::launch_dependents);
    threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value blockX = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    // The CTAs of one row block are adjacent, so they run at the same time
    // and the last of them waits little.
    rowBlock = blockX;
    if (cfg.ctaSplitK > 1) {
      rowBlock = IV(b, loc, blockX) / cfg.ctaSplitK;
      ctaSlice = IV(b, loc, blockX) % cfg.ctaSplitK;
    }
    lane = IV(b, loc, threadId) % cfg.lanesPerRow;
    IV group = IV(b, loc, threadId) / cfg.lanesPerRow;
    // Groups are numbered row group first, then K slice.
    int64_t rowGroups = cfg.rowGroups();
    Value rowGroup = group % rowGroups;
    slice = group / rowGroups;

    // This thread's K slice: chunks [lo, hi) of each of its rows, walked in
    // `full` whole steps and a last step of `tail` lanes.
    ::nvfp4::cost::KSlicing slicing =
        ::nvfp4::cost::sliceK(rowBytes(), cfg.bytesPerLoad, cfg.lanesPerRow,
                              cfg.splitK * cfg.ctaSplitK);
    IV globalSlice = IV(b, loc, slice);
    if (ctaSlice)
      globalSlice = IV(b, loc, ctaSlice) * cfg.splitK + globalSlice;
    IV lo = globalSlice * slicing.sliceChunks;
    // Equal slices keep the loop bounds static (fewer registers).
    IV n = slicing.sliceChunks * slicing.slices == slicing.chunks
               ? vconst(lo, slicing.sliceChunks)
               : vmin(lo + slicing.sliceChunks, slicing.chunks) - lo;
    sliceChunk = lo;
    Value full = n / cfg.lanesPerRow;
    Value tail = n % cfg.lanesPerRow;

    rowInBlock = IV(b, loc, rowGroup) * cfg.rowsPerThread;
    if (cfg.interleaveRows) {
      // Row group q owns rows 128 (q / 32) + q % 32 + 32 i: the rows whose
      // scales share one 16-byte line of a blocked atom.
      IV q = IV(b, loc, rowBlock) * rowGroups + IV(b, loc, rowGroup);
      IV base = q / 32 * 128 + q % 32;
      for (int64_t r = 0; r < cfg.rowsPerThread; ++r)
        rowIds.push_back(base + 32 * r);
    } else {
      Value first =
          IV(b, loc, rowBlock) * cfg.rowsPerBlock + IV(b, loc, rowInBlock);
      for (int64_t r = 0; r < cfg.rowsPerThread; ++r)
        rowIds.push_back(IV(b, loc, first) + r);
    }
    // Rows past M read the last row (always valid memory) and store nothing.
    for (Value row : rowIds)
      rows.push_back(arith::MinUIOp::create(b, loc, row,
                                            IV::index(b, loc, numRows() - 1)));

    // With the vector in shared memory, or a predecessor to wait for, the
    // first group of a is loaded before the prologue or the wait so that
    // its latency overlaps theirs (chunks clamped: valid memory even when
    // the slice has no whole group).
    SmallVector<Value> firstWords;
    if ((preparedVec || cfg.pdl) && cfg.prefetch && !cfg.asyncCopyStages)
      firstWords = loadSteps(IV::index(b, loc, 0), cfg.loadsInFlight,
                             /*clamp=*/true);
    // a and its scales are weights no kernel of the stream writes; b, the
    // outputs and the cta-split-k workspace wait for the predecessor.
    if (cfg.pdl)
      NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
    if (preparedVec)
      buildSharedVectorPrologue();
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    SmallVector<Value> acc(cfg.rowsPerThread * vectors(), zero);
    if (tmaMap) {
      acc = buildTmaStepLoop(full, acc, slicing.sliceChunks,
                             slicing.sliceChunks * slicing.slices ==
                                 slicing.chunks);
    } else if (stages) {
      acc = buildAsyncStepLoop(full, acc);
    } else {
      Value groups = IV(b, loc, full) / cfg.loadsInFlight;
      acc = buildGroupLoop(groups, cfg.loadsInFlight, acc, firstWords);
      acc = buildSingleSteps(IV(b, loc, groups) * cfg.loadsInFlight, full, acc);
    }
    if (slicing.chunks % cfg.lanesPerRow != 0 ||
        slicing.sliceChunks * slicing.slices != slicing.chunks)
      acc = buildTailStep(full, tail, acc);

    reduceLanes(acc);

    Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           lane, IV::index(b, loc, 0));
    // The producer warp of tma=true holds no sums.
    if (tmaMap)
      isLeader = arith::AndIOp::create(
          b, loc, isLeader,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, threadId,
                                IV::index(b, loc, cfg.threads())));
    if (cfg.splitK > 1) {
      // Every slice's leader parks its sums; slice 0 adds them in order.
      auto park = scf::IfOp::create(b, loc, isLeader, false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(park.thenBlock());
        for (auto [i, v] : llvm::enumerate(acc))
          memref::StoreOp::create(b, loc, v, partials,
                                  ValueRange{slice, partialSlot(i)});
      }
      gpu::BarrierOp::create(b, loc);
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          slice, IV::index(b, loc, 0));
      isLeader = arith::AndIOp::create(b, loc, isLeader, first);
    }
    for (auto [i, v] : llvm::enumerate(acc)) {
      Value slot = partialSlot(i);
      for (int64_t k = 1; k < cfg.splitK; ++k)
        v = arith::AddFOp::create(
            b, loc, v,
            memref::LoadOp::create(b, loc, partials,
                                   ValueRange{IV::index(b, loc, k), slot}));
    }
    if (cfg.ctaSplitK > 1) {
      buildCtaReduction(isLeader, acc);
      return;
    }
    storeResults(isLeader, acc);
  }

  /// Slot in the split-k partials of sum `i` (row i / N, vector i % N) of
  /// this thread.
  Value partialSlot(int64_t i) {
    int64_t n = vectors();
    return (IV(b, loc, rowInBlock) + int64_t(i) / n) * n + int64_t(i) % n;
  }

  /// Butterfly reduction inside each group of lanes: every lane ends with
  /// the group's sum.
  void reduceLanes(MutableArrayRef<Value> values) {
    for (Value &v : values)
      for (int64_t offset = cfg.lanesPerRow / 2; offset >= 1; offset /= 2) {
        auto shuffle = gpu::ShuffleOp::create(b, loc, v, offset, 32,
                                              gpu::ShuffleMode::XOR);
        v = arith::AddFOp::create(b, loc, v, shuffle.getShuffleResult());
      }
  }

  /// Stores alpha * acc[r * N + v] into c for every row r of this thread
  /// below M and every vector v, where `store` holds.
  void storeResults(Value store, ArrayRef<Value> acc) {
    Type outType = op.getC().getType().getElementType();
    for (auto [i, v] : llvm::enumerate(acc)) {
      Value row = rowIds[i / vectors()];
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            row, IV::index(b, loc, numRows()));
      Value cond = arith::AndIOp::create(b, loc, store, inRange);
      auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value result = v;
      if (alpha)
        result = arith::MulFOp::create(b, loc, result, alpha);
      if (outType != b.getF32Type())
        result = arith::TruncFOp::create(b, loc, outType, result);
      memref::StoreOp::create(b, loc, result, c,
                              outputIndices(i % vectors(), row));
    }
  }

  /// cta-split-k: the leaders write this CTA's partial sums to the
  /// workspace; the last CTA of the row block to count itself in reads all
  /// of them back in slice order, finishes the rows and resets the counter
  /// for the next launch.
  void buildCtaReduction(Value isLeader, ArrayRef<Value> acc) {
    Value zeroIdx = IV::index(b, loc, 0);
    auto inRange = [&](int64_t r) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rowIds[r],
                                   IV::index(b, loc, numRows()));
    };
    for (auto [i, v] : llvm::enumerate(acc)) {
      Value cond =
          arith::AndIOp::create(b, loc, isLeader, inRange(i / vectors()));
      auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(
          b, loc, v, workspace,
          workspaceIndices(ctaSlice, i % vectors(), rowIds[i / vectors()]));
    }
    // Each writer's partials are visible GPU-wide before the CTA counts
    // itself in (membar.gl, then the barrier orders the count after it).
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    gpu::BarrierOp::create(b, loc);
    Value isFirstThread = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, threadId, zeroIdx);
    {
      auto ifOp =
          scf::IfOp::create(b, loc, isFirstThread, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
      Value before =
          memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, one,
                                      counters, ValueRange{batch, rowBlock});
      Value last = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, before,
          arith::ConstantIntOp::create(b, loc, cfg.ctaSplitK - 1, 32));
      memref::StoreOp::create(
          b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), last),
          lastFlag, ValueRange{zeroIdx});
    }
    gpu::BarrierOp::create(b, loc);
    Value isLast = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        memref::LoadOp::create(b, loc, lastFlag, ValueRange{zeroIdx}),
        arith::ConstantIntOp::create(b, loc, 0, 32));
    auto ifLast = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    // The lanes of a row group share the work: lane j adds the partials
    // j, j + lanes-per-row, ... in order, then the butterfly combines the
    // lanes; every step has a fixed order, so the bits do not depend on
    // which CTA came last. Rows past M read the last row's partials (and
    // store nothing).
    SmallVector<Value> sums;
    int64_t rounds = ::nvfp4::layout::ceilDiv(cfg.ctaSplitK, cfg.lanesPerRow);
    Value zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    for (int64_t i = 0; i < cfg.rowsPerThread * vectors(); ++i) {
      Value sum = zeroF;
      for (int64_t j = 0; j < rounds; ++j) {
        IV k = IV(b, loc, lane) + j * cfg.lanesPerRow;
        Value part = loadCoherent(
            workspace, workspaceIndices(vmin(k, cfg.ctaSplitK - 1),
                                        i % vectors(), rows[i / vectors()]));
        if ((j + 1) * cfg.lanesPerRow > cfg.ctaSplitK) {
          Value valid =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k,
                                    IV::index(b, loc, cfg.ctaSplitK));
          part = arith::SelectOp::create(b, loc, valid, part, zeroF);
        }
        sum = arith::AddFOp::create(b, loc, sum, part);
      }
      sums.push_back(sum);
    }
    reduceLanes(sums);
    storeResults(isLeader, sums);
    auto reset =
        scf::IfOp::create(b, loc, isFirstThread, /*withElseRegion=*/false);
    b.setInsertionPointToStart(reset.thenBlock());
    memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 0, 32),
                            counters, ValueRange{batch, rowBlock});
  }

  /// Indices of the workspace's partial of CTA slice `slice`, vector `v`,
  /// row `row`: [cta-split-k, L, M], or [cta-split-k, L, N, M] with a
  /// vector dimension.
  SmallVector<Value> workspaceIndices(Value slice, int64_t v, Value row) {
    SmallVector<Value> indices = outputIndices(v, row);
    indices.insert(indices.begin(), slice);
    return indices;
  }

  /// An f32 load from global `memref` that sees other CTAs' stores made
  /// visible by a fence (ld.relaxed.gpu: not served from a stale L1 line).
  Value loadCoherent(Value memref, ValueRange indices) {
    Value ptr = elementPointer(b, loc, memref, indices);
    return LLVM::LoadOp::create(b, loc, b.getF32Type(), ptr, /*alignment=*/4,
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                /*isInvariant=*/false,
                                /*isInvariantGroup=*/false,
                                LLVM::AtomicOrdering::monotonic, "device");
  }
};

/// The module-level workspace [cta-split-k, L, M] or [cta-split-k, L, N, M]
/// (f32 partials) and
/// arrival counters [L, row blocks] (i32, zero at load; the last CTA of a row
/// block sets its counter back to zero) of a cta-split-k kernel.
std::pair<memref::GlobalOp, memref::GlobalOp>
createSplitKGlobals(OpBuilder &b, gpu::GPUFuncOp kernel, GemvOp op,
                    const KernelConfig &cfg) {
  OpBuilder::InsertionGuard guard(b);
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  b.setInsertionPointToStart(module.getBody());
  Location loc = op.getLoc();
  auto global =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Global);
  int64_t batches = op.getA().getType().getDimSize(0);
  SmallVector<int64_t> wsShape = {cfg.ctaSplitK, batches};
  if (op.hasVectorDim())
    wsShape.push_back(op.getNumVectors());
  wsShape.push_back(op.getA().getType().getDimSize(1));
  auto wsType = MemRefType::get(wsShape, b.getF32Type(),
                                MemRefLayoutAttrInterface(), global);
  auto counterType =
      MemRefType::get({batches, gridRowBlocks(op, cfg)}, b.getI32Type(),
                      MemRefLayoutAttrInterface(), global);
  auto workspace = memref::GlobalOp::create(
      b, loc, "nvfp4_split_k_partials", b.getStringAttr("private"), wsType,
      b.getUnitAttr(), /*constant=*/false, b.getI64IntegerAttr(16));
  auto counters = memref::GlobalOp::create(
      b, loc, "nvfp4_split_k_counters", b.getStringAttr("private"), counterType,
      DenseElementsAttr::get(
          RankedTensorType::get(counterType.getShape(), b.getI32Type()),
          b.getI32IntegerAttr(0).getValue()),
      /*constant=*/false, b.getI64IntegerAttr(16));
  return {workspace, counters};
}

} // namespace

void mlir::nvfp4::buildGemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel,
                                      GemvOp op, const KernelConfig &cfg) {
  Location loc = op.getLoc();
  // A workgroup buffer of the kernel; `align` for buffers accessed in wider
  // vectors than their element type (whose alignment is all they would get).
  auto addShared = [&](ArrayRef<int64_t> shape, Type element,
                       int64_t align = 0) -> Value {
    auto workgroup = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    Value buffer = kernel.addWorkgroupAttribution(
        MemRefType::get(shape, element, MemRefLayoutAttrInterface(), workgroup),
        loc);
    if (align)
      kernel.setWorkgroupAttributionAttr(
          kernel.getNumWorkgroupAttributions() - 1,
          LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(align));
    return buffer;
  };
  Value partials, preparedVec, stages, lastFlag;
  // A thread's rows are adjacent in the partials, which the backend may
  // store and load as 16-byte vectors: align them for that (behind the
  // mbarriers of tma=true they would otherwise sit 8-byte aligned).
  if (cfg.splitK > 1)
    partials = addShared({cfg.splitK, cfg.rowsPerBlock * op.getNumVectors()},
                         b.getF32Type(), 16);
  // The prepared vector's units and a's stages move as 16-byte vectors.
  if (cfg.vectorInShared)
    preparedVec = addShared(
        {op.getA().getType().getDimSize(2) / 8 * kPreparedWordsPerUnit},
        b.getI32Type(), 4 * kPreparedWordsPerUnit);
  if (cfg.tma)
    stages =
        addShared(tmaStageShape(cfg), b.getIntegerType(8 * tmaElementBytes()),
                  ::nvfp4::tensormap::kSharedAlignment);
  else if (cfg.asyncCopyStages)
    stages = addShared({asyncCopyBytes(cfg)}, b.getI8Type(), 16);
  if (cfg.ctaSplitK > 1)
    lastFlag = addShared({1}, b.getI32Type());
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  KernelBuilder kb{b, loc, op, cfg};
  kb.a = entry.getArgument(0);
  kb.sfa = entry.getArgument(1);
  kb.vec = entry.getArgument(2);
  // No sfb for 16-bit b: the arguments after b shift down by one.
  unsigned next = 3;
  if (op.getSfb())
    kb.sfb = entry.getArgument(next++);
  kb.c = entry.getArgument(next++);
  if (op.getAlpha())
    kb.alpha = entry.getArgument(next);
  kb.partials = partials;
  kb.preparedVec = preparedVec;
  kb.stages = stages;
  kb.lastFlag = lastFlag;
  if (cfg.ctaSplitK > 1) {
    auto [workspace, counters] = createSplitKGlobals(b, kernel, op, cfg);
    b.setInsertionPointToStart(&entry);
    kb.workspace = memref::GetGlobalOp::create(b, loc, workspace.getType(),
                                               workspace.getSymName());
    kb.counters = memref::GetGlobalOp::create(b, loc, counters.getType(),
                                              counters.getSymName());
  }
  if (cfg.tma) {
    // The map arrives as the address of its encoded bytes (the last
    // parameter).
    kb.tmaMap = tensorMapOperand(
        b, loc, entry.getArgument(kernel.getNumArguments() - 1),
        tmaMap(op, cfg));
    kb.barriers = nvgpu::MBarrierCreateOp::create(
        b, loc,
        nvgpu::MBarrierGroupType::get(
            b.getContext(),
            gpu::AddressSpaceAttr::get(
                b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace()),
            tmaBarrierCount(cfg)));
  }
  kb.build();
  gpu::ReturnOp::create(b, loc);
}
