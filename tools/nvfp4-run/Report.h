//===- Report.h - What nvfp4-run prints -------------------------*- C++ -*-===//
//
// Results and their text/JSON forms, kept apart from the driver code so that
// the exact output format is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_REPORT_H
#define NVFP4_RUN_REPORT_H

#include "nvfp4-run/Manifest.h"
#include "nvfp4-run/Options.h"
#include "nvfp4-run/Sequence.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace nvfp4::run {

struct VerifyResult {
  bool pass = false;
  double maxAbsError = 0, relError = 0;
  /// gemv: flat index (l * N + n) * M + m into c. Conversion: byte index
  /// into the destination (batch-major). Quantize: byte index into
  /// `buffer`; dequantize: element index into the output.
  int64_t firstMismatch = -1;
  int64_t nanCount = 0;
  /// At firstMismatch; the byte values for a conversion and a quantize,
  /// the global scales for a quantize_global_scale.
  double got = 0, expected = 0;
  /// Conversion and quantize: bytes that differ, out of `compared`
  /// (quantize: data and scales together). Dequantize: `compared` values.
  int64_t mismatches = 0, compared = 0;
  /// The output of firstMismatch: data or scales (quantize), global_scale
  /// (quantize_global_scale), output (dequantize).
  Param buffer = Param::C;
  uint64_t seed = 0;
  ref::Distribution dist = ref::Distribution::Full;
  float alpha = 1;
  bool afterTiming = false; // the output went wrong during --bench
};

/// Compares a conversion's destination with the reference byte for byte;
/// fills pass, firstMismatch, got/expected (byte values), mismatches and
/// compared. A size difference fails at the first missing byte.
VerifyResult compareBytes(const std::vector<uint8_t> &got,
                          const std::vector<uint8_t> &expected);

/// Where byte `index` of a conversion's destination lies: its batch, its
/// offset in the batch and the scale (row, col) stored there, or -1 for
/// both when the byte is padding of a blocked destination.
struct DestByte {
  int64_t batch = 0, offset = 0, row = -1, col = -1;
};
DestByte locateDestByte(const ConversionProblem &c, int64_t index);
/// The scales of a quantization as a conversion's destination, to locate
/// their bytes with locateDestByte.
ConversionProblem scaleTensor(const QuantizeProblem &q);

/// Median and minimum of event timings.
struct Timing {
  double medianUs = 0, minUs = 0;
  int reps = 0;
};
/// Summarises elapsed times given in milliseconds (as cuEventElapsedTime
/// reports them); the median of an even count is the mean of the middle two.
Timing summarize(std::vector<float> elapsedMs);

struct BenchResult {
  Timing kernel;
  double copyGBps = 0; // device copy bandwidth, bytes read + written
  int64_t uniqueBytes = 0;
  int registers = -1, localBytes = -1; // from cuFuncGetAttribute
  /// CTAs an SM holds at once (the driver's occupancy, -1 when unknown),
  /// the launch's CTAs and the device's SMs: how many rounds of CTAs the
  /// grid takes, the last one partly filled when not whole.
  int residentCtas = -1;
  int64_t gridCtas = 0;
  int multiprocessors = 0;
  FlushMode flush = FlushMode::Clean;
  /// Launches a timed interval holds (--chain), each on its own workload;
  /// kernel and uniqueBytes are the whole chain's. pdl: launches 2..chain
  /// used programmatic dependent launch.
  int chain = 1;
  bool pdl = false;

  double gbps() const { return uniqueBytes / (kernel.medianUs * 1e3); }
  double percentOfCopy() const { return 100 * gbps() / copyGBps; }
  /// Time the kernel's bytes would take at copy bandwidth.
  double floorUs() const { return uniqueBytes / (copyGBps * 1e3); }
  /// The grid over the CTAs the device holds at once; NaN when unknown.
  double waves() const {
    if (residentCtas <= 0 || multiprocessors <= 0)
      return NAN;
    return double(gridCtas) / (double(residentCtas) * multiprocessors);
  }
};

/// "PASS gemv 7168x16384x1 nvfp4 linear f16: max_abs_err=..., rel_err=...
/// [seed=1 dist=full alpha=0.75 file.json]" or "FAIL ...: first mismatch at
/// l=.., m=..: got .., expected ..; ..." (l=.., n=.., m=.. for N > 1
/// vectors). A conversion is compared exactly:
/// "PASS convert_scale_layout 130x6x2 linear->blocked128x4 f8E4M3FN: 4096
/// bytes exact [seed=1 file.json]" or "FAIL ...: first mismatch at l=1,
/// offset=17 (row 1, col 0): got 0xff, expected 0x3c; 12 of 4096 bytes
/// differ [seed=1 file.json]" ("(padding)" for a byte outside the matrix).
/// The quantizers' results are exact too: "PASS quantize 130x64x2 f32 nvfp4
/// linear: 4680 bytes exact [seed=1 q.json]" or "FAIL ...: first mismatch
/// at data byte 17 (l=0, row 0, k=34): got 0xff, expected 0x3c; 3 of 4680
/// bytes differ [...]" ("scales byte 17 (l=0, row 1, col 1)"),
/// "PASS quantize_global_scale 130x64x2 f32: global_scale 2688 exact [...]"
/// or "FAIL ...: global_scale nan, expected 2688 [...]", "PASS dequantize
/// 128x64x2 nvfp4 linear f16: 16384 values correctly rounded [...]" or
/// "FAIL ...: first mismatch at l=1, row=3, k=5: got 1.5, expected 1.75; 2
/// NaN outputs; not correctly rounded [...]".
std::string formatVerify(const Manifest &manifest, const VerifyResult &result);
/// "BENCH gemv ...: 21.35 us median (min 20.90 us, 200 reps), 3095 GB/s,
/// 72.5% of copy (4270 GB/s), floor 15.48 us [file.json]"; a chain of
/// launches adds "chain=3 pdl " (or "chain=3 ") before the file name.
std::string formatBench(const Manifest &manifest, const BenchResult &result);
/// What --check --sequence prints: "OK sequence decode_step: 2 launches
/// [PATH]".
std::string formatSequenceChecked(const Sequence &sequence);
/// Its --json form: {"sequence", "function", "launches", "status": "ok"}.
std::string formatJsonSequenceChecked(const Sequence &sequence);
/// The last line of a --sequence run: "PASS sequence decode_step: 2
/// launches [decode_step.sequence.json]", or "FAIL sequence decode_step:
/// launch 1 of 2 failed (quantize 8x7168x1 bf16 nvfp4 linear) [...]".
/// `results` holds one entry per launch that ran.
std::string formatSequence(const Sequence &sequence,
                           const std::vector<VerifyResult> &results);
/// "BENCH sequence decode_step: 21.35 us median (...), ... [file]": the
/// whole sequence's time and the unique bytes of all its launches.
std::string formatSequenceBench(const Sequence &sequence,
                                const BenchResult &result);
/// The JSON record of a sequence: its file, function, launch count,
/// "status" ("pass" or "fail", with "failed_launch" counted from 1) and,
/// when timed, its "bench".
std::string formatJsonSequence(const Sequence &sequence,
                               const std::vector<VerifyResult> &results,
                               const BenchResult *bench);
/// "COPY 1024 MiB device-to-device: 4270 GB/s (median of 20)".
std::string formatCopy(double gbps, int64_t bytes, int reps);
/// One JSON object on one line (ReportJson.cpp); `bench` may be null.
/// Numbers keep 6 significant digits; NaN and inf are null.
std::string formatJson(const Manifest &manifest, const VerifyResult &result,
                       const BenchResult *bench);
/// What --check --json prints for a manifest that passed validation: the
/// manifest, kernel, chip, op, shape and formats, and "status": "ok".
std::string formatJsonChecked(const Manifest &manifest);
/// {"manifest": ..., "status": "error", "error": ...}
std::string formatJsonError(const std::string &manifestPath,
                            const std::string &error);

} // namespace nvfp4::run

#endif // NVFP4_RUN_REPORT_H
