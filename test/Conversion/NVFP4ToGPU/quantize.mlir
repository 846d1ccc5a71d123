// convert-nvfp4-to-gpu on nvfp4.quantize and nvfp4.dequantize: one kernel a
// thread a block of values; a two-level quantize is two launches in order,
// the global scale's reduction first. Every GPU pipeline lowers them (the
// tcgen05 one leaves them to convert-nvfp4-to-gpu).
//
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a" \
// RUN:   | FileCheck %s --implicit-check-not=nvfp4.quantize \
// RUN:       --implicit-check-not=nvfp4.dequantize
// RUN: nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05" -o /dev/null
// RUN: nvfp4-opt %s --nvfp4-to-host-sim -o /dev/null

// CHECK-LABEL: func.func @two_level
// CHECK: gpu.launch_func @[[GS:nvfp4_quantize_global_scale_130x64x2_bf16]]::@[[GS]]
// CHECK-SAME: blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256
// CHECK-SAME: args(%arg0 : memref<2x130x64xbf16>, %arg3 : memref<f32>)
// CHECK-SAME: global_scale
// CHECK-NOT: scale_format
// CHECK-SAME: op = "quantize_global_scale", params = ["input", "global_scale"]
// CHECK: gpu.launch_func @[[Q:nvfp4_quantize_130x64x2_nvfp4_blocked128x4_bf16_2l]]::@[[Q]]
// 130 rows padded to 256, 4 scale columns to 4: 1024 blocks a batch, two
// a thread (16-bit NVFP4 input), 512 a CTA.
// CHECK-SAME: blocks in (%c2, %c2{{(_[0-9]+)?}},
// CHECK-SAME: global_scale = true
// CHECK-SAME: input = "bf16"
// CHECK-SAME: params = ["input", "data", "scales", "global_scale"]
// CHECK-SAME: scale_layout = "blocked128x4"
func.func @two_level(%x: memref<2x130x64xbf16>, %q: memref<2x130x32xi8>,
                     %s: memref<2x2x1x512xf8E4M3FN>, %gs: memref<f32>) {
  nvfp4.quantize <nvfp4> <blocked128x4> %x into %q, %s global_scale(%gs)
      : memref<2x130x64xbf16> into memref<2x130x32xi8>,
        memref<2x2x1x512xf8E4M3FN>, memref<f32>
  return
}

// CHECK-LABEL: func.func @mxfp4
// CHECK: gpu.launch_func @[[M:nvfp4_quantize_3x96x1_mxfp4_linear_f32]]::@[[M]]
// CHECK-SAME: global_scale = false
// CHECK-SAME: params = ["input", "data", "scales"]
// CHECK-NOT: gpu.launch_func
func.func @mxfp4(%x: memref<1x3x96xf32>, %q: memref<1x3x48xi8>,
                 %s: memref<1x3x3xf8E8M0FNU>) {
  nvfp4.quantize <mxfp4> <linear> %x into %q, %s
      : memref<1x3x96xf32> into memref<1x3x48xi8>, memref<1x3x3xf8E8M0FNU>
  return
}

// CHECK-LABEL: func.func @dequantize
// CHECK: gpu.launch_func @[[D:nvfp4_dequantize_4x32x1_nvfp4_linear_f16_gs]]::@[[D]]
// CHECK-SAME: blocks in (%c1, %c1
// CHECK-SAME: op = "dequantize", output = "f16"
// CHECK-SAME: params = ["data", "scales", "output", "global_scale"]
func.func @dequantize(%q: memref<1x4x16xi8>, %s: memref<1x4x2xf8E4M3FN>,
                      %gs: memref<f32>, %y: memref<1x4x32xf16>) {
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<f32>
        into memref<1x4x32xf16>
  return
}

// The reduction: a grid-stride loop of 16-byte loads, a warp's maximum by
// shuffles, a CTA's through shared memory, merged by an atomic max of the
// bits; the last CTA to count itself in writes gs and resets both globals.
// CHECK: gpu.module @[[GS]]
// CHECK-DAG: memref.global "private" @nvfp4_amax_arrivals : memref<1xi32, #gpu.address_space<global>> = dense<0>
// CHECK-DAG: memref.global "private" @nvfp4_amax_bits : memref<1xi32, #gpu.address_space<global>> = dense<0>
// CHECK: gpu.func @[[GS]](%{{.*}}: memref<2x130x64xbf16>, %{{.*}}: memref<f32>) workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64} : memref<16640xbf16>, vector<8xbf16>
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw maxu
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: memref.atomic_rmw addi
// CHECK: scf.if
// CHECK: memref.atomic_rmw maxu
// CHECK: memref.store {{.*}} : memref<f32>
// CHECK-COUNT-2: memref.store {{.*}} : memref<1xi32, #gpu.address_space<global>>

// A thread loads its two blocks in 16-byte vectors (clamped indices, so
// also at padding positions), then for each stores a scale byte and 8 bytes
// of codes, or at a padding position of the blocked layout only a zero
// scale byte. The registers are capped for two blocks.
// CHECK: gpu.module @[[Q]]
// CHECK: gpu.func @[[Q]]
// CHECK-SAME: nvvm.maxnreg = 56
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64} : memref<2x130x64xbf16>, vector<8xbf16>
// CHECK: memref.load {{.*}} : memref<f32>
// CHECK: scf.if {{.*}} {
// CHECK-NOT: scf.if
// CHECK: memref.store {{.*}} : memref<2x2x1x512xf8E4M3FN>
// CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<2x130x32xi8>, vector<8xi8>
// CHECK-NEXT: } else {
// CHECK: memref.store {{.*}} : memref<2x2x1x512xf8E4M3FN>
// CHECK-NEXT: }
// CHECK: scf.if {{.*}} {
// CHECK-NOT: scf.if
// CHECK: memref.store {{.*}} : memref<2x2x1x512xf8E4M3FN>
// CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<2x130x32xi8>, vector<8xi8>
// CHECK-NEXT: } else {
// CHECK: memref.store {{.*}} : memref<2x2x1x512xf8E4M3FN>
// CHECK-NEXT: }

// CHECK: gpu.module @[[M]]
// CHECK-COUNT-8: vector.load {{.*}} {alignment = 16 : i64} : memref<1x3x96xf32>, vector<4xf32>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<1x3x48xi8>, vector<16xi8>

// A dequantize thread writes 32 bytes (16 f16 values) from 8 bytes of codes.
// CHECK: gpu.module @[[D]]
// CHECK: vector.load {{.*}} {alignment = 8 : i64} : memref<1x4x16xi8>, vector<8xi8>
// CHECK-COUNT-2: vector.store {{.*}} {alignment = 16 : i64} : memref<1x4x32xf16>, vector<8xf16>
// CHECK-NOT: vector.store
