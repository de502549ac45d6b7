// SPDX-License-Identifier: MIT
// The command attack corpus (command_attacks.jsonl, written by
// gen_command_attacks.py): terminal and execute_code calls that try to leave
// a --root workspace — cd, pushd, links, subshells, background processes,
// hard links, renames, forged cwd markers, scripts — against the real binary.
// An attack fails when anything outside the root changed (the outside
// directory, $HOME, a path under /tmp or /dev/shm) or the session cwd, as a
// result reports it or as a final `pwd` sees it, is outside the root.
#include "core/strings.h"
#include "fs/cli_child.h"
#include "json/json.h"
#include "proc/proc_test_util.h"
#include "proc/write_fence.h"
#include "testutil/jsonl.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace hermes::testing {
namespace {

namespace fs = std::filesystem;

struct Attack {
  std::string name;
  std::vector<std::string> setup;
  std::vector<std::string> calls;  // JSON lines with the placeholders
};

std::vector<Attack> load_corpus() {
  std::vector<Attack> out;
  for (const Json& j : testing::read_jsonl(std::string(HERMES_SOURCE_DIR) +
                                           "/tests/tools/terminal/command_attacks.jsonl")) {
    Attack attack{j["name"], j["setup"].get<std::vector<std::string>>(), {}};
    for (const Json& call : j["calls"]) attack.calls.push_back(call.dump());
    out.push_back(std::move(attack));
  }
  return out;
}

// Every entry below `dir`: its kind and content or link text.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    auto status = fs::symlink_status(p, ec);
    if (fs::is_symlink(status)) {
      out[p] = "link:" + fs::read_symlink(p, ec).string();
    } else if (fs::is_directory(status)) {
      out[p] = "dir";
    } else if (fs::is_regular_file(status)) {
      std::stringstream text;
      text << std::ifstream(p).rdbuf();
      out[p] = "file:" + text.str();
    } else {
      out[p] = "special";
    }
  }
  return out;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) {
    text.replace(at, from.size(), to);
  }
  return text;
}

bool inside(const std::string& path, const std::string& root) {
  return path == root || path.starts_with(root + "/");
}

// Runs one `call -` session; one parsed result per line (`output`: the text).
std::vector<Json> run_session(const CliRun& cli, std::string& output) {
  output = run_cli(cli);
  std::vector<Json> results;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    results.push_back(Json::parse(line, nullptr, false));
  }
  return results;
}

// Runs one attack in a fresh world; returns a failure description or "".
// `server_env` is added to the server's environment.
std::string run_attack(const Attack& attack, const std::vector<std::string>& server_env = {}) {
  TempDir base;
  const std::string R = fs::canonical(base.path()).string() + "/root";
  const std::string OUT = base.file("outside"), HOME = base.file("home"),
                    HH = base.file("hermes-home");
  const std::string tag = random_hex(6);
  const std::string TMPX = "/tmp/hermes-attack-" + tag, SHMX = "/dev/shm/hermes-attack-" + tag;
  for (const auto& d : {R, OUT, HOME, HH}) fs::create_directories(d);
  auto fill = [&](std::string text) {
    for (auto [from, to] :
         {std::pair{"$OUT", OUT}, {"$HOME", HOME}, {"$TMPX", TMPX}, {"$SHMX", SHMX}, {"$R", R}}) {
      text = replace_all(text, from, to);
    }
    return text;
  };
  std::string script = "set -e\n";
  for (const auto& step : attack.setup) script += fill(step) + "\n";
  if (std::system(("/bin/sh -c '" + replace_all(script, "'", "'\\''") + "'").c_str()) != 0) {
    return "setup failed";
  }
  const auto outside_before = snapshot(OUT), home_before = snapshot(HOME);
  CliRun cli{.args = {"--root", R, "--yolo", "call", "-"},
             .env = {"HOME=" + HOME, "HERMES_HOME=" + HH},
             .cwd = R};
  cli.env.insert(cli.env.end(), server_env.begin(), server_env.end());
  for (const auto& call : attack.calls) cli.input += fill(call) + "\n";
  cli.input += R"({"tool":"terminal","arguments":{"command":"pwd -P"}})"
               "\n";
  std::string output;
  std::vector<Json> results = run_session(cli, output);
  if (results.size() != attack.calls.size() + 1) return "expected one result per call: " + output;
  std::string failure;
  if (snapshot(OUT) != outside_before) failure += "ESCAPE: the outside directory changed. ";
  if (snapshot(HOME) != home_before) failure += "ESCAPE: $HOME changed. ";
  std::error_code ec;
  if (fs::exists(TMPX, ec) || fs::exists(SHMX, ec)) failure += "ESCAPE: a temp path was created. ";
  fs::remove(TMPX, ec);
  fs::remove(SHMX, ec);
  for (const Json& r : results) {
    if (r.is_object() && r.contains("cwd") && !inside(r["cwd"].get<std::string>(), R)) {
      failure += "a result reports a cwd outside the root. ";
    }
  }
  std::string final_cwd(trim(results.back().value("output", "")));
  if (!inside(final_cwd, R)) failure += "the session cwd left the root (" + final_cwd + "). ";
  return failure.empty() ? "" : failure + "Output: " + output;
}

TEST(CommandAttackCorpus, NothingOutsideTheRootChangesAndTheCwdStaysInside) {
  if (proc::landlock_support().abi == 0) GTEST_SKIP() << proc::landlock_support().why_not;
  const auto corpus = load_corpus();
  ASSERT_GE(corpus.size(), 30u);
  for (const auto& attack : corpus) EXPECT_EQ(run_attack(attack), "") << attack.name;
}

// The corpus can fail: with the write fence switched off, the attacks that
// write outside are seen to escape (the cwd rule still holds).
TEST(CommandAttackCorpus, WithoutTheWriteFenceTheWritesAreSeenToEscape) {
  if (proc::landlock_support().abi == 0) GTEST_SKIP() << proc::landlock_support().why_not;
  int escapes = 0, cwd_escapes = 0;
  for (const auto& attack : load_corpus()) {
    if (attack.name.find("write") == std::string::npos) continue;
    std::string failure = run_attack(attack, {"HERMES_LANDLOCK=off"});
    std::string verdict = failure.substr(0, failure.find("Output: "));
    escapes += verdict.find("ESCAPE") != std::string::npos;
    cwd_escapes += verdict.find("cwd") != std::string::npos;
  }
  EXPECT_GE(escapes, 8);
  EXPECT_EQ(cwd_escapes, 0);
}

Json terminal_call(const std::string& command) {
  return Json{{"tool", "terminal"}, {"arguments", {{"command", command}}}};
}

Json script_call(const std::string& code) {
  return Json{{"tool", "execute_code"}, {"arguments", {{"code", code}}}};
}

// A session of the real binary. As root, the server runs as nobody: root may
// read any process's /proc files (undumpable or not), an ordinary user may not.
struct Session {
  TempDir base;
  std::string root = fs::canonical(base.path()).string() + "/root";
  std::string home = base.file("home");
  std::string hermes_home = base.file("hermes-home");
  std::string wrapper;

  explicit Session(const std::string& config = "") {
    for (const auto& d : {root, home, hermes_home}) fs::create_directories(d);
    std::ofstream(hermes_home + "/config.yaml") << config;
    if (::geteuid() != 0) return;
    wrapper = base.write("as-nobody",
                         "#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 "
                         "--clear-groups '" +
                             hermes_tools_bin() + "' \"$@\"\n");
    fs::permissions(wrapper,
                    fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
    for (const auto& entry : fs::recursive_directory_iterator(base.path())) {
      ::chown(entry.path().c_str(), 65534, 65534);
    }
    ::chown(base.path().c_str(), 65534, 65534);
  }

  std::vector<Json> run(const std::vector<Json>& calls, std::vector<std::string> env,
                        const std::vector<std::string>& args = {}) {
    CliRun cli{.args = args, .cwd = root};
    cli.args.insert(cli.args.end(), {"--yolo", "call", "-"});
    env.insert(env.end(),
               {"HOME=" + home, "HERMES_HOME=" + hermes_home, "PATH=/usr/local/bin:/usr/bin:/bin"});
    cli.env = std::move(env);
    for (const Json& call : calls) cli.input += call.dump() + "\n";
    if (!wrapper.empty()) ::setenv("HERMES_TOOLS_BIN", wrapper.c_str(), 1);
    std::string output;
    std::vector<Json> results = run_session(cli, output);
    if (!wrapper.empty()) ::unsetenv("HERMES_TOOLS_BIN");
    EXPECT_EQ(results.size(), calls.size()) << output;
    results.resize(calls.size());
    return results;
  }
};

// The output and error text of a result.
std::string text_of(const Json& result) {
  std::string text;
  for (const char* key : {"output", "error"}) {
    if (result.is_object() && result.contains(key) && result[key].is_string()) text += result[key];
  }
  return text;
}

// The server's environment is out of reach: not inherited (the provider
// blocklist) unless passed through, and not readable from /proc.
TEST(ChildEnvironment, ChildrenCannotReadTheServersSecrets) {
  Session session("terminal:\n  env_passthrough: [GH_TOKEN]\n");
  const std::vector<std::string> secrets = {"OPENAI_API_KEY=sk-canary-openai",
                                            "ANTHROPIC_API_KEY=sk-canary-anthropic",
                                            "GH_TOKEN=gh-canary-passed"};
  auto results = session.run(
      {terminal_call("echo \"openai=[$OPENAI_API_KEY] anthropic=[$ANTHROPIC_API_KEY] "
                     "gh=[$GH_TOKEN]\"; cat /proc/$PPID/environ; "
                     "head -c 4 /proc/self/environ >/dev/null && echo own-environ-readable"),
       script_call(
           "import os\nppid = os.getppid()\n"
           "print('openai', os.environ.get('OPENAI_API_KEY'))\n"
           "for pid in (ppid, int(open(f'/proc/{ppid}/stat').read().split(')')[1].split()[1])):\n"
           "    try:\n        print(open(f'/proc/{pid}/environ').read())\n"
           "    except OSError as e:\n        print('refused', pid, e.errno)\n")},
      secrets);
  const std::string terminal = text_of(results[0]), script = text_of(results[1]);
  EXPECT_NE(terminal.find("openai=[] anthropic=[] gh=[gh-canary-passed]"), std::string::npos)
      << terminal;
  EXPECT_NE(terminal.find("Permission denied"), std::string::npos) << terminal;
  EXPECT_NE(terminal.find("own-environ-readable"), std::string::npos) << terminal;
  EXPECT_EQ(terminal.find("sk-canary"), std::string::npos) << terminal;
  // The script's parent is the supervisor (a fork of the server), its
  // grandparent the server: both refuse.
  EXPECT_NE(script.find("openai None"), std::string::npos) << script;
  size_t first = script.find("refused");
  EXPECT_NE(first, std::string::npos) << script;
  EXPECT_NE(script.find("refused", first + 1), std::string::npos) << script;
  EXPECT_EQ(script.find("sk-canary"), std::string::npos) << script;
}

// Where Landlock is missing, the session is told once, whichever tool runs
// first; with Landlock, or without --root, there is nothing to say.
TEST(WriteFenceNotice, GivenOncePerSessionWhenLandlockIsMissing) {
  Session session;
  const std::vector<std::string> root = {"--root", session.root};
  auto off = session.run({terminal_call("true"), terminal_call("true"), script_call("print(1)")},
                         {"HERMES_LANDLOCK=off"}, root);
  ASSERT_TRUE(off[0].contains("notice")) << off[0].dump();
  EXPECT_NE(off[0]["notice"].get<std::string>().find("not write-fenced"), std::string::npos);
  EXPECT_NE(off[0]["notice"].get<std::string>().find("HERMES_LANDLOCK=off"), std::string::npos);
  EXPECT_FALSE(off[1].contains("notice")) << off[1].dump();
  EXPECT_FALSE(off[2].contains("notice")) << off[2].dump();

  auto script_first =
      session.run({script_call("print(1)"), terminal_call("true")}, {"HERMES_LANDLOCK=off"}, root);
  EXPECT_TRUE(script_first[0].contains("notice")) << script_first[0].dump();
  EXPECT_FALSE(script_first[1].contains("notice")) << script_first[1].dump();

  auto unrooted = session.run({terminal_call("true")}, {"HERMES_LANDLOCK=off"});
  EXPECT_FALSE(unrooted[0].contains("notice")) << unrooted[0].dump();
  if (proc::landlock_support().abi > 0) {
    auto fenced = session.run({terminal_call("true"), script_call("print(1)")}, {}, root);
    EXPECT_FALSE(fenced[0].contains("notice")) << fenced[0].dump();
    EXPECT_FALSE(fenced[1].contains("notice")) << fenced[1].dump();
  }
}

// On a kernel with Landlock, a fence that cannot be built (here a configured
// write path that does not exist) refuses every command, saying why and how
// to fix it; nothing runs unfenced.
TEST(WriteFenceRefusal, AFenceThatCannotBeBuiltRefusesCommands) {
  if (proc::landlock_support().abi == 0) GTEST_SKIP() << proc::landlock_support().why_not;
  Session session("security:\n  command_write_paths: [/nonexistent/hermes-cache]\n");
  const std::string escaped = session.base.file("escaped");
  const std::string touch = "touch '" + escaped + "'";
  auto results = session.run(
      {terminal_call(touch),
       {{"tool", "terminal"}, {"arguments", {{"command", touch}, {"background", true}}}},
       script_call("open('" + escaped + "', 'w').write('x')")},
      {}, {"--root", session.root});
  for (const Json& result : results) {
    std::string text = result.dump();
    EXPECT_NE(text.find("Commands are refused"), std::string::npos) << text;
    EXPECT_NE(text.find("/nonexistent/hermes-cache"), std::string::npos) << text;
    EXPECT_NE(text.find("HERMES_LANDLOCK=off"), std::string::npos) << text;
  }
  EXPECT_FALSE(fs::exists(escaped));
}

// A command that kills its supervisor hands its tree back to the server,
// which ends it: a detached sleeper it left does not survive, and the result
// says what happened rather than pass for an ordinary exit.
TEST(SupervisorKill, TheTreeIsEndedAndTheResultSaysSo) {
  Session session;
  std::string pid_file = session.base.file("orphan-pid");
  // In a script: the foreground guard refuses a bare `&` or setsid.
  std::string attack =
      session.base.write("attack.sh", "(setsid sleep 300 & echo $! > " + pid_file + ")\n");
  auto results = session.run(
      {terminal_call("sh " + attack + "; sleep 0.3; kill -9 $PPID"), terminal_call("echo fine")},
      {});
  EXPECT_NE(text_of(results[0]).find("killed the process that tracks it"), std::string::npos)
      << results[0].dump();
  EXPECT_EQ(text_of(results[1]).find("killed the process that tracks it"), std::string::npos)
      << results[1].dump();
  pid_t orphan = 0;
  std::ifstream(pid_file) >> orphan;
  ASSERT_GT(orphan, 0);
  EXPECT_TRUE(proc::testing::dies_within(orphan, std::chrono::seconds(2)));
}

// The reset says why, and the command's own output is still returned.
TEST(CwdFence, AResetKeepsTheOutputAndSaysWhy) {
  Session session;
  auto results =
      session.run({terminal_call("cd / && echo still-here"),
                   {{"tool", "terminal"}, {"arguments", {{"command", "pwd"}, {"workdir", "/"}}}}},
                  {}, {"--root", session.root});
  EXPECT_EQ(results[0].value("output", ""), "still-here");
  EXPECT_EQ(results[0].value("cwd", ""), session.root);
  EXPECT_EQ(results[0].value("cwd_note", ""), "'/' is outside the workspace root '" + session.root +
                                                  "': the session cwd was reset to the root.");
  EXPECT_EQ(results[1].value("status", ""), "blocked");
  EXPECT_NE(results[1].value("error", "").find("outside the workspace root"), std::string::npos);
}

}  // namespace
}  // namespace hermes::testing
