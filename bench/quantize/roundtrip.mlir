// A two-level NVFP4 quantize of 256 x 7168 bf16 values into blocked
// scales and its dequantization: three launches (the global scale, the
// quantization, the dequantization reading the gs the first wrote), run in
// order by nvfp4-run --sequence (docs/benchmarks.md).
func.func @roundtrip(%x: memref<1x256x7168xbf16>, %q: memref<1x256x3584xi8>,
                     %s: memref<1x2x112x512xf8E4M3FN>, %gs: memref<f32>,
                     %y: memref<1x256x7168xbf16>) {
  nvfp4.quantize <nvfp4> <blocked128x4> %x into %q, %s global_scale(%gs)
      : memref<1x256x7168xbf16> into memref<1x256x3584xi8>,
        memref<1x2x112x512xf8E4M3FN>, memref<f32>
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s global_scale(%gs) into %y
      : memref<1x256x3584xi8>, memref<1x2x112x512xf8E4M3FN>, memref<f32>
        into memref<1x256x7168xbf16>
  return
}
