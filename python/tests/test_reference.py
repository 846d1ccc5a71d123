"""The float64 reference and the input generator the GPU check relies on."""
import random

import pytest

from conftest import SEED

pytestmark = pytest.mark.usefixtures("torch")


def test_e4m3_decode():
    import torch
    from nvfp4.reference import decode_scales
    codes = torch.arange(256, dtype=torch.int64).to(torch.uint8)
    values = decode_scales(codes, "nvfp4")
    known = {0x00: 0.0, 0x01: 2.0 ** -9, 0x07: 7 * 2.0 ** -9, 0x08: 2.0 ** -6,
             0x38: 1.0, 0x3C: 1.5, 0x40: 2.0, 0x7E: 448.0, 0xB8: -1.0,
             0xFE: -448.0}
    for code, value in known.items():
        assert values[code].item() == value, hex(code)
    assert values[0x7F].isnan() and values[0xFF].isnan()
    positive = values[:127]
    assert bool((positive[1:] > positive[:-1]).all())  # strictly increasing
    assert torch.equal(values[128:255], -positive)


def test_ue8m0_and_e2m1_decode():
    import torch
    from nvfp4.reference import decode_e2m1, decode_scales
    values = decode_scales(torch.tensor([0, 126, 127, 128, 254, 255],
                                        dtype=torch.uint8), "mxfp4")
    assert values[:5].tolist() == [2.0 ** -127, 0.5, 1.0, 2.0, 2.0 ** 127]
    assert values[5].isnan()
    pairs = decode_e2m1(torch.tensor([[0x10, 0x7F, 0x98, 0xE5]],
                                     dtype=torch.uint8))
    assert pairs.tolist() == [[0.0, 0.5, -6.0, 6.0, -0.0, -0.5, 3.0, -4.0]]


@pytest.mark.parametrize("format", ["nvfp4", "mxfp4"])
def test_blocked_copies_follow_the_closed_form(format):
    """docs/problem.md: byte of scale (r, c) in a batch with Cpad columns is
    ((r / 128) * (Cpad / 4) + c / 4) * 512 + (r % 32) * 16
    + ((r % 128) / 32) * 4 + c % 4."""
    from nvfp4.reference import batch_first, raw_bytes, reference_inputs
    m, k, l = 257, 1 * 32 * 5, 2
    data = reference_inputs(m, k, l, SEED, format=format)
    sfa, permuted = batch_first(data[2]), raw_bytes(data[4])
    storage = permuted.permute(5, 2, 4, 0, 1, 3).reshape(l, -1)
    cols = sfa.shape[2]
    cpad = (cols + 3) // 4 * 4
    for batch in range(l):
        for r in range(m):
            for c in range(cols):
                offset = (((r // 128) * (cpad // 4) + c // 4) * 512 +
                          (r % 32) * 16 + ((r % 128) // 32) * 4 + c % 4)
                assert storage[batch, offset] == sfa[batch, r, c]


@pytest.mark.parametrize("format, dist", [("nvfp4", "full"),
                                          ("mxfp4", "full"),
                                          ("nvfp4", "weak")])
def test_reference_against_scalar_sums(format, dist):
    """gemv_reference against a plain loop over the decoded bytes, on
    random data (seed printed)."""
    import torch
    from nvfp4.reference import (E2M1_MAGNITUDES, batch_first,
                                 decode_scales, gemv_reference,
                                 reference_inputs)
    seed = SEED + 1
    print(f"seed {seed}")
    m, k, l = 5, 128, 2
    block = 16 if format == "nvfp4" else 32
    a, b, sfa, sfb, sfa_p, sfb_p, c = reference_inputs(m, k, l, seed,
                                                       format=format,
                                                       dist=dist)
    assert bool(c.isnan().all())  # poisoned output
    alpha = random.Random(seed).uniform(0.25, 4.0)
    ref = gemv_reference(a, b, sfa, sfb, m, k, format, alpha)
    assert torch.equal(ref, gemv_reference(a, b, sfa_p, sfb_p, m, k, format,
                                           alpha))
    av, bv = batch_first(a), batch_first(b)
    sa, sb = (decode_scales(batch_first(s), format) for s in (sfa, sfb))

    def e2m1(byte, index):
        code = (byte >> (4 * (index % 2))) & 15
        return (-1 if code & 8 else 1) * E2M1_MAGNITUDES[code & 7]
    for batch in range(l):
        for row in range(m):
            total = 0.0
            for i in range(k):
                total += (e2m1(int(av[batch, row, i // 2]), i) *
                          e2m1(int(bv[batch, 0, i // 2]), i) *
                          sa[batch, row, i // block].item() *
                          sb[batch, 0, i // block].item())
            assert ref[batch, row].item() == pytest.approx(alpha * total,
                                                           rel=1e-12,
                                                           abs=1e-12)


def test_compare_catches_wrong_and_nan_outputs():
    import torch
    from nvfp4.reference import compare
    ref = torch.tensor([1000.0, -3.0, 0.0], dtype=torch.float64)
    out = ref.to(torch.float16)
    assert compare(out, ref)[:2] == (True, 0)
    wrong = out.clone()
    wrong[0] = 1002.0
    assert compare(wrong, ref)[:2] == (False, 1)
    wrong[0] = float("nan")
    assert compare(wrong, ref)[:2] == (False, 1)
