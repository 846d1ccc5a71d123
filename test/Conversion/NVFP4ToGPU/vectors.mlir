// convert-nvfp4-to-gpu on the gemv forms beyond one packed vector: N packed
// vectors (skinny GEMM) and 16-bit vectors. One kernel computes every
// vector: each unit of a is decoded once (dp4a: its byte lookups) and meets
// each vector's prepared unit; 16-bit b is widened to f32 and meets a's
// codes decoded to f32. The kernel takes no sfb for 16-bit b.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=1 bytes-per-load=8 split-k=1 cta-split-k=1" \
// RUN:   | FileCheck %s
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_100a" \
// RUN:   | FileCheck %s --check-prefix=SM100
// Every form assembles for both chips, with the default configuration.
// RUN: rm -rf %t && nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a export-dir=%t/sm90" -o /dev/null
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_100a export-dir=%t/sm100" -o /dev/null
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90/nvfp4_gemv_130x1040x2_n4_nvfp4_linear_f32.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90/nvfp4_gemv_257x2048x1_vbf16_mxfp4_blocked128x4_bf16.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90/nvfp4_gemv_64x2048x1_n3_vf16_nvfp4_blocked128x4_f16.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t/sm100/nvfp4_gemv_130x1040x2_n4_nvfp4_linear_f32.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t/sm100/nvfp4_gemv_257x2048x1_vbf16_mxfp4_blocked128x4_bf16.ptx -o /dev/null %}

// CHECK-LABEL: gpu.func @nvfp4_gemv_130x1040x2_n4_nvfp4_linear_f32(
// CHECK-SAME: memref<2x4x520xi8>, %{{.*}}: memref<2x4x65xf8E4M3FN>, %{{.*}}: memref<2x4x130xf32>, %{{.*}}: f32)
// One step of one row (one 8-byte unit): a's eight lookups (signed bytes,
// as b's), then for each of the four vectors its own eight lookups and four
// 4-way dot products (signed a times signed b).
// CHECK-COUNT-8: nvvm.prmt
// CHECK-NOT: nvvm.dot.accumulate.4way
// CHECK-COUNT-8: nvvm.prmt
// CHECK-COUNT-4: nvvm.dot.accumulate.4way
// CHECK-NOT: nvvm.dot.accumulate.4way
// CHECK-COUNT-8: nvvm.prmt
// CHECK-COUNT-4: nvvm.dot.accumulate.4way
// CHECK-NOT: nvvm.dot.accumulate.4way
// CHECK-COUNT-8: nvvm.prmt
// CHECK-COUNT-4: nvvm.dot.accumulate.4way
// CHECK-NOT: nvvm.dot.accumulate.4way
// CHECK-COUNT-8: nvvm.prmt
// CHECK-COUNT-4: nvvm.dot.accumulate.4way
// CHECK: gpu.shuffle xor
// Vector v of row m goes to c[l, v, m].
// CHECK-DAG: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %c0{{.*}}, %{{.*}}] : memref<2x4x130xf32>
// CHECK-DAG: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %c3{{.*}}, %{{.*}}] : memref<2x4x130xf32>
// CHECK: gpu.return
func.func @vectors(%a: memref<2x130x520xi8>, %sfa: memref<2x130x65xf8E4M3FN>,
    %b: memref<2x4x520xi8>, %sfb: memref<2x4x65xf8E4M3FN>,
    %c: memref<2x4x130xf32>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x130x520xi8>, memref<2x130x65xf8E4M3FN>, memref<2x4x520xi8>,
        memref<2x4x65xf8E4M3FN> into memref<2x4x130xf32>
  return
}

// bf16: a value is the top half of its f32 (a shift, a mask), no dp4a.
// CHECK-LABEL: gpu.func @nvfp4_gemv_257x2048x1_vbf16_mxfp4_blocked128x4_bf16(
// CHECK-SAME: %{{.*}}: memref<1x2048xbf16>, %{{.*}}: memref<1x257xbf16>)
// CHECK-NOT: nvvm.dot.accumulate.4way
// CHECK: vector.load %{{.*}} : memref<1x2048xbf16>, vector<8xbf16>
// CHECK: arith.shli
// CHECK: arith.andi %{{.*}}, %c-65536_i32
// CHECK: math.fma
// CHECK: gpu.return
// SM100-LABEL: gpu.func @nvfp4_gemv_257x2048x1_vbf16_mxfp4_blocked128x4_bf16(
// SM100-NOT: nvvm.convert.f4x2.to.f16x2
// SM100: gpu.return
func.func @bf16_vector(%a: memref<1x257x1024xi8>,
    %sfa: memref<1x3x16x512xf8E8M0FNU>, %b: memref<1x2048xbf16>,
    %c: memref<1x257xbf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<1x257x1024xi8>, memref<1x3x16x512xf8E8M0FNU>,
        memref<1x2048xbf16> into memref<1x257xbf16>
  return
}

// f16: widened by arith.extf (cvt.f32.f16).
// CHECK-LABEL: gpu.func @nvfp4_gemv_64x2048x1_n3_vf16_nvfp4_blocked128x4_f16(
// CHECK-SAME: %{{.*}}: memref<1x3x2048xf16>, %{{.*}}: memref<1x3x64xf16>)
// CHECK: arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
// CHECK: gpu.return
func.func @f16_vectors(%a: memref<1x64x1024xi8>,
    %sfa: memref<1x1x32x512xf8E4M3FN>, %b: memref<1x3x2048xf16>,
    %c: memref<1x3x64xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<1x64x1024xi8>, memref<1x1x32x512xf8E4M3FN>,
        memref<1x3x2048xf16> into memref<1x3x64xf16>
  return
}
