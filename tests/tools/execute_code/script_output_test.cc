// SPDX-License-Identifier: MIT
#include "tools/execute_code/script_output.h"

#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

namespace hermes::execute_code {
namespace {

std::string stdout_of(const std::string& bytes, size_t chunk = 4096) {
  ScriptOutput output;
  for (size_t i = 0; i < bytes.size(); i += chunk) {
    output.stdout_capture.append(std::string_view(bytes).substr(i, chunk));
  }
  return assemble_stdout(output.stdout_capture).text;
}

TEST(ScriptOutput, ShortOutputIsWhole) {
  EXPECT_EQ(stdout_of("hello\n"), "hello\n");
  EXPECT_EQ(stdout_of(""), "");
}

TEST(ScriptOutput, OutputUpToTheCapIsWhole) {
  std::string text;
  for (int i = 0; i < 50000; ++i) text += static_cast<char>('a' + i % 23);
  EXPECT_EQ(stdout_of(text, 777), text);
}

TEST(ScriptOutput, TruncationCountsAndSpillFile) {
  ScriptOutput output;
  output.stdout_capture.append(std::string(60000, 'x') + "\x1b[1m!");
  StdoutView view = assemble_stdout(output.stdout_capture);
  EXPECT_TRUE(view.truncated);
  EXPECT_EQ(view.total_bytes, 60005u);
  EXPECT_EQ(view.captured_bytes, 50000u);
  EXPECT_EQ(view.omitted_bytes, 10005u);
  hermes::testing::TempDir dir;
  std::string path = write_spill(dir.path() + "/cache/exec", output.stdout_capture, true);
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(path.rfind(dir.path() + "/cache/exec/stdout-", 0), 0u);
  EXPECT_EQ(path.size() - path.rfind('/'), std::string("/stdout-0123456789ab.txt").size());
  EXPECT_EQ(dir.read(path.substr(dir.path().size() + 1)), std::string(60000, 'x') + "!");
}

TEST(ScriptOutput, OverCapKeepsHeadMarkerTail) {
  std::string text = std::string(20000, 'h') + std::string(1, 'x') + std::string(30000, 't');
  EXPECT_EQ(stdout_of(text),
            std::string(20000, 'h') +
                "\n\n... [OUTPUT TRUNCATED - 1 chars omitted out of 50,001 total] ...\n\n" +
                std::string(30000, 't'));
}

TEST(ScriptOutput, CutsNeverSplitACodePoint) {
  // 'é' is two bytes; with one ASCII byte first, the head's last byte is a
  // lead byte, and with one more at the end the tail starts mid sequence.
  std::string text = "a";
  while (text.size() < 60001) text += "\xC3\xA9";
  text += "b";
  std::string out = stdout_of(text);
  size_t marker = out.find("\n\n... [OUTPUT TRUNCATED - ");
  ASSERT_NE(marker, std::string::npos);
  EXPECT_EQ(marker, 19999u);  // the half sequence at the end of the head is dropped
  EXPECT_EQ(out.find("\xC3\xA9\n\n..."), marker - 2);
  std::string tail = out.substr(out.find("total] ...\n\n") + 12);
  EXPECT_EQ(tail.size(), 29999u);  // the orphan continuation byte is dropped
  EXPECT_EQ(tail.substr(0, 2), "\xC3\xA9");
  EXPECT_NE(out.find("10,004 chars omitted out of 60,002 total"), std::string::npos)
      << out.substr(19990, 80);
}

TEST(ScriptOutput, StderrKeepsItsHead) {
  proc::OutputCapture capture(kStderrBytes, 0);
  capture.append(std::string(9999, 'e') + "\xC3\xA9" + "rest");
  EXPECT_EQ(assemble_stderr(capture), std::string(9999, 'e'));
}

TEST(ScriptOutput, CleaningDecodesStripsAndRedacts) {
  EXPECT_EQ(clean_text("a\xff\x1b[1mb\x1b[0m", false),
            "a\xEF\xBF\xBD"
            "b");
  std::string secret = "ghp_" + std::string(36, 'A');
  EXPECT_EQ(clean_text("token " + secret, false), "token " + secret);
  EXPECT_EQ(clean_text("token " + secret, true).find(secret), std::string::npos);
}

}  // namespace
}  // namespace hermes::execute_code
