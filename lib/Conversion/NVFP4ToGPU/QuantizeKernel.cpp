//===- QuantizeKernel.cpp - quantize and dequantize GPU kernels -----------===//
//
// A thread takes whole blocks of B values (16 for NVFP4, 32 for MXFP4),
// consecutive threads on consecutive scale bytes: blocks of a row with
// linear scales, 8 rows x 4 blocks a warp with blocked ones (its scale
// bytes fill 32 contiguous bytes of an atom instead of 4 bytes in each of 8
// atoms). Either way a warp's 16-byte loads and stores of codes cover whole
// pieces of its rows. The arithmetic is the CPU lowering's
// (QuantizeCodec.h), hence the same bytes.
//
// quantize: a thread loads its blocks (two of 16-bit NVFP4 values, else
// one), takes each block's max |x|, writes the scale byte and the B/2 bytes
// of codes. For the blocked layout the grid covers the padded rows and
// columns; a block at a padding position gets its zero scale byte and
// nothing else, so no separate fill is needed.
//
// The global scale of a two-level quantization needs the max over the
// whole tensor before any block is scaled, so a first kernel streams the
// input (a grid-stride loop, four 16-byte loads in flight a thread),
// reduces each CTA's maximum through shuffles and shared memory, and merges
// it into a module global by an atomic max of its bits (non-negative floats
// order as their bits do); the last CTA to arrive turns the maximum into gs,
// stores it and resets the globals for the next launch. A max is exact in
// any order, so the result does not depend on scheduling.
//
// dequantize: a thread writes 32 bytes of output (16 or 8 values, in two
// 16-byte stores), reading their codes and their block's scale; 16-bit
// outputs are looked up in the results of the eight magnitudes, computed
// once a thread.
//
//===----------------------------------------------------------------------===//

#include "QuantizeKernel.h"
#include "KernelConfig.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/GemvOutlining.h"
#include "nvfp4/Conversion/Common/IndexValue.h"
#include "nvfp4/Conversion/Common/QuantizeCodec.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"
#include "nvfp4/Support/Chips.h"
#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ManifestSchema.h"
#include "nvfp4/Support/ScaleLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;
namespace schema = ::nvfp4::manifest;
namespace lay = ::nvfp4::layout;

namespace {

constexpr int64_t kThreads = 256;
constexpr int64_t kLoadBytes = 16;
/// The global-scale kernel's 16-byte loads in flight a thread and CTAs an
/// SM: enough bytes in flight to stream at the memory's rate.
constexpr int64_t kAmaxLoadsPerThread = 4;
constexpr int64_t kAmaxCtasPerSM = 8;
/// Registers a quantize thread of two blocks (blocksPerThread) may use:
/// the configuration measured (docs/benchmarks.md), 56 holds both blocks
/// without spilling, 4 CTAs of 256 threads an SM. Capped at 48 or 40 it
/// spills and the 16384 x 7168 bf16 quantization takes 1.14 and 1.7 times
/// as long; left alone ptxas takes 60, also 4 CTAs an SM (not timed).
constexpr int64_t kTwoBlockQuantizeMaxRegisters = 56;

/// The values side of a quantize or dequantize: [L, rows, K].
struct ValuesShape {
  int64_t l, rows, k;
};

ValuesShape valuesShape(Value values) {
  auto type = cast<MemRefType>(values.getType());
  return {type.getDimSize(0), type.getDimSize(1), type.getDimSize(2)};
}

std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return name;
}

Type elementType(Value memref) {
  return cast<MemRefType>(memref.getType()).getElementType();
}

/// A located error unless every operand is a static memref with the
/// identity layout and the sizes are within the GPU lowering's limits.
LogicalResult checkKernelOperands(Operation *op, Value values) {
  for (Value v : op->getOperands()) {
    auto type = cast<MemRefType>(v.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return op->emitOpError(
          "needs static, identity-layout memrefs for the GPU lowering");
  }
  ValuesShape s = valuesShape(values);
  return checkGpuSizes(op, {{"rows", s.rows}, {"K", s.k}, {"L", s.l}});
}

/// The manifest entries of a quantizer kernel: its name and shape first,
/// then `fields`, then the launch.
DictionaryAttr launchInfo(OpBuilder &b, gpu::GPUFuncOp kernel, StringRef chip,
                          schema::Op kind, ValuesShape s,
                          ArrayRef<NamedAttribute> fields, int64_t gridX,
                          int64_t gridY, ArrayRef<schema::Param> params) {
  namespace key = schema::key;
  NamedAttrList attrs;
  attrs.append(key::Kernel, b.getStringAttr(kernel.getName()));
  attrs.append(key::Chip, b.getStringAttr(chip));
  attrs.append(key::Op, b.getStringAttr(schema::name(kind)));
  attrs.append(key::Rows, b.getI64IntegerAttr(s.rows));
  attrs.append(key::K, b.getI64IntegerAttr(s.k));
  attrs.append(key::L, b.getI64IntegerAttr(s.l));
  attrs.append(fields);
  attrs.append(key::Grid, b.getI64ArrayAttr({gridX, gridY, 1}));
  attrs.append(key::Block, b.getI64ArrayAttr({kThreads, 1, 1}));
  attrs.append(key::SharedBytes, b.getI64IntegerAttr(0));
  SmallVector<StringRef> names;
  for (schema::Param param : params)
    names.push_back(schema::name(param));
  attrs.append(key::Params, b.getStrArrayAttr(names));
  return attrs.getDictionary(b.getContext());
}

/// Values of memref[l, r, k .. k + count) (f32, f16 or bf16 values whose
/// first is 16-byte aligned), read in 16-byte vectors: the vectors as read
/// and the values as f32.
struct LoadedValues {
  SmallVector<Value> vectors;
  SmallVector<Value> f32;
};

LoadedValues loadValues(OpBuilder &b, Location loc, Value memref, Value l,
                        Value r, IV k, int64_t count) {
  Type element = elementType(memref);
  int64_t perLoad = kLoadBytes * 8 / element.getIntOrFloatBitWidth();
  LoadedValues loaded;
  for (int64_t i = 0; i < count; i += perLoad) {
    Value v = vector::LoadOp::create(
        b, loc, VectorType::get({perLoad}, element), memref,
        ValueRange{l, r, k + i}, /*nontemporal=*/false,
        llvm::MaybeAlign(kLoadBytes));
    loaded.vectors.push_back(v);
    if (element.isBF16()) {
      // A bf16 is the top half of its f32: one shift or mask a value, not
      // an extraction and a conversion.
      ScalarOps o{b, loc};
      Value words = vector::BitCastOp::create(
          b, loc, VectorType::get({perLoad / 2}, b.getI32Type()), v);
      for (int64_t j = 0; j < perLoad / 2; ++j) {
        Value word = vector::ExtractOp::create(b, loc, words, j);
        loaded.f32.push_back(o.asF32(o.shl(word, 16)));
        loaded.f32.push_back(o.asF32(o.andi(word, 0xFFFF0000)));
      }
      continue;
    }
    if (!element.isF32())
      v = arith::ExtFOp::create(b, loc,
                                VectorType::get({perLoad}, b.getF32Type()), v);
    for (int64_t j = 0; j < perLoad; ++j)
      loaded.f32.push_back(vector::ExtractOp::create(b, loc, v, j));
  }
  return loaded;
}

/// max(0, |x| for x in xs) by a tree of maxNum (exact, so in any order; the
/// 0 makes a block of NaNs give 0 as the CPU loop starting from 0 does).
Value maxAbs(OpBuilder &b, Location loc, ArrayRef<Value> xs);

/// max(0, |x|) over the loaded values. 16-bit values are compared as they
/// were read, two a max.bf16x2 / max.f16x2 (exact: the maximum of the
/// widened values is the widened maximum), halving the work.
Value blockMaxAbs(OpBuilder &b, Location loc, const LoadedValues &loaded) {
  auto type = cast<VectorType>(loaded.vectors.front().getType());
  if (type.getElementType().isF32())
    return maxAbs(b, loc, loaded.f32);
  auto bitsType = VectorType::get(type.getShape(), b.getI16Type());
  Value signMask = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(bitsType, b.getI16IntegerAttr(0x7FFF)));
  Value max;
  for (Value v : loaded.vectors) {
    Value bits = vector::BitCastOp::create(b, loc, bitsType, v);
    Value abs = vector::BitCastOp::create(
        b, loc, type, arith::AndIOp::create(b, loc, bits, signMask));
    max = max ? buildMaxNum(b, loc, max, abs) : abs;
  }
  // Halve the vector until two values are left.
  for (int64_t n = type.getNumElements() / 2; n >= 2; n /= 2) {
    SmallVector<int64_t> lo, hi;
    for (int64_t i = 0; i < n; ++i) {
      lo.push_back(i);
      hi.push_back(n + i);
    }
    max = buildMaxNum(b, loc, vector::ShuffleOp::create(b, loc, max, max, lo),
                      vector::ShuffleOp::create(b, loc, max, max, hi));
  }
  SmallVector<Value> pair;
  for (int64_t i = 0; i < 2; ++i)
    pair.push_back(arith::ExtFOp::create(
        b, loc, b.getF32Type(),
        vector::ExtractOp::create(b, loc, max, i).getResult()));
  return maxAbs(b, loc, pair);
}

Value maxAbs(OpBuilder &b, Location loc, ArrayRef<Value> xs) {
  ScalarOps o{b, loc};
  SmallVector<Value> level;
  for (Value x : xs)
    level.push_back(o.absf(x));
  while (level.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2)
      next.push_back(buildMaxNum(b, loc, level[i], level[i + 1]));
    if (level.size() % 2)
      next.push_back(level.back());
    level = std::move(next);
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  return buildMaxNum(b, loc, level.front(), zero);
}

/// Thread `cta * kThreads + tid` of the x dimension and the batch (y).
struct ThreadIndex {
  IV thread;
  Value batch;
};

ThreadIndex threadIndex(OpBuilder &b, Location loc) {
  IV tid(b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  IV cta(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  return {cta * kThreads + tid,
          gpu::BlockIdOp::create(b, loc, gpu::Dimension::y)};
}

/// Continues inside `thread < total` unless the grid holds exactly `total`
/// threads a batch.
void guardThreads(OpBuilder &b, Location loc, IV thread, int64_t total) {
  if (total % kThreads == 0)
    return;
  auto inBounds = scf::IfOp::create(b, loc, vult(thread, total), false);
  b.setInsertionPointToStart(inBounds.thenBlock());
}

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

/// The threads of one batch: one a (row, scale column), the blocked
/// layout's padding included.
struct QuantizeGrid {
  int64_t rows, cols;
  int64_t total() const { return rows * cols; }
};

QuantizeGrid quantizeGrid(QuantizeOp op) {
  ValuesShape s = valuesShape(op.getInput());
  int64_t cols = s.k / getBlockSize(op.getFormat());
  if (op.getLayout() == ScaleLayout::Blocked128x4)
    return {lay::paddedRows(s.rows), lay::paddedCols(cols)};
  return {s.rows, cols};
}

/// Blocks a quantize thread takes. One NVFP4 block of 16-bit values is 32
/// bytes, half of what a thread of the f32 or MXFP4 kernels loads; two
/// blocks a thread double the bytes in flight (docs/benchmarks.md).
int64_t blocksPerThread(QuantizeOp op) {
  return op.getFormat() == ScaleFormat::NVFP4 &&
                 !elementType(op.getInput()).isF32()
             ? 2
             : 1;
}

/// The scale byte and codes of one block, from its loaded values.
void quantizeBlock(OpBuilder &b, Location loc, QuantizeOp op, Value data,
                   Value scales, const LoadedValues &loaded, Value gs,
                   Value batch, IV row, IV col) {
  ScalarOps o{b, loc};
  ScaleFormat format = op.getFormat();
  int64_t block = getBlockSize(format);
  BlockQuantizer q =
      buildBlockQuantizer(b, loc, format, blockMaxAbs(b, loc, loaded), gs);
  buildStoreScaleBits(b, loc, q.scaleBits, scales,
                      buildScaleIndices(b, loc, op.getLayout(),
                                        /*isVector=*/false, batch, row, col));
  // A word of eight codes at a time; the zero test once a word.
  Value keep = buildKeepMask(b, loc, q);
  bool pairs = !elementType(op.getInput()).isF32();
  SmallVector<Value> words;
  for (int64_t w = 0; w < block / 8; ++w) {
    ArrayRef<Value> xs = ArrayRef<Value>(loaded.f32).slice(8 * w, 8);
    Value signs = pairs ? buildSignNibblesOf16Bit(b, loc, loaded.vectors[w])
                        : buildSignNibbles(b, loc, xs);
    words.push_back(arith::AndIOp::create(
        b, loc, o.ori(buildQuantizeMagnitudes(b, loc, q, xs), signs), keep));
  }
  auto wordsType = VectorType::get({int64_t(words.size())}, b.getI32Type());
  Value packed = vector::FromElementsOp::create(b, loc, wordsType, words);
  Value bytes = vector::BitCastOp::create(
      b, loc, VectorType::get({block / 2}, b.getI8Type()), packed);
  vector::StoreOp::create(b, loc, bytes, data,
                          ValueRange{batch, row, col * (block / 2)},
                          /*nontemporal=*/false, llvm::MaybeAlign(block / 2));
}

void buildQuantizeBody(OpBuilder &b, gpu::GPUFuncOp kernel, QuantizeOp op) {
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  Location loc = op.getLoc();
  Value input = entry.getArgument(0), data = entry.getArgument(1),
        scales = entry.getArgument(2);
  int64_t block = getBlockSize(op.getFormat());
  ValuesShape s = valuesShape(op.getInput());
  int64_t cols = s.k / block;
  QuantizeGrid grid = quantizeGrid(op);
  bool padded = grid.rows != s.rows || grid.cols != cols;
  int64_t n = blocksPerThread(op);
  bool exact = grid.total() % (kThreads * n) == 0;
  ScalarOps o{b, loc};

  // Thread t of CTA c takes the blocks of scale bytes (c n + i) kThreads +
  // t, i < n, so each store of scales of a warp covers consecutive bytes;
  // every block's loads are issued before any block's arithmetic. A block
  // past the grid's end or in the blocked layout's padding loads a real
  // block (clamped indices) and stores nothing of it.
  IV tid(b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  IV cta(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  Value batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  SmallVector<IV> indices, rows, colsOf;
  SmallVector<LoadedValues> loaded;
  for (int64_t i = 0; i < n; ++i) {
    IV index = cta * (n * kThreads) + (tid + i * kThreads);
    auto [row, col] =
        op.getLayout() == ScaleLayout::Blocked128x4
            ? lay::blockedRowColAt(index, lay::colBlocks(cols))
            : lay::RowCol<IV>{index / grid.cols, index % grid.cols};
    IV loadRow = exact && !padded ? row : vminu(row, s.rows - 1);
    IV loadCol = padded ? vminu(col, cols - 1) : col;
    indices.push_back(index);
    rows.push_back(row);
    colsOf.push_back(col);
    loaded.push_back(
        loadValues(b, loc, input, batch, loadRow, loadCol * block, block));
  }
  Value gs = o.f32(1.0f);
  if (op.getGlobalScale())
    gs = memref::LoadOp::create(b, loc, entry.getArgument(3), ValueRange{});
  for (int64_t i = 0; i < n; ++i) {
    OpBuilder::InsertionGuard blockGuard(b);
    if (!exact) {
      auto inGrid = scf::IfOp::create(b, loc, vult(indices[i], grid.total()),
                                      /*withElse=*/false);
      b.setInsertionPointToStart(inGrid.thenBlock());
    }
    if (padded) {
      // Padding of the blocked layout: a zero scale byte, no codes.
      Value inside = arith::AndIOp::create(b, loc, vult(rows[i], s.rows),
                                           vult(colsOf[i], cols));
      auto ifInside = scf::IfOp::create(b, loc, inside, /*withElse=*/true);
      b.setInsertionPointToStart(ifInside.elseBlock());
      buildStoreScaleBits(
          b, loc, arith::ConstantIntOp::create(b, loc, 0, 8), scales,
          buildScaleIndices(b, loc, op.getLayout(), /*isVector=*/false, batch,
                            rows[i], colsOf[i]));
      b.setInsertionPointToStart(ifInside.thenBlock());
    }
    quantizeBlock(b, loc, op, data, scales, loaded[i], gs, batch, rows[i],
                  colsOf[i]);
  }
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// The global scale of a two-level quantization
//===----------------------------------------------------------------------===//

/// 16-byte vectors of the whole input.
int64_t inputVectors(QuantizeOp op) {
  auto type = op.getInput().getType();
  return type.getNumElements() * type.getElementTypeBitWidth() / 8 / kLoadBytes;
}

int64_t globalScaleGrid(QuantizeOp op, StringRef chip) {
  int64_t wanted =
      lay::ceilDiv(inputVectors(op), kThreads * kAmaxLoadsPerThread);
  return std::min(wanted, ::nvfp4::findChip(chip)->smCount * kAmaxCtasPerSM);
}

/// A zero-initialised i32 global of the kernel's module.
Value zeroedGlobal(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                   StringRef name) {
  auto type = MemRefType::get(
      {1}, b.getI32Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Global));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        kernel->getParentOfType<gpu::GPUModuleOp>().getBody());
    memref::GlobalOp::create(
        b, loc, name, b.getStringAttr("private"), type,
        DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                               b.getI32IntegerAttr(0).getValue()),
        /*constant=*/false, /*alignment=*/nullptr);
  }
  return memref::GetGlobalOp::create(b, loc, type, name);
}

void buildGlobalScaleBody(OpBuilder &b, gpu::GPUFuncOp kernel, QuantizeOp op,
                          int64_t gridX) {
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  Location loc = op.getLoc();
  ScalarOps o{b, loc};
  Value input = entry.getArgument(0), gsOut = entry.getArgument(1);
  Value maxBits = zeroedGlobal(b, loc, kernel, "nvfp4_amax_bits");
  Value arrivals = zeroedGlobal(b, loc, kernel, "nvfp4_amax_arrivals");
  auto workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  constexpr int64_t kWarps = kThreads / ::nvfp4::kWarpSize;
  Value warpMax = kernel.addWorkgroupAttribution(
      MemRefType::get({kWarps}, b.getF32Type(), MemRefLayoutAttrInterface(),
                      workgroup),
      loc);

  // The input as one row of values.
  MemRefType inType = op.getInput().getType();
  Value flat = memref::CollapseShapeOp::create(
      b, loc, input, SmallVector<ReassociationIndices>{{0, 1, 2}});
  Type element = inType.getElementType();
  int64_t perLoad = kLoadBytes * 8 / element.getIntOrFloatBitWidth();
  int64_t vectors = inputVectors(op);
  int64_t stride = gridX * kThreads * kAmaxLoadsPerThread;

  IV tid(b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  IV cta(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  IV first = cta * (kThreads * kAmaxLoadsPerThread) + tid;
  Value zeroIdx = IV::index(b, loc, 0);
  auto loop = scf::ForOp::create(
      b, loc, zeroIdx, IV::index(b, loc, lay::ceilDiv(vectors, stride)),
      IV::index(b, loc, 1), ValueRange{o.f32(0.0f)},
      [&](OpBuilder &b, Location loc, Value it, ValueRange acc) {
        IV base = IV(b, loc, it) * stride + first;
        SmallVector<Value> values;
        for (int64_t j = 0; j < kAmaxLoadsPerThread; ++j) {
          // Past the end, a thread reads the last vector again: harmless
          // for a maximum, and no branch.
          IV index = vminu(base + j * kThreads, vectors - 1);
          Value v = vector::LoadOp::create(
              b, loc, VectorType::get({perLoad}, element), flat,
              ValueRange{index * perLoad}, /*nontemporal=*/false,
              llvm::MaybeAlign(kLoadBytes));
          if (!element.isF32())
            v = arith::ExtFOp::create(
                b, loc, VectorType::get({perLoad}, b.getF32Type()), v);
          for (int64_t i = 0; i < perLoad; ++i)
            values.push_back(vector::ExtractOp::create(b, loc, v, i));
        }
        values.push_back(acc[0]);
        scf::YieldOp::create(b, loc, maxAbs(b, loc, values));
      });
  Value amax = loop.getResult(0);
  for (int64_t offset = ::nvfp4::kWarpSize / 2; offset > 0; offset /= 2) {
    Value other =
        gpu::ShuffleOp::create(b, loc, amax, offset, ::nvfp4::kWarpSize,
                               gpu::ShuffleMode::XOR)
            .getShuffleResult();
    amax = buildMaxNum(b, loc, amax, other);
  }
  IV lane = tid % ::nvfp4::kWarpSize, warp = tid / ::nvfp4::kWarpSize;
  {
    auto ifLeader = scf::IfOp::create(b, loc, vult(lane, 1), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifLeader.thenBlock());
    memref::StoreOp::create(b, loc, amax, warpMax, ValueRange{warp});
  }
  gpu::BarrierOp::create(b, loc);
  auto ifFirst = scf::IfOp::create(b, loc, vult(tid, 1), false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  SmallVector<Value> perWarp;
  for (int64_t w = 0; w < kWarps; ++w)
    perWarp.push_back(memref::LoadOp::create(b, loc, warpMax,
                                             ValueRange{IV::index(b, loc, w)}));
  Value ctaMax = maxAbs(b, loc, perWarp);
  memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::maxu,
                              o.asI32(ctaMax), maxBits, ValueRange{zeroIdx});
  // This CTA's maximum is in before it counts itself in.
  NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  Value before =
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, o.i32(1),
                                  arrivals, ValueRange{zeroIdx});
  auto ifLast = scf::IfOp::create(
      b, loc, o.cmp(arith::CmpIPredicate::eq, before, o.i32(gridX - 1)), false);
  b.setInsertionPointToStart(ifLast.thenBlock());
  NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  // An atomic max with 0 reads the merged bits from where the atomics
  // merged them.
  Value bits =
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::maxu, o.i32(0),
                                  maxBits, ValueRange{zeroIdx});
  memref::StoreOp::create(b, loc, buildGlobalScale(b, loc, o.asF32(bits)),
                          gsOut, ValueRange{});
  memref::StoreOp::create(b, loc, o.i32(0), maxBits, ValueRange{zeroIdx});
  memref::StoreOp::create(b, loc, o.i32(0), arrivals, ValueRange{zeroIdx});
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}

/// Launches the kernel of a quantize or dequantize `op` on (gridX, L) CTAs
/// with `args`; its manifest names the scale format and layout, the values'
/// type (`input` or `output`) and whether it reads the global scale.
template <typename OpT>
void launchQuantizer(PatternRewriter &rewriter, OpT op, gpu::GPUFuncOp kernel,
                     StringRef chip, schema::Op kind, int64_t gridX,
                     ValueRange args) {
  namespace key = schema::key;
  Builder &b = rewriter;
  bool quantize = kind == schema::Op::Quantize;
  Value values = quantize ? op->getOperand(0) : op->getOperand(2);
  bool twoLevel = op.getGlobalScale() != nullptr;
  NamedAttribute fields[] = {
      b.getNamedAttr(key::ScaleFormat,
                     b.getStringAttr(stringifyScaleFormat(op.getFormat()))),
      b.getNamedAttr(key::ScaleLayout,
                     b.getStringAttr(stringifyScaleLayout(op.getLayout()))),
      b.getNamedAttr(quantize ? key::Input : key::Output,
                     b.getStringAttr(typeName(elementType(values)))),
      b.getNamedAttr(key::GlobalScale, b.getBoolAttr(twoLevel))};
  ValuesShape s = valuesShape(values);
  launchBufferKernel(
      rewriter, op, kernel, gridX, s.l, args,
      launchInfo(
          rewriter, kernel, chip, kind, s, fields, gridX, s.l,
          schema::params(kind, ::nvfp4::ref::VectorElement::E2M1, twoLevel)
              .required));
}

struct QuantizeToGPU : public OpRewritePattern<QuantizeOp> {
  QuantizeToGPU(MLIRContext *ctx, StringRef chip, int64_t maxRegisters)
      : OpRewritePattern(ctx), chip(chip.str()), maxRegisters(maxRegisters) {}

  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkChip(op, chip)) ||
        failed(checkKernelOperands(op, op.getInput())))
      return failure();
    ValuesShape s = valuesShape(op.getInput());
    QuantizeGrid grid = quantizeGrid(op);
    int64_t gridX = lay::ceilDiv(grid.total(), kThreads * blocksPerThread(op));
    FailureOr<int64_t> budget = resolveMaxRegisters(
        op, maxRegisters, /*mma=*/false,
        blocksPerThread(op) == 2 ? kTwoBlockQuantizeMaxRegisters : 0);
    if (failed(checkGridSize(op, gridX, s.l)) || failed(budget))
      return failure();
    // The global-scale kernel takes a budget given, none by default.
    int64_t amaxBudget = maxRegisters ? *budget : 0;
    auto module = op->getParentOfType<ModuleOp>();
    Location loc = op.getLoc();
    Type element = elementType(op.getInput());
    namespace key = schema::key;
    Builder &b = rewriter;
    auto shapeName = [&](StringRef prefix) {
      return (prefix + Twine(s.rows) + "x" + Twine(s.k) + "x" + Twine(s.l))
          .str();
    };
    bool twoLevel = op.getGlobalScale() != nullptr;
    if (twoLevel) {
      int64_t amaxGrid = globalScaleGrid(op, chip);
      SmallVector<Value> args = {op.getInput(), op.getGlobalScale()};
      gpu::GPUFuncOp kernel = createBufferKernel(
          rewriter, module, loc,
          shapeName("nvfp4_quantize_global_scale_") + "_" + typeName(element),
          chip, args, kThreads);
      setMaxRegisters(kernel, amaxBudget);
      buildGlobalScaleBody(rewriter, kernel, op, amaxGrid);
      NamedAttribute fields[] = {
          b.getNamedAttr(key::Input, b.getStringAttr(typeName(element)))};
      launchBufferKernel(
          rewriter, op, kernel, amaxGrid, 1, args,
          launchInfo(rewriter, kernel, chip, schema::Op::QuantizeGlobalScale, s,
                     fields, amaxGrid, 1,
                     schema::params(schema::Op::QuantizeGlobalScale).required));
    }
    SmallVector<Value> args(op->getOperands());
    std::string name = shapeName("nvfp4_quantize_") + "_" +
                       stringifyScaleFormat(op.getFormat()).str() + "_" +
                       stringifyScaleLayout(op.getLayout()).str() + "_" +
                       typeName(element) + (twoLevel ? "_2l" : "");
    gpu::GPUFuncOp kernel =
        createBufferKernel(rewriter, module, loc, name, chip, args, kThreads);
    setMaxRegisters(kernel, *budget);
    buildQuantizeBody(rewriter, kernel, op);
    launchQuantizer(rewriter, op, kernel, chip, schema::Op::Quantize, gridX,
                    args);
    rewriter.eraseOp(op);
    return success();
  }

  std::string chip;
  int64_t maxRegisters;
};

//===----------------------------------------------------------------------===//
// dequantize
//===----------------------------------------------------------------------===//

/// Output bytes a dequantize thread writes: two 16-byte stores. A warp's
/// stores then cover 1 KiB in 32-byte pieces (one thread a block wrote up to
/// 128 bytes a thread, 4 KiB a warp store, five times slower for MXFP4 to
/// f32; one 16-byte store a thread recomputed each block's scale twice as
/// often for NVFP4 to bf16, 1.2 times slower).
constexpr int64_t kDequantizeThreadBytes = 2 * kLoadBytes;

/// Values of `outType` a dequantize thread writes.
int64_t valuesPerThread(Type outType) {
  return kDequantizeThreadBytes * 8 / outType.getIntOrFloatBitWidth();
}

/// A thread's 16-bit outputs, two an i32 in memory order, from its i32
/// words of codes by lookup. All of a thread's codes share one scale, so
/// the results of the eight magnitudes are computed once
/// (buildDequantizeMagnitudes: with gs, two divisions), and laid out as
/// planes of low and high bytes; a code's two bytes are then picked by prmt and
/// its sign flipped by xor: -v s / gs is -(v s / gs) under rounding to nearest
/// or to odd, and a NaN stays NaN. About 2.5 instructions a value besides the
/// table, where a value's own arithmetic takes about 19 (46 with gs).
SmallVector<Value> dequantizeByTable(OpBuilder &b, Location loc,
                                     ArrayRef<Value> words, Value scale,
                                     Value gs, Type outType) {
  ScalarOps o{b, loc};
  auto pairType = VectorType::get({2}, outType);
  SmallVector<Value> entries =
      buildDequantizeMagnitudes(b, loc, scale, gs, outType);
  SmallVector<Value> entryPairs; // magnitudes (0, 1), (2, 3), (4, 5), (6, 7)
  for (int64_t m = 0; m < 8; m += 2)
    entryPairs.push_back(LLVM::BitcastOp::create(
        b, loc, b.getI32Type(),
        vector::FromElementsOp::create(
            b, loc, pairType, ValueRange{entries[m], entries[m + 1]})));
  // Byte planes: the low (high) bytes of magnitudes 0-3, then of 4-7.
  Value low[2], high[2];
  for (int64_t h = 0; h < 2; ++h) {
    Value x = entryPairs[2 * h], y = entryPairs[2 * h + 1];
    low[h] = buildPermute(b, loc, x, y, o.i32(0x6420));
    high[h] = buildPermute(b, loc, x, y, o.i32(0x7531));
  }
  SmallVector<Value> pairs;
  for (Value word : words) {
    // Nibbles without their sign bit select bytes (a set bit 3 would
    // replicate a sign instead).
    Value magnitudes = o.andi(word, 0x77777777);
    // The sign of code j is bit 7 of byte j / 2 of word << 4 (even j) or of
    // word (odd j).
    Value evenSigns = o.shl(word, 4);
    for (int64_t half = 0; half < 2; ++half) {
      Value selector = half ? o.shr(magnitudes, 16) : magnitudes;
      Value lowBytes = buildPermute(b, loc, low[0], low[1], selector);
      Value highBytes = buildPermute(b, loc, high[0], high[1], selector);
      for (int64_t p = 0; p < 2; ++p) {
        // Codes j and j + 1: low and high byte of each, in order.
        Value pair = buildPermute(b, loc, lowBytes, highBytes,
                                  o.i32(p ? 0x7362 : 0x5140));
        int64_t signByte = 2 * half + p; // j / 2
        Value signs = buildPermute(
            b, loc, evenSigns, word,
            o.i32((8 | (4 + signByte)) << 12 | (8 | signByte) << 4));
        pairs.push_back(arith::XOrIOp::create(
            b, loc, pair, o.andi(signs, static_cast<int32_t>(0x80008000u))));
      }
    }
  }
  return pairs;
}

void buildDequantizeBody(OpBuilder &b, gpu::GPUFuncOp kernel, DequantizeOp op) {
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  Location loc = op.getLoc();
  Value data = entry.getArgument(0), scales = entry.getArgument(1),
        output = entry.getArgument(2);
  ScaleFormat format = op.getFormat();
  ValuesShape s = valuesShape(op.getOutput());
  Type outType = elementType(op.getOutput());
  int64_t perThread = valuesPerThread(outType);
  int64_t perStore = perThread * kLoadBytes / kDequantizeThreadBytes;

  // A thread writes kDequantizeThreadBytes of the output.
  auto [thread, batch] = threadIndex(b, loc);
  guardThreads(b, loc, thread, s.rows * s.k / perThread);
  IV first = thread * perThread;
  IV row = first / s.k, k = first % s.k;
  Value bytes = vector::LoadOp::create(
      b, loc, VectorType::get({perThread / 2}, b.getI8Type()), data,
      ValueRange{batch, row, k / 2}, /*nontemporal=*/false,
      llvm::MaybeAlign(perThread / 2));
  Value scale =
      buildLoadScale(b, loc, scales, op.getLayout(), format,
                     /*isVector=*/false, batch, row, k / getBlockSize(format));
  Value gs;
  if (op.getGlobalScale())
    gs = memref::LoadOp::create(b, loc, entry.getArgument(3), ValueRange{});
  auto storeType = VectorType::get({perStore}, outType);
  SmallVector<Value> chunks;
  if (outType.getIntOrFloatBitWidth() == 16) {
    Value words = vector::BitCastOp::create(
        b, loc, VectorType::get({perThread / 8}, b.getI32Type()), bytes);
    SmallVector<Value> codeWords;
    for (int64_t i = 0; i < perThread / 8; ++i)
      codeWords.push_back(vector::ExtractOp::create(b, loc, words, i));
    SmallVector<Value> pairs =
        dequantizeByTable(b, loc, codeWords, scale, gs, outType);
    for (int64_t i = 0; i < perThread / 2; i += perStore / 2)
      chunks.push_back(vector::BitCastOp::create(
          b, loc, storeType,
          vector::FromElementsOp::create(
              b, loc, VectorType::get({perStore / 2}, b.getI32Type()),
              ArrayRef(pairs).slice(i, perStore / 2))));
  } else {
    SmallVector<Value> values;
    for (int64_t i = 0; i < perThread / 2; ++i) {
      auto [lo, hi] = buildDecodeE2M1Pair(
          b, loc, vector::ExtractOp::create(b, loc, bytes, i));
      for (Value v : {lo, hi})
        values.push_back(buildDequantizeValue(b, loc, v, scale, gs, outType));
    }
    for (int64_t i = 0; i < perThread; i += perStore)
      chunks.push_back(vector::FromElementsOp::create(
          b, loc, storeType, ArrayRef(values).slice(i, perStore)));
  }
  for (auto [i, chunk] : llvm::enumerate(chunks)) {
    int64_t first = int64_t(i) * perStore;
    vector::StoreOp::create(
        b, loc, chunk, output, ValueRange{batch, row, k + first},
        /*nontemporal=*/false, llvm::MaybeAlign(kLoadBytes));
  }
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}

struct DequantizeToGPU : public OpRewritePattern<DequantizeOp> {
  DequantizeToGPU(MLIRContext *ctx, StringRef chip, int64_t maxRegisters)
      : OpRewritePattern(ctx), chip(chip.str()), maxRegisters(maxRegisters) {}

  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkChip(op, chip)) ||
        failed(checkKernelOperands(op, op.getOutput())))
      return failure();
    ValuesShape s = valuesShape(op.getOutput());
    int64_t gridX = lay::ceilDiv(
        s.rows * s.k / valuesPerThread(elementType(op.getOutput())), kThreads);
    FailureOr<int64_t> budget =
        resolveMaxRegisters(op, maxRegisters, /*mma=*/false, /*chosen=*/0);
    if (failed(checkGridSize(op, gridX, s.l)) || failed(budget))
      return failure();
    bool twoLevel = op.getGlobalScale() != nullptr;
    Type outType = elementType(op.getOutput());
    std::string name =
        (Twine("nvfp4_dequantize_") + Twine(s.rows) + "x" + Twine(s.k) + "x" +
         Twine(s.l) + "_" + stringifyScaleFormat(op.getFormat()) + "_" +
         stringifyScaleLayout(op.getLayout()) + "_" + typeName(outType) +
         (twoLevel ? "_gs" : ""))
            .str();
    SmallVector<Value> args(op->getOperands());
    gpu::GPUFuncOp kernel =
        createBufferKernel(rewriter, op->getParentOfType<ModuleOp>(),
                           op.getLoc(), name, chip, args, kThreads);
    setMaxRegisters(kernel, *budget);
    buildDequantizeBody(rewriter, kernel, op);
    launchQuantizer(rewriter, op, kernel, chip, schema::Op::Dequantize, gridX,
                    args);
    rewriter.eraseOp(op);
    return success();
  }

  std::string chip;
  int64_t maxRegisters;
};

} // namespace

void mlir::nvfp4::populateQuantizeToGPUPatterns(RewritePatternSet &patterns,
                                                StringRef chip,
                                                int64_t maxRegisters) {
  patterns.add<QuantizeToGPU, DequantizeToGPU>(patterns.getContext(), chip,
                                               maxRegisters);
}
