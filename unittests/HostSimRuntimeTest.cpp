//===- HostSimRuntimeTest.cpp - the GPU simulation runtime ----------------===//
//
// The instructions against the PTX ISA tables, and the fiber scheduler:
// barriers, shuffles, and the errors for what a kernel must not do.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runtime/HostSimABI.h"
#include "nvfp4/Support/Formats.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

struct RuntimeTest : public ::testing::Test {
  void SetUp() override {
    nvfp4sim_clear_error();
    nvfp4sim_set_reverse_order(0);
  }
  void TearDown() override { nvfp4sim_clear_error(); }
};

TEST_F(RuntimeTest, PrmtModes) {
  int32_t a = 0x33221100, b = 0x77665544;
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_DEFAULT, a, b, 0x7531),
            static_cast<int32_t>(0x77553311));
  // Bit 3 of a selector nibble replicates the sign of the chosen byte.
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_DEFAULT, 0x00000080, 0, 0x3288),
            static_cast<int32_t>(0x0000FFFF));
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_F4E, a, b, 1), 0x44332211);
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_B4E, a, b, 0),
            static_cast<int32_t>(0x55667700));
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_RC8, a, b, 2), 0x22222222);
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_ECL, a, b, 1), 0x33221111);
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_ECR, a, b, 2), 0x22221100);
  EXPECT_EQ(nvfp4sim_prmt(NVFP4SIM_PRMT_RC16, a, b, 1), 0x33223322);
}

TEST_F(RuntimeTest, Dp4a) {
  // Bytes (low first) a = {1, -2, 3, -4}, b = {5, 6, -7, 8}.
  int32_t a = 0xFC03FE01, b = 0x08F90605;
  EXPECT_EQ(nvfp4sim_dp4a(a, b, 10, 1, 1), 10 + 5 - 12 - 21 - 32);
  // Unsigned a: 0xFE = 254, 0xFC = 252.
  EXPECT_EQ(nvfp4sim_dp4a(a, b, 0, 0, 1), 5 + 254 * 6 - 21 + 252 * 8);
}

TEST_F(RuntimeTest, ConversionsToF16x2) {
  // e2m1 codes 0x3 (1.5) and 0xE (-4): f16 0x3E00 and 0xC400.
  EXPECT_EQ(static_cast<uint32_t>(nvfp4sim_cvt_x2(NVFP4SIM_CVT_E2M1, 0xE3, 0)),
            0xC4003E00u);
  // e4m3 0x38 (1.0) and 0x01 (2^-9, subnormal): f16 0x3C00 and 0x1800.
  EXPECT_EQ(
      static_cast<uint32_t>(nvfp4sim_cvt_x2(NVFP4SIM_CVT_E4M3, 0x0138, 0)),
      0x18003C00u);
  // relu clamps the negative one.
  EXPECT_EQ(
      static_cast<uint32_t>(nvfp4sim_cvt_x2(NVFP4SIM_CVT_E4M3, 0xB838, 1)),
      0x00003C00u);
  // ue8m0 to bf16: 2^0 and 2^-127.
  EXPECT_EQ(
      static_cast<uint32_t>(nvfp4sim_cvt_x2(NVFP4SIM_CVT_UE8M0, 0x007F, 0)),
      0x00403F80u);
}

struct Grid {
  std::vector<int32_t> out;
};

void butterflyKernel(void *args) {
  auto *g = static_cast<Grid *>(args);
  int32_t tid = nvfp4sim_sreg(NVFP4SIM_TID_X);
  int32_t v = tid;
  for (int offset = 16; offset >= 1; offset /= 2)
    v += static_cast<int32_t>(
        nvfp4sim_shfl(NVFP4SIM_SHFL_BFLY, -1, v, offset, 0x1F));
  g->out[nvfp4sim_sreg(NVFP4SIM_CTAID_X) * 64 + tid] = v;
}

TEST_F(RuntimeTest, ButterflySumsEachWarp) {
  Grid g{std::vector<int32_t>(128, -1)};
  nvfp4sim_launch(butterflyKernel, &g, 2, 1, 1, 64, 1, 1, 0);
  ASSERT_EQ(nvfp4sim_error(), nullptr);
  for (int cta = 0; cta < 2; ++cta)
    for (int t = 0; t < 64; ++t)
      EXPECT_EQ(g.out[cta * 64 + t], t < 32 ? 496 : 32 * 32 + 496);
}

void shuffleUpKernel(void *args) {
  auto *g = static_cast<Grid *>(args);
  int32_t lane = nvfp4sim_sreg(NVFP4SIM_LANEID);
  int64_t r = nvfp4sim_shfl(NVFP4SIM_SHFL_UP, -1, lane * 10, 3, 0);
  // The predicate is false for lanes below the offset (they keep their own).
  g->out[lane] = static_cast<int32_t>(r) + (r >> 32 ? 1000 : 0);
}

TEST_F(RuntimeTest, ShuffleUpPredicate) {
  Grid g{std::vector<int32_t>(32, -1)};
  nvfp4sim_launch(shuffleUpKernel, &g, 1, 1, 1, 32, 1, 1, 0);
  ASSERT_EQ(nvfp4sim_error(), nullptr);
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(g.out[lane], lane < 3 ? lane * 10 : (lane - 3) * 10 + 1000);
}

void sharedKernel(void *args) {
  auto *g = static_cast<Grid *>(args);
  auto *shared = static_cast<int32_t *>(nvfp4sim_shared());
  int32_t tid = nvfp4sim_sreg(NVFP4SIM_TID_X);
  int32_t n = nvfp4sim_sreg(NVFP4SIM_NTID_X);
  int32_t cta = nvfp4sim_sreg(NVFP4SIM_CTAID_X);
  shared[tid] = tid + 100 * cta;
  nvfp4sim_barrier();
  g->out[cta * n + tid] = shared[(tid + 1) % n];
}

TEST_F(RuntimeTest, BarrierOrdersSharedMemoryInBothOrders) {
  for (int reverse : {0, 1}) {
    nvfp4sim_set_reverse_order(reverse);
    Grid g{std::vector<int32_t>(3 * 96, -1)};
    nvfp4sim_launch(sharedKernel, &g, 3, 1, 1, 96, 1, 1, 96 * 4);
    ASSERT_EQ(nvfp4sim_error(), nullptr);
    for (int cta = 0; cta < 3; ++cta)
      for (int t = 0; t < 96; ++t)
        EXPECT_EQ(g.out[cta * 96 + t], (t + 1) % 96 + 100 * cta);
  }
}

/// Half of warp 1 waits in a shuffle for the other half, which waits at the
/// barrier with warp 0: neither can complete. (Threads at different barrier
/// instructions would not deadlock: barrier 0 counts arrivals, as on the
/// hardware.)
void divergentKernel(void *) {
  int32_t tid = nvfp4sim_sreg(NVFP4SIM_TID_X);
  if (tid >= 32 && tid < 48)
    nvfp4sim_shfl(NVFP4SIM_SHFL_BFLY, -1, 0, 1, 0x1F);
  nvfp4sim_barrier();
}

TEST_F(RuntimeTest, DeadlockIsAnError) {
  nvfp4sim_launch(divergentKernel, nullptr, 1, 1, 1, 64, 1, 1, 0);
  ASSERT_NE(nvfp4sim_error(), nullptr);
  EXPECT_NE(std::strstr(nvfp4sim_error(), "deadlocked"), nullptr);
}

void exitedLaneKernel(void *) {
  if (nvfp4sim_sreg(NVFP4SIM_LANEID) == 5)
    return;
  nvfp4sim_shfl(NVFP4SIM_SHFL_BFLY, -1, 0, 1, 0x1F);
}

TEST_F(RuntimeTest, ShuffleWithExitedLaneIsAnError) {
  nvfp4sim_launch(exitedLaneKernel, nullptr, 1, 1, 1, 32, 1, 1, 0);
  ASSERT_NE(nvfp4sim_error(), nullptr);
  EXPECT_NE(std::strstr(nvfp4sim_error(), "exited"), nullptr);
}

/// Every CTA of a cluster of 4 writes its rank into the shared memory of
/// the cluster's first CTA (mapa), which sums them after the cluster
/// barrier: the barrier must hold it until all four arrived, and each CTA
/// must have its own shared memory.
void clusterSumKernel(void *args) {
  auto *g = static_cast<Grid *>(args);
  int32_t tid = nvfp4sim_sreg(NVFP4SIM_TID_X);
  int32_t cta = nvfp4sim_sreg(NVFP4SIM_CTAID_X);
  int32_t rank = cta % 4;
  auto *shared = static_cast<int32_t *>(nvfp4sim_shared());
  nvfp4sim_cluster_arrive();
  nvfp4sim_cluster_wait();
  if (tid == 0)
    *static_cast<int32_t *>(nvfp4sim_mapa(shared + rank, 0)) = cta + 1;
  nvfp4sim_cluster_arrive();
  nvfp4sim_cluster_wait();
  if (rank == 0 && tid == 0)
    g->out[cta / 4] = shared[0] + shared[1] + shared[2] + shared[3];
}

TEST_F(RuntimeTest, ClusterBarrierAndMapa) {
  for (int reverse : {0, 1}) {
    nvfp4sim_set_reverse_order(reverse);
    Grid g{std::vector<int32_t>(2, -1)};
    nvfp4sim_launch_cluster(clusterSumKernel, &g, 8, 1, 1, 64, 1, 1, 16, 4);
    ASSERT_EQ(nvfp4sim_error(), nullptr);
    EXPECT_EQ(g.out[0], 1 + 2 + 3 + 4);
    EXPECT_EQ(g.out[1], 5 + 6 + 7 + 8);
  }
}

/// Half of CTA 1 waits at the CTA barrier for the other half, which waits
/// at the cluster barrier for the first half's arrival: neither can end.
void clusterMissingArriveKernel(void *) {
  nvfp4sim_cluster_arrive();
  nvfp4sim_cluster_wait();
  if (nvfp4sim_sreg(NVFP4SIM_CTAID_X) == 1 &&
      nvfp4sim_sreg(NVFP4SIM_TID_X) < 16)
    nvfp4sim_barrier();
  nvfp4sim_cluster_arrive();
  nvfp4sim_cluster_wait();
}

TEST_F(RuntimeTest, ClusterDeadlockIsAnError) {
  nvfp4sim_launch_cluster(clusterMissingArriveKernel, nullptr, 2, 1, 1, 32, 1,
                          1, 0, 2);
  ASSERT_NE(nvfp4sim_error(), nullptr);
  EXPECT_NE(std::strstr(nvfp4sim_error(), "cluster barrier"), nullptr);
}

void mapaOutsideKernel(void *) {
  static int32_t notShared;
  nvfp4sim_mapa(&notShared, 0);
}

TEST_F(RuntimeTest, MapaOutsideSharedMemoryIsAnError) {
  nvfp4sim_launch_cluster(mapaOutsideKernel, nullptr, 2, 1, 1, 32, 1, 1, 16, 2);
  ASSERT_NE(nvfp4sim_error(), nullptr);
  EXPECT_NE(std::strstr(nvfp4sim_error(), "outside the CTA's shared memory"),
            nullptr);
}

/// Thread 3 makes a 16-byte access 8 bytes past a multiple of 16 (an
/// 8-byte-aligned row of a's codes read as one 16-byte vector); the
/// others' accesses are aligned.
void alignmentKernel(void *) {
  alignas(16) static unsigned char bytes[64];
  int32_t tid = nvfp4sim_sreg(NVFP4SIM_TID_X);
  nvfp4sim_check_align(bytes + 16 * (tid % 2), 16);
  nvfp4sim_check_align(bytes + 8 * tid, 8);
  if (tid == 3)
    nvfp4sim_check_align(bytes + 8, 16);
}

TEST_F(RuntimeTest, MisalignedAccessIsAnError) {
  nvfp4sim_launch(alignmentKernel, nullptr, 1, 1, 1, 4, 1, 1, 0);
  ASSERT_NE(nvfp4sim_error(), nullptr);
  EXPECT_NE(std::strstr(nvfp4sim_error(), "thread (3,0,0): misaligned "
                                          "address: a 16-byte access"),
            nullptr)
      << nvfp4sim_error();
  EXPECT_NE(std::strstr(nvfp4sim_error(), "(8 bytes past a multiple of 16)"),
            nullptr);
}

/// A cp.async lands when a wait lets its group complete, not before: the
/// latest the GPU may perform it, so a kernel that reads too early sees
/// the old bytes. out[0..2]: read before the commit, after a wait that
/// leaves the newest group pending, after a wait for every group.
void cpAsyncKernel(void *args) {
  auto *g = static_cast<Grid *>(args);
  static const int32_t first = 11, second = 22;
  auto *shared = static_cast<int32_t *>(nvfp4sim_shared());
  shared[0] = shared[1] = -1;
  nvfp4sim_cp_async(&shared[0], &first, 4);
  g->out[0] = shared[0];
  nvfp4sim_cp_async_commit();
  nvfp4sim_cp_async(&shared[1], &second, 4);
  nvfp4sim_cp_async_commit();
  nvfp4sim_cp_async_wait(1);
  g->out[1] = shared[0] * 100 + shared[1];
  nvfp4sim_cp_async_wait(0);
  g->out[2] = shared[0] * 100 + shared[1];
}

TEST_F(RuntimeTest, CpAsyncLandsAtTheWait) {
  Grid g{std::vector<int32_t>(3, 0)};
  nvfp4sim_launch(cpAsyncKernel, &g, 1, 1, 1, 1, 1, 1, 16);
  ASSERT_EQ(nvfp4sim_error(), nullptr) << nvfp4sim_error();
  EXPECT_EQ(g.out[0], -1);
  EXPECT_EQ(g.out[1], 11 * 100 - 1);
  EXPECT_EQ(g.out[2], 11 * 100 + 22);
}

TEST_F(RuntimeTest, ClusterMustDivideTheGrid) {
  nvfp4sim_launch_cluster(clusterSumKernel, nullptr, 6, 1, 1, 32, 1, 1, 16, 4);
  ASSERT_NE(nvfp4sim_error(), nullptr);
  EXPECT_NE(std::strstr(nvfp4sim_error(), "invalid launch"), nullptr);
}

/// A[m][k] = m - k and B[k][n] = (k + 1) * (n - 3), small integers (exact
/// in f16), with C = 1000 + m * 8 + n, so every D[m][n] is known.
double mmaA(int m, int k) { return m - k; }
double mmaB(int k, int n) { return (k + 1) * (n - 3); }
float mmaC(int m, int n) { return 1000.0f + m * 8 + n; }

uint32_t f16Pair(double lo, double hi) {
  return nvfp4::formats::encodeF16(static_cast<float>(lo)) |
         static_cast<uint32_t>(
             nvfp4::formats::encodeF16(static_cast<float>(hi)))
             << 16;
}

int32_t floatBits(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

struct MmaOut {
  float d[32][4];
};

/// Each lane passes its fragments of m16n8k16 as the PTX ISA lays them
/// out (lane (g, t): A rows g, g + 8 at K 2t, 2t + 1 and 2t + 8, 2t + 9; B
/// column g at the same K; C rows g, g + 8 at columns 2t, 2t + 1).
void mmaKernel(void *arg) {
  auto *out = static_cast<MmaOut *>(arg);
  int lane = nvfp4sim_sreg(NVFP4SIM_LANEID), g = lane / 4, k = 2 * (lane % 4);
  auto a = [&](int m, int kk) { return f16Pair(mmaA(m, kk), mmaA(m, kk + 1)); };
  auto b = [&](int kk) { return f16Pair(mmaB(kk, g), mmaB(kk + 1, g)); };
  nvfp4sim_mma_f16(a(g, k), a(g + 8, k), a(g, k + 8), a(g + 8, k + 8), b(k),
                   b(k + 8), floatBits(mmaC(g, k)), floatBits(mmaC(g, k + 1)),
                   floatBits(mmaC(g + 8, k)), floatBits(mmaC(g + 8, k + 1)));
  for (int i = 0; i < 4; ++i) {
    int32_t bits = nvfp4sim_mma_result(i);
    std::memcpy(&out->d[lane][i], &bits, 4);
  }
}

TEST_F(RuntimeTest, MmaM16N8K16FollowsTheFragmentLayout) {
  MmaOut out{};
  nvfp4sim_launch(mmaKernel, &out, 1, 1, 1, 32, 1, 1, 0);
  ASSERT_EQ(nvfp4sim_error(), nullptr);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      int m = lane / 4 + 8 * (i / 2), n = 2 * (lane % 4) + i % 2;
      double d = mmaC(m, n);
      for (int k = 0; k < 16; ++k)
        d += mmaA(m, k) * mmaB(k, n);
      EXPECT_EQ(out.d[lane][i], static_cast<float>(d))
          << "lane " << lane << " result " << i;
    }
}

void mmaExitedLaneKernel(void *) {
  if (nvfp4sim_sreg(NVFP4SIM_LANEID) == 7)
    return;
  nvfp4sim_mma_f16(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

TEST_F(RuntimeTest, MmaWithExitedLaneIsAnError) {
  nvfp4sim_launch(mmaExitedLaneKernel, nullptr, 1, 1, 1, 32, 1, 1, 0);
  ASSERT_NE(nvfp4sim_error(), nullptr);
  EXPECT_NE(std::strstr(nvfp4sim_error(), "mma.sync needs every lane"),
            nullptr);
}

} // namespace
