// SPDX-License-Identifier: MIT
// Which Python runs a script, and where (docs/tools/execute_code.md): project
// mode prefers the active virtualenv/conda interpreter if it passes a
// Python >= 3.8 probe; strict mode always uses the system python3.
#pragma once

#include <functional>
#include <string>

namespace hermes::execute_code {

enum class ExecMode { kProject, kStrict };

// `project` or `strict`; nullopt-like kProject with `valid` false for any
// other value (the caller warns).
struct ParsedMode {
  ExecMode mode = ExecMode::kProject;
  bool valid = true;
};
ParsedMode parse_mode(const std::string& value);

// The first executable `name` on `path_list` (colon-separated), or "".
std::string find_on_path(const std::string& name, const std::string& path_list);

// The system python3 on the server's PATH, or "" when there is none (then
// execute_code is not offered).
std::string system_python();

// True when `program` runs and reports Python >= 3.8 within 5 seconds.
bool probe_python(const std::string& program);

// The interpreter for `mode`. Project mode takes the first executable of
// $VIRTUAL_ENV/bin/python, …/python3, $CONDA_PREFIX/bin/python, …/python3;
// if that one fails `probe` (later candidates are not tried) or none exists,
// the system python3. `getenv` and `probe` are injected for tests.
std::string choose_interpreter(ExecMode mode, const std::function<std::string(const char*)>& getenv,
                               const std::function<bool(const std::string&)>& probe);

}  // namespace hermes::execute_code
