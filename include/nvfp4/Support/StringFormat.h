//===- StringFormat.h - printf into a std::string ---------------*- C++ -*-===//
//
// The check tools' report lines are printf-formatted; this is the one helper
// that does it. Plain C++, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_SUPPORT_STRINGFORMAT_H
#define NVFP4_SUPPORT_STRINGFORMAT_H

#include <string>

namespace nvfp4 {

/// `fmt` formatted as printf would, cut at 511 characters.
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace nvfp4

#endif // NVFP4_SUPPORT_STRINGFORMAT_H
