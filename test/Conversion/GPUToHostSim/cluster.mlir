// RUN: nvfp4-opt %s --convert-gpu-to-host-sim="prefix=t_" | FileCheck %s

// A kernel whose CTAs form clusters (nvvm.cluster_dim, .reqnctapercluster
// in PTX): its cluster barrier and mapa become runtime calls, and its
// launcher runs the grid through nvfp4sim_launch_cluster with the
// cluster's CTA count.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @partials() {addr_space = 3 : i32} : !llvm.array<4 x f32>

    llvm.func @kernel(%f: f32) attributes {gpu.kernel, nvvm.kernel, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
      nvvm.cluster.arrive.relaxed
      nvvm.cluster.wait
      %zero = llvm.mlir.constant(0 : i32) : i32
      %sh = llvm.mlir.addressof @partials : !llvm.ptr<3>
      %gen = llvm.addrspacecast %sh : !llvm.ptr<3> to !llvm.ptr
      %remote = nvvm.mapa %gen, %zero : !llvm.ptr -> !llvm.ptr
      llvm.store %f, %remote : f32, !llvm.ptr
      nvvm.cluster.arrive
      nvvm.cluster.wait
      llvm.return
    }
  }

  func.func @host(%f: f32) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@kernel blocks in (%c8, %c1, %c1) threads in (%c32, %c1, %c1) args(%f : f32)
    return
  }
}

// CHECK-DAG: llvm.func @nvfp4sim_launch_cluster(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, i64, i32)
// CHECK-DAG: llvm.func @nvfp4sim_mapa(!llvm.ptr, i32) -> !llvm.ptr

// CHECK-LABEL: llvm.func internal @t_kernels__kernel(
// CHECK-NOT: nvvm.cluster_dim
// CHECK: llvm.call @nvfp4sim_cluster_arrive()
// CHECK-NEXT: llvm.call @nvfp4sim_cluster_wait()
// CHECK: %[[REMOTE:.*]] = llvm.call @nvfp4sim_mapa(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> !llvm.ptr
// CHECK: llvm.call @nvfp4sim_check_align(%[[REMOTE]], %{{.*}})
// CHECK-NEXT: llvm.store %{{.*}}, %[[REMOTE]] : f32, !llvm.ptr
// CHECK-NEXT: llvm.call @nvfp4sim_cluster_arrive()
// CHECK-NEXT: llvm.call @nvfp4sim_cluster_wait()
// CHECK-NOT: nvvm.

// The launcher: clusters of 4 of the 8 CTAs.
// CHECK-LABEL: llvm.func @t_kernel(
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32)
// CHECK: llvm.call @nvfp4sim_launch_cluster(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FOUR]])
