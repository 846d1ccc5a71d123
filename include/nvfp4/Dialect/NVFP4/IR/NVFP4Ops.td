//===- NVFP4Ops.td - nvfp4 operations ----------------------*- tablegen -*-===//

#ifndef NVFP4_OPS_TD
#define NVFP4_OPS_TD

include "nvfp4/Dialect/NVFP4/IR/NVFP4Dialect.td"
include "nvfp4/Dialect/NVFP4/IR/NVFP4Attrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Packed e2m1 storage: two values a byte, low nibble first.
def NVFP4_PackedData : MemRefOf<[I8]>;
def NVFP4_ScaleMemRef : MemRefOf<[F8E4M3FN, F8E8M0FNU]>;
def NVFP4_WideFloatMemRef : MemRefOf<[F16, BF16, F32]>;
def NVFP4_GlobalScale : MemRefRankOf<[F32], [0]>;
// A gemv's right-hand side: packed e2m1 bytes, or plain 16-bit values.
def NVFP4_VectorMemRef : MemRefOf<[I8, F16, BF16]>;

def NVFP4_GemvOp : NVFP4_Op<"gemv", [AttrSizedOperandSegments]> {
  let summary = "batched block-scaled FP4 matrix times one to 16 vectors";
  let description = [{
    For every batch `l`, vector `n` and row `m`:

        c[l, n, m] = alpha * sum_kb sfa[m, kb] * sfb[n, kb]
                           * sum_i a[m, B*kb+i] * b[n, B*kb+i]

    with `B` = 16 for `nvfp4` (e4m3fn scales) and 32 for `mxfp4` (ue8m0
    scales), accumulation in f32 and one final rounding to the element type of
    `c` (f16, bf16 or f32; round to nearest even). `alpha` is an optional f32
    global scale, 1 when absent.

    `b` holds either packed e2m1 values with their scales `sfb`, or f16 /
    bf16 values, which carry no scales (`sfb` is then absent and the
    `sfb[n, kb]` factor is 1). The rank of `b` picks the form:

    - one vector: `b` is `[L, K/2]` bytes (or `[L, K]` 16-bit values),
      `sfb` `[L, K/B]` or `[L, 1, ceil(K/B/4), 512]`, `c` `[L, M]`;
    - `N` vectors (1 <= N <= 16): `b` is `[L, N, K/2]` bytes (or
      `[L, N, K]` 16-bit values), `sfb` the scale matrix of N rows
      (`[L, N, K/B]` or `[L, 1, ceil(K/B/4), 512]`), `c` `[L, N, M]`.

    The other operands (batch outermost):
    - `a`: `[L, M, K/2]` bytes of packed e2m1, two values a byte;
    - `sfa`: `[L, M, K/B]` (linear) or `[L, ceil(M/128), ceil(K/B/4), 512]`
      (blocked128x4); the layout attribute names the layout of both `sfa`
      and `sfb`.

    With `tiled_codes`, `a` keeps its type but holds its codes in the order
    the tensor-core kernel reads them (include/nvfp4/Support/CodeLayout.h):
    each 16-row tile of a batch is stored as blocks of 1024 bytes, block
    `s` holding bytes `64 s` to `64 s + 63` of the tile's rows, row `i`
    of the tile at `512 (i / 8) + 64 (i % 8)` in it. M must be a multiple
    of 16 and K of 128. Weights laid out so once read as long runs of
    memory.

    The CPU lowering implements every form; the CUDA-core GPU lowering
    every form but tiled codes, which take its tensor-core kernel
    (`decode=mma`: NVFP4 only); the tcgen05 lowering the forms with packed
    `b` (one vector or N = 1..16 vectors) of row-major codes
    (docs/numerics.md, docs/tcgen05.md).

    Examples:

    ```mlir
    nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
        : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x64xi8>,
          memref<2x8xf8E4M3FN> into memref<2x256xf16>
    nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
        : memref<2x256x64xi8>, memref<2x256x4xf8E8M0FNU>, memref<2x4x128xbf16>
          into memref<2x4x256xf32>
    ```
  }];
  let arguments = (ins NVFP4_ScaleFormatAttr:$format,
                       NVFP4_ScaleLayoutAttr:$layout,
                       UnitAttr:$tiled_codes,
                       Arg<NVFP4_PackedData, "matrix", [MemRead]>:$a,
                       Arg<NVFP4_ScaleMemRef, "matrix scales", [MemRead]>:$sfa,
                       Arg<NVFP4_VectorMemRef, "vectors", [MemRead]>:$b,
                       Arg<Optional<NVFP4_ScaleMemRef>, "vector scales",
                           [MemRead]>:$sfb,
                       Arg<NVFP4_WideFloatMemRef, "result", [MemWrite]>:$c,
                       Optional<F32>:$alpha);
  let assemblyFormat = [{
    $format $layout (`tiled_codes` $tiled_codes^)? $a `,` $sfa `,` $b
    (`,` $sfb^)? `into` $c
    (`alpha` `(` $alpha^ `)`)? attr-dict `:` type($a) `,` type($sfa) `,`
    type($b) (`,` type($sfb)^)? `into` type($c)
  }];
  let extraClassDeclaration = [{
    /// Whether b has a vector dimension ([L, N, ...], c [L, N, M]) rather
    /// than being the one-vector form ([L, ...], c [L, M]).
    bool hasVectorDim() { return getB().getType().getRank() == 3; }
    /// N, the vectors of each batch (1 in the one-vector form; dynamic
    /// when b's vector dimension is).
    int64_t getNumVectors() {
      return hasVectorDim() ? getB().getType().getDimSize(1) : 1;
    }
    /// Whether b is packed e2m1 (with scales sfb) rather than 16-bit values.
    bool hasPackedB() { return getB().getType().getElementType().isInteger(8); }
  }];
  let hasVerifier = 1;
}

def NVFP4_ConvertScaleLayoutOp : NVFP4_Op<"convert_scale_layout"> {
  let summary = "copy a scale-factor matrix into another layout";
  let description = [{
    Writes the scales of `source`, stored in layout `from`, into `dest` in
    layout `to`. A linear scale matrix is `[L, R, C]`; the same matrix in the
    blocked128x4 layout is `[L, ceil(R/128), ceil(C/4), 512]`, each 512-byte
    atom holding 128 rows by 4 columns (the layout tcgen05.cp and cuBLAS read).
    Converting linear to blocked128x4 writes the padding bytes of the
    destination as zero; converting a layout to itself copies every byte,
    padding included (docs/numerics.md section 4).

    Example:

    ```mlir
    nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
        : memref<1x256x16xf8E4M3FN> to memref<1x2x4x512xf8E4M3FN>
    ```
  }];
  let arguments = (ins Arg<NVFP4_ScaleMemRef, "source scales", [MemRead]>:$source,
                       Arg<NVFP4_ScaleMemRef, "destination", [MemWrite]>:$dest,
                       NVFP4_ScaleLayoutAttr:$from,
                       NVFP4_ScaleLayoutAttr:$to);
  let assemblyFormat = [{
    $source `,` $dest `from` $from `to` $to attr-dict `:` type($source) `to`
    type($dest)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def NVFP4_QuantizeOp : NVFP4_Op<"quantize"> {
  let summary = "quantize floating-point values to block-scaled FP4";
  let description = [{
    Quantizes `input` (`[L, R, K]` of f32, f16 or bf16) into packed e2m1
    `data` (`[L, R, K/2]` bytes) and block `scales` in `layout`. With
    `global_scale` (NVFP4 only) the scaling is two-level: the global scale
    `gs = 448 * 6 / amax(input)` is written to `global_scale` and folded into
    every block scale; see docs/numerics.md for the exact rounding.

    Example:

    ```mlir
    nvfp4.quantize <nvfp4> <linear> %x into %q, %s global_scale(%gs)
        : memref<1x4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>,
          memref<f32>
    ```
  }];
  let arguments = (ins NVFP4_ScaleFormatAttr:$format,
                       NVFP4_ScaleLayoutAttr:$layout,
                       Arg<NVFP4_WideFloatMemRef, "values", [MemRead]>:$input,
                       Arg<NVFP4_PackedData, "packed e2m1", [MemWrite]>:$data,
                       Arg<NVFP4_ScaleMemRef, "block scales", [MemWrite]>:$scales,
                       Arg<Optional<NVFP4_GlobalScale>, "global scale",
                           [MemWrite]>:$global_scale);
  let assemblyFormat = [{
    $format $layout $input `into` $data `,` $scales
    (`global_scale` `(` $global_scale^ `)`)? attr-dict `:` type($input) `into`
    type($data) `,` type($scales) (`,` type($global_scale)^)?
  }];
  let hasVerifier = 1;
}

def NVFP4_DequantizeOp : NVFP4_Op<"dequantize"> {
  let summary = "expand block-scaled FP4 to floating-point values";
  let description = [{
    Writes `output[l, r, k] = e2m1(data) * scale / gs` where `gs` is read from
    `global_scale` when present and 1 otherwise; the product is formed in f32
    and rounded once to the element type of `output`.

    Example:

    ```mlir
    nvfp4.dequantize <mxfp4> <linear> %q, %s into %y
        : memref<1x4x16xi8>, memref<1x4x1xf8E8M0FNU> into memref<1x4x32xf32>
    ```
  }];
  let arguments = (ins NVFP4_ScaleFormatAttr:$format,
                       NVFP4_ScaleLayoutAttr:$layout,
                       Arg<NVFP4_PackedData, "packed e2m1", [MemRead]>:$data,
                       Arg<NVFP4_ScaleMemRef, "block scales", [MemRead]>:$scales,
                       Arg<NVFP4_WideFloatMemRef, "values", [MemWrite]>:$output,
                       Arg<Optional<NVFP4_GlobalScale>, "global scale",
                           [MemRead]>:$global_scale);
  let assemblyFormat = [{
    $format $layout $data `,` $scales (`global_scale` `(` $global_scale^ `)`)?
    `into` $output attr-dict `:` type($data) `,` type($scales)
    (`,` type($global_scale)^)? `into` type($output)
  }];
  let hasVerifier = 1;
}

#endif // NVFP4_OPS_TD
