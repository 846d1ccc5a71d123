// RUN: nvfp4-opt %s --convert-gpu-to-host-sim -split-input-file -verify-diagnostics

// Whatever the pass cannot simulate exactly is an error at its location.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kernel() attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @below {{'nvvm.read.ptx.sreg.clock' has no host simulation}}
      %t = nvvm.read.ptx.sreg.clock : i32
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kernel(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @below {{inline assembly 'st.global.cs.u32 [$0], $1;' has no host simulation}}
      llvm.inline_asm has_side_effects "st.global.cs.u32 [$0], $1;", "l,r" %p, %p : (!llvm.ptr, !llvm.ptr) -> ()
      llvm.return
    }
  }
}

// -----

// A load form the pass knows, but with a result that does not match it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kernel(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @below {{has no host simulation}}
      %r = llvm.inline_asm "ld.global.nc.v4.u32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %p : (!llvm.ptr) -> !llvm.struct<(i32, i32)>
      llvm.return
    }
  }
}

// -----

// Named barriers and barriers of a thread count are not simulated yet.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kernel(%n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %id = llvm.mlir.constant(1 : i32) : i32
      // expected-error @below {{'nvvm.barrier' has no host simulation}}
      nvvm.barrier id = %id number_of_threads = %n
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{kernel calls external function '__nv_expf', which has no host simulation}}
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @kernel(%x: f32) attributes {gpu.kernel, nvvm.kernel} {
      %y = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  func.func @host(%n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{host simulation needs constant grid and block sizes}}
    gpu.launch_func @kernels::@kernel blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Kernels must be lowered to the LLVM dialect first.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{'gpu.func' in a kernel module: host simulation needs kernels lowered to the LLVM and NVVM dialects}}
    gpu.func @kernel() kernel {
      %t = gpu.thread_id x
      gpu.return
    }
  }
}

// -----

// Clusters must tile the grid along x.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kernel() attributes {gpu.kernel, nvvm.kernel, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
      llvm.return
    }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    // expected-error @below {{host simulation runs clusters along x that divide the grid only}}
    gpu.launch_func @kernels::@kernel blocks in (%c6, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// mapa of a shared::cluster address has no host form.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kernel(%p: !llvm.ptr<3>, %r: i32) attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @below {{'nvvm.mapa' has no host simulation}}
      %q = nvvm.mapa %p, %r : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.return
    }
  }
}
