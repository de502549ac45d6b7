// SPDX-License-Identifier: MIT
// search_files over a backend: awkward file names (both builds), and, on a
// test backend whose target PATH is a chosen folder, the rg-less fallback,
// timeouts, cancellation and early stop killing the remote engine, and
// backend failures becoming the tool's error.
#include "backend/backend.h"
#include "tools/search_files/search_harness.h"
#include "tools/search_files/search_host.h"
#include "tools/search_files/search_service.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <thread>

namespace hermes::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAreArray;

// A stand-in remote: `bash -c` with PATH set to one folder, started or not.
class PathBackend final : public backend::Backend {
 public:
  PathBackend(std::string path, std::string cwd, std::string start_error = "")
      : path_(std::move(path)), cwd_(std::move(cwd)), start_error_(std::move(start_error)) {}
  std::string name() const override { return "test"; }
  bool native_files() const override { return false; }
  Status start(std::stop_token) override {
    if (start_error_.empty()) return {};
    return Error::Unavailable(start_error_);
  }
  std::vector<std::string> bash_argv(const std::string& script, bool) const override {
    return {"/usr/bin/env", "PATH=" + path_, "/usr/bin/bash", "-c", script};
  }
  std::string home() const override { return "/nonexistent-home"; }
  std::string default_cwd() const override { return cwd_; }

 private:
  std::string path_;
  std::string cwd_;
  std::string start_error_;
};

// Runs searches of `tree` on a PathBackend, or natively for comparison.
class RemoteRig {
 public:
  explicit RemoteRig(const FakeBin& bin, std::string start_error = "")
      : backend_(std::make_shared<PathBackend>(bin.path(), tree_.path(), std::move(start_error))) {}

  const TempDir& tree() const { return tree_; }
  search::SearchSessionState& state() { return state_; }

  Result<search::SearchOutcome> remote(search::SearchRequest req, std::stop_token stop = {},
                                       std::chrono::milliseconds timeout = 20s) {
    auto host = search::backend_host(backend_, stop, &state_);
    return run(req, *host, stop, timeout);
  }
  Result<search::SearchOutcome> native(search::SearchRequest req) {
    return run(req, search::native_host(), {}, 20s);
  }

 private:
  Result<search::SearchOutcome> run(const search::SearchRequest& req, search::SearchHost& host,
                                    std::stop_token stop, std::chrono::milliseconds timeout) {
    search::SearchDeps deps{
        .paths = paths_,
        .session_cwd = tree_.path(),
        .hermes_home = home_.path(),
        .state = state_,
        .env = {.engines = host.engines(), .host = &host, .timeout = timeout, .stop = stop}};
    return search::run_search(req, deps);
  }

  TempDir tree_;
  TempDir home_;
  PathResolver paths_;
  search::SearchSessionState state_;
  std::shared_ptr<PathBackend> backend_;
};

std::vector<std::string> files_of(const Json& out) {
  return out.contains("files") ? out["files"].get<std::vector<std::string>>()
                               : std::vector<std::string>{};
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

bool process_gone(const std::string& pid_file) {
  std::ifstream in(pid_file);
  pid_t pid = 0;
  in >> pid;
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

// ---- awkward names, through the tool (native and portable builds) ----

const std::vector<std::string> kAwkward = {
    "sp ace.txt", "it's \"q\".txt",     "new\nline.txt",      "-dash.txt",
    "ünï 😀.txt",  "$(touch pwned).txt", "`touch pwned2`;.txt"};

TEST(AwkwardNames, EveryNameIsFoundAndNoneIsRunAsAShellWord) {
  SearchHarness h;
  std::vector<std::string> expected;
  for (const auto& name : kAwkward) {
    h.tree().write("d -x 'q'/" + name, "needle\n");
    expected.push_back("d -x 'q'/" + name);
  }
  Json listed =
      h.call({{"pattern", "needle"}, {"path", "d -x 'q'"}, {"output_mode", "files_only"}});
  EXPECT_THAT(files_of(listed), UnorderedElementsAreArray(expected)) << listed.dump();
  Json counted = h.call({{"pattern", "needle"}, {"path", "d -x 'q'"}, {"output_mode", "count"}});
  ASSERT_EQ(counted["total_count"], kAwkward.size()) << counted.dump();
  for (const auto& path : expected) EXPECT_EQ(counted["counts"][path], 1) << path;
  Json found = h.call({{"pattern", "*.txt"}, {"target", "files"}, {"path", "d -x 'q'"}});
  EXPECT_THAT(files_of(found), UnorderedElementsAreArray(expected)) << found.dump();
  EXPECT_FALSE(exists(h.tree().file("pwned")));
  EXPECT_FALSE(exists(h.tree().file("d -x 'q'/pwned")));
  EXPECT_FALSE(exists(h.tree().file("d -x 'q'/pwned2")));
}

TEST(AwkwardNames, ANewlineInANameKeepsContentRecordsWhole) {
  SearchHarness h;
  h.tree().write("new\nline.txt", "x needle\n");
  Json out = h.call({{"pattern", "needle"}});
  ASSERT_EQ(out["total_count"], 1) << out.dump();
  EXPECT_EQ(out["matches"][0]["path"], "./new\nline.txt");
  EXPECT_EQ(out["matches"][0]["line"], 1);
}

TEST(AwkwardNames, LeadingDashRootsAndRootsWithQuotes) {
  SearchHarness h;
  h.tree().write("-r/a.txt", "needle\n");
  h.tree().write("q'\"/b.txt", "needle\n");
  Json dash = h.call({{"pattern", "needle"}, {"path", "-r"}});
  ASSERT_EQ(dash["total_count"], 1) << dash.dump();
  EXPECT_EQ(dash["matches"][0]["path"], "-r/a.txt");
  Json quoted = h.call({{"pattern", "*.txt"}, {"target", "files"}, {"path", "q'\""}});
  EXPECT_THAT(files_of(quoted), ElementsAre("q'\"/b.txt")) << quoted.dump();
  h.tree().write("nl\n/c.txt", "needle\n");  // a root whose name ends in a newline
  Json newline = h.call({{"pattern", "*.txt"}, {"target", "files"}, {"path", "nl\n"}});
  EXPECT_THAT(files_of(newline), ElementsAre("nl\n/c.txt")) << newline.dump();
}

// ---- backend failures, through the tool ----

TEST(BackendFailure, AStartFailureIsTheToolsError) {
  SearchHarness h;
  h.config().set_override("terminal.backend", "ssh");
  h.config().set_override("terminal.ssh_host", "127.0.0.1");
  h.config().set_override("terminal.ssh_port", "1");  // nothing listens there
  h.tree().write("a.txt", "needle\n");
  Json out = h.call({{"pattern", "needle"}});
  EXPECT_THAT(out["error"].get<std::string>(), StartsWith("SSH backend: cannot connect"))
      << out.dump();
  EXPECT_FALSE(out.contains("total_count"));
}

TEST(BackendFailure, AnUnreachableTargetIsAnErrorNotAMissingPath) {
  FakeBin bin({"rg"});
  RemoteRig rig(bin, "test backend: the target is gone");
  auto out = rig.remote({.pattern = "x"});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().message, "test backend: the target is gone");
  EXPECT_FALSE(rig.state().cached_not_found(rig.tree().path(), std::chrono::steady_clock::now()));
}

// ---- a real sandbox backend (bubblewrap), through the tool ----

TEST(SandboxBackend, SearchesGiveTheNativeResults) {
  SearchHarness native;
  SearchHarness sandboxed;
  sandboxed.config().set_override("terminal.backend", "sandbox");
  sandboxed.config().set_override("terminal.sandbox_workspace", sandboxed.tree().path());
  for (const SearchHarness* h : {&native, &sandboxed}) {
    set_mtime(h->tree().write("old.py", "def needle():\n"), 1'000'000);
    set_mtime(h->tree().write("sub dir/new.py", "needle = 1\n"), 2'000'000);
    h->tree().write(".hidden/x.py", "needle\n");
  }
  // rg walks in parallel: the order of files in a content result changes
  // from run to run (native too), so content results compare in path order.
  auto by_path = [](Json r) {
    if (r.contains("matches") && r["matches"].is_array()) {
      std::vector<Json> m(r["matches"].begin(), r["matches"].end());
      std::stable_sort(m.begin(), m.end(), [](const Json& x, const Json& y) {
        return x.value("path", "") < y.value("path", "");
      });
      r["matches"] = Json(m);
    }
    return r;
  };
  Json a = by_path(native.call({{"pattern", "needle"}}));
  Json b = by_path(sandboxed.call({{"pattern", "needle"}}));
  if (b.contains("error") && b["error"].get<std::string>().find("andbox") != std::string::npos) {
    GTEST_SKIP() << "bubblewrap unusable here: " << b["error"];
  }
  EXPECT_EQ(a, b);
  Json fa = native.call({{"pattern", "*.py"}, {"target", "files"}});
  Json fb = sandboxed.call({{"pattern", "*.py"}, {"target", "files"}});
  EXPECT_EQ(fa, fb);
  EXPECT_THAT(files_of(fb), ElementsAre("./sub dir/new.py", "./old.py"));
}

// ---- a remote without rg, and runs cut short, on a PathBackend ----

TEST(RemoteSearch, WithoutRgTheRemoteFallsBackExactlyLikeTheLocalFallback) {
  FakeBin bin({"grep", "find"});
  RemoteRig rig(bin);
  rig.tree().write("a.txt", "needle one\nneedle two\n");
  rig.tree().write("s p/b:c.txt", "needle three\n");
  rig.tree().write(".hidden/h.txt", "needle hidden\n");
  set_mtime(rig.tree().write("old.md", "x"), 1'000'000);
  set_mtime(rig.tree().write("d/new.md", "x"), 2'000'000);
  {
    ScopedPath path(bin.path());  // the native comparison uses grep/find too
    search::SearchRequest content{.pattern = "needle"};
    auto local = rig.native(content);
    auto remote = rig.remote(content);
    ASSERT_TRUE(local && remote);
    ASSERT_EQ(remote->total_count, 3);
    ASSERT_EQ(remote->matches.size(), local->matches.size());
    for (size_t i = 0; i < local->matches.size(); ++i) {
      EXPECT_EQ(remote->matches[i].path, local->matches[i].path);
      EXPECT_EQ(remote->matches[i].line, local->matches[i].line);
      EXPECT_EQ(remote->matches[i].content, local->matches[i].content);
    }
    search::SearchRequest files{.pattern = "*.md", .target = search::Target::kFiles};
    auto local_files = rig.native(files);
    auto remote_files = rig.remote(files);
    ASSERT_TRUE(local_files && remote_files);
    EXPECT_EQ(remote_files->files, local_files->files)
        << remote_files->error.value_or(Error{}).message << remote_files->warning;
    EXPECT_THAT(remote_files->files, ElementsAre("./d/new.md", "./old.md"));
    auto broad = rig.remote({.pattern = "*", .target = search::Target::kFiles, .path = "/"});
    ASSERT_TRUE(broad->error.has_value());
    EXPECT_THAT(broad->error->message,
                StartsWith("Broad local file search without ripgrep is disabled"));
    EXPECT_EQ(broad->error->code, ErrorCode::kPermissionDenied);
  }
}

TEST(RemoteSearch, TheDeadlineKillsTheRemoteEngine) {
  FakeBin bin({"sleep"});
  RemoteRig rig(bin);
  std::string pid_file = rig.tree().file("rg.pid");
  bin.script("rg", "echo $$ > '" + pid_file + "'; printf './a.txt\\0001:x\\n'; exec sleep 30");
  rig.tree().write("a.txt", "x\n");
  auto start = std::chrono::steady_clock::now();
  auto out = rig.remote({.pattern = "x"}, {}, 300ms);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(out->limit_reason, "search_timeout");
  ASSERT_EQ(out->matches.size(), 1u);
  EXPECT_EQ(out->matches[0].path, "./a.txt");
  EXPECT_TRUE(process_gone(pid_file));
}

TEST(RemoteSearch, CancellationKillsTheRemoteEngine) {
  FakeBin bin({"sleep", "mv"});
  RemoteRig rig(bin);
  std::string pid_file = rig.tree().file("rg.pid");
  bin.script("rg", "echo $$ > '" + pid_file + ".tmp'; mv '" + pid_file + ".tmp' '" + pid_file +
                       "'; exec sleep 30");
  // Stop once the engine has started (its pid file appears).
  std::stop_source stop;
  std::jthread canceller([&](std::stop_token done) {
    while (!done.stop_requested() && !exists(pid_file)) std::this_thread::yield();
    stop.request_stop();
  });
  auto start = std::chrono::steady_clock::now();
  auto out = rig.remote({.pattern = "x"}, stop.get_token());
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  ASSERT_TRUE(out->error.has_value());
  EXPECT_EQ(out->error->message, "Search interrupted");
  EXPECT_EQ(out->error->code, ErrorCode::kCancelled);
  EXPECT_TRUE(process_gone(pid_file));
}

TEST(RemoteSearch, EarlyStopKillsAnEndlessRemoteProducer) {
  FakeBin bin({"yes", "tr"});
  RemoteRig rig(bin);
  bin.script("rg", "yes ./f.txt | tr '\\n' '\\0'");
  auto start = std::chrono::steady_clock::now();
  auto out = rig.remote({.pattern = "*.txt",
                         .target = search::Target::kFiles,
                         .limit = 5,
                         .order = search::FileOrder::kDiscovery});
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(out->files.size(), 5u);
  EXPECT_EQ(out->total_count, 5 + search::kCountSlack);
  EXPECT_TRUE(out->total_is_lower_bound);
}

TEST(RemoteSearch, EnginesAreLookedUpOnceUntilAnotherToolRuns) {
  FakeBin bin({"grep"});
  RemoteRig rig(bin);
  rig.tree().write("a.txt", "needle\n");
  ASSERT_EQ(rig.remote({.pattern = "needle"})->total_count, 1);
  bin.script("rg", "printf './a.txt\\0007:from the new rg\\n'");
  EXPECT_EQ(rig.remote({.pattern = "needle"})->matches[0].line, 1);  // still grep
  rig.state().on_other_tool_call();
  auto out = rig.remote({.pattern = "needle"});
  ASSERT_EQ(out->matches.size(), 1u);
  EXPECT_EQ(out->matches[0].line, 7);
  EXPECT_THAT(out->matches[0].content, HasSubstr("new rg"));
}

}  // namespace
}  // namespace hermes::testing
