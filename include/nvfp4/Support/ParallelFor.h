//===- ParallelFor.h - independent elements on every host core --*- C++ -*-===//
//
// The float64 reference computes every output element on its own, so the
// elements can be shared among the host's cores: the values do not depend
// on how they are shared. A GPU kernel of a few microseconds can take the
// host seconds to check (N vectors, the any-order expectation); the host
// has the cores to spare.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_PARALLELFOR_H
#define NVFP4_SUPPORT_PARALLELFOR_H

#include <cstdint>
#include <functional>

namespace nvfp4 {

/// Calls `body(begin, end)` on disjoint ranges that together cover [0, n),
/// on up to `threads` threads (0: one a host core), each range at least
/// `grain` elements long except the last; returns once every call has.
/// With one thread, or fewer than two grains of work, the caller's thread
/// does it all.
void parallelFor(int64_t n, int64_t grain,
                 const std::function<void(int64_t, int64_t)> &body,
                 unsigned threads = 0);

} // namespace nvfp4

#endif // NVFP4_SUPPORT_PARALLELFOR_H
