// convert-nvfp4-to-gpu on nvfp4.convert_scale_layout: one kernel a conversion,
// one thread per destination byte, or per word of 4 columns when a row has a
// multiple of 4 (so a blocked destination's padding is written as zero by
// the same launch), and modules mixing it with gemv.
//
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a" \
// RUN:   | FileCheck %s --implicit-check-not=nvfp4.convert_scale_layout \
// RUN:       --implicit-check-not=nvfp4.gemv --implicit-check-not=memset \
// RUN:       --implicit-check-not=memref.copy
// The kernels do not depend on the chip beyond their target:
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_100a" \
// RUN:   | FileCheck %s --check-prefix=SM100

// 200 rows x 7 columns in 2 x 2 atoms: rows 200-255 and column 7 are padding.
func.func @linear_to_blocked(%lin: memref<2x200x7xf8E4M3FN>,
                             %blk: memref<2x2x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<2x200x7xf8E4M3FN> to memref<2x2x2x512xf8E4M3FN>
  return
}

func.func @blocked_to_linear(%blk: memref<1x2x2x512xf8E8M0FNU>,
                             %lin: memref<1x200x7xf8E8M0FNU>) {
  nvfp4.convert_scale_layout %blk, %lin from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E8M0FNU> to memref<1x200x7xf8E8M0FNU>
  return
}

// Same layout: a copy (the canonicalizer would fold these; the pass need not).
func.func @same_layout(%s: memref<1x5x3xf8E4M3FN>, %d: memref<1x5x3xf8E4M3FN>,
                       %bs: memref<3x1x2x512xf8E4M3FN>,
                       %bd: memref<3x1x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %s, %d from <linear> to <linear>
      : memref<1x5x3xf8E4M3FN> to memref<1x5x3xf8E4M3FN>
  nvfp4.convert_scale_layout %bs, %bd from <blocked128x4> to <blocked128x4>
      : memref<3x1x2x512xf8E4M3FN> to memref<3x1x2x512xf8E4M3FN>
  return
}

// Both ops in one function, and two identical conversions (their kernels
// get distinct names).
func.func @convert_then_gemv(%sfa: memref<1x256x8xf8E4M3FN>,
                             %sfa_blk: memref<1x2x2x512xf8E4M3FN>,
                             %sfb: memref<1x1x8xf8E4M3FN>,
                             %sfb_blk: memref<1x1x2x512xf8E4M3FN>,
                             %a: memref<1x256x64xi8>, %b: memref<1x64xi8>,
                             %c: memref<1x256xf32>) {
  nvfp4.convert_scale_layout %sfa, %sfa_blk from <linear> to <blocked128x4>
      : memref<1x256x8xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %sfb, %sfb_blk from <linear> to <blocked128x4>
      : memref<1x1x8xf8E4M3FN> to memref<1x1x2x512xf8E4M3FN>
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa_blk, %b, %sfb_blk into %c
      : memref<1x256x64xi8>, memref<1x2x2x512xf8E4M3FN>, memref<1x64xi8>,
        memref<1x1x2x512xf8E4M3FN> into memref<1x256xf32>
  nvfp4.convert_scale_layout %sfa, %sfa_blk from <linear> to <blocked128x4>
      : memref<1x256x8xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  return
}

// CHECK: module attributes {gpu.container_module}

// Grid: ceil(2 * 2 * 512 / 256) = 8 CTAs a batch, 2 batches; 256 threads.
// CHECK-LABEL: func.func @linear_to_blocked(
// CHECK-DAG: %[[GX:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[GY:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[TX:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @[[K1:nvfp4_convert_scale_layout_200x7x2_linear_to_blocked128x4_f8E4M3FN]]::@[[K1]] blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%[[TX]], %{{.*}}, %{{.*}}) args(%{{.*}} : memref<2x200x7xf8E4M3FN>, %{{.*}} : memref<2x2x2x512xf8E4M3FN>)
// CHECK-SAME: {nvfp4.launch = {block = [256, 1, 1], chip = "sm_90a", cols = 7 : i64, element = "f8E4M3FN", from = "linear", grid = [8, 2, 1], kernel = "[[K1]]", l = 2 : i64, op = "convert_scale_layout", params = ["source", "dest"], rows = 200 : i64, shared_bytes = 0 : i64, to = "blocked128x4"}}
// CHECK-NEXT: return

// A 1400-byte linear destination: 6 CTAs, the last one partly idle.
// CHECK-LABEL: func.func @blocked_to_linear(
// CHECK-DAG: %[[GX:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[TX:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @[[K2:nvfp4_convert_scale_layout_200x7x1_blocked128x4_to_linear_f8E8M0FNU]]::@[[K2]] blocks in (%[[GX]], %{{.*}}, %{{.*}}) threads in (%[[TX]], %{{.*}}, %{{.*}})
// CHECK-SAME: {nvfp4.launch = {block = [256, 1, 1], chip = "sm_90a", cols = 7 : i64, element = "f8E8M0FNU", from = "blocked128x4", grid = [6, 1, 1], kernel = "[[K2]]", l = 1 : i64, op = "convert_scale_layout", params = ["source", "dest"], rows = 200 : i64, shared_bytes = 0 : i64, to = "linear"}}

// CHECK-LABEL: func.func @same_layout(
// CHECK: gpu.launch_func @nvfp4_convert_scale_layout_5x3x1_linear_to_linear_f8E4M3FN::
// CHECK-SAME: grid = [1, 1, 1]
// Both sides blocked: rows and cols are the padded sizes; 1024 bytes a
// batch in words, one CTA.
// CHECK: gpu.launch_func @nvfp4_convert_scale_layout_128x8x3_blocked128x4_to_blocked128x4_f8E4M3FN::
// CHECK-SAME: cols = 8 : i64, {{.*}}grid = [1, 3, 1], {{.*}}rows = 128 : i64

// In program order: the conversions, the gemv reading their results, and
// the repeated conversion under a new name.
// CHECK-LABEL: func.func @convert_then_gemv(
// CHECK: gpu.launch_func @[[SFA:nvfp4_convert_scale_layout_256x8x1_linear_to_blocked128x4_f8E4M3FN]]::@[[SFA]] {{.*}} args(%arg0 : memref<1x256x8xf8E4M3FN>, %arg1 : memref<1x2x2x512xf8E4M3FN>)
// CHECK: gpu.launch_func @[[SFB:nvfp4_convert_scale_layout_1x8x1_linear_to_blocked128x4_f8E4M3FN]]::@[[SFB]] {{.*}} args(%arg2 : memref<1x1x8xf8E4M3FN>, %arg3 : memref<1x1x2x512xf8E4M3FN>)
// CHECK: gpu.launch_func @[[GEMV:nvfp4_gemv_256x128x1_nvfp4_blocked128x4_f32]]::@[[GEMV]] {{.*}} args(%arg4 : memref<1x256x64xi8>, %arg1 : memref<1x2x2x512xf8E4M3FN>, %arg5 : memref<1x64xi8>, %arg3 : memref<1x1x2x512xf8E4M3FN>, %arg6 : memref<1x256xf32>)
// CHECK-SAME: op = "gemv"
// CHECK: gpu.launch_func @[[SFA2:nvfp4_convert_scale_layout_256x8x1_linear_to_blocked128x4_f8E4M3FN_[0-9]+]]::@[[SFA2]]
// CHECK-SAME: kernel = "[[SFA2]]"
// CHECK-NEXT: return

//===----------------------------------------------------------------------===//
// Kernels.
//===----------------------------------------------------------------------===//

// linear -> blocked: thread `byte` of batch l writes dest[l, rb, cb, e] and
// reads the scale (row, col) that byte holds, or writes 0 for padding.
// CHECK-LABEL: gpu.module @nvfp4_convert_scale_layout_200x7x2_linear_to_blocked128x4_f8E4M3FN [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">]
// CHECK: gpu.func @nvfp4_convert_scale_layout_200x7x2_linear_to_blocked128x4_f8E4M3FN(%[[SRC:.*]]: memref<2x200x7xf8E4M3FN>, %[[DST:.*]]: memref<2x2x2x512xf8E4M3FN>) kernel attributes {nvvm.reqntid = array<i32: 256, 1, 1>}
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[CTA:.*]] = gpu.block_id x
// CHECK-DAG: %[[L:.*]] = gpu.block_id y
// Consecutive threads write consecutive bytes.
// CHECK: %[[BASE:.*]] = arith.muli %[[CTA]], %c256
// CHECK: %[[BYTE:.*]] = arith.addi %[[BASE]], %[[TID]]
// A blocked destination is a whole number of CTAs: no bounds check.
// CHECK-NOT: scf.if
// CHECK: %[[E:.*]] = arith.remui %[[BYTE]], %c512
// CHECK: %[[ATOM:.*]] = arith.divui %[[BYTE]], %c512
// CHECK: %[[RB:.*]] = arith.divui %[[ATOM]], %c2
// CHECK: %[[CB:.*]] = arith.remui %[[ATOM]], %c2
// row = rb * 128 + (e % 16) / 4 * 32 + e / 16
// CHECK: %[[R0:.*]] = arith.muli %[[RB]], %c128
// CHECK: %[[E16:.*]] = arith.remui %[[E]], %c16
// CHECK: %[[Q:.*]] = arith.divui %[[E16]], %c4
// CHECK: %[[Q32:.*]] = arith.muli %[[Q]], %c32
// CHECK: %[[R1:.*]] = arith.addi %[[R0]], %[[Q32]]
// CHECK: %[[LINE:.*]] = arith.divui %[[E]], %c16
// CHECK: %[[ROW:.*]] = arith.addi %[[R1]], %[[LINE]]
// col = cb * 4 + e % 4
// CHECK: %[[C0:.*]] = arith.muli %[[CB]], %c4
// CHECK: %[[C1:.*]] = arith.remui %[[E]], %c4
// CHECK: %[[COL:.*]] = arith.addi %[[C0]], %[[C1]]
// CHECK: %[[RIN:.*]] = arith.cmpi ult, %[[ROW]], %c200
// CHECK: %[[CIN:.*]] = arith.cmpi ult, %[[COL]], %c7
// CHECK: %[[IN:.*]] = arith.andi %[[RIN]], %[[CIN]]
// Padding reads a clamped, in-bounds scale and stores zero instead.
// CHECK: %[[R:.*]] = arith.minui %[[ROW]], %c199
// CHECK: %[[C:.*]] = arith.minui %[[COL]], %c6
// CHECK: %[[V:.*]] = vector.load %[[SRC]][%[[L]], %[[R]], %[[C]]] {alignment = 1 : i64} : memref<2x200x7xf8E4M3FN>, vector<1xf8E4M3FN>
// CHECK: %[[BITS:.*]] = vector.bitcast %[[V]] : vector<1xf8E4M3FN> to vector<1xi8>
// CHECK: %[[SEL:.*]] = arith.select %[[IN]], %[[BITS]], %{{.*}} : vector<1xi8>
// CHECK: %[[OUT:.*]] = vector.bitcast %[[SEL]] : vector<1xi8> to vector<1xf8E4M3FN>
// CHECK: vector.store %[[OUT]], %[[DST]][%[[L]], %[[RB]], %[[CB]], %[[E]]] {alignment = 1 : i64} : memref<2x2x2x512xf8E4M3FN>, vector<1xf8E4M3FN>
// CHECK-NEXT: gpu.return

// blocked -> linear: thread `byte` writes dest[l, row, col] and reads the
// source at buildScaleIndices(blocked128x4, row, col).
// CHECK-LABEL: gpu.module @nvfp4_convert_scale_layout_200x7x1_blocked128x4_to_linear_f8E8M0FNU
// CHECK: gpu.func @nvfp4_convert_scale_layout_200x7x1_blocked128x4_to_linear_f8E8M0FNU(%[[SRC:.*]]: memref<1x2x2x512xf8E8M0FNU>, %[[DST:.*]]: memref<1x200x7xf8E8M0FNU>)
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[CTA:.*]] = gpu.block_id x
// CHECK-DAG: %[[L:.*]] = gpu.block_id y
// CHECK: %[[BASE:.*]] = arith.muli %[[CTA]], %c256
// CHECK: %[[BYTE:.*]] = arith.addi %[[BASE]], %[[TID]]
// CHECK: %[[INB:.*]] = arith.cmpi ult, %[[BYTE]], %c1400
// CHECK: scf.if %[[INB]] {
// CHECK: %[[ROW:.*]] = arith.divui %[[BYTE]], %c7
// CHECK: %[[COL:.*]] = arith.remui %[[BYTE]], %c7
// (row % 32) * 16 + (row % 128) / 32 * 4 + col % 4 in atom (row / 128, col / 4)
// CHECK: %[[LANE:.*]] = arith.remui %[[ROW]], %c32
// CHECK: %[[LINE:.*]] = arith.muli %[[LANE]], %c16
// CHECK: %[[R128:.*]] = arith.remui %[[ROW]], %c128
// CHECK: %[[QUAD:.*]] = arith.divui %[[R128]], %c32
// CHECK: %[[QOFF:.*]] = arith.muli %[[QUAD]], %c4
// CHECK: %[[IN0:.*]] = arith.addi %[[LINE]], %[[QOFF]]
// CHECK: %[[C4:.*]] = arith.remui %[[COL]], %c4
// CHECK: %[[E:.*]] = arith.addi %[[IN0]], %[[C4]]
// CHECK: %[[RB:.*]] = arith.divui %[[ROW]], %c128
// CHECK: %[[CB:.*]] = arith.divui %[[COL]], %c4
// CHECK: %[[V:.*]] = vector.load %[[SRC]][%[[L]], %[[RB]], %[[CB]], %[[E]]] {{.*}} : memref<1x2x2x512xf8E8M0FNU>, vector<1xf8E8M0FNU>
// CHECK: vector.store %{{.*}}, %[[DST]][%[[L]], %[[ROW]], %[[COL]]] {{.*}} : memref<1x200x7xf8E8M0FNU>, vector<1xf8E8M0FNU>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return

// Same layout: the destination index is the source index.
// CHECK-LABEL: gpu.module @nvfp4_convert_scale_layout_5x3x1_linear_to_linear_f8E4M3FN
// CHECK: scf.if
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c3
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %c3
// CHECK: vector.load %{{.*}}[%{{.*}}, %[[ROW]], %[[COL]]]
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %[[ROW]], %[[COL]]]
// A word a thread: its first byte is 4 (cta * 256 + tid).
// CHECK-LABEL: gpu.module @nvfp4_convert_scale_layout_128x8x3_blocked128x4_to_blocked128x4_f8E4M3FN
// CHECK: arith.muli %{{.*}}, %c4
// CHECK-NOT: scf.if
// CHECK: vector.load %{{.*}}[%[[L:.*]], %[[RB:.*]], %[[CB:.*]], %[[E:.*]]] {alignment = 4 : i64} : memref<3x1x2x512xf8E4M3FN>, vector<4xf8E4M3FN>
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[L]], %[[RB]], %[[CB]], %[[E]]] {alignment = 4 : i64} : memref<3x1x2x512xf8E4M3FN>, vector<4xf8E4M3FN>

// The mixed function's kernels, in program order.
// Words from a linear source: the padding's clamped column is 8 - 4, so
// the word stays in its row.
// CHECK-LABEL: gpu.module @nvfp4_convert_scale_layout_256x8x1_linear_to_blocked128x4_f8E4M3FN [
// CHECK: %[[C:.*]] = arith.minui %{{.*}}, %c4{{.*}} : index
// CHECK: %[[W:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}, %[[C]]] {alignment = 4 : i64} : memref<1x256x8xf8E4M3FN>, vector<4xf8E4M3FN>
// CHECK: arith.select %{{.*}} : vector<4xi8>
// CHECK: vector.store {{.*}} {alignment = 4 : i64} : memref<1x2x2x512xf8E4M3FN>, vector<4xf8E4M3FN>
// CHECK-LABEL: gpu.module @nvfp4_convert_scale_layout_1x8x1_linear_to_blocked128x4_f8E4M3FN [
// CHECK-LABEL: gpu.module @nvfp4_gemv_256x128x1_nvfp4_blocked128x4_f32 [
// CHECK: nvvm.dot.accumulate.4way
// CHECK-LABEL: gpu.module @nvfp4_convert_scale_layout_256x8x1_linear_to_blocked128x4_f8E4M3FN_{{[0-9]+}} [

// SM100-COUNT-8: gpu.module @{{.*}} [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">]
// SM100-NOT: gpu.module
