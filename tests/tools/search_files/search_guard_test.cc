// SPDX-License-Identifier: MIT
// search_files guards in order: loop guard, NT namespace, missing roots with
// suggestions and the negative cache, multi-path recovery, argument aliases.
#include "testutil/status_matchers.h"
#include "tools/search_files/search_harness.h"
#include "tools/search_files/search_paths.h"
#include "tools/search_files/search_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hermes::testing {
namespace {

using ::testing::StartsWith;

class SearchGuards : public ::testing::Test {
 protected:
  SearchHarness h;
  const TempDir& tree() { return h.tree(); }
};

TEST_F(SearchGuards, ThirdIdenticalSearchWarnsFourthIsBlocked) {
  tree().write("a.txt", "x\n");
  Json args = {{"pattern", "x"}};
  EXPECT_FALSE(h.call(args).contains("_warning"));
  EXPECT_FALSE(h.call(args).contains("_warning"));
  // output_mode and context are not part of the key.
  Json third = h.call({{"pattern", "x"}, {"output_mode", "count"}, {"context", 2}});
  EXPECT_THAT(third["_warning"].get<std::string>(),
              StartsWith("You have run this exact search 3 times consecutively."));
  Json fourth = h.call(args);
  EXPECT_EQ(fourth["error"],
            "BLOCKED: You have run this exact search 4 times in a row. The results have NOT "
            "changed. You already have this information. STOP re-searching and proceed with "
            "your task.");
  EXPECT_EQ(fourth["pattern"], "x");
  EXPECT_EQ(fourth["already_searched"], 4);
  EXPECT_EQ(h.call(args)["already_searched"], 5);
}

TEST_F(SearchGuards, PagingOrAnotherToolResetsTheGuard) {
  tree().write("a.txt", "x\n");
  for (int i = 0; i < 3; ++i) h.call({{"pattern", "x"}});
  EXPECT_FALSE(h.call({{"pattern", "x"}, {"offset", 1}}).contains("error"));
  for (int i = 0; i < 3; ++i) h.call({{"pattern", "x"}});
  h.session().notify_other_tool_call();
  Json after = h.call({{"pattern", "x"}});
  EXPECT_FALSE(after.contains("error"));
  EXPECT_FALSE(after.contains("_warning"));
}

TEST_F(SearchGuards, NtNamespacePathsAreRefused) {
  Json out = h.call({{"pattern", "x"}, {"path", "\\\\?\\C:\\x"}});
  EXPECT_THAT(out["error"].get<std::string>(), StartsWith("Access denied: "));
  EXPECT_FALSE(out.contains("total_count"));
}

TEST_F(SearchGuards, MissingRootSuggestsSimilarPaths) {
  tree().write("src/a.txt", "x");
  tree().write("srcs_old/b.txt", "x");
  tree().write("docs/c.txt", "x");
  Json out = h.call({{"pattern", "x"}, {"path", "srcx"}});
  EXPECT_EQ(out["error"], "Path not found: srcx. Similar paths: ./src, ./srcs_old");
  EXPECT_EQ(out["total_count"], 0);
  Json plain = h.call({{"pattern", "x"}, {"path", "nothing/here"}});
  EXPECT_EQ(plain["error"], "Path not found: nothing/here");
}

// isError and its code come from the typed outcome: each refusal and failure
// kind has its code, and a search that finds nothing is no failure.
TEST_F(SearchGuards, FailuresCarryTheirErrorCode) {
  tree().write("a.txt", "an error\n");
  auto code_of = [&](Json args) -> std::optional<ErrorCode> {
    registry::ToolReply reply = h.reply(std::move(args));
    if (!reply.is_error) return std::nullopt;
    return reply.code.value_or(ErrorCode::kInternal);
  };
  EXPECT_EQ(code_of({{"pattern", "error"}}), std::nullopt);
  EXPECT_EQ(code_of({{"pattern", "nothing matches this"}}), std::nullopt);
  EXPECT_EQ(code_of({{"pattern", ""}}), ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of({{"pattern", "x"}, {"order", "sideways"}}), ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of({{"pattern", "x"}, {"path", "missing"}}), ErrorCode::kNotFound);
  EXPECT_EQ(code_of({{"pattern", "x"}, {"path", "missing"}}), ErrorCode::kNotFound);  // cached
  EXPECT_EQ(code_of({{"pattern", "x"}, {"path", "\\\\?\\C:\\x"}}), ErrorCode::kPermissionDenied);
  EXPECT_EQ(code_of({{"pattern", "x"}, {"path", "/dev/null"}}), ErrorCode::kInvalidArgument);
  for (int i = 0; i < 3; ++i) code_of({{"pattern", "a"}});
  EXPECT_EQ(code_of({{"pattern", "a"}}), ErrorCode::kPermissionDenied);  // the fourth: blocked
}

TEST_F(SearchGuards, NegativeCacheReplaysUntilThePathExists) {
  auto& state = h.session().state<search::SearchSessionState>();
  std::string real = tree().file("later");
  auto now = search::SearchSessionState::Clock::now();
  state.remember_not_found(real, "Path not found: cached", now);
  EXPECT_EQ(h.call({{"pattern", "x"}, {"path", "later"}})["error"], "Path not found: cached");
  tree().write("later/f.txt", "x\n");
  EXPECT_EQ(h.call({{"pattern", "x"}, {"path", "later"}})["total_count"], 1);
  EXPECT_FALSE(state.cached_not_found(real, now).has_value());
  state.remember_not_found(real, "m", now);
  EXPECT_FALSE(state.cached_not_found(real, now + std::chrono::seconds(61)).has_value());
  state.remember_not_found(real, "m", now);
  state.on_other_tool_call();
  EXPECT_FALSE(state.cached_not_found(real, now).has_value());
}

TEST_F(SearchGuards, MultiPathSplitsOnCommasElseWhitespace) {
  EXPECT_EQ(search::split_multi_path("a, b c ,d"), (std::vector<std::string>{"a", "b c", "d"}));
  EXPECT_EQ(search::split_multi_path("a  b\tc"), (std::vector<std::string>{"a", "b", "c"}));
  tree().write("a.txt", "k\n");
  Json out = h.call({{"pattern", "k"}, {"path", "a.txt, m1, m2, m3, m4"}});
  EXPECT_EQ(out["total_count"], 1);
  EXPECT_EQ(out["warning"],
            "path contained 5 entries; searched 1 that exist; skipped missing: m1, m2, m3 "
            "(+1 more)");
}

TEST_F(SearchGuards, ArgumentAliasesAndDefaults) {
  tree().write("a.txt", "k\n");
  EXPECT_EQ(h.call({{"pattern", "k"}, {"target", "grep"}})["total_count"], 1);
  EXPECT_EQ(h.call({{"pattern", "a.txt"}, {"target", "find"}})["files"][0], "./a.txt");
  EXPECT_EQ(h.call({{"pattern", "k"}, {"target", "other"}, {"path", " "}})["total_count"], 1);
  Json coerced = h.call({{"pattern", "k"}, {"limit", "many"}, {"offset", "1"}});
  EXPECT_EQ(coerced["total_count"], 1) << coerced.dump();
  EXPECT_FALSE(coerced.contains("matches"));
}

// `{}` would otherwise match every line of every file under the cwd.
TEST_F(SearchGuards, MissingOrEmptyPatternAsksForOne) {
  tree().write("a.txt", "k\n");
  for (const Json& args : {Json::object(), Json{{"pattern", ""}}, Json{{"pattern", nullptr}},
                           Json{{"target", "files"}}}) {
    Json out = h.call(args);
    EXPECT_THAT(out["error"].get<std::string>(), StartsWith("search_files: 'pattern' is required"))
        << args.dump();
    EXPECT_FALSE(out.contains("total_count")) << args.dump();
  }
}

TEST_F(SearchGuards, WrongTypedArgumentsSayWhichTypeIsWanted) {
  EXPECT_EQ(h.call({{"pattern", 5}})["error"],
            "search_files: 'pattern' must be a string, got int.");
  EXPECT_EQ(h.call({{"pattern", "k"}, {"path", Json::array({"a", "b"})}})["error"],
            "search_files: 'path' must be a string, got list.");
  EXPECT_EQ(h.call({{"pattern", "k"}, {"order", true}})["error"],
            "search_files: 'order' must be a string, got bool.");
}

TEST_F(SearchGuards, AbsolutePathsOutsideTheWorkspaceAreAllowed) {
  TempDir outside;
  outside.write("x.txt", "k\n");
  Json out = h.call({{"pattern", "k"}, {"path", outside.path()}});
  EXPECT_EQ(out["total_count"], 1);  // no containment by default
}

}  // namespace
}  // namespace hermes::testing
