//===- ManifestSchema.h - The kernel manifest contract ----------*- C++ -*-===//
//
// The manifest is the JSON object written next to every exported PTX kernel
// (nvfp4-export-kernels) and read by nvfp4-run, which has no MLIR. This
// header is the one description of it both sides use: the schema version,
// the key names, the spellings of every enumerated field and the kernel
// parameters of each op. Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_MANIFESTSCHEMA_H
#define NVFP4_SUPPORT_MANIFESTSCHEMA_H

#include "nvfp4/Support/Reference.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nvfp4::manifest {

/// Written as "version"; raised whenever a field is added, removed or changes
/// meaning. A reader accepts exactly the version it was built with.
inline constexpr int64_t kVersion = 5;

/// Key names.
namespace key {
inline constexpr const char *Version = "version";
inline constexpr const char *Kernel = "kernel";
inline constexpr const char *Ptx = "ptx";
inline constexpr const char *Chip = "chip";
inline constexpr const char *Op = "op";
inline constexpr const char *Grid = "grid";
inline constexpr const char *Block = "block";
inline constexpr const char *SharedBytes = "shared_bytes";
inline constexpr const char *Params = "params";
inline constexpr const char *L = "l";
// gemv
inline constexpr const char *M = "m";
inline constexpr const char *K = "k";
inline constexpr const char *ScaleFormat = "scale_format";
inline constexpr const char *ScaleLayout = "scale_layout";
inline constexpr const char *Output = "output";
// Vectors per batch, 1 to formats::kMaxGemvVectors, and what b holds
// (ref::VectorElement): e2m1 vectors come with their scales sfb, 16-bit ones
// have none.
inline constexpr const char *N = "n";
inline constexpr const char *Vector = "vector";
// convert_scale_layout
inline constexpr const char *Rows = "rows";
inline constexpr const char *Cols = "cols";
inline constexpr const char *From = "from";
inline constexpr const char *To = "to";
inline constexpr const char *Element = "element";
// quantize, quantize_global_scale, dequantize: `rows` x `k` values a batch
// (key::Rows, key::K, key::L); the scale format and layout of the packed side
// (key::ScaleFormat, key::ScaleLayout; not for quantize_global_scale), the
// element type of the values (key::Input for the quantizers, key::Output for
// dequantize; ref::ElementType spellings) and whether the scaling is
// two-level (true: the kernel reads the f32 global scale, or for
// quantize_global_scale writes it).
inline constexpr const char *Input = "input";
inline constexpr const char *GlobalScale = "global_scale";
// gemv, optional: one entry per tensor-map parameter (TensorMap below)
inline constexpr const char *TensorMaps = "tensor_maps";
/// How the gemv kernel sums a row (ref::GemvSums; absent: units).
inline constexpr const char *Sums = "sums";
/// Whether a gemv kernel reads a in the tiled order of
/// nvfp4/Support/CodeLayout.h (ref::GemvProblem::tiledCodes; absent: false).
inline constexpr const char *TiledCodes = "tiled_codes";
} // namespace key

/// The keys of one key::TensorMaps entry, all required. The entry describes
/// the arguments of the driver's cuTensorMapEncodeTiled for the buffer
/// `tensor`: `dims` (innermost first, in elements), `strides` (bytes, of
/// dims 1..rank-1), `box` and `element_strides` (rank integers each); the
/// interleave is always none.
namespace map_key {
inline constexpr const char *Param = "param";
inline constexpr const char *Tensor = "tensor";
inline constexpr const char *DataType = "data_type";
inline constexpr const char *Dims = "dims";
inline constexpr const char *Strides = "strides";
inline constexpr const char *Box = "box";
inline constexpr const char *ElementStrides = "element_strides";
inline constexpr const char *Swizzle = "swizzle";
inline constexpr const char *L2Promotion = "l2_promotion";
inline constexpr const char *OobFill = "oob_fill";
} // namespace map_key

/// Every key of a key::TensorMaps entry, in the order above.
std::vector<const char *> tensorMapKeys();

/// The operations a manifest describes (key::Op). A two-level NVFP4
/// quantization is two kernels: QuantizeGlobalScale writes
/// gs = 448 * 6 / amax(input) (1 for an all-zero input), then Quantize reads
/// it (docs/numerics.md section 5).
enum class Op {
  Gemv,
  ConvertScaleLayout,
  Quantize,
  QuantizeGlobalScale,
  Dequantize
};

/// Kernel parameters. Every one is a .u64 except Alpha, an f32 passed by
/// value: a device pointer to a buffer (isBuffer), or to the 128-byte
/// CUtensorMap the host encodes from the manifest's key::TensorMaps entry
/// for it (ATensorMap, SFATensorMap).
enum class Param {
  A,
  SFA,
  B,
  SFB,
  C,
  Alpha,
  Source,
  Dest,
  ATensorMap,
  SFATensorMap,
  Input,
  Data,
  Scales,
  GlobalScale,
  Output
};
inline constexpr int kNumParams = 15;

/// True for the parameters that point to a buffer the runner allocates.
bool isBuffer(Param param);
/// True for ATensorMap and SFATensorMap.
bool isTensorMap(Param param);

/// The enumerations of a key::TensorMaps entry, in the order of their
/// spellings (map_key::DataType: "uint8", "uint16", "uint32", "uint64";
/// map_key::Swizzle: "none", "32b", "64b", "128b"; map_key::L2Promotion:
/// "none", "64b", "128b", "256b"; map_key::OobFill: "zero", "nan", the
/// latter the driver's NaN-request-zero-FMA fill).
enum class MapDataType { UInt8, UInt16, UInt32, UInt64 };
enum class MapSwizzle { None, B32, B64, B128 };
enum class MapL2Promotion { None, B64, B128, B256 };
enum class MapOobFill { Zero, NaN };

/// Bytes of one element of `type`.
int64_t elementBytes(MapDataType type);
/// The span a swizzle permutes 16-byte chunks within (32, 64 or 128 bytes;
/// 0 for none): the inner box row may not exceed it.
int64_t swizzleBytes(MapSwizzle swizzle);

/// The element type of a scale tensor a conversion moves (key::Element); its
/// bytes are moved unread, so it only names the kernel.
enum class ScaleElement { F8E4M3FN, F8E8M0FNU };

/// Spellings: "gemv", "convert_scale_layout", "quantize",
/// "quantize_global_scale", "dequantize"; "a", "sfa", ..., "dest",
/// "a_tensor_map", "sfa_tensor_map", "input", "data", "scales",
/// "global_scale", "output"; "f8E4M3FN", "f8E8M0FNU" (the MLIR type
/// names). Scale formats, layouts, output types and vector elements are
/// spelled by ref::name (Reference.h).
const char *name(Op op);
const char *name(Param param);
const char *name(ScaleElement element);

/// Every key a manifest of `op` must have, the version included.
std::vector<const char *> requiredKeys(Op op);

/// Keys a manifest of `op` may have (key::TensorMaps for a gemv). Each is
/// signed when present.
std::vector<const char *> optionalKeys(Op op);

/// The parameters of `op`: `required` must all be listed (in any order),
/// `optional` may be (a gemv's alpha and tensor maps), any other must not
/// be. A gemv takes sfb exactly when its vectors are e2m1 (key::Vector):
/// `vector` is ignored for other ops. Quantize and Dequantize take
/// global_scale exactly when `twoLevel` (key::GlobalScale), last; it is
/// ignored for other ops.
struct ParamSet {
  std::vector<Param> required, optional;
};
ParamSet params(Op op, ref::VectorElement vector = ref::VectorElement::E2M1,
                bool twoLevel = false);

/// Every kernel the compiler exports carries its signature in the PTX: a
/// global byte array named signatureSymbol(kernel) whose bytes are the
/// compact JSON object of the manifest's fields other than key::Ptx and
/// key::Version (extra keys allowed). The runner checks the manifest
/// against it, so a manifest edited to another shape, format or launch is
/// refused.
std::string signatureSymbol(std::string_view kernel);

/// The keys of `op` a signature carries: requiredKeys(op) without
/// key::Ptx, key::Version and key::Kernel (the signature's symbol names it),
/// then optionalKeys(op). A required key must be in the signature; an
/// optional one must be in both the signature and the manifest, or in
/// neither.
std::vector<const char *> signatureKeys(Op op);

/// The spellings an enumerated key accepts, in the order of its enum
/// (key::Op: Op; key::ScaleFormat: ref::ScaleFormat; key::ScaleLayout,
/// key::From, key::To: ref::ScaleLayout; key::Output, key::Input:
/// ref::ElementType;
/// key::Vector: ref::VectorElement;
/// key::Element: ScaleElement; map_key::DataType, map_key::Swizzle,
/// map_key::L2Promotion, map_key::OobFill: MapDataType, ...). Empty for any
/// other key.
std::vector<const char *> spellings(std::string_view key);

/// True when a kernel of `op` writes the buffer `param`, false when it only
/// reads it (or it is no buffer): a gemv writes c, a quantize data and
/// scales, a quantize_global_scale global_scale, a dequantize output and a
/// convert_scale_layout dest.
bool writes(Op op, Param param);

/// The sequence file: for one host function whose nvfp4 ops were lowered to
/// launches, the launches in program order and the function arguments they
/// share, so that nvfp4-run can run them in order on shared buffers. Written
/// by nvfp4-export-kernels as sequenceFileName(prefix, function) next to the
/// manifests:
///   {"version": kSequenceVersion, "function": "decode_step",
///    "buffers": [{"arg": 0, "bytes": 114688}, ...],
///    "launches": [{"manifest": "decode_step_quantize.json",
///                  "args": [{"arg": 0}, {"arg": 1}, ...]}, ...]}
/// `buffers` has one entry per memref argument some launch uses (its index
/// and its size in bytes). A launch's `args` follow its manifest's params
/// order: a buffer param names its function argument; a scalar param (a
/// gemv's alpha) names it too, with "scalar": true; a tensor-map param has
/// "tensor_map": true and no argument (the runner encodes it from the
/// buffer it describes). The manifest path is relative to the sequence
/// file's directory.
inline constexpr int64_t kSequenceVersion = 1;
namespace seq_key {
inline constexpr const char *Version = "version";
inline constexpr const char *Function = "function";
inline constexpr const char *Buffers = "buffers";
inline constexpr const char *Launches = "launches";
inline constexpr const char *Arg = "arg";
inline constexpr const char *Bytes = "bytes";
inline constexpr const char *Manifest = "manifest";
inline constexpr const char *Args = "args";
inline constexpr const char *Scalar = "scalar";
inline constexpr const char *TensorMap = "tensor_map";
} // namespace seq_key

/// "<prefix><function>.sequence.json": the name ends in kSequenceSuffix,
/// which no manifest's does (a glob of an export directory's *.json takes
/// both; nvfp4-run skips the sequence files among its manifests).
inline constexpr const char *kSequenceSuffix = ".sequence.json";
std::string sequenceFileName(std::string_view prefix,
                             std::string_view function);
/// True when `path` names a sequence file (ends in kSequenceSuffix).
bool isSequenceFile(std::string_view path);

} // namespace nvfp4::manifest

#endif // NVFP4_SUPPORT_MANIFESTSCHEMA_H
