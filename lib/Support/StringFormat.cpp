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

std::string nvfp4::checkSummary(const char *tool, long long cases,
                                long long failed, unsigned long long seed,
                                double seconds) {
  return strf("%s: %lld cases, %lld passed, %lld failed (seed %llu, %.1f s)",
              tool, cases, cases - failed, failed, seed, seconds);
}
