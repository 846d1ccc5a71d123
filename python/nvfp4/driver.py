"""The CUDA driver through ctypes: the few calls that load a PTX module and
launch a kernel on a given stream. Nothing here allocates or synchronises,
so launches can be captured into CUDA graphs."""
import ctypes
import threading

from .errors import DriverError

# CUdevice_attribute and CUfunction_attribute values (cuda.h).
_COMPUTE_CAPABILITY_MAJOR = 75
_COMPUTE_CAPABILITY_MINOR = 76
_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_FUNC_NUM_REGS = 4
# CUjit_option values.
_JIT_ERROR_LOG_BUFFER = 5
_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
# Dynamic shared memory above this must be opted into per function.
DEFAULT_SHARED_LIMIT = 48 * 1024

_c_int_p = ctypes.POINTER(ctypes.c_int)
_c_void_pp = ctypes.POINTER(ctypes.c_void_p)
# name: (symbol, argument types); the _v2 symbols are the ones cuda.h maps
# the plain names to.
_CALLS = {
    "cuInit": ("cuInit", [ctypes.c_uint]),
    "cuDeviceGet": ("cuDeviceGet", [_c_int_p, ctypes.c_int]),
    "cuDeviceGetAttribute": ("cuDeviceGetAttribute",
                             [_c_int_p, ctypes.c_int, ctypes.c_int]),
    "cuDeviceGetName": ("cuDeviceGetName",
                        [ctypes.c_char_p, ctypes.c_int, ctypes.c_int]),
    "cuDevicePrimaryCtxRetain": ("cuDevicePrimaryCtxRetain",
                                 [_c_void_pp, ctypes.c_int]),
    "cuCtxGetCurrent": ("cuCtxGetCurrent", [_c_void_pp]),
    "cuCtxSetCurrent": ("cuCtxSetCurrent", [ctypes.c_void_p]),
    "cuModuleLoadDataEx": ("cuModuleLoadDataEx",
                           [_c_void_pp, ctypes.c_char_p, ctypes.c_uint,
                            _c_int_p, _c_void_pp]),
    "cuModuleGetFunction": ("cuModuleGetFunction",
                            [_c_void_pp, ctypes.c_void_p, ctypes.c_char_p]),
    "cuFuncGetAttribute": ("cuFuncGetAttribute",
                           [_c_int_p, ctypes.c_int, ctypes.c_void_p]),
    "cuFuncSetAttribute": ("cuFuncSetAttribute",
                           [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]),
    "cuLaunchKernel": ("cuLaunchKernel",
                       [ctypes.c_void_p] + [ctypes.c_uint] * 7 +
                       [ctypes.c_void_p, _c_void_pp, _c_void_pp]),
    "cuGetErrorString": ("cuGetErrorString",
                         [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]),
    "cuGetErrorName": ("cuGetErrorName",
                       [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]),
}


class CudaDriver:
    """libcuda.so.1, initialised. Every failing call raises DriverError
    naming the call and the driver's error, as nvfp4-run does."""

    def __init__(self, library="libcuda.so.1"):
        try:
            self._lib = ctypes.CDLL(library)
        except OSError:
            raise DriverError(f"no CUDA driver found ({library})") from None
        for name, (symbol, argtypes) in _CALLS.items():
            try:
                function = getattr(self._lib, symbol)
            except AttributeError:
                raise DriverError(f"the CUDA driver lacks {symbol} (driver "
                                  f"too old?)") from None
            function.argtypes = argtypes
            function.restype = ctypes.c_int
            setattr(self, "_" + name, function)
        self._check("cuInit", self._cuInit(0))

    def describe(self, call, result):
        text, name = ctypes.c_char_p(), ctypes.c_char_p()
        if self._cuGetErrorString(result, ctypes.byref(text)):
            text.value = None
        if self._cuGetErrorName(result, ctypes.byref(name)):
            name.value = None
        text = (text.value or b"unknown error").decode(errors="replace")
        name = (name.value or b"?").decode(errors="replace")
        return f"{call}: {text} ({name} = {result})"

    def _check(self, call, result, detail=""):
        if result:
            raise DriverError(self.describe(call, result) + detail)

    def device(self, ordinal):
        handle = ctypes.c_int()
        self._check("cuDeviceGet", self._cuDeviceGet(ctypes.byref(handle),
                                                     ordinal))
        return handle.value

    def capability(self, device):
        values = []
        for attribute in (_COMPUTE_CAPABILITY_MAJOR,
                          _COMPUTE_CAPABILITY_MINOR):
            value = ctypes.c_int()
            self._check("cuDeviceGetAttribute", self._cuDeviceGetAttribute(
                ctypes.byref(value), attribute, device))
            values.append(value.value)
        return tuple(values)

    def name(self, device):
        buffer = ctypes.create_string_buffer(256)
        self._check("cuDeviceGetName",
                    self._cuDeviceGetName(buffer, len(buffer), device))
        return buffer.value.decode(errors="replace")

    def primary_context(self, device):
        """The device's primary context, the one PyTorch uses."""
        context = ctypes.c_void_p()
        self._check("cuDevicePrimaryCtxRetain",
                    self._cuDevicePrimaryCtxRetain(ctypes.byref(context),
                                                   device))
        return context.value

    def make_current(self, context):
        current = ctypes.c_void_p()
        self._check("cuCtxGetCurrent",
                    self._cuCtxGetCurrent(ctypes.byref(current)))
        if current.value != context:
            self._check("cuCtxSetCurrent", self._cuCtxSetCurrent(context))

    def load_module(self, image):
        """Loads PTX text (bytes) into the current context; the JIT's error
        log, when it has one, ends the error line."""
        log = ctypes.create_string_buffer(16384)
        options = (ctypes.c_int * 2)(_JIT_ERROR_LOG_BUFFER,
                                     _JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        values = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p),
                                       ctypes.c_void_p(len(log) - 1))
        module = ctypes.c_void_p()
        result = self._cuModuleLoadDataEx(ctypes.byref(module), image, 2,
                                          options, values)
        detail = " ".join(log.value.decode(errors="replace").split())
        self._check("cuModuleLoadDataEx", result,
                    f": {detail}" if detail else "")
        return module.value

    def function(self, module, name):
        function = ctypes.c_void_p()
        self._check("cuModuleGetFunction", self._cuModuleGetFunction(
            ctypes.byref(function), module, name.encode()))
        return function.value

    def registers(self, function):
        value = ctypes.c_int()
        self._check("cuFuncGetAttribute", self._cuFuncGetAttribute(
            ctypes.byref(value), _FUNC_NUM_REGS, function))
        return value.value

    def allow_dynamic_shared(self, function, size):
        self._check("cuFuncSetAttribute", self._cuFuncSetAttribute(
            function, _FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, size))

    def launch(self, function, grid, block, shared_bytes, stream, params):
        """Queues `function` on `stream` (a CUstream handle, an int);
        `params` is a ctypes array of pointers to the argument values."""
        self._check("cuLaunchKernel", self._cuLaunchKernel(
            function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
            shared_bytes, stream, params, None))


_shared = None
_shared_lock = threading.Lock()


def shared_driver():
    """The process's CudaDriver, loaded on first use."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = CudaDriver()
        return _shared
