// SPDX-License-Identifier: MIT
// The whole tool table through the router with every property of every
// tool given values of the other JSON types (required properties filled
// with harmless values), as models send them: no call may throw past the
// router, and none may be answered by the dispatcher's last-resort
// "Internal error", which means a parser threw instead of naming the
// argument.
#include "mcp/router.h"
#include "mcp/tool_table_call.h"
#include "registry/client_channel.h"
#include "testutil/schema_args.h"
#include "testutil/scoped_env.h"
#include "testutil/tool_session.h"
#include "tools/register_all.h"

#include <gtest/gtest.h>

namespace hermes::mcp {
namespace {

class WrongTypedArguments : public ::testing::Test {
 protected:
  // web_search's keyless backend, pointed at a closed loopback port.
  testing::ScopedEnv ddg_{"HERMES_TOOLS_DDG_BASE_URL", "http://127.0.0.1:9/"};
  testing::ToolSession tools_;
  registry::NullClientChannel client_;
};

TEST_F(WrongTypedArguments, NeverThrowAndAreAnsweredAsTheToolsOwnErrors) {
  tools::register_all_tools(tools_.registry());
  Router router(tools_.registry(), tools_.services(), {});
  int calls = 0;
  for (const registry::ToolSpec* spec : tools_.registry().list(tools_.services())) {
    const Json& properties = spec->input_schema.value("properties", Json::object());
    for (const auto& [name, property] : properties.items()) {
      for (const Json& value : testing::wrong_typed_values(property)) {
        Json args = testing::required_arguments(*spec);
        args[name] = value;
        std::string where = spec->name + " " + name + "=" + value.dump();
        Outcome out = call(router, tools_.session(), client_,
                           Json{{"name", spec->name}, {"arguments", args}});
        ++calls;
        ASSERT_FALSE(out.threw) << where;
        ASSERT_TRUE(out.message.contains("result")) << where << ": " << out.message.dump();
        std::string text = result_text(out.message);
        EXPECT_TRUE(Json::accept(text)) << where << ": " << text;
        EXPECT_EQ(text.find("Internal error in " + spec->name), std::string::npos)
            << where << ": " << text;
      }
    }
  }
  // Every tool × property × the 13 probes less those of its own type.
  EXPECT_GT(calls, 300);
}

// Numbers of the declared type but past int64 (a cast of one is undefined:
// the sanitizer build fails on it), for every numeric property.
TEST_F(WrongTypedArguments, HugeNumbersOfTheRightTypeAreAnsweredToo) {
  tools::register_all_tools(tools_.registry());
  Router router(tools_.registry(), tools_.services(), {});
  for (const registry::ToolSpec* spec : tools_.registry().list(tools_.services())) {
    const Json& properties = spec->input_schema.value("properties", Json::object());
    for (const auto& [name, property] : properties.items()) {
      std::vector<std::string> types = testing::declared_types(property);
      if (!testing::has_declared_type(Json(1.5), types) &&
          !testing::has_declared_type(Json(1), types))
        continue;
      for (double huge : {1e300, -1e300, 9.3e18, -9.3e18}) {
        Json args = testing::required_arguments(*spec);
        args[name] = huge;
        Outcome out = call(router, tools_.session(), client_,
                           Json{{"name", spec->name}, {"arguments", args}});
        ASSERT_FALSE(out.threw) << spec->name << " " << name << "=" << huge;
        EXPECT_TRUE(Json::accept(result_text(out.message))) << spec->name << " " << name;
      }
    }
  }
}

// The decision the router takes for a call (long-running: a progress
// ticker, a task on the modern wire) is the tool's, made on its typed parse.
TEST_F(WrongTypedArguments, TheToolDecidesWhatIsLongRunning) {
  tools::register_all_tools(tools_.registry());
  Router router(tools_.registry(), tools_.services(), {});
  auto long_running = [&](const std::string& tool, const Json& args) {
    auto prepared = router.prepare_call(1, Json{{"name", tool}, {"arguments", args}});
    return std::get<PreparedCall>(prepared).long_running;
  };
  EXPECT_TRUE(long_running("terminal", {{"command", "true"}}));
  EXPECT_FALSE(long_running("terminal", {{"command", "true"}, {"background", true}}));
  EXPECT_FALSE(long_running("terminal", {{"command", 1}}));
  EXPECT_TRUE(long_running("process", {{"action", "wait"}, {"session_id", "p"}}));
  EXPECT_FALSE(long_running("process", {{"action", 1}}));
  EXPECT_FALSE(long_running("process", {{"action", "list"}}));
  EXPECT_FALSE(long_running("read_file", {{"path", "a"}}));
}

}  // namespace
}  // namespace hermes::mcp
