//===- TensorMaps.cpp - Tensor-map kernel parameters ----------------------===//
//
// The limits are those cuTensorMapEncodeTiled documents for a tiled map
// without interleave; the region check is the runner's own, since the driver
// cannot know how large the buffer behind the address is.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-run/TensorMaps.h"

#include "nvfp4-run/CudaDriver.h"

#include <algorithm>
#include <limits>

using namespace nvfp4;
using namespace nvfp4::run;
using json::Json;
using json::Pointer;
using json::shown;
using manifest::Param;
namespace key = manifest::key;
namespace map_key = manifest::map_key;

namespace {

using namespace nvfp4::tensormap;

// The driver's values of the schema's enumerations, in the order of their
// spellings (manifest::spellings).
constexpr int kDataTypes[] = {
    cuda::CU_TENSOR_MAP_DATA_TYPE_UINT8, cuda::CU_TENSOR_MAP_DATA_TYPE_UINT16,
    cuda::CU_TENSOR_MAP_DATA_TYPE_UINT32, cuda::CU_TENSOR_MAP_DATA_TYPE_UINT64};
constexpr int kSwizzles[] = {
    cuda::CU_TENSOR_MAP_SWIZZLE_NONE, cuda::CU_TENSOR_MAP_SWIZZLE_32B,
    cuda::CU_TENSOR_MAP_SWIZZLE_64B, cuda::CU_TENSOR_MAP_SWIZZLE_128B};
constexpr int kL2Promotions[] = {cuda::CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 cuda::CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
                                 cuda::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                 cuda::CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
constexpr int kOobFills[] = {
    cuda::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
    cuda::CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA};

// Products of dims (up to 2^32) and strides (up to 2^40) overflow 64 bits;
// saturating keeps every comparison with a buffer size right.
uint64_t mulSat(uint64_t a, uint64_t b) {
  return b != 0 && a > std::numeric_limits<uint64_t>::max() / b
             ? std::numeric_limits<uint64_t>::max()
             : a * b;
}
uint64_t addSat(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b
             ? std::numeric_limits<uint64_t>::max()
             : a + b;
}
/// A byte count that may have saturated, for messages.
std::string bytesText(uint64_t bytes) {
  return bytes == std::numeric_limits<uint64_t>::max() ? "2^64 or more"
                                                       : std::to_string(bytes);
}

/// Reads key::TensorMaps; the first error wins.
class MapReader {
public:
  MapReader(const json::Document &doc, const std::vector<Param> &params,
            std::string &error)
      : doc(doc), params(params), error(error) {}

  /// Sets "LINE:COL: message" at the value `at` names; returns false.
  bool fail(const Pointer &at, const std::string &message) {
    json::Position pos = doc.at(at);
    error = std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " +
            message;
    return false;
  }

  bool listed(Param param) const {
    return std::find(params.begin(), params.end(), param) != params.end();
  }

  /// Reads entry `index` into `map`.
  bool readEntry(size_t index, TensorMap &map,
                 const std::array<int64_t, manifest::kNumParams> &bytes);

private:
  const json::Document &doc;
  const std::vector<Param> &params;
  std::string &error;
  // Set per entry by readEntry.
  const Json *entry = nullptr;
  Pointer at;
  std::string name; // "tensor_maps[0]"

  /// `"tensor_maps[0].field"` or `"tensor_maps[0].field[j]"`, quoted.
  std::string field(const char *key, int64_t j = -1) const {
    return "\"" + name + "." + key +
           (j < 0 ? "" : "[" + std::to_string(j) + "]") + "\"";
  }

  const Json &member(const char *key) const { return entry->at(key); }

  bool readParam(Param &param, bool isMap);
  bool readChoice(const char *key, size_t &index);
  bool readIntegers(const char *key, size_t minCount, size_t maxCount,
                    int64_t min, int64_t max, std::vector<int64_t> &values);
};

bool MapReader::readParam(Param &param, bool isMap) {
  const char *key = isMap ? map_key::Param : map_key::Tensor;
  const Json &value = member(key);
  // The parameters this field may name: a tensor map, or a buffer the
  // kernel takes.
  std::vector<Param> allowed;
  std::vector<const char *> names;
  for (int i = 0; i < manifest::kNumParams; ++i) {
    Param p = static_cast<Param>(i);
    bool fits =
        isMap ? manifest::isTensorMap(p) : manifest::isBuffer(p) && listed(p);
    if (fits) {
      allowed.push_back(p);
      names.push_back(manifest::name(p));
    }
  }
  const char *what = isMap ? "a tensor-map parameter" : "a buffer parameter";
  if (value.is_string())
    for (Param p : allowed)
      if (value.get_ref<const std::string &>() == manifest::name(p)) {
        param = p;
        return true;
      }
  return fail(at / key, field(key) + " must name " + what + " (" +
                            json::oneOf(names) + "), got " + shown(value));
}

bool MapReader::readChoice(const char *key, size_t &index) {
  const Json &value = member(key);
  std::vector<const char *> names = manifest::spellings(key);
  if (value.is_string())
    for (index = 0; index < names.size(); ++index)
      if (value.get_ref<const std::string &>() == names[index])
        return true;
  return fail(at / key, field(key) + " must be " + json::oneOf(names) +
                            ", got " + shown(value));
}

bool MapReader::readIntegers(const char *key, size_t minCount, size_t maxCount,
                             int64_t min, int64_t max,
                             std::vector<int64_t> &values) {
  const Json &value = member(key);
  std::string count = minCount == maxCount ? std::to_string(minCount)
                                           : std::to_string(minCount) + " to " +
                                                 std::to_string(maxCount);
  if (!value.is_array())
    return fail(at / key, field(key) + " must be an array of " + count +
                              " integers, got " + json::describe(value));
  if (value.size() < minCount || value.size() > maxCount)
    return fail(at / key, field(key) + " must be an array of " + count +
                              " integers, got " + std::to_string(value.size()) +
                              " elements");
  for (size_t j = 0; j < value.size(); ++j) {
    const Json &item = value[j];
    if (!item.is_number_integer())
      return fail(at / key / j, field(key, j) + " must be an integer, got " +
                                    json::describe(item));
    int64_t v = item.get<int64_t>();
    if (v < min || v > max)
      return fail(at / key / j,
                  field(key, j) + " must be in [" + std::to_string(min) + ", " +
                      std::to_string(max) + "], got " + std::to_string(v));
    values.push_back(v);
  }
  return true;
}

bool MapReader::readEntry(
    size_t index, TensorMap &map,
    const std::array<int64_t, manifest::kNumParams> &bytes) {
  entry = &doc.root[key::TensorMaps][index];
  at = Pointer("/" + std::string(key::TensorMaps)) / index;
  name = std::string(key::TensorMaps) + "[" + std::to_string(index) + "]";
  std::string quoted = "\"" + name + "\"";
  std::vector<const char *> keys = manifest::tensorMapKeys();
  if (!entry->is_object())
    return fail(at,
                quoted + " must be an object, got " + json::describe(*entry));
  // Every key sets an argument of the encode: one this reader does not
  // know cannot be ignored.
  for (const auto &item : entry->items())
    if (std::find_if(keys.begin(), keys.end(), [&](const char *k) {
          return item.key() == k;
        }) == keys.end())
      return fail(at / item.key(),
                  quoted + " has an unknown key " + shown(Json(item.key())) +
                      " (its keys are " + json::oneOf(keys, " and ") + ")");
  for (const char *k : keys)
    if (!entry->contains(k))
      return fail(at, quoted + " lacks \"" + k + "\"");

  size_t dataType = 0, swizzle = 0, l2 = 0, oob = 0;
  std::vector<int64_t> dims, strides, box, elementStrides;
  if (!readParam(map.param, /*isMap=*/true) ||
      !readParam(map.tensor, /*isMap=*/false) ||
      !readChoice(map_key::DataType, dataType) ||
      !readIntegers(map_key::Dims, 1, kMaxTensorMapRank, 1, kMaxDim, dims))
    return false;
  size_t rank = dims.size();
  if (!readIntegers(map_key::Strides, rank - 1, rank - 1, 1, kMaxStride,
                    strides) ||
      !readIntegers(map_key::Box, rank, rank, 1, kMaxBoxSize, box) ||
      !readIntegers(map_key::ElementStrides, rank, rank, 1, kMaxElementStride,
                    elementStrides) ||
      !readChoice(map_key::Swizzle, swizzle) ||
      !readChoice(map_key::L2Promotion, l2) ||
      !readChoice(map_key::OobFill, oob))
    return false;
  if (!listed(map.param))
    return fail(at / map_key::Param,
                field(map_key::Param) + " is " +
                    shown(Json(manifest::name(map.param))) +
                    ", which \"params\" does not list");

  auto type = static_cast<manifest::MapDataType>(dataType);
  int64_t element = manifest::elementBytes(type);
  const char *typeName = manifest::spellings(map_key::DataType)[dataType];
  for (size_t i = 0; i < rank; ++i)
    if (box[i] > dims[i])
      return fail(at / map_key::Box / i,
                  field(map_key::Box, i) + " is " + std::to_string(box[i]) +
                      ", more than dims[" + std::to_string(i) +
                      "] = " + std::to_string(dims[i]));
  int64_t innerBytes = box[0] * element;
  if (innerBytes % kStrideBytes != 0)
    return fail(at / map_key::Box / 0,
                field(map_key::Box, 0) + " is " + std::to_string(box[0]) + " " +
                    typeName + " elements, " + std::to_string(innerBytes) +
                    " bytes: the inner box must be a multiple of " +
                    std::to_string(kStrideBytes) + " bytes");
  auto swizzleKind = static_cast<manifest::MapSwizzle>(swizzle);
  int64_t span = manifest::swizzleBytes(swizzleKind);
  if (span != 0 && innerBytes > span)
    return fail(at / map_key::Swizzle,
                field(map_key::Swizzle) + " swizzles within " +
                    std::to_string(span) + " bytes, less than the inner box (" +
                    std::to_string(innerBytes) + " bytes)");
  // Each dimension must start past the end of the one inside it, so that
  // the map describes a well-formed region (and the driver accepts it).
  uint64_t stride = element;
  for (size_t j = 0; j + 1 < rank; ++j) {
    if (strides[j] % kStrideBytes != 0)
      return fail(at / map_key::Strides / j,
                  field(map_key::Strides, j) + " is " +
                      std::to_string(strides[j]) + ", not a multiple of " +
                      std::to_string(kStrideBytes));
    uint64_t spanned = mulSat(dims[j], stride);
    if (uint64_t(strides[j]) < spanned)
      return fail(at / map_key::Strides / j,
                  field(map_key::Strides, j) + " is " +
                      std::to_string(strides[j]) + ", less than the " +
                      bytesText(spanned) + " bytes dimension " +
                      std::to_string(j) + " spans: the dimensions overlap");
    stride = strides[j];
  }
  // One past the last byte the map reaches, from the buffer's start.
  uint64_t end = element;
  for (size_t i = 0; i < rank; ++i)
    end = addSat(end, mulSat(dims[i] - 1, i == 0 ? element : strides[i - 1]));
  int64_t available = bytes[static_cast<int>(map.tensor)];
  if (end > uint64_t(available))
    return fail(at, quoted + " reaches " + bytesText(end) + " bytes into \"" +
                        manifest::name(map.tensor) + "\", which has " +
                        std::to_string(available) +
                        ": the tensor map would read outside the buffer");

  TensorMapEncode &e = map.encode;
  e.dataType = kDataTypes[dataType];
  e.rank = static_cast<uint32_t>(rank);
  for (size_t i = 0; i < rank; ++i) {
    e.dims[i] = static_cast<uint64_t>(dims[i]);
    e.box[i] = static_cast<uint32_t>(box[i]);
    e.elementStrides[i] = static_cast<uint32_t>(elementStrides[i]);
  }
  for (size_t j = 0; j + 1 < rank; ++j)
    e.strides[j] = static_cast<uint64_t>(strides[j]);
  e.interleave = cuda::CU_TENSOR_MAP_INTERLEAVE_NONE;
  e.swizzle = kSwizzles[swizzle];
  e.l2Promotion = kL2Promotions[l2];
  e.oobFill = kOobFills[oob];
  return true;
}

} // namespace

std::optional<std::vector<TensorMap>> nvfp4::run::readTensorMaps(
    const json::Document &doc, const std::vector<Param> &params,
    const std::array<int64_t, manifest::kNumParams> &bufferBytes,
    std::string &error) {
  MapReader reader(doc, params, error);
  std::vector<TensorMap> maps;
  Pointer at("/" + std::string(key::TensorMaps));
  auto list = doc.root.find(key::TensorMaps);
  bool present = list != doc.root.end();
  if (present && !list->is_array()) {
    reader.fail(at, "field \"tensor_maps\" must be an array of tensor maps, "
                    "got " +
                        std::string(json::describe(*list)));
    return std::nullopt;
  }
  for (size_t i = 0; present && i < list->size(); ++i) {
    TensorMap map;
    if (!reader.readEntry(i, map, bufferBytes))
      return std::nullopt;
    for (size_t j = 0; j < maps.size(); ++j)
      if (maps[j].param == map.param) {
        reader.fail(at / i / map_key::Param,
                    "\"tensor_maps[" + std::to_string(i) + "].param\" is \"" +
                        manifest::name(map.param) + "\" again: tensor_maps[" +
                        std::to_string(j) + "] maps it already");
        return std::nullopt;
      }
    maps.push_back(map);
  }
  // Every tensor-map parameter needs its map.
  for (size_t k = 0; k < params.size(); ++k) {
    if (!manifest::isTensorMap(params[k]) ||
        std::any_of(maps.begin(), maps.end(),
                    [&](const TensorMap &m) { return m.param == params[k]; }))
      continue;
    std::string param = "\"" + std::string(manifest::name(params[k])) + "\"";
    if (present)
      reader.fail(at, "\"tensor_maps\" has no entry for " + param +
                          ", which \"params\" lists");
    else
      reader.fail(Pointer("/" + std::string(key::Params)) / k,
                  "\"params\" lists " + param +
                      ", but the manifest has no \"tensor_maps\"");
    return std::nullopt;
  }
  return maps;
}
