//===- HostSim.cpp - runs rewritten GPU kernels on the host ---------------===//
//
// The runtime of --convert-gpu-to-host-sim (the calls are declared in
// nvfp4/Runtime/HostSimABI.h). A launch runs its clusters of CTAs (one CTA
// each unless the kernel asks for more) one after the other; the threads of
// a cluster are ucontext fibers on small stacks, switched only at
// synchronisation points, so a barrier resumes when every live thread of the
// CTA reached it, a cluster barrier's wait when every live thread of the
// cluster arrived, and a shuffle when every lane of its mask did. Running whole
// clusters in sequence is enough for kernels whose CTAs wait only within
// their cluster; a grid-wide scheduler (for a "last CTA reduces" split-K
// polling a counter) would interleave clusters the same way threads are
// interleaved here.
//
// Anything the simulated hardware would leave undefined and a kernel could
// depend on is made loud: shared memory starts as 0xFF bytes (NaN as f32), a
// shuffle reading a lane outside its mask gets 0xFFFFFFFF, and a deadlock, a
// lane missing from a shuffle or disagreeing shuffles stop the launch with
// an error.
//
//===----------------------------------------------------------------------===//

#include "LoadTrace.h"

#include "nvfp4/Runtime/HostSimABI.h"
#include "nvfp4/Support/Chips.h"
#include "nvfp4/Support/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

using nvfp4::kWarpSize;

namespace {

constexpr size_t kStackBytes = 128 * 1024;

enum class State {
  Ready,
  AtBarrier,
  AtClusterWait,
  AtShuffle,
  AtMma,
  Done,
  Failed
};

struct ShuffleRequest {
  int32_t mode, mask, value, offset, clamp;
  int64_t result;
};

/// One lane's fragments of mma.sync.m16n8k16.row.col.f32.{f16,bf16}.f32
/// (f16 or bf16 pairs as bits, f32 accumulators as bits) and its results.
struct MmaRequest {
  uint32_t a[4], b[2], c[4];
  uint32_t d[4];
  bool bf16 = false;
};

struct Thread {
  ucontext_t context;
  int32_t tid[3];
  int32_t linear; // in its CTA
  int32_t cta;    // rank of its CTA in the cluster
  /// barrier.cluster.arrive calls so far, and the count a wait needs every
  /// live thread of the cluster to have reached.
  int32_t clusterArrivals = 0, clusterWaitFor = 0;
  State state = State::Ready;
  ShuffleRequest shuffle;
  MmaRequest mma;
  /// cp.async copies not yet performed: committed groups, oldest first,
  /// and the copies since the last commit.
  struct Copy {
    void *dst;
    const void *src;
    int32_t bytes;
  };
  std::deque<std::vector<Copy>> copyGroups;
  std::vector<Copy> openCopies;
  /// Its global loads while a trace is on, in order.
  std::vector<nvfp4::sim::LoadRecord> loads;
};

/// One fiber stack with a guard page below it, reused by every launch.
struct Stack {
  void *base = nullptr;
  size_t bytes = 0;
};
std::vector<Stack> stackPool;

void *stackFor(size_t index, size_t &bytes) {
  while (stackPool.size() <= index) {
    size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_t total = kStackBytes + page;
    void *mem = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
      return nullptr;
    mprotect(mem, page, PROT_NONE); // an overflow faults instead of corrupting
    stackPool.push_back({static_cast<char *>(mem) + page, kStackBytes});
  }
  bytes = stackPool[index].bytes;
  return stackPool[index].base;
}

struct Launch {
  Nvfp4SimEntry entry;
  void *args;
  int32_t grid[3], block[3];
  int32_t clusterX = 1;        // CTAs of a cluster, along x
  int32_t ctaid[3];            // of the cluster's first CTA
  int32_t ctaThreads = 0;      // threads of one CTA
  std::vector<Thread> threads; // every CTA's threads, CTA after CTA
  std::vector<std::vector<unsigned char>> shared; // one buffer a CTA
  ucontext_t scheduler;
  Thread *current = nullptr;
};

Launch *active = nullptr;
std::string firstError;
bool reverseOrder = false;
nvfp4::sim::LoadTrace loadTrace;

/// Hands the loads of every warp of the cluster that ran to the trace (a
/// CTA's last warp may be short).
void countLoads(Launch &l) {
  size_t ctaThreads = size_t(l.ctaThreads);
  std::vector<const std::vector<nvfp4::sim::LoadRecord> *> lanes;
  for (size_t cta = 0; cta < l.threads.size() / ctaThreads; ++cta)
    for (size_t first = 0; first < ctaThreads; first += kWarpSize) {
      lanes.clear();
      for (size_t i = first; i < std::min(first + kWarpSize, ctaThreads); ++i)
        lanes.push_back(&l.threads[cta * ctaThreads + i].loads);
      loadTrace.addWarp(lanes);
    }
  for (Thread &t : l.threads)
    t.loads.clear();
}

void fail(const std::string &message) {
  if (firstError.empty()) {
    firstError = message;
    std::fprintf(stderr, "nvfp4sim: error: %s\n", message.c_str());
  }
}

std::string where(const Launch &l, const Thread &t) {
  char text[128];
  std::snprintf(text, sizeof(text), "CTA (%d,%d,%d) thread (%d,%d,%d)",
                l.ctaid[0] + t.cta, l.ctaid[1], l.ctaid[2], t.tid[0], t.tid[1],
                t.tid[2]);
  return text;
}

/// Back to the scheduler; returns when the scheduler resumes this thread.
void yieldAs(State state) {
  Thread *self = active->current;
  self->state = state;
  swapcontext(&self->context, &active->scheduler);
}

void fiberMain() {
  active->entry(active->args);
  active->current->state = State::Done; // uc_link returns to the scheduler
}

/// PTX shfl.sync: the source lane of `lane` and whether it is in range.
int sourceLane(const ShuffleRequest &r, int lane, bool &valid) {
  int b = r.offset & 31, c = r.clamp & 31, segmask = (r.clamp >> 8) & 31;
  int maxLane = (lane & segmask) | (c & ~segmask);
  int minLane = lane & segmask;
  int j = lane;
  switch (r.mode) {
  case NVFP4SIM_SHFL_UP:
    j = lane - b;
    valid = j >= maxLane;
    break;
  case NVFP4SIM_SHFL_DOWN:
    j = lane + b;
    valid = j <= maxLane;
    break;
  case NVFP4SIM_SHFL_BFLY:
    j = lane ^ b;
    valid = j <= maxLane;
    break;
  default:
    j = minLane | (b & ~segmask);
    valid = j <= maxLane;
    break;
  }
  return valid ? j : lane;
}

class ClusterScheduler {
public:
  explicit ClusterScheduler(Launch &l)
      : l(l), live(l.clusterX, l.ctaThreads), atBarrier(l.clusterX, 0) {}

  bool run() {
    int count = static_cast<int>(l.threads.size());
    for (int i = 0; i < count; ++i) {
      Thread &t = l.threads[i];
      size_t bytes = 0;
      void *stack = stackFor(i, bytes);
      if (!stack) {
        fail("cannot allocate a fiber stack");
        return false;
      }
      getcontext(&t.context);
      t.context.uc_stack.ss_sp = stack;
      t.context.uc_stack.ss_size = bytes;
      t.context.uc_link = &l.scheduler;
      makecontext(&t.context, fiberMain, 0);
      t.state = State::Ready;
      t.clusterArrivals = t.clusterWaitFor = 0;
    }
    for (int i = 0; i < count; ++i)
      ready.push_back(&l.threads[reverseOrder ? count - 1 - i : i]);
    while (!ready.empty()) {
      Thread *t = ready.front();
      ready.pop_front();
      l.current = t;
      swapcontext(&l.scheduler, &t->context);
      if (!firstError.empty())
        return false;
      if (!settle(*t) || !releaseClusterWaitIfComplete())
        return false;
    }
    for (int cta = 0; cta < l.clusterX; ++cta)
      if (live[cta] != 0)
        return deadlock(cta);
    return true;
  }

private:
  Launch &l;
  std::deque<Thread *> ready;
  std::vector<int> live, atBarrier; // a CTA's

  bool settle(Thread &t) {
    switch (t.state) {
    case State::Done:
      --live[t.cta];
      return releaseBarrierIfComplete(t.cta) && checkShufflesAfterExit(t);
    case State::AtBarrier:
      ++atBarrier[t.cta];
      return releaseBarrierIfComplete(t.cta);
    case State::AtClusterWait:
      if (t.clusterWaitFor > t.clusterArrivals) {
        fail(where(l, t) + ": barrier.cluster.wait without an arrive before "
                           "it");
        return false;
      }
      return true;
    case State::AtShuffle:
      return resolveShuffle(t);
    case State::AtMma:
      return resolveMma(t);
    default:
      fail(where(l, t) + ": stopped in an unexpected state");
      return false;
    }
  }

  /// Exited threads do not hold a barrier back (bar.sync waits for the
  /// non-exited threads of the CTA).
  bool releaseBarrierIfComplete(int cta) {
    if (atBarrier[cta] == 0 || atBarrier[cta] != live[cta])
      return true;
    size_t count = l.threads.size();
    for (size_t i = 0; i < count; ++i) {
      Thread &t = l.threads[reverseOrder ? count - 1 - i : i];
      if (t.cta == cta && t.state == State::AtBarrier) {
        t.state = State::Ready;
        ready.push_back(&t);
      }
    }
    atBarrier[cta] = 0;
    return true;
  }

  /// barrier.cluster.wait returns once every non-exited thread of the
  /// cluster has arrived as often as the waiting thread had (arrivals do
  /// not stop a thread, so this is checked after every switch).
  bool releaseClusterWaitIfComplete() {
    int32_t phase = 0;
    for (const Thread &t : l.threads)
      if (t.state == State::AtClusterWait)
        phase = phase ? std::min(phase, t.clusterWaitFor) : t.clusterWaitFor;
    if (!phase)
      return true;
    for (const Thread &t : l.threads)
      if (t.state != State::Done && t.clusterArrivals < phase)
        return true;
    size_t count = l.threads.size();
    for (size_t i = 0; i < count; ++i) {
      Thread &t = l.threads[reverseOrder ? count - 1 - i : i];
      if (t.state == State::AtClusterWait && t.clusterWaitFor == phase) {
        t.state = State::Ready;
        ready.push_back(&t);
      }
    }
    return true;
  }

  /// Lane `lane` of warp `warp` of the CTA of `self`.
  Thread *laneThread(const Thread &self, int warp, int lane) {
    int i = warp * kWarpSize + lane;
    return i < l.ctaThreads ? &l.threads[size_t(self.cta) * l.ctaThreads + i]
                            : nullptr;
  }

  bool resolveShuffle(Thread &t) {
    int warp = t.linear / kWarpSize, lane = t.linear % kWarpSize;
    uint32_t mask = static_cast<uint32_t>(t.shuffle.mask);
    if (!(mask >> lane & 1)) {
      fail(where(l, t) + ": shfl.sync mask does not include the lane itself");
      return false;
    }
    for (int j = 0; j < kWarpSize; ++j) {
      if (!(mask >> j & 1))
        continue;
      Thread *other = laneThread(t, warp, j);
      if (!other || other->state == State::Done) {
        fail(where(l, t) + ": shfl.sync mask names lane " + std::to_string(j) +
             ", which " + (other ? "has exited" : "does not exist"));
        return false;
      }
      if (other->state != State::AtShuffle)
        return true; // not every lane is here yet
      if (other->shuffle.mask != t.shuffle.mask ||
          other->shuffle.mode != t.shuffle.mode) {
        fail(where(l, t) + ": lanes of a warp reached different shfl.sync "
                           "instructions");
        return false;
      }
    }
    for (int j = 0; j < kWarpSize; ++j) {
      if (!(mask >> j & 1))
        continue;
      Thread *dst = laneThread(t, warp, j);
      bool valid = false;
      int src = sourceLane(dst->shuffle, j, valid);
      uint32_t value =
          mask >> src & 1
              ? static_cast<uint32_t>(laneThread(t, warp, src)->shuffle.value)
              : 0xFFFFFFFFu; // undefined in PTX: make it loud
      dst->shuffle.result =
          static_cast<int64_t>(value) | (static_cast<int64_t>(valid) << 32);
    }
    for (int i = 0; i < kWarpSize; ++i) {
      int j = reverseOrder ? kWarpSize - 1 - i : i;
      if (mask >> j & 1) {
        Thread *dst = laneThread(t, warp, j);
        dst->state = State::Ready;
        ready.push_back(dst);
      }
    }
    return true;
  }

  /// mma.sync.aligned: once every lane of the warp is at it, each result
  /// is the float64 sum of its 16 exact products and its accumulator,
  /// rounded once to f32 (the hardware's order and rounding are
  /// unspecified; the checks hold any order to the same bound).
  bool resolveMma(Thread &t) {
    int warp = t.linear / kWarpSize;
    for (int j = 0; j < kWarpSize; ++j) {
      Thread *other = laneThread(t, warp, j);
      if (!other || other->state == State::Done) {
        fail(where(l, t) + ": mma.sync needs every lane of the warp; lane " +
             std::to_string(j) + (other ? " has exited" : " does not exist"));
        return false;
      }
      if (other->state != State::AtMma)
        return true;
    }
    bool bf16 = t.mma.bf16;
    for (int j = 0; j < kWarpSize; ++j)
      if (laneThread(t, warp, j)->mma.bf16 != bf16) {
        fail(where(l, t) + ": lanes of one mma.sync with f16 and bf16 "
                           "operands");
        return false;
      }
    auto half = [&](uint32_t pair, int i) {
      auto bits = static_cast<uint16_t>(pair >> (16 * i));
      return static_cast<double>(bf16 ? nvfp4::formats::decodeBF16(bits)
                                      : nvfp4::formats::decodeF16(bits));
    };
    // Fragment layouts of m16n8k16 (PTX ISA): lane (g, t) = (lane / 4,
    // lane % 4) holds A rows g and g + 8 at K 2t, 2t + 1 (registers 0, 1)
    // and 2t + 8, 2t + 9 (2, 3), B column g at the same K, and D rows g and
    // g + 8 at columns 2t, 2t + 1.
    double a[16][16], b[16][8];
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const MmaRequest &r = laneThread(t, warp, lane)->mma;
      int g = lane / 4, k = 2 * (lane % 4);
      for (int i = 0; i < 2; ++i) {
        a[g][k + i] = half(r.a[0], i);
        a[g + 8][k + i] = half(r.a[1], i);
        a[g][k + 8 + i] = half(r.a[2], i);
        a[g + 8][k + 8 + i] = half(r.a[3], i);
        b[k + i][g] = half(r.b[0], i);
        b[k + 8 + i][g] = half(r.b[1], i);
      }
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
      MmaRequest &r = laneThread(t, warp, lane)->mma;
      int g = lane / 4, n = 2 * (lane % 4);
      for (int e = 0; e < 4; ++e) {
        int row = g + 8 * (e / 2), col = n + e % 2;
        float c;
        std::memcpy(&c, &r.c[e], 4);
        double sum = c;
        for (int k = 0; k < 16; ++k)
          sum += a[row][k] * b[k][col];
        float d = static_cast<float>(sum);
        std::memcpy(&r.d[e], &d, 4);
      }
    }
    for (int i = 0; i < kWarpSize; ++i) {
      Thread *dst = laneThread(t, warp, reverseOrder ? kWarpSize - 1 - i : i);
      dst->state = State::Ready;
      ready.push_back(dst);
    }
    return true;
  }

  bool checkShufflesAfterExit(Thread &t) {
    int warp = t.linear / kWarpSize, lane = t.linear % kWarpSize;
    for (int j = 0; j < kWarpSize; ++j) {
      Thread *other = laneThread(t, warp, j);
      if (other && other->state == State::AtShuffle &&
          (static_cast<uint32_t>(other->shuffle.mask) >> lane & 1)) {
        fail(where(l, *other) + ": shfl.sync waits for lane " +
             std::to_string(lane) + ", which has exited");
        return false;
      }
    }
    return true;
  }

  bool deadlock(int cta) {
    int barrier = 0, cluster = 0, shuffle = 0, mma = 0;
    for (Thread &t : l.threads) {
      if (t.cta != cta)
        continue;
      barrier += t.state == State::AtBarrier;
      cluster += t.state == State::AtClusterWait;
      shuffle += t.state == State::AtShuffle;
      mma += t.state == State::AtMma;
    }
    char text[224];
    std::snprintf(text, sizeof(text),
                  "CTA (%d,%d,%d) deadlocked: %d threads wait at a barrier, "
                  "%d at a cluster barrier, %d at a shuffle, %d at an "
                  "mma.sync",
                  l.ctaid[0] + cta, l.ctaid[1], l.ctaid[2], barrier, cluster,
                  shuffle, mma);
    fail(text);
    return false;
  }
};

uint16_t halfBits(double value) {
  return nvfp4::formats::encodeF16FromDouble(value);
}

} // namespace

extern "C" {

void nvfp4sim_launch(Nvfp4SimEntry entry, void *args, int32_t gridX,
                     int32_t gridY, int32_t gridZ, int32_t blockX,
                     int32_t blockY, int32_t blockZ, int64_t sharedBytes) {
  nvfp4sim_launch_cluster(entry, args, gridX, gridY, gridZ, blockX, blockY,
                          blockZ, sharedBytes, 1);
}

void nvfp4sim_launch_cluster(Nvfp4SimEntry entry, void *args, int32_t gridX,
                             int32_t gridY, int32_t gridZ, int32_t blockX,
                             int32_t blockY, int32_t blockZ,
                             int64_t sharedBytes, int32_t clusterX) {
  if (active) {
    fail("nvfp4sim_launch called from a simulated thread");
    return;
  }
  if (!firstError.empty())
    return; // an earlier launch failed: its results are not to be trusted
  int64_t threads = int64_t(blockX) * blockY * blockZ;
  if (gridX < 1 || gridY < 1 || gridZ < 1 || threads < 1 || threads > 1024 ||
      sharedBytes < 0 || clusterX < 1 ||
      clusterX > nvfp4::kMaxPortableClusterCtas || gridX % clusterX != 0) {
    fail("invalid launch configuration");
    return;
  }
  Launch l;
  l.entry = entry;
  l.args = args;
  int32_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  std::memcpy(l.grid, grid, sizeof(grid));
  std::memcpy(l.block, block, sizeof(block));
  l.clusterX = clusterX;
  l.ctaThreads = static_cast<int32_t>(threads);
  l.threads.resize(threads * clusterX);
  for (int64_t i = 0; i < threads * clusterX; ++i) {
    Thread &t = l.threads[i];
    int64_t local = i % threads;
    t.cta = static_cast<int32_t>(i / threads);
    t.linear = static_cast<int32_t>(local);
    t.tid[0] = static_cast<int32_t>(local % blockX);
    t.tid[1] = static_cast<int32_t>(local / blockX % blockY);
    t.tid[2] = static_cast<int32_t>(local / (int64_t(blockX) * blockY));
  }
  l.shared.resize(clusterX);
  active = &l;
  for (int32_t z = 0; z < gridZ; ++z)
    for (int32_t y = 0; y < gridY; ++y)
      for (int32_t x = 0; x < gridX; x += clusterX) {
        l.ctaid[0] = x;
        l.ctaid[1] = y;
        l.ctaid[2] = z;
        for (std::vector<unsigned char> &buffer : l.shared)
          buffer.assign(static_cast<size_t>(sharedBytes), 0xFF);
        if (!ClusterScheduler(l).run()) {
          active = nullptr;
          return;
        }
        if (loadTrace.on())
          countLoads(l);
      }
  active = nullptr;
}

const char *nvfp4sim_error(void) {
  return firstError.empty() ? nullptr : firstError.c_str();
}

void nvfp4sim_clear_error(void) { firstError.clear(); }

void nvfp4sim_set_reverse_order(int32_t reverse) { reverseOrder = reverse; }

void nvfp4sim_trace_begin(int32_t count, const void *const *begins,
                          const int64_t *sizes) {
  loadTrace.begin(count, begins, sizes);
}

void nvfp4sim_trace_end(Nvfp4SimLoadStats *stats) { loadTrace.end(stats); }

void nvfp4sim_trace_load(const void *address, int32_t bytes, int32_t site) {
  if (loadTrace.on())
    active->current->loads.push_back(
        {site, bytes, reinterpret_cast<uintptr_t>(address)});
}

int32_t nvfp4sim_sreg(int32_t which) {
  const Launch &l = *active;
  const Thread &t = *l.current;
  switch (which) {
  case NVFP4SIM_TID_X:
  case NVFP4SIM_TID_Y:
  case NVFP4SIM_TID_Z:
    return t.tid[which - NVFP4SIM_TID_X];
  case NVFP4SIM_NTID_X:
  case NVFP4SIM_NTID_Y:
  case NVFP4SIM_NTID_Z:
    return l.block[which - NVFP4SIM_NTID_X];
  case NVFP4SIM_CTAID_X:
    return l.ctaid[0] + t.cta;
  case NVFP4SIM_CTAID_Y:
  case NVFP4SIM_CTAID_Z:
    return l.ctaid[which - NVFP4SIM_CTAID_X];
  case NVFP4SIM_NCTAID_X:
  case NVFP4SIM_NCTAID_Y:
  case NVFP4SIM_NCTAID_Z:
    return l.grid[which - NVFP4SIM_NCTAID_X];
  case NVFP4SIM_LANEID:
    return t.linear % kWarpSize;
  case NVFP4SIM_WARPID:
    return t.linear / kWarpSize;
  case NVFP4SIM_NWARPID:
    return static_cast<int32_t>((l.threads.size() + kWarpSize - 1) / kWarpSize);
  case NVFP4SIM_WARPSIZE:
    return kWarpSize;
  default:
    fail("unknown special register code " + std::to_string(which));
    yieldAs(State::Failed);
    return 0;
  }
}

void *nvfp4sim_shared(void) {
  return active->shared[active->current->cta].data();
}

void nvfp4sim_barrier(void) { yieldAs(State::AtBarrier); }

void nvfp4sim_cluster_arrive(void) { ++active->current->clusterArrivals; }

void nvfp4sim_cluster_wait(void) {
  Thread &t = *active->current;
  t.clusterWaitFor = t.clusterWaitFor + 1;
  yieldAs(State::AtClusterWait);
}

void nvfp4sim_check_align(const void *address, int32_t bytes) {
  auto at = reinterpret_cast<uintptr_t>(address);
  if (bytes <= 1 || at % uintptr_t(bytes) == 0)
    return;
  Launch &l = *active;
  char text[96];
  std::snprintf(text, sizeof(text),
                ": misaligned address: a %d-byte access at %#llx (%llu bytes "
                "past a multiple of %d)",
                bytes, static_cast<unsigned long long>(at),
                static_cast<unsigned long long>(at % uintptr_t(bytes)), bytes);
  fail(where(l, *l.current) + text);
  yieldAs(State::Failed);
}

void nvfp4sim_cp_async(void *dst, const void *src, int32_t bytes) {
  nvfp4sim_check_align(dst, bytes);
  nvfp4sim_check_align(src, bytes);
  active->current->openCopies.push_back({dst, src, bytes});
}

void nvfp4sim_cp_async_commit(void) {
  Thread &t = *active->current;
  t.copyGroups.push_back(std::move(t.openCopies));
  t.openCopies.clear();
}

void nvfp4sim_cp_async_wait(int32_t n) {
  Thread &t = *active->current;
  while (t.copyGroups.size() > size_t(std::max(n, 0))) {
    for (const Thread::Copy &c : t.copyGroups.front())
      std::memcpy(c.dst, c.src, size_t(c.bytes));
    t.copyGroups.pop_front();
  }
}

void *nvfp4sim_mapa(void *address, int32_t rank) {
  Launch &l = *active;
  const Thread &t = *l.current;
  std::vector<unsigned char> &own = l.shared[t.cta];
  auto *byte = static_cast<unsigned char *>(address);
  if (rank < 0 || rank >= l.clusterX || byte < own.data() ||
      byte >= own.data() + own.size()) {
    fail(where(l, t) + ": mapa of " +
         (rank < 0 || rank >= l.clusterX
              ? "CTA rank " + std::to_string(rank) + " outside the cluster"
              : std::string("an address outside the CTA's shared memory")));
    yieldAs(State::Failed);
    return nullptr;
  }
  return l.shared[rank].data() + (byte - own.data());
}

int64_t nvfp4sim_shfl(int32_t mode, int32_t mask, int32_t value, int32_t offset,
                      int32_t clamp) {
  Thread *self = active->current;
  self->shuffle = {mode, mask, value, offset, clamp, 0};
  yieldAs(State::AtShuffle);
  return self->shuffle.result;
}

static void requestMma(bool bf16, const int32_t (&in)[10]) {
  MmaRequest &r = active->current->mma;
  std::memcpy(r.a, in, 16);
  std::memcpy(r.b, in + 4, 8);
  std::memcpy(r.c, in + 6, 16);
  r.bf16 = bf16;
  yieldAs(State::AtMma);
}

void nvfp4sim_mma_f16(int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                      int32_t b0, int32_t b1, int32_t c0, int32_t c1,
                      int32_t c2, int32_t c3) {
  requestMma(false, {a0, a1, a2, a3, b0, b1, c0, c1, c2, c3});
}

void nvfp4sim_mma_bf16(int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                       int32_t b0, int32_t b1, int32_t c0, int32_t c1,
                       int32_t c2, int32_t c3) {
  requestMma(true, {a0, a1, a2, a3, b0, b1, c0, c1, c2, c3});
}

int32_t nvfp4sim_mma_result(int32_t index) {
  return static_cast<int32_t>(active->current->mma.d[index & 3]);
}

int32_t nvfp4sim_prmt(int32_t mode, int32_t a, int32_t b, int32_t selector) {
  uint64_t pool = static_cast<uint32_t>(a) |
                  static_cast<uint64_t>(static_cast<uint32_t>(b)) << 32;
  auto byte = [&](int i) {
    return static_cast<uint32_t>(pool >> (8 * i)) & 0xFF;
  };
  uint32_t out = 0;
  if (mode == NVFP4SIM_PRMT_DEFAULT) {
    for (int i = 0; i < 4; ++i) {
      uint32_t sel = static_cast<uint32_t>(selector) >> (4 * i) & 0xF;
      uint32_t v = byte(sel & 7);
      if (sel & 8) // replicate the sign bit of the byte
        v = (v & 0x80) ? 0xFF : 0x00;
      out |= v << (8 * i);
    }
    return static_cast<int32_t>(out);
  }
  // Source byte of result bytes 0..3 for each mode and selector[1:0] (the
  // PTX ISA tables, which list bytes 3..0).
  static const int table[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, // rc16
  };
  if (mode < NVFP4SIM_PRMT_F4E || mode > NVFP4SIM_PRMT_RC16) {
    fail("unknown prmt mode " + std::to_string(mode));
    return 0;
  }
  const int *src = table[mode - NVFP4SIM_PRMT_F4E][selector & 3];
  for (int i = 0; i < 4; ++i)
    out |= byte(src[i]) << (8 * i);
  return static_cast<int32_t>(out);
}

int32_t nvfp4sim_dp4a(int32_t a, int32_t b, int32_t c, int32_t aSigned,
                      int32_t bSigned) {
  uint32_t sum = static_cast<uint32_t>(c);
  for (int i = 0; i < 4; ++i) {
    uint32_t x = static_cast<uint32_t>(a) >> (8 * i) & 0xFF;
    uint32_t y = static_cast<uint32_t>(b) >> (8 * i) & 0xFF;
    int32_t xs = aSigned ? static_cast<int8_t>(x) : static_cast<int32_t>(x);
    int32_t ys = bSigned ? static_cast<int8_t>(y) : static_cast<int32_t>(y);
    sum += static_cast<uint32_t>(xs * ys); // wraps like the hardware
  }
  return static_cast<int32_t>(sum);
}

int32_t nvfp4sim_dp2a(int32_t a, int32_t b, int32_t c, int32_t aSigned,
                      int32_t bSigned, int32_t hi) {
  uint32_t sum = static_cast<uint32_t>(c);
  for (int i = 0; i < 2; ++i) {
    uint32_t x = static_cast<uint32_t>(a) >> (16 * i) & 0xFFFF;
    uint32_t y = static_cast<uint32_t>(b) >> (8 * (i + (hi ? 2 : 0))) & 0xFF;
    int32_t xs = aSigned ? static_cast<int16_t>(x) : static_cast<int32_t>(x);
    int32_t ys = bSigned ? static_cast<int8_t>(y) : static_cast<int32_t>(y);
    sum += static_cast<uint32_t>(xs * ys);
  }
  return static_cast<int32_t>(sum);
}

int32_t nvfp4sim_cvt_x2(int32_t type, int32_t bits, int32_t relu) {
  using namespace nvfp4::formats;
  uint32_t out = 0;
  for (int i = 0; i < 2; ++i) {
    uint16_t half;
    if (type == NVFP4SIM_CVT_E2M1) {
      half = halfBits(decodeE2M1(static_cast<uint32_t>(bits) >> (4 * i) & 0xF));
    } else {
      uint8_t byte = static_cast<uint32_t>(bits) >> (8 * i) & 0xFF;
      if (type == NVFP4SIM_CVT_E4M3) {
        double v = decodeE4M3FN(byte);
        half = std::isnan(v) ? 0x7FFF : halfBits(v);
      } else if (type == NVFP4SIM_CVT_E5M2) {
        half = static_cast<uint16_t>(byte << 8); // e5m2 is the top of f16
      } else if (type == NVFP4SIM_CVT_UE8M0) {
        // To bf16: 2^(e-127) is the bf16 with exponent field e, except the
        // subnormal 2^-127 and NaN.
        half = byte == 0xFF ? 0x7FFF
               : byte == 0  ? 0x0040
                            : static_cast<uint16_t>(byte << 7);
      } else {
        fail("unknown conversion type " + std::to_string(type));
        return 0;
      }
    }
    bool isNaN = (half & 0x7C00) == 0x7C00 && (half & 0x3FF) &&
                 type != NVFP4SIM_CVT_UE8M0;
    if (relu && (half & 0x8000))
      half = isNaN ? 0x7FFF : 0;
    out |= static_cast<uint32_t>(half) << (16 * i);
  }
  return static_cast<int32_t>(out);
}

int32_t nvfp4sim_f32_to_bf16(int32_t f32Bits) {
  float x;
  std::memcpy(&x, &f32Bits, sizeof(x));
  return nvfp4::formats::encodeBF16(x);
}

// The host code of a kernel does bf16 arithmetic (a quantizer's max.bf16x2)
// in f32 and rounds back with this compiler-runtime routine, which the
// libgcc of GCC 12 lacks. Rounds to nearest even, as the routine does. A
// bf16 is returned in the low 16 bits of xmm0 (x86-64 psABI), where a float
// is returned too; clang 14 has no bf16 type to spell that with.
float __truncsfbf2(float x) {
  uint32_t bits = nvfp4::formats::encodeBF16(x);
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

} // extern "C"
