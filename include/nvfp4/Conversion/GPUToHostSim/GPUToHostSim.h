//===- GPUToHostSim.h - GPU kernels as host code ----------------*- C++ -*-===//
//
// --convert-gpu-to-host-sim (declared in nvfp4/Conversion/Passes.td) turns
// NVVM-lowered kernels into host code that the simulation runtime
// (nvfp4/Runtime/HostSimABI.h) executes thread by thread. The patterns below
// are its instruction table: one pattern per NVVM op or inline-PTX form.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CONVERSION_GPUTOHOSTSIM_GPUTOHOSTSIM_H
#define NVFP4_CONVERSION_GPUTOHOSTSIM_GPUTOHOSTSIM_H

#include <cstdint>

namespace mlir {
class ModuleOp;
class Operation;
class RewritePatternSet;
namespace nvfp4 {

/// Declares every runtime function of HostSimABI.h in `module` (the patterns
/// call them by name).
void declareHostSimRuntime(ModuleOp module);

/// Patterns rewriting NVVM ops and known inline PTX inside kernels (already
/// moved into the host module) into runtime calls or plain LLVM ops.
void populateGPUToHostSimPatterns(RewritePatternSet &patterns);

/// Precedes every load and store under `root` (a kernel, its GPU ops
/// already rewritten) with a runtime check of the alignment the GPU needs
/// for it: a misaligned access fails the simulated launch as it faults on
/// the GPU.
void insertAlignmentChecks(Operation *root);

/// Precedes every load under `root` that is not from shared memory with a
/// runtime call naming it (a site number from `nextSite` on) and its
/// address and bytes, which the runtime counts while a trace is on.
void insertLoadTraces(Operation *root, int32_t &nextSite);

} // namespace nvfp4
} // namespace mlir

#endif // NVFP4_CONVERSION_GPUTOHOSTSIM_GPUTOHOSTSIM_H
