"""The operand checks, on stand-ins of CUDA tensors (and, where PyTorch is
installed, on the strides its own permutes give)."""
import re

import pytest

from conftest import FakeTensor, reference_layout
from nvfp4 import ArgumentError, GemvSpec
from nvfp4.tensors import OperandChecker, check_operands, infer_spec_fields


def operands(spec, layout=None, **kwargs):
    a, b, sfa, sfb, sfa_p, sfb_p, c = reference_layout(
        spec.m, spec.k, spec.l, spec.format, spec.output, **kwargs)
    if (layout or spec.layout) == "linear":
        return [a, b, sfa, sfb, c]
    return [a, b, sfa_p, sfb_p, c]


SPECS = [GemvSpec(7168, 2048, 4, layout="blocked128x4", alpha=False),
         GemvSpec(130, 1056, 3, "mxfp4", "linear", "bf16"),
         GemvSpec(257, 2048, 1, "mxfp4", "blocked128x4", "f32"),
         GemvSpec(1, 64, 1)]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.spec())
def test_reference_layout_accepted(spec):
    ops = operands(spec)
    checked = check_operands(spec, *ops)
    assert OperandChecker(spec)(*ops) == checked  # the launch's fast path
    assert checked.device == 0
    assert checked.pointers == {name: t.data_ptr() for name, t in
                                zip(("a", "b", "sfa", "sfb", "c"), ops)}
    # The padded vector of several batches is copied, never read in place.
    padded = spec.l > 1
    assert ("b" in checked.gather) == padded
    assert ("sfb" in checked.gather) == (padded and spec.layout == "linear")


def test_compact_vector_needs_no_copy():
    spec = GemvSpec(256, 512, 2)
    assert check_operands(spec, *operands(spec, rows=1)).gather == []
    assert OperandChecker(spec)(*operands(spec, rows=1)).gather == []
    for check in (check_operands, lambda *ops: OperandChecker(ops[0])(
            *ops[1:])):
        assert check(spec, *operands(spec, rows=2)).gather == ["b", "sfb"]
        assert check(GemvSpec(256, 512, 1),
                     *operands(GemvSpec(256, 512, 1), rows=2)).gather == []


def replace(ops, index, tensor):
    ops = list(ops)
    ops[index] = tensor
    return ops


SPEC = GemvSpec(256, 512, 2, layout="blocked128x4")
A, B, SFA, SFB, C = operands(SPEC)


@pytest.mark.parametrize("index, tensor, words", [
    (0, FakeTensor(A.shape, A.stride(), "float16"),
     "a: dtype is float16; expected float4_e2m1fn_x2 or uint8"),
    (0, FakeTensor((256, 128, 2), (128, 1, 256 * 128), "uint8"),
     r"a: shape is \[256, 128, 2\]; expected \[256, 256, 2\]"),
    (0, FakeTensor(A.shape, (512, 2, 1), "uint8"),
     r"a: strides are \(512, 2, 1\); expected \(256, 1, 65536\)"),
    (0, FakeTensor(A.shape, (256, 1, 2 * 65536), "uint8"),
     "a: strides are"),  # every other batch of a larger tensor
    (1, FakeTensor((128, 256, 2), (256, 1, 2 * 128 * 256), "uint8"),
     "b: strides are"),
    (1, FakeTensor((128, 256), (256, 1), "uint8"), "b: shape is"),
    (2, FakeTensor(SFA.shape, SFA.stride(), "float8_e8m0fnu"),
     "sfa: dtype is float8_e8m0fnu; expected float8_e4m3fn or uint8"),
    (2, FakeTensor((256, 32, 2), (32, 1, 256 * 32), "float8_e4m3fn"),
     r"sfa: shape is \[256, 32, 2\]; expected \[32, 4, 2, 4, 8, 2\]"),
    (2, FakeTensor(SFA.shape, (16, 4, 512, 1, 2048, 8192), "uint8"),
     "sfa: strides are"),  # column blocks before row blocks
    (3, FakeTensor((32, 4, 2, 4, 8, 2), (16, 4, 4096, 1, 512, 8192),
                   "uint8"), "sfb: shape is"),
    (4, FakeTensor(C.shape, C.stride(), "float32"),
     "c: dtype is float32; expected float16"),
    (4, FakeTensor((256, 2), (1, 256), "float16"), "c: shape is"),
    (4, FakeTensor(C.shape, (2, 1, 1), "float16"), "c: strides are"),
    (2, FakeTensor(SFA.shape, SFA.stride(), "uint8", device="cpu"),
     "sfa is on cpu; the kernel runs on a CUDA device"),
    (3, FakeTensor(SFB.shape, SFB.stride(), "uint8", device="cuda:1"),
     "sfb is on cuda:1, a on"),
    (4, FakeTensor(C.shape, C.stride(), "float16", ptr=(1 << 20) + 2),
     "c: data starts at 0x100002, not on a 16-byte boundary"),
])
def test_refused(index, tensor, words):
    ops = replace((A, B, SFA, SFB, C), index, tensor)
    with pytest.raises(ArgumentError, match=words):
        check_operands(SPEC, *ops)
    with pytest.raises(ArgumentError, match=words):
        OperandChecker(SPEC)(*ops)


@pytest.mark.parametrize("index, tensor", [
    (1, FakeTensor((3, 256, 2), (256, 1, 768), "uint8")),
    (1, FakeTensor((2, 256, 2), (256, 1, 512), "uint8")),
    (1, FakeTensor((3, 256, 2), (256, 1, 1024), "uint8")),
    (1, FakeTensor((3, 256, 2), (512, 1, 768), "uint8")),
    (1, FakeTensor((1, 256, 2), (7, 1, 256), "uint8")),
    (1, FakeTensor((1, 256, 2), (7, 2, 256), "uint8")),
    (1, FakeTensor((0, 256, 2), (256, 1, 0), "uint8")),
    (3, FakeTensor((32, 4, 1, 4, 8, 2), (16, 4, 4096, 1, 512, 4096),
                   "uint8")),
])
def test_fast_path_agrees(index, tensor):
    """The launch's fast path accepts exactly what check_operands does."""
    ops = replace((A, B, SFA, SFB, C), index, tensor)
    try:
        expected = check_operands(SPEC, *ops)
    except ArgumentError as error:
        with pytest.raises(ArgumentError, match=re.escape(str(error))):
            OperandChecker(SPEC)(*ops)
        return
    assert OperandChecker(SPEC)._fits(ops) == expected


def test_linear_scales_given_to_a_blocked_kernel():
    with pytest.raises(ArgumentError, match="sfa: shape is .* blocked128x4"):
        check_operands(SPEC, *operands(SPEC, layout="linear"))


def test_cpu_tensors_are_refused():
    spec = GemvSpec(128, 256, 1)
    a, b, sfa, sfb, c = (FakeTensor(t.shape, t.stride(), t.dtype[6:], "cpu")
                         for t in operands(spec))
    with pytest.raises(ArgumentError, match="a is on cpu"):
        check_operands(spec, a, b, sfa, sfb, c)


def test_infer_spec_fields():
    assert infer_spec_fields(A, SFA, C) == (256, 512, 2, "nvfp4",
                                            "blocked128x4", "f16")
    raw = FakeTensor((256, 16, 2), (16, 1, 512), "uint8")
    out = FakeTensor(C.shape, C.stride(), "bfloat16")
    assert infer_spec_fields(A, raw, out, "mxfp4") == (256, 512, 2, "mxfp4",
                                                       "linear", "bf16")
    with pytest.raises(ArgumentError, match="holds nvfp4 scales, not mxfp4"):
        infer_spec_fields(A, SFA, C, "mxfp4")
    with pytest.raises(ArgumentError, match="sfa: dtype is float16"):
        infer_spec_fields(A, FakeTensor(SFA.shape, SFA.stride(), "float16"),
                          C)
    with pytest.raises(ArgumentError, match=r"sfa: shape is \[4, 4\]"):
        infer_spec_fields(A, FakeTensor((4, 4), (4, 1), "uint8"), C)
    with pytest.raises(ArgumentError, match="c: dtype is int32"):
        infer_spec_fields(A, SFA, FakeTensor(C.shape, C.stride(), "int32"))
    with pytest.raises(ArgumentError, match=r"expected \[M, K/2, L\]"):
        infer_spec_fields(FakeTensor((4, 4), (4, 1), "uint8"), SFA, C)


def test_torch_permutes_give_the_expected_strides(torch):
    """The problem's generate_input permutes batch-first storage into L-last
    views; the checks accept exactly those strides."""
    from nvfp4.reference import reference_inputs
    m, k, l = 130, 192, 2
    data = reference_inputs(m, k, l, seed=1)
    a, b, sfa, sfb, sfa_p, sfb_p, c = (
        FakeTensor.like(t, ptr=(1 << 20) + 4096 * i, dtype="uint8"
                        if t.dtype == torch.uint8 or i < 6 else None)
        for i, t in enumerate(data))
    check_operands(GemvSpec(m, k, l), a, b, sfa, sfb, c)
    check_operands(GemvSpec(m, k, l, layout="blocked128x4"), a, b, sfa_p,
                   sfb_p, c)
    contiguous = FakeTensor.like(data[0].contiguous(), dtype="uint8")
    with pytest.raises(ArgumentError, match="a: strides are"):
        check_operands(GemvSpec(m, k, l), contiguous, b, sfa, sfb, c)
