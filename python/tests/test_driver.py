"""The ctypes layer against a stand-in libcuda (fake_cuda.c, built with
the C compiler): declarations, launch arguments, context, errors."""
import ctypes
import os
import shutil
import subprocess

import pytest

from conftest import reference_layout
from nvfp4 import DriverError, GemvSpec, Kernel
from nvfp4.driver import CudaDriver
from nvfp4.manifest import Manifest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler to build the stand-in driver")
    library = str(tmp_path_factory.mktemp("cuda") / "libcuda.so.1")
    subprocess.run([cc, "-shared", "-fPIC", "-o", library,
                    os.path.join(HERE, "fake_cuda.c")], check=True)
    return library


def kernel_with(driver, params, shared=0):
    spec = GemvSpec(256, 512, 2, layout="blocked128x4", alpha="alpha" in
                    params)
    manifest = Manifest("m.json", "nvfp4_gemv_k", "m.ptx", "sm_90a", spec,
                        (8, 2, 1), (128, 1, 1), shared, tuple(params), {})
    return Kernel(manifest, "// ptx\n", driver)


def test_missing_driver():
    with pytest.raises(DriverError, match=r"^no CUDA driver found "
                       r"\(libnvfp4-missing.so.1\)$"):
        CudaDriver("libnvfp4-missing.so.1")


def test_launch_through_ctypes(fake_cuda):
    driver = CudaDriver(fake_cuda)
    fake = ctypes.CDLL(fake_cuda)
    assert ctypes.c_int.in_dll(fake, "fake_initialised").value == 1
    params = ("c", "a", "alpha", "sfb", "b", "sfa")
    ctypes.c_int.in_dll(fake, "fake_param_count").value = len(params)
    (ctypes.c_int * 8).in_dll(fake, "fake_arg_bytes")[2] = 4
    kernel = kernel_with(driver, params, shared=50 * 1024)
    a, b, _, _, sfa, sfb, c = reference_layout(256, 512, 2, rows=1,
                                               base=1 << 40)
    kernel(a, b, sfa, sfb, c, alpha=0.8125, stream=0xABCDEF)
    assert ctypes.c_int.in_dll(fake, "fake_launches").value == 1
    assert list((ctypes.c_uint * 3).in_dll(fake, "fake_grid")) == [8, 2, 1]
    assert list((ctypes.c_uint * 3).in_dll(fake, "fake_block")) == [128, 1,
                                                                    1]
    assert ctypes.c_uint.in_dll(fake, "fake_shared").value == 50 * 1024
    assert ctypes.c_uint64.in_dll(fake, "fake_stream").value == 0xABCDEF
    args = (ctypes.c_uint64 * 8).in_dll(fake, "fake_args")
    pointers = {"a": a, "b": b, "sfa": sfa, "sfb": sfb, "c": c}
    for i, name in enumerate(params):
        if name == "alpha":
            value = ctypes.c_float.from_buffer_copy(
                ctypes.c_uint32(args[i] & 0xFFFFFFFF)).value
            assert value == 0.8125
        else:
            assert args[i] == pointers[name].data_ptr()
    # The context is made current once, not again for every launch.
    kernel(a, b, sfa, sfb, c, alpha=1.0, stream=0)
    assert ctypes.c_int.in_dll(fake, "fake_context_switches").value == 1


def test_driver_errors_are_one_line(fake_cuda):
    driver = CudaDriver(fake_cuda)
    with pytest.raises(DriverError, match=r"^cuDeviceGet: fake error "
                       r"\(CUDA_ERROR_FAKE = 101\)$"):
        driver.device(3)
    with pytest.raises(DriverError) as error:
        driver.load_module(b"//bad\0")
    assert str(error.value) == (
        "cuModuleLoadDataEx: a PTX JIT compilation failed "
        "(CUDA_ERROR_INVALID_PTX = 218): ptxas fatal : bad input")
    assert driver.capability(driver.device(0)) == (9, 0)
    assert driver.name(driver.device(0)) == "Fake GPU"
    assert driver.registers(0x3000) == 40
