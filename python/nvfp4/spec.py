"""What a GEMV kernel is specialised on: its shape and variant fields, in
the spec language of the IR writer (ir.py)."""
from dataclasses import dataclass

from . import ir
from .errors import ArgumentError


@dataclass(frozen=True)
class GemvSpec:
    m: int
    k: int
    l: int
    format: str = "nvfp4"
    layout: str = "linear"
    output: str = "f16"
    alpha: bool = True

    def __post_init__(self):
        for name in ("m", "k", "l"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ArgumentError(f"{name} must be an integer, got "
                                    f"{value!r}")
        if not isinstance(self.alpha, bool):
            raise ArgumentError(f"alpha must be True or False, got "
                                f"{self.alpha!r}")
        # Round-tripping through the writer's parser is the one validation.
        try:
            ir.gemv_function(self.spec())
        except ir.SpecError as error:
            raise ArgumentError(str(error)) from None

    @classmethod
    def parse(cls, text):
        """A spec such as `7168x2048x4:blocked128x4:noalpha`."""
        try:
            fields = ir.parse_gemv(text)
        except ir.SpecError as error:
            raise ArgumentError(str(error)) from None
        # The package launches the one-vector form with packed b and
        # row-major codes; the IR writer alone knows N vectors, 16-bit b and
        # tiled codes.
        n, vector = fields.pop("n"), fields.pop("vector")
        tiled = fields.pop("tiled")
        if n is not None or vector != "e2m1" or tiled:
            raise ArgumentError(f"'{text}': the nvfp4 package runs one "
                                f"packed e2m1 vector of row-major codes (no "
                                f"nN, vf16, vbf16 or tiled field)")
        return cls(**fields)

    def spec(self):
        """Every field spelled out, e.g. `7168x2048x4:nvfp4:linear:f16`."""
        return ir.gemv_spec(vars(self))

    @property
    def block(self):
        """Values per scale: 16 for nvfp4, 32 for mxfp4."""
        return ir.FORMATS[self.format][0]

    @property
    def scale_columns(self):
        return self.k // self.block

    def module(self):
        """The MLIR module of this GEMV alone."""
        return ir.gemv_function(self.spec())
