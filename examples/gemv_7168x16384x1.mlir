// NVFP4 GEMV of the benchmark shape M = 7168, K = 16384, L = 1: c = alpha * A . b
// with e2m1 values, e4m3 scales per 16 values (linear scale layout) and an f16
// result. Lower it to PTX and a launch manifest, from the repository root, with
//   build/bin/nvfp4-opt examples/gemv_7168x16384x1.mlir --nvfp4-to-ptx="chip=sm_90a export-dir=out" \
//     -o /dev/null
func.func @gemv_7168x16384x1(%a: memref<1x7168x8192xi8>, %sfa: memref<1x7168x1024xf8E4M3FN>,
    %b: memref<1x8192xi8>, %sfb: memref<1x1024xf8E4M3FN>,
    %c: memref<1x7168xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x7168x8192xi8>, memref<1x7168x1024xf8E4M3FN>, memref<1x8192xi8>,
        memref<1x1024xf8E4M3FN> into memref<1x7168xf16>
  return
}
