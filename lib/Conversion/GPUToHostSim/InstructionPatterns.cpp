//===- InstructionPatterns.cpp - NVVM ops as host-simulation calls --------===//
//
// One pattern per GPU instruction the kernels use. To simulate a new one:
// add its function to nvfp4/Runtime/HostSimABI.h and lib/Runtime/HostSim.cpp
// (or express it in plain LLVM ops), declare it in `runtimeFunctions` below
// and add a pattern to populateGPUToHostSimPatterns. Anything without a
// pattern is reported by the pass, never run approximately.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Conversion/GPUToHostSim/GPUToHostSim.h"
#include "nvfp4/Runtime/HostSimABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Regex.h"

using namespace mlir;

namespace {

struct RuntimeFunction {
  const char *name;
  const char *result; // "v", "i32", "i64", "ptr"
  int i32Args;
  int pointers = 0; // ptr arguments before the i32 ones
};

/// The runtime functions kernels call (signatures of HostSimABI.h: every
/// argument is an i32, after the pointers the entry counts).
const RuntimeFunction runtimeFunctions[] = {
    {"nvfp4sim_sreg", "i32", 1},         {"nvfp4sim_shared", "ptr", 0},
    {"nvfp4sim_barrier", "v", 0},        {"nvfp4sim_shfl", "i64", 5},
    {"nvfp4sim_prmt", "i32", 4},         {"nvfp4sim_dp4a", "i32", 5},
    {"nvfp4sim_dp2a", "i32", 6},         {"nvfp4sim_cvt_x2", "i32", 3},
    {"nvfp4sim_f32_to_bf16", "i32", 1},  {"nvfp4sim_mma_f16", "v", 10},
    {"nvfp4sim_mma_bf16", "v", 10},      {"nvfp4sim_mma_result", "i32", 1},
    {"nvfp4sim_cluster_arrive", "v", 0}, {"nvfp4sim_cluster_wait", "v", 0},
    {"nvfp4sim_mapa", "ptr", 1, 1},      {"nvfp4sim_check_align", "v", 1, 1},
    {"nvfp4sim_cp_async", "v", 1, 2},    {"nvfp4sim_cp_async_commit", "v", 0},
    {"nvfp4sim_cp_async_wait", "v", 1},  {"nvfp4sim_trace_load", "v", 2, 1},
};

Type resultType(MLIRContext *ctx, StringRef kind) {
  if (kind == "i32")
    return IntegerType::get(ctx, 32);
  if (kind == "i64")
    return IntegerType::get(ctx, 64);
  if (kind == "ptr")
    return LLVM::LLVMPointerType::get(ctx);
  return LLVM::LLVMVoidType::get(ctx);
}

Value callRuntime(PatternRewriter &rewriter, Location loc, StringRef name,
                  ValueRange args) {
  for (const RuntimeFunction &f : runtimeFunctions)
    if (name == f.name) {
      Type result = resultType(rewriter.getContext(), f.result);
      auto call = LLVM::CallOp::create(
          rewriter, loc, isa<LLVM::LLVMVoidType>(result) ? TypeRange{} : result,
          name, args);
      return call.getNumResults() ? call.getResult() : Value();
    }
  llvm_unreachable("not a runtime function of HostSimABI.h");
}

Value i32(PatternRewriter &rewriter, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  static_cast<int32_t>(value));
}

/// The bits of a 32-bit or narrower value as an i32 (zero-extended).
Value asI32(PatternRewriter &rewriter, Location loc, Value v) {
  Type t = v.getType();
  unsigned bits = 0;
  if (auto vec = dyn_cast<VectorType>(t))
    bits = vec.getNumElements() * vec.getElementTypeBitWidth();
  else
    bits = t.getIntOrFloatBitWidth();
  if (!isa<IntegerType>(t))
    v = LLVM::BitcastOp::create(rewriter, loc, rewriter.getIntegerType(bits),
                                v);
  if (bits < 32)
    v = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), v);
  return v;
}

/// An i32 of runtime bits as `type` (i32, f32, or a 32-bit vector).
Value fromI32(PatternRewriter &rewriter, Location loc, Value v, Type type) {
  if (type == v.getType())
    return v;
  return LLVM::BitcastOp::create(rewriter, loc, type, v);
}

/// nvvm.read.ptx.sreg.*: the registers with a code in HostSimABI.h.
struct SpecialRegisterLowering : public RewritePattern {
  SpecialRegisterLowering(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    StringRef name = op->getName().getStringRef();
    if (!name.consume_front("nvvm.read.ptx.sreg."))
      return failure();
    int code = llvm::StringSwitch<int>(name)
                   .Case("tid.x", NVFP4SIM_TID_X)
                   .Case("tid.y", NVFP4SIM_TID_Y)
                   .Case("tid.z", NVFP4SIM_TID_Z)
                   .Case("ntid.x", NVFP4SIM_NTID_X)
                   .Case("ntid.y", NVFP4SIM_NTID_Y)
                   .Case("ntid.z", NVFP4SIM_NTID_Z)
                   .Case("ctaid.x", NVFP4SIM_CTAID_X)
                   .Case("ctaid.y", NVFP4SIM_CTAID_Y)
                   .Case("ctaid.z", NVFP4SIM_CTAID_Z)
                   .Case("nctaid.x", NVFP4SIM_NCTAID_X)
                   .Case("nctaid.y", NVFP4SIM_NCTAID_Y)
                   .Case("nctaid.z", NVFP4SIM_NCTAID_Z)
                   .Case("laneid", NVFP4SIM_LANEID)
                   .Case("warpid", NVFP4SIM_WARPID)
                   .Case("nwarpid", NVFP4SIM_NWARPID)
                   .Case("warpsize", NVFP4SIM_WARPSIZE)
                   .Default(-1);
    if (code < 0 || op->getNumResults() != 1 ||
        !op->getResult(0).getType().isInteger())
      return failure();
    Location loc = op->getLoc();
    Value v =
        callRuntime(rewriter, loc, "nvfp4sim_sreg", {i32(rewriter, loc, code)});
    Type type = op->getResult(0).getType();
    if (type.getIntOrFloatBitWidth() > 32)
      v = LLVM::ZExtOp::create(rewriter, loc, type, v);
    else if (type.getIntOrFloatBitWidth() < 32)
      v = LLVM::TruncOp::create(rewriter, loc, type, v);
    rewriter.replaceOp(op, v);
    return success();
  }
};

/// An instruction without operands or results that is one call of the
/// runtime: barrier0 (nvfp4sim_barrier), and barrier.cluster.arrive, in its
/// release and relaxed forms alike, and barrier.cluster.wait (the
/// simulation switches threads only at synchronisation points, so every
/// write before an arrive is seen by the threads its wait releases).
template <typename OpTy>
struct RuntimeCallLowering : public OpRewritePattern<OpTy> {
  RuntimeCallLowering(MLIRContext *ctx, const char *callee)
      : OpRewritePattern<OpTy>(ctx), callee(callee) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    callRuntime(rewriter, op.getLoc(), callee, {});
    rewriter.eraseOp(op);
    return success();
  }
  const char *callee;
};

/// nvvm.barrier of the whole CTA on barrier 0 (named barriers, thread counts
/// and reductions are not simulated yet).
struct BarrierLowering : public OpRewritePattern<NVVM::BarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::BarrierOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumberOfThreads() || op.getReductionOp() || op.getRes())
      return failure();
    if (Value id = op.getBarrierId()) {
      auto cst = id.getDefiningOp<LLVM::ConstantOp>();
      auto value = cst ? dyn_cast<IntegerAttr>(cst.getValue()) : nullptr;
      if (!value || value.getInt() != 0)
        return failure();
    }
    callRuntime(rewriter, op.getLoc(), "nvfp4sim_barrier", {});
    rewriter.eraseOp(op);
    return success();
  }
};

/// bar.warp.sync: returns when every lane of the mask has reached it, as a
/// shuffle of the mask does (its value unused); threads switch only at such
/// points, so it orders the lanes' memory accesses as the GPU's does.
struct SyncWarpLowering : public OpRewritePattern<NVVM::SyncWarpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::SyncWarpOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    callRuntime(rewriter, loc, "nvfp4sim_shfl",
                {i32(rewriter, loc, NVFP4SIM_SHFL_IDX), op.getMask(),
                 i32(rewriter, loc, 0), i32(rewriter, loc, 0),
                 i32(rewriter, loc, 0x1F)});
    rewriter.eraseOp(op);
    return success();
  }
};

struct ShuffleLowering : public OpRewritePattern<NVVM::ShflOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::ShflOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int mode = 0;
    switch (op.getKind()) {
    case NVVM::ShflKind::up:
      mode = NVFP4SIM_SHFL_UP;
      break;
    case NVVM::ShflKind::down:
      mode = NVFP4SIM_SHFL_DOWN;
      break;
    case NVVM::ShflKind::bfly:
      mode = NVFP4SIM_SHFL_BFLY;
      break;
    case NVVM::ShflKind::idx:
      mode = NVFP4SIM_SHFL_IDX;
      break;
    }
    Type valueType = op.getVal().getType();
    Value packed = callRuntime(rewriter, loc, "nvfp4sim_shfl",
                               {i32(rewriter, loc, mode), op.getThreadMask(),
                                asI32(rewriter, loc, op.getVal()),
                                op.getOffset(), op.getMaskAndClamp()});
    Value low =
        LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(), packed);
    Value value = fromI32(rewriter, loc, low, valueType);
    if (!op.getReturnValueAndIsValid()) {
      rewriter.replaceOp(op, value);
      return success();
    }
    Value shift =
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), 32);
    Value high = LLVM::LShrOp::create(rewriter, loc, packed, shift);
    Value valid =
        LLVM::TruncOp::create(rewriter, loc, rewriter.getI1Type(), high);
    Type structType = op.getRes().getType();
    Value result = LLVM::UndefOp::create(rewriter, loc, structType);
    result = LLVM::InsertValueOp::create(rewriter, loc, result, value,
                                         ArrayRef<int64_t>{0});
    result = LLVM::InsertValueOp::create(rewriter, loc, result, valid,
                                         ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PermuteLowering : public OpRewritePattern<NVVM::PermuteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::PermuteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int mode = 0;
    switch (op.getMode()) {
    case NVVM::PermuteMode::DEFAULT:
      mode = NVFP4SIM_PRMT_DEFAULT;
      break;
    case NVVM::PermuteMode::F4E:
      mode = NVFP4SIM_PRMT_F4E;
      break;
    case NVVM::PermuteMode::B4E:
      mode = NVFP4SIM_PRMT_B4E;
      break;
    case NVVM::PermuteMode::RC8:
      mode = NVFP4SIM_PRMT_RC8;
      break;
    case NVVM::PermuteMode::ECL:
      mode = NVFP4SIM_PRMT_ECL;
      break;
    case NVVM::PermuteMode::ECR:
      mode = NVFP4SIM_PRMT_ECR;
      break;
    case NVVM::PermuteMode::RC16:
      mode = NVFP4SIM_PRMT_RC16;
      break;
    }
    Value hi = op.getHi() ? op.getHi() : i32(rewriter, loc, 0);
    rewriter.replaceOp(op, callRuntime(rewriter, loc, "nvfp4sim_prmt",
                                       {i32(rewriter, loc, mode), op.getLo(),
                                        hi, op.getSelector()}));
    return success();
  }
};

Value isSigned(PatternRewriter &rewriter, Location loc,
               NVVM::DotAccumulateType type) {
  return i32(rewriter, loc, type == NVVM::DotAccumulateType::SIGNED);
}

struct DotAccumulate4WayLowering
    : public OpRewritePattern<NVVM::DotAccumulate4WayOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::DotAccumulate4WayOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       callRuntime(rewriter, loc, "nvfp4sim_dp4a",
                                   {asI32(rewriter, loc, op.getA()),
                                    asI32(rewriter, loc, op.getB()), op.getC(),
                                    isSigned(rewriter, loc, op.getAType()),
                                    isSigned(rewriter, loc, op.getBType())}));
    return success();
  }
};

struct DotAccumulate2WayLowering
    : public OpRewritePattern<NVVM::DotAccumulate2WayOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::DotAccumulate2WayOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       callRuntime(rewriter, loc, "nvfp4sim_dp2a",
                                   {asI32(rewriter, loc, op.getA()),
                                    asI32(rewriter, loc, op.getB()), op.getC(),
                                    isSigned(rewriter, loc, op.getAType()),
                                    isSigned(rewriter, loc, op.getBType()),
                                    i32(rewriter, loc, op.getBHi())}));
    return success();
  }
};

/// The paired conversions: cvt.rn[.relu].f16x2.{e4m3x2,e5m2x2,e2m1x2} and
/// cvt.rn.bf16x2.ue8m0x2.
template <typename ConvertOp>
struct ConvertX2Lowering : public OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type src = op.getSrcType();
    int type = -1;
    if (isa<Float8E4M3FNType>(src))
      type = NVFP4SIM_CVT_E4M3;
    else if (isa<Float8E5M2Type>(src))
      type = NVFP4SIM_CVT_E5M2;
    else if (isa<Float8E8M0FNUType>(src))
      type = NVFP4SIM_CVT_UE8M0;
    else if (isa<Float4E2M1FNType>(src))
      type = NVFP4SIM_CVT_E2M1;
    if (type < 0)
      return rewriter.notifyMatchFailure(op, "unsupported source type");
    bool relu = false;
    if constexpr (!std::is_same_v<ConvertOp, NVVM::ConvertF8x2ToBF16x2Op>)
      relu = op.getRelu();
    Value bits = callRuntime(rewriter, loc, "nvfp4sim_cvt_x2",
                             {i32(rewriter, loc, type),
                              asI32(rewriter, loc, op.getSrc()),
                              i32(rewriter, loc, relu)});
    rewriter.replaceOp(op, fromI32(rewriter, loc, bits, op.getType()));
    return success();
  }
};

/// mma.sync m16n8k16, f16 operands, f32 accumulators (row-major A,
/// column-major B): the warp collective nvfp4sim_mma_f16, then one call
/// per result. Other shapes and types have no pattern.
struct MmaLowering : public OpRewritePattern<NVVM::MmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::MmaOp op,
                                PatternRewriter &rewriter) const override {
    NVVM::MMAShapeAttr shape = op.getShape();
    if (shape.getM() != 16 || shape.getN() != 8 || shape.getK() != 16 ||
        op.getLayoutA() != NVVM::MMALayout::row ||
        op.getLayoutB() != NVVM::MMALayout::col ||
        op.getOperandA().size() != 4 || op.getOperandB().size() != 2 ||
        op.getOperandC().size() != 4)
      return failure();
    // f16 pairs, or bf16 pairs as i32 (the NVVM form of bf16 operands).
    std::optional<NVVM::MMATypes> ptxType = op.getMultiplicandAPtxType();
    bool bf16 = ptxType && *ptxType == NVVM::MMATypes::bf16;
    Type pair = bf16 ? Type(rewriter.getI32Type())
                     : Type(VectorType::get({2}, rewriter.getF16Type()));
    for (Value v : llvm::concat<Value>(op.getOperandA(), op.getOperandB()))
      if (v.getType() != pair)
        return failure();
    for (Value v : op.getOperandC())
      if (!v.getType().isF32())
        return failure();
    Location loc = op.getLoc();
    SmallVector<Value> args;
    for (Value v : llvm::concat<Value>(op.getOperandA(), op.getOperandB(),
                                       op.getOperandC()))
      args.push_back(asI32(rewriter, loc, v));
    callRuntime(rewriter, loc, bf16 ? "nvfp4sim_mma_bf16" : "nvfp4sim_mma_f16",
                args);
    Type structType = op.getRes().getType();
    Value result = LLVM::UndefOp::create(rewriter, loc, structType);
    for (int64_t i = 0; i < 4; ++i) {
      Value bits = callRuntime(rewriter, loc, "nvfp4sim_mma_result",
                               {i32(rewriter, loc, i)});
      Value value =
          LLVM::BitcastOp::create(rewriter, loc, rewriter.getF32Type(), bits);
      result = LLVM::InsertValueOp::create(rewriter, loc, result, value,
                                           ArrayRef<int64_t>{i});
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Inline PTX of global loads: `ld.global[.nc][.L1::*][.L2::*][.v2|.v4].u32
/// {$0, ...}, [$N];` is a plain load of N words (the cache qualifiers only
/// change where the bytes are cached).
struct GlobalLoadAsmLowering : public OpRewritePattern<LLVM::InlineAsmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::InlineAsmOp op,
                                PatternRewriter &rewriter) const override {
    static const llvm::Regex pattern(
        "^ld\\.global(\\.nc)?(\\.L1::(no_allocate|evict_[a-z]+))?"
        "(\\.L2::(evict_[a-z]+|64B|128B|256B))?(\\.v([24]))?\\.[bsu]32 "
        "*(\\{[$0-9, ]*\\}|\\$0) *, *\\[\\$([0-9]+)\\];?$");
    SmallVector<StringRef> groups;
    if (!pattern.match(op.getAsmString(), &groups))
      return failure();
    int64_t words = groups[7].empty() ? 1 : groups[7].front() - '0';
    Type i32Type = rewriter.getI32Type();
    Type result = op.getNumResults() ? op.getResult(0).getType() : Type();
    auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(result);
    bool shapeOk =
        words == 1 ? result == i32Type
                   : structType && structType.getBody().size() == size_t(words);
    if (structType)
      for (Type t : structType.getBody())
        shapeOk &= t == i32Type;
    if (!shapeOk || op.getOperands().size() != 1 ||
        groups[9] != std::to_string(words))
      return rewriter.notifyMatchFailure(op, "unexpected operands");
    Location loc = op.getLoc();
    Value ptr = op.getOperands()[0];
    if (!isa<LLVM::LLVMPointerType>(ptr.getType()))
      ptr = LLVM::IntToPtrOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
          ptr);
    if (words == 1) {
      rewriter.replaceOp(op, LLVM::LoadOp::create(rewriter, loc, i32Type, ptr,
                                                  /*alignment=*/4));
      return success();
    }
    auto vecType = VectorType::get({words}, i32Type);
    // ld.v2 / ld.v4 need their 8 / 16 bytes aligned.
    Value vec = LLVM::LoadOp::create(rewriter, loc, vecType, ptr,
                                     /*alignment=*/4 * words);
    Value out = LLVM::UndefOp::create(rewriter, loc, structType);
    for (int64_t i = 0; i < words; ++i) {
      Value index =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), i);
      Value word = LLVM::ExtractElementOp::create(rewriter, loc, vec, index);
      out = LLVM::InsertValueOp::create(rewriter, loc, out, word,
                                        ArrayRef<int64_t>{i});
    }
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// Inline PTX of a byte permute with an immediate selector, `prmt.b32 $0,
/// $1, $2, 0xSSSS;` (the GEMV's pin-loads chain, which LLVM would fold as
/// an intrinsic): the runtime's prmt in the default mode.
struct PermuteAsmLowering : public OpRewritePattern<LLVM::InlineAsmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::InlineAsmOp op,
                                PatternRewriter &rewriter) const override {
    static const llvm::Regex pattern(
        "^prmt\\.b32 \\$0, \\$1, \\$2, 0x([0-9a-fA-F]{1,4});$");
    SmallVector<StringRef> groups;
    if (!pattern.match(op.getAsmString(), &groups))
      return failure();
    Type i32Type = rewriter.getI32Type();
    if (op.getNumResults() != 1 || op.getResult(0).getType() != i32Type ||
        op.getOperands().size() != 2 ||
        !llvm::all_of(op.getOperandTypes(),
                      [&](Type t) { return t == i32Type; }))
      return rewriter.notifyMatchFailure(op, "unexpected operands");
    unsigned selector = 0;
    groups[1].getAsInteger(16, selector);
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       callRuntime(rewriter, loc, "nvfp4sim_prmt",
                                   {i32(rewriter, loc, NVFP4SIM_PRMT_DEFAULT),
                                    op.getOperands()[0], op.getOperands()[1],
                                    i32(rewriter, loc, selector)}));
    return success();
  }
};

/// f32 -> bf16 (cvt.rn.bf16.f32): host code generators without bf16 support
/// call a compiler-runtime helper that not every toolchain ships, so the
/// rounding (to nearest even) is the runtime's.
struct TruncToBF16Lowering : public OpRewritePattern<LLVM::FPTruncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::FPTruncOp op,
                                PatternRewriter &rewriter) const override {
    Type resultType = op.getType();
    auto vecType = dyn_cast<VectorType>(resultType);
    if (!getElementTypeOrSelf(resultType).isBF16() ||
        !getElementTypeOrSelf(op.getArg().getType()).isF32() ||
        (vecType && (vecType.isScalable() || vecType.getRank() != 1)))
      return failure();
    Location loc = op.getLoc();
    auto one = [&](Value f32) {
      Value bits = callRuntime(rewriter, loc, "nvfp4sim_f32_to_bf16",
                               {asI32(rewriter, loc, f32)});
      Value half =
          LLVM::TruncOp::create(rewriter, loc, rewriter.getI16Type(), bits);
      return LLVM::BitcastOp::create(rewriter, loc, rewriter.getBF16Type(),
                                     half)
          .getResult();
    };
    if (!vecType) {
      rewriter.replaceOp(op, one(op.getArg()));
      return success();
    }
    Value out = LLVM::UndefOp::create(rewriter, loc, vecType);
    for (int64_t i = 0; i < vecType.getNumElements(); ++i) {
      Value index =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), i);
      Value x =
          LLVM::ExtractElementOp::create(rewriter, loc, op.getArg(), index);
      out = LLVM::InsertElementOp::create(rewriter, loc, out, one(x), index);
    }
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// mapa of a generic address (a shared::cluster one has no host form).
struct MapaLowering : public OpRewritePattern<NVVM::MapaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::MapaOp op,
                                PatternRewriter &rewriter) const override {
    if (cast<LLVM::LLVMPointerType>(op.getA().getType()).getAddressSpace())
      return rewriter.notifyMatchFailure(op, "not a generic address");
    rewriter.replaceOp(op, callRuntime(rewriter, op.getLoc(), "nvfp4sim_mapa",
                                       {op.getA(), op.getB()}));
    return success();
  }
};

/// Grid-dependency control orders whole launches and memory barriers order a
/// thread's memory accesses for other CTAs; launches, CTAs and the threads
/// between two scheduling points run one after the other here, so these
/// instructions are no-ops.
template <typename GridDepOp>
struct EraseLowering : public OpRewritePattern<GridDepOp> {
  using OpRewritePattern<GridDepOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(GridDepOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// cp.async copies at once: a thread of the simulation runs alone until its
/// next barrier, so the copy has landed by its wait as on the GPU. (A
/// kernel that read a stage before waiting for it would still pass here;
/// the GPU runs catch that.)
/// cp.async without zero fill: queued by the runtime until a wait lets its
/// group complete (HostSimABI.h).
struct CpAsyncLowering : public OpRewritePattern<NVVM::CpAsyncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::CpAsyncOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getCpSize())
      return rewriter.notifyMatchFailure(op, "zero-filling copy");
    Location loc = op.getLoc();
    callRuntime(rewriter, loc, "nvfp4sim_cp_async",
                {op.getDst(), op.getSrc(), i32(rewriter, loc, op.getSize())});
    rewriter.eraseOp(op);
    return success();
  }
};

struct CpAsyncWaitLowering : public OpRewritePattern<NVVM::CpAsyncWaitGroupOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::CpAsyncWaitGroupOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    callRuntime(rewriter, loc, "nvfp4sim_cp_async_wait",
                {i32(rewriter, loc, op.getN())});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::declareHostSimRuntime(ModuleOp module) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  MLIRContext *ctx = module.getContext();
  for (const RuntimeFunction &f : runtimeFunctions) {
    if (module.lookupSymbol(f.name))
      continue;
    SmallVector<Type> args(f.i32Args, IntegerType::get(ctx, 32));
    args.insert(args.begin(), f.pointers, LLVM::LLVMPointerType::get(ctx));
    auto type = LLVM::LLVMFunctionType::get(resultType(ctx, f.result), args);
    LLVM::LLVMFuncOp::create(b, module.getLoc(), f.name, type);
  }
}

/// The alignment the GPU needs for an access of `type`: its natural one
/// (the size, a power of two up to 16), or less where the op says so (the
/// NVPTX backend then splits the access).
static int64_t requiredAlignment(Type type, std::optional<uint64_t> declared,
                                 const DataLayout &layout) {
  int64_t size = layout.getTypeSize(type);
  int64_t natural = size > 0 ? int64_t(llvm::bit_floor(uint64_t(size))) : 1;
  natural = std::min<int64_t>(natural, 16);
  if (declared && *declared)
    return std::min<int64_t>(natural, int64_t(*declared));
  return natural;
}

void mlir::nvfp4::insertAlignmentChecks(Operation *root) {
  DataLayout layout = DataLayout::closest(root);
  auto check = [&](Operation *op, Value ptr, Type type,
                   std::optional<uint64_t> declared) {
    int64_t bytes = requiredAlignment(type, declared, layout);
    if (bytes <= 1)
      return;
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value width = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                           static_cast<int32_t>(bytes));
    LLVM::CallOp::create(b, loc, TypeRange{}, "nvfp4sim_check_align",
                         ValueRange{ptr, width});
  };
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      check(op, load.getAddr(), load.getType(), load.getAlignment());
    else if (auto store = dyn_cast<LLVM::StoreOp>(op))
      check(op, store.getAddr(), store.getValue().getType(),
            store.getAlignment());
  });
}

void mlir::nvfp4::insertLoadTraces(Operation *root, int32_t &nextSite) {
  DataLayout layout = DataLayout::closest(root);
  root->walk([&](LLVM::LoadOp load) {
    auto ptr = dyn_cast<LLVM::LLVMPointerType>(load.getAddr().getType());
    if (!ptr || ptr.getAddressSpace() ==
                    static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared))
      return;
    OpBuilder b(load);
    Location loc = load.getLoc();
    auto i32 = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                      static_cast<int32_t>(v));
    };
    int64_t bytes = layout.getTypeSize(load.getType());
    LLVM::CallOp::create(
        b, loc, TypeRange{}, "nvfp4sim_trace_load",
        ValueRange{load.getAddr(), i32(bytes), i32(nextSite++)});
  });
}

void mlir::nvfp4::populateGPUToHostSimPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      SpecialRegisterLowering, BarrierLowering, ShuffleLowering,
      SyncWarpLowering, PermuteLowering, DotAccumulate4WayLowering,
      DotAccumulate2WayLowering, ConvertX2Lowering<NVVM::ConvertF8x2ToF16x2Op>,
      ConvertX2Lowering<NVVM::ConvertF8x2ToBF16x2Op>,
      ConvertX2Lowering<NVVM::ConvertF4x2ToF16x2Op>, GlobalLoadAsmLowering,
      PermuteAsmLowering, TruncToBF16Lowering,
      EraseLowering<NVVM::GriddepcontrolOp>, EraseLowering<NVVM::MembarOp>,
      CpAsyncLowering, CpAsyncWaitLowering, MmaLowering, MapaLowering>(ctx);
  patterns.add<RuntimeCallLowering<NVVM::CpAsyncCommitGroupOp>>(
      ctx, "nvfp4sim_cp_async_commit");
  patterns.add<RuntimeCallLowering<NVVM::Barrier0Op>>(ctx, "nvfp4sim_barrier");
  patterns.add<RuntimeCallLowering<NVVM::ClusterArriveOp>,
               RuntimeCallLowering<NVVM::ClusterArriveRelaxedOp>>(
      ctx, "nvfp4sim_cluster_arrive");
  patterns.add<RuntimeCallLowering<NVVM::ClusterWaitOp>>(
      ctx, "nvfp4sim_cluster_wait");
}
