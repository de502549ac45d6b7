// SPDX-License-Identifier: MIT
// A server's tool table with checkpoints kept, as the binary builds it: one
// Hermes home (the store), one workspace, any number of sessions, and file
// helpers that bypass the tools (hand edits, byte-exact checks).
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "json/json.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/backend_targets.h"
#include "testutil/temp_dir.h"
#include "tools/checkpoint/checkpoint.h"
#include "tools/patch/patch.h"
#include "tools/read_file/read_file.h"
#include "tools/terminal/terminal.h"
#include "tools/write_file/write_file.h"

#include <sys/stat.h>

#include <functional>
#include <memory>
#include <string>

#include "checkpoint/checkpoints.h"

namespace hermes::testing {

class CheckpointHarness {
 public:
  explicit CheckpointHarness(const std::string& yaml = "approvals:\n  yolo: true\n")
      : CheckpointHarness([&](const std::string&) { return yaml; }) {}
  // Commands run on `kind`, with the workspace as its working directory.
  explicit CheckpointHarness(BackendKind kind)
      : CheckpointHarness([kind](const std::string& work) {
          return "approvals:\n  yolo: true\n" + backend_yaml(kind, work);
        }) {}

  // The configuration made from the workspace's path.
  explicit CheckpointHarness(const std::function<std::string(const std::string&)>& yaml)
      : config_(Config::from_yaml(yaml(work_.path()), home_.path())),
        checkpoints_(home_.path() + "/checkpoints"),
        services_{*config_, paths_},
        dispatcher_(registry_, services_) {
    services_.checkpoints = &checkpoints_;
    read_file::register_read_file(registry_);
    write_file::register_write_file(registry_);
    patch::register_patch(registry_);
    terminal::register_terminal(registry_);
    checkpoint_tool::register_checkpoint(registry_);
    session_.set_cwd(work_.path());
  }

  Json call(const std::string& tool, const Json& args) { return call_in(session_, tool, args); }
  Json call_in(registry::Session& session, const std::string& tool, const Json& args) {
    const registry::ToolSpec* spec = dispatcher_.find(tool);
    if (spec == nullptr) return Json{{"harness_error", "no tool " + tool}};
    registry::CallContext ctx{session, services_, *client_, dispatcher_, {}, Json()};
    return dispatcher_.call(*spec, args, ctx).value;
  }
  Json sh(const std::string& command) { return call("terminal", {{"command", command}}); }

  // The id of the newest checkpoint.
  uint64_t last_id() {
    Json list = call("checkpoint", {{"action", "list"}})["checkpoints"];
    return list.empty() ? 0 : list.back()["id"].get<uint64_t>();
  }

  const TempDir& work() const { return work_; }
  const TempDir& home() const { return home_; }
  const checkpoint::Checkpoints& checkpoints() const { return checkpoints_; }
  registry::Session& session() { return session_; }
  // Calls from now on talk to `client` (the user's answers).
  void talk_to(registry::ClientChannel& client) { client_ = &client; }

  static unsigned mode_of(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
  }

 private:
  TempDir home_;
  TempDir work_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  checkpoint::Checkpoints checkpoints_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  registry::Session session_{"one"};
  registry::NullClientChannel no_client_;
  registry::ClientChannel* client_ = &no_client_;
};

}  // namespace hermes::testing
