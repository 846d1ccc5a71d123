# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

# lit pointed at the source tree (`lit test/...`) runs the tests of the build
# in build/, as `lit build/test/...` does.
if not hasattr(config, "nvfp4_obj_root"):
    _site = os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "build", "test", "lit.site.cfg.py")
    if not os.path.exists(_site):
        lit_config.fatal("no build in build/: run `make build`, then lit on "
                         "build/test/...")
    lit_config.load_config(config, _site)
    raise SystemExit

config.name = "NVFP4"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "Unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nvfp4_obj_root, "test")

config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils.so")))
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%nvfp4_src_root", config.nvfp4_src_root))
config.substitutions.append(("%nvfp4_obj_root", config.nvfp4_obj_root))

# test/Install configures a small project against the installed package.
config.substitutions.append(("%cmake_generator",
                             '"%s"' % config.cmake_generator))
config.substitutions.append(("%cmake_make_program",
                             config.cmake_make_program))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx_compiler", config.cxx_compiler))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                      "PATH"])
llvm_config.use_default_substitutions()

tool_dirs = [config.nvfp4_tools_dir, config.llvm_tools_dir]
tools = ["nvfp4-opt", "nvfp4-run", "nvfp4-cpu-check", "nvfp4-sim-check", "nvfp4-tcgen05-check", "mlir-runner", "mlir-translate", "not", "count", "split-file",
         ToolSubst("%python", command=shutil.which("python3") or "python3")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Tests that need the CUDA assembler (ptxas), or the CUDA compiler (nvcc,
# for the benchmark tools in CUDA, compiled, not run), are skipped, not
# failed, without it.
for cuda_tool in ("ptxas", "nvcc"):
    path = shutil.which(cuda_tool) or (
        "/usr/local/cuda/bin/" + cuda_tool
        if os.path.exists("/usr/local/cuda/bin/" + cuda_tool) else None)
    if path:
        config.available_features.add(cuda_tool)
        config.substitutions.append(("%" + cuda_tool, path))

# The no-driver path of nvfp4-run is testable only where no GPU is usable.
import ctypes


def _cuda_usable():
    try:
        return ctypes.CDLL("libcuda.so.1").cuInit(0) == 0
    except OSError:
        return False


def _cuda_devices():
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)):
            return 0
        return count.value
    except OSError:
        return 0


if not _cuda_usable():
    config.available_features.add("no-cuda-driver")
# test/Integration/GPU runs kernels: only where a device is there to run them.
if _cuda_devices() > 0:
    config.available_features.add("cuda")
