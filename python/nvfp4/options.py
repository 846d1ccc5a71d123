"""Pipeline options of --nvfp4-to-ptx given as Python keywords.

`rows_per_block=4` becomes `rows-per-block=4`, True and False become `true`
and `false`. nvfp4-opt validates names and values (its error is passed on);
this module only refuses what the package sets itself and what would not
survive the option string, and puts the options in one canonical order so
that equal requests share a cache entry.
"""
import re

from .errors import ArgumentError

# Set by the package: the chip is an argument of its own, the export
# options name files inside the cache.
RESERVED = ("chip", "export-dir", "export-prefix", "export-cubin")
# Names a file, whose content the cache key (the option string) would not
# see, relative to a directory the compiler does not run in.
FILE_OPTIONS = ("tuning-table",)
_VALUE = re.compile(r"[A-Za-z0-9_.+-]+")
_NAME = re.compile(r"[a-z][a-z0-9-]*")


def option_name(keyword):
    return keyword.replace("_", "-")


def option_value(name, value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and _VALUE.fullmatch(value):
        return value
    raise ArgumentError(f"option {name}: expected an integer, a boolean or a "
                        f"word, got {value!r}")


def pipeline_options(chip, options):
    """The --nvfp4-to-ptx option string for `chip` and the keyword
    `options`, e.g. `chip=sm_90a rows-per-block=4 split-k=2`."""
    if not isinstance(chip, str) or not _VALUE.fullmatch(chip):
        raise ArgumentError(f"chip must be a name such as 'sm_90a', got "
                            f"{chip!r}")
    fields = {}
    for keyword, value in options.items():
        name = option_name(keyword)
        if not _NAME.fullmatch(name):
            raise ArgumentError(f"malformed option name {keyword!r}")
        if name in RESERVED:
            raise ArgumentError(f"option {name} is set by the nvfp4 package "
                                f"(pass chip= for the chip)")
        if name in FILE_OPTIONS:
            raise ArgumentError(
                f"option {name} names a file, which the kernel cache "
                f"cannot key on: give the table's options for this kernel "
                f"as keywords (rows_per_thread=..., ...)")
        fields[name] = option_value(name, value)
    return " ".join([f"chip={chip}"] +
                    [f"{name}={fields[name]}" for name in sorted(fields)])
