//===- RunnerOptionsTest.cpp - nvfp4-run: command line and chips
//------------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/Chip.h"
#include "nvfp4-run/Options.h"

#include <gtest/gtest.h>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

std::optional<Options> parseArgs(std::vector<const char *> args,
                                 std::string &error) {
  args.insert(args.begin(), "nvfp4-run");
  return parseOptions(static_cast<int>(args.size()), args.data(), error);
}

std::string optionsError(std::vector<const char *> args) {
  std::string error;
  return parseArgs(std::move(args), error) ? "" : error;
}

TEST(RunnerOptions, Defaults) {
  std::string error;
  std::optional<Options> o = parseArgs({"a.json"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->manifests, std::vector<std::string>{"a.json"});
  EXPECT_EQ(o->seed, 1u);
  EXPECT_EQ(o->dist, ref::Distribution::Full);
  EXPECT_FALSE(o->alpha);
  EXPECT_FALSE(o->bench);
  EXPECT_EQ(o->reps, 200);
  EXPECT_EQ(o->flush, FlushMode::Clean);
  EXPECT_EQ(o->timeoutSeconds, 300);
  EXPECT_FALSE(o->json);
  EXPECT_FALSE(o->checkOnly);
  EXPECT_DOUBLE_EQ(o->rtol, 1e-3);
  EXPECT_DOUBLE_EQ(o->atol, 1e-3);
  EXPECT_FALSE(o->m || o->k || o->l);
}

TEST(RunnerOptions, ReadsEveryOption) {
  std::string error;
  std::optional<Options> o = parseArgs(
      {"a.json",   "--seed",     "7",      "--dist=weak", "--alpha", "-0.5",
       "--bench",  "--reps=150", "--json", "b.json",      "--rtol",  "2e-3",
       "--atol=0", "--m",        "7168",   "--k=16384",   "--l",     "2",
       "--check",  "--flush",    "dirty",  "--timeout=20"},
      error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->manifests, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_EQ(o->seed, 7u);
  EXPECT_EQ(o->dist, ref::Distribution::Weak);
  EXPECT_EQ(o->alpha, -0.5f);
  EXPECT_TRUE(o->bench);
  EXPECT_EQ(o->reps, 150);
  EXPECT_EQ(o->flush, FlushMode::Dirty);
  EXPECT_EQ(o->timeoutSeconds, 20);
  EXPECT_TRUE(o->json);
  EXPECT_TRUE(o->checkOnly);
  EXPECT_DOUBLE_EQ(o->rtol, 2e-3);
  EXPECT_DOUBLE_EQ(o->atol, 0);
  EXPECT_EQ(o->m, 7168);
  EXPECT_EQ(o->k, 16384);
  EXPECT_EQ(o->l, 2);

  o = parseArgs({"--help"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_TRUE(o->help);
  o = parseArgs({"-h"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_TRUE(o->help);
  // A later value replaces an earlier one.
  o = parseArgs({"a.json", "--seed", "1", "--seed=2"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->seed, 2u);
}

TEST(RunnerOptions, ReadsEveryDistribution) {
  // Each spelling selects its distribution, whose name the reports print.
  for (auto [text, dist] : {std::pair{"full", ref::Distribution::Full},
                            {"weak", ref::Distribution::Weak},
                            {"extreme", ref::Distribution::Extreme},
                            {"overflow", ref::Distribution::Overflow},
                            {"cancel", ref::Distribution::Cancel}}) {
    std::string error;
    std::optional<Options> o = parseArgs({"a.json", "--dist", text}, error);
    ASSERT_TRUE(o) << text << ": " << error;
    EXPECT_EQ(o->dist, dist) << text;
    EXPECT_STREQ(ref::name(o->dist), text);
  }
  EXPECT_EQ(optionsError({"a.json", "--dist=Overflow"}),
            "option --dist needs full or weak or extreme or overflow or "
            "cancel, got 'Overflow'");
  EXPECT_EQ(optionsError({"a.json", "--dist"}), "option --dist needs a value");
}

TEST(RunnerOptions, HelpShowsEveryOptionWithItsDefault) {
  std::string help = usage();
  EXPECT_NE(help.find("Usage: nvfp4-run [OPTIONS] [MANIFEST...]"),
            std::string::npos)
      << help;
  for (const char *line :
       {"--seed N=1", "--dist full|weak|extreme|overflow|cancel=full",
        "--alpha X", "--rtol X=0.001", "--atol X=0.001", "--m N", "--k N",
        "--l N", "--bench", "--reps N=200", "--flush clean|dirty=clean",
        "--timeout S=300", "--json", "--check", "--chain N=1", "--pdl"})
    EXPECT_NE(help.find(line), std::string::npos) << line << "\n" << help;
}

TEST(RunnerOptions, RejectsMalformedCommandLines) {
  EXPECT_EQ(optionsError({}), "no manifest given (see --help)");
  EXPECT_EQ(optionsError({"a.json", "--fast"}),
            "unknown option --fast (see --help)");
  EXPECT_EQ(optionsError({"a.json", "--seed"}), "option --seed needs a value");
  EXPECT_EQ(optionsError({"a.json", "--seed", "-1"}),
            "option --seed needs a non-negative integer, got '-1'");
  EXPECT_EQ(optionsError({"a.json", "--seed", "12x"}),
            "option --seed needs a non-negative integer, got '12x'");
  EXPECT_EQ(optionsError({"a.json", "--dist", "normal"}),
            "option --dist needs full or weak or extreme or overflow or "
            "cancel, got 'normal'");
  EXPECT_EQ(optionsError({"a.json", "--alpha", "nan"}),
            "option --alpha needs a finite number, got 'nan'");
  EXPECT_EQ(optionsError({"a.json", "--alpha", "1e39"}),
            "option --alpha needs a finite number, got '1e39'");
  EXPECT_EQ(optionsError({"a.json", "--timeout", "0"}),
            "option --timeout needs an integer in [1, 86400], got '0'");
  EXPECT_EQ(optionsError({"a.json", "--flush", "none"}),
            "option --flush needs clean or dirty, got 'none'");
  EXPECT_EQ(optionsError({"a.json", "--rtol", "-1"}),
            "option --rtol needs a non-negative number, got '-1'");
  EXPECT_EQ(optionsError({"a.json", "--reps", "0"}),
            "option --reps needs an integer in [1, 100000], got '0'");
  EXPECT_EQ(optionsError({"a.json", "--m", "0"}),
            "option --m needs a positive integer, got '0'");
  EXPECT_EQ(optionsError({"a.json", "--bench=yes"}),
            "option --bench takes no value");
  EXPECT_EQ(optionsError({"a.json", "--json=1"}),
            "option --json takes no value");
  EXPECT_EQ(optionsError({"a.json", "--fast=3"}),
            "unknown option --fast (see --help)");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--reps", "99"}),
            "--bench needs --reps of at least 100, got 99");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--reps", "100"}), "");
  EXPECT_EQ(optionsError({"a.json", "--reps", "5"}), "");
}

TEST(RunnerOptions, ChainAndPdl) {
  std::string error;
  std::optional<Options> o = parseArgs({"a.json"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->chain, 1);
  EXPECT_FALSE(o->pdl);
  o = parseArgs({"a.json", "--bench", "--chain", "3", "--pdl"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->chain, 3);
  EXPECT_TRUE(o->pdl);
  o = parseArgs({"a.json", "--bench", "--chain=16"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->chain, 16);
  EXPECT_FALSE(o->pdl);
  EXPECT_EQ(optionsError({"a.json", "--chain", "2"}), "--chain needs --bench");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--chain", "0"}),
            "option --chain needs an integer in [1, 16], got '0'");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--chain", "17"}),
            "option --chain needs an integer in [1, 16], got '17'");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--pdl"}),
            "--pdl needs --chain of at least 2");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--chain", "1", "--pdl"}),
            "--pdl needs --chain of at least 2");
  EXPECT_EQ(optionsError({"a.json", "--pdl"}),
            "--pdl needs --chain of at least 2");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--chain", "2", "--pdl=1"}),
            "option --pdl takes no value");
}

TEST(RunnerOptions, TimeFailingNeedsBench) {
  std::string error;
  std::optional<Options> o = parseArgs({"a.json", "--bench"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_FALSE(o->timeFailing);
  o = parseArgs({"a.json", "--bench", "--time-failing"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_TRUE(o->timeFailing);
  EXPECT_EQ(optionsError({"a.json", "--time-failing"}),
            "--time-failing needs --bench");
  EXPECT_EQ(optionsError({"a.json", "--bench", "--time-failing=1"}),
            "option --time-failing takes no value");
}

TEST(RunnerOptions, PdlNeedsGriddepcontrolWait) {
  Manifest m = parseValid();
  m.ptx = kPtx;
  Options options;
  EXPECT_EQ(checkPdl(options, m), "");
  options.bench = true;
  options.chain = 2;
  EXPECT_EQ(checkPdl(options, m), "");
  options.pdl = true;
  EXPECT_EQ(checkPdl(options, m),
            "kernel nvfp4_gemv_kernel has no griddepcontrol.wait: under --pdl "
            "it could start before the launch it depends on; compile it with "
            "pdl=true");
  m.ptx = replaced(kPtx, "{\n\tret;", "{\n\tgriddepcontrol.wait;\n\tret;");
  EXPECT_EQ(checkPdl(options, m), "");
}

TEST(RunnerOptions, ShapeMustMatchTheManifest) {
  Manifest m = parseValid();
  Options o;
  EXPECT_EQ(checkShape(o, m), "");
  o.m = 7168;
  o.k = 16384;
  o.l = 1;
  EXPECT_EQ(checkShape(o, m), "");
  o.k = 7168;
  EXPECT_EQ(checkShape(o, m), "kernel was built for M=7168, K=16384, L=1; "
                              "got M=7168, K=7168, L=1");
  o = Options();
  o.l = 8;
  EXPECT_EQ(checkShape(o, m), "kernel was built for M=7168, K=16384, L=1; "
                              "got M=7168, K=16384, L=8");
  // N: named when given, or when the kernel takes several vectors.
  o = Options();
  o.n = 1;
  EXPECT_EQ(checkShape(o, m), "");
  o.n = 8;
  EXPECT_EQ(checkShape(o, m), "kernel was built for M=7168, K=16384, L=1, "
                              "N=1; got M=7168, K=16384, L=1, N=8");
  Manifest eight = parseValid(manifestText("n", "8"));
  o = Options();
  o.n = 8;
  EXPECT_EQ(checkShape(o, eight), "");
  o = Options();
  o.l = 2;
  EXPECT_EQ(checkShape(o, eight), "kernel was built for M=7168, K=16384, "
                                  "L=1, N=8; got M=7168, K=16384, L=2, N=8");
}

TEST(RunnerOptions, AlphaDefaultsToANonTrivialValue) {
  std::string error;
  Manifest withAlpha = parseValid();
  Manifest without = parseValid(
      manifestText("params", "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\"]"));
  Options o;
  EXPECT_EQ(chooseAlpha(o, withAlpha, error), 0.75f);
  EXPECT_EQ(chooseAlpha(o, without, error), 1.0f);
  o.alpha = 2.0f;
  EXPECT_EQ(chooseAlpha(o, withAlpha, error), 2.0f);
  EXPECT_FALSE(chooseAlpha(o, without, error));
  EXPECT_EQ(error, "kernel nvfp4_gemv_kernel takes no alpha parameter; "
                   "--alpha must be 1");
  o.alpha = 1.0f;
  EXPECT_EQ(chooseAlpha(o, without, error), 1.0f);
}

TEST(RunnerChip, ParsesTargets) {
  std::optional<Chip> c = parseChip("sm_100a");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->major, 10);
  EXPECT_EQ(c->minor, 0);
  EXPECT_EQ(c->suffix, 'a');
  c = parseChip("sm_89");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->major, 8);
  EXPECT_EQ(c->minor, 9);
  EXPECT_EQ(c->suffix, 0);
  c = parseChip("sm_103f");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->minor, 3);
  EXPECT_EQ(c->suffix, 'f');
  for (const char *bad : {"sm_", "sm_9", "sm_90b", "sm90a", "compute_90a",
                          "sm_a", "sm_090", "sm_12345"})
    EXPECT_FALSE(parseChip(bad)) << bad;
}

std::string runsOn(const char *chip, int major, int minor,
                   const char *device = "GPU") {
  return checkChipRunsOn(*parseChip(chip), major, minor, device);
}

TEST(RunnerChip, ArchSpecificNeedsTheExactChip) {
  EXPECT_EQ(runsOn("sm_100a", 9, 0, "NVIDIA H200"),
            "kernel built for sm_100a cannot run on NVIDIA H200 (sm_90)");
  EXPECT_EQ(runsOn("sm_90a", 9, 0), "");
  EXPECT_EQ(runsOn("sm_90a", 10, 0),
            "kernel built for sm_90a cannot run on GPU (sm_100)");
  EXPECT_EQ(runsOn("sm_100a", 10, 3),
            "kernel built for sm_100a cannot run on GPU (sm_103)");
}

TEST(RunnerChip, PlainTargetsRunForward) {
  EXPECT_EQ(runsOn("sm_90", 10, 0), "");
  EXPECT_EQ(runsOn("sm_90", 9, 0), "");
  EXPECT_EQ(runsOn("sm_80", 8, 9), "");
  EXPECT_EQ(runsOn("sm_100", 9, 0),
            "kernel built for sm_100 cannot run on GPU (sm_90)");
  EXPECT_EQ(runsOn("sm_89", 8, 6),
            "kernel built for sm_89 cannot run on GPU (sm_86)");
}

TEST(RunnerChip, FamilyTargetsRunWithinTheFamily) {
  EXPECT_EQ(runsOn("sm_100f", 10, 3), "");
  EXPECT_EQ(runsOn("sm_103f", 10, 0),
            "kernel built for sm_103f cannot run on GPU (sm_100)");
  EXPECT_EQ(runsOn("sm_100f", 12, 0),
            "kernel built for sm_100f cannot run on GPU (sm_120)");
}

} // namespace

namespace {
TEST(RunnerOptions, Sequence) {
  std::string error;
  std::optional<Options> o =
      parseArgs({"--sequence", "f.sequence.json", "--bench"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->sequence, "f.sequence.json");
  EXPECT_TRUE(o->manifests.empty());
  EXPECT_EQ(optionsError({"--sequence", "f.sequence.json", "a.json"}),
            "--sequence runs the manifests its file names: give no manifest "
            "besides");
  for (std::vector<const char *> extra :
       {std::vector<const char *>{"--bench", "--chain", "2"},
        {"--bench", "--chain", "2", "--pdl"},
        {"--m", "8"}}) {
    extra.insert(extra.begin(), {"--sequence", "f.sequence.json"});
    EXPECT_EQ(optionsError(extra), "--chain, --pdl, --m, --k, --l and --n do "
                                   "not apply to --sequence");
  }
}
} // namespace
