//===- LoadTrace.h - the host simulation's record of global loads -*- C++ -*-===//
//
// While a trace is on (nvfp4sim_trace_begin), each simulated thread lists
// its global loads in order; when a cluster of CTAs has run, the loads of
// each warp are matched up into warp-wide instructions (the k-th execution
// of one load site by each lane) and counted as the memory system sees
// them: the 128-byte lines and the 32-byte sectors each instruction touches
// (an L1 miss asks L2 for one request a line). Internal to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_RUNTIME_LOADTRACE_H
#define NVFP4_LIB_RUNTIME_LOADTRACE_H

#include "nvfp4/Runtime/HostSimABI.h"

#include <cstdint>
#include <vector>

namespace nvfp4::sim {

/// One load of one thread: its site (numbered by the pass) and bytes.
struct LoadRecord {
  int32_t site, bytes;
  uintptr_t address;
};

class LoadTrace {
public:
  void begin(int32_t count, const void *const *begins, const int64_t *sizes);
  bool on() const { return tracing; }
  /// Counts one warp's loads: `lanes` are its threads' records, in order.
  void addWarp(const std::vector<const std::vector<LoadRecord> *> &lanes);
  void end(Nvfp4SimLoadStats *out);

private:
  struct Buffer {
    uintptr_t begin, end;
    Nvfp4SimLoadStats stats;
  };
  bool tracing = false;
  std::vector<Buffer> buffers;
};

} // namespace nvfp4::sim

#endif // NVFP4_LIB_RUNTIME_LOADTRACE_H
