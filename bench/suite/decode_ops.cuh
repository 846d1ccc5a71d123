// The decode's operations that the suite's stand-alone CUDA tools share:
// e2m1 codes onto e4m3 bytes, an e4m3 scale pair in f32, and the anatomy
// tools' stand-in for a round of the dp4a decode.
#ifndef NVFP4_BENCH_SUITE_DECODE_OPS_CUH
#define NVFP4_BENCH_SUITE_DECODE_OPS_CUH

#include <cuda_fp16.h>
#include <cuda_fp8.h>

/// The e4m3 bytes (2^-6 times the values) of the even and the odd codes of
/// `w`: an e2m1 code c is the e4m3 byte ((c & 7) << 2) | ((c & 8) << 4)
/// times 2^6. Nine operations in the source, seven with three-input logic.
__device__ __forceinline__ uint2 toE4M3(unsigned w) {
  unsigned even = ((w << 2) & 0x1C1C1C1Cu) | ((w << 4) & 0x80808080u);
  unsigned odd = ((w >> 2) & 0x1C1C1C1Cu) | (w & 0x80808080u);
  return {even, odd};
}

/// The two e4m3 scales of `bits` (low byte first) in f32.
__device__ __forceinline__ float2 e4m3PairToFloat2(unsigned short bits) {
  return __half22float2(__half2(__nv_cvt_fp8x2_to_halfraw2(bits, __NV_E4M3)));
}

/// One round of work standing in for the decode of word `w`: a byte
/// lookup and a 4-way dot product (prmt and dp4a), dependent on `x`.
__device__ __forceinline__ int decodeRound(int x, unsigned w) {
  return __dp4a(int(__byte_perm(0x03020100u, 0x0C080604u, unsigned(x))), int(w),
                x);
}

#endif // NVFP4_BENCH_SUITE_DECODE_OPS_CUH
