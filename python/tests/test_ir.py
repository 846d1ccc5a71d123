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
        assert ir.parse_gemv(spec.spec()) == vars(spec)
    assert GemvSpec.parse("1x64x3:f32").spec() == "1x64x3:nvfp4:linear:f32"


@pytest.mark.parametrize("text, words", [
    ("13x2", "three positive sizes"),
    ("0x64x1", "three positive sizes"),
    ("13x-64x1", "three positive sizes"),
    ("13x20x1", "not a multiple of 16"),
    ("13x48x1:mxfp4", "not a multiple of 32"),
    ("13x64x1:fp8", "unknown variant 'fp8'"),
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
