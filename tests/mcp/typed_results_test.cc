// SPDX-License-Identifier: MIT
// Typed results over the whole tool table, through the router: every tool
// lists an object `outputSchema`; a successful call's `structuredContent` is
// its text block's JSON and a failed one has none; and every output a corpus
// of calls produces (outcomes of each tool, plus each property given every
// other JSON type, as in wrong_typed_args_test.cc) conforms to its tool's
// schema, checked by the SDK client's own validator (Ajv, through
// tests/e2e/lib/validate_outputs.mjs).
#include "core/strings.h"
#include "mcp/protocol.h"
#include "mcp/router.h"
#include "mcp/tool_table_call.h"
#include "registry/client_channel.h"
#include "testutil/schema_args.h"
#include "testutil/scoped_env.h"
#include "testutil/tool_session.h"
#include "tools/register_all.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

namespace hermes::mcp {
namespace {

constexpr const char* kValidator = HERMES_SOURCE_DIR "/tests/e2e/lib/validate_outputs.mjs";

struct Validation {
  int status = -1;  // the validator's exit status; -1: it could not run
  std::string report;
};

// Runs the validator on {schemas, samples} written to a file of `dir`.
Validation validate(const testing::TempDir& dir, const Json& schemas, const Json& samples) {
  const std::string file =
      dir.write("outputs.json", dump_json({{"schemas", schemas}, {"samples", samples}}));
  Validation out;
  FILE* pipe =
      ::popen(("node " + shell_quote(kValidator) + " " + shell_quote(file) + " 2>&1").c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    out.report.append(buffer, n);
  const int status = ::pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

class TypedResults : public ::testing::Test {
 protected:
  void SetUp() override {
    tools::register_all_tools(tools_.registry());
    if (::system("node --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed";
    // The SDK and its Ajv come with the e2e tests' modules (scripts/install-deps).
    if (!std::filesystem::exists(HERMES_SOURCE_DIR
                                 "/tests/e2e/node_modules/@modelcontextprotocol/sdk"))
      GTEST_SKIP() << "tests/e2e/node_modules is not installed";
  }

  // Calls `tool`; checks the structured half of the result; keeps a
  // successful output as a sample. Returns the tool's JSON.
  Json run(const std::string& tool, const Json& args) {
    const std::string where = tool + " " + dump_json(args);
    Outcome out =
        call(router_, tools_.session(), client_, Json{{"name", tool}, {"arguments", args}});
    EXPECT_FALSE(out.threw) << where;
    const Json& result = out.message.value("result", Json::object());
    const Json value = Json::parse(result_text(out.message), nullptr, false);
    if (result.value("isError", true)) {
      EXPECT_FALSE(result.contains("structuredContent")) << where;
    } else {
      EXPECT_EQ(result.value("structuredContent", Json()), value) << where;
      samples_.push_back({{"tool", tool}, {"where", where}, {"value", value}});
      succeeded_.insert(tool);
    }
    return value;
  }

  Json schemas() {
    Json out = Json::object();
    for (const registry::ToolSpec* spec : tools_.registry().list(tools_.services()))
      out[spec->name] = spec->output_schema;
    return out;
  }

  std::string path(const std::string& relative) const {
    return tools_.work().path() + "/" + relative;
  }
  void file_calls();
  void shell_calls();

  // web_search's keyless backend, pointed at a closed loopback port.
  testing::ScopedEnv ddg_{"HERMES_TOOLS_DDG_BASE_URL", "http://127.0.0.1:9/"};
  testing::ToolSession tools_;
  registry::NullClientChannel client_;
  Router router_{tools_.registry(), tools_.services(), {}};
  Json samples_ = Json::array();
  std::set<std::string> succeeded_;
};

TEST_F(TypedResults, EveryToolListsAnObjectOutputSchema) {
  const Json tools = router_.legacy(1, "tools/list", Json::object(), nullptr, nullptr)
                         .message.value("result", Json::object())
                         .value("tools", Json::array());
  ASSERT_FALSE(tools.empty());
  for (const Json& tool : tools) {
    EXPECT_EQ(tool.value("outputSchema", Json()).value("type", ""), "object") << tool["name"];
  }
}

// The file tools' outcomes.
void TypedResults::file_calls() {
  std::string lines;
  for (int i = 1; i <= 2500; ++i) lines += "line " + std::to_string(i) + "\n";
  run("write_file", {{"path", path("long.txt")}, {"content", lines}});
  run("read_file", {{"path", path("long.txt")}});
  run("read_file", {{"path", path("long.txt")}});  // the dedup stub
  run("read_file", {{"path", path("long.txt")}, {"offset", 9999}});
  run("write_file", {{"path", path("wide.txt")}, {"content", std::string(150000, 'w') + "\n"}});
  run("read_file", {{"path", path("wide.txt")}});
  run("write_file", {{"path", path("conflict.txt")},
                     {"content", "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n"}});
  run("read_file", {{"path", path("conflict.txt")}});
  run("write_file", {{"path", path("empty.txt")}, {"content", ""}});
  run("read_file", {{"path", path("empty.txt")}});
  run("write_file", {{"path", path("bad.json")}, {"content", "{\"a\": }"}});
  run("write_file", {{"path", path("sub/dir/ok.py")}, {"content", "x = 1\n"}});
  run("patch", {{"path", path("sub/dir/ok.py")}, {"old_string", "x = 1"}, {"new_string", "x = 2"}});
  run("patch",
      {{"path", path("sub/dir/ok.py")}, {"old_string", "x  =  2"}, {"new_string", "x = 3"}});
  run("patch", {{"path", path("sub/dir/ok.py")}, {"old_string", "x = 3"}, {"new_string", "x = 3"}});
  run("patch",
      {{"mode", "patch"},
       {"patch", "*** Begin Patch\n*** Add File: " + path("v4a/a.py") +
                     "\n+a = 1\n*** Add File: " + path("v4a/b.json") + "\n+{}\n*** End Patch"}});
  run("patch", {{"mode", "patch"},
                {"patch", "*** Begin Patch\n*** Delete File: " + path("v4a/b.json") +
                              "\n*** Update File: " + path("v4a/a.py") +
                              "\n@@\n-a = 1\n+a = 2\n*** End Patch"}});
  run("search_files", {{"pattern", "line 1"}, {"path", path("")}});
  run("search_files", {{"pattern", "line 7$"}, {"path", path("")}});
  run("search_files", {{"pattern", "line"}, {"path", path("")}, {"output_mode", "count"}});
  run("search_files", {{"pattern", "line"}, {"path", path("")}, {"output_mode", "files_only"}});
  run("search_files", {{"pattern", "line"}, {"path", path("")}, {"limit", 1}});
  run("search_files", {{"pattern", "nothing-matches-this"}, {"path", path("")}});
  run("search_files", {{"pattern", "*.txt"}, {"target", "files"}, {"path", path("")}});
  for (int i = 0; i < 3; ++i) run("search_files", {{"pattern", "*.py"}, {"target", "files"}});
}

// terminal's foreground and background outcomes, process's actions.
void TypedResults::shell_calls() {
  run("terminal", {{"command", "echo hi"}});
  run("terminal", {{"command", "cd " + shell_quote(path("sub"))}});
  run("terminal", {{"command", "grep nope /dev/null"}});
  run("terminal", {{"command", "seq 1 200000"}});
  run("terminal", {{"command", "sleep 5"}, {"timeout", 1}});
  Json quiet = run("terminal", {{"command", "cat"}, {"background", true}});
  run("terminal", {{"command", "echo done"}, {"background", true}, {"notify_on_complete", true}});
  run("terminal",
      {{"command", "echo ready; sleep 30"}, {"background", true}, {"watch_patterns", {"ready"}}});
  const std::string id = quiet.value("session_id", "");
  run("process", {{"action", "list"}});
  run("process", {{"action", "poll"}, {"session_id", id}});
  run("process", {{"action", "write"}, {"session_id", id}, {"data", "a"}});
  run("process", {{"action", "submit"}, {"session_id", id}, {"data", "b"}});
  run("process", {{"action", "log"}, {"session_id", id}});
  run("process", {{"action", "close"}, {"session_id", id}});
  run("process", {{"action", "wait"}, {"session_id", id}, {"timeout", 10}});
  run("process", {{"action", "poll"}, {"session_id", id}});
  run("process", {{"action", "kill"}, {"session_id", id}});
  run("process", {{"action", "list"}});
}

TEST_F(TypedResults, EveryOutputConformsToItsToolsSchema) {
  file_calls();
  shell_calls();
  run("execute_code", {{"code", "print('hi')"}});
  run("execute_code", {{"code", "print('x' * 200000)"}});
  run("execute_code", {{"code", "from hermes_tools import terminal\nprint(terminal('echo in'))"}});

  run("hermes_models", Json::object());
  run("hermes_telemetry", Json::object());
  run("web_extract", {{"urls", {"http://127.0.0.1:9/"}}});

  // Each property of each tool given every other JSON type.
  for (const registry::ToolSpec* spec : tools_.registry().list(tools_.services())) {
    const Json& properties = spec->input_schema.value("properties", Json::object());
    for (const auto& [name, property] : properties.items()) {
      for (const Json& value : testing::wrong_typed_values(property)) {
        Json args = testing::required_arguments(*spec);
        args[name] = value;
        run(spec->name, args);
      }
    }
  }

  for (const char* tool :
       {"read_file", "write_file", "patch", "search_files", "terminal", "process", "execute_code",
        "hermes_models", "hermes_telemetry", "web_extract"}) {
    EXPECT_TRUE(succeeded_.contains(tool)) << tool << " never succeeded";
  }
  Validation checked = validate(tools_.work(), schemas(), samples_);
  EXPECT_EQ(checked.status, 0) << checked.report;
  std::cout << checked.report;
}

// The check can fail: an output its schema does not describe is refused.
TEST_F(TypedResults, AnOutputTheSchemaDoesNotDescribeIsRefused) {
  Json samples = Json::array({
      {{"tool", "read_file"}, {"where", "a number for content"}, {"value", {{"content", 1}}}},
      {{"tool", "terminal"},
       {"where", "a key no shape has"},
       {"value", {{"output", ""}, {"exit_code", 0}, {"error", nullptr}, {"extra", 1}}}},
  });
  Validation checked = validate(tools_.work(), schemas(), samples);
  EXPECT_EQ(checked.status, 1) << checked.report;
  EXPECT_NE(checked.report.find("a number for content"), std::string::npos) << checked.report;
  EXPECT_NE(checked.report.find("a key no shape has"), std::string::npos) << checked.report;
}

}  // namespace
}  // namespace hermes::mcp
