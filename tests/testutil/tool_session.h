// SPDX-License-Identifier: MIT
// One session of a tool table as the server builds it (config, resolver,
// registry, dispatcher, session) with its own config home and working
// directory; the harnesses of the tool tests and the parity suite build on it.
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "json/json.h"
#include "registry/call_status.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/temp_dir.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <thread>

namespace hermes::testing {

class ToolSession {
 public:
  // The configuration, given the working directory.
  using YamlFor = std::function<std::string(const std::string& work)>;

  explicit ToolSession(const std::string& yaml = "")
      : ToolSession([yaml](const std::string&) { return yaml; }) {}
  explicit ToolSession(const YamlFor& yaml_for)
      : config_(Config::from_yaml(yaml_for(work_.path()), home_.path())),
        paths_(config_->get_string("security.workspace_root", "")),
        services_{*config_, paths_},
        dispatcher_(registry_, services_) {
    session_.set_cwd(work_.path());
  }
  virtual ~ToolSession() = default;
  ToolSession(const ToolSession&) = delete;
  ToolSession& operator=(const ToolSession&) = delete;

  // Calls `tool` with `args` through the dispatcher, as an MCP call would.
  Json call(const std::string& tool, const Json& args, std::stop_token stop = {}) {
    return call_result(tool, args, stop).value;
  }
  // The whole result: the JSON, its text, isError and the failure's code.
  registry::ToolCallResult call_result(const std::string& tool, const Json& args,
                                       std::stop_token stop = {}) {
    const registry::ToolSpec* spec = dispatcher_.find(tool);
    if (!spec) return registry::ToolCallResult{.value = Json{{"harness_error", "no tool " + tool}}};
    registry::CallContext ctx = context(stop);
    return dispatcher_.call(*spec, args, ctx);
  }
  // What a handler of this session receives.
  registry::CallContext context(std::stop_token stop = {}) {
    registry::CallContext ctx{session_, services_, *client_, dispatcher_, stop, Json()};
    ctx.status = status_;
    return ctx;
  }
  // Calls from now on feed `status`, as the router's long calls do.
  void set_status(registry::CallStatus* status) { status_ = status; }

  registry::Registry& registry() { return registry_; }
  registry::Session& session() { return session_; }
  const registry::Services& services() const { return services_; }
  const TempDir& work() const { return work_; }
  const TempDir& home() const { return home_; }
  void set_client(registry::ClientChannel* client) { client_ = client; }
  // Calls from now on are checkpointed in `store`, as the server's are.
  void keep_checkpoints(const checkpoint::Checkpoints* store) { services_.checkpoints = store; }

 private:
  TempDir home_;
  TempDir work_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  // Destroyed before the directories: it ends the backend (ssh master,
  // container, sandbox /tmp) while they still exist.
  registry::Session session_{"test"};
  registry::NullClientChannel null_client_;
  registry::ClientChannel* client_ = &null_client_;
  registry::CallStatus* status_ = nullptr;
};

// Runs `call` while watching `status`: true when the last line it showed
// was `line` at some moment before `call` returned.
inline bool shows_line_during(const registry::CallStatus& status, const std::string& line,
                              const std::function<void()>& call) {
  std::atomic<bool> seen = false;
  std::jthread watch([&](std::stop_token stop) {
    while (!stop.stop_requested() && !seen) {
      seen = status.view().last_line == line;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  call();
  watch.request_stop();
  watch.join();
  return seen;
}

}  // namespace hermes::testing
