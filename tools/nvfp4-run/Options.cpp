//===- Options.cpp - nvfp4-run command line -------------------------------===//

#include "nvfp4-run/Options.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string_view>

using namespace nvfp4;
using namespace nvfp4::run;

const char *nvfp4::run::name(FlushMode mode) {
  return mode == FlushMode::Clean ? "clean" : "dirty";
}

namespace {

/// A value that does not parse; its message is the whole error line.
struct BadValue : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

/// The command line, each option defined once: its flag, what its value
/// must be (for --help and errors), its help text, its default and how its
/// text becomes the value.
class CommandLine {
public:
  explicit CommandLine(Options &o)
      : app("nvfp4-run: loads each manifest's PTX through the CUDA driver, "
            "checks the\nkernel (gemv, convert_scale_layout, quantize, "
            "quantize_global_scale or\ndequantize) against the float64 "
            "reference and, with --bench, times it with\na cold L2. "
            "Exit status: 0 when every manifest passed,\n1 otherwise, 2 for "
            "a malformed command line.\n",
            "nvfp4-run") {
    app.get_formatter()->column_width(28);
    app.allow_extras(); // unknown options get our own message
    app.add_option("MANIFEST", o.manifests, "kernel manifests (.json)")
        ->type_name("");

    unsignedOption("--seed", "N", "seed of the generated inputs", o.seed, 0,
                   UINT64_MAX, "a non-negative integer");
    std::vector<std::pair<std::string, ref::Distribution>> dists;
    for (ref::Distribution d : ref::kDistributions)
      dists.emplace_back(ref::name(d), d);
    choice("--dist",
           "input distribution (generateGemvInputs; docs/numerics.md "
           "section 9)",
           o.dist, dists);
    value("--alpha", "X",
          "global scale; default 0.75 when the kernel takes alpha, else 1",
          "a finite number", "", [&](const std::string &text) {
            double d = 0;
            if (!parseDouble(text, d) || std::fabs(d) > 3.4e38)
              return false;
            o.alpha = static_cast<float>(d);
            return true;
          });
    tolerance("--rtol", "relative tolerance: |out - ref| <= atol + rtol |ref|",
              o.rtol);
    tolerance("--atol", "absolute tolerance", o.atol);
    for (auto [name, target, help] :
         {std::tuple{"--m", &o.m,
                     "expected shape; must match the manifest (the rows "
                     "of a conversion or quantization are --m)"},
          {"--k", &o.k, "(see --m)"},
          {"--l", &o.l, "(see --m)"},
          {"--n", &o.n, "(see --m; a gemv's right-hand vectors)"}})
      value(name, "N", help, "a positive integer", "",
            [target = target](const std::string &t) {
              uint64_t u = 0;
              if (!parseUnsigned(t, u) || u < 1 || u > (uint64_t(1) << 31))
                return false;
              *target = static_cast<int64_t>(u);
              return true;
            });
    flag("--bench", "also time kernels that pass verification", o.bench);
    unsignedOption("--reps", "N",
                   "timed repetitions (at least 100 with --bench)", o.reps, 1,
                   100000, "an integer in [1, 100000]");
    choice("--flush",
           "L2 state after the cold-L2 flush: clean (write, then read back) "
           "or dirty (write only)",
           o.flush, {{"clean", FlushMode::Clean}, {"dirty", FlushMode::Dirty}});
    unsignedOption("--chain", "N",
                   "launches per timed interval, each on its own copy of the "
                   "inputs (needs --bench)",
                   o.chain, 1, kMaxChain,
                   "an integer in [1, " + std::to_string(kMaxChain) + "]");
    flag("--pdl",
         "launch 2..N of a chain with programmatic dependent launch (needs "
         "--chain of at least 2 and kernels compiled with pdl=true)",
         o.pdl);
    flag("--time-failing",
         "with --bench, time kernels that fail verification as well "
         "(deliberately altered ones, such as probes); they still fail",
         o.timeFailing);
    unsignedOption("--timeout", "S", "stop a manifest's run after S seconds",
                   o.timeoutSeconds, 1, 86400, "an integer in [1, 86400]");
    flag("--json", "print one JSON object per manifest", o.json);
    flag("--check", "only validate manifests and PTX (no GPU needed)",
         o.checkOnly);
    app.add_option("--sequence", o.sequence,
                   "run the launches of one host function in order on shared "
                   "buffers (a <function>.sequence.json file) instead of "
                   "manifests")
        ->type_name("FILE")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }

  CLI::App app;

private:
  /// An option whose text `parse` turns into its value, or refuses.
  CLI::Option *value(const std::string &name, const std::string &meta,
                     const std::string &help, const std::string &needs,
                     const std::string &defaultText,
                     std::function<bool(const std::string &)> parse) {
    CLI::Option *opt = app.add_option_function<std::string>(
        name,
        [=](const std::string &text) {
          if (!parse(text))
            throw BadValue("option " + name + " needs " + needs + ", got '" +
                           text + "'");
        },
        help);
    opt->type_name(meta)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    if (!defaultText.empty())
      opt->default_str(defaultText)->capture_default_str();
    return opt;
  }

  template <typename T>
  CLI::Option *unsignedOption(const std::string &name, const std::string &meta,
                              const std::string &help, T &target, uint64_t min,
                              uint64_t max, const std::string &needs) {
    return value(name, meta, help, needs, std::to_string(target),
                 [&target, min, max](const std::string &text) {
                   uint64_t u = 0;
                   if (!parseUnsigned(text, u) || u < min || u > max)
                     return false;
                   target = static_cast<T>(u);
                   return true;
                 });
  }

  template <typename T>
  void choice(const std::string &name, const std::string &help, T &target,
              std::vector<std::pair<std::string, T>> names) {
    std::string meta, needs, current;
    for (size_t i = 0; i < names.size(); ++i) {
      meta += (i ? "|" : "") + names[i].first;
      needs += (i ? " or " : "") + names[i].first;
      if (names[i].second == target)
        current = names[i].first;
    }
    value(name, meta, help, needs, current,
          [&target, names](const std::string &text) {
            for (auto &[spelling, v] : names)
              if (text == spelling) {
                target = v;
                return true;
              }
            return false;
          });
  }

  void tolerance(const std::string &name, const std::string &help,
                 double &target) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", target);
    value(name, "X", help, "a non-negative number", text,
          [&target](const std::string &t) {
            double d = 0;
            if (!parseDouble(t, d) || d < 0)
              return false;
            target = d;
            return true;
          });
  }

  void flag(const std::string &name, const std::string &help, bool &target) {
    app.add_flag(name, target, help)->disable_flag_override();
    flags.push_back(name);
  }

public:
  std::vector<std::string> flags;
};

} // namespace

std::optional<Options> nvfp4::run::parseOptions(int argc,
                                                const char *const *argv,
                                                std::string &error) {
  Options options;
  CommandLine cli(options);
  // CLI11 would read "--bench=yes" as a value for the flag.
  for (int i = 1; i < argc; ++i)
    for (const std::string &flag : cli.flags)
      if (std::string_view(argv[i]).rfind(flag + "=", 0) == 0) {
        error = "option " + flag + " takes no value";
        return std::nullopt;
      }
  try {
    cli.app.parse(argc, argv);
  } catch (const CLI::CallForHelp &) {
    options.help = true;
    return options;
  } catch (const BadValue &bad) {
    error = bad.what();
    return std::nullopt;
  } catch (const CLI::ArgumentMismatch &mismatch) {
    // "--seed: 1 required N missing": an option left without its value.
    std::string what = mismatch.what();
    error = "option " + what.substr(0, what.find(':')) + " needs a value";
    return std::nullopt;
  } catch (const CLI::ParseError &e) {
    error = e.what();
    return std::nullopt;
  }
  for (const std::string &extra : cli.app.remaining()) {
    std::string flag = extra.substr(0, extra.find('='));
    error = "unknown option " + flag + " (see --help)";
    return std::nullopt;
  }

  if (!options.sequence.empty() && !options.manifests.empty()) {
    error = "--sequence runs the manifests its file names: give no manifest "
            "besides";
    return std::nullopt;
  }
  if (options.manifests.empty() && options.sequence.empty()) {
    error = "no manifest given (see --help)";
    return std::nullopt;
  }
  if (!options.sequence.empty() &&
      (cli.app.count("--chain") || options.pdl || options.m || options.k ||
       options.l || options.n)) {
    error = "--chain, --pdl, --m, --k, --l and --n do not apply to "
            "--sequence";
    return std::nullopt;
  }
  if (options.bench && cli.app.count("--reps") &&
      options.reps < kMinBenchReps) {
    error = "--bench needs --reps of at least " +
            std::to_string(kMinBenchReps) + ", got " +
            std::to_string(options.reps);
    return std::nullopt;
  }
  if (cli.app.count("--chain") && !options.bench) {
    error = "--chain needs --bench";
    return std::nullopt;
  }
  if (options.timeFailing && !options.bench) {
    error = "--time-failing needs --bench";
    return std::nullopt;
  }
  if (options.pdl && options.chain < 2) {
    error = "--pdl needs --chain of at least 2";
    return std::nullopt;
  }
  return options;
}

std::string nvfp4::run::checkPdl(const Options &options,
                                 const Manifest &manifest) {
  if (!options.pdl ||
      manifest.ptx.find("griddepcontrol.wait") != std::string::npos)
    return "";
  return "kernel " + manifest.kernel +
         " has no griddepcontrol.wait: under --pdl it could start before the "
         "launch it depends on; compile it with pdl=true";
}

std::string nvfp4::run::usage() {
  Options defaults;
  CommandLine cli(defaults);
  return cli.app.help();
}

std::string nvfp4::run::checkShape(const Options &options,
                                   const Manifest &manifest) {
  if (manifest.isConversion()) {
    // A conversion has no K; --m and --l stand for its rows and batches.
    const ConversionProblem &c = manifest.conversion;
    if (options.k || options.n)
      return std::string(options.k ? "--k" : "--n") + " does not apply to " +
             manifest.op + " (rows=" + std::to_string(c.rows) +
             ", cols=" + std::to_string(c.cols) + ", L=" + std::to_string(c.l) +
             ")";
    int64_t rows = options.m.value_or(c.rows), l = options.l.value_or(c.l);
    if (rows == c.rows && l == c.l)
      return "";
    return "kernel was built for rows=" + std::to_string(c.rows) +
           ", L=" + std::to_string(c.l) + "; got rows=" + std::to_string(rows) +
           ", L=" + std::to_string(l);
  }
  if (manifest.isQuantization()) {
    // --m stands for the rows; there are no vectors.
    const QuantizeProblem &q = manifest.quantization;
    auto shape = [](int64_t rows, int64_t k, int64_t l) {
      return "rows=" + std::to_string(rows) + ", K=" + std::to_string(k) +
             ", L=" + std::to_string(l);
    };
    if (options.n)
      return "--n does not apply to " + manifest.op + " (" +
             shape(q.rows, q.k, q.l) + ")";
    int64_t rows = options.m.value_or(q.rows), k = options.k.value_or(q.k),
            l = options.l.value_or(q.l);
    if (rows == q.rows && k == q.k && l == q.l)
      return "";
    return "kernel was built for " + shape(q.rows, q.k, q.l) + "; got " +
           shape(rows, k, l);
  }
  const ref::GemvProblem &p = manifest.problem;
  int64_t m = options.m.value_or(p.m), k = options.k.value_or(p.k),
          l = options.l.value_or(p.l), n = options.n.value_or(p.n);
  if (m == p.m && k == p.k && l == p.l && n == p.n)
    return "";
  // N is named where it can differ: a kernel of several vectors, or --n.
  bool showN = p.n != 1 || options.n;
  auto shape = [&](int64_t m, int64_t k, int64_t l, int64_t n) {
    return "M=" + std::to_string(m) + ", K=" + std::to_string(k) +
           ", L=" + std::to_string(l) +
           (showN ? ", N=" + std::to_string(n) : std::string());
  };
  return "kernel was built for " + shape(p.m, p.k, p.l, p.n) + "; got " +
         shape(m, k, l, n);
}

std::string nvfp4::run::checkInputs(const Options &options,
                                    const Manifest &manifest) {
  // The quantizers' inputs have one distribution of their own
  // (ref::generateQuantizeInputs, ref::generateDequantizeInputs).
  if (manifest.isQuantization() && options.dist != ref::Distribution::Full)
    return std::string("--dist ") + ref::name(options.dist) +
           " does not apply to " + manifest.op +
           ", whose inputs have one distribution (use --dist " +
           ref::name(ref::Distribution::Full) + ", the default)";
  const ref::GemvProblem &p = manifest.problem;
  // Weak, Overflow and Cancel arrange e2m1 codes of b; Full and Extreme
  // draw 16-bit values too.
  if (manifest.kind != Op::Gemv || p.vector == ref::VectorElement::E2M1 ||
      options.dist == ref::Distribution::Full ||
      options.dist == ref::Distribution::Extreme)
    return "";
  return std::string("--dist ") + ref::name(options.dist) +
         " needs e2m1 vectors; kernel " + manifest.kernel + " takes " +
         ref::name(p.vector) + " vectors (use --dist " +
         ref::name(ref::Distribution::Full) + " or " +
         ref::name(ref::Distribution::Extreme) + ")";
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
