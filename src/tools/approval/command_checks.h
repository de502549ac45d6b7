// SPDX-License-Identifier: MIT
// The checks that read the parsed form directly rather than its text:
// command words only known at run time, scripts fed to interpreters,
// permission modes, file-system formatters, git refspecs, writes into
// credential files from an unknown directory.
#pragma once

#include "tools/approval/dangerous_command.h"

#include <optional>

#include "shell/analyze.h"

namespace hermes::approval {

// The first hardline finding, else the first dangerous one, over every
// command of the analysis.
std::optional<Detection> check_parsed(const shell::Analysis& analysis);

}  // namespace hermes::approval
