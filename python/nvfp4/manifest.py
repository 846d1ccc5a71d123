"""Reads a kernel's manifest and checks it against the signature the
compiler embedded in the PTX.

The manifest is the contract between the compiler and every loader
(include/nvfp4/Support/ManifestSchema.h, docs/nvfp4-run.md): the launch
geometry, the dynamic shared memory and the parameter order are read from
it, never derived here. The names below are the schema's spellings; a test
exports a kernel with nvfp4-opt and checks that they still agree.
"""
import json
import os
import re
from dataclasses import dataclass

from .chips import parse_chip
from .errors import ManifestError
from .spec import GemvSpec

# ManifestSchema.h kVersion: a manifest of another version may mean other
# things by the same keys, so exactly this one is read.
MANIFEST_VERSION = 5
# The op this package launches; the others ("op" of ManifestSchema.h: scale
# layout conversions, quantizers and dequantizers) run with nvfp4-run.
GEMV_OP = "gemv"
POINTER_PARAMS = ("a", "sfa", "b", "sfb", "c")
ALPHA_PARAM = "alpha"
# What b holds ("vector", ref::name(VectorElement)): packed e2m1 codes with
# their scales sfb, or 16-bit values without sfb.
VECTORS = ("e2m1", "f16", "bf16")
SCALED_VECTOR = "e2m1"
VECTOR_SCALES_PARAM = "sfb"
# Vectors per batch ("n"): 1 to formats::kMaxGemvVectors.
MAX_VECTORS = 16
# Kernels that read operands through tensor maps take these; the package does
# not encode tensor maps (nvfp4-run does), so it refuses such kernels.
TENSOR_MAP_PARAMS = ("a_tensor_map", "sfa_tensor_map")
TENSOR_MAPS_KEY = "tensor_maps"
# How a kernel sums (ManifestSchema.h key::Sums): "products" for the
# tensor-core kernel, whose results only the any-order bound can judge.
SUMS_KEY = "sums"
PRODUCT_SUMS = "products"
# ManifestSchema.h kSequenceSuffix: an export directory also holds one
# sequence file per host function (docs/nvfp4-run.md, "Sequences"), whose
# name ends in it; no manifest's does.
SEQUENCE_SUFFIX = ".sequence.json"
# The fields of a GEMV manifest the signature pins (signatureKeys(Gemv)):
# these always, OPTIONAL_SIGNED_KEYS when either side has them.
SIGNED_KEYS = ("chip", "op", "l", "m", "k", "n", "scale_format",
               "scale_layout", "output", "vector", "grid", "block",
               "shared_bytes", "params")
OPTIONAL_SIGNED_KEYS = (TENSOR_MAPS_KEY, SUMS_KEY)
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


@dataclass(frozen=True)
class Manifest:
    path: str
    kernel: str
    ptx_path: str
    chip: str
    spec: GemvSpec
    grid: tuple
    block: tuple
    shared_bytes: int
    params: tuple
    fields: dict  # every field as written, for the signature check
    n: int = 1  # vectors per batch
    vector: str = SCALED_VECTOR  # what b holds (VECTORS)


def _reject_duplicates(pairs):
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError(f"duplicate key \"{key}\"")
    return dict(pairs)


def _positive_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def is_manifest_file(name):
    """True for the file name of a manifest in an export directory (not of a
    sequence file)."""
    return name.endswith(".json") and not name.endswith(SEQUENCE_SUFFIX)


def read_manifest(path):
    """The GEMV manifest at `path`, every field checked; ManifestError
    otherwise."""
    def fail(message):
        raise ManifestError(f"{path}: {message}")

    try:
        with open(path, encoding="utf-8") as file:
            fields = json.load(file, object_pairs_hook=_reject_duplicates)
    except OSError as error:
        fail(f"cannot read the manifest: {error.strerror}")
    except ValueError as error:
        fail(f"malformed JSON: {error}")
    if not isinstance(fields, dict):
        fail("the manifest is not a JSON object")
    if "version" not in fields:
        fail(f"the manifest has no \"version\" (this package reads manifest "
             f"version {MANIFEST_VERSION}; export the kernel again)")
    if fields["version"] != MANIFEST_VERSION:
        fail(f"unsupported manifest version {fields['version']!r} (this "
             f"package reads manifest version {MANIFEST_VERSION})")
    # The op first: the other ops have keys of their own, and a missing
    # GEMV key would not say why they are refused.
    if "op" not in fields:
        fail("the manifest has no \"op\"")
    if fields["op"] != GEMV_OP:
        fail(f"\"op\" is {fields['op']!r}; the package launches GEMV kernels "
             f"only; run it with nvfp4-run")
    for key in ("kernel", "ptx") + SIGNED_KEYS:
        if key not in fields:
            fail(f"the manifest has no \"{key}\"")
    kernel = fields["kernel"]
    if not isinstance(kernel, str) or not _IDENTIFIER.fullmatch(kernel):
        fail(f"\"kernel\" is not a PTX identifier: {kernel!r}")
    if not isinstance(fields["ptx"], str) or not fields["ptx"]:
        fail("\"ptx\" is not a file name")
    try:
        parse_chip(fields["chip"])
    except Exception as error:
        fail(f"\"chip\": {error}")
    for key in ("grid", "block"):
        value = fields[key]
        if not (isinstance(value, list) and len(value) == 3 and
                all(_positive_int(v) for v in value)):
            fail(f"\"{key}\" is not three positive integers: {value!r}")
    shared = fields["shared_bytes"]
    if not isinstance(shared, int) or isinstance(shared, bool) or shared < 0:
        fail(f"\"shared_bytes\" is not a non-negative integer: {shared!r}")
    n = fields["n"]
    if not _positive_int(n) or n > MAX_VECTORS:
        fail(f"\"n\" is not an integer in [1, {MAX_VECTORS}]: {n!r}")
    vector = fields["vector"]
    if vector not in VECTORS:
        fail(f"unknown \"vector\" {vector!r} (expected "
             f"{', '.join(VECTORS)})")
    params = fields["params"]
    if isinstance(params, list) and any(p in TENSOR_MAP_PARAMS
                                        for p in params):
        fail(f"{kernel} reads operands through tensor maps, which this "
             f"package does not encode; run it with nvfp4-run")
    if fields.get("tiled_codes", False) is not False:
        fail(f"{kernel} reads a's codes tiled (\"tiled_codes\"), which this "
             f"package does not lay out; run it with nvfp4-run")
    # sfb exactly when the vectors are e2m1.
    pointers = tuple(p for p in POINTER_PARAMS
                     if p != VECTOR_SCALES_PARAM or vector == SCALED_VECTOR)
    if not (isinstance(params, list) and
            all(isinstance(p, str) for p in params) and
            sorted(p for p in params if p != ALPHA_PARAM) ==
            sorted(pointers) and params.count(ALPHA_PARAM) <= 1):
        fail(f"\"params\" is not a permutation of {', '.join(pointers)}"
             f" with an optional {ALPHA_PARAM} ({vector} vectors): "
             f"{params!r}")
    for key in ("m", "k", "l"):
        if not _positive_int(fields[key]):
            fail(f"\"{key}\" is not a positive integer: {fields[key]!r}")
    try:
        spec = GemvSpec(fields["m"], fields["k"], fields["l"],
                        fields["scale_format"], fields["scale_layout"],
                        fields["output"], ALPHA_PARAM in params)
    except Exception as error:  # the spec's own one-line reason
        fail(str(error))
    ptx_path = os.path.join(os.path.dirname(os.path.abspath(path)),
                            fields["ptx"])
    return Manifest(path, kernel, ptx_path, fields["chip"], spec,
                    tuple(fields["grid"]), tuple(fields["block"]), shared,
                    tuple(params), fields, n, vector)


def unsupported_reason(manifest):
    """Why the package cannot launch the kernel of `manifest`, or None: it
    launches one vector of packed e2m1 (n = 1, vector e2m1) only, summed
    as exact unit dots (its check is a fixed tolerance)."""
    if manifest.fields.get(SUMS_KEY) == PRODUCT_SUMS:
        return (f"{manifest.kernel} sums products on the tensor cores, "
                f"which only the any-order bound checks (docs/numerics.md); "
                f"run it with nvfp4-run")
    if manifest.n == 1 and manifest.vector == SCALED_VECTOR:
        return None
    return (f"{manifest.kernel} takes {manifest.n} {manifest.vector} "
            f"vector{'s' if manifest.n != 1 else ''} a batch; this package "
            f"launches one {SCALED_VECTOR} vector only; run it with nvfp4-run")


def embedded_signature(ptx, kernel):
    """The JSON object the compiler embedded as nvfp4_signature_<kernel>,
    or None when the PTX has none."""
    match = re.search(r"\.b8\s+nvfp4_signature_" + re.escape(kernel) +
                      r"\[(\d+)\]\s*=\s*\{([0-9,\s]*)\}", ptx)
    if not match:
        return None
    data = bytes(int(b) for b in match.group(2).split(",") if b.strip())
    if len(data) != int(match.group(1)):
        raise ManifestError(f"the signature of {kernel} has {len(data)} "
                            f"bytes, declared {match.group(1)}")
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError:
        raise ManifestError(f"the signature of {kernel} is not a JSON "
                            f"object") from None


def read_ptx(manifest):
    """The PTX of `manifest`, checked to hold its kernel for its chip with
    a signature equal to the manifest's fields."""
    try:
        with open(manifest.ptx_path, encoding="utf-8") as file:
            ptx = file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ManifestError(f"{manifest.path}: cannot read the PTX "
                            f"{manifest.ptx_path}: {error}") from None
    if not re.search(r"^\s*\.target\s+" + re.escape(manifest.chip) + r"\b",
                     ptx, re.M):
        raise ManifestError(f"{manifest.ptx_path}: .target is not "
                            f"{manifest.chip}, the manifest's chip")
    if not re.search(r"\.entry\s+" + re.escape(manifest.kernel) + r"\s*\(",
                     ptx):
        raise ManifestError(f"{manifest.ptx_path} has no .entry "
                            f"{manifest.kernel}")
    signature = embedded_signature(ptx, manifest.kernel)
    if not isinstance(signature, dict):
        raise ManifestError(f"{manifest.ptx_path} has no signature of "
                            f"{manifest.kernel}")
    for key in OPTIONAL_SIGNED_KEYS:
        if (key in signature) != (key in manifest.fields):
            raise ManifestError(
                f"{manifest.path}: manifest does not match the PTX: only one "
                f"of the manifest and the signature of {manifest.kernel} has "
                f"\"{key}\"")
    for key in SIGNED_KEYS + tuple(k for k in OPTIONAL_SIGNED_KEYS
                                   if k in signature):
        if key not in signature:
            raise ManifestError(f"the signature of {manifest.kernel} lacks "
                                f"\"{key}\"")
        if signature[key] != manifest.fields[key]:
            raise ManifestError(
                f"{manifest.path}: manifest does not match the PTX: "
                f"\"{key}\" is {json.dumps(manifest.fields[key])} in the "
                f"manifest, but {manifest.kernel} was built for "
                f"{json.dumps(signature[key])}")
    return ptx
