// nvfp4-run reads the manifests nvfp4-opt exports for scale-layout
// conversions, in both directions and for both scale element types.
// RUN: rm -rf %t && mkdir -p %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a export-dir=%t" -o /dev/null
// RUN: nvfp4-run --check %t/nvfp4_convert_scale_layout_130x6x2_linear_to_blocked128x4_f8E4M3FN.json \
// RUN:   %t/nvfp4_convert_scale_layout_130x6x2_blocked128x4_to_linear_f8E8M0FNU.json | FileCheck %s --check-prefix=OK
// OK: OK convert_scale_layout 130x6x2 linear->blocked128x4 f8E4M3FN sm_90a
// OK: OK convert_scale_layout 130x6x2 blocked128x4->linear f8E8M0FNU sm_90a

// --m and --l stand for the rows and batches; --k does not apply.
// RUN: nvfp4-run --check --m 130 --l 2 %t/nvfp4_convert_scale_layout_130x6x2_linear_to_blocked128x4_f8E4M3FN.json | FileCheck %s --check-prefix=ROWS
// ROWS: OK convert_scale_layout 130x6x2 linear->blocked128x4 f8E4M3FN sm_90a
// RUN: not nvfp4-run --check --l 4 %t/nvfp4_convert_scale_layout_130x6x2_linear_to_blocked128x4_f8E4M3FN.json 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: nvfp4-run: error: {{.*}}kernel was built for rows=130, L=2; got rows=130, L=4
// RUN: not nvfp4-run --check --k 96 %t/nvfp4_convert_scale_layout_130x6x2_linear_to_blocked128x4_f8E4M3FN.json 2>&1 | FileCheck %s --check-prefix=NOK
// NOK: nvfp4-run: error: {{.*}}--k does not apply to convert_scale_layout

// A conversion takes source and dest, nothing else.
// RUN: sed 's/"dest"/"c"/' %t/nvfp4_convert_scale_layout_130x6x2_linear_to_blocked128x4_f8E4M3FN.json > %t/bad.json
// RUN: not nvfp4-run --check %t/bad.json 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: nvfp4-run: error: {{.*}}bad.json:{{[0-9]+}}:{{[0-9]+}}: unknown parameter "c" (expected source, dest)

func.func @to_blocked(%lin: memref<2x130x6xf8E4M3FN>, %blk: memref<2x2x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<2x130x6xf8E4M3FN> to memref<2x2x2x512xf8E4M3FN>
  return
}

func.func @to_linear(%blk: memref<2x2x2x512xf8E8M0FNU>, %lin: memref<2x130x6xf8E8M0FNU>) {
  nvfp4.convert_scale_layout %blk, %lin from <blocked128x4> to <linear>
      : memref<2x2x2x512xf8E8M0FNU> to memref<2x130x6xf8E8M0FNU>
  return
}
