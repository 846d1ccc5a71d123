//===- RunnerTensorMapTest.cpp - nvfp4-run: tensor-map parameters ---------===//
//
// The manifest's tensor_maps become the arguments of cuTensorMapEncodeTiled;
// every rule the runner checks before the driver is loaded has a case here,
// and the kernel's signature pins the maps. The expected enumeration values
// are the CUDA driver API's (cuda.h), written out so that a wrong constant
// fails.
//
//===----------------------------------------------------------------------===//

#include "RunnerTestUtil.h"
#include "nvfp4-run/Manifest.h"

#include <gtest/gtest.h>

using namespace nvfp4;
using namespace nvfp4::run;
using namespace nvfp4::run::test;

namespace {

/// One tensor_maps entry as raw JSON values, one a field. The defaults are
/// valid for the 7168x16384x1 nvfp4 linear gemv of validFields(): the map of
/// "a" covers its 58,720,256 bytes exactly, that of "sfa" its 7,340,032.
struct Entry {
  std::string param = "\"a_tensor_map\"", tensor = "\"a\"",
              dataType = "\"uint8\"", dims = "[8192, 7168, 1]",
              strides = "[8192, 58720256]", box = "[128, 32, 1]",
              elementStrides = "[1, 1, 1]", swizzle = "\"128b\"",
              l2 = "\"256b\"", oob = "\"zero\"";

  static Entry sfa() {
    Entry e;
    e.param = "\"sfa_tensor_map\"";
    e.tensor = "\"sfa\"";
    e.dataType = "\"uint32\"";
    e.dims = "[256, 7168]";
    e.strides = "[1024]";
    e.box = "[16, 64]";
    e.elementStrides = "[1, 2]";
    e.swizzle = "\"64b\"";
    e.l2 = "\"none\"";
    e.oob = "\"nan\"";
    return e;
  }

  /// The entry with `key` set to the raw JSON `value` (removed when empty).
  std::string json(const std::string &key = "",
                   const std::string &value = "") const {
    std::vector<std::pair<std::string, std::string>> fields = {
        {"param", param},
        {"tensor", tensor},
        {"data_type", dataType},
        {"dims", dims},
        {"strides", strides},
        {"box", box},
        {"element_strides", elementStrides},
        {"swizzle", swizzle},
        {"l2_promotion", l2},
        {"oob_fill", oob}};
    std::string text = "{";
    for (auto &[k, v] : fields) {
      std::string field = k == key ? value : v;
      if (!field.empty())
        text += std::string(text.size() > 1 ? ", " : "") + "\"" + k +
                "\": " + field;
    }
    return text + "}";
  }
};

const char *const kMapParams =
    "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\", \"alpha\", \"a_tensor_map\", "
    "\"sfa_tensor_map\"]";

/// The valid manifest's fields with tensor-map parameters and `maps` (raw
/// JSON, one entry a line; no key when empty) before the version, so that
/// the entries start on line 17.
std::vector<std::pair<std::string, std::string>>
fieldsWithMaps(const std::vector<std::string> &maps,
               const std::string &params = kMapParams) {
  auto fields = validFields();
  std::pair<std::string, std::string> version = fields.back();
  fields.pop_back();
  for (auto &[k, v] : fields)
    if (k == "params")
      v = params;
  if (!maps.empty()) {
    std::string list = "[";
    for (size_t i = 0; i < maps.size(); ++i)
      list += std::string(i ? "," : "") + "\n    " + maps[i];
    fields.push_back({"tensor_maps", list + "\n  ]"});
  }
  fields.push_back(version);
  return fields;
}

std::string textWithMaps(const std::vector<std::string> &maps,
                         const std::string &params = kMapParams) {
  return objectText(fieldsWithMaps(maps, params), "", "");
}

/// Both default maps, the a map's `key` set to `value`.
std::string withA(const std::string &key, const std::string &value) {
  return textWithMaps({Entry().json(key, value), Entry::sfa().json()});
}

TEST(RunnerTensorMap, EncodeArgumentsAreTheDrivers) {
  Manifest m = parseValid(textWithMaps({Entry().json(), Entry::sfa().json()}));
  ASSERT_EQ(m.tensorMaps.size(), 2u);
  const TensorMap &a = m.tensorMaps[0];
  EXPECT_EQ(a.param, Param::ATensorMap);
  EXPECT_EQ(a.tensor, Param::A);
  const TensorMapEncode &e = a.encode;
  EXPECT_EQ(e.dataType, 0); // CU_TENSOR_MAP_DATA_TYPE_UINT8
  EXPECT_EQ(e.rank, 3u);
  // Dimensions innermost first; strides of dims 1 and 2 only.
  EXPECT_EQ(e.dims, (std::array<uint64_t, 5>{8192, 7168, 1, 0, 0}));
  EXPECT_EQ(e.strides, (std::array<uint64_t, 4>{8192, 58720256, 0, 0}));
  EXPECT_EQ(e.box, (std::array<uint32_t, 5>{128, 32, 1, 0, 0}));
  EXPECT_EQ(e.elementStrides, (std::array<uint32_t, 5>{1, 1, 1, 0, 0}));
  EXPECT_EQ(e.interleave, 0);  // CU_TENSOR_MAP_INTERLEAVE_NONE
  EXPECT_EQ(e.swizzle, 3);     // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(e.l2Promotion, 3); // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  EXPECT_EQ(e.oobFill, 0);     // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

  const TensorMap &sfa = m.tensorMaps[1];
  EXPECT_EQ(sfa.param, Param::SFATensorMap);
  EXPECT_EQ(sfa.tensor, Param::SFA);
  EXPECT_EQ(sfa.encode.dataType, 2); // CU_TENSOR_MAP_DATA_TYPE_UINT32
  EXPECT_EQ(sfa.encode.rank, 2u);
  EXPECT_EQ(sfa.encode.dims, (std::array<uint64_t, 5>{256, 7168, 0, 0, 0}));
  EXPECT_EQ(sfa.encode.strides, (std::array<uint64_t, 4>{1024, 0, 0, 0}));
  EXPECT_EQ(sfa.encode.box, (std::array<uint32_t, 5>{16, 64, 0, 0, 0}));
  EXPECT_EQ(sfa.encode.elementStrides,
            (std::array<uint32_t, 5>{1, 2, 0, 0, 0}));
  EXPECT_EQ(sfa.encode.swizzle, 2);     // CU_TENSOR_MAP_SWIZZLE_64B
  EXPECT_EQ(sfa.encode.l2Promotion, 0); // CU_TENSOR_MAP_L2_PROMOTION_NONE
  EXPECT_EQ(sfa.encode.oobFill, 1);     // ..._OOB_FILL_NAN_REQUEST_ZERO_FMA

  // Entries in any order; params order is the kernel's.
  Manifest swapped =
      parseValid(textWithMaps({Entry::sfa().json(), Entry().json()}));
  ASSERT_EQ(swapped.tensorMaps.size(), 2u);
  EXPECT_EQ(swapped.tensorMaps[0].param, Param::SFATensorMap);
  EXPECT_EQ(swapped.params.back(), Param::SFATensorMap);
}

TEST(RunnerTensorMap, EverySpellingHasItsDriverValue) {
  // A 2-D map of "a" whose inner box is 32 bytes for every element size,
  // within every swizzle span.
  struct Case {
    const char *key, *spelling;
    int value;
  };
  for (Case c : std::vector<Case>{{"data_type", "uint8", 0},
                                  {"data_type", "uint16", 1},
                                  {"data_type", "uint32", 2},
                                  {"data_type", "uint64", 4},
                                  {"swizzle", "none", 0},
                                  {"swizzle", "32b", 1},
                                  {"swizzle", "64b", 2},
                                  {"swizzle", "128b", 3},
                                  {"l2_promotion", "none", 0},
                                  {"l2_promotion", "64b", 1},
                                  {"l2_promotion", "128b", 2},
                                  {"l2_promotion", "256b", 3},
                                  {"oob_fill", "zero", 0},
                                  {"oob_fill", "nan", 1}}) {
    Entry e;
    std::string type = std::string(c.key) == "data_type" ? c.spelling : "uint8";
    int bytes = type == "uint8"    ? 1
                : type == "uint16" ? 2
                : type == "uint32" ? 4
                                   : 8;
    e.dataType = "\"" + type + "\"";
    e.dims = "[" + std::to_string(32 / bytes) + ", 64]";
    e.strides = "[32]";
    e.box = "[" + std::to_string(32 / bytes) + ", 64]";
    e.elementStrides = "[1, 1]";
    e.swizzle = "\"32b\"";
    std::string text = textWithMaps(
        {e.json(c.key, "\"" + std::string(c.spelling) + "\"")},
        "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\", \"a_tensor_map\"]");
    Manifest m = parseValid(text);
    ASSERT_EQ(m.tensorMaps.size(), 1u) << c.key << " " << c.spelling;
    const TensorMapEncode &enc = m.tensorMaps[0].encode;
    int got = std::string(c.key) == "data_type"      ? enc.dataType
              : std::string(c.key) == "swizzle"      ? enc.swizzle
              : std::string(c.key) == "l2_promotion" ? enc.l2Promotion
                                                     : enc.oobFill;
    EXPECT_EQ(got, c.value) << c.key << " " << c.spelling;
  }
}

TEST(RunnerTensorMap, MapsAreOptional) {
  // No tensor-map parameter, no tensor_maps (or an empty list).
  EXPECT_TRUE(parseValid().tensorMaps.empty());
  EXPECT_EQ(manifestError(manifestText().insert(2, "  \"tensor_maps\": [],\n")),
            "");
}

TEST(RunnerTensorMap, EntriesMatchTheParametersOneToOne) {
  // A listed map parameter without tensor_maps, or without its entry.
  EXPECT_EQ(manifestError(textWithMaps({})),
            "15:52: \"params\" lists \"a_tensor_map\", but the manifest has "
            "no \"tensor_maps\"");
  EXPECT_EQ(manifestError(textWithMaps({Entry().json()})),
            "18:18: \"tensor_maps\" has no entry for \"sfa_tensor_map\", "
            "which \"params\" lists");
  // An entry for a parameter the kernel does not take, or a second one.
  EXPECT_EQ(manifestError(textWithMaps(
                {Entry().json(), Entry::sfa().json()},
                "[\"a\", \"sfa\", \"b\", \"sfb\", \"c\", \"a_tensor_map\"]")),
            "20:15: \"tensor_maps[1].param\" is \"sfa_tensor_map\", which "
            "\"params\" does not list");
  EXPECT_EQ(manifestError(textWithMaps(
                {Entry().json(), Entry::sfa().json(), Entry().json()})),
            "21:15: \"tensor_maps[2].param\" is \"a_tensor_map\" again: "
            "tensor_maps[0] maps it already");
  // The param must be a tensor-map parameter, the tensor a buffer of the
  // kernel.
  EXPECT_EQ(manifestError(withA("param", "\"a\"")),
            "19:15: \"tensor_maps[0].param\" must name a tensor-map parameter "
            "(a_tensor_map or sfa_tensor_map), got \"a\"");
  EXPECT_EQ(manifestError(withA("tensor", "\"alpha\"")),
            "19:41: \"tensor_maps[0].tensor\" must name a buffer parameter (a, "
            "sfa, b, sfb or c), got \"alpha\"");
  EXPECT_EQ(manifestError(withA("tensor", "\"a_tensor_map\"")),
            "19:41: \"tensor_maps[0].tensor\" must name a buffer parameter (a, "
            "sfa, b, sfb or c), got \"a_tensor_map\"");
}

TEST(RunnerTensorMap, EntriesHaveExactlyTheSchemasKeys) {
  EXPECT_EQ(manifestError(manifestText().insert(2, "\"tensor_maps\": {},\n")),
            "2:16: field \"tensor_maps\" must be an array of tensor maps, got "
            "an object");
  EXPECT_EQ(manifestError(textWithMaps({"7", Entry::sfa().json()})),
            "19:5: \"tensor_maps[0]\" must be an object, got an integer");
  EXPECT_EQ(manifestError(withA("box", "")),
            "19:5: \"tensor_maps[0]\" lacks \"box\"");
  std::string extra = Entry().json();
  extra.insert(1, "\"interleave\": \"none\", ");
  EXPECT_EQ(manifestError(textWithMaps({extra, Entry::sfa().json()})),
            "19:20: \"tensor_maps[0]\" has an unknown key \"interleave\" (its "
            "keys are param, tensor, data_type, dims, strides, box, "
            "element_strides, swizzle, l2_promotion and oob_fill)");
}

/// The message of `text`'s error without its "LINE:COL: ".
std::string message(const std::string &text) {
  std::string error = manifestError(text);
  size_t colon = error.find(": ");
  return colon == std::string::npos ? error : error.substr(colon + 2);
}

TEST(RunnerTensorMap, EnumerationsAreKnownSpellings) {
  EXPECT_EQ(message(withA("data_type", "\"int8\"")),
            "\"tensor_maps[0].data_type\" must be uint8, uint16, uint32 or "
            "uint64, got \"int8\"");
  EXPECT_EQ(message(withA("swizzle", "\"16b\"")),
            "\"tensor_maps[0].swizzle\" must be none, 32b, 64b or 128b, got "
            "\"16b\"");
  EXPECT_EQ(message(withA("l2_promotion", "128")),
            "\"tensor_maps[0].l2_promotion\" must be none, 64b, 128b or "
            "256b, got 128");
  EXPECT_EQ(message(withA("oob_fill", "\"inf\"")),
            "\"tensor_maps[0].oob_fill\" must be zero or nan, got \"inf\"");
}

TEST(RunnerTensorMap, RankIsOneToFive) {
  EXPECT_EQ(message(withA("dims", "[]")),
            "\"tensor_maps[0].dims\" must be an array of 1 to 5 integers, got "
            "0 elements");
  EXPECT_EQ(message(withA("dims", "[1, 1, 1, 1, 1, 1]")),
            "\"tensor_maps[0].dims\" must be an array of 1 to 5 integers, got "
            "6 elements");
  // The other arrays follow the rank of dims.
  EXPECT_EQ(message(withA("strides", "[8192]")),
            "\"tensor_maps[0].strides\" must be an array of 2 integers, got 1 "
            "elements");
  EXPECT_EQ(message(withA("box", "[128, 32]")),
            "\"tensor_maps[0].box\" must be an array of 3 integers, got 2 "
            "elements");
  EXPECT_EQ(message(withA("element_strides", "[1, 1, 1, 1]")),
            "\"tensor_maps[0].element_strides\" must be an array of 3 "
            "integers, got 4 elements");
  // Rank 1 has no strides; rank 5 is the most.
  Entry one;
  one.dims = "[4096]";
  one.strides = "[]";
  one.box = "[128]";
  one.elementStrides = "[1]";
  EXPECT_EQ(manifestError(textWithMaps({one.json(), Entry::sfa().json()})), "");
  Entry five;
  five.dims = "[8192, 7168, 1, 1, 1]";
  five.strides = "[8192, 58720256, 58720256, 58720256]";
  five.box = "[128, 32, 1, 1, 1]";
  five.elementStrides = "[1, 1, 1, 1, 1]";
  EXPECT_EQ(manifestError(textWithMaps({five.json(), Entry::sfa().json()})),
            "");
}

TEST(RunnerTensorMap, DimsAreOneTo2To32) {
  EXPECT_EQ(message(withA("dims", "[0, 7168, 1]")),
            "\"tensor_maps[0].dims[0]\" must be in [1, 4294967296], got 0");
  EXPECT_EQ(message(withA("dims", "[8192, 4294967297, 1]")),
            "\"tensor_maps[0].dims[1]\" must be in [1, 4294967296], got "
            "4294967297");
  EXPECT_EQ(message(withA("dims", "[8192, 7168, -1]")),
            "\"tensor_maps[0].dims[2]\" must be in [1, 4294967296], got -1");
  EXPECT_EQ(message(withA("dims", "[8192, 7168, 1e3]")),
            "\"tensor_maps[0].dims[2]\" must be an integer, got a number");
  EXPECT_EQ(message(withA("dims", "[8192, 18446744073709551616, 1]")),
            "\"tensor_maps[0].dims[1]\" must be an integer, got a number");
  EXPECT_EQ(message(withA("dims", "\"8192\"")),
            "\"tensor_maps[0].dims\" must be an array of 1 to 5 integers, got "
            "a string");
}

TEST(RunnerTensorMap, StridesAreMultiplesOf16Below2To40) {
  EXPECT_EQ(message(withA("strides", "[8200, 58720256]")),
            "\"tensor_maps[0].strides[0]\" is 8200, not a multiple of 16");
  EXPECT_EQ(message(withA("strides", "[8192, 1099511627776]")),
            "\"tensor_maps[0].strides[1]\" must be in [1, 1099511627775], got "
            "1099511627776");
  EXPECT_EQ(message(withA("strides", "[0, 58720256]")),
            "\"tensor_maps[0].strides[0]\" must be in [1, 1099511627775], got "
            "0");
}

TEST(RunnerTensorMap, DimensionsDoNotOverlap) {
  // Row stride below the 8192 bytes of a row; batch stride below the rows.
  EXPECT_EQ(message(withA("strides", "[4096, 58720256]")),
            "\"tensor_maps[0].strides[0]\" is 4096, less than the 8192 bytes "
            "dimension 0 spans: the dimensions overlap");
  EXPECT_EQ(message(withA("strides", "[8192, 8192]")),
            "\"tensor_maps[0].strides[1]\" is 8192, less than the 58720256 "
            "bytes dimension 1 spans: the dimensions overlap");
  // A span beyond 64 bits is still compared correctly.
  Entry huge;
  huge.dims = "[16, 4294967296, 2]";
  huge.strides = "[1099511627760, 1099511627760]";
  huge.box = "[16, 32, 1]";
  EXPECT_EQ(message(textWithMaps({huge.json(), Entry::sfa().json()})),
            "\"tensor_maps[0].strides[1]\" is 1099511627760, less than the "
            "2^64 or more bytes dimension 1 spans: the dimensions overlap");
}

TEST(RunnerTensorMap, BoxIsOneTo256WithinDims) {
  EXPECT_EQ(message(withA("box", "[0, 32, 1]")),
            "\"tensor_maps[0].box[0]\" must be in [1, 256], got 0");
  EXPECT_EQ(message(withA("box", "[128, 257, 1]")),
            "\"tensor_maps[0].box[1]\" must be in [1, 256], got 257");
  EXPECT_EQ(message(withA("box", "[128, 32, 2]")),
            "\"tensor_maps[0].box[2]\" is 2, more than dims[2] = 1");
}

TEST(RunnerTensorMap, InnerBoxIsWhole16ByteChunks) {
  EXPECT_EQ(message(withA("box", "[24, 32, 1]")),
            "\"tensor_maps[0].box[0]\" is 24 uint8 elements, 24 bytes: the "
            "inner box must be a multiple of 16 bytes");
  Entry e = Entry::sfa();
  e.box = "[6, 64]";
  EXPECT_EQ(message(textWithMaps({Entry().json(), e.json()})),
            "\"tensor_maps[1].box[0]\" is 6 uint32 elements, 24 bytes: the "
            "inner box must be a multiple of 16 bytes");
}

TEST(RunnerTensorMap, InnerBoxFitsTheSwizzle) {
  EXPECT_EQ(message(withA("box", "[256, 32, 1]")),
            "\"tensor_maps[0].swizzle\" swizzles within 128 bytes, less than "
            "the inner box (256 bytes)");
  EXPECT_EQ(message(withA("swizzle", "\"32b\"")),
            "\"tensor_maps[0].swizzle\" swizzles within 32 bytes, less than "
            "the inner box (128 bytes)");
  // Without a swizzle the inner box is only bounded by 256 elements.
  Entry wide;
  wide.swizzle = "\"none\"";
  wide.box = "[256, 32, 1]";
  EXPECT_EQ(manifestError(textWithMaps({wide.json(), Entry::sfa().json()})),
            "");
}

TEST(RunnerTensorMap, ElementStridesAreOneToEight) {
  EXPECT_EQ(message(withA("element_strides", "[1, 0, 1]")),
            "\"tensor_maps[0].element_strides[1]\" must be in [1, 8], got 0");
  EXPECT_EQ(message(withA("element_strides", "[9, 1, 1]")),
            "\"tensor_maps[0].element_strides[0]\" must be in [1, 8], got 9");
}

TEST(RunnerTensorMap, RegionLiesWithinTheBuffer) {
  // One row more than M, and a second batch past the one there is.
  Entry rows;
  rows.dims = "[8192, 7169, 1]";
  rows.strides = "[8192, 58728448]";
  EXPECT_EQ(manifestError(textWithMaps({rows.json(), Entry::sfa().json()})),
            "19:5: \"tensor_maps[0]\" reaches 58728448 bytes into \"a\", "
            "which has 58720256: the tensor map would read outside the "
            "buffer");
  EXPECT_EQ(message(withA("dims", "[8192, 7168, 2]")),
            "\"tensor_maps[0]\" reaches 117440512 bytes into \"a\", which has "
            "58720256: the tensor map would read outside the buffer");
  // Wider elements cover more bytes: one uint16 element too many.
  Entry wide;
  wide.dataType = "\"uint16\"";
  wide.dims = "[29360129]";
  wide.strides = "[]";
  wide.box = "[64]";
  wide.elementStrides = "[1]";
  EXPECT_EQ(message(textWithMaps({wide.json(), Entry::sfa().json()})),
            "\"tensor_maps[0]\" reaches 58720258 bytes into \"a\", which has "
            "58720256: the tensor map would read outside the buffer");
  // A region beyond 64 bits is still compared correctly.
  Entry huge;
  huge.dims = "[16, 4294967296, 4294967296]";
  huge.strides = "[16, 1099511627760]";
  huge.box = "[16, 32, 1]";
  EXPECT_EQ(message(textWithMaps({huge.json(), Entry::sfa().json()})),
            "\"tensor_maps[0]\" reaches 2^64 or more bytes into \"a\", which "
            "has 58720256: the tensor map would read outside the buffer");
  // The buffer is the one "tensor" names: a's map is too large for sfa.
  EXPECT_EQ(message(withA("tensor", "\"sfa\"")),
            "\"tensor_maps[0]\" reaches 58720256 bytes into \"sfa\", which "
            "has 7340032: the tensor map would read outside the buffer");
  // Any buffer of the kernel may be mapped, within its size.
  Entry b;
  b.tensor = "\"b\"";
  b.dims = "[8192]";
  b.strides = "[]";
  b.box = "[128]";
  b.elementStrides = "[1]";
  EXPECT_EQ(manifestError(textWithMaps({b.json(), Entry::sfa().json()})), "");
  b.dims = "[8193]";
  EXPECT_EQ(message(textWithMaps({b.json(), Entry::sfa().json()})),
            "\"tensor_maps[0]\" reaches 8193 bytes into \"b\", which has "
            "8192: the tensor map would read outside the buffer");
}

TEST(RunnerTensorMap, AnyJsonGivesAnErrorNotACrash) {
  const char *values[] = {"null",
                          "true",
                          "-1",
                          "0",
                          "1e308",
                          "-9223372036854775808",
                          "9223372036854775807",
                          "18446744073709551616",
                          "\"\"",
                          "\"a\"",
                          "[]",
                          "{}",
                          "[[1]]",
                          "[-1, -1, -1]",
                          "[4294967296, 4294967296, 4294967296]",
                          "[1099511627775, 1099511627775]",
                          "[9223372036854775807, 1, 1]",
                          "[1, 2, 3, 4, 5, 6, 7, 8]",
                          "[\"1\", 1, 1]"};
  for (const char *key : manifest::tensorMapKeys())
    for (const char *value : values) {
      std::string error;
      EXPECT_NO_THROW(error = manifestError(withA(key, value)))
          << key << " = " << value;
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
  for (const char *value : values) {
    std::string text = manifestText();
    text.insert(2, "\"tensor_maps\": " + std::string(value) + ",\n");
    EXPECT_NO_THROW(manifestError(text)) << value;
    EXPECT_NO_THROW(manifestError(textWithMaps({value}))) << value;
  }
}

/// kPtxText's entry with the tensor-map parameters, and the signature of
/// `fields`.
std::string
ptxWithMaps(const std::vector<std::pair<std::string, std::string>> &fields) {
  std::string ptx = replaced(kPtxText, ".param .f32 nvfp4_gemv_kernel_param_5",
                             ".param .f32 nvfp4_gemv_kernel_param_5,\n"
                             "\t.param .u64 nvfp4_gemv_kernel_param_6,\n"
                             "\t.param .u64 nvfp4_gemv_kernel_param_7");
  return ptx + signatureGlobal(fields, "nvfp4_gemv_kernel");
}

TEST(RunnerTensorMap, SignatureCarriesTheMaps) {
  auto fields = fieldsWithMaps({Entry().json(), Entry::sfa().json()});
  std::string ptx = ptxWithMaps(fields);
  EXPECT_EQ(ptxError(parseValid(objectText(fields, "", "")), ptx), "");
  // A map edited in the manifest names its field.
  EXPECT_EQ(ptxError(parseValid(withA("box", "[64, 32, 1]")), ptx),
            "manifest does not match the PTX: \"tensor_maps[0].box\" is "
            "[64,32,1] in the manifest, but nvfp4_gemv_kernel was built for "
            "[128,32,1]");
  EXPECT_EQ(ptxError(parseValid(withA("oob_fill", "\"nan\"")), ptx),
            "manifest does not match the PTX: \"tensor_maps[0].oob_fill\" is "
            "\"nan\" in the manifest, but nvfp4_gemv_kernel was built for "
            "\"zero\"");
  // Entries in another order are another manifest.
  EXPECT_EQ(
      ptxError(parseValid(textWithMaps({Entry::sfa().json(), Entry().json()})),
               ptx),
      "manifest does not match the PTX: \"tensor_maps[0].box\" is "
      "[16,64] in the manifest, but nvfp4_gemv_kernel was built for "
      "[128,32,1]");
}

TEST(RunnerTensorMap, SignatureAndManifestBothHaveMapsOrNeither) {
  auto empty = validFields();
  empty.insert(empty.end() - 1, {"tensor_maps", "[]"});
  // The signature has maps, the manifest none.
  EXPECT_EQ(ptxError(parseValid(),
                     kPtxText + signatureGlobal(empty, "nvfp4_gemv_kernel")),
            "manifest does not match the PTX: the manifest has no "
            "\"tensor_maps\", but nvfp4_gemv_kernel was built with []");
  // The manifest has maps, the signature none.
  EXPECT_EQ(ptxError(parseValid(objectText(empty, "", ""))),
            "manifest does not match the PTX: the signature of "
            "nvfp4_gemv_kernel lacks \"tensor_maps\"");
}

TEST(RunnerTensorMap, ConversionsIgnoreTheKey) {
  // tensor_maps is a gemv's key; a conversion's parameters cannot name a
  // map, so the key is outside its schema like any other.
  EXPECT_EQ(manifest::optionalKeys(manifest::Op::ConvertScaleLayout),
            std::vector<const char *>{});
  EXPECT_EQ(manifest::params(manifest::Op::ConvertScaleLayout).optional,
            std::vector<Param>{});
}

} // namespace
