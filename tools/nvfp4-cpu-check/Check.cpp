//===- Check.cpp - nvfp4-cpu-check: bookkeeping ---------------------------===//

#include "Check.h"

#include <cstdio>
#include <cstring>

using namespace nvfp4;
using namespace nvfp4::cpucheck;

void Stats::damage(std::vector<uint8_t> &buf, int64_t elementBytes) {
  if (!corrupt || buf.empty())
    return;
  int64_t i = static_cast<int64_t>(corruptRng() % (buf.size() / elementBytes));
  if (elementBytes == 1)
    buf[i] ^= 0x01;
  else
    buf[i * elementBytes + elementBytes - 1] ^= 0x40;
}
void Stats::report(bool ok, const std::string &what,
                   const std::string &detail) {
  ++cases;
  if (!ok)
    ++failed;
  std::printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what.c_str(),
              detail.empty() ? "" : ": ", detail.c_str());
  std::fflush(stdout);
}

/// Index of the first differing byte, or -1.
int64_t nvfp4::cpucheck::firstDifference(const std::vector<uint8_t> &x,
                                         const std::vector<uint8_t> &y) {
  if (x.size() != y.size())
    return 0;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i])
      return static_cast<int64_t>(i);
  return -1;
}

uint32_t nvfp4::cpucheck::floatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(f));
  return bits;
}
