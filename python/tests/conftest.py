"""Shared pieces of the package's tests: stand-ins for CUDA tensors and the
CUDA driver, and the compiler. Tests that need nvfp4-opt skip without it;
those that need PyTorch skip where it is not installed."""
import ctypes
import os
import sys
from types import SimpleNamespace

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import nvfp4  # noqa: E402
from nvfp4.compiler import find_compiler  # noqa: E402

SEED = 20261130


class FakeDevice(SimpleNamespace):
    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


class FakeTensor:
    """What the argument checks read of a tensor, on any device."""

    def __init__(self, shape, strides, dtype, device="cuda:0", ptr=1 << 20):
        self.shape = tuple(shape)
        self._strides = tuple(strides)
        self.dtype = "torch." + dtype
        kind, _, index = device.partition(":")
        self.device = FakeDevice(type=kind,
                                 index=int(index) if index else None)
        self._ptr = ptr

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr

    @classmethod
    def like(cls, tensor, device="cuda:0", ptr=1 << 20, dtype=None):
        """A CUDA stand-in with the shape and strides of a real tensor."""
        return cls(tensor.shape, tensor.stride(),
                   dtype or str(tensor.dtype).replace("torch.", ""), device,
                   ptr)


def reference_layout(m, k, l, format="nvfp4", output="f16", rows=128,
                     base=1 << 20):
    """Stand-ins of the reference problem's (a, b, sfa, sfb, sfa_permuted,
    sfb_permuted, c), strides written out from the storage
    [L][rows][columns], distinct 4 KiB-aligned pointers."""
    block = 16 if format == "nvfp4" else 32
    scale = "float8_e4m3fn" if format == "nvfp4" else "float8_e8m0fnu"
    half, cols = k // 2, k // block
    rb, cb = -(-m // 128), -(-cols // 4)
    out = {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}[output]
    shapes = [
        ((m, half, l), (half, 1, m * half), "float4_e2m1fn_x2"),
        ((rows, half, l), (half, 1, rows * half), "float4_e2m1fn_x2"),
        ((m, cols, l), (cols, 1, m * cols), scale),
        ((rows, cols, l), (cols, 1, rows * cols), scale),
        ((32, 4, rb, 4, cb, l), (16, 4, cb * 512, 1, 512, rb * cb * 512),
         scale),
        ((32, 4, 1, 4, cb, l), (16, 4, cb * 512, 1, 512, cb * 512), scale),
        ((m, 1, l), (1, 1, m), out),
    ]
    return tuple(FakeTensor(shape, strides, dtype, ptr=base + i * 4096)
                 for i, (shape, strides, dtype) in enumerate(shapes))


class FakeDriver:
    """Records what Kernel asks of the CUDA driver; launch decodes the
    parameter array back into values."""

    def __init__(self, capability=(9, 0), name="Fake H200"):
        self._capability = capability
        self._name = name
        self.calls = []
        self.launches = []

    def device(self, ordinal):
        self.calls.append(("device", ordinal))
        return 100 + ordinal

    def capability(self, device):
        return self._capability

    def name(self, device):
        return self._name

    def primary_context(self, device):
        return 0xC0 + device

    def make_current(self, context):
        self.calls.append(("make_current", context))

    def load_module(self, image):
        assert image.endswith(b"\0")
        self.calls.append(("load_module", len(image)))
        return 0xA0

    def function(self, module, name):
        self.calls.append(("function", name))
        return 0xF0

    def allow_dynamic_shared(self, function, size):
        self.calls.append(("allow_dynamic_shared", size))

    def launch(self, function, grid, block, shared_bytes, stream, params):
        # The driver copies the argument values during the call, as here.
        self.launches.append(SimpleNamespace(
            function=function, grid=grid, block=block, shared=shared_bytes,
            stream=stream, params=[ctypes.string_at(p, 8) for p in params]))

    @staticmethod
    def decode(params, names):
        """The argument values of a launch, by parameter name."""
        values = {}
        for raw, name in zip(params, names):
            if name == "alpha":
                values[name] = ctypes.c_float.from_buffer_copy(raw[:4]).value
            else:
                values[name] = ctypes.c_uint64.from_buffer_copy(raw).value
        return values


def forget_kernels(monkeypatch):
    """Empties the in-memory kernel tables, as in a new process."""
    monkeypatch.setattr(nvfp4.api, "_kernels", {})
    monkeypatch.setattr(nvfp4.api, "_calls", {})


@pytest.fixture
def compiler():
    path = find_compiler()
    if not path:
        pytest.skip("no nvfp4-opt: build the repository or set NVFP4_OPT")
    return path


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """An empty cache and an empty in-memory kernel table."""
    forget_kernels(monkeypatch)
    return str(tmp_path / "cache")


@pytest.fixture
def torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed")
