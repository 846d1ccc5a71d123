#!/usr/bin/env python3
"""Compares two runs of the suite from their markdown reports, per variant:

    bench/suite/across_runs.py OLD.md NEW.md [--old-section HEADING]
                               [--new-section HEADING]

Each file holds "### VARIANT, flush clean" tables as bench/suite/gpu.sh
writes them (OUT/report.md) and docs/benchmarks-suite.md keeps them;
--old-section / --new-section read only the tables after the "## " line
that starts with HEADING (one run of docs/benchmarks-suite.md). Prints,
for each variant both runs hold, the geometric mean of the per-shape
ratios NEW / OLD of the kernel time and of the read-once ceiling: the two
together tell a change of the kernels from a drift of the machine, which
moves the ceiling as well.
"""
import argparse
import re

from report import geomean

TABLE = re.compile(r"### (\S+), flush clean")


def tables(path, heading):
    """variant -> shape -> (µs, read-once µs)."""
    result, variant, inside = {}, None, heading is None
    with open(path) as f:
        for line in f:
            if line.startswith("## "):
                inside = heading is not None and line[3:].startswith(heading)
                variant = None
                continue
            match = TABLE.match(line)
            if match:
                variant = match.group(1) if inside else None
                continue
            cells = [c.strip() for c in line.split("|")]
            if variant and len(cells) > 5 and " x " in cells[2]:
                try:
                    times = (float(cells[3]), float(cells[4]))
                except ValueError:
                    continue  # the header row
                result.setdefault(variant, {})[cells[2]] = times
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--old-section")
    parser.add_argument("--new-section")
    args = parser.parse_args()
    old = tables(args.old, args.old_section)
    new = tables(args.new, args.new_section)
    common = sorted(set(old) & set(new))
    if not common:
        raise SystemExit("across_runs.py: the two files share no variant")
    for variant in common:
        shapes = sorted(set(old[variant]) & set(new[variant]))
        time = geomean([new[variant][s][0] / old[variant][s][0] for s in shapes])
        ceiling = geomean([new[variant][s][1] / old[variant][s][1]
                           for s in shapes])
        print(f"{variant}: {len(shapes)} shapes, time ratio {time:.3f}, "
              f"ceiling ratio {ceiling:.3f}")


if __name__ == "__main__":
    main()
