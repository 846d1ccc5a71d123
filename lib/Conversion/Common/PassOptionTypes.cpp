//===- PassOptionTypes.cpp - typed options of the nvfp4 GPU passes --------===//

#include "nvfp4/Conversion/PassOptionTypes.h"

#include "nvfp4/Support/Chips.h"

using namespace llvm;

bool cl::parser<mlir::nvfp4::ChipName>::parse(Option &option, StringRef,
                                              StringRef arg,
                                              mlir::nvfp4::ChipName &value) {
  if (!::nvfp4::findChip(std::string_view(arg.data(), arg.size())))
    return option.error("unknown chip '" + arg + "' (expected " +
                        ::nvfp4::knownChipNames() + ")");
  value = arg.str();
  return false;
}

void cl::parser<mlir::nvfp4::ChipName>::printOptionDiff(
    const Option &option, const mlir::nvfp4::ChipName &value, const OptVal &,
    size_t globalWidth) const {
  printOptionName(option, globalWidth);
  outs() << "= " << value.name << "\n";
}

void cl::parser<mlir::nvfp4::ChipName>::anchor() {}
