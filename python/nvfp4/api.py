"""nvfp4.compile and nvfp4.gemv."""
import threading

from .cache import Cache, default_cache_dir
from .chips import chip_for_capability
from .compiler import compiler_id, find_compiler
from .errors import ArgumentError, CompileError
from .kernel import Kernel
from .options import pipeline_options
from .spec import GemvSpec
from .tensors import infer_spec_fields

_kernels = {}
_kernels_lock = threading.Lock()
# The arguments of compile() as given -> its kernel: the cost of a call
# that finds its kernel is one dictionary lookup.
_calls = {}
_chips = {}


def device_chip(device=None):
    """The target nvfp4 compiles for on CUDA device `device` (the current
    one when None), e.g. sm_90a on an H200."""
    if device in _chips:
        return _chips[device]
    import torch
    if not torch.cuda.is_available():
        raise ArgumentError("no CUDA device is visible: pass chip= (e.g. "
                            "chip='sm_90a') to compile for one")
    chip = chip_for_capability(*torch.cuda.get_device_capability(device))
    _chips[device] = chip
    return chip


def compile(m, k, l, format="nvfp4", layout="linear", output="f16",
            alpha=True, chip=None, cache_dir=None, **options):
    """The GEMV kernel c[M, L] = alpha * A[M, K, L] . b[K, L] for one shape,
    built by the project's pipeline with `options` (the --nvfp4-to-ptx
    options, `rows_per_block=4` for rows-per-block=4) or taken from the
    cache. Where nvfp4-opt is missing, only the cache is used."""
    chip = chip or device_chip()
    # The types too: 7168.0 == 7168 and 1 == True, but only the int and the
    # bool are valid.
    call = (m, k, l, format, layout, output, alpha, chip,
            cache_dir or default_cache_dir(), tuple(sorted(options.items())),
            type(m), type(k), type(l), type(alpha))
    try:
        return _calls[call]
    except (KeyError, TypeError):  # TypeError: an unhashable option value
        pass
    spec = GemvSpec(m, k, l, format, layout, output, alpha)
    pipeline = pipeline_options(chip, options)
    cache = Cache(cache_dir)
    key = (spec, pipeline, cache.directory)
    with _kernels_lock:
        if key in _kernels:
            return _remember(call, _kernels[key])
        compiler = find_compiler()
        if compiler:
            identity = compiler_id(compiler, cache.directory)
            manifest = (cache.find(spec, pipeline, identity) or
                        cache.store(spec, pipeline, compiler, identity))
        else:
            manifest = cache.find(spec, pipeline)
            if manifest is None:
                raise CompileError(
                    f"no nvfp4-opt (set NVFP4_OPT or build the repository) "
                    f"and no cached kernel for {spec.spec()} with "
                    f"'{pipeline}' in {cache.directory}")
        kernel = Kernel.from_manifest(manifest)
        if kernel.spec != spec or kernel.chip != chip:
            raise CompileError(f"{manifest} describes {kernel.spec.spec()} "
                               f"for {kernel.chip}, not the {spec.spec()} "
                               f"requested with '{pipeline}'")
        _kernels[key] = kernel
        return _remember(call, kernel)


def _remember(call, kernel):
    try:
        _calls[call] = kernel
    except TypeError:
        pass
    return kernel


def gemv(a, b, sfa, sfb, c, alpha=None, format=None, chip=None,
         cache_dir=None, **options):
    """c = alpha * A . b on the reference problem's tensors (see
    nvfp4.tensors), compiling the kernel for their shape on first use.
    alpha=None uses a kernel without alpha. Returns c."""
    m, k, l, format, layout, output = infer_spec_fields(a, sfa, c, format)
    if chip is None and a.device.type == "cuda":
        chip = device_chip(a.device)
    kernel = compile(m, k, l, format, layout, output, alpha is not None,
                     chip=chip, cache_dir=cache_dir, **options)
    return kernel(a, b, sfa, sfb, c, alpha=alpha)
