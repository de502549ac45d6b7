// SPDX-License-Identifier: MIT
// Runs the built hermes-tools binary as an attacker's victim: `call -` with
// JSON lines on stdin, in a chosen directory and environment.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace hermes::testing {

struct CliRun {
  std::vector<std::string> args;  // after the binary: e.g. {"--root", R, "call", "-"}
  std::vector<std::string> env;   // NAME=value pairs added to (or replacing) ours
  std::string cwd;
  std::string input;  // fed to stdin, then closed
};

// The binary under test: $HERMES_TOOLS_BIN, else the one CMake built.
std::string hermes_tools_bin();
// Starts the run; stdout goes to `out_path`. Returns the pid.
pid_t start_cli(const CliRun& run, const std::string& out_path);
// Runs to completion; returns stdout.
std::string run_cli(const CliRun& run);

}  // namespace hermes::testing
