#!/usr/bin/env python3
"""Mutation fuzzing of nvfp4-opt's pipelines and nvfp4-run's manifest checks.

Each case takes a seed input (an nvfp4 op from examples/ or test/ or from
the IR writer, or a manifest exported from one), mutates it, runs a tool on
it and classifies the outcome:

  crash       a signal, an assertion, "PLEASE submit a bug report", or an exit
              status other than 0 and 1
  hang        still running after --timeout seconds
  diagnostic  exit status 1 with one located error line (the expected outcome
              of a bad input)
  silent      exit status 0 where the result is wrong: a pipeline that left
              an nvfp4 op or an unrealized_conversion_cast behind, an
              exported manifest that `nvfp4-run --check` rejects, a manifest
              edited away from its PTX that `nvfp4-run --check` accepts, or a
              failure (status 1) without an error line
  ok          exit status 0 and nothing wrong found

Cases are numbered; case i of seed s is generated from random.Random(s, i)
alone, so `--seed S --only I` repeats one case. Reproducers of every case
that is neither ok nor diagnostic are written to --out. The exit status is 1
when any crash, hang or silent case was found.

  scripts/fuzz.py --build build --seed 1 --cases 600   # what `make check` runs
  scripts/fuzz.py --build build --seed 7 --cases 5000  # a long run
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from nvfp4 import ir  # noqa: E402

# Seeds written by the IR writer (python/nvfp4/ir.py) besides the files:
# the N-vector and 16-bit forms of nvfp4.gemv, that the test files hold few
# of, with odd shapes, both formats and layouts.
WRITER_SPECS = ["130x1040x2:nvfp4:linear:f16:n3",
                "257x96x1:mxfp4:blocked128x4:bf16:n16:noalpha",
                "130x80x3:nvfp4:blocked128x4:f32:vbf16",
                "1x1056x2:mxfp4:linear:f16:n4:vf16:noalpha",
                "144x2944x1:nvfp4:blocked128x4:f16:n8:tiled"]

# Pipelines run on mutated IR and what each must leave behind when it exits 0.
PIPELINES = [
    ("cpu", ["--nvfp4-cpu-pipeline"], "lowered"),
    ("loops", ["--convert-nvfp4-to-loops"], "no-nvfp4"),
    ("ptx-sm90a", ["--nvfp4-to-ptx=chip=sm_90a export-dir={dir}"], "exported"),
    ("ptx-sm100a", ["--nvfp4-to-ptx=chip=sm_100a export-dir={dir}"], "exported"),
    ("tcgen05", ["--nvfp4-to-ptx=chip=sm_100a strategy=tcgen05 "
                 "export-dir={dir}"], "exported"),
    ("gpu-sm90", ["--nvfp4-to-ptx=chip=sm_90 export-dir={dir}"], "exported"),
    ("verify", [], "any"),
]

# Pipeline options added to a GPU pipeline's own (every kernel option, the
# export options, unknown keys, and values of every kind, well formed or not).
OPTION_KEYS = ["chip", "strategy", "stages", "rows-per-block",
               "rows-per-thread", "lanes-per-row", "bytes-per-load",
               "loads-in-flight", "decode", "cache-hints", "prefetch",
               "interleave-rows", "max-registers", "vector-in-shared",
               "async-copy-stages", "tma", "tma-copies", "pdl", "pin-loads",
               "row-offsets", "quad-pairs",
               "index-bits", "tuning-table", "cta-threads",
               "split-k", "cta-split-k", "cta-reduction",
               "export-prefix", "export-cubin",
               "export-", "bogus", "", "{", "'"]
OPTION_VALUES = ["sm_90a", "sm_100a", "sm_80", "tcgen05", "cuda-cores", "0",
                 "1", "-1", "3", "16", "32", "64", "99999999999999999999",
                 "true", "false", "dp4a", "cvt", "f32", "mma", "chip",
                 "auto", "cluster", "global", "", "{}",
                 "{a b}", "'x y'", '"q"', "{", "'", "==", "/dev/null", "/"]

SIZES = [0, 1, 2, 3, 7, 16, 17, 31, 32, 33, 64, 127, 128, 129, 255, 256, 512,
         1000, 4096, 65535, 65536, 70000, 2**31 - 1, 2**31, 2**32]
TYPES = ["i8", "f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E8M0FNU", "i4",
         "f4E2M1FN", "index"]
WORDS = [("<nvfp4>", "<mxfp4>"), ("<linear>", "<blocked128x4>"),
         ("sm_90a", "sm_100a"), ("f16", "bf16"), ("f32", "f16")]
LAYOUTS = [", strided<[?, ?, 1], offset: ?>", ", affine_map<(d0, d1, d2) -> "
           "(d0, d2, d1)>", ", 1", ", #gpu.address_space<workgroup>",
           ", strided<[1, 1, 1]>", ", affine_map<(d0, d1, d2) -> (d0 floordiv "
           "2, d1, d2)>"]

# Manifest fields that the PTX signature pins, with values that differ.
MANIFEST_EDITS = {
    "m": [1, 128, 4097], "k": [32, 64, 8192], "l": [2, 3],
    "rows": [1, 129], "cols": [1, 5],
    "scale_format": ["nvfp4", "mxfp4"], "scale_layout": ["linear",
                                                         "blocked128x4"],
    "from": ["linear", "blocked128x4"], "to": ["linear", "blocked128x4"],
    "output": ["f16", "bf16", "f32"], "element": ["f8E4M3FN", "f8E8M0FNU"],
    "n": [1, 2, 8, 16, 0, 17, "8"], "vector": ["e2m1", "f16", "bf16", "f32"],
    "grid": [[1, 1, 1], [7, 1, 1], [1000000, 1, 1]],
    "block": [[64, 1, 1], [256, 1, 1], [32, 2, 1]],
    "params": [["sfa", "a", "b", "sfb", "c", "alpha"],
               ["a", "sfa", "b", "sfb", "c"], ["dest", "source"]],
    # Edited inside (edit_tensor_maps): one field of one entry, or entries
    # dropped, repeated or reordered.
    "tensor_maps": None,
}

# Values for a field of a tensor-map entry: well and ill formed, of every
# JSON type, at and beyond the driver's limits.
TENSOR_MAP_VALUES = [
    None, True, -1, 0, 1, 7, 16, 17, 256, 257, 2**32, 2**32 + 1, 2**40,
    2**63 - 1, 2**64, 1e30, 1.5, "", "a", "sfa", "b", "alpha", "a_tensor_map",
    "sfa_tensor_map", "uint8", "uint16", "uint64", "int8", "none", "32b",
    "64b", "128b", "256b", "zero", "nan", [], [0], [1], [1, 1], [1, 1, 1],
    [16, 16], [256, 256, 256], [2**32, 2**32, 2], [1, 1, 1, 1, 1, 1],
    [-16, 16], [[1]], {}, {"param": "a"}]


def edit_tensor_maps(rng, maps):
    """`maps` (a manifest's tensor_maps) changed somewhere inside."""
    if not isinstance(maps, list) or not maps:
        return [{}]
    maps = json.loads(json.dumps(maps))
    kind = rng.randrange(4)
    if kind == 0:
        del maps[rng.randrange(len(maps))]
    elif kind == 1:
        maps.append(rng.choice(maps))
    elif kind == 2 and len(maps) > 1:
        maps.reverse()
    else:
        entry = rng.choice(maps)
        key = rng.choice(sorted(entry) + ["interleave"])
        choices = [v for v in TENSOR_MAP_VALUES if v != entry.get(key)]
        if isinstance(entry.get(key), list) and entry[key]:
            # One element of an array, as often as the whole array.
            i = rng.randrange(len(entry[key]))
            if rng.random() < 0.5:
                entry[key][i] = rng.choice([v for v in TENSOR_MAP_VALUES
                                            if v != entry[key][i]])
                return maps
        entry[key] = rng.choice(choices)
    return maps


def seed_inputs():
    """Files holding nvfp4 ops, as (name, text) pairs, split at '// -----',
    then the modules of WRITER_SPECS."""
    paths = []
    for base in ["examples", "test"]:
        for dirpath, _, files in os.walk(os.path.join(ROOT, base)):
            for f in sorted(files):
                if f.endswith(".mlir"):
                    paths.append(os.path.join(dirpath, f))
    seeds = []
    for path in sorted(paths):
        text = open(path).read()
        rel = os.path.relpath(path, ROOT)
        for i, chunk in enumerate(text.split("\n// -----\n")):
            # Inputs with hand-written launches (nvfp4.launch dictionaries,
            # gpu.binary) test the exporter alone, not the compiler.
            if ("nvfp4." in chunk and "expected-error" not in chunk and
                    "nvfp4.launch" not in chunk and "gpu.binary" not in chunk):
                body = "\n".join(line for line in chunk.splitlines()
                                 if not line.lstrip().startswith("// RUN"))
                seeds.append((f"{rel}#{i}", body))
    seeds += [(f"ir.py:{spec}", ir.function(spec)) for spec in WRITER_SPECS]
    return seeds


def mutate_ir(rng, text):
    """One to three textual mutations of shapes, types, attributes, layouts."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        shapes = list(re.finditer(r"memref<([0-9x?]+)x", text))
        if kind <= 1 and shapes:
            # One dimension of one memref type, or the same dimension value
            # everywhere it appears (keeps operands consistent more often).
            m = rng.choice(shapes)
            dims = m.group(1).split("x")
            i = rng.randrange(len(dims))
            old, new = dims[i], str(rng.choice(SIZES + ["?"]))
            if kind == 0:
                dims[i] = new
                text = (text[:m.start(1)] + "x".join(dims) + text[m.end(1):])
            elif old != "?":
                text = re.sub(rf"(?<=[<x]){old}(?=x)", new, text)
        elif kind == 2:
            t = rng.choice(TYPES)
            types = list(re.finditer(r"x(i8|f16|bf16|f32|f8E4M3FN|f8E8M0FNU)>",
                                     text))
            if types:
                m = rng.choice(types)
                text = text[:m.start(1)] + t + text[m.end(1):]
        elif kind == 3:
            a, b = rng.choice(WORDS)
            if rng.random() < 0.5:
                a, b = b, a
            text = text.replace(a, b)
        elif kind == 4:
            ends = [m.end(1) for m in re.finditer(r"memref<[0-9x?]+x(\w+)>",
                                                  text)]
            if ends:
                at = rng.choice(ends)
                text = text[:at] + rng.choice(LAYOUTS) + text[at:]
        else:
            lines = text.splitlines()
            if lines:
                i = rng.randrange(len(lines))
                if rng.random() < 0.5:
                    del lines[i]
                else:
                    lines.insert(i, lines[i])
                text = "\n".join(lines)
    return text


# Where the tools run: a relative path in a random option (export-dir=1)
# lands here, not in the caller's directory.
RUN_DIR = None


def run(cmd, timeout, stdin=None):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           errors="replace", timeout=timeout, cwd=RUN_DIR)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


# An operation (not an attribute) of a dialect at the start of a line.
def has_op(text, dialect, ops=r"\w+"):
    return re.search(rf'^\s*(?:%[^=\n]*=\s*)?"?{dialect}\.(?:{ops})\b', text,
                     re.M) is not None


def crashed(rc, err):
    return (rc is not None and rc not in (0, 1)) or any(
        s in err for s in ["PLEASE submit a bug report", "Assertion",
                           "Stack dump", "terminate called"])


def has_error_line(err):
    return re.search(r"error:", err) is not None


def classify_opt(rc, out, err, expect, outdir, tools, timeout):
    if rc is None:
        return "hang", "timed out"
    if crashed(rc, err):
        return "crash", err.strip().splitlines()[-1:] or ["(no output)"]
    if rc != 0:
        return ("diagnostic", "") if has_error_line(err) else (
            "silent", "failed without an error line")
    if has_error_line(err):
        return "silent", "exit status 0 after an error"
    if expect == "no-nvfp4" and has_op(out, "nvfp4"):
        return "silent", "an nvfp4 op is left"
    if expect == "lowered" and (has_op(out, "nvfp4") or
                                "unrealized_conversion_cast" in out or
                                has_op(out, "memref", "load|store|alloc")):
        return "silent", "the CPU pipeline left nvfp4, memref or casts"
    if expect == "exported":
        for f in sorted(os.listdir(outdir)):
            if f.endswith(".json"):
                # A host function's sequence file is checked as one.
                kind = (["--sequence"] if f.endswith(".sequence.json")
                        else [])
                rc2, out2, err2 = run([tools["run"], "--check"] + kind +
                                      [os.path.join(outdir, f)], timeout)
                if rc2 != 0:
                    return "silent", f"nvfp4-run rejects {f}: " + err2.strip()
    return "ok", ""


def manifest_case(rng, case_dir, tools, timeout, exported):
    """Edits one field of an exported manifest (or breaks it) and checks
    that nvfp4-run --check refuses every edit that contradicts the PTX."""
    src = rng.choice(exported)
    manifest = json.load(open(src))
    ptx = os.path.join(os.path.dirname(src), manifest["ptx"])
    shutil.copy(ptx, os.path.join(case_dir, manifest["ptx"]))
    keys = [k for k in MANIFEST_EDITS if k in manifest]
    key = rng.choice(keys)
    if MANIFEST_EDITS[key] is None:
        manifest[key] = edit_tensor_maps(rng, manifest[key])
    else:
        choices = [v for v in MANIFEST_EDITS[key] if v != manifest[key]]
        manifest[key] = rng.choice(choices)
    path = os.path.join(case_dir, "edited.json")
    text = json.dumps(manifest, indent=2)
    if rng.random() < 0.2:
        # A byte-level edit on top: truncation, a control character, a
        # duplicate key.
        at = rng.randrange(len(text))
        text = rng.choice([text[:at], text[:at] + "\n\x01" + text[at:],
                           text.replace("{", '{"op": "gemv", ', 1)])
    with open(path, "w") as f:
        f.write(text)
    rc, out, err = run([tools["run"], "--check", path], timeout)
    desc = f"manifest {os.path.basename(src)} with {key} edited"
    if rc is None:
        return "hang", desc, path
    if crashed(rc, err):
        return "crash", desc, path
    if rc == 0:
        return "silent", desc + ": accepted", path
    lines = err.strip().splitlines()
    if len(lines) != 1 or not lines[0].startswith("nvfp4-run: error: "):
        return "silent", desc + ": not one error line", path
    return "diagnostic", desc, path


def ir_case(rng, case_dir, tools, timeout, seeds):
    name, text = rng.choice(seeds)
    text = mutate_ir(rng, text)
    pname, args, expect = rng.choice(PIPELINES)
    if args and args[0].startswith("--nvfp4-to-ptx=") and rng.random() < 0.3:
        extra = [rng.choice(OPTION_KEYS) + "=" + rng.choice(OPTION_VALUES)
                 for _ in range(rng.randint(1, 3))]
        # The arguments are format strings ({dir}): escape the braces.
        escaped = " ".join(extra).replace("{", "{{").replace("}", "}}")
        args = [args[0] + " " + escaped] + args[1:]
        pname += " with " + " ".join(extra)
    path = os.path.join(case_dir, "input.mlir")
    with open(path, "w") as f:
        f.write(text)
    export = os.path.join(case_dir, "export")
    os.makedirs(export, exist_ok=True)
    cmd = [tools["opt"], path] + [a.format(dir=export) for a in args]
    rc, out, err = run(cmd, timeout)
    kind, why = classify_opt(rc, out, err, expect, export, tools, timeout)
    return kind, f"{name} through {pname}" + (f": {why}" if why else ""), path


def one_case(args, tools, seeds, exported, index):
    rng = random.Random(args.seed * 1000003 + index)
    case_dir = tempfile.mkdtemp(prefix=f"case{index}-", dir=args.work)
    if exported and rng.random() < args.manifest_share:
        kind, desc, path = manifest_case(rng, case_dir, tools, args.timeout,
                                         exported)
    else:
        kind, desc, path = ir_case(rng, case_dir, tools, args.timeout, seeds)
    if kind in ("crash", "hang", "silent"):
        dest = os.path.join(args.out, f"seed{args.seed}-case{index}-{kind}")
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(case_dir, dest)
    shutil.rmtree(case_dir, ignore_errors=True)
    return index, kind, desc


def export_seeds(tools, work):
    """Manifests of a few small kernels, the seeds of the manifest cases."""
    out = os.path.join(work, "exported")
    os.makedirs(out, exist_ok=True)
    for opts, rel in [("chip=sm_90a", "test/Tools/nvfp4-run/"
                       "convert-scale-layout.mlir"),
                      ("chip=sm_90a", "examples/gemv_7168x2048x4.mlir")]:
        subprocess.run([tools["opt"], os.path.join(ROOT, rel),
                        f"--nvfp4-to-ptx={opts} export-dir={out}", "-o",
                        os.devnull], capture_output=True)
    # A gemv with tensor maps and gemvs of N vectors and of 16-bit vectors,
    # written by hand until the compiler exports them.
    inputs = os.path.join(ROOT, "test", "Tools", "nvfp4-run", "Inputs")
    for name in ("tensor-maps", "vectors", "vectors-e2m1"):
        subprocess.run([sys.executable, os.path.join(inputs, "manifest.py"),
                        "sign", os.path.join(inputs, name + ".json"),
                        os.path.join(inputs, name + ".ptx"), out], check=True)
    # The functions' sequence files are no manifests.
    return sorted(os.path.join(out, f) for f in os.listdir(out)
                  if f.endswith(".json") and not f.endswith(".sequence.json"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=600)
    ap.add_argument("--only", type=int, help="run this case number alone")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--manifest-share", type=float, default=0.3)
    ap.add_argument("--out", default="fuzz-out",
                    help="where reproducers go (default fuzz-out)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    tools = {"opt": os.path.join(build, "bin", "nvfp4-opt"),
             "run": os.path.join(build, "bin", "nvfp4-run")}
    os.makedirs(args.out, exist_ok=True)
    args.work = tempfile.mkdtemp(prefix="nvfp4-fuzz-")
    global RUN_DIR
    RUN_DIR = args.work
    try:
        seeds = seed_inputs()
        exported = export_seeds(tools, args.work)
        cases = [args.only] if args.only is not None else range(args.cases)
        print(f"fuzz: seed {args.seed}, {len(cases)} cases, "
              f"{len(seeds)} IR seeds, {len(exported)} manifest seeds",
              flush=True)
        counts = {k: 0 for k in ["crash", "hang", "silent", "diagnostic",
                                 "ok"]}
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(one_case, args, tools, seeds, exported, i)
                       for i in cases]
            for future in futures:
                index, kind, desc = future.result()
                counts[kind] += 1
                if kind in ("crash", "hang", "silent"):
                    print(f"FOUND {kind} case {index}: {desc}", flush=True)
        bad = counts["crash"] + counts["hang"] + counts["silent"]
        print("fuzz: " + ", ".join(f"{v} {k}" for k, v in counts.items()) +
              f" (seed {args.seed}; repeat one with --seed {args.seed} "
              f"--only N)")
        return 1 if bad else 0
    finally:
        shutil.rmtree(args.work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
