#!/usr/bin/env python3
"""Runs the command blocks of README.md as a user would paste them.

Every ```sh block runs, in order, in one bash shell (so an `export PATH=...`
block applies to the blocks after it) with `set -eo pipefail`, started with
the PATH of a fresh login shell, in a scratch directory that looks like the
repository after `make demo`: every top-level entry of the source tree
linked in, and `build` linked to the build tree. Blocks whose info string
names `gpu` (needs a GPU) or `setup` (`make demo`, `make check`) are left
out; `ptxas` blocks run only where ptxas is found. Then the command in the
header comment of every examples/*.mlir (the `//   ` lines after a line
ending in "with") runs too, with the fresh PATH. Exits non-zero, naming the
block, when a command fails.

    readme-commands.py --src SRC --build BUILD --work DIR [--list]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

FRESH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def blocks(text):
    """(line number, info words, body) of every fenced block."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        match = re.match(r"^```(.*)$", lines[i])
        if not match:
            i += 1
            continue
        info = match.group(1).split()
        start = i + 1
        i += 1
        while i < len(lines) and lines[i] != "```":
            i += 1
        out.append((start, info, "\n".join(lines[start:i])))
        i += 1
    return out


def example_headers(src):
    """(where, command) of the header command of every example."""
    out = []
    examples = os.path.join(src, "examples")
    for name in sorted(os.listdir(examples)):
        if not name.endswith(".mlir"):
            continue
        with open(os.path.join(examples, name)) as f:
            lines = f.read().split("\n")
        for i, line in enumerate(lines):
            if not (line.startswith("// ") and line.rstrip().endswith(" with")):
                continue
            command = []
            for next_line in lines[i + 1:]:
                if not next_line.startswith("//   "):
                    break
                command.append(next_line[len("//   "):])
            if command:
                out.append((f"examples/{name}:{i + 2}", "\n".join(command)))
            break
    return out


def have_ptxas():
    dirs = [os.path.join(os.environ["CUDA_HOME"], "bin")] \
        if "CUDA_HOME" in os.environ else []
    dirs += ["/usr/local/cuda/bin"]
    return bool(shutil.which("ptxas") or
                any(os.access(os.path.join(d, "ptxas"), os.X_OK) for d in dirs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--list", action="store_true",
                        help="print the blocks and whether they run")
    args = parser.parse_args()

    args.src = os.path.abspath(args.src)
    readme = os.path.join(args.src, "README.md")
    with open(readme) as f:
        found = blocks(f.read())
    ptxas = have_ptxas()
    script = ["set -eo pipefail"]
    ran = skipped = 0
    for line, info, body in found:
        if not info or info[0] != "sh":
            continue
        reason = ("needs a GPU" if "gpu" in info else
                  "a setup command" if "setup" in info else
                  "no ptxas" if "ptxas" in info and not ptxas else None)
        if args.list:
            print(f"README.md:{line}: {'skipped, ' + reason if reason else 'runs'}")
        if reason:
            skipped += 1
            continue
        ran += 1
        script.append(f"echo '## README.md:{line}'")
        script.append(f"nvfp4_block='README.md:{line}'")
        script.append(body)
    for where, command in example_headers(args.src):
        if args.list:
            print(f"{where}: runs")
        ran += 1
        script.append(f"echo '## {where}'")
        script.append(f"nvfp4_block='{where}'")
        script.append(f"(PATH={FRESH_PATH}\n{command}\n)")
    if args.list:
        return 0
    if ran == 0:
        print("readme-commands: error: README.md has no ```sh block to run",
              file=sys.stderr)
        return 1

    if os.path.exists(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    # Not linked: the build (linked below) and what the commands write.
    for entry in os.listdir(args.src):
        if entry in ("build", ".git", "out", "install") or \
                entry.endswith(".ll"):
            continue
        os.symlink(os.path.join(args.src, entry),
                   os.path.join(args.work, entry))
    os.symlink(os.path.abspath(args.build), os.path.join(args.work, "build"))
    # A failing command names its block on the way out.
    script.insert(1, "trap 'echo \"readme-commands: error: a command of the "
                     "block at $nvfp4_block failed\" >&2' ERR")
    env = {"PATH": FRESH_PATH, "HOME": os.environ.get("HOME", args.work),
           "LANG": "C.UTF-8"}
    if "CUDA_HOME" in os.environ:
        env["CUDA_HOME"] = os.environ["CUDA_HOME"]
    status = subprocess.call(["bash", "-c", "\n".join(script)],
                             cwd=args.work, env=env)
    if status != 0:
        return 1
    print(f"readme-commands: {ran} blocks ran, {skipped} left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
