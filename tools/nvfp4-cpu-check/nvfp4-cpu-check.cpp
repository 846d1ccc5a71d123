//===- nvfp4-cpu-check.cpp - randomized check of the CPU lowering ---------===//
//
// Runs the nvfp4 operations compiled through --nvfp4-cpu-pipeline
// (Kernels.mlir, built into this executable) on random data and compares
// every result with the independent float64 reference
// (nvfp4/Support/Reference.h); --help says what is checked. One line per
// case, then "nvfp4-cpu-check: N cases, P passed, F failed".
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "nvfp4/Support/StringFormat.h"

#include "nvfp4/Support/CheckToolCommandLine.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace nvfp4;
using namespace nvfp4::cpucheck;
using ref::ElementType;
using ref::ScaleFormat;
using ref::ScaleLayout;

namespace {

const char *const kDescription =
    "nvfp4-cpu-check: runs every nvfp4 operation compiled through\n"
    "--nvfp4-cpu-pipeline on random data and compares each result with the\n"
    "float64 reference (docs/numerics.md section 10):\n"
    "  gemv        every format x layout x output type, with and without "
    "alpha,\n"
    "              on the benchmark shapes and odd ones; inputs of every\n"
    "              distribution (docs/numerics.md section 9): full, weak,\n"
    "              extreme (negative, subnormal, NaN and extreme scales),\n"
    "              overflow (+-6 codes, top scales) and cancel (opposite\n"
    "              pairs). Each element is exactly the rounded "
    "reference\n"
    "              where the f32 sum is exact, else within the f32 "
    "summation\n"
    "              bound plus half an ulp; NaN and inf exactly where they "
    "must be.\n"
    "  gemv of N   the same for N = 1, 2, 3, 8 and 16 vectors (b [L, N, ...])\n"
    "  vectors     of packed e2m1, f16 and bf16, and one f16 or bf16 vector;\n"
    "              16-bit b from every finite value (full: below 2^4)\n"
    "  quantize    bytes identical to ref::quantize\n"
    "  dequantize  identical to the correctly rounded ref::dequantize\n"
    "  round trips dequantize(quantize(x)) within the bound of section 7;\n"
    "              quantize(dequantize(q)) == q for representable q\n"
    "  convert_scale_layout  bytes identical, A -> B -> A the identity\n"
    "One line per case, then the counts; exit status 1 when a case fails.\n"
    "The seed is printed first: --seed N repeats a run.\n";

} // namespace

int main(int argc, char **argv) {
  uint64_t seed = static_cast<uint64_t>(
      std::chrono::system_clock::now().time_since_epoch().count());
  bool quick = false, small = false, corrupt = false;
  CLI::App app(kDescription, "nvfp4-cpu-check");
  app.get_formatter()->column_width(14);
  app.add_option_function<std::string>(
         "--seed",
         [&](const std::string &text) {
           // Digits only: no sign, no wrap-around, no saturation.
           errno = 0;
           char *end = nullptr;
           unsigned long long value = std::strtoull(text.c_str(), &end, 10);
           if (text.empty() || text[0] < '0' || text[0] > '9' || *end ||
               errno == ERANGE)
             throw CLI::ValidationError(
                 "--seed",
                 "needs a non-negative 64-bit integer, got '" + text + "'");
           seed = value;
         },
         "seed of every random choice (default: from the clock)")
      ->type_name("N");
  app.add_flag("--quick", quick,
               "large GEMV shapes only with f16 output and f32 with alpha");
  app.add_flag("--small", small, "leave out the large shapes");
  app.add_flag("--corrupt", corrupt,
               "damage one element of every result before checking it: "
               "every case must fail");
  if (std::optional<int> status =
          nvfp4::parseCheckToolCommandLine(app, argc, argv, "nvfp4-cpu-check"))
    return *status;

  std::printf("nvfp4-cpu-check: seed %llu (rerun with --seed %llu)\n",
              (unsigned long long)seed, (unsigned long long)seed);
  auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(seed);
  Stats stats;
  stats.corrupt = corrupt;
  stats.corruptRng.seed(seed ^ 0x9E3779B97F4A7C15ull);
  // Shapes above this many matrix elements are "large".
  const int64_t largeElements = int64_t(1) << 20;

  // GEMV: the nine competition test shapes and odd ones (one row, rows and
  // scale columns that do not fill a 128x4 atom, K = 64, three batches).
  const std::vector<Shape> shapes = {
      {128, 256, 1},   {128, 1536, 1}, {128, 3072, 1}, {256, 7168, 1},
      {2432, 4608, 2}, {384, 7168, 2}, {512, 512, 2},  {512, 4096, 2},
      {512, 1536, 2},  {1, 64, 1},     {1, 4096, 3},   {130, 64, 3},
      {130, 96, 2},    {3, 160, 1},    {257, 1024, 3}};
  for (const Shape &s : shapes)
    for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
      if (s.k % ref::blockSize(f) != 0)
        continue;
      for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
        for (ref::Distribution d : ref::kDistributions) {
          // alpha: 1 / (gs_a * gs_b) of realistic two-level global scales.
          float alpha =
              std::ldexp(std::uniform_real_distribution<float>(1.0f, 2.0f)(rng),
                         -static_cast<int>(rng() % 12));
          uint64_t caseSeed = rng();
          bool large = s.m * s.k * s.l > largeElements;
          if (large && small)
            continue;
          // Overflow and cancel rows are exact in f32: small shapes show it.
          bool exactEdge = d == ref::Distribution::Overflow ||
                           d == ref::Distribution::Cancel;
          if (large && exactEdge)
            continue;
          checkGemv(stats, s, f, lay, d, caseSeed, alpha, !(large && quick));
        }
    }

  // GEMV of N vectors (b [L, N, ...]) and of 16-bit vectors, both formats,
  // both layouts. Their own generator, so that the cases above keep their
  // data for a seed. 16-bit b is drawn from Full and Extreme only (its
  // values are not codes for Weak, Overflow and Cancel to arrange).
  std::mt19937_64 vrng(seed ^ 0xD1B54A32D192ED03ull);
  const std::vector<Shape> vshapes = {{130, 64, 2}, {3, 160, 1}, {257, 320, 2}};
  auto vectorCases = [&](const GemvForm &form) {
    for (const Shape &s : vshapes)
      for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
        if (s.k % ref::blockSize(f) != 0)
          continue;
        for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
          for (ref::Distribution d : ref::kDistributions) {
            float alpha = std::ldexp(
                std::uniform_real_distribution<float>(1.0f, 2.0f)(vrng),
                -static_cast<int>(vrng() % 12));
            uint64_t caseSeed = vrng();
            if (form.vector != ref::VectorElement::E2M1 &&
                d != ref::Distribution::Full && d != ref::Distribution::Extreme)
              continue;
            checkGemv(stats, s, f, lay, d, caseSeed, alpha, true, form);
          }
      }
  };
  for (int64_t n : {1, 2, 3, 8, 16})
    for (ref::VectorElement v :
         {ref::VectorElement::E2M1, ref::VectorElement::F16,
          ref::VectorElement::BF16})
      vectorCases({n, v, /*vectorDim=*/true});
  for (ref::VectorElement v :
       {ref::VectorElement::F16, ref::VectorElement::BF16})
    vectorCases({1, v, /*vectorDim=*/false});

  // GEMV of tiled codes: each kernel of TiledKernels.mlir on every
  // distribution its b can take, from a generator of its own.
  std::mt19937_64 trng(seed ^ 0x94D049BB133111EBull);
  for (const TiledCase &t : tiledCases())
    for (ref::Distribution d : ref::kDistributions) {
      float alpha =
          std::ldexp(std::uniform_real_distribution<float>(1.0f, 2.0f)(trng),
                     -static_cast<int>(trng() % 12));
      uint64_t caseSeed = trng();
      if (t.form.vector != ref::VectorElement::E2M1 &&
          d != ref::Distribution::Full && d != ref::Distribution::Extreme)
        continue;
      checkTiledGemv(stats, t, d, caseSeed, alpha);
    }

  // Quantize (exact bytes, error bound) and quantize(dequantize(q)) == q.
  struct QShape {
    int64_t rows, k, l;
  };
  const std::vector<QShape> qshapes = {
      {130, 256, 2}, {1, 64, 3}, {3, 96, 2}, {256, 7168, 1}};
  const std::vector<QuantizeVariant> qvariants = {
      {ScaleFormat::NVFP4, ScaleLayout::Linear, false, ElementType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Blocked128x4, false, ElementType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Linear, true, ElementType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Blocked128x4, true, ElementType::F32},
      {ScaleFormat::MXFP4, ScaleLayout::Linear, false, ElementType::F32},
      {ScaleFormat::MXFP4, ScaleLayout::Blocked128x4, false, ElementType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Linear, true, ElementType::F16},
      {ScaleFormat::NVFP4, ScaleLayout::Linear, false, ElementType::BF16},
      {ScaleFormat::MXFP4, ScaleLayout::Linear, false, ElementType::BF16}};
  for (const QShape &s : qshapes)
    for (const QuantizeVariant &v : qvariants) {
      if (s.k % ref::blockSize(v.format) != 0 ||
          (small && s.rows * s.k * s.l > largeElements))
        continue;
      checkQuantize(stats, rng, v, s.rows, s.k, s.l);
      if (v.input == ElementType::F32)
        checkRequantize(stats, rng, v, s.rows, s.k, s.l);
    }

  checkE2M1Encoder(stats, rng);
  checkE4M3ScaleEncoder(stats);

  // Dequantize, every variant.
  for (const QShape &s : qshapes)
    for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
      for (bool withGs : {false, true}) {
        if (withGs && f == ScaleFormat::MXFP4)
          continue;
        if (s.k % ref::blockSize(f) != 0 ||
            (small && s.rows * s.k * s.l > largeElements))
          continue;
        for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
          for (ElementType t :
               {ElementType::F16, ElementType::BF16, ElementType::F32})
            checkDequantize(stats, rng, f, lay, withGs, t, s.rows, s.k, s.l);
      }
  checkDequantizeGlobalScales(stats, rng);

  // convert_scale_layout: sfa and sfb shapes of the test shapes.
  struct CShape {
    int64_t rows, cols, l;
  };
  for (CShape s : {CShape{130, 6, 2}, CShape{1, 448, 3}, CShape{257, 3, 1},
                   CShape{128, 4, 1}, CShape{2432, 288, 2}, CShape{1, 2, 1}})
    for (bool e8m0 : {false, true})
      if (!small || s.rows * s.cols * s.l <= largeElements / 16)
        checkConvert(stats, rng, e8m0, s.rows, s.cols, s.l);

  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("%s\n", checkSummary("nvfp4-cpu-check", stats.cases, stats.failed,
                                   seed, seconds)
                          .c_str());
  return stats.failed ? 1 : 0;
}
