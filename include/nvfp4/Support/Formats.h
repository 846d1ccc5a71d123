//===- Formats.h - e2m1, e4m3fn, ue8m0, f16 and bf16 encodings --*- C++ -*-===//
//
// Scalar encoders and decoders for the number formats of NVFP4 and MXFP4.
// Plain C++, no MLIR: shared by the reference library, the runner and tests.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_FORMATS_H
#define NVFP4_SUPPORT_FORMATS_H

#include <cstdint>

namespace nvfp4::formats {

/// Values one scale covers: an e4m3fn scale per 16 (NVFP4), a ue8m0 scale
/// per 32 (MXFP4, OCP MX).
inline constexpr int64_t kNVFP4BlockSize = 16;
inline constexpr int64_t kMXFP4BlockSize = 32;
/// Right-hand vectors one gemv takes at most: a skinny GEMM (decode with a
/// few tokens), not a GEMM.
inline constexpr int64_t kMaxGemvVectors = 16;

/// Value of the e2m1 code in the low four bits of `code` (bit 3 is the sign).
double decodeE2M1(uint8_t code);
/// Value of an e4m3fn byte: subnormals included, 0x7F/0xFF are NaN.
double decodeE4M3FN(uint8_t bits);
/// Value of a ue8m0 byte, 2^(bits - 127); 0xFF is NaN.
double decodeUE8M0(uint8_t bits);

/// e2m1 code nearest to `x` (ties to even), saturating at +-6. NaN gives +0;
/// otherwise the sign bit of `x` is kept (-0.1 gives code 8, -0).
uint8_t encodeE2M1(float x);
/// e4m3fn byte nearest to `x` (ties to even), saturating at +-448 (infinity
/// included). NaN gives 0x7F with the sign of `x`.
uint8_t encodeE4M3FN(float x);

/// IEEE half bits of `x`, rounded to nearest even (overflow gives inf).
uint16_t encodeF16(float x);
/// bfloat16 bits of `x`, rounded to nearest even (NaN stays NaN).
uint16_t encodeBF16(float x);
float decodeF16(uint16_t bits);
float decodeBF16(uint16_t bits);

/// Half bits of `x` correctly rounded from the double (nearest even). Going
/// through float first would round twice and can differ in the last bit.
uint16_t encodeF16FromDouble(double x);
/// bfloat16 bits of `x` correctly rounded from the double (nearest even).
uint16_t encodeBF16FromDouble(double x);

} // namespace nvfp4::formats

#endif // NVFP4_SUPPORT_FORMATS_H
