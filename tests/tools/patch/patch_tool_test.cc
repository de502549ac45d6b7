// SPDX-License-Identifier: MIT
// The patch tool's edge: argument errors, result shape, no_change, the miss
// hints, BOM/CRLF through the write pipeline, guards, read-stamp refresh;
// which writes are brief calls.
#include "fs/path_lock.h"
#include "testutil/scoped_env.h"
#include "tools/write_file/tool_harness.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace hermes::testing {
namespace {

class PatchToolTest : public ::testing::Test {
 protected:
  Json replace(const std::string& path, const std::string& old_text, const std::string& new_text) {
    return tools.call("patch",
                      {{"path", path}, {"old_string", old_text}, {"new_string", new_text}});
  }
  TempDir dir;
  ToolHarness tools{{write_file::register_write_file, patch::register_patch}};
};

TEST_F(PatchToolTest, ArgumentErrors) {
  EXPECT_EQ(tools.call("patch", {{"old_string", "a"}, {"new_string", "b"}})["error"],
            "path required");
  EXPECT_EQ(tools.call("patch", {{"path", "x"}, {"old_string", "a"}})["error"],
            "old_string and new_string required");
  EXPECT_EQ(tools.call("patch", {{"mode", "patch"}})["error"], "patch content required");
  Json fourth = tools.call("patch", {{"mode", "zap"}});
  EXPECT_EQ(fourth["error"], "Unknown mode: zap");
  EXPECT_EQ(fourth["success"], false);
  EXPECT_NE(fourth.value("_hint", "").find("malformed patch call #4"), std::string::npos);
}

TEST_F(PatchToolTest, WrongTypedArgumentsSayWhichTypeIsWanted) {
  std::string path = dir.write("a.txt", "alpha\n");
  EXPECT_EQ(tools.call("patch", {{"path", 5}, {"old_string", "a"}, {"new_string", "b"}})["error"],
            "patch: 'path' must be a string, got int.");
  EXPECT_EQ(tools.call("patch", {{"path", path},
                                 {"old_string", "alpha"},
                                 {"new_string", "b"},
                                 {"replace_all", "yes"}})["error"],
            "patch: 'replace_all' must be a boolean, got str.");
  EXPECT_EQ(tools.call("patch", {{"mode", "patch"}, {"patch", Json::array()}})["error"],
            "patch: 'patch' must be a string, got list.");
  EXPECT_EQ(dir.read("a.txt"), "alpha\n");
}

// A 2 GiB file (sparse: no disk used) is refused from its size, before any
// byte is read: no allocation, no wait.
TEST_F(PatchToolTest, OversizedFileIsRefusedUpFront) {
  std::string path = dir.write("huge.txt", "");
  ASSERT_EQ(::truncate(path.c_str(), off_t{2} << 30), 0);
  auto started = std::chrono::steady_clock::now();
  Json out = replace(path, "a", "b");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  EXPECT_EQ(out["success"], false);
  EXPECT_NE(out["error"].get<std::string>().find("over the 64 MiB limit"), std::string::npos)
      << out.dump();
  Json v4a = tools.call("patch", {{"mode", "patch"},
                                  {"patch", "*** Begin Patch\n*** Update File: " + path +
                                                "\n@@\n-a\n+b\n*** End Patch\n"}});
  EXPECT_EQ(v4a["success"], false);
  EXPECT_NE(v4a["error"].get<std::string>().find("over the 64 MiB limit"), std::string::npos)
      << v4a.dump();
}

// An absolute path heads the diff as it is (`--- /tmp/x/a.py`), the way
// `diff -u` prints it, never as `--- a//tmp/x/a.py`.
TEST_F(PatchToolTest, DiffHeadersOfAbsolutePathsHaveNoDoubledSlash) {
  std::string path = dir.write("a.py", "x = 1\n");
  Json out = replace(path, "x = 1", "x = 2");
  ASSERT_EQ(out["success"], true) << out.dump();
  EXPECT_TRUE(out["diff"].get<std::string>().starts_with("--- " + path + "\n+++ " + path + "\n"))
      << out["diff"];
  std::string added = dir.file("b.py");
  Json v4a = tools.call(
      "patch", {{"mode", "patch"},
                {"patch", "*** Begin Patch\n*** Update File: " + path + "\n@@\n-x = 2\n+x = 3\n" +
                              "*** Add File: " + added + "\n+y = 1\n*** End Patch\n"}});
  ASSERT_EQ(v4a["success"], true) << v4a.dump();
  std::string diff = v4a["diff"].get<std::string>();
  EXPECT_NE(diff.find("--- " + path + "\n+++ " + path + "\n"), std::string::npos) << diff;
  EXPECT_NE(diff.find("+++ " + added + "\n"), std::string::npos) << diff;
  EXPECT_EQ(diff.find("//"), std::string::npos) << diff;
}

TEST_F(PatchToolTest, FifoAndDirectoryAreRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(dir.file("pipe").c_str(), 0600), 0);
  Json fifo = replace(dir.file("pipe"), "a", "b");
  EXPECT_NE(fifo["error"].get<std::string>().find("a FIFO (named pipe), not a regular file"),
            std::string::npos)
      << fifo.dump();
  Json directory = replace(dir.path(), "a", "b");
  EXPECT_NE(directory["error"].get<std::string>().find("a directory, not a regular file"),
            std::string::npos)
      << directory.dump();
}

TEST_F(PatchToolTest, ReplaceResultShape) {
  std::string path = dir.write("a.py", "def f():\n    return 1\n");
  Json out = replace(path, "return 1", "return 2");
  ASSERT_EQ(out["success"], true) << out.dump();
  EXPECT_NE(out["diff"].get<std::string>().find("-    return 1\n+    return 2\n"),
            std::string::npos);
  EXPECT_EQ(out["files_modified"], Json::array({path}));
  EXPECT_EQ(out["resolved_path"], path);
  EXPECT_TRUE(out["lint"].contains("status"));
  EXPECT_FALSE(out.contains("match_strategy"));  // exact
  Json fuzzy = replace(path, "def f():\n  return 2", "def f():\n  return 3");
  EXPECT_EQ(fuzzy["match_strategy"], "line_trimmed");
  EXPECT_EQ(dir.read("a.py"), "def f():\n    return 3\n");
}

TEST_F(PatchToolTest, AlreadyAppliedIsNoChange) {
  std::string path = dir.write("a.txt", "greeting = 'hello world'\n");
  Json out = replace(path, "greeting = 'hi'", "greeting = 'hello world'");
  EXPECT_EQ(out["success"], true);
  EXPECT_EQ(out["no_change"], true);
  EXPECT_EQ(out["note"],
            "File already contains the target text — the edit appears to be already applied to " +
                path + ". No write performed; do not re-send this patch.");
}

TEST_F(PatchToolTest, ThirdMissEarnsTheFailureHint) {
  std::string path = dir.write("a.txt", "alpha\n");
  Json first = replace(path, "zzzzzzzz qqqq", "x");
  EXPECT_EQ(first["success"], false);
  EXPECT_EQ(first["_hint"],
            "old_string not found. Use read_file to verify the current content, or search_files to "
            "locate the text.");
  replace(path, "zzzzzzzz qqqq", "x");
  Json third = replace(path, "zzzzzzzz qqqq", "x");
  EXPECT_TRUE(
      third["_hint"].get<std::string>().starts_with("This is failure #3 patching '" + path + "'."));
  replace(path, "alpha", "beta");  // a success resets the count
  EXPECT_FALSE(replace(path, "zzzzzzzz qqqq", "x")["_hint"].get<std::string>().starts_with(
      "This is failure"));
}

TEST_F(PatchToolTest, BomAndCrlfSurviveAnEdit) {
  std::string path = dir.write("w.txt", "\xEF\xBB\xBFone\r\ntwo\r\nthree");
  Json out = replace(path, "two\n", "2\n2b\n");
  ASSERT_EQ(out["success"], true) << out.dump();
  EXPECT_EQ(dir.read("w.txt"), "\xEF\xBB\xBFone\r\n2\r\n2b\r\nthree");
}

TEST_F(PatchToolTest, SyntaxGateRefusalIsReported) {
  std::string path = dir.write("c.json", "{\"a\": 1}\n");
  Json out = replace(path, "\"a\": 1", "\"a\": ");
  EXPECT_TRUE(
      out["error"].get<std::string>().starts_with("Failed to write changes: Refusing to write '"))
      << out.dump();
  EXPECT_EQ(dir.read("c.json"), "{\"a\": 1}\n");
}

TEST_F(PatchToolTest, GuardsApplyToPatches) {
  EXPECT_TRUE(replace("/etc/hostname", "a", "b")["error"].get<std::string>().starts_with(
      "Refusing to write to sensitive system path"));
  std::string agents = dir.write("AGENTS.md", "rules\n");
  EXPECT_TRUE(
      replace(agents, "rules", "no rules")["error"].get<std::string>().starts_with("BLOCKED:"));
  Json v4a = tools.call("patch",
                        {{"mode", "patch"},
                         {"patch", "*** Begin Patch\n*** Delete File: ../x.txt\n*** End Patch\n"}});
  EXPECT_TRUE(v4a["error"].get<std::string>().starts_with(
      "V4A patch header contains '..' traversal: '../x.txt'."));
}

// patch never earns a whole-file baseline (docs/tools/write_file.md).
TEST_F(PatchToolTest, WriteAfterPatchNeedsAReread) {
  std::string path = dir.write("a.txt", "one\n");
  tools.mark_read(path);
  ASSERT_EQ(replace(path, "one", "two")["success"], true);
  Json out = tools.call("write_file", {{"path", path}, {"content", "three\n"}});
  EXPECT_EQ(out["stale_write_blocked"], true) << out.dump();
}

// No stale blocker for patch, but a warning (docs/tools/patch.md).
TEST_F(PatchToolTest, FileChangedSinceReadIsPatchedWithAWarning) {
  std::string path = dir.write("s.txt", "alpha\nbeta\n");
  tools.mark_read(path);
  Json fresh = replace(path, "alpha", "ALPHA");
  ASSERT_EQ(fresh["success"], true) << fresh.dump();
  EXPECT_FALSE(fresh.contains("_warning")) << fresh.dump();

  tools.mark_read(path);
  dir.write("s.txt", "ALPHA\nbeta\ngamma\n");  // another writer
  Json out = replace(path, "beta", "BETA");
  ASSERT_EQ(out["success"], true) << out.dump();
  EXPECT_TRUE(out.value("_warning", "")
                  .starts_with("Warning: " + path + " was modified since you last read it"))
      << out.dump();
  EXPECT_EQ(dir.read("s.txt"), "ALPHA\nBETA\ngamma\n");

  tools.mark_read(path);
  dir.write("s.txt", "ALPHA\nBETA\ngamma\ndelta\n");
  Json v4a = tools.call("patch", {{"mode", "patch"},
                                  {"patch", "*** Begin Patch\n*** Update File: " + path +
                                                "\n@@\n-delta\n+DELTA\n*** End Patch\n"}});
  ASSERT_EQ(v4a["success"], true) << v4a.dump();
  EXPECT_TRUE(v4a.value("_warning", "")
                  .starts_with("Warning: " + path + " was modified since you last read it"))
      << v4a.dump();
}

TEST_F(PatchToolTest, NotAPatchIsAParseErrorWithTheLine) {
  Json out = tools.call("patch", {{"mode", "patch"}, {"patch", "diff --git a/x b/x\n--- a/x\n"}});
  EXPECT_TRUE(out["error"].get<std::string>().starts_with(
      "Failed to parse patch: Parse error: line 1: 'diff --git a/x b/x'"))
      << out.dump();
}

// The per-path lock: two threads patching different lines of one file never
// lose each other's edits in a read-modify-write race.
TEST_F(PatchToolTest, ConcurrentPatchesOnOneFileAllLand) {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "token_" + std::to_string(i) + " = old\n";
  std::string path = dir.write("many.txt", text);
  auto worker = [&](int first) {
    for (int i = first; i < 40; i += 2) {
      Json out = replace(path, "token_" + std::to_string(i) + " = old",
                         "token_" + std::to_string(i) + " = new");
      EXPECT_EQ(out["success"], true) << out.dump();
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  std::string now = dir.read("many.txt");
  EXPECT_EQ(now.find("= old"), std::string::npos) << now;
}

TEST_F(PatchToolTest, RelativePathOutsideWorkspaceWarns) {
  TempDir workspace;
  std::string path = dir.write("w.txt", "alpha beta\n");
  tools.session().set_cwd(workspace.path());
  std::string rel = "../" + dir.path().substr(dir.path().rfind('/') + 1) + "/w.txt";
  Json out = replace(rel, "alpha", "gamma");
  ASSERT_EQ(out["success"], true) << out.dump();
  EXPECT_TRUE(out.value("_warning", "")
                  .starts_with("Relative path '" + rel + "' resolved to '" + path + "'"));
}

// A backend that cannot start is each file tool's error, in its own shape.
TEST_F(PatchToolTest, UnreachableBackendIsTheToolsError) {
  tools.config().set_override("terminal.backend", "ssh");
  tools.config().set_override("terminal.ssh_host", "127.0.0.1");
  tools.config().set_override("terminal.ssh_port", "1");
  Json patched =
      tools.call("patch", {{"path", "/tmp/x"}, {"old_string", "a"}, {"new_string", "b"}});
  EXPECT_EQ(patched["success"], false);
  EXPECT_TRUE(patched.value("error", "").starts_with("SSH backend: cannot connect to"))
      << patched.dump();
  Json written = tools.call("write_file", {{"path", "/tmp/x"}, {"content", "b"}});
  EXPECT_TRUE(written.value("error", "").starts_with("SSH backend: cannot connect to"))
      << written.dump();
}

// The `brief` predicate of `tool` (write_file or patch) on `args`.
bool brief(const std::string& tool, const Json& args) {
  registry::Registry registry;
  write_file::register_write_file(registry);
  patch::register_patch(registry);
  for (const auto& spec : registry.all()) {
    registry::BriefFindings found;
    if (spec.name == tool) return spec.brief(args, found);
  }
  ADD_FAILURE() << "no tool " << tool;
  return false;
}

// A linter process may run for up to its timeout: such a write is never run
// where it would hold other calls (an HTTP event loop).
TEST(WritesBriefly, UnlessALinterProcessChecksTheRealPath) {
  TempDir dir;
  ScopedEnv runtime("XDG_RUNTIME_DIR", dir.path());  // a lock file of this test's own
  const std::string notes = dir.write("notes.txt", "x\n");
  const std::string script = dir.write("tool.py", "x = 1\n");
  ASSERT_EQ(::symlink(script.c_str(), dir.file("readme.txt").c_str()), 0);
  for (const std::string tool : {"write_file", "patch"}) {
    EXPECT_TRUE(brief(tool, {{"path", notes}})) << tool;
    EXPECT_TRUE(brief(tool, {{"path", dir.file("new.md")}})) << tool;
    EXPECT_FALSE(brief(tool, {{"path", script}})) << tool;
    EXPECT_FALSE(brief(tool, {{"path", dir.file("app.ts")}})) << tool;
    EXPECT_FALSE(brief(tool, {{"path", dir.file("readme.txt")}})) << tool;  // a link to a .py
    EXPECT_FALSE(brief(tool, {{"path", "notes.txt"}})) << tool;             // relative
  }
  EXPECT_TRUE(brief("patch", {{"mode", "replace"}, {"path", notes}}));
  EXPECT_FALSE(brief("patch", {{"mode", "patch"}, {"patch", "*** Begin Patch\n*** End Patch"}}));
}

// A write whose file's lock another writer holds would wait for it: it is
// not brief, so it waits on a worker and not on an event loop.
TEST(WritesBriefly, NotWhileAnotherWriterHoldsTheFile) {
  TempDir dir;
  ScopedEnv runtime("XDG_RUNTIME_DIR", dir.path());  // a lock file of this test's own
  const std::string notes = dir.write("notes.txt", "x\n");
  {
    auto lock = fs::PathLocks::take({notes}, {});
    ASSERT_TRUE(lock.has_value()) << lock.error().message;
    for (const std::string tool : {"write_file", "patch"}) {
      EXPECT_FALSE(brief(tool, {{"path", notes}})) << tool;
      EXPECT_TRUE(brief(tool, {{"path", dir.file("other.txt")}})) << tool;
    }
  }
  for (const std::string tool : {"write_file", "patch"})
    EXPECT_TRUE(brief(tool, {{"path", notes}}));
}

// Cancels the calls of `tools` after `limit`, unless destroyed first.
class Deadline {
 public:
  Deadline(ToolHarness& tools, std::chrono::milliseconds limit)
      : timer_([this, limit](std::stop_token self) {
          const auto until = std::chrono::steady_clock::now() + limit;
          while (!self.stop_requested() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          if (!self.stop_requested()) give_up_.request_stop();
        }) {
    tools.stop_with(give_up_.get_token());
  }

 private:
  std::stop_source give_up_;
  std::jthread timer_;
};

// The brief check takes the write's lock and the call keeps it: no other
// writer can take it between the check and the write (a brief call on an
// event loop would wait for it), and the call does not wait on the lock its
// check holds.
TEST(WritesBriefly, TheCheckTakesTheLockAndTheCallWritesUnderIt) {
  TempDir dir;
  ScopedEnv runtime("XDG_RUNTIME_DIR", dir.path());
  const Json calls[] = {
      {{"path", dir.write("a.txt", "x\n")}, {"content", "y\n"}},
      {{"path", dir.write("b.txt", "x\n")}, {"old_string", "x"}, {"new_string", "y"}},
  };
  const char* tools_called[] = {"write_file", "patch"};
  for (int i = 0; i < 2; ++i) {
    const std::string path = calls[i]["path"];
    {
      ToolHarness tools{{write_file::register_write_file, patch::register_patch}};
      tools.mark_read(path);
      registry::BriefFindings found;
      ASSERT_TRUE(tools.check_brief(tools_called[i], calls[i], found));
      EXPECT_FALSE(fs::PathLocks::try_take(path)) << "a writer took the lock after the check";
      Deadline deadline(tools, std::chrono::seconds(10));
      Json out = tools.call(tools_called[i], calls[i]);
      EXPECT_FALSE(out.contains("error")) << out.dump();
      EXPECT_EQ(dir.read(i == 0 ? "a.txt" : "b.txt"), "y\n");
    }
    EXPECT_TRUE(fs::PathLocks::try_take(path)) << "the lock outlived the call";
  }
}

}  // namespace
}  // namespace hermes::testing
