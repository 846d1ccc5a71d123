// The timing protocol of nvfp4-run --bench (docs/nvfp4-run.md) for the
// suite's stand-alone CUDA tools (read_once, gemv_anatomy): the same flush
// (its buffer, memset, and for a clean flush nvfp4-run's read-back kernel)
// before every repetition, CUDA events around the kernel alone, each
// repetition finished before the next is queued, the median.
#ifndef NVFP4_BENCH_SUITE_COLD_TIMER_CUH
#define NVFP4_BENCH_SUITE_COLD_TIMER_CUH

#include "../../tools/nvfp4-run/FlushKernel.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#define CHECK(x) checkCuda((x), #x)

inline void checkCuda(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return;
  fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

/// A 16-byte load through the non-coherent path without L1 allocation, as
/// the generated kernels load a.
__device__ __forceinline__ uint4 streamLoad(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

class ColdTimer {
public:
  explicit ColdTimer(bool clean) : clean(clean) {
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    flushBytes = nvfp4::run::flushBufferBytes(l2);
    CHECK(cudaMalloc(&sink, 4));
    CHECK(cudaMalloc(&flush, flushBytes));
    CHECK(cudaLibraryLoadData(&library, nvfp4::run::kL2ReadPtx, nullptr,
                              nullptr, 0, nullptr, nullptr, 0));
    CHECK(cudaLibraryGetKernel(&readBack, library, nvfp4::run::kL2ReadKernel));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
  }
  int smCount() const { return sms; }
  /// A word kernels may write when a value they computed must not be
  /// optimised away.
  unsigned *sinkWord() const { return sink; }

  /// Median over `reps` launches of `launch()`, each after a flush, in
  /// microseconds.
  template <class Launch> double median(int reps, Launch launch) {
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      flushL2(r);
      CHECK(cudaEventRecord(start));
      launch();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      t.push_back(ms * 1000.0);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }

  /// nvfp4-run's flush (repetition r's memset value).
  void flushL2(int r) {
    CHECK(cudaMemsetAsync(flush, r & 0xff, flushBytes));
    if (!clean)
      return;
    unsigned long long words = flushBytes / 16;
    void *args[] = {&flush, &words, &sink};
    CHECK(cudaLaunchKernel((const void *)readBack,
                           dim3(nvfp4::run::kL2ReadCtasPerSM * sms),
                           dim3(nvfp4::run::kL2ReadThreads), args, 0, 0));
  }

private:
  bool clean;
  int sms = 0;
  size_t flushBytes = 0;
  unsigned *sink = nullptr;
  void *flush = nullptr;
  cudaLibrary_t library = nullptr;
  cudaKernel_t readBack = nullptr;
  cudaEvent_t start, stop;
};

/// The command line of the tools that take shapes: [--flush clean|dirty]
/// [--reps N] [--one-allocation] [OWN] MxK..., each shape accepted by
/// `valid(m, k)`; anything else ends the program with a one-line message
/// (`rule` says what a shape must be) and status 2.
struct ShapeArgs {
  bool clean = true;
  int reps = 100;
  /// Every operand of a shape carved from one allocation (adjacent pages),
  /// instead of one allocation each.
  bool oneAllocation = false;
  std::vector<std::pair<long, long>> shapes;
};

/// A tool's own option `--name V`, V one of `allowed`; `value` holds the
/// default until the command line is read, which is done before any shape
/// is validated (a shape's rule may depend on it).
struct OwnOption {
  const char *name;
  std::vector<int> allowed;
  int value;
};

template <class Valid>
ShapeArgs parseShapeArgs(int argc, char **argv, const char *tool,
                         const char *rule, Valid valid,
                         OwnOption *own = nullptr) {
  std::string ownUsage;
  if (own) {
    std::string choices;
    for (int v : own->allowed)
      choices += (choices.empty() ? "" : "|") + std::to_string(v);
    ownUsage = std::string(" [") + own->name + " " + choices + "]";
    for (int i = 1; i + 1 < argc; ++i) {
      if (strcmp(argv[i], own->name))
        continue;
      own->value = atoi(argv[i + 1]);
      if (std::find(own->allowed.begin(), own->allowed.end(), own->value) ==
          own->allowed.end()) {
        fprintf(stderr, "%s: %s must be %s\n", tool, own->name,
                choices.c_str());
        exit(2);
      }
    }
  }
  ShapeArgs args;
  for (int i = 1; i < argc; ++i) {
    long m, k;
    char rest;
    if (!strcmp(argv[i], "--flush") && i + 1 < argc) {
      args.clean = !strcmp(argv[++i], "clean");
    } else if (!strcmp(argv[i], "--one-allocation")) {
      args.oneAllocation = true;
    } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      args.reps = atoi(argv[++i]);
    } else if (own && !strcmp(argv[i], own->name) && i + 1 < argc) {
      ++i; // read above
    } else if (sscanf(argv[i], "%ldx%ld%c", &m, &k, &rest) == 2 && m > 0 &&
               valid(m, k)) {
      args.shapes.push_back({m, k});
    } else {
      fprintf(stderr, "%s: '%s' is not MxK with %s\n", tool, argv[i], rule);
      exit(2);
    }
  }
  if (args.shapes.empty() || args.reps < 10) {
    fprintf(stderr,
            "usage: %s [--flush clean|dirty] [--reps N>=10] "
            "[--one-allocation]%s MxK...\n",
            tool, ownUsage.c_str());
    exit(2);
  }
  return args;
}

#endif // NVFP4_BENCH_SUITE_COLD_TIMER_CUH
