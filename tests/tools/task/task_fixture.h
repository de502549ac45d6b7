// SPDX-License-Identifier: MIT
// Test scaffolding for the task tools: a stub agent CLI (a shell script
// driven by STUB_* environment variables), a HERMES_HOME in a temp dir, and a
// call context for invoking the tool handlers directly.
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "json/json.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/temp_dir.h"
#include "tools/task/task_config.h"
#include "tools/task/task_service.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hermes::task::testing {

// Sets environment variables for the scope and restores them afterwards.
class ScopedEnv {
 public:
  ScopedEnv() = default;
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  void set(const std::string& name, const std::string& value);
  void unset(const std::string& name);

 private:
  void remember(const std::string& name);
  std::map<std::string, std::optional<std::string>> saved_;
};

// The stub agent. Environment it reads:
//   STUB_ANSWER (stdout text, default "answer"), STUB_ANSWER_BYTES (that many
//   'x' instead), STUB_EXIT, STUB_DELAY (seconds), STUB_STDERR (lines before
//   the answer), STUB_SESSION (the `session_id:` trailer), STUB_IGNORE_TERM,
//   STUB_ARGV_FILE / STUB_PWD_FILE / STUB_PID_FILE (where to record argv,
//   cwd + TERMINAL_CWD, its pid), STUB_HELP (`chat --help` text),
//   STUB_EXPORT / STUB_EXPORT_EXIT (`sessions export` stdout and exit).
std::string write_stub_agent(const hermes::testing::TempDir& dir);

// A HERMES_HOME with auth.json, cache dir and the stub agent configured.
class TaskHome {
 public:
  explicit TaskHome(const std::string& extra_yaml = "");

  const hermes::testing::TempDir& dir() const { return dir_; }
  std::string home() const { return dir_.file("home"); }
  std::string auth_path() const { return dir_.file("home/auth.json"); }
  std::string cache_dir() const { return dir_.file("home/hermes-task-cache"); }
  std::string project() const { return dir_.file("project"); }
  const std::string& stub() const { return stub_; }
  void write_auth(const std::string& json) const;
  std::string read_auth() const;
  Config& config() { return *config_; }
  TaskConfig task_config() const { return load_task_config(*config_); }
  ScopedEnv& env() { return env_; }

  // Calls a tool of `specs` by name through a fresh CallContext.
  Json call(const std::vector<registry::ToolSpec>& specs, const std::string& name,
            const Json& args);
  // Same: the whole reply (`isError` and the failure's code too).
  registry::ToolReply reply(const std::vector<registry::ToolSpec>& specs, const std::string& name,
                            const Json& args);
  // Same, with the caller's channel and `_meta.progressToken`.
  Json call(const std::vector<registry::ToolSpec>& specs, const std::string& name, const Json& args,
            registry::ClientChannel& client, const Json& progress_token);

 private:
  hermes::testing::TempDir dir_;
  std::string stub_;
  std::unique_ptr<Config> config_;
  ScopedEnv env_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  registry::NullClientChannel client_;
  registry::Session session_{"task-test"};
};

// auth.json text with one pool entry per (provider, credential JSON) pair.
std::string auth_json(const std::vector<std::pair<std::string, std::string>>& pool);

// A credential object; `extra` is spliced in (e.g. R"("last_status":"exhausted")").
std::string credential(const std::string& extra = "");

// TaskService with the real process runner and wall clock.
std::shared_ptr<TaskService> real_service();

}  // namespace hermes::task::testing
