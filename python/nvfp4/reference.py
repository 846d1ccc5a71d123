"""Inputs in the reference problem's tensor format and the float64
reference to check a kernel's output with (PyTorch; CPU or GPU).

The decoders below work on raw bytes so that they run on any PyTorch,
including builds without the float8/float4 dtypes (those get uint8
tensors). Numbers: docs/problem.md section 1, docs/numerics.md.
"""
from .ir import FORMATS
from .tensors import (OUTPUT_DTYPES, PACKED_DTYPE, SCALE_DTYPES,
                      blocked_shape)

E2M1_MAGNITUDES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
VECTOR_ROWS = 128  # the reference pads b and sfb to 128 rows


def _torch():
    import torch
    return torch


def _ceil_div(a, b):
    return (a + b - 1) // b


def decode_e2m1(packed):
    """float64 values of packed e2m1 bytes [..., n] -> [..., 2n], element
    2j in the low nibble of byte j."""
    torch = _torch()
    table = torch.tensor(E2M1_MAGNITUDES + tuple(-v for v in E2M1_MAGNITUDES),
                         dtype=torch.float64, device=packed.device)
    codes = packed.to(torch.int64)
    pairs = torch.stack((codes & 15, codes >> 4), dim=-1)
    return table[pairs].flatten(-2)


def decode_scales(raw, format):
    """float64 values of e4m3fn (nvfp4) or ue8m0 (mxfp4) scale bytes."""
    torch = _torch()
    bits = raw.to(torch.int64)
    if format == "mxfp4":
        value = torch.pow(2.0, (bits - 127).to(torch.float64))
        return torch.where(bits == 255, torch.full_like(value, float("nan")),
                           value)
    exponent, mantissa = (bits >> 3) & 15, (bits & 7).to(torch.float64)
    normal = (1 + mantissa / 8) * torch.pow(2.0, (exponent - 7).to(
        torch.float64))
    value = torch.where(exponent == 0, mantissa / 8 * 2.0 ** -6, normal)
    value = torch.where((bits & 128) != 0, -value, value)
    return torch.where((bits & 127) == 127,
                       torch.full_like(value, float("nan")), value)


def raw_bytes(tensor):
    torch = _torch()
    return tensor if tensor.dtype == torch.uint8 else tensor.view(torch.uint8)


def batch_first(tensor):
    """[X, Y, L] -> [L, X, Y] raw bytes (the storage order)."""
    return raw_bytes(tensor).permute(2, 0, 1)


def unblock(permuted, rows, cols):
    """Linear [L, rows, cols] scale bytes of the 6-D blocked128x4 view
    [32, 4, rows/128, 4, cols/4, L]: row = block * 128 + (r % 128) / 32 * 32
    + r % 32, column = block * 4 + c % 4."""
    raw = raw_bytes(permuted)
    l = raw.shape[5]
    linear = raw.permute(5, 2, 1, 0, 4, 3).reshape(
        l, raw.shape[2] * 128, raw.shape[4] * 4)
    return linear[:, :rows, :cols]


def gemv_reference(a, b, sfa, sfb, m, k, format="nvfp4", alpha=1.0):
    """float64 c [L, M] of the reference problem's tensors: a [M, K/2, L],
    b [N, K/2, L] (row 0), sfa [M, K/B, L] or blocked, sfb likewise."""
    block = FORMATS[format][0]
    cols = k // block
    if len(sfa.shape) == 6:
        sfa, sfb = unblock(sfa, m, cols), unblock(sfb, 1, cols)
    else:
        sfa, sfb = batch_first(sfa), batch_first(sfb)[:, :1]
    av = decode_e2m1(batch_first(a))                    # [L, M, K]
    bv = decode_e2m1(batch_first(b)[:, 0])              # [L, K]
    sa = decode_scales(sfa, format)                     # [L, M, C]
    sb = decode_scales(sfb[:, 0], format)               # [L, C]
    l = av.shape[0]
    blocks = (av.reshape(l, m, cols, block) *
              bv.reshape(l, 1, cols, block)).sum(-1)     # [L, M, C]
    return alpha * (blocks * sa * sb.unsqueeze(1)).sum(-1)


def _dtype(name):
    torch = _torch()
    return getattr(torch, name, torch.uint8)


def _as(raw, name):
    dtype = _dtype(name)
    return raw if dtype == raw.dtype else raw.view(dtype)


def _random_scales(shape, format, dist, generator, device):
    """Scale bytes: `weak` as the reference problem (values 0, 1 and 2),
    `full` realistic positive scales (e4m3 2^-6..3.75, ue8m0 2^-4..2^2)."""
    torch = _torch()

    def draw(low, high):
        return torch.randint(low, high, shape, generator=generator,
                             dtype=torch.int64, device=device).to(
                                 torch.uint8)
    if format == "mxfp4":
        return draw(126, 129) if dist == "weak" else draw(123, 130)
    if dist == "weak":
        # e4m3 bytes of 0, 1 and 2.
        codes = torch.tensor([0, 0x38, 0x40], dtype=torch.uint8,
                             device=device)
        return codes[draw(0, 3).long()]
    return draw(1 << 3, 9 << 3)


def reference_inputs(m, k, l, seed, format="nvfp4", dist="full",
                     device="cpu"):
    """(a, b, sfa, sfb, sfa_permuted, sfb_permuted, c) laid out as the
    reference problem's generate_input lays them out (docs/problem.md), on
    `device`; c is filled with NaN. The padding of the blocked copies holds
    random bytes, as in the reference: a kernel must not read it. The
    numbers are drawn on `device` (the same seed gives other data on a
    GPU than on the CPU)."""
    torch = _torch()
    generator = torch.Generator(device=device).manual_seed(seed)
    block = FORMATS[format][0]
    cols = k // block
    scale_dtype = SCALE_DTYPES[format]

    def random_bytes(shape, high):
        return torch.randint(0, high, shape, generator=generator,
                             dtype=torch.int64, device=device).to(torch.uint8)

    high = 4 if dist == "weak" else 256
    a = _as(random_bytes((l, m, k // 2), high).permute(1, 2, 0), PACKED_DTYPE)
    b = _as(random_bytes((l, VECTOR_ROWS, k // 2), high).permute(1, 2, 0),
            PACKED_DTYPE)
    scales = []
    for rows in (m, VECTOR_ROWS):
        linear = _random_scales((l, rows, cols), format, dist, generator,
                                device)
        shape = blocked_shape(rows, cols, l)
        row_blocks, col_blocks = shape[2], shape[4]
        padded = _random_scales((l, row_blocks * 128, col_blocks * 4), format,
                                dist, generator, device)
        padded[:, :rows, :cols] = linear
        # Storage [L][row block][column block][r % 32][(r % 128) / 32][c % 4]
        # seen as the reference's [32, 4, row blocks, 4, column blocks, L].
        storage = padded.reshape(l, row_blocks, 4, 32, col_blocks, 4).permute(
            0, 1, 4, 3, 2, 5).contiguous()
        permuted = storage.permute(3, 4, 1, 5, 2, 0)
        scales.append((_as(linear.permute(1, 2, 0), scale_dtype),
                       _as(permuted, scale_dtype)))
    c = torch.full((l, m, 1), float("nan"), dtype=_dtype(
        OUTPUT_DTYPES["f16"]), device=device).permute(1, 2, 0)
    (sfa, sfa_permuted), (sfb, sfb_permuted) = scales
    return a, b, sfa, sfb, sfa_permuted, sfb_permuted, c


def compare(out, ref, rtol=1e-3, atol=1e-3):
    """(passed, mismatches, rel_err, max_abs_err) of a kernel's output
    (any float dtype, same shape as the float64 `ref`): |out - rr| <= atol
    + rtol |rr| with rr the reference rounded to the output's type, NaN
    outputs failing (the rule of nvfp4-run)."""
    torch = _torch()
    out64 = out.to(torch.float64)
    rounded = ref.to(out.dtype).to(torch.float64)
    close = (out64 == rounded) | ((out64 - rounded).abs() <=
                                  atol + rtol * rounded.abs())
    mismatches = int((~close).sum())
    finite = torch.isfinite(out64)
    diff = (out64 - ref)[finite]
    norm = float(ref[finite].norm())
    rel = float(diff.norm()) / norm if norm else float(diff.norm())
    max_abs = float(diff.abs().max()) if diff.numel() else float("nan")
    return mismatches == 0, mismatches, rel, max_abs
