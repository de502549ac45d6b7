// SPDX-License-Identifier: MIT
#include "tools/task/task_fixture.h"

#include "tools/task/agent_runner.h"
#include "tools/task/iso_time.h"

#include <sys/stat.h>

#include <cstdlib>

namespace hermes::task::testing {

ScopedEnv::~ScopedEnv() {
  for (const auto& [name, value] : saved_) {
    if (value) {
      ::setenv(name.c_str(), value->c_str(), 1);
    } else {
      ::unsetenv(name.c_str());
    }
  }
}

void ScopedEnv::remember(const std::string& name) {
  if (saved_.count(name)) return;
  const char* old = std::getenv(name.c_str());
  saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
}

void ScopedEnv::set(const std::string& name, const std::string& value) {
  remember(name);
  ::setenv(name.c_str(), value.c_str(), 1);
}

void ScopedEnv::unset(const std::string& name) {
  remember(name);
  ::unsetenv(name.c_str());
}

std::string write_stub_agent(const hermes::testing::TempDir& dir) {
  std::string path = dir.write("bin/hermes", R"sh(#!/bin/sh
if [ "$1" = "sessions" ]; then
  [ -n "$STUB_EXPORT" ] && printf '%s\n' "$STUB_EXPORT"
  exit "${STUB_EXPORT_EXIT:-0}"
fi
if [ "$2" = "--help" ]; then
  printf '%s\n' "${STUB_HELP:-usage: hermes chat [-q QUERY]}"
  exit 0
fi
[ -n "$STUB_ARGV_FILE" ] && printf '%s\n' "$@" > "$STUB_ARGV_FILE"
[ -n "$STUB_PWD_FILE" ] && printf '%s\n%s\n' "$(pwd)" "$TERMINAL_CWD" > "$STUB_PWD_FILE"
[ -n "$STUB_PID_FILE" ] && echo $$ > "$STUB_PID_FILE"
[ -n "$STUB_IGNORE_TERM" ] && trap '' TERM
[ -n "$STUB_DELAY" ] && sleep "$STUB_DELAY"
[ -n "$STUB_STDERR" ] && printf '%s\n' "$STUB_STDERR" >&2
if [ -n "$STUB_ANSWER_BYTES" ]; then
  head -c "$STUB_ANSWER_BYTES" /dev/zero | tr '\0' x
else
  printf '%s\n' "${STUB_ANSWER-answer}"
fi
[ -n "$STUB_SESSION" ] && printf '\nsession_id: %s\n' "$STUB_SESSION" >&2
exit "${STUB_EXIT:-0}"
)sh");
  ::chmod(path.c_str(), 0755);
  return path;
}

std::string auth_json(const std::vector<std::pair<std::string, std::string>>& pool) {
  std::string out = R"({"version": 1, "credential_pool": {)";
  for (size_t i = 0; i < pool.size(); ++i) {
    out += (i ? ", \"" : "\"") + pool[i].first + "\": [" + pool[i].second + "]";
  }
  return out + "}}";
}

std::string credential(const std::string& extra) {
  std::string out =
      R"({"id": "abc123", "label": "k", "auth_type": "api_key", "access_token": "secret")";
  return out + (extra.empty() ? "" : ", " + extra) + "}";
}

std::shared_ptr<TaskService> real_service() {
  return std::make_shared<TaskService>(
      TaskDeps{.runner = make_process_runner(), .now_ms = now_epoch_ms});
}

namespace {

std::string base_yaml(const hermes::testing::TempDir& dir, const std::string& stub) {
  return "task_server:\n  auth_path: " + dir.file("home/auth.json") + "\n  hermes_bin: " + stub +
         "\n  cache_dir: " + dir.file("home/hermes-task-cache") +
         "\n  models_cache_path: " + dir.file("home/provider_models_cache.json") +
         "\n  kill_grace_ms: 200\n  session_export_timeout_ms: 3000\n  cwd_allowlist:\n    - " +
         dir.file("project") + "\n";
}

}  // namespace

TaskHome::TaskHome(const std::string& extra_yaml)
    : stub_(write_stub_agent(dir_)),
      config_(Config::from_yaml(base_yaml(dir_, stub_) + extra_yaml, dir_.file("home"))),
      services_{*config_, paths_},
      dispatcher_(registry_, services_) {
  dir_.write("home/.keep", "");
  dir_.write("project/.keep", "");
  for (const char* name : {"HERMES_AUTH_PATH", "HERMES_BIN", "HERMES_MAX_PROMPT_LENGTH",
                           "HERMES_TASK_CWD_ALLOWLIST", "STUB_ANSWER", "STUB_EXIT", "STUB_DELAY",
                           "STUB_STDERR", "STUB_SESSION", "STUB_EXPORT", "STUB_EXPORT_EXIT"}) {
    env_.unset(name);
  }
  write_auth(auth_json({{"gemini", credential()}}));
}

void TaskHome::write_auth(const std::string& json) const { dir_.write("home/auth.json", json); }

std::string TaskHome::read_auth() const { return dir_.read("home/auth.json"); }

Json TaskHome::call(const std::vector<registry::ToolSpec>& specs, const std::string& name,
                    const Json& args) {
  return call(specs, name, args, client_, Json());
}

registry::ToolReply TaskHome::reply(const std::vector<registry::ToolSpec>& specs,
                                    const std::string& name, const Json& args) {
  for (const registry::ToolSpec& spec : specs) {
    if (spec.name != name) continue;
    std::stop_source stop;
    registry::CallContext ctx{session_, services_, client_, dispatcher_, stop.get_token(), Json()};
    return registry::invoke_tool(spec, args, ctx);
  }
  return registry::ToolReply{};
}

Json TaskHome::call(const std::vector<registry::ToolSpec>& specs, const std::string& name,
                    const Json& args, registry::ClientChannel& client, const Json& progress_token) {
  for (const registry::ToolSpec& spec : specs) {
    if (spec.name != name) continue;
    std::stop_source stop;
    registry::CallContext ctx{session_,    services_,        client,
                              dispatcher_, stop.get_token(), progress_token};
    return registry::invoke_tool(spec, args, ctx).value;
  }
  return Json();
}

}  // namespace hermes::task::testing
