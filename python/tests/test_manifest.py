"""Manifests exported by nvfp4-opt, read and checked against their PTX."""
import json
import os
import shutil

import pytest

from nvfp4 import GemvSpec, ManifestError
from nvfp4.compiler import export
from nvfp4.manifest import (MANIFEST_VERSION, SIGNED_KEYS,
                            embedded_signature, is_manifest_file,
                            read_manifest, read_ptx, unsupported_reason)

SPEC = GemvSpec(130, 1056, 3, "mxfp4", "blocked128x4", "bf16")


@pytest.fixture(scope="module")
def exported(tmp_path_factory, request):
    from nvfp4.compiler import find_compiler
    compiler = find_compiler()
    if not compiler:
        pytest.skip("no nvfp4-opt: build the repository or set NVFP4_OPT")
    directory = tmp_path_factory.mktemp("export")
    export(compiler, SPEC.module(), "chip=sm_90a", str(directory))
    (path,) = [p for p in os.listdir(directory) if is_manifest_file(p)]
    return str(directory / path)


@pytest.fixture
def copy(exported, tmp_path):
    """A writable copy of the export: (manifest path, its fields)."""
    directory = os.path.dirname(exported)
    for name in os.listdir(directory):
        shutil.copy(os.path.join(directory, name), tmp_path)
    path = str(tmp_path / os.path.basename(exported))
    with open(path) as file:
        return path, json.load(file)


def write(path, fields):
    with open(path, "w") as file:
        json.dump(fields, file)


def test_export_agrees_with_the_package(exported):
    """The schema facts mirrored here (version, signed keys, parameter
    names) are those the compiler writes."""
    manifest = read_manifest(exported)
    assert manifest.fields["version"] == MANIFEST_VERSION
    assert manifest.spec == SPEC
    assert manifest.chip == "sm_90a"
    assert manifest.params == ("a", "sfa", "b", "sfb", "c", "alpha")
    assert (manifest.n, manifest.vector) == (1, "e2m1")
    signature = embedded_signature(read_ptx(manifest), manifest.kernel)
    assert set(signature) == set(SIGNED_KEYS)
    assert manifest.grid[1] == SPEC.l


@pytest.mark.parametrize("key, value", [
    ("m", 4096), ("l", 2), ("n", 4), ("grid", [1, 1, 1]), ("block", [64, 1, 1]),
    ("shared_bytes", 1024), ("params", ["sfa", "a", "b", "sfb", "c", "alpha"]),
    ("scale_layout", "linear"), ("output", "f16")])
def test_edited_manifest_refused(copy, key, value):
    path, fields = copy
    fields[key] = value
    write(path, fields)
    with pytest.raises(ManifestError, match=f"manifest does not match the "
                       f"PTX: \"{key}\" is"):
        read_ptx(read_manifest(path))


@pytest.mark.parametrize("edit, words", [
    (lambda f: f.pop("version"), "has no \"version\""),
    (lambda f: f.update(version=1), "unsupported manifest version 1"),
    (lambda f: f.update(params=["a", "sfa", "b", "sfb", "c",
                                "a_tensor_map"]), "reads operands through "
     "tensor maps, which this package does not encode"),
    # A tcgen05 kernel with tensor copies of a and of blocked sfa.
    (lambda f: f.update(params=["a", "sfa", "b", "sfb", "c", "a_tensor_map",
                                "sfa_tensor_map"]), "reads operands through "
     "tensor maps, which this package does not encode"),
    (lambda f: f.update(tiled_codes=True), "reads a's codes tiled"),
    (lambda f: f.update(tiled_codes="no"), "reads a's codes tiled"),
    (lambda f: f.pop("grid"), "has no \"grid\""),
    (lambda f: f.update(op="convert_scale_layout"), "launches GEMV kernels"),
    (lambda f: f.update(kernel="a b"), "not a PTX identifier"),
    (lambda f: f.update(chip="gfx90a"), "not a PTX target"),
    (lambda f: f.update(grid=[1, 0, 1]), "three positive integers"),
    (lambda f: f.update(block=[128, 1]), "three positive integers"),
    (lambda f: f.update(shared_bytes=-1), "non-negative integer"),
    (lambda f: f.update(params=["a", "b", "c"]), "not a permutation"),
    (lambda f: f.update(params=["a", "sfa", "b", "sfb", "c", "c"]),
     "not a permutation"),
    (lambda f: f.update(m=True), "\"m\" is not a positive integer"),
    (lambda f: f.update(k=1000), "not a multiple of 32"),
    (lambda f: f.update(output="f8"), "unknown variant"),
    (lambda f: f.pop("n"), "has no \"n\""),
    (lambda f: f.pop("vector"), "has no \"vector\""),
    (lambda f: f.update(n=0), "\"n\" is not an integer in \\[1, 16\\]: 0"),
    (lambda f: f.update(n=17), "\"n\" is not an integer in \\[1, 16\\]: 17"),
    (lambda f: f.update(n=True), "\"n\" is not an integer"),
    (lambda f: f.update(vector="f32"), "unknown \"vector\" 'f32'"),
    # sfb exactly when the vectors are e2m1.
    (lambda f: f.update(vector="bf16"), "not a permutation of a, sfa, b, c "
     "with an optional alpha \\(bf16 vectors\\)"),
    (lambda f: f.update(params=["a", "sfa", "b", "c", "alpha"]),
     "not a permutation of a, sfa, b, sfb, c with an optional alpha "
     "\\(e2m1 vectors\\)"),
])
def test_malformed_manifest(copy, edit, words):
    path, fields = copy
    edit(fields)
    write(path, fields)
    with pytest.raises(ManifestError, match=words) as error:
        read_manifest(path)
    assert str(error.value).startswith(path + ": ")


def test_not_json(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"version": 2, "version": 2}')
    with pytest.raises(ManifestError, match="duplicate key"):
        read_manifest(str(path))
    path.write_text("[1]")
    with pytest.raises(ManifestError, match="not a JSON object"):
        read_manifest(str(path))
    with pytest.raises(ManifestError, match="cannot read the manifest"):
        read_manifest(str(tmp_path / "missing.json"))


@pytest.mark.parametrize("fields", [
    {"op": "convert_scale_layout", "rows": 130, "cols": 6, "l": 2,
     "from": "linear", "to": "blocked128x4", "element": "f8E4M3FN",
     "params": ["source", "dest"]},
    {"op": "quantize", "rows": 130, "k": 64, "l": 2, "scale_format": "nvfp4",
     "scale_layout": "linear", "input": "bf16", "global_scale": True,
     "params": ["input", "data", "scales", "global_scale"]},
    {"op": "quantize_global_scale", "rows": 130, "k": 64, "l": 2,
     "input": "bf16", "params": ["input", "global_scale"]},
    {"op": "dequantize", "rows": 130, "k": 64, "l": 2, "scale_format": "mxfp4",
     "scale_layout": "blocked128x4", "output": "f16", "global_scale": False,
     "params": ["data", "scales", "output"]},
])
def test_other_ops_refused(tmp_path, fields):
    """Manifests of the ops nvfp4-run runs and the package does not launch
    are refused in one line that names the op, not a missing GEMV key."""
    path = str(tmp_path / "k.json")
    fields = dict(fields, version=MANIFEST_VERSION, kernel="k", ptx="k.ptx",
                  chip="sm_90a", grid=[1, 2, 1], block=[128, 1, 1],
                  shared_bytes=0)
    write(path, fields)
    with pytest.raises(ManifestError) as error:
        read_manifest(path)
    assert str(error.value) == (
        f"{path}: \"op\" is {fields['op']!r}; the package launches GEMV "
        f"kernels only; run it with nvfp4-run")
    # Without an op, that is what is missing.
    del fields["op"]
    write(path, fields)
    with pytest.raises(ManifestError, match="has no \"op\""):
        read_manifest(path)


def edit_ptx(manifest, old, new):
    with open(manifest.ptx_path) as file:
        ptx = file.read()
    assert old in ptx
    with open(manifest.ptx_path, "w") as file:
        file.write(ptx.replace(old, new))


def test_ptx_checks(copy):
    path, fields = copy
    manifest = read_manifest(path)
    edit_ptx(manifest, ".target sm_90a", ".target sm_100a")
    with pytest.raises(ManifestError, match=".target is not sm_90a"):
        read_ptx(manifest)
    edit_ptx(manifest, ".target sm_100a", ".target sm_90a")
    edit_ptx(manifest, "nvfp4_signature_", "other_signature_")
    with pytest.raises(ManifestError, match="has no signature of"):
        read_ptx(manifest)
    edit_ptx(manifest, ".entry " + manifest.kernel, ".entry other")
    with pytest.raises(ManifestError, match="has no .entry"):
        read_ptx(manifest)
    os.remove(manifest.ptx_path)
    with pytest.raises(ManifestError, match="cannot read the PTX"):
        read_ptx(manifest)


def test_signed_tensor_maps(copy):
    """A signature with tensor_maps pins the manifest to the same maps."""
    path, fields = copy
    manifest = read_manifest(path)
    with open(manifest.ptx_path) as file:
        ptx = file.read()
    signature = embedded_signature(ptx, manifest.kernel)
    signature["tensor_maps"] = []
    text = json.dumps(signature, separators=(",", ":")).encode()
    symbol = "nvfp4_signature_" + manifest.kernel
    start = ptx.index(symbol)
    end = ptx.index("}", start) + 1
    with open(manifest.ptx_path, "w") as file:
        file.write(ptx[:start] + f"{symbol}[{len(text)}] = {{" +
                   ", ".join(str(b) for b in text) + "}" + ptx[end:])
    with pytest.raises(ManifestError, match="only one of the manifest and "
                       "the signature of .* has \"tensor_maps\""):
        read_ptx(manifest)


def test_product_sums_are_refused(copy):
    """A tensor-core kernel (decode=mma) sums products: the package, whose
    check is a fixed tolerance, names nvfp4-run instead of running it."""
    path, fields = copy
    fields["sums"] = "products"
    write(path, fields)
    reason = unsupported_reason(read_manifest(path))
    assert reason and "nvfp4-run" in reason and "tensor cores" in reason


def test_signature_bytes():
    ptx = ('.global .align 1 .b8 nvfp4_signature_k[7] = {123, 34, 109, 34, '
           '58, 49, 125};')
    assert embedded_signature(ptx, "k") == {"m": 1}
    assert embedded_signature(ptx, "other") is None
    with pytest.raises(ManifestError, match="has 7 bytes, declared 8"):
        embedded_signature(ptx.replace("[7]", "[8]"), "k")
    with pytest.raises(ManifestError, match="not a JSON object"):
        embedded_signature(ptx.replace("125}", "126}"), "k")


@pytest.mark.parametrize("n, vector, params", [
    (8, "e2m1", ["a", "sfa", "b", "sfb", "c", "alpha"]),
    (1, "bf16", ["a", "sfa", "b", "c", "alpha"]),
    (16, "f16", ["a", "sfa", "b", "c"]),
])
def test_vectors_read_but_not_launched(copy, n, vector, params):
    """Manifests of N vectors and 16-bit vectors are valid, but the package
    launches one e2m1 vector only: Kernel refuses them in one line."""
    from nvfp4.kernel import Kernel
    path, fields = copy
    fields.update(n=n, vector=vector, params=params)
    write(path, fields)
    manifest = read_manifest(path)
    assert (manifest.n, manifest.vector) == (n, vector)
    assert manifest.params == tuple(params)
    with pytest.raises(ManifestError, match="launches one e2m1 vector only; "
                       "run it with nvfp4-run") as error:
        Kernel(manifest, "")
    assert str(error.value).startswith(path + ": ")
    assert "\n" not in str(error.value)
