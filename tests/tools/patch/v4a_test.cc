// SPDX-License-Identifier: MIT
// V4A beyond the fixtures: both dialects, validation lists every problem,
// out-of-order hunks, anchors, and the transactional rollback on an injected
// write failure.
#include "backend/local_backend.h"
#include "backend/shell_file_system.h"
#include "testutil/status_matchers.h"
#include "tools/file_common/tmpfs_mount.h"
#include "tools/patch/v4a/apply.h"
#include "tools/patch/v4a/parser.h"
#include "tools/write_file/tool_harness.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace hermes::testing {
namespace {

class V4aTest : public ::testing::Test {
 protected:
  Json patch(const std::string& text) {
    tools.session().set_cwd(dir.path());
    return tools.call("patch", {{"mode", "patch"}, {"patch", text}});
  }
  TempDir dir;
  ToolHarness tools{patch::register_patch};
};

TEST_F(V4aTest, HermesMoveDialectAndOutOfOrderHunks) {
  dir.write("a.txt", "one\ntwo\nthree\nfour\nfive\n");
  Json out = patch(
      "*** Begin Patch\n*** Update File: a.txt\n@@\n-four\n+FOUR\n@@\n-two\n+TWO\n"
      "*** Move File: a.txt -> b/c.txt\n*** End Patch\n");
  ASSERT_EQ(out["success"], true) << out.dump(2);
  EXPECT_EQ(dir.read("b/c.txt"), "one\nTWO\nthree\nFOUR\nfive\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.txt")));
  EXPECT_EQ(out["files_modified"], Json::array({dir.file("a.txt"), dir.file("b/c.txt")}));
}

TEST_F(V4aTest, LaterOperationsSeeEarlierOnes) {
  dir.write("a.txt", "old\n");
  dir.write("d.txt", "gone\n");
  Json out = patch(
      "*** Begin Patch\n*** Move File: a.txt -> b.txt\n*** Update File: b.txt\n@@\n-old\n+new\n"
      "*** Delete File: d.txt\n*** Add File: d.txt\n+fresh\n*** End Patch\n");
  ASSERT_EQ(out["success"], true) << out.dump(2);
  EXPECT_EQ(dir.read("b.txt"), "new\n");
  EXPECT_EQ(dir.read("d.txt"), "fresh\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.txt")));
}

TEST_F(V4aTest, MovedFileKeepsItsMode) {
  std::string src = dir.write("run.sh", "echo hi\n");
  ASSERT_EQ(::chmod(src.c_str(), 0750), 0);
  Json out = patch("*** Begin Patch\n*** Move File: run.sh -> bin/run.sh\n*** End Patch\n");
  ASSERT_EQ(out["success"], true) << out.dump(2);
  struct stat st;
  ASSERT_EQ(::stat(dir.file("bin/run.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0750u);
}

TEST_F(V4aTest, ValidationListsEveryProblemAndWritesNothing) {
  dir.write("keep.txt", "keep\n");
  Json out = patch(
      "*** Begin Patch\n*** Add File: keep.txt\n+x\n*** Delete File: gone.txt\n"
      "*** Update File: keep.txt\n@@ anchor @@\n-absent line here\n+y\n*** Add File: "
      "new.txt\n+n\n*** End Patch\n");
  ASSERT_EQ(out["success"], false);
  std::string e = out["error"];
  EXPECT_TRUE(e.starts_with("Patch validation failed (no files were modified):\n  • " +
                            dir.file("keep.txt") +
                            ": file already exists — use Update File, not Add File\n  • " +
                            dir.file("gone.txt") + ": file not found for deletion\n  • " +
                            dir.file("keep.txt") + ": hunk 1 'anchor' not found — "))
      << e;
  EXPECT_FALSE(std::filesystem::exists(dir.file("new.txt")));
}

TEST_F(V4aTest, AnchorPicksBetweenEqualCandidates) {
  dir.write("a.py", "def one():\n    return 0\n\ndef two():\n    return 0\n");
  Json ambiguous = patch(
      "*** Begin Patch\n*** Update File: a.py\n@@\n-    return 0\n+    return 9\n*** End Patch\n");
  EXPECT_NE(ambiguous.value("error", "")
                .find("hunk 1 (no hint) is ambiguous — Found 2 matches for old_string. Add an '@@ "
                      "<nearby line>' anchor"),
            std::string::npos)
      << ambiguous.dump(2);
  Json out = patch(
      "*** Begin Patch\n*** Update File: a.py\n@@ def two():\n-    return 0\n+    return 2\n*** "
      "End Patch\n");
  ASSERT_EQ(out["success"], true) << out.dump(2);
  EXPECT_EQ(dir.read("a.py"), "def one():\n    return 0\n\ndef two():\n    return 2\n");
}

TEST_F(V4aTest, ARemovedLineThatOnlyResemblesOneIsRefused) {
  std::string before = "def run():\n    start_server(port)\n    wait_for_exit()\n    cleanup()\n";
  dir.write("a.py", before);
  Json out = patch(
      "*** Begin Patch\n*** Update File: a.py\n@@\n def run():\n-    start_servers(port)\n"
      "+    start_server(port, tls=True)\n     wait_for_exit()\n*** End Patch\n");
  ASSERT_EQ(out["success"], false) << out.dump(2);
  EXPECT_TRUE(out["error"].get<std::string>().starts_with(
      "Patch validation failed (no files were modified):\n  • " + dir.file("a.py") +
      ": hunk 1 (no hint) not found — Could not find a match for old_string in the file\n\n"
      "Did you mean one of these sections?\n"))
      << out.dump(2);
  EXPECT_EQ(dir.read("a.py"), before);
  // A drifted context line is still tolerated when the removed line is there.
  Json ok = patch(
      "*** Begin Patch\n*** Update File: a.py\n@@\n def runn():\n-    start_server(port)\n"
      "+    start_server(port, tls=True)\n     wait_for_exit()\n*** End Patch\n");
  ASSERT_EQ(ok["success"], true) << ok.dump(2);
  EXPECT_EQ(dir.read("a.py"),
            "def run():\n    start_server(port, tls=True)\n    wait_for_exit()\n    cleanup()\n");
}

TEST_F(V4aTest, EndOfFilePicksTheLastCopy) {
  dir.write("a.txt", "x = 1\nmiddle\nx = 1\n");
  Json out = patch(
      "*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 2\n*** End of File\n*** End "
      "Patch\n");
  ASSERT_EQ(out["success"], true) << out.dump(2);
  EXPECT_EQ(dir.read("a.txt"), "x = 1\nmiddle\nx = 2\n");
}

TEST_F(V4aTest, AdditionOnlyAnchorMustBeUnique) {
  dir.write("a.txt", "item\nitem\n");
  Json out = patch("*** Begin Patch\n*** Update File: a.txt\n@@ item @@\n+new\n*** End Patch\n");
  EXPECT_NE(out.value("error", "")
                .find(": addition-only hunk context hint 'item' is ambiguous (2 occurrences)"),
            std::string::npos)
      << out.dump(2);
}

TEST_F(V4aTest, AdditionOnlyHunkGoesAfterItsAnchor) {
  dir.write("a.txt", "head\nmiddle\ntail\n");
  Json out =
      patch("*** Begin Patch\n*** Update File: a.txt\n@@ middle @@\n+inserted\n*** End Patch\n");
  ASSERT_EQ(out["success"], true) << out.dump(2);
  EXPECT_EQ(dir.read("a.txt"), "head\nmiddle\ninserted\ntail\n");
}

TEST_F(V4aTest, ParseErrors) {
  auto r =
      v4a::parse_patch("*** Begin Patch\n*** Update File: a\n*** Move File: b\n*** End Patch\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "Parse error: UPDATE 'a': no hunks found; MOVE 'b': missing destination path (expected "
            "'src -> dst')");
}

TEST_F(V4aTest, CrlfPatchBodyAndPreservedEndings) {
  dir.write("w.txt", "a\r\nb\r\n");
  Json out =
      patch("*** Begin Patch\r\n*** Update File: w.txt\r\n@@\r\n-b\r\n+c\r\n*** End Patch\r\n");
  ASSERT_EQ(out["success"], true) << out.dump(2);
  EXPECT_EQ(dir.read("w.txt"), "a\r\nc\r\n");
}

// The third write fails: the two files already written and the one created
// must be restored, and the result must say nothing changed.
TEST(V4aTransaction, InjectedFailureRollsBackEverything) {
  TempDir dir;
  dir.write("a.txt", "a1\n");
  dir.write("b.txt", "b1\n");
  dir.write("del.txt", "bye\n");
  auto ops = v4a::parse_patch("*** Begin Patch\n*** Update File: " + dir.file("a.txt") +
                              "\n@@\n-a1\n+a2\n*** Add File: " + dir.file("sub/new.txt") +
                              "\n+new\n*** Delete File: " + dir.file("del.txt") +
                              "\n*** Update File: " + dir.file("b.txt") +
                              "\n@@\n-b1\n+b2\n*** End Patch\n");
  ASSERT_TRUE(ops);
  v4a::ApplyRequest request{*ops, dir.file("home"), {}};
  int writes = 0;
  request.write_options.write_fn = [&](int fd, const void* data, size_t size) -> ssize_t {
    if (++writes == 3) {
      errno = EIO;
      return -1;
    }
    return ::write(fd, data, size);
  };
  auto result = v4a::apply_patch(request);
  ASSERT_THAT(result, IsError(ErrorCode::kIo));
  std::string e = result.error().message;
  EXPECT_TRUE(
      e.starts_with("Apply phase failed (every change was rolled back; no files were modified):\n  "
                    "• Failed to update " +
                    dir.file("b.txt")))
      << e;
  EXPECT_EQ(dir.read("a.txt"), "a1\n");
  EXPECT_EQ(dir.read("b.txt"), "b1\n");
  EXPECT_EQ(dir.read("del.txt"), "bye\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("sub")));
  size_t entries = 0;
  for ([[maybe_unused]] auto& e2 : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 3u);  // no temp files left
}

// The same transaction through shell commands: the last write hits a full
// disk (a 64 KiB tmpfs), and everything already done is undone there too.
TEST(V4aTransaction, ShellWriteFailureRollsBackEverything) {
  TempDir dir;
  std::string mnt = dir.file("mnt");
  std::filesystem::create_directory(mnt);
  TmpfsMount tmpfs(mnt, "64k");
  if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs (needs root): " << tmpfs.error();
  std::signal(SIGPIPE, SIG_IGN);  // as the server does
  dir.write("a.txt", "a1\n");
  dir.write("del.txt", "bye\n");
  dir.write("mnt/b.txt", "b1\n");
  auto ops = v4a::parse_patch("*** Begin Patch\n*** Update File: " + dir.file("a.txt") +
                              "\n@@\n-a1\n+a2\n*** Add File: " + dir.file("sub/new.txt") +
                              "\n+new\n*** Delete File: " + dir.file("del.txt") +
                              "\n*** Update File: " + dir.file("mnt/b.txt") + "\n@@\n-b1\n+" +
                              std::string(200000, 'b') + "\n*** End Patch\n");
  ASSERT_TRUE(ops);
  backend::ShellFileSystem fs(std::make_shared<backend::LocalBackend>(/*portable_files=*/true), {});
  v4a::ApplyRequest request{*ops, dir.file("home"), {}, &fs, true};
  auto result = v4a::apply_patch(request);
  ASSERT_THAT(result, IsError(ErrorCode::kIo));
  std::string e = result.error().message;
  EXPECT_EQ(e,
            "Apply phase failed (every change was rolled back; no files were modified):\n  • "
            "Failed to update " +
                dir.file("mnt/b.txt") + ": Failed to write file: write: No space left on device");
  EXPECT_EQ(dir.read("a.txt"), "a1\n");
  EXPECT_EQ(dir.read("mnt/b.txt"), "b1\n");
  EXPECT_EQ(dir.read("del.txt"), "bye\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("sub")));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(mnt), {}), 1);  // no temp file
}

}  // namespace
}  // namespace hermes::testing
