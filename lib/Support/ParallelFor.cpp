//===- ParallelFor.cpp - independent elements on every host core ----------===//

#include "nvfp4/Support/ParallelFor.h"

#include <algorithm>
#include <thread>
#include <vector>

void nvfp4::parallelFor(int64_t n, int64_t grain,
                        const std::function<void(int64_t, int64_t)> &body,
                        unsigned threads) {
  if (n <= 0)
    return;
  grain = std::max<int64_t>(grain, 1);
  if (!threads)
    threads = std::max(1u, std::thread::hardware_concurrency());
  int64_t workers = std::min<int64_t>(threads, n / grain);
  if (workers < 2) {
    body(0, n);
    return;
  }
  // One contiguous range a worker, the caller's thread taking the first.
  int64_t per = (n + workers - 1) / workers;
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (int64_t w = 1; w < workers && w * per < n; ++w)
    pool.emplace_back(body, w * per, std::min(n, (w + 1) * per));
  body(0, std::min(n, per));
  for (std::thread &t : pool)
    t.join();
}
