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
// cta-split-k the CTAs of a row block theirs: as one thread-block cluster
// through the shared memory of its first CTA, or through a workspace global
// to the kernel's module, where the last CTA to finish (a counter per row
// block) adds them. Either way the partials are added in slice order, so
// every run gives the same bits.
//
//===----------------------------------------------------------------------===//

#include "GemvKernelBuilder.h"
#include "TmaCopy.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/TensorMapIR.h"
#include "nvfp4/Support/GemvCostModel.h"
#include "nvfp4/Support/ScaleLayout.h"
#include "nvfp4/Support/TensorMap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

using namespace mlir;
using namespace mlir::nvfp4;

/// The aligned base pointer of `memref` from the memref descriptor the
/// NVVM lowering makes of it. memref.extract_aligned_pointer_as_index would
/// cut a 64-bit pointer to a 32-bit index.
static Value descriptorBasePointer(OpBuilder &b, Location loc, Value memref,
                                   unsigned indexBits) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<MemRefType>(memref.getType());
  unsigned space = 0;
  if (auto gpuSpace =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace()))
    space =
        static_cast<unsigned>(gpuSpace.getValue() == gpu::AddressSpace::Global
                                  ? NVVM::NVVMMemorySpace::Global
                                  : NVVM::NVVMMemorySpace::Shared);
  auto ptrType = LLVM::LLVMPointerType::get(ctx, space);
  Type index = b.getIntegerType(indexBits);
  SmallVector<Type> fields = {ptrType, ptrType, index};
  if (type.getRank()) {
    auto sizes = LLVM::LLVMArrayType::get(index, type.getRank());
    fields.append({sizes, sizes});
  }
  Value descriptor =
      UnrealizedConversionCastOp::create(
          b, loc, LLVM::LLVMStructType::getLiteral(ctx, fields), memref)
          .getResult(0);
  Value base =
      LLVM::ExtractValueOp::create(b, loc, descriptor, ArrayRef<int64_t>{1});
  if (space == 0)
    return base;
  return LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                       base);
}

Value mlir::nvfp4::elementPointer(OpBuilder &b, Location loc, Value memref,
                                  ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  IV linear = IV::index(b, loc, offset);
  for (auto [i, index] : llvm::enumerate(indices))
    linear = linear + IV(b, loc, index) * strides[i];
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  linear = linear * elementBytes;
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  // From the memref's scope: the insertion block may belong to an op that
  // is still being built (an scf.for body) and has no module above it yet.
  unsigned indexBits =
      DataLayout::closest(memref.getParentBlock()->getParentOp())
          .getTypeSizeInBits(b.getIndexType());
  // 64-bit kernels keep the integer address of global buffers: the
  // descriptor's base would serve them too but changes their PTX (registers
  // and schedule) untimed. A workgroup buffer's integer address is an
  // offset in shared memory, not a generic address: it takes the
  // descriptor's base, cast to generic.
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  bool workgroup = space && space.getValue() == gpu::AddressSpace::Workgroup;
  if (indexBits == 64 && !workgroup) {
    IV base(b, loc,
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
    Value addr =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), base + linear);
    return LLVM::IntToPtrOp::create(b, loc, ptrType, addr);
  }
  // Narrow indices: the offset is non-negative and fits them.
  Value offsetBytes =
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), linear);
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(),
                             descriptorBasePointer(b, loc, memref, indexBits),
                             ValueRange{offsetBytes});
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

SmallVector<Value> GemvKernelBuilder::vectorIndices(int64_t v, Value element) {
  if (!op.hasVectorDim())
    return {batch, element};
  return {batch, IV::index(b, loc, v), element};
}

SmallVector<Value> GemvKernelBuilder::outputIndices(int64_t v, Value row) {
  if (!op.hasVectorDim())
    return {batch, row};
  return {batch, IV::index(b, loc, v), row};
}

SmallVector<Value> GemvKernelBuilder::decodeScalePair(Value bytes, Type f8) {
  Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
      b, loc, VectorType::get({2}, b.getF16Type()), bytes,
      /*relu=*/false, f8);
  Value wide = arith::ExtFOp::create(
      b, loc, VectorType::get({2}, b.getF32Type()), halves);
  return {vector::ExtractOp::create(b, loc, wide, 0),
          vector::ExtractOp::create(b, loc, wide, 1)};
}

SmallVector<Value> GemvKernelBuilder::loadUnitScaleBits(Value scales,
                                                        bool isVector,
                                                        Value row,
                                                        Value kByte) {
  if (pairedScales()) {
    SmallVector<Value> indices = buildScaleIndices(
        b, loc, op.getLayout(), isVector, batch, row, unitColumn(kByte));
    Type f8 = cast<MemRefType>(scales.getType()).getElementType();
    return {vector::LoadOp::create(b, loc, VectorType::get({2}, f8), scales,
                                   indices,
                                   /*nontemporal=*/false, llvm::MaybeAlign(2))};
  }
  SmallVector<Value> bits;
  for (int64_t unit = 0; unit < cfg.bytesPerLoad / 8; ++unit) {
    Value col = unitColumn(IV(b, loc, kByte) + 8 * unit);
    bits.push_back(buildLoadScaleBits(
        b, loc, scales,
        buildScaleIndices(b, loc, op.getLayout(), isVector, batch, row, col)));
  }
  return bits;
}

SmallVector<Value> GemvKernelBuilder::decodeUnitScales(ArrayRef<Value> bits) {
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

Value GemvKernelBuilder::loadInterleavedScaleLine(Value kByte) {
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

SmallVector<SmallVector<Value>>
GemvKernelBuilder::decodeInterleavedScales(Value bytes, Value kByte) {
  namespace lay = ::nvfp4::layout;
  Value col = unitColumn(kByte);
  Type f8 = cast<VectorType>(bytes.getType()).getElementType();
  Value words = vector::BitCastOp::create(
      b, loc, VectorType::get({4}, b.getI32Type()),
      arith::BitcastOp::create(
          b, loc, VectorType::get({lay::kLineBytes}, b.getI8Type()), bytes));
  // Row r's columns are word r, column c in byte c % 4.
  Value shift = arith::IndexCastOp::create(
      b, loc, b.getI32Type(), IV(b, loc, col) % lay::kAtomCols * 8);
  // Unpaired, a load covers one column (NVFP4 8-byte loads; MXFP4, whose
  // 32-value column spans both 8-byte units of a 16-byte load).
  int64_t units = cfg.bytesPerLoad / 8;
  assert((pairedScales() || units * 16 <= getBlockSize(format())) &&
         "an unpaired load covers one scale column");
  SmallVector<SmallVector<Value>> scales;
  for (int64_t r = 0; r < cfg.rowsPerThread; ++r) {
    Value word = vector::ExtractOp::create(b, loc, words, r);
    Value shifted = arith::ShRUIOp::create(b, loc, word, shift);
    if (pairedScales()) {
      // The load's first column is even: byte 0 or 2 of the word.
      Value pair = arith::TruncIOp::create(b, loc, b.getI16Type(), shifted);
      Value pairBytes = LLVM::BitcastOp::create(
          b, loc, VectorType::get({2}, b.getI8Type()), pair);
      scales.push_back(decodeScalePair(pairBytes, f8));
      continue;
    }
    Value scale = buildDecodeScale(
        b, loc, arith::TruncIOp::create(b, loc, b.getI8Type(), shifted),
        format());
    scales.push_back(SmallVector<Value>(units, scale));
  }
  return scales;
}

void GemvKernelBuilder::buildSharedVectorPrologue() {
  int64_t perThread = ::nvfp4::layout::ceilDiv(chunks(), cfg.threads());
  SmallVector<Value> chunkIds;
  SmallVector<SmallVector<Value>> loaded;
  for (int64_t i = 0; i < perThread; ++i) {
    Value chunk = vmin(IV(b, loc, threadId) + i * cfg.threads(), chunks() - 1);
    chunkIds.push_back(chunk);
    loaded.push_back(loadWords(b, loc, vec,
                               {batch, IV(b, loc, chunk) * cfg.bytesPerLoad},
                               cfg.bytesPerLoad, false));
  }
  auto unitType = VectorType::get({kPreparedWordsPerUnit}, b.getI32Type());
  for (auto [chunk, words] : llvm::zip(chunkIds, loaded))
    for (int64_t unit = 0; unit < cfg.bytesPerLoad / 8; ++unit) {
      SmallVector<Value> prepared =
          buildPrepareUnit(b, loc, cfg.decode, tables,
                           ArrayRef<Value>(words).slice(2 * unit, 2));
      vector::StoreOp::create(
          b, loc, vector::FromElementsOp::create(b, loc, unitType, prepared),
          preparedVec, {preparedOffset(chunk, unit)}, /*nontemporal=*/false,
          llvm::MaybeAlign(4 * kPreparedWordsPerUnit));
    }
  gpu::BarrierOp::create(b, loc);
}

SmallVector<Value> GemvKernelBuilder::loadPreparedUnit(Value kByte,
                                                       int64_t unit) {
  Value v = vector::LoadOp::create(
      b, loc, VectorType::get({kPreparedWordsPerUnit}, b.getI32Type()),
      preparedVec, {preparedOffset(IV(b, loc, kByte) / cfg.bytesPerLoad, unit)},
      /*nontemporal=*/false, llvm::MaybeAlign(4 * kPreparedWordsPerUnit));
  SmallVector<Value> words;
  for (int64_t i = 0; i < kPreparedWordsPerUnit; ++i)
    words.push_back(vector::ExtractOp::create(b, loc, v, i));
  return words;
}

Value GemvKernelBuilder::stepByte(Value step, bool clamp) {
  IV chunk = IV(b, loc, sliceChunk) + IV(b, loc, step) * cfg.lanesPerRow +
             IV(b, loc, lane);
  if (clamp)
    chunk = vmin(chunk, chunks() - 1);
  return chunk * cfg.bytesPerLoad;
}

SmallVector<Value> GemvKernelBuilder::loadSteps(Value first, int64_t count,
                                                bool clamp) {
  SmallVector<Value> words;
  for (int64_t u = 0; u < count; ++u) {
    Value k = stepByte(IV(b, loc, first) + u, clamp);
    for (Value row : rows)
      llvm::append_range(words, loadWords(b, loc, a, {batch, row, k},
                                          cfg.bytesPerLoad, cfg.cacheHints));
  }
  return words;
}

SmallVector<Value> GemvKernelBuilder::loadStepOperands(Value kByte) {
  SmallVector<Value> operands;
  if (!preparedVec)
    for (int64_t v = 0; v < vectors(); ++v) {
      if (packedVector()) {
        llvm::append_range(operands,
                           loadWords(b, loc, vec, vectorIndices(v, kByte),
                                     cfg.bytesPerLoad, false));
        continue;
      }
      // Two 16-bit values a byte of a: one load for each word of a.
      Value first = IV(b, loc, kByte) * 2;
      for (int64_t part = 0; part < wordsPerLoad(); ++part)
        llvm::append_range(
            operands, loadWords(b, loc, vec,
                                vectorIndices(v, IV(b, loc, first) + 8 * part),
                                kWideVectorLoadBytes, false));
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

SmallVector<Value> GemvKernelBuilder::computeStep(Value kByte,
                                                  ArrayRef<Value> operands,
                                                  ArrayRef<Value> aWords,
                                                  ArrayRef<Value> acc) {
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
      return buildPrepareUnit(b, loc, cfg.decode, tables, words);
    };
    auto aUnit = [&](size_t r) {
      return aWords.slice(r * wordsPerLoad() + 2 * unit, 2);
    };
    if (n == 1 && packedVector()) {
      // One vector: each row's decode feeds its one dot directly.
      SmallVector<Value> prepared = vectorUnit(0);
      for (size_t r = 0; r < rows.size(); ++r)
        accumulate(
            r, 0, unit,
            buildUnitDot(b, loc, cfg.decode, tables, aUnit(r), prepared));
      continue;
    }
    // Several vectors (or 16-bit values): a's unit is decoded once and
    // used by every vector.
    SmallVector<SmallVector<Value>> preparedRows;
    for (size_t r = 0; r < rows.size(); ++r)
      preparedRows.push_back(
          buildPrepareUnit(b, loc, cfg.decode, tables, aUnit(r)));
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

Value GemvKernelBuilder::pinToLoads(Value target, ArrayRef<Value> loaded) {
  Type i32 = b.getI32Type();
  for (Value v : loaded) {
    // Any 32 bits of the loaded value will do: its load must complete.
    int64_t bits = 32;
    if (auto vec = dyn_cast<VectorType>(v.getType())) {
      bits = vec.getNumElements() * vec.getElementTypeBitWidth();
      v = arith::BitcastOp::create(
          b, loc, VectorType::get(vec.getShape(), b.getI8Type()), v);
      if (bits > 32)
        v = vector::ExtractOp::create(
            b, loc,
            vector::BitCastOp::create(b, loc, VectorType::get({bits / 32}, i32),
                                      v),
            0);
      else
        v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
    } else if (!v.getType().isInteger()) {
      v = arith::BitcastOp::create(
          b, loc, b.getIntegerType(v.getType().getIntOrFloatBitWidth()), v);
    }
    if (v.getType() != i32)
      v = arith::ExtUIOp::create(b, loc, i32, v);
    // Inline PTX: LLVM folds an intrinsic prmt whose selector 0x3210 picks
    // the first source; ptxas keeps it.
    target = LLVM::InlineAsmOp::create(
                 b, loc, i32, ValueRange{target, v},
                 "prmt.b32 $0, $1, $2, 0x3210;", "=r,r,r",
                 /*has_side_effects=*/false, /*is_align_stack=*/false,
                 LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
                 .getResult(0);
  }
  return target;
}

SmallVector<Value> GemvKernelBuilder::computeSteps(Value first, int64_t count,
                                                   ArrayRef<Value> aWords,
                                                   ArrayRef<Value> acc,
                                                   bool clamp) {
  int64_t stepWords = rows.size() * wordsPerLoad();
  SmallVector<Value> result(acc.begin(), acc.end());
  if (!cfg.pinLoads || count == 0) {
    for (int64_t u = 0; u < count; ++u) {
      Value kByte = stepByte(IV(b, loc, first) + u, clamp);
      result = computeStep(kByte, loadStepOperands(kByte),
                           aWords.slice(u * stepWords, stepWords), result);
    }
    return result;
  }
  // Every step's operands first, then one value of each load chained into
  // the first word the decode reads: b's, or a's when b is not loaded here.
  SmallVector<Value> kBytes;
  SmallVector<SmallVector<Value>> operands;
  for (int64_t u = 0; u < count; ++u) {
    kBytes.push_back(stepByte(IV(b, loc, first) + u, clamp));
    operands.push_back(loadStepOperands(kBytes.back()));
  }
  SmallVector<Value> words(aWords.begin(), aWords.end());
  int64_t bWords = preparedVec ? 0 : vectors() * vectorStepWords();
  int64_t aLoadWords = wordsPerLoad();
  int64_t bLoadWords =
      packedVector() ? wordsPerLoad() : kWideVectorLoadBytes / 4;
  Value *target = bWords ? &operands[0][0] : &words[0];
  SmallVector<Value> loaded;
  for (int64_t i = 0; i < int64_t(words.size()); i += aLoadWords)
    if (&words[i] != target)
      loaded.push_back(words[i]);
  for (SmallVector<Value> &step : operands)
    for (int64_t i = 0; i < int64_t(step.size());
         i += i < bWords ? bLoadWords : 1)
      if (&step[i] != target)
        loaded.push_back(step[i]);
  *target = pinToLoads(*target, loaded);
  for (int64_t u = 0; u < count; ++u)
    result = computeStep(kBytes[u], operands[u],
                         ArrayRef<Value>(words).slice(u * stepWords, stepWords),
                         result);
  return result;
}

SmallVector<Value>
GemvKernelBuilder::buildGroupLoop(Value groups, int64_t group,
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
  llvm::append_range(init,
                     firstWords.empty() ? loadSteps(zero, group) : firstWords);
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

SmallVector<Value> GemvKernelBuilder::buildSingleSteps(Value lo, Value hi,
                                                       ArrayRef<Value> acc) {
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

SmallVector<Value> GemvKernelBuilder::keepWhere(Value valid,
                                                ArrayRef<Value> updated,
                                                ArrayRef<Value> acc) {
  SmallVector<Value> kept;
  for (auto [v, old] : llvm::zip_equal(updated, acc))
    kept.push_back(arith::SelectOp::create(b, loc, valid, v, old));
  return kept;
}

SmallVector<Value> GemvKernelBuilder::buildOnePass(Value sliceChunks,
                                                   int64_t shortestSlice,
                                                   ArrayRef<Value> acc,
                                                   ArrayRef<Value> firstWords) {
  int64_t steps = cfg.onePassSteps;
  SmallVector<Value> words(firstWords.begin(), firstWords.end());
  if (words.empty())
    words = loadSteps(IV::index(b, loc, 0), steps, /*clamp=*/true);
  int64_t stepWords = rows.size() * wordsPerLoad();
  SmallVector<Value> result(acc.begin(), acc.end());
  for (int64_t s = 0; s < steps; ++s) {
    SmallVector<Value> updated =
        computeSteps(IV::index(b, loc, s), 1,
                     ArrayRef<Value>(words).slice(s * stepWords, stepWords),
                     result, /*clamp=*/true);
    // Steps every lane of every slice holds need no select.
    if ((s + 1) * cfg.lanesPerRow <= shortestSlice) {
      result = updated;
      continue;
    }
    Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        IV(b, loc, lane) + s * cfg.lanesPerRow,
                                        sliceChunks);
    result = keepWhere(valid, updated, result);
  }
  return result;
}

SmallVector<Value> GemvKernelBuilder::buildTailStep(Value step, Value tail,
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
  scf::YieldOp::create(b, loc, keepWhere(valid, updated, acc));
  return SmallVector<Value>(ifOp.getResults());
}

void GemvKernelBuilder::build() {
  // The next kernel may launch now: its CTAs find SMs as this grid's
  // finish, and its own wait keeps it from reading what this one writes.
  if (cfg.pdl)
    NVVM::GriddepcontrolOp::create(b, loc,
                                   NVVM::GridDepActionKind::launch_dependents);
  // The first CTA of a cluster receives the others' partials in its shared
  // memory: their writes wait (the cluster barrier's first phase) until
  // every CTA of the cluster has started.
  if (cfg.clusterReduction)
    NVVM::ClusterArriveRelaxedOp::create(b, loc, /*aligned=*/UnitAttr());
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tables = buildDecodeTables(b, loc, cfg.decode, threadId);
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
  IV n = slicing.equalSlices()
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
    rows.push_back(cfg.rowOffsets
                       ? row
                       : arith::MinUIOp::create(
                             b, loc, row, IV::index(b, loc, numRows() - 1)));

  // With the vector in shared memory, or a predecessor to wait for, the
  // first group of a is loaded before the prologue or the wait so that
  // its latency overlaps theirs (chunks clamped: valid memory even when
  // the slice has no whole group).
  SmallVector<Value> firstWords;
  if (cfg.onePassSteps && (preparedVec || cfg.pdl))
    firstWords = loadSteps(IV::index(b, loc, 0), cfg.onePassSteps,
                           /*clamp=*/true);
  else if ((preparedVec || cfg.pdl) && cfg.prefetch && !cfg.asyncCopyStages)
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
    acc =
        buildTmaStepLoop(full, acc, slicing.sliceChunks, slicing.equalSlices());
  } else if (stages) {
    acc = buildAsyncStepLoop(full, acc);
  } else if (cfg.onePassSteps) {
    acc = buildOnePass(n, slicing.shortestSlice(), acc, firstWords);
  } else {
    Value groups = IV(b, loc, full) / cfg.loadsInFlight;
    acc = buildGroupLoop(groups, cfg.loadsInFlight, acc, firstWords);
    acc = buildSingleSteps(IV(b, loc, groups) * cfg.loadsInFlight, full, acc);
  }
  if (!cfg.onePassSteps && slicing.endsInPartialStep(cfg.lanesPerRow))
    acc = buildTailStep(full, tail, acc);

  reduceLanes(acc);

  Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                         IV::index(b, loc, 0));
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
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slice,
                                        IV::index(b, loc, 0));
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
  if (cfg.clusterReduction) {
    buildClusterReduction(isLeader, acc);
    return;
  }
  if (cfg.ctaSplitK > 1) {
    buildCtaReduction(isLeader, acc);
    return;
  }
  storeResults(isLeader, acc);
}

std::pair<Value, Value> mlir::nvfp4::splitKGlobals(OpBuilder &b,
                                                   gpu::GPUFuncOp kernel,
                                                   GemvOp op,
                                                   const KernelConfig &cfg) {
  Location loc = op.getLoc();
  auto global =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Global);
  int64_t batches = op.getA().getType().getDimSize(0);
  auto wsType = MemRefType::get(splitKWorkspaceShape(op, cfg), b.getF32Type(),
                                MemRefLayoutAttrInterface(), global);
  auto counterType =
      MemRefType::get({batches, gridRowBlocks(op, cfg)}, b.getI32Type(),
                      MemRefLayoutAttrInterface(), global);
  memref::GlobalOp workspace, counters;
  {
    OpBuilder::InsertionGuard guard(b);
    auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
    b.setInsertionPointToStart(module.getBody());
    workspace = memref::GlobalOp::create(
        b, loc, "nvfp4_split_k_partials", b.getStringAttr("private"), wsType,
        b.getUnitAttr(), /*constant=*/false, b.getI64IntegerAttr(16));
    counters = memref::GlobalOp::create(
        b, loc, "nvfp4_split_k_counters", b.getStringAttr("private"),
        counterType,
        DenseElementsAttr::get(
            RankedTensorType::get(counterType.getShape(), b.getI32Type()),
            b.getI32IntegerAttr(0).getValue()),
        /*constant=*/false, b.getI64IntegerAttr(16));
  }
  return {
      memref::GetGlobalOp::create(b, loc, wsType, workspace.getSymName()),
      memref::GetGlobalOp::create(b, loc, counterType, counters.getSymName())};
}

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
  Value partials, preparedVec, stages, lastFlag, clusterPartials;
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
  if (cfg.clusterReduction)
    clusterPartials = addShared(
        {cfg.ctaSplitK, cfg.rowsPerBlock * op.getNumVectors()}, b.getF32Type());
  else if (cfg.ctaSplitK > 1)
    lastFlag = addShared({1}, b.getI32Type());
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  GemvKernelBuilder kb{b, loc, op, cfg};
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
  kb.clusterPartials = clusterPartials;
  if (cfg.ctaSplitK > 1 && !cfg.clusterReduction)
    std::tie(kb.workspace, kb.counters) = splitKGlobals(b, kernel, op, cfg);
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
