#!/usr/bin/env python3
"""Compares the decode-step variants of a bench/suite/gpu.sh run with n1.

    bench/decode/report.py LOGDIR [FLUSH]

For each shape (M x K x L), the median time of every variant
(bench_<variant>_<FLUSH>.jsonl, default flush clean) and its ratio to the
one-vector time n1: the targets of the decode step are N <= 8 at most 1.15
times n1, N = 16 at most 1.4 times, 16-bit vectors within 5%.
"""
import glob
import json
import os
import sys


def main():
    out = sys.argv[1]
    flush = sys.argv[2] if len(sys.argv) > 2 else "clean"
    times = {}
    for path in glob.glob(os.path.join(out, f"bench_*_{flush}.jsonl")):
        variant = os.path.basename(path)[len("bench_"):-len(f"_{flush}.jsonl")]
        for line in open(path):
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            if "bench" in r:
                key = (r["m"], r["k"], r["l"])
                times.setdefault(key, {})[variant] = r["bench"]["median_us"]
    order = ["n1", "n2", "n4", "n8", "n16", "bf16", "f16"]
    variants = [v for v in order if any(v in t for t in times.values())]
    variants += sorted({v for t in times.values() for v in t} - set(order))
    print("| M x K x L | " + " | ".join(variants) + " |")
    print("|---" * (len(variants) + 1) + "|")
    for key in sorted(times, key=lambda k: -k[0] * k[1] * k[2]):
        t = times[key]
        cells = []
        for v in variants:
            if v not in t:
                cells.append("")
            elif v == "n1" or "n1" not in t:
                cells.append(f"{t[v]:.2f} µs")
            else:
                cells.append(f"{t[v]:.2f} µs ({t[v] / t['n1']:.2f}x)")
        print(f"| {key[0]} x {key[1]} x {key[2]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
