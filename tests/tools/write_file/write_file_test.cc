// SPDX-License-Identifier: MIT
// write_file through its handler: argument errors, guards in order, the
// write pipeline (gate, shims, atomic write, verification, lint delta).
#include "fs/path_lock.h"
#include "testutil/memory_file_system.h"
#include "testutil/scoped_env.h"
#include "testutil/status_matchers.h"
#include "tools/file_common/write_safety.h"
#include "tools/write_file/tool_harness.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

namespace hermes::testing {
namespace {

class WriteFileTest : public ::testing::Test {
 protected:
  Json write(const std::string& path, const std::string& content) {
    return tools.call("write_file", {{"path", path}, {"content", content}});
  }
  std::string error_of(const Json& out) { return out.value("error", ""); }

  TempDir dir;
  ToolHarness tools{write_file::register_write_file};
};

TEST_F(WriteFileTest, LargeNearIdenticalRewriteEarnsAHint) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "line number " + std::to_string(i) + " of the file\n";
  std::string path = dir.write("big.txt", text);
  tools.mark_read(path);
  std::string edited = text;
  edited.replace(0, 4, "LINE");
  Json out = write(path, edited);
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_NE(out.value("hint", "").find("actually changed"), std::string::npos);
}

TEST_F(WriteFileTest, ArgumentErrors) {
  EXPECT_TRUE(error_of(tools.call("write_file", {{"content", "x"}}))
                  .starts_with("write_file: missing required field 'path'."));
  EXPECT_TRUE(error_of(tools.call("write_file", {{"path", dir.file("a")}}))
                  .starts_with("write_file: missing required field 'content'."));
  EXPECT_EQ(
      error_of(tools.call("write_file", {{"path", dir.file("a")}, {"content", Json::array()}})),
      "write_file: 'content' must be a string, got list.");
  EXPECT_EQ(error_of(tools.call("write_file", {{"path", dir.file("a")}, {"content", nullptr}})),
            "write_file: 'content' must be a string, got NoneType.");
}

TEST_F(WriteFileTest, WrongTypedArgumentsSayWhichTypeIsWanted) {
  EXPECT_EQ(error_of(tools.call("write_file", {{"path", 5}, {"content", "x"}})),
            "write_file: missing required field 'path'. 'path' must be a string, got int.");
  EXPECT_EQ(
      error_of(tools.call("write_file",
                          {{"path", dir.file("a")}, {"content", "x"}, {"cross_profile", "yes"}})),
      "write_file: 'cross_profile' must be a boolean, got str.");
  EXPECT_FALSE(std::filesystem::exists(dir.file("a")));
}

// An attacker's "dir/" must not become a file named "dir", and an existing
// directory or FIFO is never replaced by a file.
TEST_F(WriteFileTest, DirectoryTargetsAreRefused) {
  Json slash = write(dir.file("newdir") + "/", "x");
  EXPECT_NE(error_of(slash).find("ends with '/'"), std::string::npos) << slash.dump();
  EXPECT_FALSE(std::filesystem::exists(dir.file("newdir")));
  std::filesystem::create_directory(dir.file("existing"));
  Json existing = write(dir.file("existing"), "x");
  EXPECT_NE(error_of(existing).find("it is a directory"), std::string::npos) << existing.dump();
  Json existing_slash = write(dir.file("existing") + "/", "x");
  EXPECT_NE(error_of(existing_slash).find("ends with '/'"), std::string::npos);
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("existing")));
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("existing")));
}

TEST_F(WriteFileTest, FifoTargetIsRefusedNotReplaced) {
  ASSERT_EQ(::mkfifo(dir.file("pipe").c_str(), 0600), 0);
  Json out = write(dir.file("pipe"), "x");
  EXPECT_NE(error_of(out).find("a FIFO (named pipe), not a regular file"), std::string::npos)
      << out.dump();
  EXPECT_TRUE(std::filesystem::is_fifo(dir.file("pipe")));
}

TEST_F(WriteFileTest, CreatesFileWithParentsAndReportsContract) {
  Json out = write(dir.file("sub/deep/new.txt"), "hello\n");
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out["bytes_written"], 6);
  EXPECT_EQ(out["dirs_created"], true);
  EXPECT_EQ(out["verified"], true);
  EXPECT_EQ(out["lint"]["status"], "skipped");
  EXPECT_EQ(out["lint"]["message"], "No linter for .txt files");
  EXPECT_EQ(out["files_modified"], Json::array({dir.file("sub/deep/new.txt")}));
  EXPECT_EQ(dir.read("sub/deep/new.txt"), "hello\n");
  struct stat st;
  ASSERT_EQ(::stat(dir.file("sub/deep/new.txt").c_str(), &st), 0);
  mode_t mask = ::umask(022);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST_F(WriteFileTest, StaleOverwriteIsBlockedUntilReadInFull) {
  std::string path = dir.write("old.txt", "old\n");
  Json out = write(path, "new\n");
  EXPECT_EQ(out["stale_write_blocked"], true);
  EXPECT_TRUE(error_of(out).starts_with("Refusing to overwrite " + path + ": "));
  EXPECT_NE(error_of(out).find("exists but this task has not seen its full current content"),
            std::string::npos);
  EXPECT_EQ(out["resolved_path"], path);
  EXPECT_EQ(dir.read("old.txt"), "old\n");
  tools.mark_read(path);
  ASSERT_FALSE(write(path, "new\n").contains("error"));
  // The session's own write is its baseline.
  ASSERT_FALSE(write(path, "newer\n").contains("error"));
  EXPECT_EQ(dir.read("old.txt"), "newer\n");
}

TEST_F(WriteFileTest, ChangedSinceReadIsBlocked) {
  std::string path = dir.write("f.txt", "one\n");
  tools.mark_read(path);
  dir.write("f.txt", "someone else, longer\n");
  Json out = write(path, "mine\n");
  EXPECT_EQ(out["stale_write_blocked"], true);
  EXPECT_NE(error_of(out).find("was modified since you last read it"), std::string::npos);
}

TEST_F(WriteFileTest, SensitiveAndBinaryTargetsAreRefused) {
  EXPECT_TRUE(
      error_of(write("/etc/hermes-test.conf", "x"))
          .starts_with("Refusing to write to sensitive system path: /etc/hermes-test.conf"));
  EXPECT_TRUE(error_of(write(dir.file("r.docx"), "x"))
                  .starts_with("Refusing to write plain text to binary document"));
  EXPECT_TRUE(error_of(write(dir.file("app.db-wal"), "x"))
                  .starts_with("Refusing to write plain text to binary document"));
  std::string png = dir.write("img.png", "\x89PNG");
  EXPECT_TRUE(error_of(write(png, "x")).starts_with("Refusing to overwrite existing binary file"));
  std::string pdf = dir.write("d.pdf", "%PDF");
  EXPECT_TRUE(error_of(write(pdf, "x")).starts_with("Refusing to overwrite existing PDF"));
  EXPECT_FALSE(write(dir.file("new.png"), "x").contains("error"));
}

TEST_F(WriteFileTest, ProtectedInstructionFilesFailClosedWithoutApproval) {
  Json out = write(dir.file("AGENTS.md"), "rules\n");
  EXPECT_TRUE(error_of(out).starts_with(
      "BLOCKED: write to protected agent-instruction file(s) (" + dir.file("AGENTS.md") +
      ") requires approval but no interactive user or gateway is present to approve it. The "
      "user has NOT consented to this write."));
  EXPECT_TRUE(error_of(write(dir.file("proj/.hermes/notes.md"), "x")).starts_with("BLOCKED:"));
  EXPECT_FALSE(::access(dir.file("AGENTS.md").c_str(), F_OK) == 0);
}

TEST_F(WriteFileTest, ProtectedInstructionFilesAskThroughElicitation) {
  ScriptedClient yes(Json{{"action", "accept"}}), no(Json{{"action", "decline"}});
  ToolHarness approving({write_file::register_write_file}, &yes),
      declining({write_file::register_write_file}, &no);
  Json args = {{"path", dir.file("CLAUDE.md")}, {"content", "x\n"}};
  EXPECT_TRUE(declining.call("write_file", args).value("error", "").starts_with("BLOCKED:"));
  EXPECT_FALSE(approving.call("write_file", args).contains("error"));
  EXPECT_EQ(yes.asked, 1);
  EXPECT_EQ(dir.read("CLAUDE.md"), "x\n");
}

TEST_F(WriteFileTest, DisplayTextIsRefused) {
  const std::string prefix = "Refusing to write internal read_file display text as file content.";
  EXPECT_TRUE(error_of(write(dir.file("a.txt"), "1|alpha\n2|beta\n3|gamma\n")).starts_with(prefix));
  EXPECT_TRUE(error_of(write(dir.file("a.txt"),
                             "File unchanged since last read. The content from the earlier "
                             "read_file result in this conversation is still current — refer to "
                             "that instead of re-reading."))
                  .starts_with(prefix));
  EXPECT_FALSE(write(dir.file("b.txt"), "1|value\n").contains("error"));
  EXPECT_FALSE(write(dir.file("c.txt"), "1|a\n3|b\n").contains("error"));
}

TEST_F(WriteFileTest, LoneSurrogateIsRefusedAndEscapedBytesAreDecoded) {
  Json out = write(dir.file("s.txt"), "a\xED\xA0\x80z");
  EXPECT_EQ(error_of(out), "Refusing to write '" + dir.file("s.txt") +
                               "': content contains a lone surrogate character ('\\ud800') that "
                               "cannot be encoded as UTF-8. The file was NOT created or modified.");
  EXPECT_NE(::access(dir.file("s.txt").c_str(), F_OK), 0);
  ASSERT_FALSE(write(dir.file("raw.txt"), "a\xED\xB2\x80z").contains("error"));  // U+DC80
  EXPECT_EQ(dir.read("raw.txt"), std::string("a\x80z"));
}

TEST_F(WriteFileTest, SyntaxGateIsFailClosed) {
  std::string err = error_of(write(dir.file("c.json"), "{\"a\": }"));
  EXPECT_TRUE(
      err.starts_with("Refusing to write '" + dir.file("c.json") +
                      "': candidate content fails .json syntax validation (JSONDecodeError: "))
      << err;
  EXPECT_TRUE(err.ends_with("). The file was NOT created or modified. Fix the content and retry."));
  EXPECT_NE(::access(dir.file("c.json").c_str(), F_OK), 0);
  EXPECT_FALSE(error_of(write(dir.file("e.json"), "")).empty());
  EXPECT_NE(error_of(write(dir.file("c.yaml"), "a: [1, 2\n")).find("(YAMLError: "),
            std::string::npos);
  EXPECT_NE(error_of(write(dir.file("c.toml"), "a = \n")).find("(TOMLDecodeError: "),
            std::string::npos);
  EXPECT_FALSE(write(dir.file("m.yaml"), "a: 1\n---\nb: !custom 2\n").contains("error"));
  EXPECT_FALSE(write(dir.file("empty.yaml"), "").contains("error"));
  Json ok = write(dir.file("ok.json"), "{\"a\": 1}\n");
  EXPECT_EQ(ok["lint"], Json({{"status", "ok"}, {"output", ""}}));
}

TEST_F(WriteFileTest, CrlfAndBomArePreserved) {
  std::string path = dir.write("w.txt", "\xEF\xBB\xBFone\r\ntwo\r\n");
  tools.mark_read(path);
  Json out = write(path, "uno\ndos\rtres\r\n");
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(dir.read("w.txt"), "\xEF\xBB\xBFuno\r\ndos\r\ntres\r\n");
  EXPECT_EQ(out["bytes_written"], 3 + 16);
}

TEST_F(WriteFileTest, SymlinkTargetIsWrittenAndLinkKept) {
  std::string target = dir.write("real.txt", "old\n");
  ASSERT_EQ(::symlink(target.c_str(), dir.file("link.txt").c_str()), 0);
  tools.mark_read(target);
  ASSERT_FALSE(write(dir.file("link.txt"), "new\n").contains("error"));
  struct stat st;
  ASSERT_EQ(::lstat(dir.file("link.txt").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(dir.read("real.txt"), "new\n");
}

// Another process of the user (a script the agent ran, say) locks the
// whole lock file and never lets go: the write waits only until the call
// is cancelled, and the file keeps its bytes.
TEST_F(WriteFileTest, AForeignLockHolderCannotHangTheWrite) {
  TempDir runtime;  // a lock file of this test's own
  ScopedEnv runtime_env("XDG_RUNTIME_DIR", runtime.path());
  std::string path = dir.write("held.txt", "old\n");
  tools.mark_read(path);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t holder = ::fork();
  if (holder == 0) {
    int fd = ::open(fs::PathLocks::lock_file().c_str(), O_RDWR | O_CREAT, 0600);
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    char held = ::fcntl(fd, F_SETLK, &lock) == 0 ? 'y' : 'n';
    (void)!::write(ready[1], &held, 1);
    ::pause();
    ::_exit(0);
  }
  char held = 0;
  ASSERT_EQ(::read(ready[0], &held, 1), 1);
  ASSERT_EQ(held, 'y');
  std::stop_source stop;
  tools.stop_with(stop.get_token());
  std::jthread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop.request_stop();
  });
  EXPECT_EQ(error_of(write(path, "new\n")), "cancelled while waiting to write '" + path + "'");
  EXPECT_EQ(dir.read("held.txt"), "old\n");
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  tools.stop_with({});
  EXPECT_FALSE(write(path, "new\n").contains("error"));
  EXPECT_EQ(dir.read("held.txt"), "new\n");
}

TEST_F(WriteFileTest, ExistingModeIsKept) {
  std::string path = dir.write("x.sh", "echo\n");
  ASSERT_EQ(::chmod(path.c_str(), 0751), 0);
  tools.mark_read(path);
  ASSERT_FALSE(write(path, "echo hi\n").contains("error"));
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0751);
}

TEST_F(WriteFileTest, PythonLintReportsOnlyNewErrors) {
  Json ok = write(dir.file("ok.py"), "x = 1\n");
  if (ok["lint"]["status"] == "skipped") GTEST_SKIP() << "python3 missing";
  EXPECT_EQ(ok["lint"]["status"], "ok");
  std::string path = dir.file("bad.py");
  Json bad = write(path, "def f(:\n");
  EXPECT_EQ(bad["lint"]["status"], "error");
  EXPECT_TRUE(bad["lint"]["output"].get<std::string>().starts_with("SyntaxError: "));
  EXPECT_TRUE(bad.value("verified", false));  // lint never blocks
  Json same = write(path, "def f(:\n");
  EXPECT_TRUE(same["lint"]["message"].get<std::string>().starts_with("Pre-existing lint errors"));
}

TEST_F(WriteFileTest, JavaScriptLintUsesNodeCheck) {
  Json out = write(dir.file("a.js"), "let x = (;\n");
  if (out["lint"]["status"] == "skipped") GTEST_SKIP() << "node missing";
  EXPECT_EQ(out["lint"]["status"], "error");
  EXPECT_NE(out["lint"]["output"].get<std::string>().find("SyntaxError"), std::string::npos);
}

TEST_F(WriteFileTest, WriteSafeRootConfinesWrites) {
  ::setenv("HERMES_WRITE_SAFE_ROOT", dir.file("allowed").c_str(), 1);
  std::string outside = error_of(write(dir.file("elsewhere.txt"), "x"));
  Json inside = write(dir.file("allowed/in.txt"), "x");
  ::unsetenv("HERMES_WRITE_SAFE_ROOT");
  EXPECT_TRUE(outside.starts_with("Write denied: '" + dir.file("elsewhere.txt") +
                                  "' is outside HERMES_WRITE_SAFE_ROOT"));
  EXPECT_FALSE(inside.contains("error")) << inside.dump();
}

TEST_F(WriteFileTest, CredentialFilesAreDenied) {
  TempDir home;
  const char* old_home = std::getenv("HOME");
  std::string saved = old_home ? old_home : "";
  ::setenv("HOME", home.path().c_str(), 1);
  ToolHarness fresh({write_file::register_write_file});
  Json out = fresh.call("write_file", {{"path", home.file(".aws/credentials")}, {"content", "k"}});
  ::setenv("HOME", saved.c_str(), 1);
  EXPECT_EQ(error_of(out), "Write denied: '" +
                               PathResolver::real_path(home.file(".aws/credentials")) +
                               "' is a protected system/credential file.");
}

TEST_F(WriteFileTest, SshConfigNeedsApproval) {
  TempDir home;
  std::string saved = std::getenv("HOME") ? std::getenv("HOME") : "";
  ::setenv("HOME", home.path().c_str(), 1);
  Json out = write(home.file(".ssh/config"), "Host x\n");
  ::setenv("HOME", saved.c_str(), 1);
  EXPECT_TRUE(error_of(out).starts_with("BLOCKED: write to SSH client config (")) << out.dump();
}

TEST_F(WriteFileTest, SandboxMirrorIsSoftGuarded) {
  std::string path = dir.file("sandboxes/docker/task1/home/.hermes/skills/x.md");
  EXPECT_TRUE(error_of(write(path, "x")).starts_with("Refusing to write into a sandbox mirror"));
  Json crossed =
      tools.call("write_file", {{"path", path}, {"content", "x"}, {"cross_profile", true}});
  EXPECT_FALSE(crossed.contains("error")) << crossed.dump();
}

// The file system is a seam: write_file writes through `Services::files`;
// a write the disk refuses is the tool's error and the old bytes stay.
TEST(WriteFileFakeFs, AFailedWriteLeavesTheOldContent) {
  if (portable_files_run()) GTEST_SKIP() << "the portable path writes through shell commands";
  MemoryFileSystem fs;
  fs.add_file("/mem/notes.txt", "old\n");
  ToolHarness tools({write_file::register_write_file}, nullptr, fs);
  auto write = [&](const std::string& path, const std::string& content) {
    return tools.reply("write_file", {{"path", path}, {"content", content}});
  };
  registry::ToolReply created = write("/mem/dir/new.txt", "hello\n");
  ASSERT_FALSE(created.is_error) << created.value.dump();
  EXPECT_EQ(created.value["verified"], true);
  EXPECT_EQ(fs.content("/mem/dir/new.txt"), "hello\n");
  registry::ToolReply stale = write("/mem/notes.txt", "new\n");  // never read: refused
  EXPECT_TRUE(stale.is_error);
  EXPECT_EQ(stale.code, ErrorCode::kConflict);
  EXPECT_EQ(stale.value["stale_write_blocked"], true);
  tools.mark_read("/mem/notes.txt");
  fs.fail(MemoryFileSystem::Op::kWrite, 1, ENOSPC);
  registry::ToolReply full = write("/mem/notes.txt", "new\n");
  EXPECT_EQ(full.code, ErrorCode::kIo);
  EXPECT_EQ(full.value["error"], "Failed to write file: injected fault: No space left on device");
  EXPECT_EQ(fs.content("/mem/notes.txt"), "old\n");
  EXPECT_FALSE(write("/mem/notes.txt", "new\n").is_error);  // the disk has room again
  EXPECT_EQ(fs.content("/mem/notes.txt"), "new\n");
}

TEST_F(WriteFileTest, HermesConfigIsRefused) {
  auto config = Config::from_yaml("", dir.path());
  ResolvedPath p{dir.file("config.yaml"), dir.file("config.yaml"), dir.file("config.yaml")};
  Status refused = file_common::check_not_sensitive(p, config->home());
  ASSERT_THAT(refused, IsError(ErrorCode::kPermissionDenied));
  EXPECT_TRUE(refused.error().message.starts_with("Refusing to write to Hermes config file: " +
                                                  dir.file("config.yaml")));
}

}  // namespace
}  // namespace hermes::testing
