//===- Report.cpp - What nvfp4-run prints ---------------------------------===//

#include "nvfp4-run/Report.h"

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

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string runTag(const Manifest &manifest, const VerifyResult &result) {
  // Conversion inputs are uniform random bytes, the quantizers' have one
  // distribution of their own: no distribution, no alpha.
  if (manifest.kind != Op::Gemv)
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

} // namespace

DestByte nvfp4::run::locateDestByte(const ConversionProblem &c, int64_t index) {
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

namespace {

/// The verdict of a byte-for-byte comparison; `where` names the first
/// mismatch ("first mismatch at ...; "), empty when none was located.
std::string formatBytesVerdict(const Manifest &manifest,
                               const VerifyResult &result,
                               const std::string &where) {
  if (result.pass)
    return "PASS " + describe(manifest) + ": " +
           std::to_string(result.compared) + " bytes exact " +
           runTag(manifest, result);
  return "FAIL " + describe(manifest) +
         (result.afterTiming ? " (after timing): " : ": ") + where +
         std::to_string(result.mismatches) + " of " +
         std::to_string(result.compared) + " bytes differ " +
         runTag(manifest, result);
}

std::string formatConversionVerify(const Manifest &manifest,
                                   const VerifyResult &result) {
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
  return formatBytesVerdict(manifest, result, what);
}

/// "(l=0, row 3, k=68)": the batch, row and first element of a data byte.
std::string dataPlace(const QuantizeProblem &q, int64_t index) {
  int64_t rowBytes = q.k / 2;
  return "(l=" + std::to_string(index / rowBytes / q.rows) + ", row " +
         std::to_string(index / rowBytes % q.rows) +
         ", k=" + std::to_string(index % rowBytes * 2) + ")";
}

/// "(l=0, row 1, col 1)" or "(l=0, padding)" for a byte of the scales.
std::string scalePlace(const QuantizeProblem &q, int64_t index) {
  DestByte at = locateDestByte(scaleTensor(q), index);
  return "(l=" + std::to_string(at.batch) +
         (at.row < 0 ? std::string(", padding)")
                     : ", row " + std::to_string(at.row) + ", col " +
                           std::to_string(at.col) + ")");
}

/// "%.9g": every f32 distinctly.
std::string exact(double value) { return format("%.9g", value); }

std::string formatQuantizeVerify(const Manifest &manifest,
                                 const VerifyResult &result) {
  const QuantizeProblem &q = manifest.quantization;
  std::string what;
  if (result.firstMismatch >= 0) {
    bool data = result.buffer == Param::Data;
    what = std::string("first mismatch at ") + name(result.buffer) + " byte " +
           std::to_string(result.firstMismatch) + " " +
           (data ? dataPlace(q, result.firstMismatch)
                 : scalePlace(q, result.firstMismatch)) +
           ": got " + hexByte(result.got) + ", expected " +
           hexByte(result.expected) + "; ";
  }
  return formatBytesVerdict(manifest, result, what);
}

std::string formatGlobalScaleVerify(const Manifest &manifest,
                                    const VerifyResult &result) {
  if (result.pass)
    return "PASS " + describe(manifest) + ": global_scale " +
           exact(result.got) + " exact " + runTag(manifest, result);
  return "FAIL " + describe(manifest) +
         (result.afterTiming ? " (after timing): " : ": ") + "global_scale " +
         exact(result.got) + ", expected " + exact(result.expected) + " " +
         runTag(manifest, result);
}

std::string formatDequantizeVerify(const Manifest &manifest,
                                   const VerifyResult &result) {
  const QuantizeProblem &q = manifest.quantization;
  if (result.pass)
    return "PASS " + describe(manifest) + ": " +
           std::to_string(result.compared) + " values correctly rounded " +
           runTag(manifest, result);
  std::string what;
  if (result.firstMismatch >= 0)
    what = "first mismatch at l=" +
           std::to_string(result.firstMismatch / q.k / q.rows) +
           ", row=" + std::to_string(result.firstMismatch / q.k % q.rows) +
           ", k=" + std::to_string(result.firstMismatch % q.k) + ": got " +
           exact(result.got) + ", expected " +
           format("%.17g", result.expected) + "; ";
  if (result.nanCount > 0)
    what += std::to_string(result.nanCount) + " NaN outputs; ";
  return "FAIL " + describe(manifest) +
         (result.afterTiming ? " (after timing): " : ": ") + what +
         "not correctly rounded " + runTag(manifest, result);
}

} // namespace

ConversionProblem nvfp4::run::scaleTensor(const QuantizeProblem &q) {
  ConversionProblem scales;
  scales.rows = q.rows;
  scales.cols = q.k / ref::blockSize(q.format);
  scales.l = q.l;
  scales.from = scales.to = q.layout;
  return scales;
}

std::string nvfp4::run::formatVerify(const Manifest &manifest,
                                     const VerifyResult &result) {
  switch (manifest.kind) {
  case Op::ConvertScaleLayout:
    return formatConversionVerify(manifest, result);
  case Op::Quantize:
    return formatQuantizeVerify(manifest, result);
  case Op::QuantizeGlobalScale:
    return formatGlobalScaleVerify(manifest, result);
  case Op::Dequantize:
    return formatDequantizeVerify(manifest, result);
  case Op::Gemv:
    break;
  }
  std::string errors = "max_abs_err=" + format("%.3e", result.maxAbsError) +
                       ", rel_err=" + format("%.3e", result.relError);
  if (result.pass)
    return "PASS " + describe(manifest) + ": " + errors + " " +
           runTag(manifest, result);
  std::string what;
  if (result.firstMismatch >= 0) {
    // c is [L][N][M]; the vector index is shown when there are several.
    int64_t m = manifest.problem.m, n = manifest.problem.n;
    what = "first mismatch at l=" +
           std::to_string(result.firstMismatch / (n * m)) +
           (n == 1 ? std::string()
                   : ", n=" + std::to_string(result.firstMismatch / m % n)) +
           ", m=" + std::to_string(result.firstMismatch % m) + ": got " +
           num(result.got) + ", expected " + num(result.expected) + "; ";
  }
  if (result.nanCount > 0)
    what += std::to_string(result.nanCount) + " NaN outputs; ";
  return "FAIL " + describe(manifest) +
         (result.afterTiming ? " (after timing): " : ": ") + what + errors +
         " " + runTag(manifest, result);
}

namespace {
/// "21.35 us median (min 20.90 us, 200 reps), 3095 GB/s, 72.5% of copy
/// (4270 GB/s), floor 15.48 us [" and the flush mode when dirty.
std::string benchFigures(const BenchResult &result) {
  return format("%.2f", result.kernel.medianUs) + " us median (min " +
         format("%.2f", result.kernel.minUs) + " us, " +
         std::to_string(result.kernel.reps) + " reps), " +
         format("%.0f", result.gbps()) + " GB/s, " +
         format("%.1f", result.percentOfCopy()) + "% of copy (" +
         format("%.0f", result.copyGBps) + " GB/s), floor " +
         format("%.2f", result.floorUs()) + " us [" +
         (result.flush == FlushMode::Clean ? "" : "flush=dirty ");
}
} // namespace

std::string nvfp4::run::formatBench(const Manifest &manifest,
                                    const BenchResult &result) {
  return "BENCH " + describe(manifest) + ": " + benchFigures(result) +
         (result.chain > 1 ? "chain=" + std::to_string(result.chain) +
                                 (result.pdl ? " pdl " : " ")
                           : std::string()) +
         baseName(manifest.path) + "]";
}

namespace {
/// "1 launch", "2 launches".
std::string launches(size_t count) {
  return std::to_string(count) + (count == 1 ? " launch" : " launches");
}
} // namespace

std::string nvfp4::run::formatSequenceChecked(const Sequence &sequence) {
  return "OK sequence " + sequence.function + ": " +
         launches(sequence.launches.size()) + " [" + sequence.path + "]";
}

std::string
nvfp4::run::formatSequence(const Sequence &sequence,
                           const std::vector<VerifyResult> &results) {
  std::string head = "sequence " + sequence.function + ": ";
  std::string count = std::to_string(sequence.launches.size());
  std::string tail = " [" + baseName(sequence.path) + "]";
  for (size_t i = 0; i < results.size(); ++i)
    if (!results[i].pass)
      return "FAIL " + head + "launch " + std::to_string(i + 1) + " of " +
             count + " failed (" + describe(sequence.launches[i].manifest) +
             ")" + tail;
  if (results.size() < sequence.launches.size())
    return "FAIL " + head + std::to_string(results.size()) + " of " + count +
           " launches ran" + tail;
  return "PASS " + head + launches(sequence.launches.size()) + tail;
}

std::string nvfp4::run::formatSequenceBench(const Sequence &sequence,
                                            const BenchResult &result) {
  return "BENCH sequence " + sequence.function + ": " + benchFigures(result) +
         baseName(sequence.path) + "]";
}

std::string nvfp4::run::formatCopy(double gbps, int64_t bytes, int reps) {
  return "COPY " + format("%.0f", bytes / double(1 << 20)) +
         " MiB device-to-device: " + format("%.0f", gbps) +
         " GB/s (median of " + std::to_string(reps) + ")";
}
