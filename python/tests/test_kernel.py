"""Launching through a stand-in driver: everything up to the driver call."""
import dataclasses
import os

import pytest

from conftest import FakeDriver, reference_layout
from nvfp4 import ArgumentError, GemvSpec, Kernel
import nvfp4
from nvfp4.compiler import export
from nvfp4.manifest import is_manifest_file, read_manifest, read_ptx


@pytest.fixture(scope="module")
def manifests(tmp_path_factory):
    """Exported kernels: with alpha (linear, 3 batches) and without."""
    from nvfp4.compiler import find_compiler
    compiler = find_compiler()
    if not compiler:
        pytest.skip("no nvfp4-opt: build the repository or set NVFP4_OPT")
    found = {}
    for spec in (GemvSpec(130, 1056, 3, "mxfp4", "linear", "f32"),
                 GemvSpec(256, 512, 1, layout="blocked128x4", alpha=False)):
        directory = tmp_path_factory.mktemp("export")
        export(compiler, spec.module(), "chip=sm_90a", str(directory))
        (name,) = [p for p in os.listdir(directory) if is_manifest_file(p)]
        found[spec.alpha] = str(directory / name)
    return found


def operands(spec, **kwargs):
    a, b, sfa, sfb, sfa_p, sfb_p, c = reference_layout(
        spec.m, spec.k, spec.l, spec.format, spec.output, **kwargs)
    if spec.layout == "linear":
        return a, b, sfa, sfb, c
    return a, b, sfa_p, sfb_p, c


def test_launch_follows_the_manifest(manifests):
    driver = FakeDriver()
    kernel = Kernel.from_manifest(manifests[False], driver)
    ops = operands(kernel.spec)
    assert kernel(*ops, stream=0x5700) is ops[4]
    (launch,) = driver.launches
    assert launch.grid == kernel.manifest.grid
    assert launch.block == kernel.manifest.block
    assert launch.shared == kernel.manifest.shared_bytes
    assert launch.stream == 0x5700
    names = kernel.manifest.params
    assert FakeDriver.decode(launch.params, names) == {
        name: t.data_ptr() for name, t in zip(("a", "b", "sfa", "sfb", "c"),
                                              ops)}
    # Loaded once, in the device's primary context; later calls only launch.
    kernel(*ops, stream=0)
    assert [c[0] for c in driver.calls].count("load_module") == 1
    assert ("make_current", 0xC0 + 100) in driver.calls


def test_parameter_order_and_shared_memory_come_from_the_manifest(manifests):
    driver = FakeDriver()
    manifest = read_manifest(manifests[True])
    order = ("alpha", "c", "sfb", "b", "sfa", "a")
    kernel = Kernel(dataclasses.replace(manifest, params=order,
                                        shared_bytes=64 * 1024),
                    read_ptx(manifest), driver)
    ops = operands(kernel.spec, rows=1)
    kernel(*ops, alpha=0.375, stream=0)
    (launch,) = driver.launches
    values = FakeDriver.decode(launch.params, order)
    assert values["alpha"] == 0.375
    assert [values[n] for n in ("a", "b", "sfa", "sfb", "c")] == [
        t.data_ptr() for t in ops]
    assert launch.shared == 64 * 1024
    assert ("allow_dynamic_shared", 64 * 1024) in driver.calls


def test_alpha(manifests):
    driver = FakeDriver()
    with_alpha = Kernel.from_manifest(manifests[True], driver)
    without = Kernel.from_manifest(manifests[False], driver)
    assert with_alpha.alpha_value(None) == 1.0
    assert with_alpha.alpha_value(3) == 3.0
    assert without.alpha_value(1.0) == 1.0
    with pytest.raises(ArgumentError, match="built without alpha"):
        without.alpha_value(0.5)
    with pytest.raises(ArgumentError, match="must be a Python number"):
        with_alpha.alpha_value(True)
    with pytest.raises(ArgumentError, match="must be a Python number"):
        with_alpha.alpha_value("2")
    with pytest.raises(ArgumentError, match="does not fit in f32"):
        with_alpha.alpha_value(1e39)


def test_chip_checked_before_loading(manifests):
    driver = FakeDriver(capability=(10, 0), name="Fake B200")
    kernel = Kernel.from_manifest(manifests[False], driver)
    with pytest.raises(ArgumentError, match=r"kernel built for sm_90a cannot "
                       r"run on Fake B200 \(sm_100\)"):
        kernel(*operands(kernel.spec), stream=0)
    assert not any(c[0] == "load_module" for c in driver.calls)
    assert not driver.launches


def test_bad_operands_launch_nothing(manifests):
    driver = FakeDriver()
    kernel = Kernel.from_manifest(manifests[False], driver)
    a, b, sfa, sfb, c = operands(kernel.spec)
    with pytest.raises(ArgumentError, match="c: dtype"):
        kernel(a, b, sfa, sfb, a, stream=0)
    assert not driver.launches and not driver.calls


def test_padded_vector_is_copied_compact(manifests, monkeypatch):
    driver = FakeDriver()
    kernel = Kernel.from_manifest(manifests[True], driver)
    copies = []

    class Copy:
        def __init__(self, ptr):
            self.ptr = ptr

        def data_ptr(self):
            return self.ptr

    def compact(tensor):
        copies.append(tensor)
        return Copy(0xBEEF00 + len(copies) * 256)
    monkeypatch.setattr(nvfp4.kernel, "compact_rows", compact)
    a, b, sfa, sfb, c = operands(kernel.spec)  # 128-row b and sfb, L = 3
    kernel(a, b, sfa, sfb, c, stream=0)
    assert copies == [b, sfb]
    values = FakeDriver.decode(driver.launches[0].params,
                               kernel.manifest.params)
    assert values["b"] == 0xBEEF00 + 256 and values["sfb"] == 0xBEEF00 + 512


def test_copy_of_the_padded_vector(torch):
    from nvfp4.tensors import compact_rows
    storage = torch.arange(3 * 4 * 5, dtype=torch.uint8).reshape(3, 4, 5)
    b = storage.permute(1, 2, 0)  # [N=4, X=5, L=3], row 0 of each batch
    compact = compact_rows(b)
    assert compact.shape == (3, 5) and compact.is_contiguous()
    assert torch.equal(compact, storage[:, 0, :])
