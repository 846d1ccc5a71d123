"""PTX target names and the devices a kernel built for one can run on (the
rule nvfp4-run applies, tools/nvfp4-run/Chip.h)."""
import re

from .errors import ArgumentError

_CHIP = re.compile(r"sm_([1-9][0-9]{1,3})([af]?)")


def parse_chip(name):
    """(major, minor, suffix) of `sm_90a`, `sm_100f` or `sm_89`; the last
    digit is the minor version. ArgumentError for anything else."""
    match = _CHIP.fullmatch(name) if isinstance(name, str) else None
    if not match:
        raise ArgumentError(f"not a PTX target: {name!r} (expected sm_XY, "
                            f"sm_XYa or sm_XYf)")
    number = int(match.group(1))
    return number // 10, number % 10, match.group(2)


def cannot_run_reason(chip, major, minor, device_name):
    """None when a kernel built for `chip` runs on a device of compute
    capability major.minor, else the reason in one line: sm_XYa needs
    exactly X.Y, sm_XYf the same major and a minor of at least Y, a plain
    sm_XY any capability of at least X.Y."""
    chip_major, chip_minor, suffix = parse_chip(chip)
    if suffix == "a":
        runs = (major, minor) == (chip_major, chip_minor)
    elif suffix == "f":
        runs = major == chip_major and minor >= chip_minor
    else:
        runs = (major, minor) >= (chip_major, chip_minor)
    if runs:
        return None
    return (f"kernel built for {chip} cannot run on {device_name} "
            f"(sm_{major}{minor})")


def chip_for_capability(major, minor):
    """The architecture-specific target of a device, e.g. sm_90a for 9.0:
    the one nvfp4 compiles its kernels for."""
    return f"sm_{major}{minor}a"
