//===- NVFP4Ops.cpp - nvfp4 operation verifiers ---------------------------===//
//
// Every shape rule of the dialect lives here. Static sizes are checked at
// compile time; dynamic sizes are left to the caller, since the lowerings read
// every size from the memref descriptors.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Support/CodeLayout.h"
#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ScaleLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <string>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {
constexpr int64_t kDyn = ShapedType::kDynamic;

bool isDyn(int64_t v) { return ShapedType::isDynamic(v); }
int64_t mulOrDyn(int64_t v, int64_t f) { return isDyn(v) ? kDyn : v * f; }
int64_t divOrDyn(int64_t v, int64_t d) { return isDyn(v) ? kDyn : v / d; }
int64_t ceilDivOrDyn(int64_t v, int64_t d) {
  return isDyn(v) ? kDyn : ::nvfp4::layout::ceilDiv(v, d);
}

/// One expected dimension and the phrase that explains where it comes from.
struct ExpectedDim {
  int64_t size;
  std::string why;
};

LogicalResult checkShape(Operation *op, StringRef name, MemRefType type,
                         ArrayRef<ExpectedDim> dims) {
  if (type.getRank() != static_cast<int64_t>(dims.size()))
    return op->emitOpError() << name << " must have rank " << dims.size()
                             << ", got rank " << type.getRank();
  for (auto [i, dim] : llvm::enumerate(dims)) {
    int64_t actual = type.getDimSize(i);
    if (isDyn(actual) || isDyn(dim.size) || actual == dim.size)
      continue;
    return op->emitOpError() << name << " dimension " << i << " is " << actual
                             << " but " << dim.why << " needs " << dim.size;
  }
  return success();
}

std::string str(const Twine &t) { return t.str(); }

std::string sizeText(StringRef name, int64_t v) {
  return isDyn(v) ? str(name + " = ?") : str(name + " = " + Twine(v));
}

/// The shape of a scale matrix of `rows` x `cols` in `layout`. A vector
/// (`isVector`) has no row dimension in the linear layout.
SmallVector<ExpectedDim> scaleShape(ScaleLayout layout, int64_t batch,
                                    int64_t rows, int64_t cols, bool isVector,
                                    StringRef rowName, StringRef colWhy) {
  SmallVector<ExpectedDim> dims;
  dims.push_back({batch, "the batch size " + sizeText("L", batch)});
  if (layout == ScaleLayout::Linear) {
    if (!isVector)
      dims.push_back(
          {rows, "the linear layout with " + sizeText(rowName, rows)});
    dims.push_back({cols, colWhy.str()});
    return dims;
  }
  namespace lay = ::nvfp4::layout;
  dims.push_back({isVector ? 1 : ceilDivOrDyn(rows, lay::kAtomRows),
                  "the blocked128x4 layout with " +
                      sizeText(rowName, isVector ? 1 : rows) +
                      " (128-row blocks)"});
  dims.push_back({ceilDivOrDyn(cols, lay::kAtomCols),
                  "the blocked128x4 layout with " +
                      sizeText("scale columns", cols) + " (4-column blocks)"});
  dims.push_back({lay::kAtomBytes, "one 128x4 atom"});
  return dims;
}

LogicalResult checkScaleType(Operation *op, StringRef name, MemRefType type,
                             ScaleFormat format) {
  Type expected = getScaleElementType(op->getContext(), format);
  if (type.getElementType() == expected)
    return success();
  return op->emitOpError() << name << " element type " << type.getElementType()
                           << " does not match format "
                           << stringifyScaleFormat(format) << ", which needs "
                           << expected;
}

/// K, in values, must split into whole scale blocks.
LogicalResult checkBlockMultiple(Operation *op, int64_t k, ScaleFormat format,
                                 StringRef origin) {
  int64_t block = getBlockSize(format);
  if (isDyn(k) || k % block == 0)
    return success();
  return op->emitOpError() << "K = " << k << " (" << origin
                           << ") is not a multiple of the "
                           << stringifyScaleFormat(format) << " block size "
                           << block;
}

/// Operands are plain buffers: identity layout, default memory space. The
/// kernels and the CPU lowering address them densely, batch outermost, and
/// neither lowers another layout or memory space.
LogicalResult checkPlainMemRefs(Operation *op) {
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    if (!type.getLayout().isIdentity())
      return op->emitOpError()
             << "operand #" << i << " has layout " << type.getLayout()
             << "; nvfp4 ops take memrefs of the identity layout";
    if (type.getMemorySpace())
      return op->emitOpError()
             << "operand #" << i << " is in memory space "
             << type.getMemorySpace()
             << "; nvfp4 ops take memrefs of the default memory space";
  }
  return success();
}

/// Every static size is at least 1: an empty operand has no kernel launch
/// to lower to and no scale block to hold. `sizes` pairs each size's name
/// ("L", "M", "K") with its value (dynamic sizes are checked by the caller).
LogicalResult checkPositive(Operation *op,
                            ArrayRef<std::pair<StringRef, int64_t>> sizes) {
  for (auto [name, size] : sizes)
    if (!isDyn(size) && size <= 0)
      return op->emitOpError()
             << name << " = " << size << ": every size must be at least 1";
  return success();
}

/// Checks `data` ([L, rows, K/2] bytes) and its `scales`, the part that
/// gemv (for a), quantize and dequantize share.
LogicalResult verifyPackedMatrix(Operation *op, StringRef dataName,
                                 MemRefType data, StringRef scaleName,
                                 MemRefType scales, ScaleFormat format,
                                 ScaleLayout layout, int64_t k) {
  if (data.getRank() != 3)
    return op->emitOpError()
           << dataName << " must have rank 3 ([L, rows, K/2]), got rank "
           << data.getRank();
  int64_t batch = data.getDimSize(0), rows = data.getDimSize(1);
  if (failed(checkShape(
          op, dataName, data,
          {{batch, ""},
           {rows, ""},
           {divOrDyn(k, 2), "two values a byte with " + sizeText("K", k)}})))
    return failure();
  if (failed(checkScaleType(op, scaleName, scales, format)))
    return failure();
  int64_t cols = divOrDyn(k, getBlockSize(format));
  return checkShape(op, scaleName, scales,
                    scaleShape(layout, batch, rows, cols, /*isVector=*/false,
                               "rows",
                               "one scale per block with " + sizeText("K", k)));
}
} // namespace

//===----------------------------------------------------------------------===//
// GemvOp
//===----------------------------------------------------------------------===//

LogicalResult GemvOp::verify() {
  if (failed(checkPlainMemRefs(*this)))
    return failure();
  MemRefType aType = getA().getType(), bType = getB().getType();
  MemRefType cType = getC().getType();
  ScaleFormat format = getFormat();
  if (aType.getRank() != 3)
    return emitOpError() << "a must have rank 3 ([L, M, K/2]), got rank "
                         << aType.getRank();
  int64_t batch = aType.getDimSize(0), m = aType.getDimSize(1);
  int64_t k = mulOrDyn(aType.getDimSize(2), 2);
  if (failed(checkPositive(*this, {{"L", batch}, {"M", m}, {"K", k}})))
    return failure();
  if (failed(checkBlockMultiple(*this, k, format, "twice a dimension 2")))
    return failure();
  if (failed(verifyPackedMatrix(*this, "a", aType, "sfa", getSfa().getType(),
                                format, getLayout(), k)))
    return failure();
  if (getTiledCodes()) {
    namespace codes = ::nvfp4::codes;
    if (isDyn(m) || isDyn(k))
      return emitOpError("tiled_codes needs a static M and K (they place "
                         "a's tiles)");
    if (!codes::tileable(m, k / 2))
      return emitOpError() << "tiled_codes needs M a multiple of "
                           << codes::kTileRows << " and K a multiple of "
                           << 2 * codes::kStepRowBytes
                           << " (whole tiles of whole steps), got M = " << m
                           << ", K = " << k;
  }

  // b: [L, K/2] bytes or [L, K] values, with a vector dimension N before K.
  bool packed = hasPackedB();
  StringRef kText = packed ? "K/2" : "K";
  if (bType.getRank() != 2 && bType.getRank() != 3)
    return emitOpError() << "b must have rank 2 ([L, " << kText
                         << "], one vector) or 3 ([L, N, " << kText
                         << "], N vectors), got rank " << bType.getRank();
  bool vectors = hasVectorDim();
  int64_t n = vectors ? bType.getDimSize(1) : 1;
  if (!isDyn(n) && (n < 1 || n > ::nvfp4::formats::kMaxGemvVectors))
    return emitOpError() << "N = " << n
                         << " (b dimension 1): a gemv takes 1 to "
                         << ::nvfp4::formats::kMaxGemvVectors << " vectors";
  std::string withK = "a with " + sizeText("K", k);
  SmallVector<ExpectedDim> bDims = {{batch, "a with " + sizeText("L", batch)}};
  if (vectors)
    bDims.push_back({n, ""});
  bDims.push_back({packed ? divOrDyn(k, 2) : k, withK});
  if (failed(checkShape(*this, "b", bType, bDims)))
    return failure();

  // sfb: the scales of packed vectors, and of nothing else.
  if (packed && !getSfb())
    return emitOpError() << "b of packed e2m1 needs its scales sfb";
  if (!packed && getSfb())
    return emitOpError() << "b of " << bType.getElementType()
                         << " values carries no block scales; drop sfb";
  if (packed) {
    MemRefType sfbType = getSfb().getType();
    if (failed(checkScaleType(*this, "sfb", sfbType, format)))
      return failure();
    int64_t cols = divOrDyn(k, getBlockSize(format));
    if (failed(checkShape(
            *this, "sfb", sfbType,
            scaleShape(getLayout(), batch, n, cols, /*isVector=*/!vectors,
                       vectors ? "N" : "rows",
                       "one scale per block with " + sizeText("K", k)))))
      return failure();
  }

  SmallVector<ExpectedDim> cDims = {{batch, "a with " + sizeText("L", batch)}};
  if (vectors)
    cDims.push_back({n, "b with " + sizeText("N", n)});
  cDims.push_back({m, "a with " + sizeText("M", m)});
  return checkShape(*this, "c", cType, cDims);
}

//===----------------------------------------------------------------------===//
// ConvertScaleLayoutOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertScaleLayoutOp::verify() {
  if (failed(checkPlainMemRefs(*this)))
    return failure();
  MemRefType src = getSource().getType(), dst = getDest().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "source element type " << src.getElementType()
                         << " differs from dest element type "
                         << dst.getElementType();
  auto expectRank = [&](StringRef name, MemRefType t,
                        ScaleLayout layout) -> LogicalResult {
    int64_t rank = layout == ScaleLayout::Linear ? 3 : 4;
    if (t.getRank() == rank)
      return success();
    return emitOpError() << name << " in the " << stringifyScaleLayout(layout)
                         << " layout must have rank " << rank << ", got rank "
                         << t.getRank();
  };
  if (failed(expectRank("source", src, getFrom())) ||
      failed(expectRank("dest", dst, getTo())))
    return failure();
  for (auto [name, type] :
       {std::pair<StringRef, MemRefType>{"source", src}, {"dest", dst}})
    for (auto [i, size] : llvm::enumerate(type.getShape()))
      if (!isDyn(size) && size <= 0)
        return emitOpError()
               << name << " dimension " << i << " ("
               << (i == 0 ? "L" : "a scale matrix size") << ") is " << size
               << ": every size must be at least 1";
  if (getFrom() == getTo()) {
    SmallVector<ExpectedDim> same;
    for (int64_t size : src.getShape())
      same.push_back({size, "a conversion to the same layout"});
    if (failed(checkShape(*this, "dest", dst, same)))
      return failure();
    if (getFrom() == ScaleLayout::Linear)
      return success();
    // Blocked on both sides: the atoms must still be whole.
    SmallVector<ExpectedDim> atom;
    for (int64_t size : src.getShape().drop_back())
      atom.push_back({size, "the source"});
    atom.push_back({::nvfp4::layout::kAtomBytes, "one 128x4 atom"});
    return checkShape(*this, "source", src, atom);
  }
  bool toBlocked = getTo() == ScaleLayout::Blocked128x4;
  MemRefType linear = toBlocked ? src : dst, blocked = toBlocked ? dst : src;
  StringRef linearName = toBlocked ? "source" : "dest";
  StringRef blockedName = toBlocked ? "dest" : "source";
  SmallVector<ExpectedDim> dims = scaleShape(
      ScaleLayout::Blocked128x4, linear.getDimSize(0), linear.getDimSize(1),
      linear.getDimSize(2), /*isVector=*/false, "rows", "");
  for (ExpectedDim &dim : dims)
    dim.why = (dim.why + " of the " + linearName).str();
  return checkShape(*this, blockedName, blocked, dims);
}

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp
//===----------------------------------------------------------------------===//

/// Shared by quantize and dequantize: `values` is [L, R, K].
static LogicalResult verifyQuantized(Operation *op, ScaleFormat format,
                                     ScaleLayout layout, MemRefType values,
                                     StringRef valuesName, MemRefType data,
                                     MemRefType scales, bool hasGlobalScale) {
  if (hasGlobalScale && format != ScaleFormat::NVFP4)
    return op->emitOpError()
           << "global_scale (two-level scaling) needs format nvfp4, got "
           << stringifyScaleFormat(format);
  if (values.getRank() != 3)
    return op->emitOpError()
           << valuesName << " must have rank 3 ([L, rows, K]), got rank "
           << values.getRank();
  int64_t k = values.getDimSize(2);
  if (failed(checkPositive(op, {{"L", values.getDimSize(0)},
                                {"rows", values.getDimSize(1)},
                                {"K", k}})))
    return failure();
  std::string origin = (valuesName + " dimension 2").str();
  if (failed(checkBlockMultiple(op, k, format, origin)))
    return failure();
  if (failed(verifyPackedMatrix(op, "data", data, "scales", scales, format,
                                layout, k)))
    return failure();
  return checkShape(
      op, valuesName, values,
      {{data.getDimSize(0), "data with " + sizeText("L", data.getDimSize(0))},
       {data.getDimSize(1),
        "data with " + sizeText("rows", data.getDimSize(1))},
       {k, ""}});
}

LogicalResult QuantizeOp::verify() {
  if (failed(checkPlainMemRefs(*this)))
    return failure();
  return verifyQuantized(*this, getFormat(), getLayout(), getInput().getType(),
                         "input", getData().getType(), getScales().getType(),
                         static_cast<bool>(getGlobalScale()));
}

LogicalResult DequantizeOp::verify() {
  if (failed(checkPlainMemRefs(*this)))
    return failure();
  return verifyQuantized(*this, getFormat(), getLayout(), getOutput().getType(),
                         "output", getData().getType(), getScales().getType(),
                         static_cast<bool>(getGlobalScale()));
}

#define GET_OP_CLASSES
#include "nvfp4/Dialect/NVFP4/IR/NVFP4Ops.cpp.inc"
