// SPDX-License-Identifier: MIT
// The CLI's exit statuses, in one table.
#pragma once

namespace hermes::cli {

enum ExitCode : int {
  kExitSuccess = 0,
  kExitToolError = 1,
  kExitUsage = 2,
};

}  // namespace hermes::cli
