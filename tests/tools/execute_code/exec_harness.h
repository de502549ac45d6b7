// SPDX-License-Identifier: MIT
// Runs execute_code in a real session with a test config, the real
// read_file, write_file and terminal tools, and fake tools the tests register.
#pragma once

#include <algorithm>
#include <csignal>
#include <functional>
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

void register_execute_code(Registry& registry);
void register_read_file(Registry& registry);
void register_terminal(Registry& registry);
void register_write_file(Registry& registry);

namespace testing {

// A tool defined by the test: `handler` sees every dispatched call.
struct FakeTool {
  std::string name;
  std::string toolset = "file";
  Json schema;
  ToolHandler handler;
};

class ExecHarness {
 public:
  explicit ExecHarness(const std::string& yaml = "",
                       const std::vector<FakeTool>& fakes = {})
      : config_(Config::from_yaml(yaml, home_.path())),
        services_{*config_, paths_},
        dispatcher_(registry_, services_) {
    // A fake named like a real tool replaces it.
    auto faked = [&](const std::string& name) {
      return std::any_of(fakes.begin(), fakes.end(),
                         [&](const FakeTool& fake) { return fake.name == name; });
    };
    if (!faked("read_file")) register_read_file(registry_);
    if (!faked("terminal")) register_terminal(registry_);
    if (!faked("write_file")) register_write_file(registry_);
    for (const FakeTool& fake : fakes) {
      registry_.add(ToolSpec{.name = fake.name,
                             .toolset = fake.toolset,
                             .description = "Fake " + fake.name + ". For tests.",
                             .input_schema = fake.schema,
                             .handler = fake.handler});
    }
    register_execute_code(registry_);
    session_.set_cwd(work_.path());
    // The server ignores SIGPIPE (cli/main.cc), and so must the test process:
    // a backend command that exits before reading its stdin (the file RPC's
    // python3 preflight) would otherwise kill it.
    std::signal(SIGPIPE, SIG_IGN);
  }

  // Runs `code` through execute_code and returns the result JSON.
  Json run(const std::string& code, std::stop_token stop = {}) {
    return call("execute_code", Json{{"code", code}}, stop);
  }
  Json call(const std::string& tool, const Json& args, std::stop_token stop = {}) {
    const ToolSpec* spec = dispatcher_.find(tool);
    if (!spec) return Json{{"harness_error", "no tool " + tool}};
    CallContext ctx{session_, services_, client_, dispatcher_, stop, Json()};
    return dispatcher_.call(*spec, args, ctx).value;
  }

  Registry& registry() { return registry_; }
  const Services& services() const { return services_; }
  Session& session() { return session_; }
  const TempDir& work() const { return work_; }

 private:
  TempDir home_;
  TempDir work_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  Services services_;
  Registry registry_;
  Dispatcher dispatcher_;
  Session session_{"test"};
  NullClientChannel client_;
};

// `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","default":5}},"required":["query"]}`
inline Json query_schema() {
  return Json::parse(R"({"type":"object","properties":{
      "query":{"type":"string"},"limit":{"type":"integer","default":5}},
      "required":["query"]})");
}

}  // namespace testing
}  // namespace hermes
