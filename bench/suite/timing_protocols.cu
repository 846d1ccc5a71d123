// timing_protocols: the same kernels timed under four variants of the
// cold-L2 protocol, to see what the protocol itself adds:
//
//   timing_protocols [PTX@GRIDX,GRIDY,THREADS]...
//
// The flush is either kernels (a write kernel, then a read kernel) or
// nvfp4-run's (a memset, then its read-back kernel); each repetition is
// either waited for before the next flush is queued ("sync") or everything
// is queued and waited for once ("queued"). Timed: one 16-byte load of 32
// threads, an 8.26 MB one-pass read, and each generated one-vector GEMV
// given (its PTX, its manifest's grid and block; called with a, sfa, b, sfb,
// c and alpha = 1 on buffers of 32 MiB, 4 MiB and 1 MiB x 3, all bytes
// 0x11: times only, no result is checked). Every table twice.
#include "cold_timer.cuh"

#include <cuda.h>

#include <fstream>
#include <sstream>
#include <string>

__global__ void loadOne(const uint4 *a, unsigned *sink) {
  uint4 v = streamLoad(a + threadIdx.x);
  if ((v.x ^ v.y) == 0x9e3779b9u)
    *sink = v.x;
}

__global__ void readOnePass(const uint4 *data, size_t n, unsigned *sink) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint4 v = streamLoad(data + i);
  if ((v.x ^ v.y ^ v.z ^ v.w) == 0x9e3779b9u)
    *sink = v.x;
}

__global__ void writeAll(unsigned *buf, size_t n, unsigned v) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    buf[i] = v + unsigned(i);
}

__global__ void readAll(const unsigned *buf, size_t n, unsigned *sink) {
  unsigned acc = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    acc ^= buf[i];
  if (acc == 0x12345678u)
    *sink = acc;
}

struct Generated {
  std::string name;
  CUfunction function;
  int grid[2], threads;
};

int main(int argc, char **argv) {
  constexpr int kReps = 100, kWarmups = 10;
  ColdTimer timer(true); // its memset flush's buffer and read-back kernel
  int sms = timer.smCount();
  int l2 = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  // The kernel flush writes and reads a buffer of nvfp4-run's size.
  size_t flushBytes = nvfp4::run::flushBufferBytes(l2);
  unsigned *flush;
  CHECK(cudaMalloc(&flush, flushBytes));
  void *buffers[5];
  size_t sizes[5] = {32u << 20, 4u << 20, 1u << 20, 1u << 20, 1u << 20};
  for (int i = 0; i < 5; ++i) {
    CHECK(cudaMalloc(&buffers[i], sizes[i]));
    CHECK(cudaMemset(buffers[i], 0x11, sizes[i]));
  }
  std::vector<Generated> kernels;
  for (int i = 1; i < argc; ++i) {
    std::string spec = argv[i];
    size_t at = spec.find('@');
    Generated k{};
    if (at == std::string::npos ||
        sscanf(spec.c_str() + at + 1, "%d,%d,%d", &k.grid[0], &k.grid[1],
               &k.threads) != 3) {
      fprintf(stderr,
              "timing_protocols: expected PTX@GRIDX,GRIDY,THREADS, "
              "got '%s'\n",
              argv[i]);
      return 2;
    }
    std::string path = spec.substr(0, at);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    CUmodule module;
    k.name = path.substr(path.rfind('/') + 1);
    k.name = k.name.substr(0, k.name.rfind('.'));
    if (!in || cuModuleLoadData(&module, text.str().c_str()) ||
        cuModuleGetFunction(&k.function, module, k.name.c_str())) {
      fprintf(stderr, "timing_protocols: cannot load kernel %s from %s\n",
              k.name.c_str(), path.c_str());
      return 1;
    }
    kernels.push_back(k);
  }

  // mode bit 0: nvfp4-run's flush; bit 1: queued.
  auto median = [&](int mode, auto launch) {
    std::vector<cudaEvent_t> starts(kReps + kWarmups), stops(kReps + kWarmups);
    for (int r = 0; r < kReps + kWarmups; ++r) {
      CHECK(cudaEventCreate(&starts[r]));
      CHECK(cudaEventCreate(&stops[r]));
    }
    for (int r = 0; r < kReps + kWarmups; ++r) {
      if (mode & 1) {
        timer.flushL2(r);
      } else {
        writeAll<<<sms * 4, 1024>>>(flush, flushBytes / 4, 7 + r);
        readAll<<<sms * 4, 1024>>>(flush, flushBytes / 4, timer.sinkWord());
      }
      CHECK(cudaEventRecord(starts[r]));
      launch();
      CHECK(cudaEventRecord(stops[r]));
      if (!(mode & 2))
        CHECK(cudaEventSynchronize(stops[r]));
    }
    CHECK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int r = kWarmups; r < kReps + kWarmups; ++r) {
      float ms;
      CHECK(cudaEventElapsedTime(&ms, starts[r], stops[r]));
      t.push_back(ms * 1000.0);
    }
    for (int r = 0; r < kReps + kWarmups; ++r) {
      CHECK(cudaEventDestroy(starts[r]));
      CHECK(cudaEventDestroy(stops[r]));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };

  const char *modes[] = {"kernel flush, sync", "nvfp4-run flush, sync",
                         "kernel flush, queued", "nvfp4-run flush, queued"};
  const uint4 *a = static_cast<const uint4 *>(buffers[0]);
  size_t readWords = 8258688 / 16;
  for (int pass = 0; pass < 2; ++pass)
    for (int mode = 0; mode < 4; ++mode) {
      printf("# %s (pass %d), median of %d, us\n", modes[mode], pass, kReps);
      printf("  %-44s %.3f\n", "one load, 32 threads",
             median(mode, [&] { loadOne<<<1, 32>>>(a, timer.sinkWord()); }));
      printf("  %-44s %.3f\n", "8.26 MB read, one pass of 256",
             median(mode, [&] {
               readOnePass<<<(readWords + 255) / 256, 256>>>(a, readWords,
                                                             timer.sinkWord());
             }));
      for (Generated &k : kernels) {
        float alpha = 1.0f;
        CUdeviceptr p[5];
        for (int i = 0; i < 5; ++i)
          p[i] = reinterpret_cast<CUdeviceptr>(buffers[i]);
        void *args[] = {&p[0], &p[1], &p[2], &p[3], &p[4], &alpha};
        printf("  %-44s %.3f\n", k.name.c_str(), median(mode, [&] {
                 cuLaunchKernel(k.function, k.grid[0], k.grid[1], 1, k.threads,
                                1, 1, 0, nullptr, args, nullptr);
               }));
      }
      fflush(stdout);
    }
  return 0;
}
