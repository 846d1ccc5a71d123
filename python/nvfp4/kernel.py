"""A compiled GEMV kernel, launched through the CUDA driver on PyTorch's
current stream."""
import ctypes
import math
import threading

from .chips import cannot_run_reason
from .driver import DEFAULT_SHARED_LIMIT, shared_driver
from .errors import ArgumentError, ManifestError
from .manifest import (ALPHA_PARAM, read_manifest, read_ptx,
                       unsupported_reason)
from .tensors import OperandChecker, compact_rows


def current_stream(device):
    """The CUstream handle of PyTorch's current stream on `device`."""
    import torch
    return torch.cuda.current_stream(device).cuda_stream


class Kernel:
    """One exported kernel: its manifest (the launch contract) and PTX.

    Calling it checks the operands (tensors.py), makes the compact copies
    the reference's padded vector needs, and queues one launch on the
    current stream; nothing synchronises, so calls can be captured in a
    CUDA graph. The module is loaded into a device's primary context on
    the first launch there.
    """

    def __init__(self, manifest, ptx, driver=None):
        reason = unsupported_reason(manifest)
        if reason:
            raise ManifestError(f"{manifest.path}: {reason}")
        self.manifest = manifest
        self.spec = manifest.spec
        self._ptx = ptx.encode() + b"\0"
        self._driver = driver
        self._loaded = {}  # device index -> (context, function)
        self._lock = threading.Lock()
        self._check = OperandChecker(self.spec)
        # The argument values live here between launches; the driver
        # copies them during cuLaunchKernel, under _launch_lock.
        self._values = [ctypes.c_float() if name == ALPHA_PARAM
                        else ctypes.c_uint64()
                        for name in manifest.params]
        self._params = (ctypes.c_void_p * len(self._values))(
            *[ctypes.addressof(value) for value in self._values])
        self._launch_lock = threading.Lock()

    @classmethod
    def from_manifest(cls, path, driver=None):
        """The kernel of the manifest at `path`, checked against its PTX."""
        manifest = read_manifest(path)
        return cls(manifest, read_ptx(manifest), driver)

    @property
    def name(self):
        return self.manifest.kernel

    @property
    def chip(self):
        return self.manifest.chip

    def __repr__(self):
        return (f"<nvfp4.Kernel {self.name} {self.spec.spec()} "
                f"{self.chip}>")

    @property
    def driver(self):
        if self._driver is None:
            self._driver = shared_driver()
        return self._driver

    def load(self, device=0):
        """Loads the module on CUDA device `device` (an index) and returns
        its function; refuses a device the chip cannot run on."""
        with self._lock:
            if device in self._loaded:
                return self._loaded[device]
            driver = self.driver
            handle = driver.device(device)
            major, minor = driver.capability(handle)
            reason = cannot_run_reason(self.chip, major, minor,
                                       driver.name(handle))
            if reason:
                raise ArgumentError(reason)
            context = driver.primary_context(handle)
            driver.make_current(context)
            function = driver.function(driver.load_module(self._ptx),
                                       self.name)
            if self.manifest.shared_bytes > DEFAULT_SHARED_LIMIT:
                driver.allow_dynamic_shared(function,
                                            self.manifest.shared_bytes)
            self._loaded[device] = (context, function)
            return self._loaded[device]

    def alpha_value(self, alpha):
        """The f32 alpha of a launch: `alpha` (1 when None) for a kernel
        that takes it; a kernel built without it accepts only None or 1."""
        if alpha is None:
            return 1.0
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise ArgumentError(f"alpha must be a Python number, got "
                                f"{type(alpha).__name__} (a tensor would "
                                f"need a device-to-host copy)")
        if ALPHA_PARAM not in self.manifest.params and alpha != 1:
            raise ArgumentError(f"{self.name} was built without alpha; "
                                f"compile with alpha=True to pass "
                                f"alpha={alpha}")
        if math.isfinite(alpha) and abs(alpha) > 3.4028234663852886e38:
            raise ArgumentError(f"alpha={alpha} does not fit in f32")
        return float(alpha)

    def launch(self, pointers, alpha, device, stream):
        """Queues the kernel with operand pointers `pointers` (a dict by
        parameter name), f32 `alpha` and CUstream `stream` (an int): the
        manifest's parameter order, grid, block and shared memory."""
        loaded = self._loaded.get(device) or self.load(device)
        context, function = loaded
        manifest = self.manifest
        driver = self.driver
        with self._launch_lock:
            for name, value in zip(manifest.params, self._values):
                value.value = alpha if name == ALPHA_PARAM else pointers[name]
            driver.make_current(context)
            driver.launch(function, manifest.grid, manifest.block,
                          manifest.shared_bytes, stream, self._params)

    def __call__(self, a, b, sfa, sfb, c, alpha=None, stream=None):
        """c = alpha * A . b on tensors in the reference problem's format
        (tensors.py); returns c. `stream` defaults to PyTorch's current
        stream on the operands' device."""
        alpha = self.alpha_value(alpha)
        operands = self._check(a, b, sfa, sfb, c)
        copies = {name: compact_rows(tensor)
                  for name, tensor in (("b", b), ("sfb", sfb))
                  if name in operands.gather}
        for name, copy in copies.items():
            operands.pointers[name] = copy.data_ptr()
        if stream is None:
            stream = current_stream(operands.device)
        self.launch(operands.pointers, alpha, operands.device, stream)
        return c
