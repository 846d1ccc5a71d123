//===- nvfp4-sim-check.cpp - GPU kernels checked on the host --------------===//
//
// Runs every kernel variant of variants.py (compiled at build time with
// --nvfp4-to-host-sim: the device IR the PTX pipeline would assemble, as host
// code executed by the simulation runtime, nvfp4/Runtime/HostSimABI.h) on
// seeded random data and compares it with the float64 reference
// (nvfp4/Support/Reference.h):
//
//   gemv     the Full and Weak distributions of ref::generateGemvInputs,
//            and one of the edge distributions (Extreme, Overflow, Cancel)
//            in turn, or all three with --edges; with 16-bit b (no sfb),
//            Full and Extreme, the two it has. Every form of b: one packed
//            vector, N packed vectors (b [L, N, K/2], c [L, N, M]), and
//            16-bit b, one ([L, K]) or N ([L, N, K]). Each element must meet
//            ref::expectAnyOrderGemv: bit-identical to the correctly rounded
//            reference where the f32 evaluation is exact in any summation
//            order (all unit terms multiples of 2^e with sum |t| <=
//            2^(24+e), and alpha times the sum exact in f32); NaN or the
//            infinity the f32 evaluation must give where it leaves the f32
//            range; otherwise within the bound of f32 summation in an
//            arbitrary order plus the alpha and output roundings
//            (docs/numerics.md section 11).
//   convert_scale_layout  bytes identical to ref::convertScaleLayout,
//            padding zeroed.
//
// Every buffer has guard bytes on both sides (checked after the launch) and
// outputs start as 0xFF bytes (NaN), inputs must come back unchanged, and
// any runtime error (deadlock, a lane missing from a shuffle) fails the case.
// Seeds are fixed (--seed N, default 1) and printed. --corrupt damages one
// element of every result beyond its tolerance: every case must then fail.
// --filter TEXT runs the variants whose name contains TEXT. --loads counts
// each gemv's global loads as the memory system sees them (warp-wide
// instructions, the lines and sectors each touches: HostSimABI.h's trace).
//
//===----------------------------------------------------------------------===//

#include "SimCheck.h"

#include "nvfp4/Runtime/HostSimABI.h"
#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/GemvBound.h"
#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/StringFormat.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace nvfp4;
using namespace nvfp4::simcheck;

bool nvfp4::simcheck::simulationOk(std::string &detail) {
  const char *error = nvfp4sim_error();
  if (!error)
    return true;
  detail += strf("simulation error: %s", error);
  nvfp4sim_clear_error();
  return false;
}

namespace {

#include "Variants.inc"

/// Writes `value` as element `i` of an output buffer.
void writeOutput(ElementType type, uint8_t *c, int64_t i, double value) {
  if (type == ElementType::F32) {
    float f = static_cast<float>(value);
    std::memcpy(c + 4 * i, &f, 4);
    return;
  }
  uint16_t h = type == ElementType::F16 ? formats::encodeF16FromDouble(value)
                                        : formats::encodeBF16FromDouble(value);
  std::memcpy(c + 2 * i, &h, 2);
}

/// A value for element `i` that its expectation rejects (for --corrupt), or
/// nullopt when it accepts every candidate.
std::optional<double> rejectedValue(const ref::GemvExpectation &e,
                                    ElementType type, double r, double rr) {
  double far = 4 * e.bound + 1 + std::fabs(rr);
  for (double v : {rr + far, rr - far, 0.0, 1.0, double(NAN)}) {
    std::vector<uint8_t> bits(ref::elementBytes(type));
    writeOutput(type, bits.data(), 0, v);
    double o = ref::readOutput(type, bits.data(), 0);
    if (!ref::meetsExpectation(e, type, o, r, rr))
      return v;
  }
  return std::nullopt;
}

void checkGemv(Stats &stats, const SimKernel &kernel, ref::Distribution dist,
               bool reverseThreads, uint64_t seed) {
  ref::GemvProblem p;
  p.m = kernel.m;
  p.k = kernel.k;
  p.l = kernel.l;
  p.format = kernel.format;
  p.layout = kernel.layout;
  p.output = kernel.output;
  p.n = kernel.n;
  p.vector = kernel.vector;
  p.sums = kernel.productSums ? ref::GemvSums::Products : ref::GemvSums::Units;
  p.alpha =
      kernel.alpha ? (dist == ref::Distribution::Full ? 0.3f : 1.5f) : 1.0f;
  ref::GemvInputs in = ref::generateGemvInputs(p, dist, seed);
  // b holds all N vectors; sfb is empty (and not passed) for 16-bit b.
  if (in.b.size() != size_t(p.l * ref::vectorBatchBytes(p)) ||
      in.sfb.size() != size_t(p.l * ref::vectorScaleBatchBytes(p))) {
    std::fprintf(stderr,
                 "nvfp4-sim-check: b or sfb of %s is not the size "
                 "of its problem\n",
                 kernel.spec);
    std::exit(2);
  }
  // The kernel reads a as its layout keeps it; the reference row-major.
  p.tiledCodes = kernel.tiledCodes;
  const std::vector<uint8_t> stored = ref::storedCodes(p, in.a.data());
  Guarded a(stored), sfa(in.sfa), b(in.b), sfb(in.sfb);
  Guarded c(static_cast<size_t>(p.l * p.n * p.m * ref::elementBytes(p.output)),
            0xFF);
  nvfp4sim_set_reverse_order(reverseThreads);
  // The first case of a kernel (Full inputs) counts its loads: the
  // pattern is the data's.
  bool traced = stats.loads && dist == ref::Distribution::Full;
  const char *bufferNames[4] = {"a", "sfa", "b", "sfb"};
  const void *begins[4] = {a.data(), sfa.data(), b.data(), sfb.data()};
  int64_t sizes[4] = {int64_t(in.a.size()), int64_t(in.sfa.size()),
                      int64_t(in.b.size()), int64_t(in.sfb.size())};
  if (traced)
    nvfp4sim_trace_begin(4, begins, sizes);
  if (kernel.gemvAlpha)
    kernel.gemvAlpha(a.data(), sfa.data(), b.data(), sfb.data(), c.data(),
                     p.alpha);
  else if (kernel.gemv)
    kernel.gemv(a.data(), sfa.data(), b.data(), sfb.data(), c.data());
  else if (kernel.wideAlpha)
    kernel.wideAlpha(a.data(), sfa.data(), b.data(), c.data(), p.alpha);
  else
    kernel.wide(a.data(), sfa.data(), b.data(), c.data());
  if (traced) {
    Nvfp4SimLoadStats loads[4];
    nvfp4sim_trace_end(loads);
    std::string line = strf("LOADS %-20s %-42s", kernel.variant, kernel.spec);
    for (int i = 0; i < 4; ++i)
      if (loads[i].loads)
        line += strf(" %s: %lld loads, %.2f lines %.2f sectors a load;",
                     bufferNames[i], (long long)loads[i].loads,
                     double(loads[i].lines) / loads[i].loads,
                     double(loads[i].sectors) / loads[i].loads);
    std::printf("%s\n", line.c_str());
  }

  std::string what =
      strf("%-20s %-42s %s, threads %s, seed %llu", kernel.variant, kernel.spec,
           ref::name(dist), reverseThreads ? "down" : "up",
           (unsigned long long)seed);
  std::string detail;
  bool ok = simulationOk(detail);
  if (!a.guardsIntact() || !sfa.guardsIntact() || !b.guardsIntact() ||
      !sfb.guardsIntact() || !c.guardsIntact()) {
    detail += " write out of bounds;";
    ok = false;
  }
  if (a.contents() != stored || sfa.contents() != in.sfa ||
      b.contents() != in.b || sfb.contents() != in.sfb) {
    detail += " inputs modified;";
    ok = false;
  }
  std::vector<double> expect =
      ref::gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
  std::vector<ref::GemvExpectation> f32 = ref::expectAnyOrderGemv(
      p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data(), expect);
  std::vector<uint8_t> rounded = ref::roundOutput(p.output, expect);
  const int64_t n = p.l * p.n * p.m;
  if (stats.corrupt) // the first row from seed on that can be made wrong
    for (int64_t j = 0; j < n; ++j) {
      int64_t i = (int64_t(seed % n) + j) % n;
      double rr = ref::readOutput(p.output, rounded.data(), i);
      if (auto v = rejectedValue(f32[i], p.output, expect[i], rr)) {
        writeOutput(p.output, c.data(), i, *v);
        break;
      }
    }
  int64_t exactRows = 0, specialRows = 0, wrong = 0, first = -1;
  double worst = 0; // largest |error| / bound over the bounded rows
  for (int64_t i = 0; i < n; ++i) {
    const ref::GemvExpectation &e = f32[i];
    double rr = ref::readOutput(p.output, rounded.data(), i);
    double o = ref::readOutput(p.output, c.data(), i);
    bool good = ref::meetsExpectation(e, p.output, o, expect[i], rr);
    if (e.kind == ref::GemvExpectation::Kind::Exact)
      ++exactRows;
    else if (e.kind != ref::GemvExpectation::Kind::Bounded)
      ++specialRows;
    else if (good && e.bound > 0 && std::isfinite(o))
      worst = std::max(worst, std::fabs(o - expect[i]) / e.bound);
    if (!good && wrong++ == 0)
      first = i;
  }
  if (wrong) {
    ok = false;
    // c[l][m], or c[l][n][m] with a vector dimension.
    std::string at =
        kernel.vectorDim
            ? strf("[%lld][%lld][%lld]", (long long)(first / (p.m * p.n)),
                   (long long)(first / p.m % p.n), (long long)(first % p.m))
            : strf("[%lld][%lld]", (long long)(first / p.m),
                   (long long)(first % p.m));
    detail += strf(" %lld of %lld wrong, first c%s = %.9g, reference %.17g;",
                   (long long)wrong, (long long)n, at.c_str(),
                   ref::readOutput(p.output, c.data(), first), expect[first]);
  }
  detail += strf(" %lld/%lld rows exact, worst %.3f of bound",
                 (long long)exactRows, (long long)n, worst);
  if (specialRows)
    detail += strf(", %lld NaN or inf", (long long)specialRows);
  stats.report(ok, what, detail);
}

void checkConvert(Stats &stats, const SimKernel &kernel, uint64_t seed) {
  int64_t rows = kernel.m, cols = kernel.k, l = kernel.l;
  size_t srcBytes = l * ref::scaleBatchBytes(kernel.layout, rows, cols);
  size_t dstBytes = l * ref::scaleBatchBytes(kernel.dstLayout, rows, cols);
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> init(srcBytes);
  for (uint8_t &byte : init)
    byte = static_cast<uint8_t>(rng());
  Guarded src(init), dst(dstBytes, 0xFF);
  kernel.convert(src.data(), dst.data());
  std::vector<uint8_t> expect = ref::convertScaleLayout(
      kernel.layout, kernel.dstLayout, init.data(), rows, cols, l);
  std::vector<uint8_t> out = dst.contents();
  if (stats.corrupt)
    out[seed % out.size()] ^= 0x01;
  std::string what = strf("%-20s %-42s seed %llu", kernel.variant, kernel.spec,
                          (unsigned long long)seed);
  std::string detail;
  bool ok = simulationOk(detail);
  if (!src.guardsIntact() || !dst.guardsIntact()) {
    detail += " write out of bounds;";
    ok = false;
  }
  if (src.contents() != init) {
    detail += " source modified;";
    ok = false;
  }
  int64_t wrong = 0, first = -1;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] != expect[i] && wrong++ == 0)
      first = static_cast<int64_t>(i);
  if (wrong) {
    ok = false;
    detail += strf(" %lld of %zu bytes wrong, first at %lld: 0x%02x, "
                   "expected 0x%02x;",
                   (long long)wrong, out.size(), (long long)first, out[first],
                   expect[first]);
  }
  stats.report(ok, what, detail);
}

} // namespace

const char *const kHelp =
    "nvfp4-sim-check: runs every GPU kernel variant of\n"
    "tools/nvfp4-sim-check/variants.py, compiled with --nvfp4-to-host-sim,\n"
    "on the host simulation runtime with seeded random data and compares\n"
    "each result with the float64 reference (docs/testing.md): GEMVs bit\n"
    "for bit where the f32 sum is exact, NaN or inf where f32 must give it,\n"
    "else within the f32 summation bound; scale-layout conversions byte for\n"
    "byte. GEMVs run on the full and weak inputs and on one edge\n"
    "distribution (extreme, overflow, cancel) in turn; those of 16-bit\n"
    "vectors on the full and extreme inputs. One line per case, then the\n"
    "counts; exit status 1 when a case fails.\n"
    "\n"
    "usage: nvfp4-sim-check [--seed N] [--filter TEXT] [--edges] [--corrupt] "
    "[--loads] [--list]\n"
    "  --seed N       seed of the random data (default 1)\n"
    "  --edges        every edge distribution on every GEMV\n"
    "  --filter TEXT  only the variants whose name contains TEXT (default: "
    "all)\n"
    "  --corrupt      damage one element of every result: every case must "
    "fail\n"
    "  --loads        after each gemv's first case, a LOADS line: per input\n"
    "                 (a, sfa, b, sfb) its warp-wide global loads and the\n"
    "                 128-byte lines and 32-byte sectors each touches, on\n"
    "                 average (cp.async copies are not loads)\n"
    "  --list         print every compiled kernel and its options, run "
    "nothing\n"
    "  --help         print this text\n";

/// Reports a malformed command line in one line; exit status 2.
static int usageError(const std::string &message) {
  std::fprintf(stderr,
               "nvfp4-sim-check: error: %s (--help lists the options)\n",
               message.c_str());
  return 2;
}

int main(int argc, char **argv) {
  Stats stats;
  uint64_t seed = 1;
  bool allEdges = false;
  std::string filter;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool hasValue = i + 1 < argc;
    if (arg == "--help" || arg == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (arg == "--corrupt") {
      stats.corrupt = true;
    } else if (arg == "--loads") {
      stats.loads = true;
    } else if (arg == "--edges") {
      allEdges = true;
    } else if (arg == "--seed") {
      if (!hasValue)
        return usageError("--seed needs a value");
      std::string text = argv[++i];
      char *end = nullptr;
      errno = 0;
      unsigned long long value = std::strtoull(text.c_str(), &end, 10);
      if (text.empty() || text[0] < '0' || text[0] > '9' || *end ||
          errno == ERANGE)
        return usageError("--seed needs a non-negative 64-bit integer, got '" +
                          text + "'");
      seed = value;
    } else if (arg == "--filter") {
      if (!hasValue)
        return usageError("--filter needs a value");
      filter = argv[++i];
    } else if (arg == "--list") {
      for (const SimKernel &k : kSimKernels)
        std::printf("%s %s [%s]\n", k.variant, k.spec, k.options);
      return 0;
    } else {
      return usageError("unknown option '" + arg + "'");
    }
  }
  std::printf("nvfp4-sim-check: seed %llu\n", (unsigned long long)seed);
  auto start = std::chrono::steady_clock::now();
  uint64_t caseSeed = seed;
  const ref::Distribution kEdges[3] = {ref::Distribution::Extreme,
                                       ref::Distribution::Overflow,
                                       ref::Distribution::Cancel};
  const char *variant = nullptr;
  int edgeTurn = 0;
  for (const SimKernel &k : kSimKernels) {
    if (!filter.empty() &&
        std::string(k.variant).find(filter) == std::string::npos)
      continue;
    if (k.convert) {
      nvfp4sim_set_reverse_order(0);
      checkConvert(stats, k, caseSeed++);
      continue;
    }
    if (k.kind != SimOp::GemvOrConvert) {
      // Two thread orders (the last CTA of the global scale's reduction
      // differs between them), each with its own output fill: every byte
      // value is a valid result, so only both fills catch every byte left
      // unwritten.
      for (int reverse = 0; reverse < 2; ++reverse) {
        nvfp4sim_set_reverse_order(reverse);
        uint8_t fill = reverse ? 0x00 : 0xFF;
        if (k.kind == SimOp::Quantize)
          checkQuantize(stats, k, caseSeed++, fill);
        else
          checkDequantize(stats, k, caseSeed++, fill);
      }
      continue;
    }
    // Two thread orders: a missing barrier shows in one or the other.
    checkGemv(stats, k, ref::Distribution::Full, false, caseSeed++);
    if (k.vector != VectorElement::E2M1) {
      // 16-bit b is drawn from Full and Extreme only.
      checkGemv(stats, k, ref::Distribution::Extreme, true, caseSeed++);
      continue;
    }
    checkGemv(stats, k, ref::Distribution::Weak, true, caseSeed++);
    // The edge distributions in turn within a variant (each has at least
    // three GEMVs), or all of them with --edges.
    if (!variant || std::strcmp(variant, k.variant) != 0) {
      variant = k.variant;
      edgeTurn = 0;
    }
    for (int e = 0; e < 3; ++e) {
      if (!allEdges && e != edgeTurn % 3)
        continue;
      checkGemv(stats, k, kEdges[e], e % 2 == 1, caseSeed++);
    }
    ++edgeTurn;
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("%s\n", checkSummary("nvfp4-sim-check", stats.cases, stats.failed,
                                   seed, seconds)
                          .c_str());
  return stats.failed ? 1 : 0;
}
