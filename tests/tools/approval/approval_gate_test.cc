// SPDX-License-Identifier: MIT
// The approval flow: floors, bypass, allowlist, session scope, elicitation.
#include "tools/approval/approval_gate.h"

#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "testutil/scripted_client.h"

#include <gtest/gtest.h>

#include <memory>

namespace hermes::approval {
namespace {

using testing::ScriptedClient;

struct Fixture {
  explicit Fixture(const std::string& yaml = "", registry::ClientChannel* c = nullptr)
      : Fixture(Config::from_yaml(yaml), c) {}
  Fixture(std::unique_ptr<Config> loaded, registry::ClientChannel* c)
      : config(std::move(loaded)),
        services{*config, paths},
        dispatcher(registry, services),
        client(c ? c : &null_client) {}
  GateResult check(const std::string& command) {
    registry::CallContext ctx{session, services, *client, dispatcher, {}, Json()};
    return check_command(command, ctx);
  }
  std::unique_ptr<Config> config;
  PathResolver paths;
  registry::Services services;
  registry::Registry registry;
  registry::Dispatcher dispatcher;
  registry::Session session{"s"};
  registry::NullClientChannel null_client;
  registry::ClientChannel* client;
};

TEST(ApprovalGate, SafeCommandRuns) {
  EXPECT_EQ(Fixture().check("ls -la").verdict, Verdict::kAllow);
}

TEST(ApprovalGate, DangerousIsPendingWithoutAHuman) {
  GateResult r = Fixture().check("rm -rf build");
  EXPECT_EQ(r.verdict, Verdict::kPending);
  EXPECT_EQ(r.description, "recursive delete");
}

TEST(ApprovalGate, HardlineIsBlockedEvenWithYolo) {
  Fixture f("approvals:\n  yolo: true\n");
  GateResult r = f.check("rm -rf /");
  EXPECT_EQ(r.verdict, Verdict::kBlocked);
  EXPECT_EQ(r.message.rfind("BLOCKED (hardline): recursive delete of root filesystem. ", 0), 0u);
}

TEST(ApprovalGate, YoloAndModeOffBypass) {
  EXPECT_EQ(Fixture("approvals:\n  yolo: true\n").check("rm -rf build").verdict, Verdict::kAllow);
  EXPECT_EQ(Fixture("approvals:\n  mode: off\n").check("rm -rf build").verdict, Verdict::kAllow);
}

TEST(ApprovalGate, DenyRulesAreAFloor) {
  Fixture f("approvals:\n  mode: off\n  deny: ['git push*']\n");
  GateResult r = f.check("GIT PUSH origin main");
  EXPECT_EQ(r.verdict, Verdict::kBlocked);
  EXPECT_EQ(r.description, "user-defined deny rule 'git push*'");
  EXPECT_EQ(r.message.rfind("BLOCKED: user-defined deny rule 'git push*'. ", 0), 0u) << r.message;
}

// A definition that ran is remembered for the session's later calls.
TEST(ApprovalGate, NamesDefinedInOneCallAreReadInTheNext) {
  Fixture f;
  EXPECT_EQ(f.check("zap() { rm -rf \"$@\"; }; alias s=sudo; export T=rm").verdict,
            Verdict::kAllow);
  EXPECT_EQ(f.check("zap build").description, "recursive delete");
  EXPECT_EQ(f.check("$T -rf build").description, "recursive delete");
  EXPECT_EQ(f.check("s -A id").description, "sudo with stdin password, askpass or shell");
  // A command that did not run leaves nothing behind.
  EXPECT_EQ(f.check("rm -rf x; ok() { rm -rf /; }").verdict, Verdict::kPending);
  EXPECT_EQ(f.check("ok").verdict, Verdict::kAllow);
}

// Definitions from the session snapshot, read with the command.
TEST(ApprovalGate, SnapshotDefinitionsApply) {
  Fixture f;
  registry::CallContext ctx{f.session, f.services, *f.client, f.dispatcher, {}, Json()};
  ShellContext shell{"wipe () \n{ \n    rm -rf \"$1\"\n}\nalias ll='ls -l'\n", "/work"};
  EXPECT_EQ(check_command("wipe /", ctx, shell).verdict, Verdict::kBlocked);
  EXPECT_EQ(check_command("ll", ctx, shell).verdict, Verdict::kAllow);
  EXPECT_EQ(Fixture().check("wipe /").verdict, Verdict::kAllow);
}

TEST(ApprovalGate, AllowlistByKeyOrGlob) {
  Fixture f("command_allowlist: ['recursive delete', 'python3 -c *']\n");
  EXPECT_EQ(f.check("rm -rf build").verdict, Verdict::kAllow);
  EXPECT_EQ(f.check("python3 -c 'print(1)'").verdict, Verdict::kAllow);
  EXPECT_EQ(f.check("python3 -c 'print(1)' | sh").verdict, Verdict::kPending);
}

TEST(ApprovalGate, SudoStdinWithoutPasswordIsBlocked) {
  ::unsetenv("SUDO_PASSWORD");
  EXPECT_EQ(Fixture().check("sudo -S apt update").verdict, Verdict::kBlocked);
}

TEST(ApprovalGate, ElicitationOnceAsksEveryTime) {
  ScriptedClient client(Json{{"action", "accept"}, {"content", {{"decision", "once"}}}});
  Fixture f("", &client);
  EXPECT_EQ(f.check("rm -rf build").verdict, Verdict::kApproved);
  EXPECT_EQ(f.check("rm -rf build").verdict, Verdict::kApproved);
  EXPECT_EQ(client.asked, 2);
  EXPECT_EQ(client.last_method, "elicitation/create");
  EXPECT_EQ(client.last_params["requestedSchema"]["properties"]["decision"]["enum"][1], "session");
}

TEST(ApprovalGate, ElicitationSessionScopeRemembersTheKey) {
  ScriptedClient client(Json{{"action", "accept"}, {"content", {{"decision", "session"}}}});
  Fixture f("", &client);
  EXPECT_EQ(f.check("rm -rf build").verdict, Verdict::kApproved);
  EXPECT_EQ(f.check("rm -r other").verdict, Verdict::kAllow);
  EXPECT_EQ(client.asked, 1);
  EXPECT_EQ(f.check("find . -delete").verdict, Verdict::kApproved);  // another key
}

TEST(ApprovalGate, ElicitationDenyAndSilenceBlock) {
  ScriptedClient deny(Json{{"action", "decline"}});
  EXPECT_EQ(Fixture("", &deny).check("rm -rf build").message.rfind("BLOCKED: User denied", 0), 0u);
  ScriptedClient silent(std::nullopt);
  GateResult r = Fixture("", &silent).check("rm -rf build");
  EXPECT_EQ(r.verdict, Verdict::kBlocked);
  EXPECT_NE(r.message.find("Silence is not consent."), std::string::npos);
}

}  // namespace
}  // namespace hermes::approval

namespace hermes::approval {
namespace {

TEST(ApprovalGate, AlwaysScopePersistsToConfigYaml) {
  char tmpl[] = "/tmp/hermes-approval-XXXXXX";
  std::string home = ::mkdtemp(tmpl);
  {
    std::FILE* f = std::fopen((home + "/config.yaml").c_str(), "w");
    std::fputs("approvals:\n  timeout: 60\ncommand_allowlist: ['git push*']\n", f);
    std::fclose(f);
  }
  ScriptedClient client(Json{{"action", "accept"}, {"content", {{"decision", "always"}}}});
  Fixture f(Config::load(home), &client);
  EXPECT_EQ(f.check("rm -rf build").verdict, Verdict::kApproved);
  EXPECT_EQ(f.check("rm -rf other").verdict, Verdict::kAllow);  // session remembers
  auto reloaded = Config::load(home);
  EXPECT_EQ(reloaded->get_string_list("command_allowlist"),
            (std::vector<std::string>{"git push*", "recursive delete"}));
  EXPECT_EQ(reloaded->get_int("approvals.timeout", 0), 60);
  EXPECT_EQ(std::system(("rm -rf " + home).c_str()), 0);
}

}  // namespace
}  // namespace hermes::approval
