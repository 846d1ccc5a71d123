#!/usr/bin/env python3
"""Compares two variants of one bench/suite/gpu.sh run, kernel by kernel:

    bench/suite/compare.py OUTDIR BASE NEW [--from-bytes B] [--list N]
                           [--changed SUITEDIR] [--by-budget DIR]

Prints each variant's geometric mean % of the read-once ceiling (flush
clean), the geometric mean of the time ratios NEW / BASE with the kernels
more than 2% faster or slower, the same ratio by the kernel's ceiling
(under 4.6 µs, 4.6-10 µs, 10 µs and over), and the N kernels that gained
and lost most. Kernels are matched by name (a variant may hold several
formats and layouts of one shape). --from-bytes B also reports a mix:
NEW where a (L x M x K/2 bytes) holds at least B bytes, BASE elsewhere (a
size rule tried on the run that measured both). --changed SUITEDIR keeps
only the kernels whose PTX differs between SUITEDIR/BASE and SUITEDIR/NEW
(a kernel missing from both is the same in both: pair.sh leaves those
out).
--by-budget DIR also gives the time ratio by the register budget
(`max_registers` of each kernel's manifest in DIR, 0 for none; e.g. the
pair.sh directory/new).
Without the run's ceiling_clean.txt it prints the time ratios alone.
"""
import argparse
import json
import math
import os

from report import GROUPS, ceiling_at, geomean, load_ceiling, load_jsonl


def timings(out, variant, ceiling):
    """kernel -> (median µs, ceiling µs or None, (M, K, L)) of the
    variant's passing runs."""
    result = {}
    for r in load_jsonl(os.path.join(out, f"bench_{variant}_clean.jsonl")):
        if "bench" in r and r.get("status") == "pass":
            b = r["bench"]
            result[r["kernel"]] = (
                b["median_us"],
                ceiling_at(ceiling, b["unique_bytes"]) if ceiling else None,
                (r["m"], r["k"], r["l"]))
    return result


def same_ptx(suite, base, new, kernel):
    def read(variant):
        path = os.path.join(suite, variant, kernel + ".ptx")
        if not os.path.exists(path):
            return None
        with open(path, "rb") as f:
            return f.read()
    return read(base) == read(new)


def register_budget(directory, kernel):
    with open(os.path.join(directory, kernel + ".json")) as f:
        return json.load(f)["config"]["max_registers"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--from-bytes", type=int)
    parser.add_argument("--list", type=int, default=5)
    parser.add_argument("--changed", metavar="SUITEDIR")
    parser.add_argument("--by-budget", metavar="DIR")
    args = parser.parse_args()
    ceiling_file = os.path.join(args.out, "ceiling_clean.txt")
    ceiling = (load_ceiling(args.out, "clean")
               if os.path.exists(ceiling_file) else None)
    base = timings(args.out, args.base, ceiling)
    new = timings(args.out, args.new, ceiling)
    kernels = sorted(set(base) & set(new))
    if args.changed:
        kernels = [s for s in kernels
                  if not same_ptx(args.changed, args.base, args.new, s)]
        print(f"{len(kernels)} kernels that differ")
    if not kernels:
        raise SystemExit("compare.py: no kernel passed in both variants")

    def pct(times, s):
        return 100 * times[s][1] / times[s][0]

    if ceiling is None:
        print(f"no {ceiling_file}: time ratios only")
    for name, times in ((args.base, base), (args.new, new)):
        if ceiling is None:
            break
        print(f"{name}: {len(kernels)} kernels, geometric mean "
              f"{geomean([pct(times, s) for s in kernels]):.1f}% of the "
              f"ceiling")
    ratio = {s: new[s][0] / base[s][0] for s in kernels}
    print(f"time ratio {args.new} / {args.base}: "
          f"{geomean(list(ratio.values())):.3f}, "
          f"{sum(r < 0.98 for r in ratio.values())} more than 2% faster, "
          f"{sum(r > 1.02 for r in ratio.values())} slower")
    for lo, hi in GROUPS if ceiling else []:
        group = [ratio[s] for s in kernels if lo <= base[s][1] < hi]
        if group:
            print(f"  ceiling {lo}-{hi} µs: {len(group)} kernels, time ratio "
                  f"{geomean(group):.3f}")
    if args.by_budget:
        budgets = {s: register_budget(args.by_budget, s) for s in kernels}
        for budget in sorted(set(budgets.values())):
            group = [ratio[s] for s in kernels if budgets[s] == budget]
            print(f"  budget {budget}: {len(group)} kernels, time ratio "
                  f"{geomean(group):.3f}, worst {max(group):.3f}")
    if args.from_bytes is not None and ceiling:
        def a_bytes(s):
            m, k, l = base[s][2]
            return l * m * (k // 2)
        chosen = [s for s in kernels if a_bytes(s) >= args.from_bytes]
        mixed = [pct(new if s in chosen else base, s) for s in kernels]
        print(f"{args.new} from {args.from_bytes} bytes of a "
              f"({len(chosen)} kernels, time ratio "
              f"{geomean([ratio[s] for s in chosen]):.3f}): geometric mean "
              f"{geomean(mixed):.1f}% of the ceiling")
    ranked = sorted(kernels, key=ratio.get)
    shown = ranked if 2 * args.list >= len(ranked) else (
        ranked[:args.list] + ranked[len(ranked) - args.list:])
    for s in shown:
        print(f"  {s.removeprefix('nvfp4_gemv_')}: {base[s][0]:.2f} -> "
              f"{new[s][0]:.2f} µs ({ratio[s]:.3f})")


if __name__ == "__main__":
    main()
