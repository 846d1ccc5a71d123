// convert-nvfp4-to-gpu on nvfp4.gemv: one gpu.module per gemv, the decode
// chosen per chip, the load path, the lane reduction and the launch.
//
// Default configurations; prefix CHECK covers both chips, SM90 and SM100 the
// decode of each.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,SM90 \
// RUN:       --implicit-check-not=nvvm.convert.f4x2.to.f16x2 \
// RUN:       --implicit-check-not=0x3210
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_100a" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,SM100 \
// RUN:       --implicit-check-not=nvvm.dot.accumulate.4way \
// RUN:       --implicit-check-not=nvvm.prmt
//
// pin-loads: the step's loads chained into b's first word before the decode.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a pin-loads=true" \
// RUN:   | FileCheck %s --check-prefix=PIN
//
// decode=f32 uses neither the dp4a nor the cvt path:
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a decode=f32" \
// RUN:   | FileCheck %s --check-prefix=F32 \
// RUN:       --implicit-check-not=nvvm.convert.f4x2.to.f16x2 \
// RUN:       --implicit-check-not=nvvm.dot.accumulate.4way
//
// Without cache hints the matrix is read with plain aligned vector loads:
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a cache-hints=false" \
// RUN:   | FileCheck %s --check-prefix=NOHINT --implicit-check-not=llvm.inline_asm
//
// An explicit geometry fixes the launch: 8 rows a CTA, 2 rows a thread,
// 16 lanes a row -> 8 / 2 * 16 = 64 threads; 8-byte loads.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-block=8 rows-per-thread=2 lanes-per-row=16 bytes-per-load=8 loads-in-flight=2 split-k=1 cta-split-k=1" \
// RUN:   | FileCheck %s --check-prefix=GEOM

// The reference problem's operands: NVFP4, linear scales, f16, alpha.
func.func @gemv_linear(%a: memref<2x256x512xi8>, %sfa: memref<2x256x64xf8E4M3FN>,
                       %b: memref<2x512xi8>, %sfb: memref<2x64xf8E4M3FN>,
                       %c: memref<2x256xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x256x512xi8>, memref<2x256x64xf8E4M3FN>, memref<2x512xi8>,
        memref<2x64xf8E4M3FN> into memref<2x256xf16>
  return
}

// MXFP4, blocked scales, bf16, no alpha, M not a multiple of the CTA's rows.
func.func @gemv_blocked_mxfp4(%a: memref<1x130x256xi8>,
                              %sfa: memref<1x2x4x512xf8E8M0FNU>,
                              %b: memref<1x256xi8>,
                              %sfb: memref<1x1x4x512xf8E8M0FNU>,
                              %c: memref<1x130xbf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x130x256xi8>, memref<1x2x4x512xf8E8M0FNU>, memref<1x256xi8>,
        memref<1x1x4x512xf8E8M0FNU> into memref<1x130xbf16>
  return
}

//===----------------------------------------------------------------------===//
// Default configurations.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @gemv_linear(
// CHECK-NOT: nvfp4.gemv
// CHECK: gpu.launch_func @[[K1:nvfp4_gemv_256x1024x2_nvfp4_linear_f16]]::@[[K1]]
// CHECK-SAME: args(%{{.*}} : memref<2x256x512xi8>, %{{.*}} : memref<2x256x64xf8E4M3FN>, %{{.*}} : memref<2x512xi8>, %{{.*}} : memref<2x64xf8E4M3FN>, %{{.*}} : memref<2x256xf16>, %{{.*}} : f32)
// SM90-SAME: nvfp4.launch = {block = [{{[0-9]+}}, 1, 1], chip = "sm_90a", config = {{[{].*}}decode = "dp4a"
// SM100-SAME: nvfp4.launch = {block = [{{[0-9]+}}, 1, 1], chip = "sm_100a", config = {{[{].*}}decode = "cvt"
// CHECK-SAME: k = 1024 : i64, kernel = "[[K1]]", l = 2 : i64, m = 256 : i64, n = 1 : i64, op = "gemv", output = "f16", params = ["a", "sfa", "b", "sfb", "c", "alpha"], scale_format = "nvfp4", scale_layout = "linear", shared_bytes = 0 : i64, vector = "e2m1"}
// CHECK: return

// CHECK-LABEL: func.func @gemv_blocked_mxfp4(
// CHECK: gpu.launch_func @[[K2:nvfp4_gemv_130x512x1_mxfp4_blocked128x4_bf16]]::@[[K2]]
// CHECK-SAME: args(%{{.*}} : memref<1x130x256xi8>, %{{.*}} : memref<1x2x4x512xf8E8M0FNU>, %{{.*}} : memref<1x256xi8>, %{{.*}} : memref<1x1x4x512xf8E8M0FNU>, %{{.*}} : memref<1x130xbf16>)
// CHECK-SAME: output = "bf16", params = ["a", "sfa", "b", "sfb", "c"], scale_format = "mxfp4", scale_layout = "blocked128x4"

// One gpu.module a kernel, for the chip, with PTX 8.8.
// SM90-LABEL: gpu.module @nvfp4_gemv_256x1024x2_nvfp4_linear_f16 [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">]
// SM100-LABEL: gpu.module @nvfp4_gemv_256x1024x2_nvfp4_linear_f16 [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">]
// CHECK: gpu.func @nvfp4_gemv_256x1024x2_nvfp4_linear_f16(%{{.*}}: memref<2x256x512xi8>, %{{.*}}: memref<2x256x64xf8E4M3FN>, %{{.*}}: memref<2x512xi8>, %{{.*}}: memref<2x64xf8E4M3FN>, %{{.*}}: memref<2x256xf16>, %[[ALPHA:[^:]*]]: f32)
// CHECK-SAME: kernel attributes {nvvm.maxnreg = 128 : i32, nvvm.reqntid = array<i32: 128, 1, 1>}
// CHECK-DAG: gpu.thread_id x
// CHECK-DAG: gpu.block_id x
// CHECK-DAG: gpu.block_id y
// The dp4a tables, made once a thread: selector 0x7654 (30292) picks all
// four bytes of the constant, the thread index being the other source.
// SM90-DAG: [[TLO:%[0-9]+]] = nvvm.prmt <default> %c30292_i32{{.*}}, %{{.*}}, %c50462976_i32
// SM90-DAG: [[THI:%[0-9]+]] = nvvm.prmt <default> %c30292_i32{{.*}}, %{{.*}}, %c201852420_i32
// The matrix streams through the non-coherent path, 16 bytes a load.
// CHECK: llvm.inline_asm "ld.global.nc.L1::no_allocate.v4.u32 {$0, $1, $2, $3}, [$4];"
// sm_90a: prmt byte lookups in those tables feeding dp4a.
// SM90: nvvm.prmt <default> %{{.*}}, [[TLO]], [[THI]]
// SM90: nvvm.dot.accumulate.4way
// sm_100a: cvt.rn.f16x2.e2m1x2 and f16x2 FMAs.
// SM100: nvvm.convert.f4x2.to.f16x2 %{{.*}} : i8(f4E2M1FN) -> vector<2xf16>
// SM100: math.fma %{{.*}} : vector<2xf16>
// CHECK: math.fma %{{.*}} : f32
// Butterfly reduction over the lanes of a row, then alpha, rounding, store.
// CHECK: gpu.shuffle xor
// CHECK: scf.if
// CHECK: arith.mulf %{{.*}}, %[[ALPHA]] : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.store %{{.*}} : memref<2x256xf16>
// CHECK: gpu.return

// SM90-LABEL: gpu.module @nvfp4_gemv_130x512x1_mxfp4_blocked128x4_bf16 [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">]
// SM100-LABEL: gpu.module @nvfp4_gemv_130x512x1_mxfp4_blocked128x4_bf16 [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">]
// CHECK: gpu.func @nvfp4_gemv_130x512x1_mxfp4_blocked128x4_bf16(%{{.*}}: memref<1x130x256xi8>, %{{.*}}: memref<1x2x4x512xf8E8M0FNU>, %{{.*}}: memref<1x256xi8>, %{{.*}}: memref<1x1x4x512xf8E8M0FNU>, %{{.*}}: memref<1x130xbf16>)
// CHECK-SAME: kernel attributes {nvvm.maxnreg = 128 : i32, nvvm.reqntid = array<i32: 128, 1, 1>}
// Blocked scales are read at their atom coordinates.
// CHECK: memref.load %{{.*}} : memref<1x2x4x512xf8E8M0FNU>
// SM90: nvvm.dot.accumulate.4way
// SM100: nvvm.convert.f4x2.to.f16x2
// CHECK: gpu.shuffle xor
// Rows past M = 130 store nothing; without alpha nothing scales the sum.
// CHECK: arith.cmpi ult, %{{.*}}, %c130
// CHECK: scf.if
// CHECK-NOT: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: memref.store %{{.*}} : memref<1x130xbf16>

// The step's loads: b, its scales and the four rows' (a's words come from
// the previous iteration), then one permute per load of a and of the scales
// into b's first word, then the dot products.
// PIN-LABEL: gpu.module @nvfp4_gemv_256x1024x2_nvfp4_linear_f16
// PIN: scf.for
// PIN: vector.load %{{.*}} : memref<2x512xi8>, vector<16xi8>
// PIN-COUNT-5: vector.load %{{.*}} : memref<2x{{256x64|64}}xf8E4M3FN>, vector<2xf8E4M3FN>
// PIN: llvm.inline_asm "prmt.b32 $0, $1, $2, 0x3210;", "=r,r,r" %{{[0-9]+}}, %arg11
// PIN-COUNT-8: llvm.inline_asm "prmt.b32 $0, $1, $2, 0x3210;", "=r,r,r"
// PIN-NOT: vector.load
// PIN: nvvm.dot.accumulate.4way

//===----------------------------------------------------------------------===//
// decode=f32: every code's f32 bytes looked up by byte permutes (the
// magnitude's two bytes, the sign moved onto the top one), f32 FMAs.
//===----------------------------------------------------------------------===//

// F32-LABEL: func.func @gemv_linear(
// F32: gpu.launch_func
// F32-SAME: config = {{[{].*}}decode = "f32"
// F32-LABEL: gpu.module @nvfp4_gemv_256x1024x2_nvfp4_linear_f16
// F32: [[TOPLO:%[0-9]+]] = nvvm.prmt <default> %c30292_i32{{.*}}, %{{.*}}, %c1061109504_i32
// F32: [[TOPHI:%[0-9]+]] = nvvm.prmt <default> %c30292_i32{{.*}}, %{{.*}}, %c1077952576_i32
// F32: llvm.inline_asm "ld.global.nc.L1::no_allocate.v4.u32
// F32: nvvm.prmt <default> %{{.*}}, [[TOPLO]], [[TOPHI]]
// F32: arith.andi %{{.*}}, %c-2139062144_i32
// F32: nvvm.prmt <default> %c20800_i32
// F32: math.fma %{{.*}} : f32
// F32: gpu.shuffle xor

//===----------------------------------------------------------------------===//
// cache-hints=false: no inline assembly, aligned vector loads of a.
//===----------------------------------------------------------------------===//

// NOHINT-LABEL: func.func @gemv_linear(
// NOHINT: gpu.launch_func
// NOHINT-SAME: cache_hints = false
// NOHINT-LABEL: gpu.module @nvfp4_gemv_256x1024x2_nvfp4_linear_f16
// NOHINT: gpu.func @nvfp4_gemv_256x1024x2_nvfp4_linear_f16(%[[A:[^:]*]]: memref<2x256x512xi8>
// NOHINT: vector.load %[[A]][%{{.*}}] {alignment = 16 : i64} : memref<2x256x512xi8>, vector<16xi8>
// NOHINT: vector.bitcast %{{.*}} : vector<16xi8> to vector<4xi32>

//===----------------------------------------------------------------------===//
// Explicit geometry: grid = (ceil(M / 8), L, 1), block = (64, 1, 1).
//===----------------------------------------------------------------------===//

// GEOM-LABEL: func.func @gemv_linear(
// GEOM-DAG: %[[GX:.*]] = arith.constant 32 : index
// GEOM-DAG: %[[GY:.*]] = arith.constant 2 : index
// GEOM-DAG: %[[TX:.*]] = arith.constant 64 : index
// GEOM: gpu.launch_func @[[K1:.*]]::@[[K1]] blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%[[TX]], %{{.*}}, %{{.*}})
// GEOM-SAME: nvfp4.launch = {block = [64, 1, 1], chip = "sm_90a", config = {async_copy_stages = 0 : i64, bytes_per_load = 8 : i64, cache_hints = true, cta_reduction = "none", cta_split_k = 1 : i64, decode = "dp4a", index_bits = 64 : i64, interleave_rows = false, lanes_per_row = 16 : i64, loads_in_flight = 2 : i64, {{.*}}rows_per_block = 8 : i64, rows_per_thread = 2 : i64{{.*}}}, grid = [32, 2, 1], k = 1024 : i64, kernel = "[[K1]]", l = 2 : i64, m = 256 : i64, n = 1 : i64, op = "gemv"

// GEOM-LABEL: func.func @gemv_blocked_mxfp4(
// GEOM-DAG: %[[GX:.*]] = arith.constant 17 : index
// GEOM-DAG: %[[TX:.*]] = arith.constant 64 : index
// GEOM: gpu.launch_func @{{.*}} blocks in (%[[GX]], %{{.*}}, %{{.*}}) threads in (%[[TX]], %{{.*}}, %{{.*}})
// GEOM-SAME: block = [64, 1, 1]
// GEOM-SAME: grid = [17, 1, 1]

// GEOM-LABEL: gpu.func @nvfp4_gemv_256x1024x2_nvfp4_linear_f16(
// GEOM-SAME: nvvm.reqntid = array<i32: 64, 1, 1>
// GEOM: llvm.inline_asm "ld.global.nc.L1::no_allocate.v2.u32 {$0, $1}, [$2];"
// The 16 lanes of a row combine at distances 8, 4, 2, 1 (nothing at 16).
// GEOM-NOT: gpu.shuffle
// GEOM: gpu.shuffle xor %{{.*}}, %c8_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// GEOM-NEXT: arith.addf
// GEOM: gpu.shuffle xor %{{.*}}, %c4_i32
// GEOM: gpu.shuffle xor %{{.*}}, %c2_i32
// GEOM: gpu.shuffle xor %{{.*}}, %c1_i32
// GEOM: gpu.return
