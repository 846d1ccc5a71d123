//===- FlushKernel.h - The kernel that leaves the L2 clean ------*- C++ -*-===//
//
// The cold-L2 flush writes a buffer of at least twice the L2 (docs/problem.md
// section 4), which leaves the L2 full of dirty lines. Their write-back then
// lands inside the next timed kernel: measured on an H200, a 66 MiB read took
// 33% longer after a memset flush than after a read flush. So the flush buffer
// is read back once more before timing, with this kernel, which leaves only
// clean lines of the flush buffer in the L2. PTX for sm_75 and ISA 6.4, so
// that every driver and every device the project targets can JIT it.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_FLUSHKERNEL_H
#define NVFP4_RUN_FLUSHKERNEL_H

#include <algorithm>
#include <cstdint>

namespace nvfp4::run {

/// The flush buffer: at least twice the L2, and at least 128 MiB.
inline int64_t flushBufferBytes(int64_t l2Bytes) {
  return std::max<int64_t>(2 * l2Bytes, int64_t(128) << 20);
}

/// The read-back launch: 8 CTAs of 512 threads an SM.
inline constexpr int kL2ReadCtasPerSM = 8;
inline constexpr int kL2ReadThreads = 512;

/// nvfp4_run_l2_read(const int4 *p, u64 n, int *out): grid-stride read of n
/// 16-byte words; stores to out only for an XOR the flush values never give.
inline constexpr const char *kL2ReadKernel = "nvfp4_run_l2_read";
inline constexpr const char *kL2ReadPtx = R"(
.version 6.4
.target sm_75
.address_size 64

.visible .entry nvfp4_run_l2_read(
	.param .u64 p,
	.param .u64 n,
	.param .u64 out
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<21>;
	.reg .b64 	%rd<17>;

	ld.param.u64 	%rd8, [p];
	ld.param.u64 	%rd9, [n];
	ld.param.u64 	%rd10, [out];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	cvt.u64.u32 	%rd1, %r4;
	mul.wide.u32 	%rd11, %r3, %r4;
	mov.u32 	%r5, %tid.x;
	cvt.u64.u32 	%rd12, %r5;
	add.s64 	%rd16, %rd11, %rd12;
	setp.ge.u64 	%p1, %rd16, %rd9;
	@%p1 bra 	DONE;
	mov.u32 	%r7, %nctaid.x;
	cvt.u64.u32 	%rd13, %r7;
	mul.lo.s64 	%rd3, %rd13, %rd1;
	cvta.to.global.u64 	%rd4, %rd10;
	cvta.to.global.u64 	%rd5, %rd8;
	mov.u32 	%r20, 0;
LOOP:
	shl.b64 	%rd14, %rd16, 4;
	add.s64 	%rd15, %rd5, %rd14;
	ld.global.v4.u32 	{%r8, %r9, %r10, %r11}, [%rd15];
	xor.b32 	%r16, %r9, %r20;
	xor.b32 	%r17, %r16, %r8;
	xor.b32 	%r18, %r17, %r10;
	xor.b32 	%r20, %r18, %r11;
	add.s64 	%rd16, %rd16, %rd3;
	setp.lt.u64 	%p2, %rd16, %rd9;
	@%p2 bra 	LOOP;
	setp.ne.s32 	%p3, %r20, 24301;
	@%p3 bra 	DONE;
	mov.u32 	%r19, 24301;
	st.global.u32 	[%rd4], %r19;
DONE:
	ret;
}
)";

} // namespace nvfp4::run

#endif // NVFP4_RUN_FLUSHKERNEL_H
