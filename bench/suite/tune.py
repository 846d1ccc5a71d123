#!/usr/bin/env python3
"""Writes a tuning table (docs/design.md, "Tuning tables") from a timed
configuration sweep:

    bench/suite/tune.py SWEEPDIR OUTDIR [--default NAME] [--min-gain G]

SWEEPDIR holds one directory of kernels per configuration
(bench/suite/sweep.sh); OUTDIR the bench_<configuration>_clean.jsonl that
bench/suite/gpu.sh wrote for them. For every kernel whose fastest passing
configuration beats the default one (--default, "default" unless given) by
more than the fraction G (default 0.03: smaller gains are within the
run-to-run noise of docs/benchmarks.md), the table gives that
configuration's geometry, read from its manifest. The table goes to stdout;
nvfp4-opt reads it with the tuning-table option. Confirm its gain in a
second run: the fastest of several noisy timings is biased low.
"""
import argparse
import json
import os
import sys

from report import load_jsonl

# The manifest's "config" keys of the options a table may give
# (lib/Conversion/NVFP4ToGPU/TuningTable.cpp): the option is the key with
# dashes.
TUNABLE = ["rows_per_block", "rows_per_thread", "lanes_per_row",
           "bytes_per_load", "loads_in_flight", "split_k", "cta_split_k",
           "index_bits", "max_registers"]


def table_value(key, value):
    """The option value that gives the kernel the manifest's `value`: a
    manifest's max_registers 0 is no budget, which the option spells -1
    (its 0 asks the cost model)."""
    return -1 if key == "max_registers" and value == 0 else value
TABLE_VERSION = 1


def timings(out, configuration):
    """kernel -> median µs of the configuration's passing runs."""
    path = os.path.join(out, f"bench_{configuration}_clean.jsonl")
    return {r["kernel"]: r["bench"]["median_us"] for r in load_jsonl(path)
            if "bench" in r and r.get("status") == "pass"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweep")
    parser.add_argument("out")
    parser.add_argument("--default", default="default")
    parser.add_argument("--min-gain", type=float, default=0.03)
    args = parser.parse_args()
    configurations = sorted(
        name for name in os.listdir(args.sweep)
        if os.path.isfile(os.path.join(args.out,
                                       f"bench_{name}_clean.jsonl")))
    if args.default not in configurations:
        sys.exit(f"tune.py: no timings of the default configuration "
                 f"'{args.default}' in {args.out}")
    times = {c: timings(args.out, c) for c in configurations}
    chips = set()
    kernels = {}

    def manifest(configuration, kernel):
        path = os.path.join(args.sweep, configuration, kernel + ".json")
        with open(path) as f:
            return json.load(f)

    for kernel, base in sorted(times[args.default].items()):
        chips.add(manifest(args.default, kernel)["chip"])
        best = min((times[c][kernel], c) for c in configurations
                   if kernel in times[c])
        if best[0] >= base * (1 - args.min_gain):
            continue
        config = manifest(best[1], kernel)["config"]
        kernels[kernel] = {key.replace("_", "-"): table_value(key, config[key])
                           for key in TUNABLE}
        print(f"{kernel}: {best[1]} {best[0]:.2f} µs against {base:.2f}",
              file=sys.stderr)
    if len(chips) != 1:
        sys.exit(f"tune.py: a table is for one chip, the kernels are for "
                 f"{sorted(chips) or 'none'}")
    table = {"version": TABLE_VERSION, "chip": chips.pop(),
             "kernels": kernels}
    json.dump(table, sys.stdout, indent=2, sort_keys=True)
    print()
    print(f"{len(kernels)} of {len(times[args.default])} kernels tuned",
          file=sys.stderr)


if __name__ == "__main__":
    main()
