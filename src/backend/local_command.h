// SPDX-License-Identifier: MIT
// Running a short-lived program on this host (the ssh and docker clients'
// own management commands, write_file's linters) with its output collected.
#pragma once

#include "core/result.h"

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::backend {

struct LocalCommandResult {
  int exit_code = 0;   // -1 on timeout or cancel
  std::string output;  // stdout (and stderr unless kept apart)
  std::string errors;  // stderr when kept apart
};

// kNotFound when the program is not on PATH. `input`, when given, is the
// program's stdin (else /dev/null).
Result<LocalCommandResult> run_local_command(const std::vector<std::string>& argv,
                                             std::chrono::milliseconds timeout,
                                             std::stop_token stop = {}, bool separate_stderr = true,
                                             std::optional<std::string> input = std::nullopt);

// The last non-empty line of `text`, trimmed (the useful part of a client's
// error output).
std::string last_line(std::string_view text);

}  // namespace hermes::backend
