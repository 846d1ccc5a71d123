"""custom_kernel(data) for the reference problem ("nvfp4_gemv", docs/problem.md):
the tensors of its generate_input in, c out, through a kernel of this
project's pipeline.

The problem's linear scales (sfa, sfb) stay on the CPU there; the blocked
copies (sfa_permuted, sfb_permuted) are on the GPU already, so the kernel
is built for the blocked128x4 layout. The problem has no alpha. Kernels come
from nvfp4-opt on first use, or from a cache filled elsewhere
(NVFP4_CACHE_DIR) on a machine without it.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import nvfp4  # noqa: E402


def custom_kernel(data):
    a, b, _sfa, _sfb, sfa_permuted, sfb_permuted, c = data
    return nvfp4.gemv(a, b, sfa_permuted, sfb_permuted, c)
