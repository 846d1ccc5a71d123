// NVFP4 GEMV of the benchmark shape M = 4096, K = 7168, L = 8: c = alpha * A . b
// with e2m1 values, e4m3 scales per 16 values (linear scale layout) and an f16
// result. Lower it to PTX and a launch manifest, from the repository root, with
//   build/bin/nvfp4-opt examples/gemv_4096x7168x8.mlir --nvfp4-to-ptx="chip=sm_90a export-dir=out" \
//     -o /dev/null
func.func @gemv_4096x7168x8(%a: memref<8x4096x3584xi8>, %sfa: memref<8x4096x448xf8E4M3FN>,
    %b: memref<8x3584xi8>, %sfb: memref<8x448xf8E4M3FN>,
    %c: memref<8x4096xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<8x4096x3584xi8>, memref<8x4096x448xf8E4M3FN>, memref<8x3584xi8>,
        memref<8x448xf8E4M3FN> into memref<8x4096xf16>
  return
}
