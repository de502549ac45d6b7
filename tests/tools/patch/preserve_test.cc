// SPDX-License-Identifier: MIT
// Every reachable tier through the tool, on five shapes of the same file:
// plain, with a final blank line, without a final newline, CRLF, and with a
// BOM. Bytes outside the edit must come back identical.
#include "tools/write_file/tool_harness.h"

#include <gtest/gtest.h>

namespace hermes::testing {
namespace {

struct TierCase {
  const char* strategy;  // "" for exact
  const char* file;
  const char* old_text;
  const char* new_text;
  const char* expected;
};

const TierCase kCases[] = {
    {"", "a\n  target = 1\nz\n", "target = 1", "target = 2", "a\n  target = 2\nz\n"},
    {"line_trimmed", "begin\n    target = 1\n    other = 2\nend\n", "  target = 1\n  other = 2",
     "  target = 5\n  other = 2", "begin\n    target = 5\n    other = 2\nend\n"},
    {"whitespace_normalized", "call(a,   b)\nnext\n", "call(a, b)", "call(b, a)",
     "call(b, a)\nnext\n"},
    {"escape_normalized", "a\nline1\nline2\nz\n", "line1\\nline2", "joined", "a\njoined\nz\n"},
    {"unicode_normalized", "say(“hi”)\nx = 1\nz\n", "say(\"hi\")\nx = 1", "say(\"hi\")\nx = 2",
     "say(“hi”)\nx = 2\nz\n"},
    {"block_anchor", "begin\n  alpha = 1\n  beta  = 22\nend\nz\n",
     "begin\n  alpha = 1\n  beta = 2\nend", "begin\n  alpha = 1\n  gamma = 3\nend",
     "begin\n  alpha = 1\n  gamma = 3\nend\nz\n"},
    {"context_aware", "def compute_total(items):\n    return sum(items)\nz\n",
     "def compute_totals(items):\n    return sum(item)",
     "def compute_total(items):\n    return sum(items) + 1",
     "def compute_total(items):\n    return sum(items) + 1\nz\n"},
};

enum class Shape { kPlain, kFinalBlank, kNoFinalNewline, kCrlf, kBom };

std::string shaped(std::string text, Shape shape) {
  switch (shape) {
    case Shape::kPlain:
      return text;
    case Shape::kFinalBlank:
      return text + "\n";
    case Shape::kNoFinalNewline:
      text.pop_back();
      return text;
    case Shape::kCrlf: {
      std::string out;
      for (char c : text) out += c == '\n' ? "\r\n" : std::string(1, c);
      return out;
    }
    case Shape::kBom:
      return "\xEF\xBB\xBF" + text;
  }
  return text;
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<int, Shape>>& info) {
  static const char* kShapes[] = {"plain", "final_blank", "no_final_newline", "crlf", "bom"};
  std::string tier = kCases[std::get<0>(info.param)].strategy;
  return (tier.empty() ? "exact" : tier) + "_" + kShapes[static_cast<int>(std::get<1>(info.param))];
}

class PreserveTest : public ::testing::TestWithParam<std::tuple<int, Shape>> {};

TEST_P(PreserveTest, UntouchedBytesStayIdentical) {
  const TierCase& c = kCases[std::get<0>(GetParam())];
  const Shape shape = std::get<1>(GetParam());
  // An escaped "\n" in old_string is a real LF; a CRLF file does not hold it.
  if (shape == Shape::kCrlf && std::string(c.strategy) == "escape_normalized") GTEST_SKIP();
  TempDir dir;
  ToolHarness tools({patch::register_patch});
  std::string path = dir.write("f.txt", shaped(c.file, shape));
  Json out =
      tools.call("patch", {{"path", path}, {"old_string", c.old_text}, {"new_string", c.new_text}});
  ASSERT_EQ(out["success"], true) << out.dump(2);
  EXPECT_EQ(out.value("match_strategy", ""), c.strategy);
  EXPECT_EQ(dir.read("f.txt"), shaped(c.expected, shape));
}

INSTANTIATE_TEST_SUITE_P(
    Tiers, PreserveTest,
    ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kCases))),
                       ::testing::Values(Shape::kPlain, Shape::kFinalBlank, Shape::kNoFinalNewline,
                                         Shape::kCrlf, Shape::kBom)),
    case_name);

}  // namespace
}  // namespace hermes::testing
