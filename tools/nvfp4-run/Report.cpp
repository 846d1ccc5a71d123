//===- Report.cpp - What nvfp4-run prints ---------------------------------===//

#include "nvfp4-run/Report.h"

#include "nvfp4-run/Json.h"
#include "nvfp4-run/Options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace nvfp4;
using namespace nvfp4::run;

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
  return "[seed=" + std::to_string(result.seed) + " dist=" + name(result.dist) +
         " alpha=" + num(result.alpha) + " " + baseName(manifest.path) + "]";
}

} // namespace

std::string nvfp4::run::formatVerify(const Manifest &manifest,
                                     const VerifyResult &result) {
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

std::string nvfp4::run::formatJson(const Manifest &manifest,
                                   const VerifyResult &result,
                                   const BenchResult *bench) {
  const ref::GemvProblem &p = manifest.problem;
  std::string out =
      "{\"manifest\": " + json::quote(manifest.path) +
      ", \"kernel\": " + json::quote(manifest.kernel) +
      ", \"chip\": " + json::quote(manifest.chip.name) +
      ", \"op\": " + json::quote(manifest.op) +
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
