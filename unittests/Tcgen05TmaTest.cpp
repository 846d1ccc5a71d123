//===- Tcgen05TmaTest.cpp - the tcgen05 kernel's tensor copies ------------===//
//
// Where the tcgen05 plan (Tcgen05Plan.h) copies a's slabs and blocked sfa
// atoms with the tensor memory accelerator, each map it chooses must be one
// the runner accepts for the shape's buffers (read as a manifest's
// tensor_maps entry), and each box, copied at the plan's coordinates through
// the independent model of tools/nvfp4-tcgen05-check (TmaModel.h), must
// land exactly where the per-thread copies the kernel uses otherwise put
// the same bytes: the tensor copies change how data moves, not where.
//
//===----------------------------------------------------------------------===//

#include "../tools/nvfp4-tcgen05-check/TmaModel.h"

#include "nvfp4-run/CudaDriver.h"
#include "nvfp4-run/Manifest.h"
#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/Tcgen05Plan.h"
#include "nvfp4/Support/Tcgen05Problem.h"

#include <gtest/gtest.h>

using namespace nvfp4;
using namespace nvfp4::tcgen05;
using plan::GemvPlan;

namespace {

/// The plan's maps as the runner reads them from a manifest.
std::vector<run::TensorMap> readMaps(const GemvPlan &p, std::string &error) {
  namespace k = manifest::map_key;
  run::json::Json list = run::json::Json::array();
  std::vector<manifest::Param> params = {
      manifest::Param::A, manifest::Param::SFA, manifest::Param::B,
      manifest::Param::SFB, manifest::Param::C};
  for (const tensormap::TiledMap &map : p.tensorMaps()) {
    auto spelled = [](const char *key, auto value) {
      return manifest::spellings(key)[size_t(value)];
    };
    run::json::Json entry = {
        {k::Param, manifest::name(map.param)},
        {k::Tensor, manifest::name(map.tensor)},
        {k::DataType, spelled(k::DataType, map.dataType)},
        {k::Dims, map.dims},
        {k::Strides, map.strides},
        {k::Box, map.box},
        {k::ElementStrides, std::vector<int64_t>(map.box.size(), 1)},
        {k::Swizzle, spelled(k::Swizzle, map.swizzle)},
        {k::L2Promotion, spelled(k::L2Promotion, map.l2Promotion)},
        {k::OobFill, spelled(k::OobFill, map.oobFill)}};
    list.push_back(entry);
    params.push_back(map.param);
  }
  run::json::Json root = {{manifest::key::TensorMaps, list}};
  std::optional<run::json::Document> doc = run::json::parse(root.dump(), error);
  if (!doc)
    return {};
  std::optional<std::vector<run::TensorMap>> maps = run::readTensorMaps(
      *doc, params, run::bufferSizes(gemvProblemOf(p)).byParam(), error);
  return maps ? *maps : std::vector<run::TensorMap>();
}

TEST(Tcgen05TmaTest, WhichCopiesAreTensorCopies) {
  // a: rows a multiple of 16 bytes and at least one 32-byte box row.
  EXPECT_FALSE(GemvPlan::of(128, 32, 1, false, false, 4).tmaA());
  EXPECT_FALSE(GemvPlan::of(128, 80, 1, false, false, 4).tmaA());
  EXPECT_TRUE(GemvPlan::of(128, 64, 1, false, false, 4).tmaA());
  EXPECT_TRUE(GemvPlan::of(130, 96, 1, true, false, 4).tmaA());
  // sfa: blocked, without padding columns in the last atom.
  EXPECT_FALSE(GemvPlan::of(128, 1024, 1, false, false, 4).tmaSfa());
  EXPECT_TRUE(GemvPlan::of(128, 1024, 1, false, true, 4).tmaSfa());
  EXPECT_FALSE(GemvPlan::of(128, 96, 1, false, true, 4).tmaSfa());
  EXPECT_FALSE(GemvPlan::of(257, 1056, 1, true, true, 4).tmaSfa());
  // Off: every copy by the threads, and no full barriers.
  GemvPlan off = GemvPlan::of(128, 1024, 1, false, true, 4);
  off.tma = false;
  EXPECT_FALSE(off.usesTma());
  EXPECT_EQ(off.tmemSlotOffset(), off.barrierOffset(4));
  GemvPlan on = GemvPlan::of(128, 1024, 1, false, true, 4);
  EXPECT_EQ(on.tmemSlotOffset(), on.barrierOffset(8));
  EXPECT_EQ(on.fullBarrierOffset(1), on.ringBytes() + 8 * 5);
  // The full barrier counts every box of a stage.
  EXPECT_EQ(on.tmaStageBytes(), 128 * 32 + 512);
  EXPECT_EQ(GemvPlan::of(64, 2048, 1, true, false, 4).tmaStageBytes(),
            2 * 64 * 32);
}

TEST(Tcgen05TmaTest, TheRunnerAcceptsTheMaps) {
  for (GemvPlan p : {GemvPlan::of(7168, 16384, 1, false, false, 4),
                     GemvPlan::of(7168, 2048, 4, false, true, 4),
                     GemvPlan::of(64, 64, 3, true, true, 2),
                     GemvPlan::of(130, 96, 2, true, false, 1)}) {
    std::string error;
    std::vector<run::TensorMap> maps = readMaps(p, error);
    EXPECT_EQ(error, "");
    EXPECT_EQ(maps.size(), p.tensorMaps().size());
  }
}

/// Copies stage `stage` of one CTA both ways and compares the bytes the
/// kernel reads: A rows below M, the whole sfa atom.
void compareStage(const GemvPlan &p, const std::vector<run::TensorMap> &maps,
                  const ref::GemvInputs &in, int64_t stage, int64_t batch,
                  int64_t rowTile) {
  SCOPED_TRACE("stage " + std::to_string(stage) + " batch " +
               std::to_string(batch) + " row tile " + std::to_string(rowTile));
  int64_t slot = stage % p.stages;
  const uint32_t base = 1024;
  isa::SharedMemory tensor, threads;
  tensor.base = threads.base = base;
  tensor.bytes.assign(size_t(p.sharedBytes()), 0);
  threads.bytes = tensor.bytes;
  auto cpAsync = [&](const std::vector<uint8_t> &src,
                     const plan::Copy<int64_t> &c, int64_t bytes) {
    for (int64_t i = 0; i < bytes; ++i)
      threads.bytes[size_t(c.dst + i)] =
          i < c.srcBytes ? src[size_t(c.src + i)] : 0;
  };
  uint64_t tx = 0;
  for (const run::TensorMap &map : maps) {
    bool isA = map.param == manifest::Param::ATensorMap;
    for (int64_t box = 0; box < (isA ? p.aBoxesPerStage() : 1); ++box) {
      GemvPlan::TensorCopy<int64_t> c =
          isA ? p.aTensorCopy<int64_t>(box, stage, slot, batch, rowTile)
              : p.sfaTensorCopy<int64_t>(stage, slot, batch, rowTile);
      uint64_t bytes = 0;
      std::string error;
      ASSERT_TRUE(isa::tensorCopy(
          map.encode, isA ? in.a : in.sfa,
          std::vector<int64_t>(c.coords, c.coords + map.encode.rank),
          base + uint32_t(c.dst), tensor, bytes, error))
          << error;
      tx += bytes;
    }
  }
  EXPECT_EQ(int64_t(tx), p.tmaStageBytes());
  for (int64_t t = 0; t < plan::kThreads; ++t) {
    for (int64_t i = 0; i < p.aChunksPerThread(); ++i)
      cpAsync(in.a, p.aCopy<int64_t>(t, i, stage, slot, batch, rowTile),
              p.chunkBytes());
    if (p.blocked)
      cpAsync(in.sfa, p.sfaBlockedWord<int64_t>(t, stage, slot, batch, rowTile),
              4);
  }
  int64_t rows = std::min(plan::kTileRows, p.m - rowTile * plan::kTileRows);
  int64_t slotStart = slot * p.slotBytes();
  if (p.tmaA())
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t kByte = 0; kByte < p.stageRowBytes(); ++kByte) {
        size_t at = size_t(slotStart + p.aOffset() +
                           KMajorFp4Sw32Tile::byteOffset<int64_t>(
                               r, kByte, p.aTile().slabBytes()));
        ASSERT_EQ(tensor.bytes[at], threads.bytes[at])
            << "a row " << r << " byte " << kByte;
      }
  if (p.tmaSfa())
    for (int64_t i = 0; i < plan::kAtomBytes; ++i) {
      size_t at = size_t(slotStart + p.sfaOffset() + i);
      ASSERT_EQ(tensor.bytes[at], threads.bytes[at]) << "sfa atom byte " << i;
    }
}

TEST(Tcgen05TmaTest, BoxesLandWhereThreadCopiesDo) {
  for (GemvPlan p : {GemvPlan::of(256, 1024, 2, false, true, 3),
                     GemvPlan::of(200, 96, 2, false, false, 2),
                     GemvPlan::of(64, 2048, 1, true, true, 4),
                     GemvPlan::of(130, 96, 3, true, false, 1),
                     GemvPlan::of(300, 512, 1, false, true, 8)}) {
    SCOPED_TRACE(std::to_string(p.m) + "x" + std::to_string(p.k) + "x" +
                 std::to_string(p.l) + (p.mxfp4 ? " mxfp4" : " nvfp4") +
                 (p.blocked ? " blocked" : " linear"));
    ASSERT_TRUE(p.isValid());
    ASSERT_TRUE(p.tmaA());
    std::string error;
    std::vector<run::TensorMap> maps = readMaps(p, error);
    ASSERT_EQ(error, "");
    ref::GemvInputs in =
        ref::generateGemvInputs(gemvProblemOf(p), ref::Distribution::Full, 5);
    for (int64_t batch = 0; batch < p.l; ++batch)
      for (int64_t tile = 0; tile < p.rowTiles(); ++tile)
        for (int64_t stage = 0; stage < p.kStages(); ++stage)
          compareStage(p, maps, in, stage, batch, tile);
  }
}

TEST(Tcgen05TmaTest, SwizzleModes) {
  // 32 bytes: rows 4-7 of each 8-row, 256-byte atom swap their halves.
  EXPECT_EQ(isa::swizzledAddress(1, 0x000), 0x000u);
  EXPECT_EQ(isa::swizzledAddress(1, 0x080), 0x090u);
  EXPECT_EQ(isa::swizzledAddress(1, 0x095), 0x085u);
  EXPECT_EQ(isa::swizzledAddress(1, 0x100), 0x100u);
  // 64 and 128 bytes: two and three chunk bits from the row.
  EXPECT_EQ(isa::swizzledAddress(2, 0x180), 0x1B0u);
  EXPECT_EQ(isa::swizzledAddress(3, 0x380), 0x3F0u);
  EXPECT_EQ(isa::swizzledAddress(0, 0x380), 0x380u);
}

TEST(Tcgen05TmaTest, ZeroFillAndRefusals) {
  // A 2 x 16-byte box at the tensor's last row: the second row is filled.
  run::TensorMapEncode map;
  map.dataType = run::cuda::CU_TENSOR_MAP_DATA_TYPE_UINT8;
  map.rank = 2;
  map.dims = {16, 3};
  map.strides = {16};
  map.box = {16, 2};
  map.elementStrides = {1, 1};
  std::vector<uint8_t> tensor(48);
  for (size_t i = 0; i < tensor.size(); ++i)
    tensor[i] = uint8_t(i + 1);
  isa::SharedMemory smem;
  smem.base = 256;
  smem.bytes.assign(64, 0xAA);
  uint64_t bytes = 0;
  std::string error;
  ASSERT_TRUE(isa::tensorCopy(map, tensor, {0, 2}, 256, smem, bytes, error))
      << error;
  EXPECT_EQ(bytes, 32u);
  EXPECT_EQ(smem.bytes[0], 33);
  EXPECT_EQ(smem.bytes[15], 48);
  EXPECT_EQ(smem.bytes[16], 0);
  EXPECT_EQ(smem.bytes[32], 0xAA);
  // Misaligned destination; a box row narrower than its swizzle span.
  EXPECT_FALSE(isa::tensorCopy(map, tensor, {0, 0}, 272, smem, bytes, error));
  map.swizzle = run::cuda::CU_TENSOR_MAP_SWIZZLE_32B;
  EXPECT_FALSE(isa::tensorCopy(map, tensor, {0, 0}, 256, smem, bytes, error));
}

} // namespace
