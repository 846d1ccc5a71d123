//===- Options.cpp - nvfp4-run command line -------------------------------===//

#include "nvfp4-run/Options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string_view>

using namespace nvfp4;
using namespace nvfp4::run;

const char *nvfp4::run::name(ref::Distribution dist) {
  return dist == ref::Distribution::Full ? "full" : "weak";
}

const char *nvfp4::run::name(FlushMode mode) {
  return mode == FlushMode::Clean ? "clean" : "dirty";
}

std::string nvfp4::run::usage() {
  return "usage: nvfp4-run MANIFEST... [options]\n"
         "\n"
         "Loads each manifest's PTX through the CUDA driver, checks the "
         "kernel (gemv or\n"
         "convert_scale_layout) against the float64 reference and, with "
         "--bench, times\n"
         "it with a cold L2.\n"
         "\n"
         "options:\n"
         "  --seed N         input seed (default 1)\n"
         "  --dist full|weak input distribution (default full)\n"
         "  --alpha X        global scale (default 0.75 when the kernel takes "
         "alpha)\n"
         "  --rtol X         relative tolerance (default 1e-3)\n"
         "  --atol X         absolute tolerance (default 1e-3)\n"
         "  --m N --k N --l N  expected shape; must match the manifest (a "
         "conversion's\n"
         "                   rows and L are --m and --l)\n"
         "  --bench          also time kernels that pass verification\n"
         "  --reps N         timed repetitions (default 200, at least 100 "
         "with --bench)\n"
         "  --flush clean|dirty  L2 state after the cold-L2 flush: clean "
         "(write, then\n"
         "                   read back; default) or dirty (write only)\n"
         "  --timeout S      stop a manifest's run after S seconds (default "
         "300)\n"
         "  --json           print one JSON object per manifest\n"
         "  --check          only validate manifests and PTX (no GPU needed)\n"
         "  --help           show this text\n";
}

namespace {

bool parseUnsigned(const std::string &text, uint64_t &out) {
  if (text.empty() || text[0] < '0' || text[0] > '9')
    return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0')
    return false;
  out = value;
  return true;
}

bool parseDouble(const std::string &text, double &out) {
  if (text.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (errno == ERANGE || *end != '\0' || !std::isfinite(value))
    return false;
  out = value;
  return true;
}

} // namespace

std::optional<Options> nvfp4::run::parseOptions(int argc,
                                                const char *const *argv,
                                                std::string &error) {
  Options options;
  bool repsGiven = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-' || arg == "-") {
      options.manifests.push_back(arg);
      continue;
    }
    std::string flag = arg, value;
    bool hasValue = false;
    size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      hasValue = true;
    }

    // Boolean flags.
    bool *toggle = flag == "--bench"                  ? &options.bench
                   : flag == "--json"                 ? &options.json
                   : flag == "--check"                ? &options.checkOnly
                   : flag == "--help" || flag == "-h" ? &options.help
                                                      : nullptr;
    if (toggle) {
      if (hasValue) {
        error = "option " + flag + " takes no value";
        return std::nullopt;
      }
      *toggle = true;
      continue;
    }

    static const char *const valued[] = {
        "--seed",  "--dist",    "--alpha", "--rtol", "--atol", "--reps",
        "--flush", "--timeout", "--m",     "--k",    "--l"};
    bool known = false;
    for (const char *candidate : valued)
      known |= flag == candidate;
    if (!known) {
      error = "unknown option " + flag + " (see --help)";
      return std::nullopt;
    }
    if (!hasValue) {
      if (i + 1 >= argc) {
        error = "option " + flag + " needs a value";
        return std::nullopt;
      }
      value = argv[++i];
    }
    auto bad = [&](const char *what) {
      error = "option " + flag + " needs " + what + ", got '" + value + "'";
      return std::nullopt;
    };

    uint64_t u = 0;
    double d = 0;
    if (flag == "--seed") {
      if (!parseUnsigned(value, u))
        return bad("a non-negative integer");
      options.seed = u;
    } else if (flag == "--dist") {
      if (value == "full")
        options.dist = ref::Distribution::Full;
      else if (value == "weak")
        options.dist = ref::Distribution::Weak;
      else
        return bad("full or weak");
    } else if (flag == "--flush") {
      if (value == "clean")
        options.flush = FlushMode::Clean;
      else if (value == "dirty")
        options.flush = FlushMode::Dirty;
      else
        return bad("clean or dirty");
    } else if (flag == "--alpha") {
      if (!parseDouble(value, d) || std::fabs(d) > 3.4e38)
        return bad("a finite number");
      options.alpha = static_cast<float>(d);
    } else if (flag == "--rtol" || flag == "--atol") {
      if (!parseDouble(value, d) || d < 0)
        return bad("a non-negative number");
      (flag == "--rtol" ? options.rtol : options.atol) = d;
    } else if (flag == "--timeout") {
      if (!parseUnsigned(value, u) || u < 1 || u > 86400)
        return bad("an integer in [1, 86400]");
      options.timeoutSeconds = static_cast<int>(u);
    } else if (flag == "--reps") {
      if (!parseUnsigned(value, u) || u < 1 || u > 100000)
        return bad("an integer in [1, 100000]");
      options.reps = static_cast<int>(u);
      repsGiven = true;
    } else {
      if (!parseUnsigned(value, u) || u < 1 || u > (uint64_t(1) << 31))
        return bad("a positive integer");
      (flag == "--m"   ? options.m
       : flag == "--k" ? options.k
                       : options.l) = static_cast<int64_t>(u);
    }
  }

  if (options.help)
    return options;
  if (options.manifests.empty()) {
    error = "no manifest given (see --help)";
    return std::nullopt;
  }
  if (options.bench && repsGiven && options.reps < kMinBenchReps) {
    error = "--bench needs --reps of at least " +
            std::to_string(kMinBenchReps) + ", got " +
            std::to_string(options.reps);
    return std::nullopt;
  }
  return options;
}

std::string nvfp4::run::checkShape(const Options &options,
                                   const Manifest &manifest) {
  if (manifest.isConversion()) {
    // A conversion has no K; --m and --l stand for its rows and batches.
    const ConversionProblem &c = manifest.conversion;
    if (options.k)
      return "--k does not apply to " + manifest.op +
             " (rows=" + std::to_string(c.rows) +
             ", cols=" + std::to_string(c.cols) + ", L=" + std::to_string(c.l) +
             ")";
    int64_t rows = options.m.value_or(c.rows), l = options.l.value_or(c.l);
    if (rows == c.rows && l == c.l)
      return "";
    return "kernel was built for rows=" + std::to_string(c.rows) +
           ", L=" + std::to_string(c.l) + "; got rows=" + std::to_string(rows) +
           ", L=" + std::to_string(l);
  }
  const ref::GemvProblem &p = manifest.problem;
  int64_t m = options.m.value_or(p.m), k = options.k.value_or(p.k),
          l = options.l.value_or(p.l);
  if (m == p.m && k == p.k && l == p.l)
    return "";
  return "kernel was built for M=" + std::to_string(p.m) +
         ", K=" + std::to_string(p.k) + ", L=" + std::to_string(p.l) +
         "; got M=" + std::to_string(m) + ", K=" + std::to_string(k) +
         ", L=" + std::to_string(l);
}

std::optional<float> nvfp4::run::chooseAlpha(const Options &options,
                                             const Manifest &manifest,
                                             std::string &error) {
  if (manifest.takesAlpha())
    return options.alpha.value_or(kDefaultAlpha);
  if (options.alpha && *options.alpha != 1.0f) {
    error = "kernel " + manifest.kernel +
            " takes no alpha parameter; --alpha must be 1";
    return std::nullopt;
  }
  return 1.0f;
}
