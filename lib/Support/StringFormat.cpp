//===- StringFormat.cpp - printf into a std::string -----------------------===//

#include "nvfp4/Support/StringFormat.h"

#include <cstdarg>
#include <cstdio>

std::string nvfp4::strf(const char *fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  return buf;
}
