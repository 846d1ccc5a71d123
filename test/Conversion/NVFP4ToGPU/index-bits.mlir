// The width of the CUDA-core kernel's index arithmetic: 32 bits (a data
// layout on the kernel's module, addresses as 32-bit offsets from the
// buffers' 64-bit bases) from 32 MiB of a by default, or as index-bits says.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu | FileCheck %s --check-prefix=DEFAULT
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="index-bits=32" | FileCheck %s --check-prefix=NARROW
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="index-bits=64" | FileCheck %s --check-prefix=WIDE --implicit-check-not=dlti
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="index-bits=16" 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="index-bits=32 async-copy-stages=2" 2>&1 | FileCheck %s --check-prefix=ASYNC
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="index-bits=32 decode=mma" 2>&1 | FileCheck %s --check-prefix=MMA
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="async-copy-stages=2" | FileCheck %s --check-prefix=WIDE --implicit-check-not=dlti

// DEFAULT: gpu.launch_func @nvfp4_gemv_64x256x1{{.*}}index_bits = 64
// DEFAULT: gpu.launch_func @nvfp4_gemv_8192x8192x1{{.*}}index_bits = 32
// DEFAULT: gpu.module @nvfp4_gemv_64x256x1_nvfp4_linear_f16 [#nvvm.target<{{.*}}>] {
// DEFAULT: gpu.module @nvfp4_gemv_8192x8192x1_nvfp4_linear_f16 [#nvvm.target<{{.*}}>] attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}

// The streaming loads take the base pointer from the memref descriptor, as
// a 64-bit pointer, and add the offset zero-extended.
// NARROW: gpu.launch_func @nvfp4_gemv_64x256x1{{.*}}index_bits = 32
// NARROW: gpu.launch_func @nvfp4_gemv_8192x8192x1{{.*}}index_bits = 32
// NARROW: gpu.module @nvfp4_gemv_64x256x1_nvfp4_linear_f16 [#nvvm.target<{{.*}}>] attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}
// NARROW: %[[OFFSET:.*]] = arith.index_castui %{{.*}} : index to i64
// NARROW-NEXT: %[[DESC:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<1x64x128xi8> to !llvm.struct<(ptr, ptr, i32, array<3 x i32>, array<3 x i32>)>
// NARROW-NEXT: %[[BASE:.*]] = llvm.extractvalue %[[DESC]][1]
// NARROW-NEXT: %[[PTR:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// NARROW-NEXT: llvm.inline_asm "ld.global.nc.L1::no_allocate.v4.u32 {{.*}} %[[PTR]]
// NARROW: gpu.module @nvfp4_gemv_8192x8192x1_nvfp4_linear_f16 [#nvvm.target<{{.*}}>] attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}

// WIDE: gpu.launch_func @nvfp4_gemv_64x256x1{{.*}}index_bits = 64
// WIDE: gpu.launch_func @nvfp4_gemv_8192x8192x1{{.*}}index_bits = 64

// VALUE: index-bits.mlir:[[@LINE+4]]:3: error: 'nvfp4.gemv' op index-bits must be 0, 32 or 64, got 16
// ASYNC: index-bits.mlir:[[@LINE+3]]:3: error: 'nvfp4.gemv' op index-bits=32: async-copy-stages and tma are lowered with 64-bit indices
// MMA: index-bits.mlir:[[@LINE+2]]:3: error: 'nvfp4.gemv' op index-bits=32: decode=mma is lowered with 64-bit indices
func.func @gemv_64x256x1_nvfp4_linear_f16(%a: memref<1x64x128xi8>, %sfa: memref<1x64x16xf8E4M3FN>, %b: memref<1x128xi8>, %sfb: memref<1x16xf8E4M3FN>, %c: memref<1x64xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x64x128xi8>, memref<1x64x16xf8E4M3FN>, memref<1x128xi8>, memref<1x16xf8E4M3FN> into memref<1x64xf16>
  return
}

func.func @gemv_8192x8192x1_nvfp4_linear_f16(%a: memref<1x8192x4096xi8>, %sfa: memref<1x8192x512xf8E4M3FN>, %b: memref<1x4096xi8>, %sfb: memref<1x512xf8E4M3FN>, %c: memref<1x8192xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x8192x4096xi8>, memref<1x8192x512xf8E4M3FN>, memref<1x4096xi8>, memref<1x512xf8E4M3FN> into memref<1x8192xf16>
  return
}
