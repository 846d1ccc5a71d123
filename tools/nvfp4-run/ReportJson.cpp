//===- ReportJson.cpp - nvfp4-run --json ----------------------------------===//

#include "nvfp4-run/Report.h"

#include "nvfp4-run/Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace nvfp4;
using namespace nvfp4::run;
// Keys in the order they are set, as the documentation lists them.
using Object = nlohmann::ordered_json;

namespace {

/// `value` to 6 significant digits (the figures are measurements, and more
/// digits would only be noise); NaN and inf become null, which JSON spells.
Object number(double value) {
  if (!std::isfinite(value))
    return nullptr;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", value);
  return std::strtod(buf, nullptr);
}

/// A byte count or index that is -1 when absent: null then.
Object optionalIndex(int64_t value) {
  return value < 0 ? Object(nullptr) : Object(value);
}

/// The manifest's identity and problem, first in every line about it.
/// The "bench" object of a kernel or a sequence.
Object benchObject(const BenchResult &bench) {
  Object out = {{"median_us", number(bench.kernel.medianUs)},
                {"min_us", number(bench.kernel.minUs)},
                {"reps", bench.kernel.reps},
                {"flush", name(bench.flush)},
                {"unique_bytes", bench.uniqueBytes},
                {"gbps", number(bench.gbps())},
                {"copy_gbps", number(bench.copyGBps)},
                {"pct_of_copy", number(bench.percentOfCopy())},
                {"floor_us", number(bench.floorUs())},
                {"registers", bench.registers},
                {"local_bytes", bench.localBytes},
                {"resident_ctas", optionalIndex(bench.residentCtas)},
                {"waves", number(bench.waves())}};
  if (bench.chain > 1) {
    out["chain"] = bench.chain;
    out["pdl"] = bench.pdl;
  }
  return out;
}

Object manifestFields(const Manifest &manifest) {
  Object out;
  out["manifest"] = manifest.path;
  out["kernel"] = manifest.kernel;
  out["chip"] = manifest.chip.name;
  out["op"] = manifest.op;
  if (manifest.isConversion()) {
    const ConversionProblem &c = manifest.conversion;
    out["rows"] = c.rows;
    out["cols"] = c.cols;
    out["l"] = c.l;
    out["from"] = name(c.from);
    out["to"] = name(c.to);
    out["element"] = name(c.element);
  } else if (manifest.isQuantization()) {
    const QuantizeProblem &q = manifest.quantization;
    out["rows"] = q.rows;
    out["k"] = q.k;
    out["l"] = q.l;
    if (manifest.kind != Op::QuantizeGlobalScale) {
      out["scale_format"] = name(q.format);
      out["scale_layout"] = name(q.layout);
    }
    out[manifest.kind == Op::Dequantize ? "output" : "input"] = name(q.element);
    if (manifest.kind != Op::QuantizeGlobalScale)
      out["global_scale"] = q.twoLevel;
  } else {
    const ref::GemvProblem &p = manifest.problem;
    out["m"] = p.m;
    out["k"] = p.k;
    out["l"] = p.l;
    out["n"] = p.n;
    out["scale_format"] = name(p.format);
    out["scale_layout"] = name(p.layout);
    out["output"] = name(p.output);
    out["vector"] = ref::name(p.vector);
    if (p.tiledCodes)
      out["tiled_codes"] = true;
  }
  return out;
}

void addGemv(Object &out, const Manifest &manifest,
             const VerifyResult &result) {
  const ref::GemvProblem &p = manifest.problem;
  out["seed"] = result.seed;
  out["dist"] = name(result.dist);
  out["alpha"] = number(result.alpha);
  out["status"] = result.pass ? "pass" : "fail";
  out["max_abs_err"] = number(result.maxAbsError);
  out["rel_err"] = number(result.relError);
  out["nan_count"] = result.nanCount;
  if (result.afterTiming)
    out["after_timing"] = true;
  if (result.firstMismatch >= 0)
    out["first_mismatch"] = {{"l", result.firstMismatch / (p.n * p.m)},
                             {"n", result.firstMismatch / p.m % p.n},
                             {"m", result.firstMismatch % p.m},
                             {"got", number(result.got)},
                             {"expected", number(result.expected)}};
}

void addConversion(Object &out, const Manifest &manifest,
                   const VerifyResult &result) {
  const ConversionProblem &c = manifest.conversion;
  out["seed"] = result.seed;
  out["status"] = result.pass ? "pass" : "fail";
  out["mismatches"] = result.mismatches;
  out["compared"] = result.compared;
  if (result.afterTiming)
    out["after_timing"] = true;
  if (result.firstMismatch >= 0) {
    DestByte at = locateDestByte(c, result.firstMismatch);
    out["first_mismatch"] = {{"l", at.batch},
                             {"offset", at.offset},
                             {"row", optionalIndex(at.row)},
                             {"col", optionalIndex(at.col)},
                             {"got", int(result.got)},
                             {"expected", int(result.expected)}};
  }
}

/// quantize: bytes compared and differing, the first mismatch with its
/// buffer and place; quantize_global_scale: the value written and the one
/// expected; dequantize: values compared, NaNs and the first mismatch.
void addQuantization(Object &out, const Manifest &manifest,
                     const VerifyResult &result) {
  const QuantizeProblem &q = manifest.quantization;
  out["seed"] = result.seed;
  out["status"] = result.pass ? "pass" : "fail";
  if (result.afterTiming)
    out["after_timing"] = true;
  if (manifest.kind == Op::QuantizeGlobalScale) {
    out["got"] = number(result.got);
    out["expected"] = number(result.expected);
    return;
  }
  out["compared"] = result.compared;
  if (manifest.kind == Op::Quantize)
    out["mismatches"] = result.mismatches;
  else
    out["nan_count"] = result.nanCount;
  if (result.firstMismatch < 0)
    return;
  Object at = {{"buffer", name(result.buffer)}};
  int64_t i = result.firstMismatch;
  if (result.buffer == Param::Scales) {
    DestByte place = locateDestByte(scaleTensor(q), i);
    at["l"] = place.batch;
    at["offset"] = place.offset;
    at["row"] = optionalIndex(place.row);
    at["col"] = optionalIndex(place.col);
  } else {
    // data holds two elements a byte; the output one.
    int64_t perRow = result.buffer == Param::Data ? q.k / 2 : q.k;
    int64_t k = i % perRow * (result.buffer == Param::Data ? 2 : 1);
    at["l"] = i / perRow / q.rows;
    at["row"] = i / perRow % q.rows;
    at["k"] = k;
  }
  if (manifest.kind == Op::Quantize) {
    at["got"] = int(result.got);
    at["expected"] = int(result.expected);
  } else {
    at["got"] = number(result.got);
    at["expected"] = number(result.expected);
  }
  out["first_mismatch"] = at;
}

} // namespace

std::string nvfp4::run::formatJson(const Manifest &manifest,
                                   const VerifyResult &result,
                                   const BenchResult *bench) {
  Object out = manifestFields(manifest);
  if (manifest.isConversion())
    addConversion(out, manifest, result);
  else if (manifest.isQuantization())
    addQuantization(out, manifest, result);
  else
    addGemv(out, manifest, result);
  if (bench)
    out["bench"] = benchObject(*bench);
  // Invalid UTF-8 in a path is replaced rather than thrown on.
  return out.dump(-1, ' ', false, Object::error_handler_t::replace);
}

std::string nvfp4::run::formatJsonError(const std::string &manifestPath,
                                        const std::string &error) {
  Object out;
  out["manifest"] = manifestPath;
  out["status"] = "error";
  out["error"] = error;
  return out.dump(-1, ' ', false, Object::error_handler_t::replace);
}

std::string nvfp4::run::formatJsonChecked(const Manifest &manifest) {
  Object out = manifestFields(manifest);
  out["status"] = "ok";
  return out.dump(-1, ' ', false, Object::error_handler_t::replace);
}

namespace {
/// The fields every record of a sequence starts with.
Object sequenceFields(const Sequence &sequence) {
  Object out;
  out["sequence"] = sequence.path;
  out["function"] = sequence.function;
  out["launches"] = sequence.launches.size();
  return out;
}
} // namespace

std::string nvfp4::run::formatJsonSequenceChecked(const Sequence &sequence) {
  Object out = sequenceFields(sequence);
  out["status"] = "ok";
  return out.dump(-1, ' ', false, Object::error_handler_t::replace);
}

std::string
nvfp4::run::formatJsonSequence(const Sequence &sequence,
                               const std::vector<VerifyResult> &results,
                               const BenchResult *bench) {
  Object out = sequenceFields(sequence);
  bool pass = results.size() == sequence.launches.size();
  for (size_t i = 0; i < results.size() && pass; ++i)
    if (!results[i].pass) {
      pass = false;
      out["failed_launch"] = i + 1;
    }
  out["status"] = pass ? "pass" : "fail";
  if (bench)
    out["bench"] = benchObject(*bench);
  return out.dump(-1, ' ', false, Object::error_handler_t::replace);
}
