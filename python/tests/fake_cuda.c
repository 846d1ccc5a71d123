// A stand-in for libcuda.so.1 with the calls the nvfp4 package makes, so
// that its ctypes declarations and argument marshalling are exercised
// without a GPU. It records the last launch for the test to read back.
#include <stdint.h>
#include <string.h>

typedef int CUresult;

unsigned fake_grid[3], fake_block[3], fake_shared;
uint64_t fake_stream, fake_args[8];
int fake_arg_bytes[8] = {8, 8, 8, 8, 8, 8, 8, 8};
int fake_param_count = 0;
int fake_launches, fake_context_switches, fake_initialised;
static void *current;

CUresult cuInit(unsigned flags) { return fake_initialised = 1, 0; }
CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *device = 7;
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  *value = attribute == 75 ? 9 : attribute == 76 ? 0 : -1;
  return 0;
}
CUresult cuDeviceGetName(char *name, int length, int device) {
  strncpy(name, "Fake GPU", length);
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  *context = (void *)0x1234;
  return 0;
}
CUresult cuCtxGetCurrent(void **context) { return *context = current, 0; }
CUresult cuCtxSetCurrent(void *context) {
  ++fake_context_switches;
  current = context;
  return 0;
}
CUresult cuModuleLoadDataEx(void **module, const char *image, unsigned count,
                            int *options, void **values) {
  if (!strstr(image, "//bad")) {
    *module = (void *)0x2000;
    return 0;
  }
  for (unsigned i = 0; i < count; ++i)
    if (options[i] == 5) // CU_JIT_ERROR_LOG_BUFFER
      strcpy((char *)values[i], "ptxas fatal :\n  bad input");
  return 218; // CUDA_ERROR_INVALID_PTX
}
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  *function = (void *)0x3000;
  return 0;
}
CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
  return *value = 40, 0;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  return 0;
}
CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  if (current != (void *)0x1234)
    return 201; // CUDA_ERROR_INVALID_CONTEXT
  fake_grid[0] = gx, fake_grid[1] = gy, fake_grid[2] = gz;
  fake_block[0] = bx, fake_block[1] = by, fake_block[2] = bz;
  fake_shared = shared;
  fake_stream = (uint64_t)(uintptr_t)stream;
  for (int i = 0; i < fake_param_count; ++i)
    memcpy(&fake_args[i], params[i], fake_arg_bytes[i]);
  ++fake_launches;
  return 0;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == 218 ? "a PTX JIT compilation failed" : "fake error";
  return 0;
}
CUresult cuGetErrorName(CUresult error, const char **text) {
  *text = error == 218 ? "CUDA_ERROR_INVALID_PTX" : "CUDA_ERROR_FAKE";
  return 0;
}
