//===- Tcgen05DescriptorsTest.cpp - tcgen05 descriptor encoders -----------===//
//
// Expected descriptor words are worked out by hand from the PTX ISA tables
// (9.7.16.4.1 and 9.7.16.4.2) as separate shifts and ors, never by calling
// the encoder. Layouts are checked against the ISA's canonical CuTe layouts,
// and the scale-factor placement against a model of tcgen05.cp.32x128b.warpx4
// fed with bytes laid out by ScaleLayout.h's blockedOffset.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Tcgen05Descriptors.h"
#include "nvfp4/Support/ScaleLayout.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace nvfp4::tcgen05;

namespace {

//===----------------------------------------------------------------------===//
// Instruction descriptor
//===----------------------------------------------------------------------===//

constexpr MmaQualifiers kNvfp4{Mxf4Kind::Mxf4Nvf4, ScaleVec::Block16, 1};
constexpr MmaQualifiers kMxfp4{Mxf4Kind::Mxf4, ScaleVec::Block32, 1};

// The worked example 0x08020480, and a compile-time check that encode is
// constexpr.
static_assert(nvfp4InstrDesc(128, 8).encode() == 0x08020480u,
              "M = 128, N = 8, e2m1 x e2m1, ue4m3 scales");

TEST(Tcgen05InstrDescTest, SpecExample) {
  // atype E2M1 = 1 at bit 7, btype E2M1 = 1 at bit 10, N >> 3 = 1 at bit 17,
  // M >> 7 = 1 at bit 27, scale type UE4M3 = 0 at bit 23.
  uint32_t expected = (1u << 7) | (1u << 10) | (1u << 17) | (1u << 27);
  EXPECT_EQ(expected, 0x08020480u);
  EXPECT_EQ(nvfp4InstrDesc(128, 8).encode(), expected);
  std::string why;
  EXPECT_TRUE(nvfp4InstrDesc(128, 8).isValid(kNvfp4, &why)) << why;
}

TEST(Tcgen05InstrDescTest, HandEncodedValues) {
  uint32_t e2m1Both = (1u << 7) | (1u << 10);
  uint32_t m128 = 1u << 27;
  // N = 16 and N = 256.
  EXPECT_EQ(nvfp4InstrDesc(128, 16).encode(), e2m1Both | (2u << 17) | m128);
  EXPECT_EQ(nvfp4InstrDesc(128, 16).encode(), 0x08040480u);
  EXPECT_EQ(nvfp4InstrDesc(128, 256).encode(), e2m1Both | (32u << 17) | m128);
  EXPECT_EQ(nvfp4InstrDesc(128, 256).encode(), 0x08400480u);
  // MXFP4: ue8m0 sets bit 23.
  EXPECT_EQ(mxfp4InstrDesc(128, 8).encode(),
            e2m1Both | (1u << 17) | (1u << 23) | m128);
  EXPECT_EQ(mxfp4InstrDesc(128, 8).encode(), 0x08820480u);
  // MXFP4, second K64 step of an atom: SFA_ID = SFB_ID = 2.
  EXPECT_EQ(mxfp4InstrDesc(128, 8, 2).encode(),
            e2m1Both | (2u << 4) | (1u << 17) | (1u << 23) | m128 | (2u << 29));
  EXPECT_EQ(mxfp4InstrDesc(128, 8, 2).encode(), 0x488204A0u);
  // Negate A (bit 13) and B (bit 14).
  BlockScaledInstrDesc neg = nvfp4InstrDesc(128, 8);
  neg.negateA = true;
  EXPECT_EQ(neg.encode(), 0x08020480u | (1u << 13));
  neg.negateB = true;
  EXPECT_EQ(neg.encode(), 0x08026480u);
  // M = 256 (cta_group::2): M >> 7 = 2 in bits 27-28. CUTLASS writes the same
  // bits as M >> 4 in bits 24-28; the two agree for multiples of 128.
  BlockScaledInstrDesc m256 = nvfp4InstrDesc(256, 16);
  EXPECT_EQ(m256.encode(), e2m1Both | (2u << 17) | (2u << 27));
  EXPECT_EQ(m256.encode(), e2m1Both | (2u << 17) | ((256u >> 4) << 24));
  EXPECT_EQ(m256.encode(), 0x10040480u);
  // K = 96 is bit 31.
  m256.k96 = true;
  EXPECT_EQ(m256.encode(), 0x90040480u);
}

TEST(Tcgen05InstrDescTest, FieldByFieldRoundTrip) {
  int checked = 0;
  for (uint32_t m : {128u, 256u})
    for (uint32_t n = 8; n <= 256; n += 8)
      for (ScaleType st : {ScaleType::UE4M3, ScaleType::UE8M0})
        for (int flags = 0; flags < 16; ++flags)
          for (uint8_t sfa = 0; sfa < 4; ++sfa) {
            BlockScaledInstrDesc d;
            d.m = m;
            d.n = n;
            d.scaleType = st;
            d.negateA = flags & 1;
            d.negateB = flags & 2;
            d.transposeA = flags & 4;
            d.k96 = flags & 8;
            d.sfaId = sfa;
            d.sfbId = static_cast<uint8_t>(3 - sfa);
            uint32_t bits = d.encode();
            EXPECT_FALSE(BlockScaledInstrDesc::hasReservedBits(bits));
            EXPECT_EQ(BlockScaledInstrDesc::decode(bits), d);
            ++checked;
          }
  EXPECT_EQ(checked, 2 * 32 * 2 * 16 * 4);
}

TEST(Tcgen05InstrDescTest, SingleFieldPositions) {
  // Each field set alone to its largest value lands exactly on its bits.
  BlockScaledInstrDesc zero;
  zero.aType = zero.bType = 0;
  zero.m = zero.n = 0;
  EXPECT_EQ(zero.encode(), 0u);
  auto with = [&](auto set) {
    BlockScaledInstrDesc d = zero;
    set(d);
    return d.encode();
  };
  EXPECT_EQ(with([](auto &d) { d.sparse = true; }), 1u << 2);
  EXPECT_EQ(with([](auto &d) { d.sfbId = 3; }), 3u << 4);
  EXPECT_EQ(with([](auto &d) { d.aType = 7; }), 7u << 7);
  EXPECT_EQ(with([](auto &d) { d.bType = 3; }), 3u << 10);
  EXPECT_EQ(with([](auto &d) { d.transposeA = true; }), 1u << 15);
  EXPECT_EQ(with([](auto &d) { d.transposeB = true; }), 1u << 16);
  EXPECT_EQ(with([](auto &d) { d.n = 63 * 8; }), 63u << 17);
  EXPECT_EQ(with([](auto &d) { d.scaleType = ScaleType::UE8M0; }), 1u << 23);
  EXPECT_EQ(with([](auto &d) { d.m = 3 * 128; }), 3u << 27);
  EXPECT_EQ(with([](auto &d) { d.sfaId = 3; }), 3u << 29);
  EXPECT_EQ(with([](auto &d) { d.k96 = true; }), 1u << 31);
  // Reserved: bits 0-1, 3, 6, 12, 24-26.
  EXPECT_EQ(idesc::kReservedMask, 0x0700104Bu);
  EXPECT_TRUE(BlockScaledInstrDesc::hasReservedBits(0x08020480u | (1u << 12)));
  EXPECT_TRUE(BlockScaledInstrDesc::hasReservedBits(0x08020480u | (1u << 24)));
  EXPECT_FALSE(BlockScaledInstrDesc::hasReservedBits(0x08020480u));
}

TEST(Tcgen05InstrDescTest, ValidConfigurations) {
  std::string why;
  for (uint32_t n = 8; n <= 256; n += 8) {
    EXPECT_TRUE(nvfp4InstrDesc(128, n).isValid(kNvfp4, &why)) << n << why;
    EXPECT_TRUE(mxfp4InstrDesc(128, n).isValid(kMxfp4, &why)) << n << why;
    EXPECT_TRUE(mxfp4InstrDesc(128, n, 2).isValid(kMxfp4, &why)) << n << why;
  }
  // mxf4nvf4 also takes ue8m0 scales, with block16 or block32.
  BlockScaledInstrDesc d = nvfp4InstrDesc(128, 8);
  d.scaleType = ScaleType::UE8M0;
  EXPECT_TRUE(d.isValid(kNvfp4, &why)) << why;
  EXPECT_TRUE(mxfp4InstrDesc(128, 8).isValid(
      {Mxf4Kind::Mxf4Nvf4, ScaleVec::Block32, 1}, &why))
      << why;
  // Negation is allowed for the fp4 kinds.
  d.negateA = d.negateB = true;
  EXPECT_TRUE(d.isValid(kNvfp4, &why)) << why;
  // cta_group::2: M = 128 or 256, N multiple of 16; K96 with M = 256.
  MmaQualifiers pair{Mxf4Kind::Mxf4Nvf4, ScaleVec::Block16, 2};
  EXPECT_TRUE(nvfp4InstrDesc(256, 256).isValid(pair, &why)) << why;
  EXPECT_TRUE(nvfp4InstrDesc(128, 16).isValid(pair, &why)) << why;
  BlockScaledInstrDesc k96 = nvfp4InstrDesc(256, 64);
  k96.k96 = true;
  EXPECT_TRUE(k96.isValid(pair, &why)) << why;
}

TEST(Tcgen05InstrDescTest, ValidationFailures) {
  auto rejects = [](BlockScaledInstrDesc d, MmaQualifiers q) {
    std::string why;
    bool ok = d.isValid(q, &why);
    EXPECT_FALSE(why.empty() && !ok) << "a rejection must say why";
    return !ok;
  };
  // Shapes: M = 64 and 256 with cta_group::1, N off the grid.
  EXPECT_TRUE(rejects(nvfp4InstrDesc(64, 8), kNvfp4));
  EXPECT_TRUE(rejects(nvfp4InstrDesc(256, 8), kNvfp4));
  EXPECT_TRUE(rejects(nvfp4InstrDesc(128, 0), kNvfp4));
  EXPECT_TRUE(rejects(nvfp4InstrDesc(128, 12), kNvfp4));
  EXPECT_TRUE(rejects(nvfp4InstrDesc(128, 264), kNvfp4));
  EXPECT_TRUE(rejects(nvfp4InstrDesc(128, 8),
                      {Mxf4Kind::Mxf4Nvf4, ScaleVec::Block16, 2}));
  EXPECT_TRUE(rejects(nvfp4InstrDesc(128, 8),
                      {Mxf4Kind::Mxf4Nvf4, ScaleVec::Block16, 3}));
  // No transpose for fp4 kinds.
  BlockScaledInstrDesc d = nvfp4InstrDesc(128, 8);
  d.transposeA = true;
  EXPECT_TRUE(rejects(d, kNvfp4));
  d = nvfp4InstrDesc(128, 8);
  d.transposeB = true;
  EXPECT_TRUE(rejects(d, kNvfp4));
  // Scale-factor IDs: 0 for block16; 0 or 2 for block32.
  d = nvfp4InstrDesc(128, 8);
  d.sfaId = 2;
  EXPECT_TRUE(rejects(d, kNvfp4));
  d = nvfp4InstrDesc(128, 8);
  d.sfbId = 1;
  EXPECT_TRUE(rejects(d, kNvfp4));
  EXPECT_TRUE(rejects(mxfp4InstrDesc(128, 8, 1), kMxfp4));
  EXPECT_TRUE(rejects(mxfp4InstrDesc(128, 8, 3), kMxfp4));
  // Type codes: the mxf8f6f4 code of e2m1 (5) is wrong here.
  d = nvfp4InstrDesc(128, 8);
  d.aType = 5;
  EXPECT_TRUE(rejects(d, kNvfp4));
  // Scale type and block size: mxf4 is ue8m0/block32 only, ue4m3 needs
  // block16.
  EXPECT_TRUE(rejects(nvfp4InstrDesc(128, 8), kMxfp4));
  EXPECT_TRUE(rejects(nvfp4InstrDesc(128, 8),
                      {Mxf4Kind::Mxf4Nvf4, ScaleVec::Block32, 1}));
  EXPECT_TRUE(
      rejects(mxfp4InstrDesc(128, 8), {Mxf4Kind::Mxf4, ScaleVec::Block16, 1}));
  // Dense only; K96 only with cta_group::2 and M = 256.
  d = nvfp4InstrDesc(128, 8);
  d.sparse = true;
  EXPECT_TRUE(rejects(d, kNvfp4));
  d = nvfp4InstrDesc(128, 8);
  d.k96 = true;
  EXPECT_TRUE(rejects(d, kNvfp4));
}

//===----------------------------------------------------------------------===//
// Shared-memory descriptor
//===----------------------------------------------------------------------===//

TEST(Tcgen05SmemDescTest, NoSwizzleOperandExample) {
  // A [128 x 64] e2m1 tile at 0x1000: LBO 2048, SBO 128, no swizzle.
  uint64_t expected = (uint64_t(0x1000) >> 4) |       // bits 0-13
                      ((uint64_t(2048) >> 4) << 16) | // bits 16-29
                      ((uint64_t(128) >> 4) << 32) |  // bits 32-45
                      (uint64_t(1) << 46);            // fixed 0b001
  EXPECT_EQ(expected, 0x0000400800800100ull);
  SmemDesc d{0x1000, 2048, 128, 0, false, Swizzle::None};
  std::string why;
  EXPECT_TRUE(d.isValid(&why)) << why;
  EXPECT_EQ(d.encode(), expected);
  EXPECT_EQ(SmemDesc::decode(expected), d);
  EXPECT_TRUE(SmemDesc::hasValidFixedBits(expected));
  // The operands nvvm.tcgen05.mma_smem_desc takes: already shifted.
  EXPECT_EQ(d.startAddressField(), 0x100u);
  EXPECT_EQ(d.lboField(), 128u);
  EXPECT_EQ(d.sboField(), 8u);
  EXPECT_EQ(d.swizzleField(), 0u);
  // Start address supplied at run time.
  EXPECT_EQ(d.encodeWithoutStart() | matrixDescriptorEncode(0x1000), expected);
}

TEST(Tcgen05SmemDescTest, Swizzle128Example) {
  // 128B swizzle at 0x4000: LBO field 1 (unused), SBO 1024, mode 2.
  uint64_t expected = (uint64_t(0x4000) >> 4) | ((uint64_t(16) >> 4) << 16) |
                      ((uint64_t(1024) >> 4) << 32) | (uint64_t(1) << 46) |
                      (uint64_t(2) << 61);
  EXPECT_EQ(expected, 0x4000404000010400ull);
  SmemDesc d{0x4000, 16, 1024, 0, false, Swizzle::B128};
  EXPECT_EQ(d.encode(), expected);
  EXPECT_EQ(SmemDesc::decode(expected), d);
}

TEST(Tcgen05SmemDescTest, OtherFields) {
  // Base offset 5 (bits 49-51), swizzle 64B (4) and 32B (6), LBO mode bit.
  SmemDesc d{0x200, 256, 512, 5, false, Swizzle::B64};
  uint64_t expected = (uint64_t(0x200) >> 4) | ((uint64_t(256) >> 4) << 16) |
                      ((uint64_t(512) >> 4) << 32) | (uint64_t(1) << 46) |
                      (uint64_t(5) << 49) | (uint64_t(4) << 61);
  EXPECT_EQ(d.encode(), expected);
  EXPECT_EQ(SmemDesc::decode(expected), d);
  d.swizzle = Swizzle::B32;
  EXPECT_EQ(d.encode() >> 61, 6u);
  d.lboAbsolute = true;
  EXPECT_EQ((d.encode() >> 52) & 1, 1u);
  EXPECT_EQ(SmemDesc::decode(d.encode()), d);
  EXPECT_EQ(static_cast<unsigned>(Swizzle::B128Atom32B), 1u);
  // matrix-descriptor-encode keeps 18 bits of the address.
  EXPECT_EQ(matrixDescriptorEncode(0x40010), 0x1u);
  EXPECT_EQ(matrixDescriptorEncode(0x3FFF0), 0x3FFFu);
}

TEST(Tcgen05SmemDescTest, RoundTrip) {
  for (uint32_t addr : {0u, 0x10u, 0x1230u, 0x3FFF0u})
    for (uint32_t lbo : {0u, 16u, 2048u, 0x3FFF0u})
      for (uint32_t sbo : {0u, 128u, 1024u, 0x3FFF0u})
        for (Swizzle s : {Swizzle::None, Swizzle::B128Atom32B, Swizzle::B128,
                          Swizzle::B64, Swizzle::B32})
          for (uint8_t base : {uint8_t(0), uint8_t(7)}) {
            SmemDesc d{addr, lbo, sbo, base, false, s};
            uint64_t bits = d.encode();
            EXPECT_TRUE(SmemDesc::hasValidFixedBits(bits));
            EXPECT_EQ(SmemDesc::decode(bits), d);
          }
}

TEST(Tcgen05SmemDescTest, FixedBitsAndValidation) {
  uint64_t good = SmemDesc{0x1000, 2048, 128}.encode();
  EXPECT_TRUE(SmemDesc::hasValidFixedBits(good));
  EXPECT_FALSE(SmemDesc::hasValidFixedBits(good & ~(uint64_t(1) << 46)));
  EXPECT_FALSE(SmemDesc::hasValidFixedBits(good | (uint64_t(1) << 47)));
  EXPECT_FALSE(SmemDesc::hasValidFixedBits(good | (uint64_t(1) << 53)));
  EXPECT_FALSE(SmemDesc::hasValidFixedBits(good | (uint64_t(1) << 14)));
  EXPECT_FALSE(SmemDesc::hasValidFixedBits(good | (uint64_t(1) << 31)));

  auto rejects = [](SmemDesc d) {
    std::string why;
    bool ok = d.isValid(&why);
    EXPECT_TRUE(ok || !why.empty());
    return !ok;
  };
  EXPECT_FALSE(rejects(SmemDesc{0x1000, 2048, 128}));
  EXPECT_TRUE(rejects(SmemDesc{0x1008, 2048, 128}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 2040, 128}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 2048, 120}));
  EXPECT_TRUE(rejects(SmemDesc{0x40000, 2048, 128}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 0x40000, 128}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 16, 1024, 8, false, Swizzle::B128}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 16, 1024, 0, false, Swizzle(3)}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 16, 1024, 0, false, Swizzle(7)}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 2048, 128, 1, false, Swizzle::None}));
  EXPECT_TRUE(rejects(SmemDesc{0x1000, 2048, 128, 0, true, Swizzle::None}));
}

//===----------------------------------------------------------------------===//
// Operand layouts
//===----------------------------------------------------------------------===//

/// The ISA's K-major no-swizzle canonical layout ((8,m),(T,2k)):((1T,SBO),
/// (1,LBO)) in e2m1 units (T = 32, strides in elements, two per byte),
/// evaluated at (row, k) and converted to bytes.
uint32_t canonicalNoSwizzleByte(uint32_t row, uint32_t k, uint32_t lbo,
                                uint32_t sbo) {
  const uint32_t t = 32;
  uint32_t r0 = row % 8, r1 = row / 8, t0 = k % t, j = k / t;
  uint32_t elem = r0 * t + r1 * (2 * sbo) + t0 + j * (2 * lbo);
  return elem / 2;
}

TEST(Tcgen05OperandLayoutTest, CanonicalNoSwizzleTiles) {
  KMajorFp4Tile a = canonicalKMajorFp4Tile(128, 64);
  EXPECT_EQ(a.lbo, 2048u);
  EXPECT_EQ(a.sbo, 128u);
  KMajorFp4Tile b = canonicalKMajorFp4Tile(8, 64);
  EXPECT_EQ(b.lbo, 128u);
  EXPECT_EQ(b.sbo, 128u);
  // Worked by hand: row 9, k 40 is in K column 1 (+2048), row group 1
  // (+128), row 1 of the core matrix (+16), byte (40 % 32) / 2 = 4.
  EXPECT_EQ(a.byteOffset(9, 40), 2048u + 128u + 16u + 4u);
  EXPECT_FALSE(KMajorFp4Tile::isHighNibble(40));
  EXPECT_TRUE(KMajorFp4Tile::isHighNibble(41));
  EXPECT_EQ(a.byteOffset(9, 41), a.byteOffset(9, 40));
  for (KMajorFp4Tile tile :
       {a, b, canonicalKMajorFp4Tile(128, 256), canonicalKMajorFp4Tile(16, 128),
        KMajorFp4Tile{128, 64, 128, 256} /* K columns interleaved */}) {
    std::string why;
    ASSERT_TRUE(tile.isValid(&why)) << why;
    // A bijection onto [0, rows * K / 2) that matches the ISA's layout.
    std::vector<int> hits(tile.rows * tile.kElems / 2, 0);
    for (uint32_t r = 0; r < tile.rows; ++r)
      for (uint32_t k = 0; k < tile.kElems; k += 2) {
        uint32_t off = tile.byteOffset(r, k);
        ASSERT_LT(off, hits.size());
        ++hits[off];
        EXPECT_EQ(off, canonicalNoSwizzleByte(r, k, tile.lbo, tile.sbo));
      }
    for (int h : hits)
      EXPECT_EQ(h, 1);
  }
}

TEST(Tcgen05OperandLayoutTest, NoSwizzleDescriptorsPerKStep) {
  // Model of the MMA's operand fetch from the descriptor (9.7.16.3): element
  // (row, kk) of the K64 slice sits at start + (kk / 32) * LBO +
  // (row / 8) * SBO + (row % 8) * 16 + (kk % 32) / 2.
  KMajorFp4Tile a = canonicalKMajorFp4Tile(128, 256);
  const uint32_t tileStart = 0x2000;
  for (uint32_t step = 0; step < 4; ++step) {
    SmemDesc d = a.descriptor(tileStart, step);
    std::string why;
    ASSERT_TRUE(d.isValid(&why)) << why;
    SmemDesc seen = SmemDesc::decode(d.encode());
    for (uint32_t row = 0; row < 128; ++row)
      for (uint32_t kk = 0; kk < 64; kk += 2) {
        uint32_t fetched = seen.startAddress + (kk / 32) * seen.lbo +
                           (row / 8) * seen.sbo + (row % 8) * 16 +
                           (kk % 32) / 2;
        EXPECT_EQ(fetched, tileStart + a.byteOffset(row, 64 * step + kk));
      }
  }
  EXPECT_EQ(a.descriptor(0x1000, 1).startAddress, 0x1000u + 2 * 2048u);
}

TEST(Tcgen05OperandLayoutTest, Swizzle128Tile) {
  KMajorFp4Sw128Tile t{128, 512};
  // Worked by hand: row 3, k 100 is byte 50 of row 3 (chunk 3, byte 2);
  // chunk 3 XOR row 3 = chunk 0, so 3 * 128 + 0 * 16 + 2.
  EXPECT_EQ(t.byteOffset(3, 100), 386u);
  // Row 9: next 8-row atom (+1024), row 1 in it: chunk 3 ^ 1 = 2.
  EXPECT_EQ(t.byteOffset(9, 100), 1024u + 128u + 2u * 16u + 2u);
  // Second 256-wide K slab starts rows * 128 bytes later.
  EXPECT_EQ(t.byteOffset(0, 256), 128u * 128u);
  std::set<uint32_t> seen;
  for (uint32_t r = 0; r < t.rows; ++r)
    for (uint32_t k = 0; k < t.kElems; k += 2)
      EXPECT_TRUE(seen.insert(t.byteOffset(r, k)).second);
  EXPECT_EQ(seen.size(), t.rows * t.kElems / 2);
  EXPECT_EQ(*seen.rbegin(), t.rows * t.kElems / 2 - 1);

  // Fetch model: unswizzled address from the descriptor, then the XOR of
  // address bits 4-6 with bits 7-9 on the absolute address.
  const uint32_t tileStart = 0x8000; // 1024-byte aligned
  for (uint32_t step = 0; step < 8; ++step) {
    SmemDesc d = t.descriptor(tileStart, step);
    std::string why;
    ASSERT_TRUE(d.isValid(&why)) << why;
    EXPECT_EQ(d.swizzle, Swizzle::B128);
    EXPECT_EQ(d.sbo, 1024u);
    EXPECT_EQ(d.lboField(), 1u);
    for (uint32_t row = 0; row < t.rows; row += 5)
      for (uint32_t kk = 0; kk < 64; kk += 2) {
        uint32_t linear =
            d.startAddress + (row / 8) * d.sbo + (row % 8) * 128 + kk / 2;
        EXPECT_EQ(KMajorFp4Sw128Tile::swizzle128(linear),
                  tileStart + t.byteOffset(row, 64 * step + kk));
      }
  }
}

//===----------------------------------------------------------------------===//
// Scale factors in tensor memory
//===----------------------------------------------------------------------===//

/// Tensor memory as 128 lanes x `columns` 32-bit cells.
struct TmemModel {
  uint32_t columns;
  std::vector<uint32_t> cells;
  explicit TmemModel(uint32_t numColumns)
      : columns(numColumns), cells(kTmemLanes * numColumns, 0) {}
  uint32_t &at(uint32_t lane, uint32_t column) {
    return cells.at(lane * columns + column);
  }
  uint8_t byteAt(const TmemByte &b) {
    return static_cast<uint8_t>(at(b.lane, b.column) >> (8 * b.byte));
  }
};

/// tcgen05.cp.cta_group::1.32x128b.warpx4 as the ISA describes it: the source
/// is a K-major unswizzled matrix of 32 rows x 16 bytes (row i at start +
/// (i / 8) * SBO + (i % 8) * 16); row i goes to lane i of every 32-lane
/// partition, 16 bytes over 4 consecutive columns from `taddr`, each 32-bit
/// cell little-endian.
void copy32x128bWarpx4(TmemModel &tmem, uint32_t taddr,
                       const std::vector<uint8_t> &smem, uint64_t desc) {
  ASSERT_TRUE(SmemDesc::hasValidFixedBits(desc));
  SmemDesc d = SmemDesc::decode(desc);
  ASSERT_EQ(d.swizzle, Swizzle::None);
  ASSERT_EQ(tmemLane(taddr), 0u);
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t src = d.startAddress + (i / 8) * d.sbo + (i % 8) * 16;
    for (uint32_t w = 0; w < 4; ++w)
      for (uint32_t c = 0; c < 4; ++c) {
        uint32_t word = 0;
        for (uint32_t b = 0; b < 4; ++b)
          word |= uint32_t(smem.at(src + 4 * c + b)) << (8 * b);
        tmem.at(32 * w + i, tmemColumn(taddr) + c) = word;
      }
  }
}

/// A recognisable scale byte for (row, col).
uint8_t scaleByte(int64_t row, int64_t col) {
  return static_cast<uint8_t>((row * 7 + col * 31 + 1) & 0xFF);
}

TEST(Tcgen05ScaleTmemTest, CopyDescriptor) {
  SmemDesc d = scaleAtomCopyDesc(0x2200);
  std::string why;
  EXPECT_TRUE(d.isValid(&why)) << why;
  // SBO and the unused LBO both 128: the same rows under either reading.
  uint64_t expected = (uint64_t(0x2200) >> 4) | ((uint64_t(128) >> 4) << 32) |
                      ((uint64_t(128) >> 4) << 16) | (uint64_t(1) << 46);
  EXPECT_EQ(d.encode(), expected);
  EXPECT_EQ(d.encode(), 0x0000400800080220ull);
  EXPECT_EQ(d.sboField(), 8u);
  EXPECT_EQ(d.lboField(), 8u);
}

TEST(Tcgen05SmemLayoutTest, Swizzle32Tile) {
  // 128 x 128 e2m1: two K64 slabs of 16 atoms (8 rows x 32 bytes).
  KMajorFp4Sw32Tile tile{128, 128};
  EXPECT_EQ(tile.slabBytes(), 4096u);
  EXPECT_EQ(tile.bytes(), 8192u);
  // Written out by hand: rows 0-3 of an atom keep their 16-byte halves,
  // rows 4-7 swap them (address bit 4 ^= bit 7).
  EXPECT_EQ(tile.elementOffset(0, 0), 0u);
  EXPECT_EQ(tile.elementOffset(0, 33), 16u);
  EXPECT_EQ(tile.elementOffset(3, 2), 3 * 32u + 1);
  EXPECT_EQ(tile.elementOffset(4, 0), 4 * 32u + 16);
  EXPECT_EQ(tile.elementOffset(5, 40), 5 * 32u + 4);
  EXPECT_EQ(tile.elementOffset(9, 0), 256u + 32);
  EXPECT_EQ(tile.elementOffset(12, 63), 256u + 4 * 32 + 15);
  EXPECT_EQ(tile.elementOffset(0, 64), 4096u);
  EXPECT_EQ(tile.elementOffset(127, 127), 4096u + 15 * 256 + 7 * 32 + 15);
  // A bijection onto the tile's bytes (two elements a byte).
  std::vector<int> hits(tile.bytes(), 0);
  for (uint32_t r = 0; r < tile.rows; ++r)
    for (uint32_t k = 0; k < tile.kElems; k += 2)
      ++hits[tile.elementOffset(r, k)];
  for (int h : hits)
    EXPECT_EQ(h, 1);
  // The generic formula of the canonical layout (9.7.16.3.3, K-major
  // 32B: Swizzle<1,4,3> o ((8,m),(T,2k)):((2T,SBO),(1,T))) read through
  // the encoded descriptor of each K64 step finds every element.
  for (uint32_t step = 0; step < 2; ++step) {
    SmemDesc d = SmemDesc::decode(tile.descriptor(0x400, step).encode());
    EXPECT_EQ(d.swizzle, Swizzle::B32);
    EXPECT_TRUE(d.isValid());
    for (uint32_t r = 0; r < 128; ++r)
      for (uint32_t k = 0; k < 64; ++k) {
        uint32_t a = d.startAddress + (r % 8) * 32 + (r / 8) * d.sbo +
                     (k / 32) * 16 + (k % 32) / 2;
        a ^= ((a >> 7) & 1) << 4;
        EXPECT_EQ(a, 0x400 + tile.elementOffset(r, 64 * step + k));
      }
  }
}

TEST(Tcgen05ScaleTmemTest, AtomBytesLandWhereTheMmaReadsThem) {
  using nvfp4::layout::blockedBatchBytes;
  using nvfp4::layout::blockedOffset;
  // Scales of a 256-row matrix with K = 768 (48 NVFP4 blocks = 12 atoms per
  // row block), in the blocked layout in "shared memory" at 0x400.
  const int64_t rows = 256, cols = 48;
  const uint32_t smemBase = 0x400;
  std::vector<uint8_t> smem(smemBase + blockedBatchBytes(rows, cols), 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      smem[smemBase + blockedOffset(r, c, cols)] = scaleByte(r, c);

  for (int64_t rowBlock = 0; rowBlock < rows / 128; ++rowBlock) {
    // One copy per atom into a region starting at column 64 (after, say, an
    // accumulator); K64 step s reads atom s.
    const uint32_t region = 64;
    TmemModel tmem(region + scaleRegionColumns(12, ScaleVec::Block16));
    for (uint32_t atom = 0; atom < 12; ++atom) {
      uint32_t atomAddr =
          smemBase +
          static_cast<uint32_t>(blockedOffset(rowBlock * 128, 4 * atom, cols));
      copy32x128bWarpx4(tmem, tmemAddress(0, region + scaleAtomColumn(atom)),
                        smem, scaleAtomCopyDesc(atomAddr).encode());
    }
    for (uint32_t r = 0; r < 128; ++r)
      for (uint32_t c = 0; c < cols; ++c) {
        uint8_t want = scaleByte(rowBlock * 128 + r, c);
        for (uint32_t w = 0; w < 4; ++w) {
          TmemByte at = scaleLocation(r, c, w);
          at.column += region;
          ASSERT_EQ(tmem.byteAt(at), want) << r << " " << c << " " << w;
        }
        // The MMA of K64 step s = c / 4 reads byte c % 4 of the word at
        // lane r % 32, column (operand column) + r / 32.
        uint32_t step = c / 4;
        uint32_t column =
            region + scaleStepColumn(step, ScaleVec::Block16) + r / 32;
        EXPECT_EQ(stepScaleId(step, ScaleVec::Block16), 0u);
        EXPECT_EQ(tmem.byteAt({r % 32, column, c % 4}), want);
      }
  }
}

TEST(Tcgen05ScaleTmemTest, BlockedOffsetClosedFormMatchesCopyCells) {
  using nvfp4::layout::blockedOffset;
  // Independent of any copy: the atom byte blockedOffset gives for (r, c)
  // is the byte tcgen05.cp puts where scaleLocation says (r, c) lives.
  const uint32_t cols = 8;
  for (uint32_t r = 0; r < 128; ++r)
    for (uint32_t c = 0; c < cols; ++c) {
      TmemByte at = scaleLocation(r, c);
      uint32_t copyColumn = at.column - scaleAtomColumn(c / 4);
      EXPECT_LT(copyColumn, 4u);
      int64_t offset = blockedOffset(r, c, cols);
      EXPECT_EQ(offset % kScaleAtomBytes,
                scaleAtomByteForCell(at.lane, copyColumn, at.byte));
      EXPECT_EQ(offset / kScaleAtomBytes, c / 4);
    }
}

TEST(Tcgen05ScaleTmemTest, Block32StepsShareAnAtom) {
  // MXFP4: 2 scales per row and K64 step; atom j feeds steps 2j and 2j + 1,
  // selected by SFA_ID/SFB_ID 0 and 2 (the half word).
  EXPECT_EQ(scaleStepColumn(0, ScaleVec::Block32), 0u);
  EXPECT_EQ(scaleStepColumn(1, ScaleVec::Block32), 0u);
  EXPECT_EQ(scaleStepColumn(2, ScaleVec::Block32), 4u);
  EXPECT_EQ(stepScaleId(0, ScaleVec::Block32), 0u);
  EXPECT_EQ(stepScaleId(1, ScaleVec::Block32), 2u);
  EXPECT_EQ(stepScaleId(3, ScaleVec::Block32), 2u);
  EXPECT_EQ(scaleRegionColumns(3, ScaleVec::Block32), 8u);
  EXPECT_EQ(scaleRegionColumns(3, ScaleVec::Block16), 12u);
  for (uint32_t r = 0; r < 128; ++r)
    for (uint32_t step = 0; step < 6; ++step)
      for (uint32_t kb = 0; kb < 2; ++kb) {
        // Scale column 2 * step + kb (one per 32 elements).
        TmemByte at = scaleLocation(r, 2 * step + kb);
        EXPECT_EQ(at.lane, r % 32);
        EXPECT_EQ(at.column, scaleStepColumn(step, ScaleVec::Block32) + r / 32);
        EXPECT_EQ(at.byte, stepScaleId(step, ScaleVec::Block32) + kb);
      }
  // The descriptor for each step is valid.
  std::string why;
  for (uint32_t step = 0; step < 4; ++step)
    EXPECT_TRUE(mxfp4InstrDesc(128, 8, stepScaleId(step, ScaleVec::Block32))
                    .isValid(kMxfp4, &why))
        << why;
}

TEST(Tcgen05ScaleTmemTest, Addresses) {
  EXPECT_EQ(tmemAddress(0, 0x40), 0x40u);
  EXPECT_EQ(tmemAddress(32, 5), (32u << 16) | 5u);
  EXPECT_EQ(tmemLane(tmemAddress(96, 300)), 96u);
  EXPECT_EQ(tmemColumn(tmemAddress(96, 300)), 300u);
  EXPECT_EQ(tmemAllocColumns(1), 32u);
  EXPECT_EQ(tmemAllocColumns(32), 32u);
  EXPECT_EQ(tmemAllocColumns(33), 64u);
  EXPECT_EQ(tmemAllocColumns(8 + 16 + 16), 64u);
  EXPECT_EQ(tmemAllocColumns(512), 512u);
  EXPECT_EQ(tmemAllocColumns(513), 0u);
  // Replicas: (r, c) in each 32-lane partition.
  EXPECT_EQ(scaleLocation(37, 5, 2), (TmemByte{64 + 5, 4 + 1, 1}));
}

} // namespace
