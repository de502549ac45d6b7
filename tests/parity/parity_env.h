// SPDX-License-Identifier: MIT
// One session of the real tool table (registry + dispatcher) on one backend,
// with its own working directory and config home, for the parity suite.
#pragma once

#include "json/json.h"
#include "testutil/backend_targets.h"
#include "testutil/tool_session.h"

#include <functional>
#include <string>
#include <vector>

namespace hermes::testing {

class ParityEnv {
 public:
  // The configuration for a working directory.
  using YamlFor = ToolSession::YamlFor;
  explicit ParityEnv(BackendKind kind, const std::string& extra = "");
  explicit ParityEnv(const YamlFor& yaml_for);

  // Calls `tool` through the dispatcher, as an MCP call would.
  Json call(const std::string& tool, const Json& args);
  Json terminal(const std::string& command) { return call("terminal", {{"command", command}}); }

  // Host-side file access to the working directory (the same directory every
  // backend sees at the same path).
  std::string write(const std::string& relative, const std::string& content) const {
    return tools_.work().write(relative, content);
  }
  std::string read(const std::string& relative) const { return tools_.work().read(relative); }
  std::string path(const std::string& relative) const { return tools_.work().file(relative); }
  const std::string& work() const { return tools_.work().path(); }
  const std::string& home() const { return tools_.home().path(); }

 private:
  ToolSession tools_;
};

// A behaviour checked on every backend: it returns everything observable
// (tool results, files as the host sees them) as one JSON value.
struct ParityCase {
  std::string name;
  std::function<Json(ParityEnv&)> run;
};

// The cases, by area (parity_file_cases.cc, parity_terminal_cases.cc,
// parity_code_cases.cc).
std::vector<ParityCase> file_cases();
std::vector<ParityCase> terminal_cases();
std::vector<ParityCase> code_cases();

// The documented normalisation before comparing: the working directory and
// config home become `<work>` and `<home>`; `full_output_path` (where the
// spill file landed) becomes `<spill>`; `duration_seconds` (a timing)
// becomes `<time>`; execute_code's per-run staging directory in a traceback
// becomes `<script-dir>`. Nothing else is touched.
Json normalize(const Json& value, const ParityEnv& env);

// A search_files result with its `matches`, `files` and `counts` in path
// order: rg walks directories in parallel, so the order of files in a
// content, count or files-only result changes from run to run (native
// local too).
Json in_path_order(Json result);

}  // namespace hermes::testing
