#!/usr/bin/env python3
"""Mutation check: do the tests catch planted bugs?

Applies each mutation of a list (default scripts/mutations.txt) on its own:
replaces the exact old text (which must occur exactly once) in one source
file, rebuilds incrementally, runs the tests, records whether they caught the
bug (a failing build counts as caught), and restores the file, always, also
on Ctrl-C or an error. Then prints a table and exits non-zero when any
mutation survived or any old text was not found: the list must follow the
code, so an edit that renames or reshapes a mutated line must update it.

    scripts/mutate.py [--quick] [--only ID[,ID...]] [--list FILE]
                      [--build DIR] [--jobs N] [--check-only]

--check-only only checks that every old text is found exactly once.

Tests: `make check BUILD=<dir>` by default. --quick runs `lit` on the tests
the mutation names in its `quick:` field (a lit --filter regex; default: the
GPU simulation check and the GPU conversion tests), which is what makes
running the whole list affordable.

List format (see scripts/mutations.txt):

    @@ id
    file: path/relative/to/the/root
    desc: one line
    quick: lit filter regex            (optional)
    <<<<
    exact old text (one or more lines)
    ====
    new text
    >>>>
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_QUICK = "sim-check|Conversion/NVFP4ToGPU"
TARGETS = ["nvfp4-opt", "nvfp4-run", "nvfp4-cpu-check", "nvfp4-sim-check",
           "nvfp4-unittests"]


def parse(path):
    mutations, current, mode, old, new = [], None, None, [], []
    with open(path) as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines, 1):
        if mode == "old":
            if line == "====":
                mode = "new"
            else:
                old.append(line)
            continue
        if mode == "new":
            if line == ">>>>":
                current["old"], current["new"] = "\n".join(old), "\n".join(new)
                mutations.append(current)
                current, mode, old, new = None, None, [], []
            else:
                new.append(line)
            continue
        if line.startswith("@@ "):
            current = {"id": line[3:].strip(), "line": number}
        elif line == "<<<<":
            if not current or "file" not in current or "desc" not in current:
                sys.exit(f"{path}:{number}: '<<<<' before '@@ id', 'file:' "
                         "and 'desc:'")
            mode = "old"
        elif current is not None and re.match(r"^(file|desc|quick): ", line):
            key, value = line.split(": ", 1)
            current[key] = value.strip()
        elif line.strip() and not line.startswith("#"):
            sys.exit(f"{path}:{number}: unexpected line: {line}")
    if mode is not None:
        sys.exit(f"{path}: unterminated mutation '{current['id']}'")
    return mutations


def quick_targets(m):
    """What the quick subset of a mutation needs rebuilt."""
    regex = m.get("quick", DEFAULT_QUICK)
    targets = ["nvfp4-opt"]
    if "sim-check" in regex:
        targets.append("nvfp4-sim-check")
    if "cpu-check" in regex:
        targets.append("nvfp4-cpu-check")
    if "Unit" in regex:
        targets.append("nvfp4-unittests")
    if "Docs" in regex:
        targets.append("nvfp4-docs")
    return targets


def run(cmd, log):
    with open(log, "a") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        return subprocess.call(cmd, cwd=ROOT, stdout=out,
                               stderr=subprocess.STDOUT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", default=os.path.join(ROOT, "scripts",
                                                       "mutations.txt"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check-only", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--build", default="build")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--lit", default="/usr/lib/llvm-22/bin/lit")
    parser.add_argument("--log", default="/tmp/nvfp4-mutate.log")
    args = parser.parse_args()

    mutations = parse(args.list)
    ids = [m["id"] for m in mutations]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        sys.exit(f"duplicate mutation ids: {', '.join(sorted(duplicates))}")
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - set(ids)
        if unknown:
            sys.exit(f"unknown mutation ids: {', '.join(sorted(unknown))}")
        mutations = [m for m in mutations if m["id"] in wanted]

    # Every old text must be found exactly once before anything is touched.
    results, runnable = [], []
    for m in mutations:
        path = os.path.join(ROOT, m["file"])
        text = open(path).read() if os.path.exists(path) else None
        count = text.count(m["old"]) if text is not None else 0
        if count != 1:
            results.append((m, "NOT FOUND" if count == 0 else
                            f"FOUND {count}x", 0.0))
        else:
            runnable.append(m)

    if args.check_only:
        for m, outcome, _ in results:
            print(f"{m['file']}: mutation '{m['id']}': old text {outcome}")
        print(f"{len(runnable)} of {len(mutations)} mutations apply")
        return 1 if results else 0

    open(args.log, "w").close()
    # Ctrl-C and termination unwind through the `finally` that restores.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(
        KeyboardInterrupt()))
    interrupted = False
    for index, m in enumerate(runnable, 1):
        path = os.path.join(ROOT, m["file"])
        original = open(path).read()
        start = time.time()
        print(f"[{index}/{len(runnable)}] {m['id']}: {m['desc']}", flush=True)
        try:
            with open(path, "w") as f:
                f.write(original.replace(m["old"], m["new"], 1))
            build = run(["ninja", "-C", args.build, "-j", args.jobs] +
                        (quick_targets(m) if args.quick else TARGETS),
                        args.log)
            if build != 0:
                outcome = "caught (build)"
            else:
                if args.quick:
                    cmd = [args.lit, "-q", os.path.join(args.build, "test"),
                           os.path.join(args.build, "test", "Unit"),
                           "--filter", m.get("quick", DEFAULT_QUICK)]
                else:
                    cmd = ["make", "check", f"BUILD={args.build}",
                           f"JOBS={args.jobs}"]
                outcome = "caught" if run(cmd, args.log) != 0 else "SURVIVED"
        except KeyboardInterrupt:
            outcome, interrupted = "interrupted", True
        finally:
            with open(path, "w") as f:
                f.write(original)
        results.append((m, outcome, time.time() - start))
        print(f"    {outcome} ({time.time() - start:.0f} s)", flush=True)
        if interrupted:
            break

    # Leave the build matching the restored sources.
    if runnable and not interrupted:
        run(["ninja", "-C", args.build, "-j", args.jobs] + TARGETS, args.log)

    print(f"\n{'mutation':34} {'file':48} outcome")
    for m, outcome, seconds in results:
        print(f"{m['id']:34} {m['file']:48} {outcome}")
    bad = [r for r in results if not r[1].startswith("caught")]
    caught = len(results) - len(bad)
    print(f"\n{caught} caught, {len(bad)} not caught "
          f"(survived, not found or interrupted); log: {args.log}")
    return 1 if bad or interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
