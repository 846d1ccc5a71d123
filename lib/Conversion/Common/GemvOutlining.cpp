//===- GemvOutlining.cpp - outlining nvfp4.gemv into GPU kernels ----------===//

#include "nvfp4/Conversion/Common/GemvOutlining.h"
#include "nvfp4/Dialect/NVFP4/IR/LaunchJson.h"
#include "nvfp4/Support/Chips.h"
#include "nvfp4/Support/ManifestSchema.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;
namespace schema = ::nvfp4::manifest;

std::string mlir::nvfp4::gemvKernelName(GemvOp op, StringRef suffix) {
  MemRefType a = op.getA().getType();
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "nvfp4_gemv_" << a.getDimSize(1) << "x" << a.getDimSize(2) * 2 << "x"
     << a.getDimSize(0);
  // The one-vector packed form keeps its name; the others say N and b's
  // element type.
  if (op.hasVectorDim())
    os << "_n" << op.getNumVectors();
  if (!op.hasPackedB())
    os << "_v" << op.getB().getType().getElementType();
  os << "_" << stringifyScaleFormat(op.getFormat()) << "_"
     << stringifyScaleLayout(op.getLayout()) << "_"
     << op.getC().getType().getElementType() << suffix;
  return name;
}

gpu::GPUModuleOp mlir::nvfp4::createKernelModule(RewriterBase &rewriter,
                                                 ModuleOp module, Location loc,
                                                 StringRef name,
                                                 StringRef chip) {
  OpBuilder::InsertionGuard guard(rewriter);
  StringRef container = gpu::GPUDialect::getContainerModuleAttrName();
  if (!module->hasAttr(container))
    rewriter.modifyOpInPlace(
        module, [&] { module->setAttr(container, rewriter.getUnitAttr()); });
  rewriter.setInsertionPointToEnd(module.getBody());
  auto target =
      NVVM::NVVMTargetAttr::get(rewriter.getContext(),
                                /*optLevel=*/3, "nvptx64-nvidia-cuda", chip,
                                ::nvfp4::findChip(chip)->ptxFeatures);
  auto gpuModule = gpu::GPUModuleOp::create(rewriter, loc, name,
                                            rewriter.getArrayAttr({target}));
  SymbolTable(module).insert(gpuModule); // renames on a clash
  return gpuModule;
}

gpu::GPUFuncOp mlir::nvfp4::createBufferKernel(RewriterBase &b, ModuleOp module,
                                               Location loc, StringRef name,
                                               StringRef chip,
                                               ValueRange buffers,
                                               int64_t threads) {
  OpBuilder::InsertionGuard guard(b);
  gpu::GPUModuleOp gpuModule = createKernelModule(b, module, loc, name, chip);
  b.setInsertionPointToStart(gpuModule.getBody());
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, gpuModule.getName(), b.getFunctionType(buffers.getTypes(), {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  return kernel;
}

Value mlir::nvfp4::dynamicSharedMemory(OpBuilder &b, Location loc,
                                       gpu::GPUFuncOp kernel, StringRef symbol,
                                       uint64_t alignment) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  if (!SymbolTable::lookupSymbolIn(module, symbol)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           symbol, Attribute(), alignment, /*addrSpace=*/3);
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), symbol);
}

void mlir::nvfp4::launchBufferKernel(RewriterBase &b, Operation *op,
                                     gpu::GPUFuncOp kernel, int64_t gridX,
                                     int64_t gridY, ValueRange args,
                                     DictionaryAttr info) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  int64_t threads = (*kernel.getKnownBlockSize())[0];
  auto launch = gpu::LaunchFuncOp::create(
      b, loc, kernel, gpu::KernelDim3{cst(gridX), cst(gridY), cst(1)},
      gpu::KernelDim3{cst(threads), cst(1), cst(1)},
      /*dynamicSharedMemorySize=*/Value(), args);
  launch->setAttr(kLaunchAttrName, info);
  finishKernel(b, kernel, info);
}

gpu::GPUFuncOp mlir::nvfp4::createGemvKernel(RewriterBase &b, ModuleOp module,
                                             GemvOp op, StringRef name,
                                             StringRef chip, int64_t threads) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  gpu::GPUModuleOp gpuModule = createKernelModule(b, module, loc, name, chip);

  SmallVector<Type> argTypes;
  for (Value v : gemvBufferOperands(op))
    argTypes.push_back(v.getType());
  if (op.getAlpha())
    argTypes.push_back(b.getF32Type());
  b.setInsertionPointToStart(gpuModule.getBody());
  auto kernel = gpu::GPUFuncOp::create(b, loc, gpuModule.getName(),
                                       b.getFunctionType(argTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  return kernel;
}

NamedAttrList mlir::nvfp4::gemvLaunchInfo(OpBuilder &b, GemvOp op,
                                          gpu::GPUFuncOp kernel, StringRef chip,
                                          int64_t gridX, int64_t sharedBytes) {
  MemRefType a = op.getA().getType();
  Type bElement = op.getB().getType().getElementType();
  ::nvfp4::ref::VectorElement vector =
      bElement.isF16()    ? ::nvfp4::ref::VectorElement::F16
      : bElement.isBF16() ? ::nvfp4::ref::VectorElement::BF16
                          : ::nvfp4::ref::VectorElement::E2M1;
  // The schema's required parameters are the kernel's buffers in order
  // (sfb only for e2m1 vectors), then alpha when the op has one.
  SmallVector<StringRef> params;
  for (schema::Param param : schema::params(schema::Op::Gemv, vector).required)
    params.push_back(schema::name(param));
  if (op.getAlpha())
    params.push_back(schema::name(schema::Param::Alpha));
  std::string output;
  llvm::raw_string_ostream os(output);
  os << op.getC().getType().getElementType();
  int64_t threads = (*kernel.getKnownBlockSize())[0];
  NamedAttrList attrs;
  attrs.append("kernel", b.getStringAttr(kernel.getName()));
  attrs.append("chip", b.getStringAttr(chip));
  attrs.append("op", b.getStringAttr("gemv"));
  attrs.append("m", b.getI64IntegerAttr(a.getDimSize(1)));
  attrs.append("k", b.getI64IntegerAttr(a.getDimSize(2) * 2));
  attrs.append("l", b.getI64IntegerAttr(a.getDimSize(0)));
  attrs.append("scale_format",
               b.getStringAttr(stringifyScaleFormat(op.getFormat())));
  attrs.append("scale_layout",
               b.getStringAttr(stringifyScaleLayout(op.getLayout())));
  attrs.append("output", b.getStringAttr(output));
  attrs.append(schema::key::N, b.getI64IntegerAttr(op.getNumVectors()));
  attrs.append(schema::key::Vector,
               b.getStringAttr(::nvfp4::ref::name(vector)));
  if (op.getTiledCodes())
    attrs.append(schema::key::TiledCodes, b.getBoolAttr(true));
  attrs.append("grid", b.getI64ArrayAttr({gridX, a.getDimSize(0), 1}));
  attrs.append("block", b.getI64ArrayAttr({threads, 1, 1}));
  attrs.append("shared_bytes", b.getI64IntegerAttr(sharedBytes));
  attrs.append("params", b.getStrArrayAttr(params));
  return attrs;
}

void mlir::nvfp4::replaceGemvWithLaunch(RewriterBase &b, GemvOp op,
                                        gpu::GPUFuncOp kernel, int64_t gridX,
                                        int64_t sharedBytes,
                                        DictionaryAttr info,
                                        ValueRange extraArgs) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  SmallVector<Value> args = gemvBufferOperands(op);
  if (op.getAlpha())
    args.push_back(op.getAlpha());
  llvm::append_range(args, extraArgs);
  Value shared;
  if (sharedBytes != 0)
    shared = arith::ConstantIntOp::create(b, loc, sharedBytes, 32);
  int64_t threads = (*kernel.getKnownBlockSize())[0];
  auto launch = gpu::LaunchFuncOp::create(
      b, loc, kernel,
      gpu::KernelDim3{cst(gridX), cst(op.getA().getType().getDimSize(0)),
                      cst(1)},
      gpu::KernelDim3{cst(threads), cst(1), cst(1)}, shared, args);
  launch->setAttr(kLaunchAttrName, info);
  finishKernel(b, kernel, info);
  b.eraseOp(op);
}

void mlir::nvfp4::finishKernel(OpBuilder &b, gpu::GPUFuncOp kernel,
                               DictionaryAttr info) {
  OpBuilder::InsertionGuard guard(b);
  // known_block_size lowers to .maxntid, which admits any smaller block;
  // .reqntid makes the driver refuse another block (PTX allows only one of
  // the two).
  if (DenseI32ArrayAttr block = kernel.getKnownBlockSizeAttr()) {
    kernel->setAttr(NVVM::NVVMDialect::getReqntidAttrName(), block);
    kernel.removeKnownBlockSizeAttr();
  }
  // The signature: the manifest's fields as JSON bytes in a global of the
  // kernel module, which the runner compares with the manifest. Optional
  // keys (a gemv's tensor_maps) are signed when the launch has them.
  auto opName = info.getAs<StringAttr>(schema::key::Op);
  std::vector<const char *> ops = schema::spellings(schema::key::Op);
  auto opIndex = llvm::find_if(ops, [&](const char *name) {
    return opName && opName.getValue() == name;
  });
  assert(opIndex != ops.end() && "a launch names one of the schema's ops");
  llvm::json::Object fields;
  for (const char *key :
       schema::signatureKeys(schema::Op(opIndex - ops.begin())))
    if (Attribute value = info.get(key))
      fields[key] = launchValueToJson(value);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(fields));
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  b.setInsertionPointToStart(gpuModule.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
  LLVM::GlobalOp::create(b, kernel.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External,
                         schema::signatureSymbol(kernel.getName()),
                         b.getStringAttr(text), /*alignment=*/1,
                         /*addrSpace=*/1);
}

LogicalResult mlir::nvfp4::checkGridSize(Operation *op, int64_t gridX,
                                         int64_t gridY) {
  if (gridX <= std::numeric_limits<int32_t>::max() && gridY <= 65535)
    return success();
  return op->emitOpError() << "needs a grid of " << gridX << " x " << gridY
                           << " CTAs, more than CUDA allows (2^31 - 1 x "
                              "65535)";
}

LogicalResult mlir::nvfp4::checkOptionsCopied(Operation *op, Pass &self,
                                              Pass &rebuilt) {
  std::string given, copied;
  llvm::raw_string_ostream givenOs(given), copiedOs(copied);
  self.printAsTextualPipeline(givenOs);
  rebuilt.printAsTextualPipeline(copiedOs);
  if (given == copied)
    return success();
  return op->emitError() << "internal error: " << self.getArgument()
                         << " does not pass all of its options to its "
                            "patterns: given "
                         << given << ", used " << copied;
}

double mlir::nvfp4::memrefBytes(MemRefType type) {
  double elements = 1;
  for (int64_t size : type.getShape())
    elements *= double(size);
  return elements * type.getElementTypeBitWidth() / 8;
}

LogicalResult mlir::nvfp4::checkGemvGpuSizes(GemvOp op) {
  MemRefType a = op.getA().getType();
  int64_t rowBytes = a.getDimSize(2);
  return checkGpuSizes(
      op, {{"M", a.getDimSize(1)},
           {"K", ShapedType::isDynamic(rowBytes) ? rowBytes : rowBytes * 2},
           {"L", a.getDimSize(0)}});
}

SmallVector<Value> mlir::nvfp4::gemvBufferOperands(GemvOp op) {
  SmallVector<Value> buffers = {op.getA(), op.getSfa(), op.getB()};
  if (op.getSfb())
    buffers.push_back(op.getSfb());
  buffers.push_back(op.getC());
  return buffers;
}

LogicalResult mlir::nvfp4::checkOneVectorGemv(GemvOp op, StringRef lowering) {
  MemRefType b = op.getB().getType();
  if (!op.hasPackedB())
    return op.emitOpError()
           << "has no " << lowering << " kernel for b of " << b.getElementType()
           << " values (it takes one vector of packed e2m1); "
              "--convert-nvfp4-to-gpu and --nvfp4-cpu-pipeline lower it";
  if (op.hasVectorDim()) {
    int64_t n = b.getDimSize(1);
    auto diag = op.emitOpError() << "has no " << lowering << " kernel for ";
    if (ShapedType::isDynamic(n))
      diag << "a dynamic number of vectors";
    else
      diag << "N = " << n << (n == 1 ? " vector" : " vectors");
    diag << " (b [L, N, K/2]; it takes one vector, b [L, K/2]); "
            "--convert-nvfp4-to-gpu and --nvfp4-cpu-pipeline lower it";
    return diag;
  }
  return success();
}

LogicalResult
mlir::nvfp4::checkGpuSizes(Operation *op,
                           ArrayRef<std::pair<StringRef, int64_t>> sizes) {
  // What nvfp4-run accepts: sizes below 2^31 (the kernels index in 32 bits)
  // and no buffer beyond 2^40 bytes.
  constexpr int64_t kMaxSize = (int64_t(1) << 31) - 1;
  constexpr double kMaxBytes = double(int64_t(1) << 40);
  for (auto [name, size] : sizes) {
    if (ShapedType::isDynamic(size))
      return success(); // the static-shape check reports it
    if (size > kMaxSize)
      return op->emitOpError()
             << name << " = " << size
             << " is too large for the GPU lowering (at most 2^31 - 1)";
  }
  for (Value v : op->getOperands())
    if (auto type = dyn_cast<MemRefType>(v.getType());
        type && type.hasStaticShape() && memrefBytes(type) > kMaxBytes)
      return op->emitOpError()
             << "an operand of " << type << " is larger than the 2^40 bytes "
             << "a GPU buffer may take";
  return success();
}
