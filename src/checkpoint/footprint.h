// SPDX-License-Identifier: MIT
// What a tool call may change in the workspace, as the tool itself declares
// it for its arguments (`ToolSpec::changes`): the paths it names (write_file,
// patch), or anything at all (a shell: terminal, execute_code, a background
// start). The dispatcher records a checkpoint from it before the call runs.
#pragma once

#include <string>
#include <vector>

namespace hermes::checkpoint {

struct Footprint {
  std::vector<std::string> paths;  // as the model wrote them (relative to the session's cwd)
  bool shell = false;              // the call runs commands: anything may change
  std::string summary;             // one line for `list`: the command, or the path
};

}  // namespace hermes::checkpoint
