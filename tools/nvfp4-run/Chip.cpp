//===- Chip.cpp - PTX target names and what they run on -------------------===//

#include "nvfp4-run/Chip.h"

using namespace nvfp4::run;

std::optional<Chip> nvfp4::run::parseChip(std::string_view name) {
  if (name.substr(0, 3) != "sm_")
    return std::nullopt;
  std::string_view rest = name.substr(3);
  Chip chip;
  chip.name = std::string(name);
  if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) {
    chip.suffix = rest.back();
    rest.remove_suffix(1);
  }
  // At least two digits: one for the major, one for the minor version.
  if (rest.size() < 2 || rest.size() > 4 || rest[0] == '0')
    return std::nullopt;
  int number = 0;
  for (char c : rest) {
    if (c < '0' || c > '9')
      return std::nullopt;
    number = number * 10 + (c - '0');
  }
  chip.major = number / 10;
  chip.minor = number % 10;
  return chip;
}

std::string nvfp4::run::checkChipRunsOn(const Chip &chip, int major, int minor,
                                        std::string_view deviceName) {
  bool runs;
  if (chip.suffix == 'a')
    runs = major == chip.major && minor == chip.minor;
  else if (chip.suffix == 'f')
    runs = major == chip.major && minor >= chip.minor;
  else
    runs = major * 10 + minor >= chip.major * 10 + chip.minor;
  if (runs)
    return "";
  return "kernel built for " + chip.name + " cannot run on " +
         std::string(deviceName) + " (sm_" + std::to_string(major) +
         std::to_string(minor) + ")";
}
