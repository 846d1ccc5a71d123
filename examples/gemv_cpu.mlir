// A small NVFP4 GEMV run on the CPU: M = 4 rows, K = 32 (two scale blocks),
// L = 2 batches, alpha = 0.5. Run it from the repository root with
//   build/bin/nvfp4-opt examples/gemv_cpu.mlir --nvfp4-cpu-pipeline |
//     /usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void \
//       -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so
//
// Batch 0: b is 1.0 everywhere (code 2) with scales 1 and 2, so row m of c is
// alpha * (sum of a's first block + 2 * sum of its second block).
// Batch 1: b is -0.5 everywhere (code 9), scales 1: c = alpha * -0.5 * sum(a).

func.func private @printMemrefF32(memref<*xf32>)

// Two e2m1 codes a byte, low nibble first: 0x21 is (0.5, 1.0), 0x77 (6, 6),
// 0xAB (-1.5, -1.0), 0x44 (2, 2).
memref.global "private" constant @a_bytes : memref<2x4x16xi8> = dense<[
  [[0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x21,
    0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44],
   [0x77, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
   [0xAB, 0xAB, 0, 0, 0, 0, 0, 0, 0x77, 0, 0, 0, 0, 0, 0, 0],
   [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11]],
  [[0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x21,
    0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44],
   [0x77, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
   [0xAB, 0xAB, 0, 0, 0, 0, 0, 0, 0x77, 0, 0, 0, 0, 0, 0, 0],
   [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11]]]>
memref.global "private" constant @b_bytes : memref<2x16xi8> = dense<[
  [0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
   0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22],
  [0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99,
   0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99]]>
memref.global "private" constant @sfb_values : memref<2x2xf8E4M3FN> = dense<[[1.0, 2.0], [1.0, 1.0]]>

func.func @main() {
  %a = memref.get_global @a_bytes : memref<2x4x16xi8>
  %b = memref.get_global @b_bytes : memref<2x16xi8>
  %sfb = memref.get_global @sfb_values : memref<2x2xf8E4M3FN>
  %sfa = memref.alloc() : memref<2x4x2xf8E4M3FN>
  %one = arith.constant 1.0 : f8E4M3FN
  linalg.fill ins(%one : f8E4M3FN) outs(%sfa : memref<2x4x2xf8E4M3FN>)
  %c = memref.alloc() : memref<2x4xf32>
  %alpha = arith.constant 0.5 : f32
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x4x16xi8>, memref<2x4x2xf8E4M3FN>, memref<2x16xi8>,
        memref<2x2xf8E4M3FN> into memref<2x4xf32>
  // Expected: [[38, 6, 9.5, 1], [-11, -3, -1.75, -0.25]]
  %u = memref.cast %c : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
