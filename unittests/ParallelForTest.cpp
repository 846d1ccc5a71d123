//===- ParallelForTest.cpp - sharing independent elements among threads ---===//
//
// parallelFor must call its body on ranges that cover every element exactly
// once, whatever the element count, grain and thread count, and run the
// whole range on the caller's thread when there is too little work to
// share.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/ParallelFor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace nvfp4;

TEST(ParallelFor, EveryElementExactlyOnce) {
  for (int64_t n : {1, 2, 3, 7, 64, 1000, 4097})
    for (int64_t grain : {1, 3, 100})
      for (unsigned threads : {0u, 1u, 2u, 5u, 16u}) {
        SCOPED_TRACE(::testing::Message() << "n " << n << " grain " << grain
                                          << " threads " << threads);
        std::vector<std::atomic<int>> seen(n);
        parallelFor(
            n, grain,
            [&](int64_t begin, int64_t end) {
              ASSERT_LT(begin, end);
              for (int64_t i = begin; i < end; ++i)
                seen[i].fetch_add(1);
            },
            threads);
        for (int64_t i = 0; i < n; ++i)
          ASSERT_EQ(seen[i].load(), 1) << "element " << i;
      }
}

TEST(ParallelFor, SharesWorkAmongThreads) {
  std::mutex mutex;
  std::set<std::thread::id> ids;
  std::atomic<int> calls{0};
  parallelFor(
      4000, 100,
      [&](int64_t, int64_t) {
        ++calls;
        std::lock_guard<std::mutex> lock(mutex);
        ids.insert(std::this_thread::get_id());
      },
      4);
  EXPECT_EQ(calls.load(), 4);
  EXPECT_EQ(ids.size(), 4u);
}

TEST(ParallelFor, LittleWorkStaysOnTheCallersThread) {
  std::thread::id caller = std::this_thread::get_id();
  int calls = 0;
  parallelFor(
      150, 100,
      [&](int64_t begin, int64_t end) {
        ++calls;
        EXPECT_EQ(std::this_thread::get_id(), caller);
        EXPECT_EQ(begin, 0);
        EXPECT_EQ(end, 150);
      },
      8);
  EXPECT_EQ(calls, 1);
  parallelFor(
      0, 1, [&](int64_t, int64_t) { ++calls; }, 8);
  EXPECT_EQ(calls, 1);
}
