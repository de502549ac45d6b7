// SPDX-License-Identifier: MIT
// What the real child process sees of the server's environment (docs/tools/execute_code.md).
#include <gtest/gtest.h>

#include <stdlib.h>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

// Sets variables for one test and removes them afterwards.
class ScopedEnv {
 public:
  using Vars = std::vector<std::pair<std::string, std::string>>;
  explicit ScopedEnv(Vars vars) : vars_(std::move(vars)) {
    for (const auto& [name, value] : vars_) ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : vars_) ::unsetenv(name.c_str());
  }

 private:
  Vars vars_;
};

TEST(ExecuteCodeEnv, ChildSeesNoSecretsButPassthroughAndSafeNames) {
  ScopedEnv env({{"T_API_KEY", "s1"},
                 {"T_TOKEN", "s2"},
                 {"T_SECRET", "s3"},
                 {"T_PASSWORD", "s4"},
                 {"T_CREDENTIAL", "s5"},
                 {"T_PASSWD", "s6"},
                 {"T_AUTH", "s7"},
                 {"T_DSN", "s8"},
                 {"T_WEBHOOK", "s9"},
                 {"T_CREDS", "s10"},
                 {"T_BEARER", "s11"},
                 {"T_APIKEY", "s12"},
                 {"t_lower_token", "s13"},
                 {"HERMES_BASE_URL", "u"},
                 {"HERMES_PROFILE", "prof"},
                 {"T_PLAIN", "p"},
                 {"MY_CUSTOM_KEY", "allowed"},
                 {"OPENROUTER_API_KEY", "never"},
                 {"LC_HERMES_TEST", "lc"},
                 {"XDG_HERMES_TEST", "xdg"}});
  ExecHarness h("terminal:\n  env_passthrough:\n    - MY_CUSTOM_KEY\n    - OPENROUTER_API_KEY\n");
  Json result = h.run(
      "import os, json\n"
      "print(json.dumps(sorted(k for k in os.environ if k.startswith(('T_', 't_', 'HERMES', "
      "'MY_', 'OPENROUTER', 'LC_HERMES', 'XDG_HERMES', 'PYTHON')))))");
  ASSERT_EQ(result["status"], "success") << result.dump();
  EXPECT_EQ(Json::parse(result["output"].get<std::string>()),
            Json::parse(R"(["HERMES_PROFILE", "HERMES_RPC_SOCKET", "HERMES_RPC_TOKEN",
                            "LC_HERMES_TEST", "MY_CUSTOM_KEY", "PYTHONDONTWRITEBYTECODE",
                            "PYTHONIOENCODING", "PYTHONPATH", "PYTHONUTF8",
                            "XDG_HERMES_TEST"])"));
}

TEST(ExecuteCodeEnv, PythonPathPutsStagingFirst) {
  ScopedEnv env(ScopedEnv::Vars{{"PYTHONPATH", "/inherited/dir"}});
  ExecHarness h;
  Json result = h.run(
      "import os, hermes_tools\n"
      "parts = os.environ['PYTHONPATH'].split(':')\n"
      "print(parts[0] == os.path.dirname(hermes_tools.__file__), parts[1:])");
  EXPECT_EQ(result["output"], "True ['/inherited/dir']\n") << result.dump();
}

TEST(ExecuteCodeEnv, ConfiguredTimezoneBecomesTz) {
  ScopedEnv env(ScopedEnv::Vars{{"TZ", "Europe/Paris"}});
  ExecHarness plain;
  EXPECT_EQ(plain.run("import os\nprint(os.environ.get('TZ'))")["output"], "None\n");
  ExecHarness h("timezone: Asia/Tokyo\n");
  EXPECT_EQ(h.run("import os\nprint(os.environ.get('TZ'))")["output"], "Asia/Tokyo\n");
}

}  // namespace
}  // namespace hermes::testing
