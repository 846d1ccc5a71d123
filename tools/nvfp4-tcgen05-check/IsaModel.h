//===- IsaModel.h - tcgen05 block-scaled MMA written from the PTX ISA
//------===//
//
// A second, independent model of what the tcgen05 GEMV kernel asks the
// tensor core to do. It shares no code with the encoders
// (nvfp4/Support/Tcgen05Descriptors.h, Tcgen05Plan.h): descriptor fields are
// decoded at the bit positions of the PTX ISA's tables, operand addresses
// follow the ISA's canonical-layout formulas (swizzles included), scales are
// read from tensor memory as the ISA's block-scaling section and figures lay
// them out, and the values come from the ISA's e2m1/ue4m3/ue8m0 definitions.
// The constants it decodes are parsed from the generated PTX text, not taken
// from the C++ plan. Section numbers: PTX ISA 9.1, chapter 9.7.16.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_TOOLS_TCGEN05CHECK_ISAMODEL_H
#define NVFP4_TOOLS_TCGEN05CHECK_ISAMODEL_H

#include <cstdint>
#include <string>
#include <vector>

namespace nvfp4::isa {

//===----------------------------------------------------------------------===//
// Constants of the PTX
//===----------------------------------------------------------------------===//

/// Where a constant was found in the PTX text: line and operand index of
/// the instruction that holds it as an immediate.
struct ConstantSite {
  size_t line = 0;
  size_t operand = 0;
};

/// One tcgen05.mma of the PTX, with the constant parts of its operands: the
/// instruction descriptor and the shared-memory descriptors without the
/// run-time start address that the kernel ORs (or adds) in.
struct MmaSite {
  uint32_t idesc = 0;
  uint64_t aDesc = 0, bDesc = 0;
  ConstantSite idescSite, aSite, bSite;
};

struct PtxFacts {
  std::string mmaOpcode;     ///< the first tcgen05.mma's opcode
  std::string kind;          ///< "mxf4nvf4" or "mxf4"
  unsigned scaleVec = 0;     ///< 16 (.block16) or 32 (.block32)
  unsigned ctaGroup = 0;     ///< .cta_group::N
  std::vector<MmaSite> mmas; ///< in text order
  std::string copyShape;     ///< tcgen05.cp shape, e.g. "32x128b"
  std::string copyMulticast; ///< e.g. "warpx4"
  std::vector<uint64_t> copyDescs;
  std::vector<ConstantSite> copySites;
  std::string loadShape;   ///< tcgen05.ld shape, e.g. "32x32b"
  unsigned loadRepeat = 0; ///< .xN of tcgen05.ld
  unsigned loadCount = 0;  ///< tcgen05.ld instructions (one a vector)
  /// Rank of each cp.async.bulk.tensor (tensor copy), in text order.
  std::vector<unsigned> tensorCopyRanks;
  /// Transaction bytes of each mbarrier.arrive.expect_tx, in text order.
  std::vector<uint64_t> expectTx;
  std::vector<ConstantSite> expectTxSites;
  bool electSync = false;       ///< the MMA issue is under elect.sync
  uint64_t sharedAlignment = 0; ///< .align of the extern .shared array
};

/// Parses the PTX of one tcgen05 GEMV kernel. False, with `error` set, when
/// an instruction the model needs is missing or a constant cannot be traced
/// to an immediate.
bool parsePtx(const std::string &ptx, PtxFacts &facts, std::string &error);

/// The PTX text with the immediate at `site` replaced by `value`.
std::string replaceConstant(const std::string &ptx, const ConstantSite &site,
                            uint64_t value);

//===----------------------------------------------------------------------===//
// Descriptors (9.7.16.4)
//===----------------------------------------------------------------------===//

/// Table "Instruction descriptor format for .kind::mxf4 and .kind::mxf4nvf4".
struct InstrDesc {
  bool sparse = false;
  unsigned sfbId = 0, aType = 0, bType = 0;
  bool negateA = false, negateB = false, transposeA = false, transposeB = false;
  unsigned n = 0, m = 0;
  unsigned scaleType = 0; ///< 0 ue4m3, 1 ue8m0
  unsigned sfaId = 0;
  bool k96 = false;
  uint32_t reservedBits = 0;
};
InstrDesc decodeInstrDesc(uint32_t word);

/// Table "Shared memory descriptor layout", fields in bytes.
struct SmemDescriptor {
  uint32_t start = 0, lbo = 0, sbo = 0;
  unsigned fixed001 = 0, baseOffset = 0, lboMode = 0, fixedZero = 0;
  unsigned swizzle = 0; ///< 0 none, 1 128B/32B atom, 2 128B, 4 64B, 6 32B
  uint32_t reservedBits = 0;
};
SmemDescriptor decodeSmemDescriptor(uint64_t word);

//===----------------------------------------------------------------------===//
// Shared memory, tensor memory and the MMA
//===----------------------------------------------------------------------===//

/// The CTA's shared memory: `bytes` starting at shared-window address
/// `base`.
struct SharedMemory {
  uint32_t base = 0;
  std::vector<uint8_t> bytes;
  /// The byte at shared-window address `address`; fails the model (sets
  /// `error`) outside the memory.
  uint8_t at(uint32_t address, std::string &error) const;
};

/// Tensor memory: 128 lanes x 512 columns of 32-bit cells (9.7.16.1.1),
/// initialized with a poison pattern.
struct TensorMemory {
  std::vector<uint32_t> cells = std::vector<uint32_t>(128 * 512, 0xDEADBEEF);
  uint32_t &cell(uint32_t lane, uint32_t column) {
    return cells[lane * 512 + column];
  }
};

/// tcgen05.cp.cta_group::1.32x128b.warpx4 [taddr], sdesc (9.7.16.9.2).
bool copyScales(const PtxFacts &facts, uint64_t sdesc, uint32_t column,
                const SharedMemory &smem, TensorMemory &tmem,
                std::string &error);

/// The MMA's accumulator D[128][N] in f64 (exact for the inputs the check
/// generates).
struct Accumulator {
  std::vector<double> d;
  unsigned n = 0;
};

/// tcgen05.mma.cta_group::1.kind::<kind>.block_scale.block<vec> with D at
/// column `dColumn`, A and B from shared memory through `aDesc`/`bDesc`,
/// scales at columns `sfaColumn`/`sfbColumn` (lane 0) of tensor memory.
bool blockScaledMma(const PtxFacts &facts, uint32_t idesc, uint64_t aDesc,
                    uint64_t bDesc, uint32_t sfaColumn, uint32_t sfbColumn,
                    bool enableInputD, const SharedMemory &smem,
                    TensorMemory &tmem, Accumulator &acc, std::string &error);

/// tcgen05.ld.sync.aligned.<shape>.x1 by warp `warp` at lane 32 warp,
/// column `column`: what thread `laneInWarp` of the warp receives.
bool loadResult(const PtxFacts &facts, const Accumulator &acc, unsigned warp,
                unsigned laneInWarp, unsigned column, double &value,
                std::string &error);

/// Address of element `k` of row `row` of a K-major e2m1 operand described by
/// `desc` (exposed for tests).
bool operandAddress(const SmemDescriptor &desc, uint32_t row, uint32_t k,
                    uint32_t &address, std::string &error);

/// e2m1 (9.7.16.10.4.6 / the ISA's FP4 definition), ue4m3 and ue8m0 values;
/// NaN for encodings the formats do not define.
double e2m1Value(unsigned code);
double ue4m3Value(uint8_t byte);
double ue8m0Value(uint8_t byte);

} // namespace nvfp4::isa

#endif // NVFP4_TOOLS_TCGEN05CHECK_ISAMODEL_H
