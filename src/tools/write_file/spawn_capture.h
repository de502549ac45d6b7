// SPDX-License-Identifier: MIT
// Runs a linter: argv (never a shell string) via posix_spawnp, the text fed
// on stdin, stdout and stderr captured together, killed at a deadline.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace hermes {

struct CapturedRun {
  int exit_code = -1;  // -1 when killed by a signal or the deadline
  std::string output;  // stdout and stderr interleaved
};

// kNotFound when argv[0] cannot be found on PATH; kTimeout at the deadline.
Result<CapturedRun> run_captured(const std::vector<std::string>& argv, std::string_view input,
                                 std::chrono::milliseconds timeout);

// True when `program` is an executable on PATH.
bool program_on_path(const std::string& program);

}  // namespace hermes
