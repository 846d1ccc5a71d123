"""python/examples: custom_kernel on the reference problem's tensors, up to
the driver call, and the kernel list of the GPU script."""
import os
import sys

import nvfp4
from conftest import ROOT, FakeDriver, FakeTensor, forget_kernels

EXAMPLES = os.path.join(ROOT, "python", "examples")
sys.path.insert(0, EXAMPLES)


def test_custom_kernel_launches_on_the_blocked_scales(compiler, cache_dir,
                                                      monkeypatch, torch):
    from nvfp4.reference import reference_inputs
    from reference_problem import custom_kernel
    driver = FakeDriver()
    monkeypatch.setenv("NVFP4_CACHE_DIR", cache_dir)
    monkeypatch.setattr(nvfp4.api, "device_chip", lambda device: "sm_90a")
    monkeypatch.setattr(nvfp4.kernel, "shared_driver", lambda: driver)
    monkeypatch.setattr(nvfp4.kernel, "current_stream", lambda device: 9)
    # (PyTorch builds without the fp4/fp8 dtypes give uint8 tensors.)
    data = [FakeTensor.like(t, ptr=(1 << 30) + i * 65536)
            for i, t in enumerate(reference_inputs(128, 256, 1, seed=1))]
    assert custom_kernel(data) is data[6]
    (launch,) = driver.launches
    kernel = nvfp4.compile(128, 256, 1, layout="blocked128x4", alpha=False,
                           chip="sm_90a")
    values = FakeDriver.decode(launch.params, kernel.manifest.params)
    a, b, _, _, sfa_p, sfb_p, c = data
    assert values == {"a": a.data_ptr(), "b": b.data_ptr(),
                      "sfa": sfa_p.data_ptr(), "sfb": sfb_p.data_ptr(),
                      "c": c.data_ptr()}
    assert launch.stream == 9


def test_gpu_script_kernel_list(compiler, tmp_path, monkeypatch, capsys):
    """Every request of the GPU run is a valid spec; --prepare compiles
    them (two here, to stay fast) into the cache the run loads from."""
    import check_and_time
    requests = check_and_time.requests()
    for fields, chip in requests:
        nvfp4.GemvSpec(**fields)
    assert {chip for _, chip in requests} == {"sm_90a", "sm_100a"}
    forget_kernels(monkeypatch)
    monkeypatch.setattr(check_and_time, "requests", lambda: requests[-2:])
    cache = str(tmp_path / "kernels")
    check_and_time.prepare(cache)
    assert capsys.readouterr().out.startswith(f"2 kernels in {cache}")
    assert len(nvfp4.Cache(cache).entries()) == 2


def test_gpu_script_reads_the_runners_flush_kernel():
    """The GPU script flushes with nvfp4-run's own kernel, read from the
    runner's header: the entry it names is the one the PTX defines."""
    import check_and_time
    name, ptx = check_and_time.read_flush_kernel()
    assert name == "nvfp4_run_l2_read"
    assert f".visible .entry {name}(" in ptx
    assert ptx.rstrip().endswith("}")


def test_gpu_script_reads_the_runners_flush_geometry():
    """The flush buffer's least size and the read-back launch come from the
    runner's header too (128 MiB, 8 CTAs of 512 threads an SM)."""
    import check_and_time
    assert check_and_time.read_flush_geometry() == (128 << 20, 8, 512)
