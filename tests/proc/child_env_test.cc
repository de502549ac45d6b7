// SPDX-License-Identifier: MIT
#include "proc/child_env.h"

#include <gtest/gtest.h>

namespace hermes::proc {
namespace {

std::vector<std::string> names(const std::vector<std::string>& env) {
  std::vector<std::string> out;
  for (const std::string& entry : env) out.push_back(entry.substr(0, entry.find('=')));
  return out;
}

TEST(ChildEnv, EveryBlockedSubstringIsDropped) {
  for (const char* name :
       {"MY_KEY", "GH_TOKEN", "APP_SECRET", "DB_PASSWORD", "AWS_CREDENTIAL", "OLD_PASSWD",
        "AUTH_HEADER", "SENTRY_DSN", "SLACK_WEBHOOK", "GCP_CREDS", "BEARER_VALUE", "MYAPIKEY",
        "lower_token", "PATH_TOKEN", "HOME_SECRET"}) {
    EXPECT_TRUE(is_secret_name(name)) << name;
    EXPECT_TRUE(scrub_environment({std::string(name) + "=v"}, {}).kept.empty()) << name;
  }
  EXPECT_FALSE(is_secret_name("PASS_THROUGH"));  // PASS alone does not count
}

TEST(ChildEnv, SafePrefixesAreKeptCaseSensitively) {
  std::vector<std::string> env = {
      "PATH=/bin",     "HOME=/h",         "USER=u",          "LANG=C",        "LC_ALL=C",
      "TERM=xterm",    "TERMINAL_CWD=/w", "PATHEXT=x",       "TMPDIR=/t",     "XDG_RUNTIME_DIR=/r",
      "PYTHONPATH=/p", "VIRTUAL_ENV=/v",  "CONDA_PREFIX=/c", "SHELL=/bin/sh", "LOGNAME=u",
      "path=/lower",   "FOO=bar",         "EDITOR=vi"};
  EXPECT_EQ(
      names(scrub_environment(env, {}).kept),
      (std::vector<std::string>{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "TERMINAL_CWD",
                                "PATHEXT", "TMPDIR", "XDG_RUNTIME_DIR", "PYTHONPATH", "VIRTUAL_ENV",
                                "CONDA_PREFIX", "SHELL", "LOGNAME"}));
}

TEST(ChildEnv, OnlyTheFourOperationalHermesNamesPass) {
  ScrubbedEnv out = scrub_environment(
      {"HERMES_HOME=/h", "HERMES_PROFILE=p", "HERMES_CONFIG=c", "HERMES_ENV=e", "HERMES_BASE_URL=u",
       "HERMES_KANBAN_DB=d", "HERMES_TIMEZONE=UTC", "HERMES_X_WEBHOOK=w"},
      {});
  EXPECT_EQ(names(out.kept), (std::vector<std::string>{"HERMES_HOME", "HERMES_PROFILE",
                                                       "HERMES_CONFIG", "HERMES_ENV"}));
  // Secret-looking ones are dropped silently; the rest are reported.
  EXPECT_EQ(out.dropped_hermes,
            (std::vector<std::string>{"HERMES_BASE_URL", "HERMES_KANBAN_DB", "HERMES_TIMEZONE"}));
}

TEST(ChildEnv, PassthroughWinsExceptForProviderCredentials) {
  ScrubbedEnv out = scrub_environment(
      {"MY_CUSTOM_KEY=1", "HERMES_KANBAN_DB=d", "OPENROUTER_API_KEY=sk", "OTHER_KEY=2"},
      {"MY_CUSTOM_KEY", "HERMES_KANBAN_DB", "OPENROUTER_API_KEY"});
  EXPECT_EQ(out.kept, (std::vector<std::string>{"MY_CUSTOM_KEY=1", "HERMES_KANBAN_DB=d"}));
}

TEST(ChildEnv, ValuesWithEqualsSurvive) {
  EXPECT_EQ(scrub_environment({"LANG=a=b", "=broken", "NOEQUALS"}, {}).kept,
            std::vector<std::string>{"LANG=a=b"});
}

TEST(ChildEnv, SetAndGet) {
  std::vector<std::string> env = {"A=1", "B=2"};
  set_env(env, "A", "3");
  set_env(env, "C", "4=5");
  EXPECT_EQ(env, (std::vector<std::string>{"A=3", "B=2", "C=4=5"}));
  EXPECT_EQ(get_env(env, "C"), "4=5");
  EXPECT_EQ(get_env(env, "D"), "");
}

TEST(TerminalEnv, TheProviderBlocklistIsDroppedAndTheRestKept) {
  std::vector<std::string> env = {
      "OPENAI_API_KEY=sk", "ANTHROPIC_API_KEY=a",  "GH_TOKEN=g",    "OPENAI_BASE_URL=u",
      "MODAL_TOKEN_ID=m",  "MODAL_TOKEN_SECRET=s", "EXA_API_KEY=e", "SLACK_ALLOWED_USERS=x",
      "PATH=/usr/bin",     "MY_OWN_TOKEN=t",       "AWS_PROFILE=p", "HERMES_HOME=/h"};
  // Only Hermes' own secrets go; the user's own variables are the user's.
  EXPECT_EQ(names(terminal_environment(env, {})),
            (std::vector<std::string>{"PATH", "MY_OWN_TOKEN", "AWS_PROFILE", "HERMES_HOME"}));
}

TEST(TerminalEnv, PassthroughLetsANamedSecretThrough) {
  std::vector<std::string> env = {"OPENAI_API_KEY=sk", "GH_TOKEN=g", "PATH=/usr/bin"};
  EXPECT_EQ(terminal_environment(env, {"GH_TOKEN"}),
            (std::vector<std::string>{"GH_TOKEN=g", "PATH=/usr/bin"}));
}

TEST(TerminalEnv, ForcedNamesAreExportedUnderTheirRealName) {
  std::vector<std::string> env = {"_HERMES_FORCE_OPENAI_API_KEY=forced", "OPENAI_API_KEY=sk",
                                  "_HERMES_FORCE_=empty", "PATH=/usr/bin"};
  EXPECT_EQ(terminal_environment(env, {}),
            (std::vector<std::string>{"PATH=/usr/bin", "OPENAI_API_KEY=forced"}));
}

TEST(TerminalEnv, APathWithoutUsrBinGetsTheStandardDirectoriesAppended) {
  const std::string standard = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  EXPECT_EQ(get_env(terminal_environment({"PATH=/opt/tool/bin"}, {}), "PATH"),
            "/opt/tool/bin:" + standard);
  EXPECT_EQ(get_env(terminal_environment({"HOME=/h"}, {}), "PATH"), standard);
  // /usr/bin present (not as a prefix of another entry): left alone.
  EXPECT_EQ(get_env(terminal_environment({"PATH=/x:/usr/bin"}, {}), "PATH"), "/x:/usr/bin");
  EXPECT_EQ(get_env(terminal_environment({"PATH=/usr/bin/extra"}, {}), "PATH"),
            "/usr/bin/extra:" + standard);
}

}  // namespace
}  // namespace hermes::proc
