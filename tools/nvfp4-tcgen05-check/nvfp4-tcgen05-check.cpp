//===- nvfp4-tcgen05-check.cpp - the tcgen05 kernel against the PTX ISA ---===//
//
// Checks a generated tcgen05 GEMV kernel (its .ptx) with the independent
// model of IsaModel.h: the descriptor constants, MMA kind, block size,
// tcgen05.cp and tcgen05.ld shapes are parsed from the PTX and interpreted
// as the PTX ISA defines them, on shared memory filled the way the kernel
// fills it (the staging formulas of nvfp4/Support/Tcgen05Plan.h, which the
// lowering instantiates as IR; tensor copies through TmaModel.h with the
// maps of the kernel's manifest, read as nvfp4-run reads them), from the
// same seeded input bytes as the float64 reference. Every checked row must
// equal the reference exactly.
//
// --mutate breaks one encoder, either in the PTX text (a descriptor constant
// edited) or in the staging, to show that the model notices.
//
//===----------------------------------------------------------------------===//

#include "IsaModel.h"
#include "TmaModel.h"

#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Manifest.h"

#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/Tcgen05Plan.h"
#include "nvfp4/Support/Tcgen05Problem.h"

#include "nvfp4/Support/CheckToolCommandLine.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace nvfp4;
namespace plan = nvfp4::tcgen05::plan;

namespace {

const char *kDescription =
    "Checks the PTX of a tcgen05 GEMV kernel (written by nvfp4-opt "
    "--nvfp4-to-ptx=\"strategy=tcgen05 ... export-dir=DIR\") against an "
    "independent model of the PTX ISA: the instruction and shared-memory "
    "descriptors found in the PTX are decoded by the ISA's tables, operands "
    "are read through the ISA's canonical layouts, scales through the "
    "tensor-memory layout of block scaling. Shared memory is filled as the "
    "kernel's staging fills it, from seeded random inputs; the result must "
    "equal the float64 reference exactly. Exit status 0 when it does, 1 on a "
    "mismatch or a value the ISA does not allow, 2 on bad usage.";

/// Encoder breakages --mutate can apply: in the PTX text, or in the staging.
const std::map<std::string, const char *> kMutations = {
    {"swap-lbo-sbo", "A/B descriptors with the LBO and SBO fields swapped"},
    {"swizzle-none", "A/B descriptors without swizzling"},
    {"swizzle-64b", "A/B descriptors with the 64-byte swizzle"},
    {"swizzle-128b", "A/B descriptors with the 128-byte swizzle"},
    {"sbo-half", "A/B descriptors with half the SBO"},
    {"scale-type", "instruction descriptors with bit 23 flipped"},
    {"scale-id", "instruction descriptors with the scale IDs moved"},
    {"copy-sbo", "the tcgen05.cp descriptor with twice the SBO"},
    {"expect-tx", "mbarrier.arrive.expect_tx counting 16 bytes more than "
                  "the tensor copies write"},
    {"nibble-order-a",
     "staging that swaps the two e2m1 values of each byte of A"},
    {"nibble-order-both", "the same for A and B: the dot products do not "
                          "change, so this one must pass"},
    {"unswizzled-staging", "staging that leaves out the 32-byte swizzle (a "
                           "tensor map of a without its swizzle)"},
    {"scale-rows", "staging that puts row r's scales at row r + 1"},
};

bool isPtxMutation(const std::string &m) {
  return m != "nibble-order-a" && m != "nibble-order-both" &&
         m != "unswizzled-staging" && m != "scale-rows";
}

uint64_t setField(uint64_t word, unsigned lo, unsigned width, uint64_t v) {
  uint64_t mask = ((uint64_t(1) << width) - 1) << lo;
  return (word & ~mask) | ((v << lo) & mask);
}
uint64_t field(uint64_t word, unsigned lo, unsigned width) {
  return (word >> lo) & ((uint64_t(1) << width) - 1);
}

/// The PTX with the constants of one mutation edited.
std::string mutatePtx(const std::string &ptx, const isa::PtxFacts &facts,
                      const std::string &mutation) {
  std::string out = ptx;
  auto edit = [&](const isa::ConstantSite &site, uint64_t value) {
    out = isa::replaceConstant(out, site, value);
  };
  std::map<size_t, bool> done; // one edit per PTX line
  for (size_t i = 0; i < facts.mmas.size(); ++i) {
    const isa::MmaSite &s = facts.mmas[i];
    for (auto [word, site] :
         {std::pair{s.aDesc, s.aSite}, std::pair{s.bDesc, s.bSite}}) {
      if (done[site.line])
        continue;
      uint64_t w = word;
      if (mutation == "swap-lbo-sbo")
        w = setField(setField(w, 16, 14, field(word, 32, 14)), 32, 14,
                     field(word, 16, 14));
      else if (mutation == "swizzle-none")
        w = setField(w, 61, 3, 0);
      else if (mutation == "swizzle-64b")
        w = setField(w, 61, 3, 4);
      else if (mutation == "swizzle-128b")
        w = setField(w, 61, 3, 2);
      else if (mutation == "sbo-half")
        w = setField(w, 32, 14, field(word, 32, 14) / 2);
      else
        continue;
      done[site.line] = true;
      edit(site, w);
    }
    if (!done[s.idescSite.line] &&
        (mutation == "scale-type" || mutation == "scale-id")) {
      uint64_t w = s.idesc;
      if (mutation == "scale-type")
        w ^= uint64_t(1) << 23;
      else // IDs 0 <-> 2 (block32) or 0 -> 2 (block16)
        w = setField(setField(w, 4, 2, field(w, 4, 2) ^ 2), 29, 2,
                     field(w, 29, 2) ^ 2);
      done[s.idescSite.line] = true;
      edit(s.idescSite, w);
    }
  }
  if (mutation == "expect-tx")
    for (size_t i = 0; i < facts.expectTxSites.size(); ++i)
      if (!done[facts.expectTxSites[i].line]) {
        done[facts.expectTxSites[i].line] = true;
        edit(facts.expectTxSites[i], facts.expectTx[i] + 16);
      }
  if (mutation == "copy-sbo")
    for (size_t i = 0; i < facts.copySites.size(); ++i)
      if (!done[facts.copySites[i].line]) {
        done[facts.copySites[i].line] = true;
        edit(facts.copySites[i],
             setField(facts.copyDescs[i], 32, 14,
                      2 * field(facts.copyDescs[i], 32, 14)));
      }
  return out;
}

/// The CTA's data movement, as the kernel's staging does it (plan
/// templates; tensor copies through the manifest's maps), and the
/// tensor-core work through the ISA model.
class Cta {
public:
  Cta(const plan::GemvPlan &p, const isa::PtxFacts &facts,
      const ref::GemvInputs &in, uint32_t smemBase, std::string mutation,
      const run::TensorMapEncode *aMap, const run::TensorMapEncode *sfaMap)
      : p(p), facts(facts), in(in), mutation(std::move(mutation)), aBytes(in.a),
        bBytes(in.b) {
    smem.base = smemBase;
    if (aMap) {
      this->aMap = *aMap;
      if (this->mutation == "unswizzled-staging")
        this->aMap->swizzle = run::cuda::CU_TENSOR_MAP_SWIZZLE_NONE;
    }
    if (sfaMap)
      this->sfaMap = *sfaMap;
    // A and B are copied byte for byte: swapping the nibbles of the
    // sources swaps them in shared memory.
    auto swap = [](std::vector<uint8_t> &bytes) {
      for (uint8_t &v : bytes)
        v = uint8_t(v << 4 | v >> 4);
    };
    if (this->mutation == "nibble-order-a" ||
        this->mutation == "nibble-order-both")
      swap(aBytes);
    if (this->mutation == "nibble-order-both")
      swap(bBytes);
  }

  /// D of row tile `rowTile` of batch `batch`: rows[n * 128 + t] is row t
  /// of vector n; false with `error` set when the model rejects something.
  bool run(int64_t batch, int64_t rowTile, std::vector<double> &rows,
           std::string &error) {
    smem.bytes.assign(size_t(p.sharedBytes()), 0);
    tmem = isa::TensorMemory();
    acc = isa::Accumulator();
    int64_t perStage = p.mmasPerStage();
    if (facts.mmas.size() % size_t(perStage))
      return fail(error, "the PTX has " + std::to_string(facts.mmas.size()) +
                             " tcgen05.mma, not a multiple of the " +
                             std::to_string(perStage) + " of a stage");
    for (int64_t stage = 0; stage < p.kStages(); ++stage) {
      int64_t slot = stage % p.stages;
      if (!stageCopies(stage, slot, batch, rowTile, error))
        return false;
      uint32_t slotAddr = smem.base + uint32_t(slot * p.slotBytes());
      auto desc = [&](uint64_t constant, int64_t offset) {
        // The kernel ORs (address >> 4) & 0x3FFF into the constant.
        return constant | ((uint64_t(slotAddr + offset) >> 4) & 0x3FFF);
      };
      // Every tcgen05.cp of the PTX uses the same descriptor constant.
      uint64_t copyDesc = facts.copyDescs.front();
      if (!isa::copyScales(facts, desc(copyDesc, p.sfaOffset()),
                           uint32_t(p.sfaColumn(slot)), smem, tmem, error) ||
          !isa::copyScales(facts, desc(copyDesc, p.sfbOffset()),
                           uint32_t(p.sfbColumn(slot)), smem, tmem, error))
        return false;
      for (int64_t step = 0; step < perStage; ++step) {
        // Every repetition of the MMA sequence in the PTX (the loop body,
        // a peeled or unrolled copy) must carry the same constants.
        const isa::MmaSite &site = facts.mmas[size_t(step)];
        for (size_t i = size_t(step); i < facts.mmas.size();
             i += size_t(perStage)) {
          const isa::MmaSite &other = facts.mmas[i];
          if (other.idesc != site.idesc || other.aDesc != site.aDesc ||
              other.bDesc != site.bDesc)
            return fail(error, "copies of the MMA sequence in the PTX "
                               "disagree on a descriptor constant");
        }
        uint32_t scaleColumn = uint32_t(p.scaleStepColumn(step));
        if (!isa::blockScaledMma(
                facts, site.idesc, desc(site.aDesc, p.aStepOffset(step)),
                desc(site.bDesc, p.bStepOffset(step)),
                uint32_t(p.sfaColumn(slot)) + scaleColumn,
                uint32_t(p.sfbColumn(slot)) + scaleColumn,
                stage != 0 || step != 0, smem, tmem, acc, error))
          return false;
      }
    }
    // The epilogue loads column n of D for vector n.
    if (acc.n < unsigned(p.vectors))
      return fail(error, "the MMA's N = " + std::to_string(acc.n) +
                             " has fewer columns than the " +
                             std::to_string(p.vectors) + " vectors");
    rows.assign(size_t(p.vectors * plan::kTileRows), 0.0);
    for (int64_t n = 0; n < p.vectors; ++n)
      for (unsigned t = 0; t < plan::kThreads; ++t)
        if (!isa::loadResult(facts, acc, t / 32, t % 32,
                             unsigned(p.dColumn() + n),
                             rows[size_t(n * plan::kTileRows + t)], error))
          return false;
    // The padding rows of B (N = vectors..) must give exactly zero: no
    // garbage reaches D, even in columns that are not stored.
    for (unsigned t = 0; t < plan::kTileRows; ++t)
      for (unsigned n = unsigned(p.vectors); n < acc.n; ++n)
        if (acc.d[t * acc.n + n] != 0.0)
          return fail(error, "D column " + std::to_string(n) + " of row " +
                                 std::to_string(t) + " is not zero");
    return true;
  }

private:
  const plan::GemvPlan &p;
  const isa::PtxFacts &facts;
  const ref::GemvInputs &in;
  std::string mutation;
  std::vector<uint8_t> aBytes, bBytes; // in.a and in.b, mutated
  std::optional<run::TensorMapEncode> aMap, sfaMap;
  isa::SharedMemory smem;
  isa::TensorMemory tmem;
  isa::Accumulator acc;

  static bool fail(std::string &error, const std::string &message) {
    error = message;
    return false;
  }

  /// cp.async with zero-fill.
  void cpAsync(const std::vector<uint8_t> &src, const plan::Copy<int64_t> &c,
               int64_t bytes, bool operand) {
    int64_t dst = c.dst;
    if (operand && mutation == "unswizzled-staging")
      dst ^= ((dst >> 7) & 1) << 4; // the swizzle undone
    for (int64_t i = 0; i < bytes; ++i)
      smem.bytes[size_t(dst + i)] = i < c.srcBytes ? src[size_t(c.src + i)] : 0;
  }
  void byteCopy(const std::vector<uint8_t> &src,
                const plan::ByteCopy<int64_t> &c) {
    smem.bytes[size_t(c.dst)] = c.valid ? src[size_t(c.src)] : 0;
  }

  /// One tensor copy at the plan's coordinates through the model; adds its
  /// transaction bytes to `tx`.
  bool tensorCopy(const run::TensorMapEncode &map,
                  const std::vector<uint8_t> &tensor,
                  const plan::GemvPlan::TensorCopy<int64_t> &c, uint64_t &tx,
                  std::string &error) {
    uint64_t bytes = 0;
    if (!isa::tensorCopy(map, tensor,
                         std::vector<int64_t>(c.coords, c.coords + map.rank),
                         smem.base + uint32_t(c.dst), smem, bytes, error))
      return false;
    tx += bytes;
    return true;
  }

  /// Thread `t`'s per-thread copy of its row's scales, placed at `row`'s.
  void stageSfa(int64_t t, int64_t row, int64_t stage, int64_t slot,
                int64_t batch, int64_t rowTile) {
    switch (p.sfaStaging()) {
    case plan::GemvPlan::SfaStaging::LinearWords: {
      plan::Copy<int64_t> c =
          p.sfaLinearCopy<int64_t>(t, stage, slot, batch, rowTile);
      c.dst = p.sfaWordOffset<int64_t>(row, slot);
      cpAsync(in.sfa, c, 4, /*operand=*/false);
      break;
    }
    case plan::GemvPlan::SfaStaging::LinearBytes:
      for (int64_t e = 0; e < 4; ++e) {
        plan::ByteCopy<int64_t> c =
            p.sfaLinearByte<int64_t>(t, e, stage, slot, batch, rowTile);
        c.dst = p.sfaWordOffset<int64_t>(row, slot) + e;
        byteCopy(in.sfa, c);
      }
      break;
    case plan::GemvPlan::SfaStaging::BlockedWords: {
      plan::Copy<int64_t> c =
          p.sfaBlockedWord<int64_t>(t, stage, slot, batch, rowTile);
      c.dst = p.sfaWordOffset<int64_t>(row, slot);
      cpAsync(in.sfa, c, 4, /*operand=*/false);
      break;
    }
    }
  }

  bool stageCopies(int64_t stage, int64_t slot, int64_t batch, int64_t rowTile,
                   std::string &error) {
    // Thread 0's tensor copies, which the slot's full barrier counts.
    uint64_t tx = 0;
    for (int64_t box = 0; aMap && box < p.aBoxesPerStage(); ++box)
      if (!tensorCopy(*aMap, aBytes,
                      p.aTensorCopy<int64_t>(box, stage, slot, batch, rowTile),
                      tx, error))
        return false;
    if (sfaMap) {
      if (!tensorCopy(*sfaMap, in.sfa,
                      p.sfaTensorCopy<int64_t>(stage, slot, batch, rowTile), tx,
                      error))
        return false;
      if (mutation == "scale-rows") {
        std::vector<uint8_t> atom(
            smem.bytes.begin() + p.sfaWordOffset<int64_t>(0, slot),
            smem.bytes.begin() + p.sfaWordOffset<int64_t>(0, slot) +
                plan::kAtomBytes);
        for (int64_t r = 0; r < plan::kThreads; ++r)
          for (int64_t e = 0; e < 4; ++e)
            smem.bytes[size_t(p.sfaWordOffset<int64_t>((r + 1) % 128, slot) +
                              e)] =
                atom[size_t(p.sfaWordOffset<int64_t>(r, 0) + e)];
      }
    }
    for (uint64_t expected : facts.expectTx)
      if (expected != tx)
        return fail(error, "the PTX's mbarrier.arrive.expect_tx expects " +
                               std::to_string(expected) +
                               " bytes, the tensor copies of a stage write " +
                               std::to_string(tx));

    for (int64_t t = 0; t < plan::kThreads; ++t) {
      for (int64_t i = 0; !aMap && i < p.aChunksPerThread(); ++i)
        cpAsync(aBytes, p.aCopy<int64_t>(t, i, stage, slot, batch, rowTile),
                p.chunkBytes(), /*operand=*/true);
      if (t < p.bCopyThreads())
        cpAsync(bBytes, p.bCopy<int64_t>(t, stage, slot, batch), p.chunkBytes(),
                /*operand=*/true);
      int64_t row = mutation == "scale-rows" ? (t + 1) % plan::kThreads : t;
      if (!sfaMap)
        stageSfa(t, row, stage, slot, batch, rowTile);
      int64_t vec = t - p.sfbThread();
      if (vec >= 0 && vec < p.vectors) {
        if (p.sfbBytes())
          for (int64_t e = 0; e < 4; ++e)
            byteCopy(in.sfb,
                     p.sfbLinearByte<int64_t>(vec, e, stage, slot, batch));
        else
          cpAsync(in.sfb, p.sfbCopy<int64_t>(vec, stage, slot, batch), 4,
                  /*operand=*/false);
      }
    }
    return true;
  }
};

bool readFile(const std::string &path, std::string &text) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  text = ss.str();
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string ptxPath, manifestPath, format = "nvfp4", layoutName = "linear",
                                     mutation;
  int64_t m = 0, k = 0, l = 1, n = 1, stages = 4;
  uint64_t seed = 1;
  uint32_t smemBase = 1024;
  bool sample = false;
  CLI::App app(kDescription, "nvfp4-tcgen05-check");
  app.add_option("ptx", ptxPath, "the kernel's .ptx file")->required();
  app.add_option("--manifest", manifestPath,
                 "the kernel's manifest, read and checked as nvfp4-run reads "
                 "it (default: the .ptx path with .json); its tensor maps "
                 "describe the kernel's tensor copies");
  app.add_option("--m", m, "rows of the matrix")->required();
  app.add_option("--k", k, "columns of the matrix")->required();
  app.add_option("--l", l, "batches (default 1)");
  CLI::Option *nOption = app.add_option(
      "--n", n,
      "vectors of a batch, 1 to 16: b [L, N, K/2], c [L, N, M] (default: "
      "the manifest's n; when given, the manifest must say the same)");
  app.add_option("--format", format, "nvfp4 or mxfp4 (default nvfp4)")
      ->check(CLI::IsMember({"nvfp4", "mxfp4"}));
  app.add_option("--layout", layoutName,
                 "scale layout: linear or blocked (default linear)")
      ->check(CLI::IsMember({"linear", "blocked"}));
  app.add_option("--stages", stages, "the kernel's stages option (default 4)");
  app.add_option("--seed", seed, "seed of the inputs (default 1)");
  app.add_option("--smem-base", smemBase,
                 "shared-window address of the dynamic shared memory "
                 "(default 1024)");
  app.add_flag("--sample", sample,
               "check the first and the last row tile of each batch only");
  std::string mutationHelp = "break one encoder:";
  for (const auto &[name, what] : kMutations)
    mutationHelp += std::string(" ") + name + " (" + what + ");";
  app.add_option("--mutate", mutation, mutationHelp)->check(CLI::IsMember([] {
    std::vector<std::string> names;
    for (const auto &entry : kMutations)
      names.push_back(entry.first);
    return names;
  }()));
  if (std::optional<int> status = nvfp4::parseCheckToolCommandLine(
          app, argc, argv, "nvfp4-tcgen05-check"))
    return *status;

  plan::GemvPlan p = plan::GemvPlan::of(m, k, l, format == "mxfp4",
                                        layoutName == "blocked", stages)
                         .withVectors(n);
  std::string why;
  if (!p.isValid(&why)) {
    std::fprintf(stderr, "nvfp4-tcgen05-check: error: %s\n", why.c_str());
    return 2;
  }
  if (manifestPath.empty()) {
    manifestPath = ptxPath;
    size_t dot = manifestPath.rfind(".ptx");
    if (dot != std::string::npos && dot + 4 == manifestPath.size())
      manifestPath.erase(dot);
    manifestPath += ".json";
  }
  std::string error;
  std::optional<run::Manifest> manifest =
      run::loadManifest(manifestPath, error);
  if (!manifest) {
    std::fprintf(stderr, "nvfp4-tcgen05-check: error: %s\n", error.c_str());
    return 2;
  }
  const ref::GemvProblem &shape = manifest->problem;
  // The manifest says N (version 3); --n, when given, must agree.
  if (!nOption->count() && !manifest->isConversion()) {
    n = shape.n;
    p = p.withVectors(n);
  }
  if (manifest->isConversion() || shape.m != m || shape.k != k ||
      shape.l != l || shape.n != n ||
      shape.vector != ref::VectorElement::E2M1 ||
      (shape.format == ref::ScaleFormat::MXFP4) != p.mxfp4 ||
      (shape.layout == ref::ScaleLayout::Blocked128x4) != p.blocked) {
    std::fprintf(stderr,
                 "nvfp4-tcgen05-check: error: %s describes %s, not the "
                 "problem given on the command line\n",
                 manifestPath.c_str(), run::describe(*manifest).c_str());
    return 2;
  }
  // The kernel reads through a tensor map exactly when the plan says so
  // for this shape.
  const run::TensorMapEncode *aMap = nullptr, *sfaMap = nullptr;
  for (const run::TensorMap &map : manifest->tensorMaps)
    (map.param == run::Param::ATensorMap ? aMap : sfaMap) = &map.encode;
  p.tma = !manifest->tensorMaps.empty();
  if (p.tmaA() != (aMap != nullptr) || p.tmaSfa() != (sfaMap != nullptr)) {
    std::fprintf(stderr,
                 "nvfp4-tcgen05-check: error: %s has %s tensor map of a and "
                 "%s of sfa; the plan for this shape copies a %s and sfa %s\n",
                 manifestPath.c_str(), aMap ? "a" : "no",
                 sfaMap ? "one" : "none",
                 p.tmaA() ? "by tensor copies" : "by thread",
                 p.tmaSfa() ? "by tensor copies" : "by thread");
    return 2;
  }
  if (!p.isValid(&why)) {
    std::fprintf(stderr, "nvfp4-tcgen05-check: error: %s\n", why.c_str());
    return 2;
  }
  if (manifest->sharedBytes != uint32_t(p.sharedBytes())) {
    std::fprintf(stderr,
                 "nvfp4-tcgen05-check: error: %s launches with %u bytes of "
                 "shared memory; the plan with --stages %lld needs %lld\n",
                 manifestPath.c_str(), manifest->sharedBytes, (long long)stages,
                 (long long)p.sharedBytes());
    return 2;
  }

  std::string ptx;
  if (!readFile(ptxPath, ptx)) {
    std::fprintf(stderr, "nvfp4-tcgen05-check: error: cannot read '%s'\n",
                 ptxPath.c_str());
    return 2;
  }
  isa::PtxFacts facts;
  if (!isa::parsePtx(ptx, facts, error)) {
    std::fprintf(stderr, "nvfp4-tcgen05-check: error: %s: %s\n",
                 ptxPath.c_str(), error.c_str());
    return 2;
  }
  if (!mutation.empty() && isPtxMutation(mutation)) {
    ptx = mutatePtx(ptx, facts, mutation);
    if (!isa::parsePtx(ptx, facts, error)) {
      std::fprintf(stderr, "nvfp4-tcgen05-check: error: mutated PTX: %s\n",
                   error.c_str());
      return 2;
    }
  }
  std::printf("nvfp4-tcgen05-check: %s, %s, %zu tcgen05.mma, seed %llu%s%s\n",
              facts.mmaOpcode.c_str(),
              facts.electSync ? "issued under elect.sync" : "no elect.sync",
              facts.mmas.size(), (unsigned long long)seed,
              mutation.empty() ? "" : ", mutation ", mutation.c_str());

  // What the kernel and the model must agree on before any data moves.
  auto reject = [&](const std::string &message) {
    std::printf("nvfp4-tcgen05-check: FAIL: %s\n", message.c_str());
    return 1;
  };
  const char *wantKind = p.mxfp4 ? "mxf4" : "mxf4nvf4";
  if (facts.kind != wantKind || facts.scaleVec != unsigned(p.block()))
    return reject("the PTX's MMA is ." + facts.kind + ".block" +
                  std::to_string(facts.scaleVec) + ", the problem needs ." +
                  wantKind + ".block" + std::to_string(p.block()));
  if (!facts.electSync)
    return reject("the MMA is not issued under elect.sync");
  // The epilogue reads one column of D a vector.
  if (facts.loadCount != unsigned(n))
    return reject("the PTX has " + std::to_string(facts.loadCount) +
                  " tcgen05.ld, the problem has " + std::to_string(n) +
                  (n == 1 ? " vector" : " vectors"));
  // The PTX's tensor copies are those of the manifest's maps.
  if (facts.tensorCopyRanks.empty() != manifest->tensorMaps.empty())
    return reject(std::to_string(facts.tensorCopyRanks.size()) +
                  " cp.async.bulk.tensor in the PTX, " +
                  std::to_string(manifest->tensorMaps.size()) +
                  " tensor maps in the manifest");
  for (unsigned rank : facts.tensorCopyRanks)
    if ((!aMap || aMap->rank != rank) && (!sfaMap || sfaMap->rank != rank))
      return reject("a cp.async.bulk.tensor." + std::to_string(rank) +
                    "d in the PTX, but no tensor map of that rank");
  if (facts.expectTx.empty() != manifest->tensorMaps.empty())
    return reject("the tensor copies are not counted by an "
                  "mbarrier.arrive.expect_tx");
  for (const isa::MmaSite &site : facts.mmas)
    for (uint64_t word : {site.aDesc, site.bDesc}) {
      // A swizzle pattern repeats every 8 rows x its width; the model
      // applies it to absolute addresses, so the memory must be aligned.
      unsigned swizzle = unsigned(field(word, 61, 3));
      uint32_t period = swizzle == 6 ? 256 : swizzle == 4 ? 512 : 1024;
      if (swizzle && (facts.sharedAlignment % period || smemBase % period))
        return reject("the shared memory is " +
                      std::to_string(facts.sharedAlignment) +
                      "-byte aligned, the swizzle pattern needs " +
                      std::to_string(period));
    }

  ref::GemvProblem problem = tcgen05::gemvProblemOf(p);
  ref::GemvInputs in =
      ref::generateGemvInputs(problem, ref::Distribution::Full, seed);
  std::vector<double> want = ref::gemvExact(problem, in.a.data(), in.sfa.data(),
                                            in.b.data(), in.sfb.data());

  Cta cta(p, facts, in, smemBase, mutation, aMap, sfaMap);
  int64_t checked = 0, mismatches = 0;
  for (int64_t batch = 0; batch < l; ++batch)
    for (int64_t tile = 0; tile < p.rowTiles(); ++tile) {
      if (sample && tile != 0 && tile != p.rowTiles() - 1)
        continue;
      std::vector<double> rows;
      if (!cta.run(batch, tile, rows, error))
        return reject(error);
      for (int64_t vec = 0; vec < n; ++vec)
        for (int64_t t = 0; t < plan::kTileRows; ++t) {
          int64_t row = tile * plan::kTileRows + t;
          if (row >= m)
            break;
          ++checked;
          // Products of e2m1 values and the generated scales are exact in
          // float64, and so are their sums: equality is required. The
          // reference is c[l][n][m].
          double got = rows[size_t(vec * plan::kTileRows + t)],
                 expect = want[size_t((batch * n + vec) * m + row)];
          if (!(got == expect) && mismatches++ < 3)
            std::printf("nvfp4-tcgen05-check: c[%lld][%lld][%lld] = %.17g, "
                        "reference %.17g\n",
                        (long long)batch, (long long)vec, (long long)row, got,
                        expect);
        }
    }
  if (mismatches)
    return reject(std::to_string(mismatches) + " of " +
                  std::to_string(checked) +
                  (n == 1 ? " rows" : " outputs (rows x vectors)") +
                  " differ from the reference");
  if (n == 1)
    std::printf("nvfp4-tcgen05-check: OK: %lld rows equal the float64 "
                "reference\n",
                (long long)checked);
  else
    std::printf("nvfp4-tcgen05-check: OK: %lld outputs (%lld vectors) equal "
                "the float64 reference\n",
                (long long)checked, (long long)n);
  return 0;
}
