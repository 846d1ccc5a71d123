//===- LoadTrace.cpp - the host simulation's record of global loads -------===//

#include "LoadTrace.h"

#include "nvfp4/Support/Chips.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

using namespace nvfp4::sim;

namespace {
constexpr auto kLineBytes = uintptr_t(nvfp4::kCacheLineBytes);
constexpr auto kSectorBytes = uintptr_t(nvfp4::kSectorBytes);
} // namespace

void LoadTrace::begin(int32_t count, const void *const *begins,
                      const int64_t *sizes) {
  buffers.clear();
  for (int32_t i = 0; i < count; ++i) {
    auto at = reinterpret_cast<uintptr_t>(begins[i]);
    buffers.push_back({at, at + uintptr_t(std::max<int64_t>(sizes[i], 0)),
                       Nvfp4SimLoadStats{0, 0, 0}});
  }
  tracing = true;
}

void LoadTrace::addWarp(
    const std::vector<const std::vector<LoadRecord> *> &lanes) {
  // (site, execution of the site by a lane) -> the lanes' loads.
  std::map<std::pair<int32_t, int64_t>, std::vector<const LoadRecord *>>
      instructions;
  for (const std::vector<LoadRecord> *records : lanes) {
    std::map<int32_t, int64_t> executions;
    for (const LoadRecord &r : *records)
      instructions[{r.site, executions[r.site]++}].push_back(&r);
  }
  for (const auto &entry : instructions) {
    const std::vector<const LoadRecord *> &loads = entry.second;
    uintptr_t first = loads.front()->address;
    auto buffer = std::find_if(buffers.begin(), buffers.end(), [&](auto &b) {
      return first >= b.begin && first < b.end;
    });
    if (buffer == buffers.end())
      continue;
    // Offsets in the buffer: a device allocation starts on a line.
    std::set<uintptr_t> lines, sectors;
    for (const LoadRecord *r : loads) {
      uintptr_t at = r->address - buffer->begin;
      uintptr_t last = at + uintptr_t(r->bytes) - 1;
      for (uintptr_t l = at / kLineBytes; l <= last / kLineBytes; ++l)
        lines.insert(l);
      for (uintptr_t s = at / kSectorBytes; s <= last / kSectorBytes; ++s)
        sectors.insert(s);
    }
    Nvfp4SimLoadStats &s = buffer->stats;
    ++s.loads;
    s.lines += int64_t(lines.size());
    s.sectors += int64_t(sectors.size());
  }
}

void LoadTrace::end(Nvfp4SimLoadStats *out) {
  for (size_t i = 0; i < buffers.size(); ++i)
    out[i] = buffers[i].stats;
  buffers.clear();
  tracing = false;
}
