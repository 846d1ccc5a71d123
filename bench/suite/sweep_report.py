#!/usr/bin/env python3
"""Compares the configurations of a bench/suite/sweep.sh run:

    bench/suite/sweep_report.py SWEEPDIR OUTDIR

For every shape, each configuration's % of the read-once ceiling (flush
clean) and the best one; then each configuration's geometric mean and that
of the best configuration per shape.
"""
import glob
import math
import os
import sys

from report import ceiling_at, load_ceiling, load_jsonl


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def main():
    sweep, out = sys.argv[1], sys.argv[2]
    ceiling = load_ceiling(out, "clean")
    pct = {}  # (m, k, l) -> {configuration: % of ceiling}
    configs = []
    for path in sorted(glob.glob(os.path.join(out, "bench_*_clean.jsonl"))):
        config = os.path.basename(path)[6:-len("_clean.jsonl")]
        configs.append(config)
        for r in load_jsonl(path):
            if "bench" in r and r.get("status") == "pass":
                b = r["bench"]
                ceil = ceiling_at(ceiling, b["unique_bytes"])
                pct.setdefault((r["m"], r["k"], r["l"]), {})[config] = (
                    100 * ceil / b["median_us"])
    print("| M x K x L | " + " | ".join(configs) + " | best |")
    print("|---" * (len(configs) + 2) + "|")
    for shape in sorted(pct):
        row = pct[shape]
        best = max(row, key=row.get)
        cells = [f"{row[c]:.0f}" if c in row else "-" for c in configs]
        print(f"| {shape[0]} x {shape[1]} x {shape[2]} | " + " | ".join(cells)
              + f" | {best} |")
    print()
    for c in configs:
        xs = [pct[s][c] for s in pct if c in pct[s]]
        wins = sum(1 for s in pct if max(pct[s], key=pct[s].get) == c)
        print(f"{c}: {len(xs)} shapes, geometric mean {geomean(xs):.1f}%, "
              f"lowest {min(xs):.1f}%, best on {wins}")
    best = [max(pct[s].values()) for s in pct]
    print(f"best per shape: geometric mean {geomean(best):.1f}%, lowest "
          f"{min(best):.1f}%")


if __name__ == "__main__":
    main()
