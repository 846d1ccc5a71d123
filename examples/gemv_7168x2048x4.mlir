// NVFP4 GEMV of the benchmark shape M = 7168, K = 2048, L = 4: c = alpha * A . b
// with e2m1 values, e4m3 scales per 16 values (blocked128x4 scale layout) and an f16
// result. Lower it to PTX and a launch manifest, from the repository root, with
//   build/bin/nvfp4-opt examples/gemv_7168x2048x4.mlir --nvfp4-to-ptx="chip=sm_90a export-dir=out" \
//     -o /dev/null
func.func @gemv_7168x2048x4(%a: memref<4x7168x1024xi8>, %sfa: memref<4x56x32x512xf8E4M3FN>,
    %b: memref<4x1024xi8>, %sfb: memref<4x1x32x512xf8E4M3FN>,
    %c: memref<4x7168xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<4x7168x1024xi8>, memref<4x56x32x512xf8E4M3FN>, memref<4x1024xi8>,
        memref<4x1x32x512xf8E4M3FN> into memref<4x7168xf16>
  return
}
