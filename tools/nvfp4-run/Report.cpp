//===- Report.cpp - What nvfp4-run prints ---------------------------------===//

#include "nvfp4-run/Report.h"

#include "nvfp4-run/Json.h"
#include "nvfp4-run/Options.h"
#include "nvfp4/Support/ScaleLayout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace nvfp4;
using namespace nvfp4::run;

VerifyResult nvfp4::run::compareBytes(const std::vector<uint8_t> &got,
                                      const std::vector<uint8_t> &expected) {
  VerifyResult result;
  size_t common = std::min(got.size(), expected.size());
  result.compared = static_cast<int64_t>(expected.size());
  for (size_t i = 0; i < common; ++i) {
    if (got[i] == expected[i])
      continue;
    if (result.firstMismatch < 0) {
      result.firstMismatch = static_cast<int64_t>(i);
      result.got = got[i];
      result.expected = expected[i];
    }
    ++result.mismatches;
  }
  if (got.size() != expected.size()) {
    result.mismatches +=
        static_cast<int64_t>(std::max(got.size(), expected.size()) - common);
    if (result.firstMismatch < 0)
      result.firstMismatch = static_cast<int64_t>(common);
  }
  result.pass = result.mismatches == 0;
  return result;
}

Timing nvfp4::run::summarize(std::vector<float> elapsedMs) {
  Timing timing;
  timing.reps = static_cast<int>(elapsedMs.size());
  if (elapsedMs.empty())
    return timing;
  std::sort(elapsedMs.begin(), elapsedMs.end());
  size_t n = elapsedMs.size();
  double median = n % 2 ? elapsedMs[n / 2]
                        : (double(elapsedMs[n / 2 - 1]) + elapsedMs[n / 2]) / 2;
  timing.medianUs = median * 1e3;
  timing.minUs = double(elapsedMs.front()) * 1e3;
  return timing;
}

namespace {

std::string format(const char *fmt, double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, value);
  return buf;
}

/// Short float form for diagnostics ("3.052e-05", "0.75", "nan").
std::string num(double value) { return format("%.4g", value); }

/// A JSON number, or null for NaN/inf (which JSON cannot spell).
std::string jsonNum(double value) {
  return std::isfinite(value) ? format("%.6g", value) : "null";
}

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string runTag(const Manifest &manifest, const VerifyResult &result) {
  // Conversion inputs are uniform random bytes: no distribution, no alpha.
  if (manifest.isConversion())
    return "[seed=" + std::to_string(result.seed) + " " +
           baseName(manifest.path) + "]";
  return "[seed=" + std::to_string(result.seed) + " dist=" + name(result.dist) +
         " alpha=" + num(result.alpha) + " " + baseName(manifest.path) + "]";
}

std::string hexByte(double value) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "0x%02x", static_cast<unsigned>(value));
  return buf;
}

/// Where byte `index` of a conversion's destination lies: its batch, its
/// offset in the batch and the scale (row, col) stored there, or -1 for
/// both when the byte is padding of a blocked destination.
struct DestByte {
  int64_t batch = 0, offset = 0, row = -1, col = -1;
};

DestByte locateDestByte(const ConversionProblem &c, int64_t index) {
  DestByte at;
  int64_t batchBytes = conversionSizes(c).destBatch;
  at.batch = index / batchBytes;
  at.offset = index % batchBytes;
  int64_t row, col;
  if (c.to == ref::ScaleLayout::Linear) {
    row = at.offset / c.cols;
    col = at.offset % c.cols;
  } else {
    // Inverse of layout::blockedOffset.
    int64_t atom = at.offset / layout::kAtomBytes;
    int64_t inAtom = at.offset % layout::kAtomBytes;
    int64_t colBlocks = layout::colBlocks(c.cols);
    row =
        (atom / colBlocks) * layout::kAtomRows +
        (inAtom % layout::kLineBytes) / layout::kAtomCols * layout::kLaneRows +
        inAtom / layout::kLineBytes;
    col = (atom % colBlocks) * layout::kAtomCols + inAtom % layout::kAtomCols;
  }
  if (row < c.rows && col < c.cols) {
    at.row = row;
    at.col = col;
  }
  return at;
}

std::string formatConversionVerify(const Manifest &manifest,
                                   const VerifyResult &result) {
  if (result.pass)
    return "PASS " + describe(manifest) + ": " +
           std::to_string(result.compared) + " bytes exact " +
           runTag(manifest, result);
  std::string what;
  if (result.firstMismatch >= 0) {
    DestByte at = locateDestByte(manifest.conversion, result.firstMismatch);
    what = "first mismatch at l=" + std::to_string(at.batch) +
           ", offset=" + std::to_string(at.offset) +
           (at.row < 0 ? std::string(" (padding)")
                       : " (row " + std::to_string(at.row) + ", col " +
                             std::to_string(at.col) + ")") +
           ": got " + hexByte(result.got) + ", expected " +
           hexByte(result.expected) + "; ";
  }
  return "FAIL " + describe(manifest) +
         (result.afterTiming ? " (after timing): " : ": ") + what +
         std::to_string(result.mismatches) + " of " +
         std::to_string(result.compared) + " bytes differ " +
         runTag(manifest, result);
}

} // namespace

std::string nvfp4::run::formatVerify(const Manifest &manifest,
                                     const VerifyResult &result) {
  if (manifest.isConversion())
    return formatConversionVerify(manifest, result);
  std::string errors = "max_abs_err=" + format("%.3e", result.maxAbsError) +
                       ", rel_err=" + format("%.3e", result.relError);
  if (result.pass)
    return "PASS " + describe(manifest) + ": " + errors + " " +
           runTag(manifest, result);
  std::string what;
  if (result.firstMismatch >= 0) {
    int64_t m = manifest.problem.m;
    what = "first mismatch at l=" + std::to_string(result.firstMismatch / m) +
           ", m=" + std::to_string(result.firstMismatch % m) + ": got " +
           num(result.got) + ", expected " + num(result.expected) + "; ";
  }
  if (result.nanCount > 0)
    what += std::to_string(result.nanCount) + " NaN outputs; ";
  return "FAIL " + describe(manifest) +
         (result.afterTiming ? " (after timing): " : ": ") + what + errors +
         " " + runTag(manifest, result);
}

std::string nvfp4::run::formatBench(const Manifest &manifest,
                                    const BenchResult &result) {
  return "BENCH " + describe(manifest) + ": " +
         format("%.2f", result.kernel.medianUs) + " us median (min " +
         format("%.2f", result.kernel.minUs) + " us, " +
         std::to_string(result.kernel.reps) + " reps), " +
         format("%.0f", result.gbps()) + " GB/s, " +
         format("%.1f", result.percentOfCopy()) + "% of copy (" +
         format("%.0f", result.copyGBps) + " GB/s), floor " +
         format("%.2f", result.floorUs()) + " us [" +
         (result.flush == FlushMode::Clean ? "" : "flush=dirty ") +
         baseName(manifest.path) + "]";
}

std::string nvfp4::run::formatCopy(double gbps, int64_t bytes, int reps) {
  return "COPY " + format("%.0f", bytes / double(1 << 20)) +
         " MiB device-to-device: " + format("%.0f", gbps) +
         " GB/s (median of " + std::to_string(reps) + ")";
}

namespace {

/// The fields describing a gemv run and its comparison.
std::string gemvJson(const Manifest &manifest, const VerifyResult &result) {
  const ref::GemvProblem &p = manifest.problem;
  std::string out =
      ", \"m\": " + std::to_string(p.m) + ", \"k\": " + std::to_string(p.k) +
      ", \"l\": " + std::to_string(p.l) + ", \"scale_format\": \"" +
      name(p.format) + "\", \"scale_layout\": \"" + name(p.layout) +
      "\", \"output\": \"" + name(p.output) +
      "\", \"seed\": " + std::to_string(result.seed) + ", \"dist\": \"" +
      name(result.dist) + "\", \"alpha\": " + jsonNum(result.alpha) +
      ", \"status\": \"" + (result.pass ? "pass" : "fail") +
      "\", \"max_abs_err\": " + jsonNum(result.maxAbsError) +
      ", \"rel_err\": " + jsonNum(result.relError) +
      ", \"nan_count\": " + std::to_string(result.nanCount);
  if (result.afterTiming)
    out += ", \"after_timing\": true";
  if (result.firstMismatch >= 0)
    out += ", \"first_mismatch\": {\"l\": " +
           std::to_string(result.firstMismatch / p.m) +
           ", \"m\": " + std::to_string(result.firstMismatch % p.m) +
           ", \"got\": " + jsonNum(result.got) +
           ", \"expected\": " + jsonNum(result.expected) + "}";
  return out;
}

/// The fields describing a conversion run and its comparison.
std::string conversionJson(const Manifest &manifest,
                           const VerifyResult &result) {
  const ConversionProblem &c = manifest.conversion;
  std::string out = ", \"rows\": " + std::to_string(c.rows) +
                    ", \"cols\": " + std::to_string(c.cols) +
                    ", \"l\": " + std::to_string(c.l) + ", \"from\": \"" +
                    name(c.from) + "\", \"to\": \"" + name(c.to) +
                    "\", \"element\": \"" + name(c.element) +
                    "\", \"seed\": " + std::to_string(result.seed) +
                    ", \"status\": \"" + (result.pass ? "pass" : "fail") +
                    "\", \"mismatches\": " + std::to_string(result.mismatches) +
                    ", \"compared\": " + std::to_string(result.compared);
  if (result.afterTiming)
    out += ", \"after_timing\": true";
  if (result.firstMismatch >= 0) {
    DestByte at = locateDestByte(c, result.firstMismatch);
    out += ", \"first_mismatch\": {\"l\": " + std::to_string(at.batch) +
           ", \"offset\": " + std::to_string(at.offset) + ", \"row\": " +
           (at.row < 0 ? std::string("null") : std::to_string(at.row)) +
           ", \"col\": " +
           (at.col < 0 ? std::string("null") : std::to_string(at.col)) +
           ", \"got\": " + std::to_string(int(result.got)) +
           ", \"expected\": " + std::to_string(int(result.expected)) + "}";
  }
  return out;
}

} // namespace

std::string nvfp4::run::formatJson(const Manifest &manifest,
                                   const VerifyResult &result,
                                   const BenchResult *bench) {
  std::string out = "{\"manifest\": " + json::quote(manifest.path) +
                    ", \"kernel\": " + json::quote(manifest.kernel) +
                    ", \"chip\": " + json::quote(manifest.chip.name) +
                    ", \"op\": " + json::quote(manifest.op) +
                    (manifest.isConversion() ? conversionJson(manifest, result)
                                             : gemvJson(manifest, result));
  if (bench)
    out += ", \"bench\": {\"median_us\": " + jsonNum(bench->kernel.medianUs) +
           ", \"min_us\": " + jsonNum(bench->kernel.minUs) +
           ", \"reps\": " + std::to_string(bench->kernel.reps) +
           ", \"flush\": \"" + name(bench->flush) + "\"" +
           ", \"unique_bytes\": " + std::to_string(bench->uniqueBytes) +
           ", \"gbps\": " + jsonNum(bench->gbps()) +
           ", \"copy_gbps\": " + jsonNum(bench->copyGBps) +
           ", \"pct_of_copy\": " + jsonNum(bench->percentOfCopy()) +
           ", \"floor_us\": " + jsonNum(bench->floorUs()) +
           ", \"registers\": " + std::to_string(bench->registers) +
           ", \"local_bytes\": " + std::to_string(bench->localBytes) + "}";
  return out + "}";
}

std::string nvfp4::run::formatJsonError(const std::string &manifestPath,
                                        const std::string &error) {
  return "{\"manifest\": " + json::quote(manifestPath) +
         ", \"status\": \"error\", \"error\": " + json::quote(error) + "}";
}
