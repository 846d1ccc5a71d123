//===- Tcgen05IsaModelTest.cpp - the independent PTX ISA model ------------===//
//
// tools/nvfp4-tcgen05-check/IsaModel.cpp against words and layouts worked
// out by hand from the PTX ISA's tables, and its PTX reading on small
// hand-written kernels, including ones whose descriptor constants were
// edited. The model shares no code with Tcgen05Descriptors.h/Tcgen05Plan.h;
// neither is included here either.
//
//===----------------------------------------------------------------------===//

#include "../tools/nvfp4-tcgen05-check/IsaModel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nvfp4::isa;

namespace {

TEST(Tcgen05IsaModelTest, InstructionDescriptor) {
  // 0x08020480: atype = btype = 1 (bits 7-9, 10-11), N >> 3 = 1 (bits
  // 17-22), M >> 7 = 1 (bits 27-28), ue4m3 (bit 23 clear).
  InstrDesc d = decodeInstrDesc(0x08020480u);
  EXPECT_EQ(d.aType, 1u);
  EXPECT_EQ(d.bType, 1u);
  EXPECT_EQ(d.n, 8u);
  EXPECT_EQ(d.m, 128u);
  EXPECT_EQ(d.scaleType, 0u);
  EXPECT_EQ(d.sfaId, 0u);
  EXPECT_EQ(d.sfbId, 0u);
  EXPECT_EQ(d.reservedBits, 0u);
  EXPECT_FALSE(d.sparse || d.negateA || d.negateB || d.transposeA ||
               d.transposeB || d.k96);
  // ue8m0 with scale IDs 2: bit 23, bits 4-5 and 29-30.
  InstrDesc mx = decodeInstrDesc(0x488204A0u);
  EXPECT_EQ(mx.scaleType, 1u);
  EXPECT_EQ(mx.sfaId, 2u);
  EXPECT_EQ(mx.sfbId, 2u);
  EXPECT_EQ(decodeInstrDesc(1u << 12).reservedBits, 1u << 12);
}

TEST(Tcgen05IsaModelTest, SharedMemoryDescriptor) {
  uint64_t w = (6ull << 61) | (1ull << 46) | (16ull << 32) | (1ull << 16) |
               (0x1230 >> 4);
  SmemDescriptor d = decodeSmemDescriptor(w);
  EXPECT_EQ(d.start, 0x1230u);
  EXPECT_EQ(d.lbo, 16u);
  EXPECT_EQ(d.sbo, 256u);
  EXPECT_EQ(d.fixed001, 1u);
  EXPECT_EQ(d.swizzle, 6u);
  EXPECT_EQ(d.baseOffset, 0u);
  EXPECT_EQ(d.lboMode, 0u);
  EXPECT_EQ(decodeSmemDescriptor(3ull << 14).reservedBits, 3u);
}

TEST(Tcgen05IsaModelTest, CanonicalLayouts) {
  std::string error;
  uint32_t a;
  // No swizzle: ((8,m),(T,2k)):((1T,SBO),(1,LBO)), T = 16 bytes.
  SmemDescriptor none;
  none.start = 0x400;
  none.lbo = 2048;
  none.sbo = 128;
  ASSERT_TRUE(operandAddress(none, 9, 33, a, error)) << error;
  EXPECT_EQ(a, 0x400u + 16 + 128 + 2048 + 0);
  // 32B: rows 32 bytes apart, K halves 16 bytes apart, bit 4 ^= bit 7.
  SmemDescriptor sw32;
  sw32.start = 0x400;
  sw32.sbo = 256;
  sw32.swizzle = 6;
  ASSERT_TRUE(operandAddress(sw32, 4, 0, a, error));
  EXPECT_EQ(a, 0x400u + 4 * 32 + 16);
  ASSERT_TRUE(operandAddress(sw32, 3, 40, a, error));
  EXPECT_EQ(a, 0x400u + 3 * 32 + 16 + 4);
  ASSERT_TRUE(operandAddress(sw32, 13, 63, a, error));
  EXPECT_EQ(a, 0x400u + 256 + 5 * 32 + 15);
  // 128B: rows 128 bytes apart, bits 4-6 ^= bits 7-9.
  SmemDescriptor sw128;
  sw128.sbo = 1024;
  sw128.swizzle = 2;
  ASSERT_TRUE(operandAddress(sw128, 3, 32, a, error));
  EXPECT_EQ(a, 3u * 128 + ((1u ^ 3u) << 4));
  SmemDescriptor bad;
  bad.swizzle = 1; // 128B with 32B atomicity: not a K-major layout
  EXPECT_FALSE(operandAddress(bad, 0, 0, a, error));
}

TEST(Tcgen05IsaModelTest, Values) {
  const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (unsigned c = 0; c < 8; ++c) {
    EXPECT_EQ(e2m1Value(c), e2m1[c]);
    EXPECT_EQ(e2m1Value(c | 8), -e2m1[c]);
  }
  EXPECT_EQ(ue4m3Value(0x38), 1.0);
  EXPECT_EQ(ue4m3Value(0x01), std::ldexp(1.0, -9));
  EXPECT_EQ(ue4m3Value(0x7E), 448.0);
  EXPECT_TRUE(std::isnan(ue4m3Value(0x7F)));
  EXPECT_TRUE(std::isnan(ue4m3Value(0xB8))); // no sign bit in ue4m3
  EXPECT_EQ(ue8m0Value(127), 1.0);
  EXPECT_EQ(ue8m0Value(0), std::ldexp(1.0, -127));
  EXPECT_TRUE(std::isnan(ue8m0Value(0xFF)));
}

/// A hand-written kernel fragment in the shape the NVPTX back end writes.
const char *kPtx = R"(
.extern .shared .align 1024 .b8 smem[];
	elect.sync 	%r18|%p7, -1;
	or.b64 	%rd86, %rd85, 70403104440320;
	tcgen05.cp.cta_group::1.32x128b.warpx4 	[%r2], %rd86;
	or.b64 	%rd90, %rd89, -4611615580963667968;
	or.b64 	%rd92, %rd91, -4611615580963667968;
	mov.b32 	%r31, 134349952;
	tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.collector::a::discard [%r1], %rd90, %rd92, %r31, [%r2], [%r3], %p9;
	tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r40}, [%r41];
)";

TEST(Tcgen05IsaModelTest, ReadsThePtx) {
  PtxFacts f;
  std::string error;
  ASSERT_TRUE(parsePtx(kPtx, f, error)) << error;
  EXPECT_EQ(f.kind, "mxf4nvf4");
  EXPECT_EQ(f.scaleVec, 16u);
  EXPECT_EQ(f.ctaGroup, 1u);
  EXPECT_TRUE(f.electSync);
  EXPECT_EQ(f.sharedAlignment, 1024u);
  ASSERT_EQ(f.mmas.size(), 1u);
  EXPECT_EQ(f.mmas[0].idesc, 0x08020480u);
  EXPECT_EQ(f.mmas[0].aDesc, 0xC000401000010000ull);
  EXPECT_EQ(f.mmas[0].bDesc, 0xC000401000010000ull);
  ASSERT_EQ(f.copyDescs.size(), 1u);
  EXPECT_EQ(f.copyDescs[0], 0x0000400800080000ull);
  EXPECT_EQ(f.copyShape, "32x128b");
  EXPECT_EQ(f.copyMulticast, "warpx4");
  EXPECT_EQ(f.loadShape, "32x32b");
  EXPECT_EQ(f.loadRepeat, 1u);
  EXPECT_EQ(f.loadCount, 1u);
}

TEST(Tcgen05IsaModelTest, EditedConstantsAreReadBack) {
  PtxFacts f;
  std::string error;
  ASSERT_TRUE(parsePtx(kPtx, f, error)) << error;
  // LBO and SBO swapped in A's constant: the model sees the swap.
  uint64_t swapped = (6ull << 61) | (1ull << 46) | (1ull << 32) | (16ull << 16);
  std::string edited = replaceConstant(kPtx, f.mmas[0].aSite, swapped);
  PtxFacts g;
  ASSERT_TRUE(parsePtx(edited, g, error)) << error;
  EXPECT_EQ(g.mmas[0].aDesc, swapped);
  EXPECT_EQ(g.mmas[0].bDesc, f.mmas[0].bDesc);
  SmemDescriptor d = decodeSmemDescriptor(g.mmas[0].aDesc);
  EXPECT_EQ(d.lbo, 256u);
  EXPECT_EQ(d.sbo, 16u);
  // An edited instruction descriptor (scale type flipped).
  edited = replaceConstant(kPtx, f.mmas[0].idescSite, 0x08820480u);
  ASSERT_TRUE(parsePtx(edited, g, error)) << error;
  EXPECT_EQ(decodeInstrDesc(g.mmas[0].idesc).scaleType, 1u);
}

TEST(Tcgen05IsaModelTest, RejectsWhatItCannotTrace) {
  PtxFacts f;
  std::string error;
  EXPECT_FALSE(parsePtx("mov.b32 %r1, 1;", f, error));
  EXPECT_NE(error.find("no tcgen05.mma"), std::string::npos);
  // A descriptor computed from registers only.
  std::string opaque = std::string(kPtx);
  opaque.replace(opaque.find("-4611615580963667968"), 20, "%rd7");
  EXPECT_FALSE(parsePtx(opaque, f, error));
  EXPECT_NE(error.find("not traceable"), std::string::npos);
}

/// One MMA through the model on a shared memory built by hand: A row i is
/// all 1.0 (code 2), B row 0 all 0.5 (code 1), every scale 1.0, so
/// D[i][0] = 64 x 0.5 = 32 and the padding rows of B give 0.
TEST(Tcgen05IsaModelTest, OneMma) {
  PtxFacts f;
  std::string error;
  ASSERT_TRUE(parsePtx(kPtx, f, error)) << error;
  SharedMemory smem;
  smem.base = 0;
  smem.bytes.assign(8192, 0);
  for (uint32_t i = 0; i < 4096; ++i)
    smem.bytes[i] = 0x22; // A: 128 rows x 32 bytes, swizzling irrelevant
  for (uint32_t i = 0; i < 32; ++i)
    smem.bytes[4096 + i] = 0x11; // B row 0
  for (uint32_t i = 0; i < 512; ++i) {
    smem.bytes[4352 + i] = 0x38; // sfa atom: 1.0
    smem.bytes[4864 + i] = 0x38; // sfb atom
  }
  TensorMemory tmem;
  ASSERT_TRUE(copyScales(f, f.copyDescs[0] | (4352 >> 4), 8, smem, tmem, error))
      << error;
  ASSERT_TRUE(
      copyScales(f, f.copyDescs[0] | (4864 >> 4), 12, smem, tmem, error))
      << error;
  Accumulator acc;
  ASSERT_TRUE(blockScaledMma(f, f.mmas[0].idesc, f.mmas[0].aDesc,
                             f.mmas[0].bDesc | (4096 >> 4), 8, 12, false, smem,
                             tmem, acc, error))
      << error;
  for (unsigned t = 0; t < 128; ++t) {
    double v;
    ASSERT_TRUE(loadResult(f, acc, t / 32, t % 32, 0, v, error)) << error;
    EXPECT_EQ(v, 32.0);
    ASSERT_TRUE(loadResult(f, acc, t / 32, t % 32, 1, v, error)) << error;
    EXPECT_EQ(v, 0.0);
  }
}

TEST(Tcgen05IsaModelTest, SixteenColumnMma) {
  // N = 16 (the N-vector kernels with more than 8 vectors): B's rows 8-15
  // are the second 8-row group, SBO bytes after the first; D column j is
  // B row j. Only B row 9 is non-zero, so only column 9 is.
  PtxFacts f;
  std::string error;
  ASSERT_TRUE(parsePtx(kPtx, f, error)) << error;
  uint32_t idesc = (f.mmas[0].idesc & ~(0x3Fu << 17)) | (2u << 17);
  ASSERT_EQ(decodeInstrDesc(idesc).n, 16u);
  SharedMemory smem;
  smem.base = 0;
  smem.bytes.assign(8192, 0);
  for (uint32_t i = 0; i < 4096; ++i)
    smem.bytes[i] = 0x22; // A: all 1.0
  uint32_t sbo = decodeSmemDescriptor(f.mmas[0].bDesc).sbo;
  for (uint32_t i = 0; i < 32; ++i)
    smem.bytes[4096 + sbo + 1 * 32 + i] = 0x11; // B row 9: all 0.5
  for (uint32_t i = 0; i < 512; ++i) {
    smem.bytes[4608 + i] = 0x38; // sfa atom: 1.0
    smem.bytes[5120 + i] = 0x38; // sfb atom
  }
  TensorMemory tmem;
  ASSERT_TRUE(
      copyScales(f, f.copyDescs[0] | (4608 >> 4), 16, smem, tmem, error))
      << error;
  ASSERT_TRUE(
      copyScales(f, f.copyDescs[0] | (5120 >> 4), 20, smem, tmem, error))
      << error;
  Accumulator acc;
  ASSERT_TRUE(blockScaledMma(f, idesc, f.mmas[0].aDesc,
                             f.mmas[0].bDesc | (4096 >> 4), 16, 20, false, smem,
                             tmem, acc, error))
      << error;
  ASSERT_EQ(acc.n, 16u);
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned column = 0; column < 16; ++column) {
      double v;
      ASSERT_TRUE(loadResult(f, acc, t / 32, t % 32, column, v, error))
          << error;
      EXPECT_EQ(v, column == 9 ? 32.0 : 0.0)
          << "row " << t << " column " << column;
    }
  double v;
  EXPECT_FALSE(loadResult(f, acc, 0, 0, 16, v, error));
}

} // namespace
