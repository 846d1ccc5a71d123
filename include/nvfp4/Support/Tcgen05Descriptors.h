//===- Tcgen05Descriptors.h - tcgen05 descriptor encoders -------*- C++ -*-===//
//
// Typed encoders and decoders for what a Blackwell (sm_100a) block-scaled FP4
// tcgen05.mma needs besides its opcode:
//   1. the 32-bit instruction descriptor of .kind::mxf4 / .kind::mxf4nvf4,
//   2. the 64-bit shared-memory matrix descriptor,
//   3. the canonical K-major shared-memory layouts of packed e2m1 operands,
//   4. where tcgen05.cp.32x128b.warpx4 puts a 128x4 scale-factor atom in
//      tensor memory and which column/ID each K64 step's MMA reads.
// Header-only and constexpr, plain C++17 (no MLIR), so the lowering, the tests
// and host tools share one definition. Section numbers are those of the PTX
// ISA 9.1, chapter 9.7.16 ("tcgen05"); docs/tcgen05.md explains each encoding
// and says which parts are checked by tests and which cannot be (no Blackwell
// GPU is available: this code is assembled and unit-tested, never executed).
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_TCGEN05DESCRIPTORS_H
#define NVFP4_SUPPORT_TCGEN05DESCRIPTORS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace nvfp4::tcgen05 {

//===----------------------------------------------------------------------===//
// Bit fields
//===----------------------------------------------------------------------===//

/// A field of `width` bits starting at bit `offset` of a descriptor word.
/// Explicit shifts instead of C++ bit-fields: their layout is up to the
/// compiler, and the descriptors must match the ISA tables bit for bit.
struct BitField {
  unsigned offset;
  unsigned width;

  constexpr uint64_t valueMask() const { return (uint64_t(1) << width) - 1; }
  constexpr uint64_t mask() const { return valueMask() << offset; }
  constexpr bool fits(uint64_t value) const { return value <= valueMask(); }
  /// `value` truncated to the field and moved into place.
  constexpr uint64_t place(uint64_t value) const {
    return (value & valueMask()) << offset;
  }
  constexpr uint64_t extract(uint64_t word) const {
    return (word >> offset) & valueMask();
  }
};

namespace detail {
template <size_t N>
constexpr bool disjoint(const BitField (&fields)[N], uint64_t reserved) {
  uint64_t seen = reserved;
  for (const BitField &f : fields) {
    if (seen & f.mask())
      return false;
    seen |= f.mask();
  }
  return true;
}
template <size_t N>
constexpr uint64_t unionMask(const BitField (&fields)[N], uint64_t reserved) {
  uint64_t all = reserved;
  for (const BitField &f : fields)
    all |= f.mask();
  return all;
}
inline bool fail(std::string *why, const char *message) {
  if (why)
    *why = message;
  return false;
}
} // namespace detail

//===----------------------------------------------------------------------===//
// 1. Instruction descriptor for .kind::mxf4 / .kind::mxf4nvf4
//===----------------------------------------------------------------------===//

/// Bit positions from the ISA table "Instruction descriptor format for
/// .kind::mxf4 and .kind::mxf4nvf4" (9.7.16.4.2). They differ from the
/// f16/tf32/f8f6f4 table: bits 4-5 hold the B scale-factor ID instead of the
/// D type, btype is 2 bits wide, bit 23 is the scale type and M is stored
/// as M >> 7 in bits 27-28.
namespace idesc {
inline constexpr BitField kSparse{2, 1};
inline constexpr BitField kSfbId{4, 2};
inline constexpr BitField kAType{7, 3};
inline constexpr BitField kBType{10, 2};
inline constexpr BitField kNegateA{13, 1};
inline constexpr BitField kNegateB{14, 1};
inline constexpr BitField kTransposeA{15, 1};
inline constexpr BitField kTransposeB{16, 1};
inline constexpr BitField kNShr3{17, 6};
inline constexpr BitField kScaleType{23, 1};
inline constexpr BitField kMShr7{27, 2};
inline constexpr BitField kSfaId{29, 2};
inline constexpr BitField kKDim{31, 1};
inline constexpr BitField kFields[] = {
    kSparse,     kSfbId, kAType,     kBType, kNegateA, kNegateB, kTransposeA,
    kTransposeB, kNShr3, kScaleType, kMShr7, kSfaId,   kKDim};
/// Bits 0-1, 3, 6, 12 and 24-26: reserved, must be 0 for these kinds.
inline constexpr uint32_t kReservedMask =
    0x3u | (1u << 3) | (1u << 6) | (1u << 12) | (0x7u << 24);

static_assert(detail::disjoint(kFields, kReservedMask),
              "instruction-descriptor fields overlap");
static_assert(detail::unionMask(kFields, kReservedMask) == 0xFFFFFFFFu,
              "instruction-descriptor fields leave bits undescribed");
} // namespace idesc

/// The .kind qualifier of the opcode (not encoded in the descriptor).
enum class Mxf4Kind : uint8_t { Mxf4, Mxf4Nvf4 };
/// The block-size qualifier of the opcode (not encoded in the descriptor):
/// .block16 (alias .scale_vec::4X) or .block32 (alias .scale_vec::2X here).
enum class ScaleVec : uint8_t { Block16, Block32 };
/// Bit 23: the element type of both scale matrices.
enum class ScaleType : uint8_t { UE4M3 = 0, UE8M0 = 1 };
/// atype/btype code of e2m1 for the mxf4 kinds (.kind::mxf8f6f4 uses 5).
inline constexpr uint8_t kE2M1 = 1;
/// K of one dense mxf4/mxf4nvf4 MMA, in elements and in packed bytes.
inline constexpr uint32_t kMmaK = 64;
inline constexpr uint32_t kMmaKBytes = kMmaK / 2;

/// The opcode qualifiers that decide which descriptor values are legal.
struct MmaQualifiers {
  Mxf4Kind kind = Mxf4Kind::Mxf4Nvf4;
  ScaleVec vec = ScaleVec::Block16;
  unsigned ctaGroup = 1;
};

/// One field per descriptor field, holding the value it stands for (M and N
/// in elements, not shifted). decode(encode(d)) == d for any d whose fields
/// are representable (isValid checks that first).
struct BlockScaledInstrDesc {
  bool sparse = false;
  uint8_t sfbId = 0;
  uint8_t aType = kE2M1;
  uint8_t bType = kE2M1;
  bool negateA = false;
  bool negateB = false;
  bool transposeA = false;
  bool transposeB = false;
  uint32_t n = 8;
  ScaleType scaleType = ScaleType::UE4M3;
  uint32_t m = 128;
  uint8_t sfaId = 0;
  /// Bit 31: 0 = K64 (dense), 1 = K96 (dense, cta_group::2 with M = 256).
  bool k96 = false;

  constexpr uint32_t encode() const {
    using namespace idesc;
    uint64_t bits =
        kSparse.place(sparse) | kSfbId.place(sfbId) | kAType.place(aType) |
        kBType.place(bType) | kNegateA.place(negateA) |
        kNegateB.place(negateB) | kTransposeA.place(transposeA) |
        kTransposeB.place(transposeB) | kNShr3.place(n >> 3) |
        kScaleType.place(static_cast<uint8_t>(scaleType)) |
        kMShr7.place(m >> 7) | kSfaId.place(sfaId) | kKDim.place(k96);
    return static_cast<uint32_t>(bits);
  }

  /// Reserved bits are ignored here; see hasReservedBits.
  static constexpr BlockScaledInstrDesc decode(uint32_t bits) {
    using namespace idesc;
    BlockScaledInstrDesc d;
    d.sparse = kSparse.extract(bits);
    d.sfbId = static_cast<uint8_t>(kSfbId.extract(bits));
    d.aType = static_cast<uint8_t>(kAType.extract(bits));
    d.bType = static_cast<uint8_t>(kBType.extract(bits));
    d.negateA = kNegateA.extract(bits);
    d.negateB = kNegateB.extract(bits);
    d.transposeA = kTransposeA.extract(bits);
    d.transposeB = kTransposeB.extract(bits);
    d.n = static_cast<uint32_t>(kNShr3.extract(bits) << 3);
    d.scaleType = static_cast<ScaleType>(kScaleType.extract(bits));
    d.m = static_cast<uint32_t>(kMShr7.extract(bits) << 7);
    d.sfaId = static_cast<uint8_t>(kSfaId.extract(bits));
    d.k96 = kKDim.extract(bits);
    return d;
  }

  static constexpr bool hasReservedBits(uint32_t bits) {
    return (bits & idesc::kReservedMask) != 0;
  }

  /// Whether the descriptor is legal for an opcode with qualifiers `q`
  /// (dense tcgen05.mma only); if not, `*why` says which rule fails.
  inline bool isValid(const MmaQualifiers &q, std::string *why = nullptr) const;

  friend constexpr bool operator==(const BlockScaledInstrDesc &a,
                                   const BlockScaledInstrDesc &b) {
    return a.sparse == b.sparse && a.sfbId == b.sfbId && a.aType == b.aType &&
           a.bType == b.bType && a.negateA == b.negateA &&
           a.negateB == b.negateB && a.transposeA == b.transposeA &&
           a.transposeB == b.transposeB && a.n == b.n &&
           a.scaleType == b.scaleType && a.m == b.m && a.sfaId == b.sfaId &&
           a.k96 == b.k96;
  }
  friend constexpr bool operator!=(const BlockScaledInstrDesc &a,
                                   const BlockScaledInstrDesc &b) {
    return !(a == b);
  }
};

bool BlockScaledInstrDesc::isValid(const MmaQualifiers &q,
                                   std::string *why) const {
  using detail::fail;
  using namespace idesc;
  // Representable at all.
  if (n % 8 != 0 || !kNShr3.fits(n >> 3))
    return fail(why, "N must be a multiple of 8 below 512 to be encoded");
  if (m % 128 != 0 || !kMShr7.fits(m >> 7))
    return fail(why, "M must be a multiple of 128 below 512 to be encoded");
  if (!kSfaId.fits(sfaId) || !kSfbId.fits(sfbId))
    return fail(why, "scale-factor IDs are 2-bit fields");
  // Types (Table 44): e2m1 only, code 1.
  if (aType != kE2M1 || bType != kE2M1)
    return fail(why, "atype and btype must be E2M1 (code 1) for mxf4 kinds");
  // Table 49: no transpose for .kind::mxf4 / .kind::mxf4nvf4.
  if (transposeA || transposeB)
    return fail(why, "mxf4 kinds support K-major operands only (no transpose)");
  if (sparse)
    return fail(why, "sparse A needs tcgen05.mma.sp; this encoder is dense");
  // Table 55: element/scale type and block-size combinations.
  if (q.kind == Mxf4Kind::Mxf4 &&
      (q.vec != ScaleVec::Block32 || scaleType != ScaleType::UE8M0))
    return fail(why, ".kind::mxf4 needs .block32 with ue8m0 scales");
  if (q.vec == ScaleVec::Block32 && scaleType != ScaleType::UE8M0)
    return fail(why, ".block32 needs ue8m0 scales (ue4m3 needs .block16)");
  // Table 39 ("Various combinations of .kind and shapes"), dense rows.
  if (q.ctaGroup == 1) {
    if (m != 128)
      return fail(why, "cta_group::1 mxf4 kinds need M = 128");
    if (n < 8 || n > 256)
      return fail(why, "cta_group::1 needs N in [8, 256], a multiple of 8");
  } else if (q.ctaGroup == 2) {
    if (m != 128 && m != 256)
      return fail(why, "cta_group::2 mxf4 kinds need M = 128 or 256");
    if (n < 16 || n > 256 || n % 16 != 0)
      return fail(why, "cta_group::2 needs N in [16, 256], a multiple of 16");
  } else {
    return fail(why, "cta_group must be 1 or 2");
  }
  if (k96 && (q.ctaGroup != 2 || m != 256))
    return fail(why, "K = 96 exists only for cta_group::2 with M = 256");
  // Scale-factor IDs select sub-columns of the TMEM word (9.7.16.10.7.2/3):
  // four 1-byte scales per row fill the word for block16 at K = 64, so the
  // ID must be 0; two scales per row (block32) take a half word, ID 0 or 2.
  if (q.vec == ScaleVec::Block16 && !k96) {
    if (sfaId != 0 || sfbId != 0)
      return fail(why, ".block16 with K = 64 needs SFA_ID = SFB_ID = 0");
  } else if ((sfaId != 0 && sfaId != 2) || (sfbId != 0 && sfbId != 2)) {
    return fail(why, "scale-factor IDs must be 0 or 2 here");
  }
  return true;
}

/// NVFP4: .kind::mxf4nvf4.block_scale.block16 with ue4m3 scales.
constexpr BlockScaledInstrDesc nvfp4InstrDesc(uint32_t m, uint32_t n) {
  BlockScaledInstrDesc d;
  d.m = m;
  d.n = n;
  d.scaleType = ScaleType::UE4M3;
  return d;
}

/// MXFP4: .kind::mxf4(nvf4).block_scale.block32 with ue8m0 scales; `scaleId`
/// (0 or 2) picks the half of each TMEM scale word (see stepScaleId).
constexpr BlockScaledInstrDesc mxfp4InstrDesc(uint32_t m, uint32_t n,
                                              uint8_t scaleId = 0) {
  BlockScaledInstrDesc d;
  d.m = m;
  d.n = n;
  d.scaleType = ScaleType::UE8M0;
  d.sfaId = scaleId;
  d.sfbId = scaleId;
  return d;
}

//===----------------------------------------------------------------------===//
// 2. Shared-memory matrix descriptor
//===----------------------------------------------------------------------===//

/// Bit positions from the ISA table "Shared memory descriptor layout"
/// (9.7.16.4.1).
namespace sdesc {
inline constexpr BitField kStartAddress{0, 14};
inline constexpr BitField kLeadingByteOffset{16, 14};
inline constexpr BitField kStrideByteOffset{32, 14};
/// Bits 46-48 hold the constant 0b001 (absent from the Hopper wgmma format).
inline constexpr BitField kFixedOne{46, 3};
inline constexpr BitField kBaseOffset{49, 3};
inline constexpr BitField kLboMode{52, 1};
/// Bits 53-60 hold the constant 0.
inline constexpr BitField kFixedZero{53, 8};
inline constexpr BitField kSwizzle{61, 3};
inline constexpr BitField kFields[] = {
    kStartAddress, kLeadingByteOffset, kStrideByteOffset, kFixedOne,
    kBaseOffset,   kLboMode,           kFixedZero,        kSwizzle};
/// Bits 14-15 and 30-31 are not described by the table; kept 0.
inline constexpr uint64_t kUnusedMask =
    (uint64_t(0x3) << 14) | (uint64_t(0x3) << 30);
inline constexpr uint64_t kFixedOneValue = 0b001;

static_assert(detail::disjoint(kFields, kUnusedMask),
              "shared-memory-descriptor fields overlap");
static_assert(detail::unionMask(kFields, kUnusedMask) == ~uint64_t(0),
              "shared-memory-descriptor fields leave bits undescribed");
} // namespace sdesc

/// The ISA's matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: addresses and
/// offsets are stored in 16-byte units, from an 18-bit byte value.
constexpr uint32_t matrixDescriptorEncode(uint64_t x) {
  return static_cast<uint32_t>((x & 0x3FFFF) >> 4);
}

/// Bits 61-63. Values 3, 5 and 7 are invalid.
enum class Swizzle : uint8_t {
  None = 0,
  B128Atom32B = 1, ///< 128-byte swizzle with 32-byte atomicity
  B128 = 2,
  B64 = 4,
  B32 = 6,
};

/// A shared-memory descriptor with byte-valued offsets.
struct SmemDesc {
  /// Shared-window byte address of the matrix (16-byte aligned).
  uint32_t startAddress = 0;
  /// Leading-dimension byte offset (relative mode), 16-byte aligned.
  uint32_t lbo = 0;
  /// Stride-dimension byte offset, 16-byte aligned.
  uint32_t sbo = 0;
  /// Start of the swizzle pattern relative to its alignment (0 when aligned).
  uint8_t baseOffset = 0;
  /// Bit 52: LBO as an absolute address. sm_103a only (9.7.16.4.1.1).
  bool lboAbsolute = false;
  Swizzle swizzle = Swizzle::None;

  /// Already-shifted field values. nvvm.tcgen05.mma_smem_desc in LLVM 22
  /// masks its operands to the field widths and shifts them into place but
  /// does not apply matrix-descriptor-encode: pass these, not byte values.
  constexpr uint32_t startAddressField() const {
    return matrixDescriptorEncode(startAddress);
  }
  constexpr uint32_t lboField() const { return matrixDescriptorEncode(lbo); }
  constexpr uint32_t sboField() const { return matrixDescriptorEncode(sbo); }
  constexpr uint8_t swizzleField() const {
    return static_cast<uint8_t>(swizzle);
  }

  constexpr uint64_t encode() const {
    return encodeWithoutStart() |
           sdesc::kStartAddress.place(startAddressField());
  }

  /// The descriptor with bits 0-13 zero. A lowering whose start address is
  /// only known at run time ORs matrixDescriptorEncode(address) into it.
  constexpr uint64_t encodeWithoutStart() const {
    using namespace sdesc;
    return kLeadingByteOffset.place(lboField()) |
           kStrideByteOffset.place(sboField()) |
           kFixedOne.place(kFixedOneValue) | kBaseOffset.place(baseOffset) |
           kLboMode.place(lboAbsolute) | kSwizzle.place(swizzleField());
  }

  /// Byte values are the fields times 16. Fixed bits are not checked here;
  /// see hasValidFixedBits.
  static constexpr SmemDesc decode(uint64_t bits) {
    using namespace sdesc;
    SmemDesc d;
    d.startAddress = static_cast<uint32_t>(kStartAddress.extract(bits) << 4);
    d.lbo = static_cast<uint32_t>(kLeadingByteOffset.extract(bits) << 4);
    d.sbo = static_cast<uint32_t>(kStrideByteOffset.extract(bits) << 4);
    d.baseOffset = static_cast<uint8_t>(kBaseOffset.extract(bits));
    d.lboAbsolute = kLboMode.extract(bits);
    d.swizzle = static_cast<Swizzle>(kSwizzle.extract(bits));
    return d;
  }

  /// Bits 46-48 are 0b001, bits 53-60 and the undescribed bits are 0.
  static constexpr bool hasValidFixedBits(uint64_t bits) {
    using namespace sdesc;
    return kFixedOne.extract(bits) == kFixedOneValue &&
           kFixedZero.extract(bits) == 0 && (bits & kUnusedMask) == 0;
  }

  /// Whether the descriptor is legal on sm_100a; if not, `*why` says why.
  inline bool isValid(std::string *why = nullptr) const;

  friend constexpr bool operator==(const SmemDesc &a, const SmemDesc &b) {
    return a.startAddress == b.startAddress && a.lbo == b.lbo &&
           a.sbo == b.sbo && a.baseOffset == b.baseOffset &&
           a.lboAbsolute == b.lboAbsolute && a.swizzle == b.swizzle;
  }
  friend constexpr bool operator!=(const SmemDesc &a, const SmemDesc &b) {
    return !(a == b);
  }
};

constexpr bool isValidSwizzle(Swizzle s) {
  switch (s) {
  case Swizzle::None:
  case Swizzle::B128Atom32B:
  case Swizzle::B128:
  case Swizzle::B64:
  case Swizzle::B32:
    return true;
  }
  return false;
}

bool SmemDesc::isValid(std::string *why) const {
  using detail::fail;
  // The ISA requires 16-byte alignment of all three; encode would silently
  // drop the low bits otherwise.
  if (startAddress % 16 || lbo % 16 || sbo % 16)
    return fail(why, "start address, LBO and SBO must be 16-byte aligned");
  // matrix-descriptor-encode keeps 18 bits; larger values would wrap.
  if (startAddress > 0x3FFFF || lbo > 0x3FFFF || sbo > 0x3FFFF)
    return fail(why, "start address, LBO and SBO must be below 2^18 bytes");
  if (!sdesc::kBaseOffset.fits(baseOffset))
    return fail(why, "base offset is a 3-bit field");
  if (!isValidSwizzle(swizzle))
    return fail(why, "swizzle mode must be 0, 1, 2, 4 or 6");
  if (swizzle == Swizzle::None && baseOffset != 0)
    return fail(why, "base offset only applies to swizzled layouts");
  if (lboAbsolute)
    return fail(why, "absolute LBO mode needs sm_103a");
  return true;
}

//===----------------------------------------------------------------------===//
// 3. Canonical K-major layouts of e2m1 operands in shared memory
//===----------------------------------------------------------------------===//
//
// The ISA normalizes elements to 128 bits (T = 128 / bits = 32 e2m1 values
// per 16 bytes) and builds operands from "core matrices" of 8 rows x 16 bytes
// whose rows are 16 bytes apart (9.7.16.3.3, K-major no-swizzle canonical
// layout ((8,m),(T,2k)):((1T,SBO),(1,LBO))). For K-major operands without
// swizzling (9.7.16.3.1.1, 9.7.16.3.2): LBO is the byte distance between the
// two core matrices adjacent in K, SBO the distance between core matrices
// adjacent in M (A) or N (B). Two e2m1 values share a byte, element 2j in the
// low nibble (9.7.16.10.4.6: packed, no padding).
//
// The kernel does not use the unswizzled layouts: Triton, which runs them on
// Blackwell, reads LBO and SBO the other way round for K-major without
// swizzling and calls the ISA text wrong there. KMajorFp4Sw32Tile, on which
// the sources agree, is the kernel's layout (docs/tcgen05.md, "Facts").

inline constexpr uint32_t kCoreMatrixRows = 8;
inline constexpr uint32_t kCoreMatrixRowBytes = 16;
inline constexpr uint32_t kCoreMatrixBytes =
    kCoreMatrixRows * kCoreMatrixRowBytes;
/// e2m1 values in one 16-byte core-matrix row (the ISA's T for 4-bit types).
inline constexpr uint32_t kE2M1PerCoreRow = 32;

/// A K-major, SWIZZLE_NONE operand tile of `rows` x `kElems` e2m1 values:
/// core matrix (row / 8, k / 32) starts at (k / 32) * lbo + (row / 8) * sbo.
struct KMajorFp4Tile {
  uint32_t rows = 0;
  uint32_t kElems = 0;
  uint32_t lbo = 0;
  uint32_t sbo = 0;

  /// Byte holding element `k` of row `row`, from the tile start; the value is
  /// in the high nibble when `k` is odd.
  constexpr uint32_t byteOffset(uint32_t row, uint32_t k) const {
    return (k / kE2M1PerCoreRow) * lbo + (row / kCoreMatrixRows) * sbo +
           (row % kCoreMatrixRows) * kCoreMatrixRowBytes +
           (k % kE2M1PerCoreRow) / 2;
  }
  static constexpr bool isHighNibble(uint32_t k) { return k % 2 == 1; }

  /// Start-address advance for K64 step `kStep`: one MMA consumes two
  /// K-adjacent core-matrix columns.
  constexpr uint32_t kStepOffset(uint32_t kStep) const {
    return kStep * (kMmaK / kE2M1PerCoreRow) * lbo;
  }
  /// Descriptor of the operand slice for K64 step `kStep`.
  constexpr SmemDesc descriptor(uint32_t tileStart, uint32_t kStep) const {
    SmemDesc d;
    d.startAddress = tileStart + kStepOffset(kStep);
    d.lbo = lbo;
    d.sbo = sbo;
    return d;
  }

  /// Shape multiple of the core matrix and of K64; strides 16-byte aligned,
  /// encodable, and no two core matrices overlapping.
  inline bool isValid(std::string *why = nullptr) const;
};

bool KMajorFp4Tile::isValid(std::string *why) const {
  using detail::fail;
  if (rows == 0 || rows % kCoreMatrixRows)
    return fail(why, "rows must be a positive multiple of 8");
  if (kElems == 0 || kElems % kMmaK)
    return fail(why, "K extent must be a positive multiple of 64");
  if (lbo % 16 || sbo % 16 || lbo > 0x3FFFF || sbo > 0x3FFFF)
    return fail(why, "LBO and SBO must be 16-byte aligned and below 2^18");
  // Each core matrix is 128 contiguous bytes: their starts must be at least
  // that far apart. Tiles are small, so check every pair.
  uint32_t groups = rows / kCoreMatrixRows;
  uint32_t columns = kElems / kE2M1PerCoreRow;
  for (uint32_t i = 0; i < groups * columns; ++i) {
    for (uint32_t j = i + 1; j < groups * columns; ++j) {
      int64_t a = int64_t(i % columns) * lbo + int64_t(i / columns) * sbo;
      int64_t b = int64_t(j % columns) * lbo + int64_t(j / columns) * sbo;
      int64_t gap = a > b ? a - b : b - a;
      if (gap < int64_t(kCoreMatrixBytes))
        return fail(why, "core matrices overlap for this LBO/SBO");
    }
  }
  return true;
}

/// The ISA's reading of a packed unswizzled tile (not used by the kernel,
/// see above): each 16-byte K column of the tile is one
/// contiguous block of rows x 16 bytes, so SBO = 128 (8-row groups packed)
/// and LBO = rows * 16 (next K column). A [128 x 64] A tile is two 2 KiB
/// blocks (LBO 2048); an [8 x 64] B tile two 128-byte blocks (LBO 128).
constexpr KMajorFp4Tile canonicalKMajorFp4Tile(uint32_t rows, uint32_t kElems) {
  return KMajorFp4Tile{rows, kElems, rows * kCoreMatrixRowBytes,
                       kCoreMatrixBytes};
}

/// K-major operand with 32-byte swizzling, the layout of the GEMV kernel's
/// A and B tiles. A swizzle atom is 8 rows x 32 bytes (64 e2m1 values: one
/// K64 step), rows 32 bytes apart; 8-row groups are SBO = 256 bytes apart;
/// successive K64 slabs of the tile are rows * 32 bytes apart, so every MMA
/// starts on an atom. The swizzle is Swizzle<1,4,3> on byte addresses
/// (address bit 4 ^= bit 7): rows 4-7 of an atom swap their two 16-byte
/// halves. Its pattern repeats every 256 bytes, so the tile must start
/// 256-byte aligned for a base offset of 0. LBO is unused for swizzled
/// K-major layouts ("assumed 1", 9.7.16.3.1.1); field value 1 is written.
/// The PTX ISA (canonical layout table), CUTLASS (make_umma_desc, K-major
/// B32) and Triton (getDescriptor) agree on this layout; it is also what a
/// TMA copy with CU_TENSOR_MAP_SWIZZLE_32B and a 32-byte inner box writes.
struct KMajorFp4Sw32Tile {
  uint32_t rows = 0;
  uint32_t kElems = 0;

  static constexpr uint32_t kRowBytes = kMmaKBytes;
  static constexpr uint32_t kAtomBytes = kCoreMatrixRows * kRowBytes;
  /// The swizzle pattern's period: the alignment a tile start needs.
  static constexpr uint32_t kAlignment = kAtomBytes;

  constexpr uint32_t slabBytes() const { return rows * kRowBytes; }
  constexpr uint32_t bytes() const { return slabBytes() * (kElems / kMmaK); }

  /// Offset from the tile start of byte `kByte` (element pair 2 kByte,
  /// 2 kByte + 1) of row `row`, for a tile whose K64 slabs are `slabBytes`
  /// apart. This is the one definition of the layout: the staging copies
  /// instantiate it with IR values, the tests with integers. Only `+ * / %`
  /// with integer constants, so that both index types can evaluate it.
  template <class V> static V byteOffset(V row, V kByte, int64_t slabBytes) {
    const int64_t rowBytes = kRowBytes, half = kCoreMatrixRowBytes;
    V inRow = kByte % rowBytes;
    // Bit 7 of the offset is bit 2 of the row within the atom; it flips
    // bit 4, which picks the 16-byte half of the row.
    V half16 = (inRow / half + row % int64_t(kCoreMatrixRows) / 4) % 2;
    return kByte / rowBytes * slabBytes +
           row / int64_t(kCoreMatrixRows) * int64_t(kAtomBytes) +
           row % int64_t(kCoreMatrixRows) * rowBytes + half16 * half +
           inRow % half;
  }
  /// Byte holding element `k` of row `row`; high nibble when `k` is odd.
  constexpr uint32_t elementOffset(uint32_t row, uint32_t k) const {
    return static_cast<uint32_t>(
        byteOffset<int64_t>(row, k / 2, int64_t(slabBytes())));
  }
  /// Start-address advance of K64 step `kStep`: one whole slab.
  constexpr uint32_t kStepOffset(uint32_t kStep) const {
    return kStep * slabBytes();
  }
  constexpr SmemDesc descriptor(uint32_t tileStart, uint32_t kStep) const {
    SmemDesc d;
    d.startAddress = tileStart + kStepOffset(kStep);
    d.lbo = kCoreMatrixRowBytes; // unused; the ISA's "assumed 1"
    d.sbo = kAtomBytes;
    d.swizzle = Swizzle::B32;
    return d;
  }
};

/// K-major operand with 128-byte swizzling: atoms of 8 rows x 128 bytes (256
/// e2m1 values), the atom's rows 128 bytes apart, atoms along M/N 1024 bytes
/// apart (SBO) and successive 256-wide K slabs rows * 128 bytes apart. The
/// 16-byte chunk index (address bits 4-6) is XORed with the row within the
/// atom (address bits 7-9): Swizzle<3,4,3> of 9.7.16.3.3, whose pattern
/// repeats every 1024 bytes, so the tile start must be 1024-byte aligned for
/// a base offset of 0. LBO is unused for swizzled K-major layouts ("assumed
/// 1", 9.7.16.3.1.1).
struct KMajorFp4Sw128Tile {
  uint32_t rows = 0;
  uint32_t kElems = 0;

  static constexpr uint32_t kAtomRowBytes = 128;
  static constexpr uint32_t kAtomBytes = kCoreMatrixRows * kAtomRowBytes;
  static constexpr uint32_t kSlabElems = 2 * kAtomRowBytes;

  /// The 128-byte swizzle of a byte address (or of an offset from a
  /// 1024-byte aligned base).
  static constexpr uint32_t swizzle128(uint32_t address) {
    return address ^ (((address >> 7) & 0x7) << 4);
  }
  constexpr uint32_t slabBytes() const { return rows * kAtomRowBytes; }
  /// Byte holding element `k` of row `row`, from a 1024-byte aligned start.
  constexpr uint32_t byteOffset(uint32_t row, uint32_t k) const {
    uint32_t linear = (row / kCoreMatrixRows) * kAtomBytes +
                      (row % kCoreMatrixRows) * kAtomRowBytes +
                      (k % kSlabElems) / 2;
    return (k / kSlabElems) * slabBytes() + swizzle128(linear);
  }
  /// Descriptor for K64 step `kStep`: the start moves 32 bytes along the
  /// unswizzled row; the hardware applies the XOR to the final address.
  constexpr SmemDesc descriptor(uint32_t tileStart, uint32_t kStep) const {
    uint32_t stepsPerSlab = kSlabElems / kMmaK;
    SmemDesc d;
    d.startAddress = tileStart + (kStep / stepsPerSlab) * slabBytes() +
                     (kStep % stepsPerSlab) * kMmaKBytes;
    d.lbo = 16;
    d.sbo = kAtomBytes;
    d.swizzle = Swizzle::B128;
    return d;
  }
};

//===----------------------------------------------------------------------===//
// 4. Scale factors in tensor memory
//===----------------------------------------------------------------------===//
//
// Tensor memory is 128 lanes x 512 columns of 32-bit cells; an address holds
// the lane in bits 31-16 and the column in bits 15-0 (9.7.16.1.1).
// tcgen05.cp.32x128b copies 32 lanes x 128 bits, i.e. 16 bytes (4 columns)
// per lane (9.7.16.2.3); .warpx4 multicasts those 32 lanes to all four
// 32-lane partitions (9.7.16.9.2), as block scaling requires (9.7.16.10.7:
// scale factors must be duplicated to all 32-lane partitions). The source is
// described like a K-major, unswizzled operand whose rows are 16 bytes: one
// core matrix wide, so SBO (128: 8 rows x 16 bytes) steps over 8-row groups
// and LBO is never used. Copying one 512-byte 128x4 atom of the blocked
// layout (ScaleLayout.h) thus puts atom bytes [16 i, 16 i + 16) in lane i (and
// lanes 32 + i, 64 + i, 96 + i), columns c..c+3, little-endian: row r's four
// scales, at atom bytes 16 (r % 32) + 4 (r / 32) + j, land in byte j of
// column c + r / 32, lane r % 32. For block16 the four bytes are the scales
// of one K64 step (4 x 16 elements), which is why SFA_ID/SFB_ID are 0; for
// block32 one atom covers two K64 steps, selected by ID 0 (bytes 0-1) or 2
// (bytes 2-3). The scale matrix of B uses the same atom, rows being N.

inline constexpr uint32_t kTmemLanes = 128;
inline constexpr uint32_t kTmemColumns = 512;
inline constexpr uint32_t kLanePartition = 32;
/// 32x128b: lanes per copy and 32-bit columns per copy.
inline constexpr uint32_t kScaleCopyLanes = 32;
inline constexpr uint32_t kScaleCopyColumns = 4;
inline constexpr uint32_t kScaleCopyRowBytes = 16;
inline constexpr uint32_t kScaleAtomBytes = 512;

constexpr uint32_t tmemAddress(uint32_t lane, uint32_t column) {
  return (lane << 16) | (column & 0xFFFF);
}
constexpr uint32_t tmemLane(uint32_t address) { return address >> 16; }
constexpr uint32_t tmemColumn(uint32_t address) { return address & 0xFFFF; }

/// Smallest legal tcgen05.alloc column count holding `columns`: a power of
/// two, at least 32 (9.7.16.1.2). 0 when more than 512 are needed.
constexpr uint32_t tmemAllocColumns(uint32_t columns) {
  uint32_t n = 32;
  while (n < columns && n < kTmemColumns)
    n *= 2;
  return columns <= n ? n : 0;
}

/// Descriptor for tcgen05.cp.32x128b.warpx4 of the 512-byte atom at
/// `atomAddress` (16-byte aligned): no swizzle, SBO 128 between 8-row groups.
/// The source is one 16-byte column wide, so the ISA never uses LBO here;
/// it is set to 128 as well, which makes the descriptor mean the same
/// layout if LBO and SBO were read the other way round (Triton's finding
/// for tcgen05.mma without swizzling; it reports tcgen05.cp as documented).
constexpr SmemDesc scaleAtomCopyDesc(uint32_t atomAddress) {
  SmemDesc d;
  d.startAddress = atomAddress;
  d.lbo = kCoreMatrixRows * kScaleCopyRowBytes;
  d.sbo = kCoreMatrixRows * kScaleCopyRowBytes;
  return d;
}

/// Column offset (from the scale region's first column) where atom `atom`
/// of a tile's scale matrix is copied; atom j holds scale columns 4j..4j+3.
constexpr uint32_t scaleAtomColumn(uint32_t atom) {
  return atom * kScaleCopyColumns;
}

/// Atom read by K64 step `kStep`: block16 uses a whole atom per step,
/// block32 half of one.
constexpr uint32_t scaleAtomForStep(uint32_t kStep, ScaleVec vec) {
  return vec == ScaleVec::Block16 ? kStep : kStep / 2;
}
/// Column offset to pass as [scale-A-tmem] / [scale-B-tmem] for K64 step
/// `kStep` (lane 0 of the region).
constexpr uint32_t scaleStepColumn(uint32_t kStep, ScaleVec vec) {
  return scaleAtomColumn(scaleAtomForStep(kStep, vec));
}
/// SFA_ID / SFB_ID for K64 step `kStep`.
constexpr uint8_t stepScaleId(uint32_t kStep, ScaleVec vec) {
  return vec == ScaleVec::Block16 ? 0 : static_cast<uint8_t>(2 * (kStep % 2));
}
/// TMEM columns a scale region for `kSteps` K64 steps needs.
constexpr uint32_t scaleRegionColumns(uint32_t kSteps, ScaleVec vec) {
  uint32_t atoms = vec == ScaleVec::Block16 ? kSteps : (kSteps + 1) / 2;
  return scaleAtomColumn(atoms);
}

/// A byte of tensor memory.
struct TmemByte {
  uint32_t lane;
  uint32_t column;
  uint32_t byte;
  friend constexpr bool operator==(const TmemByte &a, const TmemByte &b) {
    return a.lane == b.lane && a.column == b.column && a.byte == b.byte;
  }
};

/// Where scale (`row`, `col`) of a tile's scale matrix (row < 128; col the
/// scale column counted from the region's first K step) lies after the
/// copies, in lane partition `partition` (each of the four holds a copy).
/// Columns are offsets from the region's first column.
constexpr TmemByte scaleLocation(uint32_t row, uint32_t col,
                                 uint32_t partition = 0) {
  return TmemByte{
      partition * kLanePartition + row % kLanePartition,
      scaleAtomColumn(col / 4) + (row % kTmemLanes) / kLanePartition, col % 4};
}

/// Offset within the 512-byte source atom of the byte that
/// tcgen05.cp.32x128b.warpx4 writes to byte `byte` of copy column `column`
/// (0-3) in lane `lane` (any partition).
constexpr uint32_t scaleAtomByteForCell(uint32_t lane, uint32_t column,
                                        uint32_t byte) {
  return (lane % kScaleCopyLanes) * kScaleCopyRowBytes + column * 4 + byte;
}

} // namespace nvfp4::tcgen05

#endif // NVFP4_SUPPORT_TCGEN05DESCRIPTORS_H
