// A launch whose destination is a buffer of the function's own, not one of
// its arguments: the kernel exports, the function's sequence cannot.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    %dst = memref.alloc() : memref<512xi8>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %dst : memref<512xi8>)
        {nvfp4.launch = {kernel = "k", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "blocked128x4", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    return
  }
}
