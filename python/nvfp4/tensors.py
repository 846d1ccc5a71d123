"""Checks the operands of a GEMV launch in the reference problem's own
tensor format and finds the device pointers the kernel takes.

The reference problem (docs/problem.md) passes L-last logical shapes over
storage with the batch outermost, which is exactly the storage the kernel
reads (docs/nvfp4-run.md, "Buffers"):

    a    [M, K/2, L]          float4_e2m1fn_x2  strides (K/2, 1, M*K/2)
    b    [N, K/2, L]          float4_e2m1fn_x2  strides (K/2, 1, N*K/2), row 0 used
    sfa  [M, K/B, L]          scale type        strides (K/B, 1, M*K/B)      linear
         [32, 4, ceil(M/128), 4, ceil(K/B/4), L]                           blocked128x4
    sfb  [N, K/B, L]          row 0 used                                     linear
         [32, 4, 1, 4, ceil(K/B/4), L]                                     blocked128x4
    c    [M, 1, L]            float16/bfloat16/float32  strides (1, 1, M)

(B is 16 for nvfp4 with float8_e4m3fn scales, 32 for mxfp4 with
float8_e8m0fnu; uint8 is accepted for every packed operand as raw bytes.)
The reference pads the vector to N = 128 rows; when N > 1 and L > 1 its
rows of one batch are not adjacent to those of the next, so row 0 is
copied into a compact [L, K/2] buffer first (one small device copy).

Only attributes every tensor library has are read (dtype, shape, stride(),
device, data_ptr()), so these checks run on CPU tensors and on stand-ins.
"""
from dataclasses import dataclass, field

from .errors import ArgumentError

PACKED_DTYPE = "float4_e2m1fn_x2"
RAW_DTYPE = "uint8"
SCALE_DTYPES = {"nvfp4": "float8_e4m3fn", "mxfp4": "float8_e8m0fnu"}
OUTPUT_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}
# The kernels read whole 16-byte chunks from the start of each operand.
ALIGNMENT = 16
ATOM_ROWS, ATOM_COLS, ATOM_BYTES = 128, 4, 512


def dtype_name(tensor):
    return str(tensor.dtype).replace("torch.", "")


def _ceil_div(a, b):
    return (a + b - 1) // b


def _dims(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def blocked_shape(rows, cols, l):
    """The reference problem's 6-D view of blocked 128x4 scales."""
    return (32, 4, _ceil_div(rows, ATOM_ROWS), 4, _ceil_div(cols, ATOM_COLS),
            l)


def blocked_strides(rows, cols, l):
    """The strides of that view over [L][row blocks][column blocks][512]
    storage: within an atom, row r % 32 at 16 bytes, (r % 128) / 32 at 4,
    column c % 4 at 1."""
    row_blocks, col_blocks = _ceil_div(rows, ATOM_ROWS), _ceil_div(cols,
                                                                   ATOM_COLS)
    return (16, 4, col_blocks * ATOM_BYTES, 1, ATOM_BYTES,
            row_blocks * col_blocks * ATOM_BYTES)


@dataclass
class Operands:
    """What a launch needs: the CUDA device index, the pointer of every
    operand and, for an operand whose batches are not adjacent, the name
    of the compact copy to make (compact_rows)."""
    device: int
    pointers: dict
    gather: list = field(default_factory=list)


def _check_dtype(name, tensor, allowed):
    actual = dtype_name(tensor)
    if actual not in allowed:
        raise ArgumentError(f"{name}: dtype is {actual}; expected "
                            f"{' or '.join(allowed)}")


def _check_shape(name, tensor, shape, meaning):
    actual = tuple(tensor.shape)
    # None stands for any positive size (the vector's row count N).
    if len(actual) != len(shape) or any(
            got < 1 if want is None else got != want
            for got, want in zip(actual, shape)):
        wanted = _dims("N" if d is None else d for d in shape)
        raise ArgumentError(f"{name}: shape is {_dims(actual)}; expected "
                            f"{wanted} ({meaning})")


def _check_strides(name, tensor, strides):
    """Strides of dimensions of size 1 do not matter."""
    actual = tuple(tensor.stride())
    if any(size != 1 and got != want
           for size, got, want in zip(tensor.shape, actual, strides)):
        raise ArgumentError(
            f"{name}: strides are {tuple(actual)}; expected {tuple(strides)} "
            f"for shape {_dims(tensor.shape)} (the batch outermost, each "
            f"batch contiguous, as the reference problem stores it)")


def _device_index(name, tensor):
    device = tensor.device
    if device.type != "cuda":
        raise ArgumentError(f"{name} is on {device}; the kernel runs on a "
                            f"CUDA device")
    return device.index or 0


def check_operands(spec, a, b, sfa, sfb, c):
    """Operands of a launch of the kernel of `spec` (a GemvSpec), or
    ArgumentError naming the first operand that does not fit."""
    m, k, l = spec.m, spec.k, spec.l
    cols = spec.scale_columns
    half = k // 2
    shape_text = f"M={m}, K={k}, L={l}"
    scale_dtypes = (SCALE_DTYPES[spec.format], RAW_DTYPE)
    gather = []

    _check_dtype("a", a, (PACKED_DTYPE, RAW_DTYPE))
    _check_shape("a", a, (m, half, l), f"[M, K/2, L] for {shape_text}")
    _check_strides("a", a, (half, 1, m * half))

    _check_dtype("b", b, (PACKED_DTYPE, RAW_DTYPE))
    _check_shape("b", b, (None, half, l),
                 f"[N, K/2, L] for {shape_text}, row 0 used")
    rows = b.shape[0]
    _check_strides("b", b, (half, 1, rows * half))
    if rows > 1 and l > 1:
        gather.append("b")

    if spec.layout == "linear":
        for name, tensor, height in (("sfa", sfa, m), ("sfb", sfb, None)):
            _check_dtype(name, tensor, scale_dtypes)
            row = "M" if height else "N"
            _check_shape(name, tensor, (height, cols, l),
                         f"[{row}, K/{spec.block}, L] of linear {spec.format}"
                         f" scales for {shape_text}")
            height = tensor.shape[0]
            _check_strides(name, tensor, (cols, 1, height * cols))
        if sfb.shape[0] > 1 and l > 1:
            gather.append("sfb")
    else:
        for name, tensor, height in (("sfa", sfa, m), ("sfb", sfb, 1)):
            _check_dtype(name, tensor, scale_dtypes)
            _check_shape(name, tensor, blocked_shape(height, cols, l),
                         f"[32, 4, ceil({'M' if height > 1 else 1}/128), 4, "
                         f"ceil(K/{spec.block}/4), L] of blocked128x4 "
                         f"{spec.format} scales for {shape_text}")
            _check_strides(name, tensor, blocked_strides(height, cols, l))

    _check_dtype("c", c, (OUTPUT_DTYPES[spec.output],))
    _check_shape("c", c, (m, 1, l), f"[M, 1, L] for {shape_text}")
    _check_strides("c", c, (1, 1, m))

    operands = (("a", a), ("sfa", sfa), ("b", b), ("sfb", sfb), ("c", c))
    device = _device_index("a", a)
    for name, tensor in operands[1:]:
        if _device_index(name, tensor) != device:
            raise ArgumentError(f"{name} is on {tensor.device}, a on "
                                f"{a.device}; every operand must be on one "
                                f"device")
    pointers = {}
    for name, tensor in operands:
        pointer = tensor.data_ptr()
        if name not in gather and pointer % ALIGNMENT:
            raise ArgumentError(f"{name}: data starts at 0x{pointer:x}, not "
                                f"on a {ALIGNMENT}-byte boundary")
        pointers[name] = pointer
    return Operands(device, pointers, gather)


class OperandChecker:
    """check_operands for one spec, its expectations computed once: a call
    whose operands fit costs a few attribute reads each; any other is
    handed to check_operands, which names what is wrong."""

    def __init__(self, spec):
        self.spec = spec
        m, k, l, cols = spec.m, spec.k, spec.l, spec.scale_columns
        half = k // 2

        def dtypes(*names):
            return frozenset("torch." + name for name in names)
        packed = dtypes(PACKED_DTYPE, RAW_DTYPE)
        scales = dtypes(SCALE_DTYPES[spec.format], RAW_DTYPE)
        # (dtypes, shape, strides) of a, sfa, c and the blocked sfb; the
        # vectors of the linear layout have a free row count.
        self._fixed = [(0, packed, (m, half, l), (half, 1, m * half)),
                       (4, dtypes(OUTPUT_DTYPES[spec.output]), (m, 1, l),
                        (1, 1, m))]
        self._vectors = [(1, packed, half)]
        if spec.layout == "linear":
            self._fixed.append((2, scales, (m, cols, l), (cols, 1, m * cols)))
            self._vectors.append((3, scales, cols))
        else:
            for index, rows in ((2, m), (3, 1)):
                self._fixed.append((index, scales,
                                    blocked_shape(rows, cols, l),
                                    blocked_strides(rows, cols, l)))
        self._fixed = [(index, names, shape, strides,
                        [d for d, size in enumerate(shape) if size != 1])
                       for index, names, shape, strides in self._fixed]

    def _fits(self, operands):
        l = self.spec.l
        for index, names, shape, strides, compared in self._fixed:
            tensor = operands[index]
            if str(tensor.dtype) not in names or tuple(tensor.shape) != shape:
                return None
            actual = tensor.stride()
            for d in compared:
                if actual[d] != strides[d]:
                    return None
        gather = []
        for index, names, width in self._vectors:
            tensor = operands[index]
            if str(tensor.dtype) not in names:
                return None
            shape = tuple(tensor.shape)
            if len(shape) != 3 or shape[1:] != (width, l) or shape[0] < 1:
                return None
            rows = shape[0]
            row, inner, batch = tensor.stride()
            if ((rows > 1 and row != width) or (width > 1 and inner != 1) or
                    (l > 1 and batch != rows * width)):
                return None
            if rows > 1 and l > 1:
                gather.append(("b", "sfb")[index == 3])
        device = None
        pointers = {}
        for name, tensor in zip(("a", "b", "sfa", "sfb", "c"), operands):
            where = tensor.device
            if where.type != "cuda":
                return None
            index = where.index or 0
            if device is None:
                device = index
            elif index != device:
                return None
            pointer = tensor.data_ptr()
            if pointer % ALIGNMENT and name not in gather:
                return None
            pointers[name] = pointer
        return Operands(device, pointers, gather)

    def __call__(self, a, b, sfa, sfb, c):
        return (self._fits((a, b, sfa, sfb, c)) or
                check_operands(self.spec, a, b, sfa, sfb, c))


def compact_rows(tensor):
    """Row 0 of every batch of an [N, X, L] tensor as compact [L, X] bytes
    (a device copy; the caller keeps the result alive until the launch is
    queued)."""
    import torch  # only where a copy is needed, i.e. with real tensors
    return tensor.view(torch.uint8)[0].t().contiguous()


def infer_spec_fields(a, sfa, c, format=None):
    """(m, k, l, format, layout, output) of the operands of `gemv`: the
    shape from a, the layout from the rank of sfa, the format from its
    dtype (`format` for raw uint8 scales; nvfp4 when not given), the output
    type from c."""
    if len(a.shape) != 3:
        raise ArgumentError(f"a: shape is {_dims(a.shape)}; expected "
                            f"[M, K/2, L]")
    m, half, l = a.shape
    layouts = {3: "linear", 6: "blocked128x4"}
    if len(sfa.shape) not in layouts:
        raise ArgumentError(f"sfa: shape is {_dims(sfa.shape)}; expected "
                            f"[M, K/B, L] (linear) or [32, 4, ceil(M/128), 4,"
                            f" ceil(K/B/4), L] (blocked128x4)")
    scale = dtype_name(sfa)
    formats = {dtype: fmt for fmt, dtype in SCALE_DTYPES.items()}
    if scale in formats:
        if format is not None and format != formats[scale]:
            raise ArgumentError(f"sfa: dtype {scale} holds "
                                f"{formats[scale]} scales, not {format}")
        format = formats[scale]
    elif scale == RAW_DTYPE:
        format = format or "nvfp4"
    else:
        raise ArgumentError(f"sfa: dtype is {scale}; expected "
                            f"{' or '.join(SCALE_DTYPES.values())} "
                            f"(or {RAW_DTYPE})")
    outputs = {dtype: out for out, dtype in OUTPUT_DTYPES.items()}
    if dtype_name(c) not in outputs:
        raise ArgumentError(f"c: dtype is {dtype_name(c)}; expected "
                            f"{' or '.join(OUTPUT_DTYPES.values())}")
    return (m, 2 * half, l, format, layouts[len(sfa.shape)],
            outputs[dtype_name(c)])
