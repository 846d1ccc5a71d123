// read_once: the read-once ceiling of docs/problem.md, measured under the
// protocol of nvfp4-run --bench (cold L2 before every repetition, events
// around the kernel alone, median).
//
//   read_once [--flush clean|dirty] [--reps N] BYTES...
//
// For each size, a kernel that only streams BYTES once with 16-byte
// ld.global.nc.L1::no_allocate loads is timed in every launch shape of the
// sweep (threads per CTA x CTAs per SM x independent loads in flight per
// thread, and grids of one pass: as many CTAs as it takes for every thread
// to issue its loads once, no loop); the best median is printed as "BYTES
// MICROSECONDS CONFIG".
#include "cold_timer.cuh"

#include <cstring>
#include <string>

template <int Loads>
__global__ void readOnce(const uint4 *data, size_t n, unsigned *sink) {
  size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (; i + (Loads - 1) * stride < n; i += Loads * stride) {
    uint4 v[Loads];
#pragma unroll
    for (int u = 0; u < Loads; ++u)
      v[u] = streamLoad(data + i + u * stride);
#pragma unroll
    for (int u = 0; u < Loads; ++u)
      acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n; i += stride) {
    uint4 v = streamLoad(data + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u)
    *sink = acc;
}

using Kernel = void (*)(const uint4 *, size_t, unsigned *);

int main(int argc, char **argv) {
  bool clean = true;
  int reps = 100;
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--flush") && i + 1 < argc) {
      clean = !strcmp(argv[++i], "clean");
    } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else {
      sizes.push_back(strtoull(argv[i], nullptr, 10));
    }
  }
  if (sizes.empty() || reps < 10) {
    fprintf(stderr, "usage: read_once [--flush clean|dirty] [--reps N>=10] "
                    "BYTES...\n");
    return 2;
  }
  ColdTimer timer(clean);
  int sms = timer.smCount();
  size_t maxBytes = *std::max_element(sizes.begin(), sizes.end());
  uint4 *data;
  CHECK(cudaMalloc(&data, maxBytes + 16));
  CHECK(cudaMemset(data, 1, maxBytes + 16));
  Kernel kernels[] = {readOnce<1>, readOnce<2>, readOnce<4>, readOnce<8>};
  int loadCounts[] = {1, 2, 4, 8};
  int threadCounts[] = {256, 512, 1024};
  int ctasPerSm[] = {0, 1, 2, 4, 8, 16};

  auto median = [&](Kernel k, int grid, int threads, size_t n16, int count) {
    return timer.median(
        count, [&] { k<<<grid, threads>>>(data, n16, timer.sinkWord()); });
  };

  printf("# read_once: %d SMs, flush %s, median of %d\n", sms,
         clean ? "clean" : "dirty", reps);
  for (size_t bytes : sizes) {
    size_t n16 = (bytes + 15) / 16;
    double best = 1e30;
    std::string bestName;
    Kernel bestKernel = nullptr;
    int bestGrid = 0, bestThreads = 0;
    for (int li = 0; li < 4; ++li)
      for (int threads : threadCounts)
        for (int per : ctasPerSm) {
          if (threads * per > 2048)
            continue;
          int grid = sms * per;
          // per = 0: one pass (the GEMV kernels' launch shape when a
          // thread's loads cover its rows at once).
          if (per == 0) {
            size_t perCta = size_t(threads) * loadCounts[li];
            if ((n16 + perCta - 1) / perCta > 0x7fffffff)
              continue;
            grid = int((n16 + perCta - 1) / perCta);
          }
          // Screen with a short run, confirm the best with the full one.
          double t = median(kernels[li], grid, threads, n16, 15);
          if (t < best) {
            best = t;
            bestKernel = kernels[li];
            bestGrid = grid;
            bestThreads = threads;
            bestName = std::to_string(grid) + "x" + std::to_string(threads) +
                       "/loads" + std::to_string(loadCounts[li]);
          }
        }
    double t = median(bestKernel, bestGrid, bestThreads, n16, reps);
    printf("%zu %.3f %s\n", bytes, t, bestName.c_str());
    fflush(stdout);
  }
  CHECK(cudaGetLastError());
  return 0;
}
