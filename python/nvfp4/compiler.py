"""Runs the project's own pipeline: nvfp4-opt --nvfp4-to-ptx with export.

nvfp4-opt is found through $NVFP4_OPT, then the repository's build/bin (this
package lives in <repo>/python/nvfp4), then PATH. A machine without it (a
GPU host without LLVM) can still use kernels compiled elsewhere: see cache.py.
"""
import functools
import hashlib
import os
import shutil
import subprocess

from .errors import CompileError

_REPO_BUILD = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "build", "bin", "nvfp4-opt")


def find_compiler():
    """The path of nvfp4-opt, or None where there is none."""
    explicit = os.environ.get("NVFP4_OPT")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise CompileError(f"NVFP4_OPT={explicit} is not an executable")
        return explicit
    if os.access(_REPO_BUILD, os.X_OK):
        return _REPO_BUILD
    return shutil.which("nvfp4-opt")


def _compute_id(path):
    digest = hashlib.sha256()
    with open(path, "rb") as binary:
        for chunk in iter(lambda: binary.read(1 << 20), b""):
            digest.update(chunk)
    # The project's libraries are linked in statically; MLIR and LLVM are
    # shared libraries, named by the version nvfp4-opt reports.
    version = subprocess.run([path, "--version"], capture_output=True,
                             text=True, timeout=60).stdout
    digest.update(version.encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _compiler_id(path, size, mtime_ns, memo_dir):
    # Starting nvfp4-opt costs a few tenths of a second (it loads MLIR and
    # LLVM), so the id of a given binary is remembered in `memo_dir`.
    binary = f"{path}|{size}|{mtime_ns}"
    memo = memo_dir and os.path.join(memo_dir, "compilers", hashlib.sha256(
        binary.encode()).hexdigest()[:16])
    if memo:
        try:
            with open(memo) as file:
                identity = file.read().strip()
            if len(identity) == 16:
                return identity
        except OSError:
            pass
    identity = _compute_id(path)
    if memo:
        try:
            os.makedirs(os.path.dirname(memo), exist_ok=True)
            temporary = f"{memo}.{os.getpid()}"
            with open(temporary, "w") as file:
                file.write(identity + "\n")
            os.replace(temporary, memo)
        except OSError:
            pass  # only a lost shortcut
    return identity


def compiler_id(path, memo_dir=None):
    """16 hex digits naming the compiler: its binary and LLVM version."""
    path = os.path.realpath(path)
    stat = os.stat(path)
    return _compiler_id(path, stat.st_size, stat.st_mtime_ns, memo_dir)


def first_error_line(stderr):
    """The line of nvfp4-opt's output that says what went wrong."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "error:" in line:
            return line.strip()
    return lines[0].strip() if lines else "no output"


def export(compiler, module, pipeline, directory, timeout=300):
    """Lowers `module` (MLIR text) with --nvfp4-to-ptx=`pipeline`, exporting
    its kernels (PTX and manifest) into `directory`."""
    # Run inside the directory so that no path goes into the option string.
    command = [compiler, "-", f"--nvfp4-to-ptx={pipeline} export-dir=.",
               "-o", os.devnull]
    try:
        result = subprocess.run(command, input=module, capture_output=True,
                                text=True, timeout=timeout, cwd=directory)
    except subprocess.TimeoutExpired:
        raise CompileError(f"nvfp4-opt did not finish within {timeout} s "
                           f"({pipeline})") from None
    if result.returncode != 0:
        raise CompileError(f"nvfp4-opt failed ({pipeline}): "
                           f"{first_error_line(result.stderr)}")
