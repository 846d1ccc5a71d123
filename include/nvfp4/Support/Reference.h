//===- Reference.h - Plain-loop reference for the nvfp4 ops -----*- C++ -*-===//
//
// An independent float64 implementation of the four nvfp4 operations on host
// buffers in the canonical storage of docs/design.md (batch outermost):
//   a   : [L][M][K/2] bytes, two e2m1 codes a byte, low nibble first
//   sfa : linear [L][M][K/B] or blocked [L][rowBlocks(M)][colBlocks(K/B)][512]
//   b   : [L][N][K/2] bytes, or [L][N][K] f16 / bf16 values (no sfb)
//   sfb : linear [L][N][K/B] or blocked [L][1][..][512] (N rows)
//   c   : [L][N][M] elements of the output type
// with N = 1 the one-vector storage: b [L][K/2], sfb [L][K/B], c [L][M].
// where B is 16 (NVFP4, e4m3fn scales) or 32 (MXFP4, ue8m0 scales).
// No MLIR; used by the CPU tests and by nvfp4-run.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_REFERENCE_H
#define NVFP4_SUPPORT_REFERENCE_H

#include <cstdint>
#include <vector>

namespace nvfp4::ref {

enum class ScaleFormat { NVFP4, MXFP4 };
enum class ScaleLayout { Linear, Blocked128x4 };
enum class ElementType { F16, BF16, F32 };
/// What a gemv's b holds: packed e2m1 codes with their scales sfb, or plain
/// 16-bit values (no sfb).
enum class VectorElement { E2M1, F16, BF16 };

/// The spelling the dialect and the manifests use: nvfp4, blocked128x4, f16.
const char *name(ScaleFormat format);
const char *name(ScaleLayout layout);
const char *name(ElementType type);
/// e2m1, f16, bf16.
const char *name(VectorElement type);

/// Values per scale factor: 16 for NVFP4, 32 for MXFP4.
int64_t blockSize(ScaleFormat format);
/// Bytes of one batch of scales for `rows` x (K / blockSize) in `layout`.
int64_t scaleBatchBytes(ScaleLayout layout, int64_t rows, int64_t scaleCols);
/// Byte offset of scale (row, col) inside one batch.
int64_t scaleOffset(ScaleLayout layout, int64_t row, int64_t col,
                    int64_t scaleCols);
/// Bytes of one element of `type`.
int64_t elementBytes(ElementType type);
/// Value of one scale byte: e4m3fn for NVFP4, ue8m0 for MXFP4 (NaN for the
/// NaN encodings).
double decodeScale(ScaleFormat format, uint8_t bits);

/// How a GPU kernel sums a row (docs/numerics.md section 11): exact dot
/// products of 16-value units (the CUDA-core kernels), or each of the K
/// products a * sfa * b (* sfb) on its own (the tensor-core kernel of
/// decode=mma). Only the any-order expectation depends on it.
enum class GemvSums { Units, Products };
/// The tensor-core kernel's operands are a value times its scale times
/// 2^kMmaOperandExp (16-bit b as it is), so its MMAs add each product times
/// 2^kMmaOperandExp (twice that for packed b) in f32.
inline constexpr int kMmaOperandExp = -7;
/// units, products (the manifest's "sums").
const char *name(GemvSums sums);

struct GemvProblem {
  int64_t m = 0, k = 0, l = 1;
  int64_t n = 1; // right-hand vectors, 1 to formats::kMaxGemvVectors
  ScaleFormat format = ScaleFormat::NVFP4;
  ScaleLayout layout = ScaleLayout::Linear;
  ElementType output = ElementType::F16;
  VectorElement vector = VectorElement::E2M1;
  float alpha = 1.0f;
  GemvSums sums = GemvSums::Units;
  // a in the tiled order of nvfp4/Support/CodeLayout.h where the kernel
  // reads it (the reference always takes a row-major).
  bool tiledCodes = false;
};

/// e2m1 code of element `i` (0-based along k) of a packed row: element 2j
/// is the low nibble of byte j.
inline uint8_t e2m1Code(const uint8_t *row, int64_t i) {
  return (i % 2) ? row[i / 2] >> 4 : row[i / 2] & 0xF;
}

/// Bytes of one batch of b (all N vectors) and of sfb (0 for 16-bit b).
int64_t vectorBatchBytes(const GemvProblem &p);
int64_t vectorScaleBatchBytes(const GemvProblem &p);
/// Value of element i of vector `vec` (one batch of b), exact in double.
double vectorValue(const GemvProblem &p, const uint8_t *b, int64_t vec,
                   int64_t i);

/// c[l][n][m] in float64 before the final rounding (alpha applied). For
/// 16-bit b the sum runs value by value, sfa * a * b (each term exact).
std::vector<double> gemvExact(const GemvProblem &p, const uint8_t *a,
                              const uint8_t *sfa, const uint8_t *b,
                              const uint8_t *sfb);
/// Rounds float64 results to the output type's bits (c storage).
std::vector<uint8_t> roundOutput(ElementType type,
                                 const std::vector<double> &values);
/// Reads element `i` of an output buffer as a double.
double readOutput(ElementType type, const uint8_t *c, int64_t i);

/// a's codes, `l` batches of rows x rowBytes, from row-major to the tiled
/// order of nvfp4/Support/CodeLayout.h (`toTiled`) or back; the shape must
/// be tileable.
std::vector<uint8_t> relayCodes(bool toTiled, const uint8_t *a, int64_t rows,
                                int64_t rowBytes, int64_t l);
/// a of `p` as its kernel reads it (tiled where p.tiledCodes), from the
/// row-major a the reference takes; and back.
std::vector<uint8_t> storedCodes(const GemvProblem &p, const uint8_t *rowMajor);
std::vector<uint8_t> rowMajorCodes(const GemvProblem &p, const uint8_t *stored);

/// Re-lays one scale tensor of `l` batches of rows x cols between layouts.
/// Padding bytes of a blocked destination are zero.
std::vector<uint8_t> convertScaleLayout(ScaleLayout from, ScaleLayout to,
                                        const uint8_t *src, int64_t rows,
                                        int64_t cols, int64_t l);

struct Quantized {
  std::vector<uint8_t> data;   // [L][rows][K/2]
  std::vector<uint8_t> scales; // in the requested layout
  float globalScale = 1.0f;    // 1 when not two-level
};

/// Quantizes x ([L][rows][k] f32 values) as docs/numerics.md defines:
/// NVFP4 optionally two-level (global scale 448*6/amax), MXFP4 single level.
Quantized quantize(ScaleFormat format, ScaleLayout layout, bool twoLevel,
                   const float *x, int64_t rows, int64_t k, int64_t l);
/// Inverse of quantize, in float64 (before rounding to an output type).
std::vector<double> dequantize(ScaleFormat format, ScaleLayout layout,
                               const uint8_t *data, const uint8_t *scales,
                               float globalScale, int64_t rows, int64_t k,
                               int64_t l);

/// Result of comparing an output buffer against float64 reference values.
struct Comparison {
  double maxAbsError = 0, relError = 0; // rel: ||out - ref|| / ||ref||
  int64_t firstMismatch = -1;           // -1 when every element is accepted
  int64_t nanCount = 0; // rejected outputs that are NaN where ref is not
  bool ok() const { return firstMismatch < 0 && nanCount == 0; }
};
/// How compare() judges one element: by the rule below, or as the caller
/// has already decided (for outputs the float64 reference cannot predict).
enum class Verdict : uint8_t { ByTolerance, Pass, Fail };
/// Element by element, with rr the reference rounded to `type`
/// (docs/numerics.md section 8): a NaN reference needs a NaN output; an
/// infinite rr (the reference, or its rounding, overflows) needs that same
/// infinity; a finite rr needs a finite output with |out - rr| <= atol +
/// rtol * |rr|, or one that is the rounding to `type` of a value within
/// atol + rtol * |reference| (near a rounding midpoint either neighbour is
/// right). relError and maxAbsError use the unrounded reference over
/// the elements where out and rr are finite; maxAbsError is infinite when a
/// NaN or an infinity fails. `decided`, when given, holds one verdict per
/// element.
Comparison compare(ElementType type, const uint8_t *out,
                   const std::vector<double> &ref, double rtol, double atol,
                   const std::vector<Verdict> *decided = nullptr);

/// Seeded input generation (docs/numerics.md section 9). `Full` draws all
/// 16 e2m1 codes uniformly and realistic scales (NVFP4: e4m3 in [2^-6, 2^2],
/// MXFP4: ue8m0 2^-4..2^2); `Weak` mimics the reference problem's
/// generator: small scales, codes biased towards small magnitudes. The edge
/// distributions:
///  - `Extreme` draws codes as Full and mixes realistic scales with every
///    other finite one (negative, zero, subnormal and the largest e4m3;
///    ue8m0 from 2^-127 to 2^127, whose products leave the f32 range) and a
///    few NaN scales.
///  - `Overflow` sets every code of a and b to +-6 (random signs) and every
///    scale near the top: e4m3 +-256..+-448, ue8m0 2^E..2^(E+2) with E as
///    large as K allows without an f32 partial sum overflowing. Every row's
///    f32 sum is exact in any order (K <= 76080 for NVFP4), so the expected
///    output is the rounded reference: +-inf in f16 for every nonzero row.
///  - `Cancel` pairs the blocks of each batch: the second block of a pair
///    holds the first one's products in another order with the opposite
///    sign, so a row sums to 0, or to one changed product (every other row,
///    at random). Power-of-two scales spread so that every f32 sum of a row
///    is exact in any order (K <= 116508), while a sum in f16 or bf16, or one
///    that pairs the wrong values, is visibly off.
enum class Distribution { Full, Weak, Extreme, Overflow, Cancel };
inline constexpr Distribution kDistributions[] = {
    Distribution::Full, Distribution::Weak, Distribution::Extreme,
    Distribution::Overflow, Distribution::Cancel};
/// For 16-bit b: Full draws every finite value below 2^4 in magnitude
/// (subnormals included), Extreme every finite value and a few NaNs; Weak,
/// Overflow and Cancel need packed b.
struct GemvInputs {
  std::vector<uint8_t> a, sfa, b, sfb; // sfa/sfb in p.layout
};
GemvInputs generateGemvInputs(const GemvProblem &p, Distribution dist,
                              uint64_t seed);
/// "full", "weak", "extreme", "overflow", "cancel".
const char *name(Distribution dist);

/// Seeded quantizer input over the whole range, one distribution: per block
/// of blockSize(format) values a random binade with grid points and
/// midpoints of it (ties), random values (saturating ones included) and
/// zeros of both signs; some blocks are all zero, some tiny (subnormal e4m3
/// scales). f16 values keep to f16's normal binades. Every value is exactly
/// representable in `input`.
struct QuantizeInputs {
  std::vector<float> values;   // [L][rows][k]
  std::vector<uint8_t> stored; // what a kernel reads: f32, f16 or bf16 bits
};
QuantizeInputs generateQuantizeInputs(ElementType input, ScaleFormat format,
                                      int64_t rows, int64_t k, int64_t l,
                                      uint64_t seed);

/// Seeded dequantizer input: uniformly random data bytes (all 16 codes),
/// mostly realistic scales and one in four any byte (NaN, negative,
/// extreme), and for `twoLevel` a global scale 448 * 6 / amax for a random
/// amax in [2^-12, 2^12) (1 otherwise).
struct DequantizeInputs {
  std::vector<uint8_t> data;   // [L][rows][k/2]
  std::vector<uint8_t> scales; // in the requested layout (zero padding)
  float globalScale = 1.0f;
};
DequantizeInputs generateDequantizeInputs(ScaleFormat format,
                                          ScaleLayout layout, bool twoLevel,
                                          int64_t rows, int64_t k, int64_t l,
                                          uint64_t seed);

} // namespace nvfp4::ref

#endif // NVFP4_SUPPORT_REFERENCE_H
