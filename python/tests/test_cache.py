"""The kernel cache and nvfp4.compile / nvfp4.gemv around it."""
import json
import os
import shutil
import time

import pytest

import nvfp4
from conftest import FakeDriver, forget_kernels, reference_layout
from nvfp4 import Cache, CompileError, GemvSpec
from nvfp4.cache import request_key
from nvfp4.compiler import compiler_id


def test_request_keys():
    spec = GemvSpec(7168, 2048, 4)
    key = request_key(spec, "chip=sm_90a")
    assert key == request_key(GemvSpec.parse("7168x2048x4"), "chip=sm_90a")
    others = {request_key(spec, "chip=sm_100a"),
              request_key(spec, "chip=sm_90a split-k=2"),
              request_key(GemvSpec(7168, 2048, 4, alpha=False), "chip=sm_90a"),
              request_key(GemvSpec(7168, 2048, 2), "chip=sm_90a"),
              request_key(GemvSpec(7168, 2048, 4, output="bf16"),
                          "chip=sm_90a")}
    assert key not in others and len(others) == 5


def test_compiler_id_follows_the_binary(tmp_path):
    first = tmp_path / "opt1"
    first.write_text("#!/bin/sh\necho 'LLVM version 22'\n")
    first.chmod(0o755)
    second = tmp_path / "opt2"
    shutil.copy(first, second)
    assert compiler_id(str(first)) == compiler_id(str(second))
    second.write_text("#!/bin/sh\necho 'LLVM version 23'\n")
    assert compiler_id(str(first)) != compiler_id(str(second))


def test_compiler_id_is_remembered(tmp_path):
    """Starting the compiler costs time: its id is kept in the cache, keyed
    by the binary's path, size and time of change."""
    from nvfp4.compiler import _compiler_id
    binary = tmp_path / "opt"
    binary.write_text("#!/bin/sh\necho 'LLVM version 22'\n")
    binary.chmod(0o755)
    memo = str(tmp_path / "cache")
    identity = compiler_id(str(binary), memo)
    stat = binary.stat()
    script = "#!/bin/sh\nexit 9 # never run\n"
    binary.write_text(script.ljust(stat.st_size - 1, "#") + "\n")
    os.utime(binary, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    _compiler_id.cache_clear()
    assert compiler_id(str(binary), memo) == identity
    os.utime(binary, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert compiler_id(str(binary), memo) != identity


def test_compile_caches_on_disk(compiler, cache_dir, monkeypatch):
    start = time.perf_counter()
    kernel = nvfp4.compile(256, 512, 2, layout="blocked128x4", alpha=False,
                           chip="sm_90a", cache_dir=cache_dir)
    first = time.perf_counter() - start
    print(f"first call (compile + read): {first * 1e3:.0f} ms")
    assert kernel.spec == GemvSpec(256, 512, 2, layout="blocked128x4",
                                   alpha=False)
    assert kernel.chip == "sm_90a"
    assert nvfp4.compile(256, 512, 2, layout="blocked128x4", alpha=False,
                         chip="sm_90a", cache_dir=cache_dir) is kernel
    # Equal values of the wrong type stay errors after a hit.
    with pytest.raises(nvfp4.ArgumentError, match="m must be an integer"):
        nvfp4.compile(256.0, 512, 2, layout="blocked128x4", alpha=False,
                      chip="sm_90a", cache_dir=cache_dir)
    with pytest.raises(nvfp4.ArgumentError, match="alpha must be True"):
        nvfp4.compile(256, 512, 2, layout="blocked128x4", alpha=0,
                      chip="sm_90a", cache_dir=cache_dir)
    # A new process: nothing in memory, the disk cache answers.
    forget_kernels(monkeypatch)
    monkeypatch.setattr(nvfp4.cache, "export", None)  # compiling would fail
    start = time.perf_counter()
    again = nvfp4.compile(256, 512, 2, layout="blocked128x4", alpha=False,
                          chip="sm_90a", cache_dir=cache_dir)
    print(f"later call, from the disk cache: "
          f"{(time.perf_counter() - start) * 1e3:.1f} ms")
    assert again.manifest.path == kernel.manifest.path
    (entry,) = Cache(cache_dir).entries()
    assert entry[1]["spec"] == "256x512x2:nvfp4:blocked128x4:f16:noalpha"
    assert entry[1]["compiler_id"] == compiler_id(compiler)


def test_options_reach_the_pipeline(compiler, cache_dir):
    kernel = nvfp4.compile(256, 2048, 1, chip="sm_90a", cache_dir=cache_dir,
                           rows_per_block=8, rows_per_thread=2,
                           cache_hints=False)
    config = kernel.manifest.fields["config"]
    assert (config["rows_per_block"], config["rows_per_thread"],
            config["cache_hints"]) == (8, 2, False)
    with pytest.raises(CompileError, match="nvfp4-opt failed .*rows-per-"
                       "block = 3 is not a multiple"):
        nvfp4.compile(256, 2048, 1, chip="sm_90a", cache_dir=cache_dir,
                      rows_per_thread=2, rows_per_block=3)
    with pytest.raises(CompileError, match="no option 'bogus'"):
        nvfp4.compile(256, 2048, 1, chip="sm_90a", cache_dir=cache_dir,
                      bogus=1)
    # A failed build leaves nothing behind.
    assert len(Cache(cache_dir).entries()) == 1
    assert not [name for _, dirs, _ in os.walk(cache_dir) for name in dirs
                if name.startswith(".build-")]


def test_without_compiler_the_cache_is_used(compiler, cache_dir,
                                            monkeypatch, tmp_path):
    built = nvfp4.compile(128, 256, 1, chip="sm_90a", cache_dir=cache_dir)
    carried = str(tmp_path / "carried")
    shutil.copytree(cache_dir, carried)  # as copied to a GPU machine
    forget_kernels(monkeypatch)
    monkeypatch.setattr(nvfp4.api, "find_compiler", lambda: None)
    kernel = nvfp4.compile(128, 256, 1, chip="sm_90a", cache_dir=carried)
    assert kernel.name == built.name
    assert kernel.manifest.path.startswith(carried)
    with pytest.raises(CompileError, match="no nvfp4-opt .* no cached kernel "
                       "for 128x256x1:nvfp4:linear:f16 with 'chip=sm_90a "
                       "split-k=2'"):
        nvfp4.compile(128, 256, 1, chip="sm_90a", cache_dir=carried,
                      split_k=2)


def test_newest_entry_wins_without_compiler(tmp_path):
    cache = Cache(str(tmp_path))
    spec = GemvSpec(128, 256, 1)
    request_dir = cache.request_dir(spec, "chip=sm_90a")
    for name, created in (("old", 1.0), ("new", 2.0), ("partial", None)):
        os.makedirs(os.path.join(request_dir, name))
        if created:
            with open(os.path.join(request_dir, name, "request.json"),
                      "w") as file:
                json.dump({"manifest": f"{name}.json", "created": created},
                          file)
    assert cache.find(spec, "chip=sm_90a") == os.path.join(
        request_dir, "new", "new.json")
    assert cache.find(spec, "chip=sm_90a", "old").endswith("old.json")
    assert cache.find(spec, "chip=sm_90a", "partial") is None
    assert cache.find(spec, "chip=sm_100a") is None


def test_tampered_cache_entry_is_refused(compiler, cache_dir, monkeypatch):
    kernel = nvfp4.compile(128, 256, 1, chip="sm_90a", cache_dir=cache_dir)
    with open(kernel.manifest.path) as file:
        fields = json.load(file)
    fields["m"] = 256
    with open(kernel.manifest.path, "w") as file:
        json.dump(fields, file)
    forget_kernels(monkeypatch)
    with pytest.raises(nvfp4.ManifestError, match="does not match the PTX"):
        nvfp4.compile(128, 256, 1, chip="sm_90a", cache_dir=cache_dir)


def test_unwritable_cache(compiler, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(CompileError, match="cannot write the kernel cache"):
        nvfp4.compile(128, 256, 1, chip="sm_90a", cache_dir=str(blocker))


def test_gemv_compiles_on_first_use(compiler, cache_dir, monkeypatch):
    driver = FakeDriver()
    monkeypatch.setattr(nvfp4.kernel, "shared_driver", lambda: driver)
    monkeypatch.setattr(nvfp4.kernel, "current_stream", lambda device: 0x51)
    a, b, _, _, sfa_p, sfb_p, c = reference_layout(256, 512, 1, "mxfp4",
                                                   "bf16")
    assert nvfp4.gemv(a, b, sfa_p, sfb_p, c, chip="sm_90a",
                      cache_dir=cache_dir) is c
    assert nvfp4.gemv(a, b, sfa_p, sfb_p, c, alpha=2.0, chip="sm_90a",
                      cache_dir=cache_dir) is c
    specs = sorted(r["spec"] for _, r in Cache(cache_dir).entries())
    assert specs == ["256x512x1:mxfp4:blocked128x4:bf16",
                     "256x512x1:mxfp4:blocked128x4:bf16:noalpha"]
    assert [launch.stream for launch in driver.launches] == [0x51, 0x51]
    assert len(driver.launches[0].params) == 5
    assert len(driver.launches[1].params) == 6


def test_cli(compiler, tmp_path, capsys):
    from nvfp4.__main__ import main
    cache = str(tmp_path / "cli")
    assert main(["compile", "--cache-dir", cache, "--chip", "sm_90a",
                 "128x256x1:blocked128x4:noalpha", "-o", "split-k=1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("128x256x1:nvfp4:blocked128x4:f16:noalpha sm_90a ")
    assert main(["list", "--cache-dir", cache]) == 0
    assert "'chip=sm_90a split-k=1'" in capsys.readouterr().out
    assert main(["compile", "--cache-dir", cache, "--chip", "sm_90a",
                 "128x250x1"]) == 1
    assert capsys.readouterr().err.strip() == (
        "nvfp4: error: K = 250 is not a multiple of 16 in "
        "'128x250x1:nvfp4:linear:f16'")


def test_concurrent_store_of_one_entry(compiler, cache_dir, monkeypatch):
    """Two processes building the same entry: the second to finish keeps
    the first one's entry and leaves no temporary directory."""
    cache = Cache(cache_dir)
    spec = GemvSpec(128, 256, 1)
    identity = compiler_id(compiler)
    real_export = nvfp4.cache.export

    def export_while_another_finishes(*args):
        monkeypatch.setattr(nvfp4.cache, "export", real_export)
        first = cache.store(spec, "chip=sm_90a", compiler, identity)
        real_export(*args)
        export_while_another_finishes.first = first
    monkeypatch.setattr(nvfp4.cache, "export", export_while_another_finishes)
    second = cache.store(spec, "chip=sm_90a", compiler, identity)
    assert second == export_while_another_finishes.first
    assert os.path.exists(second)
    assert len(cache.entries()) == 1
    assert not [name for _, dirs, _ in os.walk(cache_dir) for name in dirs
                if name.startswith(".build-")]
