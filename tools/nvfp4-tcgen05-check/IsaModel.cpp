//===- IsaModel.cpp - tcgen05 block-scaled MMA written from the PTX ISA ---===//
//
// Written from the PTX ISA text only; see IsaModel.h. Nothing here includes
// or mirrors the project's encoders: where the two agree, they agree
// because both match the ISA.
//
//===----------------------------------------------------------------------===//

#include "IsaModel.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

namespace nvfp4::isa {

namespace {

//===----------------------------------------------------------------------===//
// PTX text
//===----------------------------------------------------------------------===//

struct Instruction {
  size_t line = 0;
  std::string opcode;
  std::vector<std::string> operands;
};

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

/// Splits "a, {b, c}, [d]" at the commas outside braces and brackets.
std::vector<std::string> splitOperands(const std::string &s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '{' || c == '[')
      ++depth;
    if (c == '}' || c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty())
    out.push_back(trim(cur));
  return out;
}

/// One instruction a line (as the NVPTX back end and the kernel's inline
/// assembly write them); labels, directives and braces are skipped.
bool parseInstruction(const std::string &raw, size_t lineNo,
                      Instruction &inst) {
  std::string line = raw.substr(0, raw.find("//"));
  line = trim(line);
  if (line.empty() || line.back() != ';' || line[0] == '.')
    return false;
  line = trim(line.substr(0, line.size() - 1));
  if (line[0] == '{')
    line = trim(line.substr(1));
  if (!line.empty() && line[0] == '@') { // guard predicate
    size_t sp = line.find_first_of(" \t");
    if (sp == std::string::npos)
      return false;
    line = trim(line.substr(sp));
  }
  size_t sp = line.find_first_of(" \t");
  inst.line = lineNo;
  inst.opcode = line.substr(0, sp);
  inst.operands.clear();
  if (sp != std::string::npos)
    inst.operands = splitOperands(line.substr(sp));
  return true;
}

bool parseInteger(const std::string &token, uint64_t &value) {
  if (token.empty())
    return false;
  const char *s = token.c_str();
  char *end = nullptr;
  errno = 0;
  if (token[0] == '-') {
    long long v = std::strtoll(s, &end, 0);
    value = static_cast<uint64_t>(v);
  } else {
    value = std::strtoull(s, &end, 0);
  }
  return errno == 0 && end && *end == '\0' && end != s;
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}

class DefTable {
public:
  explicit DefTable(const std::vector<Instruction> &insts) {
    for (const Instruction &i : insts)
      if (!i.operands.empty() && startsWith(i.operands[0], "%"))
        defs[i.operands[0]].push_back(&i);
  }

  /// The value of `operand` when it is an immediate or a register set only
  /// by moves of one immediate.
  bool constant(const std::string &operand, uint64_t &value,
                ConstantSite &site) const {
    if (parseInteger(operand, value)) {
      site = {};
      return true;
    }
    auto it = defs.find(operand);
    if (it == defs.end())
      return false;
    bool found = false;
    for (const Instruction *d : it->second) {
      uint64_t v;
      if (!startsWith(d->opcode, "mov.") || d->operands.size() != 2 ||
          !parseInteger(d->operands[1], v))
        return false;
      if (found && v != value)
        return false;
      value = v;
      site = {d->line, 1};
      found = true;
    }
    return found;
  }

  /// The constant part of a descriptor register: the immediate (or moved
  /// constant) operand of the `or`/`add` that combines it with the
  /// run-time start address.
  bool descriptorConstant(const std::string &reg, uint64_t &value,
                          ConstantSite &site) const {
    auto it = defs.find(reg);
    if (it == defs.end() || it->second.size() != 1)
      return false;
    const Instruction *d = it->second.front();
    if (!(startsWith(d->opcode, "or.") || startsWith(d->opcode, "add.")) ||
        d->operands.size() != 3)
      return constant(reg, value, site);
    for (size_t i = 1; i < 3; ++i) {
      if (parseInteger(d->operands[i], value)) {
        site = {d->line, i};
        return true;
      }
    }
    for (size_t i = 1; i < 3; ++i)
      if (constant(d->operands[i], value, site))
        return true;
    return false;
  }

private:
  std::map<std::string, std::vector<const Instruction *>> defs;
};

std::string qualifier(const std::string &opcode, const std::string &key) {
  size_t at = opcode.find(key);
  if (at == std::string::npos)
    return "";
  size_t start = at + key.size();
  return opcode.substr(start, opcode.find('.', start) - start);
}

bool fail(std::string &error, const std::string &message) {
  error = message;
  return false;
}

} // namespace

bool parsePtx(const std::string &ptx, PtxFacts &facts, std::string &error) {
  facts = PtxFacts();
  std::vector<std::string> lines = splitLines(ptx);
  std::vector<Instruction> insts;
  std::regex sharedDecl(R"(\.extern\s+\.shared\s+\.align\s+(\d+))");
  for (size_t n = 0; n < lines.size(); ++n) {
    std::smatch match;
    if (std::regex_search(lines[n], match, sharedDecl))
      facts.sharedAlignment = std::stoull(match[1]);
    Instruction inst;
    if (parseInstruction(lines[n], n, inst))
      insts.push_back(inst);
  }
  DefTable defs(insts);
  for (const Instruction &i : insts) {
    if (startsWith(i.opcode, "elect.sync"))
      facts.electSync = true;
    if (startsWith(i.opcode, "tcgen05.mma")) {
      // [d], a-desc, b-desc, idesc, [scale-A], [scale-B], enable-input-d
      if (i.operands.size() != 7)
        return fail(error, "line " + std::to_string(i.line + 1) +
                               ": tcgen05.mma without block-scale operands");
      if (facts.mmaOpcode.empty()) {
        facts.mmaOpcode = i.opcode;
        facts.kind = qualifier(i.opcode, ".kind::");
        facts.ctaGroup =
            unsigned(std::atoi(qualifier(i.opcode, ".cta_group::").c_str()));
        if (i.opcode.find(".block16") != std::string::npos ||
            i.opcode.find(".scale_vec::4X") != std::string::npos)
          facts.scaleVec = 16;
        else if (i.opcode.find(".block32") != std::string::npos ||
                 i.opcode.find(".scale_vec::2X") != std::string::npos)
          facts.scaleVec = 32;
      } else if (i.opcode != facts.mmaOpcode) {
        return fail(error, "two different tcgen05.mma opcodes");
      }
      MmaSite site;
      uint64_t idesc = 0;
      if (!defs.descriptorConstant(i.operands[1], site.aDesc, site.aSite) ||
          !defs.descriptorConstant(i.operands[2], site.bDesc, site.bSite) ||
          !defs.constant(i.operands[3], idesc, site.idescSite))
        return fail(error, "line " + std::to_string(i.line + 1) +
                               ": a descriptor of tcgen05.mma is not "
                               "traceable to a constant");
      site.idesc = static_cast<uint32_t>(idesc);
      facts.mmas.push_back(site);
    } else if (startsWith(i.opcode, "tcgen05.cp")) {
      if (i.operands.size() != 2)
        return fail(error, "tcgen05.cp with unexpected operands");
      facts.copyShape = qualifier(i.opcode, "cta_group::1.");
      size_t shapeEnd = i.opcode.find(facts.copyShape) + facts.copyShape.size();
      facts.copyMulticast =
          i.opcode.substr(std::min(shapeEnd + 1, i.opcode.size()));
      uint64_t desc;
      ConstantSite site;
      if (!defs.descriptorConstant(i.operands[1], desc, site))
        return fail(error, "tcgen05.cp descriptor not traceable");
      facts.copyDescs.push_back(desc);
      facts.copySites.push_back(site);
    } else if (startsWith(i.opcode, "cp.async.bulk.tensor.")) {
      facts.tensorCopyRanks.push_back(unsigned(
          std::atoi(i.opcode.c_str() + strlen("cp.async.bulk.tensor."))));
    } else if (startsWith(i.opcode, "mbarrier.arrive.expect_tx")) {
      uint64_t tx;
      ConstantSite site;
      if (i.operands.empty() || !defs.constant(i.operands.back(), tx, site))
        return fail(error, "line " + std::to_string(i.line + 1) +
                               ": the transaction count of "
                               "mbarrier.arrive.expect_tx is not traceable "
                               "to a constant");
      facts.expectTx.push_back(tx);
      facts.expectTxSites.push_back(site);
    } else if (startsWith(i.opcode, "tcgen05.ld")) {
      ++facts.loadCount;
      std::smatch match;
      std::regex shape(R"(\.(\d+x\d+b)\.x(\d+))");
      if (std::regex_search(i.opcode, match, shape)) {
        facts.loadShape = match[1];
        facts.loadRepeat = unsigned(std::stoul(match[2]));
      }
    }
  }
  if (facts.mmas.empty())
    return fail(error, "no tcgen05.mma in the PTX");
  if (facts.copyDescs.empty())
    return fail(error, "no tcgen05.cp in the PTX");
  if (facts.loadShape.empty())
    return fail(error, "no tcgen05.ld in the PTX");
  return true;
}

std::string replaceConstant(const std::string &ptx, const ConstantSite &site,
                            uint64_t value) {
  std::vector<std::string> lines = splitLines(ptx);
  Instruction inst;
  if (site.line >= lines.size() ||
      !parseInstruction(lines[site.line], site.line, inst) ||
      site.operand >= inst.operands.size())
    return ptx;
  char hex[32];
  std::snprintf(hex, sizeof(hex), "0x%016llX",
                static_cast<unsigned long long>(value));
  std::string &line = lines[site.line];
  std::string old = inst.operands[site.operand];
  // The operand is the text after the opcode; replace its last occurrence
  // before the ';' (operands are distinct tokens here).
  size_t semi = line.rfind(';');
  size_t at = line.rfind(old, semi);
  if (at != std::string::npos)
    line.replace(at, old.size(), hex);
  std::string out;
  for (const std::string &l : lines)
    out += l + "\n";
  return out;
}

//===----------------------------------------------------------------------===//
// Descriptors
//===----------------------------------------------------------------------===//

static uint64_t bits(uint64_t word, unsigned lo, unsigned count) {
  return (word >> lo) & ((uint64_t(1) << count) - 1);
}

InstrDesc decodeInstrDesc(uint32_t w) {
  InstrDesc d;
  d.sparse = bits(w, 2, 1);
  d.sfbId = unsigned(bits(w, 4, 2));
  d.aType = unsigned(bits(w, 7, 3));
  d.bType = unsigned(bits(w, 10, 2));
  d.negateA = bits(w, 13, 1);
  d.negateB = bits(w, 14, 1);
  d.transposeA = bits(w, 15, 1);
  d.transposeB = bits(w, 16, 1);
  d.n = unsigned(bits(w, 17, 6)) * 8; // "N >> 3"
  d.scaleType = unsigned(bits(w, 23, 1));
  d.m = unsigned(bits(w, 27, 2)) * 128; // "M >> 7"
  d.sfaId = unsigned(bits(w, 29, 2));
  d.k96 = bits(w, 31, 1);
  d.reservedBits = w & (0x3u | 0x8u | 0x40u | 0x1000u | (0x7u << 24));
  return d;
}

SmemDescriptor decodeSmemDescriptor(uint64_t w) {
  SmemDescriptor d;
  // matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: fields are bytes / 16.
  d.start = uint32_t(bits(w, 0, 14)) * 16;
  d.lbo = uint32_t(bits(w, 16, 14)) * 16;
  d.sbo = uint32_t(bits(w, 32, 14)) * 16;
  d.fixed001 = unsigned(bits(w, 46, 3));
  d.baseOffset = unsigned(bits(w, 49, 3));
  d.lboMode = unsigned(bits(w, 52, 1));
  d.fixedZero = unsigned(bits(w, 53, 8));
  d.swizzle = unsigned(bits(w, 61, 3));
  d.reservedBits = uint32_t(bits(w, 14, 2) | bits(w, 30, 2) << 2);
  return d;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

double e2m1Value(unsigned code) {
  // 1 sign, 2 exponent (bias 1), 1 mantissa bit; exponent 0 is subnormal.
  unsigned e = (code >> 1) & 3, m = code & 1;
  double v = e == 0 ? 0.5 * m : std::ldexp(1.0 + 0.5 * m, int(e) - 1);
  return (code & 8) ? -v : v;
}

double ue4m3Value(uint8_t byte) {
  // Unsigned: 4 exponent bits (bias 7), 3 mantissa bits in bits 0-6. The
  // top bit is not part of the format; all ones is NaN.
  if ((byte & 0x80) || byte == 0x7F)
    return std::numeric_limits<double>::quiet_NaN();
  unsigned e = (byte >> 3) & 0xF, m = byte & 7;
  return e == 0 ? std::ldexp(m / 8.0, -6)
                : std::ldexp(1.0 + m / 8.0, int(e) - 7);
}

double ue8m0Value(uint8_t byte) {
  return byte == 0xFF ? std::numeric_limits<double>::quiet_NaN()
                      : std::ldexp(1.0, int(byte) - 127);
}

//===----------------------------------------------------------------------===//
// Memories and the MMA
//===----------------------------------------------------------------------===//

uint8_t SharedMemory::at(uint32_t address, std::string &error) const {
  if (address < base || address - base >= bytes.size()) {
    error = "shared-memory read at " + std::to_string(address) +
            " outside the CTA's shared memory";
    return 0;
  }
  return bytes[address - base];
}

static bool checkDescriptor(const SmemDescriptor &d, std::string &error) {
  if (d.fixed001 != 1)
    return fail(error, "shared-memory descriptor bits 46-48 are not 0b001");
  if (d.fixedZero != 0 || d.reservedBits != 0)
    return fail(error, "shared-memory descriptor has reserved bits set");
  if (d.lboMode != 0)
    return fail(error, "absolute LBO mode is sm_103a only");
  if (d.baseOffset != 0)
    return fail(error, "non-zero matrix base offset (not modelled)");
  return true;
}

bool operandAddress(const SmemDescriptor &d, uint32_t row, uint32_t k,
                    uint32_t &address, std::string &error) {
  // Canonical K-major layouts (9.7.16.3.3) in units of T = 128-bit
  // elements; T holds 32 e2m1 values, i.e. 16 bytes:
  //   none : ((8,m),(T,2k)):((1T,SBO),(1,LBO))
  //   32B  : Swizzle<1,4,3> o ((8,m),(T,2k)):((2T,SBO),(1,T))
  //   64B  : Swizzle<2,4,3> o ((8,m),(T,2k)):((4T,SBO),(1,T))
  //   128B : Swizzle<3,4,3> o ((8,m),(T,2k)):((8T,SBO),(1,T))
  // The swizzle XORs address bits [4, 4+B) with bits [7, 7+B).
  uint32_t unit = 16, inUnit = (k % 32) / 2, column = k / 32;
  uint32_t rowStride, columnStride, swizzleBits;
  switch (d.swizzle) {
  case 0:
    rowStride = unit;
    columnStride = d.lbo;
    swizzleBits = 0;
    break;
  case 6:
    rowStride = 2 * unit;
    columnStride = unit;
    swizzleBits = 1;
    break;
  case 4:
    rowStride = 4 * unit;
    columnStride = unit;
    swizzleBits = 2;
    break;
  case 2:
    rowStride = 8 * unit;
    columnStride = unit;
    swizzleBits = 3;
    break;
  default:
    return fail(error, "swizzle mode " + std::to_string(d.swizzle) +
                           " is not a K-major canonical layout");
  }
  uint32_t a = d.start + (row % 8) * rowStride + (row / 8) * d.sbo +
               column * columnStride + inUnit;
  uint32_t mask = (1u << swizzleBits) - 1;
  address = a ^ (((a >> 7) & mask) << 4);
  return true;
}

bool copyScales(const PtxFacts &facts, uint64_t word, uint32_t column,
                const SharedMemory &smem, TensorMemory &tmem,
                std::string &error) {
  // .32x128b: 32 rows of 128 bits into 32 lanes x 4 columns (9.7.16.2.3);
  // .warpx4: the same 32 lanes into each of the four lane quarters
  // (9.7.16.9.2). The source rows are one 16-byte column of a K-major,
  // unswizzled canonical layout: row i at start + (i%8)*16 + (i/8)*SBO.
  if (facts.copyShape != "32x128b" || facts.copyMulticast != "warpx4")
    return fail(error, "tcgen05.cp ." + facts.copyShape + "." +
                           facts.copyMulticast + " is not modelled");
  SmemDescriptor d = decodeSmemDescriptor(word);
  if (!checkDescriptor(d, error))
    return false;
  if (d.swizzle != 0)
    return fail(error, "swizzled scale-factor copy not modelled");
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t rowStart = d.start + (i % 8) * 16 + (i / 8) * d.sbo;
    for (uint32_t c = 0; c < 4; ++c) {
      uint32_t value = 0;
      for (uint32_t byte = 0; byte < 4; ++byte) {
        value |= uint32_t(smem.at(rowStart + 4 * c + byte, error))
                 << (8 * byte);
        if (!error.empty())
          return false;
      }
      for (uint32_t quarter = 0; quarter < 4; ++quarter)
        tmem.cell(32 * quarter + i, column + c) = value;
    }
  }
  return true;
}

bool blockScaledMma(const PtxFacts &facts, uint32_t idescWord, uint64_t aWord,
                    uint64_t bWord, uint32_t sfaColumn, uint32_t sfbColumn,
                    bool enableInputD, const SharedMemory &smem,
                    TensorMemory &tmem, Accumulator &acc, std::string &error) {
  InstrDesc id = decodeInstrDesc(idescWord);
  // Instruction-descriptor rules for the mxf4 kinds (9.7.16.4.2,
  // 9.7.16.10.7.1, and the shapes of 9.7.16.2.1 for cta_group::1).
  if (id.reservedBits)
    return fail(error, "instruction descriptor has reserved bits set");
  if (facts.ctaGroup != 1 || id.m != 128 || id.n < 8 || id.n > 256 || id.k96)
    return fail(error, "shape M=" + std::to_string(id.m) +
                           " N=" + std::to_string(id.n) +
                           " is not a cta_group::1 K64 block-scaled MMA");
  if (id.aType != 1 || id.bType != 1)
    return fail(error, "atype/btype are not E2M1 (1)");
  if (id.sparse || id.transposeA || id.transposeB)
    return fail(error, "sparse or transposed operands with .kind::mxf4*");
  bool ue8m0 = id.scaleType == 1;
  if (facts.kind == "mxf4" && (facts.scaleVec != 32 || !ue8m0))
    return fail(error, ".kind::mxf4 needs .block32 and ue8m0 scales");
  if (facts.kind != "mxf4" && facts.kind != "mxf4nvf4")
    return fail(error, "MMA kind " + facts.kind + " is not modelled");
  if (facts.scaleVec == 32 && !ue8m0)
    return fail(error, ".block32 needs ue8m0 scales");
  unsigned blocks = 64 / facts.scaleVec;
  // A scale ID picks the byte where the row's scales for this MMA start:
  // 0 with four one-byte scales a row (block16), 0 or 2 with two (block32).
  if ((facts.scaleVec == 16 && (id.sfaId || id.sfbId)) ||
      (facts.scaleVec == 32 && (id.sfaId % 2 || id.sfbId % 2)))
    return fail(error, "scale-factor ID not valid for this block size");
  SmemDescriptor a = decodeSmemDescriptor(aWord),
                 b = decodeSmemDescriptor(bWord);
  if (!checkDescriptor(a, error) || !checkDescriptor(b, error))
    return false;

  auto operand = [&](const SmemDescriptor &d, uint32_t rows,
                     std::vector<double> &out) {
    out.assign(size_t(rows) * 64, 0.0);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t k = 0; k < 64; ++k) {
        uint32_t address;
        if (!operandAddress(d, r, k, address, error))
          return false;
        uint8_t byte = smem.at(address, error);
        if (!error.empty())
          return false;
        // Packed e2m1: element 2j in the low nibble of byte j.
        out[r * 64 + k] = e2m1Value(k % 2 ? byte >> 4 : byte & 0xF);
      }
    return true;
  };
  std::vector<double> av, bv;
  if (!operand(a, id.m, av) || !operand(b, id.n, bv))
    return false;
  // Scale factors (9.7.16.10.7): the scales of row i of A (of row j of B)
  // for an M = 128 MMA sit in lane i, column base + i / 32, bytes
  // ID + block; each lane quarter holds the rows of its 32 lanes.
  auto scale = [&](uint32_t column, unsigned id, uint32_t row, unsigned blk) {
    uint32_t word = tmem.cell(row, column + row / 32);
    uint8_t byte = uint8_t(word >> (8 * (id + blk)));
    return ue8m0 ? ue8m0Value(byte) : ue4m3Value(byte);
  };
  if (acc.d.empty()) {
    acc.n = id.n;
    acc.d.assign(size_t(128) * id.n, std::numeric_limits<double>::quiet_NaN());
  }
  if (acc.n != id.n)
    return fail(error, "N changes between MMAs on one accumulator");
  for (uint32_t i = 0; i < id.m; ++i)
    for (uint32_t j = 0; j < id.n; ++j) {
      double sum = 0;
      for (unsigned blk = 0; blk < blocks; ++blk) {
        double dot = 0;
        for (unsigned e = 0; e < facts.scaleVec; ++e) {
          unsigned k = blk * facts.scaleVec + e;
          dot += av[i * 64 + k] * bv[j * 64 + k];
        }
        sum += dot * scale(sfaColumn, id.sfaId, i, blk) *
               scale(sfbColumn, id.sfbId, j, blk);
      }
      if (id.negateA != id.negateB)
        sum = -sum;
      double &d = acc.d[i * id.n + j];
      d = enableInputD ? d + sum : sum;
    }
  return true;
}

bool loadResult(const PtxFacts &facts, const Accumulator &acc, unsigned warp,
                unsigned laneInWarp, unsigned column, double &value,
                std::string &error) {
  // .32x32b: thread i of the warp reads lane 32 w + i (9.7.16.2.3); with
  // M = 128 and cta_group::1, row i of D is lane i and column j is N
  // index j (the ISA's data-path layout "Layout D" for M = 128).
  if (facts.loadShape != "32x32b" || facts.loadRepeat != 1)
    return fail(error, "tcgen05.ld ." + facts.loadShape + ".x" +
                           std::to_string(facts.loadRepeat) +
                           " is not modelled");
  if (column >= acc.n)
    return fail(error, "tcgen05.ld column outside D");
  value = acc.d[(32 * warp + laneInWarp) * acc.n + column];
  return true;
}

} // namespace nvfp4::isa
