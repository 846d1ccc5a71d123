// decode=mma: the tensor-core kernel (nvgpu.mma.sync m16n8k16, f16
// operands, f32 accumulators) for NVFP4 with N packed vectors or f16 b;
// bf16 b takes bf16 operands (nvvm.mma.sync, which nvgpu does not lower).
// A lane decodes each i32 of codes into four f16 pairs (shifts and masks
// build the high bytes, prmt spreads them over zero low bytes), multiplies
// each by its block's scale (cvt.rn.f16x2.e4m3x2, times 2^7) and feeds one
// MMA per pair of pairs; a row's last partial step is predicated.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a decode=mma split-k=1 rows-per-thread=2" \
// RUN:   | FileCheck %s
// The default configuration picks the tensor cores for N >= 4 packed
// NVFP4 vectors, N >= 2 16-bit ones and one 16-bit vector from 3072 rows
// (M x L) on, and names how they sum in the launch (the manifest).
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=DEFAULT
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a lanes-per-row=8" | FileCheck %s --check-prefix=CUDACORE
// Every kernel assembles for both chips.
// RUN: rm -rf %t && nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a decode=mma export-dir=%t/sm90" -o /dev/null
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_100a decode=mma split-k=3 export-dir=%t/sm100" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sm90/nvfp4_gemv_130x1040x2_n8_nvfp4_linear_f16.json
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90/nvfp4_gemv_130x1040x2_n8_nvfp4_linear_f16.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90/nvfp4_gemv_64x2880x1_vf16_nvfp4_blocked128x4_bf16.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90/nvfp4_gemv_33x1040x1_n16_nvfp4_blocked128x4_f32.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t/sm100/nvfp4_gemv_130x1040x2_n8_nvfp4_linear_f16.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t/sm100/nvfp4_gemv_33x1040x1_n16_nvfp4_blocked128x4_f32.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90/nvfp4_gemv_64x2880x1_n2_vbf16_nvfp4_blocked128x4_f32.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t/sm100/nvfp4_gemv_64x2880x1_n2_vbf16_nvfp4_blocked128x4_f32.ptx -o /dev/null %}

// K = 1040: 520 bytes a row, 8 whole steps of 64 bytes and one of 8.
// CHECK-LABEL: gpu.func @nvfp4_gemv_130x1040x2_n8_nvfp4_linear_f16(
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// A step: a's 16 bytes of rows g and g + 8 (streaming loads), b's of
// vector g, each with its two scales (65 columns: odd, so two byte loads).
// Rows of 520 bytes start 8 bytes off a multiple of 16 every other row, so
// the 16 bytes are two 8-byte loads (a 16-byte load there faults).
// CHECK-COUNT-4: ld.global.nc.L1::no_allocate.v2.u32
// CHECK-NOT: v4.u32
// CHECK-COUNT-2: vector.load %{{.*}} {alignment = 8 : i64} : memref<2x8x520xi8>, vector<8xi8>
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : vector<2xf16>
// CHECK: arith.shli %{{.*}}, %c1_i32
// CHECK: arith.andi %{{.*}}, %c235802126_i32
// CHECK: nvvm.prmt <default> %c5124_i32
// CHECK: nvvm.prmt <default> %c13348_i32
// CHECK-COUNT-8: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
// The last step: halves past the row count as zero.
// CHECK: scf.if
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-COUNT-8: nvgpu.mma.sync
// Sums undo the operands' 2^-14 (2^14 = 16384), then alpha; vectors past N
// and rows past M store nothing.
// CHECK: arith.constant 1.638400e+04 : f32
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x8x130xf16>
// CHECK: gpu.return
// DEFAULT-LABEL: func.func @n8
// DEFAULT: decode = "mma"
// DEFAULT-SAME: sums = "products"
// CUDACORE-LABEL: func.func @n8
// CUDACORE: decode = "dp4a"
// CUDACORE-NOT: sums =
// MANIFEST: "config": {
// MANIFEST: "decode": "mma"
// MANIFEST: "sums": "products"
func.func @n8(%a: memref<2x130x520xi8>, %sfa: memref<2x130x65xf8E4M3FN>,
    %b: memref<2x8x520xi8>, %sfb: memref<2x8x65xf8E4M3FN>,
    %c: memref<2x8x130xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x130x520xi8>, memref<2x130x65xf8E4M3FN>, memref<2x8x520xi8>,
        memref<2x8x65xf8E4M3FN> into memref<2x8x130xf16>
  return
}

// f16 b: its values are the operands as loaded, repaired into the order of
// a's pairs; the sums undo only a's 2^-7.
// CHECK-LABEL: gpu.func @nvfp4_gemv_64x2880x1_vf16_nvfp4_blocked128x4_bf16(
// Rows of 1440 bytes: a's 16 bytes are one aligned load.
// CHECK: ld.global.nc.L1::no_allocate.v4.u32
// CHECK: vector.load %{{.*}} : memref<1x2880xf16>, vector<8xf16>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2] : vector<2xf16>, vector<2xf16>
// CHECK: nvgpu.mma.sync
// CHECK: arith.constant 1.280000e+02 : f32
// CHECK: gpu.return
// DEFAULT-LABEL: func.func @wide
// DEFAULT: decode = "f32"
func.func @wide(%a: memref<1x64x1440xi8>, %sfa: memref<1x1x45x512xf8E4M3FN>,
    %b: memref<1x2880xf16>, %c: memref<1x64xbf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<1x64x1440xi8>, memref<1x1x45x512xf8E4M3FN>, memref<1x2880xf16>
        into memref<1x64xbf16>
  return
}

// Sixteen vectors: two MMAs per pair of a's pairs (vectors g and g + 8).
// CHECK-LABEL: gpu.func @nvfp4_gemv_33x1040x1_n16_nvfp4_blocked128x4_f32(
// CHECK: scf.for
// CHECK-COUNT-16: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: gpu.return
func.func @n16(%a: memref<1x33x520xi8>, %sfa: memref<1x1x17x512xf8E4M3FN>,
    %b: memref<1x16x520xi8>, %sfb: memref<1x1x17x512xf8E4M3FN>,
    %c: memref<1x16x33xf32>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x33x520xi8>, memref<1x1x17x512xf8E4M3FN>, memref<1x16x520xi8>,
        memref<1x1x17x512xf8E4M3FN> into memref<1x16x33xf32>
  return
}

// bf16 b (two vectors): a code becomes a bf16 of its value times 2^-126,
// its sign to bit 15 and its exponent and mantissa to bits 8..6 of each
// half (shifts and masks 0x01C001C0 and 0x80008000, no byte permute); a
// scale goes through f32 (times 2^119) to bf16, so an operand is again
// value * scale * 2^-7 and the sums undo the same 2^-7. b's values pair
// up as (0, 4), (1, 5), (2, 6), (3, 7), the order of a's pairs.
// CHECK-LABEL: gpu.func @nvfp4_gemv_64x2880x1_n2_vbf16_nvfp4_blocked128x4_f32(
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
// CHECK: arith.constant dense<6.64613997E+35> : vector<2xf32>
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: arith.constant 29360576 : i32
// CHECK: arith.constant -2147450880 : i32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<2xbf16>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2] : vector<2xbf16>, vector<2xbf16>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [1, 3] : vector<2xbf16>, vector<2xbf16>
// CHECK-COUNT-8: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: arith.constant 1.280000e+02 : f32
// CHECK: gpu.return
// DEFAULT-LABEL: func.func @bf16_vectors
// DEFAULT: decode = "mma"
func.func @bf16_vectors(%a: memref<1x64x1440xi8>,
    %sfa: memref<1x1x45x512xf8E4M3FN>, %b: memref<1x2x2880xbf16>,
    %c: memref<1x2x64xf32>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<1x64x1440xi8>, memref<1x1x45x512xf8E4M3FN>, memref<1x2x2880xbf16>
        into memref<1x2x64xf32>
  return
}

// DEFAULT-LABEL: func.func @bf16_rows
// DEFAULT: decode = "mma"
func.func @bf16_rows(%a: memref<1x3072x256xi8>,
    %sfa: memref<1x3072x32xf8E4M3FN>, %b: memref<1x512xbf16>,
    %c: memref<1x3072xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<1x3072x256xi8>, memref<1x3072x32xf8E4M3FN>, memref<1x512xbf16>
        into memref<1x3072xf32>
  return
}
