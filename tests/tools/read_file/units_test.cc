// SPDX-License-Identifier: MIT
// The read_file building blocks on their own: content detection, sizes,
// similarity scores, device paths, the denylist and the session state.
#include "testutil/status_matchers.h"
#include "testutil/temp_dir.h"
#include "tools/file_common/file_safety.h"
#include "tools/file_common/read_tracker.h"
#include "tools/read_file/content_kind.h"
#include "tools/read_file/not_found.h"
#include "tools/read_file/read_file_json.h"
#include "tools/read_file/read_guards.h"
#include "tools/read_file/read_state.h"
#include "tools/read_file/text_page.h"
#include "tools/read_file/text_read.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>

namespace hermes::read_file {
namespace {

using ::testing::HasSubstr;

TEST(ContentKind, BinaryAndSizes) {
  EXPECT_FALSE(looks_binary("plain text\n"));
  EXPECT_TRUE(looks_binary(std::string("a\0b", 3)));
  EXPECT_FALSE(looks_binary("ends mid char \xE2\x82"));  // cut at the very end
  EXPECT_TRUE(looks_binary("bad \xE2\x82 middle"));
  EXPECT_EQ(binary_kind("\x7F"
                        "ELF...."),
            "ELF executable");
  EXPECT_EQ(binary_kind(std::string("\0\0\0\x18"
                                    "ftypmp42",
                                    12)),
            "ISO Media (MP4/MOV)");
  EXPECT_EQ(binary_kind("SQLite format 3\0"), "SQLite database");
  EXPECT_EQ(binary_kind("??"), "unknown binary");
  EXPECT_EQ(format_size(1023), "1023 bytes");
  EXPECT_EQ(format_size(1536), "1.5 KB");
  EXPECT_EQ(format_size(3 * 1024 * 1024), "3.0 MB");
  EXPECT_EQ(extension_of("/a/b.tar.GZ"), ".gz");
  EXPECT_EQ(extension_of("/a/.bashrc"), "");
  EXPECT_TRUE(is_binary_extension(".woff2"));
  EXPECT_FALSE(is_binary_extension(".pdf"));
}

TEST(ContentKind, Utf16) {
  EXPECT_EQ(detect_utf16(std::string("a\0b\0", 4)), Utf16::kLittleEndian);
  EXPECT_EQ(detect_utf16(std::string("\0a\0b", 4)), Utf16::kBigEndian);
  EXPECT_EQ(detect_utf16("abc"), std::nullopt);
  // U+1F600 as a surrogate pair, LE.
  EXPECT_EQ(transcode_utf16(std::string("\x3D\xD8\x00\xDE", 4), Utf16::kLittleEndian),
            "\xF0\x9F\x98\x80");
}

bool brief(const Json& args) {
  registry::BriefFindings found;
  return reads_briefly(args, found);
}

TEST(ReadsBriefly, ByTheRealPathOfAnAbsolutePath) {
  testing::TempDir dir;
  const std::string text = dir.write("main.cc", "int main() {}\n");
  const std::string pdf = dir.write("paper.pdf", "%PDF-1.4\n");
  ASSERT_EQ(::symlink(pdf.c_str(), dir.file("notes").c_str()), 0);
  ASSERT_EQ(::symlink(text.c_str(), dir.file("code.pdf").c_str()), 0);
  EXPECT_TRUE(brief(Json{{"path", text}}));
  EXPECT_TRUE(brief(Json{{"path", dir.file("report.docx")}}));  // missing: refused fast
  EXPECT_TRUE(brief(Json{{"path", dir.file("code.pdf")}}));     // a link to text
  EXPECT_FALSE(brief(Json{{"path", pdf}}));
  EXPECT_FALSE(brief(Json{{"path", dir.file("PAPER.PDF")}}));
  // A link without an extension to a PDF: pdftotext runs.
  EXPECT_FALSE(brief(Json{{"path", dir.file("notes")}}));
  EXPECT_FALSE(brief(Json{{"path", dir.file("sub/../notes")}}));
}

TEST(ReadsBriefly, NotARelativePathNorAMissingOne) {
  // A relative path resolves against the session's directory, unknown here.
  EXPECT_FALSE(brief(Json{{"path", "src/main.cc"}}));
  EXPECT_FALSE(brief(Json{{"path", "~/notes.txt"}}));
  EXPECT_FALSE(brief(Json::object()));
  EXPECT_FALSE(brief(Json{{"path", 7}}));
}

// What the check resolved goes with the call, which then follows no link
// again: the real path of exactly the absolute path it was found for.
TEST(ReadsBriefly, LeavesTheRealPathItFoundForTheCall) {
  testing::TempDir dir;
  const std::string text = dir.write("main.cc", "int main() {}\n");
  ASSERT_EQ(::symlink(text.c_str(), dir.file("code.pdf").c_str()), 0);
  registry::BriefFindings found;
  ASSERT_TRUE(reads_briefly(Json{{"path", dir.file("sub/../code.pdf")}}, found));
  EXPECT_EQ(found.path.absolute, dir.file("code.pdf"));
  EXPECT_EQ(found.path.real, text);
  EXPECT_EQ(found.writer_lock, nullptr);
  PathResolver paths;
  EXPECT_EQ(paths.resolve(dir.file("code.pdf"), "", &found.path)->real, text);
  // What is known counts for the path it names, and for no other.
  KnownRealPath wrong{dir.file("other"), text};
  EXPECT_EQ(paths.resolve(dir.file("other"), "", &wrong)->real, text);
  EXPECT_EQ(paths.resolve(dir.file("elsewhere"), "", &wrong)->real, dir.file("elsewhere"));
}

TEST(NotFound, ScoresAndRatio) {
  EXPECT_NEAR(similarity_ratio("abcd", "abce"), 0.75, 1e-9);
  EXPECT_EQ(canonical_name("a\u00A0b\u2019c"), "a b'c");
  EXPECT_EQ(canonical_name("e\xCC\x81"), "\xC3\xA9");
}

TEST(ReadGuards, DeviceList) {
  EXPECT_TRUE(is_blocked_device("/dev/stdin"));
  EXPECT_TRUE(is_blocked_device("/proc/123/task/7/maps"));
  EXPECT_FALSE(is_blocked_device("/dev/null"));
  EXPECT_FALSE(is_blocked_device("/proc/cpuinfo"));
  EXPECT_TRUE(is_nt_namespace("\\??\\C:\\x"));
  EXPECT_FALSE(is_nt_namespace("C:\\x"));
}

TEST(FileSafety, Denylist) {
  EXPECT_THAT(file_common::check_readable("/p/main.py", "/h/.hermes"), testing::IsOk());
  Status env = file_common::check_readable("/p/.env.production", "/h/.hermes");
  EXPECT_THAT(env, testing::IsError(ErrorCode::kPermissionDenied));
  EXPECT_EQ(env.error().message,
            "Access denied: /p/.env.production is a secret-bearing environment file and cannot be "
            "read to "
            "prevent credential leakage. If you need to check the file structure, read "
            ".env.example instead. "
            "(Defense-in-depth — not a security boundary; the terminal tool can still bypass.)");
  EXPECT_THAT(
      file_common::check_readable("/r/.hermes/auth/google_oauth.json", "/r/.hermes/profiles/work")
          .error()
          .message,
      ::testing::HasSubstr("Hermes credential store"));  // the root, from a profile home
  EXPECT_THAT(file_common::check_readable("/r/.hermes/mcp-tokens", "/r/.hermes").error().message,
              ::testing::HasSubstr("is the Hermes MCP token directory"));
  EXPECT_THAT(file_common::check_readable("/r/.hermes/config.yaml", "/r/.hermes"), testing::IsOk());
}

// Stores that are links, as a hostile setup makes them: each store's real
// target is what is refused, wherever it lives, and the links themselves.
TEST(FileSafety, StoresReachedThroughLinksAreJudgedByTheirTargets) {
  testing::TempDir dir;
  const std::string home = dir.file("home");
  dir.write("home/config.yaml", "");
  const std::string secret = dir.write("elsewhere/secret.json", "{}");
  dir.write("elsewhere/tokens/t.json", "{}");
  dir.write("elsewhere/oauth/google_oauth.json", "{}");
  ASSERT_EQ(::symlink(secret.c_str(), (home + "/auth.json").c_str()), 0);
  ASSERT_EQ(::symlink(dir.file("elsewhere/tokens").c_str(), (home + "/mcp-tokens").c_str()), 0);
  ASSERT_EQ(::symlink(dir.file("elsewhere/oauth").c_str(), (home + "/auth").c_str()), 0);
  EXPECT_THAT(file_common::check_readable(secret, home).error().message,
              HasSubstr("credential store"));
  EXPECT_THAT(
      file_common::check_readable(dir.file("elsewhere/tokens/t.json"), home).error().message,
      HasSubstr("MCP token file"));
  EXPECT_THAT(file_common::check_readable(dir.file("elsewhere/oauth/google_oauth.json"), home)
                  .error()
                  .message,
              HasSubstr("credential store"));
  EXPECT_THAT(file_common::check_readable(home + "/config.yaml", home), testing::IsOk());
  // A home that is itself a link: judged by where it leads.
  const std::string link_home = dir.file("link-home");
  ASSERT_EQ(::symlink(home.c_str(), link_home.c_str()), 0);
  EXPECT_THAT(file_common::check_readable(secret, link_home).error().message,
              HasSubstr("credential store"));
  // A missing home: its stores are judged by name.
  EXPECT_THAT(
      file_common::check_readable(dir.file("gone/auth.json"), dir.file("gone")).error().message,
      HasSubstr("credential store"));
}

TEST(ReadState, NegativeCacheExpires) {
  ReadState state;
  auto t0 = steady_clock_source().now();
  state.cache_not_found("/x", ReadFileNotFound{Error::NotFound("File not found: /x"), {}}, t0);
  EXPECT_TRUE(state.cached_not_found("/x", t0 + std::chrono::seconds(59)));
  EXPECT_FALSE(state.cached_not_found("/x", t0 + std::chrono::seconds(61)));
  state.cache_not_found("/y", ReadFileNotFound{}, t0);
  state.on_other_tool_call();
  EXPECT_FALSE(state.cached_not_found("/y", t0));
}

fs::FileInfo version(int64_t mtime) {
  fs::FileInfo info;
  info.type = fs::FileType::kRegular;
  info.mtime_ns = mtime;
  return info;
}

TEST(ReadState, StubCountsStartOverAfterAnotherToolCall) {
  ReadState state;
  const ReadKey key{"/a", 1, 2000};
  state.record_served(key, version(1));
  EXPECT_EQ(state.check(key, version(1)).kind, DedupVerdict::kStub);
  EXPECT_EQ(state.check(key, version(1)).kind, DedupVerdict::kStubBlocked);
  state.on_other_tool_call();
  EXPECT_EQ(state.check(key, version(1)).kind, DedupVerdict::kStub);
  EXPECT_EQ(state.check(key, version(2)).kind, DedupVerdict::kRead);  // changed
}

// Thousands of distinct reads keep a bounded memory: the least recently read
// paths (and a path's oldest regions) lose their stamps, the recent keep them.
TEST(ReadState, StampsAreBoundedLeastRecentFirst) {
  ReadState state;
  const ReadKey first{"/f/first", 1, 2000};
  state.record_served(first, version(1));
  for (size_t n = 0; n < ReadState::kMaxPaths; ++n) {
    state.record_served({"/f/" + std::to_string(n), 1, 2000}, version(1));
    if (n % 1000 == 0) {  // kept in use: a stub counts as a read
      state.on_other_tool_call();
      EXPECT_EQ(state.check(first, version(1)).kind, DedupVerdict::kStub);
    }
  }
  const ReadKey early{"/f/1", 1, 2000};
  const ReadKey late{"/f/" + std::to_string(ReadState::kMaxPaths - 1), 1, 2000};
  state.on_other_tool_call();
  EXPECT_EQ(state.check(early, version(1)).kind, DedupVerdict::kRead);
  EXPECT_EQ(state.check(late, version(1)).kind, DedupVerdict::kStub);
  EXPECT_EQ(state.check(first, version(1)).kind, DedupVerdict::kStub);

  for (int64_t limit = 1; limit <= static_cast<int64_t>(ReadState::kMaxRegions); ++limit)
    state.record_served({"/r", 1, limit}, version(1));
  state.on_other_tool_call();
  EXPECT_EQ(state.check({"/r", 1, 1}, version(1)).kind, DedupVerdict::kStub);  // now the newest
  state.record_served({"/r", 1, 999}, version(1));  // one past the cap: limit 2 goes
  state.on_other_tool_call();
  EXPECT_EQ(state.check({"/r", 1, 2}, version(1)).kind, DedupVerdict::kRead);
  EXPECT_EQ(state.check({"/r", 1, 1}, version(1)).kind, DedupVerdict::kStub);
  EXPECT_EQ(state.check({"/r", 1, 3}, version(1)).kind, DedupVerdict::kStub);
  EXPECT_EQ(state.check({"/r", 1, 999}, version(1)).kind, DedupVerdict::kStub);
}

TEST(ReadState, AWriteDropsEveryRegionOfItsPathOnly) {
  file_common::ReadTracker tracker;  // outlives the state, which unsubscribes
  ReadState state;
  state.attach(tracker);
  state.record_served({"/w", 1, 10}, version(1));
  state.record_served({"/w", 5, 10}, version(1));
  state.record_served({"/w2", 1, 10}, version(1));
  tracker.record_write("/w", file_common::FileVersion{});
  state.on_other_tool_call();
  EXPECT_EQ(state.check({"/w", 1, 10}, version(1)).kind, DedupVerdict::kRead);
  EXPECT_EQ(state.check({"/w", 5, 10}, version(1)).kind, DedupVerdict::kRead);
  EXPECT_EQ(state.check({"/w2", 1, 10}, version(1)).kind, DedupVerdict::kStub);
}

// Limits from the config and a size from a file's metadata are not trusted
// for the up-front buffers: the largest of each renders the page, and the
// reservation stays bounded (an unbounded product overflows or throws).
TEST(TextPage, ExtremeLimitsAndSizeHintStillRender) {
  PageRequest request;
  request.limit = INT64_MAX;
  request.max_chars = INT64_MAX;
  request.max_line_length = 2000;
  bool fed = false;
  const ChunkSource source = [&](std::string_view& chunk) {
    if (fed) return false;
    chunk = "one\ntwo\n";
    fed = true;
    return true;
  };
  Page page = render_page(source, request, UINT64_MAX);
  EXPECT_EQ(page.content, "1|one\n2|two");
  EXPECT_EQ(page.total_lines, 2);
}

TEST(ReadState, NegativeCacheIsBounded) {
  ReadState state;
  auto t0 = steady_clock_source().now();
  for (size_t n = 0; n <= ReadState::kMaxMisses; ++n)
    state.cache_not_found("/m/" + std::to_string(n), ReadFileNotFound{}, t0);
  EXPECT_TRUE(state.cached_not_found("/m/" + std::to_string(ReadState::kMaxMisses), t0));
  EXPECT_FALSE(state.cached_not_found("/m/0", t0));
  // Expired misses make room before fresh ones are dropped.
  ReadState aged;
  for (size_t n = 0; n + 1 < ReadState::kMaxMisses; ++n)
    aged.cache_not_found("/old/" + std::to_string(n), ReadFileNotFound{}, t0);
  const auto later = t0 + std::chrono::seconds(61);
  aged.cache_not_found("/new/a", ReadFileNotFound{}, later);
  aged.cache_not_found("/new/b", ReadFileNotFound{}, later);
  EXPECT_TRUE(aged.cached_not_found("/new/a", later));
  EXPECT_TRUE(aged.cached_not_found("/new/b", later));
}

}  // namespace
}  // namespace hermes::read_file

namespace hermes::read_file {
namespace {

// A file whose metadata changes on every look: the read retries, then serves.
class ChangingFile final : public fs::ReadableFile {
 public:
  explicit ChangingFile(int& looks) : looks_(looks) {}
  Result<size_t> pread(char* buffer, size_t size, uint64_t offset) override {
    if (offset >= kText.size()) return size_t{0};
    size_t n = std::min(size, kText.size() - offset);
    std::memcpy(buffer, kText.data() + offset, n);
    return n;
  }
  Result<fs::FileInfo> info() override {
    fs::FileInfo info;
    info.type = fs::FileType::kRegular;
    info.size = kText.size();
    info.mtime_ns = ++looks_;
    return info;
  }
  static constexpr std::string_view kText = "one\ntwo\n";

 private:
  int& looks_;
};

class ChangingFs final : public fs::FileSystem {
 public:
  Result<fs::FileInfo> stat(const std::string&) const override {
    return ChangingFile(looks).info();
  }
  Result<fs::FileInfo> lstat(const std::string& p) const override { return stat(p); }
  Result<std::unique_ptr<fs::ReadableFile>> open_read(const std::string&) const override {
    return std::unique_ptr<fs::ReadableFile>(std::make_unique<ChangingFile>(looks));
  }
  Result<std::vector<std::string>> list_dir(const std::string&) const override {
    return std::vector<std::string>{};
  }
  Result<std::string> read_link(const std::string&) const override { return no(); }
  // The write side is not used by a read.
  Result<std::string> read_all(const std::string&) const override { return no(); }
  Result<fs::AtomicWriteOutcome> write_atomic(const std::string&, std::string_view,
                                              const fs::AtomicWriteOptions&) const override {
    return Error::InvalidArgument("no");
  }
  Result<bool> holds(const std::string&, std::string_view) const override { return no().error(); }
  Status remove(const std::string&) const override { return no().error(); }
  Status remove_dir(const std::string&) const override { return no().error(); }
  Status set_mode(const std::string&, unsigned) const override { return no().error(); }
  Status make_dir(const std::string&, unsigned) const override { return no().error(); }
  Status make_symlink(const std::string&, const std::string&) const override {
    return no().error();
  }
  Result<std::string> real_path(const std::string&) const override { return no(); }
  std::string home() const override { return ""; }
  static Result<std::string> no() { return Error::InvalidArgument("no"); }
  mutable int looks = 0;
};

TEST(TextRead, FileChangingDuringTheReadIsRetriedThenServed) {
  ChangingFs fs;
  ReadState state;
  file_common::ReadTracker tracker;
  ReadSettings settings;
  ResolvedPath path{"f.txt", "/x/f.txt", "/x/f.txt"};
  auto info = fs.stat(path.real);
  auto r = read_text_file(fs, path, *info, settings, state, tracker);
  ASSERT_THAT(r, testing::IsOk());
  EXPECT_EQ(std::get<ReadFilePage>(*r).page.content, "1|one\n2|two");
  EXPECT_GE(fs.looks, 4);  // stat, open's info, then one look per attempt
}

}  // namespace
}  // namespace hermes::read_file

namespace hermes::read_file {
namespace {

TEST(NotFound, SimilarFilesScoringTable) {
  testing::TempDir dir;
  for (const char* name :
       {"REPORT.TXT", "report.md", "report.txt.bak", "old-report.txt", "port", "repo_x.txt", "zzz"})
    dir.write(name, "");
  std::vector<std::string> got = similar_files(fs::native_file_system(), dir.path(), "report.txt");
  std::vector<std::string> want;
  for (const char* name : {"REPORT.TXT", "report.md", "report.txt.bak", "old-report.txt", "port"})
    want.push_back(dir.file(name));
  EXPECT_EQ(got, want);  // 100, 90, 70, 60, 40; the 30 falls off the top five
  testing::TempDir other;
  other.write("reporr", "");
  EXPECT_EQ(similar_files(fs::native_file_system(), other.path(), "report"),
            std::vector<std::string>{other.file("reporr")});  // difflib ratio 0.83 → 50
}

}  // namespace
}  // namespace hermes::read_file
