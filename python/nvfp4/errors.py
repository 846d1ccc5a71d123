"""The errors the package raises; each message is one line."""


class Nvfp4Error(Exception):
    """Base of every error of the nvfp4 package."""


class ArgumentError(Nvfp4Error, ValueError):
    """A tensor, shape or option the kernel cannot take."""


class CompileError(Nvfp4Error):
    """nvfp4-opt is missing or failed, or a cached build is unusable."""


class ManifestError(Nvfp4Error):
    """A manifest or its PTX breaks the contract of the compiler's export."""


class DriverError(Nvfp4Error):
    """The CUDA driver is missing or a driver call failed."""
