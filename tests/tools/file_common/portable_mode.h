// SPDX-License-Identifier: MIT
// The file-tool suites run twice: natively, and as `portable.*` ctest
// entries (HERMES_TEST_PORTABLE_FILES=1) with terminal.portable_files set, so
// every file operation goes through shell commands on the local backend and
// must give the same results (docs/ARCHITECTURE.md, Backends).
#pragma once

#include "core/config.h"

#include <csignal>
#include <cstdlib>
#include <string_view>

namespace hermes::testing {

inline bool portable_files_run() {
  const char* flag = std::getenv("HERMES_TEST_PORTABLE_FILES");
  return flag && std::string_view(flag) == "1";
}

// Switches `config` to the portable path when this is the portable run.
inline void apply_portable_mode(Config& config) {
  if (!portable_files_run()) return;
  // As the server does (cli/main.cc): content fed to a command that already
  // failed must be an EPIPE, not a kill.
  std::signal(SIGPIPE, SIG_IGN);
  config.set_override("terminal.portable_files", "true");
}

}  // namespace hermes::testing
