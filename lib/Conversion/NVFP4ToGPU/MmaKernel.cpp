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
// (predicated, with loads clamped to the row). With quad-pairs a warp takes
// its whole steps in adjacent pairs and the quads g and g ^ 1 read a (and
// packed vectors) of one row at a time, 128 bytes a load, trading 16 bytes a
// row afterwards (loadCodePair). Tiled codes (nvfp4/Support/CodeLayout.h)
// make each of a's warp-wide loads 512 adjacent bytes. With
// async-copy-stages, a lane copies its bytes of each whole step (cp.async)
// into its own slots of its warp's stages in dynamic shared memory, stages
// - 1 steps ahead of the step it decodes, so that loads stay in flight
// during the MMAs without registers to hold them. A lane waits for its own
// copies; lanes of the vectors past N read the slots of b of the lane that
// copied vector N - 1, after a warp barrier.
//
//===----------------------------------------------------------------------===//

#include "MmaKernelBuilder.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/GemvOutlining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace cost = ::nvfp4::cost;
using cost::kMmaVectors;

/// The scale bytes of columns `cols` (two) of `row` of `scales` (row 0
/// for a vector's), as vector<2xi8>; one 16-bit load when paired.
Value MmaBuilder::loadScaleBytes(Value scales, bool isVector, Value row,
                                 ArrayRef<Value> cols, bool paired) {
  auto bytesType = VectorType::get({2}, b.getI8Type());
  if (paired) {
    return buildLoadScaleBytes(b, loc, scales,
                               buildScaleIndices(b, loc, op.getLayout(),
                                                 isVector, batch, row, cols[0]),
                               2);
  }
  SmallVector<Value> bits;
  for (Value col : cols)
    bits.push_back(buildLoadScaleBits(
        b, loc, scales,
        buildScaleIndices(b, loc, op.getLayout(), isVector, batch, row, col)));
  return vector::FromElementsOp::create(b, loc, bytesType, bits);
}

/// Row offset of this lane's 16 bytes at step `step`.
IV MmaBuilder::chunkByte(Value step) {
  return (IV(b, loc, step) * cost::kMmaLanesPerRow + IV(b, loc, quadLane)) *
         cost::kMmaBytesPerLoad;
}

MmaBuilder::Chunk MmaBuilder::wholeChunk(Value step) {
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
MmaBuilder::Chunk MmaBuilder::tailChunk() {
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

/// The i32 words of a's (or packed b's) 16 bytes of `chunk`.
SmallVector<Value> MmaBuilder::loadCodes(Value memref,
                                         SmallVector<Value> prefix,
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

SmallVector<Value> MmaBuilder::codeIndices(Value row, Value byte) {
  if (!aFlat)
    return {batch, row, byte};
  return buildTiledCodeIndices(b, loc, rowBytes(), batch, row, byte);
}

SmallVector<Value> MmaBuilder::vectorPrefix(Value vector) {
  if (!op.hasVectorDim())
    return {batch};
  return {batch, vector};
}

MmaBuilder::StepLoads
MmaBuilder::loadStep(const Chunk &ch, ArrayRef<SmallVector<Value>> codes,
                     ArrayRef<SmallVector<Value>> bCodes) {
  StepLoads s;
  s.chunk = ch;
  s.aWords.assign(codes.begin(), codes.end());
  s.bWords.assign(bCodes.begin(), bCodes.end());
  bool paired = ch.whole && chunkScalesAdjacent(op, cost::kMmaBytesPerLoad);
  for (Value row : rows) {
    // Tiled codes have whole steps only (CodeLayout.h), 16 aligned bytes.
    if (codes.empty())
      s.aWords.push_back(
          aFlat ? loadWords(b, loc, aFlat, codeIndices(row, ch.bytes[0]), 16,
                            cfg.cacheHints)
                : loadCodes(a, {batch, row}, ch, cfg.cacheHints));
    s.aScales.push_back(loadScaleBytes(sfa, false, row, ch.cols, paired));
  }
  for (int64_t h = 0; h < halves(); ++h) {
    Value v = vectorIds[h];
    if (packed()) {
      if (bCodes.empty())
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

/// Each lane's words of steps `c0` and `c1` (whole, usually adjacent) of
/// its rows of `memref`, read by both quads of an even-odd pair on one row
/// at a time: `evenRows` and `oddRows` (index prefixes) are the rows of the
/// pair's even and odd quad, the same for both quads. A pair's first load
/// reads the even quad's row, at c0 in the even quad and at c1 in the odd
/// one, its second load the odd quad's row, at c1 and c0: each covers 128
/// adjacent bytes of one row when c1 follows c0. Each lane then sends the
/// 16 bytes of the other quad's row that it read (shfl.xor 4) and gets
/// its own row's other step.
MmaBuilder::WordPair
MmaBuilder::loadCodePair(Value memref, ArrayRef<SmallVector<Value>> evenRows,
                         ArrayRef<SmallVector<Value>> oddRows, const Chunk &c0,
                         const Chunk &c1, bool streaming) {
  Chunk atFirst = c0, atSecond = c1;
  for (int64_t h = 0; h < 2; ++h) {
    atFirst.bytes[h] =
        arith::SelectOp::create(b, loc, oddQuad, c1.bytes[h], c0.bytes[h]);
    atSecond.bytes[h] =
        arith::SelectOp::create(b, loc, oddQuad, c0.bytes[h], c1.bytes[h]);
  }
  WordPair pair;
  for (auto [evenRow, oddRow] : llvm::zip_equal(evenRows, oddRows)) {
    SmallVector<Value> firsts = loadCodes(memref, evenRow, atFirst, streaming);
    SmallVector<Value> seconds = loadCodes(memref, oddRow, atSecond, streaming);
    pair.first.emplace_back();
    pair.second.emplace_back();
    for (auto [x, y] : llvm::zip_equal(firsts, seconds)) {
      // Even quad: x is its row at c0, y the odd row at c1 (sent); odd
      // quad: x the even row at c1 (sent), y its row at c0.
      Value send = arith::SelectOp::create(b, loc, oddQuad, x, y);
      pair.first.back().push_back(
          arith::SelectOp::create(b, loc, oddQuad, y, x));
      pair.second.back().push_back(
          gpu::ShuffleOp::create(b, loc, send, 4, 32, gpu::ShuffleMode::XOR)
              .getShuffleResult());
    }
  }
  return pair;
}

/// `count` whole steps of this warp, the j-th at `stepOf(j)`, in pairs
/// (loadCodePair); an odd last one alone.
SmallVector<Value> MmaBuilder::buildPairedStepLoop(function_ref<IV(IV)> stepOf,
                                                   Value count,
                                                   ArrayRef<Value> acc) {
  // The rows (vectors) of the even and of the odd quad of this lane's pair.
  auto evenOf = [&](Value mine, Value partner) -> Value {
    return arith::SelectOp::create(b, loc, oddQuad, partner, mine);
  };
  auto oddOf = [&](Value mine, Value partner) -> Value {
    return arith::SelectOp::create(b, loc, oddQuad, mine, partner);
  };
  RowWords aEven, aOdd, bEven, bOdd;
  for (auto [row, partner] : llvm::zip_equal(rows, partnerRows)) {
    aEven.push_back({batch, evenOf(row, partner)});
    aOdd.push_back({batch, oddOf(row, partner)});
  }
  for (int64_t h = 0; h < halves(); ++h) {
    bEven.push_back(vectorPrefix(evenOf(vectorIds[h], partnerVectorIds[h])));
    bOdd.push_back(vectorPrefix(oddOf(vectorIds[h], partnerVectorIds[h])));
  }
  IV pairs = IV(b, loc, count) / 2;
  auto loop = scf::ForOp::create(b, loc, idx(0), pairs, idx(1), acc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    IV j = IV(b, loc, loop.getInductionVar()) * 2;
    Chunk c0 = wholeChunk(stepOf(j)), c1 = wholeChunk(stepOf(j + 1));
    WordPair aCodes = loadCodePair(a, aEven, aOdd, c0, c1, cfg.cacheHints);
    // Packed vectors pair the same way (vectors g and g ^ 1).
    WordPair bCodes;
    if (packed())
      bCodes = loadCodePair(vec, bEven, bOdd, c0, c1, false);
    // The second step's scales load after the first's MMAs.
    SmallVector<Value> sums(loop.getRegionIterArgs());
    sums = computeStep(loadStep(c0, aCodes.first, bCodes.first), sums);
    sums = computeStep(loadStep(c1, aCodes.second, bCodes.second), sums);
    scf::YieldOp::create(b, loc, sums);
  }
  IV done = pairs * 2;
  SmallVector<Value> sums(loop.getResults());
  return buildStepLoop([&](IV j) { return stepOf(done + j); },
                       IV(b, loc, count) - done, 1, sums);
}

/// `count` whole steps of this warp, the j-th at `stepOf(j)`, `group`
/// steps' loads issued before any of them is decoded.
SmallVector<Value> MmaBuilder::buildStepLoop(function_ref<IV(IV)> stepOf,
                                             Value count, int64_t group,
                                             ArrayRef<Value> acc) {
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

void MmaBuilder::build(Value blockX, Value tid0) {
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
    NVVM::GriddepcontrolOp::create(b, loc,
                                   NVVM::GridDepActionKind::launch_dependents);
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
      IV inBlock = warpRow * (kTileRows * tiles()) + g + kTileRows * r + 8 * i;
      rowsInBlock.push_back(inBlock);
      IV row = IV(b, loc, rowBlock) * cfg.rowsPerBlock + inBlock;
      rowIds.push_back(row);
      // Rows past M read the last row and store nothing.
      rows.push_back(cfg.rowOffsets ? Value(row) : vminu(row, numRows() - 1));
      if (cfg.quadPairs)
        partnerRows.push_back(vminu(row + 1 - (g % 2) * 2, numRows() - 1));
    }
  if (cfg.quadPairs)
    oddQuad =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, g % 2, idx(0));
  for (int64_t h = 0; h < halves(); ++h) {
    vectorIds[h] = vminu(g + kMmaVectors * h, vectors() - 1);
    if (cfg.quadPairs)
      partnerVectorIds[h] =
          vminu(g + 1 - (g % 2) * 2 + kMmaVectors * h, vectors() - 1);
  }

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
    count = arith::SubIOp::create(b, loc,
                                  arith::MaxUIOp::create(b, loc, end, lo), lo);
  }
  if (stages()) {
    IV stage0 = warp * stageLayout().bytes();
    laneCodes = sharedAt(smem, i32(stage0 + lane * MmaStageLayout::kCodeBytes));
    laneWords = sharedAt(smem, i32(stage0 + stageLayout().wordSlot(0) +
                                   lane * MmaStageLayout::kWordBytes));
  }
  if (slicing.fullSteps > 0 && stages()) {
    acc = buildAsyncStepLoop(lo, count, acc);
  } else if (slicing.fullSteps > 0 && slicing.interleaved()) {
    // Long slices interleave: warp s of S takes whole steps s, s + S, ...,
    // so that a CTA's warps read adjacent chunks of their rows at about
    // the same time.
    int64_t slices = slicing.slices;
    IV s(b, loc, kSlice);
    if (cfg.quadPairs) {
      // Warp s takes the step pairs s, s + S, ...: its steps 2j and 2j + 1
      // are adjacent.
      IV pairCount =
          (IV(b, loc, idx(slicing.fullSteps / 2 + slices - 1)) - s) / slices;
      acc = buildPairedStepLoop(
          [&](IV j) { return ((j / 2) * slices + s) * 2 + j % 2; },
          pairCount * 2, acc);
      // An odd last whole step goes alone to the warp next in turn.
      if (slicing.fullSteps % 2) {
        int64_t owner = slicing.fullSteps / 2 % slices;
        Value owns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s,
                                           idx(owner));
        Value count = arith::SelectOp::create(b, loc, owns, idx(1), idx(0));
        acc = buildStepLoop([&](IV j) { return j + (slicing.fullSteps - 1); },
                            count, 1, acc);
      }
    } else {
      // Its count: ceil((fullSteps - s) / S).
      IV interleavedCount =
          (IV(b, loc, idx(slicing.fullSteps + slices - 1)) - s) / slices;
      acc = buildStepLoop([&](IV j) { return s + j * slices; },
                          interleavedCount, cfg.loadsInFlight, acc);
    }
  } else if (slicing.fullSteps > 0 && cfg.quadPairs) {
    // A slice from an odd step takes that step alone, so that its pairs
    // start on even steps: 128 bytes of one line, not of two.
    IV alone(b, loc, arith::MinUIOp::create(b, loc, IV(b, loc, lo) % 2, count));
    acc =
        buildStepLoop([&](IV j) { return IV(b, loc, lo) + j; }, alone, 1, acc);
    acc = buildPairedStepLoop([&](IV j) { return IV(b, loc, lo) + alone + j; },
                              IV(b, loc, count) - alone, acc);
  } else if (slicing.fullSteps > 0) {
    acc = buildStepLoop([&](IV j) { return IV(b, loc, lo) + j; }, count,
                        cfg.loadsInFlight, acc);
  }
  if (slicing.hasTail()) {
    Value owns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kSlice,
                                       idx(slicing.slices - 1));
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
  if (op.getTiledCodes())
    mb.aFlat = buildFlatCodes(b, loc, mb.a);
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
