// SPDX-License-Identifier: MIT
#include "tools/execute_code/stub_module.h"

#include "proc/run.h"
#include "proc/spawn.h"
#include "testutil/temp_dir.h"
#include "tools/execute_code/interpreter.h"

#include <gtest/gtest.h>

namespace hermes::execute_code {
namespace {

Json schema(const char* text) { return Json::parse(text); }

TEST(StubModule, RequiredFirstThenDefaults) {
  StubSignature sig =
      signature_from_schema("search_files", schema(R"({"type":"object","properties":{
        "target":{"type":"string","default":"content"},
        "pattern":{"type":"string"},
        "file_glob":{"type":"string"},
        "limit":{"type":"integer","default":50},
        "case":{"type":"boolean","default":false},
        "ratio":{"type":"number","default":0.5},
        "items":{"type":"array","default":[1]}},
        "required":["pattern"]})"),
                            {});
  EXPECT_EQ(render_signature(sig),
            "search_files(pattern: str, target: str = \"content\", file_glob: str = None, "
            "limit: int = 50, case: bool = False, ratio: float = 0.5, items: list = None)");
}

TEST(StubModule, RequiredWithADefaultIsOptionalAndLast) {
  StubSignature sig = signature_from_schema(
      "patch", schema(R"({"properties":{"mode":{"type":"string","default":"replace"},
        "path":{"type":"string"},"old_string":{"type":"string"}},"required":["mode"]})"),
      {});
  EXPECT_EQ(render_signature(sig),
            "patch(path: str = None, old_string: str = None, mode: str = \"replace\")");
}

TEST(StubModule, HiddenKeywordAndOddNamesAreLeftOut) {
  StubSignature sig = signature_from_schema(
      "terminal",
      schema(R"({"properties":{"command":{"type":"string"},"background":{"type":"boolean"},
        "from":{"type":"string"},"bad-name":{},"9x":{},"x":{"type":["string","null"]}},
        "required":["command"]})"),
      {"background"});
  EXPECT_EQ(render_signature(sig), "terminal(command: str, x = None)");
}

TEST(StubModule, NoPropertiesMeansNoParameters) {
  EXPECT_EQ(render_signature(signature_from_schema("ping", schema("{}"), {})), "ping()");
}

TEST(StubModule, GeneratedModuleIsValidPythonWithEveryStub) {
  std::vector<StubSignature> tools = {
      signature_from_schema("read_file", schema(R"({"properties":{"path":{"type":"string"},
          "offset":{"type":"integer","default":1}},"required":["path"]})"),
                            {}),
      signature_from_schema("odd", schema(R"({"properties":{"s":{"type":"string",
          "default":"quote\" back\\ nl\n é"}}})"),
                            {})};
  std::string module = generate_module(tools);
  EXPECT_NE(module.find("def read_file(path: str, offset: int = 1):\n"
                        "    return _call(\"read_file\", {\"path\": path, \"offset\": offset})\n"),
            std::string::npos)
      << module;
  hermes::testing::TempDir dir;
  dir.write("hermes_tools.py", module);
  auto child = proc::spawn(proc::SpawnOptions{
      .argv = {
          system_python(), "-c",
          "import sys, inspect; sys.path.insert(0, sys.argv[1]); import hermes_tools as m; "
          "print(sorted(n for n in dir(m) if not n.startswith('_') and callable(getattr(m, n)) "
          "and getattr(m, n).__module__ == 'hermes_tools')); "
          "print(repr(inspect.signature(m.odd).parameters['s'].default))",
          dir.path()}});
  ASSERT_TRUE(child);
  std::string out;
  proc::run_bounded(*child, proc::RunLimits{.timeout = std::chrono::seconds(10)}, {},
                    [&](std::string_view bytes) { out += bytes; });
  EXPECT_EQ(out,
            "['json_parse', 'odd', 'read_file', 'retry', 'shell_quote', 'show']\n"
            "'quote\" back\\\\ nl\\n é'\n");
}

}  // namespace
}  // namespace hermes::execute_code
