//===- Subprocess.h - Run one manifest in a child process -------*- C++ -*-===//
//
// A kernel that faults (illegal address, misaligned access) leaves the CUDA
// state of its process unusable: even a new context fails with the same
// error. Running each manifest in a forked child, whose parent never touches
// CUDA, keeps one bad kernel from failing the others, and lets the parent
// stop a kernel that hangs.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_SUBPROCESS_H
#define NVFP4_RUN_SUBPROCESS_H

#include <functional>
#include <string>

namespace nvfp4::run {

struct ChildResult {
  enum class Kind { Exited, Signaled, TimedOut, ForkFailed } kind;
  int code = 0;         // exit status (Exited) or signal number (Signaled)
  std::string messages; // what the child wrote to its report descriptor
};

/// Runs `body(reportFd)` in a forked child and waits for it, killing it after
/// `timeoutSeconds`. The child's return value becomes its exit status; text
/// it writes to `reportFd` comes back in `messages`. Standard streams are
/// shared, so the child prints its own results.
ChildResult runInChild(const std::function<int(int reportFd)> &body,
                       int timeoutSeconds);

} // namespace nvfp4::run

#endif // NVFP4_RUN_SUBPROCESS_H
