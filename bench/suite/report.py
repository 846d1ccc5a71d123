#!/usr/bin/env python3
"""Prints the suite report of a bench/suite/gpu.sh run as Markdown tables.

    bench/suite/report.py SUITEDIR OUTDIR

For each variant and flush mode: every shape's median time, % of the
read-once ceiling measured for its byte count in the same run, % of copy
bandwidth, and the verification status; then the geometric mean and the
lowest % of ceiling.
"""
import glob
import json
import math
import os
import sys


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
        ratios = []
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
            ok = verify.get(r["manifest"], "?") + "/" + r["status"]
            print(f"| {name} | {key[0]} x {r['k']} x {r['l']} "
                  f"| {b['median_us']:.2f} | {ceil or 0:.2f} | {pct:.1f} "
                  f"| {b['pct_of_copy']:.1f} | {ok} |")
        if ratios:
            geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            print(f"\n{variant}, flush {flush}: {len(ratios)} shapes, geometric "
                  f"mean {geo:.1f}% of the read-once ceiling, lowest "
                  f"{min(ratios):.1f}%")


if __name__ == "__main__":
    main()
