// SPDX-License-Identifier: MIT
// A session, services and registry for calling the file tools' handlers
// directly, as the dispatcher would. Shared by the write_file and patch tests.
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "json/json.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/scripted_client.h"
#include "testutil/temp_dir.h"
#include "tools/file_common/portable_mode.h"
#include "tools/file_common/read_tracker.h"
#include "tools/patch/patch.h"
#include "tools/write_file/write_file.h"

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

namespace hermes {
namespace testing {

class ToolHarness {
 public:
  using Registration = void (*)(registry::Registry&);
  // `files`: the file system of the native path (a fake, say).
  explicit ToolHarness(std::initializer_list<Registration> tools,
                       registry::ClientChannel* client = nullptr,
                       const fs::FileSystem& files = fs::native_file_system())
      : config_(Config::from_yaml("", home_.path())),
        services_{*config_, paths_, files},
        dispatcher_(registry_, services_),
        ctx_{session_, services_, client ? *client : null_client_, dispatcher_, {}, Json()} {
    apply_portable_mode(*config_);
    for (auto add : tools) add(registry_);
  }

  Json call(const std::string& tool, const Json& args) { return reply(tool, args).value; }
  // The whole reply: JSON, `isError` and the failure's code.
  registry::ToolReply reply(const std::string& tool, const Json& args) {
    for (const auto& spec : registry_.all()) {
      if (spec.name == tool) return registry::invoke_tool(spec, args, ctx_);
    }
    return registry::ToolReply{Json{{"error", "no tool " + tool}}, true, std::nullopt};
  }
  // Runs `tool`'s brief check on `args`, leaving what it found and took in
  // `found`; later calls carry `found` as their findings.
  bool check_brief(const std::string& tool, const Json& args, registry::BriefFindings& found) {
    ctx_.brief_findings = &found;
    for (const auto& spec : registry_.all()) {
      if (spec.name == tool) return spec.brief(args, found);
    }
    return false;
  }
  // Records a whole-file read of `path` at its current version.
  void mark_read(const std::string& path) {
    std::string real = PathResolver::real_path(path);
    file_common::FileVersion version;
    if (file_common::stat_version(services_.files, real, version)) {
      session_.state<file_common::ReadTracker>().record_read(real, version,
                                                             file_common::ReadSpan::whole());
    }
  }
  registry::Session& session() { return session_; }
  // Later calls see `stop` as their cancellation.
  void stop_with(std::stop_token stop) { ctx_.stop = std::move(stop); }
  // For overrides set before the first call (the backend is made then).
  Config& config() { return *config_; }

 private:
  TempDir home_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  registry::Session session_{"test"};
  registry::NullClientChannel null_client_;
  registry::CallContext ctx_;
};

}  // namespace testing
}  // namespace hermes
