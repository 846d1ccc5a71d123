"""The IR writer's spec language and its old command-line path."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from nvfp4 import ArgumentError, GemvSpec, ir


def test_spec_round_trip():
    for text in ("7168x16384x1", "130x1056x2:mxfp4:blocked128x4:bf16:noalpha",
                 "1x64x3:f32:noalpha"):
        spec = GemvSpec.parse(text)
        assert GemvSpec.parse(spec.spec()) == spec
        assert ir.parse_gemv(spec.spec()) == dict(vars(spec), n=None,
                                                  vector="e2m1", tiled=False)
    assert GemvSpec.parse("1x64x3:f32").spec() == "1x64x3:nvfp4:linear:f32"


@pytest.mark.parametrize("text, words", [
    ("13x2", "three positive sizes"),
    ("0x64x1", "three positive sizes"),
    ("13x-64x1", "three positive sizes"),
    ("13x20x1", "not a multiple of 16"),
    ("13x48x1:mxfp4", "not a multiple of 32"),
    ("13x64x1:fp8", "unknown variant 'fp8'"),
    ("13x64x1:n2", "one packed e2m1 vector"),
    ("13x64x1:vf16", "one packed e2m1 vector"),
    ("16x128x1:tiled", "row-major codes"),
])
def test_bad_specs(text, words):
    with pytest.raises(ArgumentError, match=words):
        GemvSpec.parse(text)


def test_spec_fields_are_typed():
    with pytest.raises(ArgumentError, match="m must be an integer"):
        GemvSpec(1.5, 64, 1)
    with pytest.raises(ArgumentError, match="alpha must be True or False"):
        GemvSpec(1, 64, 1, alpha="no")
    with pytest.raises(ArgumentError, match="unknown variant"):
        GemvSpec(1, 64, 1, output="f8")


def test_module_operand_types():
    module = GemvSpec(130, 1056, 2, "mxfp4", "blocked128x4", "bf16").module()
    assert ("%a: memref<2x130x528xi8>, %sfa: memref<2x2x9x512xf8E8M0FNU>, "
            "%b: memref<2x528xi8>, %sfb: memref<2x1x9x512xf8E8M0FNU>, "
            "%c: memref<2x130xbf16>, %alpha: f32") in module


@pytest.mark.parametrize("text, n, vector, name", [
    ("130x1040x2:n3", 3, "e2m1", "gemv_130x1040x2_nvfp4_linear_f16_n3"),
    ("1x64x1:noalpha:n1", 1, "e2m1",
     "gemv_1x64x1_nvfp4_linear_f16_n1_noalpha"),
    ("257x96x1:mxfp4:vbf16:blocked128x4", None, "bf16",
     "gemv_257x96x1_mxfp4_blocked128x4_f16_vbf16"),
    ("130x80x3:vf16:n16:f32:noalpha", 16, "f16",
     "gemv_130x80x3_nvfp4_linear_f32_n16_vf16_noalpha"),
    ("32x256x2:tiled:n8", 8, "e2m1",
     "gemv_32x256x2_nvfp4_linear_f16_n8_tiled"),
])
def test_vector_fields(text, n, vector, name):
    s = ir.parse_gemv(text)
    assert (s["n"], s["vector"]) == (n, vector)
    assert ir.gemv_name(s) == name
    assert ir.parse_gemv(ir.gemv_spec(s)) == s
    assert f"@{name}(" in ir.gemv_function(text)


@pytest.mark.parametrize("text, words", [
    ("13x64x1:n0", "N = 0 vectors is not in 1..16"),
    ("13x64x1:n17", "N = 17 vectors is not in 1..16"),
    ("13x64x1:n", "unknown variant 'n'"),
    ("13x64x1:n-2", "unknown variant 'n-2'"),
    ("13x64x1:vfoo", "unknown vector type 'vfoo'"),
    ("13x64x1:ve2m1", "unknown vector type 've2m1'"),
    ("13x64x1:v", "unknown vector type 'v'"),
])
def test_bad_vector_fields(text, words):
    with pytest.raises(ir.SpecError, match=words):
        ir.gemv_function(text)


def test_vector_operand_types():
    # N packed vectors: b [L, N, K/2], sfb the scales of N rows, c [L, N, M].
    module = ir.gemv_function("130x1056x2:mxfp4:linear:bf16:n8")
    assert ("%a: memref<2x130x528xi8>, %sfa: memref<2x130x33xf8E8M0FNU>, "
            "%b: memref<2x8x528xi8>, %sfb: memref<2x8x33xf8E8M0FNU>, "
            "%c: memref<2x8x130xbf16>, %alpha: f32") in module
    module = ir.gemv_function("257x80x1:blocked128x4:f32:n3")
    assert ("%b: memref<1x3x40xi8>, %sfb: memref<1x1x2x512xf8E4M3FN>, "
            "%c: memref<1x3x257xf32>") in module
    # 16-bit b has no sfb, one vector [L, K] or N vectors [L, N, K].
    module = ir.gemv_function("130x96x3:mxfp4:blocked128x4:vf16:noalpha")
    assert ("(%a: memref<3x130x48xi8>, %sfa: memref<3x2x1x512xf8E8M0FNU>, "
            "%b: memref<3x96xf16>, %c: memref<3x130xf16>)") in module
    assert "%a, %sfa, %b into %c\n" in module
    module = ir.gemv_function("130x96x3:mxfp4:f32:n4:vbf16")
    assert ("%b: memref<3x4x96xbf16>, %c: memref<3x4x130xf32>, "
            "%alpha: f32") in module
    assert "%a, %sfa, %b into %c alpha(%alpha)\n" in module


def test_vector_modules_verify(compiler):
    """Every form the writer prints is one nvfp4-opt's verifier accepts."""
    specs = ["130x1040x2:n3", "1x64x1:blocked128x4:n16:noalpha",
             "257x96x1:mxfp4:blocked128x4:vbf16:noalpha",
             "130x80x3:linear:f32:n4:vf16", "130x80x3:n1:vbf16"]
    module = "\n".join(ir.function(s) for s in specs)
    subprocess.run([compiler, "-"], input=module, check=True,
                   capture_output=True, text=True)


def test_scripts_path_runs_the_same_writer():
    script = os.path.join(ROOT, "scripts", "nvfp4_ir.py")
    specs = ["130x1040x2:blocked128x4",
             "convert:130x6x2:e4m3:linear:blocked128x4"]
    out = subprocess.run([sys.executable, script] + specs, check=True,
                         capture_output=True, text=True).stdout
    assert out == "\n".join(ir.function(s) for s in specs)
    bad = subprocess.run([sys.executable, script, "13x20x1"],
                         capture_output=True, text=True)
    assert bad.returncode == 1
    assert bad.stderr.strip() == ("nvfp4_ir.py: error: K = 20 is not a "
                                  "multiple of 16 in '13x20x1'")
