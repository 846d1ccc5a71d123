#!/usr/bin/env python3
"""Checks the Python layer on a GPU and times it next to nvfp4-run.

Here, with nvfp4-opt, fill a kernel cache with every kernel the GPU run
needs (the GPU machine has no LLVM):

    PYTHONPATH=python python3 python/examples/check_and_time.py --prepare .nvfp4-kernels

On the GPU machine (PyTorch with CUDA; nvfp4-run built by bench/build-runner.sh):

    PYTHONPATH=python python3 python/examples/check_and_time.py \\
        --cache-dir .nvfp4-kernels --runner build-gpu/bin/nvfp4-run

It checks custom_kernel (reference_problem.py) on the problem's shapes
against the float64 reference (seeds 1 and 2, both input distributions, c
poisoned with NaN), other formats, layouts, outputs and alpha through
nvfp4.gemv, the errors of a wrong chip, device and layout, and a CUDA graph
replay; then times each benchmark kernel with a cold L2 (device events,
median of --reps) next to nvfp4-run --bench on the same manifest (MISS
when more than 2% slower), and the host cost of a launch, eager and in a
CUDA graph. Exits 1 on any failed check (a timing miss is not one).
"""
import argparse
import ctypes
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import nvfp4  # noqa: E402
from nvfp4.reference import (compare, gemv_reference,  # noqa: E402
                             reference_inputs)
from nvfp4.driver import shared_driver  # noqa: E402
from nvfp4.tensors import check_operands, compact_rows  # noqa: E402

CHIP = "sm_90a"
BENCH_SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4),
                (4096, 7168, 1), (7168, 2048, 1)]
TEST_SHAPES = [(128, 256, 1), (128, 1536, 1), (128, 3072, 1), (256, 7168, 1),
               (2432, 4608, 2), (384, 7168, 2), (512, 512, 2), (512, 4096, 2),
               (512, 1536, 2)]
# (m, k, l, format, layout, output, alpha): the other parameter orders,
# scale types, padded-row copies and output types.
VARIANTS = [(256, 7168, 2, "nvfp4", "linear", "f16", 0.75),
            (384, 1536, 2, "mxfp4", "blocked128x4", "bf16", 0.75),
            (130, 1040, 3, "nvfp4", "linear", "f32", None),
            (257, 2048, 1, "mxfp4", "blocked128x4", "f32", None),
            (512, 4096, 2, "mxfp4", "linear", "f16", 1.5)]
# A kernel this GPU cannot run.
OTHER_CHIP = ("sm_100a", (128, 256, 1))


def requests():
    """Every (spec fields, chip) the GPU run loads: the one list --prepare
    compiles."""
    problem = [dict(m=m, k=k, l=l, layout="blocked128x4", alpha=False)
               for m, k, l in TEST_SHAPES + BENCH_SHAPES]
    variants = [dict(m=m, k=k, l=l, format=f, layout=lay, output=o,
                     alpha=a is not None)
                for m, k, l, f, lay, o, a in VARIANTS]
    m, k, l = OTHER_CHIP[1]
    return ([(r, CHIP) for r in problem + variants] +
            [(dict(m=m, k=k, l=l, layout="blocked128x4", alpha=False),
              OTHER_CHIP[0])])


def prepare(directory):
    start = time.perf_counter()
    for fields, chip in requests():
        nvfp4.compile(**fields, chip=chip, cache_dir=directory)
    print(f"{len(requests())} kernels in {directory} "
          f"({time.perf_counter() - start:.1f} s)")


class Checker:
    def __init__(self):
        self.failures = 0
        self.misses = 0  # timing targets missed: reported, not failures

    def result(self, ok, text):
        print(("PASS " if ok else "FAIL ") + text, flush=True)
        self.failures += not ok

    def expect_error(self, label, call, words):
        try:
            call()
        except nvfp4.Nvfp4Error as error:
            self.result(words in str(error), f"error {label}: {error}")
            return
        self.result(False, f"error {label}: no error raised")


def output_tensor(torch, m, l, output):
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16,
             "f32": torch.float32}[output]
    return torch.full((l, m, 1), float("nan"), dtype=dtype,
                      device="cuda").permute(1, 2, 0)


def check_problem(check, torch, custom_kernel):
    for m, k, l in TEST_SHAPES + BENCH_SHAPES:
        for seed, dist in ((1, "full"), (2, "weak")):
            data = reference_inputs(m, k, l, seed, dist=dist, device="cuda")
            out = custom_kernel(data)
            ref = gemv_reference(*data[:4], m, k).permute(1, 0).unsqueeze(1)
            ok, bad, rel, max_abs = compare(out, ref)
            check.result(ok and out is data[6],
                         f"custom_kernel {m}x{k}x{l} seed={seed} dist={dist}:"
                         f" mismatches={bad} rel_err={rel:.3e} "
                         f"max_abs_err={max_abs:.3e}")


def check_variants(check, torch):
    for m, k, l, fmt, layout, output, alpha in VARIANTS:
        seed = 3
        a, b, sfa, sfb, sfa_p, sfb_p, _ = reference_inputs(
            m, k, l, seed, format=fmt, device="cuda")
        c = output_tensor(torch, m, l, output)
        scales = (sfa, sfb) if layout == "linear" else (sfa_p, sfb_p)
        nvfp4.gemv(a, b, *scales, c, alpha=alpha, format=fmt, chip=CHIP)
        ref = gemv_reference(a, b, sfa, sfb, m, k, fmt, alpha or 1.0)
        ok, bad, rel, _ = compare(c, ref.permute(1, 0).unsqueeze(1))
        check.result(ok, f"gemv {m}x{k}x{l}:{fmt}:{layout}:{output} "
                     f"alpha={alpha} seed={seed}: mismatches={bad} "
                     f"rel_err={rel:.3e}")


def check_errors(check, torch):
    m, k, l = OTHER_CHIP[1]
    data = reference_inputs(m, k, l, 4, device="cuda")
    a, b, sfa, sfb, sfa_p, sfb_p, c = data
    other = nvfp4.compile(m, k, l, layout="blocked128x4", alpha=False,
                          chip=OTHER_CHIP[0])
    check.expect_error("chip", lambda: other(a, b, sfa_p, sfb_p, c),
                       "cannot run on")
    kernel = nvfp4.compile(m, k, l, layout="blocked128x4", alpha=False,
                           chip=CHIP)
    on_host = sfa_p.view(torch.uint8).cpu()
    check.expect_error("device", lambda: kernel(a, b, on_host, sfb_p, c),
                       "is on cpu")
    check.expect_error("layout", lambda: kernel(a, b, sfa, sfb, c),
                       "shape is")
    column_major = a.view(torch.uint8).permute(1, 0, 2).contiguous().permute(
        1, 0, 2)
    check.expect_error("strides", lambda: kernel(column_major, b, sfa_p,
                                                 sfb_p, c), "strides are")
    check.expect_error("alpha", lambda: kernel(a, b, sfa_p, sfb_p, c,
                                               alpha=0.5), "without alpha")


def check_graph(check, torch, custom_kernel):
    m, k, l = 4096, 7168, 8
    static = reference_inputs(m, k, l, 5, device="cuda")
    custom_kernel(static)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        custom_kernel(static)
    fresh = reference_inputs(m, k, l, 6, device="cuda")
    for dst, src in zip(static[:6], fresh[:6]):
        dst.view(torch.uint8).copy_(src.view(torch.uint8))
    static[6].fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    ref = gemv_reference(*fresh[:4], m, k).permute(1, 0).unsqueeze(1)
    ok, bad, rel, _ = compare(static[6], ref)
    check.result(ok, f"CUDA graph replay {m}x{k}x{l} seed=6: "
                 f"mismatches={bad} rel_err={rel:.3e}")


def flush_header():
    return open(os.path.join(HERE, "..", "..", "tools", "nvfp4-run",
                             "FlushKernel.h")).read()


def read_flush_kernel():
    """(name, PTX) of nvfp4-run's L2 read-back kernel, read from its one
    home, tools/nvfp4-run/FlushKernel.h."""
    text = flush_header()
    name = re.search(r'kL2ReadKernel = "(\w+)"', text).group(1)
    ptx = re.search(r'kL2ReadPtx = R"\((.*?)\)"', text, re.S).group(1)
    return name, ptx


def read_flush_geometry():
    """(least flush bytes, read-back CTAs an SM, threads a CTA) from
    FlushKernel.h: the buffer is max(2 x L2, the least)."""
    text = flush_header()
    least = re.search(r"2 \* l2Bytes, int64_t\((\d+)\) << (\d+)", text)
    ctas = re.search(r"kL2ReadCtasPerSM = (\d+);", text).group(1)
    threads = re.search(r"kL2ReadThreads = (\d+);", text).group(1)
    return int(least.group(1)) << int(least.group(2)), int(ctas), int(threads)


def runner_flush_kernel(torch):
    """nvfp4-run's L2 read-back kernel, loaded: the same flush as
    nvfp4-run, so that the two times differ only by what the Python layer
    adds."""
    name, ptx = read_flush_kernel()
    driver = shared_driver()
    device = driver.device(torch.cuda.current_device())
    driver.make_current(driver.primary_context(device))
    return driver, driver.function(driver.load_module(ptx.encode()), name)


def cold_l2_times(torch, call, reps):
    """Device times (us) of `call` with a cold L2 before each, timed as
    nvfp4-run times: the buffer is written, then read back by the runner's
    own kernel so that no dirty line is written back while timed, and each
    repetition ends before the next flush is queued."""
    props = torch.cuda.get_device_properties(0)
    least, ctas_per_sm, threads = read_flush_geometry()
    flush = torch.empty(max(2 * props.L2_cache_size, least),
                        dtype=torch.uint8, device="cuda")
    sink = torch.empty(1, dtype=torch.int32, device="cuda")
    driver, read_back = runner_flush_kernel(torch)
    values = (ctypes.c_uint64(flush.data_ptr()),
              ctypes.c_uint64(flush.numel() // 16),
              ctypes.c_uint64(sink.data_ptr()))
    params = (ctypes.c_void_p * 3)(
        *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
    stream = torch.cuda.current_stream().cuda_stream
    events = []
    for i in range(10 + reps):
        flush.fill_(i & 255)
        driver.launch(read_back,
                      (ctas_per_sm * props.multi_processor_count, 1, 1),
                      (threads, 1, 1), 0, stream, params)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        call()
        end.record()
        end.synchronize()
        events.append((start, end))
    return [s.elapsed_time(e) * 1e3 for s, e in events[10:]]


def runner_median(runner, manifest, reps):
    if not runner:
        return None
    result = subprocess.run([runner, manifest, "--bench", "--json", "--reps",
                             str(reps), "--dist", "weak"],
                            capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(result.stdout.splitlines()[-1])
        return report["bench"]["median_us"]
    except (IndexError, KeyError, ValueError):
        print(f"  nvfp4-run failed: {result.stderr.strip()[:300]}")
        return None


def time_kernels(check, torch, custom_kernel, runner, reps, results):
    for m, k, l in BENCH_SHAPES:
        data = reference_inputs(m, k, l, 7, dist="weak", device="cuda")
        a, b, _, _, sfa_p, sfb_p, c = data
        kernel = nvfp4.compile(m, k, l, layout="blocked128x4", alpha=False,
                               chip=CHIP)
        # The vector as one compact row, so that only the kernel runs.
        b_compact = compact_rows(b).t().unsqueeze(0)
        python = cold_l2_times(
            torch, lambda: kernel(a, b_compact, sfa_p, sfb_p, c), reps)
        whole = cold_l2_times(torch, lambda: custom_kernel(data), reps)
        runner_us = runner_median(runner, kernel.manifest.path, reps)
        row = {"shape": [m, k, l], "kernel": kernel.name,
               "python_median_us": statistics.median(python),
               "python_min_us": min(python),
               "custom_kernel_median_us": statistics.median(whole),
               "nvfp4_run_median_us": runner_us}
        results["timing"].append(row)
        text = (f"{m}x{k}x{l}: kernel through Python "
                f"{row['python_median_us']:.2f} us median (min "
                f"{row['python_min_us']:.2f}), custom_kernel "
                f"{row['custom_kernel_median_us']:.2f} us")
        if runner_us:
            ratio = row["python_median_us"] / runner_us
            row["ratio"] = ratio
            text += f", nvfp4-run {runner_us:.2f} us: ratio {ratio:.3f}"
            met = ratio <= 1.02
            check.misses += not met
            print(("TIME " if met else "MISS ") + text +
                  ("" if met else " (target: within 2%)"), flush=True)
        else:
            print("TIME " + text + " (no nvfp4-run)")


def per_call_us(function, count):
    start = time.perf_counter()
    for _ in range(count):
        function()
    return (time.perf_counter() - start) / count * 1e6


def launch_overhead(torch, results):
    m, k, l = 128, 256, 1
    a, b, _, _, sfa_p, sfb_p, c = reference_inputs(m, k, l, 8,
                                                   device="cuda")
    kernel = nvfp4.compile(m, k, l, layout="blocked128x4", alpha=False,
                           chip=CHIP)
    operands = check_operands(kernel.spec, a, b, sfa_p, sfb_p, c)
    stream = torch.cuda.current_stream().cuda_stream
    calls = {
        "kernel(...)": lambda: kernel(a, b, sfa_p, sfb_p, c),
        "nvfp4.gemv(...)": lambda: nvfp4.gemv(a, b, sfa_p, sfb_p, c,
                                              chip=CHIP),
        "kernel.launch(pointers)": lambda: kernel.launch(
            operands.pointers, 1.0, operands.device, stream),
        "torch c.zero_() (for scale)": lambda: c.zero_(),
    }
    count = 2000
    overhead = {}
    for label, call in calls.items():
        per_call_us(call, 100)
        torch.cuda.synchronize()
        host = per_call_us(call, count)
        torch.cuda.synchronize()
        overhead[label] = host
        print(f"LAUNCH {label}: {host:.2f} us per call on the host (eager)")
    # Device time per kernel back to back, eager and in a graph.
    start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    start.record()
    for _ in range(count):
        kernel(a, b, sfa_p, sfb_p, c)
    end.record()
    torch.cuda.synchronize()
    eager_device = start.elapsed_time(end) * 1e3 / count
    per_graph = 100
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(per_graph):
            kernel(a, b, sfa_p, sfb_p, c)
    graph.replay()
    torch.cuda.synchronize()
    replays = 20
    host = per_call_us(graph.replay, replays) / per_graph
    start.record()
    for _ in range(replays):
        graph.replay()
    end.record()
    torch.cuda.synchronize()
    graph_device = start.elapsed_time(end) * 1e3 / (replays * per_graph)
    print(f"LAUNCH {m}x{k}x{l} back to back: eager {eager_device:.2f} us per "
          f"kernel on the device; CUDA graph {graph_device:.2f} us per kernel "
          f"on the device, {host:.3f} us per kernel on the host (replay of "
          f"{per_graph})")
    results["launch"] = dict(overhead, eager_device_us=eager_device,
                             graph_device_us=graph_device,
                             graph_host_us_per_kernel=host)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prepare", metavar="DIR",
                        help="compile the kernels of the GPU run into DIR")
    parser.add_argument("--cache-dir", help="the kernel cache to load from "
                        "(default $NVFP4_CACHE_DIR)")
    parser.add_argument("--runner", help="nvfp4-run, to time the same "
                        "manifests with")
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--json", help="write the numbers to this file")
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare)
        return 0
    if args.cache_dir:
        os.environ["NVFP4_CACHE_DIR"] = os.path.abspath(args.cache_dir)
    import torch
    from reference_problem import custom_kernel
    if not torch.cuda.is_available():
        print("check_and_time.py: error: no CUDA device", file=sys.stderr)
        return 1
    props = torch.cuda.get_device_properties(0)
    print(f"DEVICE {props.name} (sm_{props.major}{props.minor}), PyTorch "
          f"{torch.__version__}, kernels from {nvfp4.default_cache_dir()}")
    started = time.perf_counter()
    check = Checker()
    results = {"device": props.name, "torch": torch.__version__,
               "timing": []}
    check_problem(check, torch, custom_kernel)
    check_variants(check, torch)
    check_errors(check, torch)
    check_graph(check, torch, custom_kernel)
    time_kernels(check, torch, custom_kernel, args.runner, args.reps,
                 results)
    launch_overhead(torch, results)
    results["failures"] = check.failures
    results["timing_misses"] = check.misses
    if args.json:
        with open(args.json, "w") as file:
            json.dump(results, file, indent=1)
    print(f"{check.failures} failures, {check.misses} timing targets missed "
          f"({time.perf_counter() - started:.0f} s)")
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
