// SPDX-License-Identifier: MIT
// A session with the web tools (and execute_code) whose vendors all point at
// the loopback fixture, whose names resolve through a FakeResolver, and
// whose only reachable loopback ports are the fixture's.
#pragma once

#include "tools/execute_code/exec_harness.h"
#include "tools/web/web_service.h"
#include "tools/web/web_tools.h"

#include <fstream>
#include <memory>
#include <string>

#include "fixture_server.h"
#include "web_test_support.h"

namespace hermes::web::testing {

// One fixture per test binary; a second one nobody may reach.
inline FixtureServer& fixture() {
  static FixtureServer server;
  return server;
}
inline FixtureServer& sentinel() {
  static FixtureServer server;
  return server;
}

class WebHarness : public hermes::testing::ExecHarness {
 public:
  // `dotenv`: lines for `$HERMES_HOME/.env` (vendor keys and base URLs).
  explicit WebHarness(const std::string& yaml = "", const std::string& dotenv = "")
      : ExecHarness(yaml) {
    web_tools::register_web(registry());
    std::ofstream(home().path() + "/.env")
        << "HERMES_TOOLS_DDG_BASE_URL=" << fixture().url("/ddg") << "\n"
        << dotenv;
    resolver = std::make_shared<FakeResolver>();
    resolver->set("fixture.test", {"127.0.0.1"});
    start_service(nullptr);
  }

  // A fresh WebService (empty caches; the environment read again) on `clock`,
  // reaching the loopback `address:port` pairs of `allowed`.
  void start_service(web_tools::Clock clock, const std::string& allowed = fixture().allow_entry()) {
    auto& state = session().state<web_tools::WebState>();
    state.service = std::make_unique<web_tools::WebService>(
        services().config, *TestAllowlist::parse(allowed),
        web_tools::WebServiceOptions{resolver, std::move(clock)});
  }

  // The call as the dispatcher sees it (`isError`, the error code).
  registry::ToolReply reply(const std::string& tool, const Json& args) {
    registry::CallContext ctx = context();
    return registry::invoke_tool(*registry().find(tool, services()), args, ctx);
  }

  Json extract(Json urls, Json extra = Json::object()) {
    extra["urls"] = std::move(urls);
    return call("web_extract", extra);
  }
  // The one result row of extracting `url`.
  Json page(const std::string& url, Json extra = Json::object()) {
    Json out = extract(Json::array({url}), std::move(extra));
    return out.contains("results") ? out["results"][0] : out;
  }
  Json search(const std::string& query, Json extra = Json::object()) {
    extra["query"] = query;
    return call("web_search", extra);
  }

  std::shared_ptr<FakeResolver> resolver;
};

}  // namespace hermes::web::testing
