// SPDX-License-Identifier: MIT
#include "tools/task/auth_store.h"

#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

namespace hermes::task {
namespace {

using hermes::testing::TempDir;

constexpr int64_t kNow = 1'780'000'000'000;

ExhaustionMark mark() {
  return ExhaustionMark{"HTTP 429 | Rate limit exceeded", kNow, 24 * 3'600'000, 200};
}

constexpr const char* kAuth = R"({
  "version": 1,
  "active_provider": "nous",
  "providers": {"nous": {"access_token": "t"}},
  "credential_pool": {
    "gemini": [{"id": "a1", "priority": 0, "access_token": "k1", "last_status": null},
               {"id": "a2", "priority": 1, "access_token": "k2", "extra": {"x": [1, 2]}}],
    "nvidia": {"id": "b1", "access_token": "k3"}
  }
})";

TEST(ReadAuth, ParsesPoolListsAndSingleDicts) {
  TempDir dir;
  auto auth = read_auth(dir.write("auth.json", kAuth));
  ASSERT_TRUE(auth) << auth.error().message;
  EXPECT_TRUE(auth->has_pool);
  EXPECT_TRUE(auth->has_providers);
  ASSERT_EQ(auth->pool.size(), 2u);
  EXPECT_EQ(auth->pool[0].provider, "gemini");
  EXPECT_EQ(auth->pool[0].credentials.size(), 2u);
  EXPECT_EQ(auth->pool[1].credentials.size(), 1u);
}

TEST(ReadAuth, MissingAndCorruptFilesAreDistinctErrors) {
  TempDir dir;
  auto missing = read_auth(dir.file("nope.json"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  auto corrupt = read_auth(dir.write("auth.json", "{\"credential_pool\": {"));
  ASSERT_FALSE(corrupt);
  EXPECT_NE(corrupt.error().message.find("not valid JSON"), std::string::npos);
}

TEST(MarkExhausted, WritesHermesStyleFieldsAndKeepsEverythingElse) {
  TempDir dir;
  std::string path = dir.write("auth.json", kAuth);
  ::chmod(path.c_str(), 0600);
  auto done = mark_exhausted(path, "gemini", mark());
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_TRUE(*done);
  std::string text = dir.read("auth.json");
  EXPECT_EQ(text.back(), '\n');
  Json doc = Json::parse(text);
  for (const Json& c : doc["credential_pool"]["gemini"]) {
    EXPECT_EQ(c["last_status"], "exhausted");
    EXPECT_EQ(c["last_error_code"], 429);
    EXPECT_EQ(c["last_error_reason"], "RateLimitError");
    EXPECT_EQ(c["last_error_message"], "HTTP 429 | Rate limit exceeded");
    // Epoch seconds, as Hermes writes them, and a status time so the
    // forgiveness TTL can apply.
    EXPECT_DOUBLE_EQ(c["last_status_at"].get<double>(), kNow / 1000.0);
    EXPECT_DOUBLE_EQ(c["last_error_reset_at"].get<double>(), kNow / 1000.0 + 86400);
  }
  EXPECT_EQ(doc["credential_pool"]["gemini"][1]["extra"], Json::parse(R"({"x": [1, 2]})"));
  EXPECT_FALSE(doc["credential_pool"]["nvidia"].contains("last_status"));
  EXPECT_EQ(doc["providers"], Json::parse(R"({"nous": {"access_token": "t"}})"));
  EXPECT_EQ(doc.begin().key(), "version");  // key order kept
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_NE(::access(dir.file("auth.json.lock").c_str(), F_OK), 0);  // released
}

TEST(MarkExhausted, SingleDictCredentialIsMarked) {
  TempDir dir;
  std::string path = dir.write("auth.json", kAuth);
  ASSERT_TRUE(*mark_exhausted(path, "nvidia", mark()));
  EXPECT_EQ(Json::parse(dir.read("auth.json"))["credential_pool"]["nvidia"]["last_status"],
            "exhausted");
}

TEST(MarkExhausted, UnknownProviderWritesNothing) {
  TempDir dir;
  std::string path = dir.write("auth.json", kAuth);
  auto done = mark_exhausted(path, "kimi-coding", mark());
  ASSERT_TRUE(done);
  EXPECT_FALSE(*done);
  EXPECT_EQ(dir.read("auth.json"), kAuth);
}

TEST(MarkExhausted, CorruptFileIsNeverReplaced) {
  TempDir dir;
  std::string path = dir.write("auth.json", "{\"credential_pool\": {\"gemini\": [");
  auto done = mark_exhausted(path, "gemini", mark());
  ASSERT_TRUE(done);
  EXPECT_FALSE(*done);
  EXPECT_EQ(dir.read("auth.json"), "{\"credential_pool\": {\"gemini\": [");
}

TEST(MarkExhausted, BusyLockIsReportedAndFileUntouched) {
  TempDir dir;
  std::string path = dir.write("auth.json", kAuth);
  dir.write("auth.json.lock", "");
  ExhaustionMark m = mark();
  m.lock_timeout_ms = 30;
  auto done = mark_exhausted(path, "gemini", m);
  ASSERT_FALSE(done);
  EXPECT_EQ(done.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(dir.read("auth.json"), kAuth);
}

TEST(MarkExhausted, StaleLockIsTakenOver) {
  TempDir dir;
  std::string path = dir.write("auth.json", kAuth);
  std::string lock = dir.write("auth.json.lock", "");
  struct timespec old[2] = {{1000, 0}, {1000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, lock.c_str(), old, 0), 0);
  ASSERT_TRUE(*mark_exhausted(path, "gemini", mark()));
}

}  // namespace
}  // namespace hermes::task
