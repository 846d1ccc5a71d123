//===- PassOptionTypes.h - typed options of the nvfp4 GPU passes -*- C++
//-*-===//
//
// The value types of the GPU lowerings' options (Passes.td), checked when the
// option is parsed: an unknown chip or decode method is an error before any
// pass runs.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_PASSOPTIONTYPES_H
#define NVFP4_CONVERSION_PASSOPTIONTYPES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::nvfp4 {

/// How the CUDA-core kernel turns e2m1 codes into arithmetic; ChipDefault
/// picks the chip's best (cvt where it converts e2m1, dp4a elsewhere).
enum class DecodeChoice { ChipDefault, Dp4a, Cvt, F32, Mma };

/// How the CTAs that split a row's K range (cta-split-k) add their partial
/// sums; Auto takes Cluster where the split fits a portable cluster.
enum class CtaReductionChoice { Auto, Cluster, Global };

/// A chip of the chip table (nvfp4/Support/Chips.h). Parsing rejects any
/// other name; code that builds one directly is checked when the pass runs.
struct ChipName {
  std::string name;

  ChipName() = default;
  ChipName(const char *name) : name(name) {}
  ChipName(std::string name) : name(std::move(name)) {}
  operator llvm::StringRef() const { return name; }
  bool operator==(const ChipName &other) const { return name == other.name; }
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const ChipName &chip) {
  return os << chip.name;
}

} // namespace mlir::nvfp4

namespace llvm::cl {

/// Parses a chip name against the chip table.
template <>
class parser<mlir::nvfp4::ChipName>
    : public basic_parser<mlir::nvfp4::ChipName> {
public:
  parser(Option &option) : basic_parser(option) {}
  bool parse(Option &option, StringRef argName, StringRef arg,
             mlir::nvfp4::ChipName &value);
  StringRef getValueName() const override { return "chip"; }
  void printOptionDiff(const Option &option, const mlir::nvfp4::ChipName &value,
                       const OptVal &defaultValue, size_t globalWidth) const;
  void anchor() override;
};

} // namespace llvm::cl

#endif // NVFP4_CONVERSION_PASSOPTIONTYPES_H
