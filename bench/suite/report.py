#!/usr/bin/env python3
"""Prints the suite report of a bench/suite/gpu.sh run as Markdown tables.

    bench/suite/report.py SUITEDIR OUTDIR

For each variant and flush mode: every shape's median time, % of the
read-once ceiling measured for its byte count in the same run, % of copy
bandwidth, and the verification status; then the geometric mean and the
lowest % of ceiling, and the geometric mean by the ceiling's size
(GROUPS, which compare.py shares).
"""
import glob
import json
import math
import os
import sys


# Ceiling bands, µs: the tiny kernels (launch and one memory round trip),
# the mid-sized, the large.
GROUPS = [(0, 4.6), (4.6, 10), (10, math.inf)]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def load_jsonl(path):
    rows = []
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            rows.append(json.loads(line))
    return rows


def load_ceiling(out, flush):
    """The read-once ceiling gpu.sh measured: bytes -> µs."""
    ceiling = {}
    for line in open(os.path.join(out, f"ceiling_{flush}.txt")):
        if not line.startswith("#"):
            size, us, _ = line.split()
            ceiling[int(size)] = float(us)
    return ceiling


def ceiling_at(ceiling, size):
    """The measured ceiling for `size` bytes, linearly interpolated between
    the nearest measured sizes when it was not measured itself."""
    if size in ceiling:
        return ceiling[size]
    sizes = sorted(ceiling)
    if not sizes:
        return None
    lo = max((s for s in sizes if s < size), default=sizes[0])
    hi = min((s for s in sizes if s > size), default=sizes[-1])
    if lo == hi:
        return ceiling[lo]
    t = (size - lo) / (hi - lo)
    return ceiling[lo] + t * (ceiling[hi] - ceiling[lo])


def main():
    suite, out = sys.argv[1], sys.argv[2]
    names = {}
    for line in open(os.path.join(suite, "shapes.txt")):
        if line.startswith("#"):
            continue
        name, m, k, l = line.split()
        names.setdefault((int(m), int(k), int(l)), name)
        names.setdefault((int(m), int(k) + 16, int(l)), name)  # MXFP4 K
    for bench in sorted(glob.glob(os.path.join(out, "bench_*.jsonl"))):
        variant, flush = os.path.basename(bench)[6:-6].rsplit("_", 1)
        ceiling = load_ceiling(out, flush)
        verify = {}
        vpath = os.path.join(out, f"verify_{variant}.jsonl")
        if os.path.exists(vpath):
            for r in load_jsonl(vpath):
                verify[r["manifest"]] = r.get("status", "error")
        print(f"\n### {variant}, flush {flush}\n")
        print("| shape | M x K x L | µs | read-once µs | % ceiling | % copy "
              "| verified |")
        print("|---|---|---|---|---|---|---|")
        ratios, by_ceiling = [], []
        for r in load_jsonl(bench):
            if "bench" not in r:
                print(f"| {r.get('manifest')} | | | | | | {r.get('status')} "
                      f"{r.get('error', '')} |")
                continue
            b = r["bench"]
            # A quantizer has rows where a gemv has M; several share a shape,
            # so its kernel names it.
            key = (r.get("m", r.get("rows")), r["k"], r["l"])
            name = names.get(key, "?")
            if "m" not in r:
                name = os.path.basename(r["manifest"])[:-len(".json")]
            ceil = ceiling_at(ceiling, b["unique_bytes"])
            pct = 100 * ceil / b["median_us"] if ceil else float("nan")
            ratios.append(pct)
            by_ceiling.append((ceil, pct))
            ok = verify.get(r["manifest"], "?") + "/" + r["status"]
            print(f"| {name} | {key[0]} x {r['k']} x {r['l']} "
                  f"| {b['median_us']:.2f} | {ceil or 0:.2f} | {pct:.1f} "
                  f"| {b['pct_of_copy']:.1f} | {ok} |")
        if ratios:
            print(f"\n{variant}, flush {flush}: {len(ratios)} shapes, geometric "
                  f"mean {geomean(ratios):.1f}% of the read-once ceiling, "
                  f"lowest {min(ratios):.1f}%")
            bands = []
            for lo, hi in GROUPS:
                group = [p for c, p in by_ceiling if c and lo <= c < hi]
                if group:
                    band = f"{lo}-{hi} µs" if hi < math.inf else \
                        f"from {lo} µs"
                    bands.append(f"{band} {len(group)} shapes "
                                 f"{geomean(group):.1f}%")
            print(f"{variant}, flush {flush}, by ceiling: " + ", ".join(bands))


if __name__ == "__main__":
    main()
