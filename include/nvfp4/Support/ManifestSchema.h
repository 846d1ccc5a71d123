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

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nvfp4::manifest {

/// Written as "version"; raised whenever a field is added, removed or changes
/// meaning. A reader accepts exactly the version it was built with.
inline constexpr int64_t kVersion = 1;

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
// convert_scale_layout
inline constexpr const char *Rows = "rows";
inline constexpr const char *Cols = "cols";
inline constexpr const char *From = "from";
inline constexpr const char *To = "to";
inline constexpr const char *Element = "element";
} // namespace key

/// The operations a manifest describes (key::Op).
enum class Op { Gemv, ConvertScaleLayout };

/// Kernel parameters. Every one is a device pointer (.u64) except Alpha, an
/// f32 passed by value.
enum class Param { A, SFA, B, SFB, C, Alpha, Source, Dest };
inline constexpr int kNumParams = 8;

/// The element type of a scale tensor a conversion moves (key::Element); its
/// bytes are moved unread, so it only names the kernel.
enum class ScaleElement { F8E4M3FN, F8E8M0FNU };

/// Spellings: "gemv", "convert_scale_layout"; "a", "sfa", ..., "dest";
/// "f8E4M3FN", "f8E8M0FNU" (the MLIR type names). Scale formats, layouts and
/// output types are spelled by ref::name (Reference.h).
const char *name(Op op);
const char *name(Param param);
const char *name(ScaleElement element);

/// Every key a manifest of `op` must have, the version included.
std::vector<const char *> requiredKeys(Op op);

/// The parameters of `op`: `required` must all be listed (in any order),
/// `optional` may be (a gemv's alpha).
struct ParamSet {
  std::vector<Param> required, optional;
};
ParamSet params(Op op);

/// Every kernel the compiler exports carries its signature in the PTX: a
/// global byte array named signatureSymbol(kernel) whose bytes are the
/// compact JSON object of the manifest's fields other than key::Ptx and
/// key::Version (extra keys allowed). The runner checks the manifest
/// against it, so a manifest edited to another shape, format or launch is
/// refused.
std::string signatureSymbol(std::string_view kernel);

/// The keys of `op` a signature must carry: requiredKeys(op) without
/// key::Ptx, key::Version and key::Kernel (the signature's symbol names it).
std::vector<const char *> signatureKeys(Op op);

/// The spellings an enumerated key accepts, in the order of its enum
/// (key::Op: Op; key::ScaleFormat: ref::ScaleFormat; key::ScaleLayout,
/// key::From, key::To: ref::ScaleLayout; key::Output: ref::ElementType;
/// key::Element: ScaleElement). Empty for any other key.
std::vector<const char *> spellings(std::string_view key);

} // namespace nvfp4::manifest

#endif // NVFP4_SUPPORT_MANIFESTSCHEMA_H
