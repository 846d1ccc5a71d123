// One decode step of a layer with FP4 weights, as a server runs it for 8
// sequences at once: their bf16 activations x are quantized to NVFP4 (e2m1
// values, one e4m3 scale per 16), then multiplied by the 4096 x 7168 NVFP4
// weight matrix w as a skinny GEMM with N = 8 vectors:
//   y[n, m] = sum_k w[m, k] * q(x)[n, k].
// Lower it, from the repository root, with
//   build/bin/nvfp4-opt examples/decode_step.mlir \
//     --nvfp4-to-ptx="chip=sm_90a export-dir=out" -o /dev/null
// which writes two kernels (the quantization, then the GEMM) with their
// manifests; the host IR launches them in that order. nvfp4-run runs and
// verifies each (docs/benchmarks.md, "The decode step").
func.func @decode_step(%x: memref<1x8x7168xbf16>,
                       %xq: memref<1x8x3584xi8>,
                       %xs: memref<1x8x448xf8E4M3FN>,
                       %w: memref<1x4096x3584xi8>,
                       %ws: memref<1x4096x448xf8E4M3FN>,
                       %y: memref<1x8x4096xbf16>) {
  nvfp4.quantize <nvfp4> <linear> %x into %xq, %xs
      : memref<1x8x7168xbf16> into memref<1x8x3584xi8>,
        memref<1x8x448xf8E4M3FN>
  nvfp4.gemv <nvfp4> <linear> %w, %ws, %xq, %xs into %y
      : memref<1x4096x3584xi8>, memref<1x4096x448xf8E4M3FN>,
        memref<1x8x3584xi8>, memref<1x8x448xf8E4M3FN>
        into memref<1x8x4096xbf16>
  return
}
