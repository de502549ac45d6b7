// SPDX-License-Identifier: MIT
// What a long call's status shows of its output (registry/call_status.h):
// the byte count, the last line (a carriage return ends one, a line still
// being written counts), cleaned and capped, and the running_status text.
#include "registry/call_status.h"

#include <gtest/gtest.h>

#include <string>

namespace hermes::registry {
namespace {

TEST(CallStatus, NothingWrittenYet) {
  CallStatus status;
  EXPECT_EQ(status.view().bytes, 0u);
  EXPECT_EQ(status.view().last_line, "");
  EXPECT_EQ(running_status("terminal", 7, &status), "terminal: running for 7 s");
  EXPECT_EQ(running_status("terminal", 7, nullptr), "terminal: running for 7 s");
}

TEST(CallStatus, TheLastLineThatIsNotBlankAcrossChunks) {
  CallStatus status;
  status.add_output("compiling a");
  status.add_output(".c\nlinking\n\n  \n");
  EXPECT_EQ(status.view().bytes, 26u);
  EXPECT_EQ(status.view().last_line, "linking");
  EXPECT_EQ(running_status("terminal", 3, &status),
            "terminal: running for 3 s, 26 bytes of output; last line: linking");
}

TEST(CallStatus, ALineBeingWrittenAndProgressBarsCount) {
  CallStatus status;
  status.add_output("done\n 10%\r 55%\r");
  EXPECT_EQ(status.view().last_line, "55%");
  status.add_output("Password: ");
  EXPECT_EQ(status.view().last_line, "Password:");
}

TEST(CallStatus, TheLineIsCleanedRedactedAndCapped) {
  CallStatus status;
  status.add_output("\x1b[31mred\x1b[0m \xff\n");
  EXPECT_EQ(status.view().last_line, "red \xef\xbf\xbd");
  status.add_output("export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789\n");
  std::string line = status.view().last_line;
  EXPECT_EQ(line.find("abcdefghijklmnopqrstuvwxyz0123456789"), std::string::npos) << line;
  // 150 two-byte characters: cut at 200 bytes, on a character boundary.
  std::string wide;
  for (int i = 0; i < 150; ++i) wide += "\xc3\xa9";
  status.add_output(wide + "\n");
  EXPECT_EQ(status.view().last_line, wide.substr(0, 200));
}

TEST(CallStatus, AnEndlessLineKeepsItsHead) {
  CallStatus status;
  status.add_output("head " + std::string(1 << 20, 'x'));
  EXPECT_EQ(status.view().bytes, 5u + (1u << 20));
  EXPECT_EQ(status.view().last_line, "head " + std::string(195, 'x'));
}

}  // namespace
}  // namespace hermes::registry
