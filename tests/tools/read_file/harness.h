// SPDX-License-Identifier: MIT
// A read_file call in-process: a registry with just read_file, one session,
// a configuration from YAML text and a temporary directory as workspace.
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "json/json.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/temp_dir.h"
#include "tools/file_common/portable_mode.h"
#include "tools/read_file/read_file.h"

#include <memory>
#include <string>

namespace hermes {

namespace testing {

class ReadFileHarness {
 public:
  // `files`: the file system of the native path (a fake, say).
  explicit ReadFileHarness(const std::string& yaml = "",
                           const fs::FileSystem& files = fs::native_file_system())
      : config_(Config::from_yaml(yaml, dir_.file("home"))),
        services_{*config_, paths_, files},
        dispatcher_(registry_, services_),
        session_("test"),
        ctx_{session_, services_, client_, dispatcher_, {}, Json()} {
    apply_portable_mode(*config_);
    read_file::register_read_file(registry_);
    registry_.enable_toolsets({"file"});
    session_.set_cwd(dir_.path());
  }

  const TempDir& dir() const { return dir_; }
  registry::Session& session() { return session_; }

  Json call(const Json& args) { return outcome(args).value; }
  // The whole result: JSON, `isError` and the failure's code.
  registry::ToolCallResult outcome(const Json& args) {
    return dispatcher_.call(*dispatcher_.find("read_file"), args, ctx_);
  }
  Json read(const std::string& path) { return call(Json{{"path", path}}); }
  // Later calls carry `known` as their brief check's finding.
  void know(KnownRealPath known) {
    known_.path = std::move(known);
    ctx_.brief_findings = &known_;
  }

 private:
  TempDir dir_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  registry::Session session_;
  registry::NullClientChannel client_;
  registry::BriefFindings known_;
  registry::CallContext ctx_;
};

}  // namespace testing
}  // namespace hermes
