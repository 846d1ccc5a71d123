// One serialized kernel "x/k", a name that is no file name.
module attributes {gpu.container_module} {
  gpu.binary @"x/k" [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>, %dst: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"x/k"::@"x/k" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %dst : memref<512xi8>)
        {nvfp4.launch = {kernel = "x/k", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "blocked128x4", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    return
  }
}
