//===- StringFormat.h - printf into a std::string ---------------*- C++ -*-===//
//
// The check tools' report lines are printf-formatted; these are the one
// helpers that do it. Plain C++, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_SUPPORT_STRINGFORMAT_H
#define NVFP4_SUPPORT_STRINGFORMAT_H

#include <string>

namespace nvfp4 {

/// `fmt` formatted as printf would, cut at 511 characters.
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/// The last line of a check tool: "TOOL: N cases, N passed, N failed (seed
/// S, T s)".
std::string checkSummary(const char *tool, long long cases, long long failed,
                         unsigned long long seed, double seconds);

} // namespace nvfp4

#endif // NVFP4_SUPPORT_STRINGFORMAT_H
