// SPDX-License-Identifier: MIT
// Calls the terminal/process tools in a real session with a test config.
#pragma once

#include <memory>
#include <string>

#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/temp_dir.h"

namespace hermes {

void register_terminal(Registry& registry);

namespace testing {

class TerminalHarness {
 public:
  explicit TerminalHarness(const std::string& yaml = "")
      : config_(Config::from_yaml(yaml, home_.path())),
        services_{*config_, paths_},
        dispatcher_(registry_, services_) {
    register_terminal(registry_);
    session_.set_cwd(work_.path());
  }
  virtual ~TerminalHarness() = default;

  // Calls `tool` with `args` and returns its JSON result.
  Json call(const std::string& tool, const Json& args, std::stop_token stop = {}) {
    const ToolSpec* spec = dispatcher_.find(tool);
    if (!spec) return Json{{"harness_error", "no tool " + tool}};
    CallContext ctx{session_, services_, *client_, dispatcher_, stop, Json()};
    return dispatcher_.call(*spec, args, ctx).value;
  }
  Json run(const std::string& command) { return call("terminal", {{"command", command}}); }

  Registry& registry() { return registry_; }
  Session& session() { return session_; }
  const TempDir& work() const { return work_; }
  const TempDir& home() const { return home_; }
  void set_client(ClientChannel* client) { client_ = client; }

 private:
  TempDir home_;
  TempDir work_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  Services services_;
  Registry registry_;
  Dispatcher dispatcher_;
  Session session_{"test"};
  NullClientChannel null_client_;
  ClientChannel* client_ = &null_client_;
};

}  // namespace testing
}  // namespace hermes
