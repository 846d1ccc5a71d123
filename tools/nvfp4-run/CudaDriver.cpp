//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "nvfp4-run/CudaDriver.h"

#include <dlfcn.h>

using namespace nvfp4::run::cuda;

namespace {

/// Resolves `symbol` into `fn`; the driver keeps exporting every versioned
/// name it ever shipped, so the names below stay valid across releases.
template <typename Fn>
bool resolve(void *library, const char *symbol, Fn &fn, std::string &error) {
  void *address = dlsym(library, symbol);
  if (!address) {
    error =
        std::string("the CUDA driver lacks ") + symbol + " (driver too old?)";
    return false;
  }
  fn = reinterpret_cast<Fn>(address);
  return true;
}

} // namespace

bool Driver::load(std::string &error) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    error = "no CUDA driver found (libcuda.so.1)";
    return false;
  }
  cuTensorMapEncodeTiled = reinterpret_cast<decltype(cuTensorMapEncodeTiled)>(
      dlsym(library, "cuTensorMapEncodeTiled"));
  cuLaunchKernelEx = reinterpret_cast<decltype(cuLaunchKernelEx)>(
      dlsym(library, "cuLaunchKernelEx"));
  cuOccupancyMaxActiveBlocksPerMultiprocessor =
      reinterpret_cast<decltype(cuOccupancyMaxActiveBlocksPerMultiprocessor)>(
          dlsym(library, "cuOccupancyMaxActiveBlocksPerMultiprocessor"));
  // The _v2 names are the 64-bit-size versions that cuda.h maps the plain
  // names to; the plain symbols are the legacy 32-bit ABI.
  return resolve(library, "cuInit", cuInit, error) &&
         resolve(library, "cuDriverGetVersion", cuDriverGetVersion, error) &&
         resolve(library, "cuDeviceGetCount", cuDeviceGetCount, error) &&
         resolve(library, "cuDeviceGet", cuDeviceGet, error) &&
         resolve(library, "cuDeviceGetAttribute", cuDeviceGetAttribute,
                 error) &&
         resolve(library, "cuDeviceGetName", cuDeviceGetName, error) &&
         resolve(library, "cuCtxCreate_v2", cuCtxCreate, error) &&
         resolve(library, "cuCtxDestroy_v2", cuCtxDestroy, error) &&
         resolve(library, "cuCtxSynchronize", cuCtxSynchronize, error) &&
         resolve(library, "cuMemAlloc_v2", cuMemAlloc, error) &&
         resolve(library, "cuMemFree_v2", cuMemFree, error) &&
         resolve(library, "cuMemcpyHtoD_v2", cuMemcpyHtoD, error) &&
         resolve(library, "cuMemcpyDtoH_v2", cuMemcpyDtoH, error) &&
         resolve(library, "cuMemcpyDtoDAsync_v2", cuMemcpyDtoDAsync, error) &&
         resolve(library, "cuMemsetD8_v2", cuMemsetD8, error) &&
         resolve(library, "cuMemsetD8Async", cuMemsetD8Async, error) &&
         resolve(library, "cuModuleLoadDataEx", cuModuleLoadDataEx, error) &&
         resolve(library, "cuModuleUnload", cuModuleUnload, error) &&
         resolve(library, "cuModuleGetFunction", cuModuleGetFunction, error) &&
         resolve(library, "cuFuncGetAttribute", cuFuncGetAttribute, error) &&
         resolve(library, "cuFuncSetAttribute", cuFuncSetAttribute, error) &&
         resolve(library, "cuLaunchKernel", cuLaunchKernel, error) &&
         resolve(library, "cuEventCreate", cuEventCreate, error) &&
         resolve(library, "cuEventDestroy_v2", cuEventDestroy, error) &&
         resolve(library, "cuEventRecord", cuEventRecord, error) &&
         resolve(library, "cuEventSynchronize", cuEventSynchronize, error) &&
         resolve(library, "cuEventElapsedTime", cuEventElapsedTime, error) &&
         resolve(library, "cuGetErrorString", cuGetErrorString, error) &&
         resolve(library, "cuGetErrorName", cuGetErrorName, error);
}

std::string Driver::describe(const char *call, CUresult result) const {
  const char *text = nullptr, *errorName = nullptr;
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "unknown error";
  if (cuGetErrorName(result, &errorName) != CUDA_SUCCESS || !errorName)
    errorName = "?";
  return std::string(call) + ": " + text + " (" + errorName + " = " +
         std::to_string(result) + ")";
}
