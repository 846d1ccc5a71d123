//===- RunnerFakeDriver.h - A CUDA driver without a GPU ---------*- C++ -*-===//
//
// A stand-in driver whose device memory is host memory and whose kernel
// launches call a C++ function with the launch's parameters, so that
// Runner::run is tested without a GPU. Tests point `device` at their
// FakeDevice.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_UNITTESTS_RUNNERFAKEDRIVER_H
#define NVFP4_UNITTESTS_RUNNERFAKEDRIVER_H

#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/FlushKernel.h"

#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nvfp4::run::test {

using namespace nvfp4::run::cuda;

inline constexpr CUresult kInvalidValue = 1; // CUDA_ERROR_INVALID_VALUE

/// One launch of the kernel under test, as the fake driver saw it.
struct LaunchRecord {
  bool ex = false; // through cuLaunchKernelEx
  unsigned numAttrs = 0;
  int attrId = -1, attrValue = -1;  // of the first attribute, when any
  std::array<unsigned, 6> dims{};   // grid x y z, block x y z
  std::vector<CUdeviceptr> buffers; // the pointer parameters, in order
};

/// The flush kernel's handle (the kernel under test's is null).
inline CUfunction const kFlushFunction =
    reinterpret_cast<CUfunction>(uintptr_t(1));

/// The stand-in device: allocations in host memory, keyed by address.
struct FakeDevice {
  std::vector<LaunchRecord> records;
  /// The parameters of the kernel under test that are buffer pointers.
  std::vector<bool> pointerParams;
  std::map<CUdeviceptr, std::unique_ptr<std::vector<uint8_t>>> memory;
  std::vector<size_t> allocations; // sizes, in order
  /// The kernel: called with the launch's parameter array.
  std::function<void(void **)> kernel;
  int launches = 0;
  /// What the occupancy query answers (an error when negative), and the
  /// CTA size it was asked for.
  int residentCtas = 6;
  int occupancyBlockSize = 0;
  /// The dynamic shared memory the runner opted into, -1 before any.
  int dynamicSharedOptIn = -1;
  /// The order of --bench's calls: F flush (cuMemsetD8Async), E event
  /// recorded, L launch of the kernel under test, S event waited for.
  std::string trace;
};
inline FakeDevice *device = nullptr;

inline uint8_t *host(CUdeviceptr ptr) {
  return reinterpret_cast<uint8_t *>(ptr);
}

inline CUresult fakeLaunch(LaunchRecord &record, void **params) {
  for (size_t i = 0; i < device->pointerParams.size(); ++i)
    if (device->pointerParams[i])
      record.buffers.push_back(*static_cast<CUdeviceptr *>(params[i]));
  device->records.push_back(std::move(record));
  ++device->launches;
  device->trace += 'L';
  device->kernel(params);
  return CUDA_SUCCESS;
}

inline Driver fakeDriver() {
  Driver d;
  d.cuCtxCreate = [](CUcontext *context, unsigned, CUdevice) {
    *context = reinterpret_cast<CUcontext>(device);
    return CUDA_SUCCESS;
  };
  d.cuCtxDestroy = [](CUcontext) {
    device->memory.clear();
    return CUDA_SUCCESS;
  };
  d.cuCtxSynchronize = [] { return CUDA_SUCCESS; };
  d.cuMemAlloc = [](CUdeviceptr *ptr, size_t bytes) {
    // As the driver: an allocation of 0 bytes is an invalid value.
    if (bytes == 0)
      return kInvalidValue;
    auto buffer = std::make_unique<std::vector<uint8_t>>(bytes);
    *ptr = reinterpret_cast<CUdeviceptr>(buffer->data());
    device->memory[*ptr] = std::move(buffer);
    device->allocations.push_back(bytes);
    return CUDA_SUCCESS;
  };
  d.cuMemFree = [](CUdeviceptr ptr) {
    device->memory.erase(ptr);
    return CUDA_SUCCESS;
  };
  d.cuMemcpyHtoD = [](CUdeviceptr dst, const void *src, size_t bytes) {
    std::memcpy(host(dst), src, bytes);
    return CUDA_SUCCESS;
  };
  d.cuMemcpyDtoH = [](void *dst, CUdeviceptr src, size_t bytes) {
    std::memcpy(dst, host(src), bytes);
    return CUDA_SUCCESS;
  };
  d.cuMemsetD8 = [](CUdeviceptr dst, unsigned char value, size_t count) {
    std::memset(host(dst), value, count);
    return CUDA_SUCCESS;
  };
  d.cuModuleLoadDataEx = [](CUmodule *module, const void *, unsigned, int *,
                            void **) {
    *module = nullptr;
    return CUDA_SUCCESS;
  };
  d.cuModuleGetFunction = [](CUfunction *function, CUmodule, const char *name) {
    *function = std::string(name) == kL2ReadKernel ? kFlushFunction : nullptr;
    return CUDA_SUCCESS;
  };
  d.cuFuncGetAttribute = [](int *value, int, CUfunction) {
    *value = 0;
    return CUDA_SUCCESS;
  };
  d.cuFuncSetAttribute = [](CUfunction, int attribute, int value) {
    if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
      device->dynamicSharedOptIn = value;
    return CUDA_SUCCESS;
  };
  d.cuOccupancyMaxActiveBlocksPerMultiprocessor = [](int *blocks, CUfunction,
                                                     int blockSize, size_t) {
    device->occupancyBlockSize = blockSize;
    if (device->residentCtas < 0)
      return CUDA_ERROR_INVALID_VALUE;
    *blocks = device->residentCtas;
    return CUDA_SUCCESS;
  };
  d.cuLaunchKernel = [](CUfunction function, unsigned gx, unsigned gy,
                        unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned, CUstream, void **params, void **) {
    if (function == kFlushFunction)
      return CUDA_SUCCESS;
    LaunchRecord record;
    record.dims = {gx, gy, gz, bx, by, bz};
    return fakeLaunch(record, params);
  };
  d.cuLaunchKernelEx = [](const CUlaunchConfig *config, CUfunction function,
                          void **params, void **) {
    if (function == kFlushFunction)
      return kInvalidValue;
    LaunchRecord record;
    record.ex = true;
    record.numAttrs = config->numAttrs;
    if (config->numAttrs > 0) {
      record.attrId = config->attrs[0].id;
      record.attrValue =
          config->attrs[0].value.programmaticStreamSerializationAllowed;
    }
    record.dims = {config->gridDimX,  config->gridDimY,  config->gridDimZ,
                   config->blockDimX, config->blockDimY, config->blockDimZ};
    return fakeLaunch(record, params);
  };
  // What --bench uses besides: asynchronous fills, events of 1 ms.
  d.cuMemsetD8Async = [](CUdeviceptr, unsigned char, size_t, CUstream) {
    device->trace += 'F';
    return CUDA_SUCCESS; // the flush buffer only: its contents do not matter
  };
  d.cuEventCreate = [](CUevent *event, unsigned) {
    *event = nullptr;
    return CUDA_SUCCESS;
  };
  d.cuEventDestroy = [](CUevent) { return CUDA_SUCCESS; };
  d.cuEventRecord = [](CUevent, CUstream) {
    device->trace += 'E';
    return CUDA_SUCCESS;
  };
  d.cuEventSynchronize = [](CUevent) {
    device->trace += 'S';
    return CUDA_SUCCESS;
  };
  d.cuEventElapsedTime = [](float *ms, CUevent, CUevent) {
    *ms = 1;
    return CUDA_SUCCESS;
  };
  d.cuGetErrorString = [](CUresult, const char **text) {
    *text = "fake error";
    return CUDA_SUCCESS;
  };
  d.cuGetErrorName = [](CUresult, const char **text) {
    *text = "CUDA_ERROR_FAKE";
    return CUDA_SUCCESS;
  };
  return d;
}

} // namespace nvfp4::run::test

#endif // NVFP4_UNITTESTS_RUNNERFAKEDRIVER_H
