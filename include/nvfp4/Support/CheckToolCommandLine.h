//===- CheckToolCommandLine.h - command line of the check tools -*- C++ -*-===//
//
// The check tools (nvfp4-cpu-check, nvfp4-tcgen05-check) answer --help on
// stdout with status 0 and a malformed command line with one line on stderr
// and status 2.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_CHECKTOOLCOMMANDLINE_H
#define NVFP4_SUPPORT_CHECKTOOLCOMMANDLINE_H

#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>

namespace nvfp4 {

/// Parses `argv` into `app`; returns the status to exit with when the tool
/// must not go on (help printed, or an error reported as `tool: error: ...`).
inline std::optional<int> parseCheckToolCommandLine(CLI::App &app, int argc,
                                                    char **argv,
                                                    const char *tool) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError &e) {
    std::fprintf(stderr, "%s: error: %s (see --help)\n", tool, e.what());
    return 2;
  }
  return std::nullopt;
}

} // namespace nvfp4

#endif // NVFP4_SUPPORT_CHECKTOOLCOMMANDLINE_H
