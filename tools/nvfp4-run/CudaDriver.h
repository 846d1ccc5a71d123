//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// nvfp4-run links no CUDA library: it dlopens libcuda.so.1 so that it builds
// on machines without the toolkit and fails with one clear line on machines
// without a driver. Only the handful of declarations used are written here.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_CUDADRIVER_H
#define NVFP4_RUN_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace nvfp4::run::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;

// CUdevice_attribute values.
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute values.
inline constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
inline constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUjit_option values.
inline constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// cuTensorMapEncodeTiled's enumerations: CUtensorMapDataType,
// CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion and
// CUtensorMapFloatOOBfill values.
inline constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0;
inline constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1;
inline constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2;
inline constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT64 = 4;
inline constexpr int CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
inline constexpr int CU_TENSOR_MAP_SWIZZLE_NONE = 0;
inline constexpr int CU_TENSOR_MAP_SWIZZLE_32B = 1;
inline constexpr int CU_TENSOR_MAP_SWIZZLE_64B = 2;
inline constexpr int CU_TENSOR_MAP_SWIZZLE_128B = 3;
inline constexpr int CU_TENSOR_MAP_L2_PROMOTION_NONE = 0;
inline constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_64B = 1;
inline constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2;
inline constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3;
inline constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;
inline constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1;

/// The opaque tensor map the driver encodes: 128 bytes, 64-byte aligned.
struct alignas(64) CUtensorMap {
  uint64_t opaque[16];
};

// CUlaunchAttributeID values.
inline constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

/// CUlaunchAttribute_st of cuda.h: the id, padding to 8 bytes, then the
/// 64-byte CUlaunchAttributeValue union, of which only the member used here
/// (programmaticStreamSerializationAllowed, an int at its start) is named.
struct CUlaunchAttribute {
  int32_t id = 0;
  char pad[4] = {};
  union Value {
    int programmaticStreamSerializationAllowed;
    char pad[64];
  } value{};
};
static_assert(sizeof(CUlaunchAttribute) == 72, "cuda.h: 72-byte attribute");
static_assert(offsetof(CUlaunchAttribute, value) == 8,
              "cuda.h: the value follows the id padded to 8 bytes");
static_assert(sizeof(CUlaunchAttribute::Value) == 64,
              "cuda.h: CUlaunchAttributeValue is 64 bytes");

/// CUlaunchConfig_st of cuda.h.
struct CUlaunchConfig {
  unsigned gridDimX = 1, gridDimY = 1, gridDimZ = 1;
  unsigned blockDimX = 1, blockDimY = 1, blockDimZ = 1;
  unsigned sharedMemBytes = 0;
  CUstream hStream = nullptr;
  CUlaunchAttribute *attrs = nullptr;
  unsigned numAttrs = 0;
};
static_assert(offsetof(CUlaunchConfig, sharedMemBytes) == 24, "cuda.h");
static_assert(offsetof(CUlaunchConfig, hStream) == 32, "cuda.h");
static_assert(offsetof(CUlaunchConfig, attrs) == 40, "cuda.h");
static_assert(offsetof(CUlaunchConfig, numAttrs) == 48, "cuda.h");
static_assert(sizeof(CUlaunchConfig) == 56, "cuda.h: 56-byte config");

/// The driver entry points nvfp4-run uses, named without their ABI version
/// suffix; `load` resolves each from the symbol the driver exports.
struct Driver {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute,
                                   CUdevice device) = nullptr;
  CUresult (*cuDeviceGetName)(char *name, int length,
                              CUdevice device) = nullptr;
  CUresult (*cuCtxCreate)(CUcontext *context, unsigned flags,
                          CUdevice device) = nullptr;
  CUresult (*cuCtxDestroy)(CUcontext context) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr ptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src,
                           size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value,
                         size_t count) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value,
                              size_t count, CUstream stream) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **optionValues) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name) = nullptr;
  CUresult (*cuFuncGetAttribute)(int *value, int attribute,
                                 CUfunction function) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute,
                                 int value) = nullptr;
  /// CTAs of `blockSize` threads an SM holds at once. Null leaves the
  /// report's residency and waves unknown.
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(
      int *blocks, CUfunction function, int blockSize,
      size_t dynamicSharedBytes) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, CUstream stream,
                             void **params, void **extra) = nullptr;
  /// Null when the driver predates it (CUDA 12.0); only --pdl needs it.
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *config,
                               CUfunction function, void **params,
                               void **extra) = nullptr;
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start,
                                 CUevent end) = nullptr;
  /// Null when the driver predates tensor maps (CUDA 12); only kernels
  /// that take one need it.
  CUresult (*cuTensorMapEncodeTiled)(
      CUtensorMap *map, int dataType, uint32_t rank, void *globalAddress,
      const uint64_t *globalDim, const uint64_t *globalStrides,
      const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
      int swizzle, int l2Promotion, int oobFill) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char **text) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char **text) = nullptr;

  /// Opens libcuda.so.1 and resolves every entry point. On failure returns
  /// false and sets `error` to one line (without the "nvfp4-run: error: "
  /// prefix).
  bool load(std::string &error);

  /// "CALL: <driver's description> (<CUDA_ERROR_NAME>)" for a failed call.
  std::string describe(const char *call, CUresult result) const;
};

} // namespace nvfp4::run::cuda

#endif // NVFP4_RUN_CUDADRIVER_H
