// --nvfp4-to-ptx: nvfp4 ops -> CUDA-core kernels -> NVVM -> gpu.binary with PTX
// text, and with export-dir one .ptx and one .json manifest per kernel.
//
// RUN: rm -rf %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a rows-per-block=16 rows-per-thread=4 lanes-per-row=32 export-dir=%t/sm_90a" \
// RUN:   | FileCheck %s --check-prefix=SM90
// RUN: ls %t/sm_90a | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=GEMV-JSON < %t/sm_90a/nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.json
// RUN: FileCheck %s --check-prefix=CONVERT-JSON < %t/sm_90a/nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN.json
// RUN: FileCheck %s --check-prefix=GEMV-PTX90 < %t/sm_90a/nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.ptx
// RUN: FileCheck %s --check-prefix=CONVERT-PTX < %t/sm_90a/nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN.ptx
//
// sm_100a with the default configuration and a file-name prefix:
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_100a export-dir=%t/sm_100a export-prefix=b200_" \
// RUN:   | FileCheck %s --check-prefix=SM100
// RUN: FileCheck %s --check-prefix=PREFIX-JSON < %t/sm_100a/b200_nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.json
// RUN: FileCheck %s --check-prefix=GEMV-PTX100 < %t/sm_100a/b200_nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.ptx

// The scales arrive linear and are rearranged for the gemv.
func.func @convert_and_gemv(%a: memref<1x256x512xi8>,
                            %sfa: memref<1x256x64xf8E4M3FN>,
                            %sfa_blk: memref<1x2x16x512xf8E4M3FN>,
                            %b: memref<1x512xi8>,
                            %sfb: memref<1x1x16x512xf8E4M3FN>,
                            %c: memref<1x256xf16>, %alpha: f32) {
  nvfp4.convert_scale_layout %sfa, %sfa_blk from <linear> to <blocked128x4>
      : memref<1x256x64xf8E4M3FN> to memref<1x2x16x512xf8E4M3FN>
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa_blk, %b, %sfb into %c alpha(%alpha)
      : memref<1x256x512xi8>, memref<1x2x16x512xf8E4M3FN>, memref<1x512xi8>,
        memref<1x1x16x512xf8E4M3FN> into memref<1x256xf16>
  return
}

// The host side keeps the launches with their manifests; the device side is
// one gpu.binary of PTX text per kernel, in program order.
// SM90: module attributes {gpu.container_module}
// SM90-LABEL: func.func @convert_and_gemv(
// SM90: gpu.launch_func @nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN::@nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN
// SM90-SAME: nvfp4.launch = {
// SM90: gpu.launch_func @nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16::@nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16
// SM90-SAME: nvfp4.launch = {
// SM90-NOT: gpu.module
// SM90: gpu.binary @nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">
// SM90-SAME: assembly = "
// SM90-SAME: .version 8.8\0A.target sm_90a\0A
// SM90-SAME: .visible .entry nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN(
// SM90-SAME: st.global.b32
// SM90-NEXT: gpu.binary @nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">
// SM90-SAME: .target sm_90a\0A
// SM90-SAME: .visible .entry nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16(
// SM90-SAME: .reqntid 128, 1, 1
// SM90-SAME: ld.global.nc.L1::no_allocate.v4.u32
// SM90-SAME: dp4a.s32.s32
// SM90-SAME: shfl.sync.bfly.b32
// SM90-NOT: gpu.module

// SM100-LABEL: func.func @convert_and_gemv(
// SM100: gpu.binary @nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">
// SM100-SAME: .target sm_100a\0A
// SM100-NEXT: gpu.binary @nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16 [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">
// SM100-SAME: .target sm_100a\0A
// SM100-SAME: cvt.rn.f16x2.e2m1x2

// FILES-DAG: nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN.json
// FILES-DAG: nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN.ptx
// FILES-DAG: nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.json
// FILES-DAG: nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.ptx

// The manifest is the nvfp4.launch dictionary as JSON (keys sorted) plus
// the PTX file name and the schema version (ManifestSchema.h). 256 rows / 16
// a CTA = 16 CTAs of 16 / 4 * 32 threads.
// GEMV-JSON:      {
// GEMV-JSON-NEXT:   "block": [
// GEMV-JSON-NEXT:     128,
// GEMV-JSON-NEXT:     1,
// GEMV-JSON-NEXT:     1
// GEMV-JSON-NEXT:   ],
// GEMV-JSON-NEXT:   "chip": "sm_90a",
// GEMV-JSON-NEXT:   "config": {
// GEMV-JSON-NEXT:     "async_copy_stages": 0,
// GEMV-JSON-NEXT:     "bytes_per_load": 16,
// GEMV-JSON-NEXT:     "cache_hints": true,
// GEMV-JSON-NEXT:     "cta_reduction": "none",
// GEMV-JSON-NEXT:     "cta_split_k": 1,
// GEMV-JSON-NEXT:     "decode": "dp4a",
// GEMV-JSON-NEXT:     "index_bits": 64,
// GEMV-JSON-NEXT:     "interleave_rows": true,
// GEMV-JSON-NEXT:     "lanes_per_row": 32,
// GEMV-JSON:          "rows_per_block": 16,
// GEMV-JSON-NEXT:     "rows_per_thread": 4,
// GEMV-JSON:        },
// GEMV-JSON-NEXT:   "grid": [
// GEMV-JSON-NEXT:     16,
// GEMV-JSON-NEXT:     1,
// GEMV-JSON-NEXT:     1
// GEMV-JSON-NEXT:   ],
// GEMV-JSON-NEXT:   "k": 1024,
// GEMV-JSON-NEXT:   "kernel": "nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16",
// GEMV-JSON-NEXT:   "l": 1,
// GEMV-JSON-NEXT:   "m": 256,
// GEMV-JSON-NEXT:   "n": 1,
// GEMV-JSON-NEXT:   "op": "gemv",
// GEMV-JSON-NEXT:   "output": "f16",
// GEMV-JSON-NEXT:   "params": [
// GEMV-JSON-NEXT:     "a",
// GEMV-JSON-NEXT:     "sfa",
// GEMV-JSON-NEXT:     "b",
// GEMV-JSON-NEXT:     "sfb",
// GEMV-JSON-NEXT:     "c",
// GEMV-JSON-NEXT:     "alpha"
// GEMV-JSON-NEXT:   ],
// GEMV-JSON-NEXT:   "ptx": "nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.ptx",
// GEMV-JSON-NEXT:   "scale_format": "nvfp4",
// GEMV-JSON-NEXT:   "scale_layout": "blocked128x4",
// GEMV-JSON-NEXT:   "shared_bytes": 0,
// GEMV-JSON-NEXT:   "vector": "e2m1",
// GEMV-JSON-NEXT:   "version": 5
// GEMV-JSON-NEXT: }

// 2 x 16 atoms of 512 bytes, one thread a word, 256 threads a CTA: 16 CTAs.
// CONVERT-JSON:      {
// CONVERT-JSON-NEXT:   "block": [
// CONVERT-JSON-NEXT:     256,
// CONVERT-JSON-NEXT:     1,
// CONVERT-JSON-NEXT:     1
// CONVERT-JSON-NEXT:   ],
// CONVERT-JSON-NEXT:   "chip": "sm_90a",
// CONVERT-JSON-NEXT:   "cols": 64,
// CONVERT-JSON-NEXT:   "element": "f8E4M3FN",
// CONVERT-JSON-NEXT:   "from": "linear",
// CONVERT-JSON-NEXT:   "grid": [
// CONVERT-JSON-NEXT:     16,
// CONVERT-JSON-NEXT:     1,
// CONVERT-JSON-NEXT:     1
// CONVERT-JSON-NEXT:   ],
// CONVERT-JSON-NEXT:   "kernel": "nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN",
// CONVERT-JSON-NEXT:   "l": 1,
// CONVERT-JSON-NEXT:   "op": "convert_scale_layout",
// CONVERT-JSON-NEXT:   "params": [
// CONVERT-JSON-NEXT:     "source",
// CONVERT-JSON-NEXT:     "dest"
// CONVERT-JSON-NEXT:   ],
// CONVERT-JSON-NEXT:   "ptx": "nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN.ptx",
// CONVERT-JSON-NEXT:   "rows": 256,
// CONVERT-JSON-NEXT:   "shared_bytes": 0,
// CONVERT-JSON-NEXT:   "to": "blocked128x4",
// CONVERT-JSON-NEXT:   "version": 5
// CONVERT-JSON-NEXT: }

// The exported file is the PTX text itself, and self-contained: a driver
// JIT-compiles it without libdevice, so it must not call external functions
// (such as libdevice's __nv_fmaf, which convert-gpu-to-nvvm emits for
// math.fma unless math-to-llvm has lowered it first).
// GEMV-PTX90:      .version 8.8
// GEMV-PTX90-NEXT: .target sm_90a
// GEMV-PTX90-NOT:  .extern
// GEMV-PTX90:      .visible .entry nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16(
// GEMV-PTX90-COUNT-6: .param
// GEMV-PTX90:      ld.global.nc.L1::no_allocate.v4.u32
// GEMV-PTX90:      prmt.b32
// GEMV-PTX90:      dp4a.s32.s32
// GEMV-PTX90:      shfl.sync.bfly.b32
// GEMV-PTX90:      st.global.b16
// GEMV-PTX90:      ret;

// One word of 4 scales in, one out a thread; 256 threads a CTA.
// CONVERT-PTX:      .target sm_90a
// CONVERT-PTX-NOT:  .extern
// CONVERT-PTX:      .visible .entry nvfp4_convert_scale_layout_256x64x1_linear_to_blocked128x4_f8E4M3FN(
// CONVERT-PTX:      .reqntid 256, 1, 1
// CONVERT-PTX:      ld.global.b32
// CONVERT-PTX:      st.global.b32
// CONVERT-PTX-NOT:  st.global

// PREFIX-JSON: "chip": "sm_100a",
// PREFIX-JSON: "decode": "cvt",
// PREFIX-JSON: "kernel": "nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16",
// PREFIX-JSON: "ptx": "b200_nvfp4_gemv_256x1024x1_nvfp4_blocked128x4_f16.ptx",

// GEMV-PTX100: .target sm_100a
// GEMV-PTX100-NOT: .extern
// GEMV-PTX100: ld.global.nc.L1::no_allocate.v4.u32
// GEMV-PTX100: cvt.rn.f16x2.e2m1x2
// GEMV-PTX100: shfl.sync.bfly.b32
