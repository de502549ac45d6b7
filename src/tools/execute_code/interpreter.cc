// SPDX-License-Identifier: MIT
#include "tools/execute_code/interpreter.h"

#include "proc/run.h"
#include "proc/spawn.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

namespace hermes::execute_code {
namespace {

constexpr std::chrono::seconds kProbeTimeout{5};

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

ParsedMode parse_mode(const std::string& value) {
  if (value == "project") return {ExecMode::kProject, true};
  if (value == "strict") return {ExecMode::kStrict, true};
  return {ExecMode::kProject, false};
}

std::string find_on_path(const std::string& name, const std::string& path_list) {
  size_t start = 0;
  while (start <= path_list.size()) {
    size_t end = path_list.find(':', start);
    if (end == std::string::npos) end = path_list.size();
    std::string dir = path_list.substr(start, end - start);
    // An empty or relative PATH entry would depend on the server's cwd.
    if (!dir.empty() && dir[0] == '/' && is_executable_file(dir + "/" + name)) {
      return dir + "/" + name;
    }
    start = end + 1;
  }
  return "";
}

std::string system_python() {
  const char* path = std::getenv("PATH");
  return find_on_path("python3", path ? path : "/usr/local/bin:/usr/bin:/bin");
}

bool probe_python(const std::string& program) {
  auto child = proc::spawn(proc::SpawnOptions{
      .argv = {program, "-c", "import sys; sys.exit(0 if sys.version_info >= (3, 8) else 1)"}});
  if (!child) return false;
  proc::RunOutcome outcome = proc::run_bounded(*child, proc::RunLimits{.timeout = kProbeTimeout},
                                               {}, [](std::string_view) {});
  return outcome.end == proc::RunEnd::kExited && outcome.status.code == 0;
}

std::string choose_interpreter(ExecMode mode, const std::function<std::string(const char*)>& getenv,
                               const std::function<bool(const std::string&)>& probe) {
  if (mode == ExecMode::kProject) {
    for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
      std::string prefix = getenv(var);
      if (prefix.empty()) continue;
      for (const char* exe : {"/bin/python", "/bin/python3"}) {
        std::string candidate = prefix + exe;
        if (!is_executable_file(candidate)) continue;
        if (probe(candidate)) return candidate;
        return system_python();
      }
    }
  }
  return system_python();
}

}  // namespace hermes::execute_code
