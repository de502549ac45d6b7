// SPDX-License-Identifier: MIT
// read_file end to end in-process: line format, pagination, budget, binary,
// guards, not-found, dedup and repeat guards, annotations, redaction.
#include "testutil/memory_file_system.h"
#include "testutil/status_matchers.h"
#include "tools/file_common/read_tracker.h"
#include "tools/read_file/harness.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace hermes::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string lines(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i) out += "line" + std::to_string(i) + "\n";
  return out;
}

TEST(ReadFileFormat, CatNSemantics) {
  ReadFileHarness h;
  h.dir().write("a.txt", "a\nb\n");
  Json r = h.read("a.txt");
  EXPECT_EQ(r["content"], "1|a\n2|b");
  EXPECT_EQ(r["total_lines"], 2);
  EXPECT_EQ(r["file_size"], 4);
  EXPECT_EQ(r["truncated"], false);
  EXPECT_EQ(r["is_binary"], false);
  EXPECT_EQ(r["is_image"], false);
  EXPECT_FALSE(r.contains("hint"));
  h.dir().write("b.txt", "a\n\n");
  EXPECT_EQ(h.read("b.txt")["content"], "1|a\n2|");
  h.dir().write("c.txt", "x1\nx2\nx3");
  r = h.read("c.txt");
  EXPECT_EQ(r["total_lines"], 3);
  EXPECT_EQ(r["content"], "1|x1\n2|x2\n3|x3");
}

TEST(ReadFileFormat, CrBomAndLongLines) {
  ReadFileHarness h("tool_output:\n  max_line_length: 5\n");
  h.dir().write("crlf.txt", "ab\r\ncd\r\n");
  EXPECT_EQ(h.read("crlf.txt")["content"], "1|ab\r\n2|cd\r");
  h.dir().write("bom.txt", "\xEF\xBB\xBFhi\n");
  EXPECT_EQ(h.read("bom.txt")["content"], "1|hi");
  h.dir().write("long.txt", "abcdefgh\n\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\n");
  EXPECT_EQ(h.read("long.txt")["content"],
            "1|abcde... [truncated]\n2|\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9... [truncated]");
}

TEST(ReadFilePagination, HintsEmptyAndPastEnd) {
  ReadFileHarness h;
  h.dir().write("ten.txt", lines(10));
  Json r = h.call(Json{{"path", "ten.txt"}, {"offset", 2}, {"limit", 3}});
  EXPECT_EQ(r["content"], "2|line2\n3|line3\n4|line4");
  EXPECT_EQ(r["truncated"], true);
  EXPECT_EQ(r["hint"], "Use offset=5 to continue reading (showing 2-4 of 10 lines)");
  h.dir().write("empty.txt", "");
  r = h.read("empty.txt");
  EXPECT_EQ(r["content"], "");
  EXPECT_EQ(r["total_lines"], 0);
  EXPECT_EQ(r["hint"], "File is empty (0 bytes).");
  r = h.call(Json{{"path", "ten.txt"}, {"offset", 50}});
  EXPECT_EQ(r["content"], "");
  EXPECT_EQ(r["truncated"], false);
  EXPECT_EQ(
      r["hint"],
      "Note: offset 50 is beyond the end of the file (10 lines total). Retry with offset <= 10.");
}

TEST(ReadFilePagination, CoercesBadNumbers) {
  ReadFileHarness h("tool_output:\n  max_lines: 4\n");
  h.dir().write("ten.txt", lines(10));
  Json r = h.call(Json{{"path", "ten.txt"}, {"offset", "abc"}, {"limit", "x"}});
  EXPECT_EQ(r["hint"],
            "Use offset=5 to continue reading (showing 1-4 of 10 lines)");  // clamped to 4
  r = h.call(Json{{"path", "ten.txt"}, {"offset", -3}, {"limit", 0}});
  EXPECT_EQ(r["content"], "1|line1");
  r = h.call(Json{{"path", "ten.txt"}, {"offset", 1e300}, {"limit", 18446744073709551615ull}});
  EXPECT_EQ(r["content"], "");  // past the end, no overflow
  r = h.call(Json{{"path", "ten.txt"}, {"offset", "3"}, {"limit", 2.9}});
  EXPECT_EQ(r["content"], "3|line3\n4|line4");
}

TEST(ReadFileBudget, TruncatesOnALineBoundary) {
  ReadFileHarness h("file_read_max_chars: 20\n");
  h.dir().write("ten.txt", lines(10));
  Json r = h.read("ten.txt");
  EXPECT_EQ(r["content"], "1|line1\n2|line2");  // 7 + 1 + 7 = 15; a third line would be 23
  EXPECT_EQ(r["truncated"], true);
  EXPECT_EQ(r["truncated_by"], "bytes");
  EXPECT_EQ(r["next_offset"], 3);
  EXPECT_EQ(
      r["hint"],
      "Output truncated at the 20-char read budget after 2 line(s) (showing lines 1-2 of 10). "
      "Use offset=3 to continue.");
}

TEST(ReadFileBudget, FirstLineCutMidLine) {
  ReadFileHarness h("file_read_max_chars: 10\ntool_output:\n  max_line_length: 100\n");
  h.dir().write("wide.txt", std::string(50, 'x') + "\n");
  Json r = h.read("wide.txt");
  EXPECT_EQ(r["content"], "1|xxxxxxxx");
  EXPECT_EQ(r["truncated_lines"], true);
  EXPECT_EQ(r["next_offset"], 2);
  EXPECT_THAT(r["hint"].get<std::string>(), HasSubstr("not retrievable via offset"));
}

TEST(ReadFileBudget, LargeFileNudge) {
  ReadFileHarness h;
  h.dir().write("big.txt", lines(60000));
  Json r = h.read("big.txt");
  EXPECT_EQ(r["truncated"], true);
  EXPECT_THAT(r["_hint"].get<std::string>(), HasSubstr("This file is large (588,894 bytes)"));
}

// The file is read in 256 KiB chunks: lines cut by a chunk's end come out
// whole, and every line is counted once.
TEST(ReadFileBudget, LinesAcrossChunkEndsComeOutWhole) {
  ReadFileHarness h;
  auto line = [](int n) {
    std::string text = "L" + std::to_string(n) + " ";
    return text + std::string(100 - text.size(), 'a' + n % 26);
  };
  std::string file;
  for (int n = 1; n <= 8000; ++n) file += line(n) + "\n";  // 101 bytes a line: 808,000 bytes
  h.dir().write("chunks.txt", file);
  for (int first : {2590, 5188, 7785}) {  // around 262,144, 524,288 and 786,432
    std::string expected;
    for (int n = first; n < first + 8; ++n) {
      expected += (n == first ? "" : "\n") + std::to_string(n) + "|" + line(n);
    }
    Json r = h.call({{"path", "chunks.txt"}, {"offset", first}, {"limit", 8}});
    EXPECT_EQ(r["content"], expected) << first;
    EXPECT_EQ(r["total_lines"], 8000);
  }
}

TEST(ReadFileBinary, ContentDetectionAndKinds) {
  ReadFileHarness h;
  h.dir().write("image.raw", std::string("\x89PNG\r\n\x1a\n\0\0\0\r", 12));
  Json r = h.read("image.raw");
  EXPECT_EQ(r["error"], "Binary file (PNG image data, 12 bytes) — cannot display as text.");
  EXPECT_EQ(r["is_binary"], true);
  EXPECT_EQ(r["content"], "");
  h.dir().write("latin1.txt", "caf\xE9 au lait\n");
  EXPECT_EQ(h.read("latin1.txt")["error"],
            "Binary file (unknown binary, 13 bytes) — cannot display as text.");
  h.dir().write("fffd.txt", "ok \xEF\xBF\xBD\n");
  EXPECT_EQ(h.read("fffd.txt")["content"], "1|ok \xEF\xBF\xBD");
}

TEST(ReadFileBinary, ExtensionRefusedEvenWhenMissing) {
  ReadFileHarness h;
  EXPECT_EQ(
      h.read("photo.PNG")["error"],
      "Cannot read binary file 'photo.PNG' (.png). Use vision_analyze for images, or terminal to "
      "inspect binary files.");
}

TEST(ReadFileBinary, Utf16Rescue) {
  ReadFileHarness h;
  std::string le("\xFF\xFE", 2);
  for (char c : std::string("hi\r\nyo\r\n")) le += std::string{c, '\0'};
  h.dir().write("u16.txt", le);
  Json r = h.read("u16.txt");
  EXPECT_EQ(r["content"], "1|hi\n2|yo");
  EXPECT_THAT(r["hint"].get<std::string>(),
              StartsWith("Transcoded from UTF-16-LE to UTF-8 for display."));
  std::string be;
  for (char c : std::string("ab\n")) be += std::string{'\0', c};
  h.dir().write("u16be.txt", be);
  EXPECT_EQ(h.read("u16be.txt")["content"], "1|ab");
}

// A /proc fd link to a device, named by the process's number, is judged by
// its target (the resolver keeps such magic links as they are, and the
// blocklist walks their hop).
TEST(ReadFileGuards, ProcFdLinkToADeviceIsADevice) {
  ReadFileHarness h;
  const int fd = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 3);
  const std::string path = "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(fd);
  EXPECT_EQ(h.read(path)["error"],
            "Cannot read '" + path +
                "': this is a device file that would block or produce infinite output.");
  ::close(fd);
}

TEST(ReadFileGuards, DevicesFifosDirectories) {
  ReadFileHarness h;
  EXPECT_EQ(h.read("/dev/zero")["error"],
            "Cannot read '/dev/zero': this is a device file that would block or produce infinite "
            "output.");
  std::filesystem::create_symlink("/dev/urandom", h.dir().file("rand"));
  EXPECT_EQ(
      h.read("rand")["error"],
      "Cannot read 'rand': this is a device file that would block or produce infinite output.");
  EXPECT_THAT(h.read("/proc/self/environ")["error"].get<std::string>(), HasSubstr("device file"));
  ASSERT_EQ(::mkfifo(h.dir().file("pipe").c_str(), 0600), 0);
  Json r = h.read("pipe");
  EXPECT_EQ(r["success"], false);
  EXPECT_THAT(r["note"].get<std::string>(),
              StartsWith("'pipe' is a FIFO (named pipe), not a regular file — "));
  EXPECT_FALSE(r.contains("error"));
  std::filesystem::create_directory(h.dir().file("sub"));
  EXPECT_EQ(h.read("sub")["error"],
            "Cannot read '" + h.dir().file("sub") +
                "': not a regular file (directory, FIFO, socket, or device). "
                "Reading it could block indefinitely.");
  EXPECT_THAT(h.read("\\\\?\\C:\\x")["error"].get<std::string>(), HasSubstr("NT device-namespace"));
}

TEST(ReadFileGuards, SymlinkLoop) {
  ReadFileHarness h;
  std::filesystem::create_symlink(h.dir().file("loop2"), h.dir().file("loop1"));
  std::filesystem::create_symlink(h.dir().file("loop1"), h.dir().file("loop2"));
  Json r = h.read("loop1");
  EXPECT_EQ(r["error"], "Cannot read 'loop1': symlink loop (too many levels of symbolic links).");
}

TEST(ReadFileGuards, Denylist) {
  ReadFileHarness h;
  h.dir().write(".env", "A=1\n");
  EXPECT_THAT(h.read(".env")["error"].get<std::string>(),
              StartsWith("Access denied: " + h.dir().file(".env") +
                         " is a secret-bearing environment file"));
  h.dir().write(".env.example", "A=1\n");
  EXPECT_EQ(h.read(".env.example")["content"], "1|A=1");
  h.dir().write("home/auth.json", "{}");
  EXPECT_THAT(h.read("home/auth.json")["error"].get<std::string>(),
              HasSubstr("Hermes credential store"));
  h.dir().write("home/mcp-tokens/x.json", "{}");
  EXPECT_THAT(h.read("home/mcp-tokens/x.json")["error"].get<std::string>(),
              HasSubstr("Hermes MCP token"));
  h.dir().write("home/skills/.hub/a.md", "x");
  EXPECT_THAT(h.read("home/skills/.hub/a.md")["error"].get<std::string>(),
              HasSubstr("internal Hermes cache file"));
}

TEST(ReadFileNotFound, SuggestionsAndNegativeCache) {
  ReadFileHarness h;
  h.dir().write("config.yml", "x\n");
  h.dir().write("config_old.yaml", "x\n");
  h.dir().write("zzz.md", "x\n");
  Json r = h.read("config.yaml");
  EXPECT_EQ(r["error"], "File not found: " + h.dir().file("config.yaml"));
  std::vector<std::string> similar = r["similar_files"];
  ASSERT_EQ(similar.size(), 2u);
  EXPECT_EQ(similar[0], h.dir().file("config.yml"));       // same stem: 90
  EXPECT_EQ(similar[1], h.dir().file("config_old.yaml"));  // prefix: 70
  EXPECT_EQ(h.read("config.yaml"), r);                     // replayed
  h.dir().write("config.yaml", "now\n");
  EXPECT_EQ(h.read("config.yaml")["content"], "1|now");  // exists: evicted
}

TEST(ReadFileNotFound, UnicodeVariant) {
  ReadFileHarness h;
  h.dir().write("cafe\xCC\x81.txt", "nfd\n");  // NFD on disk
  Json r = h.read("caf\xC3\xA9.txt");          // NFC requested
  EXPECT_EQ(r["content"], "1|nfd");
  EXPECT_EQ(
      r["hint"],
      "Note: 'caf\xC3\xA9.txt' not found byte-for-byte; resolved to the unicode-equivalent file '" +
          h.dir().file("cafe\xCC\x81.txt") +
          "' (invisible encoding difference: NFC/NFD or special space/quote characters).");
  h.dir().write("it\xE2\x80\x99s.txt", "quote\n");
  EXPECT_EQ(h.read("it's.txt")["content"], "1|quote");
}

TEST(ReadFileDedup, StubThenBlockedThenReset) {
  ReadFileHarness h;
  h.dir().write("a.txt", "a\n");
  EXPECT_EQ(h.read("a.txt")["content"], "1|a");
  Json stub = h.read("a.txt");
  EXPECT_EQ(stub["status"], "unchanged");
  EXPECT_EQ(stub["dedup"], true);
  EXPECT_EQ(stub["content_returned"], false);
  EXPECT_EQ(stub["path"], "a.txt");
  EXPECT_THAT(stub["message"].get<std::string>(), StartsWith("File unchanged since last read."));
  Json blocked = h.read("a.txt");
  EXPECT_THAT(
      blocked["error"].get<std::string>(),
      StartsWith(
          "BLOCKED: You have called read_file on this exact region 3 times and the file has NOT "
          "changed. STOP"));
  EXPECT_EQ(blocked["already_read"], 3);
  EXPECT_EQ(h.read("a.txt")["already_read"], 4);
  EXPECT_EQ(h.call(Json{{"path", "a.txt"}, {"limit", 5}})["content"], "1|a");  // another range
  h.session().notify_other_tool_call();
  EXPECT_EQ(h.read("a.txt")["status"], "unchanged");
}

TEST(ReadFileDedup, WriteListenerAndChangeServeContent) {
  ReadFileHarness h;
  std::string path = h.dir().write("a.txt", "a\n");
  h.read("a.txt");
  file_common::FileVersion v;
  ASSERT_TRUE(file_common::stat_version(fs::native_file_system(), path, v));
  h.session().state<file_common::ReadTracker>().record_write(path, v);
  EXPECT_EQ(h.read("a.txt")["content"], "1|a");
}

TEST(ReadFileDedup, ConsecutiveRealReadsWarnThenBlock) {
  ReadFileHarness h;
  for (int i = 1; i <= 4; ++i) {
    h.dir().write("a.txt",
                  std::string(static_cast<size_t>(i), 'x') + "\n");  // changes size each time
    Json r = h.read("a.txt");
    if (i < 3) {
      EXPECT_FALSE(r.contains("_warning"));
    }
    if (i == 3) {
      EXPECT_THAT(r["_warning"].get<std::string>(),
                  StartsWith("You have read this exact file region 3 times consecutively."));
    }
    if (i == 4) {
      EXPECT_EQ(r["error"],
                "BLOCKED: You have read this exact file region 4 times in a row. Use the content "
                "you already have, or read a different region or file.");
      EXPECT_EQ(r["already_read"], 4);
    }
  }
}

TEST(ReadFileDedup, RepeatBlockCountsUpAndBinaryIsNotTracked) {
  ReadFileHarness h;
  for (int i = 1; i <= 5; ++i) {
    h.dir().write("a.txt", std::string(static_cast<size_t>(i), 'x') + "\n");
    Json r = h.read("a.txt");
    if (i == 5) {
      EXPECT_EQ(r["already_read"], 5);
    }
  }
  h.dir().write("b.bin.txt", std::string("\0\1\2", 3));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(h.read("b.bin.txt")["error"],
              "Binary file (unknown binary, 3 bytes) — cannot display as text.");
  }
}

TEST(ReadFileAnnotations, MergeConflicts) {
  ReadFileHarness h;
  h.dir().write("m.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> feature\ns = \"<<<<<<< \"\n");
  Json r = h.read("m.txt");
  EXPECT_EQ(r["conflict_blocks"], 1);
  EXPECT_THAT(r["_hint"].get<std::string>(), HasSubstr("unresolved git merge-conflict block(s)"));
  h.dir().write("n.txt", "x = \"<<<<<<< \"\n");
  EXPECT_FALSE(h.read("n.txt").contains("conflict_blocks"));
}

TEST(ReadFileRedaction, SecretsMaskedAndNotSeenWhole) {
  ReadFileHarness h;
  std::string path =
      h.dir().write("app.py", "TOKEN = 'ghp_0123456789abcdefABCDEF'\nMAX_TOKENS=100\n");
  Json r = h.read("app.py");
  EXPECT_EQ(r["content"], "1|TOKEN = '«redacted:ghp_…»'\n2|MAX_TOKENS=100");
  file_common::FileVersion v;
  ASSERT_TRUE(file_common::stat_version(fs::native_file_system(), path, v));
  EXPECT_FALSE(h.session().state<file_common::ReadTracker>().has_seen_whole(path, v));
  std::string clean = h.dir().write("clean.py", "x = 1\n");
  h.read("clean.py");
  ASSERT_TRUE(file_common::stat_version(fs::native_file_system(), clean, v));
  EXPECT_TRUE(h.session().state<file_common::ReadTracker>().has_seen_whole(clean, v));
  h.dir().write(".bashrc", "export API_TOKEN=Zx8fQ2mN7pLk4Rt9\n");
  EXPECT_EQ(h.read(".bashrc")["content"], "1|export API_TOKEN=«redacted-secret»");
}

}  // namespace
}  // namespace hermes::testing

namespace hermes::testing {
namespace {

TEST(ReadFileBadInput, HugeSingleLineStaysBounded) {
  ReadFileHarness h;
  h.dir().write("one.txt", std::string(20u << 20, 'a'));
  Json r = h.read("one.txt");
  EXPECT_EQ(r["total_lines"], 1);
  EXPECT_EQ(r["content"], "1|" + std::string(2000, 'a') + "... [truncated]");
}

TEST(ReadFileBadInput, InvalidUtf8PathAndMissingArgs) {
  ReadFileHarness h;
  Json r = h.read("bad\xFF.txt");
  EXPECT_EQ(r["error"], "File not found: " + h.dir().file("bad\xFF.txt"));
  EXPECT_NO_THROW(dump_json(r));
  EXPECT_EQ(h.call(Json::object())["error"], "path is required");
  EXPECT_EQ(h.call(Json{{"path", nullptr}})["error"], "path is required");
  EXPECT_EQ(h.call(Json{{"path", 7}})["error"], "read_file: 'path' must be a string, got int.");
  EXPECT_EQ(h.call(Json{{"path", Json::array({"a.txt"})}})["error"],
            "read_file: 'path' must be a string, got list.");
}

// Every failure names its kind; `isError` follows the typed outcome, so the
// stub (a `status` that is not an error) and a page are not failures while a
// `note` without an `error` key is.
TEST(ReadFileErrors, EachFailureCarriesItsCode) {
  ReadFileHarness h;
  h.dir().write("a.txt", "a\n");
  h.dir().write(".env", "A=1\n");
  h.dir().write("b.bin", std::string("\x7f"
                                     "ELF\0\0",
                                     6));
  ASSERT_EQ(::mkfifo(h.dir().file("pipe").c_str(), 0600), 0);
  EXPECT_THAT(h.outcome(Json::object()), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(h.outcome(Json{{"path", "missing.txt"}}), IsError(ErrorCode::kNotFound));
  EXPECT_THAT(h.outcome(Json{{"path", "missing.txt"}}), IsError(ErrorCode::kNotFound));  // cached
  EXPECT_THAT(h.outcome(Json{{"path", "/dev/zero"}}), IsError(ErrorCode::kPermissionDenied));
  EXPECT_THAT(h.outcome(Json{{"path", ".env"}}), IsError(ErrorCode::kPermissionDenied));
  EXPECT_THAT(h.outcome(Json{{"path", "pipe"}}), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(h.outcome(Json{{"path", "b.bin"}}), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(h.outcome(Json{{"path", "x.png"}}), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(h.outcome(Json{{"path", "a.txt"}}), IsOk());
  EXPECT_THAT(h.outcome(Json{{"path", "a.txt"}}), IsOk());  // the stub
  EXPECT_THAT(h.outcome(Json{{"path", "a.txt"}}), IsError(ErrorCode::kPermissionDenied));
}

// The file system is a seam: read_file reads through `Services::files`, so a
// fake one serves the content, and a read that fails is the tool's error.
TEST(ReadFileFakeFs, ReadsThroughServicesAndReportsInjectedFaults) {
  if (portable_files_run()) GTEST_SKIP() << "the portable path reads through shell commands";
  MemoryFileSystem fs;
  fs.add_file("/mem/a.txt", "one\ntwo\n");
  fs.add_file("/mem/b.txt", "x\n");
  ReadFileHarness h("", fs);
  EXPECT_EQ(h.read("/mem/a.txt")["content"], "1|one\n2|two");
  fs.fail(MemoryFileSystem::Op::kRead, 1, EIO);
  registry::ToolCallResult failed = h.outcome(Json{{"path", "/mem/b.txt"}});
  EXPECT_THAT(failed, IsError(ErrorCode::kIo));
  EXPECT_EQ(failed.value["error"], "Cannot read '/mem/b.txt': Input/output error");
  EXPECT_EQ(h.read("/mem/b.txt")["content"], "1|x");  // the fault was one read only
  Json missing = h.read("/mem/a.tx");
  EXPECT_EQ(missing["error"], "File not found: /mem/a.tx");
  EXPECT_EQ(missing["similar_files"][0], "/mem/a.txt");
}

// A backend that cannot start is the tool's error, never a crash or a hang.
TEST(ReadFileBackend, UnreachableSshHostIsTheToolsError) {
  ReadFileHarness h("terminal:\n  backend: ssh\n  ssh_host: 127.0.0.1\n  ssh_port: 1\n");
  std::string path = h.dir().write("f.txt", "x\n");
  Json out = h.read(path);
  EXPECT_TRUE(out.value("error", "").starts_with("SSH backend: cannot connect to")) << out.dump();
  ReadFileHarness unknown("terminal:\n  backend: mainframe\n");
  EXPECT_TRUE(
      unknown.read(path).value("error", "").starts_with("Unknown terminal backend 'mainframe'"));
}

bool seen_whole(ReadFileHarness& h, const std::string& path) {
  file_common::FileVersion v;
  EXPECT_TRUE(file_common::stat_version(fs::native_file_system(), path, v));
  return h.session().state<file_common::ReadTracker>().has_seen_whole(path, v);
}

std::string numbered_body(int lines) {
  std::string body;
  for (int i = 1; i <= lines; ++i) body += "line " + std::to_string(i) + "\n";
  return body;
}

TEST(ReadFileBaseline, ContiguousPagesCountAsAWholeRead) {
  ReadFileHarness h;
  std::string path = h.dir().write("paged.txt", numbered_body(25));
  h.call({{"path", "paged.txt"}, {"offset", 1}, {"limit", 10}});
  EXPECT_FALSE(seen_whole(h, path));
  h.call({{"path", "paged.txt"}, {"offset", 11}, {"limit", 10}});
  EXPECT_FALSE(seen_whole(h, path));
  h.call({{"path", "paged.txt"}, {"offset", 21}, {"limit", 10}});
  EXPECT_TRUE(seen_whole(h, path));
}

TEST(ReadFileBaseline, AGapOrANewVersionIsNotAWholeRead) {
  ReadFileHarness h;
  std::string path = h.dir().write("gap.txt", numbered_body(25));
  h.call({{"path", "gap.txt"}, {"offset", 1}, {"limit", 10}});
  h.call({{"path", "gap.txt"}, {"offset", 12}, {"limit", 20}});  // line 11 never shown
  EXPECT_FALSE(seen_whole(h, path));
  h.dir().write("gap.txt", numbered_body(26));  // a new version starts over
  h.call({{"path", "gap.txt"}, {"offset", 11}, {"limit", 20}});
  EXPECT_FALSE(seen_whole(h, path));
}

TEST(ReadFileBaseline, AReadWithAClampedLineIsNotAWholeRead) {
  ReadFileHarness h;
  std::string path = h.dir().write("long.txt", "short\n" + std::string(2500, 'x') + "\nend\n");
  Json r = h.read("long.txt");
  EXPECT_NE(r["content"].get<std::string>().find("... [truncated]"), std::string::npos);
  EXPECT_FALSE(seen_whole(h, path));
}

// The real path a brief check found goes with the call unchecked. An
// attacker who swaps the file for a link between the check and the read
// gains nothing: the open refuses the link (the kernel, beneath the root),
// so the stale finding yields an error, never the link's target.
TEST(ReadFileKnownRealPath, ALinkSwappedInAfterTheCheckIsNotFollowed) {
  if (portable_files_run()) GTEST_SKIP() << "the shell path resolves every path itself";
  ReadFileHarness h;
  TempDir elsewhere;
  const std::string secret = elsewhere.write("secret.txt", "TOP SECRET\n");
  const std::string path = h.dir().write("notes.txt", "plain notes\n");
  h.know(KnownRealPath{path, path});  // what the check saw: no link
  EXPECT_THAT(h.read(path)["content"].get<std::string>(), HasSubstr("plain notes"));
  std::filesystem::remove(path);
  std::filesystem::create_symlink(secret, path);
  Json stale = h.call(Json{{"path", path}, {"limit", 50}});
  EXPECT_TRUE(stale.contains("error")) << stale.dump();
  EXPECT_EQ(stale.dump().find("TOP SECRET"), std::string::npos) << stale.dump();
  h.know(KnownRealPath{});  // a fresh check follows the link, as any read does
  EXPECT_THAT(h.call(Json{{"path", path}, {"limit", 60}})["content"].get<std::string>(),
              HasSubstr("TOP SECRET"));
}

}  // namespace
}  // namespace hermes::testing
