// RUN: nvfp4-opt %s --convert-nvfp4-to-loops | FileCheck %s

// N vectors: one more loop, over b's dimension 1; b, sfb and c indexed by it.
// CHECK-LABEL: func.func @vectors(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?x?x?xi8>, %[[SFA:[a-z0-9]+]]: memref<?x?x?xf8E4M3FN>, %[[B:[a-z0-9]+]]: memref<?x?x?xi8>, %[[SFB:[a-z0-9]+]]: memref<?x?x?xf8E4M3FN>, %[[C:[a-z0-9]+]]: memref<?x?x?xf32>)
// CHECK:         %[[L:.*]] = memref.dim %[[A]], %c0{{(_[0-9]+)?}} : memref<?x?x?xi8>
// CHECK:         %[[M:.*]] = memref.dim %[[A]], %c1{{(_[0-9]+)?}} : memref<?x?x?xi8>
// CHECK:         %[[N:.*]] = memref.dim %[[B]], %c1{{(_[0-9]+)?}} : memref<?x?x?xi8>
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %[[L]] step
// CHECK-NEXT:      scf.for %[[IN:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:        scf.for %[[IM:.*]] = %{{.*}} to %[[M]] step
// CHECK:               memref.load %[[SFA]][%[[IL]], %[[IM]], %[[KB:[a-z0-9]+]]] : memref<?x?x?xf8E4M3FN>
// CHECK:               memref.load %[[SFB]][%[[IL]], %[[IN]], %[[KB]]] : memref<?x?x?xf8E4M3FN>
// CHECK:                 memref.load %[[A]][%[[IL]], %[[IM]], %[[K:[a-z0-9]+]]] : memref<?x?x?xi8>
// CHECK-NEXT:            memref.load %[[B]][%[[IL]], %[[IN]], %[[K]]] : memref<?x?x?xi8>
// CHECK:             memref.store %{{.*}}, %[[C]][%[[IL]], %[[IN]], %[[IM]]] : memref<?x?x?xf32>
// CHECK-NOT:     nvfp4.
func.func @vectors(%a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>,
                   %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E4M3FN>,
                   %c: memref<?x?x?xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xi8>,
        memref<?x?x?xf8E4M3FN> into memref<?x?x?xf32>
  return
}

// 16-bit b: value by value, acc += (a * b) * sfa, no sfb; the block loop
// only carries the sum.
// CHECK-LABEL: func.func @bf16_vectors(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?x?x?xi8>, %[[SFA:[a-z0-9]+]]: memref<?x?x?xf8E8M0FNU>, %[[B:[a-z0-9]+]]: memref<?x?x?xbf16>, %[[C:[a-z0-9]+]]: memref<?x?x?xf16>, %[[ALPHA:[a-z0-9]+]]: f32)
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IN:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[IM:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[SUM:.*]] = scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:                 %[[BLOCK:.*]] = scf.for %{{.*}} = %{{.*}} to %c16 step %{{.*}} iter_args(%[[PART:.*]] = %[[ACC]]) -> (f32) {
// CHECK:                   %[[K0:.*]] = arith.muli %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK:                   %[[B0:.*]] = memref.load %[[B]][%[[IL]], %[[IN]], %[[K0]]] : memref<?x?x?xbf16>
// CHECK-NEXT:              %[[F0:.*]] = arith.extf %[[B0]] : bf16 to f32
// CHECK-NEXT:              %[[P0:.*]] = arith.mulf %{{.*}}, %[[F0]] : f32
// CHECK-NEXT:              %[[T0:.*]] = arith.mulf %[[P0]], %[[SA:.*]] : f32
// CHECK-NEXT:              %[[S0:.*]] = arith.addf %[[PART]], %[[T0]] : f32
// CHECK-NEXT:              %[[B1:.*]] = memref.load %[[B]][%[[IL]], %[[IN]], %{{.*}}] : memref<?x?x?xbf16>
// CHECK-NEXT:              %[[F1:.*]] = arith.extf %[[B1]] : bf16 to f32
// CHECK-NEXT:              %[[P1:.*]] = arith.mulf %{{.*}}, %[[F1]] : f32
// CHECK-NEXT:              %[[T1:.*]] = arith.mulf %[[P1]], %[[SA]] : f32
// CHECK-NEXT:              %[[S1:.*]] = arith.addf %[[S0]], %[[T1]] : f32
// CHECK-NEXT:              scf.yield %[[S1]] : f32
// CHECK:                 scf.yield %[[BLOCK]] : f32
// CHECK:               %[[SCALED:.*]] = arith.mulf %[[SUM]], %[[ALPHA]] : f32
// CHECK-NEXT:          %[[H:.*]] = arith.truncf %[[SCALED]] : f32 to f16
// CHECK-NEXT:          memref.store %[[H]], %[[C]][%[[IL]], %[[IN]], %[[IM]]] : memref<?x?x?xf16>
func.func @bf16_vectors(%a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>,
                        %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf16>,
                        %alpha: f32) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xbf16>
        into memref<?x?x?xf16>
  return
}

// One f16 vector: b [L, K], c [L, M], two loops as for packed b.
// CHECK-LABEL: func.func @f16_vector(
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IM:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                   memref.load %{{.*}}[%[[IL]], %{{.*}}] : memref<2x128xf16>
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[IL]], %[[IM]]] : memref<2x130xf32>
func.func @f16_vector(%a: memref<2x130x64xi8>, %sfa: memref<2x2x2x512xf8E4M3FN>,
                      %b: memref<2x128xf16>, %c: memref<2x130xf32>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<2x130x64xi8>, memref<2x2x2x512xf8E4M3FN>, memref<2x128xf16>
        into memref<2x130xf32>
  return
}
