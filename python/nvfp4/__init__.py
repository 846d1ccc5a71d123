"""nvfp4 from Python: block-scaled GEMV kernels compiled by the project's
pipeline and launched on PyTorch tensors in the reference problem's format.

    import nvfp4
    kernel = nvfp4.compile(7168, 2048, 4, layout="blocked128x4", chip="sm_90a")
    kernel(a, b, sfa_permuted, sfb_permuted, c, alpha=1.0)
    nvfp4.gemv(a, b, sfa_permuted, sfb_permuted, c)   # compiles on first use

docs/python.md describes the API, the cache and the checks. Importing the
package loads neither PyTorch nor the CUDA driver.
"""
from .api import compile, device_chip, gemv
from .cache import Cache, default_cache_dir
from .errors import (ArgumentError, CompileError, DriverError, ManifestError,
                     Nvfp4Error)
from .kernel import Kernel
from .spec import GemvSpec

__all__ = ["compile", "gemv", "device_chip", "Kernel", "GemvSpec", "Cache",
           "default_cache_dir", "Nvfp4Error", "ArgumentError", "CompileError",
           "DriverError", "ManifestError"]
