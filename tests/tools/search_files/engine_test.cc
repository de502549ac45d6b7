// SPDX-License-Identifier: MIT
// The process runner and engine edge cases that need a controlled engine:
// timeouts (a fake rg that sleeps), early stop, separate stderr, helpers.
#include "backend/local_backend.h"
#include "tools/search_files/content_engine.h"
#include "tools/search_files/engine_common.h"
#include "tools/search_files/search_harness.h"
#include "tools/search_files/search_process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

namespace hermes::testing {
namespace {

using namespace std::chrono_literals;
using search::RunEnd;

search::SpawnSpec spec_of(std::vector<std::string> argv) {
  return search::SpawnSpec{.argv = std::move(argv), .timeout = 5s};
}

TEST(SearchProcess, RecordsAndStderrStaySeparate) {
  std::vector<std::string> records;
  auto run =
      search::run_records(spec_of({"/bin/sh", "-c", "printf 'a\\nb\\nc'; echo oops >&2; exit 3"}),
                          [&](std::string_view r) {
                            records.emplace_back(r);
                            return true;
                          });
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(records, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(run->stderr_text, "oops\n");
  EXPECT_EQ(run->end, RunEnd::kExited);
  EXPECT_EQ(run->exit_code, 3);
}

TEST(SearchProcess, SinkStopKillsAnEndlessProducer) {
  int seen = 0;
  auto start = std::chrono::steady_clock::now();
  auto run = search::run_records(spec_of({"/usr/bin/yes"}),
                                 [&](std::string_view) { return ++seen < 1000; });
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->end, RunEnd::kSinkDone);
  EXPECT_EQ(seen, 1000);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

TEST(SearchProcess, DeadlineAndCancellation) {
  auto spec = spec_of({"/bin/sleep", "10"});
  spec.timeout = 200ms;
  auto timed = search::run_records(spec, [](std::string_view) { return true; });
  ASSERT_TRUE(timed.has_value());
  EXPECT_EQ(timed->end, RunEnd::kTimedOut);
  std::stop_source stop;
  stop.request_stop();
  spec.timeout = 5s;
  spec.stop = stop.get_token();
  auto cancelled = search::run_records(spec, [](std::string_view) { return true; });
  EXPECT_EQ(cancelled->end, RunEnd::kCancelled);
}

TEST(SearchProcess, LongRecordsAreCutAndMissingProgramsFail) {
  auto spec = spec_of({"/bin/sh", "-c", "head -c 100000 /dev/zero | tr '\\0' a; echo; echo b"});
  spec.max_record_bytes = 10;
  std::vector<std::string> records;
  auto run = search::run_records(spec, [&](std::string_view r) {
    records.emplace_back(r);
    return true;
  });
  EXPECT_EQ(records, (std::vector<std::string>{"aaaaaaaaaa", "b"}));
  EXPECT_FALSE(search::run_records(spec_of({"/nonexistent/rg"}), [](std::string_view) {
                 return true;
               }).has_value());
}

TEST(SearchProcess, BackendRunsQuoteEveryWordAndStopEarly) {
  backend::LocalBackend backend(/*portable_files=*/true);
  TempDir dir;
  std::string cwd = dir.path() + "/a 'b' $(x)";
  ASSERT_EQ(::mkdir(cwd.c_str(), 0755), 0);
  auto spec = spec_of({"/usr/bin/printf", "%s|", "it's", "-x", "$(touch pwned)", "`id`", "a\nb"});
  spec.cwd = cwd;
  spec.delimiter = '|';
  EXPECT_EQ(search::remote_script(spec),
            "cd -- '" + dir.path() +
                "/a '\\''b'\\'' $(x)' && exec -a 'printf' '/usr/bin/printf' "
                "'%s|' 'it'\\''s' '-x' '$(touch pwned)' '`id`' 'a\nb'");
  std::vector<std::string> records;
  auto run = search::run_records_on(backend, spec, [&](std::string_view r) {
    records.emplace_back(r);
    return true;
  });
  ASSERT_TRUE(run.has_value()) << run.error().message;
  EXPECT_EQ(run->exit_code, 0) << run->stderr_text;
  EXPECT_EQ(records, (std::vector<std::string>{"it's", "-x", "$(touch pwned)", "`id`", "a\nb"}));
  EXPECT_NE(::access((cwd + "/pwned").c_str(), F_OK), 0);
  int seen = 0;
  auto endless = search::run_records_on(backend, spec_of({"/usr/bin/yes"}),
                                        [&](std::string_view) { return ++seen < 100'000; });
  ASSERT_TRUE(endless.has_value());
  EXPECT_EQ(endless->end, RunEnd::kSinkDone);
  EXPECT_EQ(seen, 100'000);
}

TEST(SearchEngine, TimeoutGivesLimitReason) {
  TempDir tree;
  tree.write("a.txt", "x\n");
  FakeBin bin({});
  bin.script("rg", "printf './a.txt\\0001:x\\n'; sleep 10");
  search::EngineEnv env{.cwd = tree.path(), .timeout = 300ms};
  env.engines.rg = bin.path() + "/rg";
  search::SearchRequest req{.pattern = "x"};
  auto out = search::search_content(req, {"."}, env);
  EXPECT_EQ(out.limit_reason, "search_timeout");
  EXPECT_TRUE(out.truncated);
  EXPECT_TRUE(out.total_is_lower_bound);
  ASSERT_EQ(out.matches.size(), 1u);
  EXPECT_EQ(out.matches[0].path, "./a.txt");
}

TEST(SearchEngine, PageWindowCountsPastThePageAndCapsKeptBytes) {
  search::PageWindow window(2, 3);
  std::vector<bool> admitted;
  for (int i = 0; i < 6; ++i) admitted.push_back(window.admit());
  EXPECT_EQ(admitted, (std::vector<bool>{false, false, true, true, true, false}));
  EXPECT_TRUE(window.truncated());
  EXPECT_FALSE(window.full());
  search::PageWindow small(0, 1'000'000);
  small.admit();
  EXPECT_FALSE(small.truncated());
  small.keep(search::kMaxPageBytes);
  EXPECT_TRUE(small.full());
  EXPECT_TRUE(small.truncated());
}

TEST(SearchEngine, Helpers) {
  EXPECT_TRUE(search::pattern_has_newline("a\nb"));
  EXPECT_TRUE(search::pattern_has_newline("a\\nb"));
  EXPECT_FALSE(search::pattern_has_newline("a\\\\nb"));
  EXPECT_TRUE(search::pattern_has_newline("a\\\\\\nb"));
  EXPECT_EQ(search::cut_chars("héllo", 2), "hé");
  EXPECT_EQ(search::list_with_more({"a", "b", "c"}, 2), "a, b (+1 more)");
  EXPECT_EQ(search::rg_glob_args("*.py"),
            (std::vector<std::string>{"--type-add", "hermesglob:*.py", "--type", "hermesglob",
                                      "--glob", "!.*"}));
  EXPECT_EQ(search::rg_glob_args("src/**/*.py"),
            (std::vector<std::string>{"--glob", "src/**/*.py"}));
}

}  // namespace
}  // namespace hermes::testing
